"""Petition images, drawn only from redacted engine views (and the seats' display names).

Drawn for a phone first: 800 px wide, no text under 3% of the width (``TEXT``, 24 px; see
``bot.render.MIN_TEXT_SHARE``), a line too long for its place wrapped rather than cut, players
named, never numbered.

* :func:`board_image` — the public board: what the table is doing and whose decision it is (or
  the final ranking), the four gods (in the temple, or held by whom at +3 or +1, with a card
  lock), the temple's beads and the deck, then one panel per player: beads, cards in hand (a
  count), favour or heathen, the four pillars (standing, captured by whom, fortified with which
  card) and the pillars it has captured. The solo game has its own board (:func:`solo_board`).
* :func:`hand_image` — one seat's cards: name, god, points per pillar, a powerup's text.
* :func:`reveal_image` — a reveal, both sides side by side: the two bids of a petition duel
  (beads and citizens) or the two sides of a campaign, and what came of it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image

from bot.render import (
    PALETTE,
    Canvas,
    alt_text,
    card,
    card_height,
    plural,
    seat_colour,
    seat_names,
    text_size,
    with_names,
    wrap,
)
from bot.render.kit import Ranked, banner, icon_text, icon_width, moves_box, ranking_box
from rules.petition.views import (
    BidView,
    CardFaceView,
    GodView,
    PillarView,
    RevealView,
    SeatView,
    SoloBattleView,
    View,
    read_view,
)
from rules.text import listing

JSON = dict[str, Any]
RGB = tuple[int, int, int]
WIDTH = 800
GAP = 12
PANEL_W = (WIDTH - 3 * GAP) // 2
TEXT = 24
"""The smallest text on these images: 3% of their width (a phone shows them about 400 px wide)."""
LINE = TEXT + 6
PILLARS = ("art", "economy", "magic", "war")
PILLAR_NAMES = {"art": "Art", "economy": "Economy", "magic": "Magic", "war": "War"}
PILLAR_COLOUR: dict[str, RGB] = {
    "art": (204, 121, 167), "economy": (230, 178, 60), "magic": (110, 150, 235), "war": (222, 96, 80),
}
"""A colour per pillar (and its god); every tile also says the pillar's name in words."""


def pillar_name(kind: str) -> str:
    return PILLAR_NAMES.get(kind, kind.title())


def points_text(points: Mapping[str, int], *, short: bool = False) -> str:
    """"Art 3, War 1" (or "A3 W1"): a card's points, zeros skipped."""
    if short:
        return " ".join(f"{pillar_name(p)[0]}{points[p]}" for p in PILLARS if points.get(p)) or "-"
    return ", ".join(f"{pillar_name(p)} {points[p]}" for p in PILLARS if points.get(p)) or "no points"


def god_of(view: View, key: str | None) -> GodView | None:
    return next((g for g in view.get("gods", []) if g["key"] == key), None)


def god_label(view: View, key: str | None) -> str:
    """A god named with its pillar: "Harth (War)"."""
    g = god_of(view, key)
    if g is None:
        return pillar_name(key or "?")
    return f"{g['name']} ({pillar_name(g['key'])})"


def favour_of(view: View, seat: int) -> str:
    """What a seat holds from the gods, in words ("Harth +3", "heathen", "")."""
    held = [g for g in view.get("gods", []) if g.get("holder") == seat]
    bits = [f"{g['name']} +{g['bonus']}" + (" (locked)" if g.get("lock") else "") for g in held]
    if view["seats"][seat].get("heathen"):
        bits.append("heathen")
    return ", ".join(bits)


def favour_line(view: View, seat: int) -> str:
    """A seat's favour for its panel: "Favour: Harth +3", "Godless heathen", "No favour"."""
    fav = favour_of(view, seat)
    if not fav:
        return "No favour"
    return "Godless heathen" if fav == "heathen" else f"Favour: {fav}"


# ---------------------------------------------------------------------------------- in words

