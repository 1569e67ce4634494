"""The kit's icons: drawn with Pillow's shapes, one picture per recurring thing in every game,
held to the text floor, and never the only way a board says what a figure is."""

from __future__ import annotations

import random

import pytest
from PIL import ImageChops

from bot.gameui import get_ui
from bot.render import MIN_TEXT_SHARE, measure
from bot.render.kit import ICONS, Canvas, icon, icon_text, icon_width, measure_icons, min_text
from rules import registry

SIZE = 24


def _drawn(kind: str, size: int = SIZE) -> Canvas:
    c = Canvas(size * 2, size * 2, bg=(0, 0, 0))
    icon(c, kind, (size, size), size, (255, 255, 255))
    return c


@pytest.mark.parametrize("kind", sorted(ICONS))
def test_each_icon_fills_most_of_its_text_height(kind: str) -> None:
    """An icon beside 24 px text is about as tall as the text (at least 70% of it), so it reads
    at the 3% floor, and stays inside its square."""
    box = _drawn(kind).image.getbbox()
    assert box is not None
    left, top, right, bottom = box
    assert bottom - top >= 0.7 * SIZE
    assert SIZE // 2 - 2 <= left and right <= SIZE * 3 // 2 + 2
    assert SIZE // 2 - 2 <= top and bottom <= SIZE * 3 // 2 + 2


def test_no_two_icons_look_alike() -> None:
    """Every icon differs from every other in at least a tenth of its pixels."""
    images = {kind: _drawn(kind).image.convert("L").point(lambda v: 255 if v > 96 else 0)
              for kind in ICONS if kind != "believer"}
    kinds = sorted(images)
    for i, a in enumerate(kinds):
        for b in kinds[i + 1:]:
            diff = ImageChops.difference(images[a], images[b])
            changed = sum(diff.histogram()[1:])
            assert changed >= 0.1 * (SIZE * SIZE), (a, b, changed)


def test_an_unknown_icon_is_refused() -> None:
    with pytest.raises(ValueError):
        _drawn("sword")


def test_icon_text_is_as_wide_as_it_says() -> None:
    """icon_text draws what icon_width promised (the boards lay out by it)."""
    c = Canvas(400, 60)
    parts = [("power", "215"), ("mobility", "3")]
    assert icon_text(c, (10, 10), parts, SIZE) == icon_width(parts, SIZE)


def test_icons_are_measured_for_the_text_floor() -> None:
    """An icon drawn smaller than the floor is seen by measure_icons."""
    with measure_icons() as sizes:
        c = Canvas(800, 100)
        icon(c, "vp", (50, 50), 12)
    assert sizes == [12] and min(sizes) < min_text(800)


@pytest.mark.parametrize("game, players, word", [
    ("cult_wars", 4, "VP"), ("flick_of_faith", 3, "VP"), ("petition", 3, "bead"),
    ("hegemony_of_faith", 4, "believer"), ("alternate_histories", 2, "card"),
])
def test_the_board_says_in_words_what_its_icons_show(game: str, players: int, word: str) -> None:
    """A board's icons are at least as tall as its smallest allowed text, and its alt text says
    the figure's word (the image shows the icon)."""
    engine = registry.get(game)
    state = engine.setup(players, 3, {})
    rng = random.Random(3)
    for _ in range(40):
        if engine.result(state) is not None:
            break
        prompt = engine.prompts(state)[0]
        state, _ = engine.apply(state, prompt.seat,
                                engine.bot_action(engine.view(state, prompt.seat), prompt, rng))
    ui = get_ui(game)
    view = engine.view(state, None)
    with measure() as sizes, measure_icons() as icons:
        ui.board_image(view, [], names=None)
    assert icons and min(icons) >= 800 * MIN_TEXT_SHARE
    assert min(sizes) >= 800 * MIN_TEXT_SHARE
    assert word in ui.board_alt(view, names=None)


def test_a_text_drawn_from_the_kept_masks_is_the_text_rendered_anew() -> None:
    """The kit keeps rendered texts (a board draws the labels of the board before it): a text
    drawn again, at a whole or a half pixel, is pixel for pixel what a fresh rendering draws,
    in another colour too."""
    from bot.render import kit

    def draw(fill: tuple[int, int, int]) -> bytes:
        c = Canvas(400, 120)
        c.text((10, 10), "Zoë's turn: 3 followers", 24, fill)
        c.text((200.5, 70), "Landship Mk IV", 24, fill, anchor="mm")
        return c.image.tobytes()

    kit._masks.clear()
    fresh = draw((255, 255, 255))
    assert len(kit._masks) >= 2
    assert draw((255, 255, 255)) == fresh
    kit._masks.clear()
    red = draw((255, 0, 0))
    assert draw((255, 0, 0)) == red != fresh
