"""Persistence: the rows (:mod:`.base`), the interface with the SQL both backends share
(:mod:`.sql`, read through a :mod:`.dialect`; the schema steps in :mod:`.migrations`) and the
backends (:mod:`.sqlite`, :mod:`.postgres`).

Only the storage speaks SQL. ``open_storage`` picks the backend for a configured location.
"""

from __future__ import annotations

from ..dburl import is_postgres_url, redacted
from ..settings import GuildSettings, TableLimits
from .base import (
    ActionRow,
    DeadlineRow,
    EventRow,
    GamePage,
    GameRow,
    SeatRow,
    StorageBusy,
    StorageCorrupt,
    StorageError,
    StorageFull,
    StorageOpenError,
    StorageReadOnly,
    StorageUnavailable,
    TableCounts,
    VersionConflict,
)
from .postgres import PostgresStorage
from .sql import Storage
from .sqlite import MIGRATIONS, SqliteStorage


def open_storage(location: str) -> Storage:
    """The backend for a database location: a ``postgresql://`` URL is a PostgreSQL database,
    anything else a SQLite file path. Nothing is opened yet (``Storage.open`` does that)."""
    if is_postgres_url(location):
        return PostgresStorage(location.strip())
    return SqliteStorage(location)


def shown_location(location: str) -> str:
    """The database location as logs and messages may show it: a URL without its password."""
    return redacted(location) if is_postgres_url(location) else location


__all__ = ["ActionRow", "DeadlineRow", "EventRow", "GamePage", "GameRow", "GuildSettings", "MIGRATIONS", "PostgresStorage", "SeatRow", "Storage",
           "StorageBusy", "StorageCorrupt", "StorageError", "StorageFull", "StorageOpenError",
           "StorageReadOnly", "StorageUnavailable", "SqliteStorage", "TableCounts", "TableLimits",
           "VersionConflict", "is_postgres_url",
           "open_storage", "shown_location"]
