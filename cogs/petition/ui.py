"""Petition presentation: the board, hand and reveal images and the texts (no discord import)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.gameui import DrawnUI
from bot.render import to_png
from rules.engine import Event, seat_name
from rules.petition.views import CardFaceView, View, read_reveal, read_view
from rules.text import count, listing

from . import render

JSON = dict[str, Any]


def _seat_refs(view: View) -> list[str]:
    """Seats as engine texts name them ("P1" …): the platform swaps in the players' names."""
    return [seat_name(s["seat"]) for s in view["seats"]]


REVEALS = ("reveal_bids", "reveal_campaign")
"""Event kinds of a reveal: a petition duel's bids, a campaign's opening cards."""


class PetitionUI(DrawnUI):
    key = "petition"
    cog_extension = "cogs.petition.cog"

    drawings = render

    def hand_text(self, view: JSON) -> str:
        return _hand_text(read_view(view))

    def status_text(self, view: JSON) -> str:
        return _status_text(read_view(view))

    def event_files(self, view: JSON, event: Event, *,
                    names: Sequence[str] | None = None) -> list[tuple[str, bytes, str]]:
        """The reveal of a petition duel's bids or of a campaign's cards, both sides side by side,
        posted with the reveal's line (each duel of a petition with several challengers gets its
        own). Only public events: a reveal shows what was turned face up."""
        if event.to is not None or event.kind not in REVEALS or not event.data:
            return []
        data = read_reveal(dict(event.data))
        v = read_view(view)
        image = render.reveal_image(data, v, names)
        return [("reveal.png", to_png(image), render.reveal_alt(data, v, names))]


def _hand_text(view: View) -> str:
    priv = view["private"]
    seat = priv["seat"]
    me = view["seats"][seat]
    fav = render.favour_of(view, seat)
    lines = [f"**{seat_name(seat)}** — {count(me['beads'], 'bead')}, {count(len(priv['hand']), 'card')} in hand"
             + (f", favour: {fav}" if fav else "") + "."]
    if priv["hand"]:
        for h in priv["hand"]:
            lines.append("• " + card_line(h, view))
    else:
        lines.append("No cards in hand.")
    for down, label in ((priv["bid"], "Your face-down bid"),
                        (priv["campaign_cards"], "Your campaign cards")):
        if down:
            lines.append(f"{label}: " + ", ".join(c["name"] for c in down) + ".")
    return "\n".join(lines)


def _status_text(view: View) -> str:
    who = _seat_refs(view)
    if view.get("phase") == "over":
        r = view.get("result")
        won = r["winners"] if r else []
        if not won:
            said = "the pillars stand" if view.get("solo") else "nobody wins"
        else:
            said = listing([seat_name(k) for k in won]) + (" wins" if len(won) == 1 else " share the win")
        return f"Game over — {said} ({r['reason'] if r else ''})."
    text = render.awaited(view, who)
    solo = view["solo"]
    if solo:
        me = view["seats"][0]
        stacks = ", ".join(f"{render.pillar_name(k)} {v}" for k, v in (solo.get("stacks") or {}).items())
        return f"{text}\n{count(me['beads'], 'bead')} · pillars left: {stacks or 'none'}"
    standing = " · ".join(f"{seat_name(s['seat'])}: {count(s['beads'], 'bead')}, {s['active_count']} standing, "
                          f"{s['captured_count']} captured" for s in view["seats"])
    last = view.get("last_reveal")
    extra = f"\nLast reveal: {render.reveal_summary(last, view, who)}" if last else ""
    return f"{text}\n{standing}{extra}"


def card_line(h: CardFaceView, view: View) -> str:
    """One card in a hand's text: name, god, points per pillar, or a powerup's text."""
    if h.get("kind") == "powerup":
        return f"**{h['name']}** (powerup): {h.get('text', '')}"
    god = render.god_of(view, h.get("god"))
    serves = f", serves {god['name']}" if god else ""
    return f"**{h['name']}**{serves}: {render.points_text(h.get('points', {}))}"


UI = PetitionUI()
