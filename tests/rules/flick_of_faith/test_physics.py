"""Physics: determinism, friction, momentum, falling off the map (rulebook: Flick)."""

from __future__ import annotations

import json
import math
import subprocess
import sys

from rules.flick_of_faith import physics
from rules.flick_of_faith.physics import Body

SCRIPT = """
import json
from rules.flick_of_faith import physics
from rules.flick_of_faith.physics import Body
bodies = [Body(i, k, x, y) for i, k, x, y in json.loads({bodies!r})]
out = physics.simulate(bodies, {{1: physics.launch_velocity(44.0, 8.5)}}, track=[1])
print(json.dumps({{"p": {{str(k): v for k, v in out.positions.items()}}, "f": out.fell, "s": out.steps}}))
"""


def _crowd() -> list[tuple[int, str, float, float]]:
    out = [(1, "prophet", 5.5, 5.5)]
    kinds = ["prophet", "templar", "temple", "sphinx", "king_ape"]
    for i in range(2, 41):
        out.append((i, kinds[i % 5], 15.0 + (i * 37) % 70, 15.0 + (i * 53) % 70))
    return out


def _run_here(crowd: list[tuple[int, str, float, float]]) -> dict[str, object]:
    bodies = [Body(i, k, x, y) for i, k, x, y in crowd]
    out = physics.simulate(bodies, {1: physics.launch_velocity(44.0, 8.5)}, track=[1])
    board: dict[str, object] = json.loads(json.dumps({"p": {str(k): v for k, v in out.positions.items()},
                                                      "f": out.fell, "s": out.steps}))
    return board


def test_a_flick_gives_the_same_board_in_another_process() -> None:
    crowd = _crowd()
    code = SCRIPT.format(bodies=json.dumps(crowd))
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(res.stdout) == _run_here(crowd)


def test_a_flick_gives_the_same_board_twice_in_one_process() -> None:
    assert _run_here(_crowd()) == _run_here(_crowd())


def test_friction_is_a_constant_deceleration() -> None:
    for power in (2.0, 5.0, 7.0):
        out = physics.simulate([Body(1, "prophet", 5.0, 50.0)], {1: physics.launch_velocity(0.0, power)})
        travelled = out.positions[1][0] - 5.0
        assert math.isclose(travelled, physics.slide_distance(power), rel_tol=0.03, abs_tol=0.3)
        assert abs(out.positions[1][1] - 50.0) < 1e-6


def test_higher_friction_stops_sooner() -> None:
    v = {1: physics.launch_velocity(0.0, 6.0)}
    near = physics.simulate([Body(1, "prophet", 5.0, 50.0)], v, decel=physics.DECEL * 1.4).positions[1][0]
    far = physics.simulate([Body(1, "prophet", 5.0, 50.0)], v, decel=physics.DECEL * 0.7).positions[1][0]
    assert far > near + 10


def test_collisions_conserve_momentum_with_real_masses() -> None:
    # No friction: the centre of mass must move in a straight line at constant speed.
    bodies = [Body(1, "prophet", 20.0, 50.0), Body(2, "temple", 35.0, 50.5)]
    v0 = (60.0, 0.0)
    out = physics.simulate(bodies, {1: v0}, decel=0.0, max_seconds=0.5)
    m1, m2 = 1.0, 6.0
    t = out.steps * physics.DT
    com_x = (m1 * out.positions[1][0] + m2 * out.positions[2][0]) / (m1 + m2)
    expected = (m1 * 20.0 + m2 * 35.0) / (m1 + m2) + m1 * v0[0] / (m1 + m2) * t
    assert math.isclose(com_x, expected, abs_tol=0.05)
    assert out.positions[2][0] > 35.5  # the temple was pushed
    assert out.positions[1][0] < out.positions[2][0]


def test_a_light_disc_bounces_back_off_a_heavy_one() -> None:
    bodies = [Body(1, "prophet", 30.0, 50.0), Body(2, "temple", 45.0, 50.0)]
    out = physics.simulate(bodies, {1: (80.0, 0.0)})
    assert out.positions[1][0] < 45.0 - 3.8 - 1.6
    assert out.positions[2][0] > 45.0


