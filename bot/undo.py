"""Undo, safely: a player takes back their own last move (``/game undo``).

The policy is Board Game Arena's. The platform enforces what it can see for every game: only the
member's own last move, made by their own click (not a computer player's or a timeout's), and
refused once anyone else has acted since, when taking it back would change another seat's open
decision (whose turn it is), another seat's private view, or take back a private event another
seat has read. What only the game knows — a draw, a shuffle, dice or a physics wobble, something
hidden shown, a secret simultaneous decision that closed — the engine says through
:meth:`rules.engine.Engine.undoable` (default: nothing may be taken back). Each refusal is one
sentence saying why.

**How.** Under the game's lock the state before the move is rebuilt by replaying the stored actions
but the last from the seed (the stored log and the state then agree by construction, which
``verify_replay`` checks, and no second copy of every state is kept); the move is applied to it
again and must give the stored state exactly, or nothing is taken back. One storage transaction
removes the action and its events, stores the rebuilt state and the undo's own public line, and
moves the version *forward*: the re-opened decision gets a new instance (the new version), so a
button, menu or form drawn before the undo — or a request retried from before it — is stale and
can never apply. Other seats keep their decisions, instances and deadlines; the re-opened
decision keeps the deadline the player was running against, or else the one of the others asked
the same thing at once (an undo never buys time), and only without either gets a fresh one. Delivery then re-renders the board, posts the line in the thread and
re-sends the player's decision and hand.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from rules.engine import Engine, Event, Prompt, seat_name

from .errors import Contention, TableError
from .storage import DeadlineRow, GameRow, VersionConflict

if TYPE_CHECKING:
    from .session import Sessions, Update

log = logging.getLogger("herald.undo")

UNDO_KIND = "undo"
"""The kind of the public event an undo stores (kept in the log when a later undo removes events)."""


class UndoRefused(TableError):
    """The move cannot be taken back; the message says why, in one sentence."""


class _Mismatch(UndoRefused):
    """The stored log does not replay to the stored state (or was read at another version)."""


@dataclass(frozen=True)
class UndoPlan:
    """What taking back the last move gives: everything engine work computes, off the event loop."""

    seat: int
    action: dict[str, Any]
    before: Any
    data: dict[str, Any]
    prompts: list[Prompt]
    privates: list[Any]
    changed: set[int]
    note: Event


def _name(game: GameRow, seat: int) -> str:
    s = game.seats[seat] if 0 <= seat < len(game.seats) else None
    name = s.name if s is not None else seat_name(seat)
    return discord.utils.escape_markdown(discord.utils.escape_mentions(name))


def _names(game: GameRow, seats: Sequence[int]) -> str:
    names = [_name(game, k) for k in sorted(set(seats))]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _first_kinds(prompts: Sequence[Prompt]) -> dict[int, str]:
    """Each seat's open decision (its first prompt, as the session counts them)."""
    out: dict[int, str] = {}
    for p in prompts:
        out.setdefault(p.seat, p.kind)
    return out


def plan_undo(engine: Engine[Any], game: GameRow, seat: int,
              log_: Sequence[tuple[int, dict[str, Any], str]]) -> UndoPlan:
    """Check every rule for taking back ``seat``'s last move and rebuild the state before it, or
    raise :class:`UndoRefused`. Pure engine work (run it in a worker thread)."""
    _check_last_move(game, seat, log_)
    _, action, _ = log_[-1]
    players = len(game.seats)
    before = engine.replay(players, game.seed, engine.replay_options(game.options, game.state),
                           [(s, a) for s, a, _ in log_[:-1]])
    after, events = engine.apply(before, seat, action)
    if engine.to_json(after) != game.state:
        raise _Mismatch("this game's history does not replay exactly, so nothing was taken back.")
    prompts = engine.prompts(before)
    _check_turns(game, seat, prompts, engine.prompts(after))
    reason = engine.undoable(before, seat, action, after, events)
    if reason is not None:  # (the game's reason first: it says most precisely why)
        text = reason.rstrip(".")
        raise UndoRefused(f"that move cannot be taken back: {text}.")
    _check_told(game, seat, events)
    privates = [engine.view(before, k).get("private") for k in range(players)]
    after_privates = [engine.view(after, k).get("private") for k in range(players)]
    changed = {k for k in range(players) if privates[k] != after_privates[k]}
    _check_privates(game, seat, changed)
    return UndoPlan(seat, action, before, engine.to_json(before), prompts, privates, changed,
                    _undo_note(seat, events))


def _check_last_move(game: GameRow, seat: int,
                     log_: Sequence[tuple[int, dict[str, Any], str]]) -> None:
    """The log's last move must be ``seat``'s own, made by their own click."""
    if not any(s == seat for s, _, _ in log_):
        raise UndoRefused("you have not made a move in this game yet, so there is nothing to take back.")
    last_seat, _, origin = log_[-1]
    if last_seat != seat:
        later = [s for s, _, _ in log_[max(i for i, (s, _, _) in enumerate(log_) if s == seat):]
                 if s != seat]
        raise UndoRefused(f"{_names(game, later)} {'has' if len(set(later)) == 1 else 'have'} "
                          "played since your last move, so it cannot be taken back.")
    if origin == "timeout":
        raise UndoRefused("your last move was made for you when your time ran out, so it cannot "
                          "be taken back.")
    if origin != "player":
        raise UndoRefused("your last move was made by a computer player, so it cannot be taken back.")


