"""kill -9 fault injection: a child process plays games through the real session layer and is
killed with SIGKILL at a random (seeded) moment; the parent then checks the database against what
the child had acknowledged, lets a new child resume, and at last plays every game to its end.

The child is what a Herald process is to the platform: ``Sessions`` on a real SQLite file, the
real engines, and a delivery that discards everything. It plays the human seats of every running
game itself (choosing like the computer player, from that seat's own view) and leaves the computer
seats to the session. Before each ``Sessions.act`` it writes an *intent* to a ledger (the decision
it answers: game, seat, the prompt instance of its ``Ticket``, and the action); only after ``act``
returned does it write the *acknowledgement* (with the version the action was stored at),
flushed and ``fsync``-ed — a player who saw "done" must find the move stored. A new child first
resumes (``Sessions.resume``, as the bot does at start) and then sends again every intent the dead
one never heard back about, with its original ticket, as a player pressing the same button after
the restart would: it must land once or be refused as already answered, never twice.

After every kill the parent (:class:`Checker`) reads the tables directly and replays each game's
action log incrementally. It requires that

* every acknowledged action is in ``actions`` exactly once, at the version acknowledged;
* no prompt instance is answered twice, and every stored player action answers the very decision
  its intent named (a re-sent click that landed on a later decision counts as *misplaced*);
* the stored state, version, status, result, prompt instances and deadlines equal what the replay
  of the log gives (nothing half-written), and no event belongs to an uncommitted version;
* a game left waiting only on computer players moves on once a new child got past ``resume``.

Children are forked from a ``multiprocessing`` fork server that has imported Herald and the
engines once, so a kill costs milliseconds of start-up rather than a second of imports.

Used by ``tests/faults/test_kill.py`` (a few dozen kills; hundreds with ``HERALD_SOAK=1``) and by
``bench/kill_soak.py`` (any number, with the figures printed).
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import os
import random
import signal
import sqlite3
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from bot.config import Config
from bot.errors import StaleAction, TableError
from bot.session import NullDelivery, OpenPrompt, Sessions, Ticket
from bot.storage import SqliteStorage
from rules import registry
from rules.engine import Engine, Prompt, RulesError

CONFIG = Config(token=None, db_path="", dev_guild=None, log_level="WARNING",
                default_deadline=86400, reminder_lead=3600, docs_url="")
"""Deadlines a day away: nothing times out during a run (no scheduler runs in the child)."""

registry.all_engines()  # imported once by the fork server, not again by every child

USER_BASE = 500_000
"""Member ids of the scripted players: ``USER_BASE + 10 * table number + seat``."""


@dataclass(frozen=True)
class TableSpec:
    """One kind of table the runs open: a game, how many seats the child plays, how many computers."""

    game_key: str
    humans: int
    bots: int


TABLES: tuple[TableSpec, ...] = (
    TableSpec("hegemony_of_faith", 2, 2),
    TableSpec("cult_wars", 0, 3),          # computers only: the whole game runs inside start()
    TableSpec("flick_of_faith", 1, 1),
    TableSpec("cult_wars", 1, 3),          # computer-heavy: most of a round is computers answering
    TableSpec("hegemony_of_faith", 1, 5),  # computer-heavy
    TableSpec("cult_wars", 3, 0),          # simultaneous secret orders, every seat a player
    TableSpec("flick_of_faith", 2, 1),
    TableSpec("hegemony_of_faith", 0, 4),  # computers only, resumed (by resume()) after each kill
)
"""The mix, opened in this order (cycled) so that about ``active`` games are always running."""


# ----------------------------------------------------------------------------------- ledger


@dataclass(frozen=True)
class Intent:
    """An action the child is about to send, and the decision it answers."""

    id: str
    game: int
    seat: int
    opened: int
    digest: str | None
    action: dict[str, Any]

    @property
    def ticket(self) -> Ticket:
        return Ticket(self.opened, self.digest)


@dataclass
class Ledger:
    """What the children wrote: intents, and what became of each (``outcome[id]``)."""

    intents: dict[str, Intent] = field(default_factory=dict)
    acks: dict[str, int] = field(default_factory=dict)
    """Intent id → the game version its action was stored at (``act`` returned)."""
    outcome: dict[str, str] = field(default_factory=dict)
    """Intent id → ``ack``, ``answered`` (refused: already answered), ``changed`` (refused: the
    options changed), ``over`` (refused: the game is not running) or ``illegal`` (refused by the
    rules: only a click sent again for a decision already answered and still revisable — Cult
    Wars orders until the last cult submits — passes its ticket check and reaches the engine)."""
    resent: Counter[str] = field(default_factory=Counter)
    """Outcomes of intents sent again by a new child after a kill."""
    stalls: int = 0
    """Times a child found a game waiting only on computers outside ``resume`` (should be 0)."""
    torn: int = 0
    """Unreadable last lines (a kill in the middle of a write; not acknowledged)."""

    def pending(self) -> list[Intent]:
        return [i for k, i in self.intents.items() if k not in self.outcome]


def read_ledger(path: Path) -> Ledger:
    ledger = Ledger()
    if not path.exists():
        return ledger
    for raw in path.read_bytes().split(b"\n"):
        if not raw.strip():
            continue
        try:
            rec = json.loads(raw)
        except ValueError:  # a write cut short by a kill (the next child starts a new line)
            ledger.torn += 1
            continue
        kind = rec["t"]
        if kind == "intent":
            ledger.intents[rec["id"]] = Intent(rec["id"], rec["g"], rec["s"], rec["o"], rec["d"], rec["a"])
        elif kind == "stall":
            ledger.stalls += 1
        else:
            ledger.outcome[rec["id"]] = kind
            if kind == "ack":
                ledger.acks[rec["id"]] = rec["v"]
            if rec.get("resent"):
                ledger.resent[kind] += 1
    return ledger


class LedgerWriter:
    """Appends one JSON line per record with a single ``write``; acknowledgements are fsync-ed."""

    def __init__(self, path: Path) -> None:
        self.fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o600)
        size = os.fstat(self.fd).st_size
        if size and os.pread(self.fd, 1, size - 1) != b"\n":
            os.write(self.fd, b"\n")  # the last child died in the middle of a line

    def write(self, record: dict[str, Any], *, durable: bool = False) -> None:
        os.write(self.fd, (json.dumps(record, sort_keys=True) + "\n").encode())
        if durable:
            os.fsync(self.fd)

    def close(self) -> None:
        os.close(self.fd)


# ------------------------------------------------------------------------------------ child


class Player:
    """The child: drives every human seat of every unfinished game through ``Sessions``."""

    def __init__(self, sessions: Sessions, ledger: LedgerWriter, run: int) -> None:
        self.sessions = sessions
        self.ledger = ledger
        self.run = run
        self.sent = 0

    async def send(self, intent: Intent, user_id: int | None, *, resent: bool = False) -> None:
        """Send one action with its ticket; acknowledge it only once ``act`` has returned."""
        if not resent:
            self.ledger.write({"t": "intent", "id": intent.id, "g": intent.game, "s": intent.seat,
                               "o": intent.opened, "d": intent.digest, "a": intent.action})
        extra = {"resent": True} if resent else {}
        try:
            update = await self.sessions.act(intent.game, intent.seat, intent.action, user_id=user_id,
                                             answers=intent.ticket, deliver=True)
        except StaleAction as e:
            self.ledger.write({"t": "answered" if e.answered else "changed", "id": intent.id, **extra})
            return
        except TableError:
            self.ledger.write({"t": "over", "id": intent.id, **extra})
            return
        except RulesError as e:
            self.ledger.write({"t": "illegal", "id": intent.id, "why": str(e), **extra})
            return
        first = update.actions[0] if update.actions else None
        if first != (intent.seat, intent.action, "player"):
            raise AssertionError(f"act returned without storing intent {intent.id}: {update.actions}")
        self.ledger.write({"t": "ack", "id": intent.id, "v": update.since + 1, **extra}, durable=True)

    async def answer(self, game_id: int, user_id: int | None, mine: OpenPrompt, seed: int,
                     version: int, view: dict[str, Any], engine: Engine[Any]) -> None:
        rng = random.Random(f"{seed}/player/{version}/{mine.seat}")
        action = await self.sessions.cpu(engine.bot_action, view, mine.prompt, rng)
        self.sent += 1
        ticket = mine.ticket
        intent = Intent(f"{self.run}-{self.sent}", game_id, mine.seat, ticket.opened, ticket.digest,
                        json.loads(json.dumps(action)))
        await self.send(intent, user_id)

    async def play(self, game_id: int) -> None:
        """Start the game if it is still a lobby, then answer its human seats until it ends.

        Prompts open at the same moment (simultaneous secret choices) are answered concurrently,
        so the game's lock and the per-seat tickets are exercised as with several real players."""
        game = await self.sessions.get(game_id)
        if game.status == "lobby":
            await self.sessions.start(game_id, game.host_id)
        while True:
            snap = await self.sessions.snapshot(game_id)
            game = snap.game
            if game.status != "active":
                return
            humans = {s.seat: s.user_id for s in game.seats if not s.is_bot}
            mine = [o for o in snap.open if o.seat in humans]
            if not mine:
                # only computers are awaited outside resume(): a stalled game, which must move on
                self.ledger.write({"t": "stall", "g": game_id})
                if not await self.sessions.resume([game_id]):
                    raise AssertionError(f"game #{game_id} waits on computers and resume() "
                                         "does not move it")
                continue
            await asyncio.gather(*(self.answer(game_id, humans[o.seat], o, game.seed, game.version,
                                               snap.view(o.seat), snap.engine) for o in mine))


