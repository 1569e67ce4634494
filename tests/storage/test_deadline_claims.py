"""Deadlines fired exactly once by several processes over one database.

Two "processes" — each its own storage (its own connections), Sessions and Scheduler, as two bot
processes would have — run their scheduler passes at the same moment over the same games: each
reminder is sent by one of them, each timeout is applied once, and the games' replays still equal
their states. Runs on PostgreSQL (the backend several processes are for) and on SQLite."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot.config import Config
from bot.scheduler import Scheduler
from bot.session import Sessions, Update
from bot.storage import DeadlineRow, GameRow, PostgresStorage, SqliteStorage, Storage

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


@pytest.fixture(params=["postgres", "sqlite"])
def location(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The one database both processes use: a PostgreSQL URL or a SQLite file."""
    if request.param == "postgres":
        return str(request.getfixturevalue("postgres_url"))
    return str(tmp_path / "herald.db")


@pytest.fixture
async def processes(location: str) -> AsyncIterator[tuple[list[Process], Clock]]:
    clock = Clock()
    made: list[Process] = []
    for name in ("one", "two"):
        storage: Storage = (PostgresStorage(location) if location.startswith("postgres")
                            else SqliteStorage(location))
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
