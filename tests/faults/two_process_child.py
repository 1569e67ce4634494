"""Two bot processes over one PostgreSQL database, one killed with SIGKILL midway: the children
and the checks of ``tests/faults/test_two_processes.py``.

Each child is what a Herald process is to the platform, without Discord: ``Sessions`` and a
``Scheduler`` over ``PostgresStorage``, the real engines, deliveries discarded. Both drive the same
games at once:

* **played games** (Hegemony of Faith, Cult Wars, with computer players): each child answers the
  human seats it serves (even seats in one, odd in the other, as Discord spreads players' clicks
  over processes), choosing like the computer player; after the kill the survivor serves every
  seat and sends again each click the dead one never heard back about (with its ticket, as a
  player pressing the same button again). Intents and acknowledgements go to a ledger per child,
  as in ``kill_child`` (whose ``Player`` and ledger are reused): an acknowledgement is written,
  and ``fsync``-ed, only once ``act`` returned.
* **sleepy games** (High Card Duel between two players who never answer): every decision runs to
  its deadline, so reminders and timeouts fall due all through the run, and both schedulers claim
  them. Each child records, durably, the deadlines it claimed and those it fired or reminded.

Time runs fast: both children and the parent read one clock, ``SPEED`` times real time from a
shared starting point, so a one-minute deadline passes in a second; the scheduler's lease is cut
to ``LEASE`` seconds of that clock, and each child runs scheduler passes every few milliseconds
(instead of sleeping until the next deadline: a sleep is in real seconds). The victim's reminders
are slow (a slow Discord), so that it dies holding claims it has not handled.
"""

from __future__ import annotations

import asyncio
import json
import time
import traceback
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from bot import scheduler as scheduler_module
from bot.config import Config
from bot.errors import StaleAction, TableError
from bot.scheduler import Scheduler
from bot.session import NullDelivery, Sessions, Update
from bot.storage import DeadlineRow, GameRow, PostgresStorage, StorageError
from rules import registry
from tests.faults.kill_child import LedgerWriter, Player, read_ledger
from tests.support import duel

if "duel" not in registry.all_engines():
    registry.register(duel.ENGINE)

SPEED = 60.0
"""Seconds of the games' clock per real second: a one-minute deadline passes in one second."""
LEASE = 30.0
"""The scheduler's claim lease, in the games' clock (half a real second)."""
BASE = 10_000_000.0
"""The games' clock at the shared starting point."""
CONFIG = Config(token=None, db_path="", dev_guild=None, log_level="WARNING",
                default_deadline=86400, reminder_lead=60, docs_url="")
"""Played games' decisions are due in a day (never, in a run); sleepy games set their own."""
SLEEPY_DEADLINE = 60
PLAYED = (("hegemony_of_faith", 2, 2), ("cult_wars", 2, 1), ("hegemony_of_faith", 2, 2),
          ("cult_wars", 2, 1))
"""(game, human seats, computer seats) of the played games."""
SLEEPY = 4
"""High Card Duel games nobody answers."""
USER_BASE = 700_000


class Clock:
    """The games' clock: ``BASE`` at real time ``t0``, ``SPEED`` times as fast."""

    def __init__(self, t0: float) -> None:
        self.t0 = t0

    def __call__(self) -> float:
        return BASE + (time.time() - self.t0) * SPEED


def key(d: DeadlineRow) -> list[Any]:
    return [d.game_id, d.seat, d.kind, d.opened]


# ------------------------------------------------------------------------------------ child


class RecordingStorage(PostgresStorage):
    """Writes the deadlines each claim took to the child's deadline ledger."""

    deadline_ledger: LedgerWriter | None = None

    async def claim_deadlines(self, now: float, owner: str, lease_s: float,
                              limit: int = 100) -> list[DeadlineRow]:
        claimed = await super().claim_deadlines(now, owner, lease_s, limit)
        if claimed and self.deadline_ledger is not None:
            self.deadline_ledger.write({"t": "claimed", "k": [key(d) for d in claimed], "at": now},
                                 durable=True)
        return claimed


