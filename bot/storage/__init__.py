"""Persistence: the interface (:mod:`.base`) and its backends (:mod:`.sqlite`).

Only backends speak SQL. ``open_storage`` picks the backend for a configured location.
"""

from __future__ import annotations

from .base import (
    DeadlineRow,
    EventRow,
    GameRow,
    GuildSettings,
    SeatRow,
    Storage,
    StorageError,
    VersionConflict,
)
from .sqlite import MIGRATIONS, SqliteStorage


def open_storage(location: str) -> Storage:
    """The backend for a database location (a SQLite file path)."""
    return SqliteStorage(location)


__all__ = ["DeadlineRow", "EventRow", "GameRow", "GuildSettings", "MIGRATIONS", "SeatRow", "Storage",
           "StorageError", "SqliteStorage", "VersionConflict", "open_storage"]
