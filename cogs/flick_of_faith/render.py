"""Drawing the Flick of Faith board from a redacted view (Pillow only).

The map (sea, islands with their border band and city ring, the navel, the cloud corners with
their angle convention) is a cached static layer; discs, tokens, laws, scores and the turn are
drawn on top for every update. ``aim_image`` draws a seat's private wobble-free preview.
"""

from __future__ import annotations

import math
from typing import Any

from PIL import Image, ImageDraw

from bot.render import PALETTE, Canvas, cached_layer, font, seat_colour, text_size, wrap
from rules.flick_of_faith import aim, gods, laws
from rules.flick_of_faith import map as board
from rules.flick_of_faith.discs import HEART_REACH, KINDS

JSON = dict[str, Any]
RGB = tuple[int, int, int]

SEA = (30, 84, 130)
SEA_DEEP = (22, 62, 102)
SHALLOW = (64, 136, 170)
SAND = (214, 194, 140)
LAND = (120, 160, 90)
BORDER = (236, 220, 170)
CITY = (170, 120, 80)
NAVEL = (242, 186, 72)
CLOUD = (232, 236, 244)
APE = (122, 84, 52)
HEART = (220, 60, 90)

PHASES = {"gods": "choosing gods", "setup_flick": "first-player flick", "council": "Council",
          "mission": "Mission", "tiebreak": "tie-break flick", "over": "game over"}


class Board:
    """Maps board units to pixels for a square map drawn at ``(ox, oy)`` with side ``side``."""

    def __init__(self, ox: float, oy: float, side: float) -> None:
        self.ox, self.oy, self.k = ox, oy, side / board.SIZE

    def p(self, x: float, y: float) -> tuple[float, float]:
        return (self.ox + x * self.k, self.oy + y * self.k)

    def circle(self, d: ImageDraw.ImageDraw, x: float, y: float, r: float, **kw: Any) -> None:
        cx, cy = self.p(x, y)
        rr = r * self.k
        d.ellipse((cx - rr, cy - rr, cx + rr, cy + rr), **kw)


def _seat_corner(view: JSON) -> dict[int, int]:
    return {c: k for k, c in enumerate(view["corners"])}


def draw_map(side: int, players: int) -> Image.Image:
    """The static map layer (sea, islands, cities, navel, corners, angle conventions)."""
    img = Image.new("RGB", (side, side), SEA)
    d = ImageDraw.Draw(img)
    b = Board(0, 0, side)
    for r in range(70, 0, -7):  # a soft deep-water vignette towards the edges
        shade = tuple(int(SEA_DEEP[i] + (SEA[i] - SEA_DEEP[i]) * (70 - r) / 70) for i in range(3))
        b.circle(d, 50, 50, r + 2, fill=shade)
    for isl in board.ISLANDS:
        b.circle(d, isl.x, isl.y, isl.radius + 2.2, fill=SHALLOW)
        b.circle(d, isl.x, isl.y, isl.radius, fill=BORDER)
        b.circle(d, isl.x, isl.y, isl.radius - 1.0, fill=SAND)
        b.circle(d, isl.x, isl.y, isl.radius - 3.0, fill=LAND)
        b.circle(d, isl.x, isl.y, isl.city_radius, fill=CITY, outline=BORDER, width=max(2, int(b.k * 0.5)))
        # roman numeral outside the city, towards the map edge
        dx, dy = isl.x - 50, isl.y - 50
        n = math.hypot(dx, dy)
        tx, ty = b.p(isl.x - dx / n * (isl.radius + 4.2), isl.y - dy / n * (isl.radius + 4.2))
        d.text((tx, ty), isl.name, font=font(int(b.k * 4.0)), fill=BORDER, anchor="mm",
               stroke_width=2, stroke_fill=SEA_DEEP)
    b.circle(d, 50, 50, board.NAVEL_RADIUS, fill=(250, 226, 150), outline=NAVEL, width=max(3, int(b.k * 0.8)))
    d.text(b.p(50, 50), "navel", font=font(int(b.k * 2.0)), fill=(90, 60, 20), anchor="mm")
    used = set(board.SEAT_CORNERS[players])
    seat_of = {c: k for k, c in enumerate(board.SEAT_CORNERS[players])}
    for c, (cx, cy) in enumerate(board.CORNER_POINTS):
        px, py = b.p(cx, cy)
        rr = board.CORNER_RADIUS * b.k
        colour = seat_colour(seat_of[c]) if c in used else (150, 160, 175)
        d.ellipse((px - rr, py - rr, px + rr, py + rr), fill=CLOUD if c in used else (120, 140, 165),
                  outline=colour, width=max(3, int(b.k * 0.7)))
        if c in used:
            _draw_convention(d, b, c, colour)
    return img