async def _child(db: str, ledger_path: Path, run: int, conn: Connection) -> None:
    storage = SqliteStorage(db)
    await storage.open()
    writer = LedgerWriter(ledger_path)
    try:
        sessions = Sessions(storage, CONFIG, NullDelivery())
        conn.send(("ready",))
        moved = await sessions.resume()  # as the bot does at start
        conn.send(("resumed", moved))
        player = Player(sessions, writer, run)
        for intent in read_ledger(ledger_path).pending():
            game = await sessions.get(intent.game)
            await player.send(intent, game.seats[intent.seat].user_id, resent=True)
        while True:
            games = await storage.list_games(statuses=("lobby", "active"))
            if not games:
                break
            await asyncio.gather(*(player.play(g.id) for g in games))
        conn.send(("done",))
    finally:
        writer.close()
        await storage.close()


def child_main(db: str, ledger_path: str, run: int, conn: Connection) -> None:
    """Entry point of a child process (run ``run``); reports failures through ``conn``."""
    try:
        asyncio.run(_child(db, Path(ledger_path), run, conn))
    except BaseException:
        conn.send(("error", traceback.format_exc()))
        raise SystemExit(1) from None


# ---------------------------------------------------------------------------------- checker


@dataclass
class Track:
    """The parent's replay of one game, extended by each check (a log only ever grows)."""

    engine: Engine[Any]
    state: Any
    opened: dict[int, int]
    answered: dict[int, int] = field(default_factory=dict)
    log: list[tuple[int, str, str]] = field(default_factory=list)
    """(seat, action JSON, origin) per stored action, to see that the prefix never changes."""
    instances: dict[tuple[int, int], list[int]] = field(default_factory=dict)
    """(seat, prompt instance) → numbers of the actions that answered it."""
    players: int = 0
    """Human seats (0: a table of computer players only)."""
    revisions: int = 0
    done: bool = False


