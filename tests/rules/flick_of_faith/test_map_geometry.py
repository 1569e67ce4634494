"""The map and the "inside or touching the border" tests (rulebook: Glossary)."""

from __future__ import annotations

import math

import pytest

from rules.flick_of_faith import aim, geometry, physics, temples
from rules.flick_of_faith import map as board
from rules.flick_of_faith.discs import KINDS

from .helpers import NORTH, E, mission


@pytest.mark.parametrize("kind", ["prophet", "templar", "sphinx", "temple"])
def test_a_disc_touching_the_island_border_is_on_the_island(kind: str) -> None:
    r = KINDS[kind].radius
    edge = NORTH.radius + r
    assert geometry.island_at(NORTH.x, NORTH.y - edge, r) == 0
    assert geometry.island_at(NORTH.x, NORTH.y - edge - 0.01, r) is None


@pytest.mark.parametrize("kind", ["prophet", "templar", "sphinx"])
def test_a_disc_touching_the_city_ring_touches_the_city(kind: str) -> None:
    r = KINDS[kind].radius
    assert geometry.city_at(NORTH.x + NORTH.city_radius + r, NORTH.y, r) == 0
    assert geometry.city_at(NORTH.x + NORTH.city_radius + r + 0.01, NORTH.y, r) is None


def test_navel_contact_depends_on_the_disc_size() -> None:
    x = board.CENTRE[0] + board.NAVEL_RADIUS + 2.0
    assert not geometry.on_navel(x, 50.0, KINDS["prophet"].radius)
    assert geometry.on_navel(x, 50.0, KINDS["templar"].radius)


def test_the_map_is_symmetric_and_islands_do_not_touch() -> None:
    for a in board.ISLANDS:
        assert math.isclose(math.hypot(a.x - 50, a.y - 50), 32.0)
        for b in board.ISLANDS:
            if a.index < b.index:
                assert math.hypot(a.x - b.x, a.y - b.y) > a.radius + b.radius + 10


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_seat_has_its_own_corner(players: int) -> None:
    corners = [board.corner_of(players, k) for k in range(players)]
    assert len(set(corners)) == players


def test_a_mid_power_flick_can_reach_a_city() -> None:
    s = mission(2)
    v = E.view(s, 0)
    origin = board.launch_spot(0)
    p = physics.power_for_distance(math.dist(origin, (NORTH.x, NORTH.y)))
    assert 4.5 <= p <= 5.5
    pred = aim.predict(v, 0, board.angle_towards(origin, (NORTH.x, NORTH.y)), p)
    assert pred.landing is not None
    assert geometry.city_at(*pred.landing, KINDS["prophet"].radius) == 0


def test_a_full_power_flick_leaves_the_map() -> None:
    v = E.view(mission(2), 0)
    for angle in (-40.0, 0.0, 40.0):
        pred = aim.predict(v, 0, angle, 10.0)
        assert pred.landing is None and pred.fell


def test_angle_zero_points_at_the_navel_and_positive_turns_clockwise() -> None:
    for corner in range(4):
        o = board.launch_spot(corner)
        assert abs(board.angle_towards(o, board.CENTRE)) < 1e-9
    # from the top-left corner, clockwise (on the image) turns towards island I at the top
    o = board.launch_spot(0)
    assert board.angle_towards(o, (NORTH.x, NORTH.y)) < 0
    assert board.angle_towards(o, (board.ISLANDS[3].x, board.ISLANDS[3].y)) > 0


def test_a_temple_place_is_given_by_clock_and_distance_and_must_lie_wholly_on_the_island() -> None:
    for i in range(4):
        isl = board.ISLANDS[i]
        assert temples.from_clock(i, 12, 5) == (isl.x, isl.y - 5)
        assert temples.from_clock(i, 3, 5) == (isl.x + 5, isl.y)
        for hour in range(1, 13):
            x, y = temples.from_clock(i, hour, temples.MAX_DISTANCE)
            assert temples.problem([], x, y, [i]) is None
            assert geometry.island_at(x, y, KINDS["temple"].radius) == i
            clock, dist = temples.to_clock(i, x, y)
            assert math.isclose(clock, hour, abs_tol=1e-3) and math.isclose(dist, temples.MAX_DISTANCE, abs_tol=0.01)
            far = temples.from_clock(i, hour, temples.MAX_DISTANCE + 0.1)
            assert "at most 10.2 from the centre" in (temples.problem([], *far, [i]) or "")
    assert "in the sea" in (temples.problem([], 50.0, 50.0, [0]) or "")
    assert "touches the city of island I" in (temples.problem([], 82.0, 50.0, [0]) or "")
