"""The wooden discs and tokens of Flick of Faith (rulebook: Game components).

Each kind has its own radius (board units, see ``map``), mass and bounciness. Templars and the
Sphinx count as prophets for every rule; a temple is a giant disc that stays between
Generations; the King Ape is a big neutral disc; the Heart is Freja's light token; the Hand of
God is Dagda's backstop and cannot be moved (it is a wall, not a disc that slides).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Kind:
    """Physical and rules properties of one kind of disc."""

    name: str
    radius: float
    mass: float
    """Mass in arbitrary units; 0 means immovable (the Hand of God)."""
    elasticity: float
    """Per-disc bounciness; a pair bounces with the product of both values."""
    is_prophet: bool
    label: str
    """Short label drawn on the disc."""


KINDS: dict[str, Kind] = {
    "prophet": Kind("prophet", 1.6, 1.0, 0.95, True, ""),
    "templar": Kind("templar", 2.2, 1.8, 0.95, True, "T"),
    "sphinx": Kind("sphinx", 3.6, 4.5, 0.9, True, "S"),
    "temple": Kind("temple", 3.8, 6.0, 0.8, False, ""),
    "king_ape": Kind("king_ape", 3.6, 4.5, 0.9, False, "APE"),
    "heart": Kind("heart", 1.8, 0.6, 0.9, False, "♥"),
    "hand": Kind("hand", 3.0, 0.0, 0.05, False, "HAND"),
}

PROPHET_KINDS: tuple[str, ...] = ("prophet", "templar", "sphinx")
"""Kinds a player may flick from their supply, in the default order of choice."""
FLICKABLE: tuple[str, ...] = PROPHET_KINDS + ("heart",)

HEART_REACH = 2.0
"""Freja's Heart wins enemy prophets whose edge is within this distance of the Heart's centre."""


def radius(kind: str) -> float:
    return KINDS[kind].radius
