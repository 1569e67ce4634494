"""The searching computer players (rules.search) and each game's determinization hook.

Budgets here are tiny (a few iterations, short playouts): these tests check what the search may
read and that it is reproducible, not how well it plays (``bench/strength.py`` measures that)."""

from __future__ import annotations

import random
from typing import Any, cast

import pytest

from rules import registry, search
from rules.alternate_histories import AlternateHistoriesEngine
from rules.engine import Engine, InvalidOptions, Prompt

SEARCHED = ["cult_wars", "alternate_histories"]
TINY = search.Budget(iterations=6, horizon=6)


def reach(engine: Engine[Any], players: int, seed: int, steps: int,
          want: tuple[str, ...]) -> tuple[Any, Prompt]:
    """A state after about ``steps`` heuristic decisions where a prompt of a kind in ``want``
    is open (the first such one), with that prompt."""
    state = engine.setup(players, seed, {})
    rng = random.Random(seed)
    n = 0
    while engine.result(state) is None:
        prompts = engine.prompts(state)
        if n >= steps:
            for p in prompts:
                if p.kind in want and search.candidates(engine, engine.view(state, p.seat), p,
                                                        random.Random(0))[1:]:
                    return state, p
        p = prompts[0]
        state, _ = engine.apply(state, p.seat, engine.bot_action(engine.view(state, p.seat), p, rng))
        n += 1
    raise AssertionError("the game ended before a searched prompt")


def positions(key: str) -> list[tuple[Any, Prompt]]:
    engine = registry.get(key)
    if key == "cult_wars":
        return [reach(engine, 3, 11, 0, ("target",)), reach(engine, 3, 12, 5, ("orders",)),
                reach(engine, 4, 13, 20, ("orders",))]
    return [reach(engine, 2, 21, 30, ("combat",)), reach(engine, 2, 22, 60, ("combat",)),
            reach(engine, 2, 23, 40, ("react",))]


def _comparable(key: str, view: dict[str, Any]) -> dict[str, Any]:
    """What a determinization must reproduce of a view. Cult Wars leaves out whether the other
    cults have already chosen in secret (their choices are drawn again in the playout)."""
    if key != "cult_wars":
        return view
    v = dict(view)
    for k in ("submitted", "waiting_for"):
        v.pop(k)
    v["cults"] = [{**c, "submitted": None, "face_up": None} for c in view["cults"]]
    return v


@pytest.mark.parametrize("key", SEARCHED)
def test_determinized_state_shows_the_seat_the_same_view(key: str) -> None:
    """A sampled state, seen by the seat it was sampled for, is the position it was sampled from."""
    engine = registry.get(key)
    for state, prompt in positions(key):
        view = engine.view(state, prompt.seat)
        for r in range(3):
            sample = cast(search.Searchable, engine).determinize(view, prompt.seat, random.Random(r))
            assert _comparable(key, engine.view(sample, prompt.seat)) == _comparable(key, view)
            assert engine.prompt_for(sample, prompt.seat).kind == prompt.kind


@pytest.mark.parametrize("key", SEARCHED)
def test_determinized_hidden_cards_vary_with_the_draw(key: str) -> None:
    """What the seat cannot know is drawn at random, not copied from somewhere."""
    engine = registry.get(key)
    state, prompt = positions(key)[1]
    view = engine.view(state, prompt.seat)
    seats = view.get("cults", view.get("sides"))
    assert seats is not None
    other = (prompt.seat + 1) % len(seats)
    samples = set()
    for r in range(8):
        sample = cast(search.Searchable, engine).determinize(view, prompt.seat, random.Random(r))
        private = engine.private_view(sample, other)
        assert private is not None
        samples.add(repr(private["hand"]))
    assert len(samples) > 1


@pytest.mark.parametrize("key", SEARCHED)
def test_search_never_reads_another_seats_secrets(key: str) -> None:
    """Two states that differ only in what another seat holds in secret (the conformance
    suite's variants: hands, hidden deck order, secret choices) give the same decision, with
    the same seed and budget."""
    engine = registry.get(key)
    checked = 0
    for state, prompt in positions(key):
        players = len(engine.view(state, None).get("cults") or engine.view(state, None)["sides"])
        base = search.run(engine, engine.view(state, prompt.seat), prompt, random.Random(5), TINY)
        for other in range(players):
            if other == prompt.seat:
                continue
            for variant in engine.secret_variants(state, other, random.Random(other)):
                got = search.run(engine, engine.view(variant, prompt.seat), prompt,
                                 random.Random(5), TINY)
                assert got.action == base.action
                assert got.visits == base.visits and got.values == base.values
                checked += 1
    assert checked


