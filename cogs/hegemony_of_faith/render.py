"""Pictures for Hegemony of Faith: the public board and a player's private hand.

Pure functions of the redacted views the engine hands out; nothing else is read.
"""

from __future__ import annotations

from typing import Any

from PIL import Image

from bot.render.kit import PALETTE, Canvas, card, pill, seat_colour, text_size

W = 1280
BELIEVER_COLOURS = {1: (120, 170, 230), 2: (150, 210, 140), 3: (240, 200, 90), 4: (200, 150, 230),
                    5: (235, 110, 100)}
BELIEVER_NAMES = {1: "Fool", 2: "Prayer", 3: "Missionary", 4: "Elder", 5: "Fanatic"}
KIND_COLOURS = {"strategy": (110, 170, 230), "physical": (226, 110, 92), "mental": (170, 130, 230),
                "defence_physical": (120, 200, 150), "defence_mental": (120, 200, 150)}
KIND_LABEL = {"strategy": "Strategy", "physical": "Physical attack", "mental": "Mental attack",
              "defence_physical": "Defence (physical)", "defence_mental": "Defence (mental)"}


def _status(seat: dict[str, Any]) -> list[tuple[str, tuple[int, int, int]]]:
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


def _seat_row(c: Canvas, x: int, y: int, w: int, seat: dict[str, Any], current: int,
              follower: bool) -> int:
    colour = seat_colour(seat["seat"])
    h = 64
    fill = PALETTE["panel_hi"] if seat["seat"] == current else PALETTE["panel"]
    c.rect((x, y, x + w, y + h), fill=fill, outline=colour if seat["seat"] == current else None,
           radius=10, width=3)
    c.circle((x + 30, y + 32), 20, fill=colour)
    c.text((x + 30, y + 32), seat["name"], 18, PALETTE["bg"], anchor="mm")
    role = "Follower" if follower else ("Wanderer" if seat["role"] == "wanderer" else "Leader")
    c.text((x + 62, y + 8), role, 16, PALETTE["muted"])
    c.text((x + 62, y + 30), f"{seat['believers']} believers", 22)
    c.text((x + 250, y + 8), "actions", 16, PALETTE["muted"])
    limit = seat["hand_limit"]  # public only once the seat's skill is revealed
    c.text((x + 250, y + 30), f"{seat['hand']}/{limit}" if limit is not None else f"{seat['hand']}", 22)
    sx = x + 340
    if seat["skill"]:
        sealed = " (sealed)" if seat["sealed"] else ""
        c.text((sx, y + 8), f"{seat['skill']}{sealed}", 18, PALETTE["accent"])
        c.text((sx, y + 32), seat["skill_uses"] or "", 16, PALETTE["muted"])
    else:
        c.text((sx, y + 8), "skill hidden" + (" (sealed)" if seat["sealed"] else ""), 18, PALETTE["muted"])
    if seat["role"] == "wanderer":
        c.text((sx, y + 32), f"stolen {seat['steals']}/3", 16, PALETTE["muted"])
    tx = x + w - 10
    for label, col in reversed(_status(seat)):
        tw = text_size(label, 14)[0] + 16
        tx -= tw + 6
        pill(c, (tx, y + 34), label, col, 14)
    return h + 8


