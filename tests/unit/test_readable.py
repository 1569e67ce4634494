"""Boards and hands a phone can read: every game's images, rendered at several points of a seeded
game between computer players, use no text smaller than 3% of the image's width (Discord shows
an image about 400 px wide on a phone), and all their text goes through the drawing kit, where it
is measured."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache, partial
from typing import Any

import pytest
from PIL import Image, ImageDraw

from bot.gameui import get_ui
from bot.render import MIN_TEXT_SHARE, kit, measure, seat_names
from rules import registry

NAMES = ["Ann", "**Bob** <@123456789>", "Zoë the Remarkably Long-Named Prophet", "Computer 4",
         "🎉", "Finn", "Gus", "Hal"]
PLAYERS = {"hegemony_of_faith": 5, "cult_wars": 4, "flick_of_faith": 3, "petition": 3,
           "alternate_histories": 2}


@cache
def _play(key: str, players: int, seed: int) -> tuple[Any, list[Any]]:
    """A whole game between computer players; the states at the start, middle and end."""
    engine = registry.get(key)
    state = engine.setup(players, seed, {})
    rng = random.Random(seed)
    states = [engine.clone(state)]
    for _ in range(3000):
        if engine.result(state) is not None:
            break
        prompt = engine.prompts(state)[0]
        action = engine.bot_action(engine.view(state, prompt.seat), prompt, rng)
        state, _ = engine.apply(state, prompt.seat, action)
        states.append(state)
    assert engine.result(state) is not None
    return engine, [states[0], states[len(states) // 2], states[-1]]


@contextmanager
def _counting_text() -> Iterator[list[int]]:
    """Count every text Pillow draws, through the kit or not."""
    calls: list[int] = []
    original = ImageDraw.ImageDraw.text

    def text(self: ImageDraw.ImageDraw, *args: Any, **kwargs: Any) -> None:
        calls.append(1)
        original(self, *args, **kwargs)

    ImageDraw.ImageDraw.text = text  # type: ignore[method-assign]
    try:
        yield calls
    finally:
        ImageDraw.ImageDraw.text = original  # type: ignore[method-assign]


def _check(draw: Callable[[], Image.Image | None], what: str) -> None:
    kit._LAYERS.clear()  # layers drawn now, so their labels are seen being drawn
    with _counting_text() as calls, measure() as sizes:
        image = draw()
    assert image is not None
    assert sizes, f"{what}: no text measured"
    assert len(calls) == len(sizes), f"{what}: text drawn outside the drawing kit"
    smallest = min(sizes)
    assert smallest >= image.width * MIN_TEXT_SHARE, (
        f"{what}: {smallest} px text on an image {image.width} px wide "
        f"(needs {image.width * MIN_TEXT_SHARE:.1f} px)")
    assert image.width <= 900, f"{what}: {image.width} px wide is not a phone-first layout"


@pytest.mark.parametrize("key", sorted(PLAYERS))
def test_every_board_and_hand_is_readable_on_a_phone(key: str) -> None:
    engine, states = _play(key, PLAYERS[key], seed=3)
    ui = get_ui(key)
    for when, state in zip(("start", "middle", "end"), states, strict=True):
        public = engine.view(state, None)
        _check(partial(ui.board_image, public, [], names=NAMES), f"{key} board at the {when}")
        for seat in range(PLAYERS[key]):
            mine = engine.view(state, seat)
            if ui.hand_image(mine, names=NAMES) is not None:
                _check(partial(ui.hand_image, mine, names=NAMES),
                       f"{key} hand of seat {seat} at the {when}")


def test_the_flick_aim_preview_and_animation_are_readable_and_labelled() -> None:
    from cogs.flick_of_faith import animate, render

    engine, states = _play("flick_of_faith", 2, seed=5)
    mid = engine.view(states[1], 0)
    _check(partial(render.aim_image, mid, 0, 10.0, 6.0, names=NAMES), "flick aim preview")
    flick = {"seat": 0, "angle": 0.0, "power": 6.0}
    alt = animate.flicks_alt([flick], mid, NAMES)
    assert "Ann's flick at angle 0, power 6" in alt


def _card_name(key: str, card: Any) -> str:
    """A card in a private view: a dict with its name, or (Alternate Histories) the card's id."""
    if isinstance(card, dict):
        return str(card["name"])
    assert key == "alternate_histories", f"{key}: a hand card that is not a dict: {card!r}"
    from rules.alternate_histories.content import CARDS
    return CARDS[card].name


@pytest.mark.parametrize("key", sorted(PLAYERS))
def test_alt_text_names_the_players_and_never_a_hand(key: str) -> None:
    engine, states = _play(key, PLAYERS[key], seed=3)
    ui = get_ui(key)
    start, _, end = states
    alt = ui.board_alt(engine.view(start, None), names=NAMES)
    assert "Ann" in alt and "Bob" in alt and "<@" not in alt and "**" not in alt
    if PLAYERS[key] >= 3:  # (the third name)
        assert "Zoë" in alt  # alt text is read, not drawn: the name stays as written
    final = ui.board_alt(engine.view(end, None), names=NAMES)
    assert "game over" in final and "Final ranking" in final
    result = engine.result(end)
    assert result is not None
    winner = seat_names(NAMES, PLAYERS[key], drawn=False)[result.winners[0]]
    assert winner in final.split("Final ranking")[0]  # the winner is said first
    for seat in range(PLAYERS[key]):  # a hand's secrets stay out of the public alt text
        mine = engine.view(end, seat)["private"]
        for card in mine.get("hand", []) + mine.get("actions", []):
            name = _card_name(key, card)
            if all(name not in line for line in engine.view(end, None).get("log", [])):
                assert name not in final
