"""Combat and every keyword: targets, flee, intercept, stations, rolls, ties, direct hits,
Air, Naval, Submarine, Espionage, Precision Strike, Nuclear, Reorder X, Tokenize-✋/⚙️, Rapid
Deployment (see test_turn), kill triggers, strikes, and the hidden information around them."""

from __future__ import annotations

import pytest

from rules.alternate_histories import ENGINE, combat
from rules.alternate_histories.combat import attack_options
from rules.alternate_histories.content import CARDS
from rules.alternate_histories.state import State
from rules.engine import Event, IllegalAction

from .helpers import LEGACY_RULES, act, actions, perm, prompt, put, result, table, texts


def attack(s: State, uid: int, target: int | str) -> tuple[State, list[Event]]:
    return act(s, 0, {"type": "attack", "uid": uid, "target": target})


def targets(s: State, uid: int) -> set[int | str]:
    return {t for a, t in attack_options(s, 0) if a.uid == uid}


def test_rolls_add_the_top_cards_value_and_send_it_to_the_bottom() -> None:
    s = table(decks=(["landship", "rifle_infantry"], ["cavalry_scouts", "rifle_infantry"]))
    a = put(s, 0, "rifle_infantry")  # 100 + 62 (Landship's value)
    t = put(s, 1, "trench_mortar")  # 130 + 22 (Cavalry Scouts' value)
    s, ev = attack(s, a.uid, t.uid)
    assert "Rifle Infantry 100 + 62 = 162 against Trench Mortar 130 + 22 = 152" in texts(ev)
    assert s.sides[0].deck == ["rifle_infantry", "landship"]
    assert s.sides[1].deck == ["rifle_infantry", "cavalry_scouts"]
    assert s.perm(t.uid) is None and s.sides[1].graveyard == ["trench_mortar"]
    assert perm(s, a.uid).tapped
    lc = ENGINE.view(s, None)["last_combat"]
    assert lc["attacker"]["total"] == 162 and lc["defender"]["total"] == 152
    assert lc["outcome"] == "attacker" and lc["defender"]["roll_card"] == "cavalry_scouts"


def test_the_defender_wins_and_a_tie_destroys_both() -> None:
    s = table()
    a = put(s, 0, "rifle_infantry")
    t = put(s, 1, "trench_mortar")
    s, _ = attack(s, a.uid, t.uid)
    assert s.perm(a.uid) is None and s.perm(t.uid) is not None
    s = table()
    a = put(s, 0, "rifle_infantry")
    t = put(s, 1, "rifle_infantry")
    s, _ = attack(s, a.uid, t.uid)
    s, ev = act(s, 1, {"type": "hold"})  # equal mobility: it could have fled
    assert s.perm(a.uid) is None and s.perm(t.uid) is None
    assert "A tie destroys both." in texts(ev)


def test_japan_survives_ties() -> None:
    s = table(nations=("japan", "usa"))
    a = put(s, 0, "rifle_infantry")
    t = put(s, 1, "rifle_infantry")
    s, _ = attack(s, a.uid, t.uid)
    s, _ = act(s, 1, {"type": "hold"})
    assert s.perm(a.uid) is not None and s.perm(t.uid) is None


def test_direct_hits_mill_one_card_per_full_hundred_power() -> None:
    """Rulebook: "Direct player hits: Mill 1 card per 100 power"; under 100, none."""
    s = table()
    a = put(s, 0, "landship")  # 180 power: 1 card
    b = put(s, 0, "battleship")  # 290: 2 cards
    c = put(s, 0, "cavalry_scouts")  # 60: none
    s, ev = attack(s, a.uid, "player")
    assert len(s.sides[1].graveyard) == 1 and "hits P2 directly." in texts(ev)
    s, _ = attack(s, b.uid, "player")
    assert len(s.sides[1].graveyard) == 3
    s, ev = attack(s, c.uid, "player")
    assert len(s.sides[1].graveyard) == 3
    assert ("hits P2 directly: under 100 power, no card goes from their deck to the graveyard."
            in texts(ev))
    assert ENGINE.view(s, None)["last_combat"]["outcome"] == "hit"
    # Autocracy's first direct hit of the turn mills one more, a small unit's too.
    s = table(governances=("autocracy", "capitalism"))
    a = put(s, 0, "cavalry_scouts")
    b = put(s, 0, "landship")
    s, _ = attack(s, a.uid, "player")
    assert len(s.sides[1].graveyard) == 1
    s, _ = attack(s, b.uid, "player")
    assert len(s.sides[1].graveyard) == 2


