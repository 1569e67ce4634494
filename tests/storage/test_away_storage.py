"""Player preferences, time away and paused games in storage, on both backends (SQLite, and
PostgreSQL where its server binaries are present): a pause freezes the deadlines and blocks
every commit until it resumes, and of two resumptions exactly one restores them."""

from __future__ import annotations

import asyncio

import pytest

from bot.storage import (
    DeadlineRow,
    PostgresStorage,
    SqliteStorage,
    Storage,
    VersionConflict,
    is_postgres_url,
)
from bot.storage.base import PlayerPrefs
from tests.support.storage import started_duel


async def _started(s: Storage) -> int:
    return await started_duel(s, {"turn": 0}, [DeadlineRow(0, 0, "bid", 1000.0, 900.0, False, 1),
                                               DeadlineRow(0, 1, "bid", 1000.0, 900.0, True, 1)])


async def _commit(s: Storage, gid: int) -> int:
    return await s.commit_action(
        gid, expected_version=1, seat=0, action={"type": "bid"}, origin="player", user_id=100,
        state={"turn": 1}, events=[], status="active", result=None, opened={1: 1}, answered={0: 1},
        deadlines=[DeadlineRow(gid, 1, "bid", 1000.0, 900.0, True, 1)], now=3.0)


async def test_preferences_default_and_round_trip(store: Storage) -> None:
    assert await store.player_prefs([]) == {}
    got = await store.player_prefs([7, 8, 7])
    assert got == {7: PlayerPrefs(7), 8: PlayerPrefs(8)}
    mine = PlayerPrefs(7, pings=False, dms="reminders", quiet_start=22 * 60, quiet_end=7 * 60,
                       zone="Europe/Berlin", away_until=5000.5, away_mode="computer")
    await store.save_player_prefs(mine)
    assert (await store.player_prefs([7, 8])) == {7: mine, 8: PlayerPrefs(8)}
    back = PlayerPrefs(7, zone="+02:00")
    await store.save_player_prefs(back)
    assert (await store.player_prefs([7]))[7] == back


async def test_a_pause_freezes_the_deadlines_and_blocks_commits_until_it_resumes(store: Storage) -> None:
    gid = await _started(store)
    before = await store.deadlines(gid)
    assert (await store.game_pause(gid)) is not None and not (await store.game_pause(gid)).paused  # type: ignore[union-attr]
    pause = await store.pause_game(gid, by=100, now=500.0)
    assert pause is not None and pause.paused and pause.paused_by == 100 and pause.used == 0.0
    assert pause.frozen == before
    assert await store.deadlines(gid) == [] and await store.next_deadline_time() is None
    assert await store.pause_game(gid, by=200, now=510.0) is None  # paused already
    assert [p.game_id for p in await store.paused_games()] == [gid]
    with pytest.raises(VersionConflict):
        await _commit(store, gid)
    assert (await store.get_game(gid)).version == 1  # type: ignore[union-attr]

    was = await store.resume_game(gid, now=800.0)
    assert was is not None and was.paused_at == 500.0
    assert await store.resume_game(gid, now=801.0) is None  # exactly one resumption
    after = await store.deadlines(gid)
    # what was left of each deadline is left again: 300 seconds of pause later
    assert [(d.seat, d.due_at, d.remind_at, d.reminded, d.opened) for d in after] == [
        (0, 1300.0, 1200.0, False, 1), (1, 1300.0, 1200.0, True, 1)]
    state = await store.game_pause(gid)
    assert state is not None and not state.paused and state.used == 300.0 and state.frozen == []
    assert await store.paused_games() == []
    assert await _commit(store, gid) == 2

    again = await store.pause_game(gid, by=200, now=2000.0)
    assert again is not None and again.used == 300.0
    await store.resume_game(gid, now=2100.0)
    assert (await store.game_pause(gid)).used == 400.0  # type: ignore[union-attr]


async def test_a_game_that_ended_while_paused_gets_no_deadlines_back(store: Storage) -> None:
    gid = await _started(store)
    assert await store.pause_game(gid, by=100, now=500.0) is not None
    await store.update_game(gid, status="finished")
    await store.clear_deadlines(gid)
    assert await store.paused_games() == []
    assert await store.resume_game(gid, now=600.0) is not None
    assert await store.deadlines(gid) == []
    assert await store.pause_game(gid, by=100, now=700.0) is None  # not running
    assert await store.game_pause(999) is None


async def test_two_processes_see_one_pause_and_one_resumption(store: Storage, location: str) -> None:
    """Another connection pool (another process) over the same database: its commit is refused
    while the game is paused, and of two resumptions at once exactly one restores the deadlines."""
    other: Storage = PostgresStorage(location) if is_postgres_url(location) else SqliteStorage(location)
    await other.open()
    try:
        gid = await _started(store)
        await other.get_game(gid)  # (remembered there, as a busy process would have it)
        assert await store.pause_game(gid, by=100, now=500.0) is not None
        with pytest.raises(VersionConflict):
            await _commit(other, gid)
        assert await other.pause_game(gid, by=200, now=501.0) is None
        results = await asyncio.gather(store.resume_game(gid, now=600.0), other.resume_game(gid, now=600.0))
        assert sum(r is not None for r in results) == 1
        assert len(await other.deadlines(gid)) == 2
        assert await _commit(other, gid) == 2
    finally:
        await other.close()
