"""Attacks, defence and confrontations (rulebook 7-2, 7-3.2, Q&A on defence, wars and debates)."""

from __future__ import annotations

import pytest

from rules.engine import IllegalAction
from rules.hegemony_of_faith import ENGINE

from .helpers import act, conserved, do, flock, graveyard, hand, names, prompt, table, types


def test_faith_war_runs_until_one_side_has_sent_every_believer() -> None:
    s = table()
    hand(s, 0, "Faith War")
    flock(s, 0, 4, 4, 4)
    flock(s, 1, 3, 2)
    s = do(s, (0, {"type": "play", "card": "Faith War", "target": 1}))
    assert {p.kind for p in ENGINE.prompts(s)} == {"lineup"}
    s = do(s, (1, {"type": "lineup", "order": [3, 2]}), (0, {"type": "lineup", "order": [4, 4, 4]}))
    # two pairs only (the defender ran out); the third Elder stays home
    assert types(s, 1) == []
    # Elder beats Missionary (bonus) and Prayer (no bonus): 3 Elders + 1 bonus
    assert len(s.believers[0]) == 4
    assert len(s.graveyard) == 2
    conserved(s)


def test_faith_war_cannot_be_stopped_midway() -> None:
    s = table()
    hand(s, 0, "Faith War")
    flock(s, 0, 1, 1, 1)
    flock(s, 1, 3, 3, 3)
    s = do(s, (0, {"type": "play", "card": "Faith War", "target": 1}))
    # the line-up must hold every believer: no partial war
    with pytest.raises(IllegalAction, match="needs 3"):
        act(s, 0, {"type": "lineup", "order": [1]})
    s = do(s, (0, {"type": "lineup", "order": [1, 1, 1]}), (1, {"type": "lineup", "order": [3, 3, 3]}))
    assert types(s, 0) == [] and types(s, 1) == [3, 3, 3]


def test_faith_war_bonus_only_for_the_believer_just_below() -> None:
    s = table()
    hand(s, 0, "Faith War")
    flock(s, 0, 4)
    flock(s, 1, 2)
    s = do(s, (0, {"type": "play", "card": "Faith War", "target": 1}),
           (0, {"type": "lineup", "order": [4]}), (1, {"type": "lineup", "order": [2]}))
    assert types(s, 0) == [4]  # Elder beats Prayer: no bonus card


def test_bonus_exhaustion_war_continues_then_the_game_ends_after_the_turn() -> None:
    s = table()
    hand(s, 0, "Faith War")
    flock(s, 0, 2, 2)
    flock(s, 1, 1, 1)
    s.box.extend(s.believer_deck[:-1])
    s.believer_deck = s.believer_deck[-1:]
    s = do(s, (0, {"type": "play", "card": "Faith War", "target": 1}),
           (0, {"type": "lineup", "order": [2, 2]}), (1, {"type": "lineup", "order": [1, 1]}))
    assert len(s.believers[0]) == 3 and not s.believer_deck  # one bonus, then none
    assert s.phase == "play"
    s = do(s, (0, {"type": "end"}))
    assert s.phase == "over" and s.winner == 0


def test_karma_reversed_example_fool_beats_prayer_and_claims_the_bonus() -> None:
    s = table(skills={1: "Karma Reversed"})
    hand(s, 0, "Faith War")
    flock(s, 0, 2)
    flock(s, 1, 1)
    s = do(s, (0, {"type": "play", "card": "Faith War", "target": 1}))
    p = prompt(s, 1)
    assert p.kind == "karma" and p.secret
    s = do(s, (1, {"type": "karma", "use": True}), (0, {"type": "lineup", "order": [2]}),
           (1, {"type": "lineup", "order": [1]}))
    assert types(s, 0) == [] and len(s.believers[1]) == 2 and s.revealed[1]


def test_defence_is_decided_before_the_confrontation_and_cancels_it() -> None:
    s = table()
    hand(s, 0, "Faith War")
    hand(s, 1, "Great Mercy")
    flock(s, 0, 3)
    flock(s, 1, 2)
    s = do(s, (0, {"type": "play", "card": "Faith War", "target": 1}))
    p = prompt(s, 1)
    assert p.kind == "defend" and "before any believer" in p.text
    s = do(s, (1, {"type": "defend", "use": True}))
    assert ENGINE.prompts(s)[0].kind == "turn" and types(s, 1) == [2]
    assert names(s, 1) == []


