"""Typed input never crashes: every parser of text a user (or an operator) types returns a value
in its range or refuses with one sentence (``TableError``; ``ConfigError`` for the environment).

The parsers: durations (``/play deadline``, ``/herald settings deadline`` and ``reminder``,
``HERALD_DEFAULT_DEADLINE``, ``HERALD_REMINDER_LEAD``), ``/play options``, the rest of the
environment (``Config.from_env``), the command line's whole numbers, the Flick of Faith angle and
power fields, the Hegemony of Faith line-up and the Cult Wars draft code.
"""

from __future__ import annotations

import argparse
import math
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from bot.__main__ import whole
from bot.config import Config, ConfigError
from bot.errors import TableError
from bot.parsing import (
    MAX_DEADLINE,
    MAX_OPTION_DIGITS,
    MAX_OPTIONS,
    MAX_REMINDER_LEAD,
    MIN_DEADLINE,
    MIN_REMINDER_LEAD,
    format_duration,
    parse_deadline,
    parse_duration,
    parse_options,
    parse_reminder_lead,
)
from cogs.cult_wars.form import Draft
from cogs.flick_of_faith.cog import parse_number
from cogs.hegemony_of_faith.cog import parse_order

# text a user could type: anything, plus text built from the pieces the parsers look for
PIECES = st.sampled_from(["1", "5", "60", "1.5", ".5", "-", "+", "e", "E400", "inf", "nan", "h",
                          "m", "s", "d", "w", " ", "hours", "min", "=", ",", "x", "yes", "0x1",
                          "٣", "²", "_", "`", "9" * 50, "\x00", "\u2212", "°", "z3", "fanatic"])
TYPED = st.one_of(st.text(max_size=60), st.lists(PIECES, max_size=12).map("".join),
                  st.integers(min_value=0, max_value=10**500).map(str))
HUGE = ["inf", "-inf", "nan", "1e400", "9" * 400, "9" * 4301 + "m", "-5m", "1.5h", "2w", "3w",
        "--5", "1h30m", "", "   ", "0", "59", "60", "٣m", "²h", "1_000", "0x10", "1e3"]


def refuses(parse: Any, *args: Any, **kwargs: Any) -> Any:
    """The parser's value, or None when it refused with a TableError (anything else fails)."""
    try:
        return parse(*args, **kwargs)
    except TableError as exc:
        text = str(exc)
        assert text and "\n" not in text and len(text) < 300, text
        return None


# ------------------------------------------------------------------------------ durations

@settings(max_examples=300, deadline=None)
@given(TYPED)
@example("inf")
@example("1e400")
@example("nan")
@example("9" * 400)
@example("-5m")
@example("9" * 4301)
@example("2w")
@example("1.5h")
@example("1" + "0" * 39)
def test_a_deadline_is_in_range_or_refused(text: str) -> None:
    value = refuses(parse_deadline, text)
    assert value is None or (type(value) is int and MIN_DEADLINE <= value <= MAX_DEADLINE)


@settings(max_examples=200, deadline=None)
@given(st.one_of(TYPED, st.integers(min_value=-10**30, max_value=10**30)))
def test_a_reminder_lead_is_in_range_or_refused(text: str | int) -> None:
    value = refuses(parse_reminder_lead, text)
    assert value is None or (type(value) is int and MIN_REMINDER_LEAD <= value <= MAX_REMINDER_LEAD)


@given(st.integers(min_value=MIN_DEADLINE, max_value=MAX_DEADLINE))
def test_every_formatted_duration_reads_back_as_itself(seconds: int) -> None:
    assert parse_duration(format_duration(seconds)) == seconds


@pytest.mark.parametrize("text, seconds", [
    ("90m", 5400), ("1.5h", 5400), ("1h30m", 5400), ("1h 30m", 5400), ("90 minutes", 5400),
    ("2d", 172800), ("2 days", 172800), ("1w", 604800), ("2w", 1209600), ("600", 600),
    ("600.4", 600), (" 12H ", 43200), ("0.5d", 43200), (".5h", 1800), (3600, 3600)])
def test_durations_are_read_exactly(text: str | int, seconds: int) -> None:
    assert parse_duration(text) == seconds


@pytest.mark.parametrize("text", ["inf", "-inf", "nan", "1e400", "9" * 400, "9" * 4301, "1e3",
                                  "0x10", "1_000", "٣m", "²h", "h", "1 2h", "1hh", "5 parsecs"])
def test_text_that_is_not_a_duration_is_refused_by_name(text: str) -> None:
    with pytest.raises(TableError, match="is not a deadline|too long to be a deadline"):
        parse_deadline(text)


@pytest.mark.parametrize("text", ["-5m", "-1d", "3w", "15d", "59", "30s", "0"])
def test_durations_out_of_range_say_the_range(text: str) -> None:
    with pytest.raises(TableError, match="out of range: it must be between 1 minute and 14 days"):
        parse_deadline(text)


def test_blank_means_no_deadline_but_not_no_reminder() -> None:
    assert parse_deadline(None) is None and parse_deadline("  ") is None
    with pytest.raises(TableError, match="reminder lead is empty"):
        parse_reminder_lead("  ")
    with pytest.raises(TableError, match="between 1 minute and 7 days"):
        parse_reminder_lead("8d")


