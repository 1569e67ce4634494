"""What an action's write does to the deadlines and numbers it does not change, on both backends.

A move that carries a deadline over as it was read (a computer player's move while a member's
clock runs on) must not undo what another process did to that deadline meanwhile: its claim on it
(the process is about to handle it) and its reminder (sent: never sent twice). And however the
numbers are taken, an action's is the version it made less one and events run on after an undo."""

from __future__ import annotations

import dataclasses
import sqlite3
from collections.abc import AsyncIterator
from typing import Any

import asyncpg
import pytest

from bot.storage import DeadlineRow, PostgresStorage, SqliteStorage, Storage, open_storage
from tests.support.storage import opened, started_duel

SEAT0 = DeadlineRow(0, 0, "bid", 100.0, 50.0, False, 1)
"""Seat 0's deadline, open since the start: the one both processes look at."""


@pytest.fixture
async def other(location: str) -> AsyncIterator[Storage]:
    """A second process's storage over the same database."""
    async with opened(open_storage(location)) as s:
        yield s


async def _started(s: Storage) -> tuple[int, DeadlineRow]:
    gid = await started_duel(s, {"turn": 0}, [SEAT0])
    [d] = await s.deadlines(gid)
    return gid, d


async def _move(s: Storage, gid: int, version: int, deadlines: list[DeadlineRow],
                events: int = 1, now: float = 3.0) -> int:
    """Seat 1 moves (it has no deadline of its own): ``deadlines`` are the game's after it."""
    return await s.commit_action(
        gid, expected_version=version, seat=1, action={"type": "note", "v": version},
        origin="bot", user_id=None, state={"turn": version}, status="active", result=None,
        events=[{"text": f"move {version}, event {i}"} for i in range(events)],
        opened={0: 1}, answered={}, deadlines=deadlines, now=now)


async def test_a_claim_made_by_another_process_survives_a_move_that_keeps_the_deadline(
        store: Storage, other: Storage) -> None:
    gid, d = await _started(store)
    # the other process's scheduler claims seat 0's reminder, due now
    assert [c.seat for c in await other.claim_deadlines(60.0, "other", 30.0)] == [0]
    assert await _move(store, gid, 1, [d]) == 2
    # still the other's until its lease ends: this process's scheduler does not get it
    assert await store.claim_deadlines(61.0, "this", 30.0) == []
    assert await store.next_deadline_time("this") == 90.0
    assert [c.seat for c in await store.claim_deadlines(91.0, "this", 30.0)] == [0]


async def test_a_reminder_sent_by_another_process_stays_sent_when_a_move_keeps_the_deadline(
        store: Storage, other: Storage) -> None:
    gid, d = await _started(store)
    assert not d.reminded
    assert await other.mark_reminded(gid, 0, "bid", 1)
    # this process moves with the deadline as it read it, before the reminder went out
    assert await _move(store, gid, 1, [d]) == 2
    assert [x.reminded for x in await other.deadlines(gid)] == [True]
    assert await store.due_deadlines(60.0) == []  # not to be sent again
    assert await store.next_deadline_time() == 100.0


async def test_a_reminder_sent_stays_sent_when_a_move_keeps_the_deadline_and_opens_another(
        store: Storage, other: Storage) -> None:
    gid, d = await _started(store)
    assert await other.mark_reminded(gid, 0, "bid", 1)
    # seat 0's deadline carried over as read (before the reminder), seat 1's opened beside it
    seat1 = DeadlineRow(gid, 1, "bid", 400.0, 350.0, False, 2)
    assert await _move(store, gid, 1, [d, seat1]) == 2
    assert [(x.seat, x.reminded) for x in await other.deadlines(gid)] == [(0, True), (1, False)]
    assert await store.due_deadlines(60.0) == []  # seat 0's reminder: not to be sent again
    stretched = DeadlineRow(gid, 0, "bid", 500.0, 450.0, False, 1)  # (its clock stretched)
    assert await _move(store, gid, 2, [stretched, seat1]) == 3
    assert [(x.seat, x.reminded) for x in await other.deadlines(gid)] == [(0, False), (1, False)]


