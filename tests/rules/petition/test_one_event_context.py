"""One event context: every event of Petition's rules (the solo game's too) is told through a
Story (``say`` for the table, ``tell`` for some seats' eyes), never built by hand, so there is
one way to emit an event."""

from __future__ import annotations

import rules.petition as game
from rules.petition.content import card_name

from .helpers import act, make, public_text


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
