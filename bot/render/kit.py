"""Primitives of the drawing kit. Pure functions of their arguments; no I/O except ``to_png`` and
reading the kit's own fonts.

Every piece of text goes through :func:`draw_text` (``Canvas.text`` uses it), which draws each
character with the first of Herald's fonts that has it (Noto: Latin, Greek, Cyrillic, Hebrew,
Arabic, CJK, symbols, colour emoji; see :data:`FONT_FILES`), so a name is drawn as written in any
of those scripts, and a character none has shows as a placeholder rather than vanishing. It
reports the text's size to :func:`measure`: the readability test renders each game's images
inside ``measure()`` and checks the smallest size against the image's width (Discord shows an
image about 400 px wide on a phone; see :data:`MIN_TEXT_SHARE`).
"""

from __future__ import annotations

import io
import math
import re
import threading
import unicodedata
from bisect import bisect_right
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple

from PIL import Image, ImageDraw, ImageFont, features

from rules.text import count

RGB = tuple[int, int, int]

PALETTE: dict[str, RGB] = {
    "bg": (30, 33, 40),
    "panel": (44, 48, 58),
    "panel_hi": (60, 65, 78),
    "ink": (235, 236, 240),
    "muted": (160, 165, 178),
    "accent": (242, 186, 72),
    "good": (96, 196, 120),
    "bad": (226, 92, 92),
    "sea": (38, 92, 140),
    "sea_deep": (26, 64, 104),
    "land": (196, 176, 122),
    "card": (246, 240, 226),
    "card_ink": (40, 36, 30),
}

# Eight seat colours that stay distinguishable for common colour-vision deficiencies
# (Okabe–Ito based) and on a dark background.
SEAT_COLOURS: tuple[RGB, ...] = (
    (86, 180, 233),   # sky blue
    (230, 159, 0),    # orange
    (0, 158, 115),    # bluish green
    (204, 121, 167),  # reddish purple
    (240, 228, 66),   # yellow
    (213, 94, 0),     # vermillion
    (150, 150, 230),  # lavender
    (200, 200, 200),  # grey
)
SEAT_NAMES: tuple[str, ...] = (
    "blue", "orange", "green", "purple", "yellow", "red", "lavender", "grey",
)


SEAT_SHAPES: tuple[str, ...] = (
    "circle", "square", "diamond", "triangle", "hexagon", "pentagon", "octagon", "shield",
)
"""A shape per seat, so seats differ by more than colour (the seat's number is drawn inside)."""

MIN_TEXT_SHARE = 0.03
"""The smallest text an image may use, as a share of its width: at 800 px wide, 24 px text, which a
phone showing the image 400 px wide draws 12 px tall. What does not fit at that size belongs in
the message text, not in smaller type."""


def seat_colour(seat: int) -> RGB:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def min_text(width: int) -> int:
    """The smallest text size (px) allowed on an image ``width`` pixels wide."""
    return math.ceil(width * MIN_TEXT_SHARE)


FONT_DIR = Path(__file__).with_name("fonts")
"""Herald's fonts: subsets of the Noto fonts (SIL Open Font License 1.1, licence texts beside them),
rebuilt by ``scripts/make_fonts.py``."""

FONT_FILES: tuple[str, ...] = (
    "NotoSans.ttf", "NotoSansHebrew.ttf", "NotoSansArabic.ttf", "NotoSansCJK.otf",
    "NotoSansSymbols.ttf", "NotoSansSymbols2.ttf", "NotoSansMath.ttf", "NotoSansThai.ttf",
    "NotoSansDevanagari.ttf",
)
"""The fonts in fallback order: a character is drawn by the first that has it (the emoji sprites
come before them for emoji, the placeholder after them for anything none has)."""

PRIMARY, HEBREW, ARABIC = 0, 1, 2
EMOJI = -1
"""The run kind of an emoji sequence: a sprite drawn by Noto Color Emoji (see ``emoji.txt``)."""

PLACEHOLDER = "\ufffd"
"""Drawn (by the primary font) for a character no font has: visible, never a silent drop."""

RAQM = features.check("raqm")
"""Whether Pillow has its complex layout engine: Arabic is then joined by the font's own rules,
marks are placed by the font and right-to-left runs are laid out by raqm; without it the kit
joins Arabic with Unicode's presentation forms and orders right-to-left runs itself."""

_RTL_FONTS = (HEBREW, ARABIC)
_EMOJI_RATIO = (136 / 109, 128 / 109, 101 / 109)
"""An emoji's width, height and height above the baseline, per pixel of text size (the colour
font's 136 x 128 bitmaps at 109 pixels per em)."""


@lru_cache(maxsize=1)
def _coverage() -> tuple[tuple[list[int], list[int]], ...]:
    """Per font (in FONT_FILES order): the starts and ends of the code point ranges it maps."""
    table: dict[str, tuple[list[int], list[int]]] = {}
    for line in (FONT_DIR / "coverage.txt").read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or ":" not in line:
            continue
        name, spans = line.split(":", 1)
        starts: list[int] = []
        ends: list[int] = []
        for span in spans.split():
            lo, _, hi = span.partition("-")
            starts.append(int(lo, 16))
            ends.append(int(hi or lo, 16))
        table[name.strip()] = (starts, ends)
    return tuple(table[name] for name in FONT_FILES)


def covers(kind: int, ch: str) -> bool:
    """Whether font ``kind`` (an index into FONT_FILES) maps the character ``ch``."""
    starts, ends = _coverage()[kind]
    cp = ord(ch)
    k = bisect_right(starts, cp) - 1
    return k >= 0 and cp <= ends[k]


@lru_cache(maxsize=8192)
def font_for(ch: str) -> int | None:
    """The first font (index into FONT_FILES) that has ``ch``; None when none has it."""
    for kind in range(len(FONT_FILES)):
        if covers(kind, ch):
            return kind
    return None


@lru_cache(maxsize=1)
def _emoji_index() -> tuple[dict[str, tuple[int, int]], int, tuple[int, int]]:
    """Emoji sequence -> (page, cell); the longest sequence's length; a sprite's width and height.
    A sequence is also found without its variation selectors when it is longer than one
    character or its character is shown as an emoji by default (so "⚙" stays a text symbol,
    "⚙️" and "✋" are emoji)."""
    index: dict[str, tuple[int, int]] = {}
    size = (42, 40)
    for line in (FONT_DIR / "emoji.txt").read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            found = re.search(r"(\d+)x(\d+) px", line)
            if found:
                size = (int(found.group(1)), int(found.group(2)))
            continue
        points, page, cell = line.split(";")
        seq = "".join(chr(int(p, 16)) for p in points.split())
        index[seq] = (int(page), int(cell))
    for seq, where in list(index.items()):
        bare = seq.replace("\ufe0f", "")
        if bare != seq and bare not in index and (len(bare) > 1 or ord(bare) >= 0x1F000):
            index[bare] = where
    return index, max(len(s) for s in index), size