async def test_a_changed_deadline_of_the_same_prompt_keeps_its_claim_a_new_one_does_not(
        store: Storage, other: Storage) -> None:
    gid, d = await _started(store)
    assert len(await other.claim_deadlines(60.0, "other", 300.0)) == 1  # (until 360)
    later = DeadlineRow(gid, 0, "bid", 200.0, 150.0, False, 1)  # (away: the clock stretched)
    assert await _move(store, gid, 1, [later]) == 2
    assert [(x.due_at, x.remind_at) for x in await store.deadlines(gid)] == [(200.0, 150.0)]
    assert await store.claim_deadlines(160.0, "this", 30.0) == []  # the same prompt: still claimed
    fresh = DeadlineRow(gid, 0, "bid", 300.0, 250.0, False, 3)  # a new prompt instance
    assert await _move(store, gid, 2, [fresh]) == 3
    assert [(c.seat, c.opened) for c in await store.claim_deadlines(260.0, "this", 30.0)] == [(0, 3)]


async def test_a_move_that_closes_a_deadline_removes_it_and_opens_another(store: Storage) -> None:
    gid, d = await _started(store)
    seat1 = DeadlineRow(gid, 1, "play", 400.0, None, False, 2)
    assert await _move(store, gid, 1, [seat1]) == 2
    assert [(x.seat, x.kind, x.due_at) for x in await store.deadlines(gid)] == [(1, "play", 400.0)]
    assert await _move(store, gid, 2, []) == 3
    assert await store.deadlines(gid) == []


async def _numbers(s: Storage, gid: int) -> list[int]:
    """The actions' numbers in the log (behind the interface: ``actions`` gives no numbers)."""
    sql = "SELECT n FROM actions WHERE game_id={} ORDER BY n"
    if isinstance(s, PostgresStorage):
        conn = await asyncpg.connect(s.url)
        try:
            return [int(r[0]) for r in await conn.fetch(sql.format("$1"), gid)]
        finally:
            await conn.close()
    assert isinstance(s, SqliteStorage)
    with sqlite3.connect(s.path) as conn:
        return [int(r[0]) for r in conn.execute(sql.format("?"), (gid,))]


async def test_numbers_after_an_undo_pair_actions_with_versions_and_events_run_on(
        store: Storage) -> None:
    gid, d = await _started(store)
    for version in (1, 2, 3):
        assert await _move(store, gid, version, [d], events=2) == version + 1
    assert await _numbers(store, gid) == [1, 2, 3]
    assert await store.undo_actions(gid, expected_version=4, keep=1, state={"turn": 1},
                                    events=[{"text": "undone", "kind": "undo"}], opened={0: 1},
                                    answered={}, deadlines=[d], now=9.0) == 5
    assert await _move(store, gid, 5, [d], events=2) == 6
    # the action numbered by the version it made (less one), after the gap the undo left
    assert await _numbers(store, gid) == [1, 5]
    shown: list[Any] = [(e.n, e.version, e.text) for e in await store.events(gid, viewer_seat=None,
                                                                             limit=100)]
    assert shown == [(1, 2, "move 1, event 0"), (2, 2, "move 1, event 1"), (3, 5, "undone"),
                     (4, 6, "move 5, event 0"), (5, 6, "move 5, event 1")]


async def test_a_game_is_read_with_its_deadlines_as_the_two_reads_give_them(
        store: Storage) -> None:
    """What a player's move starts from: on PostgreSQL one statement, the same as both reads."""
    assert await store.game_and_deadlines(424242) == (None, [])
    lobby = await store.create_game(guild_id=10, channel_id=20, game_key="duel", seed=5,
                                    options={}, host_id=100, deadline=None, now=1.0)
    assert await store.game_and_deadlines(lobby) == (await store.get_game(lobby), [])
    seat1 = DeadlineRow(0, 1, "bid", 400.0, None, True, 1)
    gid, d = await _started(store)
    assert await store.game_and_deadlines(gid) == (await store.get_game(gid), [d])
    await _move(store, gid, 1, [d, dataclasses.replace(seat1, game_id=gid)])
    game, deadlines = await store.game_and_deadlines(gid)
    assert (game, deadlines) == (await store.get_game(gid), await store.deadlines(gid))
    assert [(x.seat, x.remind_at, x.reminded) for x in deadlines] == [(0, 50.0, False),
                                                                      (1, None, True)]
    await store.commit_action(
        gid, expected_version=2, seat=0, action={"type": "end"}, origin="player", user_id=100,
        state={"turn": 2}, events=[], status="finished", result={"winners": [0]}, opened={},
        answered={}, deadlines=[], now=5.0)
    game, deadlines = await store.game_and_deadlines(gid)
    assert game is not None and game.status == "finished" and deadlines == []
