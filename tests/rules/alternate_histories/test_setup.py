"""Setup: secret deck choice (ready-made or code), the chosen opening hand, the roll, options."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from rules.alternate_histories import ENGINE
from rules.alternate_histories.content import READY_DECKS, encode_deck
from rules.alternate_histories.state import State
from rules.engine import IllegalAction, InvalidOptions

from .helpers import act


def test_both_seats_choose_a_deck_in_secret() -> None:
    s = ENGINE.setup(2, 5)
    ps = ENGINE.prompts(s)
    assert [(p.seat, p.kind, p.secret, p.free_form) for p in ps] == [
        (0, "deck", True, "deck"), (1, "deck", True, "deck")]
    assert ps[0].params["ready"] == sorted(READY_DECKS)
    s, ev = act(s, 0, {"type": "deck", "ready": "usa-capitalism"})
    assert [p.seat for p in ENGINE.prompts(s)] == [1]
    # Nothing about the choice is public until both have chosen.
    assert ENGINE.view(s, None)["sides"][0]["nation"] is None
    assert ENGINE.view(s, 1)["private"]["nation"] == ""
    assert "usa" not in str(ENGINE.view(s, 1))
    assert ENGINE.view(s, 0)["private"]["deck_name"] == "usa-capitalism"
    assert all("United States" not in e.text for e in ev)
    s, ev = act(s, 1, {"type": "deck", "code": encode_deck(*READY_DECKS["japan-autocracy"])})
    assert s.phase == "opening"
    pub = ENGINE.view(s, None)["sides"]
    assert (pub[0]["nation"], pub[1]["nation"], pub[1]["governance"]) == ("usa", "japan", "autocracy")
    assert "P2 leads Japan under Autocracy." in [e.text for e in ev]


def test_bad_deck_answers_are_refused_with_the_reason() -> None:
    s = ENGINE.setup(2, 5)
    with pytest.raises(IllegalAction, match="not a ready-made deck"):
        act(s, 0, {"type": "deck", "ready": "atlantis"})
    with pytest.raises(IllegalAction, match="not both"):
        act(s, 0, {"type": "deck", "ready": "usa-capitalism", "code": "AH"})
    with pytest.raises(IllegalAction, match="checksum|cut short|start with AH"):
        act(s, 0, {"type": "deck", "code": "AHAAAAAAAAAA"})
    bad = encode_deck("usa", "communism", ["tiger"] * 40)
    with pytest.raises(IllegalAction, match="cannot be played: .*Tiger I appears 40 times.*card of Germany"):
        act(s, 0, {"type": "deck", "code": bad})
    with pytest.raises(IllegalAction, match="unknown key"):
        act(s, 0, {"type": "deck", "ready": "usa-capitalism", "colour": "red"})


def _decks_chosen(seed: int = 5) -> State:
    s = ENGINE.setup(2, seed)
    s, _ = act(s, 0, {"type": "deck", "ready": "britain-communism"})
    s, _ = act(s, 1, {"type": "deck", "ready": "germany-autocracy"})
    return s


def test_opening_hand_is_chosen_from_the_deck_then_the_roll() -> None:
    s = _decks_chosen()
    ps = ENGINE.prompts(s)
    assert [(p.kind, p.secret, p.free_form) for p in ps] == [("opening", True, "opening")] * 2
    params = ps[0].params
    assert params["pick"] == 7
    assert sum(c["count"] for c in params["cards"]) == 40
    assert {"id", "name", "count"} == set(params["cards"][0])
    deck0 = Counter(READY_DECKS["britain-communism"][2])
    pick = ["royal_flying_corps"] * 3 + ["rifle_infantry"] * 3 + ["gas_attack"]
    with pytest.raises(IllegalAction, match="pick 7"):
        act(s, 0, {"type": "opening", "cards": pick[:6]})
    with pytest.raises(IllegalAction, match="not among your deck"):
        act(s, 0, {"type": "opening", "cards": pick[:6] + ["tiger"]})
    with pytest.raises(IllegalAction, match="not among your deck"):
        act(s, 0, {"type": "opening", "cards": ["royal_flying_corps"] * 7})
    s, _ = act(s, 0, {"type": "opening", "cards": pick})
    s, ev = act(s, 1, ENGINE.timeout_action(s, ENGINE.prompts(s)[0]))
    assert s.phase == "turn"
    assert Counter(s.sides[0].hand) == Counter(pick)
    assert Counter(s.sides[0].deck) + Counter(pick) == deck0
    assert len(s.sides[1].hand) == 7 and len(s.sides[1].deck) == 33
    roll = next(e for e in ev if e.kind == "roll")
    a, b = roll.data["rolls"]
    assert a != b and s.current == s.first == (0 if a > b else 1)
    assert s.global_era == 0 and [x.era for x in s.sides] == [0, 0]
    assert ENGINE.prompts(s)[0].kind == "events" and ENGINE.prompts(s)[0].seat == s.first


def test_timeouts_pick_a_ready_deck_and_a_sensible_opening_hand() -> None:
    s = ENGINE.setup(2, 9)
    for p in ENGINE.prompts(s):
        a = ENGINE.timeout_action(s, p)
        assert a["type"] == "deck" and a["ready"] in READY_DECKS
        s, _ = act(s, p.seat, a)
    p = ENGINE.prompts(s)[0]
    a = ENGINE.timeout_action(s, p)
    assert len(a["cards"]) == 7
    # mostly cards that can be played in the Chemical era, units first
    from rules.alternate_histories.content import CARDS

    assert sum(1 for c in a["cards"] if CARDS[c].kind == "unit" and CARDS[c].era == "chemical") >= 3


def test_options() -> None:
    s = ENGINE.setup(2, 1, {"reaction_window": 5, "max_turns": 50})
    assert s.reaction_window == 300 and s.max_turns == 50
    for bad in ({"reaction_window": 0}, {"reaction_window": True}, {"max_turns": 5},
                {"max_turns": "many"}, {"colour": 1}):
        with pytest.raises(InvalidOptions):
            ENGINE.setup(2, 1, bad)
    with pytest.raises(InvalidOptions, match="3"):
        ENGINE.setup(3, 1)


def test_the_same_seed_and_answers_replay_exactly() -> None:
    rng = random.Random(4)
    s = ENGINE.setup(2, 77)
    log = []
    for _ in range(60):
        p = rng.choice(ENGINE.prompts(s))
        a = ENGINE.bot_action(ENGINE.view(s, p.seat), p, rng)
        log.append((p.seat, a))
        s, _ = ENGINE.apply(s, p.seat, a)
    again = ENGINE.replay(2, 77, None, log)
    assert ENGINE.to_json(again) == ENGINE.to_json(s)


def test_undo_takes_back_a_deck_or_opening_pick_until_both_sides_have_chosen() -> None:
    s0 = ENGINE.setup(2, 5)
    deck = {"type": "deck", "ready": "britain-communism"}
    s1, ev = act(s0, 0, deck)
    assert ENGINE.undoable(s0, 0, deck, s1, ev) is None
    last = {"type": "deck", "ready": "germany-autocracy"}
    s2, ev = act(s1, 1, last)
    assert ENGINE.undoable(s1, 1, last, s2, ev) == "both sides have chosen, so the choices are out"
    # The opening pick moves seven cards out of the deck; that is a choice, not a draw.
    pick = {"type": "opening", "cards": ["royal_flying_corps"] * 3 + ["rifle_infantry"] * 3 + ["gas_attack"]}
    s3, ev = act(s2, 0, pick)
    assert len(s3.sides[0].deck) == 33
    assert ENGINE.undoable(s2, 0, pick, s3, ev) is None
    other = ENGINE.timeout_action(s3, ENGINE.prompts(s3)[0])
    s4, ev = act(s3, 1, other)
    assert s4.phase == "turn"
    assert ENGINE.undoable(s3, 1, other, s4, ev) == "both sides have chosen, so the choices are out"
    # A move in play stays final.
    p = ENGINE.prompts(s4)[0]
    a = p.choices[0].action
    s5, ev = act(s4, p.seat, a)
    assert ENGINE.undoable(s4, p.seat, a, s5, ev) is not None
