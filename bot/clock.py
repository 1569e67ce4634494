"""The bot's clock: wall-clock seconds, read through discord.py so test harnesses can move it."""

from __future__ import annotations

import discord


def now() -> float:
    """Seconds since the epoch (UTC)."""
    return discord.utils.utcnow().timestamp()
