"""Logging to stdout with game and guild ids; the token is scrubbed from every record."""

from __future__ import annotations

import logging
import os
import sys


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


def setup_logging(level: str | None = None) -> None:
    level = (level or os.environ.get("HERALD_LOG_LEVEL", "INFO")).upper()
    handler = logging.StreamHandler(sys.stdout)
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
    logging.getLogger("discord").setLevel(max(logging.getLevelName(level), logging.INFO)
                                          if isinstance(logging.getLevelName(level), int) else logging.INFO)
