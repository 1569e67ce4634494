"""The SQLite backend of :class:`bot.storage.sql.Storage`: the standard library's ``sqlite3``, WAL
mode, the migrations tracked in ``PRAGMA user_version``, one connection whose statement groups an
asyncio lock serialises. Beside the shared statements (:mod:`bot.storage.sql`), this module keeps
what is SQLite's own: opening and its checks (a file that must not become Herald's database is
refused before anything is written to it), the commit of a move (statements and COMMIT in one
call, checked against what landed should COMMIT fail), claiming deadlines, and the rows of live
games and their deadlines as last read or written (write-through: every write goes to the file
first), so a move re-reads nothing. Where statements run: ``SqliteStorage._run``.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import json
import logging
import os
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from ..turns import Turns
from .base import (
    DEADLINE_COLUMNS,
    DeadlineRow,
    GameRow,
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
from .sql import LAST_EVENT, Executor, Landed, Storage, boundary, doing, event_inserts, remember

log = logging.getLogger("herald.storage")

MIN_SQLITE = (3, 35)
"""The oldest SQLite library the shared statements run on (RETURNING came in 3.35)."""

USER_VERSION = "PRAGMA user_version"
"""The schema version of a SQLite database (0: not Herald's, or empty)."""
TABLE_NAMES = "SELECT name FROM sqlite_master WHERE type='table'"

MIGRATIONS: list[str] = scripts(SQLITE)
"""Each schema step as SQLite runs it (statements separated by ``;``)."""

_T = TypeVar("_T")

_Statements = sqlite3.Connection | sqlite3.Cursor
"""Where statements run: the connection, or one cursor for a whole transaction."""


def _append_events(conn: _Statements, game_id: int, version: int,
                   rows: Sequence[tuple[str, str | None, str, str]], now: float,
                   last: int | None = None) -> int:
    """Append the events (as :func:`event_values` encodes them), made by ``version``, after the
    game's last event, ``last`` if the caller knows it (read otherwise), inside the caller's
    transaction; the number of the last one. A known ``last`` found taken is read again."""
    known = last is not None
    if last is None:
        last = _last_event(conn, game_id)
    if not rows:
        return last
    inserts = event_inserts(game_id, version, rows, now, last)
    try:
        conn.execute(*next(inserts))
    except sqlite3.IntegrityError:
        if not known:
            raise
        last = _last_event(conn, game_id)
        inserts = event_inserts(game_id, version, rows, now, last)
        conn.execute(*next(inserts))
    for sql, params in inserts:
        conn.execute(sql, params)
    return last + len(rows)


def _last_event(conn: _Statements, game_id: int) -> int:
    [(last,)] = conn.execute(LAST_EVENT, (game_id,)).fetchall()
    return int(last)


ACTIVITY_STEP = 60.0
"""A move within this many seconds of a game's stored ``updated_at`` leaves that time as it is."""

CACHED_GAMES = 4096
"""Live games whose rows are kept in memory; beyond it the oldest written are dropped."""
_LIVE = ("lobby", "active")

_INSERT_ACTION = ("INSERT INTO actions (game_id, n, seat, action, origin, user_id, created_at, "
                  "prompt_kind, secret) VALUES (?,?,?,?,?,?,?,?,?)")
"""A move's action, numbered the version it made, less one."""
_INSERT_ACTION_AFTER = (
    "INSERT INTO actions (game_id, n, seat, action, origin, user_id, created_at, prompt_kind, "
    "secret) SELECT ?, MAX(COALESCE(MAX(n), 0) + 1, ?), ?, ?, ?, ?, ?, ?, ? FROM actions "
    "WHERE game_id=? RETURNING n")
"""The same, numbered after the game's last action (a game stored by an older Herald)."""


def _by_seat(deadlines: Iterable[DeadlineRow]) -> list[DeadlineRow]:
    return sorted(deadlines, key=lambda d: (d.seat, d.kind, d.opened))


def _copies(deadlines: Iterable[DeadlineRow]) -> list[DeadlineRow]:
    """Copies of remembered deadlines a caller may change, by seat and kind (as read)."""
    return [dataclasses.replace(d) for d in sorted(deadlines, key=lambda d: (d.seat, d.kind))]


def _copy_game(g: GameRow) -> GameRow:
    """A copy a caller may change without changing the cached row (the state, options and result
    dicts are shared: nobody changes those in place)."""
    return dataclasses.replace(g, seats=[SeatRow(s.seat, s.user_id, s.is_bot, s.name) for s in g.seats],
                               opened=dict(g.opened), answered=dict(g.answered))


class _CommitFailed(Exception):
    """COMMIT raised ``error`` (in ``SqliteStorage._write``); ``done``: what the statements gave."""

    def __init__(self, error: sqlite3.Error, done: Any) -> None:
        super().__init__(error)
        self.error = error
        self.done = done


class SqliteConnection:
    """A ``sqlite3`` connection (``raw``: a caller holding the storage's turn may use it
    directly) and the one thread of Herald's own that runs what may take long on it."""

    def __init__(self, raw: sqlite3.Connection, worker: ThreadPoolExecutor) -> None:
        self.raw = raw
        self._worker = worker

    @classmethod
    async def connect(cls, path: str, *, timeout: float) -> SqliteConnection:
        worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="herald-sqlite")
        try:
            raw = await asyncio.get_running_loop().run_in_executor(worker, functools.partial(
                sqlite3.connect, path, isolation_level=None, timeout=timeout,
                check_same_thread=False))  # (used from the loop's thread too, never at once)
        except BaseException:
            worker.shutdown(wait=False)
            raise
        return cls(raw, worker)

    async def on_thread(self, fn: Callable[[sqlite3.Connection], _T]) -> _T:
        """``fn(raw)`` on the connection's thread."""
        return await asyncio.get_running_loop().run_in_executor(self._worker, fn, self.raw)

    async def close(self) -> None:
        try:
            await self.on_thread(lambda conn: conn.close())
        finally:
            self._worker.shutdown(wait=False)


