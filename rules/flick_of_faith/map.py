"""The map of Flick of Faith: islands, cities, the navel, the cloud corners (rulebook: Glossary).

Board units are abstract "centimetres" on a 100 x 100 square. Coordinates follow the board image:
x grows to the right, y grows downwards, so a positive rotation is clockwise on the picture.

* Four round islands (I north, II east, III south, IV west), each with one city ring at its centre.
* The navel, a small ring at the very centre (not an island).
* A quarter-circle cloud corner in each map corner. Seats sit at corners in clockwise order;
  2 players use opposite corners, 3 players three corners, 4 players all four.
* Everything else is the sea; the cloud corners count as sea too.

Sizes are chosen so that skill matters: a mid-power flick (about 5 of 10) from a corner reaches
the nearer cities, about 6 reaches the navel, and a full-power flick on an empty board slides off
the far side of the map (see ``physics.slide_distance``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

SIZE = 100.0
"""Side of the square map."""
CENTRE = (SIZE / 2, SIZE / 2)

ISLAND_RADIUS = 14.0
CITY_RADIUS = 4.0
NAVEL_RADIUS = 2.5
"""The navel is "a small ring": smaller than a city, so the straight shot at it is a long shot
that misses more often than it hits (it was 5, and a prophet on the navel then earned 62–70% of
all VP in computer-player games; see docs/rules/flick_of_faith.md, Balance)."""
CORNER_RADIUS = 14.0
"""Radius of each quarter-circle cloud corner, centred on the map corner point."""
LAUNCH_OFFSET = 5.5
"""A new disc is placed this far from both edges, on the corner's diagonal."""


@dataclass(frozen=True)
class Island:
    """One island: a circle with its city ring at the centre."""

    index: int
    """0..3 (I, II, III, IV)."""
    name: str
    """Roman numeral shown on the board."""
    x: float
    y: float
    radius: float = ISLAND_RADIUS
    city_radius: float = CITY_RADIUS


ISLANDS: tuple[Island, ...] = (
    Island(0, "I", 50.0, 18.0),
    Island(1, "II", 82.0, 50.0),
    Island(2, "III", 50.0, 82.0),
    Island(3, "IV", 18.0, 50.0),
)

# Corner points in clockwise order as seen on the image: top-left, top-right, bottom-right,
# bottom-left.
CORNER_POINTS: tuple[tuple[float, float], ...] = (
    (0.0, 0.0), (SIZE, 0.0), (SIZE, SIZE), (0.0, SIZE),
)
CORNER_NAMES: tuple[str, ...] = ("top-left", "top-right", "bottom-right", "bottom-left")

SEAT_CORNERS: dict[int, tuple[int, ...]] = {
    2: (0, 2),
    3: (0, 1, 2),
    4: (0, 1, 2, 3),
}
"""Which corner each seat uses, by player count (seats in clockwise order)."""


def corner_of(players: int, seat: int) -> int:
    return SEAT_CORNERS[players][seat]


def launch_spot(corner: int) -> tuple[float, float]:
    """Where a new disc is placed in a corner: on the diagonal, inside the cloud."""
    cx, cy = CORNER_POINTS[corner]
    sx = LAUNCH_OFFSET if cx == 0 else SIZE - LAUNCH_OFFSET
    sy = LAUNCH_OFFSET if cy == 0 else SIZE - LAUNCH_OFFSET
    return (sx, sy)


def base_heading(origin: tuple[float, float]) -> float:
    """Heading in degrees (image coordinates) from ``origin`` straight at the navel."""
    return math.degrees(math.atan2(CENTRE[1] - origin[1], CENTRE[0] - origin[0]))


def heading(origin: tuple[float, float], angle: float) -> float:
    """Absolute heading for a player's angle: 0 = at the navel, positive = clockwise."""
    return base_heading(origin) + angle


def angle_towards(origin: tuple[float, float], target: tuple[float, float]) -> float:
    """The player's angle (relative to the navel line, in -180..180) that aims at ``target``."""
    raw = math.degrees(math.atan2(target[1] - origin[1], target[0] - origin[0])) - base_heading(origin)
    return (raw + 180.0) % 360.0 - 180.0


HAND_TARGETS: tuple[str, ...] = ("I", "II", "III", "IV", "navel")
HAND_BEYOND_CITY = 6.0
"""How far beyond a city's ring the Hand of God's centre stands (seen from Dagda's corner). A
prophet stopped dead by the Hand rests just touching the ring when it came straight on: the Hand
saves an overshoot from the sea, it does not deliver the disc (at 4, with the longer shots less
certain, Dagda won 57–82% of games)."""
HAND_BEYOND_NAVEL = 6.0
"""How far beyond the navel's ring the Hand of God's centre stands (see ``HAND_BEYOND_CITY``)."""


def hand_spot(corner: int, target: str) -> tuple[float, float]:
    """Where Dagda's Hand of God stands for ``target``: just beyond it, seen from his corner."""
    if target == "navel":
        tx, ty, reach = CENTRE[0], CENTRE[1], NAVEL_RADIUS + HAND_BEYOND_NAVEL
    else:
        isl = ISLANDS[HAND_TARGETS.index(target)]
        tx, ty, reach = isl.x, isl.y, CITY_RADIUS + HAND_BEYOND_CITY
    ox, oy = launch_spot(corner)
    d = math.hypot(tx - ox, ty - oy)
    return (round(tx + (tx - ox) / d * reach, 4), round(ty + (ty - oy) / d * reach, 4))


def describe() -> dict[str, object]:
    """The map as plain data, for views, renderers and the aim preview."""
    return {
        "size": SIZE,
        "islands": [{"name": i.name, "x": i.x, "y": i.y, "radius": i.radius,
                     "city_radius": i.city_radius} for i in ISLANDS],
        "navel": {"x": CENTRE[0], "y": CENTRE[1], "radius": NAVEL_RADIUS},
        "corner_radius": CORNER_RADIUS,
    }
