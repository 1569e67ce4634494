"""The Cult Wars board and hand images and texts are drawn from views, at every stage of a game."""

from __future__ import annotations

import random

from cogs.cult_wars.ui import UI
from rules.cult_wars import ENGINE
from rules.cult_wars.views import read_view
from rules.engine import Event

from .helpers import card, make, orders


def test_images_and_texts_through_a_whole_game() -> None:
    """Drawn once in each step of each turn (insignia, orders, a paused split, the end)."""
    rng = random.Random(4)
    s = ENGINE.setup(4, 4)
    events: list[Event] = []
    drawn: set[tuple[int, str]] = set()
    while True:
        pub = ENGINE.view(s, None)
        if (s.turn, s.phase) in drawn:
            pr = ENGINE.prompts(s)[0]
            s, events = ENGINE.apply(s, pr.seat, ENGINE.bot_action(ENGINE.view(s, pr.seat), pr, rng))
            continue
        drawn.add((s.turn, s.phase))
        img = UI.board_image(pub, events)
        assert img.width >= 400 and img.height >= 200
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
    assert {"targets", "orders", "split", "over"} <= {phase for _turn, phase in drawn}


def test_status_shows_who_has_submitted_and_hand_text_shows_current_orders() -> None:
    pest = card("pestilence")
    s = make([12, 12, 12], hands=[[pest], [], []])
    s, _ = ENGINE.apply(s, 0, orders(1, attack=[8], actions=[{"card": pest}]))
    status = UI.status_text(ENGINE.view(s, None))
    assert "orders in: P1; waiting for P2, P3" in status
    text = UI.hand_text(ENGINE.view(s, 0))
    assert "Pestilence" in text and "target P2" in text and "Attack 8" in text


def test_board_says_who_has_chosen_a_target_but_never_whom() -> None:
    import random as _random

    from cogs.cult_wars import render as _render
    from rules.cult_wars import ENGINE as _ENGINE

    s = _ENGINE.setup(3, 5)
    p = next(q for q in _ENGINE.prompts(s) if q.seat == 1)
    s, _ = _ENGINE.apply(s, 1, _ENGINE.bot_action(_ENGINE.view(s, 1), p, _random.Random(1)))
    v = _ENGINE.view(s, None)
    assert v["phase"] == "targets" and all(c["target"] is None for c in v["cults"])
    said = _render._awaited(read_view(v), ["ann", "bo", "cy"])
    assert said == "Targets chosen in secret: 1 of 3. Waiting for ann and cy; all are revealed together."
    assert "Targets chosen" in _render.board_alt(v, ["ann", "bo", "cy"])
    _render.board_image(v, ["ann", "bo", "cy"])
