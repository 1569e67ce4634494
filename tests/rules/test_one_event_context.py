"""One event context: every event of every game's rules is told through a ``rules.engine.Story``
(``say`` for the table, ``tell`` for some seats' eyes), never built by hand, so there is one way to
emit an event. (What each game's story tells whom is checked beside its rules:
``tests/rules/<game>/test_one_event_context.py``.)"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import rules

GAMES = ("hegemony_of_faith", "flick_of_faith", "cult_wars", "petition", "alternate_histories")
ROOT = Path(rules.__file__).parent


def event_calls(path: Path) -> list[int]:
    """Lines of ``path`` where an ``Event`` is constructed (``Event(...)`` or ``x.Event(...)``)."""
    lines = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Call):
            f = node.func
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None
            if name == "Event":
                lines.append(node.lineno)
    return lines


@pytest.mark.parametrize("game", GAMES)
def test_rule_files_construct_no_event_by_hand(game: str) -> None:
    files = sorted((ROOT / game).glob("*.py"))
    assert files, "the rule files were not found"
    found = {p.name: lines for p in files if (lines := event_calls(p))}
    assert found == {}, f"Event(...) built outside the Story: {found}"


def test_only_the_story_builds_events_in_the_engine_contract() -> None:
    source = (ROOT / "engine.py").read_text(encoding="utf-8")
    tree = ast.parse(source)
    story = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Story")
    inside = {n.lineno for n in ast.walk(story) if isinstance(n, ast.Call)}
    assert set(event_calls(ROOT / "engine.py")) <= inside


def test_the_scan_finds_an_event_built_by_hand(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("from rules import engine\nfrom rules.engine import Event\n"
                      "a = Event('x', None)\nb = engine.Event('y')\nc = [Event]\n", encoding="utf-8")
    assert event_calls(sample) == [3, 4]
