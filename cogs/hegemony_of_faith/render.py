"""Pictures for Hegemony of Faith: the public board and a player's private hand.

Pure functions of the redacted views the engine hands out (and the seats' display names);
nothing else is read. Drawn for a phone first: 800 px wide, no text under 3% of the width
(``TEXT``, 24 px; see ``bot.render.MIN_TEXT_SHARE``), a fact too long for its line wrapped rather
than cut; the message text carries the details.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image

from bot.render.kit import (
    PALETTE,
    Canvas,
    Ranked,
    alt_text,
    banner,
    card,
    card_height,
    icon_text,
    icon_width,
    moves_box,
    pill,
    plural,
    ranking_box,
    seat_colour,
    seat_names,
    text_size,
    with_names,
    wrap,
)
from rules.hegemony_of_faith.views import BelieverView, ResultView, SeatView, View
from rules.text import count, listing

W = 800
TEXT = 24
"""The smallest text on these images: 3% of their width (a phone shows them about 400 px wide)."""
LINE = TEXT + 6
BELIEVER_COLOURS = {1: (120, 170, 230), 2: (150, 210, 140), 3: (240, 200, 90), 4: (200, 150, 230),
                    5: (235, 110, 100)}
BELIEVER_NAMES = {1: "Fool", 2: "Prayer", 3: "Missionary", 4: "Elder", 5: "Fanatic"}
KIND_COLOURS = {"strategy": (110, 170, 230), "physical": (226, 110, 92), "mental": (170, 130, 230),
                "defence_physical": (120, 200, 150), "defence_mental": (120, 200, 150)}
KIND_LABEL = {"strategy": "Strategy", "physical": "Physical attack", "mental": "Mental attack",
              "defence_physical": "Defence (physical)", "defence_mental": "Defence (mental)"}
ROLE = {"leader": "Leader", "wanderer": "Wanderer"}


def _status(seat: SeatView) -> list[tuple[str, tuple[int, int, int]]]:
    tags: list[tuple[str, tuple[int, int, int]]] = []
    if seat["immune_mental"]:
        tags.append(("mental-immune", PALETTE["good"]))
    if seat["immune_physical"]:
        tags.append(("physical-immune", PALETTE["good"]))
    if seat["skips_next_turn"]:
        tags.append(("skips next turn", PALETTE["bad"]))
    if seat["hermit"]:
        tags.append(("hermit", (200, 150, 230)))
    if seat["gate_copy"]:
        tags.append((f"copy: {seat['gate_copy']}", PALETTE["accent"]))
    return tags


def _pill_rows(tags: list[tuple[str, tuple[int, int, int]]], width: int) -> list[list[tuple[str, tuple[int, int, int]]]]:
    """Status pills in rows that fit ``width`` (a pill that does not fit starts a new row)."""
    rows: list[list[tuple[str, tuple[int, int, int]]]] = []
    used = width
    for label, col in tags:
        pw = text_size(label, TEXT)[0] + 16 + 8
        if used + pw > width:
            rows.append([])
            used = 0
        rows[-1].append((label, col))
        used += pw
    return rows


def _seat_row(c: Canvas, x: int, y: int, w: int, seat: SeatView, names: list[str],
              current: int | None, follower: bool) -> int:
    """One player: badge and name, believers, then role, actions in hand and skill; returns
    the height used."""
    k = seat["seat"]
    now = k == current
    pills = _pill_rows(_status(seat), w - 28)
    right = [("believer", plural(seat["believers"], "believer"))]
    rw = icon_width(right, 26)
    role = "Follower" if follower else ROLE.get(seat["role"], "Leader")
    limit = seat["hand_limit"]  # public only once the seat's skill is revealed
    hand = (f"{seat['hand']} of {limit} action cards" if limit is not None
            else plural(seat["hand"], "action card"))
    if seat["skill"]:
        skill = seat["skill"] + (f" ({seat['skill_uses']})" if seat["skill_uses"] else "")
    else:
        skill = "skill hidden"
    if seat["sealed"]:
        skill += ", sealed"
    if seat["role"] == "wanderer":
        skill += f" · stolen {seat['steals']}/3"
    facts = wrap(f"{role} · {hand} · {skill}", TEXT, w - 28)
    h = 56 + LINE * len(facts) + 42 * len(pills) + 8
    c.rect((x, y, x + w, y + h), fill=PALETTE["panel_hi"] if now else PALETTE["panel"],
           outline=seat_colour(k) if now else None, radius=12, width=4)
    c.name_tag((x + 14, y + 26), k, names[k], 26, w - rw - 50)
    icon_text(c, (x + w - 14 - rw, y + 12), right, 26, PALETTE["ink"])
    yy = y + 54
    for line in facts:
        c.text((x + 14, yy), line, TEXT, PALETTE["muted"])
        yy += LINE
    for row in pills:
        tx = x + 14
        for label, col in row:
            tx += pill(c, (tx, yy + 4), label, col, TEXT) + 8
        yy += 42
    return h + 8


def _ranking(view: View) -> list[tuple[int, int]]:
    """(seat, believers) with the winner first, then by believers in their sect."""
    r: ResultView | dict[str, Any] = view["result"] or {}
    winner = r.get("winner")
    seats = view["seats"]
    return sorted(((s["seat"], int(s["believers"])) for s in seats),
                  key=lambda t: (t[0] != winner, -t[1], t[0]))


def _banner(c: Canvas, y: int, view: View, names: list[str]) -> int:
    """Whose turn and what they must do (or the final ranking), in the kit's shared boxes;
    returns the y below."""
    if view["phase"] == "over" and view["result"]:
        r = view["result"]
        rows = [Ranked(k, names[k], plural(bel, "believer"), k == r.get("winner"))
                for k, bel in _ranking(view)]
        reason = with_names(r["reason"], names)
        return ranking_box(c, y, rows, reason[:1].upper() + reason[1:] + ("" if reason.endswith(".") else "."))
    # what is awaited, wrapped whole (a reaction window says who and for how long)
    awaited = with_names(_pending_text(view), names)
    if view["phase"] == "setup":
        return banner(c, y, [awaited], head="Everyone chooses a secret skill")
    cur = view["current"]
    return banner(c, y, [awaited], seat=cur, head=names[cur], rest="'s turn")


def board(view: View, names: Sequence[str] | None = None) -> Image.Image:
    """The public board: whose turn and what is awaited, every sect with its players, the decks,
    the last few log lines; at the end, the final ranking."""
    seats = view["seats"]
    who = seat_names(names, len(seats))
    sects = view["sects"]
    over = view["phase"] == "over"
    c = Canvas(W, 2600)
    sub = "choosing skills" if view["phase"] == "setup" else ("game over" if over else f"round {view['round']}")
    c.header("Hegemony of Faith", sub)
    y = _banner(c, 76, view, who)
    cur = None if over else view["current"]
    for sect in sorted(sects, key=lambda s: (-s["believers"], s["leader"])):
        lead = sect["leader"]
        n = len(sect["members"])
        if n > 1:  # a lone leader's row already says it all
            title = f"Sect of {who[lead]}: {plural(sect['believers'], 'believer')}, {n} players"
            y = c.text_block((24, y + 4), title, W - 48, TEXT, seat_colour(lead), spacing=LINE - TEXT) + 6
        y += _seat_row(c, 20, y, W - 40, seats[lead], who, cur, False)
        for m in sect["members"][1:]:
            y += _seat_row(c, 60, y, W - 80, seats[m], who, cur, True)
    wanderers = [s for s in seats if s["role"] == "wanderer"]
    if wanderers:
        c.text((24, y + 4), "Wanderers", TEXT, PALETTE["muted"])
        y += 36
        for s in wanderers:
            y += _seat_row(c, 20, y, W - 40, s, who, cur, False)
    y += 6
    decks = (f"Believer deck {view['believer_deck']} · graveyard {len(view['graveyard'])} · "
             f"action deck {view['action_deck']} · discards {view['action_discard']}"
             + (f" · out of game {view['removed']}" if view["removed"] else ""))
    y = c.text_block((24, y), decks, W - 48, TEXT, PALETTE["muted"], spacing=LINE - TEXT) + 4
    top = view["graveyard"][-5:]
    if top:
        c.text((24, y + 3), "Graveyard top:", TEXT, PALETTE["muted"])
        gx = 24 + text_size("Graveyard top:", TEXT)[0] + 14
        for t in reversed(top):
            c.rect((gx, y, gx + 38, y + 36), fill=BELIEVER_COLOURS[t], radius=6, width=0)
            c.text((gx + 19, y + 18), str(t), 26, PALETTE["bg"], anchor="mm")
            gx += 44
        y += 48
    log = view["log"][-4:]
    if log and not over:
        y = moves_box(c, y + 4, "Last moves", [with_names(line, who) for line in log])
    return c.image.crop((0, 0, W, y + 4))


# The windows are named by what may happen, never by the skill that does it: the board is public and
# a skill not yet revealed must not be named on it.
_ATTACK_STAGES = {
    "defence": "the targets may answer with a defence card",
    "designate": "choosing who confronts",
    "karma": "a skill may reverse the comparison",
    "pick": "both sides choose their believers in secret",
}
"""An attack's open step in words (the other stages resolve at once and are never awaited)."""
_SURRENDER_STAGES = {
    "offer": "{new} decides whether to take {who} in as a Follower",
    "ask": "the Leaders decide whether to take {who} in",
    "choose": "{who} chooses the sect to surrender to",
    "gift": "{who}'s new Leader gives them a believer",
}


