"""Rules revision 2: where the rulebook is explicit, Herald's default game follows it (issue 24's
points for Petition that are not already covered beside their neighbours: the solo game's win
and loss in ``test_solo.py``, an appeal's citizens in ``test_petition.py``, old games in
``test_legacy_games.py``)."""

from __future__ import annotations

import random

import pytest

from rules.engine import IllegalAction
from rules.petition import ENGINE
from rules.petition.content import BEADS_DEFAULT, HAND_LIMIT
from rules.petition.state import PetitionState

from .helpers import act, cid, citizens, labels, make, pass_turn, pick, prompt

WARLORD, SHIELD, SIEGE = cid("Warlord"), cid("Shieldmaiden"), cid("Siege Engineer")
SCOUT, RECRUIT = cid("Border Scout"), cid("Militia Recruit")
POET, PAINTER = cid("Court Poet"), cid("Master Fresco Painter")
RALLY = cid("Rally the Militia")


def favoured(s: PetitionState, seat: int, god: str, bonus: int = 3, lock: list[str] | None = None,
             since: int = 0) -> None:
    g = s.gods[god]
    g.holder, g.bonus, g.lock, g.since = seat, bonus, lock, since


def test_a_favour_used_in_defence_lasts_one_more_round() -> None:
    """Rulebook: the favour is held "for one more round" and the god returns "no matter what" at
    the end of it — a battle fought with it in between does not send it back early."""
    s = make(2, hands=[[WARLORD, SIEGE], [SHIELD, SCOUT]], beads=[0, 0])
    s.seats[0].heathen_since = 0
    favoured(s, 1, "war", 3, since=s.turn)  # P2 won it during this turn (a challenge)
    s, _ = act(s, 0, {"type": "attack", "seat": 1, "pillar": "war"})
    s, _ = pick(s, 0, [WARLORD, SIEGE])
    s, _ = pick(s, 1, [SHIELD])           # 7 against 3 + 3
    s, _ = pick(s, 0, [])
    s, _ = pick(s, 1, [SCOUT])            # 7 against 8
    s, _ = pick(s, 0, [])
    s, ev = pick(s, 1, [])
    assert any(e.kind == "held" for e in ev)
    assert s.gods["war"].holder == 1 and s.turn_seat == 1  # still P2's, on P2's own turn
    assert any(lab.startswith("Attack") for lab in labels(prompt(s, 1)))
    s = pass_turn(s)                      # P2 does not attack: the god returns anyway
    assert s.gods["war"].holder is None


def test_an_attackers_favour_returns_when_its_next_turn_ends() -> None:
    s = make(2, hands=[[WARLORD], [SHIELD]], beads=[0, 0])
    favoured(s, 0, "war", 3)
    s, _ = act(s, 0, {"type": "attack", "seat": 1, "pillar": "war"})
    s, _ = pick(s, 0, [WARLORD])
    s, _ = pick(s, 1, [])                 # a surrender
    assert s.phase == "place" and s.gods["war"].holder == 0  # held until the turn ends
    s, _ = act(s, 0, {"type": "stash"})
    assert s.gods["war"].holder is None and s.turn_seat == 1


def test_a_card_lock_binds_an_attack_on_any_pillar() -> None:
    """Rulebook: a card-locked player "can use only the cards used to appeal to the god in
    battle" — attacking another pillar does not escape the lock (nor bring the god's bonus)."""
    s = make(2, hands=[[POET, PAINTER, RALLY], [cid("Lyre Virtuoso")]], beads=[0, 0])
    favoured(s, 0, "war", 1, lock=[WARLORD, SIEGE])
    s, ev = act(s, 0, {"type": "attack", "seat": 1, "pillar": "art"})
    c = s.campaign
    assert c is not None and c.attack_locked and c.attack == [WARLORD, SIEGE] and c.attack_bonus == 0
    assert [p.seat for p in ENGINE.prompts(s)] == [1]  # its cards are already on the table
    s, _ = pick(s, 1, [cid("Lyre Virtuoso")])
    assert {x["id"] for x in prompt(s, 0).params["cards"]} == {RALLY}  # no Art citizen, a powerup
    with pytest.raises(IllegalAction):
        pick(s, 0, [POET])


def test_a_card_locked_defender_defends_with_its_locked_citizens_on_any_pillar() -> None:
    s = make(2, hands=[[POET, PAINTER], [cid("Lyre Virtuoso"), RALLY]], beads=[0, 0])
    s.seats[0].heathen_since = 0
    favoured(s, 1, "war", 1, lock=[cid("Armourer")])  # 2 Art, 1 War
    s, _ = act(s, 0, {"type": "attack", "seat": 1, "pillar": "art"})
    c = s.campaign
    assert c is not None and c.defend_locked and c.defend == [cid("Armourer")] and c.defend_bonus == 0
    assert {x["id"] for x in prompt(s, 1).params["cards"]} == {RALLY}


