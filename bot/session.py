"""Sessions: the single path every action takes — lock → load → apply → persist → deliver.

Knows storage and the engine contract; knows nothing of any game's rules and nothing of Discord
(delivery is an interface: Discord in production, files for ``simulate``, a recorder in tests).
CPU work (engine moves, rendering) runs in worker threads, off the event loop.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from rules import registry
from rules.engine import Engine, Event, InvalidOptions, Prompt, Result, RulesError

from . import clock as _clock
from .config import MAX_DEADLINE, MIN_DEADLINE, Config
from .storage import DeadlineRow, GameRow, SeatRow, Storage

log = logging.getLogger("herald.session")


class TableError(Exception):
    """A refusal about tables and seats (not a game rule): shown to the user as is."""


class StaleAction(TableError):
    """The action was decided on an old version of the game."""

    def __init__(self, message: str = "this board is out of date.", game_id: int | None = None) -> None:
        super().__init__(message)
        self.game_id = game_id


@dataclass
class Update:
    """What one call to the session changed, for delivery."""

    game: GameRow
    events: list[Event] = field(default_factory=list)
    changed_private: set[int] = field(default_factory=set)
    """Seats whose private view changed (their hand, their pending choice)."""
    new_prompts: list[Prompt] = field(default_factory=list)
    """Prompts that opened with this update (a reminder/ping goes to their seats)."""
    result: Result | None = None
    kind: str = "action"  # action | start | end | timeout | admin
    steps: int = 0
    actions: list[tuple[int, dict[str, Any], str]] = field(default_factory=list)
    """(seat, action, origin) of each step applied, in order."""
    open_at_start: set[tuple[int, str]] | None = None
    """(seat, kind) of the prompts open before this update's first step and not answered since."""


class Delivery(Protocol):
    async def deliver(self, update: Update) -> None: ...


class NullDelivery:
    async def deliver(self, update: Update) -> None:
        return None


def parse_deadline(text: str | int | None) -> int | None:
    """'90m', '2h', '1d', '45s' or seconds → seconds; None stays None. Raises TableError out of range."""
    if text is None or text == "":
        return None
    if isinstance(text, int):
        seconds = text
    else:
        raw = text.strip().lower()
        units = {"s": 1, "m": 60, "h": 3600, "d": 86400}
        try:
            if raw and raw[-1] in units:
                seconds = int(float(raw[:-1]) * units[raw[-1]])
            else:
                seconds = int(float(raw))
        except ValueError:
            raise TableError(f"`{text}` is not a deadline; write it like `30m`, `12h` or `2d`.") from None
    if not MIN_DEADLINE <= seconds <= MAX_DEADLINE:
        raise TableError(f"a deadline of `{text}` is out of range: it must be between 1 minute and 14 days.")
    return seconds


def format_duration(seconds: float) -> str:
    seconds = int(seconds)
    if seconds % 86400 == 0:
        return f"{seconds // 86400}d"
    if seconds % 3600 == 0:
        return f"{seconds // 3600}h"
    if seconds % 60 == 0:
        return f"{seconds // 60}m"
    return f"{seconds}s"


