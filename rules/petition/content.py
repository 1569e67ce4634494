"""Herald's authored Petition content, loaded from ``content.json``.

The rulebook describes pillars, citizens, powerups, gods and a Challenger chart but publishes none
of them, so Herald authors all of it (listed in ``docs/rules/petition.md``). This module turns the
data file into typed, read-only records: the four pillars, the four gods (one per pillar: the
rulebook's "god of the pillar you intend to attack or defend" needs exactly one per pillar, and the
solo game places four), the deck of cards with instance ids (``PT01`` …) and the numbers of the
setup.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

PILLARS: tuple[str, ...] = ("art", "economy", "magic", "war")
"""The four pillars, in the order they are shown. A god's key is the key of its pillar."""

PILLAR_NAMES: dict[str, str] = {"art": "Art", "economy": "Economy", "magic": "Magic", "war": "War"}

EFFECTS: frozenset[str] = frozenset({"add", "per_citizen", "weaken"})
"""Powerup effects: ``add`` (+amount to your side), ``per_citizen`` (+amount per citizen on your
side, at most +4), ``weaken`` (the other side counts amount less, never below 0)."""

ROLES: frozenset[str] = frozenset({"any", "attack", "defend"})


@dataclass(frozen=True)
class God:
    """One god card: +3 on its full side, +1 on its mono-colour side."""

    key: str
    """The pillar it guards (``"art"`` …)."""
    name: str
    title: str

    @property
    def full_name(self) -> str:
        return f"{self.name}, {self.title}"


@dataclass(frozen=True)
class Card:
    """One card of the deck: a citizen (points, serves a god) or a powerup (an effect)."""

    id: str
    """Instance id, fixed width (``"PT01"`` … ``"PT60"``): none is part of another."""
    name: str
    kind: str
    """``"citizen"`` or ``"powerup"``."""
    god: str | None
    """The god a citizen serves (its key); None for a powerup."""
    points: dict[str, int]
    """Points in each pillar (all four keys; all zero for a powerup)."""
    text: str
    """What the card does, in words."""
    key: str = ""
    """A powerup's type (``"wrath"`` …); empty for a citizen."""
    needs_favour: bool = False
    """A powerup that may be played only by a side holding a god's favour."""
    role: str = "any"
    """Which side may play a powerup: ``"any"``, ``"attack"`` or ``"defend"``."""
    effect: str = ""
    amount: int = 0
    solo_power: int = 0
    """In the solo game powerups count as citizens with this many points in every pillar."""

    @property
    def is_citizen(self) -> bool:
        return self.kind == "citizen"

    def power(self, pillar: str) -> int:
        return self.points.get(pillar, 0)

    def prompt_json(self) -> dict[str, Any]:
        """The card as a free-form card-picking prompt lists it (see the engine docstring)."""
        return {"id": self.id, "name": self.name, "kind": self.kind, "god": self.god,
                "points": dict(self.points), "text": self.text}


def _load() -> dict[str, Any]:
    raw = resources.files(__package__).joinpath("content.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(raw)
    return data


DATA: dict[str, Any] = _load()

GODS: dict[str, God] = {
    str(g["key"]): God(str(g["key"]), str(g["name"]), str(g["title"])) for g in DATA["gods"]
}
if tuple(GODS) != PILLARS:
    raise ValueError("content.json: there must be one god per pillar, in pillar order")


def _citizen_text(points: dict[str, int], god: str) -> str:
    parts = [f"{v} {PILLAR_NAMES[p]}" for p, v in points.items() if v]
    return f"Serves {GODS[god].name}. " + ", ".join(parts) + "."


def _cards() -> dict[str, Card]:
    out: dict[str, Card] = {}
    n = 0
    for c in DATA["citizens"]:
        n += 1
        pts = {p: int(c["points"].get(p, 0)) for p in PILLARS}
        god = str(c["god"])
        if god not in GODS or not any(pts.values()):
            raise ValueError(f"content.json: bad citizen {c['name']!r}")
        cid = f"PT{n:02d}"
        out[cid] = Card(cid, str(c["name"]), "citizen", god, pts, _citizen_text(pts, god))
    for p in DATA["powerups"]:
        if p["effect"] not in EFFECTS or p["role"] not in ROLES or int(p["count"]) < 1:
            raise ValueError(f"content.json: bad powerup {p['key']!r}")
        for _ in range(int(p["count"])):
            n += 1
            cid = f"PT{n:02d}"
            out[cid] = Card(cid, str(p["name"]), "powerup", None, {q: 0 for q in PILLARS},
                            str(p["text"]), key=str(p["key"]), needs_favour=bool(p["needs_favour"]),
                            role=str(p["role"]), effect=str(p["effect"]), amount=int(p["amount"]),
                            solo_power=int(p["solo_power"]))
    return out


CARDS: dict[str, Card] = _cards()
"""Instance id → card."""
DECK_IDS: tuple[str, ...] = tuple(CARDS)

BEADS_DEFAULT: int = int(DATA["beads"]["default"])
BEADS_MIN: int = int(DATA["beads"]["min"])
BEADS_MAX: int = int(DATA["beads"]["max"])
DEAL_BEADS: int = int(DATA["beads"]["deal"])
SOLO_BEADS: int = int(DATA["beads"]["solo_deal"])
DEAL_CARDS: int = int(DATA["hand"]["deal"])
HAND_LIMIT: int = int(DATA["hand"]["limit"])
SOLO_STACK: int = int(DATA["solo"]["pillar_stack"])

FAVOUR_UNCHALLENGED: int = int(DATA["favour"]["unchallenged"])
FAVOUR_STRONG: int = int(DATA["favour"]["strong"])
FAVOUR_WEAK: int = int(DATA["favour"]["weak"])
FAVOUR_WITHDRAWN: int = int(DATA["favour"]["withdrawn"])

PILLAR_STAND: int = int(DATA["pillar_stand"])
"""What a pillar card itself adds to its defence when the defender lays at least one card, with
Herald's table option ``pillar_stand`` (off by default: the rulebook gives pillar cards no
strength) and in games of rules revision 1. A surrender gets nothing."""


def card(card_id: str) -> Card:
    return CARDS[card_id]


def card_name(card_id: str) -> str:
    return CARDS[card_id].name


def god_name(key: str) -> str:
    return GODS[key].name