def _draw_convention(d: ImageDraw.ImageDraw, b: Board, corner: int, colour: RGB) -> None:
    """The angle convention at a corner: 0° at the navel, ticks every 30°, + is clockwise."""
    sx, sy = board.launch_spot(corner)
    base = board.base_heading((sx, sy))
    o = b.p(sx, sy)
    for a in (-60, -30, 0, 30, 60):
        h = math.radians(base + a)
        r0, r1 = 3.0, (16.0 if a == 0 else 11.0)
        p0 = b.p(sx + r0 * math.cos(h), sy + r0 * math.sin(h))
        p1 = b.p(sx + r1 * math.cos(h), sy + r1 * math.sin(h))
        d.line((p0, p1), fill=colour if a == 0 else (110, 120, 140), width=max(2, int(b.k * (0.5 if a == 0 else 0.25))))
        lx, ly = b.p(sx + (r1 + 2.6) * math.cos(h), sy + (r1 + 2.6) * math.sin(h))
        label = "0°" if a == 0 else f"{a:+d}"
        d.text((lx, ly), label, font=font(int(b.k * 2.0)), fill=(30, 30, 40) if a else colour, anchor="mm",
               stroke_width=2, stroke_fill=(255, 255, 255))
    # arrowhead on the 0° line
    h = math.radians(base)
    tip = b.p(sx + 16 * math.cos(h), sy + 16 * math.sin(h))
    for side in (-1, 1):
        w = h + math.pi + side * 0.45
        d.line((tip, (tip[0] + b.k * 2.2 * math.cos(w), tip[1] + b.k * 2.2 * math.sin(w))),
               fill=colour, width=max(2, int(b.k * 0.5)))
    d.ellipse((o[0] - 3, o[1] - 3, o[0] + 3, o[1] + 3), fill=colour)


def draw_discs(d: ImageDraw.ImageDraw, b: Board, discs: list[JSON], *, highlight: set[int] | None = None,
               labels: bool = True) -> None:
    """Every disc by owner and kind, temples first (they are the lowest)."""
    order = {"temple": 0, "hand": 1, "king_ape": 2, "heart": 3, "sphinx": 4, "templar": 5, "prophet": 6}
    for disc in sorted(discs, key=lambda x: (order.get(x["kind"], 9), x["id"])):
        kind = KINDS[disc["kind"]]
        x, y, r = disc["x"], disc["y"], kind.radius
        owner = disc.get("owner")
        colour = seat_colour(owner) if owner is not None else (200, 200, 200)
        w = max(2, int(b.k * 0.35))
        if disc["kind"] == "temple":
            b.circle(d, x, y, r, fill=tuple(int(c * 0.55) for c in colour), outline=colour, width=max(3, int(b.k * 0.7)))
            b.circle(d, x, y, r * 0.55, fill=colour)
            cx, cy = b.p(x, y)
            s = r * 0.35 * b.k
            d.polygon([(cx - s, cy + s * 0.6), (cx + s, cy + s * 0.6), (cx, cy - s)], fill=(250, 250, 250))
        elif disc["kind"] == "king_ape":
            b.circle(d, x, y, r, fill=APE, outline=(60, 40, 20), width=w)
        elif disc["kind"] == "heart":
            b.circle(d, x, y, r + HEART_REACH, outline=HEART, width=max(2, int(b.k * 0.25)))
            b.circle(d, x, y, r, fill=HEART, outline=(120, 20, 40), width=w)
        elif disc["kind"] == "hand":
            b.circle(d, x, y, r, fill=(150, 150, 160), outline=(60, 60, 70), width=w)
        else:
            b.circle(d, x, y, r, fill=colour, outline=(20, 20, 28), width=w)
        if labels and kind.label and disc["kind"] != "heart":
            d.text(b.p(x, y), kind.label, font=font(max(10, int(b.k * r * 0.9))), fill=(20, 20, 28)
                   if disc["kind"] not in ("king_ape",) else (250, 240, 220), anchor="mm")
        if highlight and disc["id"] in highlight:
            b.circle(d, x, y, r + 1.2, outline=(255, 255, 255), width=max(2, int(b.k * 0.3)))


