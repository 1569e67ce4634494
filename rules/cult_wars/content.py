"""Herald's authored Cult Wars content, loaded from ``cards.json``.

The rulebook names six strategy cards and an action deck but publishes neither, so Herald authors
both (see "Herald's own content" in the rules page). This module turns the data file into typed,
read-only records: the strategy-card values, one :class:`ActionKind` per action card type and the
deck of instance ids (``AC01`` …) dealt from it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

SLOTS: tuple[str, ...] = ("attack", "defend", "sacrifice", "breed")
"""The four strategy board slots, in the order they are shown."""

SLOT_NAMES: dict[str, str] = {
    "attack": "Attack", "defend": "Defend", "sacrifice": "Sacrifice", "breed": "Breed",
}

@dataclass(frozen=True)
class ActionKind:
    """One type of action card."""

    key: str
    """Machine name, e.g. ``"pestilence"``."""
    name: str
    """Printed name."""
    count: int
    """Copies in the deck."""
    target: str
    """``"self"`` (affects the player's own cult) or ``"opponent"`` (names another cult)."""
    effect: str
    """Effect key: its rules are ``EFFECTS[effect]`` in :mod:`rules.cult_wars.effects`, which checks
    on import that every card's effect has them."""
    amount: int
    """Size of the effect (followers, VP, strength or cards)."""
    priority: int
    """Resolution band within step 4: lower bands resolve first."""
    text: str
    """Card text shown to players."""


def _load() -> dict[str, Any]:
    raw = resources.files(__package__).joinpath("cards.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(raw)
    return data


_DATA = _load()

STRATEGY_VALUES: tuple[int, ...] = tuple(int(v) for v in _DATA["strategy_cards"]["values"])
"""The six strategy-card values every cult holds."""

MAX_DEPLOY: int = sum(STRATEGY_VALUES)
"""The most followers a cult can assign in one turn (all six cards laid)."""

KINDS: tuple[ActionKind, ...] = tuple(
    ActionKind(
        key=str(c["key"]), name=str(c["name"]), count=int(c["count"]), target=str(c["target"]),
        effect=str(c["effect"]), amount=int(c["amount"]), priority=int(c["priority"]),
        text=str(c["text"]),
    )
    for c in _DATA["action_cards"]
)
KIND_BY_KEY: dict[str, ActionKind] = {k.key: k for k in KINDS}

for _k in KINDS:
    if _k.target not in ("self", "opponent") or _k.count < 1:
        raise ValueError(f"cards.json: bad action card {_k.key!r}")


def _deck_ids() -> dict[str, ActionKind]:
    out: dict[str, ActionKind] = {}
    n = 0
    for kind in KINDS:
        for _ in range(kind.count):
            n += 1
            out[f"AC{n:02d}"] = kind
    return out


CARD_KIND: dict[str, ActionKind] = _deck_ids()
"""Instance id (``"AC01"`` …) → its kind. Ids are fixed width, so none is part of another."""

DECK_IDS: tuple[str, ...] = tuple(CARD_KIND)


def kind_of(card_id: str) -> ActionKind:
    return CARD_KIND[card_id]


def card_name(card_id: str) -> str:
    return CARD_KIND[card_id].name
