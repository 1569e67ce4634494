"""Campaigns: face-down cards, surrender, battle rounds, the tally, locks, fortify or stash, the end."""

from __future__ import annotations

from typing import Any

import pytest

from rules.engine import IllegalAction
from rules.petition import ENGINE
from rules.petition.battle import tally
from rules.petition.content import PILLAR_STAND
from rules.petition.state import PetitionState, PillarRef

from .helpers import act, cid, labels, make, pick, prompt, public_text

WARLORD, SHIELD, SIEGE = cid("Warlord"), cid("Shieldmaiden"), cid("Siege Engineer")
SCOUT = cid("Border Scout")            # 2 War
CRIER = cid("Market Crier")            # 1 Economy, 2 War
ARCHMAGE = cid("Archmage of the Spire")  # 4 Magic
TREASURER = cid("Grand Treasurer")     # 4 Economy
MONEYCHANGER = cid("Moneychanger")     # 1 Economy, 2 Magic
WRATH, RALLY, BARRICADE, CURSE = cid("Wrath of Heaven"), cid("Rally the Militia"), cid("Barricade"), \
    cid("Curse of Doubt")


def heathen_attack(hands: list[list[str]], pillar: str = "war", defender: int = 1, **opts: Any) -> PetitionState:
    """P1 (a heathen since before this turn) attacks ``defender``'s ``pillar``."""
    s = make(len(hands), hands=hands, beads=[0] * len(hands), **opts)
    s.seats[0].heathen_since = 0
    s, _ = act(s, 0, {"type": "attack", "seat": defender, "pillar": pillar})
    return s


def favoured(s: PetitionState, seat: int, god: str, bonus: int = 3, lock: list[str] | None = None) -> None:
    g = s.gods[god]
    g.holder, g.bonus, g.lock, g.since = seat, bonus, lock, 0


def test_attack_needs_a_favour_or_a_heathens_licence() -> None:
    s = make(2, hands=[[WARLORD], []], beads=[0, 0])
    assert not any(c.action["type"] == "attack" for c in prompt(s, 0).choices)
    with pytest.raises(IllegalAction):
        act(s, 0, {"type": "attack", "seat": 1, "pillar": "war"})


def test_both_sides_lay_cards_face_down_at_once_and_nothing_leaks_before_the_reveal() -> None:
    s = heathen_attack([[WARLORD, SCOUT, ARCHMAGE], [SHIELD, TREASURER]])
    ps = ENGINE.prompts(s)
    assert [(p.seat, p.kind, p.secret) for p in ps] == [(0, "attack", True), (1, "defend", True)]
    assert {c["id"] for c in ps[0].params["cards"]} == {WARLORD, SCOUT}  # only cards worth War
    assert ps[1].params["min"] == 0 and ps[1].params["can_pass"]
    s, ev = pick(s, 0, [WARLORD])
    assert "Warlord" not in public_text(ev) and WARLORD not in str(ENGINE.view(s, 1))
    assert ENGINE.view(s, None)["campaign"]["attack_count"] == 1
    s, ev = pick(s, 1, [SHIELD])
    assert "Warlord" in public_text(ev) and "Shieldmaiden" in public_text(ev)
    assert s.campaign is not None and s.campaign.stage == "battle"
    assert prompt(s, 0).kind == "reinforce"


def test_surrender_costs_no_citizens_but_the_attacker_loses_its_cards() -> None:
    s = heathen_attack([[WARLORD, SCOUT], [SHIELD]])
    s, _ = pick(s, 0, [WARLORD, SCOUT])
    s, ev = pick(s, 1, [])
    assert any(e.kind == "surrender" for e in ev)
    assert s.seats[1].hand == [SHIELD]
    assert {WARLORD, SCOUT} <= set(s.discard)
    assert s.seats[1].pillars["war"].captured_by == 0
    assert prompt(s, 0).kind == "place"


