"""The Cult Wars board and hand images and texts are drawn from views, at every stage of a game."""

from __future__ import annotations

import random

from cogs.cult_wars.ui import UI
from rules.cult_wars import ENGINE

from .helpers import card, make, orders


def test_images_and_texts_through_a_whole_game() -> None:
    rng = random.Random(4)
    s = ENGINE.setup(4, 4)
    events = []
    while True:
        pub = ENGINE.view(s, None)
        img = UI.board_image(pub, events)
        assert 1000 <= img.width <= 1400
        assert UI.status_text(pub)
        for seat in range(4):
            v = ENGINE.view(s, seat)
            assert UI.hand_image(v) is not None
            assert f"P{seat + 1}" in UI.hand_text(v)
        if ENGINE.result(s) is not None:
            assert "Game over" in UI.status_text(pub)
            break
        pr = ENGINE.prompts(s)[0]
        s, events = ENGINE.apply(s, pr.seat, ENGINE.bot_action(ENGINE.view(s, pr.seat), pr, rng))


def test_status_shows_who_has_submitted_and_hand_text_shows_current_orders() -> None:
    pest = card("pestilence")
    s = make([12, 12, 12], hands=[[pest], [], []])
    s, _ = ENGINE.apply(s, 0, orders(1, attack=[8], actions=[{"card": pest}]))
    status = UI.status_text(ENGINE.view(s, None))
    assert "orders in: P1; waiting for P2, P3" in status
    text = UI.hand_text(ENGINE.view(s, 0))
    assert "Pestilence" in text and "target P2" in text and "Attack 8" in text
