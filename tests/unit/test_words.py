"""The words players read, in every game: the engines' and cogs' sources, and a whole seeded game
of each of the five games as a player meets it — every log line (public and private), prompt,
choice label and description, what happens at a deadline, the result, and the texts the cogs
send without Discord (status lines, hands in words, boards' and hands' alt text).

What is looked for (issue 26): "(s)" and "1 <plural>" (every count goes through
``rules.text.count``; a hand-rolled ``"s" if n != 1 else ""`` in the sources is refused too),
"its" for a player, doubled words, placeholders left in ("{seat}", "None"), "2-2 players",
abbreviations a newcomer must decode ("Att", "26f", "mob"), numbers no one says ("27.2°, 4.99"),
game words used without a word of what they do ("mills", "untaps") and card ids ("AC05").
Every scoring and combat line that gives a total also gives its parts, named, and they add up.
"""

from __future__ import annotations

import ast
import random
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

from bot.gameui import get_ui
from rules import registry

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = {"hegemony_of_faith": 4, "flick_of_faith": 3, "cult_wars": 4, "petition": 3,
           "alternate_histories": 2}
NAMES = ["Ann", "Bob", "Zoë", "Dee", "Eve"]
SEED = 5

_PLAYER = r"(?:\bP[1-8]|Ann|Bob|Zoë|Dee|Eve)\b"
_PLAYER_THINGS = (r"turn|hand|orders|insignia|beads|followers|cult|deck|cards|next|own|sect|"
                  r"believers|favour|pillars|temples|prophets|units|attack|defence|sacrifice|VP|"
                  r"seat|god|score|graveyard|target")
_SINGULAR_IN_S = {"loss", "pass", "class", "bonus", "status", "its", "this", "was", "is", "has",
                  "does", "plus", "minus", "us"}
SLIPS: dict[str, re.Pattern[str]] = {
    "'(s)' for a plural": re.compile(r"\w\(s\)"),
    "'1' before a plural": re.compile(r"(?<![\w.,+−-])1 (?:[a-z]+ )?([a-z]+s)\b"),
    "a doubled word": re.compile(r"\b([A-Za-z]{2,}) \1\b", re.IGNORECASE),
    "'its' for a player": re.compile(_PLAYER + r"[^.;:!?()]*\bits (?:" + _PLAYER_THINGS + r")\b"),
    "a placeholder left in": re.compile(r"\{[a-z_]+\}|\bNone\b|\bseat \d\b"),
    "a range of one number": re.compile(r"\b(\d+)\s*[–-]\s*\1 players"),
    "an abbreviation": re.compile(r"\b(?:Att|Def|Sac|Bre|mob)\b|\b\d+f\b|\b\d+ VP/"),
    "a number no one says": re.compile(r"\d+\.\d+°|\b\d+\.\d{2,}\b"),
    "a card id": re.compile(r"\b[A-Z]{2}\d{2}\b|\b(?:act|bel|sk)#\d+"),
    "'has only' as many as needed": re.compile(r"\b(\d+) [a-z]+ but (?:has|have) only \1\b"),
}
"""Each slip a player's text must not have, by what it is."""
EXPLAINED = {
    re.compile(r"\bmill(?:s|ed|ing)?\b"): re.compile(r"graveyard"),
    re.compile(r"\buntaps?\b"): re.compile(r"ready again|tapped cards"),
}
"""Game words a line may use only while saying what they do (a card's printed text, which the
rules page and the card list explain, is exempt)."""


def slips(text: str) -> list[str]:
    """What is wrong with ``text`` (one line a player reads), in words; empty when nothing is."""
    out = []
    for what, pattern in SLIPS.items():
        for m in pattern.finditer(text):
            if what == "'1' before a plural" and m.group(1) in _SINGULAR_IN_S:
                continue
            if what == "a doubled word" and m.group(1).lower() in ("that", "had"):
                continue
            out.append(f"{what}: {m.group(0)!r}")
    if not text.lstrip().startswith("• **"):  # (a card's line in a hand: its printed text)
        for word, explanation in EXPLAINED.items():
            if word.search(text) and not explanation.search(text):
                out.append(f"{word.search(text).group(0)!r} unexplained")  # type: ignore[union-attr]
    return out


# ------------------------------------------------------------------------------ the sources

def _sources() -> list[Path]:
    return sorted(p for p in [*ROOT.glob("rules/**/*.py"), *ROOT.glob("cogs/**/*.py")]
                  if "__pycache__" not in p.parts)


def _docstrings(tree: ast.AST) -> set[int]:
    return {id(node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)}


