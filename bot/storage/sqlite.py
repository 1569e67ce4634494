"""The SQLite backend of :class:`bot.storage.base.Storage`.

SQLite through aiosqlite (its public API only: each call is one trip to the connection's own
thread), WAL mode, the numbered migrations of :mod:`bot.storage.migrations` tracked in ``PRAGMA
user_version``; one connection whose statement groups are serialised by an asyncio lock. The
statements shared with PostgreSQL are in :mod:`bot.storage.sql`; this module keeps what is
SQLite's own: opening and its checks, the commit of a move (one statement, one call: see
``MOVE_SCRIPT``), claiming deadlines, and the rows of live games, their deadlines and the servers'
settings kept in memory as last read or written (write-through: every write goes to the file
first, nothing is ever written later), so a move re-reads nothing. ``open`` refuses a file that
must not become Herald's database (empty, foreign, newer, damaged, read-only) before writing to
it; in service, driver errors leave as :class:`StorageError` subclasses (busy, full, read-only,
damaged), and a failed commit is checked against what actually landed.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import os
import sqlite3
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping, Sequence
from types import TracebackType
from typing import Any

import aiosqlite

from ..turns import Turns
from .base import (
    DEADLINE_COLUMNS,
    DeadlineRow,
    GameRow,
    GuildSettings,
    SeatRow,
    StorageBusy,
    StorageCorrupt,
    StorageError,
    StorageFull,
    StorageOpenError,
    StorageReadOnly,
    StorageUnavailable,
    VersionConflict,
    event_values,
    seat_map_json,
    to_json,
    to_json_utf8,
)
from .dialect import SQLITE
from .migrations import scripts
from .migrations import tables as schema_tables
from .sql import _WAIT, LAST_EVENT, Executor, Landed, SqlStorage, boundary

log = logging.getLogger("herald.storage")


MIN_SQLITE = (3, 35)
"""The oldest SQLite library the shared statements run on (RETURNING came in 3.35)."""

USER_VERSION = "PRAGMA user_version"
"""The schema version of a SQLite database (0: not Herald's, or empty)."""
TABLE_NAMES = "SELECT name FROM sqlite_master WHERE type='table'"

MIGRATIONS: list[str] = scripts(SQLITE)
"""Each schema step as SQLite runs it (statements separated by ``;``)."""


# ------------------------------------------------------------------ a move in one statement

CONFLICT = "herald-version-conflict"
"""The message of the abort by which the move's statement says the game was not at the version
expected (nothing written)."""


def _item(i: int) -> str:
    return f"json_extract(value, '$[{i}]')"


_SAME_DEADLINE = ("deadlines.due_at IS excluded.due_at "
                  "AND deadlines.remind_at IS excluded.remind_at "
                  "AND deadlines.opened IS excluded.opened")
DEADLINES_SCRIPT = (
    "CREATE TEMP VIEW herald_deadlines AS SELECT NULL AS game_id, NULL AS deadlines;"
    "CREATE TEMP TRIGGER herald_deadlines_write INSTEAD OF INSERT ON herald_deadlines BEGIN "
    # two deadlines of one seat and kind: refused as the table's key refuses them
    "SELECT RAISE(ABORT, 'UNIQUE constraint failed: deadlines.game_id, deadlines.seat, "
    "deadlines.kind') WHERE EXISTS (SELECT 1 FROM json_each(NEW.deadlines) AS a, "
    "json_each(NEW.deadlines) AS b WHERE a.key < b.key "
    "AND json_extract(a.value, '$[0]') = json_extract(b.value, '$[0]') "
    "AND json_extract(a.value, '$[1]') = json_extract(b.value, '$[1]'));"
    "DELETE FROM deadlines WHERE game_id=NEW.game_id AND NOT EXISTS (SELECT 1 FROM "
    f"json_each(NEW.deadlines) WHERE {_item(0)}=deadlines.seat AND {_item(1)}=deadlines.kind);"
    "INSERT INTO deadlines (game_id, seat, kind, due_at, remind_at, reminded, opened) "
    f"SELECT NEW.game_id, {', '.join(_item(i) for i in range(6))} "
    "FROM json_each(NEW.deadlines) WHERE true "
    "ON CONFLICT (game_id, seat, kind) DO UPDATE SET due_at=excluded.due_at, "
    "remind_at=excluded.remind_at, opened=excluded.opened, "
    f"reminded=excluded.reminded OR (deadlines.reminded AND {_SAME_DEADLINE}), "
    "claimed_by=CASE WHEN deadlines.opened=excluded.opened THEN deadlines.claimed_by END, "
    "claimed_until=CASE WHEN deadlines.opened=excluded.opened THEN deadlines.claimed_until END "
    f"WHERE NOT ({_SAME_DEADLINE}) OR (excluded.reminded AND NOT deadlines.reminded); "
    "END;")
"""``INSERT INTO herald_deadlines VALUES (game, deadlines)`` replaces a game's deadlines (a JSON
array of :func:`_deadline_rows`), inside the caller's transaction. A row of the same seat and
kind is updated in place only when it changed, keeping its claim (``claimed_by``,
``claimed_until``) while it is the same prompt instance (another seat's move must not free a
deadline a process is about to handle), and the same deadline (instance, due time and reminder
time) its reminder once sent: carried over as the caller read it before the reminder went out,
it is not to be reminded of again. Rows of seats and kinds no longer open are deleted. (TEMP:
made by each connection as it opens, nothing stored in the file.)"""

MOVE_COLUMNS = ("game_id", "expected", "state", "result", "opened", "answered", "status", "now",
                "seat", "action", "origin", "user_id", "events", "last_event", "deadlines")
MOVE_SETS = {
    "herald_move": "",
    "herald_move_stamped": ", updated_at=NEW.now",
    "herald_move_ended": ", status=NEW.status, updated_at=NEW.now",
}
"""A move's view by what its update sets beyond the state, version, result and seat maps: SQLite
rewrites the entries of every index over a column an UPDATE sets, changed or not (the status and
the time of last activity are indexed for the listings), so a move that ends nothing keeps the
status, and one within ``ACTIVITY_STEP`` of the stored time keeps that time."""


def _move_script(view: str, sets: str) -> str:
    return (
        f"CREATE TEMP VIEW {view} AS SELECT "
        + ", ".join(f"NULL AS {c}" for c in MOVE_COLUMNS) + ";"
        f"CREATE TEMP TRIGGER {view}_write INSTEAD OF INSERT ON {view} BEGIN "
        "UPDATE games SET state=CAST(NEW.state AS TEXT), version=NEW.expected + 1, "
        f"result=NEW.result, opened=NEW.opened, answered=NEW.answered{sets} "
        "WHERE id=NEW.game_id AND version=NEW.expected AND status='active' AND paused_at IS NULL;"
        # (in a trigger, changes() counts the trigger's own last statement: the update)
        f"SELECT RAISE(ABORT, '{CONFLICT}') WHERE changes() = 0;"
        # numbered the version it made, less one (paired with its events after an undo too):
        # versions only go up, so the number is free — but for a game stored by an older Herald,
        # numbered otherwise, where the one after its last is taken (OR IGNORE skips only that
        # row: a row the next insert cannot store either fails there, as it would have here)
        "INSERT OR IGNORE INTO actions (game_id, n, seat, action, origin, user_id, created_at) "
        "VALUES (NEW.game_id, NEW.expected, NEW.seat, NEW.action, NEW.origin, NEW.user_id, "
        "NEW.now);"
        "INSERT INTO actions (game_id, n, seat, action, origin, user_id, created_at) "
        "SELECT NEW.game_id, MAX(m + 1, NEW.expected), NEW.seat, NEW.action, NEW.origin, "
        "NEW.user_id, NEW.now FROM (SELECT COALESCE(MAX(n), 0) AS m FROM actions "
        "WHERE game_id=NEW.game_id) WHERE changes() = 0;"
        # numbered on from the game's last event, as the caller knows it (a number taken
        # fails the whole statement: see ``commit_action``)
        "INSERT INTO events (game_id, n, version, text, recipients, kind, data, created_at) "
        f"SELECT NEW.game_id, NEW.last_event + key + 1, NEW.expected + 1, "
        f"{', '.join(_item(i) for i in range(4))}, NEW.now FROM json_each(NEW.events);"
        "INSERT INTO herald_deadlines SELECT NEW.game_id, NEW.deadlines "
        "WHERE NEW.deadlines IS NOT NULL;"
        "END;")


MOVE_SCRIPT = DEADLINES_SCRIPT + "".join(_move_script(v, sets) for v, sets in MOVE_SETS.items())
"""A move's whole write as one statement, ``INSERT INTO <view> VALUES (…)`` (its columns
``MOVE_COLUMNS``): in autocommit mode it is its own transaction, so a move is one call to the
connection's thread, atomic, through the driver's public API. Its trigger updates the game's row
only at the expected version, active and not paused (else it aborts with ``CONFLICT``: nothing
written), inserts the action and the events (a JSON array of :func:`event_values`, NULL for
none, numbered on after ``last_event``) and, when given (NULL: unchanged, not written), replaces
the deadlines."""
_EVENT_TAKEN = "UNIQUE constraint failed: events."
"""The start of the driver's message for an event number already taken."""
_MOVE_INSERT = {view: f"INSERT INTO {view} VALUES ({','.join('?' * len(MOVE_COLUMNS))})"
                for view in MOVE_SETS}


def _deadline_rows(deadlines: Iterable[DeadlineRow]) -> str:
    """A game's deadlines as the JSON ``herald_deadlines`` reads."""
    return json.dumps([[d.seat, d.kind, d.due_at, d.remind_at, bool(d.reminded), d.opened]
                       for d in deadlines])


ACTIVITY_STEP = 60.0
"""A game's time of last activity (``updated_at``) is kept to this many seconds: a move within
it of the stored time leaves that time (see ``commit_action``)."""

CACHED_GAMES = 4096
"""Live games (lobbies and running games) whose rows are kept in memory; beyond it the oldest
written are dropped (and read from the file again when next needed)."""
_LIVE = ("lobby", "active")


def _by_seat(deadlines: Iterable[DeadlineRow]) -> list[DeadlineRow]:
    return sorted(deadlines, key=lambda d: (d.seat, d.kind, d.opened))


def _copy_game(g: GameRow) -> GameRow:
    """A copy a caller may change without changing the cached row (the state, options and result
    dicts are shared: nobody changes those in place)."""
    return dataclasses.replace(g, seats=[SeatRow(s.seat, s.user_id, s.is_bot, s.name) for s in g.seats],
                               opened=dict(g.opened), answered=dict(g.answered))


class _Calls:
    """The executor of :mod:`bot.storage.sql` on SQLite: each statement through aiosqlite's
    public calls, inside the caller's turn; also its own session (nothing to open or close). A
    write outside a transaction may start a copy of the write-ahead log (``Checkpointer``)."""

    __slots__ = ("_s",)

    def __init__(self, storage: SqliteStorage) -> None:
        self._s = storage

    async def execute(self, sql: str, *params: Any) -> int:
        return await self._s._x(sql, params)

    async def rows(self, sql: str, *params: Any) -> list[Sequence[Any]]:
        return await self._s._rows(sql, params)

    async def value(self, sql: str, *params: Any) -> Any:
        rows = await self._s._rows(sql, params)
        return rows[0][0] if rows else None

    async def __aenter__(self) -> _Calls:
        return self

    async def __aexit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        return None


CHECKPOINT_ROWS = 1000
"""Rows written (``total_changes``) after which the write-ahead log is copied back: a couple of
hundred moves, a few megabytes of log."""
STARVED_ROWS = 4 * CHECKPOINT_ROWS
"""Rows written since the writer last finished a copy itself, past which it does again (see
``poke``)."""
LOG_LIMIT = 16 * 2**20
"""Bytes of write-ahead log past which a copy is finished with writes held back (see
``Checkpointer``); SQLite also trims the file back to this when it starts the log over."""


class Checkpointer:
    """Copies the write-ahead log back into the database file, in the background.

    SQLite does this itself at the commit that finds the log long enough, on the committing
    connection, and waits for the disk then (an fsync) — which, on the one connection every
    game's statements queue for, would hold up every game at once. So the storage turns that
    off (``wal_autocheckpoint=0``) and this copies instead: once ``CHECKPOINT_ROWS``
    rows were written since the last copy, one PASSIVE checkpoint on a connection of its own, on
    a worker thread (one at a time; no timer, so a quiet bot does nothing). PASSIVE never waits
    for a lock and never blocks a writer; what it could not copy (a reader still uses it) is
    copied the next time, and closing the storage copies the rest.

    The log starts over only once it was copied to its end before the next write — which moves
    written meanwhile prevent under a steady stream. So when the log has grown past
    ``LOG_LIMIT``, the copy is finished by ``finish`` (the storage's: on the writing connection,
    between two of its writes), which has little left to copy after the copy in the background.
    Nothing acknowledged depends on any of it: a committed transaction is in the log, which
    SQLite replays after a crash."""

    def __init__(self, path: str, watched: aiosqlite.Connection,
                 finish: Callable[[], Awaitable[None]]) -> None:
        self.path = path
        self._watched = watched
        self._finish = finish
        self._seen = watched.total_changes
        self._copied = self._seen
        """``total_changes`` when the writer last finished a copy itself."""
        self._conn: sqlite3.Connection | None = None
        self.copying = asyncio.Lock()
        """Held by a copy under way (two at once: the second would find SQLite's checkpoint lock
        taken and copy nothing); the writer's own copy takes it too."""
        self._task: asyncio.Task[None] | None = None
        self._closed = False
        self.done = 0
        """Checkpoints run (for the tests)."""

    def poke(self) -> bool:
        """After a write: start a copy if enough was written since the last one. True when the
        writer is to copy here and now, as SQLite itself would have (the caller does, on the
        writing connection, before its next write): ``STARVED_ROWS`` rows were written since it
        last did. A copy in the background leaves little for it, but only a copy to the log's
        end with no write between lets the next write start the log over, which moves back to
        back deny the copies in the background: so the log stays bounded whatever the load."""
        if self._closed:
            return False
        changes = self._watched.total_changes
        if changes - self._copied > STARVED_ROWS:
            self._copied = self._seen = changes
            self.done += 1
            return True
        if self._task is not None or changes - self._seen < CHECKPOINT_ROWS:
            return False
        self._seen = changes
        self._task = asyncio.get_running_loop().create_task(self._copy_now(), name="herald-checkpoint")
        return False

    async def _copy_now(self) -> None:
        try:
            await self.checkpoint()
            if os.path.getsize(self.path + "-wal") > LOG_LIMIT:
                changes = self._watched.total_changes
                await self._finish()
                self._copied = max(self._copied, changes)
        except (sqlite3.Error, StorageError, OSError) as exc:  # (the next one tries again)
            log.warning("copying the write-ahead log into %s failed: %s", self.path, _cause(exc))
            self._forget()
        finally:
            self._task = None

    async def checkpoint(self) -> tuple[int, int, int]:
        """One PASSIVE checkpoint: (busy, pages in the log, pages copied), as SQLite reports."""
        async with self.copying:
            row: tuple[int, int, int] = await asyncio.to_thread(self._copy)
        self.done += 1
        return row

    def _copy(self) -> tuple[int, int, int]:
        if self._conn is None:
            self._conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        # (every row read, so the statement ends and holds no read lock on the log)
        [(busy, log_pages, copied)] = self._conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        return int(busy), int(log_pages), int(copied)

    def _forget(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(sqlite3.Error):
                conn.close()

    async def close(self) -> None:
        """Wait for a copy under way (its connection is closed after it), then stop."""
        self._closed = True
        task = self._task
        if task is not None:
            with contextlib.suppress(Exception):
                await asyncio.shield(task)
        self._forget()


MAGIC = b"SQLite format 3\x00"
"""The first 16 bytes of every SQLite database file."""

# SQLite's result codes for the faults a database meets in service: primary codes, a file shorter
# than it claims (a truncated file), and the I/O errors of writing (plain: the driver's message)
_BUSY, _LOCKED, _NOMEM, _READONLY, _IOERR, _CORRUPT, _FULL, _CANTOPEN, _PROTOCOL, _NOTADB = (
    5, 6, 7, 8, 10, 11, 13, 14, 15, 26)
_IOERR_SHORT_READ = 522
_IOERR_WRITING = {_IOERR, 778, 1034, 1290, 1546, 4874}
"""Plain (from the message), and IOERR_WRITE, _FSYNC, _DIR_FSYNC, _TRUNCATE, _SHMSIZE."""
_BY_MESSAGE = (("database is locked", _BUSY), ("table is locked", _LOCKED),
               ("disk is full", _FULL), ("disk I/O error", _IOERR),
               ("readonly database", _READONLY), ("malformed", _CORRUPT),
               ("not a database", _NOTADB), ("unable to open", _CANTOPEN),
               ("out of memory", _NOMEM))
"""The driver's messages, for an error that carries no SQLite code (raised by a wrapper)."""


def _code(exc: sqlite3.Error) -> int | None:
    """SQLite's (extended) result code of a driver error."""
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(code, int):
        return code
    text = str(exc)
    return next((c for marker, c in _BY_MESSAGE if marker in text), None)


def _kind(exc: sqlite3.Error) -> type[StorageError] | None:
    """What a driver error means for Herald; None for a bug in Herald (SQL, a constraint), which
    is not translated: it reaches the one place unexpected failures are logged in full."""
    code = _code(exc)
    if code is None:
        return None
    primary = code & 0xFF
    if primary in (_BUSY, _LOCKED):
        return StorageBusy
    if primary in (_CORRUPT, _NOTADB) or code == _IOERR_SHORT_READ:
        return StorageCorrupt
    if primary == _FULL or code in _IOERR_WRITING:
        # ENOSPC is SQLITE_FULL; a write refused otherwise (EFBIG from a file-size limit, EDQUOT,
        # EIO) is a "disk I/O error" that SQLite cannot tell apart any further
        return StorageFull
    if primary == _READONLY:
        return StorageReadOnly
    if primary in (_IOERR, _NOMEM, _CANTOPEN, _PROTOCOL):
        return StorageUnavailable
    return None


def _cause(exc: BaseException) -> str:
    """The driver's own words, for the admin (never any SQL or parameters: they hold states)."""
    name = getattr(exc, "sqlite_errorname", None) or type(exc).__name__
    return f"{name}: {exc}"


_RESTORE = ("stop Herald, copy your latest backup over the file, delete the -wal and -shm files "
            "beside it, and start Herald again (see the README)")
"""How to recover from a damaged database, for the admin."""


_HERALD_TABLES = schema_tables(MIGRATIONS)
"""The tables the migrations leave behind."""


class SqliteStorage(SqlStorage):
    """SQLite backend (one file, WAL). One connection; calls are serialised by an asyncio lock."""

    dialect = SQLITE
    driver_errors = (sqlite3.Error,)
    transient_errors = (StorageUnavailable,)
    """What the storage raises is translated (locked, full, read-only: ``StorageUnavailable``;
    damaged: ``StorageCorrupt``, which does not pass). A raw driver error that escapes is a bug
    (bad SQL), not something to retry."""

    def __init__(self, path: str, *, busy_timeout: float = 5.0) -> None:
        self.path = path
        self.busy_timeout = busy_timeout
        """Seconds to wait for another process's write lock before ``StorageBusy``."""
        self._db: aiosqlite.Connection | None = None
        self._lock = Turns()
        """One statement group at a time on the shared connection (see ``bot.turns``)."""
        self._doing = "open"
        """The method in progress (under the lock), named when a failure is logged."""
        self._calls = _Calls(self)
        self._checkpoints: Checkpointer | None = None
        self._games: dict[int, GameRow] = {}
        """Live games as last read or written, oldest written first (see ``CACHED_GAMES``)."""
        self._deadlines: dict[int, list[DeadlineRow]] = {}
        self._last_events: dict[int, int] = {}
        """A live game's last event number, as this storage wrote it (read otherwise)."""
        self._guilds: dict[int, GuildSettings] = {}

    # ------------------------------------------------------------ turns and memory

    def _enter(self, doing: str) -> object:
        if not self._lock.take():  # (nearly always free: taken without a coroutine's cost)
            return _WAIT
        self._doing = doing
        return None

    async def _wait_turn(self, doing: str) -> object:
        await self._lock.acquire()
        self._doing = doing
        return None

    def _leave(self, token: object) -> None:
        self._lock.release()

    def forget(self, game_id: int | None = None) -> None:
        """Drop what is kept in memory of one game (or of everything): for whoever wrote the file
        behind this storage's back. Each write through this storage keeps it up to date itself."""
        if game_id is None:
            self._games.clear()
            self._deadlines.clear()
            self._last_events.clear()
            self._guilds.clear()
        else:
            self._games.pop(game_id, None)
            self._deadlines.pop(game_id, None)
            self._last_events.pop(game_id, None)

    def _keep(self, game: GameRow) -> None:
        """Remember a live game's row as it is in the file now (a finished one is forgotten)."""
        self._games.pop(game.id, None)
        if game.status not in _LIVE:
            return
        self._games[game.id] = game
        while len(self._games) > CACHED_GAMES:
            dropped = next(iter(self._games))
            del self._games[dropped]
            self._deadlines.pop(dropped, None)
            self._last_events.pop(dropped, None)

    def _remember_deadlines(self, game_id: int, deadlines: Iterable[DeadlineRow]) -> None:
        """Keep a live game's deadlines as just written (the oldest dropped beyond
        ``CACHED_GAMES``)."""
        self._deadlines.pop(game_id, None)
        self._deadlines[game_id] = list(deadlines)
        while len(self._deadlines) > CACHED_GAMES:
            del self._deadlines[next(iter(self._deadlines))]

    def _drop_game(self, game_id: int, *, deadlines: bool = False) -> GameRow | None:
        if deadlines:
            self._deadlines.pop(game_id, None)
            self._last_events.pop(game_id, None)
        return self._games.pop(game_id, None)

    def _drop_deadlines(self, game_id: int) -> None:
        self._deadlines.pop(game_id, None)

    def _game_updated(self, kept: GameRow, fields: Mapping[str, Any]) -> None:
        # stored: remember the row with the change (as a read would give it)
        self._keep(dataclasses.replace(kept, **{
            k: json.loads(to_json(v)) if k in ("options", "result") and v is not None else v
            for k, v in fields.items()}))

    def _deadlines_written(self, game_id: int, deadlines: Sequence[DeadlineRow]) -> None:
        self._remember_deadlines(game_id, deadlines)

    def _settings_dropped(self, guild_id: int) -> None:
        self._guilds.pop(guild_id, None)

    # ------------------------------------------------------------ running statements

    async def _finish_checkpoint(self) -> None:
        """Copy the rest of the write-ahead log on the writing connection itself, in the
        storage's turn, so that the next write starts the log over (little is left after the
        copy in the background)."""
        async with self._lock:
            checkpoints = self._checkpoints
            if checkpoints is not None and self._db is not None and not self._db.in_transaction:
                async with checkpoints.copying:
                    await self._db.execute_fetchall("PRAGMA wal_checkpoint(PASSIVE)")

    async def _wrote(self) -> None:
        """After a write outside a transaction (the caller holds the turn): the checkpointer's
        turn, and the writer's own copy when the copies in the background are starved."""
        checkpoints = self._checkpoints
        if checkpoints is not None and checkpoints.poke():
            async with checkpoints.copying:
                await self.db.execute_fetchall("PRAGMA wal_checkpoint(PASSIVE)")

    @property
    def db(self) -> aiosqlite.Connection:
        if self._db is None:
            raise StorageError("storage is not open")
        return self._db

    async def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """The rows of one statement (one call: the cursor is read whole and closed there)."""
        return list(await self.db.execute_fetchall(sql, params))

    async def _x(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Execute one statement and close its cursor (an open cursor blocks COMMIT); the
        number of rows it changed."""
        db = self.db
        async with db.execute(sql, params) as cur:
            changed = cur.rowcount
        if not db.in_transaction:
            await self._wrote()
        return changed

    def _session(self) -> _Calls:
        return self._calls

    # ------------------------------------------------------------ failures

    def _fault(self, exc: BaseException, *, stored: bool | None = False) -> StorageError | None:
        """The :class:`StorageError` for a driver error met in service, logged here once with its
        cause; None for a bug in Herald (see ``_kind``)."""
        kind = _kind(exc) if isinstance(exc, sqlite3.Error) else None
        if kind is None:
            return None
        where = f"the database {self.path}"
        text = {
            StorageBusy: f"{where} stayed locked by another process for more than "
                         f"{self.busy_timeout:g}s",
            StorageFull: f"could not write to {where}: the disk, a quota or a file-size limit is "
                         "full, or the disk is failing",
            StorageReadOnly: f"{where} is read-only; Herald needs to write to the file and its "
                             "folder",
            StorageCorrupt: f"{where} is damaged; {_RESTORE}",
            StorageUnavailable: f"{where} could not be used just now",
        }[kind]
        if stored is None:
            text += "; what was being committed may or may not be stored"
        err = kind(f"{text} ({_cause(exc)}).", stored=stored)
        log.log(logging.WARNING if kind is StorageBusy else logging.ERROR,
                "%s failed: %s", self._doing, err)
        return err

    async def _rollback(self, why: str) -> None:
        """Undo the open transaction, if there still is one: after a full disk or an I/O error
        SQLite may have rolled it back itself. A failing rollback never hides its cause
        (``why``)."""
        try:
            if self.db.in_transaction:
                await self.db.rollback()
        except sqlite3.Error as err:
            log.warning("%s: rolling back after %s failed too (%s)", self._doing, why, _cause(err))

    async def _commit(self, sql: str, params: Sequence[Any]) -> None:
        """A move's one statement, which is its own transaction and commits as it ends (a
        method of its own, so that the fault tests can make it fail)."""
        await self.db.execute_fetchall(sql, params)

    @contextlib.asynccontextmanager
    async def _tx(self, landed: Landed | None = None) -> AsyncIterator[Executor]:
        """BEGIN IMMEDIATE … COMMIT, or ROLLBACK on any error (callers hold the lock).

        Should COMMIT itself fail, see ``_commit_failed``. (A move's commit takes the shorter
        way: one statement, ``MOVE_SCRIPT``.)"""
        if self.db.in_transaction:  # left over by a rollback that failed
            await self._rollback("an earlier failure")
        await self._x("BEGIN IMMEDIATE")
        try:
            yield self._calls
        except BaseException as exc:
            await self._rollback(_cause(exc))
            raise
        try:
            await self.db.commit()
        except sqlite3.Error as exc:
            await self._commit_failed(exc, landed)
        await self._wrote()

    async def _commit_failed(self, exc: sqlite3.Error,
                             landed: Landed | None) -> None:
        """After COMMIT reported ``exc``: the transaction may have been rolled back by SQLite, or
        be stored all the same, and ``landed`` asks the database which. Stored, the commit stands
        (a warning is logged, and this returns); not stored, or never asked, the error raised says
        nothing was stored; if the database cannot even be asked, it says the outcome is
        unknown."""
        if self.db.in_transaction:  # the commit did not happen: undo the whole transaction
            await self._rollback(_cause(exc))
            raise exc
        stored: bool | None = False
        if landed is not None:
            try:
                stored = await landed(self._calls)
            except sqlite3.Error:
                stored = None
        if stored:
            log.warning("%s: COMMIT reported an error (%s), but the change is stored",
                        self._doing, _cause(exc))
            return
        fault = self._fault(exc, stored=stored)
        if fault is None:
            raise exc
        raise fault from exc


    # ------------------------------------------------------------ opening

    async def open(self) -> None:
        """Open the database, creating it if there is no file yet.

        Refuses (``StorageOpenError``, one sentence for the admin) a file that is empty, not an
        SQLite database, another program's database, from a newer Herald, damaged (``PRAGMA
        quick_check``) or read-only — before writing anything to it. A failed open closes its
        connection (a live one keeps the process from exiting) and removes a file it created."""
        self._doing = "open"
        if sqlite3.sqlite_version_info < MIN_SQLITE:
            raise StorageOpenError(
                f"Herald needs SQLite {'.'.join(map(str, MIN_SQLITE))} or newer (RETURNING, "
                f"upserts, FILTER); this Python's is {sqlite3.sqlite_version}: run Herald with a "
                "newer Python or system library, or on PostgreSQL.")
        created = self._inspect_file()
        try:
            self._db = await self._connect()
            if not created:
                await self._check_intact()
                await self._check_herald()
                await self._check_writable()
            await self._x("PRAGMA journal_mode=WAL")
            await self._x("PRAGMA foreign_keys=ON")
            await self._x("PRAGMA synchronous=NORMAL")
            await self.migrate()
            await self._check_tables()
            if not created:
                await self._note_orphans()
            await self._x("PRAGMA wal_autocheckpoint=0")  # (``Checkpointer`` copies instead)
            await self._x(f"PRAGMA journal_size_limit={LOG_LIMIT}")
            await self.db.executescript(MOVE_SCRIPT)
            self._checkpoints = Checkpointer(self.path, self.db, self._finish_checkpoint)
        except BaseException as exc:
            await self._abandon(created)
            translatable = isinstance(exc, sqlite3.Error | StorageError)
            if isinstance(exc, StorageOpenError) or not translatable:
                raise
            raise self._refusal(exc) from exc
        if created:
            log.info("created a new database at %s", self.path)

    async def _connect(self) -> aiosqlite.Connection:
        threads = threading.active_count()
        try:
            return await aiosqlite.connect(self.path, isolation_level=None,
                                           timeout=self.busy_timeout)
        except BaseException:
            # aiosqlite stops its thread after a failed connect but does not wait for it; should
            # the event loop close first, the thread dies with a traceback on stderr
            for _ in range(1000):
                if threading.active_count() <= threads:
                    break
                await asyncio.sleep(0.001)
            raise

    def _inspect_file(self) -> bool:
        """Refuse a file that must not become a Herald database; True if there is none yet."""
        path = self.path
        try:
            size = os.path.getsize(path)
        except FileNotFoundError:
            folder = os.path.dirname(os.path.abspath(path))
            if not os.path.isdir(folder) or not os.access(folder, os.W_OK | os.X_OK):
                raise StorageOpenError(
                    f"cannot create the database {path}: its folder {folder} does not exist or "
                    "Herald may not write there.") from None
            return True
        except OSError as exc:
            raise self._refusal(exc) from exc
        try:
            wal = os.path.getsize(path + "-wal")
        except OSError:
            wal = 0
        if size == 0 and wal == 0:
            raise StorageOpenError(
                f"the database file {path} is empty (0 bytes), so it holds no games and Herald "
                "will not silently start a new database in its place: delete the empty file to "
                "start afresh, or copy your latest backup over it.")
        if size > 0:
            try:
                with open(path, "rb") as f:
                    head = f.read(len(MAGIC))
            except OSError as exc:
                raise self._refusal(exc) from exc
            if head != MAGIC:
                raise StorageOpenError(
                    f"{path} is not an SQLite database (it lacks the SQLite header), so it is not "
                    "Herald's: point HERALD_DB at Herald's database file, or move this file away "
                    "to start a new database.")
        if not os.access(path, os.R_OK | os.W_OK):
            raise StorageOpenError(f"the database {path} is read-only for Herald, which needs to "
                                   "read and write it (and its folder): fix the permissions.")
        return False

    async def _check_intact(self) -> None:
        """``PRAGMA quick_check``: every page of every table readable and well formed (it skips
        what ``integrity_check`` adds: index contents). It reads the whole file once — about half
        a second for 50 MB from a cold disk, a tenth from the cache."""
        rows = [str(r[0]) for r in await self._rows("PRAGMA quick_check(3)")]
        if rows != ["ok"]:
            first = rows[0].replace("*** in database main ***", "").strip().splitlines()[0]
            raise StorageOpenError(self._damaged(first[:120]))

    async def _check_herald(self) -> None:
        """Refuse, before writing to it, a database from a newer Herald or of another program."""
        version = await self.schema_version()
        if version > len(MIGRATIONS):
            raise self._newer(version)
        if version == 0:
            tables = [str(r[0]) for r in await self._rows(
                "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite%' "
                "ORDER BY name")]
            if tables:
                shown = ", ".join(tables[:5]) + (", …" if len(tables) > 5 else "")
                raise StorageOpenError(
                    f"{self.path} is another program's SQLite database (tables {shown}; Herald "
                    "never made it): point HERALD_DB at Herald's database file, or move this "
                    "file away to start a new database.")

    async def _check_writable(self) -> None:
        """SQLite opens a file it may not write without a word and fails at the first write: a
        write that is rolled back finds out now instead of at the first move."""
        version = await self.schema_version()
        await self._x("BEGIN IMMEDIATE")
        try:
            await self._x(f"PRAGMA user_version = {version}")
        finally:
            await self._rollback("the write check")

    async def _check_tables(self) -> None:
        names = {str(r[0]) for r in await self._rows(TABLE_NAMES)}
        missing = sorted(_HERALD_TABLES - names)
        if missing:
            raise StorageOpenError(
                f"the database {self.path} lacks Herald's table(s) {', '.join(missing)}, so it "
                f"was damaged or edited by hand; {_RESTORE}.")

    async def _note_orphans(self) -> None:
        """Rows that name a game that is not there (possible only if the file was edited with
        foreign keys off): every read is by game, so Herald never sees them — a warning, not a
        refusal. Cheap next to ``quick_check`` (a few hundredths of a second for 50 MB)."""
        tables = [str(r[0]) for r in await self._rows("PRAGMA foreign_key_check")]
        if tables:
            log.warning("the database %s has %d row(s) that refer to missing games (in %s); "
                        "Herald ignores them", self.path, len(tables),
                        ", ".join(sorted(set(tables))))

    def _newer(self, version: int) -> StorageOpenError:
        return StorageOpenError(
            f"the database {self.path} was written by a newer Herald (schema {version}; this one "
            f"knows up to {len(MIGRATIONS)}): run that newer Herald, or copy over it a backup "
            "made with this version.")

    def _damaged(self, detail: str) -> str:
        return f"the database {self.path} is damaged ({detail}); {_RESTORE}."

    def _refusal(self, exc: BaseException) -> StorageOpenError:
        """One sentence for the admin about why the database could not be opened."""
        kind = _kind(exc) if isinstance(exc, sqlite3.Error) else None
        where = f"the database {self.path}"
        if kind is StorageCorrupt:
            text = f"{where} is damaged; {_RESTORE}"
        elif kind is StorageBusy:
            text = (f"{where} is locked by another program (another Herald on the same file?): "
                    "stop it and start Herald again")
        elif kind is StorageReadOnly:
            text = f"{where} is read-only for Herald, which needs to write the file and its folder"
        elif kind is StorageFull:
            text = (f"could not write to {where}: the disk, a quota or a file-size limit is full, "
                    "or the disk is failing; free some space and start Herald again")
        elif isinstance(exc, OSError) or kind is StorageUnavailable:
            text = (f"cannot open {where}: check that its folder exists and that Herald may read "
                    "and write there")
        else:
            text = f"{where} could not be prepared, so it was damaged or edited by hand; {_RESTORE}"
        return StorageOpenError(f"{text} ({_cause(exc)}).")

    async def _abandon(self, created: bool) -> None:
        """After a failed open: close the connection, and remove the file if this open created
        it and nothing could be written to it (an empty file would be refused next time)."""
        with contextlib.suppress(Exception):
            await self.close()
        if created:
            with contextlib.suppress(OSError):
                if os.path.getsize(self.path) == 0:
                    os.remove(self.path)

    async def close(self) -> None:
        self.forget()
        checkpoints, self._checkpoints = self._checkpoints, None
        if checkpoints is not None:
            await checkpoints.close()
        db, self._db = self._db, None
        if db is not None:
            await db.close()  # (stops the connection's thread even when closing fails)

    async def schema_version(self) -> int:
        rows = await self._rows(USER_VERSION)
        return int(rows[0][0]) if rows else 0

    async def migrate(self) -> int:
        current = await self.schema_version()
        if current > len(MIGRATIONS):
            raise self._newer(current)
        for number in range(current + 1, len(MIGRATIONS) + 1):
            script = MIGRATIONS[number - 1]
            await self._x("BEGIN")
            try:
                for stmt in (s.strip() for s in script.split(";")):
                    if stmt:
                        await self._x(stmt)
                await self._x(f"PRAGMA user_version = {number}")
                await self._x("COMMIT")
            except BaseException as exc:
                await self._rollback(_cause(exc))
                raise
            log.info("database migrated to schema %d", number)
        return len(MIGRATIONS)


    # ------------------------------------------------------------------ games

    async def get_game(self, game_id: int) -> GameRow | None:
        # a remembered game is read without waiting for the lock (nothing to hand off): every
        # write forgets or replaces the row while it holds the lock, so this is the file's row
        kept = self._games.get(game_id)
        if kept is not None:
            return _copy_game(kept)
        return await self._load_game(game_id)

    @boundary
    async def _load_game(self, game_id: int) -> GameRow | None:
        kept = self._games.get(game_id)  # (remembered by a read that held the lock before this)
        if kept is not None:
            return _copy_game(kept)
        game = await self._read_game(self._calls, game_id)
        if game is not None:
            self._keep(_copy_game(game))
        return game

    async def deadlines(self, game_id: int) -> list[DeadlineRow]:
        kept = self._deadlines.get(game_id)  # (as for ``get_game``: no lock to wait for)
        if kept is not None:
            return [dataclasses.replace(d) for d in sorted(kept, key=lambda d: (d.seat, d.kind))]
        return await self._load_deadlines(game_id)

    @boundary
    async def _load_deadlines(self, game_id: int) -> list[DeadlineRow]:
        kept = self._deadlines.get(game_id)
        if kept is None:
            kept = await self._read_deadlines(self._calls, game_id)
            if game_id in self._games:  # only a live game's deadlines are worth keeping
                self._deadlines[game_id] = kept
        return [dataclasses.replace(d) for d in sorted(kept, key=lambda d: (d.seat, d.kind))]

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        kept = self._guilds.get(guild_id)  # (as for ``get_game``: no lock to wait for)
        if kept is not None:
            return dataclasses.replace(kept, channels=list(kept.channels))
        return await self._load_guild_settings(guild_id)

    @boundary
    async def _load_guild_settings(self, guild_id: int) -> GuildSettings:
        kept = self._guilds.get(guild_id)
        if kept is None:
            kept = self._guilds[guild_id] = await self._read_guild_settings(guild_id)
        return dataclasses.replace(kept, channels=list(kept.channels))

    async def _write_deadlines(self, x: Executor, game_id: int,
                               deadlines: Sequence[DeadlineRow]) -> None:
        """Replace a game's deadlines (inside the caller's transaction): ``DEADLINES_SCRIPT``."""
        self._deadlines.pop(game_id, None)
        await x.execute("INSERT INTO herald_deadlines VALUES (?, ?)", game_id,
                        _deadline_rows(deadlines))

    @boundary
    async def commit_action(self, game_id: int, *, expected_version: int, seat: int,
                            action: dict[str, Any], origin: str, user_id: int | None,
                            state: dict[str, Any], events: Sequence[dict[str, Any]],
                            status: str, result: dict[str, Any] | None,
                            opened: Mapping[int, int], answered: Mapping[int, int],
                            deadlines: Sequence[DeadlineRow], now: float) -> int:
        new_version = expected_version + 1
        action_text = to_json(action)

        async def landed(x: Executor) -> bool:
            """After a failed commit: is this very action stored (the version it made, its row,
            numbered the version it made less one, or the last for a game numbered otherwise)?"""
            rows = await x.rows(
                "SELECT g.version, a.seat FROM games g LEFT JOIN actions a ON a.game_id=g.id "
                "AND a.n IN (?, (SELECT MAX(n) FROM actions WHERE game_id=?)) AND a.action=? "
                "AND a.created_at=? WHERE g.id=?",
                expected_version, game_id, action_text, now, game_id)
            return any(tuple(r) == (new_version, seat) for r in rows)

        kept = self._games.pop(game_id, None)
        # deadlines as the file holds them, when this process knows: unchanged (a computer
        # player's move while a member's clock runs on), they are not written again
        stored = self._deadlines.pop(game_id, None)
        last_event = self._last_events.pop(game_id, None)
        same = stored is not None and (stored == deadlines
                                       or _by_seat(stored) == _by_seat(deadlines))
        current = kept is not None and kept.version == expected_version
        stamp = now
        if status != "active":
            view = "herald_move_ended"  # (the end is stamped exactly)
        elif current and 0 <= now - kept.updated_at < ACTIVITY_STEP:  # type: ignore[union-attr]
            view, stamp = "herald_move", kept.updated_at  # type: ignore[union-attr]
        else:
            view = "herald_move_stamped"
        params = [game_id, expected_version,
                  to_json_utf8(state),  # (bound as UTF-8 bytes, stored as text: CAST)
                  to_json(result) if result else None, seat_map_json(opened),
                  seat_map_json(answered), status, now, seat, action_text, origin, user_id,
                  to_json([event_values(e) for e in events]) if events else None, last_event,
                  None if same else _deadline_rows(deadlines)]
        if self.db.in_transaction:  # left over by a rollback that failed
            await self._rollback("an earlier failure")
        known = last_event is not None
        while True:
            if events and last_event is None:
                last_event = params[13] = await self._last_event(game_id)
            try:
                # one statement, its own transaction: one call to the connection's thread
                await self._commit(_MOVE_INSERT[view], params)
                break
            except sqlite3.IntegrityError as exc:
                if str(exc) == CONFLICT:
                    raise VersionConflict(
                        f"game {game_id} is no longer at version {expected_version}") from None
                if not (known and str(exc).startswith(_EVENT_TAKEN)):
                    raise
                # an event number taken behind this storage's back (nothing was written): the
                # events go after the last one read again
                known, last_event = False, None
            except sqlite3.Error as exc:
                if _kind(exc) is None:
                    raise  # (a bug in Herald: the statement, undone whole, stored nothing)
                await self._commit_failed(exc, landed)  # (returns when it is stored all the same)
                break
        await self._wrote()
        if current:
            # write-through: the row as it is in the file now, without reading it back (the
            # state and result are plain JSON, as a read would give them); the remembered row is
            # this storage's own (reads get copies), so it is updated as is
            row: GameRow = kept  # type: ignore[assignment]
            row.state, row.version, row.status, row.result = state, new_version, status, result or None
            row.opened = {int(k): int(v) for k, v in opened.items()}
            row.answered = {int(k): int(v) for k, v in answered.items()}
            row.updated_at = stamp
            self._keep(row)
        if status in _LIVE:
            self._remember_deadlines(game_id, deadlines)
            if last_event is not None:
                self._last_events[game_id] = last_event + len(events)
                while len(self._last_events) > CACHED_GAMES:
                    del self._last_events[next(iter(self._last_events))]
        return new_version

    async def _last_event(self, game_id: int) -> int:
        return int((await self._rows(LAST_EVENT, (game_id,)))[0][0])

    _CLAIM = ("UPDATE deadlines SET claimed_by=?, claimed_until=? WHERE rowid IN ({claimable}) "
              f"RETURNING {DEADLINE_COLUMNS}")
    """One statement is one write transaction: SQLite's write lock makes it the only writer of
    the file while it picks and marks the rows, whichever process runs it."""
    _CLAIM_KEY = "rowid"
