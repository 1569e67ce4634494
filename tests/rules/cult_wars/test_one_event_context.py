"""One event context: every event of Cult Wars' rules is told through a Story (``say`` for the
table, ``tell`` for some seats' eyes), never built by hand, so there is one way to emit an event."""

from __future__ import annotations

import ast
from pathlib import Path

import rules.cult_wars as game
from rules.cult_wars.effects import draw
from rules.engine import Story

from .helpers import card, make

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
                      "a = Event('x', None)\nb = engine.Event('y')\nc = [Event]\n", encoding="utf-8")
    assert _event_calls(sample) == [3, 4]


def test_a_draw_tells_the_cards_to_the_drawer_and_only_their_number_to_the_table() -> None:
    """Hidden hands: a drawn card's name goes to its drawer only; the table learns how many.
    When the deck runs out the reshuffle is public, and so is a draw from two empty piles."""
    story = Story(make([10, 10, 10], deck=[card("visions")], discard=[card("blood_moon")]))
    assert draw(story, 1, 3, "sacrifice") == 2
    assert [(e.to, e.kind) for e in story.events] == [
        (None, "reshuffle"), (None, "draw"), ((1,), "draw"), (None, "draw")]
    assert story.events[1].text == "No action card is left to draw for P2."
    private, public = story.events[2], story.events[3]
    assert "Visions" in private.text and "Blood Moon" in private.text
    assert public.text == "P2 draws 2 action cards (sacrifice)."
    assert not any(name in e.text for e in story.events if e.to is None
                   for name in ("Visions", "Blood Moon"))
    assert story.s.cults[1].hand == [card("visions"), card("blood_moon")]
