"""How a stretch of the story is laid out as thread messages (``bot.delivery.thread_messages``),
and when a form follows a click (``bot.answer.form_answer``)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from bot.answer import FORM_ANSWER, FORM_FOLLOWS, form_answer
from bot.delivery import BOX_CHARS, thread_messages

BOARD = "https://discord.com/channels/1/2/3"
ASK = "➡️ <@42> orders — due <t:100:R>"


def lines(n: int, width: int) -> list[str]:
    return [f"• line {k:03d} " + "x" * (width - 12) for k in range(n)]


def test_a_short_stretch_is_one_message_of_text() -> None:
    posting = lines(5, 60)
    [(text, files, boxes)] = thread_messages(posting, 0, {}, [ASK], BOARD)
    assert text.splitlines() == [*posting, ASK, f"[board]({BOARD})"] and not boxes and not files


def test_a_long_stretch_is_one_message_its_lines_in_boxes_and_the_pings_in_its_text() -> None:
    posting = lines(40, 120)  # 4,800 characters: three messages of text, one with boxes
    [(text, files, boxes)] = thread_messages(posting, 0, {}, [ASK], BOARD)
    assert text == f"{ASK}\n[board]({BOARD})"  # (a ping works only in a message's text)
    assert "\n".join(boxes).splitlines() == posting  # every line, in order
    assert len(boxes) == 2 and all(len(b) <= BOX_CHARS for b in boxes) and not files


def test_a_stretch_too_long_for_one_message_goes_as_text_in_several() -> None:
    posting = lines(12, 700)  # 8,400 characters in 12 lines: more than one message's boxes hold
    messages = thread_messages(posting, 0, {}, [ASK], BOARD)
    assert len(messages) > 1 and all(not boxes and len(text) <= 2000 for text, _, boxes in messages)
    told = "\n".join(text for text, _, _ in messages).splitlines()
    assert told == [*posting, ASK, f"[board]({BOARD})"]


def test_a_line_with_files_starts_a_message_carrying_them() -> None:
    shot = [("flick.gif", b"GIF", "A flick.")]
    posting = lines(3, 50)
    messages = thread_messages(posting, 1, {1: shot}, [], BOARD)  # (one line was waiting before)
    assert [m[1] for m in messages] == [[], shot]
    assert messages[1][0].splitlines() == [posting[2], f"[board]({BOARD})"]


def click(user_id: int) -> Any:
    return SimpleNamespace(user=SimpleNamespace(id=user_id))


def test_a_form_follows_the_click_of_its_own_player_in_its_own_game_for_a_minute(
        monkeypatch: pytest.MonkeyPatch) -> None:
    now = [1000.0]
    monkeypatch.setattr("bot.answer.time.monotonic", lambda: now[0])
    held = FORM_ANSWER.set((7, click(42), now[0] + FORM_FOLLOWS))
    try:
        assert form_answer(7, 42) is not None
        assert form_answer(7, 43) is None and form_answer(8, 42) is None  # someone else's; another game
        now[0] += FORM_FOLLOWS + 1
        assert form_answer(7, 42) is None  # (later, a new decision is a DM, as every other)
    finally:
        FORM_ANSWER.reset(held)
    assert form_answer(7, 42) is None