_IN_SOURCE = {
    "'(s)' for a plural": SLIPS["'(s)' for a plural"],
    "a range of one number": SLIPS["a range of one number"],
    "an abbreviation": re.compile(r"\b(?:Att|Def|Sac|Bre|mob)\b|\d+ VP/"),
}
"""The slips a string in the sources shows by itself (a format spec's ".1f" is not "26f")."""


def source_slips(source: str) -> list[str]:
    """Slips in a module's player text: hand-rolled plurals, "(s)", "its" after a player's name in
    an f-string, abbreviations and ranges of one number in its strings (docstrings left out)."""
    tree = ast.parse(source)
    docs = _docstrings(tree)
    out: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.IfExp):
            branches = (node.body, node.orelse)
            if all(isinstance(b, ast.Constant) and b.value in ("s", "es", "ies", "") for b in branches) \
                    and node.body.value != node.orelse.value:  # type: ignore[attr-defined]
                out.append(f"line {node.lineno}: a hand-rolled plural (use rules.text.count)")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            for what, pattern in _IN_SOURCE.items():
                if pattern.search(node.value):
                    out.append(f"line {node.lineno}: {what}: {node.value[:60]!r}")
        elif isinstance(node, ast.JoinedStr):
            player = False
            for part in node.values:
                if isinstance(part, ast.FormattedValue):
                    code = ast.get_source_segment(source, part.value) or ""
                    player = player or bool(re.search(r"seat_name|who\[|names\[", code))
                elif player and isinstance(part, ast.Constant) and \
                        re.search(r"\bits (?:" + _PLAYER_THINGS + r")\b", str(part.value)):
                    out.append(f"line {node.lineno}: 'its' for a player: {str(part.value)[:60]!r}")
    return out