def test_revision_1_a_card_lock_binds_only_a_battle_over_its_gods_pillar() -> None:
    s = make(2, hands=[[POET, PAINTER], [cid("Lyre Virtuoso")]], beads=[0, 0], rules=1)
    favoured(s, 0, "war", 1, lock=[WARLORD, SIEGE])
    s, _ = act(s, 0, {"type": "attack", "seat": 1, "pillar": "art"})
    assert s.campaign is not None and not s.campaign.attack_locked
    assert {x["id"] for x in prompt(s, 0).params["cards"]} == {POET, PAINTER}


def _over_the_limit(rules: int = 2) -> PetitionState:
    """P1 holds 9 cards and a favour locked to three citizens, unused; it draws a tenth and ends
    its turn, so the god returns and the locked citizens come back to a full hand."""
    hand = citizens("art", None, 9)
    s = make(2, hands=[hand, []], beads=[1, 0], rules=rules)
    favoured(s, 0, "war", 1, lock=[WARLORD, SIEGE, SCOUT])
    s, _ = act(s, 0, {"type": "both"})
    s, _ = act(s, 0, {"type": "end"})
    return s


def test_citizens_coming_back_to_a_full_hand_are_discarded_down_to_ten() -> None:
    """Rulebook: the hand limit is 10 cards — also when locked or bid citizens come back."""
    s = _over_the_limit()
    assert s.gods["war"].holder is None and len(s.seats[0].hand) == HAND_LIMIT + 3
    ps = ENGINE.prompts(s)
    assert [(p.seat, p.kind) for p in ps] == [(0, "discard")]  # play waits for the discard
    p = ps[0]
    assert p.params["min"] == p.params["max"] == 3 and len(p.params["cards"]) == 13
    with pytest.raises(IllegalAction):
        pick(s, 0, s.seats[0].hand[:2])
    chosen = [WARLORD, s.seats[0].hand[0], s.seats[0].hand[1]]
    s2, ev = pick(s, 0, chosen)
    assert len(s2.seats[0].hand) == HAND_LIMIT and set(chosen) <= set(s2.discard)
    assert any(e.kind == "discard" and e.to is None for e in ev)
    assert [(q.seat, q.kind) for q in ENGINE.prompts(s2)] == [(1, "turn")]
    # at the deadline the computer player chooses which three go
    auto = ENGINE.timeout_action(s, p)
    s3, _ = ENGINE.apply(s, 0, auto)
    assert len(s3.seats[0].hand) == HAND_LIMIT


def test_revision_1_had_no_discard_down_to_the_hand_limit() -> None:
    s = _over_the_limit(rules=1)
    assert len(s.seats[0].hand) == HAND_LIMIT + 3 and prompt(s, 1).kind == "turn"


def test_with_nothing_to_gather_a_player_may_still_swap_or_buy() -> None:
    """Rulebook: the swap or the buy comes "additionally", for anyone holding a bead: a full hand
    with an empty temple still gets it."""
    hand = citizens("art", None, HAND_LIMIT)
    s = make(2, hands=[hand, []], beads=[1, 0])
    s.seats[1].beads += s.temple
    s.temple = 0
    p = prompt(s, 0)
    assert "Gather nothing" in labels(p) and not any("Draw" in lab for lab in labels(p))
    s, _ = act(s, 0, {"type": "pass"})
    assert s.phase == "extra" and any(c.action["type"] == "swap" for c in prompt(s, 0).choices)


def test_pillars_stand_only_with_the_pillar_stand_option() -> None:
    """The rulebook gives pillar cards no strength of their own: by default a defence is its
    cards; Herald's stand of 3 is the ``pillar_stand`` table option, off by default."""
    for opts, held in (({}, False), ({"pillar_stand": True}, True)):
        s = make(2, hands=[[SCOUT], [RECRUIT]], beads=[0, 0], **opts)
        s.seats[0].heathen_since = 0
        s, _ = act(s, 0, {"type": "attack", "seat": 1, "pillar": "war"})
        s, _ = pick(s, 0, [SCOUT])
        s, _ = pick(s, 1, [RECRUIT])      # 2 against 1 (+ 3 with the option)
        s, _ = pick(s, 0, [])
        s, ev = pick(s, 1, [])
        assert s.seats[1].pillars["war"].active is held


def test_the_default_bead_supply_is_inside_the_rulebooks_18_to_25() -> None:
    assert 18 <= BEADS_DEFAULT <= 25
    s = ENGINE.setup(3, 1)
    assert s.temple + sum(p.beads for p in s.seats) == BEADS_DEFAULT


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_computer_games_end_by_the_rules_not_the_round_limit(players: int) -> None:
    """The rulebook has no round limit: games between computer players end with a fallen
    culture (the safety limit stays as a table option, but seldom if ever decides)."""
    for seed in range(12):
        s = ENGINE.setup(players, 31 * seed + players)
        rng = random.Random(seed)
        while ENGINE.result(s) is None:
            p = ENGINE.prompts(s)[0]
            s, _ = ENGINE.apply(s, p.seat, ENGINE.bot_action(ENGINE.view(s, p.seat), p, rng))
        assert "round limit" not in s.over_reason, (players, seed)
