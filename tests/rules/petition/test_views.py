"""The views the engine hands the computer player and the renderers match their declarations in
``rules.petition.views``."""

from __future__ import annotations

import random
from typing import Any, get_args, get_type_hints

from rules.petition import ENGINE
from rules.petition.views import View, read_reveal, read_view

from ..frame_shapes import misfits


def _misfits(view: dict[str, Any]) -> list[str]:
    """Where ``view`` differs from ``View`` (its result's scores, floats, included)."""
    return misfits(view, View, "view")


GAMES: tuple[tuple[int, int, dict[str, Any]], ...] = (
    (1, 1, {}),
    (2, 2, {}),
    (3, 3, {"winner_takes_all": True}),
    (4, 4, {"pillar_stand": True}),
    (6, 5, {"last_man_standing": True, "round_limit": 12}),
)
"""Players, seed and table options of the games played: the solo game and tables of two to six."""


def test_public_and_private_views_of_seeded_games_match_their_declarations() -> None:
    phases: set[str] = set()
    reveals: set[str] = set()
    for players, seed, options in GAMES:
        rng = random.Random(seed)
        s = ENGINE.setup(players, seed, options)
        for _ in range(20000):
            public = ENGINE.view(s, None)
            assert "private" not in public
            assert not _misfits(public), _misfits(public)
            v = read_view(public)
            phases.add(v["phase"])
            if v["last_reveal"] is not None:
                reveals.add(v["last_reveal"]["type"])
            for seat in range(players):
                own = ENGINE.view(s, seat)
                assert own["private"]["seat"] == seat
                assert not _misfits(own), _misfits(own)
                assert ENGINE.private_view(s, seat) == own["private"]
            if ENGINE.result(s) is not None:
                break
            p = rng.choice(ENGINE.prompts(s))
            s, events = ENGINE.apply(s, p.seat, ENGINE.bot_action(ENGINE.view(s, p.seat), p, rng))
            for e in events:
                if e.kind in ("reveal_bids", "reveal_campaign"):
                    # a reveal's data is the record the board shows
                    assert not misfits(e.data, get_type_hints(View)["last_reveal"], "reveal")
                    kind = {"reveal_bids": "bids", "reveal_campaign": "campaign"}[e.kind]
                    assert read_reveal(e.data)["type"] == kind
        else:
            raise AssertionError("the game did not end")
        assert "result" in ENGINE.view(s, None)
    # the games met the solo game's phases and the table's, and both kinds of reveal
    assert phases <= set(get_args(get_type_hints(View)["phase"]))
    assert {"turn", "petition", "campaign", "solo_turn", "over"} <= phases
    assert reveals == {"bids", "campaign"}
