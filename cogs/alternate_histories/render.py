"""Alternate Histories images, drawn from redacted engine views (and the seats' display names),
and the deck builder's deck list.

Drawn for a phone first: 800 px wide, no text under 3% of the width (``TEXT``, 24 px; see
``bot.render.MIN_TEXT_SHARE``); a name or line too long for its box wraps onto another line
rather than being cut.

* :func:`deck_image` — a saved deck: nation, governance, size, its cards era by era with counts
  and each card's kind, power/mobility and combat value, and whether it is ready to play.
* :func:`board_image` — the public board (see its docstring).
* :func:`hand_image` — one player's hand, card by card.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image

from bot.render import (
    PALETTE,
    Canvas,
    alt_text,
    plural,
    seat_colour,
    seat_names,
    text_size,
    with_names,
    wrap,
)
from bot.render import card as draw_card
from rules.alternate_histories.content import CARDS, GOVERNANCES, NATIONS

from .deckbuilder import ERAS, Pool, era_index, era_name

JSON = dict[str, Any]
WIDTH = 800
GAP = 12
TEXT = 24
"""The smallest text on these images: 3% of their width (a phone shows them about 400 px wide)."""
LINE = TEXT + 6
ERA_COLOUR: dict[str, tuple[int, int, int]] = {
    "Chemical": (150, 190, 110),
    "Mechanical": (200, 160, 100),
    "Atomic": (230, 120, 90),
    "Digital": (100, 170, 230),
    "Singularity": (190, 130, 230),
}
"""One colour per era (its name is always written beside it: colour is never the only cue)."""


def era_colour(era: Any) -> tuple[int, int, int]:
    return ERA_COLOUR.get(era_name(era), PALETTE["muted"])


def _get(obj: Any, name: str, default: Any = None) -> Any:
    if isinstance(obj, Mapping):
        return obj.get(name, default)
    return getattr(obj, name, default)


def _stat_line(card: Any) -> str:
    kind = str(_get(card, "kind", "") or "").capitalize()
    bits = [kind] if kind else []
    power, mobility = _get(card, "power"), _get(card, "mobility")
    if power is not None and mobility is not None and (power or mobility):
        bits[-1:] = [f"{bits[-1]} {power}/{mobility}" if bits else f"{power}/{mobility}"]
    value = _get(card, "value")
    if value is not None:
        bits.append(f"value {value}")
    return " · ".join(bits)


# --------------------------------------------------------------------------- deck list

def deck_image(pool: Pool, name: str, data: Mapping[str, Any], errors: Sequence[str]) -> Image.Image:
    """The deck list: a header, then one block per era with its cards (copies × name, kind,
    power/mobility, combat value), then ready / the number of problems."""
    groups = pool.by_era(data)
    row_h, head_h = 36, 42
    height = 64 + 80 + sum(head_h + len(rows) * row_h + GAP for _, rows in groups) + 60
    c = Canvas(WIDTH, max(height, 280))
    c.header(name, f"{pool.size(data)} of {pool.deck_size} cards")
    y = 76
    c.text((20, y), f"{pool.nation_name(data['nation'])} · {pool.governance_name(data['governance'])}",
           TEXT, PALETTE["ink"], width=WIDTH - 40)
    c.text((20, y + 36), "Each card: copies, name, kind power/mobility · combat value", TEXT,
           PALETTE["muted"], width=WIDTH - 40)
    y += 80
    if not groups:
        c.text((20, y), "No cards yet: add some with /deck add.", TEXT, PALETTE["muted"])
        y += 40
    for era, rows in groups:
        colour = era_colour(era)
        total = sum(n for _, n in rows)
        c.rect((12, y, WIDTH - 12, y + head_h - 6), fill=PALETTE["panel"], radius=8, width=0)
        c.rect((12, y, 24, y + head_h - 6), fill=colour, radius=4, width=0)
        c.text((36, y + 4), f"{era} - {plural(total, 'card')}", TEXT, colour)
        y += head_h
        for card, n in rows:
            label = str(_get(card, "name", card))
            stats = _stat_line(card)
            stats_w = text_size(stats, TEXT)[0]
            c.text((36, y + 4), f"{n}x", TEXT, PALETTE["accent"])
            c.text((86, y + 4), label, TEXT, PALETTE["ink"], width=WIDTH - 86 - 40 - stats_w)
            c.text((WIDTH - 24, y + 4), stats, TEXT, PALETTE["muted"], anchor="ra")
            y += row_h
        y += GAP
    verdict = ("Ready to play" if not errors
               else f"Not ready: {plural(len(errors), 'problem')} (see /deck validate)")
    c.text((20, y + 8), verdict, TEXT, PALETTE["good"] if not errors else PALETTE["bad"], width=WIDTH - 40)
    return c.image


def deck_alt(pool: Pool, name: str, data: Mapping[str, Any], errors: Sequence[str]) -> str:
    eras = [f"{era}: {sum(n for _, n in rows)}" for era, rows in pool.by_era(data)]
    return alt_text(f"Deck list of {name}, {pool.nation_name(data['nation'])} "
                    f"{pool.governance_name(data['governance'])}, {pool.size(data)} of "
                    f"{pool.deck_size} cards",
                    ("by era: " + ", ".join(eras)) if eras else "no cards yet",
                    "ready to play" if not errors else f"not ready, {plural(len(errors), 'problem')}")


# --------------------------------------------------------------------------- the board

PER_ROW = 3
TILE_W = (WIDTH - 40 - (PER_ROW - 1) * 8) // PER_ROW
KEYWORD_SHORT = {
    "air": "Air", "espionage": "Spy", "naval": "Naval", "nuclear": "Nuclear",
    "precision_strike": "Precision", "rapid_deployment": "Rapid", "reorder": "Reorder",
    "submarine": "Sub", "tokenize_hand": "Tokenize", "tokenize_deck": "Tokenize",
    "station": "Station",
}


def card_name(card_id: str | None) -> str:
    """A public card's name (the graveyards, burned cards and rolls are public)."""
    if not card_id:
        return "?"
    card = CARDS.get(card_id)
    return card.name if card is not None else card_id