def emoji_at(text: str, i: int) -> str | None:
    """The longest emoji sequence starting at ``text[i]``, if any."""
    ch = text[i]
    if ch < "\u00a9" and not (i + 1 < len(text) and text[i + 1] in "\ufe0f\u20e3"):
        return None
    index, longest, _ = _emoji_index()
    for end in range(min(len(text), i + longest), i, -1):
        if text[i:end] in index:
            return text[i:end]
    return None


@lru_cache(maxsize=16)
def _emoji_page(page: int) -> Image.Image:
    with Image.open(FONT_DIR / f"emoji-{page:02d}.webp") as img:
        return img.convert("RGBA")


@lru_cache(maxsize=2048)
def _emoji_sprite(seq: str, size: int) -> Image.Image:
    """The emoji ``seq`` for text of ``size`` px (scaled from its sprite; cached)."""
    index, _, (w, h) = _emoji_index()
    page, cell = index[seq]
    sheet = _emoji_page(page)
    per_row = sheet.width // w
    sprite = sheet.crop(((cell % per_row) * w, (cell // per_row) * h,
                         (cell % per_row + 1) * w, (cell // per_row + 1) * h))
    target = (max(1, round(size * _EMOJI_RATIO[0])), max(1, round(size * _EMOJI_RATIO[1])))
    return sprite.resize(target, Image.Resampling.LANCZOS)


MASKS = 1024
"""How many rendered texts the kit keeps (about 7 kB each, 7 MB at most): a board draws the same
labels, names and figures as the board before it, and rendering a text is most of a board's
drawing (the five games' boards drew 40-50% faster in CPU time with it)."""
_masks: OrderedDict[tuple[Any, ...], tuple[Any, tuple[int, int]]] = OrderedDict()
_masks_lock = threading.Lock()


class _Face(ImageFont.FreeTypeFont):
    """A font whose rendered texts are kept (see :data:`MASKS`): Pillow asks it for a text's
    mask each time it draws the text, and the mask of the same text at the same place within a
    pixel is the same mask. Texts are still drawn by Pillow's ``ImageDraw.text``."""

    def getmask2(self, text: str | bytes, mode: str = "", direction: str | None = None,
                 features: list[str] | None = None, language: str | None = None,
                 stroke_width: float = 0, anchor: str | None = None, ink: int = 0,
                 start: tuple[float, float] | None = None, *args: Any,
                 **kwargs: Any) -> tuple[Any, tuple[int, int]]:
        def render() -> tuple[Any, tuple[int, int]]:
            return super(_Face, self).getmask2(text, mode, direction, features, language,
                                               stroke_width, anchor, ink, start, *args, **kwargs)

        if mode == "RGBA" or args:  # (colour fonts: the mask is changed by its drawer)
            return render()
        key = (id(self), text, mode, direction, tuple(features or ()), language, stroke_width,
               anchor, start, tuple(sorted(kwargs.items())))  # (the ink colours no "L" mask)
        with _masks_lock:
            found = _masks.get(key)
            if found is not None:
                _masks.move_to_end(key)
                return found
        made = render()
        with _masks_lock:
            _masks[key] = made
            if len(_masks) > MASKS:
                _masks.popitem(last=False)
        return made


@lru_cache(maxsize=256)
def face(kind: int, size: int, shaped: bool = False) -> ImageFont.FreeTypeFont:
    """Font ``kind`` at ``size`` px (cached, as are the texts it renders): with ``shaped`` laid
    out by raqm (joining, marks, right to left), otherwise by Pillow's basic layout, which is
    faster."""
    engine = ImageFont.Layout.RAQM if shaped and RAQM else ImageFont.Layout.BASIC
    return _Face(str(FONT_DIR / FONT_FILES[kind]), size, layout_engine=engine)


def font(size: int) -> ImageFont.FreeTypeFont:
    """The primary font (Noto Sans: Latin, Greek, Cyrillic) at ``size`` pixels (cached)."""
    return face(PRIMARY, size)


class Run(NamedTuple):
    """A stretch of text drawn by one font: ``shown`` is what is drawn (Arabic joined and
    right-to-left text reversed when there is no raqm), ``text`` the characters it stands for."""

    kind: int
    text: str
    shown: str
    rtl: bool
    shaped: bool


def _is_mark(ch: str) -> bool:
    return unicodedata.category(ch) in ("Mn", "Mc", "Me")


def _is_neutral(ch: str) -> bool:
    """Spaces, punctuation, digits and symbols, which join the run they are in when its font has
    them (so "Zoë (GM)" is one run and an Arabic name keeps its spaces)."""
    return unicodedata.category(ch)[0] in "ZPNS"


def _invisible(ch: str) -> bool:
    """Format characters (joiners, direction marks, variation selectors) draw nothing alone."""
    return unicodedata.category(ch) in ("Cf", "Cc") or "\ufe00" <= ch <= "\ufe0f"


@lru_cache(maxsize=8192)
def runs(text: str) -> tuple[Run, ...]:
    """``text`` cut into runs by the font that draws each character, in visual order (left to
    right on the image). Cached: names and labels recur on every board."""
    return tuple(_order(list(_logical_runs(text))))


@lru_cache(maxsize=8192)
def _logical_runs(text: str) -> tuple[Run, ...]:
    """The runs of ``text`` in reading order."""
    if text.isascii() and text.isprintable():
        return (Run(PRIMARY, text, text, False, False),) if text else ()
    text = unicodedata.normalize("NFC", text)
    pieces: list[tuple[int, str]] = []  # (kind, logical text)
    i = 0
    while i < len(text):
        seq = emoji_at(text, i) if text[i] >= "\u00a9" or text[i] in "#*0123456789" else None
        if seq is not None:
            pieces.append((EMOJI, seq))
            i += len(seq)
            continue
        ch = text[i]
        i += 1
        if _invisible(ch):
            continue
        last = pieces[-1][0] if pieces else None
        if last is not None and last != EMOJI and (_is_mark(ch) or _is_neutral(ch)) \
                and covers(last, ch) and (_is_mark(ch) or last not in _RTL_FONTS
                                          or _rtl_ahead(text, i) or not covers(PRIMARY, ch)):
            pieces[-1] = (last, pieces[-1][1] + ch)
            continue
        kind = font_for(ch)
        if kind is None:
            kind, ch = PRIMARY, PLACEHOLDER
        if last == kind:
            pieces[-1] = (kind, pieces[-1][1] + ch)
        else:
            pieces.append((kind, ch))
    return tuple(_run(kind, part) for kind, part in pieces)


def _rtl_ahead(text: str, i: int) -> bool:
    """Whether the next strongly directed character from ``text[i]`` on is right-to-left (a space
    between two Arabic words belongs to them; one between an Arabic name and English does not)."""
    for ch in text[i:]:
        bidi = unicodedata.bidirectional(ch)
        if bidi in ("R", "AL", "AN") or (bidi == "EN" and not covers(PRIMARY, ch)):
            return True  # (Arabic and Persian digits go with the Arabic beside them)
        if bidi == "L":
            return False
    return False


def _run(kind: int, text: str) -> Run:
    rtl = kind in _RTL_FONTS
    shaped = bool(RAQM) and (rtl or any(_is_mark(ch) for ch in text))
    shown = text
    if rtl and not RAQM:
        shown = _visual_rtl(_join_arabic(text) if kind == ARABIC else text)
    return Run(kind, text, shown, rtl, shaped)


def _strength(run: Run) -> str:
    if run.kind == EMOJI:
        return ""
    for ch in run.text:
        bidi = unicodedata.bidirectional(ch)
        if bidi in ("R", "AL"):
            return "R"
        if bidi == "L":
            return "L"
    return ""


def _order(pieces: list[Run], base: int = 0) -> list[Run]:
    """Runs in visual order: the Unicode bidirectional algorithm's reordering, run by run (a run
    is strongly left-to-right, right-to-left or neutral; neutrals between two runs of one
    direction take it, others the paragraph's). Herald's lines are English, so the paragraph
    reads left to right (``base`` 0): "محمد's turn" puts the name first, at the left."""
    if not any(r.rtl for r in pieces):
        return pieces
    strong = [_strength(r) for r in pieces]
    levels: list[int] = []
    for k, s in enumerate(strong):
        if s:
            levels.append(1 if s == "R" else (2 if base else 0))
            continue
        before = next((x for x in reversed(strong[:k]) if x), "")
        after = next((x for x in strong[k + 1:] if x), "")
        side = before if before == after and before else ("R" if base else "L")
        levels.append(1 if side == "R" else (2 if base else 0))
    order = list(range(len(pieces)))
    for level in range(max(levels), 0, -1):
        k = 0
        while k < len(order):
            if levels[order[k]] >= level:
                end = k
                while end < len(order) and levels[order[end]] >= level:
                    end += 1
                order[k:end] = order[k:end][::-1]
                k = end
            else:
                k += 1
    return [pieces[k] for k in order]


@lru_cache(maxsize=1)
def _arabic_forms() -> tuple[dict[str, dict[str, str]], dict[str, dict[str, str]]]:
    """Unicode's Arabic presentation forms: letter -> {isolated, final, initial, medial: form},
    and alef -> {isolated, final: the lam-alef ligature}."""
    forms: dict[str, dict[str, str]] = {}
    lam_alef: dict[str, dict[str, str]] = {}
    for cp in (*range(0xFB50, 0xFE00), *range(0xFE70, 0xFEFF)):
        parts = unicodedata.decomposition(chr(cp)).split()
        if len(parts) == 2 and parts[0] in ("<isolated>", "<final>", "<initial>", "<medial>"):
            forms.setdefault(chr(int(parts[1], 16)), {}).setdefault(parts[0][1:-1], chr(cp))
        elif len(parts) == 3 and parts[1] == "0644" and parts[0] in ("<isolated>", "<final>"):
            lam_alef.setdefault(chr(int(parts[2], 16)), {})[parts[0][1:-1]] = chr(cp)
    return forms, lam_alef


def _join_arabic(text: str) -> str:
    """Arabic letters in their joined shapes (presentation forms), for drawing without raqm."""
    forms, lam_alef = _arabic_forms()

    def dual(ch: str) -> bool:
        return ch == "\u0640" or "initial" in forms.get(ch, {}) or "medial" in forms.get(ch, {})

    def joins(ch: str) -> bool:
        return ch == "\u0640" or ch in forms

    letters = [k for k, ch in enumerate(text) if not _is_mark(ch)]
    out: list[str] = []
    skip: set[int] = set()
    for pos, k in enumerate(letters):
        if k in skip:
            continue
        ch = text[k]
        prev = text[letters[pos - 1]] if pos > 0 else ""
        nxt_k = letters[pos + 1] if pos + 1 < len(letters) else None
        nxt = text[nxt_k] if nxt_k is not None else ""
        after_join = bool(prev) and dual(prev) and joins(ch)
        marks = text[k + 1:(nxt_k if nxt_k is not None else len(text))]
        if ch == "\u0644" and nxt in lam_alef:
            out.append(lam_alef[nxt]["final" if after_join else "isolated"])
            assert nxt_k is not None
            skip.add(nxt_k)
            out.append(marks + text[nxt_k + 1:(letters[pos + 2] if pos + 2 < len(letters)
                                                else len(text))])
            continue
        before_join = dual(ch) and joins(nxt)
        form = ("medial" if after_join and before_join else "final" if after_join
                else "initial" if before_join else "isolated")
        out.append(forms.get(ch, {}).get(form) or forms.get(ch, {}).get("isolated") or ch)
        out.append(marks)
    return text[:letters[0]] + "".join(out) if letters else text


def _visual_rtl(text: str) -> str:
    """Right-to-left text in drawing order: clusters (a letter and its marks) reversed, numbers
    kept left to right."""
    units: list[str] = []
    for ch in text:
        if units and (_is_mark(ch) or (ch.isdigit() and units[-1][-1].isdigit())):
            units[-1] += ch
        else:
            units.append(ch)
    return "".join(reversed(units))


def drawable(text: str) -> str:
    """``text`` as it is drawn, in reading order: composed (NFC), format characters outside
    emoji sequences left out, any character no font has replaced by the placeholder glyph."""
    return "".join(r.text for r in _logical_runs(text))


def missing(text: str) -> list[str]:
    """The characters of ``text`` that no font draws (each shown as the placeholder)."""
    text = unicodedata.normalize("NFC", text)
    out: list[str] = []
    i = 0
    while i < len(text):
        seq = emoji_at(text, i) if text[i] >= "\u00a9" or text[i] in "#*0123456789" else None
        if seq is not None:
            i += len(seq)
            continue
        if not _invisible(text[i]) and font_for(text[i]) is None:
            out.append(text[i])
        i += 1
    return out


class _Layout(NamedTuple):
    advance: float
    pieces: tuple[tuple[float, Run], ...]
    box: tuple[float, float, float, float]
    """The ink's box relative to the pen's start on the baseline."""


@lru_cache(maxsize=8192)
def _layout(text: str, size: int) -> _Layout:
    pieces: list[tuple[float, Run]] = []
    x = 0.0
    box = [math.inf, math.inf, -math.inf, -math.inf]
    for run in runs(text):
        if run.kind == EMOJI:
            w, h = _emoji_sprite(run.text, size).size
            top = -round(size * _EMOJI_RATIO[2])
            ink: tuple[float, float, float, float] = (x, top, x + w, top + h)
            advance = float(w)
        else:
            f = face(run.kind, size, run.shaped)
            direction = "rtl" if run.rtl and run.shaped else None
            left, top_, right, bottom = f.getbbox(run.shown, anchor="ls", direction=direction)
            ink = (x + left, top_, x + right, bottom)
            advance = f.getlength(run.shown, direction=direction)
        pieces.append((x, run))
        box = [min(box[0], ink[0]), min(box[1], ink[1]), max(box[2], ink[2]), max(box[3], ink[3])]
        x += advance
    if not pieces:
        return _Layout(0.0, (), (0.0, 0.0, 0.0, 0.0))
    return _Layout(x, tuple(pieces), (box[0], box[1], box[2], box[3]))


def _single(text: str) -> Run | None:
    """The run when ``text`` is drawn by one font in one call (most texts): Pillow draws it
    directly, anchors and all."""
    pieces = runs(text)
    if len(pieces) == 1 and pieces[0].kind != EMOJI:
        return pieces[0]
    return None


@lru_cache(maxsize=16384)
def text_size(text: str, size: int) -> tuple[int, int]:
    """The width and height of the ink of ``text`` at ``size`` px (cached: word wrap and clipping
    measure the same words on every board)."""
    one = _single(text)
    if one is not None:
        direction = "rtl" if one.rtl and one.shaped else None
        left, top, right, bottom = face(one.kind, size, one.shaped).getbbox(one.shown,
                                                                            direction=direction)
        return int(right - left), int(bottom - top)
    box = _layout(text, size).box
    return int(box[2] - box[0]), int(box[3] - box[1])


def clusters(text: str) -> list[str]:
    """``text`` in the pieces a reader sees as one character: an emoji sequence, a letter with its
    marks; cutting a text never splits one."""
    text = unicodedata.normalize("NFC", text)
    out: list[str] = []
    i = 0
    while i < len(text):
        seq = emoji_at(text, i) if text[i] >= "\u00a9" or text[i] in "#*0123456789" else None
        if seq is not None:
            out.append(seq)
            i += len(seq)
            continue
        ch = text[i]
        if out and (_is_mark(ch) or _invisible(ch)):
            out[-1] += ch
        else:
            out.append(ch)
        i += 1
    return out


def clip_text(text: str, size: int, width: int) -> str:
    """``text`` shortened with an ellipsis to fit ``width`` pixels at ``size`` (cut between whole
    characters as a reader sees them, never inside an emoji or a letter's accents)."""
    if text_size(text, size)[0] <= width:
        return text
    parts = clusters(text)
    lo, hi = 0, len(parts)  # the longest prefix that fits with the ellipsis, by bisection
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if text_size("".join(parts[:mid]).rstrip() + "\u2026", size)[0] <= width:
            lo = mid
        else:
            hi = mid - 1
    return "".join(parts[:lo]).rstrip() + "\u2026"


_MENTION = re.compile(r"<(?:@[!&]?|#)\d+>|<a?:(\w+):\d+>|@(everyone|here)\b")
_MARKDOWN = re.compile(r"[*_~`|>\\#\[\]()]")


def clean_name(raw: str, fallback: str, *, drawn: bool = True) -> str:
    """A display name without mentions, spaces collapsed, ``fallback`` when nothing visible is
    left. ``drawn`` (for an image) keeps every other character as written: markdown means nothing
    on an image, and the kit draws every script; for alt text (``drawn=False``) markdown
    characters are left out too."""
    text = _MENTION.sub(lambda m: m.group(1) or m.group(2) or "", raw)
    if not drawn:
        text = _MARKDOWN.sub("", text)
    text = " ".join(text.split())
    return text if any(not _invisible(ch) for ch in text) else fallback


def seat_names(names: Sequence[str] | None, players: int, *, drawn: bool = True) -> list[str]:
    """The players' cleaned display names, seat by seat ("P3" where a name is missing); see
    :func:`clean_name` for ``drawn``."""
    given = list(names or [])
    return [clean_name(given[k], f"P{k + 1}", drawn=drawn) if k < len(given) else f"P{k + 1}"
            for k in range(players)]


_PNUM = re.compile(r"\bP([1-8])\b")


def with_names(text: str, names: Sequence[str]) -> str:
    """An engine line with its seat numbers as names: "P2 attacks P1" -> "Bob attacks Ann"."""
    return _PNUM.sub(lambda m: names[int(m.group(1)) - 1] if int(m.group(1)) <= len(names)
                     else m.group(0), text)


def plural(n: int, word: str, words: str | None = None) -> str:
    """"1 believer", "3 believers", "2 Missionaries" (``words`` for an irregular plural): the
    shared text helper's count, so images and messages agree."""
    return count(n, word, words)


_SIZES: ContextVar[list[int] | None] = ContextVar("herald_text_sizes", default=None)


@contextmanager
def measure() -> Iterator[list[int]]:
    """Collect the size of every text drawn (in this context) into the yielded list."""
    sizes: list[int] = []
    token = _SIZES.set(sizes)
    try:
        yield sizes
    finally:
        _SIZES.reset(token)


_DRAWN: ContextVar[list[tuple[str, tuple[Run, ...]]] | None] = ContextVar("herald_drawn_text",
                                                                         default=None)


@contextmanager
def record_text() -> Iterator[list[tuple[str, tuple[Run, ...]]]]:
    """Collect every text drawn (in this context) as (its characters as drawn, its runs): the
    name-coverage test reads it to check that every character was drawn by a font that has it."""
    drawn: list[tuple[str, tuple[Run, ...]]] = []
    token = _DRAWN.set(drawn)
    try:
        yield drawn
    finally:
        _DRAWN.reset(token)


def _record(sizes: Sequence[int]) -> None:
    sink = _SIZES.get()
    if sink is not None:
        sink.extend(sizes)


def draw_text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int,
              fill: Any, *, anchor: str = "la", stroke_width: int = 0, stroke_fill: Any = None) -> None:
    """Draw ``text`` at ``size`` px, each character by the first font that has it (emoji as
    colour sprites, the placeholder for a character no font has), right-to-left runs in their
    order, and report the size to :func:`measure` (once per font run Pillow draws)."""
    sink = _DRAWN.get()
    if sink is not None:
        sink.append((drawable(text), runs(text)))
    one = _single(text)
    if one is not None:
        if not one.shown.strip():
            return
        _record((size,))
        draw.text(xy, one.shown, font=face(one.kind, size, one.shaped), fill=fill, anchor=anchor,
                  stroke_width=stroke_width, stroke_fill=stroke_fill,
                  direction="rtl" if one.rtl and one.shaped else None)
        return
    lay = _layout(text, size)
    if not lay.pieces:
        return
    x, y = xy
    h, v = (anchor + "la")[0], (anchor + "la")[1]
    x -= {"l": 0.0, "m": lay.advance / 2, "r": lay.advance}.get(h, 0.0)
    ascent, descent = font(size).getmetrics()
    base = y + {"a": ascent, "m": (ascent - descent) / 2, "s": 0, "d": -descent,
                "t": -lay.box[1], "b": -lay.box[3]}.get(v, ascent)
    for dx, run in lay.pieces:
        if run.kind == EMOJI:
            sprite = _emoji_sprite(run.text, size)
            at = (round(x + dx), round(base - size * _EMOJI_RATIO[2]))
            draw._image.paste(sprite, at, sprite)  # noqa: SLF001  (the image being drawn on)
            continue
        if not run.shown.strip():
            continue
        _record((size,))
        draw.text((x + dx, base), run.shown, font=face(run.kind, size, run.shaped), fill=fill,
                  anchor="ls", stroke_width=stroke_width, stroke_fill=stroke_fill,
                  direction="rtl" if run.rtl and run.shaped else None)


def wrap(text: str, size: int, width: int) -> list[str]:
    """Greedy word wrap of ``text`` to ``width`` pixels at ``size``."""
    lines: list[str] = []
    for para in text.split("\n"):
        line = ""
        for word in para.split():
            trial = f"{line} {word}".strip()
            if text_size(trial, size)[0] <= width or not line:
                line = trial
            else:
                lines.append(line)
                line = word
        lines.append(line)
    return lines


_LAYERS: dict[tuple[Any, ...], tuple[Image.Image, list[int]]] = {}


def cached_layer(key: tuple[Any, ...], build: Callable[[], Image.Image]) -> Image.Image:
    """Return a copy of a static layer, building it once per process (e.g. a map background).
    The text sizes drawn while building are reported again on every use, so a layer's labels
    count towards the image they end up in."""
    if key not in _LAYERS:
        if len(_LAYERS) > 128:
            _LAYERS.clear()
        with measure() as sizes:
            image = build()
        _LAYERS[key] = (image, sizes)
    image, sizes = _LAYERS[key]
    _record(sizes)
    return image.copy()


class Canvas:
    """A small wrapper over an RGB image with Herald's text and shape helpers."""

    def __init__(self, width: int, height: int, bg: RGB | None = None,
                 image: Image.Image | None = None) -> None:
        self.image = image if image is not None else Image.new("RGB", (width, height), bg or PALETTE["bg"])
        self.draw = ImageDraw.Draw(self.image)
        self.smallest: int | None = None
        """The smallest text size drawn on this canvas (None before any text)."""

    @property
    def size(self) -> tuple[int, int]:
        return self.image.size

    def text(self, xy: tuple[float, float], text: str, size: int = 20, fill: RGB | None = None,
             anchor: str = "la", *, width: int | None = None) -> None:
        """Text at ``size`` px; with ``width``, clipped with an ellipsis to that many pixels."""
        if width is not None:
            text = clip_text(text, size, width)
        if text.strip():
            self.smallest = size if self.smallest is None else min(self.smallest, size)
        draw_text(self.draw, xy, text, size, fill or PALETTE["ink"], anchor=anchor)

    def text_block(self, xy: tuple[float, float], text: str, width: int, size: int = 20,
                   fill: RGB | None = None, spacing: int = 5, *, max_lines: int | None = None) -> int:
        """Wrapped text (at most ``max_lines`` lines, the last one clipped); returns the y below."""
        x, y = xy
        lines = wrap(text, size, width)
        if max_lines is not None and len(lines) > max_lines:
            lines = lines[:max_lines]
            lines[-1] = clip_text(lines[-1] + " \u2026", size, width)
        for line in lines:
            self.text((x, y), line, size, fill)
            y += size + spacing
        return int(y)

    def rect(self, box: tuple[float, float, float, float], fill: RGB | None = None,
             outline: RGB | None = None, radius: int = 8, width: int = 2) -> None:
        self.draw.rounded_rectangle(box, radius=radius, fill=fill, outline=outline, width=width)

    def circle(self, centre: tuple[float, float], r: float, fill: RGB | None = None,
               outline: RGB | None = None, width: int = 2) -> None:
        x, y = centre
        self.draw.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=outline, width=width)

    def header(self, title: str, subtitle: str = "") -> int:
        """A title bar across the top (title left, subtitle right); returns its height."""
        w, _ = self.size
        self.rect((0, 0, w, 64), fill=PALETTE["panel"], radius=0)
        self.text((18, 13), title, 32, PALETTE["accent"])
        if subtitle:
            room = w - 54 - text_size(title, 32)[0]
            self.text((w - 18, 20), subtitle, 24, PALETTE["muted"], anchor="ra", width=room)
        return 64

    def badge(self, centre: tuple[float, float], seat: int, r: float) -> None:
        """The seat's mark: its shape in its colour with its number inside (see SEAT_SHAPES)."""
        shape_mark(self.draw, centre, r, SEAT_SHAPES[seat % len(SEAT_SHAPES)], seat_colour(seat),
                   outline=PALETTE["bg"])
        size = max(int(r * 1.15), min_text(self.size[0]))
        self.text((centre[0], centre[1] + r * 0.06), str(seat + 1), size, PALETTE["bg"], anchor="mm")

    def name_tag(self, xy: tuple[float, float], seat: int, name: str, size: int, width: int,
                 fill: RGB | None = None, *, rest: str = "") -> None:
        """Badge then name, vertically centred on ``xy[1]``, clipped to ``width`` pixels. ``rest``
        follows the name and is never cut: a long name is shortened to leave it room ("Zoë the
        Remarkab…'s hand")."""
        x, y = xy
        r = size * 0.72
        self.badge((x + r, y), seat, r)
        room = int(width - 2 * r - 10)
        if rest:
            name = clip_text(name, size, room - text_size(rest, size)[0] - size // 3) + rest
        self.text((x + 2 * r + 10, y), name, size, fill or PALETTE["ink"], anchor="lm", width=room)


def shape_mark(draw: ImageDraw.ImageDraw, centre: tuple[float, float], r: float, shape: str,
               fill: Any, outline: Any = None, width: int = 2) -> None:
    """A filled shape of radius ``r`` (circle, square, diamond, triangle, n-gons, shield)."""
    x, y = centre
    if shape == "circle":
        draw.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=outline, width=width)
        return
    if shape == "square":
        s = r * 0.9
        draw.rounded_rectangle((x - s, y - s, x + s, y + s), radius=max(1, int(r * 0.2)), fill=fill,
                               outline=outline, width=width)
        return
    if shape == "shield":
        s = r * 0.92
        points = [(x - s, y - s), (x + s, y - s), (x + s, y + s * 0.2), (x, y + s * 1.1),
                  (x - s, y + s * 0.2)]
    else:
        sides, turn = {"diamond": (4, 0.0), "triangle": (3, 0.0), "hexagon": (6, 30.0),
                       "pentagon": (5, 0.0), "octagon": (8, 22.5)}[shape]
        rr = r * (1.25 if shape == "triangle" else 1.08 if shape == "diamond" else 1.0)
        cy = y + (r * 0.22 if shape == "triangle" else 0.0)
        points = [(x + rr * math.sin(math.radians(turn + 360 * i / sides)),
                   cy - rr * math.cos(math.radians(turn + 360 * i / sides))) for i in range(sides)]
    draw.polygon(points, fill=fill, outline=outline, width=width)


def card_height(title: str, body: str, *, width: int, title_size: int = 24, body_size: int = 20,
                footer: str = "", body_lines: int = 8) -> int:
    """The height :func:`card` needs for this text at ``width`` (no empty space below)."""
    t = min(2, len(wrap(title, title_size, width - 24)))
    b = min(body_lines, len(wrap(body, body_size, width - 28))) if body else 0
    return 16 + t * (title_size + 6) + 14 + b * (body_size + 5) + (_footer_room(body_size) if footer else 0) + 10


def _footer_room(size: int) -> int:
    """The height a card's footer line takes at ``size`` px, with its margin."""
    return int(size * 1.5) + 14


def card(title: str, body: str, *, width: int = 240, height: int | None = None,
         colour: RGB | None = None, footer: str = "", title_size: int = 24, body_size: int = 20,
         body_lines: int = 8) -> Image.Image:
    """A playing card: coloured band with its title, the wrapped body text, an optional footer.
    Without ``height`` the card is as tall as its text needs."""
    if height is None:
        height = card_height(title, body, width=width, title_size=title_size, body_size=body_size,
                             footer=footer, body_lines=body_lines)
    c = Canvas(width, height, bg=PALETTE["bg"])
    band = colour or PALETTE["accent"]
    c.rect((2, 2, width - 3, height - 3), fill=PALETTE["card"], outline=band, radius=12, width=4)
    titles = wrap(title, title_size, width - 24)[:2]
    band_h = 12 + len(titles) * (title_size + 6)
    c.rect((6, 6, width - 7, 6 + band_h), fill=band, radius=8)
    for i, line in enumerate(titles):
        c.text((width / 2, 14 + i * (title_size + 6)), line, title_size, PALETTE["card_ink"],
               anchor="ma", width=width - 20)
    if body:
        c.text_block((14, 16 + band_h), body, width - 28, body_size, PALETTE["card_ink"],
                     max_lines=body_lines)
    if footer:
        c.text((width / 2, height - _footer_room(body_size) + 4), footer, body_size, (110, 100, 90),
               anchor="ma", width=width - 20)
    return c.image


def pill(c: Canvas, xy: tuple[float, float], text: str, colour: RGB, size: int = 20) -> int:
    """A rounded label; returns its width."""
    w, _ = text_size(text, size)
    x, y = xy
    c.rect((x, y, x + w + 16, y + size + 10), fill=colour, radius=(size + 10) // 2, width=0)
    c.text((x + 8, y + 4), text, size, PALETTE["bg"])
    return w + 16


def legend(c: Canvas, xy: tuple[float, float], items: Sequence[tuple[Callable[[Canvas, tuple[float, float], float], None], str]],
           size: int, width: int) -> int:
    """A row (wrapping onto more rows) of symbol + word pairs; returns the y below it."""
    x0, y = xy
    x = x0
    r = size * 0.6
    for draw_symbol, label in items:
        w = int(2 * r + 8 + text_size(label, size)[0] + 22)
        if x > x0 and x + w > x0 + width:
            x, y = x0, y + size + 14
        draw_symbol(c, (x + r, y + size / 2), r)
        c.text((x + 2 * r + 8, y + size / 2), label, size, PALETTE["ink"], anchor="lm")
        x += w
    return int(y + size + 14)


# --------------------------------------------------------------------------- icons

ICONS: dict[str, str] = {
    "cards": "cards in hand", "bead": "beads", "follower": "followers", "power": "power",
    "mobility": "mobility", "vp": "victory points", "temple": "temples", "believer": "believers",
}
"""The kit's icons and the word each stands for (the word goes in the alt text and a legend:
an icon never replaces a word a player has not been shown)."""


def icon(c: Canvas, kind: str, centre: tuple[float, float], size: int,
         fill: RGB | None = None) -> None:
    """The icon ``kind`` (a key of :data:`ICONS`) about ``size`` px tall, centred on ``centre``,
    drawn with Pillow's shapes (no image files): the same picture for the same thing in every
    game, at least as tall as the text beside it."""
    sink = _ICON_SIZES.get()
    if sink is not None:
        sink.append(size)
    sprite = _icon_sprite(kind, size, fill or PALETTE["ink"])
    c.image.paste(sprite, (round(centre[0]) - size, round(centre[1]) - size), sprite)


@lru_cache(maxsize=512)
def _icon_sprite(kind: str, size: int, ink: RGB) -> Image.Image:
    """The icon drawn once on a transparent square twice its size, centred (cached: a board
    pastes the same few icons many times)."""
    if kind not in ICONS:
        raise ValueError(f"no icon named {kind!r}")
    sprite = Image.new("RGBA", (2 * size, 2 * size), (0, 0, 0, 0))
    d = ImageDraw.Draw(sprite)
    x = y = float(size)
    s = float(size)
    edge = PALETTE["bg"]
    line = max(2, round(s / 12))
    if kind == "cards":  # two cards fanned, the front one with a band
        w, h = s * 0.52, s * 0.74
        d.rounded_rectangle((x - w / 2 - s * 0.16, y - h / 2 - s * 0.08, x + w / 2 - s * 0.16,
                             y + h / 2 - s * 0.08), radius=max(1, round(s * 0.08)), fill=edge,
                            outline=ink, width=line)
        d.rounded_rectangle((x - w / 2 + s * 0.1, y - h / 2 + s * 0.06, x + w / 2 + s * 0.1,
                             y + h / 2 + s * 0.06), radius=max(1, round(s * 0.08)), fill=ink,
                            outline=edge, width=line)
        d.line((x - w / 2 + s * 0.2, y - h / 4 + s * 0.06, x + w / 2, y - h / 4 + s * 0.06),
               fill=edge, width=line)
    elif kind == "bead":  # a bead with its hole and a highlight
        r = s * 0.4
        d.ellipse((x - r, y - r, x + r, y + r), fill=ink, outline=edge, width=1)
        d.ellipse((x - r * 0.3, y - r * 0.3, x + r * 0.3, y + r * 0.3), fill=edge)
        d.ellipse((x - r * 0.72, y - r * 0.72, x - r * 0.36, y - r * 0.36), fill=PALETTE["card"])
    elif kind in ("follower", "believer"):  # a figure: head and shoulders (a believer wears a halo)
        hr = s * 0.17
        hy = y - s * 0.17
        d.ellipse((x - hr, hy - hr, x + hr, hy + hr), fill=ink)
        d.pieslice((x - s * 0.34, y + s * 0.05, x + s * 0.34, y + s * 0.75), 180, 360, fill=ink)
        if kind == "believer":
            d.arc((x - hr * 1.3, hy - hr * 2.0, x + hr * 1.3, hy - hr * 0.9), 0, 360, fill=ink,
                  width=line)
    elif kind == "power":  # a lightning bolt
        pts = [(0.12, -0.48), (-0.28, 0.06), (-0.02, 0.06), (-0.14, 0.48), (0.28, -0.1),
               (0.02, -0.1), (0.14, -0.48)]
        d.polygon([(x + a * s, y + b * s) for a, b in pts], fill=ink)
    elif kind == "mobility":  # two chevrons: moving on
        for dx in (-0.2, 0.12):
            pts = [(dx - 0.1, -0.36), (dx + 0.1, -0.36), (dx + 0.3, 0.0), (dx + 0.1, 0.36),
                   (dx - 0.1, 0.36), (dx + 0.1, 0.0)]
            d.polygon([(x + a * s, y + b * s) for a, b in pts], fill=ink)
    elif kind == "vp":  # a five-pointed star
        pts = []
        for k in range(10):
            r = s * (0.48 if k % 2 == 0 else 0.2)
            a = math.radians(-90 + 36 * k)
            pts.append((x + r * math.cos(a), y + s * 0.03 + r * math.sin(a)))
        d.polygon(pts, fill=ink)
    elif kind == "temple":  # a pediment on three columns and a step
        d.polygon([(x - s * 0.46, y - s * 0.16), (x, y - s * 0.46), (x + s * 0.46, y - s * 0.16)],
                  fill=ink)
        for dx in (-0.32, -0.06, 0.2):
            d.rectangle((x + dx * s, y - s * 0.1, x + (dx + 0.12) * s, y + s * 0.3), fill=ink)
        d.rectangle((x - s * 0.46, y + s * 0.34, x + s * 0.46, y + s * 0.46), fill=ink)
    return sprite


_ICON_SIZES: ContextVar[list[int] | None] = ContextVar("herald_icon_sizes", default=None)


@contextmanager
def measure_icons() -> Iterator[list[int]]:
    """Collect the size of every icon drawn (in this context): icons are held to the text floor
    like the words beside them."""
    sizes: list[int] = []
    token = _ICON_SIZES.set(sizes)
    try:
        yield sizes
    finally:
        _ICON_SIZES.reset(token)


def icon_symbol(kind: str, fill: RGB | None = None) -> Callable[[Canvas, tuple[float, float], float], None]:
    """The icon as a :func:`legend` symbol (a legend gives each icon its word)."""
    def draw(c: Canvas, centre: tuple[float, float], r: float) -> None:
        icon(c, kind, centre, round(r * 2), fill)
    return draw


def icon_width(parts: Sequence[tuple[str, str]], size: int) -> int:
    """The width :func:`icon_text` draws ``parts`` in."""
    gap = size // 2
    return (sum((size + 4 if kind else 0) + text_size(t, size)[0] for kind, t in parts)
            + gap * max(0, len(parts) - 1))


def icon_text(c: Canvas, xy: tuple[float, float], parts: Sequence[tuple[str, str]], size: int,
              fill: RGB | None = None, *, icon_fill: RGB | None = None) -> int:
    """Icons each followed by its figure ("⚡ 215  » 3"), left-aligned at ``xy`` (the top of the
    text); a part whose icon is "" is its text alone ("Unit", "value 30"). Returns the width
    drawn."""
    x, y = xy
    gap = size // 2
    for i, (kind, text) in enumerate(parts):
        if i:
            x += gap
        if kind:
            icon(c, kind, (x + size / 2, y + size * 0.62), size, icon_fill or fill)
            x += size + 4
        c.text((x, y), text, size, fill)
        x += text_size(text, size)[0]
    return int(x - xy[0])


# ------------------------------------------------------------------ the boards' shared boxes

BOX_MARGIN = 12
"""The gap between the shared boxes and the image's edges."""


def banner(c: Canvas, y: int, lines: Sequence[str], *, seat: int | None = None, head: str = "",
           rest: str = "", size: int = 24, colour: RGB | None = None) -> int:
    """The box every board opens with, under its header: who must do what, and by when.
    ``head`` (30 px, after ``seat``'s badge when given) says whose decision it is, ``rest``
    following a name never cut ("Ann" + "'s turn"); ``lines`` say what they are to do, each wrapped whole (the first in the accent
    colour when there is no head). Returns the y below it."""
    w = c.size[0]
    inner = w - 2 * BOX_MARGIN - 36
    head_h = 44 if head else 0
    rows = [(part, i == 0 and not head) for i, ln in enumerate(lines) for part in wrap(ln, size, inner)]
    h = 22 + head_h + (size + 8) * len(rows)
    accent = colour or PALETTE["accent"]
    c.rect((BOX_MARGIN, y, w - BOX_MARGIN, y + h), fill=PALETTE["panel_hi"], outline=accent,
           radius=14, width=4)
    if head:
        if seat is not None:
            c.name_tag((BOX_MARGIN + 18, y + 32), seat, head, 30, inner, rest=rest)
        else:
            c.text((BOX_MARGIN + 18, y + 14), head + rest, 30, accent, width=inner)
    for i, (text, first) in enumerate(rows):
        c.text((BOX_MARGIN + 18, y + 12 + head_h + (size + 8) * i), text, size,
               accent if first else PALETTE["ink"])
    return y + h + BOX_MARGIN


class Ranked(NamedTuple):
    """A row of the final ranking: the seat, its display name, its score in words (the parts
    that decided the order, named: "3 captured · 1 standing · 12 beads") and whether it won."""

    seat: int
    name: str
    score: str
    winner: bool


def ranking_box(c: Canvas, y: int, rows: Sequence[Ranked], reason: str, *,
                size: int = 24) -> int:
    """The box every finished game opens with: "Final ranking", place by place the name (with
    its badge, WINNER beside a winner) and its score under it, then why the game ended.
    Returns the y below it."""
    w = c.size[0]
    inner = w - 2 * BOX_MARGIN - 36
    x0 = BOX_MARGIN + 18
    row_h = 2 * size + 26
    scores = [wrap(r.score, size, inner - 40) for r in rows]
    reason = reason.strip()
    why = wrap(reason[:1].upper() + reason[1:], size, inner) if reason else []
    h = 62 + sum(row_h + (size + 6) * (len(s) - 1) for s in scores) + (size + 6) * len(why) + 10
    c.rect((BOX_MARGIN, y, w - BOX_MARGIN, y + h), fill=PALETTE["panel_hi"], outline=PALETTE["accent"],
           radius=14, width=4)
    c.text((x0, y + 12), "Final ranking", 30, PALETTE["accent"])
    yy = y + 62
    mark = "WINNER"
    for place, (row, score) in enumerate(zip(rows, scores, strict=True), 1):
        tone = PALETTE["accent"] if row.winner else PALETTE["ink"]
        c.text((x0, yy), f"{place}.", size, tone)
        room = inner - 40 - (text_size(mark, size)[0] + 12 if row.winner else 0)
        c.name_tag((x0 + 40, yy + size * 0.6), row.seat, row.name, size, room)
        if row.winner:
            c.text((w - BOX_MARGIN - 18, yy + 2), mark, size, PALETTE["accent"], anchor="ra")
        sy = yy + size + 8
        for part in score:
            c.text((x0 + 80, sy), part, size, PALETTE["accent"] if row.winner else PALETTE["muted"])
            sy += size + 6
        yy += row_h + (size + 6) * (len(score) - 1)
    for part in why:
        c.text((x0, yy), part, size, PALETTE["muted"])
        yy += size + 6
    return y + h + BOX_MARGIN


def moves_box(c: Canvas, y: int, title: str, lines: Sequence[str], *, size: int = 24) -> int:
    """The box of what just happened ("Last moves", a game's last combat or reveal): its title,
    then each line wrapped whole. Returns the y below it."""
    w = c.size[0]
    inner = w - 2 * BOX_MARGIN - 36
    rows = [part for ln in lines for part in wrap(ln, size, inner)]
    h = 52 + (size + 6) * len(rows)
    c.rect((BOX_MARGIN, y, w - BOX_MARGIN, y + h), fill=PALETTE["panel"], radius=12, width=0)
    c.text((BOX_MARGIN + 18, y + 10), title, size, PALETTE["accent"], width=inner)
    yy = y + 46
    for part in rows:
        c.text((BOX_MARGIN + 18, yy), part, size, PALETTE["ink"])
        yy += size + 6
    return y + h + BOX_MARGIN


def to_png(image: Image.Image, *, optimize: bool = False) -> bytes:
    """PNG bytes of ``image`` as 256 palette colours with light compression: about half the time
    and size of a full-colour PNG, which matters for a board posted on every move. An image of
    at most 256 colours keeps them exactly; for one of more, the palette is chosen from every
    other pixel of every other row (a third of the time of choosing it from all of them, and as
    close to the image: text at phone size makes tall boards)."""
    buf = io.BytesIO()
    if image.mode == "RGB":
        exact = image.getcolors(256)
        if exact is not None:
            pal = Image.new("P", (1, 1))
            flat = [int(v) for _, colour in exact for v in colour]  # type: ignore[union-attr]
            pal.putpalette(flat + [0] * (768 - len(flat)))
            image = image.quantize(palette=pal, dither=Image.Dither.NONE)
        else:
            sample = image.resize((max(1, image.width // 2), max(1, image.height // 2)),
                                  Image.Resampling.NEAREST)
            pal = sample.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
            image = image.quantize(palette=pal, dither=Image.Dither.NONE)
    image.save(buf, format="PNG", optimize=optimize, compress_level=9 if optimize else 1)
    return buf.getvalue()


ALT_LIMIT = 1024
"""Discord keeps at most this many characters of an attachment's description (its alt text)."""


def alt_text(*sentences: str) -> str:
    """An image's alt text from sentences (empty ones skipped), within Discord's limit."""
    parts = [s.strip() for s in sentences if s and s.strip()]
    parts = [p[0].upper() + p[1:] for p in parts]
    text = " ".join(p if p[-1] in ".!?:" else p + "." for p in parts)
    return text if len(text) <= ALT_LIMIT else text[: ALT_LIMIT - 1] + "\u2026"
