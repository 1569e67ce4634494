"""The views the engine hands the renderers match their declarations in ``views``."""

from __future__ import annotations

import random
from typing import Any, get_args

from rules.flick_of_faith import ENGINE
from rules.flick_of_faith.views import Phase, Stage, View, read_view

from ..frame_shapes import misfits as shape_misfits


def misfits(value: Any, tp: Any, at: str = "view") -> list[str]:
    """Where the JSON ``value`` differs from the declared type ``tp`` (the shared check, named
    from ``view``)."""
    return shape_misfits(value, tp, at)


def test_misfits_finds_a_missing_an_undeclared_and_a_wrong_key() -> None:
    v = ENGINE.view(ENGINE.setup(2, 1), None)
    assert misfits(v, View) == []
    assert misfits({**v, "extra": 1}, View) == ["view: View has undeclared 'extra'"]
    del v["vp"]
    v["phase"] = "lunch"
    assert misfits(v, View) == ["view: View lacks 'vp'", "view.phase is 'lunch', not " + str(Phase)]


def test_public_and_private_views_of_seeded_games_match_their_declarations() -> None:
    phases: set[str] = set()
    stages: set[str] = set()
    for players, seed in ((2, 3), (3, 5), (4, 8)):
        rng = random.Random(seed)
        s = ENGINE.setup(players, seed)
        for _ in range(3000):
            public = ENGINE.view(s, None)
            assert "private" not in public
            assert not misfits(public, View), misfits(public, View)
            phases.add(public["phase"])
            stages.add(public["stage"])
            for seat in range(players):
                own = ENGINE.view(s, seat)
                assert own["private"]["seat"] == seat
                assert not misfits(own, View), misfits(own, View)
                assert ENGINE.private_view(s, seat) == own["private"]
            if ENGINE.result(s) is not None:
                break
            p = rng.choice(ENGINE.prompts(s))
            s, _ = ENGINE.apply(s, p.seat, ENGINE.bot_action(ENGINE.view(s, p.seat), p, rng))
        else:
            raise AssertionError("the game did not end")
        assert read_view(ENGINE.view(s, None))["phase"] == "over"
    # the games went through every phase but the tie-break, and the Mission's stages
    assert phases <= set(get_args(Phase)) and {"gods", "setup_flick", "council", "mission", "over"} <= phases
    assert stages <= set(get_args(Stage)) and {"", "flick", "build"} <= stages