def test_legacy_rules_direct_hits_mill_at_least_one_card() -> None:
    s = table(rules=LEGACY_RULES)
    c = put(s, 0, "cavalry_scouts")
    s, _ = attack(s, c.uid, "player")
    assert len(s.sides[1].graveyard) == 1


def test_flee_needs_equal_or_higher_mobility_and_taps() -> None:
    s = table(nations=("germany", "russia"))
    a = put(s, 0, "biplane_squadron")  # mobility 5
    fast = put(s, 1, "cossack_host")  # 5
    slow = put(s, 1, "cavalry_scouts")  # 4
    s2, _ = attack(s, a.uid, fast.uid)
    p = prompt(s2)
    assert (p.kind, p.seat, p.deadline) == ("react", 1, 30 * 60)
    assert {"type": "flee"} in [c.action for c in p.choices]
    s3, ev = act(s2, 1, {"type": "flee"})
    assert perm(s3, fast.uid).tapped and "flees" in texts(ev)
    assert perm(s3, a.uid).tapped and prompt(s3).kind == "combat"
    s2, _ = attack(s, a.uid, slow.uid)
    assert prompt(s2).kind == "combat"  # nothing to choose: no window, the fight happened


def test_submarines_flee_without_tapping() -> None:
    s = table()
    a = put(s, 0, "destroyer_flotilla")  # naval, mobility 5
    sub = put(s, 1, "wolfpack", mobility=5)
    s, _ = attack(s, a.uid, sub.uid)
    s, ev = act(s, 1, {"type": "flee"})
    assert not perm(s, sub.uid).tapped and "without tapping" in texts(ev)


def test_intercept_needs_higher_mobility_and_becomes_the_target() -> None:
    s = table()
    a = put(s, 0, "rifle_infantry")  # mobility 1
    t = put(s, 1, "trench_mortar")
    same = put(s, 1, "rifle_infantry")  # mobility 1: may not intercept
    fast = put(s, 1, "landship", mobility=2)
    s, _ = attack(s, a.uid, t.uid)
    acts = [c.action for c in prompt(s).choices]
    assert {"type": "intercept", "uid": fast.uid} in acts
    assert {"type": "intercept", "uid": same.uid} not in acts
    s, ev = act(s, 1, {"type": "intercept", "uid": fast.uid})
    assert "intercepts" in texts(ev)
    assert s.perm(a.uid) is None  # the Landship (180) beat the Rifle Infantry
    assert s.perm(t.uid) is not None and perm(s, fast.uid).tapped


def test_interceptors_also_defend_the_player() -> None:
    s = table()
    a = put(s, 0, "rifle_infantry")
    g = put(s, 1, "cavalry_scouts")
    s, _ = attack(s, a.uid, "player")
    acts = [c.action for c in prompt(s).choices]
    assert acts == [{"type": "intercept", "uid": g.uid}, {"type": "hold"}]
    s, _ = act(s, 1, {"type": "hold"})
    assert len(s.sides[1].graveyard) == 1


def test_stationed_units_always_intercept_attacks_on_their_infrastructure() -> None:
    s = table(step="build", hands=(["rifle_infantry"], []))
    net = put(s, 0, "trench_network")
    s, _ = act(s, 0, {"type": "play", "card": "rifle_infantry"})
    p = prompt(s)
    assert p.kind == "station"
    s, ev = act(s, 0, {"type": "station", "on": net.uid})
    guard = next(q for q in s.perms if q.card == "rifle_infantry")
    assert guard.station == net.uid and "stations" in texts(ev)
    # P2's fast plane attacks the network: the slow guard may still intercept.
    s.current, s.step = 1, "combat"
    plane = put(s, 1, "biplane_squadron")
    s, _ = act(s, 1, {"type": "attack", "uid": plane.uid, "target": net.uid})
    assert {"type": "intercept", "uid": guard.uid} in [c.action for c in prompt(s).choices]
    # …but not when the plane goes for the player.
    s2 = table(current=1)
    net = put(s2, 0, "trench_network")
    put(s2, 0, "rifle_infantry", station=net.uid)
    plane = put(s2, 1, "biplane_squadron")
    s2, _ = act(s2, 1, {"type": "attack", "uid": plane.uid, "target": "player"})
    assert prompt(s2).kind == "combat"