class RecordingSessions(Sessions):
    """Writes each timeout it stored (the deadline and the action's number) to the ledger."""

    deadline_ledger: LedgerWriter | None = None

    async def timeout(self, deadline: DeadlineRow) -> Update | None:
        at = self.now()
        update = await super().timeout(deadline)
        if update is not None and update.actions and self.deadline_ledger is not None:
            self.deadline_ledger.write({"t": "fired", "k": key(deadline), "at": at, "v": update.since + 1},
                                 durable=True)
        return update


class Child:
    def __init__(self, role: str, sessions: RecordingSessions, player: Player,
                 deadlines: LedgerWriter) -> None:
        self.role = role
        self.sessions = sessions
        self.player = player
        self.deadlines = deadlines
        self.all_seats = False
        self.stuck_since: dict[tuple[int, int], float] = {}

    def serves(self, seat: int) -> bool:
        return self.all_seats or seat % 2 == (0 if self.role == "a" else 1)

    async def remind(self, game: GameRow, d: DeadlineRow) -> None:
        """Called once ``mark_reminded`` made this process the one to send it: recorded first, then
        "sent" (slowly, by the victim: Discord taking its time)."""
        self.deadlines.write({"t": "reminded", "k": key(d), "at": self.sessions.now()}, durable=True)
        await asyncio.sleep(0.25 if self.role == "a" else 0.0)

    async def schedule(self, scheduler: Scheduler) -> None:
        while True:
            try:
                await scheduler.run_due()
            except StorageError:  # (a busy database: the next pass tries again)
                pass
            await asyncio.sleep(0.01)

    async def drive(self, game_id: int) -> None:
        """Answer the seats this process serves in one played game until it is over."""
        sessions = self.sessions
        while True:
            snap = await sessions.snapshot(game_id)
            game = snap.game
            if game.status != "active":
                return
            humans = {s.seat: s.user_id for s in game.seats if not s.is_bot}
            mine = [o for o in snap.open if o.seat in humans and self.serves(o.seat)]
            if mine:
                await asyncio.gather(*(self.player.answer(game_id, humans[o.seat], o, game.seed,
                                                          game.version, snap.view(o.seat), snap.engine)
                                       for o in mine))
                continue
            if snap.awaits_computers() and not any(o.seat in humans for o in snap.open):
                # computers awaited a while at one version: the process answering them died
                first = self.stuck_since.setdefault((game_id, game.version), time.monotonic())
                if time.monotonic() - first > 0.5:
                    try:
                        await sessions.resume([game_id])
                    except (StaleAction, TableError):
                        pass
            sessions.storage.forget(game_id)  # (the other process's moves: read the database)
            await asyncio.sleep(0.01)

    async def take_over(self, ledger_of_dead: Path) -> int:
        """Serve every seat; send again the dead process's clicks it never heard back about."""
        self.all_seats = True
        pending = read_ledger(ledger_of_dead).pending()
        for intent in pending:
            game = await self.sessions.get(intent.game)
            await self.player.send(intent, game.seats[intent.seat].user_id, resent=True)
        return len(pending)


async def _child(role: str, url: str, folder: Path, t0: float, conn: Connection) -> None:
    scheduler_module.LEASE = LEASE
    clock = Clock(t0)
    storage = RecordingStorage(url)
    await storage.open()
    ledger = LedgerWriter(folder / f"ledger-{role}.jsonl")
    deadlines = LedgerWriter(folder / f"deadlines-{role}.jsonl")
    storage.deadline_ledger = deadlines
    try:
        sessions = RecordingSessions(storage, CONFIG, NullDelivery(), now=clock)
        sessions.deadline_ledger = deadlines
        child = Child(role, sessions, Player(sessions, ledger, run=0 if role == "a" else 1), deadlines)
        scheduler = Scheduler(sessions, child.remind, owner=f"process-{role}")
        tasks = [asyncio.create_task(child.schedule(scheduler))]
        games = await storage.list_games(statuses=("active",))
        played = [g.id for g in games if g.game_key != "duel"]
        tasks += [asyncio.create_task(child.drive(g)) for g in played]
        conn.send(("ready",))
        if role == "b":
            # the parent says when the other process is dead
            await asyncio.get_running_loop().run_in_executor(None, conn.recv)
            conn.send(("resent", await child.take_over(folder / "ledger-a.jsonl")))
            while await storage.list_games(statuses=("active",)):
                await asyncio.sleep(0.05)
            conn.send(("done",))
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        else:
            await asyncio.gather(*tasks)  # until killed
    finally:
        ledger.close()
        deadlines.close()
        await storage.close()


