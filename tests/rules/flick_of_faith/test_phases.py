"""Setup, Council, Mission, Worship and the end of the game (rulebook: Setup, Flow, End)."""

from __future__ import annotations

import math

import pytest

from rules.engine import IllegalAction, NotYourTurn
from rules.flick_of_faith import aim, flick, geometry, gods, temples
from rules.flick_of_faith import map as board
from rules.flick_of_faith.discs import KINDS
from rules.flick_of_faith.state import FlickState

from .helpers import NORTH, E, mission, on_island, put


def _pick_all(s: FlickState, choose_first: bool = True) -> FlickState:
    for p in E.prompts(s):
        s, _ = E.apply(s, p.seat, p.choices[0 if choose_first else 1].action)
    return s


def test_generations_are_four_for_two_and_four_players_and_three_for_three() -> None:
    assert E.setup(2, 1).generations == 4
    assert E.setup(3, 1).generations == 3
    assert E.setup(4, 1).generations == 4


def test_each_player_is_dealt_a_different_god_card_and_picks_a_side_in_secret() -> None:
    s = E.setup(4, 9)
    assert sorted(s.dealt) == sorted(gods.CARDS)
    p = E.prompts(s)[0]
    assert p.kind == "god" and p.secret and len(p.choices) == 2
    s, ev = E.apply(s, p.seat, p.choices[1].action)
    assert E.view(s, None)["gods"] == [None] * 4
    assert E.view(s, p.seat)["private"]["god_pick"] == p.choices[1].action["god"]
    assert all(p.choices[1].action["god"] not in e.text for e in ev if e.to is None)
    s = _pick_all(s)
    assert None not in s.gods and s.phase == "setup_flick"


@pytest.mark.parametrize(("players", "prophets"), [(2, 5), (3, 6), (4, 5)])
def test_prophets_per_player(players: int, prophets: int) -> None:
    s = _pick_all(E.setup(players, 4))
    for k in range(players):
        assert sum(s.pool[k].values()) == prophets
        assert s.temples[k] == 4


def test_setup_flick_is_simultaneous_and_closest_to_the_navel_goes_first() -> None:
    s = _pick_all(E.setup(3, 2))
    x, y = board.launch_spot(0)
    s, _ = E.apply(s, 0, {"type": "flick", "angle": 0, "power": 2})
    assert E.view(s, None)["flicked"] == [0]
    assert "contest_flick" not in str(E.view(s, 1)["private"]["contest_flick"])
    with pytest.raises(NotYourTurn):
        E.apply(s, 0, {"type": "flick", "angle": 0, "power": 6})
    s, _ = E.apply(s, 1, {"type": "flick", "angle": 0, "power": 6.0})
    s, ev = E.apply(s, 2, {"type": "flick", "angle": 60, "power": 3})
    assert s.first_player == 1
    assert s.phase == "council" and s.generation == 1
    assert s.discs == []
    assert any(e.kind == "flick" and e.data["launches"] for e in ev)


def test_flick_values_out_of_range_are_refused_with_the_range() -> None:
    s = mission(2)
    with pytest.raises(IllegalAction, match="1 to 10"):
        E.apply(s, 0, {"type": "flick", "angle": 0, "power": 10.5})
    with pytest.raises(IllegalAction, match="-180 to 180"):
        E.apply(s, 0, {"type": "flick", "angle": 181, "power": 5})
    with pytest.raises(IllegalAction):
        E.apply(s, 0, {"type": "flick", "angle": "nan", "power": 5})
    with pytest.raises(IllegalAction):
        E.apply(s, 0, {"type": "flick", "power": 5})
    with pytest.raises(IllegalAction, match="heart"):
        E.apply(s, 0, {"type": "flick", "angle": 0, "power": 5, "piece": "heart"})
    with pytest.raises(IllegalAction, match='"angle" in a flick must be a number, not "12.5"'):
        E.apply(s, 0, {"type": "flick", "angle": "12.5", "power": 4.25})
    s2, _ = E.apply(s, 0, {"type": "flick", "angle": 12.5, "power": 4.25})
    assert s2.last_flick is not None and s2.last_flick["power"] == 4.25


def _council(players: int = 4) -> FlickState:
    s = mission(players, ("anubis", "dagda", "freja", "zeus")[:players])
    s.phase, s.active, s.stage = "council", None, ""
    s.council = ["still_waters", "sticky_sands"]
    return s


@pytest.mark.parametrize(("thumbs", "chosen"), [
    (["up", "up", "up", "down"], "still_waters"),
    (["down", "down", "down", "up"], "sticky_sands"),
])
def test_council_more_thumbs_up_takes_the_upper_law_and_down_the_lower(thumbs: list[str], chosen: str) -> None:
    s = _council()
    for seat, t in enumerate(thumbs):
        s, ev = E.apply(s, seat, {"type": "vote", "thumb": t})
        if seat < 3:
            assert E.view(s, None)["last_council"] is None
            assert t not in str(E.view(s, None)["voted"])
    assert s.laws == [chosen]
    assert s.phase == "mission"