def _player_line(view: JSON, k: int) -> str:
    g = view["gods"][k]
    god = gods.name(g) if g else f"{view['dealt'][k]} card"
    return f"P{k + 1} {god}"


def board_image(view: JSON) -> Image.Image:
    """The public board: map, discs, tokens, scores, laws, generation and phase, whose turn."""
    side, panel = 900, 400
    W, H = side + panel + 48, side + 56 + 32
    c = Canvas(W, H)
    gen = f"Generation {view['generation']}/{view['generations']}" if view["generation"] else "Setup"
    c.header("Flick of Faith", f"{gen} · {PHASES.get(view['phase'], view['phase'])}")
    layer = cached_layer(("fof-map", side, view["players"]), lambda: draw_map(side, view["players"]))
    c.image.paste(layer, (16, 72))
    b = Board(16, 72, side)
    lf = view.get("last_flick")
    if lf and lf.get("origin") and str(lf.get("flicked")) in (lf.get("result") or {}):
        end = lf["result"][str(lf["flicked"])]
        c.draw.line((b.p(*lf["origin"]), b.p(*end)), fill=(255, 255, 255), width=2)
    if lf and lf.get("hand"):
        hx, hy = lf["hand"]
        b.circle(c.draw, hx, hy, KINDS["hand"].radius, outline=(200, 200, 210), width=2)
    draw_discs(c.draw, b, view["discs"], highlight=set(view.get("in_corner") or []))
    _panel(c, view, side + 40, 72, panel)
    return c.image


def _panel(c: Canvas, view: JSON, x: int, y: int, w: int) -> None:
    active = view.get("active")
    # whose turn
    if view["phase"] == "mission" and active is not None:
        what = {"flick": "to flick", "anubis": "Anubis: flick again?", "build": "to build temples",
                "reuse": "to move a temple"}.get(view["stage"], "")
        c.rect((x, y, x + w, y + 52), fill=seat_colour(active), radius=10, width=0)
        c.text((x + 14, y + 13), f"{_player_line(view, active)} {what}", 24, PALETTE["bg"])
        y += 66
    elif view["phase"] in ("gods", "council", "setup_flick", "tiebreak"):
        waiting = {"gods": [k for k in range(view["players"]) if k not in view["god_chosen"]],
                   "council": [k for k in range(view["players"]) if k not in view["voted"]],
                   }.get(view["phase"], [k for k in view["flickers"] if k not in view["flicked"]])
        c.text((x, y + 6), "Waiting for " + (", ".join(f"P{k + 1}" for k in waiting) or "—"), 22, PALETTE["accent"])
        y += 44
    elif view["phase"] == "over" and view.get("winners"):
        c.rect((x, y, x + w, y + 52), fill=PALETTE["accent"], radius=10, width=0)
        c.text((x + 14, y + 13), "Winner: " + ", ".join(f"P{k + 1}" for k in view["winners"]), 24, PALETTE["bg"])
        y += 66
    # players
    for k in range(view["players"]):
        col = seat_colour(k)
        c.rect((x, y, x + w, y + 74), fill=PALETTE["panel"], outline=col, radius=10, width=3)
        c.circle((x + 24, y + 24), 11, fill=col)
        first = "  (1st)" if view["first_player"] == k and view["phase"] not in ("gods", "setup_flick") else ""
        c.text((x + 44, y + 10), _player_line(view, k) + first, 22)
        c.text((x + w - 14, y + 8), f"{view['vp'][k]} VP", 26, PALETTE["accent"], anchor="ra")
        hand = " ".join(f"{n}{KINDS[kd].label or 'P'}" for kd, n in view["supply"][k].items() if n) or "empty"
        extra = " +Heart" if view["gods"][k] == "freja" and view["heart_ready"] else ""
        c.text((x + 14, y + 44), f"hand {hand}{extra} · temples {view['temples'][k]} · reserve {view['reserve'][k]}",
               17, PALETTE["muted"])
        y += 84
    # council
    if view["council"]:
        c.text((x, y + 4), "Council vote", 22, PALETTE["accent"])
        y += 34
        for tag, law in zip(("👍 upper", "👎 lower"), view["council"], strict=False):
            c.text((x, y), f"{'UP' if 'upper' in tag else 'DOWN'}: {law['name']}", 19)
            y = c.text_block((x + 12, y + 24), law["text"], w - 12, 15, PALETTE["muted"], spacing=3) + 6
    # laws in force
    c.text((x, y + 6), "Laws in force", 22, PALETTE["accent"])
    y += 38
    if not view["laws"]:
        c.text((x, y), "none yet", 17, PALETTE["muted"])
        y += 26
    for law in view["laws"]:
        dur = {"game": "whole game", "generation": "this Generation", "instant": "done"}[law["duration"]]
        c.text((x, y), f"{law['name']} ({dur})", 18)
        lines = wrap(law["text"], 14, w - 12)[:3]
        for i, line in enumerate(lines):
            c.text((x + 12, y + 24 + i * 18), line, 14, PALETTE["muted"])
        y += 30 + 18 * len(lines)
        if y > c.size[1] - 60:
            break
    if not view.get("aim_preview", True):
        c.text((x, c.size[1] - 40), "Eyes Closed: no aim preview", 18, PALETTE["bad"])