def test_battle_rounds_alternate_until_both_pass_in_a_row() -> None:
    s = heathen_attack([[WARLORD, SCOUT, RALLY, CRIER], [SHIELD, SIEGE]])
    s, _ = pick(s, 0, [WARLORD])
    s, _ = pick(s, 1, [SHIELD])           # 4 against 3
    assert prompt(s, 0).params["purpose"] == "reinforce"
    s, _ = pick(s, 0, [])                 # the attacker passes
    s, _ = pick(s, 1, [SIEGE])            # the defender adds, so the battle goes on
    s, ev = pick(s, 0, [SCOUT, RALLY, CRIER])  # 4 + 2 + 2 + 2 = 10 against 6
    s, _ = pick(s, 1, [])
    s, ev = pick(s, 0, [])
    assert any(e.kind == "captured" for e in ev)
    c_totals = [e.data for e in ev if e.kind == "captured"][0]
    assert (c_totals["attack"], c_totals["defend"]) == (10, 6)
    assert {WARLORD, SCOUT, RALLY, CRIER, SHIELD, SIEGE} <= set(s.discard)  # cards used are discarded


def test_a_tie_holds_the_pillar() -> None:
    s = heathen_attack([[SHIELD], [SIEGE]])
    s, _ = pick(s, 0, [SHIELD])
    s, _ = pick(s, 1, [SIEGE])            # 3 against 3
    s, _ = pick(s, 0, [])
    s, ev = pick(s, 1, [])
    assert any(e.kind == "held" for e in ev) and s.seats[1].pillars["war"].active
    assert s.turn_seat == 1 and s.phase == "turn"


def test_revision_1_god_bonus_counts_for_the_attacker_and_the_favour_returns_after_the_battle() -> None:
    s = make(2, hands=[[SHIELD, SCOUT], [WARLORD]], beads=[0, 0], rules=1)
    favoured(s, 0, "war", 3)
    s, _ = act(s, 0, {"type": "attack", "seat": 1, "pillar": "war"})
    assert s.campaign is not None and s.campaign.attack_bonus == 3
    s, _ = pick(s, 0, [SHIELD, SCOUT])
    s, _ = pick(s, 1, [WARLORD])          # 3 + 2 + 3 against 4 + 3
    s, _ = pick(s, 0, [])
    s, ev = pick(s, 1, [])
    assert s.seats[1].pillars["war"].captured_by == 0
    assert s.gods["war"].holder is None


def test_a_defender_holding_the_pillars_god_adds_its_bonus() -> None:
    s = make(2, hands=[[WARLORD], [SHIELD]], beads=[0, 0])
    s.seats[0].heathen_since = 0
    favoured(s, 1, "war", 1)
    s, _ = act(s, 0, {"type": "attack", "seat": 1, "pillar": "war"})
    assert s.campaign is not None and s.campaign.defend_bonus == 1
    s, _ = pick(s, 0, [WARLORD])
    s, _ = pick(s, 1, [SHIELD])           # 4 against 3 + 1: it holds
    s, _ = pick(s, 0, [])
    s, ev = pick(s, 1, [])
    assert s.seats[1].pillars["war"].active


def test_powerups_needing_favour_are_offered_only_with_favour() -> None:
    s = heathen_attack([[WARLORD, WRATH, RALLY], [BARRICADE, SHIELD]])
    ids = {c["id"] for c in prompt(s, 0).params["cards"]}
    assert ids == {WARLORD, RALLY}        # a heathen has no favour for Wrath of Heaven
    assert {c["id"] for c in prompt(s, 1).params["cards"]} == {BARRICADE, SHIELD}


def test_a_card_lock_limits_the_battle_to_the_bid_citizens_plus_powerups() -> None:
    s = make(2, hands=[[SCOUT, WRATH], [SHIELD]], beads=[0, 0])
    favoured(s, 0, "war", 1, lock=[WARLORD, SIEGE])
    s, ev = act(s, 0, {"type": "attack", "seat": 1, "pillar": "war"})
    assert s.campaign is not None and s.campaign.attack_locked and s.campaign.attack == [WARLORD, SIEGE]
    assert [p.seat for p in ENGINE.prompts(s)] == [1]  # the locked attacker's cards are on the table
    s, _ = pick(s, 1, [SHIELD])
    ids = {c["id"] for c in prompt(s, 0).params["cards"]}
    assert ids == {WRATH}                 # no more citizens, but powerups work even when locked
    s, _ = pick(s, 0, [WRATH])
    assert s.campaign is not None
    assert s.campaign.attack == [WARLORD, SIEGE, WRATH]


