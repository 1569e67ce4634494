"""The eight gods on four double-sided cards (rulebook: Setup step 5; god ability cards).

Texts and names live in ``gods.json``; the engine hooks for each power are in ``engine.py``,
``flick.py`` and ``scoring.py`` (searched by god key). Five powers follow the published game;
Tyr, Themis and Morrigan are Herald's own.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources


@dataclass(frozen=True)
class God:
    key: str
    name: str
    card: str
    """Colour of the double-sided card this god is printed on."""
    power: str
    text: str
    authored: bool


def _load() -> tuple[God, ...]:
    raw = json.loads(resources.files(__package__).joinpath("gods.json").read_text("utf-8"))
    return tuple(God(**g) for g in raw)


GODS: tuple[God, ...] = _load()
BY_KEY: dict[str, God] = {g.key: g for g in GODS}
CARDS: tuple[str, ...] = ("blue", "purple", "yellow", "green")


def sides(card: str) -> tuple[God, God]:
    """The two gods printed on a card."""
    a, b = [g for g in GODS if g.card == card]
    return (a, b)


def name(key: str | None) -> str:
    return BY_KEY[key].name if key in BY_KEY else "?"
