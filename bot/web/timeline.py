"""A game's public history for its web page: every step's public events, who was asked what after
it and which turn it fell in, replayed from the seed and the action log exactly as ``bot.replay``
does, and extended as moves are made.

Nothing here is secret: each :class:`Moment` holds public events only, the seats asked to decide
with the kind of their decision (public: the non-interference suite checks that who is asked what
kind never depends on a secret), and a *chain* digest that names the log up to that step. The
chain is keyed with a secret of this process, so it tells nothing of the actions it covers (an
answer to a secret decision cannot be guessed back from it) while two pages agree on it exactly
when they show the same history. States are kept every :data:`CHECKPOINT` steps, so any earlier
step's public view is at most that many moves of replay away.

Everything here is CPU work for a worker thread, called under the page cache's lock of the game.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.engine import Engine, Event, Prompt

CHECKPOINT = 16
"""A state is kept every this many steps (and the last one): a history step replays at most this
many moves from the nearest kept state."""

Action = tuple[int, dict[str, Any], str]
"""(seat, action, origin) as the storage returns the log."""


@dataclass(frozen=True)
class Moment:
    """One step of a game's public history: the start (``n`` 0) or its ``n``-th move."""

    n: int
    chain: str
    """Digest of the log up to this step (keyed: see the module's docstring)."""
    seat: int | None
    origin: str | None
    kind: str | None
    """The kind of decision the move answered (None: the start, or no prompt matched)."""
    events: tuple[Event, ...]
    """The step's public events."""
    turn: str
    """Where in the game the step left it, from the public view ("Round 2 · Turn 5"), or ""."""
    waiting: tuple[tuple[int, str], ...]
    """(seat, kind) of every prompt open after the step."""


TURN_KEYS = (("round", "Round"), ("generation", "Generation"), ("turn", "Turn"))
"""Public view fields that say where a game stands, with their words, in the order shown."""


def turn_label(public: Mapping[str, Any]) -> str:
    """Where the game stands, from its public view: e.g. "Round 2 · Turn 5" (empty if it says
    nothing of rounds, generations or turns)."""
    parts = []
    for key, word in TURN_KEYS:
        value = public.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            parts.append(f"{word} {value}")
    return " · ".join(parts)


def _answered(engine: Engine[Any], state: Any, seat: int) -> Prompt | None:
    for p in engine.prompts(state):
        if p.seat == seat:
            return p
    return engine.revisable(state, seat)


def _link(key: bytes, previous: str, seat: int, action: Mapping[str, Any]) -> str:
    body = json.dumps([previous, seat, action], sort_keys=True, separators=(",", ":"))
    return hmac.new(key, body.encode(), hashlib.sha256).hexdigest()[:20]


class Timeline:
    """One game's public history, replayed once and extended move by move (:meth:`sync`)."""

    def __init__(self, engine: Engine[Any], players: int, seed: int, options: Mapping[str, Any],
                 key: bytes) -> None:
        self.engine = engine
        self.players = players
        self.seed = seed
        self.options = dict(options)
        self._key = key
        self.version = -1
        """The game's version its log was read at (set by the web server)."""
        self.actions: list[tuple[int, dict[str, Any]]] = []
        self.moments: list[Moment] = []
        self._kept: dict[int, Any] = {}
        self._last: Any = None

    @property
    def last(self) -> int:
        """The number of moves replayed (the latest step)."""
        return len(self.moments) - 1

    def _moment(self, n: int, chain: str, state: Any, events: Sequence[Event], seat: int | None,
                origin: str | None, kind: str | None) -> Moment:
        public = self.engine.view(state, None)
        waiting = tuple((p.seat, p.kind) for p in self.engine.prompts(state))
        return Moment(n, chain, seat, origin, kind, tuple(e for e in events if e.to is None),
                      turn_label(public), waiting)

    def _start(self) -> None:
        state = self.engine.setup(self.players, self.seed, self.options)
        self.actions, self._kept, self._last = [], {0: state}, state
        chain = hmac.new(self._key, b"start", hashlib.sha256).hexdigest()[:20]
        self.moments = [self._moment(0, chain, state, (), None, None, None)]

    def sync(self, log: Sequence[Action]) -> bool:
        """Bring the history to the stored log: extended by the new moves, or — when the log is no
        longer an extension of what was replayed (an undo took moves back) — cut back to the
        last step both share first. True when anything changed.

        The lists are built anew and swapped in at the end, so a page being answered meanwhile
        keeps reading the history as it was."""
        if not self.moments:
            self._start()
        shared = 0
        for (seat, action, _), mine in zip(log, self.actions, strict=False):
            if (seat, action) != mine:
                break
            shared += 1
        if shared == len(self.actions) == len(log):
            return False
        actions, moments = self.actions[:shared], self.moments[:shared + 1]
        kept = {n: s for n, s in self._kept.items() if n <= shared}
        if shared < len(self.actions):  # taken back: from the nearest kept state
            base = max(kept)
            state = kept[base]
            for seat, action in self.actions[base:shared]:
                state, _ = self.engine.apply(state, seat, action)
        else:
            state = self._last
        for seat, action, origin in log[shared:]:
            prompt = _answered(self.engine, state, seat)
            state, events = self.engine.apply(state, seat, action)
            actions.append((seat, action))
            n = len(actions)
            chain = _link(self._key, moments[-1].chain, seat, action)
            moments.append(self._moment(n, chain, state, events, seat, origin,
                                        prompt.kind if prompt else None))
            if n % CHECKPOINT == 0:
                kept[n] = state
        self._kept, self._last, self.actions, self.moments = kept, state, actions, moments
        return True

    def state_at(self, n: int) -> Any:
        """The state after ``n`` moves (0: the start), replayed from the nearest kept state."""
        actions, kept, last = self.actions, self._kept, self._last
        if not 0 <= n <= len(actions):
            raise IndexError(n)
        if n == len(actions) and last is not None:
            return last
        base = max(k for k in kept if k <= n)
        state = kept[base]
        for seat, action in actions[base:n]:
            state, _ = self.engine.apply(state, seat, action)
        return state
