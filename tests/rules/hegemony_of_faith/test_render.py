"""The board and hand pictures draw from redacted views at every stage of a game."""

from __future__ import annotations

import random

from cogs.hegemony_of_faith.ui import UI
from rules.hegemony_of_faith import ENGINE
from rules.hegemony_of_faith.views import read_view


def test_board_and_hand_render_through_a_whole_game() -> None:
    rng = random.Random(11)
    s = ENGINE.setup(7, 11)
    step = 0
    while ENGINE.result(s) is None:
        if step % 40 == 0:
            pub = ENGINE.view(s, None)
            img = UI.board_image(pub, [])
            assert 700 <= img.width <= 900
            seat = step % 7
            hand = UI.hand_image(ENGINE.view(s, seat))
            assert hand is not None and hand.width == 800
            assert "Action cards" in UI.hand_text(ENGINE.view(s, seat))
            assert UI.status_text(pub)
        p = rng.choice(ENGINE.prompts(s))
        s, _ = ENGINE.apply(s, p.seat, ENGINE.bot_action(ENGINE.view(s, p.seat), p, rng))
        step += 1
    assert "wins" in UI.status_text(ENGINE.view(s, None))
    UI.board_image(ENGINE.view(s, None), [])


def test_awaited_steps_are_said_in_words_and_name_no_hidden_skill() -> None:
    from cogs.hegemony_of_faith.render import _pending_text

    base = {"phase": "play", "current": 0}
    snatch = {**base, "pending": {"kind": "snatch", "waiting": [2], "winners": [2]}}
    assert _pending_text(read_view(snatch)) == ("A Faith Debate's spoils: P3 decides whether to snatch the believers "
                                     "they beat. Waiting for P3.")
    karma = {**base, "pending": {"kind": "attack", "waiting": [0, 1], "by": 0, "targets": [1], "card": "Faith Debate",
                                 "stage": "karma", "window": 1800}}
    text = _pending_text(read_view(karma))
    assert "Open up to 30 minutes for P1 and P2 to react" in text and "Karma" not in text
    offer = {**base, "pending": {"kind": "surrender", "waiting": [3], "for": 1, "stage": "offer"}}
    assert _pending_text(read_view(offer)) == "A surrender: P4 decides whether to take P2 in as a Follower. Waiting for P4."