def _execute(conn: sqlite3.Connection, sql: str, params: Sequence[Any]) -> int:
    """Run one statement and close its cursor (an open one blocks COMMIT); the rows changed."""
    cur = conn.execute(sql, params)
    cur.close()  # (its rowcount stays readable)
    return cur.rowcount


class _Inline(Executor):
    """The executor of :mod:`bot.storage.sql` on SQLite, and its own session (nothing to open or
    close): statements run through ``run``, the storage's ``_run`` (inline, inside the caller's
    turn) or, after a failed COMMIT, the connection's ``on_thread``."""

    __slots__ = ("_run",)

    def __init__(self, run: Callable[[Callable[[sqlite3.Connection], Any]], Awaitable[Any]]
                 ) -> None:
        self._run = run

    async def execute(self, sql: str, *params: Any) -> int:
        return int(await self._run(lambda conn: _execute(conn, sql, params)))

    async def rows(self, sql: str, *params: Any) -> list[Sequence[Any]]:
        rows: list[Sequence[Any]] = await self._run(lambda conn: conn.execute(sql, params).fetchall())
        return rows

    async def __aenter__(self) -> _Inline:
        return self

    async def __aexit__(self, *exc: object) -> None:
        return None


CHECKPOINT_ROWS = 1000
"""Rows written (``total_changes``) between copies of the log: a couple of hundred moves, a few
megabytes of log."""
STARVED_ROWS = 4 * CHECKPOINT_ROWS
"""Rows written with no copy finished, past which the writer copies itself (see ``poke``)."""
LOG_LIMIT = 16 * 2**20
"""Bytes of log past which a copy is finished on the writing connection (``_copy_here``); SQLite
also trims the file back to this when it starts the log over."""


