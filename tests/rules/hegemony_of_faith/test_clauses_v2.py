"""Rulebook clauses that are the player's choice: the new Leader's decision after a reversal of
stance (6-2.1), the Faith Debate's snatch, Ascend with Me's draw, and Gate of Truth copying every
skill but Impermanence of Life (7-4)."""

from __future__ import annotations

import random

from rules.hegemony_of_faith import ENGINE
from rules.hegemony_of_faith.sects import hand_limit
from rules.hegemony_of_faith.state import State

from .helpers import act, actions, conserved, do, flock, hand, labels, prompt, table, types

REACTIONS = ("defend", "counter", "karma", "prophet", "rebirth")


def quiet(s: State) -> State:
    """Let every reaction window that opens pass without a reaction (nobody here holds one)."""
    for _ in range(50):
        open_ = [p for p in ENGINE.prompts(s) if p.kind in REACTIONS]
        if not open_:
            return s
        p = open_[0]
        no = next(c.action for c in p.choices
                  if not c.action.get("use", True) or c.action.get("believer", 1) == 0
                  or len(p.choices) == 1)
        s, _ = act(s, p.seat, no)
    raise AssertionError("reaction windows keep opening")


def _reversal_table() -> State:
    """P2 leads P3 (two believers) and P4 (one); P1 wipes out P2's only believer."""
    s = table()
    hand(s, 0, "Witch Hunt")
    flock(s, 0, 1)
    flock(s, 1, 2)
    flock(s, 2, 3, 3)
    flock(s, 3, 4)
    s.role[2], s.leader[2] = "follower", 1
    s.role[3], s.leader[3] = "follower", 1
    return quiet(do(s, (0, {"type": "play", "card": "Witch Hunt", "target": 1, "believer": 2})))


# ------------------------------------------------------------------------------- reversal

def test_after_a_reversal_only_the_new_leader_decides_on_the_old_one() -> None:
    s = _reversal_table()
    asked = ENGINE.prompts(s)
    assert [(p.seat, p.kind) for p in asked] == [(2, "accept")]
    p = asked[0]
    assert "P2" in p.text and all(c.description for c in p.choices)


def test_the_new_leader_accepts_the_old_leader_and_gives_a_believer() -> None:
    s = _reversal_table()
    s = do(s, (2, {"type": "accept", "use": True}))
    assert s.role[1] == "follower" and s.leader[1] == 2 and s.leader[3] == 2
    p = prompt(s, 2)
    assert p.kind == "gift"
    s = do(s, (2, {"type": "gift", "believer": 3}))
    assert types(s, 1) == [3] and types(s, 2) == [3]
    conserved(s)


def test_a_refusal_sends_the_old_leader_to_the_other_leaders() -> None:
    s = _reversal_table()
    s = do(s, (2, {"type": "accept", "use": False}))
    asked = ENGINE.prompts(s)
    assert [(p.seat, p.kind) for p in asked] == [(0, "accept")]  # P1, never P3 again
    s = do(s, (0, {"type": "accept", "use": True}), (1, {"type": "join", "leader": 0}))
    assert s.role[1] == "follower" and s.leader[1] == 0


def test_a_new_leader_without_believers_is_not_asked() -> None:
    s = table()
    hand(s, 0, "Witch Hunt")
    flock(s, 0, 1)
    flock(s, 1, 2)
    flock(s, 2, 2, 3)
    s.role[2], s.leader[2] = "follower", 1
    s = quiet(do(s, (0, {"type": "play", "card": "Witch Hunt", "target": 1, "believer": 2})))
    # P3 keeps a Missionary and takes over; it is asked because it can give a believer
    assert [(p.seat, p.kind) for p in ENGINE.prompts(s)] == [(2, "accept")]
    s = table()
    hand(s, 0, "Witch Hunt")
    flock(s, 0, 1)
    flock(s, 1, 2)
    flock(s, 2, 2)
    flock(s, 3, 4)
    s.role[2], s.leader[2] = "follower", 1
    s = quiet(do(s, (0, {"type": "play", "card": "Witch Hunt", "target": 1, "believer": 2})))
    assert s.role[2] == "leader"
    assert sorted(p.seat for p in ENGINE.prompts(s)) == [0, 3]  # P3 has nothing to give


def test_the_computer_player_and_the_deadline_answer_the_new_leaders_question() -> None:
    s = _reversal_table()
    p = prompt(s, 2)
    assert ENGINE.timeout_action(s, p) == {"type": "accept", "use": False}
    bot = ENGINE.bot_action(ENGINE.view(s, 2), p, random.Random(1))
    assert bot in actions(p)
    act(s, 2, bot)


# -------------------------------------------------------------------- the Faith Debate's snatch

