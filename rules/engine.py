"""The engine contract every Herald game implements.

A game engine is pure: standard library only (pymunk allowed for Flick of Faith), no I/O, no
clock, no global random. Everything it needs lives in its state, which round-trips through JSON
exactly. The platform (``bot/``) drives every game through the same small interface:

* ``setup(players, seed, options)`` builds the initial state for seats ``0..players-1``;
* ``prompts(state)`` says who must decide what *now* (several seats at once is fine: votes,
  simultaneous secret orders, both sides of a confrontation, out-of-turn reactions);
* ``apply(state, seat, action)`` validates and applies one action and returns the new state and
  the events it produced; an illegal action raises a :class:`RulesError` subclass whose message
  repeats the bad input and says what is allowed. ``apply`` is the same for every game: it makes
  the common checks (game over, action shape, seat number, the seat's open prompt, and for an
  enumerated prompt that the action is one of its choices) and then calls the game's own
  ``play(state, seat, action, prompt)``, which validates free-form answers and does the rest;
* ``view(state, seat)`` is the only way information leaves the engine (``seat=None`` is the public
  view); ``result(state)`` is ``None`` until the game is over;
* ``timeout_action`` answers a prompt whose deadline passed, ``bot_action`` is the computer player
  and sees only its own view.

Actions are JSON objects (``dict``) with at least a ``"type"`` key. Replaying the accepted actions
from ``setup`` with the same seed reproduces the stored state exactly. Event and prompt texts name
seats with :func:`seat_name` (``"P1"`` for seat 0 …); the platform replaces those with player
names. :class:`Engine` is generic in the game's state type, so ``Engine[MyState]`` lets the type
checker follow each game's state through the whole contract.
"""

from __future__ import annotations

import copy
import json
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, ClassVar, Generic, TypeVar

Action = dict[str, Any]
JSON = dict[str, Any]

S = TypeVar("S")
"""The state type of one game (each engine subclasses ``Engine[ItsState]``)."""


def seat_name(seat: int) -> str:
    """How engine texts name a seat: ``"P1"`` for seat 0, ``"P2"`` for seat 1, …

    The platform replaces these with player names when it shows events and prompts."""
    return f"P{seat + 1}"


def _shown(x: Any) -> str:
    """The bad input, repeated in an error message (as JSON when it can be)."""
    try:
        return json.dumps(x, sort_keys=True, default=repr)
    except (TypeError, ValueError):
        return repr(x)

# --------------------------------------------------------------------------------------- errors


class RulesError(Exception):
    """Base of every error an engine raises for bad input. ``code`` is stable, ``str()`` is for people."""

    code: ClassVar[str] = "rules_error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class IllegalAction(RulesError):
    """The action is malformed or not allowed by the rules right now."""

    code = "illegal_action"


class NotYourTurn(RulesError):
    """The seat has no open prompt this action could answer."""

    code = "not_your_turn"


class GameOver(RulesError):
    """The game has ended; no more actions are accepted."""

    code = "game_over"


class InvalidOptions(RulesError):
    """Bad setup: player count out of range or an unknown / out-of-range option."""

    code = "invalid_options"


class StateSchemaError(Exception):
    """A stored state was written with another JSON layout version than this Herald reads.

    Not a :class:`RulesError`: nobody made an illegal move; the stored game cannot be loaded."""

    code: ClassVar[str] = "state_schema"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


# --------------------------------------------------------------------------------- value types


@dataclass(frozen=True)
class Choice:
    """One legal answer to a prompt, ready to show as a button or a select option."""

    label: str
    """Short text for a button or select option (≤ 80 characters)."""
    action: Action
    """The action to pass to ``apply`` if this choice is taken."""
    group: str | None = None
    """Optional group (e.g. the card being played) so a UI can ask card first, then target."""
    description: str | None = None
    """Optional longer explanation (≤ 100 characters)."""