def _first_per_seat(prompts: Iterable[Prompt]) -> list[Prompt]:
    out: dict[int, Prompt] = {}
    for p in prompts:
        out.setdefault(p.seat, p)
    return list(out.values())


@dataclass
class Check:
    """What one check found."""

    problems: list[str] = field(default_factory=list)
    acked: int = 0
    lost: int = 0
    duplicated: int = 0
    misplaced: int = 0
    waiting_on_computers: set[int] = field(default_factory=set)
    games: int = 0
    finished: int = 0
    actions: int = 0


class Checker:
    """Checks the database against the ledger; keeps each game's replay between checks."""

    def __init__(self, db: Path, ledger: Path) -> None:
        self.db = db
        self.ledger_path = ledger
        self.tracks: dict[int, Track] = {}

    def check(self) -> Check:
        ledger = read_ledger(self.ledger_path)
        out = Check()
        con = sqlite3.connect(self.db)
        try:
            integrity = con.execute("PRAGMA integrity_check").fetchone()[0]
            if integrity != "ok":
                out.problems.append(f"the database file is damaged: {integrity}")
            games = con.execute(
                "SELECT id, game_key, status, version, seed, options, state, result, opened, answered "
                "FROM games ORDER BY id").fetchall()
            for row in games:
                self._check_game(con, row, out)
        finally:
            con.close()
        self._check_ledger(ledger, out)
        return out

    def _check_game(self, con: sqlite3.Connection, row: tuple[Any, ...], out: Check) -> None:
        gid, key, status, version, seed, options, state, result, opened, answered = row
        out.games += 1
        if status == "lobby":
            if version != 0 or state is not None:
                out.problems.append(f"game #{gid}: a lobby with a state (version {version})")
            return
        track = self.tracks.get(gid)
        if track is None:
            engine = registry.get(key)
            seats, bot_seats = con.execute("SELECT COUNT(*), SUM(is_bot) FROM seats WHERE game_id=?",
                                           (gid,)).fetchone()
            first = engine.setup(seats, seed, json.loads(options))
            track = self.tracks[gid] = Track(engine, first, Sessions._opened_after(
                {}, [], engine.prompts(first), None, 1), players=seats - bot_seats)
        if track.done:
            if status != "finished" or version != len(track.log) + 1:
                out.problems.append(f"game #{gid} changed after it finished")
            out.finished += 1
            out.actions += len(track.log)
            return
        rows = con.execute("SELECT n, seat, action, origin FROM actions WHERE game_id=? ORDER BY n",
                           (gid,)).fetchall()
        if [r[0] for r in rows] != list(range(1, len(rows) + 1)):
            out.problems.append(f"game #{gid}: action numbers are not 1..{len(rows)}")
            return
        stored = [(r[1], r[2], r[3]) for r in rows]
        if stored[:len(track.log)] != track.log:
            out.problems.append(f"game #{gid}: the stored action log changed under its prefix")
            return
        bots = {s for (s,) in con.execute("SELECT seat FROM seats WHERE game_id=? AND is_bot=1", (gid,))}
        engine = track.engine
        for n in range(len(track.log) + 1, len(stored) + 1):
            seat, action, origin = stored[n - 1]
            before = track.state
            was_open = engine.prompts(before)
            if any(p.seat == seat for p in was_open):
                instance = track.opened.get(seat, 0)
                track.answered[seat] = instance
            else:
                instance = track.answered.get(seat, -1)
                track.revisions += 1
            try:
                after, _ = engine.apply(before, seat, json.loads(action))
            except Exception as e:  # a stored action the replay refuses: the log is corrupt
                out.problems.append(f"game #{gid}: action {n} does not replay: {e}")
                return
            track.instances.setdefault((seat, instance), []).append(n)
            done = engine.result(after) is not None
            track.opened = {} if done else Sessions._opened_after(
                track.opened, was_open, engine.prompts(after), seat, n + 1)
            track.state = after
            track.log.append((seat, action, origin))
        replayed = engine.result(track.state)
        want_status = "finished" if replayed is not None else "active"
        facts = {
            "version": (version, len(stored) + 1),
            "status": (status, want_status),
            "state": (json.loads(state), engine.to_json(track.state)),
            "result": (json.loads(result) if result else None, replayed.to_json() if replayed else None),
            "opened": ({int(k): v for k, v in json.loads(opened).items()}, track.opened),
            "answered": ({int(k): v for k, v in json.loads(answered).items()}, track.answered),
        }
        for name, (have, want) in facts.items():
            if have != want:
                shown = f"{have!r} != {want!r}" if name not in ("state",) else "differs"
                out.problems.append(f"game #{gid}: stored {name} is not the replay's: {shown}")
        deadlines = set(con.execute("SELECT seat, opened FROM deadlines WHERE game_id=?", (gid,)))
        want_deadlines = set() if replayed is not None else {
            (p.seat, track.opened[p.seat]) for p in _first_per_seat(engine.prompts(track.state))
            if p.seat not in bots}
        if deadlines != want_deadlines:
            out.problems.append(f"game #{gid}: deadlines {sorted(deadlines)} != {sorted(want_deadlines)}")
        last_event = con.execute("SELECT MAX(version) FROM events WHERE game_id=?", (gid,)).fetchone()[0]
        if last_event is not None and last_event > version:
            out.problems.append(f"game #{gid}: an event of version {last_event} > {version}")
        if replayed is None:
            prompts = engine.prompts(track.state)
            if prompts and all(p.seat in bots for p in prompts):
                out.waiting_on_computers.add(gid)
        else:
            track.done = True
            out.finished += 1
        out.actions += len(track.log)

    def _stored(self, intent: Intent, version: int) -> bool:
        """The intent's action is the one stored at ``version``, answering the intent's decision."""
        track = self.tracks.get(intent.game)
        n = version - 1  # the game's version is 1 at the start; action n makes it n + 1
        if track is None or not 0 < n <= len(track.log):
            return False
        seat, action, origin = track.log[n - 1]
        return (seat == intent.seat and origin == "player" and json.loads(action) == intent.action
                and n in track.instances.get((intent.seat, intent.opened), []))

    def _answered(self, intent: Intent) -> bool:
        """The intent's decision was answered with the intent's action (by an earlier send)."""
        track = self.tracks.get(intent.game)
        if track is None:
            return False
        numbers = track.instances.get((intent.seat, intent.opened), [])
        return any(json.loads(track.log[n - 1][1]) == intent.action for n in numbers)

    def _check_ledger(self, ledger: Ledger, out: Check) -> None:
        """Every acknowledged action stored once; no decision answered twice or by another's click."""
        by_decision: dict[tuple[int, int, int], list[Intent]] = {}
        for intent in ledger.intents.values():
            by_decision.setdefault((intent.game, intent.seat, intent.opened), []).append(intent)
        for gid, track in self.tracks.items():
            if track.revisions:
                out.problems.append(f"game #{gid}: {track.revisions} answer(s) revised, none were sent")
            for (seat, instance), numbers in track.instances.items():
                if len(numbers) > 1:
                    out.duplicated += len(numbers) - 1
                    out.problems.append(f"game #{gid}: seat {seat} answered decision {instance} "
                                        f"{len(numbers)} times (actions {numbers})")
                for n in numbers:
                    _, action, origin = track.log[n - 1]
                    if origin != "player":
                        continue
                    sent = [i for i in by_decision.get((gid, seat, instance), [])
                            if i.action == json.loads(action)]
                    if not sent:
                        out.misplaced += 1
                        out.problems.append(f"game #{gid}: action {n} (seat {seat}) answers decision "
                                            f"{instance}, but no click for that decision sent it")
        for key, kind in ledger.outcome.items():
            intent = ledger.intents[key]
            if kind == "illegal" and not self._answered(intent):
                out.problems.append(f"action {key} (game #{intent.game}, seat {intent.seat}) was refused "
                                    f"by the rules while its decision {intent.opened} was unanswered")
        for key, version in ledger.acks.items():
            intent = ledger.intents[key]
            out.acked += 1
            if not self._stored(intent, version):
                out.lost += 1
                out.problems.append(f"acknowledged action {key} (game #{intent.game}, seat "
                                    f"{intent.seat}, decision {intent.opened}) is not stored at "
                                    f"version {version}")


