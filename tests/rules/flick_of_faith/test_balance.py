"""The authored numbers that keep one shot from deciding the game (docs/rules/flick_of_faith.md,
Balance): the straight shot at the navel is a long shot, a city is the safer target."""

from __future__ import annotations

from rules.flick_of_faith import geometry, physics
from rules.flick_of_faith import map as board
from rules.flick_of_faith.discs import KINDS

from .helpers import E, mission


def _hit_rate(angle: float, power: float, target: str, tries: int = 120, hand: str | None = None) -> float:
    """How often a fresh prophet flicked at ``angle``/``power`` on an empty map ends on the
    navel or on island I's city (the engine's own wobble, seeded); with ``hand``, Dagda flicks
    with the Hand of God beyond that target."""
    hits = 0
    for seed in range(tries):
        s = mission(2, ("dagda", "zeus"), seed=seed)
        s.rng.seed = seed
        action = {"type": "flick", "angle": angle, "power": power}
        if hand is not None:
            action["hand"] = hand
        s, _ = E.apply(s, 0, action)
        d = next((d for d in s.discs if d["owner"] == 0), None)
        r = KINDS["prophet"].radius
        if target == "navel":
            # a prophet on the navel has already scored and gone to the reserve
            hits += s.reserve[0] == 1 and d is None
        elif d is not None:
            hits += geometry.city_at(d["x"], d["y"], r) == 0
    return hits / tries


def test_the_navel_is_a_small_ring_smaller_than_a_city() -> None:
    assert board.NAVEL_RADIUS < board.CITY_RADIUS


def test_the_straight_shot_at_the_navel_misses_more_often_than_it_hits() -> None:
    start = board.launch_spot(0)
    power = round(physics.power_for_distance(geometry.navel_distance(*start)), 1)
    assert power == 6.0  # the shot players copy: /flick 0 6
    assert _hit_rate(0.0, power, "navel") < 0.5


def test_a_near_city_is_the_surer_target() -> None:
    start = board.launch_spot(0)
    city = board.ISLANDS[0]
    angle = round(board.angle_towards(start, (city.x, city.y)), 2)
    power = round(physics.power_for_distance(((city.x - start[0]) ** 2 + (city.y - start[1]) ** 2) ** 0.5), 2)
    assert _hit_rate(angle, power, "city") > 0.6


def test_the_hand_of_god_saves_an_overshoot_but_does_not_deliver_it_to_the_navel() -> None:
    # the Hand stands far enough beyond the navel that a prophet stopped by it rests just at the
    # ring: it helps Dagda a little (no disc lost past the navel), it does not make the shot sure
    plain = _hit_rate(0.0, 6.0, "navel")
    held = _hit_rate(0.0, 6.0, "navel", hand="navel")
    assert plain <= held < 0.55
