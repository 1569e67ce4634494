"""Reaction windows (defence, counter, Karma Reversed, The Prophet, Holy Rebirth): who is asked
depends on public information only, every asked seat gets the same prompt as seen from outside,
answers stay secret until the window resolves, one short deadline for all, and Holy Rebirth
comes before a reversal of stance."""

from __future__ import annotations

import random
from typing import Any

import pytest

from rules.engine import IllegalAction, InvalidOptions, Prompt
from rules.hegemony_of_faith import ENGINE
from rules.hegemony_of_faith.cards import btype
from rules.hegemony_of_faith.reactions import KINDS, NO_REACTION, PASS
from rules.hegemony_of_faith.state import State

from .helpers import (
    act,
    attack_frame,
    conserved,
    do,
    flock,
    graveyard,
    hand,
    names,
    prompt,
    prompts_of,
    table,
    types,
)


def outside(p: Prompt) -> tuple[Any, ...]:
    """What anybody but the asked seat can tell about a prompt."""
    return (p.kind, p.secret, p.free_form, p.timeout_note, p.deadline, dict(p.params))


def same_from_outside(s: State, seats: list[int], kind: str) -> list[Prompt]:
    """The prompts of ``seats`` (in seat order), checked to look alike from outside."""
    asked = [p for p in prompts_of(s) if p.seat in seats]
    assert [p.seat for p in asked] == sorted(seats)
    assert [outside(p) for p in asked] == [(kind, True, None, "no reaction", s.reaction_window, {})] * len(seats)
    return asked


def only_pass(p: Prompt) -> bool:
    return [c.label for c in p.choices] == [NO_REACTION] and p.choices[0].action == PASS[p.kind]


def bot_answer(s: State, p: Prompt) -> dict[str, Any]:
    return ENGINE.bot_action(ENGINE.view(s, p.seat), p, random.Random(5))


# ------------------------------------------------------------------------------------ defence

def _martyrdom_on_two_sects() -> State:
    """P1 plays Martyrdom; P2 (holding Great Mercy) leads P3 (holding another card); P4 holds
    nothing. Everybody has a believer."""
    s = table()
    hand(s, 0, "Martyrdom")
    hand(s, 1, "Great Mercy")
    hand(s, 2, "Have a Charity")
    for seat in range(4):
        flock(s, seat, 3)
    s.role[2], s.leader[2] = "follower", 1
    return s


def test_defence_asks_every_member_holding_a_card_the_same_way() -> None:
    s = do(_martyrdom_on_two_sects(), (0, {"type": "play", "card": "Martyrdom"}))
    holder, other = same_from_outside(s, [1, 2], "defend")
    assert 3 not in {p.seat for p in prompts_of(s)}  # no card at all: publicly unable to defend
    assert [c.label for c in holder.choices] == ["Play Great Mercy", NO_REACTION]
    assert only_pass(other) and "no Great Mercy" in other.text
    with pytest.raises(IllegalAction):
        act(s, 2, {"type": "defend", "use": True})


def test_a_defence_stays_secret_until_the_window_closes() -> None:
    s = do(_martyrdom_on_two_sects(), (0, {"type": "play", "card": "Martyrdom"}))
    used, ev_used = act(s, 1, {"type": "defend", "use": True})
    passed, ev_passed = act(s, 1, {"type": "defend", "use": False})
    assert ENGINE.view(used, None) == ENGINE.view(passed, None)
    assert ENGINE.view(used, 2) == ENGINE.view(passed, 2)
    assert [e for e in ev_used if e.to is None] == [e for e in ev_passed if e.to is None] == []
    assert [(p.seat, p.kind) for p in prompts_of(used)] == [(2, "defend")]
    s, ev = act(used, 2, {"type": "defend", "use": False})  # the last answer resolves the window
    assert any("P2 plays Great Mercy" in e.text for e in ev)
    assert names(s, 1) == [] and 1 not in attack_frame(s)["targets"]
    conserved(s)


def test_two_members_defending_spend_one_card_the_leaders() -> None:
    s = _martyrdom_on_two_sects()
    hand(s, 2, "Great Mercy")
    s = do(s, (0, {"type": "play", "card": "Martyrdom"}), (2, {"type": "defend", "use": True}),
           (1, {"type": "defend", "use": True}))
    assert names(s, 1) == [] and names(s, 2) == ["Great Mercy", "Have a Charity"]


def test_at_the_deadline_everyone_asked_passes() -> None:
    s = do(_martyrdom_on_two_sects(), (0, {"type": "play", "card": "Martyrdom"}))
    for p in prompts_of(s):
        assert ENGINE.timeout_action(s, p) == PASS[p.kind]
    for p in list(prompts_of(s)):
        s, _ = act(s, p.seat, ENGINE.timeout_action(s, p))
    assert names(s, 1) == ["Great Mercy"]  # nobody defended: the attack goes on
    assert [(p.seat, p.kind) for p in prompts_of(s)] == [(1, "designate")]


