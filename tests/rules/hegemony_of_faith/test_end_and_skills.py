"""End of the game, ties, and the sixteen skills (rulebook 5, 5-1, 5-2, 7-1, 7-4)."""

from __future__ import annotations

from rules.hegemony_of_faith import ENGINE
from rules.hegemony_of_faith.cards import SKILL_NAMES
from rules.hegemony_of_faith.state import State

from .helpers import conserved, do, flock, graveyard, hand, prompt, table, types


def ending_table(n: int = 4, skills: dict[int, str] | None = None) -> State:
    s = table(n, skills)
    s.box.extend(s.believer_deck)
    s.believer_deck = []
    return s


def test_single_player_with_the_most_believers_wins() -> None:
    s = ending_table()
    flock(s, 0, 1, 1)
    flock(s, 1, 2, 2, 2)
    flock(s, 2, 3, 3, 3, 3)
    s.role[1], s.leader[1] = "follower", 0  # P1's sect: 5 believers
    flock(s, 3, 4, 4, 4, 4, 4, 4)
    s = do(s, (0, {"type": "end"}))
    assert s.phase == "over" and s.winner == 3


def test_largest_sect_then_internal_comparison() -> None:
    s = ending_table()
    flock(s, 0, 1, 1, 1, 1)
    flock(s, 1, 2, 2, 2, 2, 2)
    s.role[1], s.leader[1] = "follower", 0  # 9 together
    flock(s, 2, *([3] * 8))
    flock(s, 3, 4)
    s = do(s, (0, {"type": "end"}))
    assert s.winner == 1  # the Follower holds the most believers inside the largest sect


def test_equal_totals_favour_the_sect_with_more_players() -> None:
    s = ending_table()
    flock(s, 0, 1, 1, 1, 1, 1)
    flock(s, 1, 2, 2, 2)
    s.role[1], s.leader[1] = "follower", 0  # 8 with a Follower
    flock(s, 2, *([3] * 8))
    flock(s, 3, 4)
    s = do(s, (0, {"type": "end"}))
    assert s.winner == 0


def test_two_tied_players_fight_a_faith_war_without_bonus() -> None:
    s = ending_table()
    flock(s, 0, 1)
    flock(s, 1, 2, 3)
    flock(s, 2, 2, 2)
    s = do(s, (0, {"type": "end"}))
    assert {p.kind for p in ENGINE.prompts(s)} == {"lineup"}
    assert sorted(p.seat for p in ENGINE.prompts(s)) == [1, 2]
    s = do(s, (1, {"type": "lineup", "order": [3, 2]}), (2, {"type": "lineup", "order": [2, 2]}))
    # Missionary beats Prayer (no bonus in a showdown), Prayer draws Prayer
    assert s.phase == "over" and s.winner == 1 and types(s, 1) == [3]


def test_three_tied_players_cycle_martyrdom_from_the_last_player() -> None:
    s = ending_table()
    flock(s, 1, 1, 1)
    flock(s, 2, 3, 3)
    flock(s, 3, 5, 5)
    s = do(s, (0, {"type": "end"}))
    ps = ENGINE.prompts(s)
    assert {p.kind for p in ps} == {"pick"} and sorted(p.seat for p in ps) == [1, 2, 3]
    assert "P2's Showdown Martyrdom" in ps[0].text  # P2 is the first tied player after P1's last turn
    s = do(s, (1, {"type": "pick", "believer": 1}), (2, {"type": "pick", "believer": 3}),
           (3, {"type": "pick", "believer": 5}))
    # Fool beats Fanatic (dies) and loses to Missionary (survives); the martyr dies
    assert types(s, 1) == [1] and types(s, 2) == [3, 3] and types(s, 3) == [5]
    # next in the cycle: P3 sends a Missionary; P2's Fool dies, P4's Fanatic survives
    s = do(s, (2, {"type": "pick", "believer": 3}), (1, {"type": "pick", "believer": 1}),
           (3, {"type": "pick", "believer": 5}))
    # P2 has run out: the cycle stops; P3 and P4 are still tied and fight a war
    assert types(s, 1) == [] and types(s, 2) == [3] and types(s, 3) == [5]
    assert {p.kind for p in ENGINE.prompts(s)} == {"lineup"}
    s = do(s, (2, {"type": "lineup", "order": [3]}), (3, {"type": "lineup", "order": [5]}))
    assert s.phase == "over" and s.winner == 3


def test_impermanence_of_life_wins_with_more_than_five() -> None:
    s = ending_table(skills={2: "Impermanence of Life"})
    flock(s, 0, *([1] * 9))
    flock(s, 2, *([3] * 6))
    s = do(s, (0, {"type": "end"}))
    assert s.winner == 2 and "Impermanence" in s.reason


