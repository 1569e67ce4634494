"""The cross-game conformance suite: every registered game must pass it.

Seeded computer-player games are played to the end; at every step the state round-trips through
JSON, the open prompts are answerable, each seat's view adds only its own ``private`` part to the
public view (and ``private_view`` gives exactly that part on its own), secret markers never reach
another seat or a public event, and replaying the accepted actions reproduces the stored state.
Illegal actions raise ``RulesError``, never crash.
"""

from __future__ import annotations

import json
import os
import random
from typing import Any

import pytest

from rules import registry
from rules.engine import (
    Engine,
    Event,
    GameOver,
    IllegalAction,
    NotYourTurn,
    RulesError,
    StateSchemaError,
)

GAMES = sorted(registry.all_engines())
# More games in CI-sized batches; HERALD_CONFORMANCE_GAMES raises it for soak runs.
N_GAMES = int(os.environ.get("HERALD_CONFORMANCE_GAMES", "6"))
MAX_STEPS = 20000


def _player_counts(engine: Engine[Any]) -> list[int]:
    return list(range(engine.min_players, engine.max_players + 1))


def _canonical(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def _check_step(engine: Engine[Any], state: Any, players: int, events: list[Event]) -> None:
    data = engine.to_json(state)
    assert data.get("schema_version") == engine.schema_version
    text = _canonical(data)
    # plain JSON as a read gives it back (lists, text keys): the storage keeps it as given
    assert json.loads(text) == data, "to_json is not plain JSON (a tuple, or a key that is not text)"
    again = engine.from_json(json.loads(text))
    assert _canonical(engine.to_json(again)) == text, "state does not round-trip through JSON"

    public = engine.view(state, None)
    assert "private" not in public
    public_text = _canonical(public)
    markers = {seat: engine.secret_markers(state, seat) for seat in range(players)}
    for seat in range(players):
        v = engine.view(state, seat)
        json.dumps(v)
        rest = {k: val for k, val in v.items() if k != "private"}
        assert _canonical(rest) == public_text, f"seat {seat}'s view differs from the public view outside 'private'"
        alone = engine.private_view(state, seat)
        assert alone == v.get("private") and _canonical(alone) == _canonical(v.get("private")), (
            f"private_view(state, {seat}) differs from the 'private' part of view(state, {seat})")
        for other in range(players):
            if other == seat:
                continue
            seen = _canonical(v)
            for m in markers[other]:
                assert m not in seen, f"seat {other}'s secret {m!r} is visible to seat {seat}"
    for seat in range(players):
        for m in markers[seat]:
            assert m not in public_text, f"seat {seat}'s secret {m!r} is in the public view"
            for e in events:
                if e.to is None:
                    assert m not in e.text and m not in _canonical(e.data), (
                        f"seat {seat}'s secret {m!r} is in a public event: {e.text}")


def play(engine: Engine[Any], players: int, seed: int, checks: bool = True) -> tuple[Any, list[tuple[int, dict[str, Any]]]]:
    rng = random.Random(seed)
    state = engine.setup(players, seed)
    log: list[tuple[int, dict[str, Any]]] = []
    for _ in range(MAX_STEPS):
        if engine.result(state) is not None:
            assert engine.prompts(state) == []
            return state, log
        prompts = engine.prompts(state)
        assert prompts, "no open prompt but the game is not over"
        for p in prompts:
            assert p.choices or p.free_form, f"prompt {p.kind} for seat {p.seat} offers nothing"
            assert json.loads(json.dumps(dict(p.params))) == dict(p.params), "params must be plain JSON"
        prompt = rng.choice(prompts)
        action = engine.bot_action(engine.view(state, prompt.seat), prompt, rng)
        json.dumps(action)
        before = _canonical(engine.to_json(state)) if checks else ""
        after, events = engine.apply(state, prompt.seat, action)
        # apply never changes the state it was given (clones may share what is never changed
        # in place, and the platform keeps the state before a step)
        assert not checks or _canonical(engine.to_json(state)) == before, "apply changed its input"
        state = after
        log.append((prompt.seat, action))
        if checks:
            _check_step(engine, state, players, events)
    raise AssertionError(f"game did not end within {MAX_STEPS} actions")


CASES = [(g, n) for g in GAMES for n in _player_counts(registry.get(g))]


@pytest.mark.parametrize(("game", "players"), CASES)
def test_seeded_bot_games_end_and_replay(game: str, players: int) -> None:
    engine = registry.get(game)
    for seed in range(N_GAMES):
        state, log = play(engine, players, seed * 7919 + players, checks=seed < 2)
        assert engine.result(state) is not None
        replayed = engine.replay(players, seed * 7919 + players, None, log)
        assert _canonical(engine.to_json(replayed)) == _canonical(engine.to_json(state))


@pytest.mark.parametrize("game", GAMES)
def test_same_seed_same_game(game: str) -> None:
    engine = registry.get(game)
    a, log_a = play(engine, engine.min_players, 42, checks=False)
    b, log_b = play(engine, engine.min_players, 42, checks=False)
    assert log_a == log_b
    assert _canonical(engine.to_json(a)) == _canonical(engine.to_json(b))


@pytest.mark.parametrize("game", GAMES)
def test_bad_setup_is_refused(game: str) -> None:
    engine = registry.get(game)
    for n in (engine.min_players - 1, engine.max_players + 1):
        with pytest.raises(RulesError, match=str(n)):
            engine.setup(n, 1)
    with pytest.raises(RulesError):
        engine.setup(engine.min_players, 1, {"no_such_option": 1})


GARBAGE: list[Any] = [
    {}, {"type": "no_such_action"}, {"type": None}, {"type": "bid", "card": "x"}, {"type": 5},
    {"type": "play", "card": -1, "target": 99}, {"type": "flick", "angle": "nan", "power": 1e9},
]


@pytest.mark.parametrize("game", GAMES)
def test_illegal_actions_raise_rules_errors(game: str) -> None:
    engine = registry.get(game)
    rng = random.Random(3)
    state = engine.setup(engine.min_players, 3)
    for _step in range(60):
        if engine.result(state) is not None:
            break
        before = _canonical(engine.to_json(state))
        for seat in range(engine.min_players):
            for junk in GARBAGE:
                try:
                    engine.apply(state, seat, dict(junk))
                except RulesError as exc:
                    assert str(exc), "a RulesError needs a message"
                # a junk action that happens to be legal is fine; a crash is not
        # wrong seat: somebody with no open prompt
        open_seats = {p.seat for p in engine.prompts(state)}
        idle = [s for s in range(engine.min_players) if s not in open_seats]
        if idle:
            p = engine.prompts(state)[0]
            act = engine.bot_action(engine.view(state, p.seat), p, rng)
            with pytest.raises(RulesError):
                engine.apply(state, idle[0], act)
        assert _canonical(engine.to_json(state)) == before, "a rejected action changed the state"
        p = rng.choice(engine.prompts(state))
        state, _ = engine.apply(state, p.seat, engine.bot_action(engine.view(state, p.seat), p, rng))


@pytest.mark.parametrize("game", GAMES)
def test_apply_makes_the_common_checks_in_order(game: str) -> None:
    engine = registry.get(game)
    rng = random.Random(5)
    state = engine.setup(engine.min_players, 5)
    p = engine.prompts(state)[0]
    good = engine.bot_action(engine.view(state, p.seat), p, rng)
    with pytest.raises(IllegalAction, match="is not an action") as err:
        engine.apply(state, p.seat, {"kind": "nope"})
    assert "nope" in str(err.value)
    with pytest.raises(IllegalAction, match="not a seat number"):
        engine.apply(state, bool(p.seat), good)
    with pytest.raises(NotYourTurn, match="waiting for seat"):
        engine.apply(state, engine.max_players + 3, good)
    end, _ = play(engine, engine.min_players, 5, checks=False)
    with pytest.raises(GameOver):
        engine.apply(end, 0, {"kind": "nope"})


@pytest.mark.parametrize("game", GAMES)
def test_a_state_of_another_schema_version_is_refused(game: str) -> None:
    engine = registry.get(game)
    data = engine.to_json(engine.setup(engine.min_players, 1))
    with pytest.raises(StateSchemaError, match=engine.name):
        engine.from_json({**data, "schema_version": engine.schema_version + 1})
