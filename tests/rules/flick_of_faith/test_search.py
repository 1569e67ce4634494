"""Flick of Faith's searching computer players (rules.search with .search's hooks).

Budgets here are tiny: these tests check what the search may read, that it is reproducible and
that its answers are legal, not how well it plays (``bench/strength.py --game flick_of_faith``)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from rules import registry, search
from rules.engine import InvalidOptions, Prompt
from rules.flick_of_faith import bot, gods
from rules.flick_of_faith import search as flick_search
from rules.flick_of_faith.state import FlickState

E = registry.get("flick_of_faith")
TINY = search.Budget(iterations=6, horizon=1)


def _pending(state: FlickState, seat: int) -> bool:
    """Whether a seat other than ``seat`` has chosen in secret and not been revealed yet."""
    return any(k != str(seat) for k in [*state.picks, *state.votes, *state.flick_orders])


def reach(players: int, seed: int, steps: int, want: str) -> tuple[FlickState, Prompt]:
    """The first position after about ``steps`` heuristic decisions where a prompt of kind
    ``want`` is open, with that prompt; for the secret simultaneous kinds, one where another
    seat has already chosen (prompts are answered last first, so that happens)."""
    state = E.setup(players, seed)
    rng = random.Random(seed)
    n = 0
    while E.result(state) is None:
        prompts = E.prompts(state)
        if n >= steps:
            for p in prompts:
                if p.kind == want and (not p.secret or _pending(state, p.seat)):
                    return state, p
        p = prompts[-1]
        state, _ = E.apply(state, p.seat, E.bot_action(E.view(state, p.seat), p, rng))
        n += 1
    raise AssertionError(f"no {want} prompt")


def positions() -> list[tuple[FlickState, Prompt]]:
    return [reach(3, 1, 1, "god"), reach(2, 2, 3, "contest_flick"), reach(4, 3, 8, "vote"),
            reach(2, 4, 12, "flick"), reach(3, 5, 30, "flick"), reach(2, 6, 10, "build")]


def test_a_sampled_state_shows_the_seat_the_position_it_was_sampled_from() -> None:
    for state, prompt in positions():
        view = E.view(state, prompt.seat)
        for r in range(3):
            sample = E.determinize(view, prompt.seat, random.Random(r))  # type: ignore[attr-defined]
            assert E.view(sample, prompt.seat) == view
            assert E.prompt_for(sample, prompt.seat).kind == prompt.kind


def test_another_seats_secret_choice_is_drawn_not_copied() -> None:
    """A god side, a thumb or a contest flick chosen by another seat and not yet revealed is
    drawn at random in the samples."""
    state, prompt = reach(3, 1, 1, "god")
    other = next(int(k) for k in state.picks if int(k) != prompt.seat)
    view = E.view(state, prompt.seat)
    drawn = {E.determinize(view, prompt.seat, random.Random(r)).picks[str(other)]  # type: ignore[attr-defined]
             for r in range(12)}
    assert len(drawn) == 2
    state, prompt = reach(4, 3, 8, "vote")
    voted = [int(k) for k in state.votes if int(k) != prompt.seat]
    assert voted
    view = E.view(state, prompt.seat)
    thumbs = {E.determinize(view, prompt.seat, random.Random(r)).votes[str(voted[0])]  # type: ignore[attr-defined]
              for r in range(12)}
    assert thumbs == {"up", "down"}


def test_the_search_never_reads_another_seats_secrets() -> None:
    """Positions that differ only in another seat's secret choice give the same search, tally
    for tally."""
    checked = 0
    for state, prompt in positions():
        base = search.run(E, E.view(state, prompt.seat), prompt, random.Random(5), TINY)
        for other in range(state.players):
            if other == prompt.seat:
                continue
            for variant in E.secret_variants(state, other, random.Random(other)):
                got = search.run(E, E.view(variant, prompt.seat), prompt, random.Random(5), TINY)
                assert (got.action, got.visits, got.values) == (base.action, base.visits, base.values)
                checked += 1
    assert checked


def test_a_flick_compares_the_heuristics_aims_under_the_wobble() -> None:
    state, prompt = reach(2, 4, 12, "flick")
    view = E.view(state, prompt.seat)
    got = search.run(E, view, prompt, random.Random(3), search.Budget(iterations=14, horizon=1))
    assert got.candidates[0] == E.bot_action(view, prompt, random.Random(0))
    assert 4 <= len(got.candidates) <= flick_search.FLICK_CANDIDATES + 3
    assert all(c["type"] == "flick" for c in got.candidates)
    assert got.iterations == 14 and min(got.visits) >= 1
    assert got.action in got.candidates


def test_from_three_players_the_samples_go_to_the_heuristics_aims_alone() -> None:
    """With two players the best aim is also tried a little softer and harder; from three on the
    samples are shared by the heuristic's three best aims alone (each sample's standing needs
    the likely Worship there, dearer to count)."""
    for players, seed in ((2, 4), (3, 5), (4, 3)):
        state, prompt = reach(players, seed, 12, "flick")
        view = E.view(state, prompt.seat)
        listed = flick_search.search_candidates(view, prompt, random.Random(0)) or []
        ranked = [a for _, a in bot.ranked_flicks(view, prompt.seat, flick_search.RANK_TARGETS)]
        aims = ranked[:flick_search.FLICK_CANDIDATES]
        if players == 2:
            assert listed[:len(aims)] == aims and len(listed) == len(aims) + 2
            assert {a["power"] for a in listed[len(aims):]} == {
                round(aims[0]["power"] - flick_search.POWER_STEP, 2),
                round(aims[0]["power"] + flick_search.POWER_STEP, 2)}
        else:
            assert listed == aims and len(aims) == 3


def test_a_disc_still_in_the_corner_may_be_left_there_by_the_search() -> None:
    """Where the prompt offers to leave the disc in the corner, the search weighs that too; a
    fresh flick has no such choice."""
    state, prompt = reach(2, 4, 12, "flick")
    assert {"type": "leave"} not in (flick_search.search_candidates(
        E.view(state, prompt.seat), prompt, random.Random(0)) or [])
    # the seat's disc rests in its corner after a weak first flick (the wobble willing)
    weak = {"type": "flick", "angle": 0.0, "power": 1.0}
    for _ in range(20):
        corner, _ = E.apply(state, prompt.seat, weak)
        if E.prompts(corner)[0].choices:
            break
        state = E.clone(state)
        state.rng.position += 1
    p = E.prompts(corner)[0]
    assert p.kind == "flick" and p.choices, "a power-1 flick should stay in the corner"
    listed = flick_search.search_candidates(E.view(corner, p.seat), p, random.Random(0)) or []
    assert {"type": "leave"} in listed


def test_a_seat_with_temples_left_builds_where_the_heuristic_builds_never_stopping_instead() -> None:
    """A temple is the heuristic's place: the horizon values a prophet left on a city about as a
    temple built from it, so searching the prompt's buttons stopped rather than built."""
    state, prompt = reach(2, 6, 10, "build")
    view = E.view(state, prompt.seat)
    assert view["temples"][prompt.seat] > 0
    assert flick_search.search_candidates(view, prompt, random.Random(0)) is None
    got = search.run(E, view, prompt, random.Random(3), search.budget_for(E, "hard"))
    assert got.action == E.bot_action(view, prompt, random.Random(0))
    assert got.action["type"] == "build"


