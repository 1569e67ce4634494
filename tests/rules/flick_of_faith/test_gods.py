"""Each of the eight gods' powers (gods.json)."""

from __future__ import annotations

import pytest

from rules.engine import IllegalAction
from rules.flick_of_faith import aim, flick, geometry, gods, physics, scoring
from rules.flick_of_faith import map as board
from rules.flick_of_faith.discs import KINDS

from .helpers import NORTH, E, mission, on_island, put


def test_there_are_eight_gods_on_four_double_sided_cards() -> None:
    assert len(gods.GODS) == 8
    for card in gods.CARDS:
        assert len(gods.sides(card)) == 2
    assert {g.key for g in gods.GODS if g.authored} == {"tyr", "themis", "morrigan"}


def test_ra_replaces_one_prophet_with_the_sphinx() -> None:
    s = E.setup(2, 3)
    s.dealt = ["yellow", "blue"]
    for p in E.prompts(s):
        ra = [c for c in p.choices if c.action["god"] == "ra"]
        s, _ = E.apply(s, p.seat, (ra or list(p.choices))[0].action)
    k = s.gods.index("ra")
    assert s.pool[k] == {"prophet": 4, "sphinx": 1}


def test_ra_can_flick_the_sphinx() -> None:
    s = mission(2, ("ra", "zeus"))
    s, _ = E.apply(s, 0, {"type": "flick", "angle": -29, "power": 5, "piece": "sphinx"})
    assert any(d["kind"] == "sphinx" for d in s.discs)
    assert s.supply[0] == {"prophet": 4, "sphinx": 0}


def test_anubis_may_flick_his_first_fallen_prophet_again() -> None:
    s = mission(2, ("anubis", "zeus"))
    s, _ = E.apply(s, 0, {"type": "flick", "angle": 180, "power": 5})
    assert s.stage == "anubis" and s.reserve[0] == 1
    s, _ = E.apply(s, 0, {"type": "anubis", "reflick": True})
    assert s.stage == "flick" and s.reserve[0] == 0
    assert E.view(s, None)["turn_extra"] == "prophet"
    s, _ = E.apply(s, 0, {"type": "flick", "angle": 180, "power": 5})
    # only once per turn
    assert s.active == 1 and s.reserve[0] == 1 and s.supply[0]["prophet"] == 4


def test_anubis_may_decline() -> None:
    s = mission(2, ("anubis", "zeus"))
    s, _ = E.apply(s, 0, {"type": "flick", "angle": 180, "power": 5})
    s, _ = E.apply(s, 0, {"type": "anubis", "reflick": False})
    assert s.active == 1 and s.reserve[0] == 1


def test_dagda_stands_the_hand_of_god_as_a_backstop() -> None:
    s = mission(2, ("dagda", "zeus"))
    v = E.view(s, 0)
    origin = board.launch_spot(0)
    angle = board.angle_towards(origin, (NORTH.x, NORTH.y))
    free = aim.predict(v, 0, angle, 7.0)
    held = aim.predict(v, 0, angle, 7.0, hand="I")
    assert free.landing is not None and held.landing is not None
    assert geometry.city_at(*held.landing, KINDS["prophet"].radius) == 0
    assert geometry.city_at(*free.landing, KINDS["prophet"].radius) is None
    s, ev = E.apply(s, 0, {"type": "flick", "angle": angle, "power": 7.0, "hand": "I"})
    assert not any(d["kind"] == "hand" for d in s.discs)  # lifted after the flick
    assert s.last_flick is not None and s.last_flick["hand"] is not None


def test_only_dagda_has_the_hand() -> None:
    s = mission(2, ("zeus", "dagda"))
    with pytest.raises(IllegalAction, match="Dagda"):
        E.apply(s, 0, {"type": "flick", "angle": 0, "power": 5, "hand": "I"})
    s = mission(2, ("dagda", "zeus"))
    with pytest.raises(IllegalAction, match="navel"):
        E.apply(s, 0, {"type": "flick", "angle": 0, "power": 5, "hand": "V"})


def test_freja_flicks_her_heart_once_per_generation() -> None:
    s = mission(2, ("freja", "zeus"))
    s, _ = E.apply(s, 0, {"type": "flick", "angle": -20, "power": 5, "piece": "heart"})
    assert not s.heart_ready and s.supply[0]["prophet"] == 5
    assert any(d["kind"] == "heart" for d in s.discs) or s.last_flick is not None
    s.active, s.stage = 0, "flick"
    with pytest.raises(IllegalAction, match="heart"):
        E.apply(s, 0, {"type": "flick", "angle": 0, "power": 5, "piece": "heart"})


