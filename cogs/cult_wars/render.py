"""Cult Wars images, drawn only from redacted engine views (and the seats' display names).

Drawn for a phone first: 800 px wide, no text under 3% of the width (``TEXT``, 24 px; see
``bot.render.MIN_TEXT_SHARE``), a line too long for its panel wrapped rather than cut; the
reveal step by step is in the message text, not here.

* :func:`board_image` — the public board: who is awaited (or the final ranking), one panel per
  cult (two to a row) with its VP, followers and cards in hand, whether its orders are in (and
  what it laid face up), and the last reveal: target, the four slots, what the turn did to it and
  the action cards played. A strip under the panels sums up each combat.
* :func:`hand_image` — one seat's action cards with their texts, the strategy cards and its
  current orders.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image

from bot.render import (
    PALETTE,
    Canvas,
    alt_text,
    card,
    plural,
    seat_colour,
    seat_names,
    text_size,
    with_names,
    wrap,
)
from bot.render.kit import Ranked, banner, icon_text, icon_width, moves_box, ranking_box
from rules.cult_wars.views import (
    CombatView,
    CultView,
    HandCardView,
    RecordCultView,
    View,
    read_view,
)
from rules.text import count, listing

JSON = dict[str, Any]
SLOTS = ("attack", "defend", "sacrifice", "breed")
SLOT_LABEL = {"attack": "Attack", "defend": "Defend", "sacrifice": "Sacrifice", "breed": "Breed"}
SLOT_COLOUR = {
    "attack": (226, 92, 92), "defend": (86, 150, 233), "sacrifice": (190, 110, 220),
    "breed": (96, 196, 120),
}
WIDTH = 800
GAP = 12
PANEL_W = (WIDTH - 3 * GAP) // 2
TEXT = 24
"""The smallest text on these images: 3% of their width (a phone shows them about 400 px wide)."""
LINE = TEXT + 6
INNER = PANEL_W - 28
"""The width of a line of text inside a cult's panel."""
SLOT_H = 64


def plain(text: str) -> str:
    """Replace characters the bundled font lacks (the kit does it too; kept for callers)."""
    return (text.replace("→", "->").replace("−", "-").replace("—", "-").replace("–", "-")
            .replace("×", "x").replace("…", "..."))


def pn(seat: int) -> str:
    return f"P{seat + 1}"


def _cards_txt(vals: list[int]) -> str:
    return "+".join(str(v) for v in vals) if vals else "-"


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else (f"-{-n}" if n < 0 else "0")


_STATUS_PHASES = ("targets", "orders", "split")
"""Phases whose panels carry a status line (target chosen, orders in, revealed target)."""


def _status(cult: CultView, view: View, who: list[str]) -> tuple[str, tuple[int, int, int]] | None:
    """The cult's line for the phase: whether its target or orders are in (and what it laid face
    up), or whom it targets while a turn is paused."""
    sealed = view.get("sealed")  # (the channel's board in a secret step: who has answered is not shown)
    if view["phase"] == "targets" and sealed:
        return "choosing a target", PALETTE["muted"]
    if view["phase"] == "targets":
        # which cults have chosen, never whom: targets stay secret until all are revealed together
        return ("target chosen", PALETTE["good"]) if cult["submitted"] else ("to choose a target", PALETTE["bad"])
    if view["phase"] == "split":
        tgt = cult["target"]
        return (f"targets {who[tgt]}" if tgt is not None else "turn paused"), PALETTE["muted"]
    if view["phase"] == "orders":
        status, col = (("writing orders", PALETTE["muted"]) if sealed else ("orders in", PALETTE["good"])
                       if cult["submitted"] else ("to send orders", PALETTE["bad"]))
        fu = cult["face_up"]
        bits: list[str] = []
        if cult["target"] is not None:  # revealed at the start of the orders step
            bits.append(f"aiming at {who[cult['target']]}")
        elif "target" in fu:
            bits.append(f"aiming at {who[fu['target']]}")
        for slot, vals in fu.get("slots", {}).items():
            bits.append(f"{SLOT_LABEL[slot]} {sum(vals)}")
        bits += [pl["name"] for pl in fu.get("plays", [])]
        return status + (": " + ", ".join(bits) if bits else ""), col
    return None


