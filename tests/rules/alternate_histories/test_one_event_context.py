"""One event context: every event of Alternate Histories' rules is told through its context (a Story),
never built by hand, so there is one way to emit an event in the engine."""

from __future__ import annotations

import ast
from pathlib import Path

import rules.alternate_histories as game
from rules.alternate_histories.board import Ctx
from rules.engine import Story

RULES = Path(game.__file__).parent


def _event_calls(path: Path) -> list[int]:
    """Lines of ``path`` where an ``Event`` is constructed (``Event(...)`` or ``x.Event(...)``)."""
    lines = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Call):
            f = node.func
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None
            if name == "Event":
                lines.append(node.lineno)
    return lines


def test_rule_files_construct_no_event_by_hand() -> None:
    files = sorted(RULES.glob("*.py"))
    assert files, "the rule files were not found"
    found = {p.name: lines for p in files if (lines := _event_calls(p))}
    assert found == {}, f"Event(...) built outside the Story: {found}"


def test_the_scan_finds_an_event_built_by_hand(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("from rules import engine\nfrom rules.engine import Event\n"
                      "a = Event('x', None)\nb = engine.Event('y')\n", encoding="utf-8")
    assert _event_calls(sample) == [3, 4]


def test_the_game_context_is_a_story() -> None:
    assert issubclass(Ctx, Story)
    ctx = Ctx(game.ENGINE.setup(2, 1))
    ctx.say("A public line.", kind="era", data={"era": 2})
    ctx.tell(1, "A line for one seat.")
    assert [(e.text, e.to, e.kind, e.data) for e in ctx.events] == [
        ("A public line.", None, "era", {"era": 2}), ("A line for one seat.", (1,), "log", {})]
