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
SEARCH_DT = DT
"""Time step of the computer player's search (see :class:`Table`). The engine's own step: a
coarser one (1/60 s, half the steps, a move's search about 4 ms instead of 6) changed about one
choice in thirty on crowded boards, and four-player games hinted the search got weaker."""
DECEL = 100.0
"""Base sliding deceleration (board units per second squared)."""
MAX_SECONDS = 8.0
ITERATIONS = 12
SEARCH_ITERATIONS = 6
"""Solver iterations of the search's :class:`Table` (a lone sliding disc's friction is settled in
the first; they matter only in crowded collisions, where the search can afford to be rougher)."""
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
        space.add(shape)
        shape_ids[shape] = b.id

    struck: dict[int, list[int]] = {i: [] for i in sorted(tracked)}
    # Only a launched disc or one that has touched another can move: a resting disc that nothing
    # touches keeps velocity zero (its friction joint has no bias) and stays where it was stored.
    # The rest and edge checks below look at these "awake" discs only, which gives exactly the
    # same result as looking at all of them, for a fraction of the cost on a crowded map.
    awake: set[int] = {i for i in launches}

    def begin(arbiter: pymunk.Arbiter, _space: pymunk.Space, _data: object) -> None:
        a, b = arbiter.shapes
        ia, ib = shape_ids[a], shape_ids[b]
        awake.add(ia)
        awake.add(ib)
        if ia in struck and ib not in struck[ia]:
            struck[ia].append(ib)
        if ib in struck and ia not in struck[ib]:
            struck[ib].append(ia)

    space.on_collision(None, None, begin=begin)

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
        for i, body in [(i, body) for i, body in dyn if i in awake]:
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


class Table:
    """One board's resting discs in a space kept between simulations, for the computer player's
    search, which tries several flicks on the same board: building a pymunk space costs about as
    much as sliding a disc across it, so the search builds it once and, after each trial, puts
    the discs that moved back where they were.

    A trial's result can differ a little from :func:`simulate`'s (bodies join the space in another
    order; :data:`SEARCH_ITERATIONS` solver iterations), which is why only the search uses it:
    nothing it computes is stored or shown.
    Same board and same trials in the same order give the same results.
    """

    def __init__(self, bodies: Iterable[Body], *, decel: float = DECEL, dt: float = SEARCH_DT,
                 iterations: int = SEARCH_ITERATIONS) -> None:
        self.decel = decel
        self.dt = dt
        self.space = pymunk.Space(threaded=False)
        self.space.iterations = iterations
        self.space.collision_slop = 0.01
        self.home: dict[int, Body] = {}
        self.parts: dict[int, tuple[pymunk.Body | None, pymunk.Shape, pymunk.Constraint | None]] = {}
        self.shape_ids: dict[pymunk.Shape, int] = {}
        self.awake: set[int] = set()
        self.struck: dict[int, list[int]] = {}

        def begin(arbiter: pymunk.Arbiter, _space: pymunk.Space, _data: object) -> None:
            a, b = arbiter.shapes
            ia, ib = self.shape_ids[a], self.shape_ids[b]
            self.awake.add(ia)
            self.awake.add(ib)
            if ia in self.struck and ib not in self.struck[ia]:
                self.struck[ia].append(ib)
            if ib in self.struck and ia not in self.struck[ib]:
                self.struck[ib].append(ia)

        self.space.on_collision(None, None, begin=begin)
        for b in sorted(bodies, key=lambda b: b.id):
            self._add(b)

    def _add(self, b: Body) -> None:
        kind = KINDS[b.kind]
        body: pymunk.Body | None = None
        joint: pymunk.PivotJoint | None = None
        if kind.mass <= 0:
            shape = pymunk.Circle(self.space.static_body, kind.radius, (b.x, b.y))
            self.space.add(shape)
        else:
            mass = kind.mass * b.mass_scale
            body = pymunk.Body(mass, math.inf)
            body.position = (b.x, b.y)
            shape = pymunk.Circle(body, kind.radius)
            joint = pymunk.PivotJoint(self.space.static_body, body, (0.0, 0.0), (0.0, 0.0))
            joint.max_bias = 0.0
            joint.max_force = self.decel * mass
            self.space.add(body, shape, joint)
        shape.elasticity = kind.elasticity
        shape.friction = 0.0
        self.home[b.id] = b
        self.parts[b.id] = (body, shape, joint)
        self.shape_ids[shape] = b.id

    def _remove(self, i: int) -> None:
        body, shape, joint = self.parts.pop(i)
        del self.home[i]
        del self.shape_ids[shape]
        if shape.space is not None:  # a disc that fell off has left the space already
            self.space.remove(*(p for p in (body, shape, joint) if p is not None))

    def trial(self, bodies: Iterable[Body], launches: Mapping[int, tuple[float, float]],
              max_seconds: float = MAX_SECONDS) -> dict[int, tuple[float, float]]:
        """Where every disc rests after ``launches`` on a board of ``bodies`` (the table's discs,
        plus or minus a few, e.g. the discs placed in the corner for this flick); discs that
        fell off are absent. The table is the same afterwards as before."""
        return self.slide(bodies, launches, max_seconds=max_seconds).positions

    def slide(self, bodies: Iterable[Body], launches: Mapping[int, tuple[float, float]], *,
              track: Iterable[int] = (), max_seconds: float = MAX_SECONDS) -> Outcome:
        """:func:`simulate`'s outcome of ``launches`` on a board of ``bodies``, on this table (see
        :meth:`trial`): where the discs rest, those that fell in order, and what the ``track``ed
        discs struck (no frames)."""
        wanted = {b.id: b for b in bodies}
        stored = dict(self.home)
        for i, b in stored.items():  # discs this trial changes or does without
            if wanted.get(i) != b:
                self._remove(i)
        added = [b for i, b in sorted(wanted.items()) if self.home.get(i) != b]
        for b in added:
            self._add(b)
        self.awake = set(launches)
        self.struck = {i: [] for i in sorted(set(track))}
        for i, v in launches.items():
            body = self.parts[i][0]
            if body is not None:
                body.velocity = v
        fell: list[int] = []
        step = 0
        for step in range(1, int(max_seconds / self.dt) + 1):
            self.space.step(self.dt)
            if step % CHECK_EVERY:
                continue
            moving = False
            for i in sorted(self.awake.difference(fell)):
                body = self.parts[i][0]
                if body is None:
                    continue
                x, y = body.position
                if not board_on_map(x, y):
                    fell.append(i)
                    self.space.remove(body, *body.shapes, *body.constraints)
                    continue
                vx, vy = body.velocity
                if vx * vx + vy * vy > REST_SPEED * REST_SPEED:
                    moving = True
            if not moving:
                break
        out = {}
        for i, (body, _shape, _joint) in self.parts.items():
            if i in fell:
                continue
            if body is None:
                out[i] = (self.home[i].x, self.home[i].y)
            else:
                out[i] = (_r(body.position.x), _r(body.position.y))
        # Put the table back: the trial's own discs go, the ones it set aside return, and every
        # disc that moved is taken out and put back at home (which also drops the contacts
        # Chipmunk remembers for it, so the next trial starts as cold as a fresh space).
        for b in added:
            self._remove(b.id)
        for i in sorted(self.awake.union(fell)):
            if i in self.home:
                b = self.home[i]
                self._remove(i)
                self._add(b)
        for i, b in stored.items():
            if i not in self.home:
                self._add(b)
        return Outcome(out, fell, self.struck, [], step)
