"""Petitions, challenges in serial, withdrawal, face-down bids, the Challenger chart, heathens."""

from __future__ import annotations

from typing import Any

import pytest

from rules.engine import IllegalAction, NotYourTurn
from rules.petition import ENGINE
from rules.petition.battle import judge
from rules.petition.state import PetitionState

from .helpers import (
    act,
    cid,
    citizens,
    everyone_passes,
    labels,
    make,
    pass_turn,
    pick,
    prompt,
    public_text,
    unchallenged_favour,
)

ART = citizens("art")
WAR = citizens("war")


def petitioned(hands: list[list[str]], beads: list[int], offer: int = 2, **opts: Any) -> PetitionState:
    s = make(len(hands), hands=hands, beads=beads, **opts)
    s, _ = act(s, 0, {"type": "petition", "god": "art"})
    s, _ = act(s, 0, {"type": "offer", "beads": offer})
    return s


def test_petition_needs_two_beads_and_offers_up_to_what_is_held() -> None:
    s = make(3, hands=[[], [], []], beads=[1, 0, 0])
    assert not any(lab.startswith("Petition") for lab in labels(prompt(s, 0)))
    s = make(3, hands=[[], [], []], beads=[4, 0, 0])
    assert "Petition Ellari (Art)" in labels(prompt(s, 0))
    s, _ = act(s, 0, {"type": "petition", "god": "art"})
    assert labels(prompt(s, 0)) == ["Offer 2 beads", "Offer 3 beads", "Offer 4 beads"]


def test_unchallenged_petition_gives_plus_three_for_one_more_round() -> None:
    s = make(3, hands=[[], [], []], beads=[3, 0, 0])
    temple = s.temple
    s = unchallenged_favour(s, 0, "art")
    g = s.gods["art"]
    assert (g.holder, g.bonus, g.lock) == (0, 3, None)
    assert s.seats[0].beads == 1 and s.temple == temple + 2  # the beads go to the temple
    assert s.turn_seat == 1
    assert "Petition Ellari (Art)" not in labels(prompt(s, 1))  # the god card is taken
    s = pass_turn(s)
    s = pass_turn(s)
    assert s.gods["art"].holder == 0  # still held through the others' turns
    assert any(lab.startswith("Attack") for lab in labels(prompt(s, 0)))
    s = pass_turn(s)  # P1 does not attack: the favour ends with its turn anyway
    assert s.gods["art"].holder is None


def test_every_other_player_is_asked_at_once_with_the_challenge_window() -> None:
    s = petitioned([[], [ART[1]], [ART[2]], []], [2, 3, 0, 1], challenge_window=7)
    ps = ENGINE.prompts(s)
    assert [p.seat for p in ps] == [1, 2, 3]
    assert {p.kind for p in ps} == {"challenge"} and all(p.deadline == 7 * 60 for p in ps)
    assert labels(ps[1]) == ["No challenge"]  # P3 holds no bead
    assert labels(ps[2]) == ["No challenge"]  # P4 holds no citizen of the god
    assert labels(ps[0]) == ["No challenge", "Challenge with 1 bead", "Challenge with 2 beads",
                             "Challenge with 3 beads"]
    assert ENGINE.timeout_action(s, ps[0]) == {"type": "challenge", "beads": 0}
    assert ps[0].timeout_note == "no challenge"


def test_withdrawing_loses_nothing_and_the_challenger_takes_plus_one() -> None:
    s = petitioned([[ART[0]], [ART[1]], []], [3, 2, 0])
    s, _ = act(s, 1, {"type": "challenge", "beads": 1})
    s, _ = act(s, 2, {"type": "challenge", "beads": 0})
    assert prompt(s, 0).kind == "respond"
    s, _ = act(s, 0, {"type": "withdraw"})
    assert s.seats[0].beads == 3  # not even the beads are lost
    assert s.seats[1].beads == 1  # the counter-offer went to the temple
    g = s.gods["art"]
    assert (g.holder, g.bonus) == (1, 1)
    assert s.turn_seat == 1


