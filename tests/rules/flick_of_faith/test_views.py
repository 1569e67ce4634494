"""The views the engine hands the renderers match their declarations in ``views``."""

from __future__ import annotations

import random
import types
import typing
from typing import Any, get_args, get_origin, get_type_hints, is_typeddict

from rules.flick_of_faith import ENGINE
from rules.flick_of_faith.views import Phase, Stage, View, read_view


def misfits(value: Any, tp: Any, at: str = "view") -> list[str]:
    """Where the JSON ``value`` differs from the declared type ``tp``, all the way down; empty
    when it fits. A ``float`` may be written whole (a coordinate of 50), as the type checker
    allows."""
    origin = get_origin(tp)
    if tp is Any:
        return []
    if is_typeddict(tp):
        if type(value) is not dict:
            return [f"{at} is {value!r}, not a {tp.__name__}"]
        required, optional = tp.__required_keys__, tp.__optional_keys__
        out = [f"{at}: {tp.__name__} lacks {k!r}" for k in sorted(required - value.keys())]
        out += [f"{at}: {tp.__name__} has undeclared {k!r}"
                for k in sorted(value.keys() - required - optional)]
        hints = get_type_hints(tp)
        return out + [m for k, x in value.items() if k in hints for m in misfits(x, hints[k], f"{at}.{k}")]
    if origin in (typing.Union, types.UnionType):
        fits = any(not misfits(value, alt, at) for alt in get_args(tp))
        return [] if fits else [f"{at} is {value!r}, not {tp}"]
    if origin is list:
        if type(value) is not list:
            return [f"{at} is {value!r}, not a list"]
        (item,) = get_args(tp)
        return [m for i, x in enumerate(value) for m in misfits(x, item, f"{at}[{i}]")]
    if origin is dict:
        if type(value) is not dict:
            return [f"{at} is {value!r}, not a dict"]
        key, item = get_args(tp)
        return [m for k, x in value.items() for m in misfits(k, key, f"{at} key") + misfits(x, item, f"{at}[{k!r}]")]
    if origin is typing.Literal:
        ok = value in get_args(tp)
    elif tp is float:
        ok = type(value) in (int, float)
    elif tp is type(None):
        ok = value is None
    elif tp in (bool, int, str):
        ok = type(value) is tp
    else:
        raise AssertionError(f"no check for the declared type {tp!r}")
    return [] if ok else [f"{at} is {value!r}, not {tp}"]


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
