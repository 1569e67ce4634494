"""Each of the 20 laws (laws.json)."""

from __future__ import annotations

import pytest

from rules.engine import Event, IllegalAction, Story
from rules.flick_of_faith import aim, geometry, laws, scoring
from rules.flick_of_faith import map as board
from rules.flick_of_faith.discs import KINDS
from rules.flick_of_faith.state import FlickState

from .helpers import NORTH, E, mission, on_island, put


def _enter(s: FlickState, key: str) -> tuple[FlickState, list[Event]]:
    """Put ``key`` up for a vote and vote it in unanimously."""
    s.phase, s.active, s.stage = "council", None, ""
    other = next(k for k in laws.BY_KEY if k != key)
    s.council = [key, other]
    ev: list[Event] = []
    for seat in range(s.players):
        s, ev = E.apply(s, seat, {"type": "vote", "thumb": "up"})
    return s, ev


def _end_turn(s: FlickState) -> tuple[FlickState, list[Event]]:
    assert s.active is not None
    s.stage = "build"
    return E.apply(s, s.active, {"type": "build_done"})


def test_there_are_twenty_laws_with_durations() -> None:
    assert len(laws.LAWS) == 20
    assert {x.duration for x in laws.LAWS} == {"generation", "game", "instant"}


def test_generation_laws_leave_at_worship_and_game_laws_stay() -> None:
    s = mission(2, ("zeus", "ra"), laws=("still_waters", "king_ape", "tithe"))
    s.supply = [{}, {}]
    s, _ = _end_turn(s)
    assert s.laws == ["king_ape"]


def test_king_ape_stands_on_the_navel_and_silences_the_island_it_touches() -> None:
    s = mission(2, ("zeus", "ra"))
    s, _ = _enter(s, "king_ape")
    ape = next(d for d in s.discs if d["kind"] == "king_ape")
    assert (ape["x"], ape["y"]) == board.CENTRE
    on_island(s, 0, 0)
    ape["x"], ape["y"] = NORTH.x, NORTH.y
    assert scoring.worship(s.discs, 2, s.laws, s.gods)[0]["vp"] == 0
    assert scoring.worship(s.discs, 2, [], s.gods)[0]["vp"] == 3


def test_tornado_blows_away_the_prophets_of_one_island_before_worship() -> None:
    s = mission(2, ("zeus", "ra"), laws=("tornado",))
    for i in range(4):
        on_island(s, i, 0)
    s.supply = [{}, {}]
    s, ev = _end_turn(s)
    assert any("Tornado strikes" in e.text for e in ev)
    assert s.last_worship is not None and len(s.last_worship[0]["presence"]) == 3


def test_templars_join_every_players_prophets() -> None:
    s = mission(2, ("zeus", "ra"))
    s, _ = _enter(s, "templars")
    assert s.pool[0]["templar"] == 2 and s.supply[1]["templar"] == 2
    assert s.active is not None
    s, _ = E.apply(s, s.active, {"type": "flick", "angle": 0, "power": 3, "piece": "templar"})
    assert any(d["kind"] == "templar" for d in s.discs)


def test_kraken_drags_sea_prophets_under_at_the_end_of_each_turn() -> None:
    s = mission(2, ("zeus", "ra"), laws=("kraken",))
    sea = put(s, "prophet", 1, 30.0, 30.0)
    land = on_island(s, 0, 1)[0]
    navel = put(s, "temple", 1, NORTH.x, NORTH.y)
    s, _ = _end_turn(s)
    ids = [d["id"] for d in s.discs]
    assert sea not in ids and land in ids and navel in ids


def test_grand_tour_rewards_presence_on_three_islands() -> None:
    s = mission(2, ("zeus", "ra"))
    for i in range(3):
        on_island(s, i, 0)
    assert scoring.worship(s.discs, 2, ["grand_tour"], s.gods)[0]["vp"] == 3 + 6 + 3
    assert scoring.worship(s.discs, 2, [], s.gods)[0]["vp"] == 3 + 6


def test_twin_flight_places_two_prophets_and_flicks_the_rear_one() -> None:
    s = mission(2, ("zeus", "ra"), laws=("twin_flight",))
    v = E.view(s, 0)
    pred = aim.predict(v, 0, 0.0, 5.0)
    assert len(pred.plan.placed) == 2
    s, _ = E.apply(s, 0, {"type": "flick", "angle": -29, "power": 6})
    assert s.supply[0]["prophet"] == 3
    assert s.next_id == 3


def test_eyes_closed_hides_the_preview_and_doubles_the_wobble() -> None:
    s = mission(2, ("zeus", "ra"), laws=("eyes_closed",))
    v = E.view(s, 0)
    assert v["aim_preview"] is False and v["wobble_factor"] == 2.5
    with pytest.raises(IllegalAction, match="Eyes Closed"):
        aim.predict(v, 0, 0.0, 5.0)