@pytest.mark.parametrize("key", SEARCHED)
def test_search_is_reproducible_for_a_seed_and_an_iteration_budget(key: str) -> None:
    engine = registry.get(key)
    state, prompt = positions(key)[0]
    view = engine.view(state, prompt.seat)
    a = search.run(engine, view, prompt, random.Random(9), TINY)
    b = search.run(engine, view, prompt, random.Random(9), TINY)
    assert a.action == b.action and a.visits == b.visits and a.values == b.values
    assert a.iterations == TINY.iterations
    assert sum(a.visits) == TINY.iterations


@pytest.mark.parametrize("key", SEARCHED)
def test_search_stops_when_its_time_budget_runs_out(key: str) -> None:
    """With a clock, the time budget stops the search early (here a clock that jumps a second
    each time it is read: one iteration fits)."""
    engine = registry.get(key)
    state, prompt = positions(key)[0]
    ticks = iter(range(1000))
    budget = search.Budget(iterations=50, horizon=4, seconds=1.5)
    got = search.run(engine, engine.view(state, prompt.seat), prompt, random.Random(1), budget,
                     clock=lambda: float(next(ticks)))
    assert got.iterations == 1


@pytest.mark.parametrize("key", SEARCHED)
def test_searching_players_play_a_whole_game_legally(key: str) -> None:
    """Every strength answers every prompt with an action the engine accepts, to the end."""
    engine = registry.get(key)
    players = engine.min_players
    state = engine.setup(players, 3, {})
    rng = random.Random(3)
    strengths = ["easy", "tiny", "easy", "tiny"]
    while engine.result(state) is None:
        p = engine.prompts(state)[0]
        view = engine.view(state, p.seat)
        if strengths[p.seat] == "tiny":
            action = search.search(engine, view, p, random.Random(rng.random()),
                                   search.Budget(iterations=3, horizon=3))
        else:
            action = search.choose(engine, view, p, random.Random(rng.random()), "easy")
        state, _ = engine.apply(state, p.seat, action)
    assert engine.result(state) is not None


@pytest.mark.parametrize("key", SEARCHED)
def test_strength_is_a_table_option_with_three_values(key: str) -> None:
    engine = registry.get(key)
    players = engine.min_players
    for value in search.STRENGTHS:
        engine.setup(players, 1, {search.STRENGTH_OPTION: value})
    with pytest.raises(InvalidOptions, match="easy, normal, hard"):
        engine.setup(players, 1, {search.STRENGTH_OPTION: "expert"})
    assert search.STRENGTH_OPTION in engine.option_help


def test_easy_player_is_the_heuristic_with_some_noise() -> None:
    """Easy answers as the heuristic most of the time, and now and then with another choice."""
    engine = registry.get("alternate_histories")
    state, prompt = positions("alternate_histories")[0]
    view = engine.view(state, prompt.seat)
    same = sum(search.choose(engine, view, prompt, random.Random(r), "easy")
               == engine.bot_action(view, prompt, random.Random(r)) for r in range(200))
    assert 120 <= same < 200


def test_unset_strength_is_the_plain_heuristic() -> None:
    engine = registry.get("cult_wars")
    state, prompt = positions("cult_wars")[1]
    view = engine.view(state, prompt.seat)
    assert (search.choose(engine, view, prompt, random.Random(4), None)
            == engine.bot_action(view, prompt, random.Random(4)))


def test_search_budgets_grow_with_the_strength() -> None:
    for key in SEARCHED:
        engine = registry.get(key)
        normal, hard = search.budget_for(engine, "normal"), search.budget_for(engine, "hard")
        assert hard.iterations > normal.iterations and hard.horizon >= normal.horizon


def test_a_margin_keeps_the_heuristics_answer_unless_clearly_beaten() -> None:
    """Alternate Histories sets ``search_margin``: the searched answer is the heuristic's (the
    first candidate) unless another scored at least that much better on average."""
    engine = registry.get("alternate_histories")
    assert isinstance(engine, AlternateHistoriesEngine)
    margin = engine.search_margin
    assert margin > 0
    for state, prompt in positions("alternate_histories"):
        got = search.run(engine, engine.view(state, prompt.seat), prompt, random.Random(2),
                         search.Budget(iterations=12, horizon=6))
        first = got.values[0] / got.visits[0]
        if got.action != got.candidates[0]:
            i = got.candidates.index(got.action)
            assert got.values[i] / got.visits[i] >= first + margin
        else:
            assert all(got.values[i] / got.visits[i] < first + margin
                       for i in range(1, len(got.candidates))
                       if got.visits[i] >= max(got.visits))
