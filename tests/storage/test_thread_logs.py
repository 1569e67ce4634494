"""What each game's thread shows of its log (schema 12) on both backends: the version up to which
its lines are posted is kept per game, moves on, survives a restart; and a schema 11 database
migrates to it."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.storage import SqliteStorage, Storage, open_storage
from bot.storage.sqlite import MIGRATIONS
from tests.support.storage import opened


async def _game(store: Storage, seed: int) -> int:
    return await store.create_game(guild_id=1, channel_id=2, game_key="duel", seed=seed,
                                   options={}, host_id=4, deadline=None, now=0.0)


async def test_the_version_a_thread_shows_is_kept_per_game(store: Storage) -> None:
    gid, other = await _game(store, 3), await _game(store, 4)
    assert await store.log_posted(gid) is None  # (a game whose thread was never told)
    await store.set_log_posted(gid, 7)
    await store.set_log_posted(gid, 12)
    assert await store.log_posted(gid) == 12 and await store.log_posted(other) is None
    await store.set_log_posted(other, 0)
    assert await store.log_posted(other) == 0 and await store.log_posted(gid) == 12


async def test_the_version_a_thread_shows_survives_a_restart(location: str) -> None:
    async with opened(open_storage(location)) as first:
        gid = await _game(first, 5)
        await first.set_log_posted(gid, 31)
    async with opened(open_storage(location)) as again:
        assert await again.log_posted(gid) == 31


async def test_a_schema_11_database_migrates_to_thread_logs(tmp_path: Path) -> None:
    path = tmp_path / "eleven.db"
    with sqlite3.connect(path) as raw:
        for script in MIGRATIONS[:11]:
            raw.executescript(script)
        raw.execute("PRAGMA user_version = 11")
    async with opened(SqliteStorage(str(path))) as s:
        gid = await _game(s, 6)
        assert await s.schema_version() == len(MIGRATIONS) >= 12
        assert await s.log_posted(gid) is None
        await s.set_log_posted(gid, 2)
        assert await s.log_posted(gid) == 2
