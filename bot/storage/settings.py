"""A server's settings, registered once: each is one :class:`Setting` (its name, how it is stored
and read back), and the storage's statements are made from the list. ``/herald settings``
(:mod:`cogs.admin`) reads the same list for its options, descriptions and lines
(:mod:`bot.guild_settings`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .base import GuildSettings, from_json, to_json


def _same(value: Any) -> Any:
    return value


@dataclass(frozen=True)
class Setting:
    """One stored setting: ``name`` is both the :class:`GuildSettings` field and the column of
    ``guild_settings``."""

    name: str
    stored: Callable[[Any], Any] = _same
    """The field's value as the column stores it."""
    read: Callable[[Any], Any] = _same
    """The column's value as the field holds it."""


STORED: tuple[Setting, ...] = (
    Setting("default_deadline"),
    Setting("reminder_lead"),
    Setting("opener_role_id"),
    Setting("channels", stored=to_json, read=lambda v: list(from_json(v) or [])),
    Setting("table_limit"),
    Setting("member_lobby_limit"),
    Setting("member_table_limit"),
    Setting("leaderboards", stored=bool, read=bool),
    Setting("lobby_limit"),
    Setting("lobby_expiry"),
    Setting("web_pages", stored=bool, read=lambda v: v is None or bool(v)),  # (NULL: on)
)
"""Every setting a server stores, in the order of the statements' columns."""

_COLUMNS = ", ".join(s.name for s in STORED)
SETTINGS_SELECT = f"SELECT {_COLUMNS} FROM guild_settings WHERE guild_id=?"
SETTINGS_UPSERT = (
    f"INSERT INTO guild_settings (guild_id, {_COLUMNS}) VALUES (?{',?' * len(STORED)}) "
    "ON CONFLICT (guild_id) DO UPDATE SET "
    + ", ".join(f"{s.name}=excluded.{s.name}" for s in STORED))


def settings_from_row(guild_id: int, row: Sequence[Any]) -> GuildSettings:
    """A server's settings read with :data:`SETTINGS_SELECT`."""
    return GuildSettings(guild_id, **{s.name: s.read(v) for s, v in zip(STORED, row, strict=True)})


def settings_values(s: GuildSettings) -> list[Any]:
    """The parameters of :data:`SETTINGS_UPSERT` for ``s``."""
    return [s.guild_id, *(setting.stored(getattr(s, setting.name)) for setting in STORED)]
