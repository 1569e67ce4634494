"""Where a disc is: the rulebook's "inside or touching the border" tests (Glossary: Presence).

A disc counts as on an island, a city, the navel or a cloud corner when any part of it is inside
that area's outline or touches it: the distance between centres is at most the sum of the two
radii. So a big disc (a temple, the Sphinx) reaches an island from farther out than a prophet.
A disc has left the map when its centre is beyond the map's edge (it would tip over and fall).
"""

from __future__ import annotations

import math

from . import map as board

EPS = 1e-9


def touches(x: float, y: float, r: float, cx: float, cy: float, area_r: float) -> bool:
    """True if a disc at (x, y) of radius r is inside or touching a circle (cx, cy, area_r)."""
    return math.hypot(x - cx, y - cy) <= area_r + r + EPS


def on_map(x: float, y: float) -> bool:
    return 0.0 <= x <= board.SIZE and 0.0 <= y <= board.SIZE


def island_at(x: float, y: float, r: float, shrink: float = 0.0) -> int | None:
    """The island the disc is on (inside or touching its border), or None if in the sea.

    ``shrink`` narrows every island (the Flood law).
    """
    for isl in board.ISLANDS:
        if touches(x, y, r, isl.x, isl.y, isl.radius - shrink):
            return isl.index
    return None


def city_at(x: float, y: float, r: float) -> int | None:
    """The island whose city the disc touches, or None."""
    for isl in board.ISLANDS:
        if touches(x, y, r, isl.x, isl.y, isl.city_radius):
            return isl.index
    return None


def on_navel(x: float, y: float, r: float) -> bool:
    return touches(x, y, r, board.CENTRE[0], board.CENTRE[1], board.NAVEL_RADIUS)


def in_corner(x: float, y: float, r: float, corner: int) -> bool:
    """True while the disc is inside or touching the cloud corner (so it may be flicked again)."""
    cx, cy = board.CORNER_POINTS[corner]
    return touches(x, y, r, cx, cy, board.CORNER_RADIUS)


def navel_distance(x: float, y: float) -> float:
    return math.hypot(x - board.CENTRE[0], y - board.CENTRE[1])


def overlaps(x1: float, y1: float, r1: float, x2: float, y2: float, r2: float) -> bool:
    """Two discs overlap (strictly; resting contact is not an overlap)."""
    return math.hypot(x1 - x2, y1 - y2) < r1 + r2 - 1e-6
