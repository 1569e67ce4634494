"""The views the engine hands the renderers match their declarations in ``views``."""

from __future__ import annotations

import random
from typing import get_args, get_type_hints

from rules.alternate_histories import ENGINE
from rules.alternate_histories.views import PendingView, View, read_view

from ..frame_shapes import misfits


def test_public_and_private_views_of_seeded_games_match_their_declarations() -> None:
    kinds: set[str] = set()
    combats: set[str] = set()
    for seed in (0, 4, 7):
        rng = random.Random(seed)
        s = ENGINE.setup(2, seed)
        for _ in range(20000):
            public = ENGINE.view(s, None)
            assert "private" not in public
            assert not misfits(public, View, "view"), misfits(public, View, "view")
            if public["pending"] is not None:
                kinds.add(public["pending"]["kind"])
            if public["last_combat"] is not None:
                combats.add(public["last_combat"]["outcome"])
            for seat in (0, 1):
                own = ENGINE.view(s, seat)
                assert own["private"]["seat"] == seat
                assert not misfits(own, View, "view"), misfits(own, View, "view")
                assert ENGINE.private_view(s, seat) == own["private"]
            if ENGINE.result(s) is not None:
                break
            p = rng.choice(ENGINE.prompts(s))
            s, _ = ENGINE.apply(s, p.seat, ENGINE.bot_action(ENGINE.view(s, p.seat), p, rng))
        else:
            raise AssertionError("the game did not end")
        assert read_view(ENGINE.view(s, None))["phase"] == "over"
    # the games met open sub-decisions of several kinds, and combats fought out and direct hits
    assert kinds <= set(get_args(get_type_hints(PendingView)["kind"]))
    assert {"pay", "react"} <= kinds
    assert "hit" in combats and combats - {"hit", "fled"}