def awaited(view: View, who: Sequence[str]) -> str:
    """What the table does now and whose decision it is, in words (public)."""
    if view.get("solo"):
        return solo_awaited(view)
    turn = who[view["turn_seat"]]
    waiting = listing([who[k] for k in view.get("waiting_for", [])]) or "nobody"
    if view.get("discarding"):
        return (f"{listing([who[k] for k in view['discarding']])} discards down to the hand limit; "
                "then play goes on.")
    pet = view.get("petition")
    camp = view.get("campaign")
    phase = view.get("phase")
    if pet:
        holder, ch = pet["holder"], pet["challenger"]
        god = god_label(view, pet["god"])
        stage = pet["stage"]
        if stage == "offer":
            return f"{who[pet['petitioner']]} petitions {god} and chooses an offer of beads."
        if stage == "challenge":
            return (f"{who[pet['petitioner']]} offers {plural(holder['beads'] if holder else 0, 'bead')} "
                    f"to {god}. Challenge window open: waiting for {waiting}.")
        if stage == "respond" and holder and ch:
            return (f"{who[ch['seat']]} challenges {who[holder['seat']]} for {god} with "
                    f"{plural(ch['beads'], 'bead')}: {who[holder['seat']]} withdraws or meets it.")
        if stage == "bid" and holder and ch:
            return (f"{who[holder['seat']]} and {who[ch['seat']]} bid citizens of {god} face down: "
                    f"waiting for {waiting}.")
        return f"A petition to {god}: waiting for {waiting}."
    if camp and camp["stage"] != "done":
        at, de = who[camp["attacker"]], who[camp["defender"]]
        target = f"{de}'s {pillar_name(camp['pillar'])}"
        to_act = camp["to_act"]
        if camp["stage"] == "gather" or to_act is None:
            return f"{at} attacks {target}: both lay cards face down. Waiting for {waiting}."
        return f"Battle for {target}: {who[to_act]} adds cards or passes."
    placer = view["placer"]
    if phase == "place" and placer is not None:
        return f"{who[placer]} fortifies a pillar with a captured card or sets it aside."
    if phase == "claim" and placer is not None:
        return f"{who[placer]} claims one of the attacker's pillars."
    if phase == "extra":
        return f"{turn}'s turn: swap a card, buy one, or end the turn."
    return f"{turn}'s turn: draw, take beads, petition a god or attack."


def solo_awaited(view: View) -> str:
    solo = view["solo"]
    phase = view["phase"]
    battle = solo["battle"] if solo else None
    tithe = solo["tithe_card"] if solo else None
    if phase == "tithe" and tithe:
        return (f"Tithe: match a power of {tithe['name']} from your hand, or lose a bead.")
    if battle:
        target = pillar_name(battle["pillar"])
        if phase == "solo_add":
            return f"Battle for the {target} pillar: add cards to overpower it, or give up."
        return f"Battle for the {target} pillar: lay your attack cards."
    return "Your turn: draw a card (each pillar draws too) or attack a pillar."


def ranking(view: View) -> list[SeatView]:
    """Seats in the rulebook's order: captured pillars, then captured + surviving, then beads."""
    return sorted(view["seats"], key=lambda s: (-s["captured_count"],
                                                -(s["captured_count"] + s["active_count"]),
                                                -s["beads"], s["seat"]))


# ---------------------------------------------------------------------------------- drawing

def _box(c: Canvas, y: int, lines: Sequence[str], colour: RGB, size: int = TEXT) -> int:
    """A highlighted strip of lines across the board, each wrapped whole (the first in
    ``colour``); returns the y below it."""
    rows: list[tuple[str, bool]] = []
    for i, ln in enumerate(lines):
        rows += [(part, i == 0) for part in wrap(ln, size, WIDTH - 60)]
    h = 22 + (size + 8) * len(rows)
    c.rect((GAP, y, WIDTH - GAP, y + h), fill=PALETTE["panel_hi"], outline=colour, radius=14, width=4)
    for i, (ln, first) in enumerate(rows):
        c.text((30, y + 12 + (size + 8) * i), ln, size, colour if first else PALETTE["ink"],
               width=WIDTH - 60)
    return y + h + GAP


def _gods(c: Canvas, y: int, view: View, who: Sequence[str]) -> int:
    gods = view.get("gods", [])
    if not gods:
        return y
    n = len(gods)
    tw = (WIDTH - (n + 1) * GAP) // n
    th = 140
    for i, g in enumerate(gods):
        x = GAP + i * (tw + GAP)
        col = PILLAR_COLOUR.get(g["key"], PALETTE["accent"])
        holder = g["holder"]
        c.rect((x, y, x + tw, y + th), fill=PALETTE["panel_hi"] if holder is not None else PALETTE["panel"],
               outline=col, radius=12, width=4)
        c.rect((x + 4, y + 4, x + tw - 4, y + 38), fill=col, radius=9, width=0)
        c.text((x + tw / 2, y + 7), g["name"], TEXT, PALETTE["bg"], anchor="ma", width=tw - 12)
        c.text((x + tw / 2, y + 44), f"of {pillar_name(g['key'])}", TEXT, PALETTE["muted"], anchor="ma",
               width=tw - 12)
        if holder is not None:
            c.text((x + tw / 2, y + 74), who[holder], TEXT, seat_colour(holder), anchor="ma",
                   width=tw - 12)
            side = f"+{g['bonus']}" + (" mono" if g["bonus"] == 1 else "") + (" · lock" if g.get("lock") else "")
            c.text((x + tw / 2, y + 104), side, TEXT, PALETTE["accent"], anchor="ma", width=tw - 12)
        else:
            c.text((x + tw / 2, y + 90), "in the temple", TEXT, PALETTE["ink"], anchor="ma", width=tw - 12)
    return y + th + GAP


