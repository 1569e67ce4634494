"""Arbitrary JSON thrown at every registered engine's ``apply``: refused cleanly or applied soundly.

For each game, a seeded computer-player game is walked from ``setup`` and the first state of each
distinct decision (prompt kinds and how many seats are asked) is kept, plus the finished state.
At those states hypothesis sends, for a seat that has a prompt, one that has none (or has
answered already) and seats that do not exist:

* arbitrary JSON (huge and non-finite numbers, long strings, nested lists and objects);
* objects with a real action ``type`` and the real keys holding arbitrary values or values from
  the prompt's ``params`` (ranges, targets, pieces; just outside the ranges; retyped);
* near misses of real answers (the prompt's choices, the computer player's answer): one value
  retyped (``1`` → ``true``, ``3`` → ``3.0`` or ``"3"``), a key added or removed, tuples,
  deep nesting, a cycle, values that are not JSON at all.

Whatever comes in: the only exception is a ``RulesError`` with a short message, a refusal leaves
the state as it was, an accepted answer to an enumerated prompt is exactly one of its choices,
and an accepted action gives a state that round-trips through JSON and is reproduced by
replaying the action as it would be stored (through ``json.dumps``/``json.loads``).
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import registry
from rules.engine import Engine, Prompt, RulesError, check_plain_json, same_json

GAMES = sorted(registry.all_engines())
SEEDS = (11, 12)
MAX_WALK = 400
MAX_POINTS = 24
MAX_MESSAGE = 500

FUZZ = settings(max_examples=60, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.large_base_example])


def _canonical(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


@dataclass(frozen=True)
class Point:
    """A state to probe, with the answers the engine itself offers there, per open prompt."""

    state: Any
    answers: tuple[tuple[Prompt, tuple[dict[str, Any], ...]], ...]
    seats: tuple[int, ...]
    """Seats with a prompt, then up to two without one, then two that do not exist."""


@cache
def points(game: str) -> tuple[Point, ...]:
    """The first state of each distinct decision (prompt kinds, number of seats asked) of a few
    seeded computer-player games, then a finished game."""
    engine = registry.get(game)
    found: dict[tuple[Any, ...], Any] = {}
    end: Any = None
    for seed in SEEDS:
        state = engine.setup(engine.min_players, seed)
        rng = random.Random(seed)
        for _ in range(MAX_WALK):
            if engine.result(state) is not None:
                end = state
                break
            prompts = engine.prompts(state)
            found.setdefault((tuple(sorted({p.kind for p in prompts})), len(prompts)), state)
            p = prompts[0]
            state, _ = engine.apply(state, p.seat, engine.bot_action(engine.view(state, p.seat), p, rng))
    states = list(found.values())[:MAX_POINTS] + ([end] if end is not None else [])
    out = []
    for state in states:
        prompts = engine.prompts(state)
        asked = sorted({p.seat for p in prompts})
        idle = [k for k in range(engine.min_players) if k not in asked][:2]
        answers = tuple((p, tuple(real_answers(engine, state, p))) for p in prompts)
        out.append(Point(state, answers, (*asked, *idle, -1, engine.max_players + 1)))
    return tuple(out)


def real_answers(engine: Engine[Any], state: Any, prompt: Prompt) -> list[dict[str, Any]]:
    """Answers the engine itself offers for ``prompt``: a few of its choices and the computer
    player's."""
    out = [dict(c.action) for c in prompt.choices[:12]]
    out.append(engine.bot_action(engine.view(state, prompt.seat), prompt, random.Random(1)))
    return out


# ------------------------------------------------------------------------------- strategies

HUGE = st.sampled_from([2**53, -(2**53), 2**64, 10**400, -(10**30)])
LEAVES = (st.none() | st.booleans() | st.integers(-10, 10) | st.integers() | HUGE
          | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=12)
          | st.sampled_from(["", "3", "40", "1.5", "nan", "all", "proportional", "z3", "heart", "I",
                             "x" * 5000]))
JSON = st.recursive(LEAVES, lambda kids: st.lists(kids, max_size=4)
                    | st.dictionaries(st.text(max_size=8), kids, max_size=4), max_leaves=12)


def _deep(n: int) -> Any:
    x: Any = 1
    for _ in range(n):
        x = [x]
    return x