@pytest.mark.parametrize("players", [3, 4])
def test_from_three_players_a_searching_player_takes_the_side_worth_more(players: int) -> None:
    """A god side is judged by what it is worth over a game (``GOD_WORTH``, measured by table
    size): whichever card is dealt, the search takes its better side where the two differ by a
    quarter of a VP or more (the plain player picks at random); with two players the side stays
    the plain player's."""
    worth = flick_search.GOD_WORTH[players]
    assert set(worth) == {g.key for g in gods.GODS}
    seen = set()
    for seed in range(1, 12):
        state, prompt = reach(players, seed, 0, "god")
        view = E.view(state, prompt.seat)
        sides = [c.action["god"] for c in prompt.choices]
        best = max(sides, key=lambda g: worth[g])
        got = search.run(E, view, prompt, random.Random(seed), search.budget_for(E, "hard"))
        assert got.action in [c.action for c in prompt.choices]
        if abs(worth[sides[0]] - worth[sides[1]]) >= 0.25:  # (else within the search's margin)
            assert got.action == {"type": "god", "god": best}
            seen.add(view["dealt"][prompt.seat])
    assert len(seen) >= 3
    state, prompt = reach(2, 1, 0, "god")
    view = E.view(state, prompt.seat)
    assert flick_search.search_candidates(view, prompt, random.Random(0)) is None


def test_the_horizon_counts_each_seats_god_for_the_part_of_the_game_to_come() -> None:
    state, _ = reach(4, 3, 12, "flick")
    assert all(g is not None for g in state.gods)
    worth = flick_search.GOD_WORTH[4]
    plain = dict(flick_search.GOD_WORTH)
    try:
        flick_search.GOD_WORTH.pop(4)
        without = flick_search.standing(state)
    finally:
        flick_search.GOD_WORTH.clear()
        flick_search.GOD_WORTH.update(plain)
    left = (state.generations - state.generation + 1) / state.generations
    assert flick_search.standing(state) == pytest.approx(
        [v + worth[str(g)] * left for v, g in zip(without, state.gods, strict=True)])