CHIP_W = 120
ROW_H = 36


def _pillar_words(p: PillarView, who: Sequence[str]) -> tuple[str, RGB]:
    """What became of a pillar: standing, fortified with whose card, or taken by whom."""
    by = p["captured_by"]
    if by is not None:  # (a pillar is active until it is captured)
        return f"taken by {who[by]}", PALETTE["muted"]
    fort = p.get("fortification")
    if fort:
        return f"+1, fortified with {pillar_name(fort['kind'])}", PALETTE["good"]
    return "standing", PALETTE["ink"]


def _pillar_lines(p: PillarView, who: Sequence[str], width: int) -> list[str]:
    words, _ = _pillar_words(p, who)
    room = width - CHIP_W - 10
    if words.startswith("taken by"):  # a name is cut at the row's end rather than wrapped
        return [words]
    return wrap(words, TEXT, room)


def _pillar_row(c: Canvas, x: int, y: int, width: int, p: PillarView, who: Sequence[str]) -> int:
    """One pillar: a chip in the pillar's colour (filled while it stands, hollow once captured)
    and what became of it, wrapped beside the chip; returns the y below it."""
    col = PILLAR_COLOUR.get(p["kind"], PALETTE["accent"])
    active = p.get("active", p.get("captured_by") is None)
    c.rect((x, y, x + CHIP_W, y + ROW_H - 4), fill=col if active else PALETTE["bg"], outline=col,
           radius=8, width=3)
    c.text((x + CHIP_W / 2, y + (ROW_H - 4) / 2), pillar_name(p["kind"]), TEXT,
           PALETTE["bg"] if active else PALETTE["muted"], anchor="mm")
    tx = x + CHIP_W + 10
    room = width - CHIP_W - 10
    _, colour = _pillar_words(p, who)
    lines = _pillar_lines(p, who, width)
    for i, line in enumerate(lines):
        c.text((tx, y + (ROW_H - 4) / 2 + LINE * i), line, TEXT, colour, anchor="lm", width=room)
    return y + max(ROW_H, LINE * len(lines) + 6)


def _captured_text(s: SeatView, who: Sequence[str]) -> str:
    """The pillars a seat has captured: how many and whose, fortifying or set aside."""
    under = [f"{who[f['owner']]}'s {pillar_name(f['kind'])}"
             for f in (p["fortification"] for p in s["pillars"]) if f]
    stash = [f"{who[r['owner']]}'s {pillar_name(r['kind'])}" for r in s.get("stash", [])]
    parts = ([", ".join(under) + " (fortifying)"] if under else []) + (
        [", ".join(stash) + " (set aside)"] if stash else [])
    return f"Captured {s['captured_count']}" + (": " + "; ".join(parts) if parts else "")


def _panel_height(s: SeatView, who: Sequence[str]) -> int:
    rows = sum(max(ROW_H, LINE * len(_pillar_lines(p, who, PANEL_W - 28)) + 6) for p in s["pillars"])
    return 112 + rows + 6 + LINE * len(wrap(_captured_text(s, who), TEXT, PANEL_W - 28)) + 10


def _panel(c: Canvas, x: int, y: int, height: int, s: SeatView, view: View, who: Sequence[str]) -> None:
    seat = s["seat"]
    colour = seat_colour(seat)
    turn = view.get("turn_seat") == seat and view.get("phase") not in ("over",)
    waiting = seat in view.get("waiting_for", [])
    c.rect((x, y, x + PANEL_W, y + height), fill=PALETTE["panel_hi"] if waiting else PALETTE["panel"],
           outline=colour, radius=14, width=5 if turn else 3)
    beads = [("bead", plural(s["beads"], "bead"))]
    bw = icon_width(beads, 26)
    c.name_tag((x + 14, y + 26), seat, who[seat], 26, PANEL_W - bw - 40)
    icon_text(c, (x + PANEL_W - 14 - bw, y + 12), beads, 26, PALETTE["accent"])
    bits = [plural(s["hand_size"], "card") + " in hand"]
    if waiting:
        bits.append("to decide")
    elif turn:
        bits.append("their turn")
    icon_text(c, (x + 14, y + 52), [("cards", " · ".join(bits))], TEXT,
              PALETTE["accent"] if waiting else PALETTE["ink"])
    fav = favour_of(view, seat)
    c.text((x + 14, y + 80), favour_line(view, seat), TEXT,
           PALETTE["accent"] if fav else PALETTE["muted"], width=PANEL_W - 28)
    yy = y + 112
    for p in s["pillars"]:
        yy = _pillar_row(c, x + 14, yy, PANEL_W - 28, p, who)
    yy += 6
    c.text_block((x + 14, yy), _captured_text(s, who), PANEL_W - 28, TEXT, PALETTE["muted"],
                 spacing=LINE - TEXT)


