"""The storage tests' database: each test runs once on SQLite and once on PostgreSQL."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage import Storage, open_storage
from tests.support.storage import BACKENDS, new_location, opened


@pytest.fixture(params=BACKENDS)
def location(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A new, empty database: a SQLite file path or a PostgreSQL URL."""
    return new_location(request, tmp_path)


@pytest.fixture
async def store(location: str) -> AsyncIterator[Storage]:
    """The storage of ``location``, open for the test."""
    async with opened(open_storage(location)) as s:
        yield s
