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
from bot.render.kit import (
    Ranked,
    banner,
    icon_symbol,
    icon_text,
    icon_width,
    legend,
    moves_box,
    pill,
    ranking_box,
)
from rules.alternate_histories.content import CARDS, GOVERNANCES, KEYWORDS, KIND_NAMES, NATIONS
from rules.alternate_histories.views import (
    CombatSideView,
    PendingView,
    PermView,
    PrivateView,
    SideView,
    View,
    read_view,
)
from rules.text import listing

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


def _stat_parts(card: Any) -> list[tuple[str, str]]:
    """A card's kind, power and mobility (as icons) and value, for a row of the deck list."""
    kind = str(_get(card, "kind", "") or "").capitalize()
    parts = [("", kind)] if kind else []
    power, mobility = _get(card, "power"), _get(card, "mobility")
    if power is not None and mobility is not None and (power or mobility):
        parts += [("power", str(power))] + ([("mobility", str(mobility))] if kind == "Unit" else [])
    value = _get(card, "value")
    if value is not None:
        parts.append(("", f"value {value}"))
    return parts


# --------------------------------------------------------------------------- deck list

def deck_image(pool: Pool, name: str, data: Mapping[str, Any], errors: Sequence[str]) -> Image.Image:
    """The deck list: a header, then one block per era with its cards (copies × name, kind,
    power/mobility, combat value), then ready / the number of problems."""
    groups = pool.by_era(data)
    row_h, head_h = 36, 42
    height = 64 + 80 + 3 * LINE + 40 + sum(head_h + len(rows) * row_h + GAP for _, rows in groups) + 60
    c = Canvas(WIDTH, max(height, 280))
    c.header(name, f"{pool.size(data)} of {pool.deck_size} cards")
    y = 76
    c.text((20, y), f"{pool.nation_name(data['nation'])} · {pool.governance_name(data['governance'])}",
           TEXT, PALETTE["ink"], width=WIDTH - 40)
    y = c.text_block((20, y + 36), "Each card: copies, name, kind, power, mobility and value "
                     "(what it adds to a combat from the top of the deck).", WIDTH - 40, TEXT,
                     PALETTE["muted"], spacing=LINE - TEXT)
    y = legend(c, (20, y + 8), [(icon_symbol(kind), word) for kind, word in LEGEND[:2]], TEXT,
               WIDTH - 40)
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
            stats = _stat_parts(card)
            stats_w = icon_width(stats, TEXT)
            c.text((36, y + 4), f"{n}x", TEXT, PALETTE["accent"])
            c.text((86, y + 4), label, TEXT, PALETTE["ink"], width=WIDTH - 86 - 40 - stats_w)
            icon_text(c, (WIDTH - 24 - stats_w, y + 4), stats, TEXT, PALETTE["muted"])
            y += row_h
        y += GAP
    verdict = ("Ready to play" if not errors
               else f"Not ready: {plural(len(errors), 'problem')} (see /deck validate)")
    c.text((20, y + 8), verdict, TEXT, PALETTE["good"] if not errors else PALETTE["bad"], width=WIDTH - 40)
    return c.image.crop((0, 0, WIDTH, max(y + 50, 280)))


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
KEYWORD_NAMES = {k: label for k, (label, _) in KEYWORDS.items()}
"""A keyword's printed name on a tile, in full (never shortened: "Submarine", not "Sub")."""
LEGEND = (("power", "power"), ("mobility", "mobility"), ("cards", "cards in hand"))
"""The icons of the board and hand, each with its word (drawn as the board's legend)."""


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


