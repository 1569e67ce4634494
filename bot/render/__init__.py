"""Herald's shared drawing kit: fonts, palette, seat colours and shapes, primitives, static-layer
caching, text measuring and alt text.

Every board, hand and table image is drawn with Pillow from a *redacted* view. Fonts ship with
the package (subsets of the Noto fonts in ``fonts/``, with per-character fallback across scripts
and colour emoji), never from the host, so images look the same on every machine. Images are
designed for a phone first: see ``MIN_TEXT_SHARE``.
"""

from .kit import (
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
    card_height,
    clean_name,
    clip_text,
    draw_text,
    drawable,
    font,
    legend,
    measure,
    min_text,
    pill,
    plural,
    seat_colour,
    seat_names,
    shape_mark,
    text_size,
    to_png,
    with_names,
    wrap,
)

__all__ = [
    "ALT_LIMIT", "MIN_TEXT_SHARE", "PALETTE", "SEAT_COLOURS", "SEAT_NAMES", "SEAT_SHAPES", "Canvas",
    "alt_text", "cached_layer", "card", "card_height", "clean_name", "clip_text", "draw_text",
    "drawable", "font", "legend", "measure", "min_text", "pill", "plural", "seat_colour", "seat_names",
    "shape_mark", "text_size", "to_png", "with_names", "wrap",
]
