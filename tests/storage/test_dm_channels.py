"""Members' DM channels (schema 9) on both backends: remembered once Discord opened one, kept
across a restart, replaced when Discord opens another, forgotten on request; and an older
database migrates to it with its DM bookkeeping untouched."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.storage import SqliteStorage, Storage, open_storage
from bot.storage.sqlite import MIGRATIONS
from tests.support.storage import opened

ANN, BO = 601, 602


async def test_a_dm_channel_is_remembered_replaced_and_forgotten(store: Storage) -> None:
    assert await store.dm_channel(ANN) is None
    await store.set_dm_channel(ANN, 9001)
    await store.set_dm_channel(BO, 9002)
    assert await store.dm_channel(ANN) == 9001 and await store.dm_channel(BO) == 9002
    await store.set_dm_channel(ANN, 9003)  # (Discord opened another: the newest is kept)
    assert await store.dm_channel(ANN) == 9003
    await store.set_dm_channel(ANN, None)
    assert await store.dm_channel(ANN) is None and await store.dm_channel(BO) == 9002
    await store.set_dm_channel(ANN, None)  # (forgetting what is not known changes nothing)
    assert await store.dm_channel(ANN) is None


async def test_a_dm_channel_survives_a_restart(location: str) -> None:
    async with opened(open_storage(location)) as first:
        await first.set_dm_channel(ANN, 2**62 + 5)  # (Discord ids are 64-bit)
    async with opened(open_storage(location)) as again:
        assert await again.dm_channel(ANN) == 2**62 + 5


async def test_a_schema_8_database_migrates_to_dm_channels(tmp_path: Path) -> None:
    path = tmp_path / "eight.db"
    with sqlite3.connect(path) as raw:
        for script in MIGRATIONS[:8]:
            raw.executescript(script)
        raw.execute("PRAGMA user_version = 8")
        raw.execute("INSERT INTO dm_status (user_id, reachable, checked_at) VALUES (?, 0, 5)", (ANN,))
    async with opened(SqliteStorage(str(path))) as s:
        assert await s.schema_version() == len(MIGRATIONS) >= 9
        assert await s.dm_reachable(ANN) is False
        assert await s.dm_channel(ANN) is None
        await s.set_dm_channel(ANN, 77)
        assert await s.dm_channel(ANN) == 77