def test_impermanence_of_life_is_lost_on_becoming_a_follower() -> None:
    s = table(skills={0: "Impermanence of Life"})
    flock(s, 1, 1, 2, 3, 4)
    flock(s, 2, 2)
    flock(s, 3, 2)
    s = do(s, (0, {"type": "end"}), (1, {"type": "accept", "use": True}),
           (2, {"type": "accept", "use": False}), (3, {"type": "accept", "use": False}),
           (0, {"type": "join", "leader": 1}), (1, {"type": "gift", "believer": 1}))
    assert SKILL_NAMES.index("Impermanence of Life") in s.skill_discard
    assert s.skill[0] is not None and SKILL_NAMES[s.skill[0]] != "Impermanence of Life"


def test_the_prophet_takes_the_first_recruit_when_right() -> None:
    s = table(skills={2: "The Prophet"})
    hand(s, 0, "Have a Charity")
    flock(s, 2, 1)
    first = s.believer_deck[-1]
    from rules.hegemony_of_faith.cards import btype
    s = do(s, (0, {"type": "play", "card": "Have a Charity"}))
    p = prompt(s, 2)
    assert p.kind == "prophet" and p.secret
    s = do(s, (2, {"type": "predict", "believer": btype(first)}))
    assert first in s.believers[2] and len(s.believers[0]) == 1 and s.revealed[2]


def test_the_prophet_ignores_faith_war_bonuses() -> None:
    s = table(skills={2: "The Prophet"})
    hand(s, 0, "Faith War")
    flock(s, 0, 2)
    flock(s, 1, 1)
    s = do(s, (0, {"type": "play", "card": "Faith War", "target": 1}),
           (0, {"type": "lineup", "order": [2]}), (1, {"type": "lineup", "order": [1]}))
    assert len(s.believers[0]) == 2 and ENGINE.prompts(s)[0].kind == "turn"


def test_holy_rebirth_when_three_die_at_once() -> None:
    s = table(skills={1: "Holy Rebirth"})
    hand(s, 0, "Witch Hunt")
    flock(s, 1, 4, 4, 4, 2)
    s = do(s, (0, {"type": "play", "card": "Witch Hunt", "target": 1, "believer": 4}))
    assert prompt(s, 1).kind == "rebirth"
    s = do(s, (1, {"type": "rebirth", "use": True}))
    assert types(s, 1) == [2, 4, 4, 4] and s.graveyard == []
    conserved(s)


def test_everyone_is_equal_costs_both_actions() -> None:
    s = table(skills={0: "Everyone is Equal"})
    hand(s, 0, "Have a Charity")
    flock(s, 1, *([1] * 8))
    s = do(s, (0, {"type": "skill", "skill": "Everyone is Equal"}))
    assert [len(b) for b in s.believers] == [2, 2, 2, 2]
    assert {c.group for c in prompt(s, 0).choices} == {"End turn"}


def test_praise_of_life_allows_a_repeated_action_once_per_round() -> None:
    s = table(skills={0: "Praise of Life"})
    hand(s, 0, "Have a Charity", "Have a Charity", "It's a Miracle")
    flock(s, 0, 1, 1)
    s = do(s, (0, {"type": "play", "card": "Have a Charity"}),
           (0, {"type": "skill", "skill": "Praise of Life", "sacrifice": 1}),
           (0, {"type": "play", "card": "Have a Charity"}))
    assert len(s.believers[0]) == 5
    assert not any(c.group == "Skill: Praise of Life" for c in prompt(s, 0).choices)


def test_world_peace_three_times_per_game() -> None:
    s = table(skills={0: "World Peace"})
    flock(s, 0, *([1] * 6))
    for k in (1, 2, 3):
        flock(s, k, 2)
    for _ in range(3):
        s = do(s, (0, {"type": "skill", "skill": "World Peace", "sacrifice": 1}))
        for seat in range(4):
            s = do(s, (seat, {"type": "end"}))
    assert s.uses[0] == 3
    assert not any(c.group == "Skill: World Peace" for c in prompt(s, 0).choices)


def test_kaboom_is_undefendable_and_forbids_later_attacks() -> None:
    s = table(skills={0: "KABOOM!"})
    hand(s, 0, "Faith War")
    hand(s, 1, "Great Mercy")
    flock(s, 0, 1, 2)
    flock(s, 1, 3, 3, 3, 3)
    s = do(s, (0, {"type": "skill", "skill": "KABOOM!", "target": 1, "sacrifice": 1}))
    assert len(s.believers[1]) == 1 and len(s.graveyard) == 4
    assert not any(c.group == "Faith War" for c in prompt(s, 0).choices)


def test_soul_cutting_sword_skips_the_next_turn() -> None:
    s = table(skills={0: "Soul-Cutting Sword"})
    for k in range(4):
        flock(s, k, 1)
    s = do(s, (0, {"type": "skill", "skill": "Soul-Cutting Sword", "target": 1}), (0, {"type": "end"}))
    assert s.current == 2


def test_chaos_coming_redistributes_action_cards_from_the_user() -> None:
    s = table(skills={0: "Chaos Coming"})
    hand(s, 1, *["Info-Spy"] * 3, *["Witch Hunt"] * 3)
    s = do(s, (0, {"type": "skill", "skill": "Chaos Coming"}))
    assert [len(h) for h in s.hands] == [2, 2, 1, 1]


