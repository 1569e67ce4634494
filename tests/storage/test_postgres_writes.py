"""How few round trips the PostgreSQL backend takes per action, and what it must still do: an
action is one statement; deadlines it does not change are not written again (no new row
version), and other processes are woken only for a new one; servers' settings are read from
memory only while every change to them is heard (LISTEN/NOTIFY), never a change missed."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator
from typing import Any

import asyncpg
import pytest

from bot.storage import (
    DeadlineRow,
    GuildSettings,
    PostgresStorage,
    StorageUnavailable,
    VersionConflict,
)
from bot.storage import postgres as pg
from tests.support.storage import opened, started_duel


@pytest.fixture
async def traced(postgres_url: str) -> AsyncIterator[tuple[PostgresStorage, list[str]]]:
    """A storage whose statements are recorded (from when the list is cleared)."""
    sql: list[str] = []
    async with opened(PostgresStorage(postgres_url, trace=sql.append)) as s:
        yield s, sql


@pytest.fixture
async def raw(postgres_url: str) -> AsyncIterator[asyncpg.Connection]:
    conn = await asyncpg.connect(postgres_url)
    try:
        yield conn
    finally:
        await conn.close()


def _move(gid: int, version: int, deadlines: list[DeadlineRow]) -> dict[str, Any]:
    return dict(expected_version=version, seat=1, action={"type": "note", "v": version},
                origin="bot", user_id=None, state={"turn": version}, status="active", result=None,
                events=[{"text": "one"}, {"text": "two", "to": [1]}], opened={0: 1}, answered={},
                deadlines=deadlines, now=3.0 + version)


async def test_an_action_is_one_statement_and_a_read_of_a_game_another(
        traced: tuple[PostgresStorage, list[str]]) -> None:
    s, sql = traced
    gid = await started_duel(s, {"turn": 0}, [DeadlineRow(0, 0, "bid", 100.0, 50.0, False, 1)])
    [d] = await s.deadlines(gid)
    sql.clear()
    assert await s.commit_action(gid, **_move(gid, 1, [d])) == 2
    assert sql == [pg._COMMIT]
    sql.clear()
    game = await s.get_game(gid)
    assert len(sql) == 1
    assert game is not None and game.version == 2 and [x.name for x in game.seats] == ["Ada", "Bo"]
    assert [(e.n, e.text) for e in await s.events(gid, viewer_seat=1)] == [(1, "one"), (2, "two")]
    sql.clear()
    game, deadlines = await s.game_and_deadlines(gid)  # (a player's move: with its deadlines)
    assert sql == [pg._GAME_SEATS_DEADLINES]
    assert game is not None and game.version == 2 and deadlines == [d]


async def test_unchanged_deadlines_are_not_written_again(
        traced: tuple[PostgresStorage, list[str]], raw: asyncpg.Connection) -> None:
    s, _ = traced
    gid = await started_duel(s, {"turn": 0}, [DeadlineRow(0, 0, "bid", 100.0, 50.0, False, 1)])
    [d] = await s.deadlines(gid)

    async def row_version() -> str:
        # xmin: the transaction that wrote the row's current version
        return str(await raw.fetchval("SELECT xmin::text FROM deadlines WHERE game_id=$1", gid))

    before = await row_version()
    await s.commit_action(gid, **_move(gid, 1, [d]))
    assert await row_version() == before
    await s.replace_deadlines(gid, [d])
    assert await row_version() == before
    await s.commit_action(gid, **_move(gid, 2, [dataclasses.replace(d, due_at=120.0)]))
    assert await row_version() != before
    assert [x.due_at for x in await s.deadlines(gid)] == [120.0]


async def test_other_processes_are_woken_only_for_a_new_deadline(
        traced: tuple[PostgresStorage, list[str]], raw: asyncpg.Connection) -> None:
    s, _ = traced
    heard: list[str] = []
    await raw.add_listener(pg.WAKE_CHANNEL, lambda *args: heard.append(args[-1]))
    gid = await started_duel(s, {"turn": 0}, [DeadlineRow(0, 0, "bid", 100.0, 50.0, False, 1)])
    [d] = await s.deadlines(gid)

    async def woken() -> bool:
        await raw.execute("SELECT 1")  # (notices arriving meanwhile are delivered)
        await asyncio.sleep(0.1)
        was = bool(heard)
        heard.clear()
        return was

    assert await woken()  # the start's deadline
    await s.commit_action(gid, **_move(gid, 1, [d]))
    assert not await woken()
    await s.commit_action(gid, **_move(gid, 2, [dataclasses.replace(d, due_at=120.0)]))
    assert not await woken()  # the same prompt's deadline moved: the others know of it already
    await s.commit_action(gid, **_move(gid, 3, [d, DeadlineRow(gid, 1, "play", 90.0, None, False, 4)]))
    assert await woken()
    with pytest.raises(VersionConflict):  # a conflict writes nothing, wakes nobody
        await s.commit_action(gid, **_move(gid, 3, [DeadlineRow(gid, 1, "x", 1.0, None, False, 9)]))
    assert not await woken()


async def test_settings_are_read_from_memory_and_a_change_elsewhere_is_heard(
        traced: tuple[PostgresStorage, list[str]], postgres_url: str) -> None:
    s, sql = traced
    assert (await s.guild_settings(7)).default_deadline is None
    sql.clear()
    mine = await s.guild_settings(7)
    assert sql == []  # from memory
    mine.channels.append(5)  # (what a caller does to its copy is its own)
    assert (await s.guild_settings(7)).channels == []
    async with opened(PostgresStorage(postgres_url)) as other:
        await other.save_guild_settings(GuildSettings(7, default_deadline=600))
    for _ in range(50):  # heard at the other's commit
        if (await s.guild_settings(7)).default_deadline == 600:
            break
        await asyncio.sleep(0.05)
    assert (await s.guild_settings(7)).default_deadline == 600
    await s.save_guild_settings(GuildSettings(7, default_deadline=900))
    assert (await s.guild_settings(7)).default_deadline == 900  # its own change, at once


async def test_settings_are_not_kept_while_changes_cannot_be_heard(
        traced: tuple[PostgresStorage, list[str]], postgres_url: str) -> None:
    s, sql = traced
    await s.guild_settings(7)
    assert s._listener is not None
    relisten, pg.RELISTEN_EVERY = pg.RELISTEN_EVERY, 3600
    try:
        s._listener.terminate()
        for _ in range(50):
            if s._listener is None:
                break
            await asyncio.sleep(0.02)
        assert s._listener is None
        async with opened(PostgresStorage(postgres_url)) as other:
            await other.save_guild_settings(GuildSettings(7, default_deadline=600))
        sql.clear()
        assert (await s.guild_settings(7)).default_deadline == 600
        assert (await s.guild_settings(7)).default_deadline == 600
        assert len(sql) == 2  # read each time
    finally:
        pg.RELISTEN_EVERY = relisten


async def test_a_change_heard_while_reading_settings_is_not_covered_up(
        traced: tuple[PostgresStorage, list[str]]) -> None:
    """The notice of a change can arrive while a read of the old settings is on its way: that
    read is returned, but not kept (kept, it would hide the change until it expired)."""
    s, sql = traced
    sql.clear()

    def changed_meanwhile(query: str) -> None:
        sql.append(query)
        s._settings_changed(None, 0, pg.SETTINGS_CHANNEL, "7")

    s.trace = changed_meanwhile
    await s.guild_settings(7)
    s.trace = sql.append
    sql.clear()
    await s.guild_settings(7)
    assert len(sql) == 1  # read again
    sql.clear()
    await s.guild_settings(7)
    assert sql == []  # and now kept


async def test_an_action_whose_link_broke_while_it_waited_for_the_row_is_reported_as_it_ends(
        traced: tuple[PostgresStorage, list[str]], raw: asyncpg.Connection,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The link breaks while the action waits for the game's row (another process holds it): the
    server may still run it once the row is free. What the player is told must be what stays in
    the database — never "not stored" for an action that lands a moment later."""
    s, _ = traced
    gid = await started_duel(s, {"turn": 0}, [DeadlineRow(0, 0, "bid", 100.0, 50.0, False, 1)])
    [d] = await s.deadlines(gid)
    real_fetchrow = asyncpg.Connection.fetchrow
    orphans: list[asyncio.Task[object]] = []

    async def link_breaks_while_waiting(self: asyncpg.Connection, query: str, *args: object,
                                        **kw: object) -> object:
        if query != pg._COMMIT:
            return await real_fetchrow(self, query, *args, **kw)
        orphans.append(asyncio.create_task(real_fetchrow(self, query, *args, **kw)))
        await asyncio.sleep(0.3)  # (sent, and waiting for the row)
        raise asyncpg.ConnectionDoesNotExistError("connection was closed in the middle of operation")

    tr = raw.transaction()
    await tr.start()
    await raw.execute("SELECT 1 FROM games WHERE id=$1 FOR UPDATE", gid)
    monkeypatch.setattr(asyncpg.Connection, "fetchrow", link_breaks_while_waiting)
    moving = asyncio.create_task(s.commit_action(gid, **_move(gid, 1, [d])))
    await asyncio.sleep(0.8)
    await tr.rollback()  # the other process lets go of the row
    outcome = await asyncio.gather(moving, return_exceptions=True)
    monkeypatch.undo()
    await asyncio.gather(*orphans, return_exceptions=True)
    await asyncio.sleep(0.3)
    version = await raw.fetchval("SELECT version FROM games WHERE id=$1", gid)
    if outcome[0] == 2:
        assert version == 2
    else:
        assert isinstance(outcome[0], StorageUnavailable) and outcome[0].stored is False
        assert version == 1
