"""The game state (everything a Hegemony of Faith table holds) and its JSON form.

Places a card can be (the card-conservation invariant): action cards are in the action deck, the
action discard pile or one hand; believer cards are in the believer deck, the box (not used at this
player count), one player's believers, the graveyard, or removed from the game (Zombie Army).
Pending decisions live on ``stack``: a list of plain-dict frames (declared in ``frames``), the top
one being resolved.
"""

from __future__ import annotations

import copy
import re
from dataclasses import asdict, dataclass, field, fields, is_dataclass
from typing import Any

from rules.engine import JSON, Rng, Story

from .frames import Frame
from .views import IntelView

LEADER, FOLLOWER, WANDERER = "leader", "follower", "wanderer"


@dataclass
class State:
    players: int
    rng: Rng
    phase: str = "setup"
    """"setup" (choosing skills), "play", or "over"."""
    action_deck: list[int] = field(default_factory=list)
    action_discard: list[int] = field(default_factory=list)
    believer_deck: list[int] = field(default_factory=list)
    box: list[int] = field(default_factory=list)
    """Believer cards left out at this player count."""
    graveyard: list[int] = field(default_factory=list)
    """Dead believers; the last one is the top."""
    removed: list[int] = field(default_factory=list)
    """Believers excluded from the game (graveyard believers used by Zombie Army)."""
    skill_deck: list[int] = field(default_factory=list)
    skill_discard: list[int] = field(default_factory=list)
    hands: list[list[int]] = field(default_factory=list)
    """Action cards per seat."""
    believers: list[list[int]] = field(default_factory=list)
    skill: list[int | None] = field(default_factory=list)
    revealed: list[bool] = field(default_factory=list)
    uses: list[int] = field(default_factory=list)
    """Activations of the seat's current skill this game."""
    round_uses: list[int] = field(default_factory=list)
    """Activations since the seat's own turn last began."""
    role: list[str] = field(default_factory=list)
    leader: list[int | None] = field(default_factory=list)
    """For a Follower, the seat of their Leader."""
    steals: list[int] = field(default_factory=list)
    """Believers stolen as a Wanderer since becoming one."""
    imm_mental: list[bool] = field(default_factory=list)
    imm_physical: list[bool] = field(default_factory=list)
    skip: list[bool] = field(default_factory=list)
    gate: list[str | None] = field(default_factory=list)
    """Skill copied with Gate of Truth and still active (until the seat's next turn)."""
    gate_history: list[list[str]] = field(default_factory=list)
    hermit: list[bool] = field(default_factory=list)
    """Purple Hermit used: take half again and go independent at the next turn."""
    intel: list[IntelView | None] = field(default_factory=list)
    """What the seat last saw with Info-Spy."""
    deaths: list[int] = field(default_factory=list)
    """Believers of each seat that died in the action being resolved (Holy Rebirth)."""
    follower_draws: list[int] = field(default_factory=list)
    """Action cards each seat's Followers drew since that seat's last turn ended: what Ascend
    with Me lets the seat draw on its turn. Counted for every Leader whatever their skill, so the
    count says nothing about it."""
    current: int = 0
    first: int = 0
    turn_no: int = 0
    round_no: int = 0
    used_kinds: list[str] = field(default_factory=list)
    extra: int = 0
    """Unrestricted extra actions left this turn (Praise of Life)."""
    no_attack: bool = False
    """KABOOM! was used this turn: no attack action may follow."""
    stack: list[Frame] = field(default_factory=list)
    log: list[str] = field(default_factory=list)
    """The latest public events, newest last."""
    winner: int | None = None
    reason: str = ""
    max_rounds: int = 30
    reaction_window: int = 1800
    """Seconds a reaction window (defence, counter, Karma Reversed, The Prophet, Holy Rebirth)
    stays open at most: the same for every seat it asks (table option ``reaction_window``)."""

    def __post_init__(self) -> None:
        # one entry per seat, also for a state stored before the field existed
        if len(self.follower_draws) != self.players:
            self.follower_draws = [0] * self.players

    def __deepcopy__(self, memo: dict[int, Any]) -> State:
        # ``Engine.clone`` deep-copies the state before every action: copying each field by its
        # declared shape (see ``_copied``) makes the same independent copy as a pickle round trip
        # or copy.deepcopy's generic walk, several times faster, without calling __init__
        twin: State = State.__new__(State)
        memo[id(self)] = twin
        twin.__dict__.update(self.__dict__)  # (the attributes in their order, each replaced next)
        twin.__dict__.update(_copied(self.__dict__))
        twin.rng = Rng(self.rng.seed, self.rng.position)
        return twin


