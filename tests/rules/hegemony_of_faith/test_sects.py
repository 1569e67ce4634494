"""Sects, surrender, Followers, Wanderers, Kowtow and Breaking Faith (rulebook 6, Q&A)."""

from __future__ import annotations

from rules.hegemony_of_faith import ENGINE
from rules.hegemony_of_faith.state import State

from .helpers import act, conserved, do, flock, hand, labels, names, prompt, table, types


def test_kowtow_takes_half_rounded_down() -> None:
    for mine, theirs, allowed in ((8, 4, True), (9, 4, True), (9, 5, False), (8, 5, False)):
        s = table()
        hand(s, 0, "Kowtow to Me")
        flock(s, 0, *([1] * mine))
        flock(s, 1, *([2] * theirs))
        targets = [c.action.get("target") for c in prompt(s, 0).choices if c.group == "Kowtow to Me"]
        assert (1 in targets) is allowed, (mine, theirs)


def test_kowtow_counts_sect_believers_not_followers() -> None:
    s = table()
    hand(s, 0, "Kowtow to Me")
    flock(s, 0, *([1] * 8))
    flock(s, 1, 2, 2)
    flock(s, 2, 3, 3)
    s.role[2], s.leader[2] = "follower", 1
    # P2's sect holds 4 believers (2 + 2): the Follower is not counted as an extra
    assert any(c.action.get("target") == 1 for c in prompt(s, 0).choices if c.group == "Kowtow to Me")
    flock(s, 2, 3)
    assert not any(c.action.get("target") == 1 for c in prompt(s, 0).choices
                   if c.group == "Kowtow to Me")


def test_kowtow_absorbs_every_player_of_the_sect() -> None:
    s = table()
    hand(s, 0, "Kowtow to Me")
    flock(s, 0, *([1] * 8))
    flock(s, 1, 2)
    flock(s, 2, 3)
    flock(s, 3, 4)
    s.role[2], s.leader[2] = "follower", 1
    s = do(s, (0, {"type": "play", "card": "Kowtow to Me", "target": 1}))
    assert s.role[1] == s.role[2] == "follower" and s.leader[1] == s.leader[2] == 0
    assert s.phase == "play"  # P4 is still free: no Unification yet


def test_breaking_faith_takes_half_rounded_down() -> None:
    s = table()
    flock(s, 0, 1)
    flock(s, 1, 2, 2, 2, 2, 2, 2, 2)
    s.role[0], s.leader[0] = "follower", 1
    hand(s, 0, "Breaking Faith")
    s = do(s, (0, {"type": "play", "card": "Breaking Faith", "target": 1}))
    assert s.role[0] == "leader" and len(s.believers[0]) == 1 + 3 and len(s.believers[1]) == 4


def test_breaking_faith_countered_by_breaking_faith_takes_only_one() -> None:
    s = table()
    flock(s, 0, 1)
    flock(s, 1, 2, 2, 2, 2, 2, 2)
    s.role[0], s.leader[0] = "follower", 1
    hand(s, 0, "Breaking Faith")
    hand(s, 1, "Breaking Faith")
    s = do(s, (0, {"type": "play", "card": "Breaking Faith", "target": 1}))
    assert prompt(s, 1).kind == "counter"
    s = do(s, (1, {"type": "counter", "use": True}))
    assert s.role[0] == "leader" and len(s.believers[0]) == 2 and len(s.believers[1]) == 5


def test_leader_breaking_faith_expels_a_follower() -> None:
    s = table()
    flock(s, 0, 1, 1)
    flock(s, 1, 2, 2, 2, 2)
    s.role[1], s.leader[1] = "follower", 0
    hand(s, 0, "Breaking Faith")
    assert labels(prompt(s, 0))[0] == "Cast out P2"
    s = do(s, (0, {"type": "play", "card": "Breaking Faith", "target": 1}))
    assert s.role[1] == "leader" and len(s.believers[0]) == 4


def _surrender_table() -> State:
    s = table()
    flock(s, 1, 1, 2, 3, 4, 5)
    flock(s, 2, 2, 2)
    flock(s, 3, 5)
    return s


def test_surrender_leaders_declare_then_the_failed_player_chooses_and_gets_a_gift() -> None:
    s = _surrender_table()
    s = do(s, (0, {"type": "end"}))
    ps = ENGINE.prompts(s)
    assert sorted(p.seat for p in ps) == [1, 2, 3] and {p.kind for p in ps} == {"accept"}
    s = do(s, (1, {"type": "accept", "use": True}), (2, {"type": "accept", "use": True}),
           (3, {"type": "accept", "use": False}))
    p = prompt(s, 0)
    assert p.kind == "surrender" and {c.action["leader"] for c in p.choices} == {1, 2}
    s = do(s, (0, {"type": "join", "leader": 1}))
    assert prompt(s, 1).kind == "gift"
    s = do(s, (1, {"type": "gift", "believer": 5}))
    assert s.role[0] == "follower" and s.leader[0] == 1 and types(s, 0) == [5]
    assert s.current == 1 and ENGINE.view(s, None)["seats"][0]["sealed"]
    conserved(s)


def test_nobody_willing_makes_a_wanderer_who_discards_everything() -> None:
    s = _surrender_table()
    hand(s, 0, "Faith War", "Info-Spy")
    s = do(s, (0, {"type": "end"}), (1, {"type": "accept", "use": False}),
           (2, {"type": "accept", "use": False}), (3, {"type": "accept", "use": False}))
    assert s.role[0] == "wanderer" and s.hands[0] == [] and len(s.action_discard) == 2


