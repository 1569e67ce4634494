"""Whole-game invariants over seeded computer-player games (card conservation, roles, prompts).

``HERALD_SOAK=1`` plays thousands of games for every player count instead of a few dozen.
"""

from __future__ import annotations

import os
import random

import pytest

from rules.hegemony_of_faith import ENGINE
from rules.hegemony_of_faith.state import State

from .helpers import conserved

SOAK = os.environ.get("HERALD_SOAK") == "1"
GAMES = 2000 if SOAK else 8


def _consistent(s: State) -> None:
    conserved(s)
    for k in range(s.players):
        if s.role[k] == "follower":
            lead = s.leader[k]
            assert lead is not None and s.role[lead] == "leader"
        else:
            assert s.leader[k] is None
        if s.role[k] == "wanderer":
            assert s.hands[k] == []
    if s.phase != "over":
        seats = [p.seat for p in ENGINE.prompts(s)]
        assert seats and len(seats) == len(set(seats)), "one open prompt per seat at most"


def play_checked(players: int, seed: int, every_step: bool) -> State:
    rng = random.Random(seed)
    s = ENGINE.setup(players, seed)
    for _ in range(20000):
        if ENGINE.result(s) is not None:
            _consistent(s)
            return s
        p = rng.choice(ENGINE.prompts(s))
        s, _ = ENGINE.apply(s, p.seat, ENGINE.bot_action(ENGINE.view(s, p.seat), p, rng))
        if every_step:
            _consistent(s)
    raise AssertionError("game did not end")


@pytest.mark.parametrize("players", [4, 5, 6, 7, 8])
def test_every_card_is_always_in_exactly_one_place(players: int) -> None:
    for seed in range(GAMES):
        s = play_checked(players, 1000 * players + seed, every_step=SOAK or seed < 4)
        res = ENGINE.result(s)
        assert res is not None and len(res.winners) == 1


def test_timeout_defaults_are_always_legal() -> None:
    for seed in range(6):
        rng = random.Random(seed)
        s = ENGINE.setup(4 + seed % 5, seed)
        while ENGINE.result(s) is None:
            p = rng.choice(ENGINE.prompts(s))
            action = ENGINE.timeout_action(s, p) if rng.random() < 0.5 else ENGINE.bot_action(
                ENGINE.view(s, p.seat), p, rng)
            s, _ = ENGINE.apply(s, p.seat, action)
        conserved(s)