def _debate(att: list[int], dfd: list[int], a_order: list[int], d_order: list[int]) -> State:
    s = table()
    hand(s, 0, "Faith Debate")
    flock(s, 0, *att)
    flock(s, 1, *dfd)
    s = quiet(do(s, (0, {"type": "play", "card": "Faith Debate", "target": 1})))
    return quiet(do(s, (0, {"type": "lineup", "order": a_order}), (1, {"type": "lineup", "order": d_order})))


def test_the_debate_winner_chooses_whether_to_snatch() -> None:
    s = _debate([3, 3], [2, 4], [3, 3], [2, 4])  # P1's Missionary beats the Prayer, loses to the Elder
    # nothing has changed hands yet: both winners decide, at the same time
    assert types(s, 0) == [3, 3] and types(s, 1) == [2, 4]
    asked = {p.seat: p for p in ENGINE.prompts(s)}
    assert sorted(asked) == [0, 1] and {p.kind for p in asked.values()} == {"snatch"}
    assert all(c.description for p in asked.values() for c in p.choices)
    s = do(s, (0, {"type": "snatch", "take": False, "rest": True}))
    assert types(s, 0) == [3, 3] and types(s, 1) == [2, 4]  # P1 leaves the Prayer
    s = do(s, (1, {"type": "snatch", "take": True, "rest": True}))
    assert types(s, 0) == [3] and types(s, 1) == [2, 3, 4]
    assert not s.stack and prompt(s, 0).kind == "turn"
    conserved(s)


def test_each_won_debate_can_be_decided_on_its_own() -> None:
    s = _debate([3, 3, 3], [2, 2, 1], [3, 3, 3], [2, 2, 1])  # P1 wins all three
    p = prompt(s, 0)
    assert labels(p)[:2] == ["Snatch all 3", "Leave all 3"]
    s = do(s, (0, {"type": "snatch", "take": True, "rest": False}))  # the first Prayer
    s = do(s, (0, {"type": "snatch", "take": False, "rest": False}))  # leave the second
    p = prompt(s, 0)
    assert labels(p) == ["Snatch the Fool", "Leave the Fool"]
    s = do(s, (0, {"type": "snatch", "take": True, "rest": True}))
    assert types(s, 0) == [1, 2, 3, 3, 3] and types(s, 1) == [2]
    conserved(s)


def test_the_snatch_at_the_deadline_and_for_the_computer_player() -> None:
    s = _debate([3, 3], [2, 2], [3, 3], [2, 2])
    p = prompt(s, 0)
    timeout = ENGINE.timeout_action(s, p)
    assert timeout == {"type": "snatch", "take": True, "rest": True} and timeout in actions(p)
    assert ENGINE.bot_action(ENGINE.view(s, 0), p, random.Random(2)) == timeout
    s = do(s, (0, timeout))
    assert types(s, 0) == [2, 2, 3, 3]


# ---------------------------------------------------------------------- Ascend with Me's draw

def _follower_draws(skill: str) -> State:
    """P2 leads P1; P4 ends their turn and P1, the Follower, draws six action cards."""
    s = table(skills={1: skill})
    for k in range(4):
        flock(s, k, k + 1)
    s.role[0], s.leader[0] = "follower", 1
    s.current = 3
    return do(s, (3, {"type": "end"}))


def test_ascend_with_me_does_not_draw_by_itself_nor_show_who_holds_it() -> None:
    s = _follower_draws("Ascend with Me")
    assert len(s.hands[0]) == 6 and len(s.hands[1]) == 0 and not s.revealed[1]
    other = _follower_draws("World Peace")
    assert ENGINE.view(s, None) == ENGINE.view(other, None)
    assert [(p.seat, p.kind) for p in ENGINE.prompts(s)] == [(p.seat, p.kind) for p in ENGINE.prompts(other)]


def test_the_leader_may_take_ascend_with_mes_draw_on_their_turn() -> None:
    s = _follower_draws("Ascend with Me")
    s = do(s, (0, {"type": "end"}))  # P2's turn: the draw phase fills to 6 + 1 Follower
    assert len(s.hands[1]) == 7
    draw = {"type": "skill", "skill": "Ascend with Me"}
    p = prompt(s, 1)
    assert draw in actions(p)
    assert "Draw 6 action cards" in labels(p)[actions(p).index(draw)]
    s = do(s, (1, draw))
    assert len(s.hands[1]) == 13 and s.revealed[1]
    assert draw not in actions(prompt(s, 1))  # taken once
    conserved(s)


def test_ascend_with_mes_draw_lapses_when_the_turn_ends_without_it() -> None:
    s = _follower_draws("Ascend with Me")
    s = do(s, (0, {"type": "end"}), (1, {"type": "end"}), (2, {"type": "end"}), (3, {"type": "end"}))
    # P1 draws nothing this time (a full hand) and ends; the six drawn before are not offered again
    s = do(s, (0, {"type": "end"}))
    assert s.current == 1 and len(s.hands[1]) == 7
    assert {"type": "skill", "skill": "Ascend with Me"} not in actions(prompt(s, 1))