def test_face_down_bids_are_secret_until_both_are_in() -> None:
    s = petitioned([[ART[0], ART[2]], [ART[1]], []], [3, 2, 0])
    s, _ = act(s, 1, {"type": "challenge", "beads": 2})
    s, _ = act(s, 2, {"type": "challenge", "beads": 0})
    s, _ = act(s, 0, {"type": "meet"})
    ps = ENGINE.prompts(s)
    assert [(p.seat, p.kind, p.secret, p.free_form) for p in ps] == [(0, "bid", True, "cards"),
                                                                     (1, "bid", True, "cards")]
    assert ps[0].params["purpose"] == "bid" and ps[0].params["min"] == 1
    assert {c["id"] for c in ps[0].params["cards"]} == {ART[0], ART[2]}
    s, ev = pick(s, 0, [ART[0], ART[2]])
    assert ART[0] not in public_text(ev) and "Master Fresco" not in public_text(ev)
    assert ART[0] not in str(ENGINE.view(s, 1)) and ART[0] not in str(ENGINE.view(s, None))
    with pytest.raises(IllegalAction):
        pick(s, 1, [ART[0]])  # not its card
    s, ev = pick(s, 1, [ART[1]])
    rev = [e for e in ev if e.kind == "reveal_bids"]
    assert rev and "Master Fresco Painter" in rev[0].text
    # 2 beads + 2 citizens against 2 beads + 1: the petitioner leads in both → +3
    assert (s.gods["art"].holder, s.gods["art"].bonus) == (0, 3)
    assert sorted(s.seats[1].hand) == [ART[1]]  # the loser's citizen goes back to hand


def test_several_challengers_are_resolved_in_serial_each_winner_facing_the_next() -> None:
    s = petitioned([[ART[0]], [ART[1], ART[2], ART[3]], [ART[4]]], [2, 3, 3], offer=2)
    s, _ = act(s, 1, {"type": "challenge", "beads": 1})
    s, _ = act(s, 2, {"type": "challenge", "beads": 3})
    s, _ = act(s, 0, {"type": "meet"})
    s, _ = pick(s, 0, [ART[0]])
    s, _ = pick(s, 1, [ART[1], ART[2], ART[3]])  # 1 + 3 = 4 beats 2 + 1 = 3, with fewer beads: lock
    assert s.petition is not None and s.petition.holder is not None and s.petition.holder.seat == 1
    assert prompt(s, 1).kind == "respond"  # the winner faces P3 next
    s, _ = act(s, 1, {"type": "meet"})
    p = prompt(s, 1)
    assert p.params["min"] == 0 and p.params["cards"] == []  # its bid still stands on the table
    s, _ = pick(s, 1, [])
    s, _ = pick(s, 2, [ART[4]])  # 3 + 1 = 4 against 1 + 3 = 4: the tie goes to more citizens
    g = s.gods["art"]
    assert g.holder == 1 and g.bonus == 1 and sorted(g.lock or []) == sorted([ART[1], ART[2], ART[3]])
    assert not set(g.lock or []) & set(s.seats[1].hand)
    assert s.seats[0].beads == 0 and s.seats[2].beads == 0  # every offer went to the gods
    assert s.turn_seat == 1


@pytest.mark.parametrize(("holder", "challenger", "holder_wins", "bonus", "lock"), [
    ((2, 1), (1, 1), True, 3, False),    # leads in beads, equal citizens
    ((3, 1), (1, 2), True, 1, False),    # more devotion on faith alone
    ((2, 1), (1, 3), False, 1, True),    # the challenger wins on action: locked
    ((2, 2), (3, 1), True, 1, True),     # equal devotion, more citizens, fewer beads
    ((2, 1), (2, 1), True, 3, False),    # a perfect tie stays with the holder
    ((2, 1), (4, 2), False, 3, False),   # the challenger leads in both
])
def test_the_challenger_chart(holder: tuple[int, int], challenger: tuple[int, int], holder_wins: bool,
                              bonus: int, lock: bool) -> None:
    v = judge(holder, challenger)
    assert (v.holder_wins, v.bonus, v.lock) == (holder_wins, bonus, lock)