class Checkpointer:
    """Copies the write-ahead log back into the database file, in the background: SQLite's own
    copy, at a commit on the committing connection, waits for the disk (an fsync) and on the event
    loop's thread (``SqliteStorage._run``) would hold up every game, so it is off.

    Every ``CHECKPOINT_ROWS`` rows written, one PASSIVE checkpoint runs on a connection and worker
    thread of its own (one at a time; no timer): it never waits for a lock nor blocks a writer,
    and what a reader still uses is copied the next time (closing copies the rest). The log starts
    over only once copied to its end before the next write, which a steady stream of moves
    prevents: past ``LOG_LIMIT`` the copy is finished on the writing connection (``_copy_here``),
    little being left by then. A committed transaction is in the log, which SQLite replays after
    a crash: nothing acknowledged depends on any of this."""

    def __init__(self, path: str, watched: sqlite3.Connection) -> None:
        self.path = path
        self._watched = watched
        self._seen = watched.total_changes
        self._copied = self._seen  # (when the last copy that finished began)
        self._conn: sqlite3.Connection | None = None
        self._task: asyncio.Task[None] | None = None
        self._closed = False
        self.done = 0  # (checkpoints run, for the tests)

    def poke(self) -> None:
        """After a write: start a copy if enough was written since the last one. Should the loop
        never have let the copy run while ``STARVED_ROWS`` rows were written (moves back to back),
        copy here and now, as SQLite would have: the log stays bounded whatever the load."""
        if self._closed:
            return
        changes = self._watched.total_changes
        if changes - self._copied > STARVED_ROWS:
            self._copy_here()
            self._copied = self._seen = changes
            self.done += 1
            return
        if self._task is not None or changes - self._seen < CHECKPOINT_ROWS:
            return
        self._seen = changes
        self._task = asyncio.get_running_loop().create_task(self._copy_now(), name="herald-checkpoint")

    async def _copy_now(self) -> None:
        began = self._seen
        try:
            await asyncio.to_thread(self._copy)
            self.done += 1
            self._copied = max(self._copied, began)
            if os.path.getsize(self.path + "-wal") > LOG_LIMIT and not self._closed:
                self._copy_here()
        except (sqlite3.Error, StorageError, OSError) as exc:  # (the next one tries again)
            log.warning("copying the write-ahead log into %s failed: %s", self.path, _cause(exc))
            self._forget()
        finally:
            self._task = None

    def _copy_here(self) -> None:
        """Copy inline on the writing connection, so that no write comes between and the next one
        starts the log over (a trip to a thread, holding the lock, made every move wait)."""
        if not self._watched.in_transaction:
            self._watched.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()

    def _copy(self) -> None:
        """One PASSIVE checkpoint on a connection of its own (on a worker thread)."""
        if self._conn is None:
            self._conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        # (every row read, so the statement ends and holds no read lock on the log)
        self._conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()

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

# SQLite's (primary) result codes of the faults a database meets in service
_BUSY, _LOCKED, _NOMEM, _READONLY, _IOERR, _CORRUPT, _FULL, _CANTOPEN, _PROTOCOL, _NOTADB = (
    5, 6, 7, 8, 10, 11, 13, 14, 15, 26)
_IOERR_SHORT_READ = 522  # (a file shorter than it claims: truncated)
_IOERR_WRITING = {_IOERR, 778, 1034, 1290, 1546, 4874}
"""Plain (from the message), and IOERR_WRITE, _FSYNC, _DIR_FSYNC, _TRUNCATE, _SHMSIZE."""
_BY_MESSAGE = (
    ("database is locked", _BUSY), ("table is locked", _LOCKED), ("disk is full", _FULL),
    ("disk I/O error", _IOERR), ("readonly database", _READONLY), ("malformed", _CORRUPT),
    ("not a database", _NOTADB), ("unable to open", _CANTOPEN), ("out of memory", _NOMEM))
"""The driver's messages, for an error that carries no SQLite code (raised by a wrapper)."""


def _code(exc: sqlite3.Error) -> int | None:
    """SQLite's (extended) result code of a driver error."""
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(code, int):
        return code
    text = str(exc)
    return next((c for marker, c in _BY_MESSAGE if marker in text), None)


def _kind(exc: BaseException) -> type[StorageError] | None:
    """What a driver error means for Herald (see ``Storage._kind``)."""
    code = _code(exc) if isinstance(exc, sqlite3.Error) else None
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
    """The driver's own words, for the admin (see ``Storage._cause``)."""
    name = getattr(exc, "sqlite_errorname", None) or type(exc).__name__
    return f"{name}: {exc}"


