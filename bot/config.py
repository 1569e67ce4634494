"""Configuration, from environment variables (and an optional ``.env`` file) with documented defaults.

| variable | default | meaning |
|---|---|---|
| ``DISCORD_TOKEN`` | — (required to run the bot) | the bot token |
| ``HERALD_DB`` | ``./herald.db`` | SQLite database file |
| ``HERALD_DEV_GUILD`` | — | a guild id: sync commands there instantly (development) |
| ``HERALD_LOG_LEVEL`` | ``INFO`` | logging level |
| ``HERALD_DEFAULT_DEADLINE`` | ``86400`` | seconds a player has for a decision (guilds can change it) |
| ``HERALD_REMINDER_LEAD`` | ``3600`` | seconds before a deadline the reminder goes out |
| ``HERALD_DOCS_URL`` | project repository URL | where ``/rules`` links to the full rules pages |
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

MIN_DEADLINE = 60
MAX_DEADLINE = 14 * 24 * 3600
DOCS_URL = "https://github.com/herald-bot/herald/blob/main/"


def load_dotenv(path: Path = Path(".env")) -> None:
    """Read KEY=VALUE lines into the environment (existing variables win). No interpolation."""
    if not path.is_file():
        return
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        key = key.strip().removeprefix("export ").strip()
        value = value.strip().strip("'\"")
        os.environ.setdefault(key, value)


@dataclass(frozen=True)
class Config:
    token: str | None
    db_path: str
    dev_guild: int | None
    log_level: str
    default_deadline: int
    reminder_lead: int
    docs_url: str

    @classmethod
    def from_env(cls) -> Config:
        dev = os.environ.get("HERALD_DEV_GUILD", "").strip()
        return cls(
            token=os.environ.get("DISCORD_TOKEN") or None,
            db_path=os.environ.get("HERALD_DB", "./herald.db"),
            dev_guild=int(dev) if dev.isdigit() else None,
            log_level=os.environ.get("HERALD_LOG_LEVEL", "INFO").upper(),
            default_deadline=int(os.environ.get("HERALD_DEFAULT_DEADLINE", "86400")),
            reminder_lead=int(os.environ.get("HERALD_REMINDER_LEAD", "3600")),
            docs_url=os.environ.get("HERALD_DOCS_URL", DOCS_URL),
        )

    def __repr__(self) -> str:  # never print the token
        return (f"Config(db_path={self.db_path!r}, dev_guild={self.dev_guild}, "
                f"log_level={self.log_level!r}, token={'set' if self.token else 'unset'})")
