"""Shared fixtures: the test-only game is registered for every test session."""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("HERALD_LOG_LEVEL", "WARNING")

from bot.gameui import register_ui  # noqa: E402
from rules import registry  # noqa: E402
from tests.support import duel  # noqa: E402

pytest_plugins = ["tests.support.postgres"]  # one throwaway PostgreSQL server per test session

registry.register(duel.ENGINE)
register_ui(duel.UI)


@pytest.fixture
def duel_engine() -> duel.DuelEngine:
    return duel.ENGINE
