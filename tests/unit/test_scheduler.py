"""The deadline scheduler under a fake clock: reminders, timeouts, restarts, overdue deadlines and
broken games. Passes are driven by ``run_due`` (no waiting on real time)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot.config import Config
from bot.scheduler import Scheduler
from bot.session import Sessions, Update
from bot.storage import DeadlineRow, GameRow, SqliteStorage, StorageBusy
from tests.support import sessions as sessions_support
from tests.support.sessions import Clock

HOST, GUEST = 2001, 2002
DEADLINE, LEAD = 3600, 600
CONFIG = Config(token=None, db_path="", dev_guild=None, log_level="WARNING",
                default_deadline=DEADLINE, reminder_lead=LEAD, docs_url="")
START = 5_000_000.0


@dataclass
class Recorder(sessions_support.Recorder):
    """Records updates, and says when a timeout has been delivered."""

    timed_out: asyncio.Event = field(default_factory=asyncio.Event)

    async def deliver(self, update: Update) -> None:
        await super().deliver(update)
        if update.kind == "timeout":
            self.timed_out.set()


@dataclass
class Reminders:
    calls: list[tuple[int, int, str]] = field(default_factory=list)

    async def __call__(self, game: GameRow, d: DeadlineRow) -> None:
        self.calls.append((game.id, d.seat, d.kind))


@dataclass
class Bot:
    """One process: storage + sessions + scheduler on a database file."""

    storage: SqliteStorage
    sessions: Sessions
    scheduler: Scheduler
    delivery: Recorder
    reminders: Reminders


Factory = Callable[[], Awaitable[Bot]]


@pytest.fixture
async def boot(tmp_path: Path) -> AsyncIterator[tuple[Factory, Clock]]:
    clock = Clock(START)
    opened: list[Bot] = []

    async def factory() -> Bot:
        storage = SqliteStorage(str(tmp_path / "herald.db"))
        await storage.open()
        delivery, reminders = Recorder(), Reminders()
        sessions = Sessions(storage, CONFIG, delivery, now=clock)
        bot = Bot(storage, sessions, Scheduler(sessions, reminders), delivery, reminders)
        opened.append(bot)
        return bot

    try:
        yield factory, clock
    finally:
        for bot in opened:
            await bot.scheduler.stop()
            await bot.storage.close()


async def _game(bot: Bot) -> int:
    table = await bot.sessions.open_table(guild_id=1, channel_id=2, host_id=HOST, host_name="Ada",
                                          game_key="duel", seed=21)
    await bot.sessions.join(table.id, GUEST, "Bo")
    await bot.sessions.start(table.id, HOST)
    return table.id


async def test_a_reminder_goes_out_once_before_the_deadline(boot: tuple[Factory, Clock]) -> None:
    factory, clock = boot
    bot = await factory()
    gid = await _game(bot)
    assert await bot.storage.next_deadline_time() == START + DEADLINE - LEAD
    clock.t = START + DEADLINE - LEAD - 1
    assert await bot.scheduler.run_due() == 0
    clock.t = START + DEADLINE - LEAD
    assert await bot.scheduler.run_due() == 2
    assert sorted(bot.reminders.calls) == [(gid, 0, "bid"), (gid, 1, "bid")]
    clock.t += 60
    assert await bot.scheduler.run_due() == 0
    assert len(bot.reminders.calls) == 2
    assert await bot.storage.next_deadline_time() == START + DEADLINE
    assert await bot.storage.actions(gid) == []


async def test_the_timeout_fires_at_the_deadline(boot: tuple[Factory, Clock]) -> None:
    factory, clock = boot
    bot = await factory()
    gid = await _game(bot)
    await bot.sessions.act(gid, 0, {"type": "bid", "card": 5})
    clock.t = START + DEADLINE - 1
    await bot.scheduler.run_due()  # the reminder only
    assert await bot.storage.actions(gid) == [(0, {"type": "bid", "card": 5}, "player")]
    clock.t = START + DEADLINE
    assert await bot.scheduler.run_due() == 1
    logged = await bot.storage.actions(gid)
    assert [(s, o) for s, _, o in logged] == [(0, "player"), (1, "timeout")]
    assert [u.kind for u in bot.delivery.updates][-1] == "timeout"
    assert bot.reminders.calls == [(gid, 1, "bid")]
    # whatever opened after the timeout has a fresh deadline, a full period from now
    assert all(d.due_at == clock.t + DEADLINE for d in await bot.storage.deadlines(gid))


async def test_a_reminder_is_skipped_when_the_deadline_itself_is_due(
        boot: tuple[Factory, Clock]) -> None:
    factory, clock = boot
    bot = await factory()
    gid = await _game(bot)
    clock.t = START + DEADLINE + 5
    assert await bot.scheduler.run_due() == 2
    assert bot.reminders.calls == []
    assert {(s, o) for s, _, o in await bot.storage.actions(gid)} == {(0, "timeout"), (1, "timeout")}


async def test_deadlines_survive_a_restart(boot: tuple[Factory, Clock]) -> None:
    factory, clock = boot
    first = await factory()
    gid = await _game(first)
    before = await first.storage.deadlines(gid)
    await first.storage.close()

    second = await factory()
    assert await second.storage.deadlines(gid) == before
    clock.t = START + DEADLINE - LEAD
    assert await second.scheduler.run_due() == 2
    assert len(second.reminders.calls) == 2
    clock.t = START + DEADLINE
    assert await second.scheduler.run_due() == 2
    assert [o for _, _, o in await second.storage.actions(gid)] == ["timeout", "timeout"]
    assert await second.sessions.verify_replay(gid)


async def test_deadlines_overdue_at_start_are_handled_at_once(boot: tuple[Factory, Clock]) -> None:
    factory, clock = boot
    first = await factory()
    gid = await _game(first)
    await first.sessions.act(gid, 0, {"type": "bid", "card": 2})
    await first.storage.close()

    clock.t = START + 10 * DEADLINE  # the bot was down for a long time
    second = await factory()
    second.scheduler.start()  # the background loop's first pass runs immediately
    await asyncio.wait_for(second.delivery.timed_out.wait(), timeout=20)
    await second.scheduler.stop()
    assert [(s, o) for s, _, o in await second.storage.actions(gid)][:2] == [(0, "player"), (1, "timeout")]
    assert second.reminders.calls == []


async def test_a_broken_game_does_not_make_the_scheduler_spin(boot: tuple[Factory, Clock]) -> None:
    factory, clock = boot
    first = await factory()
    broken = await _game(first)
    healthy = await _game(first)
    # a state the engine cannot load (an engine bug, a bad migration, a hand-edited database),
    # found by the next process to start
    first.storage.db.raw.execute("UPDATE games SET state='{}' WHERE id=?", (broken,))
    bot = await factory()

    clock.t = START + DEADLINE
    assert await bot.scheduler.run_due() == 4
    assert await bot.storage.deadlines(broken) == []  # dropped, not retried forever
    assert await bot.storage.actions(broken) == []
    assert [o for _, _, o in await bot.storage.actions(healthy)] == ["timeout", "timeout"]
    assert await bot.scheduler.run_due() == 0  # the next pass finds nothing to do
    nxt = await bot.storage.next_deadline_time()
    assert nxt is not None and nxt > clock.t  # only the healthy game's next deadline remains


async def test_a_failing_reminder_does_not_stop_other_games(boot: tuple[Factory, Clock]) -> None:
    factory, clock = boot
    bot = await factory()
    gid = await _game(bot)
    calls: list[int] = []

    async def remind(game: GameRow, d: DeadlineRow) -> None:
        calls.append(d.seat)
        if d.seat == 0:
            raise RuntimeError("Discord is down")

    bot.scheduler.remind = remind
    clock.t = START + DEADLINE - LEAD
    assert await bot.scheduler.run_due() == 2
    assert sorted(calls) == [0, 1]
    assert await bot.scheduler.run_due() == 0  # not retried
    assert [(d.seat, d.reminded) for d in await bot.storage.deadlines(gid)] == [(0, True), (1, True)]
    clock.t = START + DEADLINE  # the timeout still happens for the seat whose reminder failed
    assert await bot.scheduler.run_due() == 2
    assert [o for _, _, o in await bot.storage.actions(gid)] == ["timeout", "timeout"]


async def test_a_closing_session_handles_no_deadlines(boot: tuple[Factory, Clock]) -> None:
    factory, clock = boot
    bot = await factory()
    gid = await _game(bot)
    await bot.sessions.drain(timeout=1.0)
    clock.t = START + DEADLINE
    assert await bot.scheduler.run_due() == 0
    assert len(await bot.storage.deadlines(gid)) == 2


async def test_a_locked_database_delays_a_timeout_but_never_drops_it(
        boot: tuple[Factory, Clock], monkeypatch: pytest.MonkeyPatch) -> None:
    factory, clock = boot
    bot = await factory()
    gid = await _game(bot)
    real = bot.sessions.timeout
    failures: list[int] = []

    async def locked_twice(deadline: DeadlineRow) -> Any:
        if len(failures) < 2:
            failures.append(1)
            raise StorageBusy("the database is locked by another process.")
        return await real(deadline)

    monkeypatch.setattr(bot.sessions, "timeout", locked_twice)
    clock.t = START + DEADLINE
    await bot.scheduler.run_due()  # both deadlines due; the first handling fails
    assert len(await bot.storage.deadlines(gid)) == 2  # kept, not dropped
    assert await bot.scheduler.run_due() == 0  # backing off: no spin
    clock.t += 5
    await bot.scheduler.run_due()
    clock.t += 10
    await bot.scheduler.run_due()
    assert sorted(o for _, _, o in await bot.storage.actions(gid)) == ["timeout", "timeout"]


async def _stalled_game(bot: Bot, monkeypatch: pytest.MonkeyPatch) -> tuple[int, dict[str, bool], list[int]]:
    """A game with a computer player whose answer meets a locked database after the host's move.
    Returns the game, the lock switch and a list that grows with each computer commit tried."""
    table = await bot.sessions.open_table(guild_id=1, channel_id=2, host_id=HOST, host_name="Ada",
                                          game_key="duel", seed=21, bots=1)
    await bot.sessions.start(table.id, HOST)
    locked = {"on": True}
    tries: list[int] = []
    real = bot.storage.commit_action

    async def commit_action(game_id: int, **kwargs: Any) -> Any:
        if kwargs.get("origin") == "bot":
            tries.append(1)
            if locked["on"]:
                raise StorageBusy("the database is locked by another process.")
        return await real(game_id, **kwargs)

    monkeypatch.setattr(bot.storage, "commit_action", commit_action)
    hand = (await bot.sessions.snapshot(table.id, touch=False)).view(0)["private"]["hand"]
    update = await bot.sessions.act(table.id, 0, {"type": "bid", "card": min(hand)})
    assert update.stalled and table.id in bot.sessions.stalled
    return table.id, locked, tries


async def test_a_stalled_game_is_retried_with_back_off(
        boot: tuple[Factory, Clock], monkeypatch: pytest.MonkeyPatch) -> None:
    factory, clock = boot
    bot = await factory()
    gid, locked, tries = await _stalled_game(bot, monkeypatch)
    assert tries == [1]
    await bot.scheduler.run_due()  # what just failed is not retried at once
    assert tries == [1]
    clock.t += 5
    await bot.scheduler.run_due()  # first retry after 5 s: still locked
    assert tries == [1, 1] and gid in bot.sessions.stalled
    clock.t += 5
    await bot.scheduler.run_due()  # the next one only 10 s after that
    assert tries == [1, 1]
    locked["on"] = False
    clock.t += 5
    assert await bot.scheduler.run_due() == 1
    assert gid not in bot.sessions.stalled
    assert [o for _, _, o in await bot.storage.actions(gid)][:3] == ["bot", "player", "bot"]


async def test_a_failed_look_for_waiting_games_at_start_is_repeated(
        boot: tuple[Factory, Clock], monkeypatch: pytest.MonkeyPatch) -> None:
    factory, clock = boot
    first = await factory()
    gid, _, _ = await _stalled_game(first, monkeypatch)
    second = await factory()  # a new process; the database is locked while it looks
    real = second.storage.list_games

    async def locked(*args: Any, **kwargs: Any) -> Any:
        raise StorageBusy("the database is locked by another process.")

    monkeypatch.setattr(second.storage, "list_games", locked)
    with pytest.raises(StorageBusy):
        await second.sessions.resume()
    assert second.sessions.scan_needed
    monkeypatch.setattr(second.storage, "list_games", real)
    assert await second.scheduler.run_due() == 0  # not at once…
    clock.t += 5
    assert await second.scheduler.run_due() == 1  # …but after the back-off
    assert not second.sessions.scan_needed
    assert [o for _, _, o in await second.storage.actions(gid)][:3] == ["bot", "player", "bot"]


async def test_a_failed_pass_is_tried_again_soon_not_in_an_hour(
        boot: tuple[Factory, Clock], monkeypatch: pytest.MonkeyPatch) -> None:
    factory, clock = boot
    bot = await factory()
    await _game(bot)

    async def locked(*args: Any, **kwargs: Any) -> Any:
        raise StorageBusy("the database is locked by another process.")

    monkeypatch.setattr(bot.storage, "claim_deadlines", locked)
    assert await bot.scheduler.pass_once() == 5
    assert await bot.scheduler.pass_once() == 10
    monkeypatch.undo()
    assert await bot.scheduler.pass_once() == DEADLINE - LEAD  # sleeps until the first reminder
