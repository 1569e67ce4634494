"""The words players read, over whole seeded games of Hegemony of Faith and Cult Wars.

Every event, prompt text, choice label and description and result reason a game produces is
checked for the slips issue 9 names: "(s)" instead of a real plural, "a" before a word that wants
"an" ("a Elder"), "1" before a plural ("1 followers") and scores written as "12.0". Computer
players pick at random among the prompts, so the games reach many rarely seen sentences.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from rules.cult_wars import ENGINE as CULT_WARS
from rules.engine import Engine
from rules.hegemony_of_faith import ENGINE as HEGEMONY
from rules.text import article

_MAYBE_PLURAL = re.compile(r"\(s\)")
_ONE_PLURAL = re.compile(r"(?<![\w.,+−-])1 ([a-z]+s)\b")
_SINGULAR_IN_S = {"loss", "pass", "class"}
_POINT_ZERO = re.compile(r"\b\d+\.0\b")
_ARTICLE = re.compile(r"\b[Aa] ([A-Za-z][\w-]*)")


def slips(text: str) -> list[str]:
    """What is wrong with ``text``, in words (empty when nothing is)."""
    out = []
    if _MAYBE_PLURAL.search(text):
        out.append("'(s)'")
    out += [f"'1 {m.group(1)}'" for m in _ONE_PLURAL.finditer(text) if m.group(1) not in _SINGULAR_IN_S]
    if _POINT_ZERO.search(text):
        out.append("a whole number written with '.0'")
    out += [f"'a {m.group(1)}'" for m in _ARTICLE.finditer(text) if article(m.group(1)).startswith("an ")]
    return out


def texts_of_game(engine: Engine[Any], players: int, seed: int) -> list[str]:
    """Every player-facing text of one seeded game of computer players."""
    rng = random.Random(seed)
    s = engine.setup(players, seed)
    out: list[str] = []
    for _ in range(20000):
        result = engine.result(s)
        if result is not None:
            return out + [result.reason]
        prompts = engine.prompts(s)
        for p in prompts:
            out.append(p.text)
            for c in p.choices:
                out += [c.label, c.description or ""]
        p = rng.choice(prompts)
        s, events = engine.apply(s, p.seat, engine.bot_action(engine.view(s, p.seat), p, rng))
        out += [e.text for e in events]
    raise AssertionError("the game did not end")


def test_the_checker_catches_each_slip() -> None:
    assert slips("P1 recruits 2 believer(s).") == ["'(s)'"]
    assert slips("P1 sacrifices a Elder (4).") == ["'a Elder'"]
    assert slips("P2 (1 followers) targets P3.") == ["'1 followers'"]
    assert slips("P1 wins with 12.0 VP.") == ["a whole number written with '.0'"]
    assert slips("P1 shares out the 1 loss; a Fool and a unit; P1 +1 followers; 1.5 VP") == []


@pytest.mark.parametrize(("engine", "counts"), [(HEGEMONY, (4, 5, 6, 7, 8)), (CULT_WARS, (3, 4))],
                         ids=["hegemony_of_faith", "cult_wars"])
def test_whole_games_say_everything_in_plain_english(engine: Engine[Any], counts: tuple[int, ...]) -> None:
    bad: dict[str, str] = {}
    for seed in range(12):
        for text in texts_of_game(engine, counts[seed % len(counts)], 7000 + seed):
            for slip in slips(text):
                bad.setdefault(slip, text)
    assert not bad, "\n".join(f"{slip}: {text}" for slip, text in bad.items())
