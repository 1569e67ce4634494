"""The shared drawing kit: the bundled font, word wrap, cards, cached layers and PNG output."""

from __future__ import annotations

import io

from PIL import Image, ImageFont

from bot.render import (
    PALETTE,
    SEAT_COLOURS,
    SEAT_NAMES,
    Canvas,
    cached_layer,
    card,
    font,
    pill,
    seat_colour,
    text_size,
    to_png,
    wrap,
)


def test_the_font_is_pillows_bundled_scalable_font() -> None:
    f = font(20)
    assert isinstance(f, ImageFont.FreeTypeFont)
    assert f.size == 20
    bundled = ImageFont.load_default(20)
    assert isinstance(bundled, ImageFont.FreeTypeFont) and f.getname() == bundled.getname()
    assert not isinstance(f.path, str)  # loaded from Pillow's embedded bytes, not a host file
    assert font(20) is f  # cached
    big = font(32)
    assert isinstance(big, ImageFont.FreeTypeFont) and big.size == 32


def test_text_grows_with_its_size_and_length() -> None:
    small, big = text_size("Herald", 14), text_size("Herald", 28)
    assert 0 < small[0] < big[0] and 0 < small[1] < big[1]
    assert text_size("Herald Herald", 14)[0] > small[0]


def test_wrap_keeps_every_word_in_order_within_the_width() -> None:
    text = "the quick brown fox jumps over the lazy dog " * 4
    lines = wrap(text, 16, 160)
    assert len(lines) > 1
    assert " ".join(lines).split() == text.split()
    assert all(text_size(line, 16)[0] <= 160 for line in lines)


def test_wrap_keeps_paragraphs_and_overlong_words() -> None:
    assert wrap("one\ntwo", 16, 500) == ["one", "two"]
    word = "Supercalifragilisticexpialidocious"
    assert wrap(f"a {word} b", 16, 40) == ["a", word, "b"]
    assert wrap("", 16, 100) == [""]


def test_seat_colours_are_distinct_and_wrap_around() -> None:
    assert len(set(SEAT_COLOURS)) == len(SEAT_COLOURS) == len(SEAT_NAMES) == 8
    assert seat_colour(0) == SEAT_COLOURS[0]
    assert seat_colour(9) == SEAT_COLOURS[1]


def test_card_has_its_size_a_coloured_band_and_a_paper_face() -> None:
    red = (200, 30, 30)
    img = card("Karma Reversed", "Cancel a card played against you. " * 3, width=200, height=280,
               colour=red, footer="defence")
    assert img.size == (200, 280) and img.mode == "RGB"
    assert img.getpixel((100, 10)) == red  # the band under the title
    assert img.getpixel((100, 200)) == PALETTE["card"]  # the card face below the body text
    assert img.getpixel((0, 0)) == PALETTE["bg"]  # rounded corner shows the background
    assert card("A", "b").size == (180, 250)


def test_card_drawing_is_deterministic() -> None:
    a = card("The Prophet", "Reveal a believer.", footer="1")
    b = card("The Prophet", "Reveal a believer.", footer="1")
    assert a.tobytes() == b.tobytes()
    assert a.tobytes() != card("The Prophet", "Reveal two believers.", footer="1").tobytes()


def test_cached_layer_builds_once_and_returns_copies() -> None:
    builds: list[int] = []

    def build() -> Image.Image:
        builds.append(1)
        return Image.new("RGB", (8, 8), (1, 2, 3))

    key = ("test_render_kit", "layer")
    first = cached_layer(key, build)
    first.putpixel((0, 0), (255, 255, 255))  # drawing on a copy …
    second = cached_layer(key, build)
    assert builds == [1]
    assert second is not first
    assert second.getpixel((0, 0)) == (1, 2, 3)  # … never changes the cached layer


def test_canvas_text_block_returns_the_y_below_it() -> None:
    c = Canvas(300, 200)
    assert c.size == (300, 200) and c.image.getpixel((5, 5)) == PALETTE["bg"]
    one = c.text_block((10, 10), "short", 280, size=16, spacing=4)
    many = c.text_block((10, 10), "many words here " * 10, 100, size=16, spacing=4)
    assert one == 10 + 20
    assert many > one


def test_header_and_pill_draw_where_they_say() -> None:
    c = Canvas(400, 120)
    assert c.header("Cult Wars", "turn 3") == 56
    assert c.image.getpixel((200, 2)) == PALETTE["panel"]
    width = pill(c, (10, 70), "orders in", PALETTE["good"])
    assert width == text_size("orders in", 16)[0] + 16
    assert c.image.getpixel((12, 85)) == PALETTE["good"]


def test_to_png_round_trips() -> None:
    img = card("X", "y")
    data = to_png(img)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    back = Image.open(io.BytesIO(data))
    assert back.size == img.size and back.convert("RGB").tobytes() == img.tobytes()