def test_infrastructure_is_a_target_but_resources_are_not() -> None:
    s = table()
    a = put(s, 0, "landship")
    net = put(s, 1, "trench_network")
    res = put(s, 1, "field_hospital")
    assert targets(s, a.uid) == {"player", net.uid}
    assert res.uid not in targets(s, a.uid)


def test_france_defends_stronger_and_intercepts_equal_mobility() -> None:
    from rules.alternate_histories.board import power

    s = table(nations=("usa", "france"))
    net = put(s, 1, "trench_network")
    tank = put(s, 1, "char_b1")
    assert power(s, net, "defend") == 200
    assert (power(s, tank, "defend"), power(s, tank, "attack")) == (270, 220)
    a = put(s, 0, "m4_sherman")  # mobility 3, like the Char B1
    s, _ = attack(s, a.uid, "player")
    assert {"type": "intercept", "uid": tank.uid} in [c.action for c in prompt(s).choices]
    s = table(nations=("usa", "germany"))
    tank = put(s, 1, "char_b1")
    a = put(s, 0, "m4_sherman")
    s, _ = attack(s, a.uid, "player")
    assert prompt(s).kind == "combat"  # elsewhere equal mobility does not intercept


def test_naval_units_target_only_naval_units_or_players_even_when_they_fly() -> None:
    """Rulebook keywords: Naval "can only target naval units or players"; Air "may target naval
    units", which adds nothing a naval unit lacks, so a carrier (Naval and Air) is bound like
    any ship."""
    s = table()
    ship = put(s, 0, "destroyer_flotilla")
    plane = put(s, 0, "biplane_squadron")
    tank = put(s, 0, "landship")
    carrier = put(s, 0, "aircraft_carrier")
    e_ship = put(s, 1, "dreadnought")
    e_tank = put(s, 1, "trench_mortar")
    e_net = put(s, 1, "trench_network")
    assert targets(s, ship.uid) == {"player", e_ship.uid}  # Naval: naval units or the player
    assert targets(s, plane.uid) == {"player", e_ship.uid, e_tank.uid, e_net.uid}  # Air
    assert targets(s, tank.uid) == {"player", e_tank.uid, e_net.uid}  # not naval
    assert targets(s, carrier.uid) == {"player", e_ship.uid}
    # Nor may the enemy's land units intercept a carrier's attack.
    guard = put(s, 1, "cavalry_scouts", mobility=9)
    assert guard.uid not in {u.uid for u in combat.interceptors(s, carrier, "player")}
    assert "Naval, Air." in CARDS["aircraft_carrier"].text
    assert "land" not in CARDS["aircraft_carrier"].text


def test_legacy_rules_a_carrier_attacks_like_an_air_unit() -> None:
    s = table(rules=LEGACY_RULES)
    carrier = put(s, 0, "aircraft_carrier")
    e_ship = put(s, 1, "dreadnought")
    e_tank = put(s, 1, "trench_mortar")
    assert targets(s, carrier.uid) == {"player", e_ship.uid, e_tank.uid}


def test_espionage_fights_only_espionage_and_precision_strike_may_hunt_spies() -> None:
    s = table(era=(2, 0))
    spy = put(s, 0, "trench_informant")
    bomber = put(s, 0, "dive_bomber")  # Precision Strike
    e_spy = put(s, 1, "deep_cover_agent")
    e_tank = put(s, 1, "trench_mortar")
    assert targets(s, spy.uid) == {e_spy.uid}
    assert e_spy.uid not in targets(s, bomber.uid)
    assert e_tank.uid in targets(s, bomber.uid)
    put(s, 0, "spy_satellite")
    assert e_spy.uid in targets(s, bomber.uid)
    # Counter-Intelligence allows it for one turn.
    s = table(step="events", era=(2, 0), hands=(["counter_intelligence"], []))
    bomber = put(s, 0, "dive_bomber")
    e_spy = put(s, 1, "deep_cover_agent")
    s, _ = act(s, 0, {"type": "play", "card": "counter_intelligence"})
    assert s.spy_hunt and len(s.sides[0].hand) == 1  # and it drew a card
    assert e_spy.uid in targets(s, bomber.uid)