class _Panel:
    """A cult's panel, its lines wrapped to the panel's width."""

    def __init__(self, cult: CultView, last: RecordCultView | None, view: View, who: list[str]) -> None:
        self.cult, self.last = cult, last
        status = _status(cult, view, who)
        self.status = (wrap(status[0], TEXT, INNER), status[1]) if status else None
        self.turn: list[str] = []
        self.effect: list[str] = []
        self.plays: list[str] = []
        record = view["last_turn"]
        if last is None or record is None:  # (a cult's last orders come from the record)
            self.turn = ["No orders revealed yet."]
            return
        self.turn = wrap(f"Turn {record['turn']}: at {who[last['target']]}", TEXT, INNER)
        df = last["followers_after"] - last["followers_before"]
        dv = last["vp_after"] - last["vp_before"]
        self.effect = wrap(f"{last['idle']} idle · followers {_signed(df)} · VP {_signed(dv)}", TEXT, INNER)
        names = [pl["name"] + (f" at {who[pl['target']]}" if pl["target"] is not None else "")
                 + (" (cancelled)" if pl["cancelled"] else "") for pl in last["plays"]]
        self.plays = wrap(", ".join(names) if names else "no action cards", TEXT, INNER)

    @property
    def height(self) -> int:
        h = 100 + (LINE * len(self.status[0]) + 14 if self.status else 0) + LINE * len(self.turn)
        if self.last is not None:
            h += 8 + 2 * (SLOT_H + 6) + 4 + LINE * (len(self.effect) + len(self.plays))
        return h + 12


