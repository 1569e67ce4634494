"""Primitives of the drawing kit. Pure functions of their arguments; no I/O except ``to_png``."""

from __future__ import annotations

import io
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

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


def seat_colour(seat: int) -> RGB:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


@lru_cache(maxsize=64)
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's bundled scalable font at ``size`` pixels (cached)."""
    return ImageFont.load_default(size)


def text_size(text: str, size: int) -> tuple[int, int]:
    left, top, right, bottom = font(size).getbbox(text)
    return int(right - left), int(bottom - top)


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


_LAYERS: dict[tuple[Any, ...], Image.Image] = {}


def cached_layer(key: tuple[Any, ...], build: Callable[[], Image.Image]) -> Image.Image:
    """Return a copy of a static layer, building it once per process (e.g. a map background)."""
    if key not in _LAYERS:
        if len(_LAYERS) > 128:
            _LAYERS.clear()
        _LAYERS[key] = build()
    return _LAYERS[key].copy()


class Canvas:
    """A small wrapper over an RGB image with Herald's text and shape helpers."""

    def __init__(self, width: int, height: int, bg: RGB | None = None,
                 image: Image.Image | None = None) -> None:
        self.image = image if image is not None else Image.new("RGB", (width, height), bg or PALETTE["bg"])
        self.draw = ImageDraw.Draw(self.image)

    @property
    def size(self) -> tuple[int, int]:
        return self.image.size

    def text(self, xy: tuple[float, float], text: str, size: int = 18, fill: RGB | None = None,
             anchor: str = "la") -> None:
        self.draw.text(xy, text, font=font(size), fill=fill or PALETTE["ink"], anchor=anchor)

    def text_block(self, xy: tuple[float, float], text: str, width: int, size: int = 16,
                   fill: RGB | None = None, spacing: int = 4) -> int:
        """Wrapped text; returns the y below the block."""
        x, y = xy
        for line in wrap(text, size, width):
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
        """A title bar across the top; returns its height."""
        w, _ = self.size
        self.rect((0, 0, w, 56), fill=PALETTE["panel"], radius=0)
        self.text((16, 10), title, 26, PALETTE["accent"])
        if subtitle:
            self.text((w - 16, 16), subtitle, 18, PALETTE["muted"], anchor="ra")
        return 56


def card(title: str, body: str, *, width: int = 180, height: int = 250,
         colour: RGB | None = None, footer: str = "") -> Image.Image:
    """A playing card: coloured band with title, wrapped body text, optional footer."""
    c = Canvas(width, height, bg=PALETTE["bg"])
    band = colour or PALETTE["accent"]
    c.rect((2, 2, width - 3, height - 3), fill=PALETTE["card"], outline=band, radius=12, width=4)
    c.rect((6, 6, width - 7, 44), fill=band, radius=8)
    for i, line in enumerate(wrap(title, 17, width - 20)[:2]):
        c.text((width / 2, 14 + i * 17), line, 17, PALETTE["card_ink"], anchor="ma")
    c.text_block((12, 54), body, width - 24, 14, PALETTE["card_ink"], spacing=3)
    if footer:
        c.text((width / 2, height - 22), footer, 14, PALETTE["card_ink"], anchor="ma")
    return c.image


def pill(c: Canvas, xy: tuple[float, float], text: str, colour: RGB, size: int = 16) -> int:
    """A rounded label; returns its width."""
    w, _ = text_size(text, size)
    x, y = xy
    c.rect((x, y, x + w + 16, y + size + 10), fill=colour, radius=(size + 10) // 2, width=0)
    c.text((x + 8, y + 4), text, size, PALETTE["bg"])
    return w + 16


def to_png(image: Image.Image, *, optimize: bool = False) -> bytes:
    buf = io.BytesIO()
    image.save(buf, format="PNG", optimize=optimize)
    return buf.getvalue()
