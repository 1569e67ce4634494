"""A server's settings are kept in memory once for both backends (``Storage.guild_settings``):
served from memory while the storage hears every change, a save read back at once, copies handed
out, and at most ``SETTINGS_KEPT`` servers kept, the least recently read dropped first."""

from __future__ import annotations

import pytest

import bot.storage.sql as sql
from bot.storage import GuildSettings, Storage


async def _stored(store: Storage, guild_id: int, deadline: int) -> None:
    """Store a server's settings without the storage hearing of it (no notice over PostgreSQL,
    whose own save's notice could otherwise arrive during the test and drop what is kept)."""
    await store._execute("INSERT INTO guild_settings (guild_id, default_deadline) VALUES (?,?)",
                         guild_id, deadline)


async def _behind_its_back(store: Storage, guild_id: int, deadline: int) -> None:
    """Change a server's stored settings without the storage hearing of it."""
    await store._execute("UPDATE guild_settings SET default_deadline=? WHERE guild_id=?",
                         deadline, guild_id)


async def test_settings_are_served_from_memory_once_read(store: Storage) -> None:
    await _stored(store, 7, 600)
    assert (await store.guild_settings(7)).default_deadline == 600
    await _behind_its_back(store, 7, 900)
    assert (await store.guild_settings(7)).default_deadline == 600  # (kept: not read again)
    store.forget()
    assert (await store.guild_settings(7)).default_deadline == 900


async def test_a_saved_change_is_read_back_at_once(store: Storage) -> None:
    assert (await store.guild_settings(7)).default_deadline is None
    await store.save_guild_settings(GuildSettings(7, default_deadline=600))
    assert (await store.guild_settings(7)).default_deadline == 600


async def test_settings_handed_out_are_copies_of_those_kept(store: Storage) -> None:
    await store.save_guild_settings(GuildSettings(7, channels=[1]))
    first = await store.guild_settings(7)
    first.channels.append(2)
    first.default_deadline = 60
    again = await store.guild_settings(7)
    assert again.channels == [1] and again.default_deadline is None


async def test_at_most_settings_kept_servers_the_least_recently_read_dropped_first(
        store: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sql, "SETTINGS_KEPT", 2)
    for guild_id in (1, 2, 3):
        await _stored(store, guild_id, 600)
    for guild_id in (1, 2, 3):
        await store.guild_settings(guild_id)
    for guild_id in (1, 2, 3):
        await _behind_its_back(store, guild_id, 900)
    # server 1 was dropped (read again from the database); 2 and 3 are kept
    assert [(await store.guild_settings(g)).default_deadline for g in (3, 2, 1)] == [600, 600, 900]
