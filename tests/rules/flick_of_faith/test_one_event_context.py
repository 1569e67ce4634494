"""One event context: every event of Flick of Faith's rules is told through a Story (``say`` for
everyone, ``tell`` for some seats), never built by hand (the scan of every game: ``tests/rules/test_one_event_context.py``) in
the engine; the gods' and laws' powers tell theirs through the same story."""

from __future__ import annotations

import inspect

import rules.flick_of_faith as game
from rules.engine import ECHO, Story
from rules.flick_of_faith import powers


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
