"""The 20 law cards (rulebook: Council phase). Names and texts live in ``laws.json``, each law
under a stable ``key``; what each law changes is its :class:`LawRule` in :data:`RULES`, under the
same key, checked against the data at import.

A law lasts for the Generation it enters (``generation``), for the rest of the game (``game``),
or acts once when it enters and leaves at the end of that Generation (``instant``). The
functions below answer the questions the physics, the flick and the scoring ask about the laws
in force; the laws that act on the game at a moment do it through their hooks
(:mod:`.powers`). A law's name is display text only.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from importlib import resources

from . import powers
from .physics import DECEL


@dataclass(frozen=True)
class Law:
    key: str
    name: str
    duration: str
    """``generation``, ``game`` or ``instant``."""
    text: str
    authored: bool


DURATIONS = ("generation", "game", "instant")
DOMINATION = 2
"""VP for dominating an island at Worship, unless a law says otherwise."""


@dataclass(frozen=True)
class LawRule:
    """What a law changes while it is in force; the defaults change nothing."""

    wobble: float = 1.0
    """Every flick's wobble is multiplied by this."""
    friction: float = 1.0
    """The sliding deceleration is multiplied by this."""
    blind: bool = False
    """No aim preview."""
    shrink: float = 0.0
    """Islands count as this much smaller for Presence, Domination and the navel's score."""
    domination: int | None = None
    """VP for dominating an island at Worship instead of :data:`DOMINATION`."""
    navel_bonus: int = 0
    """Extra VP for each prophet scored on the navel."""
    tour: tuple[int, int] | None = None
    """(islands, VP): at Worship a seat with Presence on at least that many islands gains the
    VP."""
    guardian: str | None = None
    """A neutral disc of this kind stands on the navel at the start of every Mission; an island
    it touches scores nothing."""
    twin: bool = False
    """A fresh flick places two prophets in a line and flicks the rear one."""
    first_fall_returns: bool = False
    """The first prophet of each seat to leave the map this Generation goes back to its hand."""
    no_temples: bool = False
    """No temple may be built."""
    temple_vp: int = 0
    """VP a temple earns its builder when it is built."""
    reverse: bool = False
    """The Mission goes the other way round."""
    fewest_first: bool = False
    """The Mission starts with the seat with the fewest VP."""
    enters: powers.Hook | None = None
    """What happens once when the law enters."""
    before_worship: powers.Hook | None = None
    """What happens just before Worship."""
    turn_end: powers.Hook | None = None
    """What happens at the end of every Mission turn."""
    taste: tuple[float, float] = (0.0, 0.0)
    """How much the computer player likes the law at the Council: (while it leads, otherwise)."""


RULES: dict[str, LawRule] = {
    "king_ape": LawRule(guardian="king_ape"),
    "tornado": LawRule(before_worship=powers.tornado_strikes),
    "templars": LawRule(enters=powers.templars_join),
    "kraken": LawRule(turn_end=powers.kraken_takes_sea),
    "grand_tour": LawRule(tour=(3, 3), taste=(0.5, 0.5)),
    "twin_flight": LawRule(twin=True),
    "eyes_closed": LawRule(wobble=2.5, blind=True, taste=(-0.5, -0.5)),
    "weak_hand": LawRule(wobble=2.0, taste=(-0.3, -0.3)),
    "still_waters": LawRule(friction=0.7),
    "sticky_sands": LawRule(friction=1.4),
    "pilgrimage": LawRule(navel_bonus=2, taste=(0.5, 0.5)),
    "sealed_gates": LawRule(no_temples=True, taste=(-0.3, -0.3)),
    "consecration": LawRule(temple_vp=1, taste=(0.5, 0.5)),
    "divine_right": LawRule(domination=4, taste=(0.3, 0.3)),
    "last_first": LawRule(fewest_first=True, taste=(-0.5, 0.5)),
    "procession": LawRule(reverse=True),
    "tithe": LawRule(enters=powers.tithe_paid, taste=(-2.0, 1.0)),
    "lost_sheep": LawRule(first_fall_returns=True),
    "iconoclasm": LawRule(enters=powers.temples_on_cities_fall),
    "flood": LawRule(shrink=3.0),
}
"""Each law's rule, by the law's key in ``laws.json``."""


def check_rules(laws: Iterable[Law], rules: Mapping[str, LawRule]) -> None:
    """Every law of the data has a known duration and exactly one rule, and every rule a law;
    ValueError otherwise."""
    keys = []
    for x in laws:
        if x.duration not in DURATIONS:
            raise ValueError(f"law {x.key} has the duration {x.duration!r}, not one of {DURATIONS}")
        keys.append(x.key)
    if len(set(keys)) != len(keys):
        raise ValueError(f"laws.json repeats a key: {sorted(keys)}")
    if missing := sorted(set(keys) - set(rules)):
        raise ValueError(f"laws with no rule: {missing}")
    if extra := sorted(set(rules) - set(keys)):
        raise ValueError(f"rules for no such law: {extra}")


def _load() -> tuple[Law, ...]:
    raw = json.loads(resources.files(__package__).joinpath("laws.json").read_text("utf-8"))
    return tuple(Law(**x) for x in raw)


LAWS: tuple[Law, ...] = _load()
check_rules(LAWS, RULES)
BY_KEY: dict[str, Law] = {x.key: x for x in LAWS}
GUARDIANS: frozenset[str] = frozenset(r.guardian for r in RULES.values() if r.guardian)
"""The kinds of disc a law stands on the navel (islands they touch score nothing)."""


def rule(key: str) -> LawRule:
    return RULES[key]


def rules(laws: Iterable[str]) -> list[LawRule]:
    """The rules of the laws in force, in the order they entered."""
    return [RULES[k] for k in laws]


def decel(laws: Iterable[str]) -> float:
    """Sliding deceleration with the laws in force."""
    d = DECEL
    for r in rules(laws):
        d *= r.friction
    return d


def wobble_factor(laws: Iterable[str]) -> float:
    f = 1.0
    for r in rules(laws):
        f *= r.wobble
    return f


def preview_allowed(laws: Iterable[str]) -> bool:
    return not any(r.blind for r in rules(laws))


def island_shrink(laws: Iterable[str]) -> float:
    return sum((r.shrink for r in rules(laws)), 0.0)


def domination_value(laws: Iterable[str]) -> int:
    return next((r.domination for r in rules(laws) if r.domination is not None), DOMINATION)


def navel_bonus(laws: Iterable[str]) -> int:
    return sum(r.navel_bonus for r in rules(laws))


def builds_allowed(laws: Iterable[str]) -> bool:
    """Whether temples may be built with these laws in force."""
    return not any(r.no_temples for r in rules(laws))


def twin(laws: Iterable[str]) -> bool:
    """Whether a fresh flick places two prophets (Twin Flight)."""
    return any(r.twin for r in rules(laws))


def guardians(laws: Iterable[str]) -> list[str]:
    """The kinds of disc the laws in force stand on the navel, in the order they entered."""
    return [r.guardian for r in rules(laws) if r.guardian is not None]


def name(key: str) -> str:
    return BY_KEY[key].name