def aim_image(view: JSON, seat: int, angle: float, power: float, *, piece: str | None = None,
              hand: str | None = None) -> Image.Image:
    """A seat's private aim preview: the wobble-free path and where discs would stop."""
    side = 720
    c = Canvas(side + 32, side + 56 + 60)
    c.header("Aim preview", f"P{seat + 1} · angle {angle:g} · power {power:g}")
    c.image.paste(cached_layer(("fof-map", side, view["players"]), lambda: draw_map(side, view["players"])), (16, 64))
    b = Board(16, 64, side)
    if not view.get("aim_preview", True):
        draw_discs(c.draw, b, view["discs"])
        c.rect((16, side // 2, side + 16, side // 2 + 70), fill=PALETTE["panel"], radius=10, width=0)
        c.text((side // 2 + 16, side // 2 + 35), "Eyes Closed: no preview this Generation", 24, PALETTE["bad"], anchor="mm")
        return c.image
    pred = aim.predict(view, seat, angle, power, piece=piece, hand=hand)
    ghosts = [dict(d) for d in view["discs"]]
    draw_discs(c.draw, b, ghosts, labels=False)
    after = []
    for d in list(view["discs"]) + pred.plan.placed:
        if d["id"] in pred.positions:
            x, y = pred.positions[d["id"]]
            if math.hypot(x - d["x"], y - d["y"]) > 0.3 or d["id"] == pred.plan.flicked:
                after.append({**d, "x": x, "y": y})
    if pred.plan.hand:
        b.circle(c.draw, pred.plan.hand[0], pred.plan.hand[1], KINDS["hand"].radius, fill=(150, 150, 160))
    pts = [b.p(x, y) for x, y in pred.path]
    for i in range(0, len(pts) - 1, 2):
        c.draw.line((pts[i], pts[i + 1]), fill=(255, 255, 255), width=3)
    for d in after:
        b.circle(c.draw, d["x"], d["y"], KINDS[d["kind"]].radius + 0.6, outline=(255, 255, 255), width=2)
    draw_discs(c.draw, b, after)
    where = "leaves the map" if pred.landing is None else "stops at the ringed spot"
    c.text((16, side + 72), f"Without wobble your disc {where}. Real flicks wobble more at high power.", 18)
    return c.image


def text_fits(text: str, size: int, width: int) -> bool:
    return text_size(text, size)[0] <= width


__all__ = ["board_image", "aim_image", "draw_map", "draw_discs", "Board", "laws"]