# ------------------------------------------------------------------------------------ runs


@dataclass
class Figures:
    """What a run did and found."""

    seed: int
    kills: int = 0
    killed_in_play: int = 0
    """Kills that found the child still playing (not already done)."""
    acked: int = 0
    lost: int = 0
    duplicated: int = 0
    misplaced: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)
    """What became of every action sent (see ``Ledger.outcome``)."""
    resent: Counter[str] = field(default_factory=Counter)
    left_waiting_on_computers: int = 0
    """Kills after which a game with players waited only on its computer players: the kill came
    while they answered a player's move (the next child resumes it)."""
    left_computer_game: int = 0
    """Kills in the middle of a computers-only game (run by ``start`` or ``resume``)."""
    resumed: int = 0
    """Games the children's ``resume()`` moved on."""
    stalls: int = 0
    torn: int = 0
    games: int = 0
    finished: int = 0
    actions: int = 0
    wall: float = 0.0
    problems: list[str] = field(default_factory=list)

    def summary(self) -> str:
        resent = ", ".join(f"{k} {v}" for k, v in sorted(self.resent.items())) or "none"
        outcomes = ", ".join(f"{k} {v}" for k, v in sorted(self.outcomes.items()))
        return (f"seed {self.seed}: {self.kills} kills ({self.killed_in_play} mid-play), "
                f"{self.acked} acknowledged actions, lost {self.lost}, duplicated {self.duplicated}, "
                f"misplaced {self.misplaced}; outcomes of the actions sent: {outcomes}; "
                f"re-sent after a kill: {resent}; "
                f"{self.left_waiting_on_computers} kills left players' moves awaiting computer "
                f"replies and {self.left_computer_game} a computers-only game running, "
                f"resume() moved {self.resumed} games on; stalls {self.stalls}; torn lines {self.torn}; "
                f"games finished {self.finished}/{self.games}, {self.actions} actions stored; "
                f"wall {self.wall:.1f} s")