def _tile_lines(p: PermView,
                field: Mapping[int, PermView]) -> tuple[str, list[tuple[str, str]], str]:
    """A permanent's name, its numbers (icon, figure) as its tile shows them, and its state."""
    name = "Face-down card" if p.get("face_down") and p.get("token") is None else str(p.get("name") or "?")
    if p.get("token") == "academic":
        name = "Academic token"
    numbers: list[tuple[str, str]]
    if p["kind"] == "unit":  # the power it attacks with now, every modifier in (as combat uses)
        numbers = [("power", str(p.get("attack", p["power"]))),
                   ("mobility", str(p.get("speed", p["mobility"])))]
    elif p["kind"] == "infrastructure":
        numbers = [("power", str(p.get("defend", p["power"])))]
    else:
        numbers = [("", "Resource" + (" (reserve)" if p.get("face_down") else ""))]
    state: list[str] = ["Infrastructure"] if p["kind"] == "infrastructure" else []
    if p.get("tapped"):
        state.append("Tapped (used)")
    station = p.get("station")
    if station is not None and station in field:
        state.append(f"on {field[station].get('name') or 'infrastructure'}")
    kws = [KEYWORD_NAMES.get(k, k) for k in p.get("keywords", [])]
    state += list(dict.fromkeys(kws))
    if p.get("rapid"):
        state.append("deployed this turn")
    return name, numbers, " · ".join(state)


def _numbers(c: Canvas, xy: tuple[float, float], numbers: Sequence[tuple[str, str]],
             fill: tuple[int, int, int]) -> None:
    """A tile's numbers: icons with their figures, or a word ("Resource") where there are none."""
    x, y = xy
    icons = [(kind, t) for kind, t in numbers if kind]
    if icons:
        x += icon_text(c, (x, y), icons, TEXT, fill) + TEXT // 2
    words = [t for kind, t in numbers if not kind]
    if words:
        c.text((x, y), words[0], TEXT, fill)


class _Tile:
    """A permanent's tile: its name and state wrapped to the tile's width, its numbers on one
    line."""

    def __init__(self, p: PermView, field: Mapping[int, PermView]) -> None:
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


def _tile_rows(perms: Sequence[PermView],
               field: Mapping[int, PermView]) -> list[list[tuple[PermView, _Tile]]]:
    tiles = [(p, _Tile(p, field)) for p in perms]
    return [tiles[i:i + PER_ROW] for i in range(0, len(tiles), PER_ROW)]


def _tiles_height(perms: Sequence[PermView], field: Mapping[int, PermView]) -> int:
    return sum(max(t.height for _, t in row) + 8 for row in _tile_rows(perms, field))


def _draw_tile(c: Canvas, x: int, y: int, h: int, tile: _Tile, tapped: bool,
               colour: tuple[int, int, int]) -> None:
    """One tile, ``h`` tall, its top left corner at (x, y)."""
    c.rect((x, y, x + TILE_W, y + h), fill=PALETTE["bg"] if tapped else PALETTE["panel_hi"],
           outline=PALETTE["muted"] if tapped else colour, radius=8, width=2)
    ty = y + 6
    for line in tile.name:
        c.text((x + 8, ty), line, TEXT, PALETTE["muted"] if tapped else PALETTE["ink"])
        ty += LINE
    _numbers(c, (x + 8, ty), tile.numbers, PALETTE["accent"] if not tapped else PALETTE["muted"])
    ty += LINE
    for line in tile.state:
        c.text((x + 8, ty), line, TEXT, PALETTE["bad"] if tapped else PALETTE["muted"])
        ty += LINE


TILE_CACHE = 96
"""Tiles kept drawn (about 160 KB each, 15 MB at most): a battlefield changes a few tiles a move,
so a board drawn after a move pastes most of its tiles instead of drawing their text again: the
same pixels, about a sixth less CPU a board over every move of a seeded game (seeds 5-7, best of
three: 8.5 → 7.1 ms, 10.7 → 9.6 ms in the game's last quarter; ``bench/draw_boards.py
--every-move``)."""
_tile_images: dict[tuple[Any, ...], Image.Image] = {}


def _tile_image(h: int, tile: _Tile, tapped: bool, colour: tuple[int, int, int]) -> Image.Image:
    """A tile drawn alone on a transparent image (its rounded corners show what is under them),
    kept for the next board: the same lines, state, colour and height draw the same pixels."""
    key = (h, tuple(tile.name), tuple(tile.numbers), tuple(tile.state), tapped, colour)
    image = _tile_images.pop(key, None)
    if image is None:
        t = Canvas(TILE_W + 1, h + 1, image=Image.new("RGBA", (TILE_W + 1, h + 1), (0, 0, 0, 0)))
        _draw_tile(t, 0, 0, h, tile, tapped, colour)
        image = t.image
        while len(_tile_images) >= TILE_CACHE:  # (the least recently used goes)
            del _tile_images[next(iter(_tile_images))]
    _tile_images[key] = image
    return image


