"""Whole games through :class:`bot.session.Sessions` on PostgreSQL: every registered game, seeded,
played to the end by computer players; its replay equals its stored state, and the same seed on
SQLite stores the very same actions and state (the backends are interchangeable)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.config import Config
from bot.session import Sessions
from bot.storage import PostgresStorage, SqliteStorage, Storage
from rules import registry

GAMES = sorted(registry.all_engines())
SEED = 7


async def _play(storage: Storage, game_key: str) -> tuple[Any, list[Any]]:
    """Play one seeded game between computer players; (its stored row, its action log)."""
    engine = registry.get(game_key)
    players = engine.min_players if game_key == "flick_of_faith" else engine.max_players
    clock = iter(range(10**9))
    sessions = Sessions(storage, Config.from_env({}), now=lambda: float(next(clock)))
    await storage.open()
    try:
        table = await sessions.open_table(guild_id=None, channel_id=None, host_id=None,
                                          host_name="", game_key=game_key, options=None,
                                          bots=players, seed=SEED, host_plays=False)
        await sessions.start(table.id, None)
        game = await storage.get_game(table.id)
        assert game is not None and game.status == "finished", f"{game_key} did not finish"
        assert await sessions.verify_replay(table.id), f"{game_key}: replay differs from the state"
        return game, await storage.actions(table.id)
    finally:
        await storage.close()


@pytest.mark.parametrize("game_key", GAMES)
async def test_a_seeded_game_plays_to_the_end_on_postgres_as_on_sqlite(
        game_key: str, postgres_url: str, tmp_path: Path) -> None:
    on_pg, pg_actions = await _play(PostgresStorage(postgres_url), game_key)
    on_sqlite, sqlite_actions = await _play(SqliteStorage(str(tmp_path / "herald.db")), game_key)
    assert pg_actions == sqlite_actions and len(pg_actions) > 0
    assert (on_pg.state, on_pg.result, on_pg.version) == (on_sqlite.state, on_sqlite.result,
                                                          on_sqlite.version)