def test_a_godless_heathen_pays_one_bead_cannot_be_challenged_and_may_attack_next_turn() -> None:
    s = make(2, hands=[[WAR[0]], []], beads=[1, 0])
    s, ev = act(s, 0, {"type": "heathen"})
    assert s.seats[0].beads == 0 and s.seats[0].heathen_since == 1
    assert [p.kind for p in ENGINE.prompts(s)] == ["turn"] and s.turn_seat == 1  # nobody challenges
    s = pass_turn(s)
    attacks = [c for c in prompt(s, 0).choices if c.action["type"] == "attack"]
    assert len(attacks) == 4
    s, ev = act(s, 0, {"type": "attack", "seat": 1, "pillar": "war"})
    assert s.campaign is not None and s.campaign.attack_bonus == 0 and s.campaign.licence is None


def test_no_petition_or_heathen_while_holding_a_favour() -> None:
    s = make(2, hands=[[], []], beads=[5, 0])
    s = unchallenged_favour(s, 0, "art")
    s = pass_turn(s)
    labs = labels(prompt(s, 0))
    assert not any(lab.startswith("Petition") or "heathen" in lab for lab in labs)


def test_an_appeal_needs_citizens_who_serve_the_god() -> None:
    """Rulebook: each petitioner places "1 or more citizens (not powerups) who serve that god".
    A player holding none cannot challenge, a holder holding none can only withdraw, and every
    bid lays at least one."""
    s = petitioned([[WAR[0]], [WAR[1]], [ART[1], cid("Rally the Militia")]], [3, 3, 3])
    ps = {p.seat: p for p in ENGINE.prompts(s)}
    assert labels(ps[1]) == ["No challenge"]
    assert "you hold none" in ps[1].text
    with pytest.raises(IllegalAction):
        act(s, 1, {"type": "challenge", "beads": 1})
    assert "Challenge with 3 beads" in labels(ps[2])
    s, _ = act(s, 1, {"type": "challenge", "beads": 0})
    s, _ = act(s, 2, {"type": "challenge", "beads": 1})
    p = prompt(s, 0)
    assert p.kind == "respond" and labels(p) == ["Withdraw"]  # P1 holds no Art citizen
    s2 = petitioned([[ART[0]], [ART[1], ART[2]]], [3, 3])
    s2, _ = act(s2, 1, {"type": "challenge", "beads": 1})
    s2, _ = act(s2, 0, {"type": "meet"})
    for seat in (0, 1):
        bid = prompt(s2, seat)
        assert bid.params["min"] == 1 and not bid.params["can_pass"]
        with pytest.raises(IllegalAction):
            pick(s2, seat, [])


def test_revision_1_a_seat_without_citizens_of_the_god_bids_its_beads_alone() -> None:
    s = petitioned([[ART[0]], [WAR[0]]], [3, 3], rules=1)
    s, _ = act(s, 1, {"type": "challenge", "beads": 3})
    s, _ = act(s, 0, {"type": "meet"})
    p = prompt(s, 1)
    assert p.params["min"] == 0 and p.params["cards"] == [] and p.params["can_pass"]
    s, _ = pick(s, 1, [])
    s, _ = pick(s, 0, [ART[0]])
    # 2 + 1 = 3 against 3 + 0 = 3: equal devotion, more citizens → the petitioner, with fewer beads
    g = s.gods["art"]
    assert g.holder == 0 and g.bonus == 1 and g.lock == [ART[0]]


def test_everyone_passing_to_a_challenge_counts_once_each() -> None:
    s = petitioned([[], [], []], [2, 1, 1])
    s, _ = act(s, 1, {"type": "challenge", "beads": 0})
    with pytest.raises(NotYourTurn):
        act(s, 1, {"type": "challenge", "beads": 1})
    s = everyone_passes(s, [2])
    assert s.gods["art"].holder == 0