def _seats(seats: Sequence[int]) -> str:
    return listing([f"P{k + 1}" for k in seats]) or "nobody"


def _minutes(seconds: int) -> str:
    """A reaction window's length as people say it: "30 minutes", "1 hour", "1 day"."""
    minutes = max(1, round(seconds / 60))
    if minutes % 1440 == 0:
        return count(minutes // 1440, "day")
    if minutes % 60 == 0:
        return count(minutes // 60, "hour")
    return count(minutes, "minute")


def _pending_text(view: View) -> str:
    """What the table waits for, in words for players (seats as "P1"; the caller puts names in)."""
    p = view.get("pending") or {}
    waiting = p.get("waiting", [])
    kind = p.get("kind")
    if view["phase"] == "over":
        return "The game is over."
    if kind == "turn":
        return f"Waiting for P{p['seat'] + 1} to act."
    if kind == "attack":
        targets = _seats(p["targets"])
        rev = " (reversed by Karma)" if p.get("reversed") else ""
        step = _ATTACK_STAGES.get(str(p["stage"]), "the attack resolves")
        what = f"P{p['by'] + 1}'s {p['card']} against {targets}{rev}: {step}"
    elif kind == "snatch":
        what = (f"a Faith Debate's spoils: {_seats(p.get('winners', waiting))} "
                f"{'decides' if len(p.get('winners', waiting)) == 1 else 'decide'} "
                "whether to snatch the believers they beat")
    elif kind == "surrender":
        who = f"P{p['for'] + 1}"
        stage = _SURRENDER_STAGES.get(str(p.get("stage")), "{who} surrenders")
        what = f"a surrender: {stage.format(who=who, new=_seats(waiting))}"
    elif kind == "keep":
        what = f"a Leader decides whether to keep P{p['for'] + 1} in the sect"
    elif kind == "bf":
        verb = "break away from" if p.get("mode") == "leave" else "cast out"
        what = (f"P{p['by'] + 1} plays Breaking Faith to {verb} P{p['target'] + 1}, "
                "who may answer with their own")
    elif kind == "prophet":
        what = f"P{p['drawer'] + 1} recruits: a prophecy may claim the new believers"
    elif kind == "rebirth":
        what = "the believers just lost may be revived"
    else:
        what = {"skills": "everyone chooses a secret skill", "alliance": "a Secret Alliance: both give a card",
                "trim": "discarding down to the hand limit",
                "discard": "discarding"}.get(str(kind), "the game goes on")
    if "window" in p:
        return (f"{what[:1].upper()}{what[1:]}. Open up to {_minutes(int(p['window']))} for "
                f"{_seats(waiting)} to react.")
    return f"{what[:1].upper()}{what[1:]}. Waiting for {_seats(waiting)}."


def board_alt(view: View, names: Sequence[str] | None = None) -> str:
    """The board in words: standing by believers, whose turn and what is awaited (public)."""
    who = seat_names(names, len(view["seats"]), drawn=False)
    if view["phase"] == "over" and view["result"]:
        r = view["result"]
        ranking = "; ".join(f"{i}. {who[k]} {plural(b, 'believer')}"
                            for i, (k, b) in enumerate(_ranking(view), 1))
        return alt_text(f"Hegemony of Faith, game over: {who[r['winner']]} wins.",
                        f"Final ranking: {ranking}.", with_names(r["reason"], who) + ".")
    sects = sorted(view["sects"], key=lambda s: (-s["believers"], s["leader"]))
    standing = "; ".join(f"sect of {who[s['leader']]} {plural(s['believers'], 'believer')}"
                         for s in sects)
    turn = ("Everyone is choosing a secret skill." if view["phase"] == "setup"
            else f"Round {view['round']}, {who[view['current']]}'s turn.")
    return alt_text("Hegemony of Faith board.", turn, with_names(_pending_text(view), who),
                    f"Standing: {standing}.")


def hand(view: View, names: Sequence[str] | None = None) -> Image.Image:
    """A player's hand: the skill (or the skills to choose from), the action cards with what they
    do, and the believers grouped by type."""
    priv = view["private"]
    me = priv["seat"]
    who = seat_names(names, len(view["seats"]))
    c = Canvas(W, 4000)
    c.rect((0, 0, W, 64), fill=PALETTE["panel"], radius=0)
    c.name_tag((18, 32), me, who[me], 30, W - 160, rest="'s hand")
    c.text((W - 18, 20), "private", TEXT, PALETTE["muted"], anchor="ra")
    y = 80
    sk = priv["skill"]
    if sk:
        footer = " · ".join(str(x) for x in (sk.get("uses_left") or sk.get("limit"),
                                             "revealed" if sk.get("revealed") else "hidden") if x)
        when = str(sk.get("timing") or "")  # on a line of its own: it can be long
        body = f"When: {when[:1].lower()}{when[1:]}\n{sk['text']}" if when else sk["text"]
        img = card(f"Skill: {sk['name']}", body, width=W - 40, colour=(170, 130, 230),
                   footer=footer, title_size=26, body_size=TEXT, body_lines=40)
        c.image.paste(img, (20, y))
        y += img.height + 14
    elif priv.get("skill_options"):
        c.text((20, y), "Choose one skill (secret)", 26, PALETTE["accent"])
        y += 40
        y = _card_grid(c, y, [(o["name"], o["text"], (170, 130, 230), o.get("limit", ""))
                              for o in priv["skill_options"]])
    acts = priv["actions"]
    limit = priv.get("hand_limit")
    c.text((20, y), f"Action cards: {len(acts)}" + (f" of {limit}" if limit is not None else ""), 26,
           PALETTE["accent"])
    y += 40
    if acts:
        y = _card_grid(c, y, [(a["name"], a["text"], KIND_COLOURS.get(a["kind"], PALETTE["accent"]),
                               KIND_LABEL.get(a["kind"], "")) for a in acts])
    else:
        c.text((20, y), "No action cards.", TEXT, PALETTE["muted"])
        y += 40
    bels = priv["believers"]
    c.text((20, y), f"Believers: {len(bels)}", 26, PALETTE["accent"])
    y += 40
    y = _believers(c, y, bels)
    intel = priv.get("intel")
    if intel:
        seen = ", ".join(BELIEVER_NAMES[t] for t in intel["believers"]) or "no believers"
        text = f"Info-Spy on {who[intel['of']]}: {', '.join(intel['actions']) or 'no actions'}; {seen}."
        y = c.text_block((20, y), text, W - 40, TEXT, PALETTE["muted"], spacing=LINE - TEXT) + 6
    return c.image.crop((0, 0, W, y + 10))


def _card_grid(c: Canvas, y: int, cards: list[tuple[str, str, tuple[int, int, int], str]]) -> int:
    """Cards two to a row, each pair as tall as the taller card's text; returns the y below."""
    cw = (W - 40 - 14) // 2
    for i in range(0, len(cards), 2):
        h = max(card_height(title, body, width=cw, title_size=26, body_size=TEXT, footer=foot,
                            body_lines=40) for title, body, _, foot in cards[i:i + 2])
        for j, (title, body, col, foot) in enumerate(cards[i:i + 2]):
            img = card(title, body, width=cw, height=h, colour=col, footer=foot, title_size=26,
                       body_size=TEXT, body_lines=40)
            c.image.paste(img, (20 + j * (cw + 14), y))
        y += h + 12
    return y


def _believers(c: Canvas, y: int, bels: list[BelieverView]) -> int:
    """One tile per believer type held: its number, name, count and whom it beats."""
    if not bels:
        c.text((20, y), "No believers.", TEXT, PALETTE["muted"])
        return y + 40
    groups: dict[int, list[BelieverView]] = {}
    for b in bels:
        groups.setdefault(b["id"], []).append(b)
    tw, th, gap = (W - 40 - 4 * 10) // 5, 156, 10
    for i, (t, group) in enumerate(sorted(groups.items())):
        b = group[0]
        bx = 20 + (i % 5) * (tw + gap)
        by = y + (i // 5) * (th + gap)
        col = BELIEVER_COLOURS[t]
        c.rect((bx, by, bx + tw, by + th), fill=PALETTE["card"], outline=col, radius=10, width=4)
        c.rect((bx + 4, by + 4, bx + tw - 4, by + 52), fill=col, radius=8, width=0)
        c.text((bx + 14, by + 28), str(t), 34, PALETTE["bg"], anchor="lm")
        c.text((bx + tw - 12, by + 28), f"x{len(group)}", 26, PALETTE["bg"], anchor="rm")
        c.text((bx + tw / 2, by + 58), b["name"], TEXT, PALETTE["card_ink"], anchor="ma")
        beats = " & ".join(str(x) for x in b["beats"])
        c.text((bx + tw / 2, by + 88), f"beats {beats}", TEXT, PALETTE["card_ink"], anchor="ma")
        c.text((bx + tw / 2, by + 118), f"+1 vs {b['bonus_against']}", TEXT, (110, 100, 90), anchor="ma")
    rows = (len(groups) + 4) // 5
    return y + rows * (th + gap) + 6


def hand_alt(view: View, names: Sequence[str] | None = None) -> str:
    """The hand in words (sent only to its holder)."""
    priv = view["private"]
    sk = priv["skill"]
    skill = (f"Skill: {sk['name']}." if sk else
             "Skills to choose from: " + ", ".join(o["name"] for o in priv.get("skill_options", [])) + "."
             if priv.get("skill_options") else "")
    acts = ", ".join(a["name"] for a in priv["actions"]) or "none"
    counts: dict[str, int] = {}
    for b in priv["believers"]:
        counts[b["name"]] = counts.get(b["name"], 0) + 1
    bels = ", ".join(f"{n} {name}" for name, n in counts.items()) or "none"
    return alt_text("Your Hegemony of Faith hand.", skill, f"Action cards: {acts}.", f"Believers: {bels}.")
