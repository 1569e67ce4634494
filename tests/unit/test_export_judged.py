"""``/game export`` reads what each action answered as it was judged at commit (the kind of
decision and whether it is withheld, stored with the action) instead of replaying the log: for a
game of every kind stored by the session now, the export is the very one the replay path makes,
at several points of the game and at its end; actions stored before the judgement was (NULL) are
exported through the replay, exactly as before."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest

from bot.config import Config
from bot.replay import export_data
from bot.replay.export import all_events
from bot.session import Sessions
from bot.storage import ActionRow, GameRow, open_storage
from rules import registry
from rules.engine import Engine

GAMES = sorted(registry.all_engines())


def _config(db: Path) -> Config:
    return Config(token=None, db_path=str(db), dev_guild=None, log_level="WARNING",
                  default_deadline=86400, reminder_lead=3600, docs_url="https://example.org/")


Export = tuple[GameRow, list[ActionRow], dict[str, Any], dict[str, Any]]


async def _exports(sessions: Sessions, game_id: int) -> Export:
    """The stored game, its log, its export from the stored judgements and the replay path's."""
    game = await sessions.storage.get_game(game_id)
    assert game is not None
    rows = await sessions.storage.actions(game_id)
    actions = [a for a in rows if isinstance(a, ActionRow)]
    assert len(actions) == len(rows), "the storage read a row that is not an ActionRow"
    events = await all_events(sessions, game, private=game.status == "finished")
    return (game, actions, export_data(game, actions, events),
            export_data(game, actions, events, replay=True))


async def _play(db: Path, key: str, seed: int, checkpoints: set[int]) -> list[Export]:
    """A game of ``key``: Ann (seat 0, her moves chosen as a computer player would) against
    computer players, exported after each of Ann's moves in ``checkpoints`` and at the end."""
    storage = open_storage(str(db))
    await storage.open()
    try:
        sessions = Sessions(storage, _config(db))
        engine: Engine[Any] = registry.get(key)
        table = await sessions.open_table(guild_id=1, channel_id=2, host_id=5, host_name="Ann",
                                          game_key=key, bots=engine.min_players - 1, seed=seed)
        await sessions.start(table.id, 5)
        rng = random.Random(seed)
        out = []
        for move in range(1, 400):
            snap = await sessions.snapshot(table.id)
            mine = snap.prompt_of(0)
            if snap.game.status != "active" or mine is None:
                break
            view = engine.view(snap.state, 0)
            await sessions.act(table.id, 0, engine.bot_action(view, mine.prompt, rng), user_id=5,
                               deliver=False)
            if move in checkpoints:
                out.append(await _exports(sessions, table.id))
        out.append(await _exports(sessions, table.id))
        return out
    finally:
        await storage.close()


@pytest.mark.parametrize("key", GAMES)
def test_a_game_stored_now_exports_from_its_stored_judgements_as_the_replay_would(
        key: str, tmp_path: Path) -> None:
    exports = asyncio.run(_play(tmp_path / "herald.db", key, 4242, {1, 3, 8, 20}))
    assert len(exports) >= 2
    for _, actions, stored, replayed in exports:
        assert actions and all(a.judged for a in actions), "an action stored without its judgement"
        assert stored == replayed


def test_a_running_duel_withholds_the_bids_it_stored_as_secret(tmp_path: Path) -> None:
    [(game, actions, stored, _), *_] = asyncio.run(_play(tmp_path / "herald.db", "duel", 7, {1}))
    assert game.status == "active"
    assert [a.secret for a in actions] == [r.get("secret", False) for r in stored["actions"]]
    assert any(a.secret for a in actions) and all("action" not in r
                                                  for r in stored["actions"] if r.get("secret"))


def test_actions_stored_before_their_judgement_export_through_the_replay(tmp_path: Path) -> None:
    """Rows with NULL judgements (schema 13's) take the replay path, whatever judged rows would
    say: an old game exports exactly as before, and one NULL row is enough."""
    [(game, actions, stored, _), *_] = asyncio.run(_play(tmp_path / "herald.db", "duel", 7, {1}))
    old = [ActionRow(*a) for a in actions]  # (as read from a schema-13 row: no judgement)
    lying = [ActionRow(*a, "bid", False) for a in actions]  # (judged rows claiming nothing secret)
    assert any(r.get("secret") for r in stored["actions"])
    assert export_data(game, old, []) == export_data(game, actions, [])
    assert export_data(game, lying, []) != export_data(game, old, [])  # (the stored flags are read)
    assert export_data(game, [*lying[:-1], old[-1]], []) == export_data(game, old, [])
