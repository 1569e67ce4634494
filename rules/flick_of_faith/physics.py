"""Top-down sliding physics for flicks, with pymunk (rulebook: Flick).

* A fresh ``pymunk.Space`` per flick, built from the stored resting positions; bodies are added
  in canonical order (by disc id); no threads; a fixed time step. The same inputs give the same
  result on the same machine, and the engine stores the result in the state anyway, so the state
  (not a re-run) is the truth.
* Sliding friction is a constant deceleration: every body is tied to the static table by a pivot
  joint with no position correction and a force limit of ``decel * mass`` — Coulomb friction,
  solved inside Chipmunk. Discs do not spin (infinite moment).
* Disc–disc collisions are elastic-ish (bounciness per pair = product of the two discs' values)
  and conserve momentum with the discs' real masses.
* A disc whose centre passes the map's edge falls off: it is taken out of the space and reported.
* ``frames`` (positions every ``frame_every`` steps) are for the animation only; they are never
  stored in the state.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

import pymunk

from . import map as board
from .discs import KINDS

DT = 1.0 / 120.0
"""Fixed time step in seconds."""
DECEL = 100.0
"""Base sliding deceleration (board units per second squared)."""
MAX_SECONDS = 8.0
ITERATIONS = 12
FULL_SLIDE = 150.0
"""How far a disc slides on an empty board at power 10 (farther than the map's diagonal)."""
POWER_EXPONENT = 1.7
CHECK_EVERY = 3
"""Steps between off-map and rest checks."""
REST_SPEED = 0.05


@dataclass(frozen=True)
class Body:
    """One disc as the physics sees it."""

    id: int
    kind: str
    x: float
    y: float
    mass_scale: float = 1.0
    """Multiplies the kind's mass (Tyr's heavy prophets)."""

    @property
    def radius(self) -> float:
        return KINDS[self.kind].radius


@dataclass
class Outcome:
    """What a flick did."""

    positions: dict[int, tuple[float, float]]
    """Resting position of every disc still on the map (rounded to 1e-4)."""
    fell: list[int]
    """Discs that left the map, in the order they fell."""
    struck: dict[int, list[int]] = field(default_factory=dict)
    """For each tracked (flicked) disc, the discs it touched, in order of first contact."""
    frames: list[list[tuple[int, float, float]]] = field(default_factory=list)
    """Positions every few steps, for animations (not stored in the state)."""
    steps: int = 0


def slide_distance(power: float) -> float:
    """Distance a disc flicked at ``power`` (1..10) slides on an empty board at base friction."""
    return float(FULL_SLIDE * (power / 10.0) ** POWER_EXPONENT)


def power_for_distance(distance: float) -> float:
    """Inverse of :func:`slide_distance` (not clamped)."""
    return float(10.0 * (max(distance, 0.0) / FULL_SLIDE) ** (1.0 / POWER_EXPONENT))


def launch_speed(power: float) -> float:
    return math.sqrt(2.0 * DECEL * slide_distance(power))


def launch_velocity(heading_deg: float, power: float) -> tuple[float, float]:
    """Velocity vector for an absolute heading (image coordinates) and a power."""
    v = launch_speed(power)
    a = math.radians(heading_deg)
    return (v * math.cos(a), v * math.sin(a))


def _r(v: float) -> float:
    return round(v, 4)


def simulate(bodies: Iterable[Body], launches: Mapping[int, tuple[float, float]], *,
             decel: float = DECEL, frame_every: int = 0, track: Iterable[int] = (),
             max_seconds: float = MAX_SECONDS, min_steps: int = 0) -> Outcome:
    """Slide the discs until everything rests (or ``max_seconds`` pass); see the module doc.

    ``launches`` maps disc ids to their launch velocities. Discs of kind ``hand`` are immovable
    walls. ``min_steps`` forces a few steps even at rest (to push apart overlapping discs).
    """
    ordered = sorted(bodies, key=lambda b: b.id)
    space = pymunk.Space(threaded=False)
    space.iterations = ITERATIONS
    space.collision_slop = 0.01
    table = space.static_body
    tracked = set(track)
    dyn: list[tuple[int, pymunk.Body]] = []
    shape_ids: dict[pymunk.Shape, int] = {}
    for b in ordered:
        kind = KINDS[b.kind]
        if kind.mass <= 0:
            shape = pymunk.Circle(table, kind.radius, (b.x, b.y))
        else:
            mass = kind.mass * b.mass_scale
            body = pymunk.Body(mass, math.inf)
            body.position = (b.x, b.y)
            if b.id in launches:
                body.velocity = launches[b.id]
            shape = pymunk.Circle(body, kind.radius)
            joint = pymunk.PivotJoint(table, body, (0.0, 0.0), (0.0, 0.0))
            joint.max_bias = 0.0
            joint.max_force = decel * mass
            space.add(body, joint)
            dyn.append((b.id, body))
        shape.elasticity = kind.elasticity
        shape.friction = 0.0
        shape.collision_type = 1 if b.id in tracked else 0
        space.add(shape)
        shape_ids[shape] = b.id

    struck: dict[int, list[int]] = {i: [] for i in sorted(tracked)}
    if tracked:
        def begin(arbiter: pymunk.Arbiter, _space: pymunk.Space, _data: object) -> None:
            a, b = arbiter.shapes
            ia, ib = shape_ids[a], shape_ids[b]
            if ia in struck and ib not in struck[ia]:
                struck[ia].append(ib)
            if ib in struck and ia not in struck[ib]:
                struck[ib].append(ia)

        space.on_collision(1, None, begin=begin)

    fell: list[int] = []
    frames: list[list[tuple[int, float, float]]] = []
    max_steps = int(max_seconds / DT)
    step = 0

    def snapshot() -> None:
        frames.append([(i, float(body.position.x), float(body.position.y)) for i, body in dyn])

    if frame_every:
        snapshot()
    while step < max_steps:
        space.step(DT)
        step += 1
        if frame_every and step % frame_every == 0:
            snapshot()
        if step % CHECK_EVERY:
            continue
        moving = False
        for i, body in list(dyn):
            x, y = body.position
            if not board_on_map(x, y):
                fell.append(i)
                space.remove(body, *body.shapes, *body.constraints)
                dyn.remove((i, body))
                continue
            vx, vy = body.velocity
            if vx * vx + vy * vy > REST_SPEED * REST_SPEED:
                moving = True
        if not moving and step >= min_steps:
            break
    if frame_every:
        snapshot()
    positions = {i: (_r(body.position.x), _r(body.position.y)) for i, body in dyn}
    for b in ordered:
        if KINDS[b.kind].mass <= 0:
            positions[b.id] = (b.x, b.y)
    return Outcome(positions, fell, struck, frames, step)


def board_on_map(x: float, y: float) -> bool:
    return 0.0 <= x <= board.SIZE and 0.0 <= y <= board.SIZE