def board(view: dict[str, Any]) -> Image.Image:
    seats = view["seats"]
    sects = view["sects"]
    wanderers = [s for s in seats if s["role"] == "wanderer"]
    rows = len(seats) + len(sects) + (1 if wanderers else 0)
    log = view["log"][-8:]
    height = 56 + 110 + rows * 72 + len(sects) * 20 + 60 + 30 * len(log) + 90
    c = Canvas(W, max(height, 600))
    cur = view["current"]
    phase = view["phase"]
    sub = "choosing skills" if phase == "setup" else (
        "game over" if phase == "over" else f"round {view['round']} · P{cur + 1}'s turn")
    c.header("Hegemony of Faith", sub)
    # decks
    y = 70
    boxes = [("Believer deck", str(view["believer_deck"])),
             ("Graveyard", str(len(view["graveyard"]))),
             ("Action deck", str(view["action_deck"])),
             ("Action discards", str(view["action_discard"])),
             ("Out of game", str(view["removed"]))]
    bw = (W - 40 - 4 * 12) // 5
    for i, (label, value) in enumerate(boxes):
        x = 20 + i * (bw + 12)
        c.rect((x, y, x + bw, y + 84), fill=PALETTE["panel"], radius=10)
        c.text((x + 14, y + 8), label, 17, PALETTE["muted"])
        c.text((x + 14, y + 34), value, 34)
    top = view["graveyard"][-3:]
    gx = 20 + bw + 12 + 90
    for t in reversed(top):
        c.rect((gx, y + 38, gx + 34, y + 74), fill=BELIEVER_COLOURS[t], radius=6, width=0)
        c.text((gx + 17, y + 56), str(t), 20, PALETTE["bg"], anchor="mm")
        gx += 40
    y += 104
    # sects
    for sect in sorted(sects, key=lambda s: (-s["believers"], s["leader"])):
        lead = sect["leader"]
        n = len(sect["members"])
        title = f"Sect of P{lead + 1} - {sect['believers']} believers" + (
            f" · {n} players" if n > 1 else "")
        c.text((24, y), title, 18, seat_colour(lead))
        y += 24
        y += _seat_row(c, 20, y, W - 40, seats[lead], cur, False)
        for m in sect["members"][1:]:
            y += _seat_row(c, 60, y, W - 80, seats[m], cur, True)
    if wanderers:
        c.text((24, y), "Wanderers", 18, PALETTE["muted"])
        y += 24
        for s in wanderers:
            y += _seat_row(c, 20, y, W - 40, s, cur, False)
    # what is happening
    y += 8
    c.rect((20, y, W - 20, y + 44), fill=PALETTE["panel"], radius=10)
    c.text((36, y + 11), _plain(_pending_text(view))[:110], 20, PALETTE["accent"])
    y += 56
    c.text((24, y), "What just happened", 18, PALETTE["muted"])
    y += 26
    for line in log:
        c.text((32, y), _plain(line)[:120], 18)
        y += 28
    if view["result"]:
        r = view["result"]
        c.text((W // 2, y + 14), _plain(f"P{r['winner'] + 1} wins - {r['reason']}")[:110], 24,
               PALETTE["good"], anchor="ma")
        y += 50
    return c.image.crop((0, 0, W, max(y + 20, 400)))


def _plain(text: str) -> str:
    """The bundled font lacks some dashes: draw them as hyphens."""
    return text.replace("\u2014", "-").replace("\u2013", "-")


def _pending_text(view: dict[str, Any]) -> str:
    p = view.get("pending") or {}
    waiting = ", ".join(f"P{k + 1}" for k in p.get("waiting", []))
    kind = p.get("kind")
    if view["phase"] == "over":
        return "The game is over."
    if kind == "turn":
        return f"Waiting for P{p['seat'] + 1} to act."
    if kind == "attack":
        targets = ", ".join(f"P{t + 1}" for t in p["targets"])
        rev = " · reversed by Karma" if p.get("reversed") else ""
        return f"P{p['by'] + 1}'s {p['card']} vs {targets}: {p['stage']}{rev} - waiting for {waiting}"
    names = {"skills": "choosing skills", "prophet": "a prophecy", "surrender": "a surrender",
             "keep": "a Leader reconsiders", "alliance": "a secret exchange", "bf": "Breaking Faith",
             "rebirth": "Holy Rebirth", "trim": "discarding to the limit", "discard": "discarding"}
    return f"{names.get(str(kind), str(kind))} - waiting for {waiting}"


def hand(view: dict[str, Any]) -> Image.Image:
    priv = view["private"]
    acts = priv["actions"]
    bels = priv["believers"]
    cw, ch = 200, 270
    per_row = 6
    act_rows = max(1, (len(acts) + per_row - 1) // per_row)
    bel_rows = max(1, (len(bels) + 9) // 10)
    height = 56 + 40 + ch + 40 + act_rows * (ch + 12) + 40 + bel_rows * 150 + 20
    c = Canvas(W, height)
    c.header(f"Your hand - P{priv['seat'] + 1}", "private")
    y = 70
    c.text((20, y), "Skill", 20, PALETTE["muted"])
    y += 28
    skills = [priv["skill"]] if priv["skill"] else []
    skills += priv.get("skill_options", []) if not priv["skill"] else []
    x = 20
    for sk in skills:
        footer = sk.get("uses_left") or sk.get("limit", "")
        if sk.get("revealed") is not None:
            footer = f"{footer} · {'revealed' if sk['revealed'] else 'hidden'}"
        img = card(sk["name"], sk["text"], width=300, height=ch, colour=(170, 130, 230), footer=footer)
        c.image.paste(img, (x, y))
        x += 312
    if not skills:
        c.text((20, y), "No skill.", 20)
    y += ch + 12
    c.text((20, y), f"Action cards ({len(acts)})", 20, PALETTE["muted"])
    y += 28
    for i, a in enumerate(acts):
        img = card(a["name"], a["text"], width=cw, height=ch, colour=KIND_COLOURS.get(a["kind"]),
                   footer=KIND_LABEL.get(a["kind"], ""))
        c.image.paste(img, (20 + (i % per_row) * (cw + 10), y + (i // per_row) * (ch + 12)))
    y += act_rows * (ch + 12)
    c.text((20, y), f"Believers ({len(bels)})", 20, PALETTE["muted"])
    y += 28
    for i, b in enumerate(bels):
        bx = 20 + (i % 10) * 124
        by = y + (i // 10) * 150
        col = BELIEVER_COLOURS[b["id"]]
        c.rect((bx, by, bx + 114, by + 138), fill=PALETTE["card"], outline=col, radius=10, width=4)
        c.rect((bx + 4, by + 4, bx + 110, by + 50), fill=col, radius=8, width=0)
        c.text((bx + 57, by + 27), str(b["id"]), 30, PALETTE["bg"], anchor="mm")
        c.text((bx + 57, by + 58), b["name"], 17, PALETTE["card_ink"], anchor="ma")
        beats = "/".join(str(t) for t in b["beats"])
        c.text((bx + 57, by + 84), f"beats {beats}", 15, PALETTE["card_ink"], anchor="ma")
        c.text((bx + 57, by + 106), f"bonus vs {b['bonus_against']}", 15, PALETTE["card_ink"], anchor="ma")
    return c.image
