"""A server's settings are registered once (``bot.settings.SETTINGS``): the dataclass, the
table's columns, the storage's statements and ``/herald settings`` all follow the one list."""

from __future__ import annotations

import dataclasses
import sqlite3

import discord
import pytest
from discord import app_commands

from bot.errors import TableError
from bot.settings import OPTIONS, SETTINGS, GuildSettings, apply_options
from bot.storage.base import settings_row, settings_values
from bot.storage.sqlite import MIGRATIONS
from cogs.admin import Admin


def test_every_stored_field_of_a_servers_settings_is_registered_once() -> None:
    fields = [f.name for f in dataclasses.fields(GuildSettings) if f.name != "guild_id"]
    names = [s.name for s in SETTINGS]
    assert sorted(names) == sorted(fields) and len(set(names)) == len(names)
    assert len({o.name for o in OPTIONS}) == len(OPTIONS)


def test_every_registered_setting_has_its_column_after_the_migrations() -> None:
    db = sqlite3.connect(":memory:")
    for script in MIGRATIONS:
        db.executescript(script)
    columns = [r[1] for r in db.execute("PRAGMA table_info(guild_settings)")]
    assert columns == ["guild_id", *(s.name for s in SETTINGS)]


def test_a_servers_settings_read_back_as_stored() -> None:
    s = GuildSettings(7, 3600, 600, 55, [1, 2], 10, 3, 4, False, 5, 7200, False)
    assert settings_row(7, settings_values(s)[1:]) == s
    # a server that never chose its web pages (a NULL column) has them on
    none = settings_row(8, [None, None, None, "[]", None, None, None, 1, None, None, None])
    assert none == GuildSettings(8)


def test_the_settings_command_offers_each_registered_option_with_its_description() -> None:
    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
    [command] = Admin.herald.to_dict(tree)["options"]
    assert [(o["name"], o["description"]) for o in command["options"]] == [
        (o.name, o.description) for o in OPTIONS]


def test_options_change_only_what_they_name_and_false_flags_of_one_way_options_change_nothing() -> None:
    s = GuildSettings(1, opener_role_id=9)
    assert apply_options(s, {"everyone_opens": False, "deadline": None}) is False
    assert s == GuildSettings(1, opener_role_id=9)
    assert apply_options(s, {"opener_role": 0, "leaderboards": False}) is True  # (0: @everyone)
    assert (s.opener_role_id, s.leaderboards) == (None, False)
    assert apply_options(s, {"add_channel": 5}) is True and apply_options(s, {"add_channel": 5}) is False
    assert s.channels == [5]
    with pytest.raises(TableError, match="not both"):
        apply_options(s, {"opener_role": 3, "everyone_opens": True})
    with pytest.raises(TableError, match="not in the list"):
        apply_options(s, {"remove_channel": 6})
