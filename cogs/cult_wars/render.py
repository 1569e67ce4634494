"""Cult Wars images, drawn only from redacted engine views.

* :func:`board_image` — the public board: one panel per cult with its followers, VP and cards in
  hand, whether its orders are in for this turn (and what it laid face up), and the last reveal:
  target, the four slots with their strategy cards, idle followers, action cards played, and
  what the turn did to it. A strip under the panels sums up each combat.
* :func:`hand_image` — one seat's action cards with their texts, its strategy cards and its
  current orders.
"""

from __future__ import annotations

from typing import Any

from PIL import Image

from bot.render import PALETTE, Canvas, seat_colour, wrap

JSON = dict[str, Any]
SLOTS = ("attack", "defend", "sacrifice", "breed")
SLOT_LABEL = {"attack": "Attack", "defend": "Defend", "sacrifice": "Sacrifice", "breed": "Breed"}
SLOT_COLOUR = {
    "attack": (226, 92, 92), "defend": (86, 150, 233), "sacrifice": (190, 110, 220),
    "breed": (96, 196, 120),
}
WIDTH = 1200
PANEL_W = 580
GAP = 13


def plain(text: str) -> str:
    """Replace characters the bundled font lacks."""
    return (text.replace("→", "->").replace("−", "-").replace("—", "-").replace("–", "-")
            .replace("×", "x").replace("…", "..."))


def pn(seat: int) -> str:
    return f"P{seat + 1}"


def _cards_txt(vals: list[int]) -> str:
    return "+".join(str(v) for v in vals) if vals else "no cards"


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else (f"-{-n}" if n < 0 else "0")


def _panel_height(view: JSON) -> int:
    h = 390
    if view["phase"] == "orders":
        h += 30
        if any(c.get("face_up") for c in view["cults"]):
            h += 48
    return h


def _panel(c: Canvas, x: int, y: int, cult: JSON, last: JSON | None, view: JSON,
           turn: int) -> None:
    seat = cult["seat"]
    colour = seat_colour(seat)
    c.rect((x, y, x + PANEL_W, y + _panel_height(view)), fill=PALETTE["panel"], outline=colour, radius=14, width=4)
    c.text((x + 18, y + 12), pn(seat), 40, colour)
    f = cult["followers"]
    c.text((x + 100, y + 14), f"{f} follower{'s' if f != 1 else ''}", 30)
    c.text((x + PANEL_W - 18, y + 14), f"{cult['vp']} VP", 34, PALETTE["accent"], anchor="ra")
    c.text((x + 100, y + 50), f"{cult['hand_size']} action card{'s' if cult['hand_size'] != 1 else ''} in hand",
           20, PALETTE["muted"])
    yy = y + 82
    if view["phase"] == "orders":
        if cult["submitted"]:
            status, col = f"Turn {view['turn']}: orders in", PALETTE["good"]
        else:
            status, col = f"Turn {view['turn']}: waiting for orders", PALETTE["bad"]
        c.text((x + 18, yy), status, 22, col)
        yy += 30
        fu = cult.get("face_up") or {}
        if fu:
            bits: list[str] = []
            if "target" in fu:
                bits.append(f"target {pn(fu['target'])}")
            for s, vals in fu.get("slots", {}).items():
                bits.append(f"{SLOT_LABEL[s]} {sum(vals)}")
            for pl in fu.get("plays", []):
                bits.append(pl["name"] + (f" -> {pn(pl['target'])}" if pl["target"] is not None else ""))
            line = wrap("Face up: " + ", ".join(bits), 20, PANEL_W - 36)[:2]
            for ln in line:
                c.text((x + 18, yy), ln, 20, PALETTE["accent"])
                yy += 24
    c.draw.line((x + 14, yy + 4, x + PANEL_W - 14, yy + 4), fill=PALETTE["panel_hi"], width=2)
    yy += 14
    if last is None:
        c.text((x + 18, yy), "No orders revealed yet.", 22, PALETTE["muted"])
        return
    c.text((x + 18, yy), f"Turn {turn} revealed: target {pn(last['target'])}", 24)
    yy += 36
    box_w = (PANEL_W - 36 - 3 * 10) // 4
    for i, s in enumerate(SLOTS):
        bx = x + 18 + i * (box_w + 10)
        vals = last["slots"][s]
        c.rect((bx, yy, bx + box_w, yy + 112), fill=PALETTE["bg"], outline=SLOT_COLOUR[s], radius=10, width=3)
        c.text((bx + box_w / 2, yy + 8), SLOT_LABEL[s], 20, SLOT_COLOUR[s], anchor="ma")
        c.text((bx + box_w / 2, yy + 34), str(sum(vals)), 46, anchor="ma")
        c.text((bx + box_w / 2, yy + 86), _cards_txt(vals), 17, PALETTE["muted"], anchor="ma")
    yy += 124
    c.text((x + 18, yy), f"Idle {last['idle']}", 22, PALETTE["muted"])
    df = last["followers_after"] - last["followers_before"]
    dv = last["vp_after"] - last["vp_before"]
    c.text((x + PANEL_W - 18, yy), f"followers {_signed(df)}   VP {_signed(dv)}", 22,
           PALETTE["good"] if df >= 0 else PALETTE["bad"], anchor="ra")
    yy += 34
    plays = last["plays"]
    if not plays:
        c.text((x + 18, yy), "No action cards played.", 20, PALETTE["muted"])
        return
    names = []
    for pl in plays:
        t = pl["name"] + (f" -> {pn(pl['target'])}" if pl["target"] is not None else "")
        if pl["cancelled"]:
            t += " (cancelled)"
        names.append(t)
    lines = wrap("Cards: " + ", ".join(names), 20, PANEL_W - 36)
    for ln in lines[:4]:
        c.text((x + 18, yy), ln, 20, PALETTE["card"])
        yy += 25