@pytest.mark.parametrize("path", _sources(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_source_writes_a_slip_into_player_text(path: Path) -> None:
    assert source_slips(path.read_text(encoding="utf-8")) == []


# ------------------------------------------------------------------------- a game as played

@cache
def texts_of_game(game: str) -> tuple[tuple[str, str], ...]:
    """(where, text) for everything a player reads in one seeded game of computer players."""
    engine = registry.get(game)
    ui = get_ui(game)
    players = PLAYERS[game]
    names = NAMES[:players]
    state = engine.setup(players, SEED, {})
    rng = random.Random(SEED)
    out: list[tuple[str, str]] = []
    for step in range(5000):
        result = engine.result(state)
        if result is not None:
            out.append(("result", result.reason))
            break
        prompts = engine.prompts(state)
        for p in prompts:
            out += [("prompt", p.text), ("at a deadline", p.timeout_note)]
            for c in p.choices:
                out += [("choice", c.label), ("choice", c.description or ""), ("choice", c.group or "")]
            out.append(("prompt", str(p.params.get("purpose") or "")))
        p = rng.choice(prompts)
        state, events = engine.apply(state, p.seat, engine.bot_action(engine.view(state, p.seat), p, rng))
        out += [("log" if e.to is None else "private log", e.text) for e in events]
        if step % 5 == 0 or engine.result(state) is not None:
            public = engine.view(state, None)
            out += [("status", ui.status_text(public)), ("board alt", ui.board_alt(public, names=names))]
            for k in range(players):
                mine = engine.view(state, k)
                out += [("hand", ui.hand_text(mine)), ("hand alt", ui.hand_alt(mine, names=names))]
    else:
        raise AssertionError(f"{game}: the game did not end")
    return tuple((where, line) for where, text in out for line in text.splitlines() if line.strip())


@pytest.mark.parametrize("game", sorted(PLAYERS))
def test_a_whole_game_reads_without_a_slip(game: str) -> None:
    found = sorted({f"{where}: {text!r}: {', '.join(slips(text))}"
                    for where, text in texts_of_game(game) if slips(text)})
    assert found == [], "\n".join(found[:20])


def test_the_checkers_catch_each_slip() -> None:
    """Each slip the issue names, as it was written before, is caught (so a clean game means
    something)."""
    for bad in ("lost all 1 sacrificial followers", "you have 1 prophets", "3 prophet(s) blown away",
                "P4 surrenders its insignia", "Bob takes back its own orders", "the the board",
                "{seat} wins", "2–2 players", "Att 3, Def 4", "P1 0 VP/12f", "215 power · 1 mob",
                "resolved 27.2°, 4.99", "Turn 3: P2 untaps.", "P1 mills Tiger I (a direct hit).",
                "You draw Hidden Altar (AC10)", "must burn 5 cards but has only 5"):
        assert slips(bad), bad
    for good in ("1 follower", "3 followers", "P4 surrenders their insignia", "Ann's turn",
                 "aimed at 29°, power 4.7", "P1 mills Tiger I: off the top of their deck into the "
                 "graveyard.", "the Doughboys' value 45", "P2 +3 (2 for presence on 2 islands + 1 bonus)"):
        assert not slips(good), (good, slips(good))
    assert source_slips("x = f\"{n} card{'s' if n != 1 else ''}\"\n")
    assert source_slips("x = f\"{seat_name(k)} takes back its own orders\"\n")
    assert not source_slips("x = f\"{seat_name(k)} reveals a card: its condition is broken\"\n")
    assert not source_slips('"""A (s) docstring is not player text."""\n')


# ---------------------------------------------------------------------- totals taken apart

def _lines(game: str, start: str) -> Iterator[str]:
    for _, text in texts_of_game(game):
        if text.startswith(start):
            yield text


def test_a_worship_lines_parts_add_up_to_its_points() -> None:
    """Flick of Faith: "P1 +8 (3 for presence on 3 islands + 4 for dominating 2 islands + 1
    bonus)": each part is named and the parts make the points."""
    seen = 0
    for line in _lines("flick_of_faith", "Worship of Generation"):
        for points, parts in re.findall(r"P\d \+(\d+)(?: \(([^)]*)\))?", line):
            named = re.findall(r"(\d+) (?:for presence on|for dominating|bonus)", parts)
            assert sum(map(int, named)) == int(points), line
            assert len(named) == len(parts.split(" + ")) if parts else int(points) == 0, line
            seen += 1
    assert seen


def test_a_cult_wars_combat_line_adds_up_its_attack() -> None:
    """Cult Wars' combat box: the attackers' parts add up to the attack it compares."""
    from cogs.cult_wars.render import _combat_line
    from rules.cult_wars.views import CombatView

    combat: CombatView = {"defender": 1, "attackers": [[0, 0, 5], [2, 0, 3]], "attack": 8, "defence": 6,
              "outcome": "attack", "attacker_losses": [], "defender_losses": {"1": 2},
              "vp": [[0, 1], [2, 1]]}
    line = _combat_line(combat, ["Ann", "Bob", "Zoë"])
    assert line.startswith("At Bob: attack Ann 5 + Zoë 3 = 8 against Bob's defence 6")
    assert "Bob loses 2 followers" in line


def test_an_alternate_histories_combat_adds_up_on_every_board_of_a_game() -> None:
    """Every last combat a game shows: the power its tile showed plus the top card's named value
    make its total."""
    from cogs.alternate_histories.render import _combat_lines
    from rules.alternate_histories.views import read_view

    engine = registry.get("alternate_histories")
    state = engine.setup(2, SEED, {})
    rng = random.Random(SEED)
    totals = 0
    while engine.result(state) is None:
        p = engine.prompts(state)[0]
        state, _ = engine.apply(state, p.seat, engine.bot_action(engine.view(state, p.seat), p, rng))
        for line in _combat_lines(read_view(engine.view(state, None)), ["Ann", "Bob"]):
            for power, value, total in re.findall(
                    r"(\d+) power \+ (\d+)(?:, the value of [^=]+ on top of the deck| \(no card left "
                    r"on top of the deck\)) = (\d+)", line):
                assert int(power) + int(value) == int(total), line
                totals += 1
    assert totals


@pytest.mark.parametrize("game", sorted(PLAYERS))
def test_images_drawn_with_names_never_show_a_seat_number(game: str) -> None:
    """Boards and hands drawn with the players' names name them everywhere: no "target P3" left
    from an engine's line (the Cult Wars hand once drew its orders so)."""
    from bot.render.kit import record_text

    engine = registry.get(game)
    ui = get_ui(game)
    players = PLAYERS[game]
    names = NAMES[:players]
    state = engine.setup(players, SEED, {})
    rng = random.Random(SEED)
    seen: list[str] = []
    step = 0
    while engine.result(state) is None:
        p = engine.prompts(state)[0]
        state, _ = engine.apply(state, p.seat, engine.bot_action(engine.view(state, p.seat), p, rng))
        step += 1
        if step % 9 and engine.result(state) is None:
            continue
        with record_text() as drawn:
            ui.board_image(engine.view(state, None), [], names=names)
            for k in range(players):
                ui.hand_image(engine.view(state, k), names=names)
        seen += [text for text, _ in drawn]
    assert seen
    leaks = sorted({t for t in seen if re.search(r"\bP[1-8]\b", t)})
    assert leaks == []