def test_bools_are_not_durations() -> None:
    with pytest.raises(TableError):
        parse_duration(True)


# -------------------------------------------------------------------------------- options

OPTION_TEXT = st.one_of(TYPED, st.lists(st.tuples(st.sampled_from(["x", "first_player", "A", "", "1x"]),
                                                  st.sampled_from(["=", "", "=="]),
                                                  st.one_of(PIECES, st.text(max_size=8))),
                                        max_size=12)
                        .map(lambda parts: " ".join(k + e + v for k, e, v in parts)))


@settings(max_examples=300, deadline=None)
@given(OPTION_TEXT)
@example("x=--5")
@example("x=" + "9" * 4301)
@example("x=²")
@example("=5")
@example("x=")
def test_options_are_names_to_plain_values_or_refused(text: str) -> None:
    value = refuses(parse_options, text)
    if value is None:
        return
    assert isinstance(value, dict) and len(value) <= MAX_OPTIONS
    for name, v in value.items():
        assert name.isidentifier() and name == name.lower()
        assert type(v) in (bool, int, str)
        if type(v) is int:
            assert abs(v) < 10**MAX_OPTION_DIGITS
        if type(v) is str:
            assert v and not any(ch.isspace() for ch in v)


@pytest.mark.parametrize("text, expected", [
    ("first_player=2 fast=yes", {"first_player": 2, "fast": True}),
    ("First_Player=-1, max_rounds=+30 slow=off", {"first_player": -1, "max_rounds": 30, "slow": False}),
    ("x=--5", {"x": "--5"}), ("x=P3", {"x": "P3"}), ("x=٣", {"x": "٣"}), ("x=1.5", {"x": "1.5"}),
    (None, {}), ("  ", {})])
def test_options_are_read(text: str | None, expected: dict[str, Any]) -> None:
    assert parse_options(text) == expected


@pytest.mark.parametrize("text, match", [
    ("x=" + "9" * 4301, "too long"), ("x=" + "9" * 40, "too large"), ("fast", "name=value"),
    ("=5", "name=value"), ("x=", "needs a value"), ("x=1 X=2", "given twice"),
    ("1x=2", "not an option name"), (" ".join(f"o{i}=1" for i in range(11)), "at most 10"),
    ("x=1 " * 200, "too long")])
def test_bad_options_are_refused_with_a_sentence(text: str, match: str) -> None:
    with pytest.raises(TableError, match=match):
        parse_options(text)


# ------------------------------------------------------------------- the game cogs' fields

@settings(max_examples=200, deadline=None)
@given(TYPED)
@example("1e400")
@example("nan")
@example("-inf")
@example("9" * 4301)
@example("−28.5°")
def test_a_flick_number_is_finite_or_refused(text: str) -> None:
    value = refuses(parse_number, text, "angle", -180.0, 180.0)
    assert value is None or (isinstance(value, float) and math.isfinite(value))


@settings(max_examples=200, deadline=None)
@given(TYPED)
@example("5 3, 4-1")
@example("²")
@example("z9")
@example("1" * 4301)
def test_a_line_up_is_believers_or_refused(text: str) -> None:
    value = refuses(parse_order, text)
    if value is not None:
        assert all(v in (1, 2, 3, 4, 5) or v in ("z1", "z2", "z3", "z4", "z5") for v in value)


@settings(max_examples=200, deadline=None)
@given(st.one_of(TYPED, TYPED.map(lambda t: "draft T=" + t)))
@example("draft T=" + "1" * 4301)
@example("draft T=1;C=a>²;L=1..2")
def test_a_draft_code_is_read_or_ignored(text: str) -> None:
    draft = Draft.from_code(text)
    assert draft is None or isinstance(draft, Draft)


# ------------------------------------------------------------------ environment, command line

@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["HERALD_DEFAULT_DEADLINE", "HERALD_REMINDER_LEAD", "HERALD_DEV_GUILD",
                        "HERALD_LOG_LEVEL", "HERALD_DOCS_URL", "DISCORD_TOKEN", "HERALD_DB"]), TYPED)
@example("HERALD_DEFAULT_DEADLINE", "1e400")
@example("HERALD_DEV_GUILD", "9" * 4301)
def test_the_environment_gives_a_config_or_one_sentence(name: str, text: str) -> None:
    try:
        config = Config.from_env({name: text})
    except ConfigError as exc:
        assert name in str(exc) and "\n" not in str(exc)
        return
    assert MIN_DEADLINE <= config.default_deadline <= MAX_DEADLINE
    assert MIN_REMINDER_LEAD <= config.reminder_lead <= MAX_REMINDER_LEAD
    assert config.dev_guild is None or 0 < config.dev_guild < 2**63
    assert config.token is None or config.token == config.token.strip() != ""
    assert config.log_level in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


@settings(max_examples=200, deadline=None)
@given(TYPED)
@example("10" + "0" * 30)
@example("-1")
@example("9" * 4301)
def test_a_command_line_number_is_in_range_or_refused(text: str) -> None:
    try:
        value = whole("--seed", 0, 2**63 - 1)(text)
    except argparse.ArgumentTypeError:
        return
    assert 0 <= value < 2**63