def test_freja_heart_wins_nearby_enemy_prophets_at_worship() -> None:
    s = mission(2, ("freja", "zeus"))
    enemy = on_island(s, 0, 1, n=2)
    d0 = next(d for d in s.discs if d["id"] == enemy[0])
    put(s, "heart", None, d0["x"] + 3.0, d0["y"])
    counts = scoring.island_counts(s.discs, 2, [], s.gods, heart=True)
    assert counts[0][0] >= 1
    res = scoring.worship(s.discs, 2, [], s.gods)
    assert 0 in res[0]["presence"]
    plain = scoring.island_counts(s.discs, 2, [], s.gods, heart=False)
    assert plain[0] == [0, 2]


def test_zeus_builds_on_any_island() -> None:
    s = mission(2, ("zeus", "dagda"))
    put(s, "prophet", 0, NORTH.x, NORTH.y + 1.0)
    s.stage = "build"
    assert E.prompts(s)[0].params["prophets"][0]["islands"] == [0, 1, 2, 3]
    south = board.ISLANDS[2]
    zeus, _ = E.apply(s, 0, {"type": "build", "x": south.x + 2.0, "y": south.y})
    assert [(d["x"], d["y"]) for d in zeus.discs if d["kind"] == "temple"] == [(south.x + 2.0, south.y)]
    s2 = mission(2, ("dagda", "zeus"))
    put(s2, "prophet", 0, NORTH.x, NORTH.y + 1.0)
    s2.stage = "build"
    assert E.prompts(s2)[0].params["prophets"][0]["islands"] == [0]
    with pytest.raises(IllegalAction, match="touches the city of island I"):
        E.apply(s2, 0, {"type": "build", "x": south.x + 2.0, "y": south.y})


def test_themis_gains_one_vp_when_she_ties_for_domination_with_two_pieces() -> None:
    s = mission(3, ("themis", "zeus", "ra"))
    on_island(s, 0, 0, n=2)
    on_island(s, 0, 1, n=2)
    on_island(s, 1, 1)
    res = scoring.worship(s.discs, 3, [], s.gods)
    assert res[0]["domination"] == [] and res[0]["bonus"] == 1 and res[0]["vp"] == 2
    assert res[1]["domination"] == [1] and res[1]["vp"] == 4


def test_themis_scales_ignore_a_tie_of_single_pieces() -> None:
    s = mission(3, ("themis", "zeus", "ra"))
    on_island(s, 0, 0)
    on_island(s, 0, 1)
    on_island(s, 1, 1)
    on_island(s, 1, 2)
    res = scoring.worship(s.discs, 3, [], s.gods)
    assert res[0]["domination"] == [] and res[0]["bonus"] == 0 and res[0]["vp"] == 1
    assert res[1]["domination"] == [] and res[1]["vp"] == 2


def test_themis_scales_pay_in_a_two_player_game_only_while_she_trails() -> None:
    s = mission(2, ("zeus", "themis"))
    on_island(s, 0, 0, n=2)
    on_island(s, 0, 1, n=2)
    assert scoring.worship(s.discs, 2, [], s.gods, [3, 2])[1]["bonus"] == 1
    assert scoring.worship(s.discs, 2, [], s.gods, [3, 3])[1]["bonus"] == 0
    assert scoring.worship(s.discs, 2, [], s.gods, [2, 3])[1]["bonus"] == 0
    # with three players her lead does not matter
    s3 = mission(3, ("themis", "zeus", "ra"))
    on_island(s3, 0, 0, n=2)
    on_island(s3, 0, 1, n=2)
    assert scoring.worship(s3.discs, 3, [], s3.gods, [9, 0, 0])[0]["bonus"] == 1


def test_tyr_prophets_are_heavier_and_shove_further() -> None:
    def shove(god: str) -> float:
        s = mission(2, (god, "zeus"))
        target = put(s, "prophet", 1, 20.0, 20.0)
        v = E.view(s, 0)
        angle = board.angle_towards(board.launch_spot(0), (20.0, 20.0))
        pred = aim.predict(v, 0, angle, 4.0)
        x, y = pred.positions[target]
        return float(((x - 20) ** 2 + (y - 20) ** 2) ** 0.5)

    assert shove("tyr") > shove("zeus") + 3


