"""Structured prompt parameters of the two flick prompts (ranges, pieces, Dagda's hand, corner
attempts), so a UI never reads them back from the English text."""

from __future__ import annotations

import random

import pytest

from rules.engine import IllegalAction
from rules.flick_of_faith import flick
from rules.flick_of_faith import map as board

from .helpers import E, mission

RANGES = {"angle_min": -180.0, "angle_max": 180.0, "power_min": 1.0, "power_max": 10.0}


def test_the_first_player_flick_carries_the_ranges() -> None:
    s = E.setup(2, 3)
    for p in E.prompts(s):
        s, _ = E.apply(s, p.seat, p.choices[0].action)
    prompts = E.prompts(s)
    assert [p.kind for p in prompts] == ["contest_flick", "contest_flick"]
    assert all(dict(p.params) == RANGES for p in prompts)


def test_the_ranges_are_the_ones_the_engine_enforces() -> None:
    s = mission(2)
    p = E.prompts(s)[0].params
    for key, lo, hi in (("angle", p["angle_min"], p["angle_max"]), ("power", p["power_min"], p["power_max"])):
        other = {"angle": 0, "power": 3}
        for bad in (lo - 0.5, hi + 0.5):
            with pytest.raises(IllegalAction, match="out of range"):
                E.apply(s, 0, {"type": "flick", **other, key: bad})
        E.apply(s, 0, {"type": "flick", **other, key: lo})
        E.apply(s, 0, {"type": "flick", **other, key: hi})


def test_a_fresh_mission_flick_lists_the_pieces_and_the_default() -> None:
    s = mission(2, ("anubis", "dagda"))
    p = E.prompts(s)[0]
    assert dict(p.params) == {**RANGES, "pieces": ["prophet"], "piece_default": "prophet",
                              "hand_targets": [], "in_corner": False, "attempt": 1,
                              "max_attempts": flick.REFLICK_LIMIT}
    s.supply[0]["templar"] = 2
    assert E.prompts(s)[0].params["pieces"] == ["prophet", "templar"]
    assert "Optional \"piece\": prophet, templar (default prophet)." in E.prompts(s)[0].text


def test_ra_freja_and_dagda_get_their_own_options() -> None:
    s = mission(3, ("ra", "freja", "dagda"))
    assert E.prompts(s)[0].params["pieces"] == ["prophet", "sphinx"]
    s.active = 1
    assert E.prompts(s)[0].params["pieces"] == ["prophet", "heart"]
    s.heart_ready = False
    assert E.prompts(s)[0].params["pieces"] == ["prophet"]
    s.active = 2
    assert E.prompts(s)[0].params["hand_targets"] == list(board.HAND_TARGETS) == [
        "I", "II", "III", "IV", "navel"]


def test_a_disc_still_in_the_corner_takes_no_piece_and_counts_attempts() -> None:
    s = mission(2)
    s, _ = E.apply(s, 0, {"type": "flick", "angle": 0, "power": 1})
    p = E.prompts(s)[0]
    assert p.kind == "flick" and s.in_corner
    assert p.params["in_corner"] is True and p.params["attempt"] == 2
    assert p.params["pieces"] == [] and p.params["piece_default"] is None
    assert f"flick {p.params['attempt']}, at most {p.params['max_attempts']} this turn" in p.text
    assert p.params["max_attempts"] == 10


def test_other_prompts_have_no_params() -> None:
    rng = random.Random(2)
    s = E.setup(3, 2)
    kinds = set()
    while E.result(s) is None:
        open_ = E.prompts(s)
        for p in open_:
            kinds.add(p.kind)
            if p.free_form is None:
                assert p.params == {}
            elif p.free_form == "temple":
                assert set(p.params) == {"prophets", "max_distance", "temple_radius", "grid", "islands"}
            else:
                assert set(RANGES) <= set(p.params)
        p = rng.choice(open_)
        s, _ = E.apply(s, p.seat, E.bot_action(E.view(s, p.seat), p, rng))
    assert {"god", "vote", "contest_flick", "flick"} <= kinds
