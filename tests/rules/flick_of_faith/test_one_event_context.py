"""One event context: every event of Flick of Faith's rules is told through a Story (``say`` for
everyone, ``tell`` for some seats), never built by hand, so there is one way to emit an event in
the engine; the gods' and laws' powers tell theirs through the same story."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import rules.flick_of_faith as game
from rules.engine import ECHO, Story
from rules.flick_of_faith import powers

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


def test_every_power_tells_its_events_through_the_story() -> None:
    for name in powers.__all__:
        params = list(inspect.signature(getattr(powers, name)).parameters)
        assert params == ["story", "seat"], f"{name} takes {params}, not (story, seat)"


def test_a_secret_god_choice_is_echoed_to_its_seat_only_and_announced_to_all() -> None:
    e = game.ENGINE
    s = e.setup(2, 5)
    prompt = next(p for p in e.prompts(s) if p.seat == 1)
    action = prompt.choices[0].action
    _, events = e.apply(s, 1, action)
    echo = [ev for ev in events if ev.kind == ECHO]
    assert len(echo) == 1 and echo[0].to == (1,), "the choice is echoed to its seat only"
    assert any(ev.to is None and "has chosen a god" in ev.text for ev in events)


def test_a_power_tells_through_the_story_it_is_given() -> None:
    e = game.ENGINE
    story = Story(e.setup(3, 2))
    story.s.vp = [5, 3, 5]
    powers.tithe_paid(story, 0)
    assert story.s.vp == [3, 3, 3]
    assert [(ev.to, ev.kind) for ev in story.events] == [(None, "log")]
    assert story.events[0].text == "Tithe: P1, P3 pay 2 VP."