def test_defence_cannot_be_used_after_losing_a_confrontation() -> None:
    s = table()
    hand(s, 0, "Faith War")
    hand(s, 1, "Great Mercy")
    flock(s, 0, 3)
    flock(s, 1, 2)
    s = do(s, (0, {"type": "play", "card": "Faith War", "target": 1}), (1, {"type": "defend", "use": False}))
    assert all(p.kind == "lineup" for p in ENGINE.prompts(s))
    s = do(s, (0, {"type": "lineup", "order": [3]}), (1, {"type": "lineup", "order": [2]}))
    assert types(s, 1) == [] and names(s, 1) == ["Great Mercy"]


def test_firm_faith_does_not_stop_a_physical_attack() -> None:
    s = table()
    hand(s, 0, "Witch Hunt")
    hand(s, 1, "Firm Faith")
    flock(s, 1, 2, 2, 3)
    s = do(s, (0, {"type": "play", "card": "Witch Hunt", "target": 1, "believer": 2}))
    # asked all the same (they hold a card), but Firm Faith is no answer to a physical attack
    assert [c.label for c in prompt(s, 1).choices] == ["No reaction"]
    s = do(s, (1, {"type": "defend", "use": False}))
    assert types(s, 1) == [3] and len(s.graveyard) == 2


def test_faith_debate_holds_up_to_five_and_the_player_may_hold_fewer() -> None:
    s = table()
    hand(s, 0, "Faith Debate")
    flock(s, 0, 3, 3, 3, 3, 3, 3, 3)
    flock(s, 1, 2, 2, 2, 2, 2, 2)
    s = do(s, (0, {"type": "play", "card": "Faith Debate", "target": 1}))
    with pytest.raises(IllegalAction, match="1 to 5"):
        act(s, 0, {"type": "lineup", "order": [3] * 6})
    s = do(s, (0, {"type": "lineup", "order": [3, 3]}), (1, {"type": "lineup", "order": [2] * 5}),
           (0, {"type": "snatch", "take": True, "rest": True}))
    assert len(s.believers[0]) == 9 and len(s.believers[1]) == 4
    assert len(s.graveyard) == 0  # mental: nobody dies


def test_faith_debate_is_capped_by_the_smaller_side() -> None:
    s = table()
    hand(s, 0, "Faith Debate")
    flock(s, 0, 3, 3, 3, 3, 3, 3)
    flock(s, 1, 4, 5)
    s = do(s, (0, {"type": "play", "card": "Faith Debate", "target": 1}))
    with pytest.raises(IllegalAction, match="1 to 2"):
        act(s, 0, {"type": "lineup", "order": [3, 3, 3]})
    s = do(s, (0, {"type": "lineup", "order": [3, 3]}), (1, {"type": "lineup", "order": [4, 5]}),
           (1, {"type": "snatch", "take": True, "rest": True}))
    # Elder and Fanatic both beat the Missionary and win it over
    assert types(s, 1) == [3, 3, 4, 5] and len(s.believers[0]) == 4


def test_mental_draw_returns_both_physical_draw_kills_both() -> None:
    s = table()
    hand(s, 0, "Faith Debate", "Faith War")
    flock(s, 0, 3)
    flock(s, 1, 3)
    s = do(s, (0, {"type": "play", "card": "Faith Debate", "target": 1}),
           (0, {"type": "lineup", "order": [3]}), (1, {"type": "lineup", "order": [3]}))
    assert types(s, 0) == [3] and types(s, 1) == [3]
    s = do(s, (0, {"type": "play", "card": "Faith War", "target": 1}),
           (0, {"type": "lineup", "order": [3]}), (1, {"type": "lineup", "order": [3]}))
    assert types(s, 0) == [] and types(s, 1) == [] and len(s.graveyard) == 2


def test_martyrdom_one_against_many() -> None:
    s = table()
    hand(s, 0, "Martyrdom")
    flock(s, 0, 3)
    flock(s, 1, 2)  # loses to the Missionary: dies
    flock(s, 2, 3)  # draws: dies
    flock(s, 3, 4)  # beats it: survives
    s = do(s, (0, {"type": "play", "card": "Martyrdom"}))
    assert sorted(p.seat for p in ENGINE.prompts(s)) == [0, 1, 2, 3]
    for seat, t in ((0, 3), (1, 2), (2, 3), (3, 4)):
        s = do(s, (seat, {"type": "pick", "believer": t}))
    assert types(s, 0) == [] and types(s, 1) == [] and types(s, 2) == [] and types(s, 3) == [4]
    assert len(s.graveyard) == 3
    conserved(s)