def nation_name(key: str | None) -> str:
    return NATIONS[key].name if key in NATIONS else "?"


def governance_name(key: str | None) -> str:
    return GOVERNANCES[key].name if key in GOVERNANCES else "?"


def counted(ids: Sequence[str]) -> str:
    """"2x Gas Attack, Doughboys" — names with counts, most first."""
    counts: dict[str, int] = {}
    for cid in ids:
        counts[card_name(cid)] = counts.get(card_name(cid), 0) + 1
    order = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    return ", ".join(f"{n}x {name}" if n > 1 else name for name, n in order)


def _tile_lines(p: JSON, field: Mapping[int, JSON]) -> tuple[str, str, str]:
    """A permanent's name, numbers and state in three short lines."""
    name = "Face-down card" if p.get("face_down") and p.get("token") is None else str(p.get("name") or "?")
    if p.get("token") == "academic":
        name = "Academic token"
    if p["kind"] == "unit":
        numbers = f"{p.get('attack', p['power'])} power · {p.get('speed', p['mobility'])} mob"
    elif p["kind"] == "infrastructure":
        numbers = f"Infrastructure · {p.get('defend', p['power'])}"
    else:
        numbers = "Resource" + (" (reserve)" if p.get("face_down") else "")
    state: list[str] = []
    if p.get("tapped"):
        state.append("TAPPED")
    if p.get("station") is not None and p["station"] in field:
        state.append(f"on {field[p['station']].get('name') or 'infrastructure'}")
    kws = [KEYWORD_SHORT.get(k, k) for k in p.get("keywords", [])]
    state += list(dict.fromkeys(kws))
    if p.get("rapid"):
        state.append("new")
    return name, numbers, " · ".join(state)


class _Tile:
    """A permanent's tile: its name and state wrapped to the tile's width, its numbers on one
    line."""

    def __init__(self, p: JSON, field: Mapping[int, JSON]) -> None:
        name, self.numbers, state = _tile_lines(p, field)
        room = TILE_W - 16
        self.name = wrap(name, TEXT, room)
        self.state: list[str] = []
        for part in state.split(" · ") if state else []:  # whole items to a line
            trial = f"{self.state[-1]} · {part}" if self.state else part
            if self.state and text_size(trial, TEXT)[0] <= room:
                self.state[-1] = trial
            else:
                self.state += wrap(part, TEXT, room)
        self.height = 12 + LINE * (len(self.name) + 1 + len(self.state))