def _campaign_lines(view: View, who: Sequence[str]) -> list[str]:
    camp = view.get("campaign")
    if not camp:
        return []
    at, de = camp["attacker"], camp["defender"]
    head = f"Campaign: {who[at]} attacks {who[de]}'s {pillar_name(camp['pillar'])}"
    if camp.get("licence"):
        head += f" with {god_label(view, camp['licence'])}'s favour"
    elif not camp.get("attack_bonus"):
        head += " as a godless heathen"

    def side(seat: int, cards: list[CardFaceView] | None, n: int | None, ready: bool, locked: bool,
             bonus: int) -> str:
        if cards is not None:
            body = ", ".join(c["name"] for c in cards) or "no cards"
        elif ready:
            body = f"{plural(n or 0, 'card')} face down"
        else:
            body = "choosing cards face down"
        extra = (f", god +{bonus}" if bonus else "") + (" (locked)" if locked else "")
        return f"{who[seat]}: {body}{extra}"

    lines = [head,
             side(at, camp["attack"], camp["attack_count"], camp["attack_ready"], camp["attack_locked"],
                  camp["attack_bonus"]),
             side(de, camp["defend"], camp["defend_count"], camp["defend_ready"], camp["defend_locked"],
                  camp["defend_bonus"])]
    if camp.get("attack_now") is not None and camp.get("attack_total") is None:
        lines.append(f"So far: {who[at]} {camp['attack_now']} against {who[de]} {camp['defend_now']}")
    if camp.get("attack_total") is not None:
        lines.append(f"Tally: {who[at]} {camp['attack_total']} against {who[de]} {camp['defend_total']}"
                     + (" (surrendered)" if camp.get("surrendered") else ""))
    return lines


def _petition_lines(view: View, who: Sequence[str]) -> list[str]:
    pet = view.get("petition")
    if not pet:
        return []
    god = god_label(view, pet["god"])
    holder = pet["holder"]
    lines = [f"Petition to {god} by {who[pet['petitioner']]}"]
    if holder:
        lines.append(f"{who[holder['seat']]} holds it with {plural(holder.get('beads', 0), 'bead')}"
                     + _bid_state(holder))
    ch = pet.get("challenger")
    if ch:
        lines.append(f"{who[ch['seat']]} challenges with {plural(ch.get('beads', 0), 'bead')}"
                     + _bid_state(ch))
    answers = pet.get("challenges") or {}
    if pet.get("stage") == "challenge" and answers:
        said = [f"{who[int(k)]} " + (f"{plural(v, 'bead')}" if v else "no challenge") for k, v in answers.items()]
        lines.append("Answers so far: " + ", ".join(said))
    rest = [k for k in pet.get("challengers", []) if not ch or k != ch["seat"]]
    if rest:
        lines.append("Still to face: " + listing([who[k] for k in rest]))
    return lines


def _bid_state(side: BidView) -> str:
    """A side of a petition duel: citizens still on the table from the duel it won (public), and
    whether its new bid is down (face down: how many, never which)."""
    out = ""
    standing = side.get("standing") or []
    if standing:
        out += "; on the table: " + ", ".join(str(c["name"]) for c in standing)
    if side.get("ready"):
        out += "; bid face down"
    return out


def _reveal_line(view: View, who: Sequence[str]) -> str:
    r = view.get("last_reveal")
    return reveal_summary(r, view, who) if r else ""


def board_image(view: JSON, names: Sequence[str] | None = None) -> Image.Image:
    """:func:`_board_image` of the platform's view, read as declared (:mod:`rules.petition.views`)."""
    return _board_image(read_view(view), names)


def _board_image(view: View, names: Sequence[str] | None = None) -> Image.Image:
    """The public board (see the module docstring)."""
    if view.get("solo"):
        return solo_board(view, names)
    seats = view["seats"]
    who = seat_names(names, len(seats))
    c = Canvas(WIDTH, 4000)
    over = view.get("phase") == "over"
    c.header("Petition", "game over" if over else f"round {view.get('round', 1)} · turn {view.get('turn', 1)}")
    y = 64 + GAP
    result = view.get("result")
    if over and result:
        y = _final(c, y, view, who)
    else:
        y = banner(c, y, [awaited(view, who)])
    y = _gods(c, y, view, who)
    deck = (f"Temple: {plural(view.get('temple', 0), 'bead')} · deck {view.get('deck_size', 0)} · "
            f"discards {view.get('discard_size', 0)}")
    c.text((20, y), deck, TEXT, PALETTE["muted"], width=WIDTH - 40)
    y += 38
    detail = _petition_lines(view, who) or _campaign_lines(view, who)
    if detail and not over:
        y = _box(c, y, detail, PALETTE["ink"])
    heights = [_panel_height(s, who) for s in seats]
    for row in range(0, len(seats), 2):
        h = max(heights[row:row + 2])
        for i, s in enumerate(seats[row:row + 2]):
            _panel(c, GAP + i * (PANEL_W + GAP), y, h, s, view, who)
        y += h + GAP
    last = _reveal_line(view, who)
    if last:
        y = moves_box(c, y, "Last reveal", [last])
    return c.image.crop((0, 0, WIDTH, y))


