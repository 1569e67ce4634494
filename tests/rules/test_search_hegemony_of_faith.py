"""Hegemony of Faith's searching computer players (rules.search,
rules.hegemony_of_faith.search): the determinization hook reads only the seat's view, keeps every
card in one place, and the search is reproducible. Budgets are tiny: these tests check what the
search may read, not how well it plays (``bench/strength.py --game hegemony_of_faith`` measures
that)."""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from rules import registry, search
from rules.engine import InvalidOptions, Prompt
from rules.hegemony_of_faith import HegemonyEngine
from rules.hegemony_of_faith.cards import ACTION_CARDS, N_ACTIONS, N_BELIEVERS, N_SKILLS, btype
from rules.hegemony_of_faith.search import evaluate
from rules.hegemony_of_faith.state import State


def _registered() -> HegemonyEngine:
    """Hegemony of Faith's engine as the registry hands it out."""
    engine = registry.get("hegemony_of_faith")
    assert isinstance(engine, HegemonyEngine)
    return engine


ENGINE = _registered()
TINY = search.Budget(iterations=6, horizon=10)


def reach(players: int, seed: int, steps: int,
          when: Callable[[State, Prompt], bool] = lambda s, p: True) -> tuple[State, Prompt]:
    """A state after at least ``steps`` heuristic decisions where a searched prompt is open (more
    than one candidate) and ``when`` holds, with that prompt."""
    state = ENGINE.setup(players, seed, {})
    rng = random.Random(seed)
    n = 0
    while ENGINE.result(state) is None:
        prompts = ENGINE.prompts(state)
        if n >= steps:
            for p in prompts:
                if when(state, p) and search.candidates(
                        ENGINE, ENGINE.view(state, p.seat), p, random.Random(0))[1:]:
                    return state, p
        p = prompts[0]
        state, _ = ENGINE.apply(state, p.seat, ENGINE.bot_action(ENGINE.view(state, p.seat), p, rng))
        n += 1
    raise AssertionError(f"no searched prompt in game {seed}")


def first_spy() -> tuple[State, Prompt]:
    """The first turn, in a seeded four-player game, where the seat has just played Info-Spy
    (the heuristic rarely does; here it spies whenever it can)."""
    state = ENGINE.setup(4, 5, {})
    rng = random.Random(5)
    while ENGINE.result(state) is None:
        p = ENGINE.prompts(state)[0]
        spy = [c.action for c in p.choices if c.action.get("card") == "Info-Spy"]
        action = spy[0] if spy else ENGINE.bot_action(ENGINE.view(state, p.seat), p, rng)
        state, _ = ENGINE.apply(state, p.seat, action)
        nxt = ENGINE.prompts(state)
        if spy and nxt and nxt[0].kind == "turn" and nxt[0].seat == p.seat:
            return state, nxt[0]
    raise AssertionError("no turn after an Info-Spy")


@functools.cache
def positions() -> list[tuple[State, Prompt]]:
    """Turns at four, five and eight players, early and late, and one just after an Info-Spy."""
    return [reach(4, 1, 10), reach(4, 2, 80), reach(5, 3, 40), reach(8, 4, 60), first_spy()]


def places(s: State) -> tuple[Counter[int], Counter[int], Counter[int]]:
    """Every action card, believer card and skill card wherever it lies."""
    acts: Counter[int] = Counter(s.action_deck + s.action_discard)
    bels: Counter[int] = Counter(s.believer_deck + s.box + s.graveyard + s.removed)
    skills: Counter[int] = Counter(s.skill_deck + s.skill_discard)
    for k in range(s.players):
        acts.update(s.hands[k])
        bels.update(s.believers[k])
        if s.skill[k] is not None:
            skills[s.skill[k] or 0] += 1
    return acts, bels, skills


def test_determinized_state_shows_the_seat_the_same_view_and_choices() -> None:
    """A sampled state, seen by the seat it was sampled for, is the position it was sampled from,
    and the seat's turn offers the same choices (Gate of Truth aside: which skills it copied on
    earlier turns is not in the view)."""
    for state, prompt in positions():
        view = ENGINE.view(state, prompt.seat)
        for r in range(3):
            sample = ENGINE.determinize(view, prompt.seat, random.Random(r))
            assert ENGINE.view(sample, prompt.seat) == view
            again = ENGINE.prompt_for(sample, prompt.seat)
            assert again.kind == prompt.kind
            if view["private"]["skill"]["name"] != "Gate of Truth":
                assert again.choices == prompt.choices


def test_determinize_conserves_every_card() -> None:
    """Each action, believer and skill card lies in exactly one place in a sample, with the real
    state's counts in every public place."""
    whole = (Counter(range(N_ACTIONS)), Counter(range(N_BELIEVERS)), Counter(range(N_SKILLS)))
    for state, prompt in positions():
        assert places(state) == whole
        sample = ENGINE.determinize(ENGINE.view(state, prompt.seat), prompt.seat, random.Random(3))
        assert places(sample) == whole
        assert [len(h) for h in sample.hands] == [len(h) for h in state.hands]
        assert [len(b) for b in sample.believers] == [len(b) for b in state.believers]
        assert sorted(sample.box) == sorted(state.box)
        assert [btype(c) for c in sample.graveyard] == [btype(c) for c in state.graveyard]
        assert len(sample.action_deck) == len(state.action_deck)
        assert len(sample.believer_deck) == len(state.believer_deck)
        assert len(sample.skill_deck) == len(state.skill_deck)