def child_main(role: str, url: str, folder: str, t0: float, conn: Connection) -> None:
    try:
        asyncio.run(_child(role, url, Path(folder), t0, conn))
    except BaseException:
        conn.send(("error", traceback.format_exc()))
        raise SystemExit(1) from None


# ----------------------------------------------------------------------------------- parent


async def open_games(url: str, t0: float) -> list[int]:
    """The played and the sleepy games, started (their deadlines run from now)."""
    storage = PostgresStorage(url)
    await storage.open()
    try:
        sessions = Sessions(storage, CONFIG, NullDelivery(), now=Clock(t0))
        ids = []
        for number, (game_key, humans, bots) in enumerate(PLAYED):
            users = [USER_BASE + 10 * number + k for k in range(humans)]
            table = await sessions.open_table(guild_id=1, channel_id=number, host_id=users[0],
                                              host_name=f"p{number}", game_key=game_key, bots=bots,
                                              seed=4000 + number)
            for user in users[1:]:
                await sessions.join(table.id, user, f"p{user}")
            await sessions.start(table.id, users[0])
            ids.append(table.id)
        for number in range(len(PLAYED), len(PLAYED) + SLEEPY):
            host, guest = USER_BASE + 10 * number, USER_BASE + 10 * number + 1
            table = await sessions.open_table(guild_id=1, channel_id=number, host_id=host,
                                              host_name="Ada", game_key="duel",
                                              deadline=SLEEPY_DEADLINE, seed=4000 + number)
            await sessions.join(table.id, guest, "Bo")
            await sessions.start(table.id, host)
            ids.append(table.id)
        return ids
    finally:
        await storage.close()


def read_records(path: Path) -> list[dict[str, Any]]:
    """A deadline ledger's records (a last line cut short by the kill is not one)."""
    out = []
    if path.exists():
        for raw in path.read_bytes().split(b"\n"):
            try:
                out.append(json.loads(raw))
            except ValueError:
                continue
    return out


@dataclass
class Findings:
    problems: list[str] = field(default_factory=list)
    acked: int = 0
    fired: int = 0
    reminded: int = 0
    taken_over: int = 0
    """Deadlines the victim had claimed and not handled when it died, handled by the survivor."""
    outcomes: Counter[str] = field(default_factory=Counter)

    def summary(self) -> str:
        return (f"{self.acked} acknowledged actions, {self.fired} timeouts fired, {self.reminded} "
                f"reminders, {self.taken_over} claims of the dead process taken over; outcomes "
                f"{dict(sorted(self.outcomes.items()))}")


def outstanding(folder: Path, role: str) -> dict[tuple[Any, ...], float]:
    """Deadlines ``role`` claimed and has not (yet) fired or reminded → when it claimed them."""
    held: dict[tuple[Any, ...], float] = {}
    for rec in read_records(folder / f"deadlines-{role}.jsonl"):  # (in the order written)
        if rec["t"] == "claimed":
            for k in rec["k"]:
                held.setdefault(tuple(k), rec["at"])
        else:
            held.pop(tuple(rec["k"]), None)
    return held