def test_anubis_with_two_players_gets_back_every_prophet_knocked_off_on_another_players_turn() -> None:
    s = mission(2, ("zeus", "anubis"))
    assert s.active == 0
    a = put(s, "prophet", 1, 50.0, 97.5)
    b = put(s, "prophet", 1, 53.5, 97.5)
    s.supply[1] = {"prophet": 3}
    rest = {d["id"]: (d["x"], d["y"]) for d in s.discs if d["id"] not in (a, b)}
    E._apply_outcome(s, physics.Outcome(rest, [a, b]))
    # both go back to his hand, none to the reserve
    assert s.supply[1]["prophet"] == 5 and s.reserve[1] == 0
    assert not any(d["id"] in (a, b) for d in s.discs)


def test_anubis_with_three_players_gets_back_only_the_first_prophet_knocked_off() -> None:
    s = mission(3, ("zeus", "anubis", "ra"))
    assert s.active == 0
    a = put(s, "prophet", 1, 50.0, 97.5)
    b = put(s, "prophet", 1, 53.5, 97.5)
    s.supply[1] = {"prophet": 3}
    rest = {d["id"]: (d["x"], d["y"]) for d in s.discs if d["id"] not in (a, b)}
    E._apply_outcome(s, physics.Outcome(rest, [a, b]))
    assert s.supply[1]["prophet"] == 4 and s.reserve[1] == 1


def test_tyr_is_lighter_with_two_players_than_with_three() -> None:
    assert flick.mass_scale("prophet", 0, ("tyr", "zeus")) == flick.TYR_MASS_TWO_PLAYERS < 2.0
    assert flick.mass_scale("prophet", 0, ("tyr", "zeus", "ra")) == flick.TYR_MASS == 2.0
    assert flick.mass_scale("temple", 0, ("tyr", "zeus")) == 1.0


def test_anubis_own_fallen_prophet_still_goes_to_the_reserve_first() -> None:
    s = mission(2, ("anubis", "zeus"))
    a = put(s, "prophet", 0, 50.0, 97.5)
    E._apply_outcome(s, physics.Outcome({}, [a]))
    assert s.reserve[0] == 1


def test_morrigan_drowns_struck_enemy_prophets_resting_in_the_sea() -> None:
    s = mission(2, ("morrigan", "zeus"))
    sea = put(s, "prophet", 1, 30.0, 30.0)
    land = on_island(s, 0, 1)[0]
    s.turn["struck"] = [sea, land]
    s.stage = "build"
    s, ev = E.apply(s, 0, {"type": "build_done"})
    ids = [d["id"] for d in s.discs]
    assert sea not in ids and land in ids
    assert s.reserve[1] == 1
    assert any("Morrigan" in e.text for e in ev)


def test_morrigan_records_what_her_flick_strikes() -> None:
    s = mission(2, ("morrigan", "zeus"))
    target = put(s, "prophet", 1, 16.0, 16.0)
    angle = board.angle_towards(board.launch_spot(0), (16.0, 16.0))
    s, ev = E.apply(s, 0, {"type": "flick", "angle": angle, "power": 4.0})
    d = next((x for x in s.discs if x["id"] == target), None)
    if d is not None:
        assert not (geometry.island_at(d["x"], d["y"], 1.6) is None and not geometry.on_navel(d["x"], d["y"], 1.6))
    assert s.reserve[1] == 1


def test_other_gods_do_not_drown_struck_prophets() -> None:
    s = mission(2, ("zeus", "morrigan"))
    sea = put(s, "prophet", 1, 30.0, 30.0)
    s.turn["struck"] = [sea]
    s.stage = "build"
    s, _ = E.apply(s, 0, {"type": "build_done"})
    assert sea in [d["id"] for d in s.discs]


def test_themis_settles_council_ties() -> None:
    other = {"up": "down", "down": "up"}
    for thumb, law in (("up", "still_waters"), ("down", "sticky_sands")):
        s = mission(4, ("themis", "zeus", "ra", "dagda"))
        s.phase, s.active, s.stage = "council", None, ""
        s.council = ["still_waters", "sticky_sands"]
        for seat, t in enumerate((thumb, thumb, other[thumb], other[thumb])):
            s, _ = E.apply(s, seat, {"type": "vote", "thumb": t})
        assert s.laws == [law]


def test_themis_does_not_settle_a_two_player_tie() -> None:
    chosen = set()
    for seed in range(12):
        s = mission(2, ("themis", "zeus"), seed=seed)
        s.phase, s.active, s.stage = "council", None, ""
        s.council = ["still_waters", "sticky_sands"]
        s, _ = E.apply(s, 0, {"type": "vote", "thumb": "up"})
        s, _ = E.apply(s, 1, {"type": "vote", "thumb": "down"})
        chosen.add(s.laws[0])
    assert chosen == {"still_waters", "sticky_sands"}