def test_heavier_bodies_shove_further() -> None:
    def push(scale: float) -> float:
        bodies = [Body(1, "prophet", 30.0, 50.0, scale), Body(2, "prophet", 40.0, 50.0)]
        return physics.simulate(bodies, {1: (60.0, 0.0)}).positions[2][0]

    assert push(2.0) > push(1.0) + 2


def test_a_disc_pushed_off_the_map_leaves_it() -> None:
    bodies = [Body(1, "prophet", 80.0, 50.0), Body(2, "prophet", 95.0, 50.0)]
    out = physics.simulate(bodies, {1: physics.launch_velocity(0.0, 7.0)}, track=[1])
    assert 2 in out.fell
    assert 2 not in out.positions
    assert out.struck[1] == [2]


def test_the_hand_of_god_is_an_immovable_backstop() -> None:
    bodies = [Body(1, "prophet", 10.0, 50.0), Body(-1, "hand", 40.0, 50.0)]
    out = physics.simulate(bodies, {1: physics.launch_velocity(0.0, 10.0)})
    assert out.positions[-1] == (40.0, 50.0)
    assert out.positions[1][0] < 40.0


def test_frames_are_recorded_for_the_animation() -> None:
    out = physics.simulate([Body(1, "prophet", 5.0, 50.0)], {1: physics.launch_velocity(0.0, 5.0)}, frame_every=4)
    assert len(out.frames) >= out.steps // 4
    xs = [f[0][1] for f in out.frames]
    assert xs == sorted(xs)


def test_power_and_distance_are_inverse() -> None:
    for p in (1.0, 3.3, 7.25, 10.0):
        assert math.isclose(physics.power_for_distance(physics.slide_distance(p)), p)


def test_a_kept_table_slides_as_a_fresh_space_does_and_is_left_as_it_was() -> None:
    """The search's samples slide on a table kept between flicks (:meth:`physics.Table.slide`):
    what falls, what the flicked disc strikes and where the discs rest are a fresh space's, and
    after a slide the table is as before, so the next slide starts from the same board."""
    scenes = [
        ([Body(1, "prophet", 80.0, 50.0), Body(2, "prophet", 95.0, 50.0), Body(3, "temple", 50.0, 20.0)],
         {1: physics.launch_velocity(0.0, 7.0)}),
        ([Body(1, "prophet", 30.0, 50.0), Body(2, "temple", 45.0, 50.0), Body(-1, "hand", 60.0, 70.0)],
         {1: (80.0, 0.0)}),
        ([Body(1, "prophet", 10.0, 50.0), Body(-1, "hand", 40.0, 50.0)],
         {1: physics.launch_velocity(0.0, 10.0)}),
    ]
    for bodies, launches in scenes:
        fresh = physics.simulate(bodies, launches, track=[1])
        table = physics.Table(bodies)
        for _ in range(2):
            kept = table.slide(bodies, launches, track=[1])
            assert kept.fell == fresh.fell and kept.struck == fresh.struck
            assert set(kept.positions) == set(fresh.positions)
            for i, (x, y) in fresh.positions.items():
                assert math.dist(kept.positions[i], (x, y)) < 0.05
            assert table.home == {b.id: b for b in bodies}


def test_a_kept_table_takes_the_discs_a_flick_adds_and_moves() -> None:
    """A sample's later flicks meet a board that earlier flicks changed: the table slides the
    board it is given (discs added, moved or gone), as a fresh table of that board would, and
    then holds its own board again."""
    first = [Body(i, "prophet", 20.0 + 7.0 * i, 40.0 + 3.0 * (i % 3)) for i in range(1, 8)]
    table = physics.Table(first)
    table.slide(first, {1: physics.launch_velocity(10.0, 6.0)}, track=[1])
    later = [Body(b.id, b.kind, b.x, b.y + 9.0) if b.id % 2 else b for b in first[1:]]
    later.append(Body(20, "templar", 6.0, 6.0))
    launches = {20: physics.launch_velocity(40.0, 7.5)}
    got = table.slide(later, launches, track=[20])
    want = physics.Table(later).slide(later, launches, track=[20])
    assert got.positions == want.positions and got.fell == want.fell and got.struck == want.struck
    assert table.home == {b.id: b for b in first}
