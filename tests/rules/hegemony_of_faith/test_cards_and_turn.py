"""Components, setup and the turn structure (rulebook 2-2, 4-1, 4-2, 7-3)."""

from __future__ import annotations

import pytest

from rules.engine import IllegalAction, InvalidOptions
from rules.hegemony_of_faith import ENGINE
from rules.hegemony_of_faith.cards import (
    ACTION_CARDS,
    ACTION_COUNT,
    N_ACTIONS,
    N_BELIEVERS,
    SKILL_LIMIT,
    SKILL_NAMES,
    beats,
    compare,
    is_bonus,
)

from .helpers import act, conserved, do, flock, hand, names, prompt, table, types


def test_components_match_the_rulebook() -> None:
    assert N_ACTIONS == 78 and len(ACTION_COUNT) == 15
    assert N_BELIEVERS == 60 and len(SKILL_NAMES) == 16
    assert ACTION_COUNT["Have a Charity"] == 8 and ACTION_COUNT["Martyrdom"] == 7
    assert sorted({str(v) for v in SKILL_LIMIT.values()}) == ["3", "game", "round", "unlimited"]


def test_each_believer_beats_the_two_ids_below_and_earns_the_bonus_on_the_first() -> None:
    assert beats(4) == (3, 2)
    assert beats(1) == (5, 4)  # the circle: the Fool beats the Fanatic and the Elder
    assert compare(2, 1) == 1 and compare(1, 2) == -1 and compare(3, 3) == 0
    assert compare(5, 2) == -1 and compare(2, 5) == 1
    assert is_bonus(2, 1) and is_bonus(1, 5) and not is_bonus(4, 2)


@pytest.mark.parametrize(("players", "deck"), [(4, 30), (5, 45), (6, 45), (7, 60), (8, 60)])
def test_setup_deals_six_actions_three_believers_and_two_skill_cards(players: int, deck: int) -> None:
    s = ENGINE.setup(players, 5)
    assert all(len(h) == 6 for h in s.hands) and all(len(b) == 3 for b in s.believers)
    assert len(s.believer_deck) + 3 * players == deck
    ps = ENGINE.prompts(s)
    assert len(ps) == players and all(p.kind == "choose_skill" and p.secret for p in ps)
    assert all(len(p.choices) == 2 for p in ps)
    conserved(s)


def test_skill_choice_is_secret_and_simultaneous_then_first_player_starts() -> None:
    s = ENGINE.setup(4, 9, {"first_player": "P3"})
    for seat in (3, 1, 0, 2):
        p = prompt(s, seat)
        s, events = act(s, seat, p.choices[1].action)
        assert all(p.choices[1].label not in e.text for e in events if e.to is None)
    assert s.phase == "play" and s.current == 2
    assert len(s.skill_deck) == 16 - 4
    assert len(s.hands[2]) == 6  # already at the hand limit: nothing to draw
    assert ENGINE.view(s, None)["seats"][2]["skill"] is None


def test_first_player_is_random_without_the_option_and_bad_options_are_refused() -> None:
    firsts = {ENGINE.setup(6, seed).first for seed in range(30)}
    assert len(firsts) > 3
    with pytest.raises(InvalidOptions, match="first_player"):
        ENGINE.setup(4, 1, {"first_player": 7})
    with pytest.raises(InvalidOptions, match="9"):
        ENGINE.setup(9, 1)


def test_draw_phase_fills_the_hand_to_six() -> None:
    s = table()
    hand(s, 1, "Info-Spy", "Info-Spy")
    s = do(s, (0, {"type": "end"}))
    assert s.current == 1 and len(s.hands[1]) == 6


def test_action_deck_reshuffles_its_discards_when_it_runs_out() -> None:
    s = table()
    s.action_discard = s.action_deck[:10]
    s.action_deck = s.action_deck[10:12]
    s.hands[1] = []
    extra = [c for c in range(N_ACTIONS) if c not in s.action_deck and c not in s.action_discard]
    s.hands[3] = extra  # keep every card somewhere
    s = do(s, (0, {"type": "end"}))
    assert len(s.hands[1]) == 6
    assert len(s.action_deck) + len(s.action_discard) == 10 + 2 - 6
    conserved(s)