def test_the_search_is_reproducible_for_a_seed_and_an_iteration_budget() -> None:
    state, prompt = reach(3, 5, 30, "flick")
    view = E.view(state, prompt.seat)
    a = search.run(E, view, prompt, random.Random(9), TINY)
    b = search.run(E, view, prompt, random.Random(9), TINY)
    assert (a.action, a.visits, a.values) == (b.action, b.visits, b.values)
    assert a.iterations == TINY.iterations


def test_a_searchs_flicks_slide_on_the_tables_its_sampler_keeps(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each search plays its samples with a fresh :class:`Sampler` (``E.sampler()``): every flick
    of its samples slides on a table that sampler keeps, none in a fresh
    pymunk space as the engine's own moves do."""
    from rules.flick_of_faith import physics
    from rules.flick_of_faith.engine import FlickOfFaith

    state, prompt = reach(4, 3, 20, "flick")
    view = E.view(state, prompt.seat)
    made: list[flick_search.Sampler] = []
    slides = {"fresh": 0, "kept": 0}
    engine_slide, kept_slide = FlickOfFaith._slide, flick_search.Sampler._slide

    def fresh(self: FlickOfFaith, plan: Any) -> physics.Outcome:
        slides["fresh"] += 1
        return engine_slide(self, plan)

    def kept(self: flick_search.Sampler, plan: Any) -> physics.Outcome:
        slides["kept"] += 1
        return kept_slide(self, plan)

    def sampler(self: FlickOfFaith) -> flick_search.Sampler:
        made.append(flick_search.Sampler())
        return made[-1]

    monkeypatch.setattr(FlickOfFaith, "_slide", fresh)
    monkeypatch.setattr(flick_search.Sampler, "_slide", kept)
    monkeypatch.setattr(FlickOfFaith, "sampler", sampler)
    for k in range(2):
        search.run(E, view, prompt, random.Random(k), search.Budget(iterations=6, horizon=0))
    assert len(made) == 2 and made[0] is not made[1]
    assert slides["fresh"] == 0 and slides["kept"] >= 6  # (each sample's flick)
    assert all(m.tables for m in made)


@pytest.mark.parametrize("players", [2, 4])
def test_searching_players_play_a_whole_game_legally(players: int) -> None:
    state = E.setup(players, 8)
    rng = random.Random(8)
    while E.result(state) is None:
        p = E.prompts(state)[0]
        view = E.view(state, p.seat)
        if p.seat == 0:
            action = search.search(E, view, p, random.Random(rng.random()),
                                   search.Budget(iterations=3, horizon=1))
        else:
            action = search.choose(E, view, p, random.Random(rng.random()), "easy")
        state, _ = E.apply(state, p.seat, action)
    assert E.result(state) is not None


def test_computer_is_a_table_option_with_three_strengths() -> None:
    for value in search.STRENGTHS:
        E.setup(2, 1, {search.STRENGTH_OPTION: value})
    with pytest.raises(InvalidOptions, match="easy, normal, hard"):
        E.setup(2, 1, {search.STRENGTH_OPTION: "expert"})
    assert search.STRENGTH_OPTION in E.option_help
    normal, hard = search.budget_for(E, "normal"), search.budget_for(E, "hard")
    assert hard.iterations > normal.iterations and hard.seconds > normal.seconds  # type: ignore[operator]


def test_an_even_position_is_worth_the_fair_share_and_a_lead_more() -> None:
    state, prompt = reach(3, 5, 30, "flick")
    even: Any = E.clone(state)
    even.discs, even.vp, even.gods = [], [4, 4, 4], [None] * 3
    even.supply = [{"prophet": 2}] * 3
    assert [round(flick_search.chances(even, k), 6) for k in range(3)] == [round(1 / 3, 6)] * 3
    ahead = E.clone(even)
    ahead.vp = [9, 4, 4]
    assert flick_search.chances(ahead, 0) > 0.6 > flick_search.chances(ahead, 1)
    assert sum(flick_search.chances(ahead, k) for k in range(3)) == pytest.approx(1.0)


def test_the_heuristics_temple_is_one_the_engine_allows() -> None:
    """In a hundred build decisions of seeded games, every place the computer player picks is
    accepted by the engine's own rule (a quick check alone once passed a refused place)."""
    checked = 0
    for seed in range(1, 40):
        state = E.setup(3, seed)
        rng = random.Random(seed)
        while E.result(state) is None and checked < 100:
            p = E.prompts(state)[0]
            action = E.bot_action(E.view(state, p.seat), p, rng)
            state, _ = E.apply(state, p.seat, action)  # (raises if refused)
            checked += p.kind == "build"
        if checked >= 100:
            break
    assert checked >= 100