def _tile_rows(perms: Sequence[JSON], field: Mapping[int, JSON]) -> list[list[tuple[JSON, _Tile]]]:
    tiles = [(p, _Tile(p, field)) for p in perms]
    return [tiles[i:i + PER_ROW] for i in range(0, len(tiles), PER_ROW)]


def _tiles_height(perms: Sequence[JSON], field: Mapping[int, JSON]) -> int:
    return sum(max(t.height for _, t in row) + 8 for row in _tile_rows(perms, field))


def _tiles(c: Canvas, x0: int, y: int, perms: Sequence[JSON], field: Mapping[int, JSON],
           colour: tuple[int, int, int]) -> int:
    """Permanents as tiles, three to a row (a row as tall as its tallest tile); returns the y
    below them."""
    for row in _tile_rows(perms, field):
        h = max(t.height for _, t in row)
        for i, (p, tile) in enumerate(row):
            x = x0 + i * (TILE_W + 8)
            tapped = bool(p.get("tapped"))
            c.rect((x, y, x + TILE_W, y + h), fill=PALETTE["bg"] if tapped else PALETTE["panel_hi"],
                   outline=PALETTE["muted"] if tapped else colour, radius=8, width=2)
            ty = y + 6
            for line in tile.name:
                c.text((x + 8, ty), line, TEXT, PALETTE["muted"] if tapped else PALETTE["ink"])
                ty += LINE
            c.text((x + 8, ty), tile.numbers, TEXT, PALETTE["accent"] if not tapped else PALETTE["muted"],
                   width=TILE_W - 16)
            ty += LINE
            for line in tile.state:
                c.text((x + 8, ty), line, TEXT, PALETTE["bad"] if tapped else PALETTE["muted"])
                ty += LINE
        y += h + 8
    return y


def _side_lines(side: JSON) -> list[tuple[str, str]]:
    """The side's facts under its name, one short line each: (text, colour key)."""
    era = int(side.get("era", 0))
    grave = side.get("graveyard", [])
    lines = [(f"Era tracker: {side.get('era_name', era_name(era))} ({plural(era, 'reshuffle')})", "ink"),
             (f"Deck {side.get('deck', 0)} · Hand {side.get('hand', 0)} · Graveyard {len(grave)} · "
              f"Burned {len(side.get('burned', []))}", "ink")]
    extra = []
    if side.get("compute"):
        extra.append(f"Compute {side['compute']}")
    if side.get("burn_on_reshuffle"):
        extra.append(f"Burns {side['burn_on_reshuffle']} at its next reshuffle")
    if extra:
        lines.append((" · ".join(extra), "muted"))
    if grave:
        lines.append((f"Graveyard top: {card_name(grave[-1])}", "muted"))
    return lines


def _burned_lines(side: JSON) -> list[str]:
    return wrap("Burned: " + counted(side["burned"]), TEXT, WIDTH - 44) if side.get("burned") else []


def _side_height(side: JSON, perms: Sequence[JSON], field: Mapping[int, JSON]) -> int:
    units = [p for p in perms if p["kind"] == "unit"]
    others = [p for p in perms if p["kind"] != "unit"]
    h = 58 + LINE * len(_side_lines(side)) + 4
    for group in (units, others):
        h += LINE + 4 + (_tiles_height(group, field) if group else 0)
    return h + LINE * len(_burned_lines(side)) + 10


