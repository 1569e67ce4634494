"""Sessions over a real SQLite file for the unit tests: the configuration, a clock the test moves
by hand, a delivery that records every update, and one context that opens and closes them."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

from bot.config import Config
from bot.session import Sessions, Update
from bot.storage import SqliteStorage

HOST, GUEST, THIRD = 1001, 1002, 1003
"""The users of a test table: its host and the two who join."""
CONFIG = Config(token=None, db_path="", dev_guild=None, log_level="WARNING",
                default_deadline=3600, reminder_lead=600, docs_url="")
"""An hour to move, a reminder ten minutes before the deadline."""


class Clock:
    """The sessions' ``now``: it stands still until the test sets ``t``."""

    def __init__(self, t: float = 1_000_000.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


@dataclass
class Recorder:
    """A delivery that keeps every update instead of posting it (one update per batch)."""

    updates: list[Update] = field(default_factory=list)
    per_action: bool = False

    async def deliver(self, update: Update) -> None:
        self.updates.append(update)


@dataclass
class Env:
    sessions: Sessions
    storage: SqliteStorage
    clock: Clock
    delivery: Recorder


@contextlib.asynccontextmanager
async def session_env(folder: Path, *, clock: Clock | None = None, delivery: Recorder | None = None,
                      deliver: bool = True) -> AsyncIterator[Env]:
    """Sessions over a new database file in ``folder``, closed after the block. With
    ``deliver=False`` the sessions have no delivery at all (nothing is posted or recorded)."""
    storage = SqliteStorage(str(folder / "herald.db"))
    await storage.open()
    clock = clock if clock is not None else Clock()
    delivery = delivery if delivery is not None else Recorder()
    sessions = Sessions(storage, CONFIG, delivery, now=clock) if deliver else Sessions(storage, CONFIG, now=clock)
    try:
        yield Env(sessions, storage, clock, delivery)
    finally:
        await storage.close()