def test_the_computer_player_answers_whatever_it_holds() -> None:
    s = do(_martyrdom_on_two_sects(), (0, {"type": "play", "card": "Martyrdom"}))
    holder, other = prompt(s, 1), prompt(s, 2)
    assert bot_answer(s, holder) == {"type": "defend", "use": True}
    assert bot_answer(s, other) == PASS["defend"]


# ------------------------------------------------------------------------------------ counter

@pytest.mark.parametrize("card", ["Breaking Faith", "Firm Faith"])
def test_the_target_of_breaking_faith_is_asked_whenever_it_holds_a_card(card: str) -> None:
    s = table()
    flock(s, 0, 1)
    flock(s, 1, 2, 2, 2, 2, 2, 2)
    s.role[0], s.leader[0] = "follower", 1
    hand(s, 0, "Breaking Faith")
    hand(s, 1, card)
    s = do(s, (0, {"type": "play", "card": "Breaking Faith", "target": 1}))
    (p,) = same_from_outside(s, [1], "counter")
    assert only_pass(p) == (card != "Breaking Faith")
    assert bot_answer(s, p) == ({"type": "counter", "use": True} if card == "Breaking Faith" else PASS["counter"])
    s = do(s, (1, ENGINE.timeout_action(s, p)))  # the deadline passes: no counter, half is taken
    assert len(s.believers[0]) == 1 + 3 and names(s, 1) == [card]


def test_a_target_without_cards_is_not_asked_to_counter() -> None:
    s = table()
    flock(s, 0, 1)
    flock(s, 1, 2, 2)
    s.role[0], s.leader[0] = "follower", 1
    hand(s, 0, "Breaking Faith")
    s = do(s, (0, {"type": "play", "card": "Breaking Faith", "target": 1}))
    assert prompts_of(s)[0].kind == "turn" and s.role[0] == "leader"


# -------------------------------------------------------------------------------------- karma

def _war(skills: dict[int, str], revealed: tuple[int, ...] = ()) -> State:
    """P1 (a Prayer) wars on P2 (a Fool); P3 stands by."""
    s = table(skills=skills)
    for k in revealed:
        s.revealed[k] = True
    hand(s, 0, "Faith War")
    flock(s, 0, 2)
    flock(s, 1, 1)
    flock(s, 2, 4)
    return do(s, (0, {"type": "play", "card": "Faith War", "target": 1}))


def test_karma_asks_every_leader_taking_part_who_might_hold_it() -> None:
    s = _war({0: "Zombie Army", 1: "Karma Reversed", 2: "Headstronger"})
    attacker, target = same_from_outside(s, [0, 1], "karma")  # P3 takes no part
    assert only_pass(attacker) and [c.label for c in target.choices] == ["Reverse the outcomes", NO_REACTION]
    assert bot_answer(s, attacker) == PASS["karma"]


def test_a_revealed_other_skill_or_a_follower_is_not_asked_for_karma() -> None:
    s = table(skills={0: "Zombie Army", 1: "Karma Reversed", 2: "Headstronger"})
    s.revealed[0] = True
    hand(s, 0, "Faith War")
    flock(s, 0, 2)
    flock(s, 1, 1)
    flock(s, 2, 4)
    s.role[2], s.leader[2] = "follower", 1
    s = do(s, (0, {"type": "play", "card": "Faith War", "target": 1}), (1, {"type": "designate", "member": 1}))
    assert [(p.seat, p.kind) for p in prompts_of(s)] == [(1, "karma")]


def test_karma_answers_stay_secret_and_two_uses_cancel_out() -> None:
    s = _war({0: "Karma Reversed", 1: "Gate of Truth", 2: "Headstronger"}, revealed=(0,))
    used, ev = act(s, 0, {"type": "karma", "use": True})
    assert not [e for e in ev if e.to is None] and not used.uses[0]
    s = do(used, (1, {"type": "karma", "use": True}))
    assert attack_frame(s)["flips"] == 2 and s.uses[0] == 1 and s.gate[1] == "Karma Reversed"
    s = do(s, (0, {"type": "lineup", "order": [2]}), (1, {"type": "lineup", "order": [1]}))
    assert types(s, 1) == [] and len(s.believers[0]) == 2  # Prayer beats Fool, reversed twice


# ------------------------------------------------------------------------------------ prophet

def test_the_prophet_asks_every_other_leader_who_might_hold_it() -> None:
    s = table(skills={1: "Headstronger", 2: "The Prophet", 3: "Zombie Army"})
    hand(s, 0, "Have a Charity")
    first = s.believer_deck[-1]
    s = do(s, (0, {"type": "play", "card": "Have a Charity"}))
    asked = same_from_outside(s, [1, 2, 3], "prophet")
    assert [only_pass(p) for p in asked] == [True, False, True]
    assert [c.label for c in asked[1].choices][-1] == NO_REACTION and len(asked[1].choices) == 6
    s2, ev = act(s, 2, {"type": "predict", "believer": btype(first)})
    assert not [e for e in ev if e.to is None] and not s2.revealed[2]  # secret until all are in
    assert ENGINE.view(s2, None) == ENGINE.view(act(s, 2, PASS["prophet"])[0], None)
    s2 = do(s2, (1, PASS["prophet"]), (3, bot_answer(s2, prompt(s2, 3))))
    assert first in s2.believers[2] and s2.revealed[2] and len(s2.believers[0]) == 1