def test_espionage_gets_stronger_from_the_atomic_era() -> None:
    from rules.alternate_histories.board import power

    s = table()
    spy = put(s, 0, "trench_informant")
    assert power(s, spy, "attack") == 40
    s.sides[1].era = 2
    assert power(s, spy, "attack") == 90


def test_nuclear_retaliation_on_an_attack_on_the_player() -> None:
    s = table(era=(2, 0))
    a = put(s, 0, "landship")
    put(s, 1, "missile_silo")
    s, ev = attack(s, a.uid, "player")
    assert s.phase == "over" and s.winner == 1
    assert "Nuclear retaliation" in result(s).reason


def test_nuclear_retaliation_when_the_nuclear_unit_survives_an_attack() -> None:
    s = table(era=(2, 0))
    a = put(s, 0, "rifle_infantry")
    put(s, 1, "missile_silo")  # 150 beats 100
    s, _ = attack(s, a.uid, s.perms[-1].uid)
    assert s.winner == 1
    # Fleeing is surviving too.
    s = table(era=(2, 0))
    a = put(s, 0, "landship")
    bomber = put(s, 1, "strategic_bomber")
    s, _ = attack(s, a.uid, bomber.uid)
    s, _ = act(s, 1, {"type": "flee"})
    assert s.winner == 1


def test_destroying_the_nuclear_unit_is_safe_and_espionage_never_triggers() -> None:
    s = table(era=(2, 0))
    a = put(s, 0, "battleship")  # naval attacks naval
    sub = put(s, 1, "ballistic_submarine", mobility=0)
    s, _ = attack(s, a.uid, sub.uid)
    assert s.phase == "turn" and s.perm(sub.uid) is None
    s = table(era=(2, 0))
    put(s, 1, "missile_silo")
    spy = put(s, 0, "deep_cover_agent")
    e_spy = put(s, 1, "trench_informant")
    s, _ = attack(s, spy.uid, e_spy.uid)
    assert s.phase == "turn"


def test_a_nuclear_hit_burns_three() -> None:
    s = table(era=(2, 0))
    a = put(s, 0, "strategic_bomber")
    s, ev = attack(s, a.uid, "player")
    assert len(s.sides[1].burned) == 3 and len(s.sides[1].graveyard) == 2
    assert "a nuclear strike" in texts(ev)


def test_reorder_gives_private_knowledge_of_the_deck_top() -> None:
    deck1 = ["landship", "gas_attack", "cavalry_scouts", "rifle_infantry", "doughboys"]
    s = table(decks=([ "rifle_infantry"] * 10, deck1))
    z = put(s, 0, "zeppelin_raider")  # Reorder 2
    s, ev = attack(s, z.uid, "player")
    assert s.sides[1].graveyard == []  # instead of milling
    p = prompt(s)
    assert (p.kind, p.seat, p.secret, p.free_form) == ("reorder", 0, True, "pick")
    assert [o["id"] for o in p.params["cards"]] == ["landship", "gas_attack"]
    with pytest.raises(IllegalAction):
        act(s, 0, {"type": "pick", "cards": ["landship", "landship"]})
    s, ev = act(s, 0, {"type": "pick", "cards": ["gas_attack", "landship"]})
    assert s.sides[1].deck[:3] == ["gas_attack", "landship", "cavalry_scouts"]
    assert ENGINE.view(s, 0)["private"]["known_top"] == ["gas_attack", "landship"]
    assert ENGINE.view(s, 1)["private"]["known_top"] == []
    assert "Gas Attack" not in texts(ev, 1) and "Gas Attack" in texts(ev, 0)
    # The knowledge follows the cards: a roll takes the top one away.
    from rules.alternate_histories.board import roll

    roll(s, 1)
    assert s.known[0] == ["landship"]


