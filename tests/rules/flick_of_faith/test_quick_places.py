"""The quick place finders (issue 29: the search asks them on every sampled step) answer exactly
what a plain scan of every place against every disc answers: the launch spot in a corner, and
whether an island has a free place for a temple."""

from __future__ import annotations

import math
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.flick_of_faith import flick, geometry, temples
from rules.flick_of_faith import map as board
from rules.flick_of_faith.discs import KINDS

KIND_NAMES = sorted(k for k, v in KINDS.items() if v.radius > 0)


def _plain_spot(discs: list[dict[str, Any]], corner: int, r: float) -> tuple[float, float]:
    sx, sy = board.launch_spot(corner)
    cx, cy = board.CORNER_POINTS[corner]
    places = sorted([(sx, sy)] + [(sx + i, sy + j) for i in range(-6, 7) for j in range(-6, 7)],
                    key=lambda p: (math.hypot(p[0] - sx, p[1] - sy), p[0], p[1]))
    for x, y in places:
        if (r <= x <= board.SIZE - r and r <= y <= board.SIZE - r
                and math.hypot(x - cx, y - cy) + r <= board.CORNER_RADIUS
                and not any(geometry.overlaps(x, y, r, d["x"], d["y"], KINDS[d["kind"]].radius)
                            for d in discs)):
            return (round(x, 4), round(y, 4))
    return (sx, sy)


def _plain_free(discs: list[dict[str, Any]], island: int, exclude: int | None) -> bool:
    isl = board.ISLANDS[island]
    n = int(temples.MAX_DISTANCE / temples.SEARCH_STEP)
    steps = [k * temples.SEARCH_STEP for k in range(-n, n + 1)]
    return any(math.hypot(dx, dy) <= temples.MAX_DISTANCE + 1e-9
               and not any(d["id"] != exclude and geometry.overlaps(
                   isl.x + dx, isl.y + dy, temples.RADIUS, d["x"], d["y"], KINDS[d["kind"]].radius)
                   for d in discs)
               for dx in steps for dy in steps)


def _discs(near: tuple[float, float], spread: float) -> Any:
    disc = st.tuples(st.sampled_from(KIND_NAMES), st.floats(-spread, spread),
                     st.floats(-spread, spread))
    return st.lists(disc, max_size=40).map(lambda ds: [
        {"id": i + 1, "kind": k, "owner": i % 4, "x": near[0] + dx, "y": near[1] + dy}
        for i, (k, dx, dy) in enumerate(ds)])


def _crowd(near: tuple[float, float]) -> Any:
    """Discs on a lattice over the island, some missing: often no free place is left."""
    spot = st.tuples(st.booleans(), st.sampled_from(KIND_NAMES), st.floats(-1.5, 1.5),
                     st.floats(-1.5, 1.5))
    return st.lists(spot, min_size=25, max_size=25).map(lambda ps: [
        {"id": n + 1, "kind": k, "owner": n % 4, "x": near[0] + (n % 5 - 2) * 5.5 + dx,
         "y": near[1] + (n // 5 - 2) * 5.5 + dy}
        for n, (present, k, dx, dy) in enumerate(ps) if present])


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 3), st.data())
def test_the_launch_spot_is_the_plain_scans(corner: int, data: st.DataObject) -> None:
    discs = data.draw(_discs(board.launch_spot(corner), 9.0))
    r = data.draw(st.sampled_from([KINDS[k].radius for k in KIND_NAMES]))
    assert flick.free_spot(discs, corner, r) == _plain_spot(discs, corner, r)


@settings(max_examples=80, deadline=None)
@given(st.integers(0, len(board.ISLANDS) - 1), st.data())
def test_a_free_temple_place_is_found_exactly_when_the_plain_scan_finds_one(
        island: int, data: st.DataObject) -> None:
    isl = board.ISLANDS[island]
    discs = data.draw(st.one_of(_discs((isl.x, isl.y), board.ISLAND_RADIUS + 4.0),
                                _crowd((isl.x, isl.y))))
    exclude = data.draw(st.sampled_from([None, 1, 2]))
    assert temples.has_free_place(discs, island, exclude) == _plain_free(discs, island, exclude)
    found = temples.free_points(discs, island, exclude)
    assert bool(found) == _plain_free(discs, island, exclude)