def _check_turns(game: GameRow, seat: int, before: Sequence[Prompt], after: Sequence[Prompt]) -> None:
    """No other seat's open decision may change (whose turn it is)."""
    was, now = _first_kinds(before), _first_kinds(after)
    moved = [k for k in range(len(game.seats)) if k != seat and was.get(k) != now.get(k)]
    if not moved:
        return
    asked = [k for k in moved if k in now]
    if asked:
        raise UndoRefused(f"your move passed the decision to {_names(game, asked)}, and taking "
                          "it back would change whose turn it is.")
    raise UndoRefused(f"your move settled what {_names(game, moved)} had to decide, and taking "
                      "it back would change whose turn it is.")


def _check_told(game: GameRow, seat: int, events: Sequence[Event]) -> None:
    """No other seat may have been shown something in secret by the move."""
    told = sorted({k for e in events if e.to is not None for k in e.to if k != seat})
    if told:
        raise UndoRefused(f"{_names(game, told)} {'was' if len(told) == 1 else 'were'} shown "
                          "something in secret by your move, so it cannot be taken back.")


def _check_privates(game: GameRow, seat: int, changed: set[int]) -> None:
    """No other seat's private view may have changed (what they hold or know)."""
    others = sorted(changed - {seat})
    if others:
        raise UndoRefused(f"your move changed what {_names(game, others)} "
                          f"{'holds' if len(others) == 1 else 'hold'} or knows, so it cannot be "
                          "taken back.")


def _undo_note(seat: int, events: Sequence[Event]) -> Event:
    """The undo's own public line, quoting what the move said in public."""
    public = [e.text.strip().rstrip(".") for e in events if e.to is None and e.text.strip()]
    said = ": " + "; ".join(public) if public else ""
    return Event(f"↩️ {seat_name(seat)} took back their last move{said}."[:400], kind=UNDO_KIND)


async def undo(sessions: Sessions, game_id: int, user_id: int) -> Update:
    """Take back the member's own last move in a running game (see the module docstring), or
    refuse with one sentence. Delivers the change and returns it."""
    from .session import PAUSED, Update

    async with sessions.track(), sessions.lock(game_id):
        for attempt in (1, 2):
            snap = await sessions.snapshot(game_id, touch=False)
            game = snap.game
            if game.status != "active":
                raise TableError(f"game #{game.id} is over, so nothing can be taken back."
                                 if game.status == "finished" else "this game is not running.")
            seat = game.seat_of(user_id)
            if seat is None:
                raise TableError("you are not playing in this game — only seated players can take "
                                 "back their moves.")
            actions = await sessions.storage.actions(game_id)
            engine = snap.engine
            try:
                plan: UndoPlan = await sessions.cpu(plan_undo, engine, game, seat, actions)
                break
            except _Mismatch:
                if attempt == 2:
                    log.warning("undo refused: the action log does not replay to the stored state",
                                extra={"game_id": game_id, "guild_id": game.guild_id})
                    raise
                # (another process may have moved the game on between the two reads: read again)
                sessions.storage.forget(game_id)
        seat = plan.seat
        version = game.version + 1
        opened: dict[int, int] = {}
        for p in plan.prompts:  # others keep their instances; the re-opened decision is new
            if p.seat not in opened:
                opened[p.seat] = version if p.seat == seat else game.opened.get(p.seat, 0)
        answered = dict(game.answered)
        if seat in opened:
            answered.pop(seat, None)
        elif engine.revisable(plan.before, seat) is not None:
            answered[seat] = version  # (a revision taken back: the earlier answer, revisable anew)
        current = [o.deadline for o in snap.open if o.deadline is not None]
        deadlines = await sessions._deadlines_for(game, plan.prompts, opened, current)
        # an undo never buys time: the clock the player runs against now, or else the one of the
        # others asked the same thing at once (a secret round's common deadline)
        kind = next((p.kind for p in plan.prompts if p.seat == seat), None)
        mine = next((d for d in current if d.seat == seat), None) or min(
            (d for d in current if d.kind == kind), key=lambda d: d.due_at, default=None)
        if mine is not None:
            deadlines = [dataclasses.replace(d, due_at=mine.due_at, remind_at=mine.remind_at,
                                             reminded=mine.reminded) if d.seat == seat else d
                         for d in deadlines]
        now = sessions.now()
        try:
            await sessions.storage.undo_actions(
                game_id, expected_version=game.version, keep=len(actions) - 1, state=plan.data,
                events=[plan.note.to_json()], opened=opened, answered=answered,
                deadlines=deadlines, now=now)
        except VersionConflict:
            if await sessions.paused(game_id):
                raise TableError(PAUSED.format(game_id=game_id)) from None
            raise Contention("the game was changing at the same moment from elsewhere, so nothing "
                             "was taken back; look at the board and try again.") from None
        log.info("move taken back seat=%s", seat, extra={"game_id": game_id, "guild_id": game.guild_id})
        row = dataclasses.replace(game, state=plan.data, version=version, opened=opened,
                                  answered=answered, updated_at=now)
        sessions._keep_parsed(row, plan.before)
        sessions._privates[game_id] = (version, plan.privates)
        sessions._prompts[game_id] = (plan.before, plan.prompts)
        update = Update(sessions._snap(row, _sorted(deadlines)), events=[plan.note], kind=UNDO_KIND,
                        since=game.version, changed_private=set(plan.changed))
    sessions.on_deadlines_changed()
    await sessions.delivery.deliver(update)
    return update


def _sorted(deadlines: Sequence[DeadlineRow]) -> list[DeadlineRow]:
    return sorted(deadlines, key=lambda d: (d.seat, d.kind))