@dataclass(frozen=True)
class Prompt:
    """A decision the engine waits for.

    ``params`` carries the numbers and options a UI needs to build an input for the prompt
    (ranges, sizes, allowed values), so nothing has to be read back from ``text``. Each game
    documents the keys it fills, per prompt kind, in its engine module docstring.
    """

    seat: int
    """Who must decide."""
    kind: str
    """Machine name of the decision, e.g. ``"turn"``, ``"vote"``, ``"orders"``, ``"defend"``."""
    text: str
    """What to ask, for that seat's eyes (may mention the seat's own secrets if ``secret``)."""
    choices: tuple[Choice, ...] = ()
    """The legal answers, when they can be enumerated. Empty with ``free_form`` set otherwise."""
    secret: bool = False
    """True if the answer must be made privately (DM or ephemeral) and not shown until revealed."""
    free_form: str | None = None
    """Name of a free-form input the game's UI provides (e.g. ``"flick"``) instead of choices."""
    timeout_note: str = "the computer player decides"
    """What happens at the deadline, in words (shown to players)."""
    params: Mapping[str, Any] = field(default_factory=dict, hash=False)
    """Structured parameters of the decision (plain JSON values), e.g. ``{"min": 1, "max": 3}``
    for a free-form input. Empty when the prompt needs none. Compared, never hashed."""


@dataclass(frozen=True)
class Event:
    """Something that happened. Public when ``to`` is None, otherwise seen only by those seats."""

    text: str
    to: tuple[int, ...] | None = None
    kind: str = "log"
    data: JSON = field(default_factory=dict)

    def visible_to(self, seat: int | None) -> bool:
        return self.to is None or (seat is not None and seat in self.to)

    def to_json(self) -> JSON:
        d = asdict(self)
        d["to"] = list(self.to) if self.to is not None else None
        return d


@dataclass(frozen=True)
class Result:
    """How a finished game ended."""

    winners: tuple[int, ...]
    """Winning seats (several for a shared win; empty if nobody wins)."""
    scores: Mapping[int, float]
    """Final score per seat."""
    reason: str
    """Why the game ended, in words."""

    def to_json(self) -> JSON:
        return {
            "winners": list(self.winners),
            "scores": {str(k): v for k, v in self.scores.items()},
            "reason": self.reason,
        }


# -------------------------------------------------------------------------------------- rng


class Rng:
    """Deterministic randomness that lives in the state: a seed and a position.

    Each draw seeds a fresh ``random.Random`` from ``"<seed>/<position>"`` (string seeding is
    stable across processes and Python versions), then advances the position. Store the two
    fields with :meth:`to_json` / :meth:`from_json`.
    """

    __slots__ = ("seed", "position")

    def __init__(self, seed: int, position: int = 0) -> None:
        self.seed = int(seed)
        self.position = int(position)

    def _next(self) -> random.Random:
        r = random.Random(f"{self.seed}/{self.position}")
        self.position += 1
        return r

    def random(self) -> float:
        return self._next().random()

    def randint(self, a: int, b: int) -> int:
        return self._next().randint(a, b)

    def uniform(self, a: float, b: float) -> float:
        return self._next().uniform(a, b)

    def gauss(self, mu: float, sigma: float) -> float:
        return self._next().gauss(mu, sigma)

    def choice(self, seq: Sequence[Any]) -> Any:
        if not seq:
            raise IndexError("choice from an empty sequence")
        return self._next().choice(list(seq))

    def shuffle(self, items: list[Any]) -> None:
        self._next().shuffle(items)

    def to_json(self) -> JSON:
        return {"seed": self.seed, "position": self.position}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Rng:
        return cls(int(d["seed"]), int(d["position"]))


# ------------------------------------------------------------------------------------- engine


