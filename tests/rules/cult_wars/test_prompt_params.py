"""Structured parameters of the orders prompt (followers, what can be assigned, targets, cards),
so an order form never reads numbers back from the English text."""

from __future__ import annotations

import pytest

from rules.cult_wars import ENGINE
from rules.cult_wars.content import MAX_DEPLOY, STRATEGY_VALUES
from rules.engine import IllegalAction, NotYourTurn
from rules.text import count

from .helpers import card, make, orders


def test_the_orders_prompt_says_what_a_cult_can_do() -> None:
    s = make([12, 30, 7], hands=[[card("pestilence")], [], []], turn=3)
    by_seat = {p.seat: p for p in ENGINE.prompts(s)}
    assert dict(by_seat[0].params) == {
        "turn": 3, "turns": 8, "followers": 12, "max_assign": 12,
        "strategy_cards": list(STRATEGY_VALUES), "slots": ["attack", "defend", "sacrifice", "breed"],
        "targets": [1, 2], "target": None, "targeted_by": [], "action_cards": 1, "replace": False,
    }
    assert by_seat[1].params["max_assign"] == MAX_DEPLOY < 30
    assert by_seat[2].params["targets"] == [0, 1]
    for p in by_seat.values():
        assert (f"{count(p.params['followers'], 'follower')} (at most {p.params['max_assign']} can be "
                f"assigned) and {count(p.params['action_cards'], 'action card')}") in p.text


def test_max_assign_is_what_the_engine_enforces() -> None:
    s = make([7, 12, 12])
    assert ENGINE.prompts(s)[0].params["max_assign"] == 7
    with pytest.raises(IllegalAction, match="only 7"):
        ENGINE.apply(s, 0, orders(1, attack=[8]))
    s, _ = ENGINE.apply(s, 0, orders(1, attack=[5], defend=[2]))
    assert s.orders[0].slots["attack"] == [5] and s.orders[0].slots["defend"] == [2]


def test_a_replacement_answers_the_orders_prompt_again() -> None:
    s = make([12, 12, 12])
    s, _ = ENGINE.apply(s, 0, orders(1, attack=[8]))
    assert [p.seat for p in ENGINE.prompts(s)] == [1, 2]
    again = ENGINE.revisable(s, 0)
    assert again is not None and again.kind == "orders" and again.params["replace"] is True
    assert ENGINE.revisable(s, 1) is None  # seat 1 has an open prompt, nothing to revise
    with pytest.raises(NotYourTurn, match="replace"):
        ENGINE.apply(s, 0, orders(2))
    with pytest.raises(NotYourTurn, match=r"waiting for seat 1 \(orders\), seat 2 \(orders\)"):
        ENGINE.apply(s, 5, orders(2))