def _combat_line(cb: JSON) -> str:
    att = " + ".join(f"{pn(k)} {strength}" + (f" ({n} followers)" if n != strength else "")
                     for k, n, strength in cb["attackers"])
    head = f"At {pn(cb['defender'])}: attack {att} = {cb['attack']} vs defence {cb['defence']}"
    if cb["outcome"] == "defence":
        lost = ", ".join(f"{pn(k)} -{n}" for k, n in cb["attacker_losses"] if n)
        return f"{head}: defence holds ({lost or 'no losses'})"
    if cb["outcome"] == "even":
        return f"{head}: even, nobody dies"
    dl = sum(cb["defender_losses"].values())
    vp = ", ".join(f"{pn(k)} +{n} VP" for k, n in cb["vp"] if n)
    return f"{head}: {pn(cb['defender'])} loses {dl}" + (f" ({vp})" if vp else "")


def board_image(view: JSON) -> Image.Image:
    cults: list[JSON] = view["cults"]
    last_turn: JSON | None = view.get("last_turn")
    last_by_seat = {c["seat"]: c for c in last_turn["cults"]} if last_turn else {}
    rows = (len(cults) + 1) // 2
    panel_h = _panel_height(view)
    combats = last_turn["combats"] if last_turn else []
    combat_lines: list[str] = []
    for cb in combats:
        combat_lines.extend(wrap(_combat_line(cb), 22, WIDTH - 60))
    if last_turn and not combats:
        combat_lines = [f"Turn {last_turn['turn']}: nobody attacked."]
    result = view.get("result")
    strip_h = 60 + 30 * len(combat_lines) if combat_lines else 0
    res_h = 70 if result else 0
    height = 70 + rows * (panel_h + GAP) + strip_h + res_h + 56
    c = Canvas(WIDTH, height)
    w, _ = c.size
    c.rect((0, 0, w, 64), fill=PALETTE["panel"], radius=0)
    c.text((20, 12), "Cult Wars", 36, PALETTE["accent"])
    if view["phase"] == "over":
        sub = "game over"
    else:
        waiting = view.get("waiting_for", [])
        sub = f"turn {view['turn']} of {view['turns']}"
        sub += " - waiting for " + ", ".join(pn(k) for k in waiting) if waiting else ""
    c.text((w - 20, 20), sub, 24, PALETTE["muted"], anchor="ra")
    y = 70 + GAP
    if result:
        winners = ", ".join(pn(k) for k in result["winners"])
        c.rect((20, y, w - 20, y + res_h - 10), fill=PALETTE["panel_hi"], outline=PALETTE["accent"], radius=12)
        c.text((w / 2, y + 12), plain(f"Winner: {winners} - {result['reason']}"), 26, PALETTE["accent"], anchor="ma")
        y += res_h
    for i, cult in enumerate(cults):
        px = 13 + (i % 2) * (PANEL_W + GAP + 1)
        py = y + (i // 2) * (panel_h + GAP)
        _panel(c, px, py, cult, last_by_seat.get(cult["seat"]), view,
               last_turn["turn"] if last_turn else 0)
    y += rows * (panel_h + GAP)
    if combat_lines:
        assert last_turn is not None
        c.rect((13, y, w - 13, y + strip_h - 8), fill=PALETTE["panel"], radius=12, width=0)
        c.text((30, y + 12), f"Combat, turn {last_turn['turn']}", 26, PALETTE["accent"])
        yy = y + 50
        for ln in combat_lines:
            c.text((30, yy), plain(ln), 22)
            yy += 30
        y += strip_h
    c.text((20, y + 12), f"Action deck {view['deck_size']} cards, discard pile {view['discard_size']}"
           f"{', reshuffled ' + str(view['reshuffles']) + 'x' if view['reshuffles'] else ''}  "
           f"- strategy cards {', '.join(map(str, view['strategy_cards']))}", 20, PALETTE["muted"])
    return c.image


def _action_card(c: Canvas, x: int, y: int, w: int, h: int, info: JSON,
                 band: tuple[int, int, int]) -> None:
    """An action card with large text: name band, effect text, who it aims at."""
    c.rect((x, y, x + w, y + h), fill=PALETTE["card"], outline=band, radius=14, width=4)
    c.rect((x + 6, y + 6, x + w - 6, y + 52), fill=band, radius=10, width=0)
    c.text((x + w / 2, y + 16), info["name"], 24, PALETTE["card_ink"], anchor="ma")
    yy = y + 64
    for ln in wrap(plain(info["text"]), 20, w - 28)[:7]:
        c.text((x + 14, yy), ln, 20, PALETTE["card_ink"])
        yy += 25
    foot = "aim at a rival cult" if info["target"] == "opponent" else "affects your own cult"
    c.text((x + w / 2, y + h - 46), foot, 18, (110, 100, 90), anchor="ma")
    c.text((x + w / 2, y + h - 24), info["id"], 13, (150, 140, 130), anchor="ma")


def hand_image(view: JSON) -> Image.Image:
    priv = view["private"]
    seat = priv["seat"]
    hand: list[JSON] = priv["hand"]
    cw, ch, gap = 276, 290, 16
    per_row = 4
    rows = max(1, (len(hand) + per_row - 1) // per_row)
    if priv.get("orders_text"):
        orders_line = f"Your orders for turn {view['turn']}: " + plain(priv["orders_text"])
    elif view["phase"] == "orders":
        orders_line = f"No orders sent yet for turn {view['turn']}."
    else:
        orders_line = "The game is over."
    order_lines = wrap(orders_line, 22, WIDTH - 60)
    height = 64 + 50 + rows * (ch + gap) + 180 + 30 * len(order_lines) + 20
    c = Canvas(WIDTH, height)
    w, _ = c.size
    c.rect((0, 0, w, 64), fill=PALETTE["panel"], radius=0)
    me = view["cults"][seat]
    c.text((20, 12), f"{pn(seat)} - your hand", 34, seat_colour(seat))
    c.text((w - 20, 20), f"{me['followers']} followers - {me['vp']} VP", 24, PALETTE["muted"], anchor="ra")
    y = 80
    c.text((20, y), f"Action cards ({len(hand)})", 26, PALETTE["accent"])
    y += 40
    if not hand:
        c.text((20, y + 10), "No action cards. Sacrifice followers to draw some.", 24, PALETTE["muted"])
    for i, h in enumerate(hand):
        cx = 20 + (i % per_row) * (cw + gap)
        cy = y + (i // per_row) * (ch + gap)
        _action_card(c, cx, cy, cw, ch, h, seat_colour(seat))
    y += rows * (ch + gap) + 10
    c.text((20, y), "Strategy cards", 26, PALETTE["accent"])
    y += 40
    for i, v in enumerate(view["strategy_cards"]):
        bx = 20 + i * 110
        c.rect((bx, y, bx + 94, y + 110), fill=PALETTE["card"], outline=PALETTE["accent"], radius=10, width=3)
        c.text((bx + 47, y + 28), str(v), 52, PALETTE["card_ink"], anchor="ma")
    y += 130
    for ln in order_lines:
        c.text((20, y), ln, 22)
        y += 30
    return c.image