def test_scouting_events_reorder_too() -> None:
    s = table(step="events", hands=(["cipher_office", "rifle_infantry"], []))
    s, _ = act(s, 0, {"type": "play", "card": "cipher_office"})  # pays its ✋ with the last card
    p = prompt(s)
    assert p.kind == "reorder" and p.params["count"] == 3


def test_tokenize_from_hand_hides_the_cards_from_the_opponent() -> None:
    hand = ["militia_call_up", "landship", "gas_attack", "tiger"]
    s = table(step="events", hands=(hand, []))
    s, _ = act(s, 0, {"type": "play", "card": "militia_call_up"})
    p = prompt(s)
    assert (p.kind, p.free_form, p.params["count"], p.params["min"]) == ("tokenize", "pick", 2, 0)
    s, ev = act(s, 0, {"type": "pick", "cards": ["tiger", "gas_attack"]})
    downs = [q for q in s.perms if q.face_down]
    assert [(q.power, q.mobility, q.kind) for q in downs] == [(70, 2, "unit")] * 2
    public = str(ENGINE.view(s, 1))
    assert "tiger" not in public.replace("'tiger'", "") or "Tiger" not in public
    v1 = ENGINE.view(s, 1)
    assert all(b["card"] is None for b in v1["battlefield"] if b["face_down"])
    assert "Tiger" not in texts(ev, 1) and "Tiger I" in texts(ev, 0)
    assert sorted(ENGINE.view(s, 0)["private"]["face_down"].values()) == ["gas_attack", "tiger"]


def test_tokenize_from_the_deck_and_reserves_pay_for_cards() -> None:
    s = table(step="events", governances=("autocracy", "autocracy"),
              hands=(["conscription", "war_bonds", "gas_attack", "landship", "doughboys",
                      "cavalry_scouts"], []),
              decks=(["tiger", "t34", "rifle_infantry"], []))
    s, _ = act(s, 0, {"type": "play", "card": "conscription"})
    downs = sorted(q.card for q in s.perms if q.face_down)
    assert downs == ["t34", "tiger"] and s.sides[0].deck == ["rifle_infantry"]
    s, _ = act(s, 0, {"type": "play", "card": "war_bonds"})
    s, _ = act(s, 0, {"type": "pick", "cards": ["gas_attack"]})
    reserves = [q for q in s.perms if q.kind == "resource" and q.face_down]
    assert len(reserves) == 1
    s, _ = act(s, 0, {"type": "next"})
    s, _ = act(s, 0, {"type": "next"})
    s, _ = act(s, 0, {"type": "play", "card": "landship"})
    p = prompt(s)
    assert {"id": "reserve", "name": "Reserve (face-down card)"} in p.params["cards"]
    s, ev = act(s, 0, {"type": "pick", "cards": ["reserve", "doughboys"]})
    assert not any(q.kind == "resource" and q.face_down for q in s.perms)
    assert "gas_attack" in s.sides[0].graveyard and "a Reserve (Gas Attack)" in texts(ev, 0)


def test_kill_triggers_and_strikes() -> None:
    s = table(era=(1, 0), hands=(["gas_attack"] * 7, []))
    agent = put(s, 0, "cipher_agents")  # draws a card when it destroys a unit
    e_spy = put(s, 1, "trench_informant")
    s, ev = attack(s, agent.uid, e_spy.uid)
    assert s.perm(e_spy.uid) is None and len(s.sides[0].hand) == 8
    s = table(step="events", hands=(["gas_attack", "rifle_infantry"], []))
    assert {"type": "play", "card": "gas_attack"} not in actions(s)  # no target
    big = put(s, 1, "landship")  # 180: too strong for Gas Attack
    small = put(s, 1, "trench_mortar")
    assert {"type": "play", "card": "gas_attack"} in actions(s)
    s, _ = act(s, 0, {"type": "play", "card": "gas_attack"})
    p = prompt(s)
    assert p.kind == "target" and [c.action["uid"] for c in p.choices] == [small.uid]
    s, _ = act(s, 0, {"type": "target", "uid": small.uid})
    assert s.perm(small.uid) is None and s.perm(big.uid) is not None