def _side_panel(c: Canvas, y: int, side: JSON, perms: Sequence[JSON], field: Mapping[int, JSON],
                who: str, view: JSON) -> int:
    seat = side["seat"]
    colour = seat_colour(seat)
    h = _side_height(side, perms, field)
    turn = view.get("phase") == "turn" and view.get("current") == seat
    c.rect((10, y, WIDTH - 10, y + h), fill=PALETTE["panel"], outline=colour if turn else None,
           radius=12, width=3)
    allegiance = (f"{nation_name(side.get('nation'))} · {governance_name(side.get('governance'))}"
                  if side.get("nation") else "deck not chosen yet" if not side.get("chosen") else "deck chosen")
    right_w = text_size(allegiance, TEXT)[0] + 10
    c.name_tag((22, y + 30), seat, who + ("  (to play)" if turn else ""), 26, WIDTH - 60 - right_w)
    c.text((WIDTH - 24, y + 18), allegiance, TEXT, PALETTE["muted"], anchor="ra")
    yy = y + 58
    for line, tone in _side_lines(side):
        c.text((22, yy), line, TEXT, PALETTE[tone], width=WIDTH - 44)
        yy += LINE
    yy += 4
    units = [p for p in perms if p["kind"] == "unit"]
    others = [p for p in perms if p["kind"] != "unit"]
    for title, group, tint in (("Units", units, colour), ("Infrastructure and resources", others,
                                                          PALETTE["land"])):
        c.text((22, yy), f"{title}: {len(group)}" if group else f"{title}: none", TEXT, PALETTE["muted"])
        yy += LINE + 4
        if group:
            yy = _tiles(c, 20, yy, group, field, tint)
    for line in _burned_lines(side):
        c.text((22, yy), line, TEXT, PALETTE["muted"])
        yy += LINE
    return y + h


def _combat_lines(view: JSON, who: Sequence[str]) -> list[str]:
    last = view.get("last_combat")
    if not last:
        return []
    a, d, outcome = last.get("attacker"), last.get("defender"), last.get("outcome")

    def roll(x: JSON) -> str:
        owner = who[x["owner"]] if 0 <= x.get("owner", -1) < len(who) else "?"
        power, total = int(x.get("power") or 0), x.get("total")
        if total is None:
            return f"{owner}'s {x.get('name')} ({power} power)"
        parts = [f"{power} power"]
        rolled = x.get("roll")
        if rolled is not None:
            parts.append(f"{rolled} ({card_name(x.get('roll_card'))})")
        bonus = int(total) - power - int(rolled or 0)
        if bonus:
            parts.append(f"{bonus} bonus" if bonus > 0 else f"{bonus} malus")
        empty = "" if rolled is not None else " (no card left to reveal)"
        return f"{owner}'s {x.get('name')}: " + " + ".join(parts).replace("+ -", "- ") + f" = {total}{empty}"

    if a is None:
        return []
    if outcome == "fled" and d:
        return [roll(a) + " attacked;", f"{roll(d)} fled."]
    if outcome == "hit" or d is None:
        target = who[1 - a["owner"]] if 0 <= 1 - a.get("owner", 0) < len(who) else "the opponent"
        return [f"{roll(a)} hit {target} directly."]
    verdict = {"attacker": "the attacker won", "defender": "the defender won",
               "tie": "a tie"}.get(str(outcome), str(outcome))
    return [roll(a), f"against {roll(d)}: {verdict}."]


def board_image(view: JSON, names: Sequence[str] | None = None) -> Image.Image:
    """The public board: the era track with the global era, then each side — its nation and
    governance, era tracker, deck, hand, graveyard and burned counts, its units (power,
    mobility, tapped, where stationed, keywords) and its infrastructure and resources — then
    the last combat with both rolls, and whose turn it is (or the result)."""
    who = seat_names(names, 2)
    sides = view.get("sides", [])
    field = {int(p["uid"]): p for p in view.get("battlefield", [])}
    by_owner = {k: [p for p in view.get("battlefield", []) if p["owner"] == k] for k in (0, 1)}
    combat = [part for line in _combat_lines(view, who) for part in wrap(line, TEXT, WIDTH - 40)]
    footer = wrap(_footer(view, who), TEXT, WIDTH - 40)
    height = 64 + 70 + sum(_side_height(sd, by_owner.get(sd["seat"], []), field) + GAP for sd in sides)
    height += (40 + LINE * len(combat) if combat else 0) + 24 + LINE * len(footer) + 10
    c = Canvas(WIDTH, height)
    g = int(view.get("global_era_index", 0))
    c.header("Alternate Histories", f"Turn {view.get('turn', 0)} · {ERAS[g]} era"
             if view.get("phase") == "turn" else _phase_word(view))
    y = 74
    seg = (WIDTH - 40) // len(ERAS)
    for i, era in enumerate(ERAS):
        x = 20 + i * seg
        on = i == g
        c.rect((x + 2, y, x + seg - 2, y + 44), fill=ERA_COLOUR[era] if on else PALETTE["panel"],
               outline=ERA_COLOUR[era], radius=8, width=2)
        c.text((x + seg / 2, y + 22), era, TEXT, PALETTE["bg"] if on else ERA_COLOUR[era], anchor="mm")
    y += 58
    for sd in sides:
        y = _side_panel(c, y, sd, by_owner.get(sd["seat"], []), field, who[sd["seat"]], view) + GAP
    if combat:
        c.text((20, y + 4), "Last combat", TEXT, PALETTE["accent"])
        y += 40
        for line in combat:
            c.text((20, y), line, TEXT, PALETTE["ink"])
            y += LINE
    y += 14
    for line in footer:
        c.text((20, y), line, TEXT, PALETTE["good"] if view.get("phase") == "over" else PALETTE["ink"])
        y += LINE
    return c.image