def _final(c: Canvas, y: int, view: View, who: Sequence[str]) -> int:
    """The final ranking in the kit's box: each seat's captured and standing pillars and beads
    (the rulebook's order), then why the game ended."""
    result = view["result"]
    rows = [Ranked(s["seat"], who[s["seat"]],
                   f"{s['captured_count']} captured · {s['active_count']} standing · "
                   f"{plural(s['beads'], 'bead')}", s["seat"] in result.get("winners", []))
            for s in ranking(view)]
    reason = with_names(str(result.get("reason", "")), who)
    return ranking_box(c, y, rows, reason[:1].upper() + reason[1:])


# --------------------------------------------------------------------------------- solo board

def solo_board(view: View, names: Sequence[str] | None = None) -> Image.Image:
    """The solo game: the four pillars with their face-down stacks, the gods, your beads, hand
    size and favour, the battle under way and a tithe to pay."""
    who = seat_names(names, 1)
    solo = view["solo"]
    me = view["seats"][0]
    c = Canvas(WIDTH, 3000)
    over = view.get("phase") == "over"
    c.header("Petition - solo", "game over" if over else f"round {view.get('round', 1)}")
    y = 64 + GAP
    if over:
        result = view.get("result")
        reason = with_names(str((result["reason"] if result else "") or "the game is over"), who)
        head = (f"Game over: {who[0]} wins" if result and 0 in result["winners"]
                else "Game over: the pillars stand")
        y = _box(c, y, [head, reason[:1].upper() + reason[1:] + "."], PALETTE["accent"])
    else:
        y = banner(c, y, [solo_awaited(view)])
    # you
    fav = favour_of(view, 0)
    line = f"{plural(me['beads'], 'bead')} · {plural(me['hand_size'], 'card')} in hand"
    c.name_tag((GAP + 6, y + 18), 0, who[0], 26, WIDTH - 40 - text_size(line, TEXT)[0])
    c.text((WIDTH - 20, y + 6), line, TEXT, PALETTE["accent"], anchor="ra")
    y += 44
    godless = "none" if over else "none (godless: win by brute force)"
    y = c.text_block((20, y), "Favour: " + (fav or godless), WIDTH - 40, TEXT, PALETTE["ink"],
                     spacing=LINE - TEXT) + 6
    # the pillars and their stacks
    stacks: Mapping[str, int] = solo["stacks"] if solo else {}
    captured = list(solo["captured"]) if solo else []
    tw = (WIDTH - 5 * GAP) // 4
    battle = solo["battle"] if solo else None
    for i, kind in enumerate(PILLARS):
        x = GAP + i * (tw + GAP)
        col = PILLAR_COLOUR[kind]
        taken = kind in captured
        fight = battle is not None and battle.get("pillar") == kind
        c.rect((x, y, x + tw, y + 130), fill=PALETTE["bg"] if taken else col, outline=PALETTE["ink"] if fight else col,
               radius=12, width=5 if fight else 3)
        ink = PALETTE["muted"] if taken else PALETTE["bg"]
        c.text((x + tw / 2, y + 10), pillar_name(kind), 26, ink, anchor="ma", width=tw - 10)
        if taken:
            c.text((x + tw / 2, y + 60), "captured", TEXT, PALETTE["good"], anchor="ma", width=tw - 10)
        else:
            n = int(stacks.get(kind, 0))
            c.text((x + tw / 2, y + 52), str(n), 40, ink, anchor="ma")
            c.text((x + tw / 2, y + 96), "face down", TEXT, ink, anchor="ma", width=tw - 10)
    y += 130 + GAP
    y = _gods(c, y, view, who)
    c.text((20, y), f"Deck {view.get('deck_size', 0)} · discards {view.get('discard_size', 0)}", TEXT,
           PALETTE["muted"], width=WIDTH - 40)
    y += 38
    if battle:
        y = _solo_battle(c, y, battle)
    tithe = solo["tithe_card"] if solo else None
    if solo and tithe:
        god = god_label(view, solo["tithe_god"])
        y = _box(c, y, [f"Tithe to {god}", f"{tithe['name']}: {points_text(tithe.get('points', {}))}"],
                 PALETTE["accent"])
    return c.image.crop((0, 0, WIDTH, y + 10))