def test_fortification_adds_one_and_lets_its_kind_defend() -> None:
    """The rulebook's example: Magic fortified with Economy may be defended with Magic or Economy
    citizens, with +1."""
    t = tally([ARCHMAGE], [TREASURER], "magic", attack_bonus=0, defend_bonus=0, fortification="economy")
    assert (t.attack, t.defend) == (4, 4 + 1) and not t.attacker_wins
    t = tally([ARCHMAGE], [TREASURER], "magic", attack_bonus=0, defend_bonus=0, fortification=None)
    assert (t.attack, t.defend) == (4, 0) and t.attacker_wins
    # a citizen with points in both counts the better of the two, not both
    t = tally([], [MONEYCHANGER], "magic", attack_bonus=0, defend_bonus=0, fortification="economy")
    assert t.defend == 2 + 1
    s = make(2, hands=[[ARCHMAGE], [TREASURER, cid("Salt Merchant")]], beads=[0, 0])
    s.seats[1].pillars["magic"].fortification = PillarRef(0, "economy")
    s.seats[0].pillars["economy"].captured_by = 1
    s.seats[0].heathen_since = 0
    s, _ = act(s, 0, {"type": "attack", "seat": 1, "pillar": "magic"})
    assert {c["id"] for c in prompt(s, 1).params["cards"]} == {TREASURER, cid("Salt Merchant")}


def test_weakening_and_per_citizen_powerups() -> None:
    hymn = cid("Zealots' Hymn")
    t = tally([WARLORD, SCOUT, hymn], [SHIELD, CURSE], "war", attack_bonus=0, defend_bonus=0,
              fortification=None)
    assert (t.attack, t.defend) == (4 + 2 + 2 - 2, 3)


def capture_setup(**opts: Any) -> PetitionState:
    s = heathen_attack([[WARLORD], []], **opts)
    s, _ = pick(s, 0, [WARLORD])
    s, _ = pick(s, 1, [])
    return s


def test_fortify_or_stash_the_captured_pillar() -> None:
    s = capture_setup()
    p = prompt(s, 0)
    assert labels(p) == ["Fortify your Art with it", "Fortify your Economy with it",
                         "Fortify your Magic with it", "Fortify your War with it", "Set it aside"]
    s2, _ = act(s, 0, {"type": "fortify", "pillar": "magic"})
    assert s2.seats[0].pillars["magic"].fortification == PillarRef(1, "war")
    assert s2.turn_seat == 1
    s3, _ = act(s, 0, {"type": "stash"})
    assert s3.seats[0].stash == [PillarRef(1, "war")]


def test_one_fortification_per_pillar_and_a_captured_pillar_takes_its_fortification_along() -> None:
    s = make(3, hands=[[WARLORD], [], []], beads=[0, 0, 0])
    s.seats[1].pillars["war"].fortification = PillarRef(2, "art")
    s.seats[2].pillars["art"].captured_by = 1
    s.seats[0].pillars["art"].fortification = PillarRef(2, "magic")
    s.seats[2].pillars["magic"].captured_by = 0
    s.seats[0].heathen_since = 0
    s, _ = act(s, 0, {"type": "attack", "seat": 1, "pillar": "war"})
    s, _ = pick(s, 0, [WARLORD])
    s, ev = pick(s, 1, [])
    assert s.placing == [PillarRef(1, "war"), PillarRef(2, "art")]
    assert s.seats[2].pillars["art"].captured_by == 0
    assert "Fortify your Art with it" not in labels(prompt(s, 0))  # already fortified
    s, _ = act(s, 0, {"type": "stash"})
    s, _ = act(s, 0, {"type": "fortify", "pillar": "war"})
    assert len(s.seats[0].captured()) == 3


def test_the_game_ends_when_a_player_has_no_active_pillar() -> None:
    s = make(3, hands=[[WARLORD], [], []], beads=[0, 0, 0])
    for k in ("art", "economy", "magic"):
        s.seats[1].pillars[k].captured_by = 2
        s.seats[2].stash.append(PillarRef(1, k))
    s.seats[0].heathen_since = 0
    s, _ = act(s, 0, {"type": "attack", "seat": 1, "pillar": "war"})
    s, _ = pick(s, 0, [WARLORD])
    s, _ = pick(s, 1, [])
    s, ev = act(s, 0, {"type": "stash"})
    r = ENGINE.result(s)
    assert r is not None and r.winners == (2,) and r.scores == {0: 1.0, 1: 0.0, 2: 3.0}
    assert "most captured pillars" in r.reason


