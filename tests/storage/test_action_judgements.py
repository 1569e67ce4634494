"""What each action answered, stored with it at commit (schema 14): the kind of decision and
whether a running game's export withholds it, on both backends; rows stored before schema 14
read back without them (their export replays the log), and a schema-13 database migrates."""

from __future__ import annotations

import pickle
import sqlite3
from pathlib import Path
from typing import Any

import asyncpg

from bot.storage import MIGRATIONS, ActionRow, SqliteStorage, Storage
from bot.storage import postgres as pg
from tests.support.storage import opened, started_duel


async def _log(s: Storage, gid: int) -> list[ActionRow]:
    """The game's log as the storage reads it: every row an ``ActionRow``."""
    rows = await s.actions(gid)
    assert all(isinstance(r, ActionRow) for r in rows)
    return [r for r in rows if isinstance(r, ActionRow)]


def _move(gid: int, version: int, seat: int, **over: Any) -> dict[str, Any]:
    args: dict[str, Any] = dict(
        expected_version=version, seat=seat, action={"type": "bid", "card": 3}, origin="player",
        user_id=100 + seat, state={"turn": version}, events=[{"text": "A bid."}], status="active",
        result=None, opened={}, answered={seat: 1}, deadlines=[], now=3.0 + version)
    args.update(over)
    return args


async def test_an_action_is_stored_with_the_kind_and_secrecy_of_what_it_answered(
        store: Storage) -> None:
    gid = await started_duel(store, {"turn": 0}, [])
    await store.commit_action(gid, **_move(gid, 1, 0), prompt_kind="bid", secret=True)
    await store.commit_action(gid, **_move(gid, 2, 1, action={"type": "pass"}),
                              prompt_kind="reveal", secret=False)
    first, second = await _log(store, gid)
    assert (first.prompt_kind, first.secret, second.prompt_kind, second.secret) == (
        "bid", True, "reveal", False)
    assert first.judged and second.judged
    # still the (seat, action, origin) triple every older reader unpacks
    assert await store.actions(gid) == [(0, {"type": "bid", "card": 3}, "player"),
                                        (1, {"type": "pass"}, "player")]
    seat, action, origin = second
    assert (seat, action, origin) == (1, {"type": "pass"}, "player")


async def test_an_action_committed_without_a_judgement_reads_back_unjudged(store: Storage) -> None:
    gid = await started_duel(store, {"turn": 0}, [])
    await store.commit_action(gid, **_move(gid, 1, 0))
    await store.commit_action(gid, **_move(gid, 2, 1), prompt_kind=None, secret=True)
    unjudged, no_prompt = await _log(store, gid)
    assert (unjudged.prompt_kind, unjudged.secret, unjudged.judged) == (None, None, False)
    assert (no_prompt.prompt_kind, no_prompt.secret, no_prompt.judged) == (None, True, True)


async def test_an_undo_keeps_the_judgements_of_the_actions_it_keeps(store: Storage) -> None:
    gid = await started_duel(store, {"turn": 0}, [])
    await store.commit_action(gid, **_move(gid, 1, 0), prompt_kind="bid", secret=True)
    await store.commit_action(gid, **_move(gid, 2, 1), prompt_kind="bid", secret=False)
    await store.undo_actions(gid, expected_version=3, keep=1, state={"turn": 1}, events=[],
                             opened={}, answered={}, deadlines=[], now=9.0)
    [kept] = await _log(store, gid)
    assert (kept.prompt_kind, kept.secret) == ("bid", True)


def test_a_stored_action_crosses_to_a_worker_process_with_its_judgement() -> None:
    row = ActionRow(2, {"card": "x"}, "bot", "bid", False)
    back = pickle.loads(pickle.dumps(row))
    assert back == row and isinstance(back, ActionRow)
    assert (back.prompt_kind, back.secret) == ("bid", False)


def _schema_13_sqlite(path: Path) -> None:
    with sqlite3.connect(path) as raw:
        for script in MIGRATIONS[:13]:
            raw.executescript(script)
        raw.execute("INSERT INTO games (id, game_key, status, version, seed, state, created_at, "
                    "updated_at) VALUES (1, 'duel', 'active', 2, 5, '{}', 1.0, 2.0)")
        raw.execute("INSERT INTO seats (game_id, seat, user_id, name) VALUES (1, 0, 100, 'Ada'), "
                    "(1, 1, 200, 'Bo')")
        raw.execute("INSERT INTO actions (game_id, n, seat, action, origin, user_id, created_at) "
                    "VALUES (1, 1, 0, '{\"card\": 3}', 'player', 100, 2.0)")
        raw.execute("PRAGMA user_version = 13")


async def test_a_schema_13_database_migrates_and_its_old_actions_read_back_unjudged(
        tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    _schema_13_sqlite(path)
    async with opened(SqliteStorage(str(path))) as s:
        assert await s.schema_version() == len(MIGRATIONS) >= 14
        [old] = await _log(s, 1)
        assert not old.judged
        assert old == (0, {"card": 3}, "player")
        await s.commit_action(1, **_move(1, 2, 1), prompt_kind="bid", secret=True)
        assert [a.secret for a in await _log(s, 1)] == [None, True]


async def test_a_schema_13_database_migrates_postgres(postgres_url: str) -> None:
    raw = await asyncpg.connect(postgres_url)
    try:
        await raw.execute(f"CREATE TABLE {pg.SCHEMA_TABLE} (version INTEGER NOT NULL)")
        await raw.execute(f"INSERT INTO {pg.SCHEMA_TABLE} VALUES (13)")
        for script in pg.MIGRATIONS[:13]:
            await raw.execute(script)
        await raw.execute("INSERT INTO games (id, game_key, status, version, seed, state, "
                          "created_at, updated_at) VALUES (1, 'duel', 'active', 2, 5, '{}', 1, 2)")
        await raw.execute("INSERT INTO seats (game_id, seat, user_id, name) VALUES "
                          "(1, 0, 100, 'Ada'), (1, 1, 200, 'Bo')")
        await raw.execute("INSERT INTO actions (game_id, n, seat, action, origin, user_id, "
                          "created_at) VALUES (1, 1, 0, '{\"card\": 3}', 'player', 100, 2)")
    finally:
        await raw.close()
    async with opened(pg.PostgresStorage(postgres_url)) as s:
        assert await s.schema_version() == len(MIGRATIONS)
        [old] = await _log(s, 1)
        assert not old.judged
        assert old == (0, {"card": 3}, "player")
        await s.commit_action(1, **_move(1, 2, 1), prompt_kind="bid", secret=False)
        assert [a.secret for a in await _log(s, 1)] == [None, False]