def _panel(c: Canvas, x: int, y: int, panel: _Panel, height: int, view: View, who: list[str]) -> None:
    cult, last = panel.cult, panel.last
    seat = cult["seat"]
    colour = seat_colour(seat)
    waiting = view["phase"] in ("targets", "orders") and not cult["submitted"] and not view.get("sealed")
    c.rect((x, y, x + PANEL_W, y + height), fill=PALETTE["panel_hi"] if waiting else PALETTE["panel"],
           outline=colour, radius=14, width=4)
    vp = [("vp", f"{cult['vp']} VP")]
    vw = icon_width(vp, 30)
    c.name_tag((x + 14, y + 30), seat, who[seat], 26, PANEL_W - vw - 40)
    icon_text(c, (x + PANEL_W - 14 - vw, y + 14), vp, 30, PALETTE["accent"])
    icon_text(c, (x + 14, y + 60), [("follower", plural(cult["followers"], "follower")),
                                    ("cards", plural(cult["hand_size"], "card"))], TEXT)
    yy = y + 100
    if panel.status:
        lines, col = panel.status
        for line in lines:
            c.text((x + 14, yy), line, TEXT, col)
            yy += LINE
        yy += 14
    c.draw.line((x + 12, yy - 8, x + PANEL_W - 12, yy - 8), fill=PALETTE["bg"], width=2)
    for line in panel.turn:
        c.text((x + 14, yy), line, TEXT, PALETTE["muted"] if last is None else PALETTE["ink"])
        yy += LINE
    if last is None:
        return
    yy += 8
    box_w = (INNER - 6) // 2
    for i, slot in enumerate(SLOTS):  # two by two: each slot's full name, its sum and its cards
        bx = x + 14 + (i % 2) * (box_w + 6)
        by = yy + (i // 2) * (SLOT_H + 6)
        vals = last["slots"][slot]
        c.rect((bx, by, bx + box_w, by + SLOT_H), fill=PALETTE["bg"], outline=SLOT_COLOUR[slot],
               radius=10, width=3)
        total = str(sum(vals))
        c.text((bx + 10, by + 4), SLOT_LABEL[slot], TEXT, SLOT_COLOUR[slot])
        c.text((bx + box_w - 10, by + SLOT_H / 2), total, 36, anchor="rm")
        c.text((bx + 10, by + 32), _cards_txt(vals), TEXT, PALETTE["muted"],
               width=box_w - 28 - text_size(total, 36)[0])
    yy += 2 * (SLOT_H + 6) + 4
    df = last["followers_after"] - last["followers_before"]
    for line in panel.effect:
        c.text((x + 14, yy), line, TEXT, PALETTE["good"] if df >= 0 else PALETTE["bad"])
        yy += LINE
    for line in panel.plays:
        c.text((x + 14, yy), line, TEXT, PALETTE["card"] if last["plays"] else PALETTE["muted"])
        yy += LINE


def _combat_line(cb: CombatView, who: Sequence[str] | None = None) -> str:
    n = list(who) if who is not None else [pn(k) for k in range(8)]
    att = " + ".join(f"{n[k]} {strength}" for k, _, strength in cb["attackers"])
    d = n[cb["defender"]]
    head = f"At {d}: attack {att} = {cb['attack']} against {d}'s defence {cb['defence']}"
    if cb["outcome"] == "defence":
        lost = ", ".join(f"{n[k]} loses {count(x, 'follower')}" for k, x in cb["attacker_losses"] if x)
        return f"{head}: the defence holds ({lost or 'no losses'})"
    if cb["outcome"] == "even":
        return f"{head}: even, nobody dies"
    dl = sum(cb["defender_losses"].values())
    vp = ", ".join(f"{n[k]} +{x} VP" for k, x in cb["vp"] if x)
    return f"{head}: {d} loses {count(dl, 'follower')}" + (f" ({vp})" if vp else "")


def _awaited(view: View, who: Sequence[str]) -> str:
    """What the table waits for, in words: secret targets (step 1 of the two-step insignia), orders
    (with the targets revealed), or a defender's split that pauses the turn."""
    if view.get("sealed"):
        if view["phase"] == "targets":
            return "Every cult chooses its target in secret; all are revealed together when the last is in."
        step = "Targets revealed. " if view["insignia"] == "two_step" else ""
        return f"{step}Every cult writes its orders in secret; all are revealed when the last are in."
    waiting = listing([who[k] for k in view["waiting_for"]])
    if view["phase"] == "targets":
        chosen = sum(1 for c in view["cults"] if c["submitted"])
        return (f"Targets chosen in secret: {chosen} of {len(view['cults'])}. "
                f"Waiting for {waiting or 'nobody'}; all are revealed together.")
    if view["phase"] == "split":
        reveal = view["reveal"]
        splits = reveal["splits"] if reveal else []
        if splits:
            sp = splits[0]
            attackers = listing([who[k] for k, _ in sp["attackers"]])
            return (f"Turn paused: {who[sp['defender']]} chooses how {attackers} share the loss "
                    f"of {count(sp['loss'], 'follower')}.")
        return f"Turn paused: waiting for {waiting or 'nobody'}."
    if not waiting:
        return "All orders are in."
    step = "Targets revealed. " if view["insignia"] == "two_step" else ""
    return f"{step}Waiting for orders from {waiting}."


def _ranking(view: View) -> list[CultView]:
    """Cults in final order: VP, then followers, then cards in hand (the rulebook's tie-breaks)."""
    return sorted(view["cults"], key=lambda c: (-c["vp"], -c["followers"], -c["hand_size"], c["seat"]))


def board_image(view: JSON, names: Sequence[str] | None = None) -> Image.Image:
    """:func:`_board_image` of the platform's view, read as declared (:mod:`rules.cult_wars.views`)."""
    return _board_image(read_view(view), names)


def _board_image(view: View, names: Sequence[str] | None = None) -> Image.Image:
    cults = view["cults"]
    who = seat_names(names, len(cults))
    last_turn = view["last_turn"]
    last_by_seat = {c["seat"]: c for c in last_turn["cults"]} if last_turn else {}
    c = Canvas(WIDTH, 3000)
    w = WIDTH
    over = view["phase"] == "over"
    c.header("Cult Wars", "game over" if over else f"turn {view['turn']} of {view['turns']}")
    y = 64 + GAP
    result = view.get("result")
    if over and result:
        rows = [Ranked(cult["seat"], who[cult["seat"]],
                       f"{cult['vp']} VP · {plural(cult['followers'], 'follower')} · "
                       f"{plural(cult['hand_size'], 'card')} in hand", cult["seat"] in result["winners"])
                for cult in _ranking(view)]
        reason = with_names(plain(result["reason"]), who)
        y = ranking_box(c, y, rows, reason[:1].upper() + reason[1:])
    elif view["phase"] in _STATUS_PHASES:
        y = banner(c, y, [_awaited(view, who)])
    panels = [_Panel(cult, last_by_seat.get(cult["seat"]), view, who) for cult in cults]
    panel_h = max(p.height for p in panels)
    for i, panel in enumerate(panels):
        px = GAP + (i % 2) * (PANEL_W + GAP)
        py = y + (i // 2) * (panel_h + GAP)
        _panel(c, px, py, panel, panel_h, view, who)
    y += ((len(cults) + 1) // 2) * (panel_h + GAP)
    if last_turn:
        combats = last_turn["combats"]
        lines = [_combat_line(cb, who) for cb in combats] or ["Nobody attacked."]
        y = moves_box(c, y, f"Combat, turn {last_turn['turn']}", lines)
    deck = (f"Action deck {view['deck_size']} · discards {view['discard_size']}"
            + (f" · reshuffled {view['reshuffles']}x" if view["reshuffles"] else ""))
    c.text((20, y + 4), deck, TEXT, PALETTE["muted"], width=w - 40)
    return c.image.crop((0, 0, w, y + 40))


def board_alt(view: JSON, names: Sequence[str] | None = None) -> str:
    """:func:`_board_alt` of the platform's view, read as declared."""
    return _board_alt(read_view(view), names)


def _board_alt(view: View, names: Sequence[str] | None = None) -> str:
    """The board in words: the standing, who is awaited or who won (public)."""
    who = seat_names(names, len(view["cults"]), drawn=False)
    standing = "; ".join(f"{who[c['seat']]} {c['vp']} VP, {plural(c['followers'], 'follower')}"
                         for c in _ranking(view))
    r = view.get("result")
    if view["phase"] == "over" and r:
        won = ", ".join(who[k] for k in r["winners"])
        return alt_text(f"Cult Wars, game over: {won} {'wins' if len(r['winners']) == 1 else 'share the win'}.",
                        f"Final ranking: {standing}.", with_names(plain(r["reason"]), who))
    return alt_text(f"Cult Wars board, turn {view['turn']} of {view['turns']}.",
                    _awaited(view, who), f"Standing: {standing}.")


def hand_image(view: JSON, names: Sequence[str] | None = None) -> Image.Image:
    """:func:`_hand_image` of the platform's view, read as declared."""
    return _hand_image(read_view(view), names)


def _hand_image(view: View, names: Sequence[str] | None = None) -> Image.Image:
    """One seat's hand: its action cards (name, what it does, whom it aims at), the strategy
    cards and its orders for this turn."""
    priv = view["private"]
    seat = priv["seat"]
    who = seat_names(names, len(view["cults"]))
    hand = priv["hand"]
    c = Canvas(WIDTH, 3000)
    w = WIDTH
    c.rect((0, 0, w, 64), fill=PALETTE["panel"], radius=0)
    me = view["cults"][seat]
    right = f"{me['vp']} VP · {plural(me['followers'], 'follower')}"
    c.name_tag((18, 32), seat, who[seat], 28, w - 60 - text_size(right, TEXT)[0], rest="'s hand")
    c.text((w - 18, 20), right, TEXT, PALETTE["muted"], anchor="ra")
    y = 80
    sent = priv["orders_text"]
    if sent:
        orders, col = (f"Your orders for turn {view['turn']}: "
                       + with_names(plain(sent), who), PALETTE["good"])
    elif view["phase"] == "orders":
        orders, col = f"Your orders for turn {view['turn']} are still to send.", PALETTE["accent"]
    elif view["phase"] == "targets":
        orders, col = ((f"Your target for turn {view['turn']} is chosen; your orders come next.",
                        PALETTE["good"]) if me["submitted"] else
                       (f"Your target for turn {view['turn']} is still to choose.", PALETTE["accent"]))
    elif view["phase"] == "split":
        orders, col = f"Turn {view['turn']} is paused for a defender's choice.", PALETTE["muted"]
    else:
        orders, col = "The game is over.", PALETTE["muted"]
    c.rect((GAP, y, w - GAP, y + 16 + LINE * len(wrap(orders, TEXT, w - 60))), fill=PALETTE["panel_hi"],
           outline=col, radius=12, width=3)
    y = c.text_block((30, y + 10), orders, w - 60, TEXT, col, spacing=6) + 16
    c.text((20, y), f"Action cards: {len(hand)}", 26, PALETTE["accent"])
    y += 40
    if not hand:
        y = c.text_block((20, y), "No action cards. Sacrifice followers to draw some.", w - 40, TEXT,
                         PALETTE["muted"]) + 10
    cw = (w - 40 - 14) // 2
    for i in range(0, len(hand), 2):
        pair = hand[i:i + 2]
        imgs = [_card(h, cw, None, seat_colour(seat)) for h in pair]
        ch = max(img.height for img in imgs)
        for j, h in enumerate(pair):
            c.image.paste(_card(h, cw, ch, seat_colour(seat)), (20 + j * (cw + 14), y))
        y += ch + 12
    c.text((20, y + 4), "Strategy cards", 26, PALETTE["accent"])
    y += 44
    for i, v in enumerate(view["strategy_cards"]):
        bx = 20 + i * 96
        c.rect((bx, y, bx + 84, y + 90), fill=PALETTE["card"], outline=PALETTE["accent"], radius=10, width=3)
        c.text((bx + 42, y + 45), str(v), 44, PALETTE["card_ink"], anchor="mm")
    y += 106
    return c.image.crop((0, 0, w, y))


def _card(info: HandCardView, width: int, height: int | None, band: tuple[int, int, int]) -> Image.Image:
    foot = "aim at a rival" if info["target"] == "opponent" else "your own cult"
    return card(info["name"], plain(info["text"]), width=width, height=height, colour=band,
                footer=foot, title_size=26, body_size=TEXT, body_lines=40)


def hand_alt(view: JSON, names: Sequence[str] | None = None) -> str:
    """:func:`_hand_alt` of the platform's view, read as declared."""
    return _hand_alt(read_view(view), names)


def _hand_alt(view: View, names: Sequence[str] | None = None) -> str:
    """The hand in words (sent only to its holder)."""
    priv = view["private"]
    cards = ", ".join(h["name"] for h in priv["hand"]) or "none"
    who = seat_names(names, len(view["cults"]), drawn=False)
    sent = priv["orders_text"]
    orders = (f"Your orders: {with_names(plain(sent), who)}" if sent
              else "No orders sent yet." if view["phase"] == "orders" else "")
    return alt_text("Your Cult Wars hand.", f"Action cards: {cards}.",
                    "Strategy cards: " + ", ".join(map(str, view["strategy_cards"])) + ".", orders)