def _tiles(c: Canvas, x0: int, y: int, perms: Sequence[PermView], field: Mapping[int, PermView],
           colour: tuple[int, int, int]) -> int:
    """Permanents as tiles, three to a row (a row as tall as its tallest tile); returns the y
    below them."""
    for row in _tile_rows(perms, field):
        h = max(t.height for _, t in row)
        for i, (p, tile) in enumerate(row):
            x = x0 + i * (TILE_W + 8)
            image = _tile_image(h, tile, bool(p.get("tapped")), colour)
            c.image.paste(image, (x, y), image)
            c.smallest = TEXT if c.smallest is None else min(c.smallest, TEXT)
        y += h + 8
    return y


def _side_lines(side: SideView) -> list[tuple[str, str]]:
    """The side's facts under its name, one short line each: (text, colour key)."""
    era = int(side.get("era", 0))
    grave = side.get("graveyard", [])
    lines = [(f"Era tracker: {side.get('era_name', era_name(era))} ({plural(era, 'reshuffle')})", "ink"),
             (f"Deck {side.get('deck', 0)} · Graveyard {len(grave)} · "
              f"Burned {len(side.get('burned', []))}", "ink")]
    extra = []
    if side.get("compute"):
        extra.append(f"{plural(int(side['compute']), 'Compute token')}")
    if side.get("burn_on_reshuffle"):
        extra.append(f"Burns {side['burn_on_reshuffle']} at their next reshuffle")
    if extra:
        lines.append((" · ".join(extra), "muted"))
    if grave:
        lines.append((f"Graveyard top: {card_name(grave[-1])}", "muted"))
    return lines


def _burned_lines(side: SideView) -> list[str]:
    return wrap("Burned: " + counted(side["burned"]), TEXT, WIDTH - 44) if side.get("burned") else []


def _side_height(side: SideView, perms: Sequence[PermView], field: Mapping[int, PermView]) -> int:
    units = [p for p in perms if p["kind"] == "unit"]
    others = [p for p in perms if p["kind"] != "unit"]
    h = 58 + LINE + LINE * len(_side_lines(side)) + 4
    for group in (units, others):
        h += LINE + 4 + (_tiles_height(group, field) if group else 0)
    return h + LINE * len(_burned_lines(side)) + 10


def _side_panel(c: Canvas, y: int, side: SideView, perms: Sequence[PermView],
                field: Mapping[int, PermView], who: str, view: View) -> int:
    """A side's panel in the order every game's player panel follows: the name (the panel
    outlined while it is their decision) with what sets them apart on the right, their cards
    in hand and whether it is their turn, their facts, then what they have in play."""
    seat = side["seat"]
    colour = seat_colour(seat)
    h = _side_height(side, perms, field)
    turn = view.get("phase") == "turn" and view.get("current") == seat
    deciding = seat in _waiting(view)
    c.rect((10, y, WIDTH - 10, y + h), fill=PALETTE["panel_hi"] if deciding else PALETTE["panel"],
           outline=colour, radius=12, width=5 if turn else 3)
    allegiance = (f"{nation_name(side.get('nation'))} · {governance_name(side.get('governance'))}"
                  if side.get("nation") else "deck not chosen yet" if not side.get("chosen") else "deck chosen")
    right_w = text_size(allegiance, TEXT)[0] + 10
    c.name_tag((22, y + 30), seat, who, 26, WIDTH - 60 - right_w)
    c.text((WIDTH - 24, y + 18), allegiance, TEXT, PALETTE["muted"], anchor="ra")
    yy = y + 58
    hand = int(side.get("hand", 0))
    x = 22 + icon_text(c, (22, yy), [("cards", f"{hand} in hand")], TEXT, PALETTE["ink"])
    status = "to decide" if deciding else "their turn" if turn else ""
    if status:
        c.text((x + 14, yy), "· " + status, TEXT, PALETTE["accent"])
    yy += LINE
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


