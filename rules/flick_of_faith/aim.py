"""The private aim preview (``/aim``): where a flick would go without finger wobble.

Pure functions of a seat's view, so a preview can never show more than the seat may see. The
Eyes Closed law forbids previews (``view["aim_preview"]`` is False): :func:`predict` then raises
:class:`~rules.engine.IllegalAction`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.engine import IllegalAction

from . import flick, laws, physics

JSON = Mapping[str, Any]
"""A seat's view (:class:`.views.View`, or the plain JSON the platform hands back)."""


@dataclass
class Prediction:
    """A wobble-free forecast of one flick."""

    path: list[tuple[float, float]]
    """The flicked disc's centre, every few steps, from start to rest (or to the edge)."""
    landing: tuple[float, float] | None
    """Where it stops, or None if it leaves the map."""
    positions: dict[int, tuple[float, float]]
    """Resting positions of every disc still on the map afterwards."""
    fell: list[int]
    plan: flick.Plan
    frames: list[list[tuple[int, float, float]]]


def plan_from_view(view: JSON, seat: int, angle: float, power: float, *, piece: str | None = None,
                   hand: str | None = None) -> flick.Plan:
    """The same physics input the engine would build for this flick, minus the wobble."""
    law_keys = [x["key"] for x in view["laws"]]
    corner = view["corners"][seat]
    if view["phase"] in ("setup_flick", "tiebreak", "gods"):
        return flick.plan([], seat=seat, corner=corner, gods=view["gods"], law_keys=[],
                          angle=angle, power=power, pieces=["prophet"], next_id=1, in_corner=[],
                          hand_target=None)
    mine = view["active"] == seat
    in_corner = list(view["in_corner"]) if mine else []
    pieces: list[str] = []
    if not in_corner:
        pieces = flick.pieces_for_flick(view["supply"][seat], piece, laws.twin(law_keys),
                                        view["turn_extra"] if mine else None) or ["prophet"]
    return flick.plan(view["discs"], seat=seat, corner=corner, gods=view["gods"],
                      law_keys=law_keys, angle=angle, power=power, pieces=pieces,
                      next_id=view["next_disc_id"], in_corner=in_corner, hand_target=hand,
                      aim_angle=angle)


def predict(view: JSON, seat: int, angle: float, power: float, *, piece: str | None = None,
            hand: str | None = None, frame_every: int = 3, enforce_law: bool = True) -> Prediction:
    """Forecast a flick by ``seat`` at ``angle``/``power`` on the board of ``view``."""
    if enforce_law and not view.get("aim_preview", True):
        raise IllegalAction("Eyes Closed is in force: no aim preview this Generation.")
    p = plan_from_view(view, seat, angle, power, piece=piece, hand=hand)
    out = physics.simulate(p.bodies, p.launches, decel=p.decel, frame_every=frame_every)
    path = [(x, y) for frame in out.frames for (i, x, y) in frame if i == p.flicked]
    landing = out.positions.get(p.flicked)
    return Prediction(path, landing, out.positions, out.fell, p, out.frames)
