"""Alternate Histories presentation: the board and hand images and texts (no discord import)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image

from bot.gameui import DrawnUI
from rules.alternate_histories.content import CARDS
from rules.alternate_histories.views import read_view
from rules.engine import seat_name
from rules.text import count

from . import render
from .render import card_facts, card_name, counted

JSON = dict[str, Any]


class AlternateHistoriesUI(DrawnUI):
    key = "alternate_histories"
    cog_extension = "cogs.alternate_histories.cog"

    drawings = render

    def hand_image(self, view: JSON, *, names: Sequence[str] | None = None) -> Image.Image | None:
        if view.get("phase") == "deck" or "private" not in view:
            return None  # nothing in hand while decks are chosen
        return super().hand_image(view, names=names)

    def hand_text(self, view: JSON) -> str:
        """Each card of the hand with everything needed to play it, then the seat's other
        secrets: its face-down cards and the top of the opponent's deck it knows."""
        v = read_view(view)
        priv = v["private"]
        seat = int(priv["seat"])
        side = v["sides"][seat]
        lines = [f"**{seat_name(seat)}** — {render.nation_name(priv.get('nation'))}, "
                 f"{render.governance_name(priv.get('governance'))}; "
                 f"{count(int(side.get('deck', 0)), 'card')} in your deck."
                 if priv.get("nation") else f"**{seat_name(seat)}** — no deck chosen yet."]
        hand = [CARDS[c] for c in priv.get("hand", []) if c in CARDS]
        if hand:
            lines.append("Your hand:")
            playable = priv.get("playable") or {}
            for c in sorted(hand, key=lambda c: (c.era_index, c.name)):
                now = f" — playable now (discard {playable[c.id]})" if c.id in playable else ""
                lines.append(f"• **{c.name}** ({card_facts(c)}): {c.text}{now}")
        elif view.get("phase") != "deck":
            lines.append("No cards in hand.")
        face_down = priv.get("face_down") or {}
        if face_down:
            lines.append("Your face-down cards (only you see them): " + counted(list(face_down.values())) + ".")
        if priv.get("known_top"):
            lines.append("You know the top of your opponent's deck: "
                         + ", ".join(card_name(c) for c in priv["known_top"]) + " (top first).")
        if priv.get("reorder"):
            lines.append("To put back in any order: " + ", ".join(card_name(c) for c in priv["reorder"]) + ".")
        return "\n".join(lines)

    def status_text(self, view: JSON) -> str:
        """Whose turn and phase, the eras, the last combat (public)."""
        v = read_view(view)
        who = [seat_name(k) for k in range(2)]
        text = render.awaited_line(v, who)
        if v.get("phase") == "turn":
            eras = ", ".join(f"{seat_name(sd['seat'])} {sd.get('era_name')}" for sd in v["sides"])
            text += f"\nGlobal era: {render.ERAS[int(v.get('global_era_index', 0))]} (era trackers: {eras})."
        combat = render._combat_lines(v, who)
        if combat:
            text += "\nLast combat: " + " ".join(combat)
        return text


UI = AlternateHistoriesUI()
