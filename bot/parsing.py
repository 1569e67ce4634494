"""Typed input → values: durations (deadlines, reminder leads) and ``/play`` options.

Pure — no Discord, no storage — so ``/play deadline:2d``, ``/herald settings`` and
``HERALD_DEFAULT_DEADLINE=2d`` accept exactly the same text. Every parser returns a value in its
documented range or raises :class:`~bot.errors.TableError` with one sentence naming the bad input,
and nothing else: text is bounded in size *before* any conversion (``int()`` refuses strings over
4,300 digits with a ValueError, and ``float()`` turns ``1e400`` into infinity), and numbers are
read with regular expressions and exact fractions, never ``float()``.

Durations: one or more ``<number><unit>`` terms (``30m``, ``12h``, ``2d``, ``1w``, ``1h30m``,
``1.5h``, ``2 days``) or a plain number of seconds (``600``). Decimals are accepted everywhere and
the total is rounded to the nearest second; signs, exponents, ``inf`` and ``nan`` are not numbers
here.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from rules.engine import Option

from .errors import TableError

MIN_DEADLINE = 60
MAX_DEADLINE = 14 * 24 * 3600
MIN_REMINDER_LEAD = 60
MAX_REMINDER_LEAD = MAX_DEADLINE // 2
"""A reminder more than a week ahead of a deadline is not useful."""

MAX_DURATION_TEXT = 40
"""Characters of duration text read at all; longer text is refused before it is parsed."""

UNITS: dict[str, int] = {}
for _seconds, _names in ((1, "s sec secs second seconds"), (60, "m min mins minute minutes"),
                         (3600, "h hr hrs hour hours"), (86400, "d day days"),
                         (7 * 86400, "w wk wks week weeks")):
    UNITS.update(dict.fromkeys(_names.split(), _seconds))

_NUMBER = r"[0-9]+(?:\.[0-9]+)?|\.[0-9]+"
_TERM = re.compile(rf"\s*({_NUMBER})\s*([a-z]+)\s*", re.ASCII)
_BARE = re.compile(rf"\s*({_NUMBER})\s*", re.ASCII)

MAX_OPTIONS_TEXT = 500
MAX_OPTIONS = 10
MAX_OPTION_NAME = 32
MAX_OPTION_VALUE = 64
MAX_OPTION_DIGITS = 18
"""An option's whole number has at most this many digits (it fits a 64-bit integer)."""

_OPTION_NAME = re.compile(r"[a-z][a-z0-9_]*", re.ASCII)
_INTEGER = re.compile(r"[+-]?[0-9]+", re.ASCII)
TRUE_WORDS = frozenset({"yes", "true", "on"})
FALSE_WORDS = frozenset({"no", "false", "off"})


def shown(text: str, limit: int = 30) -> str:
    """User text quoted back in a refusal: one line, no backticks, at most ``limit`` characters."""
    flat = " ".join(str(text).split()).replace("`", "'")
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def duration_words(seconds: int) -> str:
    """60 → '1 minute', 1209600 → '14 days': for range sentences."""
    for size, unit in ((86400, "day"), (3600, "hour"), (60, "minute")):
        if seconds % size == 0:
            n = seconds // size
            return f"{n} {unit}{'' if n == 1 else 's'}"
    return f"{seconds} second{'' if seconds == 1 else 's'}"


def _seconds_of(raw: str) -> Fraction | None:
    """The exact number of seconds ``raw`` spells, or None when it is not a duration."""
    text = raw.lower()
    bare = _BARE.fullmatch(text)
    if bare:
        return Fraction(bare.group(1))
    total = Fraction(0)
    pos = 0
    while pos < len(text):
        term = _TERM.match(text, pos)
        if term is None or term.group(2) not in UNITS:
            return None
        total += Fraction(term.group(1)) * UNITS[term.group(2)]
        pos = term.end()
    return total if pos else None