def test_weak_hand_doubles_the_wobble() -> None:
    s = mission(2, ("zeus", "ra"), laws=("weak_hand",))
    assert E.view(s, 0)["wobble_factor"] == 2.0 and E.view(s, 0)["aim_preview"]


@pytest.mark.parametrize(("key", "further"), [("still_waters", True), ("sticky_sands", False)])
def test_friction_laws_change_how_far_a_flick_slides(key: str, further: bool) -> None:
    plain = aim.predict(E.view(mission(2), 0), 0, 0.0, 4.0).landing
    changed = aim.predict(E.view(mission(2, laws=(key,)), 0), 0, 0.0, 4.0).landing
    assert plain is not None and changed is not None
    assert (changed[0] > plain[0] + 2) if further else (changed[0] < plain[0] - 2)


def test_pilgrimage_adds_two_vp_per_navel_prophet() -> None:
    s = mission(2, ("zeus", "ra"), laws=("pilgrimage",))
    put(s, "prophet", 0, 50.0, 50.0)
    s, _ = _end_turn(s)
    assert s.vp[0] == 1 + 2


def test_sealed_gates_forbid_building() -> None:
    s = mission(2, ("zeus", "ra"), laws=("sealed_gates",))
    s.discs.clear()
    s2 = mission(2, ("zeus", "ra"), laws=("sealed_gates",))
    put(s2, "prophet", 0, NORTH.x, NORTH.y + 8)
    E._after_flicks(Story(s2))
    assert s2.stage == "flick" and s2.active == 1
    s3 = mission(2, ("zeus", "ra"))
    put(s3, "prophet", 0, NORTH.x, NORTH.y)
    E._after_flicks(Story(s3))
    assert s3.stage == "build"
    assert s.laws == ["sealed_gates"]


def test_consecration_pays_one_vp_per_temple_built() -> None:
    s = mission(2, ("dagda", "ra"), laws=("consecration",))
    p = put(s, "prophet", 0, NORTH.x, NORTH.y)
    s.stage = "build"
    s, _ = E.apply(s, 0, {"type": "build", "prophet": p, "x": NORTH.x, "y": NORTH.y - 8.0})
    assert s.vp[0] == 1


def test_divine_right_makes_domination_worth_four() -> None:
    s = mission(2, ("zeus", "ra"))
    on_island(s, 0, 0)
    assert scoring.worship(s.discs, 2, ["divine_right"], s.gods)[0]["vp"] == 5


def test_the_last_shall_be_first() -> None:
    s = mission(3, ("zeus", "ra", "dagda"))
    s.vp = [5, 1, 1]
    s.first_player = 0
    s, _ = _enter(s, "last_first")
    assert s.order == [1, 2, 0]


def test_reverse_procession_runs_anticlockwise() -> None:
    s = mission(4, ("zeus", "ra", "dagda", "tyr"))
    s.first_player = 1
    s, _ = _enter(s, "procession")
    assert s.order == [1, 0, 3, 2]


def test_tithe_makes_the_leaders_pay_two() -> None:
    s = mission(3, ("zeus", "ra", "dagda"))
    s.vp = [6, 6, 1]
    s, _ = _enter(s, "tithe")
    assert s.vp == [4, 4, 1]


def test_lost_sheep_returns_the_first_fallen_prophet_to_hand() -> None:
    s = mission(2, ("zeus", "ra"), laws=("lost_sheep",))
    s, _ = E.apply(s, 0, {"type": "flick", "angle": 180, "power": 5})
    assert s.supply[0]["prophet"] == 5 and s.reserve[0] == 0
    s.active, s.stage = 0, "flick"
    s, _ = E.apply(s, 0, {"type": "flick", "angle": 180, "power": 5})
    assert s.supply[0]["prophet"] == 4 and s.reserve[0] == 1


def test_iconoclasm_topples_temples_on_cities() -> None:
    s = mission(2, ("zeus", "ra"))
    on_city = put(s, "temple", 0, NORTH.x + 2, NORTH.y)
    off_city = put(s, "temple", 1, board.ISLANDS[1].x + 9.5, board.ISLANDS[1].y)
    s.temples = [3, 3]
    s, _ = _enter(s, "iconoclasm")
    ids = [d["id"] for d in s.discs]
    assert on_city not in ids and off_city in ids and s.temples == [4, 3]


def test_the_flood_shrinks_islands_for_presence() -> None:
    s = mission(2, ("zeus", "ra"))
    r = KINDS["prophet"].radius
    put(s, "prophet", 0, NORTH.x, NORTH.y + NORTH.radius + r - 0.5)
    assert geometry.island_at(NORTH.x, NORTH.y + NORTH.radius + r - 0.5, r) == 0
    assert scoring.worship(s.discs, 2, [], s.gods)[0]["presence"] == [0]
    assert scoring.worship(s.discs, 2, ["flood"], s.gods)[0]["presence"] == []