def test_the_computer_player_takes_ascend_with_mes_draw() -> None:
    s = table(skills={1: "Ascend with Me"})
    flock(s, 0, 1)
    flock(s, 1, 2)
    s.role[0], s.leader[0] = "follower", 1
    s.current = 1
    s.follower_draws[1] = 2
    p = prompt(s, 1)
    assert ENGINE.bot_action(ENGINE.view(s, 1), p, random.Random(3)) == \
        {"type": "skill", "skill": "Ascend with Me"}


# ------------------------------------------------------------------------------ Gate of Truth

def test_gate_of_truth_copies_ascend_with_me_with_its_hand_limit() -> None:
    s = table(skills={0: "Gate of Truth", 2: "Ascend with Me"})
    s.revealed[2] = True
    for k in range(4):
        flock(s, k, k + 1)
    s.role[1], s.leader[1] = "follower", 0
    assert ENGINE.view(s, None)["seats"][0]["hand_limit"] is None
    assert hand_limit(s, 0) == 6  # a copy that could be made raises nothing
    s = do(s, (0, {"type": "end"}))  # P2, the Follower, draws six
    for seat in (1, 2, 3):
        s = do(s, (seat, {"type": "end"}))
    assert s.current == 0 and len(s.hands[0]) == 6
    s = do(s, (0, {"type": "skill", "skill": "Ascend with Me"}))
    assert len(s.hands[0]) == 12 and s.gate[0] == "Ascend with Me" and s.revealed[0]
    seat0 = ENGINE.view(s, None)["seats"][0]
    assert seat0["skill"] == "Gate of Truth" and seat0["gate_copy"] == "Ascend with Me"
    assert seat0["hand_limit"] == 7
    s = do(s, (0, {"type": "end"}))
    p = prompt(s, 0)
    assert p.kind == "trim" and "7" in p.text
    while s.stack and s.stack[-1]["k"] == "trim":
        s = do(s, (0, actions(prompt(s, 0))[0]))
    assert len(s.hands[0]) == 7
    conserved(s)


def test_a_follower_with_gate_of_truth_copies_purple_hermit_once() -> None:
    s = table(skills={0: "Gate of Truth", 2: "Purple Hermit"})
    s.revealed[2] = True
    flock(s, 0, 1)
    flock(s, 1, *([2] * 6))
    flock(s, 2, 3)
    flock(s, 3, 4)
    s.role[0], s.leader[0] = "follower", 1
    s.role[2], s.leader[2] = "follower", 1
    p = prompt(s, 0)
    use = {"type": "skill", "skill": "Purple Hermit"}
    assert use in actions(p) and "Gate of Truth" in labels(p)[actions(p).index(use)]
    s = do(s, (0, use))
    assert len(s.believers[0]) == 4 and len(s.believers[1]) == 3
    assert s.gate[0] == "Purple Hermit" and not s.hermit[0] and s.revealed[0]
    for seat in range(4):
        s = do(s, (seat, {"type": "end"}))
    # no second half, no leaving the sect: the copy is the first paragraph only
    assert s.role[0] == "follower" and len(s.believers[0]) == 4 and len(s.believers[1]) == 3
    assert use not in actions(prompt(s, 0))  # each skill is copied once


def test_a_leader_cannot_copy_purple_hermit_nor_a_follower_anything_else() -> None:
    s = table(skills={0: "Gate of Truth", 2: "Purple Hermit", 3: "World Peace"})
    s.revealed[2] = s.revealed[3] = True
    flock(s, 0, 1, 1)
    flock(s, 1, 2, 2)
    groups = {c.group for c in prompt(s, 0).choices}
    assert "Skill: Purple Hermit" not in groups and "Skill: World Peace" in groups
    s.role[0], s.leader[0] = "follower", 1
    groups = {c.group for c in prompt(s, 0).choices}
    assert "Skill: Purple Hermit" in groups and "Skill: World Peace" not in groups


def test_a_follower_who_can_copy_purple_hermit_is_not_shown_sealed_once_the_gate_is_known() -> None:
    s = table(skills={0: "Gate of Truth", 2: "Purple Hermit"})
    s.revealed[2] = True
    flock(s, 0, 1)
    flock(s, 1, 2, 2)
    s.role[0], s.leader[0] = "follower", 1
    assert ENGINE.view(s, None)["seats"][0]["sealed"] is True  # the Gate is not known yet
    assert ENGINE.view(s, 0)["private"]["sealed"] is False  # its holder knows the copy is open
    s.revealed[0] = True
    assert ENGINE.view(s, None)["seats"][0]["sealed"] is False
