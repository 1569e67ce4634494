"""Small text helpers shared by sessions, delivery and cogs: names for P-numbers, safe mentions,
links to boards."""

from __future__ import annotations

import re

import discord

from rules.engine import seat_name

from .storage import GameRow

NO_PINGS = discord.AllowedMentions.none()
_PNUM = re.compile(r"\bP([1-8])\b")


def seat_label(game: GameRow, seat: int) -> str:
    s = game.seats[seat] if 0 <= seat < len(game.seats) else None
    name = s.name if s else f"seat {seat + 1}"
    return f"{seat_name(seat)} {discord.utils.escape_markdown(discord.utils.escape_mentions(name))}"


def board_url(game: GameRow) -> str | None:
    """A link to the game's living board message, once it has one."""
    if not game.board_message_id or not game.home_channel_id:
        return None
    return (f"https://discord.com/channels/{game.guild_id or '@me'}/{game.home_channel_id}/"
            f"{game.board_message_id}")


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
