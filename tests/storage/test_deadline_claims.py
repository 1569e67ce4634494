"""Deadlines fired exactly once by several processes over one database.

Two "processes" — each its own storage (its own connections), Sessions and Scheduler, as two bot
processes would have — run their scheduler passes at the same moment over the same games: each
reminder is sent by one of them, each timeout is applied once, and the games' replays still equal
their states. Runs on PostgreSQL (the backend several processes are for) and on SQLite."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from bot.config import Config
from bot.scheduler import Scheduler
from bot.session import Sessions, Update
from bot.storage import DeadlineRow, GameRow, PostgresStorage, Storage, open_storage

HOST, GUEST = 3001, 3002
DEADLINE, LEAD = 3600, 600
CONFIG = Config(token=None, db_path="", dev_guild=None, log_level="WARNING",
                default_deadline=DEADLINE, reminder_lead=LEAD, docs_url="")
START = 7_000_000.0
GAMES = 5


class Clock:
    def __init__(self) -> None:
        self.t = START

    def __call__(self) -> float:
        return self.t


@dataclass
class Process:
    storage: Storage
    sessions: Sessions
    scheduler: Scheduler
    reminded: list[tuple[int, int, str]] = field(default_factory=list)
    timeouts: list[int] = field(default_factory=list)
    per_action: bool = False
    """(the delivery's interface: this process records what it would post)"""

    async def deliver(self, update: Update) -> None:
        if update.kind == "timeout":
            self.timeouts.append(update.snap.game.id)

    async def remind(self, game: GameRow, d: DeadlineRow) -> None:
        await asyncio.sleep(0)  # (a real reminder awaits Discord: let the other process run)
        self.reminded.append((game.id, d.seat, d.kind))


@pytest.fixture
async def processes(location: str) -> AsyncIterator[tuple[list[Process], Clock]]:
    """Two processes over the one database ``location`` (a PostgreSQL URL or a SQLite file)."""
    clock = Clock()
    made: list[Process] = []
    for name in ("one", "two"):
        storage = open_storage(location)
        await storage.open()
        sessions = Sessions(storage, CONFIG, now=clock)
        proc = Process(storage, sessions, Scheduler(sessions, owner=name))
        sessions.delivery = proc  # type: ignore[assignment]
        proc.scheduler.remind = proc.remind
        made.append(proc)
    try:
        yield made, clock
    finally:
        for proc in made:
            await proc.scheduler.stop()
            await proc.storage.close()


async def _game(proc: Process) -> int:
    table = await proc.sessions.open_table(guild_id=1, channel_id=2, host_id=HOST, host_name="Ada",
                                           game_key="duel", seed=33)
    await proc.sessions.join(table.id, GUEST, "Bo")
    await proc.sessions.start(table.id, HOST)
    return table.id


async def _together(procs: list[Process]) -> None:
    """Both schedulers' passes at once."""
    await asyncio.gather(*(p.scheduler.run_due() for p in procs))


async def test_two_processes_fire_each_deadline_exactly_once(
        processes: tuple[list[Process], Clock]) -> None:
    procs, clock = processes
    one, two = procs
    games = [await _game(one) for _ in range(GAMES)]
    expected = {(g, seat, d.kind) for g in games for seat in (0, 1)
                for d in await two.storage.deadlines(g) if d.seat == seat}
    assert len(expected) == 2 * GAMES

    clock.t = START + DEADLINE - LEAD
    await _together(procs)
    await _together(procs)  # a second pass finds nothing left to remind
    sent = one.reminded + two.reminded
    assert sorted(sent) == sorted(expected)  # every reminder once, by one process or the other

    for round_ in (1, 2):
        clock.t = START + round_ * DEADLINE
        await _together(procs)
        await _together(procs)
        for g in games:
            origins = [o for _, _, o in await two.storage.actions(g)]
            assert origins == ["timeout", "timeout"] * round_, (g, origins)
    assert sorted(one.timeouts + two.timeouts) == sorted(games * 4)
    for g in games:
        one.storage.forget(g)  # (another process's writes: read them from the database)
        assert await one.sessions.verify_replay(g)


async def test_a_dead_processs_claims_are_taken_over_when_their_lease_ends(
        processes: tuple[list[Process], Clock]) -> None:
    procs, clock = processes
    dead, alive = procs
    gid = await _game(dead)
    clock.t = START + DEADLINE
    # the first process claims the timeouts and dies before handling them
    claimed: Any = await dead.storage.claim_deadlines(clock(), dead.scheduler.owner, 120.0)
    assert len(claimed) == 2
    assert await alive.scheduler.run_due() == 0
    assert await alive.storage.next_deadline_time(alive.scheduler.owner) == clock() + 120.0
    clock.t += 120.0
    assert await alive.scheduler.run_due() == 2
    assert [o for _, _, o in await alive.storage.actions(gid)] == ["timeout", "timeout"]


async def test_a_deadline_stored_by_one_process_wakes_the_others_scheduler(postgres_url: str) -> None:
    """LISTEN/NOTIFY: the second process's scheduler hears of the first one's new deadline at
    commit (not at its next pass, up to an hour later); the first one does not wake itself, and
    a rolled-back write wakes nobody."""
    one, two = PostgresStorage(postgres_url), PostgresStorage(postgres_url)
    await one.open()
    await two.open()
    heard: dict[str, asyncio.Event] = {"one": asyncio.Event(), "two": asyncio.Event()}
    try:
        assert await one.listen(heard["one"].set) and await two.listen(heard["two"].set)
        sessions = Sessions(one, CONFIG, now=Clock())
        table = await sessions.open_table(guild_id=1, channel_id=2, host_id=HOST, host_name="Ada",
                                          game_key="duel", seed=33)
        await sessions.join(table.id, GUEST, "Bo")
        assert not heard["two"].is_set()  # a lobby has no deadline
        await sessions.start(table.id, HOST)
        await asyncio.wait_for(heard["two"].wait(), timeout=10)
        await asyncio.sleep(0.2)
        assert not heard["one"].is_set(), "a process woke itself for its own deadline"

        # the same deadlines written again (another seat's move keeps them): nobody is woken
        heard["two"].clear()
        await one.replace_deadlines(table.id, await one.deadlines(table.id))
        await asyncio.sleep(0.5)
        assert not heard["two"].is_set()

        # the listening connection lost: re-opened, and the scheduler woken once it is back
        import bot.storage.postgres as pg
        pg_relisten, pg.RELISTEN_EVERY = pg.RELISTEN_EVERY, 0  # type: ignore[misc]
        try:
            assert two._listener is not None
            two._listener.terminate()
            await asyncio.wait_for(heard["two"].wait(), timeout=10)
            for _ in range(50):
                if two._listener is not None:
                    break
                await asyncio.sleep(0.1)
            assert two._listener is not None
        finally:
            pg.RELISTEN_EVERY = pg_relisten  # type: ignore[misc]
    finally:
        await one.close()
        await two.close()
