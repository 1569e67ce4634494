"""Small English helpers for every text players read: counts, articles, numbers, ranks.

Engines and the platform both write sentences about counted things ("1 believer", "3 Elders"),
cards ("an Elder") and scores; doing it in one place keeps every game free of "(s)", of "a Elder"
and of "12.0 points". Pure standard library, so engines may import it (``rules`` must not import
the bot). Irregular words are few and listed here rather than guessed at each call site.
"""

from __future__ import annotations

import re

IRREGULAR_PLURALS: dict[str, str] = {
    "person": "people", "child": "children", "die": "dice", "man": "men", "woman": "women",
    "foot": "feet", "tooth": "teeth", "mouse": "mice", "sheep": "sheep", "deer": "deer",
    "fish": "fish", "series": "series", "species": "species", "is": "are", "was": "were",
    "has": "have", "does": "do",
}
"""Plurals no rule gives (lower case; the case of the word asked for is kept)."""

_AN_EXCEPTIONS = ("uni", "use", "usu", "uti", "eu", "one", "once", "ewe", "ur")
"""Words starting with a vowel letter but a consonant sound: "a unit", "a one-off"."""
_AN_SILENT_H = ("hour", "honest", "honour", "honor", "heir")
"""Words starting with a silent h: "an hour"."""


def _match_case(model: str, word: str) -> str:
    if model.isupper() and len(model) > 1:
        return word.upper()
    if model[:1].isupper():
        return word[:1].upper() + word[1:]
    return word


def plural(word: str) -> str:
    """The plural of ``word``: "believer" → "believers", "Missionary" → "Missionaries",
    "Church" → "Churches"; only the last word of a phrase changes ("Holy Relic" → "Holy Relics")."""
    head, sep, last = word.rpartition(" ")
    if not last:
        return word
    lower = last.lower()
    if lower in IRREGULAR_PLURALS:
        out = _match_case(last, IRREGULAR_PLURALS[lower])
    elif re.search(r"[^aeiou]y$", lower):
        out = last[:-1] + "ies"
    elif re.search(r"(s|x|z|ch|sh)$", lower):
        out = last + "es"
    else:
        out = last + "s"
    return head + sep + out


def count(n: int | float, word: str, plural_form: str | None = None) -> str:
    """"1 believer", "0 believers", "3 Missionaries" (the number as :func:`number` writes it)."""
    one = number(n) in ("1", "-1")
    return f"{number(n)} {word if one else (plural_form or plural(word))}"


def count_range(low: int, high: int, word: str, plural_form: str | None = None) -> str:
    """"2–6 players", or "2 players" when both ends are one number (never "2–2 players")."""
    if low == high:
        return count(low, word, plural_form)
    return f"{number(low)}–{number(high)} {plural_form or plural(word)}"


def article(word: str) -> str:
    """"a Fool", "an Elder", "an hour", "a unit": the indefinite article and the word."""
    lower = word.lower()
    if lower.startswith(_AN_SILENT_H):
        return f"an {word}"
    if lower[:1] in "aeiou" and not lower.startswith(_AN_EXCEPTIONS):
        return f"an {word}"
    return f"a {word}"


def number(x: int | float) -> str:
    """A score or count as people write it: whole numbers without ".0", others to two places at
    most ("12", "3.5", "0.33")."""
    if isinstance(x, bool):
        return str(int(x))
    if isinstance(x, int):
        return str(x)
    if x != x or x in (float("inf"), float("-inf")):  # NaN or infinite: say it as it is
        return str(x)
    if float(x).is_integer():
        return str(int(x))
    return f"{x:.2f}".rstrip("0").rstrip(".")


def ordinal(n: int) -> str:
    """"1st", "2nd", "3rd", "4th", "11th", "22nd"."""
    if 10 <= n % 100 <= 20:
        suffix = "th"
    else:
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def listing(items: list[str], conjunction: str = "and") -> str:
    """"A", "A and B", "A, B and C" (no Oxford comma), "" for none."""
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + f" {conjunction} " + items[-1]


_THIRD_PERSON_IRREGULAR = {"are": "is", "have": "has", "do": "does", "go": "goes", "can": "can",
                           "may": "may", "must": "must", "will": "will"}


def third_person(verb: str) -> str:
    """The verb after "he/she/P3": "steal" → "steals", "pass" → "passes", "carry" → "carries"."""
    lower = verb.lower()
    if lower in _THIRD_PERSON_IRREGULAR:
        return _match_case(verb, _THIRD_PERSON_IRREGULAR[lower])
    if re.search(r"[^aeiou]y$", lower):
        return verb[:-1] + "ies"
    if re.search(r"(s|x|z|ch|sh|o)$", lower):
        return verb + "es"
    return verb + "s"


def about(text: str, who: str) -> str:
    """Text written to a player ("your turn ends", "you steal from …", "a flick is made for you")
    retold about them, for everyone to read: "P3's turn ends", "P3 steals from …", "… for P3"."""
    text = re.sub(r"\b([Yy])our\b", lambda m: f"{who}'s", text)
    text = re.sub(r"\b(for|to|from|with|against|by|at) you\b", lambda m: f"{m.group(1)} {who}", text)
    text = re.sub(r"\b[Yy]ou (\w+)", lambda m: f"{who} {third_person(m.group(1))}", text)
    return re.sub(r"\b[Yy]ou\b", who, text)