def test_two_actions_never_of_the_same_kind() -> None:
    s = table()
    flock(s, 0, 1, 2)
    hand(s, 0, "Have a Charity", "It's a Miracle", "Faith War")
    flock(s, 1, 3)
    s.graveyard.append(s.believer_deck.pop())
    s = do(s, (0, {"type": "play", "card": "Have a Charity"}))
    groups = {c.group for c in prompt(s, 0).choices}
    assert "It's a Miracle" not in groups  # a second strategy action is not allowed
    assert "Faith War" in groups
    with pytest.raises(IllegalAction, match="not allowed"):
        act(s, 0, {"type": "play", "card": "It's a Miracle"})


def test_defence_cards_are_never_played_on_your_own_turn() -> None:
    s = table()
    hand(s, 0, "Firm Faith", "Great Mercy")
    groups = {c.group for c in prompt(s, 0).choices}
    assert groups == {"Discard", "End turn"}


def test_discard_any_number_is_one_action() -> None:
    s = table()
    hand(s, 0, "Info-Spy", "Secret Alliance", "Witch Hunt")
    s = do(s, (0, {"type": "discard"}), (0, {"type": "discard_card", "card": "Info-Spy"}),
           (0, {"type": "discard_card", "card": "Secret Alliance"}), (0, {"type": "done"}))
    assert names(s, 0) == ["Witch Hunt"] and s.used_kinds == ["discard"]
    assert all(c.group != "Discard" for c in prompt(s, 0).choices)


def test_cannot_surrender_while_holding_believers() -> None:
    s = table()
    flock(s, 0, 3)
    s = do(s, (0, {"type": "end"}))
    assert s.role[0] == "leader" and s.current == 1


def test_have_a_charity_recruits_two() -> None:
    s = table()
    hand(s, 0, "Have a Charity")
    s = do(s, (0, {"type": "play", "card": "Have a Charity"}))
    assert len(s.believers[0]) == 2
    conserved(s)


def test_its_a_miracle_revives_the_top_three_of_the_graveyard() -> None:
    s = table()
    hand(s, 0, "It's a Miracle")
    from .helpers import graveyard
    graveyard(s, 1, 2, 3, 4)
    s = do(s, (0, {"type": "play", "card": "It's a Miracle"}))
    assert types(s, 0) == [2, 3, 4] and len(s.graveyard) == 1


def test_divine_inspiration_trades_cards_for_believers_not_counting_itself() -> None:
    s = table()
    hand(s, 0, "Divine Inspiration", "Info-Spy", "Witch Hunt", "Faith War")
    s = do(s, (0, {"type": "play", "card": "Divine Inspiration"}),
           (0, {"type": "discard_card", "card": "Info-Spy"}),
           (0, {"type": "discard_card", "card": "Witch Hunt"}), (0, {"type": "done"}))
    assert len(s.believers[0]) == 2 and names(s, 0) == ["Faith War"]


def test_info_spy_shows_the_hand_only_to_the_spy() -> None:
    s = table()
    hand(s, 0, "Info-Spy")
    hand(s, 2, "Faith War")
    flock(s, 2, 5)
    s, events = act(s, 0, {"type": "play", "card": "Info-Spy", "target": 2})
    private = [e for e in events if e.to == (0,)]
    assert private and "Faith War" in private[0].text and "Fanatic" in private[0].text
    assert all("Fanatic" not in e.text for e in events if e.to is None)
    assert ENGINE.view(s, 0)["private"]["intel"]["believers"] == [5]


def test_secret_alliance_swaps_one_card_each_in_secret() -> None:
    s = table()
    hand(s, 0, "Secret Alliance", "Witch Hunt")
    hand(s, 3, "Faith War")
    s = do(s, (0, {"type": "play", "card": "Secret Alliance", "target": 3}))
    ps = ENGINE.prompts(s)
    assert {p.seat for p in ps} == {0, 3} and all(p.secret for p in ps)
    s = do(s, (3, {"type": "give", "card": "Faith War"}), (0, {"type": "give", "card": "Witch Hunt"}))
    assert names(s, 0) == ["Faith War"] and names(s, 3) == ["Witch Hunt"]


def test_card_visibility_public_view_holds_counts_only() -> None:
    s = table(skills={0: "World Peace"})
    hand(s, 0, "Faith War")
    flock(s, 0, 4, 4)
    pub = ENGINE.view(s, None)
    seat0 = pub["seats"][0]
    assert seat0["believers"] == 2 and seat0["hand"] == 1 and seat0["skill"] is None
    mine = ENGINE.view(s, 0)["private"]
    assert mine["skill"]["name"] == "World Peace"
    assert [b["id"] for b in mine["believers"]] == [4, 4]
    assert mine["believers"][0]["beats"] == [3, 2]
    assert "World Peace" not in str(pub)
    assert ACTION_CARDS.count("Faith War") == 6
