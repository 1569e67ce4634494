"""Where a temple may stand (rulebook: Mission a, "places one of their Temples anywhere on that
Island").

A temple goes to a position the player gives, on a grid of a hundredth of a unit (far finer than
a disc can be aimed). Herald reads "anywhere on that island" as:

* **on the island**: the whole temple lies on it, so its centre is at most
  ``ISLAND_RADIUS - temple radius`` (10.2) from the island's centre;
* **on free ground**: it may not overlap any disc on the map (the prophet that becomes the
  temple has already left). Only when no free place is left anywhere on that island may it go
  anywhere on the island, and discs in the way are pushed aside.

Players describe a place by the island, a clock direction as seen on the board picture (12 up,
3 right, 6 down, 9 left; decimals allowed) and a distance from the island's centre (the city);
:func:`from_clock` turns that into board coordinates and :func:`describe` turns it back.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from . import geometry
from . import map as board
from .discs import KINDS

DiscD = Mapping[str, Any]
"""A disc as the state or a view holds it (read only here)."""

GRID = 0.01
"""Temple positions are rounded to this many board units."""
RADIUS = KINDS["temple"].radius
MAX_DISTANCE = round(board.ISLAND_RADIUS - RADIUS, 4)
"""The farthest a temple's centre may be from its island's centre (the whole temple on land)."""
SEARCH_STEP = 0.5
"""Spacing of the points tried when looking for any free place on an island."""


def snap(v: float) -> float:
    """A coordinate on the placement grid."""
    return round(round(v / GRID) * GRID, 4)


def nearest_island(x: float, y: float) -> tuple[int, float]:
    """The island whose centre is nearest to (x, y), and that distance."""
    best = min(board.ISLANDS, key=lambda i: math.hypot(x - i.x, y - i.y))
    return best.index, math.hypot(x - best.x, y - best.y)


def from_clock(island: int, clock: float, distance: float) -> tuple[float, float]:
    """Board coordinates of the point ``distance`` from island's centre towards ``clock`` (12 is
    up on the board picture, 3 right), snapped to the grid."""
    isl = board.ISLANDS[island]
    a = math.radians(clock * 30.0 - 90.0)
    return snap(isl.x + distance * math.cos(a)), snap(isl.y + distance * math.sin(a))


def to_clock(island: int, x: float, y: float) -> tuple[float, float]:
    """(clock 0 < c <= 12, distance) of (x, y) seen from the island's centre."""
    isl = board.ISLANDS[island]
    dist = math.hypot(x - isl.x, y - isl.y)
    clock = (math.degrees(math.atan2(y - isl.y, x - isl.x)) + 90.0) / 30.0 % 12.0
    return (clock if clock > 1e-9 else 12.0), dist


def describe(island: int, x: float, y: float) -> str:
    """A place in words, e.g. "island II, 3 o'clock, 6.0 from the city"."""
    clock, dist = to_clock(island, x, y)
    name = board.ISLANDS[island].name
    if dist < 0.05:
        return f"island {name}, on the city"
    # to a tenth, halves up (a place snapped to the grid is a hair off what the player typed)
    hour = f"{math.floor(clock * 10 + 0.5 + 1e-6) / 10:.1f}".removesuffix(".0")
    return f"island {name}, {hour} o'clock, {math.floor(dist * 10 + 0.5 + 1e-6) / 10:.1f} from the city"


def blockers(discs: Sequence[DiscD], x: float, y: float, exclude: int | None = None) -> list[DiscD]:
    """Discs a temple at (x, y) would overlap (resting contact is fine)."""
    return [d for d in discs if d["id"] != exclude
            and geometry.overlaps(x, y, RADIUS, d["x"], d["y"], KINDS[d["kind"]].radius)]


def free_points(discs: Sequence[DiscD], island: int, exclude: int | None = None,
                step: float = SEARCH_STEP) -> list[tuple[float, float]]:
    """Free places on the island, on a square lattice of ``step`` (for the fallback rule and for
    the computer player)."""
    return list(_free(discs, island, exclude, step))


def _free(discs: Sequence[DiscD], island: int, exclude: int | None,
          step: float) -> Iterator[tuple[float, float]]:
    isl = board.ISLANDS[island]
    n = int(MAX_DISTANCE / step)
    near = [(d["x"], d["y"], RADIUS + KINDS[d["kind"]].radius - 1e-6)
            for d in discs if d["id"] != exclude
            and math.hypot(d["x"] - isl.x, d["y"] - isl.y) < board.ISLAND_RADIUS + 6.0]
    for i in range(-n, n + 1):
        for j in range(-n, n + 1):
            dx, dy = i * step, j * step
            if math.hypot(dx, dy) > MAX_DISTANCE + 1e-9:
                continue
            px, py = isl.x + dx, isl.y + dy
            # (:func:`geometry.overlaps`, the same sums, with the island's discs read once)
            if not any(math.hypot(px - x, py - y) < reach for x, y, reach in near):
                yield snap(px), snap(py)


def has_free_place(discs: Sequence[DiscD], island: int, exclude: int | None = None) -> bool:
    """Whether a temple has a free place on the island (the first one found is enough)."""
    return next(_free(discs, island, exclude, SEARCH_STEP), None) is not None


def choose_prophet(options: Sequence[dict[str, Any]], island: int) -> dict[str, Any]:
    """Which prophet becomes the temple when the player names none: the one on that island's
    city, else (Zeus) the first that may build there, else the first (refused with the reason).
    ``options`` are the build prompt's ``prophets``."""
    return next((o for o in options if o["city"] == island),
                next((o for o in options if island in o["islands"]), options[0]))


def problem(discs: Sequence[DiscD], x: float, y: float, allowed: Sequence[int],
            exclude: int | None = None, names: Sequence[str] | None = None) -> str | None:
    """Why a temple cannot stand at (x, y), in one sentence; None when it can.

    ``allowed`` are the islands the builder may use; ``exclude`` is the prophet that becomes the
    temple (already leaving); ``names`` names the seats in the message (default P1, P2, …)."""
    island, dist = nearest_island(x, y)
    name = board.ISLANDS[island].name
    if dist > MAX_DISTANCE + 1e-6:
        where = "in the sea" if geometry.island_at(x, y, 0.0) is None else "too close to the shore"
        return (f"that place is {where}: it is {dist:.1f} from the centre of island {name}, and a "
                f"temple must lie wholly on its island, at most {MAX_DISTANCE:g} from the centre.")
    if island not in allowed:
        ok = " or ".join(board.ISLANDS[i].name for i in allowed)
        return (f"that place is on island {name}, but your prophet touches the city of island {ok}: "
                f"build there (Zeus alone may build on any island).")
    hit = blockers(discs, x, y, exclude)
    if hit and has_free_place(discs, island, exclude):
        d = hit[0]
        who = ("the " if d["owner"] is None else
               (names[d["owner"]] if names else f"P{d['owner'] + 1}") + "'s ")
        return (f"that place on island {name} would overlap {who}{d['kind'].replace('_', ' ')}: a "
                "temple needs free ground (the placement preview shows what is there).")
    return None
