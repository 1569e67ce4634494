"""The real bot (real discord.py, real cogs, real SQLite file) on a simulated Discord."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.app import HeraldBot
from bot.config import Config


def make_config(db: Path) -> Config:
    return Config(token=None, db_path=str(db), dev_guild=None, log_level="WARNING",
                  default_deadline=86400, reminder_lead=3600, docs_url="https://example.org/herald/")


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "herald.db"


@pytest.fixture
def simcord_bot(db_path: Path) -> HeraldBot:
    return HeraldBot(make_config(db_path))