def test_council_tie_picks_one_of_the_two_at_random() -> None:
    seen = set()
    for seed in range(12):
        s = _council()
        s.rng.seed = seed
        for seat, t in enumerate(["up", "down", "up", "down"]):
            s, _ = E.apply(s, seat, {"type": "vote", "thumb": t})
        seen.add(s.laws[0])
    assert seen == {"still_waters", "sticky_sands"}


def test_a_vote_stays_secret_until_everyone_has_voted() -> None:
    s = _council(2)
    s, ev = E.apply(s, 0, {"type": "vote", "thumb": "down"})
    assert E.view(s, 0)["private"]["vote"] == "down"
    assert E.view(s, 1)["private"]["vote"] is None
    assert all("down" not in e.text for e in ev if e.to is None)


def test_a_flick_that_stays_in_the_corner_may_be_flicked_again_past_three() -> None:
    s = mission(2)
    s, _ = E.apply(s, 0, {"type": "flick", "angle": 0, "power": 1})
    assert s.stage == "flick" and s.active == 0 and len(s.in_corner) == 1
    assert E.prompts(s)[0].kind == "flick"
    s.attempts = 3  # no cap of three: a fourth flick of the same disc is still offered
    s, _ = E.apply(s, 0, {"type": "flick", "angle": 90, "power": 1})
    assert s.active == 0 and s.in_corner and s.attempts == 4


def test_re_flicking_is_a_choice_the_disc_may_stay_in_the_corner() -> None:
    s = mission(2)
    s, _ = E.apply(s, 0, {"type": "flick", "angle": 0, "power": 1})
    p = E.prompts(s)[0]
    assert [c.action for c in p.choices] == [{"type": "leave"}] and p.free_form == "flick"
    disc = s.in_corner[0]
    s, ev = E.apply(s, 0, {"type": "leave"})
    assert s.active == 1 and s.reserve[0] == 0 and s.supply[0]["prophet"] == 4
    d = next(d for d in s.discs if d["id"] == disc)
    assert geometry.in_corner(d["x"], d["y"], KINDS["prophet"].radius, 0)
    assert any("leaves the disc where it lies" in e.text for e in ev)
    # nothing to leave on a fresh flick
    with pytest.raises(IllegalAction, match="no disc in your corner"):
        E.apply(s, 1, {"type": "leave"})


def test_the_re_flick_safeguard_leaves_the_disc_where_it_lies() -> None:
    s = mission(2)
    s, _ = E.apply(s, 0, {"type": "flick", "angle": 0, "power": 1})
    s.attempts = flick.REFLICK_LIMIT - 1
    disc = s.in_corner[0]
    s, ev = E.apply(s, 0, {"type": "flick", "angle": 90, "power": 1})
    assert s.active == 1 and s.reserve[0] == 0 and disc in [d["id"] for d in s.discs]
    assert any(f"after {flick.REFLICK_LIMIT} flicks" in e.text for e in ev)


def test_a_flicked_prophet_that_leaves_the_corner_ends_the_turn() -> None:
    s = mission(2)
    s, _ = E.apply(s, 0, {"type": "flick", "angle": 0, "power": 3})
    assert s.active == 1 and s.supply[0]["prophet"] == 4
    d = s.discs[0]
    assert not geometry.in_corner(d["x"], d["y"], KINDS["prophet"].radius, 0)


def test_prophets_knocked_off_the_map_go_to_the_reserve() -> None:
    s = mission(2, ("zeus", "dagda"))
    victim = put(s, "prophet", 1, 5.5, 11.0)
    origin = board.launch_spot(0)
    down = board.angle_towards(origin, (origin[0], 100.0))
    s, ev = E.apply(s, 0, {"type": "flick", "angle": round(down, 3), "power": 10})
    assert victim not in [d["id"] for d in s.discs]
    assert s.reserve[1] == 1
    assert any("Off the map" in e.text for e in ev)


def test_temples_outside_every_island_go_back_to_their_owner() -> None:
    s = mission(2)
    put(s, "temple", 1, 30.0, 30.0)
    s.temples[1] = 3
    s.stage = "build"
    s, ev = E.apply(s, 0, {"type": "build_done"})
    assert s.temples[1] == 4 and not any(d["kind"] == "temple" for d in s.discs)


def test_reusing_a_built_temple_when_none_are_left() -> None:
    s = mission(2)
    old = on_island(s, 3, 0, kind="temple")[0]
    s.temples[0] = 0
    p = put(s, "prophet", 0, NORTH.x, NORTH.y + 2.0)
    s.stage = "build"
    s, _ = E.apply(s, 0, {"type": "build", "prophet": p, "x": NORTH.x, "y": NORTH.y - 8.0})
    assert s.stage == "reuse"
    assert [c.action["temple"] for c in E.prompts(s)[0].choices] == [old]
    s, _ = E.apply(s, 0, {"type": "reuse", "temple": old})
    t = next(d for d in s.discs if d["id"] == old)
    assert geometry.island_at(t["x"], t["y"], KINDS["temple"].radius) == 0