STEP_WORDS = {"events": "events", "combat": "combat", "build": "build",
              "decommission": "decommission", "draw": "draw"}


def _phase_word(view: JSON) -> str:
    return {"deck": "choosing decks", "opening": "choosing opening hands",
            "over": "game over"}.get(str(view.get("phase")), str(view.get("phase")))


def _footer(view: JSON, who: Sequence[str]) -> str:
    phase = view.get("phase")
    if phase == "over":
        w = view.get("winner")
        head = f"Game over: {who[w]} wins" if isinstance(w, int) and 0 <= w < len(who) else "Game over: a draw"
        return head + (f" ({with_names(str(view['reason']), who).rstrip('.')})" if view.get("reason") else "")
    if phase == "deck":
        waiting = [who[s["seat"]] for s in view.get("sides", []) if not s.get("chosen")]
        return "Choosing decks in secret; waiting for " + (" and ".join(waiting) or "nobody")
    if phase == "opening":
        waiting = [who[s["seat"]] for s in view.get("sides", []) if not s.get("opened")]
        return "Choosing opening hands in secret; waiting for " + (" and ".join(waiting) or "nobody")
    cur = int(view.get("current", 0))
    step = STEP_WORDS.get(str(view.get("step")), str(view.get("step")))
    pending = view.get("pending") or {}
    if pending.get("kind") == "react":
        return f"{who[cur]} attacks: {who[int(pending['seat'])]} may flee or intercept"
    return f"{who[cur]}'s turn: {step} phase"


def board_alt(view: JSON, names: Sequence[str] | None = None) -> str:
    """The board in words (public): the era, each side's standing, whose turn or who won."""
    who = seat_names(names, 2, drawn=False)
    sides = view.get("sides", [])
    field = view.get("battlefield", [])

    def standing(sd: JSON) -> str:
        k = sd["seat"]
        units = [p for p in field if p["owner"] == k and p["kind"] == "unit"]
        return (f"{who[k]}: " + (f"{nation_name(sd.get('nation'))} {governance_name(sd.get('governance'))}, "
                                  if sd.get("nation") else "")
                + f"{sd.get('era_name', '')} era tracker, {plural(int(sd.get('deck', 0)), 'card')} in the "
                  f"deck, {plural(len(units), 'unit')}, {len(sd.get('burned', []))} burned")

    ranking = "; ".join(standing(sd) for sd in sorted(
        sides, key=lambda sd: -(int(sd.get("deck", 0)) + int(sd.get("hand", 0)))))
    combat = " ".join(_combat_lines(view, who))
    if view.get("phase") == "over":
        w = view.get("winner")
        head = (f"Alternate Histories, game over: {who[w]} wins" if isinstance(w, int) and 0 <= w < 2
                else "Alternate Histories, game over: a draw")
        return alt_text(head, with_names(str(view.get("reason") or ""), who), f"Final ranking: {ranking}")
    g = int(view.get("global_era_index", 0))
    return alt_text(f"Alternate Histories board, turn {view.get('turn', 0)}, {ERAS[g]} era",
                    _footer(view, who), f"Standing: {ranking}", f"Last combat: {combat}" if combat else "")


# --------------------------------------------------------------------------- the hand