def _power_now(x: CombatSideView, view: View) -> int:
    """The power a side of the last combat fought with: its total less the top card's value (the
    power its tile showed, every modifier in), or without a roll the unit's attack power as its
    tile shows it (its printed power when it has left the table)."""
    total, rolled = x.get("total"), x.get("roll")
    if total is not None:
        return int(total) - int(rolled or 0)
    for p in view.get("battlefield", []):
        if p.get("uid") == x.get("uid"):
            return int(p.get("attack") or p.get("power") or 0)
    return int(x.get("power") or 0)


def _combat_lines(view: View, who: Sequence[str]) -> list[str]:
    """The last combat, each side's total taken apart into its named parts: the power its tile
    shows plus the value of the card that was on top of its deck ("130 power + 45, the value of
    Doughboys on top of the deck = 175")."""
    last = view.get("last_combat")
    if not last:
        return []
    a, d, outcome = last.get("attacker"), last.get("defender"), last.get("outcome")

    def owner(x: CombatSideView) -> str:
        return who[x["owner"]] if 0 <= x.get("owner", -1) < len(who) else "?"

    def roll(x: CombatSideView) -> str:
        power, total = _power_now(x, view), x.get("total")
        if total is None:
            return f"{owner(x)}'s {x.get('name')} ({power} power)"
        rolled = x.get("roll")
        if rolled is None:
            return (f"{owner(x)}'s {x.get('name')}: {power} power + 0 (no card left on top of "
                    f"the deck) = {total}")
        return (f"{owner(x)}'s {x.get('name')}: {power} power + {rolled}, the value of "
                f"{card_name(x.get('roll_card'))} on top of the deck = {total}")

    if a is None:
        return []
    if outcome == "fled" and d:
        return [roll(a) + " attacked;", f"{roll(d)} fled."]
    if outcome == "hit" or d is None:
        target = who[1 - a["owner"]] if 0 <= 1 - a.get("owner", 0) < len(who) else "the opponent"
        power = _power_now(a, view)
        cards = ("one card off the deck per full 100 power" if power >= 100
                 else "under 100 power, no card off the deck")
        return [f"{roll(a)} hit {target} directly ({cards})."]
    verdict = {"attacker": "the attacker won", "defender": "the defender won",
               "tie": "a tie"}.get(str(outcome), str(outcome))
    return [roll(a), f"against {roll(d)}: {verdict}."]


def _waiting(view: View) -> list[int]:
    """The seats whose decision the table waits for (public)."""
    phase = view.get("phase")
    if phase == "deck":
        return [s["seat"] for s in view.get("sides", []) if not s.get("chosen")]
    if phase == "opening":
        return [s["seat"] for s in view.get("sides", []) if not s.get("opened")]
    if phase != "turn":
        return []
    pending: PendingView | dict[str, Any] = view.get("pending") or {}
    if pending.get("seat") is not None:
        return [int(pending["seat"])]
    return [int(view.get("current", 0))]


def _ranking(view: View, who: Sequence[str]) -> list[Ranked]:
    """The final ranking: the winner first, then by cards left to draw (deck and hand), the
    score each side ends with."""
    w = view.get("winner")
    sides = sorted(view.get("sides", []), key=lambda sd: (sd["seat"] != w,
                                                          -(int(sd.get("deck", 0)) + int(sd.get("hand", 0))),
                                                          sd["seat"]))
    rows = []
    for sd in sides:
        k = sd["seat"]
        units = sum(1 for p in view.get("battlefield", []) if p["owner"] == k and p["kind"] == "unit")
        score = (f"{plural(int(sd.get('deck', 0)), 'card')} in the deck · {plural(units, 'unit')} in "
                 f"play · {len(sd.get('burned', []))} burned")
        rows.append(Ranked(k, who[k], score, k == w))
    return rows


def board_image(view: JSON, names: Sequence[str] | None = None) -> Image.Image:
    """:func:`_board_image` of the platform's view, read as declared
    (:mod:`rules.alternate_histories.views`)."""
    return _board_image(read_view(view), names)


