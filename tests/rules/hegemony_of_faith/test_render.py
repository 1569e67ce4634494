"""The board and hand pictures draw from redacted views at every stage of a game."""

from __future__ import annotations

import random

from cogs.hegemony_of_faith.ui import UI
from rules.hegemony_of_faith import ENGINE


def test_board_and_hand_render_through_a_whole_game() -> None:
    rng = random.Random(11)
    s = ENGINE.setup(7, 11)
    step = 0
    while ENGINE.result(s) is None:
        if step % 40 == 0:
            pub = ENGINE.view(s, None)
            img = UI.board_image(pub, [])
            assert 1000 <= img.width <= 1400
            seat = step % 7
            hand = UI.hand_image(ENGINE.view(s, seat))
            assert hand is not None and hand.width == 1280
            assert "Action cards" in UI.hand_text(ENGINE.view(s, seat))
            assert UI.status_text(pub)
        p = rng.choice(ENGINE.prompts(s))
        s, _ = ENGINE.apply(s, p.seat, ENGINE.bot_action(ENGINE.view(s, p.seat), p, rng))
        step += 1
    assert "wins" in UI.status_text(ENGINE.view(s, None))
    UI.board_image(ENGINE.view(s, None), [])
