"""Sessions: the single path every action takes — lock → load → check → apply → persist → deliver.

Knows storage and the engine contract; knows nothing of any game's rules and nothing of Discord's
API (delivery is an interface: Discord in production, files for ``simulate``, a recorder in tests).
CPU work (engine moves, rendering) runs in worker threads, off the event loop.

**Exactly once.** Each seat has at most one open prompt; its *instance* is the game version at
which it opened (``GameRow.opened``), and it changes whenever the seat answers — asked the same
kind of question again next turn is a new decision. A player's action carries a :class:`Ticket`
(the instance, and for menus a digest of the choices it was drawn from), and is checked *under the
game's lock* against that seat's open prompt — never against the whole game's version, so another
seat's move never invalidates my decision, and a double tap never lands on a later decision.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import json
import logging
import random
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from rules import registry
from rules.engine import Engine, Event, Prompt, Result, seat_name
from rules.search import HINTS_OPTION, searchable, seat_strength
from rules.text import about

from . import clock as _clock
from . import ratings, secrecy
from .config import Config
from .errors import Contention, NothingToDecide, StaleAction, TableError
from .lobby import Lobbies
from .parsing import format_duration as format_duration  # re-exported for older imports
from .parsing import parse_deadline as parse_deadline  # re-exported for older imports
from .parsing import parse_id
from .render.pool import (
    WorkPool,
    bot_choice,
    picture_png,
    searched,
    shipped,
    strength_choice,
    timeout_choice,
)
from .storage import DeadlineRow, GameRow, SeatRow, Storage, VersionConflict
from .storage.base import Departure
from .text import board_url, seat_label
from .turns import Turns

log = logging.getLogger("herald.session")
_R = TypeVar("_R")

COMMIT_ATTEMPTS = 3
"""Tries of one action when another process commits to the same game at the same moment."""
STALLED_REPLY = "Your move was stored; the computer players will answer shortly."
STEPS_IN_FLIGHT = 32
"""Steps between engine work and commit at once. More would not go faster (the engine's work
shares one interpreter), but a burst of a thousand clicks would hold a thousand games' new states,
views and serialised copies in memory at the same moment."""
KEPT_GAMES = 4096
"""Games whose latest parsed state (and seats' private views) the session keeps: every live game
of a big server, while a bounded number however many games there ever were."""
"""What a player reads when their move is stored but the computer players failed after it."""
PAUSED = ("game #{game_id} is paused by its host: nobody can move until it resumes "
          "(`/game resume`), and its deadlines are frozen meanwhile.")
"""The refusal of an action in a paused game (``bot.away``)."""


def choices_digest(prompt: Prompt) -> str:
    """A short digest of a prompt's kind and choices: a menu drawn from other options is stale."""
    raw = json.dumps([prompt.kind, [c.action for c in prompt.choices]], sort_keys=True)
    return hashlib.sha256(raw.encode()).hexdigest()[:10]


@dataclass(frozen=True)
class Ticket:
    """What an action answers: the seat's prompt instance and, for menus, its choices' digest."""

    opened: int
    digest: str | None = None

    def __str__(self) -> str:
        return f"{self.opened}" if self.digest is None else f"{self.opened}-{self.digest}"

    @classmethod
    def parse(cls, text: str) -> Ticket:
        opened, _, digest = text.partition("-")
        return cls(parse_id(opened, what="decision", lo=0), digest or None)


@dataclass(frozen=True)
class OpenPrompt:
    """An open prompt with its instance and its deadline (None for computer players)."""

    prompt: Prompt
    opened: int
    deadline: DeadlineRow | None = None

    @property
    def seat(self) -> int:
        return self.prompt.seat

    @property
    def ticket(self) -> Ticket:
        return Ticket(self.opened, choices_digest(self.prompt))


@dataclass
class Snapshot:
    """One version of a game, as everything after the session sees it: no re-reads needed."""

    game: GameRow
    engine: Engine[Any]
    state: Any | None
    open: list[OpenPrompt] = field(default_factory=list)

    def view(self, seat: int | None) -> dict[str, Any]:
        if self.state is None:
            raise TableError("this game has not started yet.")
        return self.engine.view(self.state, seat)

    def prompt_of(self, seat: int) -> OpenPrompt | None:
        return next((o for o in self.open if o.seat == seat), None)

    def revision_of(self, seat: int) -> OpenPrompt | None:
        """The answered prompt the seat may still revise (it has no open one), with the instance it
        answered — e.g. Cult Wars orders until the last cult submits."""
        if self.state is None or self.game.status != "active" or self.prompt_of(seat) is not None:
            return None
        opened = self.game.answered.get(seat)
        prompt = self.engine.revisable(self.state, seat) if opened is not None else None
        return OpenPrompt(prompt, opened) if prompt is not None and opened is not None else None

    @property
    def prompts(self) -> list[Prompt]:
        return [o.prompt for o in self.open]

    def waiting(self) -> list[int]:
        return sorted({o.seat for o in self.open})

    def waiting_text(self) -> str:
        return ", ".join(seat_label(self.game, s) for s in self.waiting()) or "nobody"

    def awaits_computers(self) -> bool:
        """A computer player has an open prompt. Every call to the session lets the computer
        players answer before it ends, so a game found like this was left so by a failure or a
        restart between two commits — and where only computer players are awaited, nobody else
        can move it on (``Sessions.resume``)."""
        bots = {s.seat for s in self.game.seats if s.is_bot}
        return any(o.seat in bots for o in self.open)


@dataclass(frozen=True)
class Decision:
    """The answer to "what must this member decide in this game now?" (``Sessions.decision``)."""

    snap: Snapshot
    seat: int
    open: OpenPrompt
    revising: bool = False
    """True: the seat answered this prompt already and may still revise its answer."""

    @property
    def game(self) -> GameRow:
        return self.snap.game

    @property
    def prompt(self) -> Prompt:
        return self.open.prompt

    @property
    def deadline(self) -> DeadlineRow | None:
        return self.open.deadline

    @property
    def ticket(self) -> Ticket:
        return self.open.ticket

    def view(self) -> dict[str, Any]:
        return self.snap.view(self.seat)


@dataclass
class Update:
    """What one call to the session changed, for delivery (which never re-reads anything)."""

    snap: Snapshot
    events: list[Event] = field(default_factory=list)
    changed_private: set[int] = field(default_factory=set)
    """Seats whose private view changed (their hand, their pending choice)."""
    changed_by_others: set[int] = field(default_factory=set)
    """Of those, the seats whose view changed other than by their own player's click (another
    seat's move, a computer player's, a timeout, the start, a seat handed over): delivery tells
    these players, while a change a player caused themselves only updates their hand quietly."""
    clicked_by: dict[int, int] = field(default_factory=dict)
    """Index in ``events`` → the seat whose own click (a player's action) produced that event."""
    since: int = 0
    """The game version before this update's first step: prompts opened after it are new."""
    result: Result | None = None
    kind: str = "action"  # action | start | end | timeout | admin | undo (bot/undo.py)
    steps: int = 0
    actions: list[tuple[int, dict[str, Any], str]] = field(default_factory=list)
    """(seat, action, origin) of each step applied, in order."""
    stalled: bool = False
    """True: what ``actions`` holds is stored, but the computer players then failed to answer;
    they answer shortly (``Sessions.resume``). Replies and the log say so."""

    @property
    def game(self) -> GameRow:
        return self.snap.game

    @property
    def new_prompts(self) -> list[OpenPrompt]:
        """Prompts that opened with this update (their seats are pinged / DMed)."""
        return [o for o in self.snap.open if o.opened > self.since]

    def fresh(self) -> Update:
        """An empty update continuing from this one (per-action delivery)."""
        return Update(self.snap, since=self.snap.game.version)


class Delivery(Protocol):
    per_action: bool
    """True: deliver after every step (simulate); False: once per call."""

    async def deliver(self, update: Update) -> None: ...


class NullDelivery:
    per_action = False

    async def deliver(self, update: Update) -> None:
        return None


class DeadlinePolicy(Protocol):
    """What the players' time away and quiet hours do to deadlines (``bot.away.TimeAway``)."""

    async def fresh(self, game: GameRow, deadlines: list[DeadlineRow]) -> list[DeadlineRow]:
        """The new deadlines of a step, adjusted for the players they belong to."""
        ...

    async def at_deadline(self, game: GameRow, deadline: DeadlineRow) -> DeadlineRow | str | None:
        """None: the usual timeout; "computer": the computer player decides for the (away)
        player; a deadline: the decision waits for the player until then instead."""
        ...


class Sessions(Lobbies[Update]):
    """All games of this process (the lobby's lifecycle: :class:`bot.lobby.Lobbies`)."""

    def __init__(self, storage: Storage, config: Config, delivery: Delivery | None = None,
                 now: Callable[[], float] = _clock.now, run_cpu: Callable[..., Any] | None = None) -> None:
        self.storage = storage
        self.config = config
        self.delivery: Delivery = delivery or NullDelivery()
        self.now = now
        self._locks: dict[int, asyncio.Lock] = {}
        self._guild_locks: dict[int, asyncio.Lock] = {}
        self._steps = Turns(STEPS_IN_FLIGHT)
        self._parsed: dict[int, tuple[int, Any]] = {}
        """Game → (version, its parsed state): the latest version of each game (``state_of``)."""
        self._prompts: dict[int, tuple[Any, list[Prompt]]] = {}
        """Game → (a kept parsed state, the engine's prompts of it): every read of a game between
        two steps finds its open prompts without asking the engine again."""
        self._privates: dict[int, tuple[int, list[Any]]] = {}
        """Game → (version, each seat's private view at it): the "before" side of the next step's
        comparison, so each step computes the views of one state instead of two."""
        self._inflight = 0
        self._idle = asyncio.Event()
        self._idle.set()
        self.closing = False
        self.on_deadlines_changed: Callable[[], None] = lambda: None
        self._run_cpu = run_cpu
        """Where CPU-heavy work runs (a thread by default); given, every engine step runs there
        too (see ``_work``)."""
        self.stalled: set[int] = set()
        """Games whose computer players failed to answer after a stored move (resumed later)."""
        self.scan_needed = False
        """True: the look at every game for computer players to resume (at start) failed; the
        scheduler repeats it (``resume()``) until it succeeds."""
        self._resuming: set[int] = set()
        self.unsettled: set[int] = set()
        """Finished games whose settlement in the ratings failed (``_settle``): settled again with
        the games ``resume`` retries (a passing failure) or at the next start."""
        self._background: set[asyncio.Task[None]] = set()
        self.policy: DeadlinePolicy | None = None
        """Adjusts deadlines for the players' time away and quiet hours (``bot.away``)."""
        self.listeners: list[Callable[[Update], Awaitable[None]]] = []
        """Told of every update once it is committed, before it is delivered (the live web pages,
        ``bot.web``); a listener that fails is logged and changes nothing else."""
        self.after_delivery: list[Callable[[Update], Awaitable[None]]] = []
        """Told of every update once it is delivered (a practice game's tip follows the board and
        the decision it is about, ``cogs.practice``); one that fails is logged, as a listener."""
        self.searches: WorkPool | None = None
        """Worker processes for the computer players of games whose search is heavy
        (``Engine.heavy_bot``), set by the bot (``bot.app``); None: every choice is computed here."""

    # ----------------------------------------------------------------- helpers

    async def tell_listeners(self, update: Update) -> None:
        """Tell every listener of a committed update (see ``listeners``)."""
        for listener in list(self.listeners):
            try:
                await listener(update)
            except Exception:
                log.exception("a listener of game updates failed", extra={"game_id": update.game.id})

    async def _deliver(self, update: Update) -> None:
        await self.tell_listeners(update)
        await self.deliver(update)

    async def deliver(self, update: Update) -> None:
        """Deliver an update that :meth:`act` committed with ``deliver=False`` (its listeners were
        told then): the click that made it was answered first (``bot.answer``)."""
        await self.delivery.deliver(update)
        for after in list(self.after_delivery):
            try:
                await after(update)
            except Exception:
                log.exception("a reader of delivered updates failed", extra={"game_id": update.game.id})

    def lock(self, game_id: int) -> asyncio.Lock:
        return self._locks.setdefault(game_id, asyncio.Lock())

    @staticmethod
    def engine(game: GameRow) -> Engine[Any]:
        return registry.get(game.game_key)

    def state_of(self, game: GameRow) -> Any:
        """The engine state of a stored game, parsed once per (game, version).

        Engines never mutate a state they are given (``apply`` works on a clone), so the parsed
        object can be shared by the session, delivery and views of the same version. The latest
        version of each live game is kept (an older one asked for is parsed again, not kept). A
        state another Herald wrote raises ``StateSchemaError``."""
        if game.state is None:
            raise TableError("this game has not started yet.")
        kept = self._parsed.get(game.id)
        if kept is not None and kept[0] == game.version:
            return kept[1]
        state = self.engine(game).from_json(game.state)
        if kept is None or kept[0] < game.version:
            self._keep_parsed(game, state)
        return state

    def _keep_parsed(self, game: GameRow, state: Any) -> None:
        """Remember a game's parsed state at ``game.version`` (a game over is forgotten)."""
        self._parsed.pop(game.id, None)
        self._prompts.pop(game.id, None)
        if game.status in ("finished", "cancelled"):
            self._privates.pop(game.id, None)
            return
        self._parsed[game.id] = (game.version, state)
        while len(self._parsed) > KEPT_GAMES:
            oldest = next(iter(self._parsed))
            del self._parsed[oldest]
            self._privates.pop(oldest, None)
            self._prompts.pop(oldest, None)

    def _prompts_of(self, game: GameRow, state: Any) -> list[Prompt]:
        """The engine's prompts of a game's state, asked once per kept state."""
        kept = self._prompts.get(game.id)
        if kept is not None and kept[0] is state:
            return kept[1]
        prompts = self.engine(game).prompts(state)
        parsed = self._parsed.get(game.id)
        if parsed is not None and parsed[1] is state:
            self._prompts[game.id] = (state, prompts)
        return prompts

    async def get(self, game_id: int) -> GameRow:
        game = await self.storage.get_game(game_id)
        if game is None:
            raise TableError(f"there is no game #{game_id}.")
        return game

    def _snap(self, game: GameRow, deadlines: Sequence[DeadlineRow]) -> Snapshot:
        engine = self.engine(game)
        if game.state is None:
            return Snapshot(game, engine, None)
        state = self.state_of(game)
        if game.status != "active":
            return Snapshot(game, engine, state)
        due = {d.seat: d for d in deadlines}
        open_: list[OpenPrompt] = []
        for p in self._prompts_of(game, state):
            if any(o.seat == p.seat for o in open_):
                continue  # one open decision per seat: the first in the engine's order
            open_.append(OpenPrompt(p, game.opened.get(p.seat, 0), due.get(p.seat)))
        return Snapshot(game, engine, state, open_)

    async def snapshot(self, game: GameRow | int, *, touch: bool = True) -> Snapshot:
        """The game (re-read when given an id) with its open prompts and their deadlines.

        Reading a game is touching it (``touch``): a game found waiting on its computer players
        (a failure or a restart came between a player's move and theirs) is resumed at once."""
        if isinstance(game, int):  # (one read, where the storage can)
            found, deadlines = await self.storage.game_and_deadlines(game)
            if found is None:
                raise TableError(f"there is no game #{game}.")
            row = found
        else:
            row = game
            deadlines = await self.storage.deadlines(row.id) if row.status == "active" else []
        snap = self._snap(row, deadlines)
        if touch:
            self.touched(snap)
        return snap

    def touched(self, snap: Snapshot) -> None:
        """Resume a game waiting on its computer players, in the background: the reader may hold
        the game's lock (``act``) and the player's interaction must not wait on the computers."""
        game_id = snap.game.id
        if self.closing or game_id in self._resuming or not snap.awaits_computers():
            return
        self._resuming.add(game_id)
        task = asyncio.get_running_loop().create_task(self._resume_touched(game_id),
                                                      name=f"herald-resume-{game_id}")
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _resume_touched(self, game_id: int) -> None:
        try:
            await self.resume([game_id])
        except Exception:  # (nobody awaits this task: say it here; the scheduler retries)
            log.exception("resuming a touched game failed", extra={"game_id": game_id})
        finally:
            self._resuming.discard(game_id)

    async def decision(self, game: GameRow | int, user_id: int, ticket: Ticket | None = None, *,
                       revise: bool = False) -> Decision:
        """The one lookup: the member's seat and open decision in a running game, or a refusal
        that says why not (not running, not seated, nothing to decide — and who is awaited).

        With ``ticket`` (from a menu or form), a decision already answered or changed since is
        ``StaleAction``. This early check spares a round trip; ``act`` repeats it under the lock.
        With ``revise``, an answer the seat may still revise counts as its decision."""
        snap = await self.snapshot(game)
        row = snap.game
        if row.status != "active":
            raise TableError(f"game #{row.id} is over." if row.status == "finished"
                             else "this game has not started yet." if row.status == "lobby"
                             else "this game is not running.")
        seat = row.seat_of(user_id)
        if seat is None:
            raise TableError("you are not playing in this game — only seated players can act.")
        if ticket is not None:
            self.check_ticket(snap, seat, ticket)
        mine = snap.prompt_of(seat)
        if mine is not None:
            return Decision(snap, seat, mine)
        revision = snap.revision_of(seat) if revise or ticket is not None else None
        if revision is None:
            raise NothingToDecide(snap.waiting_text())
        return Decision(snap, seat, revision, revising=True)

    async def cpu(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run CPU-heavy work (an export, an image, a replay) off the event loop."""
        return await (self._run_cpu or asyncio.to_thread)(fn, *args)

    async def picture(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> bytes:
        """The PNG of an image drawn by the module-level ``fn`` (an aim preview, a leaderboard):
        in a worker process when the bot has them — drawing on a thread of this process would
        hold the interpreter the moves on the event loop need — else on a thread."""
        pool = self.searches
        if pool is not None and pool.enabled:
            png: bytes = await pool.run(picture_png, fn, args, kwargs)
        else:
            png = await self.cpu(picture_png, fn, args, kwargs)
        return png

    async def game_work(self, fn: Callable[..., _R], key: str, *args: Any) -> _R:
        """``fn(key, *args)``, long CPU work over a game of ``key`` (its export, its animated
        replay: replaying a whole log, drawing every board): in a worker process when the bot has
        them and a worker knows the game as this process does (its engine and presentation) —
        on a thread of this process it would hold the interpreter the moves need for as long —
        else on a thread. (A worker stuck past the pool's time limit is stopped and the work done
        here instead.)"""
        pool = self.searches
        if pool is not None and pool.enabled and searched(key) and shipped(key):
            done: _R = await pool.run(fn, key, *args)
            return done
        done = await self.cpu(fn, key, *args)
        return done

    async def _work(self, engine: Engine[Any], fn: Callable[..., Any], *args: Any) -> Any:
        """A step's engine work (apply, prompts, views, a light computer player's choice): right
        here on the event loop, where a step costs a fraction of a millisecond — less than the
        hand-off to a thread and back, and with no other thread to share the interpreter with —
        or on a thread for a game whose steps are heavy (``Engine.heavy_steps``: physics)."""
        if self._run_cpu is not None or engine.heavy_steps:
            return await self.cpu(fn, *args)
        return fn(*args)

    class _Track:
        def __init__(self, s: Sessions) -> None:
            self.s = s

        async def __aenter__(self) -> None:
            if self.s.closing:
                raise TableError("Herald is restarting; try again in a moment.")
            self.s._inflight += 1
            self.s._idle.clear()

        async def __aexit__(self, *exc: Any) -> None:
            self.s._inflight -= 1
            if self.s._inflight == 0:
                self.s._idle.set()

    def track(self) -> Sessions._Track:
        return Sessions._Track(self)

    async def drain(self, timeout: float = 30.0) -> None:
        """Stop taking new actions and wait for in-flight ones to finish (clean shutdown)."""
        self.closing = True
        try:
            await asyncio.wait_for(self._idle.wait(), timeout)
        except TimeoutError:
            log.warning("shutdown: %d action(s) still running after %.0fs", self._inflight, timeout)

    async def deadline_settings(self, game: GameRow) -> tuple[int, int]:
        deadline = game.deadline
        lead = self.config.reminder_lead
        if game.guild_id is not None:
            gs = await self.storage.guild_settings(game.guild_id)
            deadline = deadline or gs.default_deadline
            lead = gs.reminder_lead if gs.reminder_lead is not None else lead
        return deadline or self.config.default_deadline, lead

    async def _deadlines_for(self, game: GameRow, prompts: Sequence[Prompt], opened: dict[int, int],
                             previous: Sequence[DeadlineRow]) -> list[DeadlineRow]:
        """Keep the deadline of a prompt instance that stays open; give new instances a fresh one:
        the table's deadline, or the prompt's own when shorter (a reaction window)."""
        table_deadline, lead = await self.deadline_settings(game)
        now = self.now()
        bots = {s.seat for s in game.seats if s.is_bot}
        old = {(d.seat, d.opened): d for d in previous}
        out: list[DeadlineRow] = []
        seen: set[int] = set()
        for p in prompts:
            if p.seat in bots or p.seat in seen:
                continue
            seen.add(p.seat)
            kept = old.get((p.seat, opened[p.seat]))
            if kept is not None and kept.kind == p.kind:
                out.append(kept)
                continue
            deadline = table_deadline if p.deadline is None else min(table_deadline, p.deadline)
            remind = now + deadline - lead if lead < deadline else now + deadline / 2
            out.append(DeadlineRow(game.id, p.seat, p.kind, now + deadline, remind, False, opened[p.seat]))
        fresh = [d for d in out if old.get((d.seat, d.opened)) is not d]
        if fresh and self.policy is not None:  # (time away, quiet hours: ``bot.away``)
            adjusted = dict(zip(map(id, fresh), await self.policy.fresh(game, fresh), strict=True))
            out = [adjusted.get(id(d), d) for d in out]
        return out

    @staticmethod
    def _opened_after(before: dict[int, int], was_open: Sequence[Prompt], now_open: Sequence[Prompt],
                      actor: int | None, version: int) -> dict[int, int]:
        """Prompt instances after a step to ``version``: a seat keeps its instance while its prompt
        (same kind) stays open and it did not act; everything else is a new decision."""
        kinds: dict[int, str] = {}
        for p in was_open:
            kinds.setdefault(p.seat, p.kind)
        out: dict[int, int] = {}
        for p in now_open:
            if p.seat in out:
                continue
            same = p.seat != actor and kinds.get(p.seat) == p.kind and p.seat in before
            out[p.seat] = before[p.seat] if same else version
        return out

    async def _first_moves(self, started: GameRow, deadlines: list[DeadlineRow]) -> Update:
        """The update of a game just started (``Lobbies.start``), with its computer players'
        answers; delivered first on its own when the delivery shows every action."""
        # every prompt open after the start is new (also when computer players answer first)
        update = Update(self._snap(started, deadlines), kind="start", since=0,
                        changed_private={s.seat for s in started.seats},
                        changed_by_others={s.seat for s in started.seats})
        if self.delivery.per_action:
            await self._deliver(update)
            update = update.fresh()
        return await self._run_bots_safely(update)

    # ------------------------------------------------------------------ play

    async def act(self, game_id: int, seat: int, action: dict[str, Any], *, origin: str = "player",
                  user_id: int | None = None, answers: Ticket | None = None,
                  deliver: bool = True) -> Update:
        """Apply one action for ``seat``; then let computer players answer their prompts.

        ``answers`` names the decision the player answered (from the menu, form or command they
        used); it is checked here, under the game's lock, against the seat's open prompt, so a
        double tap or an old menu never applies twice or to a later decision (``StaleAction``).
        A race lost to another process is retried from a fresh read."""
        async with self.track(), self.lock(game_id):
            for attempt in range(1, COMMIT_ATTEMPTS + 1):
                snap = await self.snapshot(game_id)
                game = snap.game
                if game.status != "active":
                    raise TableError("this game is not running any more." if game.status != "lobby"
                                     else "this game has not started yet.")
                if answers is not None:
                    self.check_ticket(snap, seat, answers)
                update = Update(snap, since=game.version)
                try:
                    update = await self._apply(update, seat, action, origin, user_id)
                except VersionConflict:
                    if await self.paused(game_id):
                        raise TableError(PAUSED.format(game_id=game_id)) from None
                    if attempt == COMMIT_ATTEMPTS:
                        raise Contention("the game was changing at the same moment from elsewhere, "
                                         "so your move was not stored; please try again.") from None
                    log.info("version race lost; retrying", extra={"game_id": game_id})
                    continue
                update = await self._run_bots_safely(update)
                break
        self.on_deadlines_changed()
        if deliver:
            await self._deliver(update)
        else:  # (stored all the same: the listeners hear of it)
            await self.tell_listeners(update)
        return update

    async def paused(self, game_id: int) -> bool:
        """Whether the game is paused (``bot.away``): the storage refuses its actions' commits,
        so this is asked only after a commit was refused."""
        pause = await self.storage.game_pause(game_id)
        return pause is not None and pause.paused

    @staticmethod
    def check_ticket(snap: Snapshot, seat: int, ticket: Ticket) -> None:
        """Refuse an action whose decision is not the seat's open prompt (or the answer it may
        still revise) any more."""
        mine = snap.prompt_of(seat) or snap.revision_of(seat)
        url = board_url(snap.game)
        if mine is None or mine.opened != ticket.opened:
            raise StaleAction("you already answered that decision, so this was not applied again"
                              + (f" — waiting for {snap.waiting_text()}." if not snap.prompt_of(seat) else "."),
                              game_id=snap.game.id, board_url=url)
        if ticket.digest is not None and ticket.digest != choices_digest(mine.prompt):
            raise StaleAction("your options changed since this menu was drawn; nothing was applied. "
                              "Press **Decide** for the current ones.",
                              game_id=snap.game.id, board_url=url, answered=False)

    async def _apply(self, update: Update, seat: int, action: dict[str, Any], origin: str,
                     user_id: int | None, notes: Sequence[Event] = ()) -> Update:
        """Apply and persist one action. ``notes`` are platform events stored and shown with it."""
        snap = update.snap
        game = snap.game
        engine = snap.engine
        before = snap.state
        version = game.version + 1
        seats = range(len(game.seats))
        kept = self._privates.get(game.id)
        privates_before = kept[1] if kept is not None and kept[0] == game.version else None
        was_open = snap.prompts  # (the engine's prompts of ``before``, the first of each seat)

        def step() -> tuple[Any, list[Event], dict[str, Any], list[Prompt], list[Any], Result | None,
                            tuple[str | None, bool]]:
            # all engine work, off the event loop; the private views of ``before`` were usually
            # computed by the step that made it
            prompt = secrecy.answered(engine, before, seat, was_open)
            after, events = engine.apply(before, seat, action)
            now_open = engine.prompts(after)
            privates = [engine.private_view(after, k) for k in seats]
            judged = (prompt.kind if prompt else None,  # (stored with the action: bot.secrecy)
                      secrecy.withheld(engine, prompt, action, after, len(seats)))
            return after, events, engine.to_json(after), now_open, privates, engine.result(after), judged

        async with self._steps:  # (bounds the states and views in flight: see STEPS_IN_FLIGHT)
            # RulesError propagates to the caller, before anything is written
            after, events, data, prompts_after, privates, result, (kind, secret) = await self._work(
                engine, step)
            if privates_before is None:
                privates_before = await self._work(
                    engine, lambda: [engine.private_view(before, k) for k in seats])
            changed = {k for k in seats if privates_before[k] != privates[k]}
            events = [*notes, *events]
            status = "finished" if result is not None else "active"
            opened = {} if result is not None else self._opened_after(game.opened, was_open, prompts_after,
                                                                       seat, version)
            answered = dict(game.answered)
            if any(p.seat == seat for p in was_open):
                answered[seat] = game.opened.get(seat, 0)  # (a revision keeps the instance it revises)
            previous = [o.deadline for o in snap.open if o.deadline is not None]
            deadlines = [] if result is not None else await self._deadlines_for(game, prompts_after, opened, previous)
            now = self.now()
            await self.storage.commit_action(
                game.id, expected_version=game.version, seat=seat, action=action, origin=origin,
                user_id=user_id, state=data, events=[e.to_json() for e in events], status=status,
                result=result.to_json() if result else None, opened=opened, answered=answered,
                deadlines=deadlines, now=now, prompt_kind=kind, secret=secret)
        log.info("action applied seat=%s origin=%s", seat, origin,
                 extra={"game_id": game.id, "guild_id": game.guild_id})
        row = dataclasses.replace(game, state=data, version=version, status=status, opened=opened,
                                  answered=answered, result=result.to_json() if result else None,
                                  updated_at=now)
        self._keep_parsed(row, after)
        if result is None:
            self._privates[game.id] = (version, privates)
            self._prompts[game.id] = (after, prompts_after)
        update.snap = self._snap(row, deadlines)
        update.events.extend(events)
        update.actions.append((seat, action, origin))
        update.changed_private |= changed
        update.changed_by_others |= {k for k in changed if not (k == seat and origin == "player")}
        if origin == "player":
            first = len(update.events) - len(events)
            update.clicked_by.update({i: seat for i in range(first, len(update.events))})
        update.result = result
        update.steps += 1
        if result is not None:
            update.kind = "end"
            await self._settle(row)
        return update

    async def _run_bots(self, update: Update, limit: int = 100000) -> Update:
        """Computer players answer their open prompts until a human must decide or the game ends.

        Each answer is its own commit. Should another process win a race meanwhile, the computer
        players stop here: the game has moved on elsewhere and is resumed from there."""
        for _ in range(limit):
            snap = update.snap
            game = snap.game
            if game.status != "active":
                return update
            bots = {s.seat for s in game.seats if s.is_bot}
            mine = next((o for o in snap.open if o.seat in bots), None)
            if mine is None:
                return update
            prompt = mine.prompt
            # (the view too is engine work: off the event loop with the choice)
            action = await self._choose(snap, prompt, f"{game.seed}/bot/{game.version}/{prompt.seat}")
            try:
                update = await self._apply(update, prompt.seat, action, "bot", None)
            except VersionConflict:
                log.info("computer players stop: the game moved on elsewhere", extra={"game_id": game.id})
                return update
            if self.delivery.per_action:
                await self._deliver(update)
                update = update.fresh()
        raise RuntimeError(f"computer players did not finish within {limit} moves")

    @staticmethod
    def _bot_choice(snap: Snapshot, prompt: Prompt, rng: random.Random) -> dict[str, Any]:
        """A computer player's answer, from its own view (all of it engine work)."""
        return snap.engine.bot_action(snap.view(prompt.seat), prompt, rng)

    def _searched(self, snap: Snapshot) -> WorkPool | None:
        """The worker pool that searches for this game's computer players, if it has one: only
        for a heavy search (``Engine.heavy_bot``) — a thread of this process would hold the
        interpreter every other game's moves need meanwhile — and never for a light one, which
        costs less than sending the state to a worker."""
        pool = self.searches
        if pool is None or not pool.enabled or not snap.engine.heavy_bot or snap.game.state is None:
            return None
        return pool

    async def _choose(self, snap: Snapshot, prompt: Prompt, seed: str) -> dict[str, Any]:
        """A computer player's answer to ``prompt``, its rng seeded from ``seed``: in a worker
        process for a heavy search (the stored state's JSON, the prompt and the seed cross — the
        same choice as here), on a thread otherwise."""
        strength = seat_strength(snap.game.options, prompt.seat)
        if strength is not None and snap.game.state is not None:
            # a table's strength (issue 29): a search runs in a worker process (on a thread
            # without one), never on the event loop; the easy player costs what the heuristic does
            pool = self.searches
            if strength != "easy" and pool is not None and pool.enabled:
                return await pool.search(strength_choice, snap.game.game_key, snap.game.state,
                                         prompt, seed, strength)
            return await self.cpu(strength_choice, snap.game.game_key,  # type: ignore[no-any-return]
                                  snap.game.state, prompt, seed, strength)
        pool = self._searched(snap)
        if pool is not None:
            return await pool.search(bot_choice, snap.game.game_key, snap.game.state, prompt, seed)
        return await self._work(snap.engine, self._bot_choice, snap, prompt,  # type: ignore[no-any-return]
                                random.Random(seed))

    async def _timeout_choice(self, snap: Snapshot, prompt: Prompt) -> dict[str, Any]:
        """The action taken when ``prompt``'s deadline passes (``Engine.timeout_action``: often the
        computer player, so a heavy one is searched in a worker like :meth:`_choose`). In a game
        that searches, where that is the computer player, the ``normal`` search decides
        (:func:`rules.search.timeout_action`): in a worker process, or on a thread without one,
        never on the event loop; without a clock, so the stored state and the prompt alone make
        the action (which is stored as the move, like any other)."""
        if searchable(snap.engine) and snap.game.state is not None:
            pool = self.searches
            if pool is not None and pool.enabled:
                return await pool.search(timeout_choice, snap.game.game_key, snap.game.state, prompt)
            return await self.cpu(timeout_choice, snap.game.game_key,  # type: ignore[no-any-return]
                                  snap.game.state, prompt)
        pool = self._searched(snap)
        if pool is not None:
            return await pool.search(timeout_choice, snap.game.game_key, snap.game.state, prompt)
        return await self._work(snap.engine, snap.engine.timeout_action,  # type: ignore[no-any-return]
                                snap.state, prompt)

    async def _run_bots_safely(self, update: Update) -> Update:
        """Computer players answer after a move that is already stored: should they fail (a locked
        or full database, an engine error), what was stored stands — the update says so
        (``Update.stalled``) and the player is told — and the game is resumed later (``resume``)."""
        try:
            return await self._run_bots(update)
        except Exception:
            log.exception("computer players could not answer; the game will be resumed",
                          extra={"game_id": update.game.id})
            self.stalled.add(update.game.id)
            update.stalled = True
            return update

    async def resume(self, game_ids: Sequence[int] | None = None) -> int:
        """Let computer players answer their open prompts (``Snapshot.awaits_computers``): at
        start (every active game), for games stalled by a failure between commits (the
        scheduler), and for a game a player touches (``touched``). Returns how many moved on.

        A game failing for a passing reason stays stalled without holding up the others. Without
        ``game_ids`` a failure to list the games raises, and ``scan_needed`` asks the scheduler to
        look again."""
        if game_ids is None:
            self.scan_needed = True
            settled = await ratings.settle_pending(self.storage, self.now())
            if settled:
                log.info("settled %d finished game(s) left unsettled", settled)
            game_ids = [g.id for g in await self.storage.list_games(statuses=("active",))]
            self.scan_needed = False
        moved = 0
        for game_id in game_ids:
            if self.closing:
                break
            try:
                update = await self._resume_one(game_id)
            except TableError:  # no such game (any more)
                self.stalled.discard(game_id)
                continue
            except Exception as exc:
                if isinstance(exc, self.storage.transient_errors):  # a locked database passes
                    log.warning("could not resume the game (%s); trying again later", exc,
                                extra={"game_id": game_id})
                    self.stalled.add(game_id)
                else:  # e.g. a state this Herald cannot read: retrying would not help
                    log.exception("could not resume the game", extra={"game_id": game_id})
                continue
            if update is None:
                continue
            moved += 1
            self.on_deadlines_changed()
            await self._deliver(update)
        return moved

    async def _resume_one(self, game_id: int) -> Update | None:
        """Computer players answer in one game if they are awaited; None if nothing moved."""
        async with self.track(), self.lock(game_id):
            snap = await self.snapshot(game_id, touch=False)
            self.stalled.discard(game_id)
            if game_id in self.unsettled:  # (a failure here keeps the game stalled: retried)
                await ratings.settle(self.storage, snap.game, self.now())
                self.unsettled.discard(game_id)
            if not snap.awaits_computers():
                return None
            update = await self._run_bots_safely(Update(snap, since=snap.game.version))
        return update if update.steps else None

    @staticmethod
    def _fires(mine: OpenPrompt | None, deadline: DeadlineRow) -> bool:
        """Whether ``deadline`` belongs to the open prompt ``mine`` (same kind, same instance)."""
        return mine is not None and mine.prompt.kind == deadline.kind and (
            not deadline.opened or mine.opened == deadline.opened)

    async def timeout(self, deadline: DeadlineRow) -> Update | None:
        """A deadline passed: its prompt's timeout action is taken (the log says so) — only if that
        very prompt instance is still open; an answered one just drops its deadline.

        The deadline row is fresh from the database, while the game may come from memory: a game
        another process moved on looks answered, or loses the version race, here. Either way it is
        read again before anything is judged or written (never deadlines derived from a stale
        copy), as :meth:`act` retries a lost race."""
        game_id, seat = deadline.game_id, deadline.seat
        async with self.track(), self.lock(game_id):
            for attempt in range(1, COMMIT_ATTEMPTS + 1):
                snap = await self.snapshot(game_id)
                mine = snap.prompt_of(seat)
                if not self._fires(mine, deadline) and attempt == 1:
                    self.storage.forget(game_id)
                    snap = await self.snapshot(game_id)
                    mine = snap.prompt_of(seat)
                game = snap.game
                if game.status != "active":
                    await self.storage.clear_deadlines(game_id)
                    return None
                if mine is None or not self._fires(mine, deadline):
                    keep = [o.deadline for o in snap.open if o.deadline is not None and o.deadline != deadline]
                    await self.storage.replace_deadlines(game_id, keep)
                    return None
                prompt = mine.prompt
                cover = None if self.policy is None else await self.policy.at_deadline(game, deadline)
                if isinstance(cover, DeadlineRow):  # the player is away: the decision waits for them
                    await self.storage.replace_deadlines(game_id, [
                        o.deadline for o in snap.open if o.deadline is not None and o.seat != seat] + [cover])
                    self.on_deadlines_changed()
                    return None
                update = Update(snap, kind="timeout", since=game.version)
                origin = "timeout"
                if cover is not None:  # the player is away: the computer player decides for them
                    action = await self._choose(snap, prompt, f"{game.seed}/away/{game.version}/{seat}")
                    note = Event(f"🏖️ {seat_name(seat)} is away; the computer player decided for them "
                                 f"({prompt.kind.replace('_', ' ')}).")
                    origin = "away"
                else:
                    action = await self._timeout_choice(snap, prompt)
                    # (a public line: the engine's note speaks to the player, the log about them)
                    note = Event(f"⏰ {seat_name(seat)} ran out of time ({prompt.kind.replace('_', ' ')}): "
                                 f"{about(prompt.timeout_note, seat_name(seat))}.")
                try:
                    update = await self._apply(update, seat, action, origin, None, notes=[note])
                except VersionConflict:
                    if await self.paused(game_id):  # (its deadlines come back on resumption)
                        return None
                    if attempt == COMMIT_ATTEMPTS:
                        raise
                    log.info("version race lost at a deadline; reading the game again",
                             extra={"game_id": game_id})
                    self.storage.forget(game_id)
                    continue
                update = await self._run_bots_safely(update)
                break
        self.on_deadlines_changed()
        await self._deliver(update)
        return update

    # ------------------------------------------------------------- administration

    async def replace_seat(self, game_id: int, seat: int, *, user_id: int | None, name: str,
                           reason: str) -> Update:
        """Give a seat to a computer player (user_id None) or to another member."""
        async with self.track(), self.lock(game_id):
            game = await self.get(game_id)
            if game.status != "active":
                raise TableError("this game is not running.")
            if not 0 <= seat < len(game.seats):
                raise TableError(f"there is no seat {seat + 1} in this game.")
            if user_id is not None and game.seat_of(user_id) is not None:
                raise TableError("that member already has a seat in this game.")
            seats = list(game.seats)
            leaving = seats[seat]
            if not leaving.is_bot and leaving.user_id is not None:  # ranked last when rated
                await self.storage.note_departure(Departure(game_id, seat, leaving.user_id, leaving.name))
            seats[seat] = SeatRow(seat, user_id, user_id is None, name)
            await self.storage.set_seats(game_id, seats)
            snap = await self.snapshot(game_id)
            update = Update(snap, kind="admin", events=[Event(reason)], since=snap.game.version)
            humans = [s for s in snap.game.seats if not s.is_bot]
            if not humans:
                update = await self._finish(update, "every human player has left the table")
            else:
                update.changed_private.add(seat)
                update.changed_by_others.add(seat)
                update = await self._run_bots_safely(update)
        self.on_deadlines_changed()
        await self._deliver(update)
        return update

    async def end(self, game_id: int, reason: str) -> Update:
        async with self.track(), self.lock(game_id):
            snap = await self.snapshot(game_id)
            if snap.game.status not in ("active", "lobby"):
                raise TableError("this game is already over.")
            update = await self._finish(Update(snap, kind="end", since=snap.game.version), reason)
        self.on_deadlines_changed()
        await self._deliver(update)
        return update

    async def _settle(self, game: GameRow) -> None:
        """The one place a finished game reaches the ratings (``bot.ratings``), right after the
        write that finished it. Settling is idempotent (keyed by the game's id in the database),
        so this may run again after any failure; the game's end never waits on it to succeed: a
        passing failure is retried with the stalled games, any other at the next start. A table
        that allowed hints (:data:`rules.search.HINTS_OPTION`) is settled without counting for
        anybody."""
        try:
            if game.options.get(HINTS_OPTION) is True and game.guild_id is not None:
                record = dataclasses.replace(ratings.record_of(game, []), players=())
                await self.storage.settle_game(record, lambda current: {}, self.now())
                self.unsettled.discard(game.id)
                return
            await ratings.settle(self.storage, game, self.now())
        except Exception as exc:
            log.exception("could not settle the finished game in the ratings",
                          extra={"game_id": game.id, "guild_id": game.guild_id})
            if isinstance(exc, self.storage.transient_errors):
                self.unsettled.add(game.id)
                self.stalled.add(game.id)
            return
        self.unsettled.discard(game.id)

    async def _finish(self, update: Update, reason: str) -> Update:
        game = update.game
        result = Result((), {}, reason)
        await self.storage.update_game(game.id, status="finished", result=result.to_json(),
                                       updated_at=self.now())
        await self.storage.clear_deadlines(game.id)
        update.snap = await self.snapshot(game.id)
        await self._settle(update.snap.game)
        update.result = result
        update.kind = "end"
        update.events.append(Event(f"The game was ended: {reason}.", kind="end"))
        return update

    # --------------------------------------------------------------- queries

    async def verify_replay(self, game_id: int) -> bool:
        """Replaying the stored action log from the seed reproduces the stored state."""
        game = await self.get(game_id)
        engine = self.engine(game)
        actions = await self.storage.actions(game_id)
        state = await self.cpu(engine.replay, len(game.seats), game.seed,
                               engine.replay_options(game.options, game.state),
                               [(s, a) for s, a, _ in actions])
        return bool(engine.to_json(state) == game.state)