def _solo_battle(c: Canvas, y: int, battle: SoloBattleView) -> int:
    played = battle.get("played") or []
    revealed = battle.get("revealed") or []
    kind = battle.get("pillar", "")
    lines = [f"Battle for the {pillar_name(kind)} pillar"]
    mine = battle.get("mine", sum(int(x.get("points", {}).get(kind, 0)) for x in played))
    theirs = battle.get("theirs", sum(int(x.get("points", {}).get(kind, 0)) for x in revealed))
    lines.append(f"Your cards ({mine}): " + (", ".join(x["name"] for x in played) or "none yet"))
    lines.append(f"Its fortifications ({theirs}): " + (", ".join(x["name"] for x in revealed) or "none yet"))
    fav = battle.get("favoured")
    if fav == "player":
        lines.append("Your lower power won a god's +3 favour.")
    elif fav == "pillar":
        lines.append("The pillar's lower power won the favour: you need brute force.")
    return _box(c, y, lines, PALETTE["ink"])


# ------------------------------------------------------------------------------------ hands

def _card_image(info: CardFaceView, width: int, height: int | None, view: View) -> Image.Image:
    title, body, foot, colour = _card_parts(info, view)
    return card(title, body, width=width, height=height, colour=colour, footer=foot, body_lines=40,
                title_size=TEXT, body_size=TEXT)


def _card_parts(info: CardFaceView, view: View) -> tuple[str, str, str, RGB]:
    if info.get("kind") == "powerup":
        return info["name"], str(info.get("text", "")), "powerup", PALETTE["accent"]
    god = god_of(view, info.get("god"))
    points = info.get("points", {})  # a pillar's points to a line, never split between two
    body = "\n".join(f"{pillar_name(p)} {points[p]}" for p in PILLARS if points.get(p)) or "no points"
    foot = f"serves {god['name']}" if god else "citizen"
    return info["name"], body, foot, PILLAR_COLOUR.get(info.get("god") or "", PALETTE["accent"])


def _cards_grid(c: Canvas, y: int, cards: Sequence[CardFaceView], view: View, per_row: int = 3) -> int:
    cw = (WIDTH - 40 - (per_row - 1) * 12) // per_row
    for i in range(0, len(cards), per_row):
        row = cards[i:i + per_row]
        heights = [card_height(*_card_parts(h, view)[:2], width=cw, title_size=TEXT, body_size=TEXT,
                               footer="x", body_lines=40) for h in row]
        ch = max(heights)
        for j, h in enumerate(row):
            c.image.paste(_card_image(h, cw, ch, view), (20 + j * (cw + 12), y))
        y += ch + 12
    return y


def hand_image(view: JSON, names: Sequence[str] | None = None) -> Image.Image:
    """:func:`_hand_image` of the platform's view, read as declared (:mod:`rules.petition.views`)."""
    return _hand_image(read_view(view), names)


def _hand_image(view: View, names: Sequence[str] | None = None) -> Image.Image:
    """One seat's hand: each card's name, god, points per pillar or powerup text, and the cards
    it has face down in a bid or a campaign."""
    priv = view["private"]
    seat = priv["seat"]
    who = seat_names(names, len(view["seats"]))
    hand = priv.get("hand", [])
    me = view["seats"][seat]
    c = Canvas(WIDTH, 4000)
    c.rect((0, 0, WIDTH, 64), fill=PALETTE["panel"], radius=0)
    right = f"{plural(me['beads'], 'bead')} · {len(hand)}/10 cards"
    c.name_tag((18, 32), seat, who[seat], 28, WIDTH - 60 - text_size(right, TEXT)[0], rest="'s hand")
    c.text((WIDTH - 18, 20), right, TEXT, PALETTE["muted"], anchor="ra")
    y = 80
    fav = favour_of(view, seat)
    if fav:
        y = c.text_block((20, y), f"Favour: {fav}", WIDTH - 40, TEXT, PALETTE["accent"],
                         spacing=LINE - TEXT) + 6
    if not hand:
        y = c.text_block((20, y), "No cards in hand.", WIDTH - 40, TEXT, PALETTE["muted"]) + 10
    y = _cards_grid(c, y, hand, view)
    for down, label in ((priv["bid"], "Your face-down bid"),
                        (priv["campaign_cards"], "Your campaign cards")):
        if down:
            c.text((20, y + 4), label, 24, PALETTE["accent"])
            y = _cards_grid(c, y + 40, down, view)
    return c.image.crop((0, 0, WIDTH, y + 8))


def hand_alt(view: JSON, names: Sequence[str] | None = None) -> str:
    """:func:`_hand_alt` of the platform's view, read as declared (:mod:`rules.petition.views`)."""
    return _hand_alt(read_view(view), names)


def _hand_alt(view: View, names: Sequence[str] | None = None) -> str:
    priv = view["private"]
    cards = "; ".join(f"{h['name']} ({points_text(h.get('points', {})) if h.get('kind') != 'powerup' else 'powerup'})"
                      for h in priv.get("hand", [])) or "none"
    return alt_text("Your Petition hand.", f"Cards: {cards}.")


