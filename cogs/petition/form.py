"""The Petition card form: pick several cards at once, see the total, confirm.

Every Petition decision that picks several cards (a face-down bid to a god, the attacker's and the
defender's face-down campaign cards, reinforcements in the battle, the solo game's attack and
additions, a tithe) is one free-form prompt ``"cards"`` whose ``Prompt.params`` list the cards the
seat may pick and say what the pick is for (see :mod:`rules.petition`). This module turns those
params into one form: a multi-select of the cards, an embed with the running total for the
pillar at stake, a confirm button labelled by the params and a pass button when passing is
allowed.

The pick being made lives in the form message itself (the embed's footer carries the picked card
ids), so nothing is kept in memory between clicks and a restart loses nothing. The form is only
ever shown to its player (DMed, or ephemerally through **Decide**), so the pick never reaches a
channel; custom_ids carry only the game id, the decision the form answers (the seat's prompt
instance) and a kind, never a card.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import discord

from rules.text import count

JSON = dict[str, Any]
PILLARS = ("art", "economy", "magic", "war")
PILLAR_NAMES = {"art": "Art", "economy": "Economy", "magic": "Magic", "war": "War"}
PILLAR_SHORT = {"art": "A", "economy": "E", "magic": "M", "war": "W"}
PILLAR_EMOJI = {"art": "🎨", "economy": "💰", "magic": "🔮", "war": "⚔️"}
PICK_PREFIX = "picked: "
MAX_OPTIONS = 25
"""Discord's limit of options in one select menu."""

PURPOSES = {
    "bid": "your face-down bid to the god",
    "attack": "your face-down campaign cards",
    "defend": "your face-down defence",
    "reinforce": "the cards you add to the battle",
    "solo_attack": "your attack cards",
    "solo_add": "the cards you add to the battle",
    "tithe": "the card you show as tithe",
    "discard": "the cards you discard down to the hand limit",
}
"""What a pick is for, in words (the title of the form)."""


def points_text(points: Mapping[str, int], *, short: bool = False) -> str:
    """A card's points, pillar by pillar, skipping zeros: "Art 3, War 1" (or "A3 W1")."""
    if short:
        parts = [f"{PILLAR_SHORT[p]}{points[p]}" for p in PILLARS if points.get(p)]
        return " ".join(parts) or "no points"
    parts = [f"{PILLAR_NAMES[p]} {points[p]}" for p in PILLARS if points.get(p)]
    return ", ".join(parts) or "no points"


PASS_LABELS = {
    "bid": "Bid my beads alone",
    "attack": "Lay no cards",
    "defend": "Surrender (no cards)",
    "reinforce": "Pass",
    "solo_add": "Give up the battle",
    "tithe": "Pay a bead instead",
}
"""What an empty pick means, on its button (by purpose)."""


def value(card: Mapping[str, Any], pillar: str) -> int:
    """What a card adds to the pillar's total: the engine's ``value`` when it gives one (the solo
    game counts a powerup as a citizen), else its points in that pillar."""
    if "value" in card:
        return int(card["value"])
    return int(card.get("points", {}).get(pillar, 0))