def test_tie_breaks_captured_plus_surviving_then_beads() -> None:
    s = make(3, hands=[[], [], []], beads=[0, 0, 4])
    s.seats[0].stash = [PillarRef(1, "art")]
    s.seats[1].pillars["art"].captured_by = 0
    s.seats[2].stash = [PillarRef(1, "war")]
    s.seats[1].pillars["war"].captured_by = 2
    s.seats[2].pillars["magic"].captured_by = 1
    s.seats[1].stash = [PillarRef(2, "magic")]
    s.phase, s.over_reason = "over", "test"
    r = ENGINE.result(s)
    assert r is not None and r.winners == (0,)  # 1 captured each; P1 has 4 surviving, P3 3
    s.seats[2].pillars["magic"].captured_by = None
    s.seats[1].stash = []
    r = ENGINE.result(s)
    assert r is not None and r.winners == (2,) and "beads" in r.reason


def test_winner_takes_all_the_defender_takes_the_attackers_pillar() -> None:
    s = heathen_attack([[SCOUT], [WARLORD]], winner_takes_all=True)
    s, _ = pick(s, 0, [SCOUT])
    s, _ = pick(s, 1, [WARLORD])
    s, _ = pick(s, 0, [])
    s, ev = pick(s, 1, [])
    assert s.seats[0].pillars["war"].captured_by == 1
    assert prompt(s, 1).kind == "place"
    s, _ = act(s, 1, {"type": "stash"})
    assert s.seats[1].stash == [PillarRef(0, "war")] and s.turn_seat == 1


def test_winner_takes_all_any_pillar_when_the_same_one_is_gone() -> None:
    s = make(2, hands=[[SCOUT], [WARLORD]], beads=[0, 0], winner_takes_all=True)
    s.seats[0].pillars["war"].captured_by = 1
    s.seats[1].stash = [PillarRef(0, "war")]
    s.seats[0].heathen_since = 0
    s, _ = act(s, 0, {"type": "attack", "seat": 1, "pillar": "war"})
    s, _ = pick(s, 0, [SCOUT])
    s, _ = pick(s, 1, [WARLORD])
    s, _ = pick(s, 0, [])
    s, _ = pick(s, 1, [])
    p = prompt(s, 1)
    assert p.kind == "claim" and labels(p) == ["Take P1's Art", "Take P1's Economy", "Take P1's Magic"]
    s, _ = act(s, 1, {"type": "claim", "pillar": "magic"})
    assert s.seats[0].pillars["magic"].captured_by == 1


def test_last_man_standing_plays_on_and_skips_the_fallen() -> None:
    s = make(3, hands=[[WARLORD], [], []], beads=[0, 0, 0], last_man_standing=True)
    for k in ("art", "economy", "magic"):
        s.seats[1].pillars[k].captured_by = 2
        s.seats[2].stash.append(PillarRef(1, k))
    s.seats[0].heathen_since = 0
    s, _ = act(s, 0, {"type": "attack", "seat": 1, "pillar": "war"})
    s, _ = pick(s, 0, [WARLORD])
    s, _ = pick(s, 1, [])
    s, _ = act(s, 0, {"type": "stash"})
    assert ENGINE.result(s) is None
    assert s.turn_seat == 2  # P2 has fallen: its turns are skipped
    asked = [p.seat for p in ENGINE.prompts(s)]
    assert asked == [2]


def test_a_citizen_counts_only_its_points_in_the_contested_pillar() -> None:
    """The rulebook's card illustration: one card may carry points in several pillars (here
    Pedlar: 1 Economy, 1 Magic, 1 War); in a battle only the contested pillar's points count."""
    pedlar = cid("Pedlar")
    for pillar, points in (("economy", 1), ("magic", 1), ("war", 1), ("art", 0)):
        assert tally([pedlar], [], pillar, attack_bonus=0, defend_bonus=0, fortification=None).attack == points
    assert tally([cid("Market Crier")], [], "war", attack_bonus=0, defend_bonus=0,
                 fortification=None).attack == 2


def test_last_man_standing_ends_when_one_culture_is_left() -> None:
    s = make(2, hands=[[WARLORD], []], beads=[0, 0], last_man_standing=True)
    for k in ("art", "economy", "magic"):
        s.seats[1].pillars[k].captured_by = 0
        s.seats[0].stash.append(PillarRef(1, k))
    s.seats[0].heathen_since = 0
    s, _ = act(s, 0, {"type": "attack", "seat": 1, "pillar": "war"})
    s, _ = pick(s, 0, [WARLORD])
    s, _ = pick(s, 1, [])
    s, _ = act(s, 0, {"type": "stash"})
    r = ENGINE.result(s)
    assert r is not None and r.winners == (0,) and "only one culture" in r.reason


