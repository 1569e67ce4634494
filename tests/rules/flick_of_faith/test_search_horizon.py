"""How the searching players judge where a flick leaves the game (:func:`.search.standing`):
Worship as it is likely to stand when the Generation ends, not as the board lies."""

from __future__ import annotations

import random
from typing import Any

import pytest

from rules.flick_of_faith import scoring
from rules.flick_of_faith import search as flick_search

from .helpers import NORTH, mission, put
from .test_search import E, reach


def test_with_no_flick_left_the_horizon_counts_worship_exactly() -> None:
    s = mission(4, ("anubis", "dagda", "zeus", "ra"))
    put(s, "prophet", 0, NORTH.x, NORTH.y)
    put(s, "prophet", 0, NORTH.x + 4, NORTH.y)
    put(s, "prophet", 1, NORTH.x - 4, NORTH.y)
    for k in range(4):
        s.supply[k] = {"prophet": 0}
    exact = scoring.worship(s.discs, s.players, s.laws, s.gods, s.vp)
    assert flick_search.expected_worship(s) == [float(r["vp"]) for r in exact]


def test_a_domination_by_one_piece_early_in_the_mission_is_worth_less_than_by_three() -> None:
    narrow = mission(4, ("anubis", "dagda", "zeus", "ra"))
    put(narrow, "prophet", 0, NORTH.x, NORTH.y)
    wide = mission(4, ("anubis", "dagda", "zeus", "ra"))
    for dx in (-4.0, 0.0, 4.0):
        put(wide, "prophet", 0, NORTH.x + dx, NORTH.y)
    one = flick_search.expected_worship(narrow)[0]
    three = flick_search.expected_worship(wide)[0]
    exact = float(scoring.worship(narrow.discs, 4, [], narrow.gods)[0]["vp"])
    assert one < exact  # (Presence and Domination of island I on the board as it lies)
    assert one < three


def test_a_domination_is_worth_more_the_fewer_rival_flicks_are_left() -> None:
    late = mission(4, ("anubis", "dagda", "zeus", "ra"))
    put(late, "prophet", 0, NORTH.x, NORTH.y)
    early = mission(4, ("anubis", "dagda", "zeus", "ra"))
    put(early, "prophet", 0, NORTH.x, NORTH.y)
    for k in range(1, 4):
        late.supply[k] = {"prophet": 0}
        early.supply[k] = {"prophet": 3}
    assert flick_search.expected_worship(late)[0] > flick_search.expected_worship(early)[0] + 0.5


def _after_own_flick(players: int, seed: int) -> tuple[Any, int]:
    """A sampled position right after a seat's Mission flick (the search's horizon), and that seat."""
    state, prompt = reach(players, seed, 20, "flick")
    view = E.view(state, prompt.seat)
    sample = E.determinize(view, prompt.seat, random.Random(seed))  # type: ignore[attr-defined]
    sample, _ = E.apply(sample, prompt.seat, E.bot_action(view, prompt, random.Random(seed)))
    while E.prompts(sample)[0].seat == prompt.seat:  # (a temple to build after the flick)
        p = E.prompts(sample)[0]
        sample, _ = E.apply(sample, p.seat, E.bot_action(E.view(sample, p.seat), p, random.Random(seed)))
    return sample, prompt.seat


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_flick_is_judged_where_it_lands(players: int) -> None:
    """The horizon plays nothing more: no rival answers first (that was dearer and, measured,
    worse); the seat's chances where the throw left the game, the sample untouched."""
    state, seat = _after_own_flick(players, 4 if players == 2 else 3)
    before = E.to_json(state)
    want = flick_search.chances(state, seat)
    assert flick_search.evaluate(state, seat) == want
    assert E.evaluate(state, seat) == want  # type: ignore[attr-defined]
    assert flick_search.Sampler().evaluate(state, seat) == want
    assert E.to_json(state) == before


def test_a_prophet_facing_the_navel_is_likelier_to_be_knocked_off_than_one_behind_its_island() -> None:
    """Shots at the navel and across the map pass the side of an island facing the navel: a
    lone prophet there holds its island's Presence less surely than one on the far side."""
    facing, behind = (NORTH.x, NORTH.y + 9.0), (NORTH.x, NORTH.y - 8.0)
    assert flick_search.knock_chance(*facing, NORTH.index) > 2 * flick_search.knock_chance(*behind, NORTH.index)
    worth = []
    for x, y in (facing, behind):
        s = mission(3, ("anubis", "dagda", "zeus"))
        put(s, "prophet", 0, x, y)
        worth.append(flick_search.expected_worship(s)[0])
    assert worth[0] < worth[1]
