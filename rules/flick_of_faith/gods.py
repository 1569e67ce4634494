"""The eight gods on four double-sided cards (rulebook: Setup step 5; god ability cards).

Names, powers and texts live in ``gods.json``, each god under a stable ``key``; what each power
changes is its :class:`GodRule` in :data:`RULES`, under the same key, and the rule files ask
:func:`rule` about a seat's god (a god's name is display text only). The table and the data are
checked against each other at import. Five powers follow the published game; Tyr, Themis and
Morrigan are Herald's own.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources

from . import powers


@dataclass(frozen=True)
class God:
    key: str
    name: str
    card: str
    """Colour of the double-sided card this god is printed on."""
    power: str
    text: str
    authored: bool


TYR_MASS = 2.0
TYR_MASS_TWO_PLAYERS = 1.7
"""Tyr's Iron Will: his prophet-kind discs weigh this many times as much as usual (less in a
two-player game, where the heavier discs made him too strong)."""
HIT_REACH = 6.0
"""How far beyond an enemy disc the computer player aims a shot at it."""


@dataclass(frozen=True)
class GodRule:
    """What a god's power changes; the defaults are a god without powers (or one not yet
    revealed)."""

    mass: tuple[float, float] = (1.0, 1.0)
    """How many times the usual weight the god's prophet-kind discs are: (with three or four
    players, with two)."""
    swap: str | None = None
    """A disc kind that replaces one of the god's prophets in their pool (Ra's Sphinx)."""
    heart: bool = False
    """May flick the Heart once per Generation; enemy prophets near it count as the god's at
    Worship (Freja)."""
    hand: bool = False
    """May stand the Hand of God before a flick (Dagda)."""
    builds_anywhere: bool = False
    """The god's temples may go on any island (Zeus)."""
    casting_vote: bool = False
    """A tied Council goes the god's way with three or four players (Themis)."""
    scales: bool = False
    """1 VP at Worship for a tie for the most pieces on an island (Themis; see
    :func:`.scoring.scales_apply`)."""
    second_chance: bool = False
    """On the god's turn, the first of their prophets to leave the map may be flicked again;
    on other turns it goes back to their hand (Anubis)."""
    turn_end: powers.Hook | None = None
    """What happens at the end of the god's own Mission turn (Morrigan's crows)."""
    hit_reach: float = HIT_REACH
    """How far beyond an enemy disc the computer player aims at it (Anubis, who loses little
    when his disc flies off, hits harder)."""


RULES: dict[str, GodRule] = {
    "tyr": GodRule(mass=(TYR_MASS, TYR_MASS_TWO_PLAYERS)),
    "freja": GodRule(heart=True),
    "zeus": GodRule(builds_anywhere=True),
    "themis": GodRule(casting_vote=True, scales=True),
    "ra": GodRule(swap="sphinx"),
    "anubis": GodRule(second_chance=True, hit_reach=12.0),
    "dagda": GodRule(hand=True),
    "morrigan": GodRule(turn_end=powers.crows_drown_struck),
}
"""Each god's rule, by the god's key in ``gods.json``."""
NO_POWER = GodRule()


def check_rules(gods: Iterable[God], rules: Mapping[str, GodRule]) -> None:
    """Every god of the data has exactly one rule and every rule a god; ValueError otherwise."""
    keys = [g.key for g in gods]
    if len(set(keys)) != len(keys):
        raise ValueError(f"gods.json repeats a key: {sorted(keys)}")
    if missing := sorted(set(keys) - set(rules)):
        raise ValueError(f"gods with no rule: {missing}")
    if extra := sorted(set(rules) - set(keys)):
        raise ValueError(f"rules for no such god: {extra}")


def _load() -> tuple[God, ...]:
    raw = json.loads(resources.files(__package__).joinpath("gods.json").read_text("utf-8"))
    return tuple(God(**g) for g in raw)


GODS: tuple[God, ...] = _load()
check_rules(GODS, RULES)
BY_KEY: dict[str, God] = {g.key: g for g in GODS}
CARDS: tuple[str, ...] = ("blue", "purple", "yellow", "green")


def rule(key: str | None) -> GodRule:
    """The rule of the god ``key`` (no power for None: a god not yet revealed)."""
    return NO_POWER if key is None else RULES[key]


def seat_with(gods: Sequence[str | None], power: Callable[[GodRule], bool]) -> int | None:
    """The first seat whose god's rule has ``power`` (e.g. ``lambda r: r.heart``), or None
    (each god is in a game at most once)."""
    return next((k for k, g in enumerate(gods) if power(rule(g))), None)


def sides(card: str) -> tuple[God, God]:
    """The two gods printed on a card."""
    a, b = [g for g in GODS if g.card == card]
    return (a, b)


def name(key: str | None) -> str:
    return BY_KEY[key].name if key in BY_KEY else "?"