_RESTORE = ("stop Herald, copy your latest backup over the file, delete the -wal and -shm files "
            "beside it, and start Herald again (see the README)")
"""How to recover from a damaged database, for the admin."""
_ELSEWHERE = ("point HERALD_DB at Herald's database file, or move this file away to start a new "
              "database")


class SqliteStorage(Storage):
    """SQLite backend (one file, WAL). One connection; calls are serialised by an asyncio lock."""

    dialect = SQLITE
    migrations = MIGRATIONS
    _TABLE_NAMES = TABLE_NAMES
    _RECOVER = _RESTORE
    _OLDER_BACKUP = "copy over it a backup made with this version"
    driver_errors = (sqlite3.Error,)

    def __init__(self, path: str, *, busy_timeout: float = 5.0) -> None:
        super().__init__()
        self.path = self.where = path
        self.busy_timeout = busy_timeout
        self._db: SqliteConnection | None = None
        self._lock = Turns()  # (one statement group at a time on the connection: ``bot.turns``)
        self._inline = False  # (once open, statements run on the event loop's thread: ``_run``)
        self._x_inline = _Inline(self._run)
        self._checkpoints: Checkpointer | None = None
        self._games: dict[int, GameRow] = {}
        """Live games as last read or written, oldest written first (see ``CACHED_GAMES``)."""
        self._deadlines: dict[int, list[DeadlineRow]] = {}
        self._last_events: dict[int, int] = {}  # (a live game's last event, as written here)

    # ------------------------------------------------------------ turns and memory

    def _take_turn(self) -> bool:
        return self._lock.take()  # (nearly always free: taken without a coroutine's cost)

    async def _wait_turn(self) -> None:
        await self._lock.acquire()

    def _leave(self) -> None:
        self._lock.release()

    def forget(self, game_id: int | None = None) -> None:
        super().forget(game_id)
        if game_id is None:
            self._games.clear()
            self._deadlines.clear()
            self._last_events.clear()
        else:
            self._drop_game(game_id, deadlines=True)

    def _keep(self, game: GameRow) -> None:
        """Remember a live game's row as it is in the file now (a finished one is forgotten)."""
        self._games.pop(game.id, None)
        if game.status not in _LIVE:
            return
        for dropped in remember(self._games, game.id, game, CACHED_GAMES):
            self._drop_game(dropped, deadlines=True)

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
        remember(self._deadlines, game_id, list(deadlines), CACHED_GAMES)

    # ------------------------------------------------------------ running statements

    async def _run(self, fn: Callable[[sqlite3.Connection], _T]) -> _T:
        """Run ``fn`` with the raw connection right here, on the event loop's thread.

        A short statement group costs SQLite tens of microseconds (WAL, ``synchronous=NORMAL``: a
        commit waits for no disk), less than a trip to the connection's thread and back, twice
        over on a busy loop. What could keep the loop waiting is moved away: checkpoints (the one
        step that waits for the disk) run on a thread of their own (``Checkpointer``), and the
        busy timeout is zero here, so a lock held by another process sends ``fn`` to the
        connection's thread to wait there (only when ``fn`` left no transaction open)."""
        if not self._inline:
            return await self.db.on_thread(fn)
        conn = self.db.raw
        try:
            done = fn(conn)
            if self._checkpoints is not None and not conn.in_transaction:
                self._checkpoints.poke()
            return done
        except sqlite3.OperationalError as exc:
            if (_code(exc) or 0) & 0xFF not in (_BUSY, _LOCKED) or conn.in_transaction:
                raise
        return await self.db.on_thread(functools.partial(self._patiently, fn))

    def _patiently(self, fn: Callable[[sqlite3.Connection], _T], conn: sqlite3.Connection) -> _T:
        """``fn`` waiting up to the busy timeout for another process's lock (on the thread)."""
        conn.execute(f"PRAGMA busy_timeout={int(self.busy_timeout * 1000)}")
        try:
            return fn(conn)
        finally:
            conn.execute("PRAGMA busy_timeout=0")

    @property
    def db(self) -> SqliteConnection:
        if self._db is None:
            raise StorageError("storage is not open")
        return self._db

    def _session(self) -> _Inline:
        return self._x_inline

    # ------------------------------------------------------------ failures

    _FAULTS = {
        StorageBusy: "{where} stayed locked by another process for more than {timeout}s",
        StorageFull: "could not write to {where}: the disk, a quota or a file-size limit is full, "
                     "or the disk is failing",
        StorageReadOnly: "{where} is read-only for Herald, which needs to write the file and its "
                         "folder",
        StorageCorrupt: "{where} is damaged; " + _RESTORE,
        StorageUnavailable: "{where} could not be used just now",
    }

    _kind = staticmethod(_kind)
    _cause = staticmethod(_cause)

    async def _rollback(self, why: str) -> None:
        """Undo the open transaction, if any (after a full disk or an I/O error SQLite may have
        rolled it back itself); a failing rollback never hides its cause, ``why``."""
        try:
            if self.db.raw.in_transaction:
                await self._execute("ROLLBACK")
        except sqlite3.Error as err:
            log.warning("%s: rolling back after %s failed too (%s)", doing.get(), why, _cause(err))

    def _commit(self, conn: _Statements) -> None:
        """COMMIT (a method of its own, so that the fault tests can make it fail)."""
        conn.execute("COMMIT")

    @contextlib.asynccontextmanager
    async def _tx(self, landed: Landed | None = None) -> AsyncIterator[Executor]:
        """BEGIN IMMEDIATE … COMMIT, or ROLLBACK on any error (callers hold the lock); a failed
        COMMIT goes to ``_commit_failed``. (A move's commit takes the shorter way, ``_write``.)"""
        if self.db.raw.in_transaction:  # left over by a rollback that failed
            await self._rollback("an earlier failure")
        await self._execute("BEGIN IMMEDIATE")
        try:
            yield self._x_inline
        except BaseException as exc:
            await self._rollback(_cause(exc))
            raise
        try:
            await self._run(self._commit)
        except sqlite3.Error as exc:
            await self._commit_failed(exc, landed)

    async def _write(self, statements: Callable[[sqlite3.Cursor], _T], landed: Landed) -> _T:
        """BEGIN IMMEDIATE, ``statements`` and COMMIT in one call (``_run``: inline), or ROLLBACK
        on any error before the COMMIT (callers hold the lock); a failed COMMIT as in ``_tx``."""
        if self.db.raw.in_transaction:  # left over by a rollback that failed
            await self._rollback("an earlier failure")

        def whole(conn: sqlite3.Connection) -> _T:
            cur = conn.cursor()  # (one for every statement of the transaction)
            cur.execute("BEGIN IMMEDIATE")
            done = statements(cur)
            try:
                self._commit(cur)
            except sqlite3.Error as exc:
                raise _CommitFailed(exc, done) from exc
            return done

        try:
            done: _T = await self._run(whole)
        except _CommitFailed as failed:
            await self._commit_failed(failed.error, landed)
            done = failed.done  # (stored all the same)
        except BaseException as exc:
            await self._rollback(_cause(exc))
            raise
        return done

    async def _commit_failed(self, exc: sqlite3.Error, landed: Landed | None) -> None:
        """After COMMIT reported ``exc``: SQLite may have rolled the transaction back or stored
        it all the same; ``landed`` asks the database which, and ``_settled`` returns or raises
        (None: the database could not even be asked)."""
        if self.db.raw.in_transaction:  # the commit did not happen: undo the whole transaction
            await self._rollback(_cause(exc))
            raise exc
        stored: bool | None = False
        if landed is not None:
            try:
                stored = await landed(_Inline(self.db.on_thread))
            except sqlite3.Error:
                stored = None
        self._settled(exc, stored, "COMMIT reported an error")

    # ------------------------------------------------------------ opening

    async def open(self) -> None:
        """Open the database, creating it if there is no file yet; refuse (``StorageOpenError``,
        one sentence for the admin) a file that is empty, foreign, from a newer Herald, damaged or
        read-only before writing anything to it. A failed open closes its connection (a live one
        keeps the process from exiting) and removes a file it created."""
        if sqlite3.sqlite_version_info < MIN_SQLITE:
            raise StorageOpenError(
                f"Herald needs SQLite {'.'.join(map(str, MIN_SQLITE))} or newer (RETURNING, "
                f"upserts, FILTER); this Python's is {sqlite3.sqlite_version}: run Herald with a "
                "newer Python or system library, or on PostgreSQL.")
        created = self._inspect_file()
        try:
            self._db = await self._connect()
            await self._execute(f"PRAGMA busy_timeout={int(self.busy_timeout * 1000)}")
            if not created:
                await self._check_intact()
                await self._check_herald()
                await self._check_writable()
            for pragma in ("journal_mode=WAL", "foreign_keys=ON", "synchronous=NORMAL"):
                await self._execute(f"PRAGMA {pragma}")
            await self.migrate()
            await self._check_tables()
            if not created:
                await self._note_orphans()
            await self._execute("PRAGMA wal_autocheckpoint=0")  # (``Checkpointer`` does it off the loop)
            await self._execute(f"PRAGMA journal_size_limit={LOG_LIMIT}")
            await self._execute("PRAGMA busy_timeout=0")  # (``_run`` waits for locks on the thread)
            self._checkpoints = Checkpointer(self.path, self.db.raw)
            self._inline = True
        except BaseException as exc:
            await self._abandon(created)
            if isinstance(exc, StorageOpenError) or not isinstance(exc, sqlite3.Error | StorageError):
                raise
            raise self._refusal(exc) from exc
        if created:
            log.info("created a new database at %s", self.path)

    async def _connect(self) -> SqliteConnection:
        return await SqliteConnection.connect(self.path, timeout=self.busy_timeout)

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
                raise StorageOpenError(f"{path} is not an SQLite database (it lacks the SQLite "
                                       f"header), so it is not Herald's: {_ELSEWHERE}.")
        if not os.access(path, os.R_OK | os.W_OK):
            raise StorageOpenError(f"the database {path} is read-only for Herald, which needs to "
                                   "read and write it (and its folder): fix the permissions.")
        return False

    async def _check_intact(self) -> None:
        """``PRAGMA quick_check``: every page of every table readable and well formed (index
        contents are left to ``integrity_check``); it reads the whole file once, about half a
        second for 50 MB from a cold disk, a tenth from the cache."""
        rows = [str(r[0]) for r in await self._rows("PRAGMA quick_check(3)")]
        if rows != ["ok"]:
            first = rows[0].replace("*** in database main ***", "").strip().splitlines()[0]
            raise StorageOpenError(f"the database {self.path} is damaged ({first[:120]}); {_RESTORE}.")

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
                raise self._foreign(tables, "SQLite database", _ELSEWHERE)

    async def _check_writable(self) -> None:
        """SQLite opens a file it may not write without a word and fails at the first write: a
        write that is rolled back finds out now instead of at the first move."""
        version = await self.schema_version()
        await self._execute("BEGIN IMMEDIATE")
        try:
            await self._execute(f"PRAGMA user_version = {version}")
        finally:
            await self._rollback("the write check")

    async def _note_orphans(self) -> None:
        """Warn of rows that name a missing game (only a file edited with foreign keys off has
        them): every read is by game, so Herald never sees them. A few hundredths of a second
        for 50 MB."""
        tables = [str(r[0]) for r in await self._rows("PRAGMA foreign_key_check")]
        if tables:
            log.warning("the database %s has %d row(s) that refer to missing games (in %s); "
                        "Herald ignores them", self.path, len(tables),
                        ", ".join(sorted(set(tables))))

    def _refusal(self, exc: BaseException) -> StorageOpenError:
        """One sentence for the admin about why the database could not be opened (a fault's words
        in service, ``_FAULTS``, and what to do about it now)."""
        kind = _kind(exc)
        where = f"the database {self.path}"
        if kind is StorageCorrupt or kind is StorageReadOnly:
            text = self._FAULTS[kind].format(where=where)
        elif kind is StorageFull:
            text = self._FAULTS[kind].format(where=where) + "; free some space and start Herald again"
        elif kind is StorageBusy:
            text = (f"{where} is locked by another program (another Herald on the same file?): "
                    "stop it and start Herald again")
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
        self._inline = False
        checkpoints, self._checkpoints = self._checkpoints, None
        if checkpoints is not None:
            await checkpoints.close()
        db, self._db = self._db, None
        if db is not None:
            await db.close()  # stops the connection's thread even when closing fails

    async def schema_version(self) -> int:
        return int(await self._value(USER_VERSION) or 0)

    async def migrate(self) -> int:
        current = await self.schema_version()
        if current > len(MIGRATIONS):
            raise self._newer(current)
        for number in range(current + 1, len(MIGRATIONS) + 1):
            script = MIGRATIONS[number - 1]
            await self._execute("BEGIN")
            try:
                for stmt in (s.strip() for s in script.split(";")):
                    if stmt:
                        await self._execute(stmt)
                await self._execute(f"PRAGMA user_version = {number}")
                await self._execute("COMMIT")
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
        return _copy_game(kept) if kept is not None else await self._load_game(game_id)

    @boundary
    async def _load_game(self, game_id: int) -> GameRow | None:
        kept = self._games.get(game_id)  # (remembered by a read that held the lock before this)
        if kept is None:
            kept = await self._read_game(self._x_inline, game_id)
            if kept is None:
                return None
            self._keep(kept)
        return _copy_game(kept)

    async def deadlines(self, game_id: int) -> list[DeadlineRow]:
        kept = self._deadlines.get(game_id)  # (as for ``get_game``: no lock to wait for)
        return _copies(kept) if kept is not None else await self._load_deadlines(game_id)

    @boundary
    async def _load_deadlines(self, game_id: int) -> list[DeadlineRow]:
        kept = self._deadlines.get(game_id)
        if kept is None:
            kept = await self._read_deadlines(self._x_inline, game_id)
            if game_id in self._games:  # only a live game's deadlines are worth keeping
                self._deadlines[game_id] = kept
        return _copies(kept)

    async def _write_deadlines(self, x: Executor, game_id: int,
                               deadlines: Sequence[DeadlineRow]) -> None:
        """Replace a game's deadlines (inside the caller's transaction), in one call."""
        self._deadlines.pop(game_id, None)
        await self._run(lambda conn: self._deadline_statements(conn, game_id, deadlines))

    def _deadline_statements(self, conn: _Statements, game_id: int,
                             deadlines: Iterable[DeadlineRow]) -> None:
        """``_write_deadlines``' statements: the rows deleted, and written again with the claims
        and reminders they keep."""
        before = {(r[0], r[1]): r[2:] for r in conn.execute(
            "DELETE FROM deadlines WHERE game_id=? "
            "RETURNING seat, kind, opened, claimed_by, claimed_until, due_at, remind_at, reminded",
            (game_id,)).fetchall()}
        rows = []
        for d in deadlines:
            opened, by, until, due, remind, reminded = before.get((d.seat, d.kind), (None,) * 6)
            same_prompt = opened == d.opened
            same = same_prompt and (due, remind) == (d.due_at, d.remind_at)
            rows.append((game_id, d.seat, d.kind, d.due_at, d.remind_at,
                         int(d.reminded or (same and bool(reminded))), d.opened,
                         by if same_prompt else None, until if same_prompt else None))
        conn.executemany(
            "INSERT INTO deadlines (game_id, seat, kind, due_at, remind_at, reminded, opened, "
            "claimed_by, claimed_until) VALUES (?,?,?,?,?,?,?,?,?)", rows)

    @boundary
    async def commit_action(self, game_id: int, *, expected_version: int, seat: int,
                            action: dict[str, Any], origin: str, user_id: int | None,
                            state: dict[str, Any], events: Sequence[dict[str, Any]],
                            status: str, result: dict[str, Any] | None,
                            opened: Mapping[int, int], answered: Mapping[int, int],
                            deadlines: Sequence[DeadlineRow], now: float,
                            prompt_kind: str | None = None, secret: bool | None = None) -> int:
        new_version = expected_version + 1
        n = 0

        async def landed(x: Executor) -> bool:
            """After a failed COMMIT: is this very action stored (the version it made, its row)?"""
            rows = await x.rows("SELECT g.version, a.seat FROM games g LEFT JOIN actions a "
                                "ON a.game_id=g.id AND a.n=? WHERE g.id=?", n, game_id)
            return bool(rows) and tuple(rows[0]) == (new_version, seat)

        kept = self._games.pop(game_id, None)
        # deadlines as the file holds them, when this process knows: unchanged (a computer
        # player's move while a member's clock runs on), they are not written again
        stored = self._deadlines.pop(game_id, None)
        last_event = self._last_events.pop(game_id, None)
        same = stored is not None and (stored == deadlines
                                       or _by_seat(stored) == _by_seat(deadlines))
        state_text = to_json_utf8(state)  # (stored as text: ``CAST(? AS TEXT)``)
        action_row = (to_json(action), origin, user_id, now, prompt_kind,
                      None if secret is None else int(secret))
        event_rows = [event_values(e) for e in events]
        # only the columns that change are set: SQLite rewrites the index entries of every column
        # a statement sets, changed or not (status and updated_at are indexed for the listings)
        columns = "state=CAST(? AS TEXT), version=?, result=?, opened=?, answered=?"
        values: list[Any] = [state_text, new_version, to_json(result) if result else None,
                             seat_map_json(opened), seat_map_json(answered)]
        if status != "active":
            columns += ", status=?"
            values.append(status)
        row = kept if kept is not None and kept.version == expected_version else None
        stamp = now
        if row is not None and status == "active" and 0 <= now - row.updated_at < ACTIVITY_STEP:
            stamp = row.updated_at
        else:
            columns += ", updated_at=?"
            values.append(now)
        values += (game_id, expected_version)
        update = (f"UPDATE games SET {columns} "
                  "WHERE id=? AND version=? AND status='active' AND paused_at IS NULL")

        def write(conn: sqlite3.Cursor) -> None:
            """The version-checked update, the action, its events and the deadlines."""
            nonlocal n, last_event
            if conn.execute(update, values).rowcount != 1:
                raise VersionConflict(f"game {game_id} is no longer at version {expected_version}")
            # versions only go up, so the action's number is free, but in a game stored by an
            # older Herald (numbered otherwise) it may be taken: then it follows the last one
            n = new_version - 1
            try:
                conn.execute(_INSERT_ACTION, (game_id, n, seat, *action_row))
            except sqlite3.IntegrityError:
                [(n,)] = conn.execute(_INSERT_ACTION_AFTER, (game_id, n, seat, *action_row,
                                                             game_id)).fetchall()
            if event_rows:
                last_event = _append_events(conn, game_id, new_version, event_rows, now, last_event)
            if not same:
                self._deadline_statements(conn, game_id, deadlines)

        await self._write(write, landed)
        if row is not None:
            # write-through: the row as the file now holds it (state and result are plain JSON,
            # as read: see ``Storage.commit_action``); reads get copies, so it is updated in place
            row.state, row.version, row.status, row.result = state, new_version, status, result or None
            row.opened = {int(k): int(v) for k, v in opened.items()}
            row.answered = {int(k): int(v) for k, v in answered.items()}
            row.updated_at = stamp
            self._keep(row)
        if status in _LIVE:
            self._deadlines_written(game_id, deadlines)
            if last_event is not None:
                remember(self._last_events, game_id, last_event, CACHED_GAMES)
        return new_version

    _CLAIM = ("UPDATE deadlines SET claimed_by=?, claimed_until=? WHERE rowid IN ({claimable}) "
              f"RETURNING {DEADLINE_COLUMNS}")
    """One statement is one write transaction: SQLite's write lock makes it the only writer of
    the file while it picks and marks the rows, whichever process runs it."""
    _CLAIM_KEY = "rowid"