def test_wanderer_steals_from_the_next_turn_and_returns_after_three() -> None:
    s = _surrender_table()
    s = do(s, (0, {"type": "end"}), (1, {"type": "accept", "use": False}),
           (2, {"type": "accept", "use": False}), (3, {"type": "accept", "use": False}))
    assert s.current == 1  # becoming a Wanderer ends the turn: stealing starts next round
    for _ in range(3):
        while s.current != 0:
            s = do(s, (s.current, {"type": "end"}))
        p = prompt(s, 0)
        assert p.kind == "wander"
        assert all(c.action["target"] != 0 for c in p.choices if c.action["type"] == "steal")
        assert p.choices[-1].action == {"type": "pass"}  # stealing is optional
        s = do(s, (0, {"type": "steal", "target": 1}))
    assert s.role[0] == "leader" and len(s.believers[0]) == 3 and len(s.hands[0]) == 6
    conserved(s)


def test_wanderers_are_untouched_by_other_players() -> None:
    s = table()
    s.role[3] = "wanderer"
    flock(s, 3, 2)
    flock(s, 0, 1)
    hand(s, 0, "Info-Spy", "Martyrdom", "Faith War")
    flock(s, 1, 2)
    targets = {c.action.get("target") for c in prompt(s, 0).choices}
    assert 3 not in targets


def test_follower_without_believers_leader_reconsiders() -> None:
    s = table()
    flock(s, 1, 1, 2, 3, 4)
    flock(s, 2, 3)
    flock(s, 3, 3)
    s.role[0], s.leader[0] = "follower", 1
    s = do(s, (0, {"type": "end"}))
    p = prompt(s, 1)
    assert p.kind == "keep" and "Release P1" in labels(p)
    s = do(s, (1, {"type": "keep", "believer": 4}))
    assert types(s, 0) == [4] and s.role[0] == "follower"


def test_released_follower_seeks_another_sect() -> None:
    s = table()
    flock(s, 1, 1, 2, 3, 4)
    flock(s, 2, 3)
    flock(s, 3, 3)
    s.role[0], s.leader[0] = "follower", 1
    s = do(s, (0, {"type": "end"}), (1, {"type": "keep", "believer": 0}))
    assert sorted(p.seat for p in ENGINE.prompts(s)) == [2, 3]  # not the Leader who let go


def test_reversal_of_stance_the_richest_follower_takes_over() -> None:
    s = table()
    hand(s, 0, "Witch Hunt")
    flock(s, 0, 1)
    flock(s, 1, 2)
    flock(s, 2, 3, 3)
    flock(s, 3, 4)
    s.role[2], s.leader[2] = "follower", 1
    s.role[3], s.leader[3] = "follower", 1
    s = do(s, (0, {"type": "play", "card": "Witch Hunt", "target": 1, "believer": 2}))
    assert s.role[2] == "leader" and s.leader[3] == 2
    # the old Leader must surrender; the new Leader decides whether to take them in
    assert {p.kind for p in ENGINE.prompts(s)} == {"accept"}
    assert 2 in [p.seat for p in ENGINE.prompts(s)]


def test_reversal_with_tied_followers_dissolves_the_sect() -> None:
    s = table()
    hand(s, 0, "Witch Hunt")
    flock(s, 0, 1)
    flock(s, 1, 2)
    flock(s, 2, 3)
    flock(s, 3, 4)
    s.role[2], s.leader[2] = "follower", 1
    s.role[3], s.leader[3] = "follower", 1
    s = do(s, (0, {"type": "play", "card": "Witch Hunt", "target": 1, "believer": 2}))
    assert s.role[2] == "leader" and s.role[3] == "leader"
    assert {p.kind for p in ENGINE.prompts(s)} == {"accept"}


def test_unification_wins_immediately() -> None:
    s = table()
    hand(s, 0, "Kowtow to Me")
    flock(s, 0, *([1] * 8))
    flock(s, 1, 2)
    for k in (2, 3):
        s.role[k], s.leader[k] = "follower", 1
    flock(s, 2, 3)
    s = do(s, (0, {"type": "play", "card": "Kowtow to Me", "target": 1}))
    assert s.phase == "over" and s.winner == 0 and "unified" in s.reason
    assert ENGINE.prompts(s) == []


def test_follower_turn_keeps_every_action() -> None:
    s = table()
    flock(s, 0, 1)
    flock(s, 1, 2, 2)
    s.role[0], s.leader[0] = "follower", 1
    hand(s, 0, "Faith War", "Have a Charity")
    flock(s, 2, 5)
    groups = {c.group for c in prompt(s, 0).choices}
    assert {"Faith War", "Have a Charity"} <= groups
    assert names(s, 0) == ["Faith War", "Have a Charity"]
    s, _ = act(s, 0, {"type": "play", "card": "Have a Charity"})
    assert len(s.believers[0]) == 3


def test_a_wanderer_may_let_a_turn_pass_without_stealing() -> None:
    s = _surrender_table()
    s = do(s, (0, {"type": "end"}), (1, {"type": "accept", "use": False}),
           (2, {"type": "accept", "use": False}), (3, {"type": "accept", "use": False}))
    while s.current != 0:
        s = do(s, (s.current, {"type": "end"}))
    flocks = [len(b) for b in s.believers]
    s = do(s, (0, {"type": "pass"}))
    assert [len(b) for b in s.believers] == flocks and s.steals[0] == 0 and s.current == 1