def _board_image(view: View, names: Sequence[str] | None = None) -> Image.Image:
    """The public board, laid out as every game's: the header, then the banner saying who must do
    what (or, at the end, the final ranking with each side's score and why the game ended), the
    era track and the icons' legend, each side's panel — its nation and governance, cards in
    hand, era tracker, deck, graveyard and burned counts, its units (power, mobility, tapped,
    where stationed, keywords) and its infrastructure and resources — then the last combat with
    each total taken apart."""
    who = seat_names(names, 2)
    sides = view.get("sides", [])
    field = {int(p["uid"]): p for p in view.get("battlefield", [])}
    by_owner = {k: [p for p in view.get("battlefield", []) if p["owner"] == k] for k in (0, 1)}
    combat = _combat_lines(view, who)
    over = view.get("phase") == "over"
    c = Canvas(WIDTH, 6000)
    g = int(view.get("global_era_index", 0))
    c.header("Alternate Histories", f"Turn {view.get('turn', 0)} · {ERAS[g]} era"
             if view.get("phase") == "turn" else _phase_word(view))
    y = 64 + GAP
    if over:
        y = ranking_box(c, y, _ranking(view, who), _end_reason(view, who))
    else:
        head, rest, lines = _awaited(view, who)
        waiting = _waiting(view)
        y = banner(c, y, lines, seat=waiting[0] if head and len(waiting) == 1 else None,
                   head=head, rest=rest)
    seg = (WIDTH - 40) // len(ERAS)
    for i, era in enumerate(ERAS):
        x = 20 + i * seg
        on = i == g
        c.rect((x + 2, y, x + seg - 2, y + 44), fill=ERA_COLOUR[era] if on else PALETTE["panel"],
               outline=ERA_COLOUR[era], radius=8, width=2)
        c.text((x + seg / 2, y + 22), era, TEXT, PALETTE["bg"] if on else ERA_COLOUR[era], anchor="mm")
    y += 56
    y = legend(c, (20, y), [(icon_symbol(kind), word) for kind, word in LEGEND], TEXT, WIDTH - 40)
    for sd in sides:
        y = _side_panel(c, y, sd, by_owner.get(sd["seat"], []), field, who[sd["seat"]], view) + GAP
    if combat:
        y = moves_box(c, y, "Last combat", combat)
    return c.image.crop((0, 0, WIDTH, y + 4))


STEP_WORDS = {
    "events": "events phase: play events or deploy Rapid Deployment units, or go to combat",
    "combat": "combat phase: attack with an untapped unit, or end combat",
    "build": "build phase: play units, infrastructure, resources and events",
    "decommission": "decommission: destroy untapped units or resources, discard cards, or end "
                    "the turn",
    "draw": "draw phase",
}
"""What the player whose turn it is does in each step (as the step's prompt says it)."""
PENDING_WORDS = {
    "pay": "chooses the cards to discard to pay for {card}",
    "tokenize": "chooses the cards to place face down for {card}",
    "reorder": "puts the top cards of the opponent's deck back in an order of their choice",
    "burn": "chooses the graveyard cards to burn before reshuffling",
    "target": "chooses the enemy {card} destroys",
    "station": "chooses whether to station their new unit on their infrastructure",
}
"""A decision inside a turn, in words (``{card}`` is the card's name when public)."""


def _phase_word(view: View) -> str:
    return {"deck": "choosing decks", "opening": "choosing opening hands",
            "over": "game over"}.get(str(view.get("phase")), str(view.get("phase")))


def _awaited(view: View, who: Sequence[str]) -> tuple[str, str, list[str]]:
    """The banner: whose decision (name and what follows it) and what they are to do."""
    phase = view.get("phase")
    if phase in ("deck", "opening"):
        waiting = [who[k] for k in _waiting(view)]
        what = "decks" if phase == "deck" else "opening hands of 7 cards"
        return "", "", [f"Both players choose their {what} in secret.",
                        "Waiting for " + (listing(waiting) or "nobody") + "."]
    cur = int(view.get("current", 0))
    pending: PendingView | dict[str, Any] = view.get("pending") or {}
    kind = pending.get("kind")
    if kind == "react":
        seat = int(pending["seat"])
        attacker = next((p for p in view.get("battlefield", []) if p["uid"] == pending.get("attacker")),
                        None)
        what = f"{who[cur]}'s {attacker['name']}" if attacker else who[cur]
        within = (f" within {_minutes(int(view['reaction_window']))}"
                  if view.get("reaction_window") else "")
        return who[seat], " may react", [f"{what} attacks: {who[seat]} may flee, intercept with a "
                                         f"unit or let the attack go ahead{within}; then the "
                                         "computer player decides."]
    if kind in PENDING_WORDS:
        seat = int(pending["seat"])
        card = card_name(pending.get("card")) if pending.get("card") else "the card"
        return who[seat], "'s decision", [who[seat] + " " + PENDING_WORDS[kind].format(card=card) + "."]
    step = str(view.get("step"))
    words = STEP_WORDS.get(step, f"{step} phase")
    return who[cur], "'s turn", [words[:1].upper() + words[1:] + "."]