def test_nobody_unrevealed_is_asked_once_the_prophet_and_the_gate_are_shown() -> None:
    s = table(skills={1: "Headstronger", 2: "The Prophet", 3: "Gate of Truth"})
    s.revealed[2] = s.revealed[3] = True
    hand(s, 0, "Have a Charity")
    s = do(s, (0, {"type": "play", "card": "Have a Charity"}))
    assert sorted(p.seat for p in prompts_of(s)) == [2, 3]  # not P2: it cannot hold or copy it


# ------------------------------------------------------------------------------------ rebirth

def test_holy_rebirth_asks_whoever_lost_three_and_might_hold_it() -> None:
    s = table(skills={1: "Zombie Army"})
    hand(s, 0, "Witch Hunt")
    flock(s, 1, 4, 4, 4, 2)
    s = do(s, (0, {"type": "play", "card": "Witch Hunt", "target": 1, "believer": 4}))
    (p,) = same_from_outside(s, [1], "rebirth")
    assert only_pass(p) and bot_answer(s, p) == PASS["rebirth"]
    s = do(s, (1, PASS["rebirth"]))
    assert types(s, 1) == [2] and len(s.graveyard) == 3


def test_holy_rebirth_at_the_deadline_is_not_used() -> None:
    s = table(skills={1: "Holy Rebirth"})
    hand(s, 0, "Witch Hunt")
    flock(s, 1, 4, 4, 4, 2)
    s = do(s, (0, {"type": "play", "card": "Witch Hunt", "target": 1, "believer": 4}))
    p = prompt(s, 1)
    assert [c.label for c in p.choices] == ["Use Holy Rebirth", NO_REACTION]
    s = do(s, (1, ENGINE.timeout_action(s, p)))
    assert types(s, 1) == [2] and not s.revealed[1]


def _sect_about_to_lose_its_leaders_believers() -> State:
    """P2 leads P3 and holds exactly three Elders; P1 hunts Elders in that sect."""
    s = table(skills={1: "Holy Rebirth"})
    hand(s, 0, "Witch Hunt")
    flock(s, 1, 4, 4, 4)
    flock(s, 2, 2, 2)
    s.role[2], s.leader[2] = "follower", 1
    graveyard(s, 1)
    return do(s, (0, {"type": "play", "card": "Witch Hunt", "target": 1, "believer": 4}))


def test_holy_rebirth_comes_before_the_reversal_its_deaths_trigger() -> None:
    s = _sect_about_to_lose_its_leaders_believers()
    assert [(p.seat, p.kind) for p in prompts_of(s)] == [(1, "rebirth")]
    assert s.role[1] == "leader" and s.role[2] == "follower"  # no reversal yet
    s = do(s, (1, {"type": "rebirth", "use": True}))
    # three believers come back: the Leader keeps the sect, no reversal, no surrender
    assert len(s.believers[1]) == 3 and s.role[1] == "leader" and s.leader[2] == 1
    assert prompts_of(s)[0].kind == "turn" and s.revealed[1]
    conserved(s)


def test_a_declined_rebirth_lets_the_reversal_run() -> None:
    s = _sect_about_to_lose_its_leaders_believers()
    s = do(s, (1, PASS["rebirth"]))
    assert s.role[2] == "leader" and s.leader[2] is None  # the Follower takes over
    assert any(f["k"] == "surrender" and f["seat"] == 1 for f in s.stack)


# ---------------------------------------------------------------------------------- deadline

def test_every_window_prompt_carries_the_tables_window_and_the_option_sets_it() -> None:
    s = ENGINE.setup(4, 3, {"reaction_window": 10})
    assert s.reaction_window == 600 and ENGINE.setup(4, 3).reaction_window == 1800
    for bad in (0, 1441, "30m", True, 2.5):
        with pytest.raises(InvalidOptions, match="reaction_window"):
            ENGINE.setup(4, 3, {"reaction_window": bad})
    # a whole seeded game: every reaction prompt has the window, every other prompt none
    rng = random.Random(4)
    s = ENGINE.setup(5, 4, {"reaction_window": 10})
    seen: set[str] = set()
    for _ in range(3000):
        if ENGINE.result(s) is not None:
            break
        for p in ENGINE.prompts(s):
            assert (p.deadline == 600) == (p.kind in KINDS), p
            if p.kind in KINDS:
                seen.add(p.kind)
                assert p.choices[-1].label == NO_REACTION and p.timeout_note == "no reaction"
        p = rng.choice(ENGINE.prompts(s))
        s, _ = ENGINE.apply(s, p.seat, ENGINE.bot_action(ENGINE.view(s, p.seat), p, rng))
    assert {"defend", "karma", "prophet"} <= seen, seen


def test_a_state_stored_before_the_window_option_loads_with_the_default() -> None:
    data = ENGINE.to_json(table())
    del data["reaction_window"]
    assert ENGINE.from_json(data).reaction_window == 1800
