"""The views the engine hands the computer player and the renderers match their declarations in
``rules.cult_wars.views``."""

from __future__ import annotations

import random
from typing import Any, get_args, get_type_hints

from rules.cult_wars import ENGINE
from rules.cult_wars.views import CombatView, View, read_view

from ..frame_shapes import misfits


def _misfits(view: dict[str, Any]) -> list[str]:
    """Where ``view`` differs from ``View`` (its result's scores, floats, included)."""
    return misfits(view, View, "view")


def test_public_and_private_views_of_seeded_games_match_their_declarations() -> None:
    outcomes: set[str] = set()
    splits: set[str] = set()
    phases: set[str] = set()
    for players, seed, insignia in ((3, 1, "two_step"), (4, 2, "two_step"), (3, 3, "single"),
                                    (4, 4, "two_step"), (4, 5, "single")):
        rng = random.Random(seed)
        s = ENGINE.setup(players, seed, {"insignia": insignia})
        for _ in range(2000):
            public = ENGINE.view(s, None)
            assert "private" not in public
            assert not _misfits(public), _misfits(public)
            v = read_view(public)
            phases.add(v["phase"])
            for record in (v["last_turn"], v["reveal"]):
                for combat in record["combats"] if record else []:
                    outcomes.add(combat["outcome"])
                    splits.add(combat.get("split", "none"))
            for seat in range(players):
                own = ENGINE.view(s, seat)
                assert own["private"]["seat"] == seat
                assert not _misfits(own), _misfits(own)
                assert ENGINE.private_view(s, seat) == own["private"]
            if ENGINE.result(s) is not None:
                break
            p = rng.choice(ENGINE.prompts(s))
            s, _ = ENGINE.apply(s, p.seat, ENGINE.bot_action(ENGINE.view(s, p.seat), p, rng))
        else:
            raise AssertionError("the game did not end")
        assert "result" in ENGINE.view(s, None)
    # the games met every step of a turn, every outcome of a combat and chosen splits
    assert phases == set(get_args(get_type_hints(View)["phase"]))
    assert outcomes == set(get_args(get_type_hints(CombatView)["outcome"]))
    assert {"awaited", "chosen", "none"} <= splits