class Engine(ABC, Generic[S]):
    """Base class of every game engine. Subclass ``Engine[YourState]``, set the class attributes,
    implement the abstract methods.

    States are whatever the engine likes (dataclasses are recommended) as long as
    ``from_json(to_json(s))`` is equal to ``s`` and ``to_json`` returns plain JSON data.
    ``play`` (and so ``apply``) must not mutate the state it is given: it returns a new one.
    """

    key: ClassVar[str]
    """Registry key, e.g. ``"cult_wars"``."""
    name: ClassVar[str]
    """Display name."""
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    summary: ClassVar[str] = ""
    """A short rules summary (a few paragraphs of original text) for ``/rules``."""
    rules_page: ClassVar[str] = ""
    """Repository path of the full rules page, e.g. ``docs/rules/cult_wars.md``."""
    schema_version: ClassVar[int] = 1
    """Version of the JSON state layout; bump when it changes."""
    option_help: ClassVar[Mapping[str, str]] = {}
    """Documented setup options and what they do."""

    # -- setup
    def validate_options(self, players: int, options: Mapping[str, Any]) -> JSON:
        """Check the player count and options; return the normalised options or raise InvalidOptions."""
        if not self.min_players <= players <= self.max_players:
            raise InvalidOptions(
                f"{self.name} needs {self.min_players}–{self.max_players} players, not {players}."
            )
        unknown = sorted(set(options) - set(self.option_help))
        if unknown:
            allowed = ", ".join(sorted(self.option_help)) or "none"
            raise InvalidOptions(f"unknown option(s) {', '.join(unknown)}; allowed: {allowed}.")
        return dict(options)

    @abstractmethod
    def setup(self, players: int, seed: int, options: Mapping[str, Any] | None = None) -> S:
        """Initial state for seats ``0..players-1``. Calls ``validate_options``."""

    # -- play
    @abstractmethod
    def prompts(self, state: S) -> list[Prompt]:
        """Open decisions, in a stable order. Empty if and only if the game is over."""

    def apply(self, state: S, seat: int, action: Action) -> tuple[S, list[Event]]:
        """Validate and apply one action; return (new state, events). Raise a RulesError on bad input.

        The checks every game shares, in this order: the game is not over (GameOver); the action
        is an object with a string ``"type"`` and the seat a whole number (IllegalAction); the
        seat has an open prompt (``prompt_for``; NotYourTurn naming who is awaited, unless
        ``revisable`` offers the seat's answered prompt again); for an enumerated prompt
        (``free_form is None``) the action is one of its choices (IllegalAction). Then the game's
        ``play`` does the rest; free-form answers (a flick, secret orders, a line-up) are
        validated there.
        """
        if self.result(state) is not None:
            raise GameOver("the game is over; no more moves are accepted.")
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise IllegalAction(f"{_shown(action)} is not an action: send an object with a string "
                                f"\"type\" key.")
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise IllegalAction(f"seat {seat!r} is not a seat number: seats are whole numbers from 0.")
        try:
            prompt = self.prompt_for(state, seat)
        except NotYourTurn:
            again = self.revisable(state, seat)
            if again is None:
                raise
            prompt = again
        if prompt.free_form is None:
            check_choice(prompt, action)
        return self.play(state, seat, action, prompt)

    @abstractmethod
    def play(self, state: S, seat: int, action: Action, prompt: Prompt) -> tuple[S, list[Event]]:
        """The game's own part of ``apply``: ``action`` answers ``prompt`` (the seat's open prompt,
        already checked to be one of its choices when it has no ``free_form``). Validate what is
        left (free-form answers, game-specific rules), then return (new state, events) without
        mutating ``state``. Raise a RulesError on bad input."""

    def revisable(self, state: S, seat: int) -> Prompt | None:
        """The prompt ``seat`` has already answered but may still answer again (revise), while it
        has no open prompt; None when there is none. ``apply`` hands a revision to ``play`` with
        this prompt. Default: answers are final. Cult Wars overrides it: orders can be replaced
        until the last cult submits."""
        return None

    @abstractmethod
    def view(self, state: S, seat: int | None) -> JSON:
        """JSON view for one seat or the public (``seat=None``).

        The one redaction path of the game. Convention checked by the conformance suite: a seat's
        view is exactly the public view plus one key, ``"private"``, holding what only that seat
        knows (its hand, its pending secret choice, its own seat number): ``view(s, k) ==
        {**view(s, None), "private": {...}}``. The public view holds no ``"private"`` key.
        """

    def secret_markers(self, state: S, seat: int) -> list[str]:
        """Strings that identify what ``seat`` holds in secret (e.g. unique card ids).

        The conformance suite checks that none appears in any other seat's view or in a public
        event. Return instance-unique tokens only (a card *name* that can also be public is not a
        marker). Default: none.
        """
        return []

    @abstractmethod
    def result(self, state: S) -> Result | None:
        """The result once the game is over, else None."""

    # -- deadlines and computer players
    def timeout_action(self, state: S, prompt: Prompt) -> Action:
        """Action taken for ``prompt.seat`` when its deadline passes. Default: the computer player."""
        rng = random.Random(f"timeout/{self.state_digest(state)}/{prompt.seat}/{prompt.kind}")
        return self.bot_action(self.view(state, prompt.seat), prompt, rng)

    @abstractmethod
    def bot_action(self, view: JSON, prompt: Prompt, rng: random.Random) -> Action:
        """The computer player: choose an action for ``prompt`` from the seat's own view only."""

    # -- serialisation
    @abstractmethod
    def to_json(self, state: S) -> JSON:
        """Plain JSON data for the state, including ``schema_version`` and the RNG."""

    @abstractmethod
    def from_json(self, data: Mapping[str, Any]) -> S:
        """Inverse of ``to_json``. Calls ``check_schema`` first."""

    # -- helpers shared by all engines
    def check_schema(self, data: Mapping[str, Any]) -> None:
        """Refuse a stored state written by another layout version (call first in ``from_json``):
        raise :class:`StateSchemaError`."""
        if data.get("schema_version") != self.schema_version:
            raise StateSchemaError(f"unsupported {self.name} state schema "
                                   f"{data.get('schema_version')!r}; this Herald reads version "
                                   f"{self.schema_version}.")

    def clone(self, state: S) -> S:
        """A deep, independent copy (what ``play`` starts from)."""
        return copy.deepcopy(state)

    def state_digest(self, state: S) -> str:
        """A stable short digest of the state, for seeding and equality checks."""
        import hashlib

        raw = json.dumps(self.to_json(state), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(raw.encode()).hexdigest()[:16]

    def prompt_for(self, state: S, seat: int) -> Prompt:
        """The seat's open prompt, or NotYourTurn (or GameOver) naming who is awaited."""
        if self.result(state) is not None:
            raise GameOver("the game is over; no more moves are accepted.")
        open_ = self.prompts(state)
        for p in open_:
            if p.seat == seat:
                return p
        waiting = ", ".join(f"seat {p.seat} ({p.kind})" for p in open_) or "nobody"
        raise NotYourTurn(f"seat {seat} has nothing to decide right now; waiting for {waiting}.")

    def replay(self, players: int, seed: int, options: Mapping[str, Any] | None,
               log: Sequence[tuple[int, Action]]) -> S:
        """Rebuild a state from its setup and its accepted actions."""
        state = self.setup(players, seed, options)
        for seat, action in log:
            state, _ = self.apply(state, seat, action)
        return state


def check_choice(prompt: Prompt, action: Action) -> None:
    """For enumerated prompts: raise IllegalAction unless ``action`` is one of the choices."""
    if prompt.free_form is not None:
        return
    for c in prompt.choices:
        if c.action == action:
            return
    shown = ", ".join(c.label for c in prompt.choices[:12])
    more = "…" if len(prompt.choices) > 12 else ""
    raise IllegalAction(f"{_shown(action)} is not allowed now; choose one of: {shown}{more}")
