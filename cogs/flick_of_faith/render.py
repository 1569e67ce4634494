"""Drawing the Flick of Faith board from a redacted view (Pillow only).

The map (sea, islands with their border band and city ring, the navel, the cloud corners with
their angle convention) is a cached static layer; discs, tokens, laws, scores and the turn are
drawn on top for every update. ``aim_image`` draws a seat's private wobble-free preview.

Drawn for a phone first: 800 px wide with the map across it, no text under 3% of the width
(see ``bot.render.MIN_TEXT_SHARE``). Every disc carries its owner's seat number and its kind has
its own mark (prophet plain, templar ringed, sphinx with a diamond, temple square), explained in
the legend under the map, so seats and kinds never depend on colour alone.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image, ImageDraw

from bot.render import (
    PALETTE,
    Canvas,
    alt_text,
    cached_layer,
    draw_text,
    plural,
    seat_colour,
    seat_names,
    shape_mark,
    text_size,
)
from bot.render.kit import Ranked, banner, icon_text, icon_width, ranking_box
from rules.flick_of_faith import aim, gods, laws
from rules.flick_of_faith import map as board
from rules.flick_of_faith.discs import HEART_REACH, KINDS
from rules.flick_of_faith.views import View
from rules.text import listing

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


def _seat_corner(view: View) -> dict[int, int]:
    return {c: k for k, c in enumerate(view["corners"])}


SMALL = 24
"""The smallest text on the board and the aim preview: 3% of their 800 px width (a phone shows
them about 400 px wide)."""


def map_text(side: int) -> int:
    """The smallest label size on a map ``side`` pixels wide (the image rule's share of the
    board's width, the map being nearly as wide as the image it sits in)."""
    return math.ceil(side * SMALL / W)


def draw_map(side: int, players: int) -> Image.Image:
    """The static map layer (sea, islands, cities, navel, corners, angle conventions)."""
    small = map_text(side)
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
        draw_text(d, (tx, ty), isl.name, max(small, int(b.k * 4.0)), BORDER, anchor="mm",
                  stroke_width=2, stroke_fill=SEA_DEEP)
    b.circle(d, 50, 50, board.NAVEL_RADIUS, fill=(250, 226, 150), outline=NAVEL, width=max(3, int(b.k * 0.8)))
    used = set(board.SEAT_CORNERS[players])
    seat_of = {c: k for k, c in enumerate(board.SEAT_CORNERS[players])}
    for c, (cx, cy) in enumerate(board.CORNER_POINTS):
        px, py = b.p(cx, cy)
        rr = board.CORNER_RADIUS * b.k
        colour = seat_colour(seat_of[c]) if c in used else (150, 160, 175)
        d.ellipse((px - rr, py - rr, px + rr, py + rr), fill=CLOUD if c in used else (120, 140, 165),
                  outline=colour, width=max(3, int(b.k * 0.7)))
        if c in used:
            _draw_convention(d, b, c, colour, small)
    return img


def _draw_convention(d: ImageDraw.ImageDraw, b: Board, corner: int, colour: RGB, small: int) -> None:
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
        # the ±60 labels sit a little inside their ticks and further out than the ±30 ones, so
        # near the map's edge they neither leave the map nor meet their neighbours
        lh, lr = (math.radians(base + a * 0.8), r1 + 6.0) if abs(a) == 60 else (h, r1 + 2.6)
        lx, ly = b.p(sx + lr * math.cos(lh), sy + lr * math.sin(lh))
        label = "0°" if a == 0 else f"{a:+d}"
        size = max(small, int(b.k * 2.0))
        half = text_size(label, size)[0] / 2 + 4  # kept whole inside the map
        lx = min(max(lx, b.ox + half), b.ox + board.SIZE * b.k - half)
        ly = min(max(ly, b.oy + size * 0.6), b.oy + board.SIZE * b.k - size * 0.6)
        draw_text(d, (lx, ly), label, size, (30, 30, 40) if a else colour, anchor="mm",
                  stroke_width=2, stroke_fill=(255, 255, 255))
    # arrowhead on the 0° line
    h = math.radians(base)
    tip = b.p(sx + 16 * math.cos(h), sy + 16 * math.sin(h))
    for side in (-1, 1):
        w = h + math.pi + side * 0.45
        d.line((tip, (tip[0] + b.k * 2.2 * math.cos(w), tip[1] + b.k * 2.2 * math.sin(w))),
               fill=colour, width=max(2, int(b.k * 0.5)))
    d.ellipse((o[0] - 3, o[1] - 3, o[0] + 3, o[1] + 3), fill=colour)


KIND_MARK = {"prophet": "prophet", "templar": "templar", "sphinx": "sphinx", "temple": "temple"}


def draw_discs(d: ImageDraw.ImageDraw, b: Board, discs: Sequence[Mapping[str, Any]], *, highlight: set[int] | None = None,
               labels: bool = True, text: int = SMALL) -> None:
    """Every disc by owner and kind, temples first (they are the lowest). With ``labels`` each
    player's disc shows its owner's seat number (at least ``text`` px) and the neutral ones their
    name."""
    order = {"temple": 0, "hand": 1, "king_ape": 2, "heart": 3, "sphinx": 4, "templar": 5, "prophet": 6}
    for disc in sorted(discs, key=lambda x: (order.get(x["kind"], 9), x["id"])):
        kind = KINDS[disc["kind"]]
        x, y, r = disc["x"], disc["y"], kind.radius
        owner = disc.get("owner")
        colour = seat_colour(owner) if owner is not None else (200, 200, 200)
        w = max(2, int(b.k * 0.35))
        cx, cy = b.p(x, y)
        label = ""
        if disc["kind"] == "temple":
            shape_mark(d, (cx, cy), r * b.k * 0.92, "square", tuple(int(v * 0.55) for v in colour),
                       outline=colour, width=max(3, int(b.k * 0.7)))
            shape_mark(d, (cx, cy), r * b.k * 0.5, "square", colour)
        elif disc["kind"] == "king_ape":
            b.circle(d, x, y, r, fill=APE, outline=(60, 40, 20), width=w)
            label = "APE"
        elif disc["kind"] == "heart":
            b.circle(d, x, y, r + HEART_REACH, outline=HEART, width=max(2, int(b.k * 0.25)))
            b.circle(d, x, y, r, fill=HEART, outline=(120, 20, 40), width=w)
        elif disc["kind"] == "hand":
            b.circle(d, x, y, r, fill=(150, 150, 160), outline=(60, 60, 70), width=w)
            label = "HAND"
        else:
            b.circle(d, x, y, r, fill=colour, outline=(20, 20, 28), width=w)
            if disc["kind"] == "templar":
                b.circle(d, x, y, r * 0.78, outline=(250, 250, 250), width=max(2, int(b.k * 0.3)))
            elif disc["kind"] == "sphinx":
                shape_mark(d, (cx, cy), r * b.k * 0.72, "diamond", None, outline=(20, 20, 28),
                           width=max(2, int(b.k * 0.35)))
        if labels:
            if owner is not None and disc["kind"] in ("prophet", "templar", "sphinx", "temple"):
                size = max(text, int(b.k * r * (0.8 if disc["kind"] == "temple" else 1.1)))
                draw_text(d, (cx, cy), str(owner + 1), size, (20, 20, 28), anchor="mm")
            elif label:
                draw_text(d, (cx, cy), label, max(text, int(b.k * r * 0.8)),
                          (250, 240, 220) if disc["kind"] == "king_ape" else (20, 20, 28), anchor="mm")
        if highlight and disc["id"] in highlight:
            b.circle(d, x, y, r + 1.2, outline=(255, 255, 255), width=max(2, int(b.k * 0.3)))


def _god(view: View, k: int) -> str:
    g = view["gods"][k]
    return gods.name(g) if g else f"{view['dealt'][k]} card"


def _ranking(view: View) -> list[int]:
    winners = view.get("winners") or []
    return sorted(range(view["players"]), key=lambda k: (k not in winners, -view["vp"][k], k))


W = 800
MAP = 768


def board_image(view: View, names: Sequence[str] | None = None) -> Image.Image:
    """The public board: map with discs, whose turn (or the final ranking), the players with their
    god, VP and hand, the legend, the council and the laws in force."""
    who = seat_names(names, view["players"])
    c = Canvas(W, 2400)
    gen = f"Generation {view['generation']} of {view['generations']}" if view["generation"] else "Setup"
    c.header("Flick of Faith", gen if view["phase"] != "over" else "game over")
    y = 72
    y = _banner(c, view, who, y)
    layer = cached_layer(("fof-map", MAP, view["players"]), lambda: draw_map(MAP, view["players"]))
    c.image.paste(layer, (16, y))
    b = Board(16, y, MAP)
    lf = view.get("last_flick")
    if lf and lf.get("origin") and str(lf.get("flicked")) in (lf.get("result") or {}):
        end = lf["result"][str(lf["flicked"])]
        c.draw.line((b.p(*lf["origin"]), b.p(*end)), fill=(255, 255, 255), width=2)
    hand = lf.get("hand") if lf else None
    if hand:
        hx, hy = hand
        b.circle(c.draw, hx, hy, KINDS["hand"].radius, outline=(200, 200, 210), width=2)
    draw_discs(c.draw, b, view["discs"], highlight=set(view.get("in_corner") or []), text=SMALL)
    y += MAP + 12
    y = _legend(c, view, y)
    y = _players(c, view, who, y)
    y = _laws(c, view, y)
    return c.image.crop((0, 0, W, y + 12))


def _banner(c: Canvas, view: View, who: list[str], y: int) -> int:
    """Who must do what (or the final ranking and why the game ended), in the kit's shared
    boxes; returns the y below."""
    phase = view["phase"]
    active = view.get("active")
    if phase == "over":
        winners = view.get("winners") or []
        rows = [Ranked(k, who[k], f"{view['vp'][k]} VP · {_god(view, k)}", k in winners)
                for k in _ranking(view)]
        return ranking_box(c, y, rows, str(view.get("end_reason") or ""))
    if phase == "mission" and active is not None:
        what = {"flick": "flicks a disc", "anubis": "may flick again (Anubis)",
                "build": "may build temples", "reuse": "may move a temple"}.get(view["stage"], "")
        return banner(c, y, [f"{who[active]} ({_god(view, active)}) {what}."], seat=active,
                      head=who[active], rest="'s turn")
    waiting = {"gods": [k for k in range(view["players"]) if k not in view["god_chosen"]],
               "council": [k for k in range(view["players"]) if k not in view["voted"]],
               }.get(phase, [k for k in view.get("flickers", []) if k not in view.get("flicked", [])])
    what = {"gods": "to choose a god", "council": "to vote", "setup_flick": "to flick for first player",
            "tiebreak": "to flick the tie-break"}.get(phase, "")
    text = (f"Waiting for {listing([who[k] for k in waiting])} {what}." if waiting
            else str(PHASES.get(phase, phase)).capitalize() + ".")
    return banner(c, y, [text])


def _legend(c: Canvas, view: View, y: int) -> int:
    kinds = ["prophet", "templar", "sphinx", "temple"]
    present = {d["kind"] for d in view["discs"]}
    kinds += [k for k in ("king_ape", "heart", "hand") if k in present]
    label = {"prophet": "prophet", "templar": "templar", "sphinx": "sphinx", "temple": "temple",
             "king_ape": "King Ape", "heart": "Heart", "hand": "Hand", "navel": "navel"}
    x = 20
    r = 15
    row = 40
    for kind in [*kinds, "navel"]:
        w = 2 * r + 8 + text_size(label[kind], SMALL)[0] + 20
        if x + w > W - 16:
            x, y = 20, y + row
        if kind == "navel":
            c.circle((x + r, y + 18), r * 0.9, fill=(250, 226, 150), outline=NAVEL, width=3)
        else:
            sample = Board(x + r, y + 18, r / KINDS[kind].radius * board.SIZE)  # the disc r px wide
            draw_discs(c.draw, sample, [{"id": 0, "kind": kind, "owner": 0 if kind in KIND_MARK else None,
                                         "x": 0.0, "y": 0.0}], labels=False)
        c.text((x + 2 * r + 8, y + 18), label[kind], SMALL, PALETTE["ink"], anchor="lm")
        x += w
    note = "number on a disc = its player's seat"
    if x + text_size(note, SMALL)[0] > W - 20:
        x, y = 20, y + row
    c.text((x, y + 18), note, SMALL, PALETTE["muted"], anchor="lm")
    return y + row + 6


PLAYER_H = 160
"""A player's panel and the gap under it."""


def _players(c: Canvas, view: View, who: list[str], y: int) -> int:
    """Each player: name and VP, god, the discs they still have to flick, their temples (built,
    and left to build)."""
    cw = (W - 16 * 2 - 12) // 2
    n = int(view["players"])
    for k in range(n):
        x = 16 + (k % 2) * (cw + 12)
        yy = y + (k // 2) * PLAYER_H
        now = view.get("active") == k and view["phase"] == "mission"
        c.rect((x, yy, x + cw, yy + PLAYER_H - 10), fill=PALETTE["panel_hi"] if now else PALETTE["panel"],
               outline=seat_colour(k), radius=12, width=3)
        vp = [("vp", f"{view['vp'][k]} VP")]
        vw = icon_width(vp, 26)
        c.name_tag((x + 12, yy + 24), k, who[k], 24, cw - 36 - vw)
        icon_text(c, (x + cw - 12 - vw, yy + 10), vp, 26, PALETTE["accent"])
        first = " · 1st player" if view["first_player"] == k and view["phase"] not in ("gods", "setup_flick") else ""
        c.text((x + 12, yy + 48), _god(view, k) + first, SMALL, width=cw - 24)
        hand = ", ".join(plural(m, kd) for kd, m in view["supply"][k].items() if m) or "no prophets"
        extra = ", Heart" if gods.rule(view["gods"][k]).heart and view["heart_ready"] else ""
        c.text((x + 12, yy + 80), f"To flick: {hand}{extra}", SMALL, PALETTE["muted"], width=cw - 24)
        built = sum(1 for d in view["discs"] if d["kind"] == "temple" and d.get("owner") == k)
        left = int(view["temples"][k])
        icon_text(c, (x + 12, yy + 112), [("temple", f"{built} built · {left} left to build")], SMALL,
                  PALETTE["muted"])
    return y + ((n + 1) // 2) * PLAYER_H + 4


def _laws(c: Canvas, view: View, y: int) -> int:
    if view["council"]:
        up, down = (view["council"] + [None, None])[:2]
        text = "Council vote: up " + (up["name"] if up else "-") + ", down " + (down["name"] if down else "-")
        y = c.text_block((20, y), text, W - 40, SMALL, PALETTE["accent"], max_lines=2) + 4
    laws_now = ", ".join(law["name"] for law in view["laws"]) or "none yet"
    y = c.text_block((20, y), f"Laws in force: {laws_now}", W - 40, SMALL, PALETTE["muted"], max_lines=3) + 4
    if not view.get("aim_preview", True):
        c.text((20, y), "Eyes Closed: no aim preview", SMALL, PALETTE["bad"])
        y += SMALL + 10
    return y


def board_alt(view: View, names: Sequence[str] | None = None) -> str:
    """The board in words: the scores, whose turn or who won, the laws (public)."""
    who = seat_names(names, view["players"], drawn=False)
    scores = "; ".join(f"{who[k]} ({_god(view, k)}) {view['vp'][k]} VP" for k in _ranking(view))
    laws_now = ", ".join(law["name"] for law in view["laws"]) or "none"
    if view["phase"] == "over":
        won = ", ".join(who[k] for k in view.get("winners") or []) or "nobody"
        return alt_text(f"Flick of Faith, game over: {won} {'wins' if len(view.get('winners') or []) < 2 else 'share the win'}.",
                        f"Final ranking: {scores}.", view.get("end_reason", ""))
    gen = f"Generation {view['generation']} of {view['generations']}" if view["generation"] else "Setup"
    active = view.get("active")
    turn = f"{who[active]} is to play." if view["phase"] == "mission" and active is not None else ""
    return alt_text(f"Flick of Faith board, {gen}, {PHASES.get(view['phase'], view['phase'])}.", turn,
                    f"Scores: {scores}.", f"Laws in force: {laws_now}.")


def aim_image(view: View, seat: int, angle: float, power: float, *, piece: str | None = None,
              hand: str | None = None, names: Sequence[str] | None = None) -> Image.Image:
    """A seat's private aim preview: the wobble-free path and where discs would stop."""
    who = seat_names(names, view["players"])
    c = Canvas(W, 64 + MAP + 110)
    c.rect((0, 0, W, 64), fill=PALETTE["panel"], radius=0)
    sub = f"angle {angle:g} · power {power:g}"
    c.name_tag((18, 32), seat, f"{who[seat]}: aim", 28, W - 60 - text_size(sub, 24)[0])
    c.text((W - 18, 20), sub, 24, PALETTE["muted"], anchor="ra")
    c.image.paste(cached_layer(("fof-map", MAP, view["players"]), lambda: draw_map(MAP, view["players"])), (16, 72))
    b = Board(16, 72, MAP)
    small = SMALL
    if not view.get("aim_preview", True):
        draw_discs(c.draw, b, view["discs"], text=small)
        c.rect((16, MAP // 2, MAP + 16, MAP // 2 + 70), fill=PALETTE["panel"], radius=10, width=0)
        c.text((W // 2, MAP // 2 + 35), "Eyes Closed: no preview this Generation", 26, PALETTE["bad"], anchor="mm")
        return c.image.crop((0, 0, W, 72 + MAP + 12))
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
    draw_discs(c.draw, b, after, text=small)
    where = "leaves the map" if pred.landing is None else "stops at the ringed spot"
    y = c.text_block((18, 72 + MAP + 10), f"Without wobble your disc {where}. Real flicks wobble more "
                     "at high power.", W - 36, SMALL, max_lines=3)
    return c.image.crop((0, 0, W, y + 8))


def aim_alt(view: View, seat: int, angle: float, power: float) -> str:
    """The aim preview in words (shown only to the seat aiming)."""
    if not view.get("aim_preview", True):
        return "Aim preview refused: Eyes Closed is in force this Generation."
    return alt_text(f"Your aim preview at angle {angle:g} and power {power:g}: the dashed line is "
                    "the path without wobble, ringed discs show where discs would stop.")


def text_fits(text: str, size: int, width: int) -> bool:
    return text_size(text, size)[0] <= width


__all__ = ["board_image", "board_alt", "aim_image", "aim_alt", "draw_map", "draw_discs", "Board", "laws"]