def test_conspiracy_one_against_many() -> None:
    s = table()
    hand(s, 0, "Conspiracy")
    flock(s, 0, 3)
    flock(s, 1, 2)  # loses: taken
    flock(s, 2, 3)  # draws: goes home
    flock(s, 3, 5)  # beats it: takes the conspirator
    s = do(s, (0, {"type": "play", "card": "Conspiracy"}))
    for seat, t in ((0, 3), (1, 2), (2, 3), (3, 5)):
        s = do(s, (seat, {"type": "pick", "believer": t}))
    assert types(s, 0) == [2] and types(s, 1) == [] and types(s, 2) == [3] and types(s, 3) == [3, 5]


def test_believer_picks_are_secret_until_revealed() -> None:
    s = table()
    hand(s, 0, "Martyrdom")
    flock(s, 0, 3)
    flock(s, 1, 2)
    s = do(s, (0, {"type": "play", "card": "Martyrdom"}))
    assert all(p.secret for p in ENGINE.prompts(s))
    s, events = act(s, 1, {"type": "pick", "believer": 2})
    assert all("Prayer" not in e.text for e in events if e.to is None)
    assert ENGINE.view(s, None)["pending"]["chosen"] == [1]
    assert ENGINE.view(s, 1)["private"]["my_pick"] == [2]


def test_spread_rumors_takes_one_from_each_player_of_the_sect() -> None:
    s = table()
    hand(s, 0, "Spread Rumors")
    flock(s, 1, 1, 2)
    flock(s, 2, 3)
    s.role[2], s.leader[2] = "follower", 1
    s = do(s, (0, {"type": "play", "card": "Spread Rumors", "target": 1}))
    assert len(s.believers[0]) == 2 and len(s.believers[1]) == 1 and s.believers[2] == []


def test_zombie_army_raises_the_graveyard_and_removes_it_after() -> None:
    s = table(skills={0: "Zombie Army"})
    hand(s, 0, "Faith War")
    flock(s, 0, 4)
    flock(s, 1, 3, 3)
    graveyard(s, 4)
    # an unrevealed skill might be Karma Reversed: the attacker is asked, and passes
    s = do(s, (0, {"type": "play", "card": "Faith War", "target": 1}), (0, {"type": "karma", "use": False}))
    assert "Zombie Army" in prompt(s, 0).text
    s = do(s, (0, {"type": "lineup", "order": [4, "z4"]}), (1, {"type": "lineup", "order": [3, 3]}))
    assert types(s, 1) == [] and len(s.removed) == 1 and len(s.believers[0]) == 3
    conserved(s)


def test_united_defence_leader_designates_the_confronting_follower() -> None:
    s = table()
    hand(s, 0, "Faith War")
    flock(s, 0, 4)
    flock(s, 1, 2)
    flock(s, 2, 5, 5)
    s.role[2], s.leader[2] = "follower", 1
    s = do(s, (0, {"type": "play", "card": "Faith War", "target": 1}))
    p = prompt(s, 1)
    assert p.kind == "designate" and {c.action["member"] for c in p.choices} == {1, 2}
    s = do(s, (1, {"type": "designate", "member": 2}), (0, {"type": "lineup", "order": [4]}),
           (2, {"type": "lineup", "order": [5, 5]}))
    # the Fanatic beats the Elder just below it: a bonus believer for the Follower
    assert types(s, 0) == [] and len(s.believers[2]) == 3 and types(s, 1) == [2]


def test_immunity_keeps_a_sect_out_of_reach() -> None:
    s = table(skills={1: "World Peace"})
    flock(s, 1, 1, 2)
    flock(s, 2, 5)
    flock(s, 3, 5)
    s.current = 1
    s = do(s, (1, {"type": "skill", "skill": "World Peace", "sacrifice": 1}))
    assert s.imm_physical[1] and s.revealed[1]
    s = do(s, (1, {"type": "end"}), (2, {"type": "end"}), (3, {"type": "end"}))
    hand(s, 0, "Faith War", "Faith Debate")
    flock(s, 0, 3)
    targets = [c.action.get("target") for c in prompt(s, 0).choices if c.group == "Faith War"]
    assert 1 not in targets
    assert 1 in [c.action.get("target") for c in prompt(s, 0).choices if c.group == "Faith Debate"]