def test_headstronger_takes_half_and_expels_every_follower() -> None:
    s = table(skills={0: "Headstronger"})
    flock(s, 0, 1)
    flock(s, 1, 2, 2, 2, 2)
    flock(s, 2, 3, 3, 3)
    for k in (1, 2):
        s.role[k], s.leader[k] = "follower", 0
    s = do(s, (0, {"type": "skill", "skill": "Headstronger"}))
    assert len(s.believers[0]) == 1 + 2 + 1 and s.role[1] == s.role[2] == "leader"


def test_purple_hermit_takes_half_now_and_half_again_next_turn() -> None:
    s = table(skills={0: "Purple Hermit"})
    flock(s, 0, 1)
    flock(s, 1, *([2] * 8))
    flock(s, 2, 3)
    flock(s, 3, 3)
    s.role[0], s.leader[0] = "follower", 1
    s = do(s, (0, {"type": "skill", "skill": "Purple Hermit"}))
    assert len(s.believers[0]) == 5 and len(s.believers[1]) == 4
    for seat in range(4):
        s = do(s, (seat, {"type": "end"}))
    assert s.role[0] == "leader" and len(s.believers[0]) == 7 and len(s.believers[1]) == 2


def test_purple_hermit_nullifies_the_leaders_breaking_faith() -> None:
    s = table(skills={0: "Purple Hermit"})
    flock(s, 0, 1)
    flock(s, 1, *([2] * 8))
    flock(s, 2, 3)
    flock(s, 3, 3)
    s.role[0], s.leader[0] = "follower", 1
    s = do(s, (0, {"type": "skill", "skill": "Purple Hermit"}), (0, {"type": "end"}))
    hand(s, 1, "Breaking Faith")
    s = do(s, (1, {"type": "play", "card": "Breaking Faith", "target": 0}))
    assert s.role[0] == "leader" and len(s.believers[0]) == 5


def test_gate_of_truth_copies_a_revealed_skill_once() -> None:
    s = table(skills={0: "Gate of Truth", 2: "World Peace"})
    s.revealed[2] = True
    flock(s, 0, 1, 1)
    s = do(s, (0, {"type": "skill", "skill": "World Peace", "sacrifice": 1}))
    assert s.imm_physical[0] and s.gate[0] == "World Peace" and s.uses[2] == 0
    flock(s, 1, 1)
    flock(s, 3, 1)
    flock(s, 2, 1)
    for seat in range(4):
        s = do(s, (seat, {"type": "end"}))
    assert not any(c.group == "Skill: World Peace" for c in prompt(s, 0).choices)


def test_gate_of_truth_can_copy_the_prophet_out_of_turn() -> None:
    s = table(skills={0: "Gate of Truth", 2: "The Prophet"})
    s.revealed[2] = True
    s.current = 1
    hand(s, 1, "Have a Charity")
    s = do(s, (1, {"type": "play", "card": "Have a Charity"}))
    assert sorted(p.seat for p in ENGINE.prompts(s)) == [0, 2]
    assert "second" in prompt(s, 0).text


def test_ascend_with_me_draws_with_the_follower_and_raises_the_limit() -> None:
    s = table(skills={1: "Ascend with Me"})
    flock(s, 0, 1)
    flock(s, 1, 2)
    s.role[0], s.leader[0] = "follower", 1
    s = do(s, (0, {"type": "end"}))  # P2's turn: draws to 6 + 1 Follower
    assert len(s.hands[1]) == 7 and s.revealed[1]


def test_everything_in_its_place_after_a_busy_turn() -> None:
    s = table()
    hand(s, 0, "Martyrdom", "Have a Charity")
    graveyard(s, 3)
    flock(s, 0, 3)
    flock(s, 1, 1)
    s = do(s, (0, {"type": "play", "card": "Have a Charity"}))
    conserved(s)


def test_a_hidden_skill_shows_nowhere_in_the_public_view() -> None:
    """An unrevealed Ascend with Me (a bigger hand limit) or Purple Hermit (a Follower's skill not
    sealed) must not show through what the public view derives from it."""
    def public(skills: dict[int, str]) -> dict[str, object]:
        s = table(skills=skills)
        flock(s, 0, 1)
        flock(s, 1, 2, 2)
        flock(s, 2, 3)
        s.role[0], s.leader[0] = "follower", 1  # P1 follows P2
        assert not any(s.revealed)
        view = ENGINE.view(s, None)
        view.pop("log", None)
        return view

    plain = public({0: "Headstronger", 1: "World Peace"})
    assert public({0: "Purple Hermit", 1: "World Peace"}) == plain  # the hermit looks sealed
    assert public({0: "Headstronger", 1: "Ascend with Me"}) == plain  # no larger hand limit
    s = table(skills={0: "Purple Hermit", 1: "Ascend with Me"})
    flock(s, 0, 1)
    flock(s, 1, 2)
    s.role[0], s.leader[0] = "follower", 1
    assert ENGINE.view(s, 0)["private"]["sealed"] is False  # the holder knows
    assert ENGINE.view(s, 1)["private"]["hand_limit"] == 7
