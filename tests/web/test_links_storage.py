"""Web tokens (schema 11) on both backends: one per game, stored once, found again by the token
alone and by nothing else; an older database migrates to them."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from bot.storage import SqliteStorage, Storage
from bot.storage.sqlite import MIGRATIONS
from tests.support.storage import opened


async def _game(store: Storage) -> int:
    return await store.create_game(guild_id=1, channel_id=2, game_key="cult_wars", seed=3,
                                    options={}, host_id=100, deadline=None, now=1.0)


async def test_a_game_keeps_the_first_token_it_was_given(store: Storage) -> None:
    game_id = await _game(store)
    assert await store.web_links([game_id]) == {}
    first = await store.web_link(game_id, "first-token-aaaaaaaaaaaaaaaa", 5.0)
    again = await store.web_link(game_id, "second-token-bbbbbbbbbbbbbbb", 6.0)
    assert first == again == "first-token-aaaaaaaaaaaaaaaa"
    assert await store.web_links([game_id, game_id + 99]) == {game_id: first}


async def test_two_processes_asking_at_once_get_the_same_token(store: Storage) -> None:
    game_id = await _game(store)
    got = await asyncio.gather(*(store.web_link(game_id, f"token-{i:030d}", 1.0) for i in range(5)))
    assert len(set(got)) == 1


async def test_a_token_finds_its_game_and_nothing_else_does(store: Storage) -> None:
    one, two = await _game(store), await _game(store)
    t1 = await store.web_link(one, "A" * 32, 1.0)
    t2 = await store.web_link(two, "B" * 32, 1.0)
    assert await store.game_of_link(t1) == one and await store.game_of_link(t2) == two
    for wrong in ("A" * 31, "A" * 33, "a" * 32, "", str(one), "A" * 31 + "\udcff"):
        assert await store.game_of_link(wrong) is None


async def test_a_schema_10_database_migrates_to_web_links(tmp_path: Path) -> None:
    path = tmp_path / "ten.db"
    with sqlite3.connect(path) as raw:
        for script in MIGRATIONS[:10]:
            raw.executescript(script)
        raw.execute("PRAGMA user_version = 10")
    async with opened(SqliteStorage(str(path))) as s:
        assert await s.schema_version() == len(MIGRATIONS) >= 11
        game_id = await _game(s)
        assert await s.game_of_link(await s.web_link(game_id, "C" * 32, 1.0)) == game_id
