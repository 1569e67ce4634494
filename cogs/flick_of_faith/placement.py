"""The private temple placement preview (``/temple … preview:True``): one island, close up.

Drawn from the seat's own view, so it shows nothing the seat cannot see. The island fills the
picture with the clock directions players use to name a place (12 up, 3 right, as on the board
image) and rings at every 3 units from the city, the discs on and around it, and the temple where
it would stand: a solid outline when it may stand there, a dashed red one with the reason below
when it may not.
"""

from __future__ import annotations

import math
from typing import Any

from PIL import Image

from bot.render import PALETTE, Canvas, min_text, seat_colour
from rules.flick_of_faith import map as board
from rules.flick_of_faith import temples
from rules.flick_of_faith.discs import KINDS
from rules.flick_of_faith.views import View

JSON = dict[str, Any]
WIDTH = 800
SPAN = 2 * (board.ISLAND_RADIUS + 4.0)
"""Board units shown across the picture (the island and a margin of sea)."""
RING_STEP = 3.0


def problem_for(view: View, params: JSON | None, island: int, x: float, y: float) -> str | None:
    """What the engine would say about a temple at (x, y) for this seat: with its open build
    prompt's ``params``, exactly the engine's check; without one, only the island and free
    ground are checked."""
    options = list((params or {}).get("prophets", []))
    if options:
        chosen = temples.choose_prophet(options, island)
        return temples.problem(view["discs"], x, y, chosen["islands"], exclude=chosen["id"])
    return temples.problem(view["discs"], x, y, list(range(4)))


def placement_image(view: View, seat: int, island: int, x: float, y: float,
                    problem: str | None) -> Image.Image:
    isl = board.ISLANDS[island]
    side = WIDTH
    caption = 3 * min_text(WIDTH) + 60
    c = Canvas(side, side + caption, PALETTE["sea"])
    scale = side / SPAN
    ox, oy = isl.x - SPAN / 2, isl.y - SPAN / 2

    def px(bx: float, by: float) -> tuple[float, float]:
        return ((bx - ox) * scale, (by - oy) * scale)

    centre = px(isl.x, isl.y)
    c.circle(centre, isl.radius * scale, fill=PALETTE["land"], outline=(236, 220, 170), width=4)
    small = min_text(WIDTH)
    diag = math.radians(-45)  # ring distances are written towards half past one
    for r in (RING_STEP, 2 * RING_STEP, 3 * RING_STEP):
        c.circle(centre, r * scale, outline=(150, 132, 90), width=1)
        c.text((centre[0] + r * scale * math.cos(diag) + 4, centre[1] + r * scale * math.sin(diag) - 4),
               f"{r:g}", small, (90, 76, 50), anchor="ld")
    c.circle(centre, isl.city_radius * scale, fill=(170, 120, 80), outline=(110, 74, 46), width=3)
    c.circle(centre, temples.MAX_DISTANCE * scale, outline=(236, 220, 170), width=2)
    for hour in range(1, 13):
        a = math.radians(hour * 30 - 90)
        r_in, r_out = (isl.radius - 1.2) * scale, (isl.radius + 0.2) * scale
        c.draw.line((centre[0] + r_in * math.cos(a), centre[1] + r_in * math.sin(a),
                     centre[0] + r_out * math.cos(a), centre[1] + r_out * math.sin(a)),
                    fill=PALETTE["ink"], width=3)
        lr = (isl.radius + 2.2) * scale
        c.text((centre[0] + lr * math.cos(a), centre[1] + lr * math.sin(a)), str(hour),
               small + 4, PALETTE["ink"], anchor="mm")
    for d in view["discs"]:
        if abs(d["x"] - isl.x) > SPAN / 2 + 4 or abs(d["y"] - isl.y) > SPAN / 2 + 4:
            continue
        r = KINDS[d["kind"]].radius * scale
        p = px(d["x"], d["y"])
        if d["owner"] is None:
            c.circle(p, r, fill=(122, 84, 52), outline=PALETTE["bg"], width=2)
            continue
        fill = seat_colour(d["owner"])
        c.circle(p, r, fill=fill, outline=PALETTE["bg"], width=2)
        if d["kind"] == "temple":  # the board's temple mark: a square inside the disc
            c.draw.rectangle((p[0] - r * 0.6, p[1] - r * 0.6, p[0] + r * 0.6, p[1] + r * 0.6),
                             outline=PALETTE["bg"], width=3)
        c.text(p, str(d["owner"] + 1), max(small, int(r)), PALETTE["bg"], anchor="mm")
    tp = px(x, y)
    tr = temples.RADIUS * scale
    if problem is None:
        c.circle(tp, tr, outline=PALETTE["good"], width=6)
        c.draw.rectangle((tp[0] - tr * 0.55, tp[1] - tr * 0.55, tp[0] + tr * 0.55, tp[1] + tr * 0.55),
                         outline=seat_colour(seat), width=4)
    else:
        for k in range(0, 360, 20):
            a0, a1 = math.radians(k), math.radians(k + 12)
            c.draw.line((tp[0] + tr * math.cos(a0), tp[1] + tr * math.sin(a0),
                         tp[0] + tr * math.cos(a1), tp[1] + tr * math.sin(a1)),
                        fill=PALETTE["bad"], width=6)
    c.rect((0, side, side, side + caption), fill=PALETTE["panel"], radius=0)
    where = temples.describe(island, x, y)
    verdict = "A temple may stand here." if problem is None else "Not here: " + problem
    c.text((18, side + 12), f"Your temple: {where}", small + 4, PALETTE["accent"], width=side - 36)
    c.text_block((18, side + 22 + small + 4), verdict, side - 36, small,
                 PALETTE["good"] if problem is None else PALETTE["bad"], max_lines=2)
    return c.image