# ------------------------------------------------------------------------------------ reveal

def reveal_summary(r: RevealView, view: View, who: Sequence[str]) -> str:
    """A reveal in one or two sentences (public: everything in it was turned face up)."""
    if r["type"] == "campaign":
        at, de = r["attacker"], r["defender"]
        head = f"{who[at]} against {who[de]}'s {pillar_name(r.get('pillar', ''))}"
        if r.get("surrendered") or not r.get("defend"):
            return f"{head}: {who[de]} surrendered without a fight."
        if r.get("attack_total") is None or r.get("defend_total") is None:
            return f"{head}: cards revealed."
        score = f"{head}: {r['attack_total']} to {r['defend_total']}"
        if "captured" not in r:  # drawn at the reveal: the battle is still to come
            return f"{score} on the reveal; the battle follows."
        return f"{score}: " + (f"{who[at]} captures it." if r["captured"] else "the pillar holds.")
    holder, ch = r.get("holder"), r.get("challenger")
    god = god_label(view, r.get("god"))
    if not holder or not ch:
        return f"Bids to {god} revealed."
    winner = r.get("winner")
    out = (f"{who[holder['seat']]} ({plural(holder.get('beads', 0), 'bead')}, "
           f"{plural(len(holder.get('cards') or []), 'citizen')}) against {who[ch['seat']]} "
           f"({plural(ch.get('beads', 0), 'bead')}, {plural(len(ch.get('cards') or []), 'citizen')}) for {god}")
    if winner is not None:
        out += f": {who[winner]} wins" + (f" +{r['bonus']}" if r.get("bonus") else "") + (
            " with a card lock" if r.get("lock") else "")
    why = str(r.get("why") or "")
    return out + (f" ({with_names(why, who)})" if why else "") + "."


def reveal_image(r: RevealView, view: View, names: Sequence[str] | None = None) -> Image.Image:
    """Both sides of a reveal side by side: a petition duel's beads and citizens, or a
    campaign's cards, with the totals and who won."""
    who = seat_names(names, len(view["seats"]))
    sides: list[tuple[int, str, list[CardFaceView], int | None]]
    totals: tuple[int | None, int | None] = (None, None)
    surrendered = False
    if r["type"] == "campaign":
        campaign = True
        sides = [(r["attacker"], "attacks", r.get("attack") or [], None),
                 (r["defender"], "defends", r.get("defend") or [], None)]
        title = f"{pillar_name(r.get('pillar', ''))} pillar: campaign revealed"
        focus = str(r.get("pillar") or "")
        totals = (r.get("attack_total"), r.get("defend_total"))
        surrendered = bool(r.get("surrendered"))
    else:
        campaign = False
        h, ch = r["holder"], r["challenger"]
        sides = [(h["seat"], "holds", h.get("cards") or [], h.get("beads", 0)),
                 (ch["seat"], "challenges", ch.get("cards") or [], ch.get("beads", 0))]
        title = f"Bids to {god_label(view, r.get('god'))}"
        focus = str(r.get("god") or "")
    c = Canvas(WIDTH, 3000)
    c.header("Petition", "reveal")
    y = 64 + GAP
    c.text((WIDTH / 2, y), title, 28, PALETTE["accent"], anchor="ma", width=WIDTH - 40)
    y += 48
    col_w = (WIDTH - 3 * GAP) // 2
    bottom = y
    for i, (seat, role, cards, beads) in enumerate(sides):
        x = GAP + i * (col_w + GAP)
        yy = y
        c.rect((x, yy, x + col_w, yy + 4), fill=seat_colour(seat), radius=0, width=0)
        c.name_tag((x + 8, yy + 30), seat, f"{who[seat]} {role}", 24, col_w - 16)
        yy += 58
        if beads is not None:
            c.text((x + 8, yy), f"{plural(beads, 'bead')} offered", TEXT, PALETTE["accent"], width=col_w - 16)
            yy += 34
        if campaign and i == 1 and (surrendered or not cards):
            c.text((x + 8, yy), "surrendered: no cards", TEXT, PALETTE["muted"], width=col_w - 16)
            yy += 34
        elif not cards:
            c.text((x + 8, yy), "no cards", TEXT, PALETTE["muted"], width=col_w - 16)
            yy += 34
        for info in cards:
            pts = info.get("points", {})
            if info.get("kind") == "powerup":
                val = f"powerup: {info.get('text', '')}"
            elif focus in PILLAR_NAMES:
                val = f"{pillar_name(focus)} {pts.get(focus, 0)}"
            else:
                val = points_text(pts, short=True)
            name_lines = wrap(info["name"], TEXT, col_w - 20)
            val_lines = wrap(val, TEXT, col_w - 20)
            box_h = 12 + LINE * (len(name_lines) + len(val_lines))
            c.rect((x, yy, x + col_w, yy + box_h), fill=PALETTE["card"], outline=PILLAR_COLOUR.get(
                info.get("god") or "", PALETTE["accent"]), radius=10, width=4)
            ly = yy + 5
            for line in name_lines:
                c.text((x + 10, ly), line, TEXT, PALETTE["card_ink"])
                ly += LINE
            for line in val_lines:
                c.text((x + 10, ly), line, TEXT, (110, 100, 90))
                ly += LINE
            yy += box_h + 8
        if campaign:
            total = totals[i]
            pts_sum = sum(int(k.get("points", {}).get(focus, 0)) for k in cards)
            text = f"{pillar_name(focus)} points {pts_sum}" + (f" · total {total}" if total is not None else "")
            c.text((x + 8, yy + 4), text, TEXT, PALETTE["ink"], width=col_w - 16)
            yy += 36
        else:
            dev = (beads or 0) + len(cards)
            c.text((x + 8, yy + 4), f"devotion {dev}", TEXT, PALETTE["ink"], width=col_w - 16)
            yy += 36
        bottom = max(bottom, yy)
    y = bottom + GAP
    y = c.text_block((20, y), reveal_summary(r, view, who), WIDTH - 40, TEXT, PALETTE["accent"],
                     spacing=LINE - TEXT) + 10
    return c.image.crop((0, 0, WIDTH, y))


