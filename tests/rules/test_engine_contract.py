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
from rules import registry
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
    check_plain_json,
    fields,
    same_json,
    seat_name,
    shown,
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
            word = fields(action, "a word", {"type": str, "word": str})["word"]
            if not 0 < len(word) <= prompt.params["max_length"]:
                raise IllegalAction(f"{shown(word)} is not a word of 1 to 5 letters.")
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


@pytest.mark.parametrize(("seat", "text"), [(True, "true"), (False, "false"), ("0", '"0"'),
                                           (0.0, "0.0"), (None, "null"), ([0], "[0]")])
def test_a_seat_must_be_a_whole_number(seat: Any, text: str) -> None:
    e = CountEngine()
    with pytest.raises(IllegalAction) as err:
        e.apply(e.setup(2, 1), seat, {"type": "pick", "n": 1})
    assert str(err.value) == f"seat {text} is not a seat number: seats are whole numbers from 0."


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
            # a missing action on purpose: the game being over is said before the action is read
            e.apply(s, seat, action)  # type: ignore[arg-type]
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


# ------------------------------------------------------------ exact actions (plain JSON, exact types)

def _deep(levels: int) -> Any:
    """``levels`` lists inside each other around a 1, built without recursion."""
    x: Any = 1
    for _ in range(levels):
        x = [x]
    return x


@pytest.mark.parametrize("n", [1.0, True, "1", [1], None])
def test_a_choice_is_matched_exactly_not_by_python_equality(n: Any) -> None:
    e = CountEngine()
    s = e.setup(2, 1)
    with pytest.raises(IllegalAction, match="is not allowed now; choose one of: 1, 2"):
        e.apply(s, 0, {"type": "pick", "n": n})
    assert e.calls == []
    assert e.apply(s, 0, {"type": "pick", "n": 1})[0].picked == 1


def test_a_choice_with_an_extra_or_a_missing_key_is_refused() -> None:
    e = CountEngine()
    s = e.setup(2, 1)
    for action in ({"type": "pick", "n": 1, "n2": 1}, {"type": "pick"}, {"type": "pick", "N": 1}):
        with pytest.raises(IllegalAction, match="choose one of"):
            e.apply(s, 0, action)
    assert e.calls == []


def test_a_free_form_answer_with_an_unknown_key_is_refused_naming_it() -> None:
    e = CountEngine()
    s, _ = e.apply(e.setup(2, 1), 0, {"type": "pick", "n": 1})
    with pytest.raises(IllegalAction) as err:
        e.apply(s, 1, {"type": "word", "word": "hi", "colour": "red"})
    assert str(err.value) == 'a word has unknown key "colour"; allowed: type, word.'
    with pytest.raises(IllegalAction, match='"word" in a word must be a string, not 5'):
        e.apply(s, 1, {"type": "word", "word": 5})


def _first_free_form(game: str, free_form: str) -> tuple[Engine[Any], Any, Prompt, Action]:
    """A seeded computer-player game of ``game`` up to its first ``free_form`` prompt, with the
    computer player's answer to it."""
    engine = registry.get(game)
    state = engine.setup(engine.min_players, 4)
    rng = random.Random(4)
    for _ in range(400):
        for p in engine.prompts(state):
            if p.free_form == free_form:
                return engine, state, p, engine.bot_action(engine.view(state, p.seat), p, rng)
        p = engine.prompts(state)[0]
        state, _ = engine.apply(state, p.seat, engine.bot_action(engine.view(state, p.seat), p, rng))
    raise AssertionError(f"no {free_form} prompt in {game}")


@pytest.mark.parametrize(("game", "free_form"), [("flick_of_faith", "flick"),
                                                 ("hegemony_of_faith", "lineup"),
                                                 ("cult_wars", "orders")])
def test_every_free_form_parser_refuses_an_unknown_key_by_name(game: str, free_form: str) -> None:
    engine, state, p, good = _first_free_form(game, free_form)
    engine.apply(state, p.seat, good)
    with pytest.raises(IllegalAction, match=r'unknown key "colour"; allowed: .*type'):
        engine.apply(state, p.seat, {**good, "colour": "red"})


def test_a_numeric_string_is_not_an_angle_but_a_whole_number_is() -> None:
    engine, state, p, good = _first_free_form("flick_of_faith", "flick")
    assert p.kind == "contest_flick"
    with pytest.raises(IllegalAction) as err:
        engine.apply(state, p.seat, {"type": "flick", "angle": "40", "power": 5.0})
    assert str(err.value).startswith('"angle" in a secret flick must be a number, not "40"; send {')
    for angle in (True, [40], None):
        with pytest.raises(IllegalAction, match='"angle" in a secret flick must be a number'):
            engine.apply(state, p.seat, {"type": "flick", "angle": angle, "power": 5.0})
    whole, _ = engine.apply(state, p.seat, {"type": "flick", "angle": 40, "power": 5})
    decimal, _ = engine.apply(state, p.seat, {"type": "flick", "angle": 40.0, "power": 5.0})
    assert engine.to_json(whole) == engine.to_json(decimal)  # 40 and 40.0 are the same flick


def test_a_line_up_holds_whole_number_ids_not_floats_or_bools() -> None:
    engine, state, p, good = _first_free_form("hegemony_of_faith", "lineup")
    first = good["order"][0]
    for bad in (float(first), True, str(first)):
        with pytest.raises(IllegalAction, match="is not a believer ID 1–5"):
            engine.apply(state, p.seat, {**good, "order": [bad, *good["order"][1:]]})