def test_revision_1_a_favour_held_for_defence_is_spent_by_the_battle() -> None:
    s = make(2, hands=[[WARLORD, SIEGE, CRIER], [SCOUT]], beads=[0, 0], rules=1)
    s.seats[0].heathen_since = 0
    favoured(s, 1, "war", 3)
    s, _ = act(s, 0, {"type": "attack", "seat": 1, "pillar": "war"})
    s, _ = pick(s, 0, [WARLORD, SIEGE, CRIER])
    s, _ = pick(s, 1, [SCOUT])            # 9 against 2 + 3 + the stand of 3
    s, _ = pick(s, 0, [])
    s, ev = pick(s, 1, [])
    assert s.seats[1].pillars["war"].captured_by == 0
    assert s.gods["war"].holder is None


def test_recapturing_your_own_pillar_as_a_fortification_restores_it() -> None:
    """P2 took P1's Art and fortified its War with it; P1 takes P2's War and with it its own Art,
    which stands again in front of P1 — never "captured by" P1 in P1's own stash."""
    s = make(3, hands=[[WARLORD], [], []], beads=[0, 0, 0])
    s.seats[0].pillars["art"].captured_by = 1
    s.seats[1].pillars["war"].fortification = PillarRef(0, "art")
    s.seats[0].heathen_since = 0
    s, _ = act(s, 0, {"type": "attack", "seat": 1, "pillar": "war"})
    s, _ = pick(s, 0, [WARLORD])
    s, ev = pick(s, 1, [])
    assert s.seats[0].pillars["art"].active and s.seats[0].pillars["art"].captured_by is None
    assert s.placing == [PillarRef(1, "war")]
    assert "P1 takes back their own Art pillar" in public_text(ev)
    s, _ = act(s, 0, {"type": "stash"})
    assert s.seats[0].stash == [PillarRef(1, "war")]
    assert PillarRef(0, "art") not in s.seats[0].captured()
    view = ENGINE.view(s, None)
    art = next(q for q in view["seats"][0]["pillars"] if q["kind"] == "art")
    assert art["active"] and art["captured_by"] is None
    assert sorted(ENGINE.view(s, None)["seats"][0]["stash"], key=str) == [{"owner": 1, "kind": "war"}]


def test_winner_takes_all_takes_back_your_own_pillar_from_a_fortification() -> None:
    """The same through winner takes all: the defender takes the attacker's War, which was
    fortified with the defender's own Magic — Magic stands again for its owner."""
    s = make(2, hands=[[SCOUT], [WARLORD]], beads=[0, 0], winner_takes_all=True)
    s.seats[1].pillars["magic"].captured_by = 0
    s.seats[0].pillars["war"].fortification = PillarRef(1, "magic")
    s.seats[0].heathen_since = 0
    s, _ = act(s, 0, {"type": "attack", "seat": 1, "pillar": "war"})
    s, _ = pick(s, 0, [SCOUT])
    s, _ = pick(s, 1, [WARLORD])
    s, _ = pick(s, 0, [])
    s, _ = pick(s, 1, [])
    assert s.seats[1].pillars["magic"].active
    assert s.placing == [PillarRef(0, "war")]


def test_the_pillar_stand_option_counts_only_for_a_defender_that_lays_cards() -> None:
    """Herald's ``pillar_stand`` table option adds the pillar's stand to a defence, not to a
    surrender: an empty defence gives the pillar up, and a single card brings the stand with it."""
    assert tally([SCOUT], [], "war", attack_bonus=0, defend_bonus=0, fortification=None).defend == 0
    t = tally([WARLORD], [cid("Militia Recruit")], "war", attack_bonus=0, defend_bonus=0,
              fortification=None, stand=PILLAR_STAND)
    assert (t.attack, t.defend) == (4, 1 + PILLAR_STAND) and not t.attacker_wins
    s = heathen_attack([[WARLORD], [cid("Militia Recruit")]], pillar_stand=True)
    s, _ = pick(s, 0, [WARLORD])
    s, _ = pick(s, 1, [cid("Militia Recruit")])
    s, _ = pick(s, 0, [])
    s, ev = pick(s, 1, [])
    assert any(e.kind == "held" for e in ev) and s.seats[1].pillars["war"].active