def parse_duration(text: str | int, *, what: str = "deadline", lo: int = MIN_DEADLINE,
                   hi: int = MAX_DEADLINE) -> int:
    """``'90m'``, ``'1.5h'``, ``'2d'``, ``'1h30m'``, ``'600'`` or a whole number of seconds →
    seconds within ``lo``–``hi``. ``what`` names the value in the refusal."""
    example = "write it like `30m`, `12h` or `2d`"
    out_of_range = (f"a {what} of `{shown(str(text))}` is out of range: it must be between "
                    f"{duration_words(lo)} and {duration_words(hi)}.")
    if isinstance(text, bool) or not isinstance(text, (int, str)):
        raise TableError(f"a {what} must be a time like `30m`, `12h` or `2d`.")
    if isinstance(text, int):
        if not lo <= text <= hi:
            raise TableError(out_of_range)
        return text
    raw = text.strip()
    if not raw:
        raise TableError(f"the {what} is empty; {example}.")
    if len(raw) > MAX_DURATION_TEXT:
        raise TableError(f"`{shown(raw)}` is too long to be a {what}; {example}.")
    negative = raw[0] == "-" and len(raw) > 1
    exact = _seconds_of(raw[1:] if negative else raw)
    if exact is None:
        raise TableError(f"`{shown(raw)}` is not a {what}; {example}.")
    seconds = math.floor(exact + Fraction(1, 2))
    if negative or not lo <= seconds <= hi:
        raise TableError(out_of_range)
    return seconds


def parse_deadline(text: str | int | None) -> int | None:
    """A deadline per decision in seconds (1 minute – 14 days); None or blank text means "not
    given" and stays None."""
    if text is None or (isinstance(text, str) and not text.strip()):
        return None
    return parse_duration(text)


def parse_reminder_lead(text: str | int) -> int:
    """How long before a deadline the reminder goes out, in seconds (1 minute – 7 days)."""
    return parse_duration(text, what="reminder lead", lo=MIN_REMINDER_LEAD, hi=MAX_REMINDER_LEAD)


def format_duration(seconds: float) -> str:
    """Seconds → the shortest exact spelling parse_duration reads back: '2d', '90m', '45s'."""
    if not math.isfinite(seconds):
        return "—"
    seconds = int(seconds)
    if seconds % 86400 == 0:
        return f"{seconds // 86400}d"
    if seconds % 3600 == 0:
        return f"{seconds // 3600}h"
    if seconds % 60 == 0:
        return f"{seconds // 60}m"
    return f"{seconds}s"


def _option_value(name: str, value: str) -> Any:
    low = value.lower()
    if low in TRUE_WORDS:
        return True
    if low in FALSE_WORDS:
        return False
    if _INTEGER.fullmatch(value):
        if len(value.lstrip("+-")) > MAX_OPTION_DIGITS:
            raise TableError(f"option `{name}` has a number that is too large: at most "
                             f"{MAX_OPTION_DIGITS} digits.")
        return int(value)
    return value


def parse_options(text: str | None) -> dict[str, Any]:
    """``'first_player=2 fast=yes'`` → ``{'first_player': 2, 'fast': True}``.

    Names are lower-cased and look like ``max_rounds``; values ``yes``/``true``/``on`` and
    ``no``/``false``/``off`` are booleans, whole numbers (at most 18 digits) are integers and
    anything else stays text for the game to judge (an unknown name is the session's refusal).
    Commas or spaces separate options."""
    if text is None or not text.strip():
        return {}
    if len(text) > MAX_OPTIONS_TEXT:
        raise TableError(f"the options are too long: at most {MAX_OPTIONS_TEXT} characters.")
    parts = text.replace(",", " ").split()
    if len(parts) > MAX_OPTIONS:
        raise TableError(f"that is {len(parts)} options; a game takes at most {MAX_OPTIONS}.")
    out: dict[str, Any] = {}
    for part in parts:
        name, eq, value = part.partition("=")
        if not eq or not name:
            raise TableError(f"option `{shown(part)}` should look like `name=value`.")
        name = name.lower()
        if not _OPTION_NAME.fullmatch(name) or len(name) > MAX_OPTION_NAME:
            raise TableError(f"`{shown(name)}` is not an option name; names look like "
                             "`first_player` (see `/rules`).")
        if not value:
            raise TableError(f"option `{name}` needs a value, e.g. `{name}=2`.")
        if len(value) > MAX_OPTION_VALUE:
            raise TableError(f"the value of option `{name}` is too long: at most "
                             f"{MAX_OPTION_VALUE} characters.")
        if name in out:
            raise TableError(f"option `{name}` is given twice; give it once.")
        out[name] = _option_value(name, value)
    return out


