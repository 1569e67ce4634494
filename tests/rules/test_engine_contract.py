"""The shared part of the engine contract (``rules/engine.py``), on a tiny engine of its own.

``Engine.apply`` makes the common checks in a fixed order and only then calls the game's
``play``; the cross-game conformance suite checks the same on the real games.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import pytest

import rules
from rules.engine import (
    Action,
    Choice,
    Engine,
    Event,
    GameOver,
    IllegalAction,
    NotYourTurn,
    Prompt,
    Result,
    RulesError,
    StateSchemaError,
    seat_name,
)


@dataclass
class CountState:
    """Seat 0 picks a number (enumerated), then seat 1 writes a word (free-form); then it is over."""

    step: int = 0
    picked: int | None = None
    word: str | None = None
    played: list[str] = field(default_factory=list)


class CountEngine(Engine[CountState]):
    key = "count"
    name = "Count"
    min_players = 2
    max_players = 2

    def __init__(self) -> None:
        self.calls: list[tuple[int, Action, str]] = []

    def setup(self, players: int, seed: int, options: Mapping[str, Any] | None = None) -> CountState:
        self.validate_options(players, options or {})
        return CountState()

    def prompts(self, state: CountState) -> list[Prompt]:
        if state.step == 0:
            return [Prompt(0, "pick", "Pick a number.",
                           tuple(Choice(str(n), {"type": "pick", "n": n}) for n in (1, 2)))]
        if state.step == 1:
            return [Prompt(1, "word", "Write a word.", free_form="word",
                           params={"max_length": 5})]
        return []

    def play(self, state: CountState, seat: int, action: Action,
             prompt: Prompt) -> tuple[CountState, list[Event]]:
        self.calls.append((seat, action, prompt.kind))
        s = self.clone(state)
        if prompt.kind == "pick":
            s.picked = action["n"]
        else:
            word = action.get("word")
            if not isinstance(word, str) or not 0 < len(word) <= prompt.params["max_length"]:
                raise IllegalAction(f"{word!r} is not a word of 1 to 5 letters.")
            s.word = word
        s.step += 1
        return s, [Event(f"{seat_name(seat)} answers.")]

    def view(self, state: CountState, seat: int | None) -> dict[str, Any]:
        return {"step": state.step}

    def result(self, state: CountState) -> Result | None:
        return Result((0,), {0: 1.0, 1: 0.0}, "done") if state.step >= 2 else None

    def bot_action(self, view: dict[str, Any], prompt: Prompt, rng: random.Random) -> Action:
        return dict(prompt.choices[0].action) if prompt.choices else {"type": "word", "word": "hi"}

    def to_json(self, state: CountState) -> dict[str, Any]:
        return {"schema_version": self.schema_version, "step": state.step, "picked": state.picked,
                "word": state.word}

    def from_json(self, data: Mapping[str, Any]) -> CountState:
        self.check_schema(data)
        return CountState(data["step"], data["picked"], data["word"])


def test_seat_name_counts_from_p1() -> None:
    assert [seat_name(k) for k in range(9)] == [f"P{k}" for k in range(1, 10)]
    assert rules.seat_name is seat_name and rules.StateSchemaError is StateSchemaError


def test_an_enumerated_answer_is_checked_before_play() -> None:
    e = CountEngine()
    s = e.setup(2, 1)
    with pytest.raises(IllegalAction, match="choose one of: 1, 2"):
        e.apply(s, 0, {"type": "pick", "n": 3})
    assert e.calls == []
    s, ev = e.apply(s, 0, {"type": "pick", "n": 2})
    assert e.calls == [(0, {"type": "pick", "n": 2}, "pick")] and s.picked == 2
    assert [x.text for x in ev] == ["P1 answers."]


def test_a_free_form_answer_goes_to_play_unchecked() -> None:
    e = CountEngine()
    s, _ = e.apply(e.setup(2, 1), 0, {"type": "pick", "n": 1})
    with pytest.raises(IllegalAction, match="not a word"):
        e.apply(s, 1, {"type": "word", "word": "toolong"})
    assert e.calls[-1][2] == "word"  # play saw it: free-form answers are the game's to check
    s, _ = e.apply(s, 1, {"type": "word", "word": "hi"})
    assert e.result(s) is not None


@pytest.mark.parametrize("action", [None, [], "pick", {}, {"type": 1}, {"type": None}, {"n": 1}])
def test_a_malformed_action_is_refused_repeating_it(action: Any) -> None:
    e = CountEngine()
    with pytest.raises(IllegalAction, match="is not an action") as err:
        e.apply(e.setup(2, 1), 0, action)
    if isinstance(action, dict) and action:
        assert str(next(iter(action))) in str(err.value)
    assert e.calls == []


@pytest.mark.parametrize("seat", [True, False, "0", 0.0, None])
def test_a_seat_must_be_a_whole_number(seat: Any) -> None:
    e = CountEngine()
    with pytest.raises(IllegalAction, match=f"seat {seat!r} is not a seat number"):
        e.apply(e.setup(2, 1), seat, {"type": "pick", "n": 1})


def test_a_seat_without_an_open_prompt_is_told_who_is_awaited() -> None:
    e = CountEngine()
    for seat in (1, 7, -1):
        with pytest.raises(NotYourTurn, match=r"waiting for seat 0 \(pick\)"):
            e.apply(e.setup(2, 1), seat, {"type": "pick", "n": 1})


def test_game_over_comes_before_every_other_check() -> None:
    e = CountEngine()
    s = CountState(step=2)
    for seat, action in ((0, {"type": "pick", "n": 1}), (True, None), (5, {})):
        with pytest.raises(GameOver, match="the game is over"):
            e.apply(s, seat, action)
    assert e.calls == []


def test_a_stored_state_of_another_layout_is_a_schema_error_not_a_rules_error() -> None:
    e = CountEngine()
    data = e.to_json(e.setup(2, 1))
    assert e.from_json(data) == CountState()
    with pytest.raises(StateSchemaError, match="unsupported Count state schema 99; this Herald reads version 1"):
        e.from_json({**data, "schema_version": 99})
    assert not issubclass(StateSchemaError, RulesError)


def test_prompt_params_default_empty_compare_and_stay_hashable() -> None:
    a = Prompt(0, "word", "Write.", free_form="word")
    assert a.params == {}
    b = Prompt(0, "word", "Write.", free_form="word", params={"max_length": 5})
    c = Prompt(0, "word", "Write.", free_form="word", params={"max_length": 5})
    assert b == c and a != b
    assert hash(b) == hash(c) == hash(a)  # params are compared, never hashed
    assert Prompt(0, "k", "t").params is not Prompt(0, "k", "t").params


class RevisingEngine(CountEngine):
    """Seat 0 may pick again while seat 1 has not written its word."""

    def revisable(self, state: CountState, seat: int) -> Prompt | None:
        return self.prompts(CountState())[0] if state.step == 1 and seat == 0 else None


def test_a_revisable_answer_goes_through_the_same_checks_to_play() -> None:
    e = RevisingEngine()
    s, _ = e.apply(e.setup(2, 1), 0, {"type": "pick", "n": 1})
    assert [p.seat for p in e.prompts(s)] == [1] and e.revisable(s, 0) is not None
    with pytest.raises(IllegalAction, match="choose one of"):
        e.apply(s, 0, {"type": "pick", "n": 9})
    s2, _ = e.apply(s, 0, {"type": "pick", "n": 2})
    assert e.calls[-1] == (0, {"type": "pick", "n": 2}, "pick") and s2.picked == 2
    assert CountEngine().revisable(s, 0) is None
