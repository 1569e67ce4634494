"""The decision frames the engine puts on its stack match their declarations in ``frames``."""

from __future__ import annotations

import random

from rules.hegemony_of_faith import ENGINE
from rules.hegemony_of_faith.frames import FRAME_KINDS, Frame
from rules.hegemony_of_faith.state import State

from ..frame_shapes import check_declarations, check_frames
from .helpers import do, hand, table


def _check(s: State, seen: set[str]) -> None:
    check_frames(s.stack, FRAME_KINDS, seen)


def test_every_frame_kind_is_declared_once_with_its_tag() -> None:
    check_declarations(Frame, FRAME_KINDS)


def test_frames_of_seeded_computer_games_match_their_declarations() -> None:
    seen: set[str] = set()
    for players in (4, 5, 6, 8):
        for seed in range(10):
            rng = random.Random(seed)
            s = ENGINE.setup(players, seed)
            for _ in range(20000):
                _check(s, seen)
                if ENGINE.result(s) is not None:
                    break
                p = rng.choice(ENGINE.prompts(s))
                s, _ = ENGINE.apply(s, p.seat, ENGINE.bot_action(ENGINE.view(s, p.seat), p, rng))
            else:
                raise AssertionError("the game did not end")
            # a stored state read back holds the same frames
            _check(ENGINE.from_json(ENGINE.to_json(s)), seen)
    # the computer players do not play Secret Alliance: its frame is made by hand below
    assert seen >= set(FRAME_KINDS) - {"alliance"}, sorted(set(FRAME_KINDS) - seen)


def test_secret_alliance_frame_matches_its_declaration() -> None:
    seen: set[str] = set()
    s = table()
    hand(s, 0, "Secret Alliance", "Witch Hunt")
    hand(s, 3, "Faith War")
    s = do(s, (0, {"type": "play", "card": "Secret Alliance", "target": 3}))
    _check(s, seen)
    s = do(s, (3, {"type": "give", "card": "Faith War"}))
    _check(s, seen)
    assert seen == {"alliance"}
