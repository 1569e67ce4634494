"""Opening a test database: the same few lines every storage test needs, on either backend."""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any, TypeVar

import pytest

from bot.storage import DeadlineRow, SeatRow, Storage

S = TypeVar("S", bound=Storage)

BACKENDS = ["sqlite", "postgres"]
"""Every backend a storage test runs on (PostgreSQL skips, or fails under CI, without its server)."""


def new_location(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a new, empty database lives for ``request.param``: a SQLite file path, or the URL of
    a fresh PostgreSQL database (the ``postgres_url`` fixture, started only when asked for)."""
    if request.param == "postgres":
        return str(request.getfixturevalue("postgres_url"))
    return str(tmp_path / "herald.db")


@contextlib.asynccontextmanager
async def opened(storage: S) -> AsyncIterator[S]:
    """``storage`` opened (its migrations run) for the block, and closed after it, even when the
    test fails."""
    await storage.open()
    try:
        yield storage
    finally:
        await storage.close()


DUEL_SEATS = [SeatRow(0, 100, False, "Ada"), SeatRow(1, 200, False, "Bo")]
"""The two players of a stored test game: Ada (user 100) and Bo (user 200)."""


async def started_duel(s: Storage, state: dict[str, Any], deadlines: Sequence[DeadlineRow]) -> int:
    """A two-player game of the test duel stored as started (version 1, both seats' first
    decisions open) with ``state`` and ``deadlines`` (their ``game_id`` is filled in); its id."""
    gid = await s.create_game(guild_id=10, channel_id=20, game_key="duel", seed=5, options={},
                              host_id=100, deadline=None, now=1.0, seats=DUEL_SEATS)
    await s.start_game(gid, seats=DUEL_SEATS, state=state, opened={0: 1, 1: 1}, now=2.0,
                       deadlines=[dataclasses.replace(d, game_id=gid) for d in deadlines])
    return gid