def awaited_line(view: View, who: Sequence[str]) -> str:
    """The banner in one line of text: who must do what, or who won and why."""
    if view.get("phase") == "over":
        return "Game over: " + _end_reason(view, who)
    head, rest, lines = _awaited(view, who)
    return (f"{head}{rest}: " if head else "") + " ".join(lines)


def _minutes(seconds: int) -> str:
    """A window's length as people say it: "30 minutes", "1 hour", "1 day"."""
    minutes = max(1, round(seconds / 60))
    if minutes % 1440 == 0:
        return plural(minutes // 1440, "day")
    if minutes % 60 == 0:
        return plural(minutes // 60, "hour")
    return plural(minutes, "minute")


def _end_reason(view: View, who: Sequence[str]) -> str:
    """Why the game ended, as a sentence that names the winner."""
    w = view.get("winner")
    winner = who[w] if isinstance(w, int) and 0 <= w < len(who) else None
    head = f"{winner} wins" if winner else "a draw"
    reason = with_names(str(view.get("reason") or ""), who).rstrip(".")
    if not reason:
        return head[:1].upper() + head[1:] + "."
    said = f"{winner} wins" in reason if winner else "draw" in reason
    return reason[:1].upper() + reason[1:] + ("." if said else f"; {head}.")


def board_alt(view: JSON, names: Sequence[str] | None = None) -> str:
    """:func:`_board_alt` of the platform's view, read as declared
    (:mod:`rules.alternate_histories.views`)."""
    return _board_alt(read_view(view), names)


def _board_alt(view: View, names: Sequence[str] | None = None) -> str:
    """The board in words (public): the era, each side's standing, whose turn or who won."""
    who = seat_names(names, 2, drawn=False)
    sides = view.get("sides", [])
    field = view.get("battlefield", [])

    def standing(sd: SideView) -> str:
        k = sd["seat"]
        units = [p for p in field if p["owner"] == k and p["kind"] == "unit"]
        return (f"{who[k]}: " + (f"{nation_name(sd.get('nation'))} {governance_name(sd.get('governance'))}, "
                                  if sd.get("nation") else "")
                + f"{sd.get('era_name', '')} era tracker, {plural(int(sd.get('hand', 0)), 'card')} in "
                  f"hand, {plural(int(sd.get('deck', 0)), 'card')} in the deck, "
                  f"{plural(len(units), 'unit')}, {len(sd.get('burned', []))} burned")

    ranking = "; ".join(standing(sd) for sd in sorted(
        sides, key=lambda sd: -(int(sd.get("deck", 0)) + int(sd.get("hand", 0)))))
    combat = " ".join(_combat_lines(view, who))
    if view.get("phase") == "over":
        w = view.get("winner")
        head = (f"Alternate Histories, game over: {who[w]} wins" if isinstance(w, int) and 0 <= w < 2
                else "Alternate Histories, game over: a draw")
        return alt_text(head, with_names(str(view.get("reason") or ""), who), f"Final ranking: {ranking}")
    g = int(view.get("global_era_index", 0))
    head, rest, lines = _awaited(view, who)
    return alt_text(f"Alternate Histories board, turn {view.get('turn', 0)}, {ERAS[g]} era",
                    head + rest, *lines, f"Standing: {ranking}", f"Last combat: {combat}" if combat else "")


# --------------------------------------------------------------------------- the hand

def cost_words(cost: Any) -> str:
    """A cost in words the image font can draw ("discard 2 cards + top card of your deck to the
    graveyard"; "free")."""
    parts = []
    if _get(cost, "discard"):
        parts.append(f"discard {plural(int(_get(cost, 'discard')), 'card')}")
    if _get(cost, "mill"):
        n = int(_get(cost, "mill"))
        parts.append("top card of your deck to the graveyard" if n == 1
                     else f"top {n} cards of your deck to the graveyard")
    if _get(cost, "academic"):
        parts.append(plural(int(_get(cost, "academic")), "Academic token"))
    if _get(cost, "compute"):
        parts.append(plural(int(_get(cost, "compute")), "Compute token"))
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
    bits.append(f"cost: {cost_words(card.cost)}")
    return " · ".join(bits)


def _own_text(card: Any) -> str:
    """The card's text without the keyword names its pills already show ("Air. Japan's ..." ->
    "Japan's ...")."""
    text = str(card.text).strip()
    labels = card.keyword_labels()
    for lead in (", ".join(labels), *labels):
        if lead and text.startswith(lead + "."):
            text = text[len(lead) + 1:].strip()
    return text


STAT = 30
"""The size of a hand card's power and mobility: the first thing read on it."""
PLAYABLE = (96, 196, 120)


class _HandCard:
    """A hand card laid out stat-first: its name on the era's band, then power and mobility
    (or its kind) big with the value at the right, its era and kind, its keywords whole, each on
    a pill, its cost, its own text, and at the foot whether it can be played now."""

    def __init__(self, card: Any, width: int, mark: str | None) -> None:
        self.card, self.width, self.mark = card, width, mark
        room = width - 28
        self.title = wrap(card.name, 26, width - 24)
        self.kind = f"{era_name(card.era)} {str(card.kind).lower()}"
        self.stats: list[tuple[str, str]] = []
        if card.kind == "unit":
            self.stats = [("power", str(card.power)), ("mobility", str(card.mobility))]
        elif card.kind == "infrastructure":
            self.stats = [("power", str(card.power))]
        self.value = f"value {card.value}"
        self.pills: list[list[str]] = []
        x = 0
        for label in card.keyword_labels():
            w = text_size(label, TEXT)[0] + 24
            if not self.pills or x + w > room:
                self.pills.append([])
                x = 0
            self.pills[-1].append(label)
            x += w
        self.cost = wrap("Cost: " + cost_words(card.cost), TEXT, room)
        own = _own_text(card)
        self.body = wrap(own, TEXT, room) if own else []
        self.height = (16 + len(self.title) * 32 + 12 + STAT + 14 + LINE + 42 * len(self.pills)
                       + LINE * (len(self.cost) + len(self.body)) + (48 if mark is not None else 0) + 14)

    def draw(self, height: int) -> Image.Image:
        w = self.width
        band = era_colour(self.card.era)
        c = Canvas(w, height, bg=PALETTE["bg"])
        c.rect((2, 2, w - 3, height - 3), fill=PALETTE["card"], outline=band, radius=12, width=4)
        band_h = 12 + len(self.title) * 32
        c.rect((6, 6, w - 7, 6 + band_h), fill=band, radius=8)
        for i, line in enumerate(self.title):
            c.text((w / 2, 12 + i * 32), line, 26, PALETTE["card_ink"], anchor="ma")
        y = 16 + band_h
        ink = PALETTE["card_ink"]
        if self.stats:
            icon_text(c, (14, y), self.stats, STAT, ink)
        else:
            c.text((14, y), KIND_NAMES.get(str(self.card.kind), str(self.card.kind)), STAT, ink)
        c.text((w - 14, y + STAT - TEXT), self.value, TEXT, ink, anchor="ra")
        y += STAT + 14
        c.text((14, y), self.kind, TEXT, (110, 100, 90))
        y += LINE
        for row in self.pills:
            x = 14
            for label in row:
                x += pill(c, (x, y), label, band, TEXT) + 8
            y += 42
        for line in self.cost:
            c.text((14, y), line, TEXT, ink)
            y += LINE
        for line in self.body:
            c.text((14, y), line, TEXT, ink)
            y += LINE
        if self.mark is not None:
            now = bool(self.mark)
            top = height - 54
            c.rect((8, top, w - 9, height - 9), fill=PLAYABLE if now else (214, 206, 190), radius=8,
                   width=0)
            c.text((w / 2, top + 7), self.mark or "Not playable now", TEXT,
                   PALETTE["bg"] if now else (110, 100, 90), anchor="ma")
        return c.image


def _marks(priv: Mapping[str, Any], hand: Sequence[Any], view: View) -> list[str | None]:
    """Each hand card's mark: "Playable now" (with its cost after discounts when it is not the
    printed one), "" for not now, None when the seat is not in a step where it plays cards."""
    seat = int(priv.get("seat", 0))
    playing = (view.get("phase") == "turn" and view.get("current") == seat
               and view.get("step") in ("events", "build") and not view.get("pending"))
    if not playing:
        return [None] * len(hand)
    playable: Mapping[str, int] = priv.get("playable") or {}
    out: list[str | None] = []
    for card in hand:
        if card.id not in playable:
            out.append("")
            continue
        cost = int(playable[card.id])
        out.append("Playable now" if cost == card.cost.discard
                   else f"Playable now: discard {cost}" if cost else "Playable now, free")
    return out


def hand_image(view: JSON, names: Sequence[str] | None = None) -> Image.Image | None:
    """:func:`_hand_image` of the platform's view, read as declared
    (:mod:`rules.alternate_histories.views`)."""
    return _hand_image(read_view(view), names)


def _hand_image(view: View, names: Sequence[str] | None = None) -> Image.Image | None:
    """The seat's hand, card by card laid out stat-first (see :class:`_HandCard`) with the
    cards playable now marked in the events and build phases, then its face-down cards and any
    deck top it knows."""
    priv: PrivateView | dict[str, Any] = view.get("private") or {}
    hand = [CARDS[c] for c in priv.get("hand", []) if c in CARDS]
    seat = int(priv.get("seat", 0))
    who = seat_names(names, 2)
    cols, w = 2, (WIDTH - 3 * GAP) // 2
    marks = _marks(priv, hand, view)
    cards = [_HandCard(c, w, m) for c, m in zip(hand, marks, strict=True)]
    rows = [cards[i:i + cols] for i in range(0, len(cards), cols)]
    extra = [part for line in _hand_extras(priv) for part in wrap(line, TEXT, WIDTH - 40)]
    note = wrap("Value: what a card adds to a combat when it is the top card of your deck.", TEXT,
                WIDTH - 40)
    height = (64 + 16 + LINE * len(note) + 8 + sum(max(k.height for k in row) + GAP for row in rows)
              + LINE * len(extra) + 40)
    c = Canvas(WIDTH, max(height, 160))
    c.rect((0, 0, WIDTH, 64), fill=PALETTE["panel"], radius=0)
    right = plural(len(hand), "card")
    c.name_tag((18, 32), seat, who[seat], 28, WIDTH - 60 - text_size(right, TEXT)[0], rest="'s hand")
    c.text((WIDTH - 18, 20), right, TEXT, PALETTE["muted"], anchor="ra")
    y = 76
    for line in note:
        c.text((20, y), line, TEXT, PALETTE["muted"])
        y += LINE
    y += 8
    if not hand:
        c.text((20, y), "No cards in hand.", TEXT, PALETTE["muted"])
        y += 40
    for row in rows:
        h = max(k.height for k in row)
        for i, k in enumerate(row):
            c.image.paste(k.draw(h), (GAP + i * (w + GAP), y))
        y += h + GAP
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
    """:func:`_hand_alt` of the platform's view, read as declared
    (:mod:`rules.alternate_histories.views`)."""
    return _hand_alt(read_view(view), names)


def _hand_alt(view: View, names: Sequence[str] | None = None) -> str:
    priv: PrivateView | dict[str, Any] = view.get("private") or {}
    hand = [CARDS[c] for c in priv.get("hand", []) if c in CARDS]
    marks = _marks(priv, hand, view)
    now = sorted({card.name for card, mark in zip(hand, marks, strict=True) if mark})
    playing = any(mark is not None for mark in marks)
    return alt_text("Your Alternate Histories hand", "Cards: " + (counted(priv.get("hand", [])) or "none"),
                    ("Playable now: " + (", ".join(now) or "none")) if playing else "",
                    *_hand_extras(priv))


__all__ = ["ERAS", "board_alt", "board_image", "card_facts", "card_name", "cost_words", "counted",
           "deck_alt", "deck_image", "era_colour", "era_index", "era_name", "hand_alt", "hand_image"]