async def check(url: str, folder: Path, games: list[int], victim_left: dict[tuple[Any, ...], float],
                victim_pending: list[Any]) -> Findings:
    """Everything the test requires, read from the database and the children's ledgers."""
    found = Findings()
    storage = PostgresStorage(url)
    await storage.open()
    try:
        sessions = Sessions(storage, CONFIG, NullDelivery())
        logs = {g: await storage.actions(g) for g in games}
        for g in games:
            game = await storage.get_game(g)
            if game is None or game.status != "finished":
                found.problems.append(f"game #{g} is {game.status if game else 'gone'}, not finished")
            elif not await sessions.verify_replay(g):
                found.problems.append(f"game #{g}: its replay is not its stored state")
    finally:
        await storage.close()

    # every acknowledged action stored exactly once, where it was acknowledged
    acked_at: dict[int, set[int]] = {g: set() for g in games}
    decisions: set[tuple[int, int, int]] = set()
    intents = read_ledger(folder / "ledger-a.jsonl").intents  # (the survivor re-sends these)
    for role in ("a", "b"):
        ledger = read_ledger(folder / f"ledger-{role}.jsonl")
        found.outcomes.update(ledger.outcome.values())
        for intent_id, version in ledger.acks.items():
            intent = ledger.intents.get(intent_id) or intents[intent_id]
            found.acked += 1
            log = logs[intent.game]
            n = version - 1  # (the game's version is 1 at the start; action n makes it n + 1)
            if not 1 <= n <= len(log) or log[n - 1] != (intent.seat, intent.action, "player"):
                found.problems.append(f"acknowledged {intent_id} is not action {n} of game "
                                      f"#{intent.game}")
            if n in acked_at[intent.game]:
                found.problems.append(f"two acknowledgements for action {n} of game #{intent.game}")
            acked_at[intent.game].add(n)
            decision = (intent.game, intent.seat, intent.opened)
            if decision in decisions:
                found.problems.append(f"decision {decision} acknowledged twice")
            decisions.add(decision)
    in_flight = Counter(i.game for i in victim_pending)
    for g in games:
        players = sum(1 for _, _, origin in logs[g] if origin == "player")
        if not len(acked_at[g]) <= players <= len(acked_at[g]) + in_flight[g]:
            found.problems.append(f"game #{g}: {players} player actions stored for "
                                  f"{len(acked_at[g])} acknowledged and {in_flight[g]} in flight")

    # every deadline fired once; every reminder sent at most once
    fired: dict[tuple[Any, ...], tuple[str, float]] = {}
    reminded: dict[tuple[Any, ...], tuple[str, float]] = {}
    for role in ("a", "b"):
        for rec in read_records(folder / f"deadlines-{role}.jsonl"):
            k = tuple(rec["k"]) if rec["t"] != "claimed" else None
            if k is None:
                continue
            seen = fired if rec["t"] == "fired" else reminded
            if k in seen:
                found.problems.append(f"deadline {k} {rec['t']} twice ({seen[k][0]} and {role})")
            seen[k] = (role, rec["at"])
    found.fired, found.reminded = len(fired), len(reminded)
    timeouts = sum(1 for g in games for _, _, origin in logs[g] if origin == "timeout")
    if not len(fired) <= timeouts <= len(fired) + 1:  # (the victim may die after storing one)
        found.problems.append(f"{timeouts} timeouts stored, {len(fired)} recorded as fired")

    # what the victim claimed and never handled was handled by the survivor once the lease ended
    # — but for one it may have been handling as it died: stored, not yet written down (a timeout
    # stored; or a reminder marked sent, which releases the claim at once, so the survivor may
    # take that deadline's timeout before the lease would have ended)
    unhandled, early = [], []
    for k, claimed_at in victim_left.items():
        by = fired.get(k) or reminded.get(k)
        if by is None or by[0] != "b":
            unhandled.append(f"deadline {k}, claimed by the dead process, was not handled by the "
                             f"survivor ({by})")
        elif by[1] < claimed_at + LEASE:
            early.append(f"deadline {k} was handled {claimed_at + LEASE - by[1]:.1f} s "
                         "before the dead process's claim ended")
        else:
            found.taken_over += 1
    if len(unhandled) + len(early) > 1:
        found.problems.extend(unhandled + early)
    return found


def kill_when_holding_claims(folder: Path, acks_at_least: int, timeout: float,
                             watch: Callable[[], None]) -> dict[tuple[Any, ...], float]:
    """Wait until the victim holds claims it has not handled and has acknowledged some actions
    (``watch`` raises should a child fail meanwhile); the claims (the caller kills it at once)."""
    limit = time.monotonic() + timeout
    while time.monotonic() < limit:
        watch()
        left = outstanding(folder, "a")
        if left and len(read_ledger(folder / "ledger-a.jsonl").acks) >= acks_at_least:
            return left
        time.sleep(0.01)
    raise AssertionError(f"the victim never held an unhandled claim within {timeout} s")
