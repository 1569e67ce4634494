"""Persistence: the interface (:mod:`.base`) and its backends (:mod:`.sqlite`).

Only backends speak SQL. ``open_storage`` picks the backend for a configured location.
"""

from __future__ import annotations

from .base import (
    DeadlineRow,
    EventRow,
    GamePage,
    GameRow,
    GuildSettings,
    SeatRow,
    Storage,
    StorageBusy,
    StorageCorrupt,
    StorageError,
    StorageFull,
    StorageOpenError,
    StorageReadOnly,
    StorageUnavailable,
    TableCounts,
    TableLimits,
    VersionConflict,
)
from .sqlite import MIGRATIONS, SqliteStorage


def open_storage(location: str) -> Storage:
    """The backend for a database location (a SQLite file path)."""
    return SqliteStorage(location)


__all__ = ["DeadlineRow", "EventRow", "GamePage", "GameRow", "GuildSettings", "MIGRATIONS", "SeatRow", "Storage",
           "StorageBusy", "StorageCorrupt", "StorageError", "StorageFull", "StorageOpenError",
           "StorageReadOnly", "StorageUnavailable", "SqliteStorage", "TableCounts", "TableLimits",
           "VersionConflict",
           "open_storage"]
