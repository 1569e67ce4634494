"""Structured prompt parameters: the line-up prompt says its size and Zombie Army in ``params``,
from the same data as its text, so a UI never reads numbers back from the English."""

from __future__ import annotations

import random
import re

import pytest

from rules.engine import Prompt
from rules.hegemony_of_faith import ENGINE
from rules.hegemony_of_faith.state import State

from .helpers import act, do, flock, graveyard, hand, prompt, table

_SIZE = re.compile(r"\((?P<lo>\d+)(?: to (?P<hi>\d+))? of your believers")


def _agrees_with_text(p: Prompt) -> None:
    assert p.kind == "lineup"
    m = _SIZE.search(p.text)
    assert m is not None, p.text
    lo, hi = int(m["lo"]), int(m["hi"] or m["lo"])
    assert dict(p.params) == {"min": lo, "max": hi, "zombies": "Zombie Army" in p.text}


def test_a_faith_war_line_up_holds_every_believer() -> None:
    s = table()
    hand(s, 0, "Faith War")
    flock(s, 0, 4, 4, 4)
    flock(s, 1, 3, 2)
    s = do(s, (0, {"type": "play", "card": "Faith War", "target": 1}))
    assert prompt(s, 0).params == {"min": 3, "max": 3, "zombies": False}
    assert prompt(s, 1).params == {"min": 2, "max": 2, "zombies": False}
    _agrees_with_text(prompt(s, 0))


def test_a_faith_debate_line_up_has_a_range_for_the_attacker() -> None:
    s = table()
    hand(s, 0, "Faith Debate")
    flock(s, 0, 3, 3, 3, 3, 3, 3, 3)
    flock(s, 1, 2, 2, 2, 2, 2, 2)
    s = do(s, (0, {"type": "play", "card": "Faith Debate", "target": 1}))
    assert prompt(s, 0).params == {"min": 1, "max": 5, "zombies": False}
    assert prompt(s, 1).params == {"min": 5, "max": 5, "zombies": False}
    for seat in (0, 1):
        _agrees_with_text(prompt(s, seat))


def test_zombie_army_is_a_param_of_the_attackers_line_up() -> None:
    s = table(skills={0: "Zombie Army"})
    hand(s, 0, "Faith War")
    flock(s, 0, 4)
    flock(s, 1, 3, 3)
    graveyard(s, 4)
    s = do(s, (0, {"type": "play", "card": "Faith War", "target": 1}), (0, {"type": "karma", "use": False}))
    assert prompt(s, 0).params == {"min": 1, "max": 1, "zombies": True}
    assert prompt(s, 1).params["zombies"] is False
    _agrees_with_text(prompt(s, 0))
    s, _ = act(s, 0, {"type": "lineup", "order": [4, "z4"]})  # one own believer plus a zombie
    assert 0 not in {p.seat for p in ENGINE.prompts(s)}


def _lineups_of_a_game(players: int, seed: int) -> int:
    rng = random.Random(seed)
    s: State = ENGINE.setup(players, seed)
    seen = 0
    while ENGINE.result(s) is None:
        open_ = ENGINE.prompts(s)
        for p in open_:
            if p.kind == "lineup":
                _agrees_with_text(p)
                seen += 1
            else:
                assert p.params == {}, f"{p.kind} has params but none is documented"
        p = rng.choice(open_)
        s, _ = ENGINE.apply(s, p.seat, ENGINE.bot_action(ENGINE.view(s, p.seat), p, rng))
    return seen


@pytest.mark.parametrize("players", [4, 6, 8])
def test_every_line_up_of_seeded_games_agrees_with_its_text(players: int) -> None:
    assert sum(_lineups_of_a_game(players, seed) for seed in range(3)) > 0
