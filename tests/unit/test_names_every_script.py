"""Every name in every script: players' display names are drawn on every game's board and hand as
written (accents, Greek, Cyrillic, CJK, Arabic and Hebrew, emoji sequences, marks and joiners),
each character by a font that has it, and a character no font has shows as a placeholder rather
than vanishing. Long names are cut at a width with an ellipsis, between whole characters."""

from __future__ import annotations

import random
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from typing import Any, cast

import pytest
from PIL import Image, ImageChops, ImageDraw

from bot.gameui import get_ui
from bot.render import kit
from bot.render.kit import (
    EMOJI,
    PLACEHOLDER,
    Canvas,
    clean_name,
    clip_text,
    clusters,
    covers,
    drawable,
    missing,
    record_text,
    runs,
    seat_names,
    text_size,
)
from rules import registry

NAMES = [
    # Latin with diacritics, and the characters Markdown uses
    "Søren", "Łukasz", "Straße", "john_doe", "José (GM)", "*star*", "Zoë", "François Müller",
    "Dvořák", "Nguyễn Văn Anh", "Ærøskøbing", "Çağla Şahin",
    # Greek and Cyrillic
    "Ἀλέξανδρος", "Νίκος", "Дмитрий", "Олена_UA", "Ёжик в тумане",
    # CJK: Chinese, Japanese kana and kanji, Korean Hangul
    "王小明", "张伟", "さくら", "タナカ", "山田太郎", "김민준", "이서연", "한국어 이름입니다",
    # traditional Chinese (龍 and 鄧: neither in GB 2312's common level nor among the Jōyō kanji),
    # a rare Hangul syllable (똠, not among KS X 1001's 2,350), Extension A (䶮) and a Japanese
    # surname's ideograph beyond the Basic Multilingual Plane (𠮷, U+20BB7)
    "李小龍", "鄧麗君", "똠방각하", "刘䶮", "𠮷田花子",
    # Arabic and Hebrew, alone and beside Latin
    "محمد", "فاطمة الزهراء", "دوست ۱۲", "דוד", "שׂרה כהן", "Ann & محمد", "Noa נועה",
    # emoji, symbols and sequences: skin tones, joiners, flags, keycaps, variation selectors
    "🎉", "Tokenize-✋", "⚙️ Gearhead", "👨‍👩‍👧 family", "👍🏽 thumbs", "🇫🇷 Camille",
    "🏳️‍🌈 Pride", "1️⃣ First", "♠ Ace of ♥", "👩🏽‍🚀 Astro", "Tinker ⚙ → ∞",
    # combining marks, zero-width joiners, decorated letters, other scripts
    "e\u0301clair", "Zalgo Z̷̢a̶l̵", "ZWJ\u200dname", "𝓙𝓸𝓷𝓪𝓱", "ᴅᴀʀᴋ ꜱᴏᴜʟ", "สมชาย", "राहुल",
    # 32 characters, Discord's longest display name
    "ThisNameIsExactlyThirtyTwoChars!", "Maximilian Alexander von Habsbur",
]
PLAYERS = {"hegemony_of_faith": 5, "cult_wars": 4, "flick_of_faith": 3, "petition": 3,
           "alternate_histories": 2}


