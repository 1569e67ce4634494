"""One event context: every event of Cult Wars' rules is told through a Story (``say`` for the
table, ``tell`` for some seats' eyes), never built by hand (the scan of every game: ``tests/rules/test_one_event_context.py``)."""

from __future__ import annotations

from rules.cult_wars.effects import draw
from rules.engine import Story

from .helpers import card, make


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
