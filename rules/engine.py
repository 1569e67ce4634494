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
  the common checks (game over, the action is small plain JSON, its shape, the seat number, the
  seat's open prompt, and for an enumerated prompt that the action is exactly one of its
  choices) and then calls the game's own ``play(state, seat, action, prompt)``, which validates
  free-form answers (with :func:`fields`) and does the rest;
* ``view(state, seat)`` is the only way information leaves the engine (``seat=None`` is the public
  view); ``result(state)`` is ``None`` until the game is over;
* ``timeout_action`` answers a prompt whose deadline passed, ``bot_action`` is the computer player
  and sees only its own view.

Actions are JSON objects (``dict``) with at least a ``"type"`` key and only plain JSON data inside,
compared exactly (``true`` is not ``1``, ``3.0`` is not ``3``). Replaying the accepted actions
from ``setup`` with the same seed reproduces the stored state exactly. Event and prompt texts name
seats with :func:`seat_name` (``"P1"`` for seat 0 …); the platform replaces those with player
names. :class:`Engine` is generic in the game's state type, so ``Engine[MyState]`` lets the type
checker follow each game's state through the whole contract.
"""

from __future__ import annotations

import copy
import json
import math
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import islice
from typing import Any, ClassVar, Generic, Literal, TypeAlias, TypeVar

from .text import count_range, listing

Action = dict[str, Any]
JSON = dict[str, Any]

S = TypeVar("S")
"""The state type of one game (each engine subclasses ``Engine[ItsState]``)."""


def seat_name(seat: int) -> str:
    """How engine texts name a seat: ``"P1"`` for seat 0, ``"P2"`` for seat 1, …

    The platform replaces these with player names when it shows events and prompts."""
    return f"P{seat + 1}"


def shown(x: Any, limit: int = 120) -> str:
    """The bad input, repeated in an error message: JSON-like text of at most ``limit`` characters.

    Refusals repeat what was sent so people can see their mistake, but the input is whatever
    arrived, so this must be safe on anything: it looks only a few levels deep and at a few items
    per container (a cyclic or deeply nested value cannot make it loop or recurse), clips long
    strings, never spells out a huge integer and never calls ``repr`` on an unknown object
    (which could be slow, huge or raise). Object keys are sorted when there are few of them."""
    out: list[str] = []
    size = 0

    def put(text: str) -> None:
        nonlocal size
        out.append(text)
        size += len(text)

    def walk(v: Any, depth: int) -> None:
        t = type(v)
        if v is None:
            put("null")
        elif t is bool:
            put("true" if v else "false")
        elif t is int:
            put(str(v) if v.bit_length() <= 64 else ("-" if v < 0 else "") + "<a huge number>")
        elif t is float:
            put(json.dumps(v))
        elif t is str:
            put(json.dumps(v[:limit]) + ("…" if len(v) > limit else ""))
        elif t is dict or t is list or t is tuple:
            opening, closing = ("{", "}") if t is dict else ("[", "]")
            if depth >= 3:
                put(opening + "…" + closing)
                return
            items: list[Any] = list(islice(v.items() if t is dict else v, _SHOWN_ITEMS + 1))
            if t is dict and len(v) <= _SHOWN_ITEMS and all(type(k) is str for k in v):
                items.sort(key=lambda kv: kv[0])
            put(opening)
            for i, item in enumerate(items):
                if i == _SHOWN_ITEMS or size > limit:
                    put(", …" if i else "…")
                    break
                if i:
                    put(", ")
                if t is dict:
                    walk(item[0], depth + 1)
                    put(": ")
                    walk(item[1], depth + 1)
                else:
                    walk(item, depth + 1)
            put(closing)
        else:
            put(f"<{t.__name__}>")

    walk(x, 0)
    text = "".join(out)
    return text if len(text) <= limit else text[:limit - 1] + "…"


_SHOWN_ITEMS = 8
"""How many items of a list or object :func:`shown` repeats before "…"."""

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
    deadline: int | None = None
    """At most this many seconds to answer (the table's deadline still applies when shorter);
    None means the table's deadline. A reaction window sets it so that every seat it asks gets
    the same short deadline, whatever anyone holds, and the game never waits a whole turn's
    deadline for a reaction nobody may have."""


ECHO = "echo"
"""The kind of a private line that only restates the seat's own answer ("You keep the skill…",
"Your choice is locked in."): the answer to their click shows it already, so delivery sends them
nothing for it (no DM, no edit of their hand DM)."""


@dataclass(frozen=True)
class Event:
    """Something that happened. Public when ``to`` is None, otherwise seen only by those seats.
    ``kind``: what it is, for delivery and the interfaces (:data:`ECHO`, a game's own kinds)."""

    text: str
    to: tuple[int, ...] | None = None
    kind: str = "log"
    data: JSON = field(default_factory=dict)

    def visible_to(self, seat: int | None) -> bool:
        return self.to is None or (seat is not None and seat in self.to)

    def to_json(self) -> JSON:
        # (``data`` is shared, not copied: an event is never changed once made, and what reads
        # this only stores it; copying it deeply cost Cult Wars a sixth of each step)
        return {"text": self.text, "to": list(self.to) if self.to is not None else None,
                "kind": self.kind, "data": self.data}


class Story(Generic[S]):
    """One ``apply`` (or ``setup``) call as it happens: the state being changed and the events it
    tells, in order — the one way an engine emits events. ``say`` tells everyone, ``tell`` the
    given seats only; an engine whose state keeps a log of its own (Hegemony of Faith's last
    lines) extends ``say`` to keep it, and nothing else."""

    def __init__(self, s: S) -> None:
        self.s = s
        self.events: list[Event] = []

    def say(self, text: str, *, kind: str = "log", data: JSON | None = None) -> None:
        """A public line."""
        self.events.append(Event(text, None, kind, data if data is not None else {}))

    def tell(self, seats: int | Sequence[int], text: str, *, kind: str = "log",
             data: JSON | None = None) -> None:
        """A line for these seats' eyes only (one seat, or several)."""
        to = (seats,) if isinstance(seats, int) else tuple(seats)
        self.events.append(Event(text, to, kind, data if data is not None else {}))

    def add(self, events: Sequence[Event]) -> None:
        """Events told by a part of the rules that returns them (kept in order after these)."""
        self.events.extend(events)


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


def copy_plain(value: Any) -> Any:
    """A deep copy of plain JSON data (dicts, lists and the values in them): what an engine's
    field-by-field state copy uses where ``copy.deepcopy``'s generic walk would cost most."""
    if isinstance(value, dict):
        return {k: copy_plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [copy_plain(v) for v in value]
    return value


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


REVISION_OPTION = "rules_revision"
"""The option under which a game's stored options record the rules revision it is played by (set
by the platform when a table opens; not a player's option: see :attr:`Engine.rules_revision`)."""

OptionKind: TypeAlias = Literal["bool", "int", "choice", "seat", "seat_map"]
"""What an :class:`Option`'s value is (see there)."""

_OPTION_LIMIT = 40
"""Characters of a refused option value repeated in the refusal."""


@dataclass(frozen=True)
class Option:
    """One setup option a game takes, declared in its engine's :attr:`Engine.options` table.

    The table is the only place an option is described: :meth:`Engine.validate_options` refuses
    an unknown key and a value of the wrong kind or out of range (one sentence each, naming the
    option and repeating the value), ``/rules`` and ``/play`` show :meth:`describe`, and a game's
    ``setup`` reads the value, or the declared default, with :meth:`Engine.option_value`.
    Kinds of value:

    * ``"bool"``: true or false;
    * ``"int"``: a whole number from ``lo`` to ``hi`` (``unit`` says what it counts);
    * ``"choice"``: one of the words in ``allowed``;
    * ``"seat"``: a seat of the table, by its 0-based number or its name (``"P3"``), kept as it
      was given (:func:`option_seat` reads it);
    * ``"seat_map"``: seats (their numbers, as text) each mapped to one of the words in
      ``allowed``.

    A seat or a seat map may also be null, which is the same as not giving it.

    A declaration that contradicts itself (a default out of its own range, a choice without
    words) is refused when the engine's class is made.
    """

    key: str
    kind: OptionKind
    help: str
    """What the option does, without its default and range (:meth:`describe` adds them)."""
    default: Any = None
    """The value when the option is not given; None: unset (``help`` says what that means)."""
    lo: int = 0
    """An ``"int"``'s smallest value."""
    hi: int = 0
    """An ``"int"``'s largest value."""
    allowed: tuple[str, ...] = ()
    """A ``"choice"``'s words, or the words a ``"seat_map"`` maps seats to."""
    unit: str = ""
    """What an ``"int"`` counts, as a refusal says it: ``"minutes"`` → "a whole number of
    minutes 1–1440"."""
    must: str = ""
    """What a refusal says a value must do, when the kind's own words do not fit (``hints``:
    ``"be on or off"``, as ``/play`` spells it)."""

    def __post_init__(self) -> None:
        if self.kind not in _OPTION_CHECKS:
            raise TypeError(f"option {self.key}: unknown kind {self.kind!r}")
        if self.kind == "int" and self.lo > self.hi:
            raise TypeError(f"option {self.key}: its range {self.lo}–{self.hi} is empty")
        if self.kind in ("choice", "seat_map") and not self.allowed:
            raise TypeError(f"option {self.key}: a {self.kind} needs its allowed words")
        if self.default is not None and self.kind in ("bool", "int", "choice"):
            try:
                self.check(self.default, 1)
            except InvalidOptions as exc:
                raise TypeError(f"option {self.key}: its default is refused: {exc}") from None

    def check(self, value: Any, players: int) -> None:
        """Raise InvalidOptions, one sentence, unless ``value`` is a value of this option at a
        table of ``players``."""
        refusal = _OPTION_CHECKS[self.kind](self, value, players)
        if refusal:
            raise InvalidOptions(f"{self.key}{refusal}, not {shown(value, _OPTION_LIMIT)}.")

    def describe(self) -> str:
        """The help ``/rules`` shows: what it does, then its default and range."""
        said = []
        if self.default is not None:
            said.append(f"default {_option_word(self.default)}")
        if self.kind == "int":
            said.append(self.span())
        return f"{self.help} ({', '.join(said)})" if said else self.help

    def span(self) -> str:
        """The values it takes, in a few words: ``1–1440``, ``easy, normal or hard``, ``true or
        false``, ``a seat``."""
        if self.kind == "int":
            return f"{self.lo}–{self.hi}"
        if self.kind == "bool":
            return "true or false"
        if self.kind == "choice":
            return listing(list(self.allowed), "or")
        return "a seat" if self.kind == "seat" else "seats → " + listing(list(self.allowed), "or")

    def example(self) -> str:
        """A value of the option as ``/play options:`` takes it: a bool's other value than its
        default (giving the default changes nothing), else the default, else the first allowed
        word, the smallest number or the first seat's name."""
        if self.kind == "bool":
            return _option_word(not self.default)
        if self.default is not None:
            return _option_word(self.default)
        if self.kind == "seat":
            return seat_name(0)
        return str(self.lo) if self.kind == "int" else self.allowed[0]


def _option_word(value: Any) -> str:
    """A value as ``/play options:`` spells it: ``true``, ``30``, ``two_step``."""
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def _refuse_bool(option: Option, value: Any, players: int) -> str:
    return "" if type(value) is bool else f" must {option.must or 'be true or false'}"


def _refuse_int(option: Option, value: Any, players: int) -> str:
    if type(value) is int and option.lo <= value <= option.hi:
        return ""
    counted = f" of {option.unit}" if option.unit else ""
    return f" must be a whole number{counted} {option.lo}–{option.hi}"


def _words(allowed: Sequence[str]) -> str:
    """'a or b', 'one of a, b, c'."""
    return " or ".join(allowed) if len(allowed) == 2 else f"one of {', '.join(allowed)}"


def _refuse_choice(option: Option, value: Any, players: int) -> str:
    if type(value) is str and value in option.allowed:
        return ""
    return f" must {option.must or 'be ' + _words(option.allowed)}"


def option_seat(value: Any) -> int | None:
    """The 0-based seat a ``"seat"`` option names (its number, or its name ``"P3"``), or None
    when it names none (unset, or not a seat's number or name: see :meth:`Option.check`)."""
    if isinstance(value, str) and value[:1] in ("P", "p") and value[1:].isascii() \
            and value[1:].isdigit() and len(value) <= 4:
        return int(value[1:]) - 1
    if type(value) is int:
        return value
    return None


def _refuse_seat(option: Option, value: Any, players: int) -> str:
    seat = option_seat(value)
    if value is None or seat is not None and 0 <= seat < players:
        return ""
    return f" must be a seat 0–{players - 1} or {seat_name(0)}–{seat_name(players - 1)}"


def _refuse_seat_map(option: Option, value: Any, players: int) -> str:
    if value is None:
        return ""
    if not isinstance(value, dict):
        return f" must {option.must or 'map seats to ' + _words(option.allowed)}"
    for key, word in value.items():
        if not (isinstance(key, str) and key.isascii() and key.isdigit() and int(key) < players):
            raise InvalidOptions(f"{option.key}: {shown(key, _OPTION_LIMIT)} is not a seat of "
                                 "this table.")
        if not (type(word) is str and word in option.allowed):
            raise InvalidOptions(f"{option.key}: seat {key} must be {_words(option.allowed)}, "
                                 f"not {shown(word, _OPTION_LIMIT)}.")
    return ""


_OPTION_CHECKS: Mapping[str, Callable[[Option, Any, int], str]] = {
    "bool": _refuse_bool, "int": _refuse_int, "choice": _refuse_choice, "seat": _refuse_seat,
    "seat_map": _refuse_seat_map}
"""Each kind's check: what the value must be, after the option's key (empty: it is fine)."""


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
    rules_revision: ClassVar[int] = 1
    """The revision of the rules new games are set up with. An engine that changes how it plays
    (to follow its rulebook more exactly, say) raises it and keeps the earlier revisions for the
    games begun under them. The platform records the revision in a new table's options
    (:data:`REVISION_OPTION`), so that a stored game's seed, options and log always replay under
    the rules the log was played by; :meth:`revision_of` reads it from a state."""
    options: ClassVar[tuple[Option, ...]] = ()
    """The setup options the game takes, in the order ``/rules`` lists them: the base class's
    :meth:`validate_options` checks them and ``setup`` reads them with :meth:`option_value`."""
    option_help: ClassVar[Mapping[str, str]] = {}
    """Each option's key → what it does, as ``/rules`` shows it: made from :attr:`options`, never
    written by hand."""
    fill_option_defaults: ClassVar[bool] = False
    """True: :meth:`validate_options` returns every option of :attr:`options` that has a
    default, at its default when not given; False: the options as given (``setup`` reads the
    defaults with :meth:`option_value`)."""
    heavy_bot: ClassVar[bool] = False
    """True when ``bot_action`` is a search heavy enough (milliseconds of Python per move) that
    the platform runs it in a worker process, so that it does not hold the interpreter the other
    games' moves share. The worker gets the state's JSON, the prompt and the rng's seed material,
    so ``bot_action`` (and ``timeout_action``) must depend on nothing else: a choice made there
    is the choice made in-process."""

    heavy_steps: ClassVar[bool] = False
    """True when ``apply`` itself can cost milliseconds (a physics simulation): the platform then
    runs each step's engine work on a worker thread. False (most games: a step is a fraction of
    a millisecond) runs it right on the event loop, which is cheaper than handing it over."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """An engine that declares :attr:`options` gets its :attr:`option_help` made from them;
        help written by hand, two options with one key, or one with the key of an option every
        game takes, are refused."""
        super().__init_subclass__(**kwargs)
        if "option_help" in cls.__dict__:
            raise TypeError(f"{cls.__name__}: declare options; option_help is made from them")
        if "options" not in cls.__dict__:
            return
        from .search import TABLE_OPTIONS  # (rules.search imports this module)

        keys = [o.key for o in cls.options]
        taken = {REVISION_OPTION, *(o.key for o in TABLE_OPTIONS)}
        twice = sorted({k for k in keys if keys.count(k) > 1 or k in taken})
        if twice:
            raise TypeError(f"{cls.__name__}: options declared twice or taken by every game: "
                            f"{', '.join(twice)}")
        cls.option_help = {o.key: o.describe() for o in cls.options}

    # -- setup
    def validate_options(self, players: int, options: Mapping[str, Any]) -> JSON:
        """Check the player count and options; return the normalised options or raise
        InvalidOptions. The options every game takes (:data:`rules.search.TABLE_OPTIONS`) and the
        engine's own (:attr:`options`) are checked each by its declaration; the normalised options
        are the ones given, and each declared default when :attr:`fill_option_defaults` is set.
        An engine with a check that reads several options at once extends this."""
        if not self.min_players <= players <= self.max_players:
            raise InvalidOptions(
                f"{self.name} needs {count_range(self.min_players, self.max_players, 'player')}, "
                f"not {players}."
            )
        from .search import TABLE_OPTIONS  # (rules.search imports this module)

        self._check_keys(options, TABLE_OPTIONS)
        for option in (*TABLE_OPTIONS, *self.options):
            if option.key in options:
                option.check(options[option.key], players)
        opts = dict(options)
        if self.fill_option_defaults:
            for option in self.options:
                if option.default is not None:
                    opts.setdefault(option.key, option.default)
        return opts

    def _check_keys(self, options: Mapping[str, Any], table: Sequence[Option]) -> None:
        """Refuse an option nobody declares, and a rules revision this engine does not have."""
        unknown = sorted(set(options) - set(self.option_help) - {REVISION_OPTION}
                         - {o.key for o in table})
        if unknown:
            allowed = ", ".join(sorted(self.option_help)) or "none"
            word = "option" if len(unknown) == 1 else "options"
            raise InvalidOptions(f"unknown {word} {', '.join(unknown)}; allowed: {allowed}.")
        if REVISION_OPTION in options:
            revision = options[REVISION_OPTION]
            if type(revision) is not int or not 1 <= revision <= self.rules_revision:
                raise InvalidOptions(f"{REVISION_OPTION} must be a rules revision from 1 to "
                                     f"{self.rules_revision}, not {shown(revision)}.")

    def option_value(self, options: Mapping[str, Any], key: str) -> Any:
        """Option ``key`` of checked ``options``, else its default in :attr:`options` (KeyError:
        the engine declares no such option)."""
        for option in self.options:
            if option.key == key:
                return options.get(key, option.default)
        raise KeyError(f"{self.name} declares no option {key!r}")

    def revision_of(self, state: S) -> int:
        """The rules revision ``state`` is played under (an engine with one revision: 1)."""
        return self.rules_revision

    def replay_options(self, options: Mapping[str, Any] | None,
                       stored: Mapping[str, Any] | None) -> JSON:
        """The options to replay a stored game with: its own, and — for a game stored before its
        table recorded a rules revision — the revision its stored state (``stored``, as JSON)
        is played under, so that its log replays under exactly those rules."""
        opts = dict(options or {})
        if self.rules_revision == 1 or REVISION_OPTION in opts or stored is None:
            return opts
        opts[REVISION_OPTION] = self.revision_of(self.from_json(stored))
        return opts

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
        is small plain JSON (``check_plain_json``), an object with a string ``"type"``, and the
        seat an ``int`` (IllegalAction); the seat has an open prompt (``prompt_for``; NotYourTurn
        naming who is awaited, unless ``revisable`` offers the seat's answered prompt again); for
        an enumerated prompt (``free_form is None``) the action is exactly one of its choices
        (``check_choice``, IllegalAction). Then the game's ``play`` does the rest; free-form
        answers (a flick, secret orders, a line-up) are validated there, exactly, with
        :func:`fields`.
        """
        if self.result(state) is not None:
            raise GameOver("the game is over; no more moves are accepted.")
        check_plain_json(action)
        if type(action) is not dict or type(action.get("type")) is not str:
            raise IllegalAction(f"{shown(action)} is not an action: send an object with a string "
                                f"\"type\" key.")
        if type(seat) is not int:  # exactly int: a bool is not a seat
            raise IllegalAction(f"seat {shown(seat, 40)} is not a seat number: seats are whole "
                                "numbers from 0.")
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
        """The game's own part of ``apply``: ``action`` answers ``prompt`` (the seat's open prompt).
        ``action`` is already known to be small plain JSON with a string ``"type"``, and exactly one
        of the choices when the prompt has no ``free_form``. Validate what is left (a free-form
        answer, read exactly with :func:`fields`; game-specific rules), then return (new state,
        events) without mutating ``state``. Raise a RulesError on bad input, never anything else."""

    def revisable(self, state: S, seat: int) -> Prompt | None:
        """The prompt ``seat`` has already answered but may still answer again (revise), while it
        has no open prompt; None when there is none. ``apply`` hands a revision to ``play`` with
        this prompt. Default: answers are final. Cult Wars overrides it: orders can be replaced
        until the last cult submits."""
        return None

    def undoable(self, before: S, seat: int, action: Action, after: S,
                 events: Sequence[Event]) -> str | None:
        """May ``seat`` take back ``action``, which turned ``before`` into ``after`` with ``events``?
        None if it may; otherwise the reason, one short clause for players ("a card was drawn
        since", "everyone has voted, so the votes are out").

        The platform asks only about the seat's own last action, made by its player's own click,
        when nobody else has acted since and no other seat's open decision changed; whatever this
        answers, it also refuses when another seat's private view changed or a private event went
        to another seat. What only the game knows is asked here: was something left to chance (a
        shuffle, a die, a draw from a hidden deck, a physics wobble), did the seat itself learn
        something hidden, was something the seat held in secret shown, did a secret simultaneous
        decision close. Default: nothing may be taken back (a game opts in, move kind by move
        kind). Must not mutate its arguments."""
        return "moves cannot be taken back in this game"

    @abstractmethod
    def view(self, state: S, seat: int | None) -> JSON:
        """JSON view for one seat or the public (``seat=None``).

        The one redaction path of the game. Convention checked by the conformance suite: a seat's
        view is exactly the public view plus one key, ``"private"``, holding what only that seat
        knows (its hand, its pending secret choice, its own seat number): ``view(s, k) ==
        {**view(s, None), "private": {...}}``. The public view holds no ``"private"`` key.
        """

    def private_view(self, state: S, seat: int) -> JSON | None:
        """The ``"private"`` part of ``view(state, seat)`` alone (None: the view has none).

        The platform compares each seat's private part before and after every step to know whose
        hand changed; a game whose public view is costly overrides this to skip building it. Must
        equal ``view(state, seat).get("private")`` (checked by the conformance suite)."""
        private: JSON | None = self.view(state, seat).get("private")
        return private

    def secret_markers(self, state: S, seat: int) -> list[str]:
        """Strings that identify what ``seat`` holds in secret (e.g. unique card ids).

        The conformance suite checks that none appears in any other seat's view or in a public
        event. Return instance-unique tokens only (a card *name* that can also be public is not a
        marker). Default: none.
        """
        return []

    def secret_variants(self, state: S, seat: int, rng: random.Random) -> list[S]:
        """States equal to ``state`` except in what ``seat`` holds in secret, for the
        non-interference check of the conformance suite.

        Each variant must look reachable: the same counts, card identities conserved between the
        seat's hand and the hidden deck it swapped with, the seat's pending secret choice (if any)
        replaced by another legal one, and every public thing untouched. The suite then checks
        that no other seat and no public output (views, prompts, events) can tell a variant from
        the original, which catches a secret leaking through any path, not only by its id.
        Default: none (the check is vacuous), so every real game should override it.
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
        raise NotYourTurn(f"seat {shown(seat)} has nothing to decide right now; waiting for {waiting}.")

    def replay(self, players: int, seed: int, options: Mapping[str, Any] | None,
               log: Sequence[tuple[int, Action]]) -> S:
        """Rebuild a state from its setup and its accepted actions.

        An engine with several rules revisions replays options that record one
        (:data:`REVISION_OPTION`) under it alone, exactly. A game stored before its table
        recorded a revision (the platform adds the one its stored state holds:
        :meth:`replay_options`) is told apart by its moves: the log is replayed under the
        current rules, then under each earlier revision in turn while a move is refused."""
        opts = dict(options or {})
        if self.rules_revision == 1 or REVISION_OPTION in opts:
            return self._replayed(players, seed, opts, log)
        first: RulesError | None = None
        for revision in range(self.rules_revision, 0, -1):
            try:
                return self._replayed(players, seed, {**opts, REVISION_OPTION: revision}, log)
            except RulesError as exc:
                first = first or exc
        assert first is not None
        raise first

    def _replayed(self, players: int, seed: int, options: Mapping[str, Any],
                  log: Sequence[tuple[int, Action]]) -> S:
        state = self.setup(players, seed, options)
        for seat, action in log:
            state, _ = self.apply(state, seat, action)
        return state


# ------------------------------------------------------------------------------ action checks

MAX_ACTION_DEPTH = 8
"""How deeply lists and objects may nest in an action (the action object itself is level 1)."""
MAX_ACTION_SIZE = 4096
"""Roughly how many characters an action may take written as JSON."""
MAX_ACTION_INT = 2**53 - 1
"""The largest whole number (either sign) an action may hold: every JSON reader keeps it exact."""

FieldKind: TypeAlias = "type[Any] | None"
"""One JSON type a key may hold, named by its Python type (see :func:`fields`)."""
FieldSpec: TypeAlias = "FieldKind | tuple[FieldKind, ...]"

_KIND_WORDS: dict[FieldKind, str] = {
    int: "a whole number", float: "a number", str: "a string", bool: "true or false",
    list: "a list", dict: "an object", None: "null",
}


def check_plain_json(action: Any) -> None:
    """Raise IllegalAction unless ``action`` is small, plain JSON data.

    Plain means exactly what ``json.loads`` gives: ``dict`` with ``str`` keys, ``list``, ``str``,
    ``int`` (within :data:`MAX_ACTION_INT`), finite ``float``, ``bool`` and ``None`` — no tuples,
    sets, subclasses or other objects, which would compare, serialise or replay differently. Small
    means at most :data:`MAX_ACTION_DEPTH` levels of nesting and about :data:`MAX_ACTION_SIZE`
    characters. The walk is iterative and stops as soon as a limit is passed, so a huge, deep or
    cyclic value (a cycle is infinitely deep) costs no more than a small one.
    """
    budget = MAX_ACTION_SIZE
    todo: list[tuple[Any, int]] = [(action, 1)]
    while todo:
        x, depth = todo.pop()
        t = type(x)
        if t is dict or t is list:
            if depth > MAX_ACTION_DEPTH:
                raise IllegalAction(f"the action nests lists and objects more than {MAX_ACTION_DEPTH} "
                                    "levels deep; send a flatter one.")
            budget -= 2
            if t is dict:
                for k, v in x.items():
                    if type(k) is not str:
                        raise IllegalAction(f"the action has an object key {shown(k, 40)} that is not a "
                                            "string; JSON object keys are strings.")
                    budget -= len(k) + 4
                    if budget < 0:
                        break
                    todo.append((v, depth + 1))
            else:
                for v in x:
                    budget -= 1
                    if budget < 0:
                        break
                    todo.append((v, depth + 1))
        elif t is str:
            budget -= len(x) + 2
        elif t is int:
            if not -MAX_ACTION_INT <= x <= MAX_ACTION_INT:
                raise IllegalAction(f"the action holds a whole number beyond ±{MAX_ACTION_INT}, "
                                    "too large to be exact in JSON.")
            budget -= len(str(x))
        elif t is float:
            if not math.isfinite(x):
                raise IllegalAction(f"the action holds {shown(x)}, which is not a JSON number; "
                                    "send finite numbers.")
            budget -= len(repr(x))
        elif x is None or t is bool:
            budget -= 5
        else:
            raise IllegalAction(f"the action holds a value of type {t.__name__[:40]}, which is not JSON "
                                "data; an action holds only objects, lists, strings, numbers, true, "
                                "false and null.")
        if budget < 0:
            raise IllegalAction(f"the action is too large (more than about {MAX_ACTION_SIZE} "
                                "characters as JSON); send a shorter one.")


def same_json(a: Any, b: Any) -> bool:
    """Exact equality of JSON data: the same JSON types holding equal values, objects with the same
    keys. Python's ``==`` says ``True == 1`` and ``3.0 == 3``; here both are different answers.

    Recursive, but only as deep as the shallower of the two values: ``apply`` compares an action
    it has already bounded (:func:`check_plain_json`) with an engine's own choices."""
    t = type(a)
    if t is not type(b):
        return False
    if t is dict:
        return bool(a.keys() == b.keys()) and all(same_json(v, b[k]) for k, v in a.items())
    if t is list:
        return len(a) == len(b) and all(same_json(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def check_choice(prompt: Prompt, action: Action) -> None:
    """For enumerated prompts: raise IllegalAction unless ``action`` is exactly one of the choices
    (:func:`same_json`: ``{"n": 3.0}`` or ``{"n": true}`` does not answer a choice ``{"n": 3}``)."""
    if prompt.free_form is not None:
        return
    for c in prompt.choices:
        if same_json(action, c.action):
            return
    labels = ", ".join(c.label for c in prompt.choices[:12])
    more = "…" if len(prompt.choices) > 12 else ""
    raise IllegalAction(f"{shown(action)} is not allowed now; choose one of: {labels}{more}")


def fields(obj: Any, what: str, required: Mapping[str, FieldSpec],
           optional: Mapping[str, FieldSpec] | None = None, *, usage: str = "") -> dict[str, Any]:
    """Read a free-form answer (or an object inside one) exactly, or raise IllegalAction.

    ``obj`` must be an object holding every ``required`` key, any of the ``optional`` ones and
    nothing else (unknown keys are refused by name: a misspelt key must not be silently ignored).
    Each key's spec is one JSON type or a tuple of them, named by Python type: ``int`` is a whole
    number and never a bool; ``float`` is any number (whole or not, never a bool or a numeric
    string) and is returned as a ``float``, so ``3`` and ``3.0`` give the same state; ``str``,
    ``bool``, ``list`` and ``dict`` are exactly those; ``None`` allows null. Returns the present
    keys with their values; ranges and game rules are the caller's to check. ``what`` names the
    answer in messages ("a flick"); ``usage``, when given, shows what to send instead."""
    tail = f"; send {usage}." if usage else "."
    if type(obj) is not dict:
        raise IllegalAction(f"{what} must be an object, not {shown(obj, 60)}{tail}")
    optional = optional or {}
    allowed = {*required, *optional}
    unknown = sorted(shown(k, 30) for k in obj if k not in allowed)
    if unknown:
        names = ", ".join(unknown[:5]) + (", …" if len(unknown) > 5 else "")
        word = "key" if len(unknown) == 1 else "keys"
        raise IllegalAction(f"{what} has unknown {word} {names}; allowed: "
                            f"{', '.join(sorted(allowed))}.")
    out: dict[str, Any] = {}
    for key, spec in required.items():
        if key not in obj:
            raise IllegalAction(f"{what} needs \"{key}\" ({_spec_words(spec)}){tail}")
        out[key] = _typed(obj[key], key, spec, what, tail)
    for key, spec in optional.items():
        if key in obj:
            out[key] = _typed(obj[key], key, spec, what, tail)
    return out


def _spec_words(spec: FieldSpec) -> str:
    kinds = spec if isinstance(spec, tuple) else (spec,)
    return " or ".join(_KIND_WORDS[k] for k in kinds)


def _typed(value: Any, key: str, spec: FieldSpec, what: str, tail: str) -> Any:
    """``value`` if it has one of the JSON types of ``spec`` (a number as float for ``float``)."""
    t = type(value)
    for kind in spec if isinstance(spec, tuple) else (spec,):
        if kind is None:
            if value is None:
                return None
        elif kind is not float:
            if t is kind:
                return value
        elif t is int or t is float:
            try:
                number = float(value)
            except OverflowError:
                number = math.inf
            if math.isfinite(number):
                return number
    raise IllegalAction(f"\"{key}\" in {what} must be {_spec_words(spec)}, not {shown(value, 40)}{tail}")