@cache
def _states(key: str, players: int, seed: int) -> tuple[Any, Any, Any]:
    """A game between computer players: the engine, its state halfway and at the end."""
    engine = registry.get(key)
    state = engine.setup(players, seed, {})
    rng = random.Random(seed)
    history = [state]
    for _ in range(3000):
        if engine.result(state) is not None:
            break
        prompt = engine.prompts(state)[0]
        state, _ = engine.apply(state, prompt.seat,
                                engine.bot_action(engine.view(state, prompt.seat), prompt, rng))
        history.append(state)
    return engine, history[len(history) // 2], state


_NOT_MAPPED = "\U0010fffd"  # a private-use character no font maps: its glyph is the font's .notdef


@cache
def _has_glyph(kind: int, ch: str) -> bool:
    """Whether font ``kind`` itself has a glyph for ``ch`` (not its missing-glyph box): read from
    the font file by FreeType, independently of the coverage table the kit chooses by."""
    face = kit.face(kind, 24)
    return bytes(face.getmask(ch)) != bytes(face.getmask(_NOT_MAPPED)) or ch.isspace()


def _check_glyphs(drawn: list[tuple[str, tuple[kit.Run, ...]]], what: str) -> None:
    """Every character drawn was drawn by a font that has it: glyph by glyph, from the fonts'
    coverage and from the font files; no placeholder; every emoji sequence has its sprite."""
    index = kit._emoji_index()[0]
    for text, pieces in drawn:
        assert PLACEHOLDER not in text, f"{what}: a placeholder drawn in {text!r}"
        for run in pieces:
            if run.kind == EMOJI:
                assert run.text in index, f"{what}: no sprite for {run.text!r} in {text!r}"
                continue
            for ch in run.shown:
                assert covers(run.kind, ch), (
                    f"{what}: {ch!r} (U+{ord(ch):04X}) of {text!r} given to "
                    f"{kit.FONT_FILES[run.kind]}, which lacks it")
                assert _has_glyph(run.kind, ch), (
                    f"{what}: {kit.FONT_FILES[run.kind]} has no glyph for {ch!r} of {text!r}")


def _shown(name: str, texts: str) -> bool:
    """Whether ``name`` is among the drawn ``texts``, whole or cut with an ellipsis after at least
    one whole character."""
    full = drawable(name)
    if full in texts:
        return True
    parts = clusters(full)
    return any("".join(parts[:k]).rstrip() + "\u2026" in texts for k in range(1, len(parts)))


def _groups(players: int) -> Iterator[list[str]]:
    for start in range(0, len(NAMES), players):
        group = NAMES[start:start + players]
        yield group + NAMES[: players - len(group)]


@pytest.mark.parametrize("key", sorted(PLAYERS))
def test_every_name_is_drawn_glyph_by_glyph_on_every_board_and_hand(key: str) -> None:
    players = PLAYERS[key]
    engine, middle, end = _states(key, players, seed=3)
    ui = get_ui(key)
    seen: set[str] = set()
    for group in _groups(players):
        for when, state in (("middle", middle), ("end", end)):
            with record_text() as drawn:
                ui.board_image(engine.view(state, None), [], names=group)
            _check_glyphs(drawn, f"{key} board ({when}) with {group}")
            texts = " ".join(t for t, _ in drawn)
            for name in group:
                assert _shown(name, texts), f"{key} board ({when}): {name!r} not drawn"
                seen.add(name)
        for seat in range(players):
            with record_text() as drawn:
                ui.hand_image(engine.view(middle, seat), names=group)
            _check_glyphs(drawn, f"{key} hand of {group[seat]!r}")
    assert seen == set(NAMES) and len(NAMES) >= 40


def test_the_names_use_every_script_the_fonts_cover() -> None:
    kinds = {run.kind for name in NAMES for run in runs(name)}
    assert kinds == {EMOJI, *range(len(kit.FONT_FILES))}  # every font, and the emoji sprites
    assert not [name for name in NAMES if missing(name)]
    assert max(len(name) for name in NAMES) == 32


def test_names_keep_their_characters_on_images() -> None:
    for name in ("john_doe", "José (GM)", "*star*", "Søren", "Straße", "Łukasz", "Tokenize-✋"):
        assert clean_name(name, "P1") == name
        assert drawable(name) == name
    assert clean_name("**Bob** <@123456>", "P1") == "**Bob**"  # a mention is not a name
    assert clean_name("\u200d\ufe0f", "P3") == "P3"  # nothing visible: the seat stands in
    assert seat_names(["Дмитрий", "王小明"], 3) == ["Дмитрий", "王小明", "P3"]


def test_a_character_no_font_has_is_drawn_as_a_visible_placeholder() -> None:
    hieroglyph = "\U00013000"
    assert missing(f"Ra {hieroglyph}") == [hieroglyph]
    assert drawable(f"Ra {hieroglyph}") == f"Ra {PLACEHOLDER}"
    plain, marked = Canvas(200, 40), Canvas(200, 40)
    plain.text((10, 5), "Ra", 24)
    marked.text((10, 5), f"Ra {hieroglyph}", 24)
    extra = ImageChops.difference(plain.image, marked.image).getbbox()
    assert extra is not None and extra[0] > 10 + text_size("Ra", 24)[0]  # ink after "Ra"


def _ink(text: str, size: int = 28) -> Image.Image:
    c = Canvas(400, 60, bg=(0, 0, 0))
    c.text((10, 10), text, size, (255, 255, 255))
    return c.image


def test_emoji_are_drawn_in_colour_whole_sequences_as_one_picture() -> None:
    for seq in ("✋", "⚙️", "👨‍👩‍👧", "👍🏽", "🇫🇷", "🏳️‍🌈", "1️⃣"):
        (run,) = runs(seq)
        assert run.kind == EMOJI and run.text == seq
        # an RGB picture: its colours are (count, (r, g, b)), never a single band's (count, value)
        colours = cast("list[tuple[int, tuple[int, int, int]]]", _ink(seq).getcolors(10_000) or [])
        assert any(r != g or g != b for _, (r, g, b) in colours), f"{seq!r} drawn without colour"
    assert [r.kind for r in runs("⚙")] != [EMOJI]  # without its selector: the text symbol
    family, thumbs = text_size("👨‍👩‍👧", 28)[0], text_size("👍", 28)[0]
    assert abs(family - thumbs) <= 2  # one picture, not three people and two joiners
    astronaut = runs("👩🏽‍🚀")  # a joined person with a skin tone: person by person
    assert [r.text for r in astronaut] == ["👩🏽", "🚀"]


def test_right_to_left_runs_read_from_the_right() -> None:
    arabic = runs("Ann & محمد")
    assert [r.kind for r in arabic] == [kit.PRIMARY, kit.ARABIC] and arabic[1].rtl
    turn = runs("محمد's turn: waiting for שרה כהן to act.")  # English lines read left to right
    assert [r.text for r in turn] == ["محمد", "'s turn: waiting for ", "שרה כהן", " to act."]
    assert [r.rtl for r in turn] == [True, False, True, False]
    two = runs("فاطمة الزهراء")  # the space between two Arabic words stays with them
    assert [r.text for r in two] == ["فاطمة الزهراء"]
    assert drawable("דוד Ann") == "דוד Ann"  # in reading order


@contextmanager
def _without_raqm() -> Iterator[None]:
    """The kit as on a Pillow built without raqm (basic layout only)."""
    caches = (kit.runs, kit._logical_runs, kit._layout, kit.face)
    saved = kit.RAQM
    kit.RAQM = False
    for c in caches:
        c.cache_clear()
    try:
        yield
    finally:
        kit.RAQM = saved
        for c in caches:
            c.cache_clear()


def test_arabic_and_hebrew_are_joined_and_reversed_without_raqm() -> None:
    with _without_raqm():
        (run,) = runs("محمد")
        # meem (initial), hah (medial), meem (medial), dal (final), drawn right to left
        assert run.shown == "\ufeaa\ufee4\ufea4\ufee3"
        (lam_alef,) = runs("لا")
        assert lam_alef.shown == "\ufefb"  # the lam-alef ligature
        (hebrew,) = runs("שרה כהן")
        assert hebrew.shown == "ןהכ הרש"  # letters reversed
        (persian,) = runs("دوست ۱۲")
        assert persian.shown.startswith("۱۲ ")  # the number still reads left to right
        for name in ("فاطمة الزهراء", "שׂרה כהן", "Ann & محمد"):
            assert _ink(name).getbbox() is not None
            with record_text() as drawn:
                _ink(name)
            _check_glyphs(drawn, f"{name!r} without raqm")


def test_long_names_are_cut_at_a_width_between_whole_characters() -> None:
    for name in NAMES:
        for width in (60, 120, 200):
            cut = clip_text(name, 24, width)
            if cut == name:
                assert text_size(name, 24)[0] <= width
                continue
            assert cut.endswith("\u2026") and text_size(cut, 24)[0] <= width
            kept = clusters(cut[:-1])
            assert kept == clusters(name)[: len(kept)]  # whole characters only
    wide, narrow = "WWWWWWWWWW", "iiiiiiiiii"
    assert len(clip_text(wide, 24, 100)) < len(clip_text(narrow + narrow, 24, 100))  # pixels
    flags = "🇫🇷🇩🇪🇯🇵🇧🇷"
    assert clip_text(flags, 24, 80) in ("🇫🇷\u2026", "🇫🇷🇩🇪\u2026")


def test_mixed_fonts_share_one_baseline() -> None:
    """A Latin name beside CJK and an emoji: the Latin letters sit where they would alone."""
    alone, mixed = Canvas(300, 60, bg=(0, 0, 0)), Canvas(300, 60, bg=(0, 0, 0))
    for anchor in ("la", "lm", "ls"):
        alone.image.paste((0, 0, 0), (0, 0, 300, 60))
        mixed.image.paste((0, 0, 0), (0, 0, 300, 60))
        alone.text((10, 30), "Ann", 24, (255, 255, 255), anchor=anchor)
        mixed.text((10, 30), "Ann 王 🎉", 24, (255, 255, 255), anchor=anchor)
        a = alone.image.crop((0, 0, 10 + text_size("Ann", 24)[0], 60))
        m = mixed.image.crop((0, 0, 10 + text_size("Ann", 24)[0], 60))
        assert ImageChops.difference(a, m).getbbox() is None, anchor


def test_text_drawn_is_reported_once_per_font_run_to_the_readability_check() -> None:
    calls: list[str] = []
    original = ImageDraw.ImageDraw.text

    def counting(self: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, **kw: Any) -> None:
        calls.append(text)
        original(self, xy, text, *args, **kw)

    ImageDraw.ImageDraw.text = counting  # type: ignore[method-assign]
    try:
        with kit.measure() as sizes:
            Canvas(400, 60).text((0, 0), "Søren 王小明 محمد 🎉", 22)
    finally:
        ImageDraw.ImageDraw.text = original  # type: ignore[method-assign]
    assert len(calls) == len(sizes) == 3 and set(sizes) == {22}
    assert all(unicodedata.is_normalized("NFC", t) for t in calls)