class Sessions:
    """All games of this process."""

    def __init__(self, storage: Storage, config: Config, delivery: Delivery | None = None,
                 now: Callable[[], float] = _clock.now, run_cpu: Callable[..., Any] | None = None) -> None:
        self.storage = storage
        self.config = config
        self.delivery: Delivery = delivery or NullDelivery()
        self.now = now
        self._locks: dict[int, asyncio.Lock] = {}
        self._parsed: dict[tuple[int, int], Any] = {}
        self._inflight = 0
        self._idle = asyncio.Event()
        self._idle.set()
        self.closing = False
        self.on_deadlines_changed: Callable[[], None] = lambda: None
        self._run_cpu = run_cpu or asyncio.to_thread

    # ----------------------------------------------------------------- helpers

    def lock(self, game_id: int) -> asyncio.Lock:
        return self._locks.setdefault(game_id, asyncio.Lock())

    @staticmethod
    def engine(game: GameRow) -> Engine:
        return registry.get(game.game_key)

    def state_of(self, game: GameRow) -> Any:
        """The engine state of a stored game, parsed once per (game, version).

        Engines never mutate a state they are given (``apply`` works on a clone), so the parsed
        object can be shared by the session, delivery and views of the same version."""
        if game.state is None:
            raise TableError("this game has not started yet.")
        key = (game.id, game.version)
        state = self._parsed.get(key)
        if state is None:
            state = self.engine(game).from_json(game.state)
            if len(self._parsed) >= 128:
                self._parsed.pop(next(iter(self._parsed)))
            self._parsed[key] = state
        return state

    async def get(self, game_id: int) -> GameRow:
        game = await self.storage.get_game(game_id)
        if game is None:
            raise TableError(f"there is no game #{game_id}.")
        return game

    async def cpu(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await self._run_cpu(fn, *args)

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

    async def _deadlines_for(self, game: GameRow, prompts: Sequence[Prompt],
                             previous: Sequence[DeadlineRow]) -> list[DeadlineRow]:
        """Keep the deadline of a prompt that stays open; give new prompts a fresh one."""
        deadline, lead = await self.deadline_settings(game)
        now = self.now()
        bots = {s.seat for s in game.seats if s.is_bot}
        old = {(d.seat, d.kind): d for d in previous}
        out: list[DeadlineRow] = []
        seen: set[tuple[int, str]] = set()
        for p in prompts:
            key = (p.seat, p.kind)
            if p.seat in bots or key in seen:
                continue
            seen.add(key)
            if key in old:
                out.append(old[key])
                continue
            remind = now + deadline - lead if lead < deadline else now + deadline / 2
            out.append(DeadlineRow(game.id, p.seat, p.kind, now + deadline, remind, False))
        return out

    # ------------------------------------------------------------------ tables

    async def open_table(self, *, guild_id: int | None, channel_id: int | None, host_id: int | None,
                         host_name: str, game_key: str, options: dict[str, Any] | None = None,
                         deadline: str | int | None = None, bots: int = 0, seed: int | None = None,
                         host_plays: bool = True) -> GameRow:
        engine = registry.get(game_key)  # InvalidOptions names the known games
        opts = dict(options or {})
        unknown = sorted(set(opts) - set(engine.option_help))
        if unknown:
            raise InvalidOptions(f"unknown option(s) {', '.join(unknown)} for {engine.name}.")
        seconds = parse_deadline(deadline)
        if bots < 0 or bots > engine.max_players - (1 if host_plays else 0):
            raise TableError(f"{engine.name} seats at most {engine.max_players} players; "
                             f"`bots:{bots}` does not fit.")
        if seed is None:
            seed = random.SystemRandom().randrange(1, 2**31)
        game_id = await self.storage.create_game(
            guild_id=guild_id, channel_id=channel_id, game_key=game_key, seed=seed, options=opts,
            host_id=host_id, deadline=seconds, now=self.now())
        seats: list[SeatRow] = []
        if host_plays:
            seats.append(SeatRow(0, host_id, False, host_name))
        for _ in range(bots):
            seats.append(SeatRow(len(seats), None, True, f"Computer {len(seats) + 1}"))
        await self.storage.set_seats(game_id, seats)
        return await self.get(game_id)

    async def _lobby(self, game_id: int) -> GameRow:
        game = await self.get(game_id)
        if game.status != "lobby":
            raise TableError("this table has already started or closed.")
        return game

    async def join(self, game_id: int, user_id: int, name: str) -> GameRow:
        async with self.lock(game_id):
            game = await self._lobby(game_id)
            engine = self.engine(game)
            if game.seat_of(user_id) is not None:
                raise TableError("you are already seated at this table.")
            if len(game.seats) >= engine.max_players:
                raise TableError(f"this table is full ({engine.max_players} seats).")
            seats = game.seats + [SeatRow(len(game.seats), user_id, False, name)]
            await self.storage.set_seats(game_id, seats)
            return await self.get(game_id)

    async def leave(self, game_id: int, user_id: int) -> GameRow:
        async with self.lock(game_id):
            game = await self._lobby(game_id)
            if game.seat_of(user_id) is None:
                raise TableError("you are not seated at this table.")
            if user_id == game.host_id:
                raise TableError("the host cannot leave; cancel the table instead.")
            rest = [s for s in game.seats if s.user_id != user_id or s.is_bot]
            await self.storage.set_seats(game_id, [SeatRow(i, s.user_id, s.is_bot, s.name)
                                                   for i, s in enumerate(rest)])
            return await self.get(game_id)

    async def add_bot(self, game_id: int, user_id: int, *, is_admin: bool = False) -> GameRow:
        async with self.lock(game_id):
            game = await self._lobby(game_id)
            if user_id != game.host_id and not is_admin:
                raise TableError("only the host can add computer players.")
            engine = self.engine(game)
            if len(game.seats) >= engine.max_players:
                raise TableError(f"this table is full ({engine.max_players} seats).")
            n = sum(1 for s in game.seats if s.is_bot) + 1
            seats = game.seats + [SeatRow(len(game.seats), None, True, f"Computer {n}")]
            await self.storage.set_seats(game_id, seats)
            return await self.get(game_id)

    async def cancel(self, game_id: int, user_id: int, *, is_admin: bool = False) -> GameRow:
        async with self.lock(game_id):
            game = await self._lobby(game_id)
            if user_id != game.host_id and not is_admin:
                raise TableError("only the host (or a server manager) can cancel this table.")
            await self.storage.update_game(game_id, status="cancelled", updated_at=self.now())
            return await self.get(game_id)

    async def start(self, game_id: int, user_id: int | None, *, is_admin: bool = False) -> Update:
        async with self.track(), self.lock(game_id):
            game = await self._lobby(game_id)
            if user_id is not None and user_id != game.host_id and not is_admin:
                raise TableError("only the host can start the game.")
            engine = self.engine(game)
            n = len(game.seats)
            if n < engine.min_players:
                raise TableError(f"{engine.name} needs at least {engine.min_players} players; "
                                 f"{n} seated. Invite more or add computer players.")
            state = await self.cpu(engine.setup, n, game.seed, game.options)
            prompts = engine.prompts(state)
            deadlines = await self._deadlines_for(game, prompts, [])
            await self.storage.start_game(game_id, seats=game.seats, state=engine.to_json(state),
                                          deadlines=deadlines, now=self.now())
            log.info("game started", extra={"game_id": game_id, "guild_id": game.guild_id})
            # every prompt open after the start is new (also when computer players answer first)
            update = Update(await self.get(game_id), kind="start", new_prompts=list(prompts),
                            changed_private={s.seat for s in game.seats}, open_at_start=set())
            if getattr(self.delivery, "per_action", False):
                await self.delivery.deliver(update)
                update = Update(update.game)
            update = await self._run_bots(update)
        self.on_deadlines_changed()
        await self.delivery.deliver(update)
        return update

    # ------------------------------------------------------------------ play

    async def act(self, game_id: int, seat: int, action: dict[str, Any], *, origin: str = "player",
                  user_id: int | None = None, expected_version: int | None = None,
                  deliver: bool = True) -> Update:
        """Apply one action for ``seat``; then let computer players answer their prompts."""
        async with self.track(), self.lock(game_id):
            game = await self.get(game_id)
            if game.status != "active":
                raise TableError("this game is not running any more." if game.status != "lobby"
                                 else "this game has not started yet.")
            if expected_version is not None and expected_version != game.version:
                raise StaleAction("this board is out of date.", game_id)
            update = Update(game)
            update = await self._apply(update, seat, action, origin, user_id)
            update = await self._run_bots(update)
        self.on_deadlines_changed()
        if deliver:
            await self.delivery.deliver(update)
        return update

    async def _apply(self, update: Update, seat: int, action: dict[str, Any], origin: str,
                     user_id: int | None, notes: Sequence[Event] = ()) -> Update:
        """Apply and persist one action. ``notes`` are platform events stored and shown with it."""
        game = update.game
        engine = self.engine(game)
        before = self.state_of(game)

        def step() -> tuple[Any, list[Event], dict[str, Any], list[Prompt], list[Prompt], set[int], Result | None]:
            # all engine work, off the event loop
            after, events = engine.apply(before, seat, action)
            was_open = engine.prompts(before)
            now_open = engine.prompts(after)
            changed = {k for k in range(len(game.seats))
                       if engine.view(before, k).get("private") != engine.view(after, k).get("private")}
            return after, events, engine.to_json(after), was_open, now_open, changed, engine.result(after)

        # RulesError propagates to the caller, before anything is written
        after, events, data, was_open, prompts_after, changed, result = await self.cpu(step)
        events = [*notes, *events]
        prompts_before = {(p.seat, p.kind) for p in was_open}
        status = "finished" if result is not None else "active"
        # the answered prompt's deadline ends here: if the seat gets a prompt of the same kind
        # again (next round, next step) it is a new decision with a fresh deadline
        answered = next((p.kind for p in was_open if p.seat == seat), None)
        previous = [d for d in await self.storage.deadlines(game.id) if (d.seat, d.kind) != (seat, answered)]
        deadlines = [] if result is not None else await self._deadlines_for(game, prompts_after, previous)
        await self.storage.commit_action(
            game.id, expected_version=game.version, seat=seat, action=action, origin=origin,
            user_id=user_id, state=data, events=[e.to_json() for e in events], status=status,
            result=result.to_json() if result else None, deadlines=deadlines, now=self.now())
        log.info("action applied seat=%s origin=%s", seat, origin,
                 extra={"game_id": game.id, "guild_id": game.guild_id})
        update.game = await self.get(game.id)
        update.events.extend(events)
        update.actions.append((seat, action, origin))
        update.changed_private |= changed
        if update.open_at_start is None:
            update.open_at_start = set(prompts_before)
        # the answered prompt is closed: if the seat is asked the same kind again (next turn,
        # next round), that is a new decision (announced, DMed, with a fresh deadline)
        update.open_at_start.discard((seat, answered or ""))
        update.new_prompts = [p for p in prompts_after if (p.seat, p.kind) not in update.open_at_start]
        update.result = result
        update.steps += 1
        if result is not None:
            update.kind = "end"
        return update

    async def _run_bots(self, update: Update, limit: int = 100000) -> Update:
        """Computer players answer their open prompts until a human must decide or the game ends."""
        for _ in range(limit):
            game = update.game
            if game.status != "active":
                return update
            bots = {s.seat for s in game.seats if s.is_bot}
            if not bots:
                return update
            engine = self.engine(game)
            state = self.state_of(game)
            prompt = next((p for p in engine.prompts(state) if p.seat in bots), None)
            if prompt is None:
                return update
            rng = random.Random(f"{game.seed}/bot/{game.version}/{prompt.seat}")
            view = engine.view(state, prompt.seat)
            action = await self.cpu(engine.bot_action, view, prompt, rng)
            update = await self._apply(update, prompt.seat, action, "bot", None)
            if getattr(self.delivery, "per_action", False):
                await self.delivery.deliver(update)
                update = Update(update.game)
        raise RuntimeError(f"computer players did not finish within {limit} moves")

    async def timeout(self, game_id: int, seat: int, kind: str) -> Update | None:
        """A deadline passed: the prompt's timeout action is taken (the log says so)."""
        async with self.track(), self.lock(game_id):
            game = await self.get(game_id)
            if game.status != "active":
                await self.storage.clear_deadlines(game_id)
                return None
            engine = self.engine(game)
            state = self.state_of(game)
            prompt = next((p for p in engine.prompts(state) if p.seat == seat and p.kind == kind), None)
            if prompt is None:  # answered meanwhile: drop the stale deadline
                previous = await self.storage.deadlines(game_id)
                keep = [d for d in previous if (d.seat, d.kind) != (seat, kind)]
                await self.storage.replace_deadlines(game_id, keep)
                return None
            action = await self.cpu(engine.timeout_action, state, prompt)
            update = Update(game, kind="timeout")
            note = Event(f"⏰ P{seat + 1} ran out of time ({kind.replace('_', ' ')}): {prompt.timeout_note}.")
            update = await self._apply(update, seat, action, "timeout", None, notes=[note])
            update = await self._run_bots(update)
        self.on_deadlines_changed()
        await self.delivery.deliver(update)
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
            seats[seat] = SeatRow(seat, user_id, user_id is None, name)
            await self.storage.set_seats(game_id, seats)
            game = await self.get(game_id)
            update = Update(game, kind="admin", events=[Event(reason)])
            humans = [s for s in game.seats if not s.is_bot]
            if not humans:
                update = await self._finish(update, "every human player has left the table")
            else:
                update.changed_private.add(seat)
                update = await self._run_bots(update)
        self.on_deadlines_changed()
        await self.delivery.deliver(update)
        return update

    async def end(self, game_id: int, reason: str) -> Update:
        async with self.track(), self.lock(game_id):
            game = await self.get(game_id)
            if game.status not in ("active", "lobby"):
                raise TableError("this game is already over.")
            update = await self._finish(Update(game, kind="end"), reason)
        self.on_deadlines_changed()
        await self.delivery.deliver(update)
        return update

    async def _finish(self, update: Update, reason: str) -> Update:
        game = update.game
        result = Result((), {}, reason)
        await self.storage.update_game(game.id, status="finished", result=result.to_json(),
                                       updated_at=self.now())
        await self.storage.clear_deadlines(game.id)
        update.game = await self.get(game.id)
        update.result = result
        update.kind = "end"
        update.events.append(Event(f"The game was ended: {reason}.", kind="end"))
        return update

    # --------------------------------------------------------------- queries

    def prompts(self, game: GameRow) -> list[Prompt]:
        if game.status != "active" or game.state is None:
            return []
        engine = self.engine(game)
        return engine.prompts(self.state_of(game))

    def view(self, game: GameRow, seat: int | None) -> dict[str, Any]:
        engine = self.engine(game)
        return engine.view(self.state_of(game), seat)

    async def verify_replay(self, game_id: int) -> bool:
        """Replaying the stored action log from the seed reproduces the stored state."""
        game = await self.get(game_id)
        engine = self.engine(game)
        actions = await self.storage.actions(game_id)
        state = await self.cpu(engine.replay, len(game.seats), game.seed, game.options,
                               [(s, a) for s, a, _ in actions])
        return bool(engine.to_json(state) == game.state)


def describe_rules_error(exc: RulesError) -> str:
    return exc.message
