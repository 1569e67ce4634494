"""The SQLite backend of :class:`bot.storage.base.Storage`.

SQLite through aiosqlite, WAL mode, numbered migrations tracked in ``PRAGMA user_version``; one
connection whose statement groups are serialised by an asyncio lock.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import sqlite3
from collections.abc import AsyncIterator, Iterable, Mapping, Sequence
from typing import Any

import aiosqlite

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

log = logging.getLogger("herald.storage")


MIGRATIONS: list[str] = [
    # 1: initial schema
    """
    CREATE TABLE games (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id INTEGER, channel_id INTEGER, thread_id INTEGER,
        game_key TEXT NOT NULL, status TEXT NOT NULL, version INTEGER NOT NULL DEFAULT 0,
        seed INTEGER NOT NULL, options TEXT NOT NULL DEFAULT '{}', state TEXT,
        host_id INTEGER, deadline INTEGER,
        board_message_id INTEGER, lobby_message_id INTEGER, result TEXT,
        created_at REAL NOT NULL, updated_at REAL NOT NULL
    );
    CREATE INDEX games_guild ON games(guild_id, status);
    CREATE TABLE seats (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seat INTEGER NOT NULL, user_id INTEGER, is_bot INTEGER NOT NULL DEFAULT 0,
        name TEXT NOT NULL,
        PRIMARY KEY (game_id, seat)
    );
    CREATE INDEX seats_user ON seats(user_id);
    CREATE TABLE actions (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        n INTEGER NOT NULL, seat INTEGER NOT NULL, action TEXT NOT NULL,
        origin TEXT NOT NULL, user_id INTEGER, created_at REAL NOT NULL,
        PRIMARY KEY (game_id, n)
    );
    CREATE TABLE events (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        n INTEGER NOT NULL, version INTEGER NOT NULL, text TEXT NOT NULL,
        recipients TEXT, kind TEXT NOT NULL, data TEXT NOT NULL DEFAULT '{}',
        created_at REAL NOT NULL,
        PRIMARY KEY (game_id, n)
    );
    CREATE TABLE deadlines (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seat INTEGER NOT NULL, kind TEXT NOT NULL,
        due_at REAL NOT NULL, remind_at REAL, reminded INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (game_id, seat, kind)
    );
    CREATE INDEX deadlines_due ON deadlines(due_at);
    CREATE TABLE guild_settings (
        guild_id INTEGER PRIMARY KEY,
        default_deadline INTEGER, reminder_lead INTEGER, opener_role_id INTEGER,
        channels TEXT NOT NULL DEFAULT '[]'
    );
    CREATE TABLE dm_status (
        user_id INTEGER PRIMARY KEY, reachable INTEGER NOT NULL, checked_at REAL NOT NULL
    );
    CREATE TABLE dm_notices (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        user_id INTEGER NOT NULL,
        PRIMARY KEY (game_id, user_id)
    );
    """,
    # 2: prompt instances (an action names the decision it answers; a deadline belongs to one)
    """
    ALTER TABLE games ADD COLUMN opened TEXT NOT NULL DEFAULT '{}';
    ALTER TABLE games ADD COLUMN answered TEXT NOT NULL DEFAULT '{}';
    ALTER TABLE deadlines ADD COLUMN opened INTEGER NOT NULL DEFAULT 0;
    """,
]


def _loads(text: str | None) -> Any:
    return json.loads(text) if text else None


def _dumps(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def _opened(opened: Mapping[int, int]) -> str:
    return _dumps({str(k): int(v) for k, v in opened.items()})


def _seat_map(text: str | None) -> dict[int, int]:
    return {int(k): int(v) for k, v in (_loads(text) or {}).items()}


_GAME_COLUMNS = ("id, guild_id, channel_id, thread_id, game_key, status, version, seed, options, "
                 "state, host_id, deadline, board_message_id, lobby_message_id, result, "
                 "created_at, updated_at, opened, answered")
_DEADLINE_COLUMNS = "game_id, seat, kind, due_at, remind_at, reminded, opened"


def _deadline(r: Sequence[Any]) -> DeadlineRow:
    return DeadlineRow(r[0], r[1], r[2], r[3], r[4], bool(r[5]), int(r[6]))


_UPDATABLE = {"channel_id", "thread_id", "status", "host_id", "deadline", "board_message_id",
              "lobby_message_id", "options", "result", "updated_at", "seed"}


def _serialised(method: Any) -> Any:
    """One statement group at a time on the shared connection (transactions never interleave)."""

    @functools.wraps(method)
    async def wrapper(self: SqliteStorage, *args: Any, **kwargs: Any) -> Any:
        async with self._lock:
            return await method(self, *args, **kwargs)

    return wrapper


class SqliteStorage(Storage):
    """SQLite backend (one file, WAL). One connection; calls are serialised by an asyncio lock."""

    transient_errors = (sqlite3.OperationalError,)  # "database is locked", a full disk

    def __init__(self, path: str) -> None:
        self.path = path
        self._db: aiosqlite.Connection | None = None
        self._lock = asyncio.Lock()

    @property
    def db(self) -> aiosqlite.Connection:
        if self._db is None:
            raise StorageError("storage is not open")
        return self._db

    async def _x(self, sql: str, params: Sequence[Any] = ()) -> aiosqlite.Cursor:
        """Execute one statement and close its cursor (an open cursor blocks COMMIT)."""
        cur = await self.db.execute(sql, params)
        await cur.close()
        return cur

    @contextlib.asynccontextmanager
    async def _transaction(self) -> AsyncIterator[None]:
        """BEGIN IMMEDIATE … COMMIT, or ROLLBACK on any error (callers hold the lock)."""
        await self._x("BEGIN IMMEDIATE")
        try:
            yield
            await self._x("COMMIT")
        except BaseException:
            await self._x("ROLLBACK")
            raise

    async def open(self) -> None:
        self._db = await aiosqlite.connect(self.path, isolation_level=None)
        await self._x("PRAGMA journal_mode=WAL")
        await self._x("PRAGMA foreign_keys=ON")
        await self._x("PRAGMA busy_timeout=5000")
        await self._x("PRAGMA synchronous=NORMAL")
        await self.migrate()

    async def close(self) -> None:
        if self._db is not None:
            await self._db.close()
            self._db = None

    async def schema_version(self) -> int:
        async with self.db.execute("PRAGMA user_version") as cur:
            row = await cur.fetchone()
        return int(row[0]) if row else 0

    async def migrate(self) -> int:
        current = await self.schema_version()
        if current > len(MIGRATIONS):
            raise StorageError(f"database schema {current} is newer than this Herald ({len(MIGRATIONS)})")
        for number in range(current + 1, len(MIGRATIONS) + 1):
            script = MIGRATIONS[number - 1]
            await self._x("BEGIN")
            try:
                for stmt in (s.strip() for s in script.split(";")):
                    if stmt:
                        await self._x(stmt)
                await self._x(f"PRAGMA user_version = {number}")
                await self._x("COMMIT")
            except BaseException:
                await self._x("ROLLBACK")
                raise
            log.info("database migrated to schema %d", number)
        return len(MIGRATIONS)

    # ------------------------------------------------------------------ games

    def _row_to_game(self, r: Sequence[Any]) -> GameRow:
        return GameRow(
            id=r[0], guild_id=r[1], channel_id=r[2], thread_id=r[3], game_key=r[4], status=r[5],
            version=r[6], seed=r[7], options=_loads(r[8]) or {}, state=_loads(r[9]), host_id=r[10],
            deadline=r[11], board_message_id=r[12], lobby_message_id=r[13], result=_loads(r[14]),
            created_at=r[15], updated_at=r[16],
            opened=_seat_map(r[17]), answered=_seat_map(r[18]),
        )

    async def _seats(self, game_id: int) -> list[SeatRow]:
        async with self.db.execute(
            "SELECT seat, user_id, is_bot, name FROM seats WHERE game_id=? ORDER BY seat", (game_id,)
        ) as cur:
            return [SeatRow(r[0], r[1], bool(r[2]), r[3]) async for r in cur]

    @_serialised
    async def create_game(self, *, guild_id: int | None, channel_id: int | None, game_key: str,
                          seed: int, options: dict[str, Any], host_id: int | None,
                          deadline: int | None, now: float) -> int:
        cur = await self._x(
            "INSERT INTO games (guild_id, channel_id, game_key, status, version, seed, options, "
            "host_id, deadline, created_at, updated_at) VALUES (?,?,?,?,0,?,?,?,?,?,?)",
            (guild_id, channel_id, game_key, "lobby", seed, _dumps(options), host_id, deadline, now, now),
        )
        assert cur.lastrowid is not None
        return int(cur.lastrowid)

    @_serialised
    async def get_game(self, game_id: int) -> GameRow | None:
        async with self.db.execute(f"SELECT {_GAME_COLUMNS} FROM games WHERE id=?", (game_id,)) as cur:
            r = await cur.fetchone()
        if r is None:
            return None
        game = self._row_to_game(r)
        game.seats = await self._seats(game_id)
        return game

    async def _many(self, sql: str, params: Sequence[Any]) -> list[GameRow]:
        async with self.db.execute(sql, params) as cur:
            rows = [self._row_to_game(r) async for r in cur]
        for g in rows:
            g.seats = await self._seats(g.id)
        return rows

    @_serialised
    async def list_games(self, *, guild_id: int | None = None,
                         statuses: Sequence[str] = ("lobby", "active")) -> list[GameRow]:
        marks = ",".join("?" for _ in statuses)
        if guild_id is None:
            return await self._many(
                f"SELECT {_GAME_COLUMNS} FROM games WHERE status IN ({marks}) ORDER BY id", list(statuses))
        return await self._many(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE guild_id=? AND status IN ({marks}) ORDER BY id",
            [guild_id, *statuses])

    @_serialised
    async def games_of_user(self, user_id: int, statuses: Sequence[str] = ("active",)) -> list[GameRow]:
        marks = ",".join("?" for _ in statuses)
        cols = ", ".join(f"g.{c.strip()}" for c in _GAME_COLUMNS.split(","))
        return await self._many(
            f"SELECT DISTINCT {cols} FROM games g JOIN seats s ON s.game_id=g.id "
            f"WHERE s.user_id=? AND s.is_bot=0 AND g.status IN ({marks}) ORDER BY g.id",
            [user_id, *statuses])

    @_serialised
    async def update_game(self, game_id: int, **fields: Any) -> None:
        bad = set(fields) - _UPDATABLE
        if bad:
            raise StorageError(f"cannot update {sorted(bad)}")
        if not fields:
            return
        values = [(_dumps(v) if k in ("options", "result") and v is not None else v) for k, v in fields.items()]
        sets = ", ".join(f"{k}=?" for k in fields)
        await self._x(f"UPDATE games SET {sets} WHERE id=?", (*values, game_id))

    @_serialised
    async def set_seats(self, game_id: int, seats: Sequence[SeatRow]) -> None:
        async with self._transaction():
            await self._write_seats(game_id, seats)

    async def _write_seats(self, game_id: int, seats: Sequence[SeatRow]) -> None:
        await self._x("DELETE FROM seats WHERE game_id=?", (game_id,))
        await self.db.executemany(
            "INSERT INTO seats (game_id, seat, user_id, is_bot, name) VALUES (?,?,?,?,?)",
            [(game_id, s.seat, s.user_id, int(s.is_bot), s.name) for s in seats])

    async def _write_deadlines(self, game_id: int, deadlines: Iterable[DeadlineRow]) -> None:
        await self._x("DELETE FROM deadlines WHERE game_id=?", (game_id,))
        await self.db.executemany(
            "INSERT INTO deadlines (game_id, seat, kind, due_at, remind_at, reminded, opened) "
            "VALUES (?,?,?,?,?,?,?)",
            [(game_id, d.seat, d.kind, d.due_at, d.remind_at, int(d.reminded), d.opened)
             for d in deadlines])

    @_serialised
    async def start_game(self, game_id: int, *, seats: Sequence[SeatRow], state: dict[str, Any],
                         opened: Mapping[int, int], deadlines: Sequence[DeadlineRow],
                         now: float) -> None:
        async with self._transaction():
            cur = await self._x(
                "UPDATE games SET status='active', state=?, version=1, opened=?, updated_at=? "
                "WHERE id=? AND status='lobby'", (_dumps(state), _opened(opened), now, game_id))
            if cur.rowcount != 1:
                raise VersionConflict(f"game {game_id} is not a lobby any more")
            await self._write_seats(game_id, seats)
            await self._write_deadlines(game_id, deadlines)

    @_serialised
    async def commit_action(self, game_id: int, *, expected_version: int, seat: int,
                            action: dict[str, Any], origin: str, user_id: int | None,
                            state: dict[str, Any], events: Sequence[dict[str, Any]],
                            status: str, result: dict[str, Any] | None,
                            opened: Mapping[int, int], answered: Mapping[int, int],
                            deadlines: Sequence[DeadlineRow], now: float) -> int:
        new_version = expected_version + 1
        async with self._transaction():
            cur = await self._x(
                "UPDATE games SET state=?, version=?, status=?, result=?, opened=?, answered=?, "
                "updated_at=? WHERE id=? AND version=? AND status='active'",
                (_dumps(state), new_version, status, _dumps(result) if result else None,
                 _opened(opened), _opened(answered), now, game_id, expected_version))
            if cur.rowcount != 1:
                raise VersionConflict(f"game {game_id} is no longer at version {expected_version}")
            async with self.db.execute(
                "SELECT COALESCE(MAX(n), 0) FROM actions WHERE game_id=?", (game_id,)) as c:
                row = await c.fetchone()
            n = int(row[0]) + 1 if row else 1
            await self._x(
                "INSERT INTO actions (game_id, n, seat, action, origin, user_id, created_at) "
                "VALUES (?,?,?,?,?,?,?)", (game_id, n, seat, _dumps(action), origin, user_id, now))
            async with self.db.execute(
                "SELECT COALESCE(MAX(n), 0) FROM events WHERE game_id=?", (game_id,)) as c:
                row = await c.fetchone()
            en = int(row[0]) if row else 0
            await self.db.executemany(
                "INSERT INTO events (game_id, n, version, text, recipients, kind, data, created_at) "
                "VALUES (?,?,?,?,?,?,?,?)",
                [(game_id, en + i + 1, new_version, e["text"],
                  _dumps(e["to"]) if e.get("to") is not None else None, e.get("kind", "log"),
                  _dumps(e.get("data") or {}), now) for i, e in enumerate(events)])
            await self._write_deadlines(game_id, deadlines)
        return new_version

    @_serialised
    async def actions(self, game_id: int) -> list[tuple[int, dict[str, Any], str]]:
        async with self.db.execute(
            "SELECT seat, action, origin FROM actions WHERE game_id=? ORDER BY n", (game_id,)) as cur:
            return [(r[0], json.loads(r[1]), r[2]) async for r in cur]

    @_serialised
    async def events(self, game_id: int, *, viewer_seat: int | None, limit: int = 20) -> list[EventRow]:
        async with self.db.execute(
            "SELECT n, version, text, recipients, kind, data, created_at FROM events "
            "WHERE game_id=? ORDER BY n DESC", (game_id,)) as cur:
            out: list[EventRow] = []
            async for r in cur:
                to = _loads(r[3])
                if to is not None and (viewer_seat is None or viewer_seat not in to):
                    continue
                out.append(EventRow(r[0], r[1], r[2], to, r[4], _loads(r[5]) or {}, r[6]))
                if len(out) >= limit:
                    break
        return list(reversed(out))

    # -------------------------------------------------------------- deadlines

    @_serialised
    async def deadlines(self, game_id: int) -> list[DeadlineRow]:
        async with self.db.execute(
            f"SELECT {_DEADLINE_COLUMNS} FROM deadlines WHERE game_id=? "
            "ORDER BY seat, kind", (game_id,)) as cur:
            return [_deadline(r) async for r in cur]

    @_serialised
    async def next_deadline_time(self) -> float | None:
        async with self.db.execute(
            "SELECT MIN(CASE WHEN reminded=0 AND remind_at IS NOT NULL AND remind_at < due_at "
            "THEN remind_at ELSE due_at END) FROM deadlines") as cur:
            row = await cur.fetchone()
        return float(row[0]) if row and row[0] is not None else None

    @_serialised
    async def due_deadlines(self, now: float) -> list[DeadlineRow]:
        async with self.db.execute(
            f"SELECT {_DEADLINE_COLUMNS} FROM deadlines "
            "WHERE due_at <= ? OR (reminded=0 AND remind_at IS NOT NULL AND remind_at <= ?) "
            "ORDER BY due_at, game_id, seat", (now, now)) as cur:
            return [_deadline(r) async for r in cur]

    @_serialised
    async def mark_reminded(self, game_id: int, seat: int, kind: str) -> None:
        await self._x("UPDATE deadlines SET reminded=1 WHERE game_id=? AND seat=? AND kind=?",
                              (game_id, seat, kind))

    @_serialised
    async def clear_deadlines(self, game_id: int) -> None:
        await self._x("DELETE FROM deadlines WHERE game_id=?", (game_id,))

    @_serialised
    async def replace_deadlines(self, game_id: int, deadlines: Sequence[DeadlineRow]) -> None:
        async with self._transaction():
            await self._write_deadlines(game_id, deadlines)

    # ------------------------------------------------------- settings and DMs

    @_serialised
    async def guild_settings(self, guild_id: int) -> GuildSettings:
        async with self.db.execute(
            "SELECT default_deadline, reminder_lead, opener_role_id, channels FROM guild_settings "
            "WHERE guild_id=?", (guild_id,)) as cur:
            r = await cur.fetchone()
        if r is None:
            return GuildSettings(guild_id)
        return GuildSettings(guild_id, r[0], r[1], r[2], list(_loads(r[3]) or []))

    @_serialised
    async def save_guild_settings(self, s: GuildSettings) -> None:
        await self._x(
            "INSERT INTO guild_settings (guild_id, default_deadline, reminder_lead, opener_role_id, channels) "
            "VALUES (?,?,?,?,?) ON CONFLICT(guild_id) DO UPDATE SET default_deadline=excluded.default_deadline, "
            "reminder_lead=excluded.reminder_lead, opener_role_id=excluded.opener_role_id, "
            "channels=excluded.channels",
            (s.guild_id, s.default_deadline, s.reminder_lead, s.opener_role_id, _dumps(s.channels)))

    @_serialised
    async def set_dm_reachable(self, user_id: int, reachable: bool, now: float) -> None:
        await self._x(
            "INSERT INTO dm_status (user_id, reachable, checked_at) VALUES (?,?,?) "
            "ON CONFLICT(user_id) DO UPDATE SET reachable=excluded.reachable, checked_at=excluded.checked_at",
            (user_id, int(reachable), now))

    @_serialised
    async def dm_reachable(self, user_id: int) -> bool | None:
        async with self.db.execute("SELECT reachable FROM dm_status WHERE user_id=?", (user_id,)) as cur:
            r = await cur.fetchone()
        return None if r is None else bool(r[0])

    @_serialised
    async def note_dm_notice(self, game_id: int, user_id: int) -> bool:
        cur = await self._x(
            "INSERT OR IGNORE INTO dm_notices (game_id, user_id) VALUES (?,?)", (game_id, user_id))
        return cur.rowcount == 1
