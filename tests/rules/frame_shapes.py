"""Checks a game's stored decision frames against their TypedDict declarations."""

from __future__ import annotations

import types
import typing
from collections.abc import Iterable, Mapping
from typing import Any, get_args, get_origin, get_type_hints


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


def check_frames(
    stack: Iterable[Mapping[str, Any]], kinds: Mapping[str, type[Any]], seen: set[str]
) -> None:
    """Each frame of ``stack`` has its kind's required keys, no undeclared key and values of the
    declared types (``kinds``: tag -> TypedDict); the kinds met are added to ``seen``."""
    for f in stack:
        kind = f["k"]
        assert kind in kinds, f"undeclared frame kind {kind!r}"
        declared = kinds[kind]
        required, optional = declared.__required_keys__, declared.__optional_keys__
        assert required <= f.keys(), f"{kind} frame lacks {sorted(required - f.keys())}"
        undeclared = sorted(f.keys() - required - optional)
        assert not undeclared, f"{kind} frame has undeclared {undeclared}"
        hints = get_type_hints(declared)
        for key, value in f.items():
            assert fits(value, hints[key]), f"{kind} frame's {key} is {value!r}, not {hints[key]}"
        seen.add(kind)


def check_declarations(union: Any, kinds: Mapping[str, type[Any]]) -> None:
    """``union`` is the union of exactly the declarations of ``kinds``, each tagged ``k`` with
    its own kind."""
    assert set(get_args(union)) == set(kinds.values())
    for kind, declared in kinds.items():
        assert get_type_hints(declared)["k"] == typing.Literal[kind]
