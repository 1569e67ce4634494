"""The shared drawing kit: the bundled font, word wrap, cards, cached layers and PNG output."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image, ImageChops, ImageFont, ImageStat

from bot.render import (
    ALT_LIMIT,
    MIN_TEXT_SHARE,
    PALETTE,
    SEAT_COLOURS,
    SEAT_NAMES,
    SEAT_SHAPES,
    Canvas,
    alt_text,
    cached_layer,
    card,
    clean_name,
    clip_text,
    drawable,
    font,
    measure,
    min_text,
    pill,
    seat_colour,
    seat_names,
    text_size,
    to_png,
    wrap,
)
from bot.render.kit import FONT_DIR, FONT_FILES


def test_the_font_is_the_packaged_noto_sans_loaded_once_per_size() -> None:
    f = font(20)
    assert isinstance(f, ImageFont.FreeTypeFont)
    assert f.size == 20 and f.getname() == ("Noto Sans", "Regular")
    assert isinstance(f.path, str) and Path(f.path).parent == FONT_DIR  # shipped, not the host's
    assert font(20) is f  # cached
    big = font(32)
    assert isinstance(big, ImageFont.FreeTypeFont) and big.size == 32


def test_every_font_and_its_licence_ships_with_the_package() -> None:
    for name in FONT_FILES:
        assert (FONT_DIR / name).stat().st_size > 0
    licences = list(FONT_DIR.glob("LICENSE-*.txt"))
    assert licences and all("Open Font License" in p.read_text() for p in licences)
    total = sum(p.stat().st_size for p in FONT_DIR.iterdir() if p.is_file())
    # the subsets stay small: 16 MiB, most of it every CJK ideograph and Hangul syllable Noto
    # Sans CJK SC has (a name in traditional Chinese or a rare Hangul syllable keeps its characters)
    assert total < 18 * 2**20


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
    assert img.getpixel((100, 270)) == PALETTE["card"]  # the card face below the footer
    assert img.getpixel((0, 0)) == PALETTE["bg"]  # rounded corner shows the background
    fitted = card("A", "b")
    assert fitted.size[0] == 240 and fitted.size[1] < 150  # no empty card face below short text
    longer = card("A", "many words " * 12)
    assert longer.size[1] > fitted.size[1]


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
    assert c.header("Cult Wars", "turn 3") == 64
    assert c.image.getpixel((200, 2)) == PALETTE["panel"]
    width = pill(c, (10, 70), "orders in", PALETTE["good"])
    assert width == text_size("orders in", 20)[0] + 16
    assert c.image.getpixel((12, 85)) == PALETTE["good"]


def test_to_png_keeps_a_few_colours_exactly() -> None:
    img = Image.new("RGB", (40, 20), PALETTE["bg"])
    img.paste(PALETTE["accent"], (0, 0, 20, 20))
    data = to_png(img)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    back = Image.open(io.BytesIO(data))
    assert back.mode == "P"
    assert back.size == img.size and back.convert("RGB").tobytes() == img.tobytes()


def test_to_png_of_a_many_coloured_image_stays_close_and_is_smaller() -> None:
    img = card("The Prophet", "Reveal a believer of your choice to every player. " * 3)
    img.paste(Image.linear_gradient("L").convert("RGB").resize((60, 60)), (5, 5))
    data = to_png(img)
    back = Image.open(io.BytesIO(data)).convert("RGB")
    assert back.size == img.size
    diff = ImageChops.difference(back, img).convert("L")
    assert ImageStat.Stat(diff).mean[0] < 3  # 256 well-chosen colours: no visible change
    full = io.BytesIO()
    img.save(full, format="PNG")
    assert len(data) < len(full.getvalue())


def test_text_is_drawn_as_written() -> None:
    assert drawable("P1 — P2 → P3 × 2") == "P1 — P2 → P3 × 2"
    assert drawable("Zoë Ångström") == "Zoë Ångström"
    assert drawable("Zoe\u0308") == "Zoë"  # composed: one letter with its accent
    assert drawable("win 🎉 now") == "win 🎉 now"
    assert drawable("Жук") == "Жук"


def test_names_lose_mentions_and_fall_back_to_the_seat() -> None:
    assert clean_name("**Bob** <@123456> __x__", "P1") == "**Bob** __x__"  # drawn as written
    assert clean_name("**Bob** <@123456> __x__", "P1", drawn=False) == "Bob x"  # alt text
    assert clean_name("@everyone ~~hi~~ `code`", "P1", drawn=False) == "everyone hi code"
    assert clean_name("<:party:987654> Ann", "P2") == "party Ann"
    assert clean_name("🎉🎉", "P3") == "🎉🎉"
    assert clean_name("  \u200b ", "P3") == "P3"
    assert seat_names(["Ann", "Жук"], 3) == ["Ann", "Жук", "P3"]
    assert seat_names(None, 2) == ["P1", "P2"]


def test_clip_text_fits_the_width_with_an_ellipsis() -> None:
    long = "Bartholomew the Unreasonably Long-Named"
    clipped = clip_text(long, 24, 150)
    assert clipped.endswith("\u2026") and text_size(clipped, 24)[0] <= 150
    assert clip_text("Ann", 24, 150) == "Ann"


def test_the_smallest_text_is_measured_everywhere_it_is_drawn() -> None:
    assert min_text(800) == 24 and min_text(1200) == 36
    assert abs(MIN_TEXT_SHARE - 0.03) < 1e-9
    with measure() as sizes:
        c = Canvas(300, 100)
        c.text((0, 0), "big", 30)
        c.text((0, 40), "small", 19)
        c.text((0, 60), "   ", 5)  # nothing visible: not counted
    assert sorted(sizes) == [19, 30] and c.smallest == 19
    with measure() as sizes:
        card("Title", "body text")  # a card drawn on its own canvas counts too
    assert min(sizes) == 20

    def build() -> Image.Image:
        img = Image.new("RGB", (50, 50))
        c = Canvas(50, 50, image=img)
        c.text((0, 0), "I", 21)
        return img

    key = ("test_render_kit", "labelled layer")
    for _ in range(2):  # built once, and its labels count on every use
        with measure() as sizes:
            cached_layer(key, build)
        assert sizes == [21]


def test_seat_badges_differ_in_shape_as_well_as_colour() -> None:
    assert len(set(SEAT_SHAPES)) == len(SEAT_SHAPES) == 8
    masks = []
    for seat in range(8):
        c = Canvas(60, 60, bg=(0, 0, 0))
        c.badge((30, 30), seat, 24)
        masks.append(c.image.convert("L").point(lambda v: 255 if v else 0).tobytes())
    assert len(set(masks)) == 8


def test_alt_text_joins_sentences_within_discords_limit() -> None:
    assert alt_text("Ann leads.", "", "Bob's turn.") == "Ann leads. Bob's turn."
    assert len(alt_text("x" * 5000)) == ALT_LIMIT