SUGGESTIONS = 25
"""Discord shows at most 25 suggestions."""
SUGGESTION_TEXT = 100
"""A suggestion's text, and the value it puts in the box, are at most 100 characters."""


def suggest_options(table: Sequence[Option], typed: str) -> list[tuple[str, str]]:
    """What ``/play options:`` suggests while a player types: (what the list shows, what choosing
    it puts in the box). What they typed, kept as it is, then for each option of ``table`` not
    given yet whose name starts with the word being typed: the text with that word replaced by
    ``name=value`` (the default, or an example), shown with the values it takes and what it
    does."""
    parts = typed.replace(",", " ").split()
    word = parts.pop() if parts and typed[-1:] not in (" ", ",") else ""
    name, eq, value = word.partition("=")
    if eq and value:  # (a whole name=value: kept, and the next option suggested after it)
        parts.append(word)
        name = ""
    given = {part.partition("=")[0].lower() for part in parts}
    kept = " ".join(parts)
    out = [(typed.strip(), typed.strip())] if 0 < len(typed.strip()) <= SUGGESTION_TEXT else []
    for option in table:
        if option.key in given or not option.key.startswith(name.lower()):
            continue
        pair = f"{option.key}={option.example()}"
        text = f"{kept} {pair}".strip()
        if len(text) <= SUGGESTION_TEXT and text != typed.strip():
            out.append((_clipped(f"{pair} ({option.span()}) — {option.help}"), text))
    return out[:SUGGESTIONS]


def _clipped(text: str) -> str:
    return text if len(text) <= SUGGESTION_TEXT else text[: SUGGESTION_TEXT - 1] + "…"


__all__ = ["MAX_DEADLINE", "MAX_REMINDER_LEAD", "MIN_DEADLINE", "MIN_REMINDER_LEAD", "UNITS",
           "duration_words", "format_duration", "parse_deadline", "parse_duration", "parse_options",
           "parse_reminder_lead", "shown", "suggest_options"]


MAX_ID = 2**63 - 1
"""The largest number a stored id (a game, a table, a version, a prompt instance) can be: both
databases keep them as signed 64-bit integers."""

MAX_ID_DIGITS = len(str(MAX_ID))


def parse_id(text: str | int, *, what: str = "game", lo: int = 1) -> int:
    """A number claimed by a custom_id, a command option or a web route, checked where it is read:
    ``lo`` to :data:`MAX_ID`, or :class:`TableError` with the same sentence as for a number no game
    has (a forged id learns nothing). Text is bounded before it is converted."""
    if isinstance(text, int) and not isinstance(text, bool):
        value: int | None = text
    else:
        raw = str(text)
        ok = raw.isascii() and raw.isdigit() and len(raw) <= MAX_ID_DIGITS
        value = int(raw) if ok else None
    if value is None or not lo <= value <= MAX_ID:
        raise TableError(f"there is no {what} #{shown_number(text)}.")
    return value


def shown_number(value: str | int) -> str:
    """A claimed number quoted back: at most 24 characters (``str`` of a huge int is not even
    attempted: Python refuses to print one of over 4,300 digits)."""
    if isinstance(value, int) and value.bit_length() > 14000:
        return "…"
    return shown(str(value), 24)