def _context() -> Any:
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload([__name__])
    return ctx


async def _open_tables(db: Path, first: int, count: int, seed: int) -> None:
    storage = SqliteStorage(str(db))
    await storage.open()
    try:
        sessions = Sessions(storage, CONFIG, NullDelivery())
        for number in range(first, first + count):
            spec = TABLES[number % len(TABLES)]
            users = [USER_BASE + 10 * number + k for k in range(spec.humans)]
            table = await sessions.open_table(
                guild_id=1, channel_id=number, host_id=users[0] if users else None,
                host_name=f"player {number}", game_key=spec.game_key, bots=spec.bots,
                seed=seed * 10_000 + number, host_plays=bool(users))
            for user in users[1:]:
                await sessions.join(table.id, user, f"player {user}")
    finally:
        await storage.close()


def _unfinished(db: Path) -> int:
    if not db.exists():
        return 0
    con = sqlite3.connect(db)
    try:
        return int(con.execute("SELECT COUNT(*) FROM games WHERE status IN ('lobby', 'active')")
                   .fetchone()[0])
    finally:
        con.close()


@dataclass
class ChildRun:
    messages: list[tuple[Any, ...]]
    done: bool
    exitcode: int | None


def run_child(ctx: Any, db: Path, ledger: Path, run: int, kill_after: float | None,
              timeout: float = 120.0) -> ChildRun:
    """Fork a child; SIGKILL it ``kill_after`` seconds after it opened the database (None: let
    it play until every game is over)."""
    receive, send = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=child_main, args=(str(db), str(ledger), run, send), daemon=True)
    proc.start()
    send.close()
    messages: list[tuple[Any, ...]] = []
    limit = time.monotonic() + timeout
    kill_at: float | None = None
    try:
        while True:
            now = time.monotonic()
            if kill_at is not None and now >= kill_at:
                break
            wait = min(limit, kill_at if kill_at is not None else limit) - now
            if wait <= 0:
                raise AssertionError(f"child run {run} neither finished nor got killed in {timeout} s")
            if not receive.poll(wait):
                continue
            try:
                message = receive.recv()
            except EOFError:
                break
            messages.append(message)
            if message[0] == "error":
                raise AssertionError(f"child run {run} failed:\n{message[1]}")
            if message[0] == "ready" and kill_after is not None:
                kill_at = time.monotonic() + kill_after
            if message[0] == "done":
                break
    finally:
        receive.close()
        if proc.is_alive():
            proc.kill()  # SIGKILL
        proc.join(30)
    done = any(m[0] == "done" for m in messages)
    if kill_after is not None and not done and proc.exitcode != -signal.SIGKILL:
        raise AssertionError(f"child run {run} ended with exit code {proc.exitcode}, not by SIGKILL")
    return ChildRun(messages, done, proc.exitcode)