def reveal_alt(r: RevealView, view: View, names: Sequence[str] | None = None) -> str:
    who = seat_names(names, len(view["seats"]), drawn=False)
    if r["type"] == "campaign":
        parts = [f"{who[r['attacker']]} played: " + (", ".join(c["name"] for c in r.get("attack") or []) or "no cards"),
                 f"{who[r['defender']]} played: " + (", ".join(c["name"] for c in r.get("defend") or []) or "no cards")]
    else:
        parts = [f"{who[s['seat']]} offered {plural(s.get('beads', 0), 'bead')} and bid "
                 + (", ".join(c["name"] for c in s.get("cards") or []) or "no citizens")
                 for s in (r.get("holder"), r.get("challenger")) if s]
    return alt_text("Petition reveal.", *parts, reveal_summary(r, view, who))


# ------------------------------------------------------------------------------------ alt text

def board_alt(view: JSON, names: Sequence[str] | None = None) -> str:
    """:func:`_board_alt` of the platform's view, read as declared (:mod:`rules.petition.views`)."""
    return _board_alt(read_view(view), names)


def _held(g: GodView, who: Sequence[str]) -> str:
    """Who holds a god and at which bonus, or that it is in the temple."""
    holder = g["holder"]
    return f"held by {who[holder]} at +{g['bonus']}" if holder is not None else "in the temple"


def _board_alt(view: View, names: Sequence[str] | None = None) -> str:
    """The board in words: what happens, whose decision it is, the standing (or who won)."""
    who = seat_names(names, len(view["seats"]), drawn=False)
    solo = view["solo"]
    if solo:
        me = view["seats"][0]
        stacks = ", ".join(f"{pillar_name(k)} {v} face down" for k, v in (solo.get("stacks") or {}).items())
        taken = listing([pillar_name(k) for k in solo.get("captured") or []]) or "none"
        if view.get("phase") == "over":
            result = view.get("result")
            reason = with_names(str(result["reason"] if result else ""), who)
            return alt_text(f"Petition solo game, game over for {who[0]}.", reason,
                            f"Final ranking: {who[0]} captured {taken}")
        return alt_text(f"Petition solo game, round {view.get('round', 1)}.", solo_awaited(view),
                        f"{who[0]}: {plural(me['beads'], 'bead')}, {plural(me['hand_size'], 'card')} in hand",
                        f"Pillars: {stacks or 'none left'}", f"Captured: {taken}")
    standing = "; ".join(
        f"{who[s['seat']]} {s['captured_count']} captured, {s['active_count']} standing, "
        f"{plural(s['beads'], 'bead')}, {plural(s['hand_size'], 'card')} in hand"
        + (f", {favour_of(view, s['seat'])}" if favour_of(view, s["seat"]) else "")
        for s in ranking(view))
    r = view.get("result")
    if view.get("phase") == "over" and r:
        won = listing([who[k] for k in r.get("winners", [])]) or "nobody"
        return alt_text(f"Petition, game over: {won} {'wins' if len(r.get('winners', [])) == 1 else 'win'}.",
                        f"Final ranking: {standing}.", with_names(str(r.get("reason", "")), who))
    gods = "; ".join(f"{g['name']} ({pillar_name(g['key'])}) " + _held(g, who) for g in view.get("gods", []))
    return alt_text(f"Petition board, round {view.get('round', 1)}.", awaited(view, who),
                    f"Gods: {gods}.", f"Standing: {standing}.")
