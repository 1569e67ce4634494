"""Checks a game's decision frames and views against their TypedDict declarations."""

from __future__ import annotations

import types
import typing
from collections.abc import Iterable, Mapping
from typing import Any, get_args, get_origin, get_type_hints, is_typeddict


def misfits(value: Any, tp: Any, at: str = "") -> list[str]:
    """Where the JSON ``value`` differs from the declared type ``tp``, all the way down (``at``:
    the path so far); empty when it fits."""
    origin = get_origin(tp)
    if tp is Any:
        return []
    if is_typeddict(tp):
        if type(value) is not dict:
            return [f"{at or 'the value'} is {value!r}, not a {tp.__name__}"]
        required, optional = tp.__required_keys__, tp.__optional_keys__
        out = [f"{at}: {tp.__name__} lacks {k!r}" for k in sorted(required - value.keys())]
        out += [
            f"{at}: {tp.__name__} has undeclared {k!r}"
            for k in sorted(value.keys() - required - optional)
        ]
        hints = get_type_hints(tp)
        for k, x in value.items():
            if k in hints:
                out += misfits(x, hints[k], f"{at}.{k}")
        return out
    ok: bool
    if origin is typing.Literal:
        ok = value in get_args(tp)
    elif origin in (typing.Union, types.UnionType):
        return (
            []
            if any(not misfits(value, alt, at) for alt in get_args(tp))
            else [f"{at} is {value!r}, not {tp}"]
        )
    elif tp is type(None):
        ok = value is None
    elif tp is float:  # (a float may be written whole, as the type checker allows)
        ok = type(value) in (int, float)
    elif tp in (bool, int, str):
        ok = type(value) is tp
    elif origin is list:
        if type(value) is not list:
            return [f"{at} is {value!r}, not a list"]
        (item,) = get_args(tp)
        return [m for i, x in enumerate(value) for m in misfits(x, item, f"{at}[{i}]")]
    elif origin is dict:
        if type(value) is not dict:
            return [f"{at} is {value!r}, not a dict"]
        key, item = get_args(tp)
        return [
            m
            for k, x in value.items()
            for m in misfits(k, key, f"{at} key") + misfits(x, item, f"{at}[{k!r}]")
        ]
    else:
        raise AssertionError(f"no check for the declared type {tp!r}")
    return [] if ok else [f"{at} is {value!r}, not {tp}"]


def check_frames(
    stack: Iterable[Mapping[str, Any]], kinds: Mapping[str, type[Any]], seen: set[str]
) -> None:
    """Each frame of ``stack`` is as its kind's declaration says (``kinds``: tag -> TypedDict):
    its required keys, no undeclared key, values of the declared types; the kinds met are added
    to ``seen``."""
    for f in stack:
        kind = f["k"]
        assert kind in kinds, f"undeclared frame kind {kind!r}"
        errors = misfits(f, kinds[kind], f"{kind} frame")
        assert not errors, errors
        seen.add(kind)


def check_declarations(union: Any, kinds: Mapping[str, type[Any]]) -> None:
    """``union`` is the union of exactly the declarations of ``kinds``, each tagged ``k`` with
    its own kind."""
    assert set(get_args(union)) == set(kinds.values())
    for kind, declared in kinds.items():
        assert get_type_hints(declared)["k"] == typing.Literal[kind]
