"""Herald's shared drawing kit: fonts, palette, seat colours, primitives and static-layer caching.

Every board, hand and table image is drawn with Pillow from a *redacted* view. Fonts come from
Pillow itself (its embedded scalable font), never from the host, so images look the same on
every machine.
"""

from .kit import (
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

__all__ = [
    "PALETTE", "SEAT_COLOURS", "SEAT_NAMES", "Canvas", "cached_layer", "card", "font", "pill",
    "seat_colour", "text_size", "to_png", "wrap",
]
