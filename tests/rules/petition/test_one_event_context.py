"""One event context: every event of Petition's rules (the solo game's too) is told through a
Story (``say`` for the table, ``tell`` for some seats' eyes), never built by hand, so there is
one way to emit an event."""

from __future__ import annotations

import ast
from pathlib import Path

import rules.petition as game
from rules.petition.content import card_name

from .helpers import act, make, public_text

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


def test_drawn_cards_are_told_to_the_drawer_and_only_their_number_to_the_table() -> None:
    s = make(3, hands=[[], [], []], beads=[0, 3, 3])
    top = s.deck[:2]
    s, events = act(s, 0, {"type": "draw"})
    assert s.seats[0].hand == top
    assert [(e.text, e.to, e.kind) for e in events[:2]] == [
        ("P1 draws 2 cards.", None, "turn"),
        (f"You draw {card_name(top[0])} and {card_name(top[1])}.", (0,), "draw")]
    assert events[1].data == {"cards": top}
    assert not any(cid in public_text(events) or card_name(cid) in public_text(events) for cid in top)


def test_the_solo_draw_tells_the_card_to_the_player_only() -> None:
    s = game.ENGINE.setup(1, 3)
    top = s.deck[0]
    s, events = act(s, 0, {"type": "draw"})
    public = [e for e in events if e.to is None]
    private = [e for e in events if e.to is not None]
    assert [e.kind for e in public][:1] == ["solo_draw"]
    assert [(e.text, e.to, e.data) for e in private] == [
        (f"You draw {card_name(top)}.", (0,), {"cards": [top]})]
    assert card_name(top) not in public_text(events)
