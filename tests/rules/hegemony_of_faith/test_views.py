"""The views the engine hands the renderers match their declarations in ``views``."""

from __future__ import annotations

import random
from typing import get_args

from rules.hegemony_of_faith import ENGINE
from rules.hegemony_of_faith.views import PendingKind, View, read_view

from ..frame_shapes import misfits


def test_public_and_private_views_of_seeded_games_match_their_declarations() -> None:
    kinds: set[str] = set()
    for players, seed in ((4, 1), (6, 3), (8, 4)):
        rng = random.Random(seed)
        s = ENGINE.setup(players, seed)
        for _ in range(20000):
            public = ENGINE.view(s, None)
            assert "private" not in public
            assert not misfits(public, View, "view"), misfits(public, View, "view")
            kinds.add(public["pending"]["kind"])
            for seat in range(players):
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
        assert read_view(ENGINE.view(s, None))["result"] is not None
    assert kinds <= set(get_args(PendingKind))
    assert {"turn", "skills", "attack", "prophet"} <= kinds
