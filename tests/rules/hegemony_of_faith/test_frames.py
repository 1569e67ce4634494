"""The decision frames the engine puts on its stack match their declarations in ``frames``."""

from __future__ import annotations

import random
import types
import typing
from typing import Any, get_args, get_origin, get_type_hints

from rules.hegemony_of_faith import ENGINE
from rules.hegemony_of_faith.frames import FRAME_KINDS, Frame
from rules.hegemony_of_faith.state import State

from .helpers import do, hand, table


def fits(value: Any, tp: Any) -> bool:
    """Whether the JSON ``value`` has the declared type ``tp`` (all the way down)."""
    origin = get_origin(tp)
    if tp is Any:
        return True
    if origin is typing.Literal:
        return value in get_args(tp)
    if origin in (typing.Union, types.UnionType):
        return any(fits(value, alt) for alt in get_args(tp))
    if tp is type(None):
        return value is None
    if tp is bool:
        return type(value) is bool
    if tp in (int, str):
        return type(value) is tp
    if origin is list:
        (item,) = get_args(tp)
        return type(value) is list and all(fits(x, item) for x in value)
    if origin is dict:
        key, item = get_args(tp)
        return type(value) is dict and all(fits(k, key) and fits(x, item) for k, x in value.items())
    raise AssertionError(f"no check for the declared type {tp!r}")


def check_frames(s: State, seen: set[str]) -> None:
    for f in s.stack:
        kind = f["k"]
        assert kind in FRAME_KINDS, f"undeclared frame kind {kind!r}"
        declared = FRAME_KINDS[kind]
        required, optional = declared.__required_keys__, declared.__optional_keys__
        assert required <= f.keys(), f"{kind} frame lacks {sorted(required - f.keys())}"
        undeclared = sorted(f.keys() - required - optional)
        assert not undeclared, f"{kind} frame has undeclared {undeclared}"
        hints = get_type_hints(declared)
        for key, value in f.items():
            assert fits(value, hints[key]), f"{kind} frame's {key} is {value!r}, not {hints[key]}"
        seen.add(kind)


def test_every_frame_kind_is_declared_once_with_its_tag() -> None:
    union = set(get_args(Frame))
    assert union == set(FRAME_KINDS.values())
    for kind, declared in FRAME_KINDS.items():
        assert get_type_hints(declared)["k"] == typing.Literal[kind]


def test_frames_of_seeded_computer_games_match_their_declarations() -> None:
    seen: set[str] = set()
    for players in (4, 5, 6, 8):
        for seed in range(10):
            rng = random.Random(seed)
            s = ENGINE.setup(players, seed)
            for _ in range(20000):
                check_frames(s, seen)
                if ENGINE.result(s) is not None:
                    break
                p = rng.choice(ENGINE.prompts(s))
                s, _ = ENGINE.apply(s, p.seat, ENGINE.bot_action(ENGINE.view(s, p.seat), p, rng))
            # a stored state read back holds the same frames
            check_frames(ENGINE.from_json(ENGINE.to_json(s)), seen)
    # the computer players do not play Secret Alliance: its frame is made by hand below
    assert seen >= set(FRAME_KINDS) - {"alliance"}, sorted(set(FRAME_KINDS) - seen)


def test_secret_alliance_frame_matches_its_declaration() -> None:
    seen: set[str] = set()
    s = table()
    hand(s, 0, "Secret Alliance", "Witch Hunt")
    hand(s, 3, "Faith War")
    s = do(s, (0, {"type": "play", "card": "Secret Alliance", "target": 3}))
    check_frames(s, seen)
    s = do(s, (3, {"type": "give", "card": "Faith War"}))
    check_frames(s, seen)
    assert seen == {"alliance"}