def run(workdir: Path, *, kills: int, seed: int, active: int = 4, max_delay: float = 0.5,
        progress: Callable[[str], None] | None = None) -> Figures:
    """``kills`` killed children (each after a random delay in [0, ``max_delay``) s, drawn from
    ``seed``), a check after each, then one child that finishes every game, and a final check."""
    started = time.perf_counter()
    db, ledger_path = workdir / "herald.db", workdir / "ledger.jsonl"
    rng = random.Random(seed)
    ctx = _context()
    checker = Checker(db, ledger_path)
    figures = Figures(seed)
    tables = 0
    waiting: set[int] = set()
    versions: dict[int, int] = {}

    def after(kind: str, child: ChildRun, number: int) -> Check:
        found = checker.check()
        resumed = [m[1] for m in child.messages if m[0] == "resumed"]
        figures.resumed += sum(resumed)
        if resumed:  # the child got past resume(): what waited only on computers has moved on
            for gid in sorted(waiting):
                track = checker.tracks[gid]
                if len(track.log) + 1 <= versions[gid]:
                    found.problems.append(f"game #{gid} waited on computers and was not resumed "
                                          f"by run {number}")
            waiting.clear()
        for gid in found.waiting_on_computers:
            waiting.add(gid)
            versions[gid] = len(checker.tracks[gid].log) + 1
        if kind == "kill":
            players = [checker.tracks[g].players > 0 for g in found.waiting_on_computers]
            figures.left_waiting_on_computers += any(players)
            figures.left_computer_game += not all(players)
        figures.problems.extend(f"after {kind} {number}: {p}" for p in found.problems)
        return found

    for number in range(kills):
        missing = active - _unfinished(db)
        if missing > 0:
            asyncio.run(_open_tables(db, tables, missing, seed))
            tables += missing
        child = run_child(ctx, db, ledger_path, number, rng.uniform(0, max_delay))
        figures.kills += 1
        figures.killed_in_play += not child.done
        found = after("kill", child, number)
        if progress is not None and (number + 1) % 25 == 0:
            progress(f"{number + 1} kills: {found.acked} acknowledged, {found.finished} games finished")
        if figures.problems:
            break
    if not figures.problems:
        child = run_child(ctx, db, ledger_path, kills, None)
        if not child.done:
            figures.problems.append("the last child did not finish every game")
        after("the final run", child, kills)
    found = checker.check()
    ledger = read_ledger(ledger_path)
    figures.acked, figures.lost, figures.duplicated = found.acked, found.lost, found.duplicated
    figures.misplaced, figures.games, figures.finished = found.misplaced, found.games, found.finished
    figures.actions, figures.resent, figures.stalls = found.actions, ledger.resent, ledger.stalls
    figures.torn, figures.outcomes = ledger.torn, Counter(ledger.outcome.values())
    if not figures.problems:
        figures.problems.extend(asyncio.run(_replays(db)))
    figures.wall = time.perf_counter() - started
    return figures


async def _replays(db: Path) -> list[str]:
    """The platform's own check on every game: the stored state is the replay of its log."""
    storage = SqliteStorage(str(db))
    await storage.open()
    try:
        sessions = Sessions(storage, CONFIG, NullDelivery())
        problems = []
        for game in await storage.list_games(statuses=("lobby", "active", "finished", "cancelled")):
            if game.status != "finished":
                problems.append(f"game #{game.id} is {game.status} after the final run")
            elif not await sessions.verify_replay(game.id):
                problems.append(f"game #{game.id}: verify_replay is False")
        return problems
    finally:
        await storage.close()