def test_what_info_spy_showed_this_turn_is_dealt_as_seen() -> None:
    """The seat that spied on a hand this turn is dealt that hand and those believers in every
    sample (while their counts still match what it saw)."""
    state, prompt = first_spy()
    intel = state.intel[prompt.seat]
    assert intel is not None
    target = intel["of"]
    view = ENGINE.view(state, prompt.seat)
    for r in range(4):
        sample = ENGINE.determinize(view, prompt.seat, random.Random(r))
        if len(intel["actions"]) == len(state.hands[target]):
            assert sorted(ACTION_CARDS[c] for c in sample.hands[target]) == intel["actions"]
        if len(intel["believers"]) == len(state.believers[target]):
            assert sorted(btype(c) for c in sample.believers[target]) == intel["believers"]


def test_determinized_hidden_cards_vary_with_the_draw() -> None:
    """What the seat cannot know is drawn at random, not copied from somewhere."""
    state, prompt = positions()[0]
    view = ENGINE.view(state, prompt.seat)
    other = (prompt.seat + 1) % state.players
    samples = {repr(ENGINE.determinize(view, prompt.seat, random.Random(r)).hands[other])
               for r in range(8)}
    assert len(samples) > 1


def test_search_never_reads_another_seats_secrets() -> None:
    """Two states that differ only in what another seat holds in secret (the conformance suite's
    variants: action cards, believers, an unrevealed skill) give the same decision and the same
    tallies, with the same seed and budget."""
    checked = 0
    for state, prompt in positions():
        base = search.run(ENGINE, ENGINE.view(state, prompt.seat), prompt, random.Random(5), TINY)
        for other in range(state.players):
            if other == prompt.seat:
                continue
            for variant in ENGINE.secret_variants(state, other, random.Random(other)):
                got = search.run(ENGINE, ENGINE.view(variant, prompt.seat), prompt,
                                 random.Random(5), TINY)
                assert got.action == base.action
                assert got.visits == base.visits and got.values == base.values
                checked += 1
    assert checked


def test_search_is_reproducible_for_a_seed_and_an_iteration_budget() -> None:
    for state, prompt in positions()[:2]:
        view = ENGINE.view(state, prompt.seat)
        a = search.run(ENGINE, view, prompt, random.Random(9), TINY)
        b = search.run(ENGINE, view, prompt, random.Random(9), TINY)
        assert a.action == b.action and a.visits == b.visits and a.values == b.values
        assert a.iterations == TINY.iterations == sum(a.visits)


def test_only_a_seats_own_turn_is_searched() -> None:
    """Reactions, believer picks and line-ups follow the heuristic: their only candidate is its
    answer."""
    seen: set[str] = set()
    state = ENGINE.setup(4, 7, {})
    rng = random.Random(7)
    while ENGINE.result(state) is None and len(seen) < 3:
        for p in ENGINE.prompts(state):
            if p.kind not in ("turn", "wander"):
                assert len(search.candidates(ENGINE, ENGINE.view(state, p.seat), p,
                                             random.Random(1))) == 1
                seen.add(p.kind)
        p = ENGINE.prompts(state)[0]
        state, _ = ENGINE.apply(state, p.seat, ENGINE.bot_action(ENGINE.view(state, p.seat), p, rng))
    assert seen


def test_searching_players_play_a_whole_game_legally() -> None:
    """Every strength answers every prompt with an action the engine accepts, to the end."""
    state = ENGINE.setup(5, 3, {})
    rng = random.Random(3)
    while ENGINE.result(state) is None:
        p = ENGINE.prompts(state)[0]
        view = ENGINE.view(state, p.seat)
        if p.seat in (1, 3):
            action = search.search(ENGINE, view, p, random.Random(rng.random()),
                                   search.Budget(iterations=3, horizon=4))
        else:
            action = search.choose(ENGINE, view, p, random.Random(rng.random()), "easy")
        state, _ = ENGINE.apply(state, p.seat, action)


def test_strength_is_a_table_option_with_three_values() -> None:
    for value in search.STRENGTHS:
        ENGINE.setup(4, 1, {search.STRENGTH_OPTION: value})
    with pytest.raises(InvalidOptions, match="easy, normal, hard"):
        ENGINE.setup(4, 1, {search.STRENGTH_OPTION: "expert"})
    assert search.STRENGTH_OPTION in ENGINE.option_help


def test_evaluation_follows_the_sect_and_the_seats_own_believers() -> None:
    """The horizon's estimate lies in 0..1 and rises when the seat gains believers."""
    state, prompt = positions()[0]
    seat = prompt.seat
    before = evaluate(state, seat)
    assert 0.0 < before < 1.0
    richer: Any = ENGINE.clone(state)
    richer.believers[seat] += richer.believer_deck[:3]
    del richer.believer_deck[:3]
    assert evaluate(richer, seat) > before


def test_search_budgets_grow_with_the_strength() -> None:
    normal, hard = search.budget_for(ENGINE, "normal"), search.budget_for(ENGINE, "hard")
    assert hard.iterations > normal.iterations and hard.horizon >= normal.horizon


def test_a_margin_keeps_the_heuristics_turn_unless_clearly_beaten() -> None:
    """The searched answer is the heuristic's (the first candidate) unless another scored at
    least ``search_margin`` better on average."""
    margin = ENGINE.search_margin
    assert margin > 0
    kept = changed = 0
    for state, prompt in positions():
        got = search.run(ENGINE, ENGINE.view(state, prompt.seat), prompt, random.Random(2),
                         search.Budget(iterations=14, horizon=8))
        first = got.values[0] / got.visits[0]
        if got.action != got.candidates[0]:
            i = got.candidates.index(got.action)
            assert got.values[i] / got.visits[i] >= first + margin
            changed += 1
        else:
            assert all(got.values[i] / got.visits[i] < first + margin
                       for i in range(1, len(got.candidates)) if got.visits[i] >= max(got.visits))
            kept += 1
    assert kept and changed
