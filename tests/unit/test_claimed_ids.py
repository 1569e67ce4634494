"""Ids claimed by custom_ids, command options and routes are range-checked where they are parsed.

A forged ``herald:act:99…9:1`` used to reach the storage and fail there with an integer overflow
(a traceback logged per click, "something went wrong" for the member). Every number a component's
custom_id carries is now read by :func:`bot.parsing.parse_id`: in range, or the same sentence as
for a number no game has.
"""

from __future__ import annotations

import asyncio
import importlib
import pkgutil
import re
from typing import Any

import discord
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cogs
from bot import views
from bot.errors import TableError
from bot.parsing import MAX_ID, MAX_ID_DIGITS, parse_id

NUMBER_GROUPS = {"game": 1, "table": 1, "version": 0, "opened": 0, "page": 0, "idx": 0}
"""Named groups of the templates that hold a number, and the least each may be."""


def dynamic_items() -> list[type[discord.ui.DynamicItem[Any]]]:
    """Every persistent component class Herald defines (the platform's and every cog's)."""
    for mod in pkgutil.walk_packages(cogs.__path__, "cogs."):
        importlib.import_module(mod.name)
    importlib.import_module("bot.rulebook")
    found: list[type[discord.ui.DynamicItem[Any]]] = []
    todo = list(discord.ui.DynamicItem.__subclasses__())
    while todo:
        cls = todo.pop()
        todo += cls.__subclasses__()
        if getattr(cls, "__discord_ui_compiled_template__", None) is not None:
            found.append(cls)
    return sorted(found, key=lambda c: c.__discord_ui_compiled_template__.pattern)


ITEMS = dynamic_items()


def in_range(text: str | None, lo: int) -> bool:
    """A number parse_id accepts: ASCII digits, no longer than the largest id (the text is bounded
    before it is converted, so 20 digits are refused even when leading zeros keep the value small)."""
    return text is None or (text.isascii() and text.isdigit() and len(text) <= MAX_ID_DIGITS
                            and lo <= int(text) <= MAX_ID)


def expected_ok(match: re.Match[str]) -> bool:
    groups = match.groupdict()
    numeric = {name: lo for name, lo in NUMBER_GROUPS.items()
               if f"(?P<{name}>\\d" in match.re.pattern}  # (the rules pages' "game" is a key)
    ok = all(in_range(groups.get(name), lo) for name, lo in numeric.items())
    if groups.get("ticket") is not None:
        ok = ok and in_range(groups["ticket"].partition("-")[0], 0)
    return ok


def test_the_enumeration_finds_every_kind_of_component() -> None:
    names = {cls.__name__ for cls in ITEMS}
    assert {"LobbyButton", "DecideButton", "HandButton", "GroupSelect", "ChoiceSelect",
            "ChoiceButton", "RematchButton", "OwnOrderButton", "FlickFormButton"} <= names
    prefixes = {cls.__discord_ui_compiled_template__.pattern.split("(")[0] for cls in ITEMS}
    # the three games whose forms are built by form_items: menu and button each
    assert {"herald:cw:", "herald:cwb:", "herald:pt:", "herald:ptb:", "herald:ah:", "herald:ahb:"} <= prefixes


@given(data=st.data())
@settings(max_examples=300, deadline=None)
def test_every_component_refuses_an_out_of_range_number_and_accepts_the_rest(data: st.DataObject) -> None:
    cls = data.draw(st.sampled_from(ITEMS))
    pattern = cls.__discord_ui_compiled_template__
    custom_id = data.draw(st.one_of(
        st.from_regex(pattern, fullmatch=True),
        # numbers at and around the storage's limit, and far beyond it
        st.from_regex(pattern, fullmatch=True).map(lambda cid: re.sub(
            r"\d+", lambda m: data.draw(st.sampled_from(
                [m[0], str(MAX_ID), str(MAX_ID + 1), "9" * 30, "0", "1" + "0" * 18])), cid)),
    ))
    match = pattern.fullmatch(custom_id)
    if match is None:  # a substitution the template does not allow (e.g. a bounded page)
        return
    base: discord.ui.Item[Any] = (discord.ui.Select(custom_id=custom_id)
                                  if "Select" in cls.__name__ or ":grp:" in custom_id or ":pick:" in custom_id
                                  or "menu" in custom_id
                                  else discord.ui.Button(custom_id=custom_id))
    item = asyncio.run(cls.from_custom_id(None, base, match))  # type: ignore[arg-type]
    assert isinstance(item, cls)
    refusal = getattr(item, "refusal", None)
    if expected_ok(match):
        assert refusal is None, (custom_id, refusal)
    else:
        assert isinstance(refusal, TableError), custom_id
        assert str(refusal).startswith("there is no ")
        assert len(str(refusal)) < 80


@given(st.one_of(st.text(max_size=60), st.integers(min_value=-(2**80), max_value=2**80)))
@settings(max_examples=500)
def test_parse_id_returns_a_stored_id_or_refuses_in_one_sentence(raw: str | int) -> None:
    try:
        value = parse_id(raw)
    except TableError as exc:
        assert str(exc).startswith("there is no game #") and len(str(exc)) < 60
        assert not (isinstance(raw, int) and 1 <= raw <= MAX_ID)
        return
    assert 1 <= value <= MAX_ID
    assert value == (raw if isinstance(raw, int) else int(raw))


def test_parse_id_refuses_what_int_alone_would_take() -> None:
    for raw in ("٣", "+5", " 5", "5 ", "1_000", "0", str(MAX_ID + 1), "9" * 5000):
        with pytest.raises(TableError):
            parse_id(raw)
    assert parse_id("0", lo=0) == 0
    assert parse_id(str(MAX_ID)) == MAX_ID
    with pytest.raises(TableError, match="#…"):
        parse_id(10**5000)


def test_a_refused_component_answers_with_the_sentence_and_calls_no_handler() -> None:
    match = views.DecideButton.__discord_ui_compiled_template__.fullmatch("herald:act:" + "9" * 30 + ":1")
    assert match is not None
    item = asyncio.run(views.DecideButton.from_custom_id(
        None, discord.ui.Button(custom_id=match[0]), match))  # type: ignore[arg-type]
    assert isinstance(item.refusal, TableError)
    assert not hasattr(item, "game_id")  # the callback has nothing to call a handler with


def test_a_number_longer_than_the_largest_id_is_refused_even_with_leading_zeros() -> None:
    assert parse_id("0" * (MAX_ID_DIGITS - 1) + "1") == 1
    with pytest.raises(TableError, match="there is no game"):
        parse_id("0" * MAX_ID_DIGITS + "1")
