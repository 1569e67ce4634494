"""The sub-decisions the engine puts on its stack match their declarations in ``frames``."""

from __future__ import annotations

import random

from rules.alternate_histories import ENGINE
from rules.alternate_histories.frames import FRAME_KINDS, Frame

from ..frame_shapes import check_declarations, check_frames


def test_every_frame_kind_is_declared_once_with_its_tag() -> None:
    check_declarations(Frame, FRAME_KINDS)


def test_frames_of_seeded_computer_games_match_their_declarations() -> None:
    seen: set[str] = set()
    for seed in range(8):
        rng = random.Random(seed)
        s = ENGINE.setup(2, seed)
        for _ in range(20000):
            check_frames(s.stack, FRAME_KINDS, seen)
            if ENGINE.result(s) is not None:
                break
            p = rng.choice(ENGINE.prompts(s))
            s, _ = ENGINE.apply(s, p.seat, ENGINE.bot_action(ENGINE.view(s, p.seat), p, rng))
        else:
            raise AssertionError("the game did not end")
        # a stored state read back holds the same frames
        check_frames(ENGINE.from_json(ENGINE.to_json(s)).stack, FRAME_KINDS, seen)
    assert seen == set(FRAME_KINDS), sorted(set(FRAME_KINDS) - seen)