def _cyclic() -> dict[str, Any]:
    d: dict[str, Any] = {"type": "x"}
    d["self"] = d
    return d


ODD = st.sampled_from([
    (1, 2), {1, 2}, b"flick", object(), 1j, float("nan"), float("-inf"), 10**400,
    {1: "int key"}, {("t",): "tuple key"},
])


def _retyped(v: Any, k: int) -> Any:
    """A near miss of a JSON value: what a careless client might send instead."""
    if type(v) is bool:
        return [int(v), str(v).lower(), None][k % 3]
    if type(v) is int:
        return [float(v), str(v), v == 1, v + 0.5, [v]][k % 5]
    if type(v) is float:
        return [str(v), int(v) if v.is_integer() else True, [v]][k % 3]
    if type(v) is str:
        return [len(v), None, v + " ", [v], v.upper()][k % 5]
    if v is None:
        return [0, "", False][k % 3]
    if type(v) is list:
        return [tuple(v), v + v, [], {"0": v}][k % 4]
    return [list(v.items()), None, {}, _cyclic()][k % 4]


def _paths(x: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if type(x) is dict:
        for k, v in x.items():
            out += _paths(v, (*prefix, k))
    elif type(x) is list:
        for i, v in enumerate(x):
            out += _paths(v, (*prefix, i))
    return out


def _replace(x: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if type(x) is dict:
        return {**x, head: _replace(x[head], rest, new)}
    copy = list(x)
    copy[head] = _replace(x[head], rest, new)
    return copy


@st.composite
def near_miss(draw: st.DrawFn, base: dict[str, Any]) -> Any:
    how = draw(st.sampled_from(["retype", "retype", "retype", "json", "json", "extra", "drop", "deep",
                                "cycle", "odd", "wrap"]))
    if how in ("retype", "json", "odd"):
        path = draw(st.sampled_from(_paths(base)[1:] or [("type",)]))
        new = (_retyped(_get(base, path), draw(st.integers(0, 9))) if how == "retype"
               else draw(JSON if how == "json" else ODD))
        return _replace(base, path, new)
    if how == "extra":
        return {**base, draw(st.sampled_from(["extra", "Type", "angle", "piece", "replace", "x" * 300])):
                draw(JSON)}
    if how == "drop":
        key = draw(st.sampled_from(sorted(base)))
        return {k: v for k, v in base.items() if k != key}
    if how == "deep":
        return {**base, "extra": _deep(draw(st.integers(6, 60)))}
    if how == "cycle":
        loop = dict(base)
        loop[draw(st.sampled_from(sorted(base)))] = loop
        return loop
    return [base]


def _get(x: Any, path: tuple[Any, ...]) -> Any:
    for p in path:
        x = x[p]
    return x


def _param_values(prompt: Prompt) -> list[Any]:
    """The scalars of a prompt's ``params`` (ranges, targets, pieces…), numbers also just outside
    and retyped: values a UI built from the params might send, right or nearly right."""
    out: list[Any] = []
    todo: list[Any] = list(prompt.params.values())
    while todo:
        v = todo.pop()
        if type(v) is list:
            todo.extend(v)
        elif type(v) in (int, float):
            out += [v, v - 0.5, v + 1, str(v), float(v)]
        elif v is not None:
            out.append(v)
    return out or [0]


@st.composite
def shaped(draw: st.DrawFn, prompt: Prompt, bases: list[dict[str, Any]]) -> dict[str, Any]:
    """A real action type with the real keys (and maybe others) holding arbitrary JSON or values
    taken from the prompt's params."""
    keys = sorted({k for b in bases for k in b if k != "type"} | {"extra"})
    chosen = draw(st.lists(st.sampled_from(keys), max_size=len(keys), unique=True))
    values = JSON | st.sampled_from(_param_values(prompt))
    action = {k: draw(values) for k in chosen}
    action["type"] = draw(st.sampled_from(sorted({b["type"] for b in bases})))
    return action


# ------------------------------------------------------------------------------------ checks

def check_apply(engine: Engine[Any], state: Any, seat: Any, action: Any) -> None:
    """The contract under fire: a RulesError with a short message and no change, or a sound move."""
    before = _canonical(engine.to_json(state))
    try:
        new, events = engine.apply(state, seat, action)
    except RulesError as exc:
        msg = str(exc)
        assert isinstance(msg, str) and 0 < len(msg) < MAX_MESSAGE, f"bad refusal message: {msg[:600]!r}"
        assert _canonical(engine.to_json(state)) == before, "a refused action changed the state"
        return
    assert _canonical(engine.to_json(state)) == before, "apply mutated the state it was given"
    check_plain_json(action)  # anything accepted can be stored as it is
    prompt = next((p for p in engine.prompts(state) if p.seat == seat), None) or engine.revisable(state, seat)
    assert prompt is not None
    if prompt.free_form is None:
        assert any(same_json(action, c.action) for c in prompt.choices), (
            f"{action!r} was accepted but is not exactly one of the choices")
    data = engine.to_json(new)
    text = _canonical(data)
    assert _canonical(engine.to_json(engine.from_json(json.loads(text)))) == text
    again, _ = engine.apply(state, seat, json.loads(json.dumps(action)))
    assert _canonical(engine.to_json(again)) == text, "the stored action does not replay to the same state"
    assert all(isinstance(e.text, str) for e in events)


@pytest.mark.parametrize("game", GAMES)
@FUZZ
@given(data=st.data())
def test_arbitrary_json_is_refused_cleanly(game: str, data: st.DataObject) -> None:
    engine = registry.get(game)
    point = data.draw(st.sampled_from(points(game)), label="point")
    seat = data.draw(st.sampled_from(point.seats), label="seat")
    action = data.draw(JSON | ODD | st.dictionaries(st.text(max_size=6), JSON, max_size=4)
                       .map(lambda d: {"type": "x", **d}), label="action")
    check_apply(engine, point.state, seat, action)


@pytest.mark.parametrize("game", GAMES)
@settings(FUZZ, max_examples=100)
@given(data=st.data())
def test_near_misses_of_real_answers_are_refused_or_exact(game: str, data: st.DataObject) -> None:
    engine = registry.get(game)
    point = data.draw(st.sampled_from([p for p in points(game) if p.answers]), label="point")
    prompt, bases = data.draw(st.sampled_from(point.answers), label="prompt")
    base = data.draw(st.sampled_from(bases), label="base")
    action = data.draw(st.one_of(near_miss(base), near_miss(base), shaped(prompt, list(bases))), label="action")
    others = [k for k in point.seats if k != prompt.seat]
    seat = data.draw(st.sampled_from([prompt.seat, prompt.seat, *others]), label="seat")
    check_apply(engine, point.state, seat, action)


@pytest.mark.parametrize("game", GAMES)
def test_every_answer_the_engine_offers_is_plain_json_and_accepted(game: str) -> None:
    """The other side of exactness: choices and computer answers are exact JSON, so refusing
    near misses never refuses the platform's own clicks or the computer players."""
    engine = registry.get(game)
    for point in points(game):
        for prompt, answers in point.answers:
            for action in answers[:3] + answers[-1:]:
                check_plain_json(action)
                assert same_json(json.loads(json.dumps(action)), action)
                engine.apply(point.state, prompt.seat, action)


RETYPES = 5
"""How many near misses :func:`_retyped` knows per JSON type (at most)."""


def _refused(engine: Engine[Any], state: Any, seat: int, action: Any) -> bool:
    try:
        engine.apply(state, seat, action)
    except RulesError:
        return True
    return False


@pytest.mark.parametrize("game", GAMES)
def test_every_retyped_value_and_extra_key_of_a_real_answer(game: str) -> None:
    """Deterministic sweep: every value of a few real answers per decision, retyped every way
    :func:`_retyped` knows, goes through the contract checks; a number sent as a bool or a
    string, and any unknown key, is refused."""
    engine = registry.get(game)
    for point in points(game):
        for prompt, answers in point.answers:
            for base in answers[:2] + answers[-1:]:
                extra = {**base, "extra": 1}
                assert _refused(engine, point.state, prompt.seat, extra), f"{extra!r} was accepted"
                for path in _paths(base)[1:]:
                    old = _get(base, path)
                    for k in range(RETYPES):
                        new = _retyped(old, k)
                        action = _replace(base, path, new)
                        if type(old) in (int, float) and type(new) in (str, bool):
                            assert _refused(engine, point.state, prompt.seat, action), (
                                f"{action!r} was accepted: {old!r} became {new!r}")
                        else:
                            check_apply(engine, point.state, prompt.seat, action)
