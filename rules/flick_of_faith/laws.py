"""The 20 law cards (rulebook: Council phase). Texts in ``laws.json``; effects as small hooks.

A law lasts for the Generation it enters (``generation``), for the rest of the game (``game``),
or acts once when it enters and leaves at the end of that Generation (``instant``). The hooks
below answer the questions the physics, the flick and the scoring ask; one-off effects
(Templars, Tithe, Iconoclasm, King Ape, Tornado, Kraken, Lost Sheep, the turn-order laws) are
applied by the engine where they happen.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import resources

from .physics import DECEL


@dataclass(frozen=True)
class Law:
    key: str
    name: str
    duration: str
    """``generation``, ``game`` or ``instant``."""
    text: str
    authored: bool


def _load() -> tuple[Law, ...]:
    raw = json.loads(resources.files(__package__).joinpath("laws.json").read_text("utf-8"))
    return tuple(Law(**x) for x in raw)


LAWS: tuple[Law, ...] = _load()
BY_KEY: dict[str, Law] = {x.key: x for x in LAWS}

WOBBLE_FACTOR = {"eyes_closed": 2.5, "weak_hand": 2.0}
FRICTION_FACTOR = {"still_waters": 0.7, "sticky_sands": 1.4}
FLOOD_SHRINK = 3.0


def decel(laws: Iterable[str]) -> float:
    """Sliding deceleration with the laws in force."""
    d = DECEL
    for k in laws:
        d *= FRICTION_FACTOR.get(k, 1.0)
    return d


def wobble_factor(laws: Iterable[str]) -> float:
    f = 1.0
    for k in laws:
        f *= WOBBLE_FACTOR.get(k, 1.0)
    return f


def preview_allowed(laws: Iterable[str]) -> bool:
    return "eyes_closed" not in set(laws)


def island_shrink(laws: Iterable[str]) -> float:
    return FLOOD_SHRINK if "flood" in set(laws) else 0.0


def domination_value(laws: Iterable[str]) -> int:
    return 4 if "divine_right" in set(laws) else 2


def navel_bonus(laws: Iterable[str]) -> int:
    return 2 if "pilgrimage" in set(laws) else 0


def name(key: str) -> str:
    return BY_KEY[key].name
