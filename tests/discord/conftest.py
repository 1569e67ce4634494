"""The real bot (real discord.py, real cogs, real SQLite file) on a simulated Discord."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from bot.app import HeraldBot
from bot.config import Config


def make_config(db: Path) -> Config:
    return Config(token=None, db_path=str(db), dev_guild=None, log_level="WARNING",
                  default_deadline=86400, reminder_lead=3600, docs_url="https://example.org/herald/")


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "herald.db"


@pytest_asyncio.fixture
async def simcord_bot(db_path: Path, request: pytest.FixtureRequest) -> AsyncIterator[HeraldBot]:
    bot = HeraldBot(make_config(db_path))
    if request.node.get_closest_marker("heartbeat") is None:
        # the virtual clock jumps hours and days ahead: a beat every 30 s would be thousands of
        # wake-ups per jump, each settled in real time (tests of the heartbeat keep the real rate)
        bot.heartbeat_every = 6 * 3600
    yield bot
    await bot.close_storage()  # also when a test fails before the simulated shutdown


@pytest_asyncio.fixture(autouse=True)
async def _close_every_bot(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[None]:
    """Bots built inside a test (e.g. for a restart) get their database closed at teardown too."""
    made: list[HeraldBot] = []
    original = HeraldBot.__init__

    def tracking_init(self: HeraldBot, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        made.append(self)

    monkeypatch.setattr(HeraldBot, "__init__", tracking_init)
    yield
    for bot in made:
        await bot.close_storage()
