"""Primitives of the drawing kit. Pure functions of their arguments; no I/O except ``to_png``.

Every piece of text goes through :func:`draw_text` (``Canvas.text`` uses it), which makes it
drawable by the bundled font and reports its size to :func:`measure`: the readability test renders
each game's images inside ``measure()`` and checks the smallest size against the image's width
(Discord shows an image about 400 px wide on a phone; see :data:`MIN_TEXT_SHARE`).
"""

from __future__ import annotations

import io
import math
import re
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

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

MIN_TEXT_SHARE = 0.022
"""The smallest text an image may use, as a share of its width: at 800 px wide, 18 px text, which a
phone showing the image 400 px wide draws about 9 px tall."""


def seat_colour(seat: int) -> RGB:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def min_text(width: int) -> int:
    """The smallest text size (px) allowed on an image ``width`` pixels wide."""
    return math.ceil(width * MIN_TEXT_SHARE)


@lru_cache(maxsize=64)
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's bundled scalable font at ``size`` pixels (cached)."""
    return ImageFont.load_default(size)


_SWAPS = {"\u2014": "-", "\u2013": "-", "\u2212": "-", "\u2192": "->", "\u2190": "<-", "\u00d7": "x",
          "\u2665": "<3", "\u2022": "\u00b7", "\u00a0": " "}


@lru_cache(maxsize=4096)
def _has_glyph(ch: str) -> bool:
    """Whether the bundled font draws ``ch`` (rather than its empty-box placeholder)."""
    if " " <= ch <= "~":
        return True
    f = font(20)
    return bytes(f.getmask(ch)) != bytes(f.getmask("\uffff"))


@lru_cache(maxsize=2048)
def drawable(text: str) -> str:
    """``text`` as the bundled font can draw it: dashes and arrows in ASCII, accents dropped
    ("Zoë" → "Zoe"), other characters it lacks (emoji, other scripts) left out."""
    out: list[str] = []
    for ch in text:
        ch = _SWAPS.get(ch, ch)
        if len(ch) > 1 or _has_glyph(ch):
            out.append(ch)
            continue
        base = "".join(c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c))
        out.extend(c for c in base if _has_glyph(c))
    return "".join(out)


def text_size(text: str, size: int) -> tuple[int, int]:
    left, top, right, bottom = font(size).getbbox(drawable(text))
    return int(right - left), int(bottom - top)


def clip_text(text: str, size: int, width: int) -> str:
    """``text`` shortened with an ellipsis to fit ``width`` pixels at ``size``."""
    text = drawable(text)
    if text_size(text, size)[0] <= width:
        return text
    while text and text_size(text + "\u2026", size)[0] > width:
        text = text[:-1]
    return text.rstrip() + "\u2026"


_MENTION = re.compile(r"<(?:@[!&]?|#)\d+>|<a?:(\w+):\d+>|@(everyone|here)\b")
_MARKDOWN = re.compile(r"[*_~`|>\\#\[\]()]")


def clean_name(raw: str, fallback: str, *, drawn: bool = True) -> str:
    """A display name without mentions or markdown, spaces collapsed; ``drawn`` (for an image)
    also without characters the font lacks. ``fallback`` when nothing is left."""
    text = _MENTION.sub(lambda m: m.group(1) or m.group(2) or "", raw)
    text = _MARKDOWN.sub("", text)
    text = " ".join((drawable(text) if drawn else text).split())
    return text or fallback


def seat_names(names: Sequence[str] | None, players: int, *, drawn: bool = True) -> list[str]:
    """The players' cleaned display names, seat by seat ("P3" where a name is missing); with
    ``drawn=False`` (alt text, which is not drawn) other scripts and emoji are kept."""
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


def _record(sizes: Sequence[int]) -> None:
    sink = _SIZES.get()
    if sink is not None:
        sink.extend(sizes)


def draw_text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int,
              fill: Any, *, anchor: str = "la", stroke_width: int = 0, stroke_fill: Any = None) -> None:
    """Draw ``text`` (made drawable) at ``size`` px and report the size to :func:`measure`."""
    text = drawable(text)
    if not text.strip():
        return
    _record((size,))
    draw.text(xy, text, font=font(size), fill=fill, anchor=anchor, stroke_width=stroke_width,
              stroke_fill=stroke_fill)


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
                 fill: RGB | None = None) -> None:
        """Badge then name, vertically centred on ``xy[1]``, clipped to ``width`` pixels."""
        x, y = xy
        r = size * 0.72
        self.badge((x + r, y), seat, r)
        self.text((x + 2 * r + 10, y), name, size, fill or PALETTE["ink"], anchor="lm",
                  width=int(width - 2 * r - 10))


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
    return 16 + t * (title_size + 6) + 14 + b * (body_size + 5) + (body_size + 14 if footer else 0) + 10


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
        c.text((width / 2, height - body_size - 12), footer, body_size, (110, 100, 90), anchor="ma",
               width=width - 20)
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


def to_png(image: Image.Image, *, optimize: bool = False) -> bytes:
    """PNG bytes of ``image`` as 256 palette colours with light compression: about half the time
    and size of a full-colour PNG, which matters for a board posted on every move. An image of
    at most 256 colours keeps them exactly."""
    buf = io.BytesIO()
    if image.mode == "RGB":
        exact = image.getcolors(256)
        if exact is not None:
            pal = Image.new("P", (1, 1))
            flat = [int(v) for _, colour in exact for v in colour]  # type: ignore[union-attr]
            pal.putpalette(flat + [0] * (768 - len(flat)))
            image = image.quantize(palette=pal, dither=Image.Dither.NONE)
        else:
            image = image.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
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
