"""A game UI drawn by a render module: the board and the hand, as images and in words, come from
that module with the seats' names; a game overriding one of them still reaches the module."""

from __future__ import annotations

from collections.abc import Sequence
from types import SimpleNamespace
from typing import Any

import pytest
from PIL import Image

from bot.gameui import DrawnUI, get_ui

JSON = dict[str, Any]


def _drawings(calls: list[tuple[str, JSON, Sequence[str] | None]]) -> Any:
    def image(what: str) -> Any:
        def draw(view: JSON, names: Sequence[str] | None = None) -> Image.Image:
            calls.append((what, view, names))
            return Image.new("RGB", (4, 4))
        return draw

    def words(what: str) -> Any:
        def say(view: JSON, names: Sequence[str] | None = None) -> str:
            calls.append((what, view, names))
            return f"{what} for {','.join(names or [])}"
        return say

    return SimpleNamespace(board_image=image("board"), hand_image=image("hand"),
                           board_alt=words("board_alt"), hand_alt=words("hand_alt"))


def test_the_four_drawings_come_from_the_module_with_the_names() -> None:
    calls: list[tuple[str, JSON, Sequence[str] | None]] = []

    class Drawn(DrawnUI):
        key = "drawn"
        drawings = _drawings(calls)

    ui, view, names = Drawn(), {"turn": 3}, ["Ada", "Bo"]
    assert ui.board_image(view, [], names=names).size == (4, 4)
    assert ui.hand_image(view, names=names) is not None
    assert ui.board_alt(view, names=names) == "board_alt for Ada,Bo"
    assert ui.hand_alt(view, names=names) == "hand_alt for Ada,Bo"
    assert calls == [(w, view, names) for w in ("board", "hand", "board_alt", "hand_alt")]


@pytest.mark.parametrize("key", ["cult_wars", "petition", "alternate_histories"])
def test_the_games_drawn_by_their_render_module(key: str) -> None:
    ui = get_ui(key)
    assert isinstance(ui, DrawnUI)
    assert ui.drawings.__name__ == f"cogs.{key}.render"  # type: ignore[attr-defined]


def test_no_hand_is_drawn_while_alternate_histories_decks_are_chosen() -> None:
    assert get_ui("alternate_histories").hand_image({"phase": "deck", "private": {"seat": 0}}) is None