def test_blitz_orders_untap_and_strengthen() -> None:
    from rules.alternate_histories.board import power

    s = table(step="events", era=(1, 0), hands=(["blitz_orders", "rifle_infantry"], []))
    u = put(s, 0, "landship", tapped=True)
    s, _ = act(s, 0, {"type": "play", "card": "blitz_orders"})
    assert not perm(s, u.uid).tapped and power(s, perm(s, u.uid), "attack") == 210


def test_national_and_governance_traits_in_combat() -> None:
    from rules.alternate_histories.board import mobility, power

    s = table(nations=("germany", "britain"), governances=("communism", "capitalism"))
    storm = put(s, 0, "stormtroopers")
    # Blitzkrieg (+20 attacking) and Mass Mobilisation (+30 for units of 150 power or less)
    assert power(s, storm, "attack") == 140 + 20 + 30 and power(s, storm, "defend") == 170
    tank = put(s, 0, "landship")
    assert power(s, tank, "defend") == 180
    ship = put(s, 1, "dreadnought")
    assert mobility(s, ship) == 3 and power(s, ship, "defend") == 190  # Rule the Waves
    s = table(nations=("japan", "usa"))
    marines = put(s, 0, "imperial_marines")
    assert (power(s, marines, "attack"), power(s, marines, "defend")) == (145, 130)
    s = table(nations=("usa", "russia"))
    plane = put(s, 0, "biplane_squadron")
    assert mobility(s, plane) == 6 and power(s, plane, "defend") == 100  # Arsenal of Democracy



def test_every_boost_scope_and_national_power_trait_is_one_combat_reads() -> None:
    """Each scope a boost passive may name, and each national power trait with each of its
    scopes, has a rule in the power calculation (the data library and the table agree)."""
    from rules.alternate_histories import board
    from rules.alternate_histories.content import NATION_EFFECTS, SCOPES

    assert set(SCOPES["boost"]) == set(board._BOOST_SCOPES)
    assert set(NATION_EFFECTS["power"]) == set(board._NATION_POWER_SCOPES)
    assert set(board._NATION_POWER) <= set(NATION_EFFECTS)

def test_hands_and_face_down_cards_never_reach_the_other_seat() -> None:
    from rules.alternate_histories.content import CARDS

    s = table(step="events", hands=(["militia_call_up", "tiger", "t34"], ["war_bonds", "spitfire"]))
    s, _ = act(s, 0, {"type": "play", "card": "militia_call_up"})
    s, _ = act(s, 0, {"type": "pick", "cards": ["tiger", "t34"]})
    for seat in (0, 1):
        mine = ENGINE.view(s, seat)
        other = ENGINE.view(s, 1 - seat)
        assert mine["private"]["hand"] == s.sides[seat].hand
        assert other["sides"][seat]["hand"] == len(s.sides[seat].hand)
        assert "hand" not in other["sides"][seat] or type(other["sides"][seat]["hand"]) is int
        for b in other["battlefield"]:
            if b["owner"] == seat and b["face_down"]:
                assert b["card"] is None and b["name"] == "face-down unit"
                assert CARDS["tiger"].name not in str(b)
    assert sorted(ENGINE.view(s, 0)["private"]["face_down"].values()) == ["t34", "tiger"]
    assert ENGINE.view(s, 1)["private"]["face_down"] == {}
    assert "Tiger" not in str(ENGINE.view(s, 1)) and "tiger" not in str(ENGINE.view(s, None))


def test_the_reaction_window_follows_the_table_option_and_times_out_sensibly() -> None:
    s = table(era=(2, 0), reaction_window=5, nations=("germany", "russia"))
    a = put(s, 0, "landship")
    bomber = put(s, 1, "strategic_bomber")
    s, _ = attack(s, a.uid, bomber.uid)
    p = prompt(s)
    assert (p.kind, p.seat, p.deadline, p.secret) == ("react", 1, 300, False)
    assert ENGINE.timeout_action(s, p) == {"type": "flee"}  # a fleeing bomber wins the game
    s, _ = act(s, 1, ENGINE.timeout_action(s, p))
    assert s.winner == 1
