"""Logging to stdout with game and guild ids; the token is scrubbed from every record, and no level
prints a hand or a game state."""

from __future__ import annotations

import logging
import os
import sys
from typing import Any


class _Context(logging.Filter):
    def __init__(self) -> None:
        super().__init__()
        token = os.environ.get("DISCORD_TOKEN") or ""
        self.token = token if len(token) > 8 else ""

    def filter(self, record: logging.LogRecord) -> bool:
        parts = []
        for key in ("guild_id", "game_id"):
            value = getattr(record, key, None)
            if value is not None:
                parts.append(f"{key.split('_')[0]}={value}")
        record.ctx = (" [" + " ".join(parts) + "]") if parts else ""
        if self.token:
            msg = record.getMessage()
            if self.token in msg:
                record.msg = msg.replace(self.token, "[token]")
                record.args = ()
        return True


class _ScrubbingFormatter(logging.Formatter):
    """Scrubs the token from the whole formatted record, tracebacks included."""

    def __init__(self, fmt: str, token: str) -> None:
        super().__init__(fmt)
        self.token = token

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        return text.replace(self.token, "[token]") if self.token else text


NEVER_DEBUG = ("discord", "aiosqlite")
"""Libraries whose DEBUG lines hold hidden information, kept at INFO or above whatever the level:
discord.py logs gateway payloads and HTTP bodies (a hand in an ephemeral answer, a chosen card),
aiosqlite every statement with its parameters (whole game states, every hand in them)."""


def setup_logging(level: str | None = None, *, stream: Any = None) -> None:
    """Log to ``stream`` (default stdout) at ``level`` (default ``HERALD_LOG_LEVEL``, else INFO).
    No level prints a hand or a state: Herald's own loggers never log them, and ``NEVER_DEBUG``
    holds the rest. The tools that print a result (``simulate``) log to stderr instead."""
    level = (level or os.environ.get("HERALD_LOG_LEVEL", "INFO")).upper()
    handler = logging.StreamHandler(stream if stream is not None else sys.stdout)
    context = _Context()
    handler.setFormatter(_ScrubbingFormatter(
        "%(asctime)s %(levelname)-7s %(name)s%(ctx)s: %(message)s", context.token))
    handler.addFilter(context)
    root = logging.getLogger()
    root.handlers[:] = [handler]
    # Herald never joins voice channels: discord.py's notes about missing voice libraries are noise
    logging.getLogger("discord.client").addFilter(
        lambda record: "voice will NOT be supported" not in record.getMessage())
    root.setLevel(level)
    number = logging.getLevelName(level)
    floor = max(number, logging.INFO) if isinstance(number, int) else logging.INFO
    for name in NEVER_DEBUG:
        logging.getLogger(name).setLevel(floor)