@pytest.mark.parametrize("levels", [9, 50, 100_000])
def test_deep_nesting_is_refused_with_a_short_message(levels: int) -> None:
    e = CountEngine()
    s = e.setup(2, 1)
    with pytest.raises(IllegalAction) as err:
        e.apply(s, 0, {"type": "pick", "n": _deep(levels)})
    assert str(err.value) == ("the action nests lists and objects more than 8 levels deep; "
                              "send a flatter one.")
    e.apply(s, 0, {"type": "pick", "n": 1})  # the state was left as it was


def test_a_cyclic_action_is_refused_with_a_short_message() -> None:
    e = CountEngine()
    loop: dict[str, Any] = {"type": "pick", "n": 1}
    loop["more"] = [loop] * 200
    with pytest.raises(IllegalAction, match="more than 8 levels deep") as err:
        e.apply(e.setup(2, 1), 0, loop)
    assert len(str(err.value)) < 100
    assert e.calls == []


@pytest.mark.parametrize(("action", "says"), [
    ({"type": "pick", "n": 1, "x": "y" * 5000}, "too large"),
    ({"type": "pick", "n": list(range(10**6))}, "too large"),
    ({"type": "pick", "n": 10**5000}, "too large to be exact"),
    ({"type": "pick", "n": float("nan")}, "NaN, which is not a JSON number"),
    ({"type": "pick", "n": float("-inf")}, "-Infinity, which is not a JSON number"),
    ({"type": "pick", "n": (1,)}, "type tuple, which is not JSON data"),
    ({"type": "pick", "n": {1}}, "type set, which is not JSON data"),
    ({"type": "pick", 1: 1}, "object key 1 that is not a string"),
])
def test_anything_but_small_plain_json_is_refused_before_the_game_sees_it(action: Any, says: str) -> None:
    e = CountEngine()
    with pytest.raises(IllegalAction, match=says) as err:
        e.apply(e.setup(2, 1), 0, action)
    assert len(str(err.value)) < 200
    assert e.calls == []


def test_a_huge_seat_number_is_told_who_is_awaited_briefly() -> None:
    e = CountEngine()
    with pytest.raises(NotYourTurn, match=r"seat <a huge number> has nothing to decide .* seat 0 \(pick\)"):
        e.apply(e.setup(2, 1), 10**5000, {"type": "pick", "n": 1})


def test_plain_json_limits_are_inclusive() -> None:
    check_plain_json({"type": "x", "n": _deep(7)})  # the action object plus 7 lists: 8 levels
    check_plain_json({"type": "x", "n": 2**53 - 1, "m": -(2**53 - 1), "f": 1e308})
    check_plain_json({"type": "x", "s": "y" * 4000})
    with pytest.raises(IllegalAction):
        check_plain_json({"type": "x", "n": _deep(8)})
    with pytest.raises(IllegalAction):
        check_plain_json({"type": "x", "n": 2**53})


def test_shown_is_short_and_safe_on_anything() -> None:
    loop: dict[str, Any] = {}
    loop["a"] = loop
    assert shown(loop) == '{"a": {"a": {"a": {…}}}}'
    assert shown(_deep(100_000)) == "[[[[…]]]]"
    assert shown({"b": 1, "a": [True, None, 2.5]}) == '{"a": [true, null, 2.5], "b": 1}'
    assert shown(10**5000) == "<a huge number>" and shown(-(10**30)) == "-<a huge number>"
    assert shown(list(range(10**6))) == "[0, 1, 2, 3, 4, 5, 6, 7, …]"
    assert shown(object()) == "<object>"
    for x in ("z" * 10**6, {str(k): "v" * 50 for k in range(10**4)}, [loop] * 50):
        assert len(shown(x)) <= 120 and len(shown(x, 30)) <= 30


def test_same_json_tells_json_types_apart() -> None:
    assert same_json({"a": [1, "x", None, 2.5, True]}, {"a": [1, "x", None, 2.5, True]})
    for a, b in ((1, True), (0, False), (3, 3.0), ("3", 3), ([1], (1,)), ({"a": 1}, {"a": 1, "b": 2}),
                 ({"a": 1}, {"b": 1}), ([1, 2], [1]), (None, 0)):
        assert not same_json(a, b) and not same_json(b, a)


def test_fields_reads_exact_types() -> None:
    spec: dict[str, Any] = {"type": str, "n": int, "x": float}
    got = fields({"type": "t", "n": 2, "x": 3, "note": None}, "a test", spec, {"note": (str, None)})
    assert got == {"type": "t", "n": 2, "x": 3.0, "note": None} and type(got["x"]) is float
    assert fields({"type": "t", "n": 2, "x": 0.5}, "a test", spec) == {"type": "t", "n": 2, "x": 0.5}
    refusals = [
        ({"type": "t", "n": True, "x": 1}, '"n" in a test must be a whole number, not true.'),
        ({"type": "t", "n": 2.0, "x": 1}, '"n" in a test must be a whole number, not 2.0.'),
        ({"type": "t", "n": 2, "x": "1.5"}, '"x" in a test must be a number, not "1.5".'),
        ({"type": "t", "n": 2, "x": False}, '"x" in a test must be a number, not false.'),
        ({"type": "t", "n": 2}, 'a test needs "x" (a number).'),
        ({"type": "t", "n": 2, "x": 1, "y": 1, "z": 1}, 'a test has unknown keys "y", "z"; '
                                                        "allowed: n, type, x."),
        ([1], "a test must be an object, not [1]."),
    ]
    for obj, message in refusals:
        with pytest.raises(IllegalAction) as err:
            fields(obj, "a test", spec)
        assert str(err.value) == message
    with pytest.raises(IllegalAction, match=r'not "1"; send \{"n": 1\}\.$'):
        fields({"n": "1"}, "a test", {"n": int}, usage='{"n": 1}')
    assert rules.fields is fields and rules.shown is shown
