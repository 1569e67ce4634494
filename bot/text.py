"""Small text helpers shared by delivery and cogs: names for P-numbers, safe mentions, embeds."""

from __future__ import annotations

import re

import discord

from .storage import GameRow

NO_PINGS = discord.AllowedMentions.none()
_PNUM = re.compile(r"\bP([1-8])\b")


def seat_label(game: GameRow, seat: int) -> str:
    s = game.seats[seat] if 0 <= seat < len(game.seats) else None
    name = s.name if s else f"seat {seat + 1}"
    return f"P{seat + 1} {discord.utils.escape_markdown(discord.utils.escape_mentions(name))}"


def humanise(text: str, game: GameRow) -> str:
    """'P2 attacks P1' → 'P2 Bob attacks P1 Alice' (names escaped; engines only write P-numbers)."""
    clean = discord.utils.escape_mentions(text)
    return _PNUM.sub(lambda m: f"**{seat_label(game, int(m.group(1)) - 1)}**"
                     if int(m.group(1)) <= len(game.seats) else m.group(0), clean)


def pings(user_ids: list[int]) -> discord.AllowedMentions:
    """Allow mentions of exactly these users: never @everyone, roles or anyone else."""
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                   users=[discord.Object(u) for u in user_ids])


def clip(text: str, limit: int = 1900) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
