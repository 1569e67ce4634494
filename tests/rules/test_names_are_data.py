"""Cards, skills, gods and laws are data in every game: no rule file branches on one by its key or
its name. Each game's data files name them (``key``, ``id`` or ``name`` fields); a comparison,
membership test or ``case`` pattern against one of those words in a rule file is a card's rule
written into the code instead of the game's table of rules."""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

import pytest

import rules

GAMES = ("hegemony_of_faith", "flick_of_faith", "cult_wars", "petition", "alternate_histories")
ROOT = Path(rules.__file__).parent


def named(data: Any, out: set[str]) -> set[str]:
    """Every key, id and name in a game's data (words of three letters or more)."""
    if isinstance(data, dict):
        for field, value in data.items():
            if field in ("key", "id", "name") and isinstance(value, str) and len(value) > 2:
                out.add(value)
            named(value, out)
    elif isinstance(data, list):
        for item in data:
            named(item, out)
    return out


def literals(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return [word for item in node.elts for word in literals(item)]
    return []


def branches_on_names(game: str) -> list[tuple[str, int, str]]:
    folder = ROOT / game
    words: set[str] = set()
    for data in folder.glob("*.json"):
        named(json.loads(data.read_text("utf-8")), words)
    found = []
    for source in sorted(folder.glob("*.py")):
        for node in ast.walk(ast.parse(source.read_text("utf-8"))):
            operands: list[ast.AST] = []
            if isinstance(node, ast.Compare):
                operands = [node.left, *node.comparators]
            elif isinstance(node, ast.MatchValue):
                operands = [node.value]
            found += [(source.name, getattr(node, "lineno", 0), word)
                      for operand in operands for word in literals(operand) if word in words]
    return found


@pytest.mark.parametrize("game", GAMES)
def test_no_rule_file_branches_on_a_card_skill_god_or_law_name(game: str) -> None:
    assert (ROOT / game).is_dir()
    assert branches_on_names(game) == []


def test_the_scan_finds_a_name_written_into_a_rule(tmp_path: Path) -> None:
    """(The scan itself: a rule written as a name comparison is found.)"""
    game = tmp_path / "toy"
    game.mkdir()
    (game / "cards.json").write_text(json.dumps([{"key": "fireball", "name": "Fireball"}]))
    (game / "engine.py").write_text("def hit(card):\n    return 3 if card == 'fireball' else 1\n")
    global ROOT
    kept, ROOT = ROOT, tmp_path
    try:
        assert branches_on_names("toy") == [("engine.py", 2, "fireball")]
    finally:
        ROOT = kept