def cost_words(cost: Any) -> str:
    """A cost in words the image font can draw ("discard 2 + mill 1"; "free")."""
    parts = []
    if _get(cost, "discard"):
        parts.append(f"discard {_get(cost, 'discard')}")
    if _get(cost, "mill"):
        parts.append(f"mill {_get(cost, 'mill')}")
    if _get(cost, "academic"):
        parts.append(f"{_get(cost, 'academic')} Academic")
    if _get(cost, "compute"):
        parts.append(f"{_get(cost, 'compute')} Compute")
    return " + ".join(parts) or "free"


def card_facts(card: Any) -> str:
    """Era, kind, power/mobility, value, keywords and cost of a card, in one line."""
    bits = [f"{era_name(card.era)} {str(card.kind).lower()}"]
    if card.kind == "unit":
        bits.append(f"power {card.power}, mobility {card.mobility}")
    elif card.kind == "infrastructure":
        bits.append(f"power {card.power}")
    bits.append(f"value {card.value}")
    labels = card.keyword_labels() if hasattr(card, "keyword_labels") else list(card.keywords)
    if labels:
        bits.append(", ".join(labels))
    bits.append(f"cost {cost_words(card.cost)}")
    return " · ".join(bits)


def hand_image(view: JSON, names: Sequence[str] | None = None) -> Image.Image | None:
    """The seat's hand, card by card (name, era, kind, numbers, value, keywords, cost, text),
    then its face-down cards and any deck top it knows."""
    priv = view.get("private") or {}
    hand = [CARDS[c] for c in priv.get("hand", []) if c in CARDS]
    seat = int(priv.get("seat", 0))
    who = seat_names(names, 2)
    cols, w = 2, (WIDTH - 3 * GAP) // 2
    images = [draw_card(c.name, f"{card_facts(c)}. {c.text}", width=w, colour=era_colour(c.era),
                        title_size=26, body_size=TEXT, body_lines=40) for c in hand]
    rows = [images[i:i + cols] for i in range(0, len(images), cols)]
    extra = [part for line in _hand_extras(priv) for part in wrap(line, TEXT, WIDTH - 40)]
    height = 64 + 16 + sum(max(im.height for im in row) + GAP for row in rows) + LINE * len(extra) + 40
    c = Canvas(WIDTH, max(height, 160))
    c.rect((0, 0, WIDTH, 64), fill=PALETTE["panel"], radius=0)
    right = plural(len(hand), "card")
    c.name_tag((18, 32), seat, who[seat], 28, WIDTH - 60 - text_size(right, TEXT)[0], rest="'s hand")
    c.text((WIDTH - 18, 20), right, TEXT, PALETTE["muted"], anchor="ra")
    y = 80
    if not hand:
        c.text((20, y), "No cards in hand.", TEXT, PALETTE["muted"])
        y += 40
    for row in rows:
        for i, im in enumerate(row):
            c.image.paste(im, (GAP + i * (w + GAP), y))
        y += max(im.height for im in row) + GAP
    for line in extra:
        c.text((20, y + 4), line, TEXT, PALETTE["ink"])
        y += LINE
    return c.image.crop((0, 0, WIDTH, max(y + 20, 160)))


def _hand_extras(priv: Mapping[str, Any]) -> list[str]:
    out = []
    face_down = priv.get("face_down") or {}
    if face_down:
        out.append("Your face-down cards: " + counted(list(face_down.values())))
    if priv.get("known_top"):
        out.append("Opponent's deck top (you know): " + ", ".join(card_name(c) for c in priv["known_top"]))
    if priv.get("reorder"):
        out.append("To reorder: " + ", ".join(card_name(c) for c in priv["reorder"]))
    return out


def hand_alt(view: JSON, names: Sequence[str] | None = None) -> str:
    priv = view.get("private") or {}
    return alt_text("Your Alternate Histories hand", "Cards: " + (counted(priv.get("hand", [])) or "none"),
                    *_hand_extras(priv))


__all__ = ["ERAS", "board_alt", "board_image", "card_facts", "card_name", "cost_words", "counted",
           "deck_alt", "deck_image", "era_colour", "era_index", "era_name", "hand_alt", "hand_image"]