def totals(cards: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """Points of the picked cards added up per pillar."""
    return {p: sum(int(c.get("points", {}).get(p, 0)) for c in cards) for p in PILLARS}


def picked_cards(params: Mapping[str, Any], ids: Sequence[str]) -> list[Mapping[str, Any]]:
    """The offered cards whose ids were picked, in the order they are offered."""
    chosen = set(ids)
    return [c for c in params.get("cards", []) if c["id"] in chosen]


def picked_from_message(message: discord.Message | None) -> list[str] | None:
    """The card ids picked so far in a form message (None: the form was never touched)."""
    if message is None:
        return None
    for embed in message.embeds:
        text = embed.footer.text if embed.footer else None
        if text and text.startswith(PICK_PREFIX):
            raw = text[len(PICK_PREFIX):].strip()
            return [] if raw in ("", "-") else [x.strip() for x in raw.split(",") if x.strip()]
    return None


def title(params: Mapping[str, Any]) -> str:
    purpose = str(params.get("purpose", ""))
    what = PURPOSES.get(purpose, "your cards")
    pillar = params.get("pillar")
    if pillar in PILLAR_NAMES and purpose != "tithe":
        what += f" ({PILLAR_NAMES[pillar]})"
    return what[0].upper() + what[1:]


def bounds_text(params: Mapping[str, Any]) -> str:
    lo, hi = int(params.get("min", 0)), int(params.get("max", 0))
    if lo == hi:
        return f"exactly {count(lo, 'card')}"
    if lo == 0:
        return f"up to {count(hi, 'card')}"
    return f"{lo} to {hi} cards"


def problem(params: Mapping[str, Any], ids: Sequence[str]) -> str | None:
    """Why this pick cannot be confirmed yet, as a sentence (None: it can)."""
    lo, hi = int(params.get("min", 0)), int(params.get("max", 0))
    n = len(picked_cards(params, ids))
    if n < lo:
        more = lo - n
        return f"pick {count(more, 'more card')} first: this takes {bounds_text(params)}."
    if n > hi:
        return f"that is {n - hi} too many: this takes {bounds_text(params)}."
    return None


def card_line(card: Mapping[str, Any], gods: Mapping[str, str]) -> str:
    """A picked card in the summary: name, whom it serves and its points, or a powerup's text."""
    if card.get("kind") == "powerup":
        return f"• **{card['name']}** (powerup): {card.get('text', '')}"
    god = gods.get(str(card.get("god")), "")
    serves = f" (serves {god})" if god else ""
    return f"• **{card['name']}**{serves}: {points_text(card.get('points', {}))}"


def summary_embed(params: Mapping[str, Any], ids: Sequence[str], *, gods: Mapping[str, str] | None = None,
                  beads: int | None = None, notes: Sequence[str] = (),
                  heading: str | None = None) -> discord.Embed:
    """The pick so far: each card with its points, the running total — for a bid the devotion the
    god weighs (``beads`` offered + citizens bid), otherwise the citizens' points in the pillar at
    stake (powerups listed; the battle's tally adds them, the god bonus and a fortification) —
    and the count against the bounds. ``gods`` names the gods by key. The footer keeps the pick
    for the next click."""
    cards = picked_cards(params, ids)
    pillar = params.get("pillar")
    purpose = params.get("purpose")
    sums = totals(cards)
    lines = [card_line(c, gods or {}) for c in cards] or ["No card picked yet."]
    citizens = [c for c in cards if c.get("kind") != "powerup"]
    if purpose == "bid":
        offered = int(beads or 0)
        lines.append(f"\n🙏 **Devotion: {count(offered, 'bead')} + {count(len(citizens), 'citizen')} = "
                     f"{offered + len(citizens)}** (the god weighs beads offered plus citizens bid)")
    elif pillar in PILLAR_NAMES:
        lines.append(f"\n{PILLAR_EMOJI[pillar]} **{PILLAR_NAMES[pillar]} total: "
                     f"{sum(value(c, pillar) for c in cards)}** from {count(len(cards), 'card')}")
        powerups = [c["name"] for c in cards if c.get("kind") == "powerup" and "value" not in c]
        if powerups:
            lines.append("Powerups on top: " + ", ".join(powerups) + " (the tally adds them)")
        others = [f"{PILLAR_NAMES[p]} {sums[p]}" for p in PILLARS if p != pillar and sums[p]]
        if others:
            lines.append("Other pillars: " + ", ".join(others))
    else:
        lines.append("\n**Totals:** " + " · ".join(f"{PILLAR_EMOJI[p]} {PILLAR_NAMES[p]} {sums[p]}"
                                                   for p in PILLARS)
                     + f" — {count(len(cards), 'card')}")
    lines.append(f"This takes {bounds_text(params)}.")
    why = problem(params, ids)
    if why and cards:
        lines.append(f"⚠️ {why[0].upper()}{why[1:]}")
    if len(params.get("cards", [])) > MAX_OPTIONS:
        lines.append(f"Only the first {MAX_OPTIONS} cards fit in the menu.")
    if notes:
        lines.append("\n" + "\n".join(f"↪ {n}" for n in notes))
    embed = discord.Embed(title=heading or title(params), colour=0xC9A227,
                          description="\n".join(lines)[:4000])
    embed.set_footer(text=PICK_PREFIX + (", ".join(c["id"] for c in cards) or "-"))
    return embed


# ------------------------------------------------------------------ components

def cid(game_id: int, opened: int, kind: str, *, button: bool = False) -> str:
    return f"herald:{'ptb' if button else 'pt'}:{game_id}:{opened}:{kind}"


def option_label(card: Mapping[str, Any]) -> str:
    return f"{card['name']} — {points_text(card.get('points', {}), short=True)}"[:100]


def option_description(card: Mapping[str, Any]) -> str | None:
    """The card's own text under its option (a citizen's says whom it serves)."""
    text = str(card.get("text") or "")
    if card.get("kind") == "powerup":
        text = f"Powerup: {text}"
    return text[:100] or None


def items(game_id: int, opened: int, params: Mapping[str, Any],
          ids: Sequence[str]) -> list[discord.ui.Item[Any]]:
    """The multi-select of the offered cards (the pick shown as defaults), Confirm, Pass (when
    the params allow it) and Clear."""
    chosen = set(ids)
    offered = list(params.get("cards", []))[:MAX_OPTIONS]
    out: list[discord.ui.Item[Any]] = []
    if offered:
        hi = max(1, min(int(params.get("max", len(offered))), len(offered)))
        options = [discord.SelectOption(label=option_label(c), value=str(c["id"]),
                                        description=option_description(c), default=c["id"] in chosen)
                   for c in offered]
        out.append(discord.ui.Select(custom_id=cid(game_id, opened, "pick"), options=options,
                                     placeholder=f"Pick {bounds_text(params)}"[:150],
                                     min_values=0, max_values=hi, row=0))
    confirm = str(params.get("confirm") or "Confirm")
    out.append(discord.ui.Button(custom_id=cid(game_id, opened, "ok", button=True),
                                 label=f"✅ {confirm}"[:80], style=discord.ButtonStyle.success, row=1))
    if params.get("can_pass"):
        label = PASS_LABELS.get(str(params.get("purpose")), "Pass (no cards)")
        out.append(discord.ui.Button(custom_id=cid(game_id, opened, "pass", button=True),
                                     label=label, style=discord.ButtonStyle.secondary, row=1))
    if offered:
        out.append(discord.ui.Button(custom_id=cid(game_id, opened, "clear", button=True),
                                     label="Clear", style=discord.ButtonStyle.secondary, row=1))
    return out