def test_a_temple_needs_free_ground() -> None:
    s = mission(2)
    p = put(s, "prophet", 0, NORTH.x, NORTH.y + 2.0)
    put(s, "prophet", 1, NORTH.x, NORTH.y - 10.0)
    s.stage = "build"
    with pytest.raises(IllegalAction, match="would overlap P2's prophet"):
        E.apply(s, 0, {"type": "build", "prophet": p, "x": NORTH.x, "y": NORTH.y - 8.0})
    # where the prophet itself stood is free: it becomes the temple
    s, _ = E.apply(s, 0, {"type": "build", "prophet": p, "x": NORTH.x, "y": NORTH.y + 2.0})
    assert any(d["kind"] == "temple" for d in s.discs)


def test_a_crowded_island_takes_a_temple_anywhere_and_pushes_discs_aside() -> None:
    s = mission(2)
    p = put(s, "prophet", 0, NORTH.x, NORTH.y + 1.0)
    # P2's prophets over every free place of island I
    for x in range(-12, 13, 4):
        for y in range(-12, 13, 4):
            if (x, y) != (0, 0) and math.hypot(x, y) <= 12:
                put(s, "prophet", 1, NORTH.x + x, NORTH.y + y)
    assert not temples.has_free_place(s.discs, 0, exclude=p)
    s.stage = "build"
    s, _ = E.apply(s, 0, {"type": "build", "prophet": p, "x": NORTH.x + 4.0, "y": NORTH.y})
    t = next(d for d in s.discs if d["kind"] == "temple")
    assert geometry.island_at(t["x"], t["y"], 3.8) == 0
    # the prophets under it were shoved aside (resting contact at most)
    assert all(math.hypot(t["x"] - d["x"], t["y"] - d["y"]) > 3.8 + 1.6 - 0.3
               for d in s.discs if d is not t)


def test_mission_ends_when_nobody_has_prophets_left_and_worship_follows() -> None:
    s = mission(2)
    s.supply = [{"prophet": 1}, {"prophet": 0}]
    s, ev = E.apply(s, 0, {"type": "flick", "angle": -29.3, "power": 5})
    if s.stage == "build":
        s, ev2 = E.apply(s, 0, {"type": "build_done"})
        ev += ev2
    assert any(e.kind == "score" and "Worship" in e.text for e in ev)
    assert s.first_player == 1 and s.generation == 2


def test_turns_skip_players_who_have_flicked_everything() -> None:
    s = mission(3, ("zeus", "dagda", "ra"))
    s.supply[1] = {"prophet": 0}
    s, _ = E.apply(s, 0, {"type": "flick", "angle": 90, "power": 3})
    assert s.active == 2


def test_end_most_vp_wins() -> None:
    s = mission(2)
    s.generation = 4
    s.vp = [10, 3]
    s.supply = [{}, {}]
    s.stage = "build"
    s, _ = E.apply(s, 0, {"type": "build_done"})
    r = E.result(s)
    assert r is not None and r.winners == (0,)
    assert E.prompts(s) == []


def test_end_tie_goes_to_most_temples_then_to_a_tie_break_flick() -> None:
    s = mission(2)
    s.generation = 4
    s.vp = [7, 7]
    on_island(s, 0, 1, kind="temple")
    s.supply = [{}, {}]
    s.stage = "build"
    s2, _ = E.apply(s, 0, {"type": "build_done"})
    r = E.result(s2)
    assert r is not None and r.winners == (1,)
    s.discs = []
    s, _ = E.apply(s, 0, {"type": "build_done"})
    assert s.phase == "tiebreak" and E.result(s) is None
    assert {p.kind for p in E.prompts(s)} == {"contest_flick"}
    s, _ = E.apply(s, 0, {"type": "flick", "angle": 0, "power": 6})
    s, _ = E.apply(s, 1, {"type": "flick", "angle": 0, "power": 2})
    r = E.result(s)
    assert r is not None and r.winners == (0,)


def test_aim_preview_matches_the_flick_closely() -> None:
    s = mission(2)
    v = E.view(s, 0)
    pred = aim.predict(v, 0, -29.3, 4.0)
    s, _ = E.apply(s, 0, {"type": "flick", "angle": -29.3, "power": 4.0})
    d = s.discs[0]
    assert pred.landing is not None
    assert abs(d["x"] - pred.landing[0]) < 5 and abs(d["y"] - pred.landing[1]) < 5
    assert len(pred.path) > 5


def test_the_flick_event_carries_what_the_animation_needs() -> None:
    s = mission(2)
    s, ev = E.apply(s, 0, {"type": "flick", "angle": 10, "power": 5})
    e = next(e for e in ev if e.kind == "flick")
    assert e.to is None
    assert set(e.data) >= {"bodies", "launches", "decel", "flicked"}
    assert s.last_flick is not None and s.last_flick["velocity"]