_SCALARS = (str, int, float, bool, type(None))
_FIELD_NAMES = tuple(f.name for f in fields(State) if f.name != "rng")

_SCALAR_TYPES = r"(?:int|str|bool|float|None)(?: \| (?:int|str|bool|float|None))*"
_SCALAR, _FLAT, _NESTED, _ANY = range(4)
_SHAPE_PATTERNS = ((_SCALAR, re.compile(_SCALAR_TYPES)), (_FLAT, re.compile(rf"list\[{_SCALAR_TYPES}\]")),
                   (_NESTED, re.compile(rf"list\[list\[{_SCALAR_TYPES}\]\]")))


def _shape(annotation: Any) -> int:
    """How a field is copied, read from its declared type (a string: postponed annotations):
    ``_SCALAR`` as is, ``_FLAT`` a list of scalars (one list copy), ``_NESTED`` a list of such
    lists, ``_ANY`` by the generic walk of :func:`_plain`. The type checker holds every
    assignment to the declared type, so the shaped copy is the one :func:`_plain` makes."""
    text = str(annotation)
    return next((shape for shape, pattern in _SHAPE_PATTERNS if pattern.fullmatch(text)), _ANY)


_SHAPES = tuple((f.name, _shape(f.type)) for f in fields(State) if f.name != "rng")


def _copied(d: dict[str, Any]) -> dict[str, Any]:
    """Fresh copies of the fields (all but ``rng``) found in ``d``, in field order, each as
    :func:`_plain` copies it, but by its declared shape: to_json, from_json and clone run on
    every step, and the generic walk cost most of them."""
    out: dict[str, Any] = {}
    for name, shape in _SHAPES:
        if name in d:
            v = d[name]
            if shape == _SCALAR:
                out[name] = v
            elif shape == _FLAT:
                out[name] = v[:]
            elif shape == _NESTED:
                out[name] = [x[:] for x in v]
            else:
                out[name] = _plain(v)
    return out


def _plain(v: Any) -> Any:
    """A fresh copy of ``v`` as ``dataclasses.asdict`` makes it (lists, dicts and tuples rebuilt,
    dataclasses turned into dicts, anything else deep-copied), by a direct walk: the state holds
    plain JSON data, and asdict's generic walk cost most of ``to_json``."""
    t = type(v)
    if t in _SCALARS:
        return v
    if t is list:
        return [x if type(x) in _SCALARS else _plain(x) for x in v]
    if t is dict:
        return {k if type(k) in _SCALARS else _plain(k): x if type(x) in _SCALARS else _plain(x)
                for k, x in v.items()}
    if t is tuple:
        return tuple(_plain(x) for x in v)
    if is_dataclass(v) and not isinstance(v, type):
        return asdict(v)
    return copy.deepcopy(v)


def state_to_json(s: State, schema_version: int) -> dict[str, Any]:
    d = _copied(s.__dict__)
    d["rng"] = s.rng.to_json()
    d["schema_version"] = schema_version
    return d


def state_from_json(d: dict[str, Any]) -> State:
    # a field added later (with its default) may be missing from a state stored before it; the
    # values are copied so the state never shares a list with the caller's data
    return State(rng=Rng.from_json(d["rng"]), **_copied(d))


class Ctx(Story[State]):
    """One ``apply`` call (the engine's :class:`~rules.engine.Story`) whose public lines are also
    kept as the state's last log lines."""

    def say(self, text: str, *, kind: str = "log", data: JSON | None = None) -> None:
        super().say(text, kind=kind, data=data)
        self.s.log.append(text)
        if len(self.s.log) > 12:
            del self.s.log[: len(self.s.log) - 12]
