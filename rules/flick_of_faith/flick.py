"""Turning a flick action into physics input (rulebook: Flick; Mission phase).

Shared by the engine (real flicks, with finger wobble) and by the aim preview and the computer
player (no wobble), so a preview shows exactly what a wobble-free flick would do.

Angle convention: 0 points from the flicked disc straight at the navel; a positive angle turns
clockwise as seen on the board image, a negative one anticlockwise. Power runs from 1 to 10.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from . import geometry, gods, laws
from . import map as board
from .discs import KINDS, PROPHET_KINDS
from .physics import Body, launch_velocity

DiscD = dict[str, Any]

MIN_POWER = 1.0
MAX_POWER = 10.0
REFLICK_LIMIT = 10
"""The safeguard against endless re-flicks: a disc may be flicked at most this many times in one
turn. The rulebook lets a player flick a disc that has not left their corner again, as often as
they like; a disc still in the corner after this many flicks stays where it lies, exactly as if
its owner had chosen not to flick it again."""
WOBBLE_ANGLE = (0.5, 0.28)
"""Standard deviation of the angle error in degrees: base + per point of power."""
WOBBLE_POWER = (0.02, 0.008)
"""Relative standard deviation of the power error: base + per point of power. A slide's length
grows with power to the 1.7th, so a long shot's length is much less certain than a short one's
(at power 6, the navel's distance, about ±12%: was ±7% with (0.012, 0.005))."""
HAND_ID = -1
TYR_MASS = gods.TYR_MASS
TYR_MASS_TWO_PLAYERS = gods.TYR_MASS_TWO_PLAYERS


def wobble_sd(power: float, law_keys: Sequence[str]) -> tuple[float, float]:
    """(angle sd in degrees, relative power sd) for a flick at ``power``: grows with power."""
    f = laws.wobble_factor(law_keys)
    return ((WOBBLE_ANGLE[0] + WOBBLE_ANGLE[1] * power) * f,
            (WOBBLE_POWER[0] + WOBBLE_POWER[1] * power) * f)


def mass_scale(kind: str, owner: int | None, seat_gods: Sequence[str | None]) -> float:
    """How heavy a disc is against the usual: its owner's god's ``mass`` for a prophet-kind disc
    (Tyr's, templars and Sphinx too, ``TYR_MASS`` times the usual, ``TYR_MASS_TWO_PLAYERS`` with
    two players), else 1 (``seat_gods`` has one entry per seat)."""
    if owner is not None and kind in PROPHET_KINDS:
        many, two = gods.rule(seat_gods[owner]).mass
        return two if len(seat_gods) == 2 else many
    return 1.0


def bodies_of(discs: Sequence[DiscD], seat_gods: Sequence[str | None]) -> list[Body]:
    return [Body(d["id"], d["kind"], d["x"], d["y"], mass_scale(d["kind"], d["owner"], seat_gods))
            for d in discs]


def default_piece(supply: Mapping[str, int]) -> str | None:
    for k in PROPHET_KINDS:
        if supply.get(k, 0) > 0:
            return k
    return None


def free_spot(discs: Sequence[DiscD], corner: int, r: float) -> tuple[float, float]:
    """The launch spot, or the nearest place inside the corner where a disc of radius r fits."""
    cx, cy = board.CORNER_POINTS[corner]
    # (a disc that overlaps a place inside the corner lies within the corner's reach)
    near = [d for d in discs
            if math.hypot(d["x"] - cx, d["y"] - cy) < board.CORNER_RADIUS + KINDS[d["kind"]].radius + 1.0]
    for x, y in _spots(corner):
        if not (r <= x <= board.SIZE - r and r <= y <= board.SIZE - r):
            continue
        if math.hypot(x - cx, y - cy) + r > board.CORNER_RADIUS:
            continue
        if all(not geometry.overlaps(x, y, r, d["x"], d["y"], KINDS[d["kind"]].radius) for d in near):
            return (round(x, 4), round(y, 4))
    return board.launch_spot(corner)


@functools.cache
def _spots(corner: int) -> tuple[tuple[float, float], ...]:
    """The places :func:`free_spot` tries, nearest the launch spot first (the same every time)."""
    sx, sy = board.launch_spot(corner)
    candidates = [(sx, sy)]
    for i in range(-6, 7):
        for j in range(-6, 7):
            candidates.append((sx + i * 1.0, sy + j * 1.0))
    candidates.sort(key=lambda p: (math.hypot(p[0] - sx, p[1] - sy), p[0], p[1]))
    return tuple(candidates)


@dataclass
class Plan:
    """Everything the physics needs for one flick, plus what the engine must record."""

    bodies: list[Body]
    launches: dict[int, tuple[float, float]]
    placed: list[DiscD]
    """New discs put in the corner for this flick (already included in ``bodies``)."""
    flicked: int
    heading: float
    decel: float
    hand: tuple[float, float] | None


def plan(discs: Sequence[DiscD], *, seat: int, corner: int, gods: Sequence[str | None],
         law_keys: Sequence[str], angle: float, power: float, pieces: Sequence[str],
         next_id: int, in_corner: Sequence[int], hand_target: str | None,
         aim_angle: float | None = None) -> Plan:
    """Build the physics input for a flick by ``seat``.

    ``pieces`` are the new discs to place in the corner (one, or two under Twin Flight: the rear
    one is flicked into the front one); when empty, the first disc of ``in_corner`` is flicked
    again from where it lies. ``angle``/``power`` are the values after wobble; ``aim_angle`` is
    the intended angle (used to line up the front disc of a pair).
    """
    all_discs = [dict(d) for d in discs]
    placed: list[DiscD] = []
    if pieces:
        r0 = KINDS[pieces[0]].radius
        x0, y0 = free_spot(all_discs, corner, r0)
        rear = {"id": next_id, "kind": pieces[0], "owner": seat, "x": x0, "y": y0}
        placed.append(rear)
        all_discs.append(rear)
        flicked = next_id
        origin = (x0, y0)
        if len(pieces) > 1:
            intended = board.heading(origin, aim_angle if aim_angle is not None else angle)
            gap = r0 + KINDS[pieces[1]].radius + 0.05
            a = math.radians(intended)
            front = {"id": next_id + 1, "kind": pieces[1], "owner": seat,
                     "x": round(x0 + gap * math.cos(a), 4), "y": round(y0 + gap * math.sin(a), 4)}
            placed.append(front)
            all_discs.append(front)
    else:
        flicked = in_corner[0]
        d0 = next(d for d in all_discs if d["id"] == flicked)
        origin = (d0["x"], d0["y"])
    head = board.heading(origin, angle)
    bodies = bodies_of(all_discs, gods)
    hand = None
    if hand_target is not None:
        hand = board.hand_spot(corner, hand_target)
        bodies.append(Body(HAND_ID, "hand", hand[0], hand[1]))
    return Plan(bodies, {flicked: launch_velocity(head, power)}, placed, flicked, head,
                laws.decel(law_keys), hand)


def pieces_for_flick(supply: Mapping[str, int], piece: str | None, twin: bool,
                     extra: str | None = None) -> list[str]:
    """Which new discs a fresh flick places (before checking the choice is allowed).

    ``extra`` is a piece returned to the corner by Anubis's power; otherwise ``piece`` (or the
    default prophet kind) is taken from the supply, plus a second one under Twin Flight.
    """
    if extra is not None:
        return [extra]
    if piece == "heart":
        return ["heart"]
    first = piece or default_piece(supply)
    if first is None:
        return []
    out = [first]
    if twin:
        rest = dict(supply)
        rest[first] = rest.get(first, 0) - 1
        second = default_piece(rest)
        if second is not None:
            out.append(second)
    return out


def resimulate_input(data: Mapping[str, Any]) -> tuple[list[Body], dict[int, tuple[float, float]], float]:
    """Physics input from a flick event's ``data`` (for animations)."""
    bodies = [Body(int(b["id"]), str(b["kind"]), float(b["x"]), float(b["y"]),
                   float(b.get("mass_scale", 1.0))) for b in data["bodies"]]
    launches = {int(k): (float(v[0]), float(v[1])) for k, v in data["launches"].items()}
    return bodies, launches, float(data["decel"])


def event_data(plan_: Plan, before: Sequence[DiscD], seat: int | None) -> dict[str, Any]:
    """What an animation needs to replay a flick: the bodies, the launch velocities, friction."""
    owners = {d["id"]: d["owner"] for d in list(before) + plan_.placed}
    return {
        "seat": seat,
        "bodies": [{"id": b.id, "kind": b.kind, "owner": owners.get(b.id), "x": b.x, "y": b.y,
                    "mass_scale": b.mass_scale} for b in plan_.bodies],
        "launches": {str(k): [v[0], v[1]] for k, v in plan_.launches.items()},
        "decel": plan_.decel,
        "flicked": [plan_.flicked],
    }
