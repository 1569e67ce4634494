"""The SQLite backend of :class:`bot.storage.base.Storage`.

SQLite through aiosqlite, WAL mode, numbered migrations tracked in ``PRAGMA user_version``; one
connection whose statement groups are serialised by an asyncio lock. An action's statements run in
one hand-off to the connection's thread, and the rows of live games, their deadlines and the
servers' settings are kept in memory as last read or written (write-through: every write goes to
the file first, nothing is ever written later), so a move re-reads nothing. ``open`` refuses a file that
must not become Herald's database (empty, foreign, newer, damaged, read-only) before writing to
it; in service, driver errors leave as :class:`StorageError` subclasses (busy, full, read-only,
damaged), and a failed COMMIT is checked against what actually landed.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import hmac
import json
import logging
import os
import re
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

import aiosqlite

from ..turns import Turns
from .base import (
    COMPUTER_ID,
    DEADLINE_COLUMNS,
    G_COLUMNS,
    GAME_COLUMNS,
    PAUSE_COLUMNS,
    PREFS_COLUMNS,
    RECENT_FIRST,
    UPDATABLE,
    DeadlineRow,
    DeckRow,
    Departure,
    EventRow,
    GamePage,
    GamePause,
    GameRow,
    GuildSettings,
    LongestGame,
    PlayerPrefs,
    RatedGame,
    Rater,
    RatingRow,
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
    VersionConflict,
    deadline_row,
    deck_name_key,
    event_values,
    from_json,
    frozen_text,
    like_pattern,
    link_digest,
    pause_row,
    prefs_row,
    seat_map,
    seat_map_json,
    thawed,
    to_json,
    to_json_utf8,
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
    # 3: limits on open tables per server and per member (NULL: the defaults); listings ordered
    # by last activity, and a member's seats found by member
    """
    ALTER TABLE guild_settings ADD COLUMN table_limit INTEGER;
    ALTER TABLE guild_settings ADD COLUMN member_lobby_limit INTEGER;
    ALTER TABLE guild_settings ADD COLUMN member_table_limit INTEGER;
    CREATE INDEX games_guild_activity ON games(guild_id, status, updated_at);
    DROP INDEX seats_user;
    CREATE INDEX seats_user ON seats(user_id, game_id);
    """,
    # 4: claims on deadlines (several processes: each deadline is handled by the one that
    # claimed it, until its lease runs out)
    """
    ALTER TABLE deadlines ADD COLUMN claimed_by TEXT;
    ALTER TABLE deadlines ADD COLUMN claimed_until REAL;
    """,
    # 5: ratings: each server's rating of its members (and of its computer players, user 0) in
    # each game; every settled game once (``rated`` 0: it counted for nobody), with its places;
    # the members who left a running game's seat (ranked last); a server may turn leaderboards
    # off. Games finished before this step are settled unrated: ratings start from here.
    """
    CREATE TABLE ratings (
        guild_id INTEGER NOT NULL, game_key TEXT NOT NULL, user_id INTEGER NOT NULL,
        name TEXT NOT NULL, mu REAL NOT NULL, sigma REAL NOT NULL,
        games INTEGER NOT NULL DEFAULT 0, wins INTEGER NOT NULL DEFAULT 0,
        updated_at REAL NOT NULL,
        PRIMARY KEY (guild_id, game_key, user_id)
    );
    CREATE INDEX ratings_member ON ratings(guild_id, user_id);
    CREATE TABLE settled_games (
        game_id INTEGER PRIMARY KEY, guild_id INTEGER NOT NULL, game_key TEXT NOT NULL,
        started_at REAL NOT NULL, finished_at REAL NOT NULL, moves INTEGER NOT NULL,
        rated INTEGER NOT NULL, settled_at REAL NOT NULL
    );
    CREATE TABLE settled_places (
        game_id INTEGER NOT NULL REFERENCES settled_games(game_id) ON DELETE CASCADE,
        user_id INTEGER NOT NULL, guild_id INTEGER NOT NULL, name TEXT NOT NULL,
        rank INTEGER NOT NULL, won INTEGER NOT NULL, abandoned INTEGER NOT NULL,
        mu REAL NOT NULL, sigma REAL NOT NULL,
        PRIMARY KEY (game_id, user_id)
    );
    CREATE INDEX settled_places_member ON settled_places(guild_id, user_id);
    CREATE TABLE departures (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        user_id INTEGER NOT NULL, seat INTEGER NOT NULL, name TEXT NOT NULL,
        PRIMARY KEY (game_id, user_id)
    );
    ALTER TABLE guild_settings ADD COLUMN leaderboards INTEGER NOT NULL DEFAULT 1;
    INSERT INTO settled_games (game_id, guild_id, game_key, started_at, finished_at, moves, rated,
        settled_at)
        SELECT id, guild_id, game_key, created_at, updated_at, version, 0, updated_at FROM games
        WHERE status='finished' AND guild_id IS NOT NULL;
    """,
    # 6: player preferences, time away and paused games (a paused game's deadlines wait in
    # ``pause_frozen``; ``pause_used`` keeps the time its earlier pauses used)
    """
    CREATE TABLE player_prefs (
        user_id INTEGER PRIMARY KEY,
        pings INTEGER NOT NULL DEFAULT 1, dms TEXT NOT NULL DEFAULT 'every',
        quiet_start INTEGER, quiet_end INTEGER, zone TEXT,
        away_until REAL, away_mode TEXT
    );
    ALTER TABLE games ADD COLUMN paused_at REAL;
    ALTER TABLE games ADD COLUMN paused_by INTEGER;
    ALTER TABLE games ADD COLUMN pause_used REAL NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN pause_frozen TEXT;
    """,
    # 7: saved decks (a player's own decks for card games, by game; one name once per player
    # and game, compared without case)
    """
    CREATE TABLE decks (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        user_id INTEGER NOT NULL, game_key TEXT NOT NULL,
        name TEXT NOT NULL, name_key TEXT NOT NULL, data TEXT NOT NULL DEFAULT '{}',
        created_at REAL NOT NULL, updated_at REAL NOT NULL,
        UNIQUE (user_id, game_key, name_key)
    );
    """,
    # 8: actions and events kept in the order of their key (WITHOUT ROWID): a move's new action
    # and events are then written to one page each, where a table with a separate key index
    # wrote two (its rows, and the index over them); the rows are copied over as they are
    """
    CREATE TABLE actions_by_key (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        n INTEGER NOT NULL, seat INTEGER NOT NULL, action TEXT NOT NULL,
        origin TEXT NOT NULL, user_id INTEGER, created_at REAL NOT NULL,
        PRIMARY KEY (game_id, n)
    ) WITHOUT ROWID;
    INSERT INTO actions_by_key (game_id, n, seat, action, origin, user_id, created_at)
        SELECT game_id, n, seat, action, origin, user_id, created_at FROM actions;
    DROP TABLE actions;
    ALTER TABLE actions_by_key RENAME TO actions;
    CREATE TABLE events_by_key (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        n INTEGER NOT NULL, version INTEGER NOT NULL, text TEXT NOT NULL,
        recipients TEXT, kind TEXT NOT NULL, data TEXT NOT NULL DEFAULT '{}',
        created_at REAL NOT NULL,
        PRIMARY KEY (game_id, n)
    ) WITHOUT ROWID;
    INSERT INTO events_by_key (game_id, n, version, text, recipients, kind, data, created_at)
        SELECT game_id, n, version, text, recipients, kind, data, created_at FROM events;
    DROP TABLE events;
    ALTER TABLE events_by_key RENAME TO events;
    """,
    # 9: each member's DM channel, once Discord has opened it: a DM is then sent to it at once,
    # without looking the member up nor asking Discord for the channel again
    """
    CREATE TABLE dm_channels (
        user_id INTEGER PRIMARY KEY, channel_id INTEGER NOT NULL
    ) WITHOUT ROWID;
    """,
    # 10: a server's own limit on lobbies, and how long an idle lobby stays open
    """
    ALTER TABLE guild_settings ADD COLUMN lobby_limit INTEGER;
    ALTER TABLE guild_settings ADD COLUMN lobby_expiry INTEGER;
    """,
    # 11: each game's web token (the unguessable part of its public page's address), with the
    # digest it is looked up by (``bot.storage.base.link_digest``)
    """
    CREATE TABLE web_links (
        game_id INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
        token TEXT NOT NULL, digest TEXT NOT NULL UNIQUE, created_at REAL NOT NULL
    );
    """,
    # 12: each game's version up to which its log lines are posted in its thread (the lines after
    # it wait on the board for the end of the round, and are read back from ``events`` after a
    # restart: ``bot.threadlog``)
    """
    CREATE TABLE thread_logs (
        game_id INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
        version INTEGER NOT NULL
    );
    """,
    # 13: the web's player pages and a server's switch for its game pages: the secret their links
    # are signed with (one row, made by the first process that needs it), each seat's link
    # generation (renewing a link revokes the older ones), and the server's choice (NULL: on)
    """
    CREATE TABLE web_secret (
        id INTEGER PRIMARY KEY CHECK (id = 1), secret TEXT NOT NULL
    );
    CREATE TABLE web_seat_links (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seat INTEGER NOT NULL, generation INTEGER NOT NULL,
        PRIMARY KEY (game_id, seat)
    ) WITHOUT ROWID;
    ALTER TABLE guild_settings ADD COLUMN web_pages INTEGER;
    """,
]


_OPEN = ("lobby", "active")
"""The statuses of an open table (counted against the limits)."""


def _marks(values: Sequence[Any]) -> str:
    return ",".join("?" for _ in values)


_EVENTS_PER_STATEMENT = 100
"""Events inserted by one statement (8 values each: within the oldest SQLite's 999)."""


_Statements = sqlite3.Connection | sqlite3.Cursor
"""Where statements are run: the connection, or one cursor used for a whole transaction (a
statement run by the connection makes a cursor of its own each time)."""


def _append_events(conn: _Statements, game_id: int, version: int,
                   rows: Sequence[tuple[str, str | None, str, str]], now: float,
                   last: int | None = None) -> int:
    """Number the events (as :func:`event_values` encodes them) on after the game's last event,
    ``last`` when the caller knows it (read first otherwise), all made by ``version`` (inside the
    caller's transaction); the number of the last one written.

    The first statement inserts nothing if a number is taken (``last`` out of date): the rows
    then go after the last one read again."""
    def insert(after: int, part: Sequence[tuple[str, str | None, str, str]]) -> None:
        flat: list[Any] = []
        for i, e in enumerate(part, start=after + 1):
            flat += (game_id, i, version, *e, now)
        conn.execute("INSERT INTO events (game_id, n, version, text, recipients, kind, data, "
                     "created_at) VALUES " + ",".join(["(?,?,?,?,?,?,?,?)"] * len(part)), flat)

    known = last is not None
    if last is None:
        last = _last_event(conn, game_id)
    if not rows:
        return last
    first = rows[:_EVENTS_PER_STATEMENT]
    try:
        insert(last, first)
    except sqlite3.IntegrityError:
        if not known:
            raise
        last = _last_event(conn, game_id)
        insert(last, first)
    last += len(first)
    for start in range(len(first), len(rows), _EVENTS_PER_STATEMENT):
        part = rows[start:start + _EVENTS_PER_STATEMENT]
        insert(last, part)
        last += len(part)
    return last


def _last_event(conn: _Statements, game_id: int) -> int:
    [(last,)] = conn.execute("SELECT COALESCE(MAX(n), 0) FROM events WHERE game_id=?",
                             (game_id,)).fetchall()
    return int(last)


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


def _serialised(method: Any) -> Any:
    """One statement group at a time on the shared connection (transactions never interleave).

    This is also the storage's boundary: a driver error met in service leaves it as a
    :class:`StorageError` subclass that keeps the driver's error as its cause (see ``_fault``)."""

    doing = method.__name__.lstrip("_")

    @functools.wraps(method)
    async def wrapper(self: SqliteStorage, *args: Any, **kwargs: Any) -> Any:
        if not self._lock.take():  # (nearly always free: taken without a coroutine's cost)
            await self._lock.acquire()
        try:
            self._doing = doing
            return await method(self, *args, **kwargs)
        except sqlite3.Error as exc:
            fault = self._fault(exc)
            if fault is None:
                raise
            raise fault from exc
        finally:
            self._lock.release()

    return wrapper


_T = TypeVar("_T")


class _CommitFailed(Exception):
    """COMMIT raised ``error`` (in ``SqliteStorage._write``); ``done`` is what the statements
    before it returned."""

    def __init__(self, error: sqlite3.Error, done: Any) -> None:
        super().__init__(error)
        self.error = error
        self.done = done


class _Rows:
    """The rows of a query run on the event loop's thread (see ``SqliteStorage._query``)."""

    def __init__(self, storage: SqliteStorage, sql: str, params: Sequence[Any]) -> None:
        self._storage, self._sql, self._params = storage, sql, params
        self._cur: sqlite3.Cursor | None = None

    async def __aenter__(self) -> _Rows:
        sql, params = self._sql, self._params
        self._cur = await self._storage._run(lambda conn: conn.execute(sql, params))
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._cur is not None:
            self._cur.close()  # (an open cursor would block a COMMIT)

    async def fetchone(self) -> Any:
        assert self._cur is not None
        return self._cur.fetchone()

    def __aiter__(self) -> _Rows:
        return self

    async def __anext__(self) -> Any:
        assert self._cur is not None
        row = self._cur.fetchone()
        if row is None:
            raise StopAsyncIteration
        return row


CHECKPOINT_ROWS = 1000
"""Rows written (``total_changes``) after which the write-ahead log is copied back: a couple of
hundred moves, a few megabytes of log."""
STARVED_ROWS = 4 * CHECKPOINT_ROWS
"""Rows written with no copy finished, past which the writer copies itself (see ``poke``)."""
LOG_LIMIT = 16 * 2**20
"""Bytes of write-ahead log past which a copy is finished with writes held back (see
``Checkpointer``); SQLite also trims the file back to this when it starts the log over."""


class Checkpointer:
    """Copies the write-ahead log back into the database file, in the background.

    SQLite does this itself at the commit that finds the log long enough, on the committing
    connection, and waits for the disk then (an fsync) — which, with statements run on the event
    loop's thread (``SqliteStorage._run``), would hold up every game at once. So the storage
    turns that off (``wal_autocheckpoint=0``) and this copies instead: once ``CHECKPOINT_ROWS``
    rows were written since the last copy, one PASSIVE checkpoint on a connection of its own, on
    a worker thread (one at a time; no timer, so a quiet bot does nothing). PASSIVE never waits
    for a lock and never blocks a writer; what it could not copy (a reader still uses it) is
    copied the next time, and closing the storage copies the rest.

    The log starts over only once it was copied to its end before the next write — which moves
    written meanwhile prevent under a steady stream. So when the log has grown past
    ``LOG_LIMIT``, the copy is finished by ``finish`` (the storage's: on the writing connection,
    inline), which has little left to copy after the copy in the background.
    Nothing acknowledged depends on any of it: a committed transaction is in the log, which
    SQLite replays after a crash."""

    def __init__(self, path: str, watched: sqlite3.Connection,
                 finish: Callable[[], Awaitable[None]]) -> None:
        self.path = path
        self._watched = watched
        self._finish = finish
        self._seen = watched.total_changes
        self._copied = self._seen
        """``total_changes`` when the last copy began that finished."""
        self._conn: sqlite3.Connection | None = None
        self._task: asyncio.Task[None] | None = None
        self._closed = False
        self.done = 0
        """Checkpoints run (for the tests)."""

    def poke(self) -> None:
        """After a write: start a copy if enough was written since the last one. Should the
        event loop never have given the copy its turn (moves back to back with nothing to wait
        for) while ``STARVED_ROWS`` rows were written, copy here and now, as SQLite itself
        would have: the log stays bounded whatever the load."""
        if self._closed:
            return
        changes = self._watched.total_changes
        if changes - self._copied > STARVED_ROWS:
            self._watched.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
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
            await self.checkpoint()
            self._copied = max(self._copied, began)
            if os.path.getsize(self.path + "-wal") > LOG_LIMIT:
                await self._finish()
        except (sqlite3.Error, StorageError, OSError) as exc:  # (the next one tries again)
            log.warning("copying the write-ahead log into %s failed: %s", self.path, _cause(exc))
            self._forget()
        finally:
            self._task = None

    async def checkpoint(self) -> tuple[int, int, int]:
        """One PASSIVE checkpoint: (busy, pages in the log, pages copied), as SQLite reports."""
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


def _herald_tables() -> set[str]:
    """The tables the migrations leave behind."""
    made: set[str] = set()
    for script in MIGRATIONS:  # (statement by statement: a table may be made, dropped, renamed)
        for verb, name, new_name in re.findall(
                r"(CREATE TABLE|DROP TABLE|ALTER TABLE) (\w+)(?: RENAME TO (\w+))?", script):
            if verb == "CREATE TABLE":
                made.add(name)
            elif verb == "DROP TABLE":
                made.discard(name)
            elif new_name:
                made.discard(name)
                made.add(new_name)
    return made


class SqliteStorage(Storage):
    """SQLite backend (one file, WAL). One connection; calls are serialised by an asyncio lock."""

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
        self._inline = False
        """True once open: statements run on the event loop's own thread (see ``_run``)."""
        self._checkpoints: Checkpointer | None = None
        self._games: dict[int, GameRow] = {}
        """Live games as last read or written, oldest written first (see ``CACHED_GAMES``)."""
        self._deadlines: dict[int, list[DeadlineRow]] = {}
        self._last_events: dict[int, int] = {}
        """A live game's last event number, as this storage wrote it (read otherwise)."""
        self._guilds: dict[int, GuildSettings] = {}

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

    async def _finish_checkpoint(self) -> None:
        """Copy the rest of the write-ahead log on the writing connection itself, so that the
        next write starts the log over: inline, so no write can come between (little is left
        after the copy in the background; holding the storage's lock across a trip to the
        thread instead made every move arriving meanwhile wait behind it)."""
        if self._db is not None and not self.db.in_transaction:
            self.db._conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()

    async def _on_thread(self, fn: Callable[[sqlite3.Connection], Any]) -> Any:
        """Run ``fn`` with the raw connection on the connection's own thread: for what may take
        long (opening checks, whole-game reads, waiting out another process's lock)."""
        db = self.db
        return await db._execute(lambda: fn(db._conn))  # type: ignore[no-untyped-call]

    async def _run(self, fn: Callable[[sqlite3.Connection], Any]) -> Any:
        """Run ``fn`` with the raw connection right here, on the event loop's thread.

        A short statement group costs SQLite tens of microseconds (WAL, ``synchronous=NORMAL``:
        a commit writes to the operating system's cache and waits for no disk), while handing it
        to the connection's thread and back costs more than that, twice over on a busy loop — so
        the statements of a move run inline. What could keep the loop waiting is moved away:
        checkpoints (the one step that waits for the disk) run on a connection and thread of
        their own (``Checkpointer``), and the busy timeout is zero here, so a write lock held by
        another process sends ``fn`` to the connection's thread to wait for it there (only when
        ``fn`` left no transaction open: it began its own, or ran outside one)."""
        if not self._inline:
            return await self._on_thread(fn)
        conn = self.db._conn
        try:
            done = fn(conn)
            if self._checkpoints is not None and not conn.in_transaction:
                self._checkpoints.poke()
            return done
        except sqlite3.OperationalError as exc:
            if (_code(exc) or 0) & 0xFF not in (_BUSY, _LOCKED) or conn.in_transaction:
                raise
        return await self._on_thread(functools.partial(self._patiently, fn))

    def _patiently(self, fn: Callable[[sqlite3.Connection], Any], conn: sqlite3.Connection) -> Any:
        """``fn`` waiting up to the busy timeout for another process's lock (on the thread)."""
        conn.execute(f"PRAGMA busy_timeout={int(self.busy_timeout * 1000)}")
        try:
            return fn(conn)
        finally:
            conn.execute("PRAGMA busy_timeout=0")

    def _query(self, sql: str, params: Sequence[Any] = ()) -> _Rows:
        """One query read inline (``_run``), used the way an aiosqlite cursor is: ``async with``,
        then ``async for`` or ``fetchone`` (the rows are stepped through as they are read)."""
        return _Rows(self, sql, params)

    async def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """The rows of one short query, read inline (``_run``)."""
        rows: list[Any] = await self._run(lambda conn: conn.execute(sql, params).fetchall())
        return rows

    @property
    def db(self) -> aiosqlite.Connection:
        if self._db is None:
            raise StorageError("storage is not open")
        return self._db

    async def _x(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Cursor:
        """Execute one statement and close its cursor (an open cursor blocks COMMIT), in one
        hand-off to the connection's thread (aiosqlite's own cursor takes two)."""
        def run(conn: sqlite3.Connection) -> sqlite3.Cursor:
            cur = conn.execute(sql, params)
            cur.close()  # (its rowcount and lastrowid stay readable)
            return cur

        cur: sqlite3.Cursor = await self._run(run)
        return cur

    # ------------------------------------------------------------ failures

    def _fault(self, exc: sqlite3.Error, *, stored: bool | None = False) -> StorageError | None:
        """The :class:`StorageError` for a driver error met in service, logged here once with its
        cause; None for a bug in Herald (see ``_kind``)."""
        kind = _kind(exc)
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
                await self._x("ROLLBACK")
        except sqlite3.Error as err:
            log.warning("%s: rolling back after %s failed too (%s)", self._doing, why, _cause(err))

    def _commit(self, conn: _Statements) -> None:
        """COMMIT (a method of its own, so that the fault tests can make it fail)."""
        conn.execute("COMMIT")

    @contextlib.asynccontextmanager
    async def _transaction(self, landed: Callable[[], Awaitable[bool]] | None = None, *,
                           begin: bool = True) -> AsyncIterator[None]:
        """BEGIN IMMEDIATE … COMMIT, or ROLLBACK on any error (callers hold the lock).

        Should COMMIT itself fail, see ``_commit_failed``. With ``begin`` False the body's first
        statement group begins the transaction itself. (A move's commit takes the shorter way,
        ``_write``: its statements and COMMIT in one call.)"""
        if self.db.in_transaction:  # left over by a rollback that failed
            await self._rollback("an earlier failure")
        if begin:
            await self._x("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException as exc:
            await self._rollback(_cause(exc))
            raise
        try:
            await self._run(self._commit)
        except sqlite3.Error as exc:
            await self._commit_failed(exc, landed)

    async def _write(self, statements: Callable[[sqlite3.Cursor], _T],
                     landed: Callable[[], Awaitable[bool]]) -> _T:
        """BEGIN IMMEDIATE, ``statements`` and COMMIT in one call (``_run``: inline), or ROLLBACK
        on any error before the COMMIT (callers hold the lock); a failed COMMIT as in
        ``_transaction``."""
        if self.db.in_transaction:  # left over by a rollback that failed
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

    async def _commit_failed(self, exc: sqlite3.Error,
                             landed: Callable[[], Awaitable[bool]] | None) -> None:
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
                stored = await landed()
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
        created = self._inspect_file()
        try:
            self._db = await self._connect()
            await self._x(f"PRAGMA busy_timeout={int(self.busy_timeout * 1000)}")
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
            await self._x("PRAGMA wal_autocheckpoint=0")  # (``Checkpointer`` does it off the loop)
            await self._x(f"PRAGMA journal_size_limit={LOG_LIMIT}")
            await self._x("PRAGMA busy_timeout=0")  # (``_run`` waits for locks on the thread)
            self._checkpoints = Checkpointer(self.path, self.db._conn, self._finish_checkpoint)
            self._inline = True
        except BaseException as exc:
            await self._abandon(created)
            translatable = isinstance(exc, sqlite3.Error | StorageError)
            if isinstance(exc, StorageOpenError) or not translatable:
                raise
            raise self._refusal(exc) from exc
        if created:
            log.info("created a new database at %s", self.path)

    async def _connect(self) -> aiosqlite.Connection:
        # (used from the loop's thread too, never at the same time: ``_run``)
        connection = aiosqlite.connect(self.path, isolation_level=None, timeout=self.busy_timeout,
                                       check_same_thread=False)
        try:
            return await connection
        except BaseException:
            # aiosqlite stops its thread after a failed connect but does not wait for it; should
            # the event loop close first, the thread dies with a traceback on stderr
            thread = getattr(connection, "_thread", None)
            for _ in range(1000):
                if thread is None or not thread.is_alive():
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
        async with self.db.execute("PRAGMA quick_check(3)") as cur:
            rows = [str(r[0]) async for r in cur]
        if rows != ["ok"]:
            first = rows[0].replace("*** in database main ***", "").strip().splitlines()[0]
            raise StorageOpenError(self._damaged(first[:120]))

    async def _check_herald(self) -> None:
        """Refuse, before writing to it, a database from a newer Herald or of another program."""
        version = await self.schema_version()
        if version > len(MIGRATIONS):
            raise self._newer(version)
        if version == 0:
            async with self.db.execute(
                    "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite%' "
                    "ORDER BY name") as cur:
                tables = [str(r[0]) async for r in cur]
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
        async with self.db.execute("SELECT name FROM sqlite_master WHERE type='table'") as cur:
            names = {str(r[0]) async for r in cur}
        missing = sorted(_herald_tables() - names)
        if missing:
            raise StorageOpenError(
                f"the database {self.path} lacks Herald's table(s) {', '.join(missing)}, so it "
                f"was damaged or edited by hand; {_RESTORE}.")

    async def _note_orphans(self) -> None:
        """Rows that name a game that is not there (possible only if the file was edited with
        foreign keys off): every read is by game, so Herald never sees them — a warning, not a
        refusal. Cheap next to ``quick_check`` (a few hundredths of a second for 50 MB)."""
        async with self.db.execute("PRAGMA foreign_key_check") as cur:
            tables = [str(r[0]) async for r in cur]
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
        self._inline = False
        checkpoints, self._checkpoints = self._checkpoints, None
        if checkpoints is not None:
            await checkpoints.close()
        db, self._db = self._db, None
        if db is not None:
            await db.close()  # stops the connection's thread even when closing fails

    async def schema_version(self) -> int:
        async with self.db.execute("PRAGMA user_version") as cur:
            row = await cur.fetchone()
        return int(row[0]) if row else 0

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

    def _row_to_game(self, r: Sequence[Any]) -> GameRow:
        return GameRow(
            id=r[0], guild_id=r[1], channel_id=r[2], thread_id=r[3], game_key=r[4], status=r[5],
            version=r[6], seed=r[7], options=from_json(r[8]) or {}, state=from_json(r[9]), host_id=r[10],
            deadline=r[11], board_message_id=r[12], lobby_message_id=r[13], result=from_json(r[14]),
            created_at=r[15], updated_at=r[16],
            opened=seat_map(r[17]), answered=seat_map(r[18]),
        )

    async def _seats(self, game_id: int) -> list[SeatRow]:
        async with self._query(
            "SELECT seat, user_id, is_bot, name FROM seats WHERE game_id=? ORDER BY seat", (game_id,)
        ) as cur:
            return [SeatRow(r[0], r[1], bool(r[2]), r[3]) async for r in cur]

    @_serialised
    async def create_game(self, *, guild_id: int | None, channel_id: int | None, game_key: str,
                          seed: int, options: dict[str, Any], host_id: int | None,
                          deadline: int | None, now: float, seats: Sequence[SeatRow] = ()) -> int:
        async with self._transaction():
            cur = await self._x(
                "INSERT INTO games (guild_id, channel_id, game_key, status, version, seed, options, "
                "host_id, deadline, created_at, updated_at) VALUES (?,?,?,?,0,?,?,?,?,?,?)",
                (guild_id, channel_id, game_key, "lobby", seed, to_json(options), host_id, deadline, now, now),
            )
            assert cur.lastrowid is not None
            game_id = int(cur.lastrowid)
            await self._write_seats(game_id, seats)
        return game_id

    async def get_game(self, game_id: int) -> GameRow | None:
        # a remembered game is read without waiting for the lock (nothing to hand off): every
        # write forgets or replaces the row while it holds the lock, so this is the file's row
        kept = self._games.get(game_id)
        if kept is not None:
            return _copy_game(kept)
        game: GameRow | None = await self._load_game(game_id)
        return game

    @_serialised
    async def _load_game(self, game_id: int) -> GameRow | None:
        kept = self._games.get(game_id)  # (remembered by a read that held the lock before this)
        if kept is not None:
            return _copy_game(kept)
        async with self._query(f"SELECT {GAME_COLUMNS} FROM games WHERE id=?", (game_id,)) as cur:
            r = await cur.fetchone()
        if r is None:
            return None
        game = self._row_to_game(r)
        game.seats = await self._seats(game_id)
        self._keep(_copy_game(game))
        return game

    async def _many(self, sql: str, params: Sequence[Any]) -> list[GameRow]:
        """The games ``sql`` selects, with their seats: two statements however many games (the
        seats of all of them are read at once)."""
        async with self._query(sql, params) as cur:
            rows = [self._row_to_game(r) async for r in cur]
        by_id = {g.id: g for g in rows}
        ids = list(by_id)
        for start in range(0, len(ids), 500):  # SQLite allows a bounded number of parameters
            chunk = ids[start:start + 500]
            async with self._query(
                f"SELECT game_id, seat, user_id, is_bot, name FROM seats "
                f"WHERE game_id IN ({_marks(chunk)}) ORDER BY game_id, seat", chunk) as cur:
                async for r in cur:
                    by_id[r[0]].seats.append(SeatRow(r[1], r[2], bool(r[3]), r[4]))
        return rows

    @_serialised
    async def list_games(self, *, guild_id: int | None = None,
                         statuses: Sequence[str] = ("lobby", "active")) -> list[GameRow]:
        if guild_id is None:
            return await self._many(
                f"SELECT {GAME_COLUMNS} FROM games WHERE status IN ({_marks(statuses)}) ORDER BY id",
                list(statuses))
        return await self._many(
            f"SELECT {GAME_COLUMNS} FROM games WHERE guild_id=? AND status IN ({_marks(statuses)}) "
            "ORDER BY id", [guild_id, *statuses])

    @_serialised
    async def games_of_user(self, user_id: int, statuses: Sequence[str] = ("active",)) -> list[GameRow]:
        return await self._many(
            f"SELECT {G_COLUMNS} FROM games g WHERE g.status IN ({_marks(statuses)}) AND g.id IN "
            "(SELECT game_id FROM seats WHERE user_id=? AND is_bot=0) ORDER BY g.id",
            [*statuses, user_id])

    @_serialised
    async def page_games(self, *, guild_id: int, statuses: Sequence[str] = ("lobby", "active"),
                         limit: int = 15, offset: int = 0) -> GamePage:
        where = f"g.guild_id=? AND g.status IN ({_marks(statuses)})"
        params = [guild_id, *statuses]
        async with self._query(f"SELECT COUNT(*) FROM games g WHERE {where}", params) as cur:
            row = await cur.fetchone()
        total = int(row[0]) if row else 0
        games = await self._many(
            f"SELECT {G_COLUMNS} FROM games g WHERE {where} {RECENT_FIRST} LIMIT ? OFFSET ?",
            [*params, max(0, limit), max(0, offset)])
        return GamePage(games, total)

    @_serialised
    async def search_games(self, *, guild_id: int | None, user_id: int, statuses: Sequence[str],
                           text: str = "", game_keys: Sequence[str] = (),
                           limit: int = 25) -> list[GameRow]:
        params: list[Any]
        if guild_id is not None:
            where, params = "g.guild_id=?", [guild_id]
        else:
            where, params = "g.id IN (SELECT game_id FROM seats WHERE user_id=? AND is_bot=0)", [user_id]
        where += f" AND g.status IN ({_marks(statuses)})"
        params += list(statuses)
        text = text.strip().lstrip("#").strip()
        if text:
            found = ["CAST(g.id AS TEXT) LIKE ? ESCAPE '\\'",
                     "g.id IN (SELECT game_id FROM seats WHERE name LIKE ? ESCAPE '\\')"]
            params += [like_pattern(text), like_pattern(text)]
            if game_keys:
                found.append(f"g.game_key IN ({_marks(game_keys)})")
                params += list(game_keys)
            where += f" AND ({' OR '.join(found)})"
        return await self._many(f"SELECT {G_COLUMNS} FROM games g WHERE {where} {RECENT_FIRST} LIMIT ?",
                                [*params, max(0, limit)])

    @_serialised
    async def games_near(self, *, guild_id: int, channel_id: int | None, user_id: int,
                         statuses: Sequence[str], limit: int = 25) -> list[GameRow]:
        return await self._many(
            f"SELECT {G_COLUMNS} FROM games g WHERE g.guild_id=? AND g.status IN ({_marks(statuses)}) "
            "AND (g.channel_id=? OR g.thread_id=? OR g.id IN "
            "(SELECT game_id FROM seats WHERE user_id=? AND is_bot=0)) "
            f"{RECENT_FIRST} LIMIT ?",
            [guild_id, *statuses, channel_id, channel_id, user_id, max(0, limit)])

    @_serialised
    async def count_tables(self, guild_id: int, user_id: int, *,
                           lobbies_since: float = 0.0) -> TableCounts:
        async with self._query(
            "SELECT COALESCE(SUM(g.status='lobby'), 0), COALESCE(SUM(g.status<>'lobby'), 0), "
            "COALESCE(SUM(g.status='lobby' AND m.game_id IS NOT NULL), 0), "
            "COALESCE(SUM(m.game_id IS NOT NULL), 0) FROM games g LEFT JOIN "
            "(SELECT DISTINCT game_id FROM seats WHERE user_id=? AND is_bot=0) m ON m.game_id=g.id "
            f"WHERE g.guild_id=? AND g.status IN ({_marks(_OPEN)}) "
            "AND (g.status<>'lobby' OR g.updated_at>=?)",
            [user_id, guild_id, *_OPEN, lobbies_since]) as cur:
            row = await cur.fetchone()
        return TableCounts(*(int(x) for x in row)) if row else TableCounts(0, 0, 0, 0)

    @_serialised
    async def update_game(self, game_id: int, **fields: Any) -> None:
        bad = set(fields) - UPDATABLE
        if bad:
            raise StorageError(f"cannot update {sorted(bad)}")
        if not fields:
            return
        kept = self._games.pop(game_id, None)
        values = [(to_json(v) if k in ("options", "result") and v is not None else v) for k, v in fields.items()]
        sets = ", ".join(f"{k}=?" for k in fields)
        await self._x(f"UPDATE games SET {sets} WHERE id=?", (*values, game_id))
        if kept is not None:  # stored: remember the row with the change (as a read would give it)
            self._keep(dataclasses.replace(kept, **{
                k: json.loads(to_json(v)) if k in ("options", "result") and v is not None else v
                for k, v in fields.items()}))

    @_serialised
    async def set_seats(self, game_id: int, seats: Sequence[SeatRow], *,
                        now: float | None = None) -> None:
        self._games.pop(game_id, None)
        async with self._transaction():
            await self._write_seats(game_id, seats)
            if now is not None:
                await self._x("UPDATE games SET updated_at=? WHERE id=?", (now, game_id))

    async def _write_seats(self, game_id: int, seats: Sequence[SeatRow]) -> None:
        await self._x("DELETE FROM seats WHERE game_id=?", (game_id,))
        rows = [(game_id, s.seat, s.user_id, int(s.is_bot), s.name) for s in seats]
        await self._run(lambda conn: conn.executemany(
            "INSERT INTO seats (game_id, seat, user_id, is_bot, name) VALUES (?,?,?,?,?)", rows))

    async def _write_deadlines(self, game_id: int, deadlines: Iterable[DeadlineRow]) -> None:
        """Replace a game's deadlines (inside the caller's transaction), in one hand-off."""
        self._deadlines.pop(game_id, None)
        await self._run(lambda conn: self._deadline_statements(conn, game_id, deadlines))

    def _deadline_statements(self, conn: _Statements, game_id: int,
                             deadlines: Iterable[DeadlineRow]) -> None:
        """The statements that replace a game's deadlines (on the connection's thread). A
        deadline of the same prompt instance as before keeps its claim (another seat's move must
        not free a deadline a process is about to handle), and the same deadline (instance, due
        time and reminder time) its reminder once sent: carried over as the caller read it
        before the reminder went out, it is not to be reminded of again."""
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

    @_serialised
    async def start_game(self, game_id: int, *, seats: Sequence[SeatRow], state: dict[str, Any],
                         opened: Mapping[int, int], deadlines: Sequence[DeadlineRow],
                         now: float) -> None:
        async def landed() -> bool:
            async with self.db.execute("SELECT status, version FROM games WHERE id=?",
                                       (game_id,)) as c:
                row = await c.fetchone()
            return row is not None and tuple(row) == ("active", 1)

        self._games.pop(game_id, None)
        self._deadlines.pop(game_id, None)
        async with self._transaction(landed):
            cur = await self._x(
                "UPDATE games SET status='active', state=?, version=1, opened=?, updated_at=? "
                "WHERE id=? AND status='lobby'", (to_json(state), seat_map_json(opened), now, game_id))
            if cur.rowcount != 1:
                raise VersionConflict(f"game {game_id} is not a lobby any more")
            await self._write_seats(game_id, seats)
            await self._write_deadlines(game_id, deadlines)
        self._remember_deadlines(game_id, deadlines)

    @_serialised
    async def commit_action(self, game_id: int, *, expected_version: int, seat: int,
                            action: dict[str, Any], origin: str, user_id: int | None,
                            state: dict[str, Any], events: Sequence[dict[str, Any]],
                            status: str, result: dict[str, Any] | None,
                            opened: Mapping[int, int], answered: Mapping[int, int],
                            deadlines: Sequence[DeadlineRow], now: float) -> int:
        new_version = expected_version + 1
        n = 0

        async def landed() -> bool:
            """After a failed COMMIT: is this very action stored (the version it made, its row)?"""
            async with self.db.execute(
                    "SELECT g.version, a.seat FROM games g LEFT JOIN actions a "
                    "ON a.game_id=g.id AND a.n=? WHERE g.id=?", (n, game_id)) as c:
                row = await c.fetchone()
            return row is not None and tuple(row) == (new_version, seat)

        kept = self._games.pop(game_id, None)
        # deadlines as the file holds them, when this process knows: unchanged (a computer
        # player's move while a member's clock runs on), they are not written again
        stored = self._deadlines.pop(game_id, None)
        last_event = self._last_events.pop(game_id, None)
        same = stored is not None and (stored == deadlines
                                       or _by_seat(stored) == _by_seat(deadlines))
        state_text = to_json_utf8(state)  # (stored as text: ``CAST(? AS TEXT)``)
        action_row = (to_json(action), origin, user_id)
        event_rows = [event_values(e) for e in events]
        # Only the columns that change are set: SQLite rewrites the entries of every index over a
        # column the statement sets, changed or not (the status and the time of last activity
        # are indexed for the listings): a move that ends nothing keeps the status, and one
        # within ``ACTIVITY_STEP`` of the stored time keeps that time.
        columns = "state=CAST(? AS TEXT), version=?, result=?, opened=?, answered=?"
        values: list[Any] = [state_text, new_version, to_json(result) if result else None,
                             seat_map_json(opened), seat_map_json(answered)]
        if status != "active":
            columns += ", status=?"
            values.append(status)
        current = kept is not None and kept.version == expected_version
        stamp = now
        if current and status == "active" and 0 <= now - kept.updated_at < ACTIVITY_STEP:  # type: ignore[union-attr]
            stamp = kept.updated_at  # type: ignore[union-attr]
        else:
            columns += ", updated_at=?"
            values.append(now)
        values += (game_id, expected_version)
        update = (f"UPDATE games SET {columns} "
                  "WHERE id=? AND version=? AND status='active' AND paused_at IS NULL")

        def write(conn: sqlite3.Cursor) -> None:
            """The version-checked update, the action, its events and the deadlines (``_write``
            begins and commits around them, in the same call)."""
            nonlocal n, last_event
            if conn.execute(update, values).rowcount != 1:
                raise VersionConflict(f"game {game_id} is no longer at version {expected_version}")
            # numbered the version it made, less one (paired with its events after an undo too):
            # versions only go up, so the number is free — but for a game stored by an older
            # Herald, numbered otherwise, where the one after its last is taken
            n = new_version - 1
            try:
                conn.execute(
                    "INSERT INTO actions (game_id, n, seat, action, origin, user_id, created_at) "
                    "VALUES (?,?,?,?,?,?,?)", (game_id, n, seat, *action_row, now))
            except sqlite3.IntegrityError:
                [(n,)] = conn.execute(
                    "INSERT INTO actions (game_id, n, seat, action, origin, user_id, created_at) "
                    "SELECT ?, MAX(COALESCE(MAX(n), 0) + 1, ?), ?, ?, ?, ?, ? FROM actions "
                    "WHERE game_id=? RETURNING n",
                    (game_id, n, seat, *action_row, now, game_id)).fetchall()
            if event_rows:
                last_event = _append_events(conn, game_id, new_version, event_rows, now, last_event)
            if not same:
                self._deadline_statements(conn, game_id, deadlines)

        await self._write(write, landed)
        if current:
            # write-through: the row as it is in the file now, without reading it back (the
            # state and result are plain JSON, as a read would give them: see ``commit_action``);
            # the remembered row is this storage's own (reads get copies), so it is updated as is
            row: GameRow = kept  # type: ignore[assignment]
            row.state, row.version, row.status, row.result = state, new_version, status, result or None
            row.opened = {int(k): int(v) for k, v in opened.items()}
            row.answered = {int(k): int(v) for k, v in answered.items()}
            row.updated_at = stamp
            self._keep(row)
        if status in _LIVE:
            self._remember_deadlines(game_id, deadlines)
            if last_event is not None:
                self._last_events[game_id] = last_event
                while len(self._last_events) > CACHED_GAMES:
                    del self._last_events[next(iter(self._last_events))]
        return new_version

    @_serialised
    async def undo_actions(self, game_id: int, *, expected_version: int, keep: int,
                           state: dict[str, Any], events: Sequence[dict[str, Any]],
                           opened: Mapping[int, int], answered: Mapping[int, int],
                           deadlines: Sequence[DeadlineRow], now: float) -> int:
        new_version = expected_version + 1

        async def landed() -> bool:
            """After a failed COMMIT: is this very undo stored (the version it made)?"""
            async with self.db.execute("SELECT version FROM games WHERE id=?", (game_id,)) as c:
                row = await c.fetchone()
            return row is not None and int(row[0]) == new_version

        self._games.pop(game_id, None)  # (read again from the file after this)
        self._deadlines.pop(game_id, None)
        self._last_events.pop(game_id, None)
        state_text = to_json(state)
        event_rows = [event_values(e) for e in events]

        def write(conn: sqlite3.Connection) -> None:
            conn.execute("BEGIN IMMEDIATE")
            cur = conn.execute(
                "UPDATE games SET state=?, version=?, opened=?, answered=?, updated_at=? "
                "WHERE id=? AND version=? AND status='active' AND paused_at IS NULL",
                (state_text, new_version, seat_map_json(opened), seat_map_json(answered), now, game_id,
                 expected_version))
            if cur.rowcount != 1:
                raise VersionConflict(f"game {game_id} is no longer at version {expected_version}")
            kept = conn.execute("SELECT n FROM actions WHERE game_id=? ORDER BY n LIMIT 1 OFFSET ?",
                                (game_id, keep - 1)).fetchone() if keep > 0 else (0,)
            last = int(kept[0]) if kept is not None else 0
            conn.execute("DELETE FROM actions WHERE game_id=? AND n>?", (game_id, last))
            # an action numbered n made version n + 1, and its events carry that version
            conn.execute("DELETE FROM events WHERE game_id=? AND version>? AND kind<>'undo'",
                         (game_id, last + 1))
            _append_events(conn, game_id, new_version, event_rows, now)
            self._deadline_statements(conn, game_id, deadlines)

        async with self._transaction(landed, begin=False):
            await self._run(write)
        return new_version

    @_serialised
    async def actions(self, game_id: int) -> list[tuple[int, dict[str, Any], str]]:
        async with self._query(
            "SELECT seat, action, origin FROM actions WHERE game_id=? ORDER BY n", (game_id,)) as cur:
            return [(r[0], json.loads(r[1]), r[2]) async for r in cur]

    @_serialised
    async def events(self, game_id: int, *, viewer_seat: int | None, limit: int = 20) -> list[EventRow]:
        async with self._query(
            "SELECT n, version, text, recipients, kind, data, created_at FROM events "
            "WHERE game_id=? ORDER BY n DESC", (game_id,)) as cur:
            out: list[EventRow] = []
            async for r in cur:
                to = from_json(r[3])
                if to is not None and (viewer_seat is None or viewer_seat not in to):
                    continue
                out.append(EventRow(r[0], r[1], r[2], to, r[4], from_json(r[5]) or {}, r[6]))
                if len(out) >= limit:
                    break
        return list(reversed(out))

    # -------------------------------------------------------------- deadlines

    async def deadlines(self, game_id: int) -> list[DeadlineRow]:
        kept = self._deadlines.get(game_id)  # (as for ``get_game``: no lock to wait for)
        if kept is not None:
            return [dataclasses.replace(d) for d in sorted(kept, key=lambda d: (d.seat, d.kind))]
        loaded: list[DeadlineRow] = await self._load_deadlines(game_id)
        return loaded

    @_serialised
    async def _load_deadlines(self, game_id: int) -> list[DeadlineRow]:
        kept = self._deadlines.get(game_id)
        if kept is None:
            async with self._query(
                f"SELECT {DEADLINE_COLUMNS} FROM deadlines WHERE game_id=? "
                "ORDER BY seat, kind", (game_id,)) as cur:
                kept = [deadline_row(r) async for r in cur]
            if game_id in self._games:  # only a live game's deadlines are worth keeping
                self._deadlines[game_id] = kept
        return [dataclasses.replace(d) for d in sorted(kept, key=lambda d: (d.seat, d.kind))]

    @_serialised
    async def next_deadline_time(self, owner: str | None = None) -> float | None:
        async with self._query(
            "SELECT MIN(CASE WHEN claimed_by IS NOT NULL AND claimed_by <> ? "
            "THEN MAX(at, claimed_until) ELSE at END) FROM (SELECT CASE WHEN reminded=0 "
            "AND remind_at IS NOT NULL AND remind_at < due_at THEN remind_at ELSE due_at END "
            "AS at, claimed_by, claimed_until FROM deadlines)", (owner,)) as cur:
            row = await cur.fetchone()
        return float(row[0]) if row and row[0] is not None else None

    @_serialised
    async def due_deadlines(self, now: float) -> list[DeadlineRow]:
        async with self._query(
            f"SELECT {DEADLINE_COLUMNS} FROM deadlines "
            "WHERE due_at <= ? OR (reminded=0 AND remind_at IS NOT NULL AND remind_at <= ?) "
            "ORDER BY due_at, game_id, seat", (now, now)) as cur:
            return [deadline_row(r) async for r in cur]

    @_serialised
    async def claim_deadlines(self, now: float, owner: str, lease_s: float,
                              limit: int = 100) -> list[DeadlineRow]:
        # One statement is one write transaction: SQLite's write lock makes it the only writer
        # of the file while it picks and marks the rows, whichever process runs it.
        def claim(conn: sqlite3.Connection) -> list[Any]:
            return conn.execute(
                "UPDATE deadlines SET claimed_by=?, claimed_until=? WHERE rowid IN ("
                "SELECT rowid FROM deadlines "
                "WHERE (due_at <= ? OR (reminded=0 AND remind_at IS NOT NULL AND remind_at <= ?)) "
                "AND (claimed_by IS NULL OR claimed_until <= ? OR claimed_by = ?) "
                f"ORDER BY due_at, game_id, seat LIMIT ?) RETURNING {DEADLINE_COLUMNS}",
                (owner, now + lease_s, now, now, now, owner, limit)).fetchall()

        rows = [deadline_row(r) for r in await self._run(claim)]
        return sorted(rows, key=lambda d: (d.due_at, d.game_id, d.seat, d.kind))

    @_serialised
    async def mark_reminded(self, game_id: int, seat: int, kind: str,
                            opened: int | None = None) -> bool:
        self._deadlines.pop(game_id, None)
        cur = await self._x(
            "UPDATE deadlines SET reminded=1, claimed_by=NULL, claimed_until=NULL "
            "WHERE game_id=? AND seat=? AND kind=? AND reminded=0 AND (? IS NULL OR opened=?)",
            (game_id, seat, kind, opened, opened))
        return cur.rowcount == 1

    @_serialised
    async def clear_deadlines(self, game_id: int) -> None:
        self._deadlines.pop(game_id, None)
        await self._x("DELETE FROM deadlines WHERE game_id=?", (game_id,))

    @_serialised
    async def replace_deadlines(self, game_id: int, deadlines: Sequence[DeadlineRow]) -> None:
        async with self._transaction():
            await self._write_deadlines(game_id, deadlines)

    # ---------------------------------------------------------------- ratings

    @_serialised
    async def note_departure(self, d: Departure) -> None:
        await self._x("INSERT OR IGNORE INTO departures (game_id, user_id, seat, name) "
                      "VALUES (?,?,?,?)", (d.game_id, d.user_id, d.seat, d.name))

    @_serialised
    async def departures(self, game_id: int) -> list[Departure]:
        async with self._query(
                "SELECT game_id, seat, user_id, name FROM departures WHERE game_id=? "
                "ORDER BY seat, user_id", (game_id,)) as cur:
            return [Departure(r[0], r[1], r[2], r[3]) async for r in cur]

    @_serialised
    async def settle_game(self, game: RatedGame, rate: Rater, now: float) -> bool:
        async def landed() -> bool:
            async with self.db.execute("SELECT 1 FROM settled_games WHERE game_id=?",
                                       (game.game_id,)) as c:
                return await c.fetchone() is not None

        def write(conn: sqlite3.Connection) -> bool:
            """The whole settlement in one hand-off: BEGIN IMMEDIATE is the write lock, so no
            other settlement reads these ratings until this one commits."""
            conn.execute("BEGIN IMMEDIATE")
            cur = conn.execute(
                "INSERT OR IGNORE INTO settled_games (game_id, guild_id, game_key, started_at, "
                "finished_at, moves, rated, settled_at) VALUES (?,?,?,?,?,?,?,?)",
                (game.game_id, game.guild_id, game.game_key, game.started_at, game.finished_at,
                 game.moves, int(bool(game.players)), now))
            if cur.rowcount != 1 or not game.players:
                return cur.rowcount == 1
            ids = [p.user_id for p in game.players]
            current = {r[2]: RatingRow(*r) for r in conn.execute(
                "SELECT guild_id, game_key, user_id, name, mu, sigma, games, wins, updated_at "
                f"FROM ratings WHERE guild_id=? AND game_key=? AND user_id IN ({_marks(ids)})",
                (game.guild_id, game.game_key, *ids)).fetchall()}
            new = rate(current)
            conn.executemany(
                "INSERT INTO ratings (guild_id, game_key, user_id, name, mu, sigma, games, wins, "
                "updated_at) VALUES (?,?,?,?,?,?,1,?,?) ON CONFLICT(guild_id, game_key, user_id) "
                "DO UPDATE SET name=excluded.name, mu=excluded.mu, sigma=excluded.sigma, "
                "games=ratings.games+1, wins=ratings.wins+excluded.wins, "
                "updated_at=excluded.updated_at",
                [(game.guild_id, game.game_key, p.user_id, p.name, *new[p.user_id], int(p.won),
                  now) for p in game.players])
            conn.executemany(
                "INSERT INTO settled_places (game_id, user_id, guild_id, name, rank, won, "
                "abandoned, mu, sigma) VALUES (?,?,?,?,?,?,?,?,?)",
                [(game.game_id, p.user_id, game.guild_id, p.name, p.rank, int(p.won),
                  int(p.abandoned), *new[p.user_id]) for p in game.players])
            return True

        async with self._transaction(landed, begin=False):
            settled: bool = await self._run(write)
        return settled

    @_serialised
    async def unsettled_games(self, limit: int = 100) -> list[int]:
        async with self._query(
                "SELECT g.id FROM games g WHERE g.status='finished' AND g.guild_id IS NOT NULL "
                "AND NOT EXISTS (SELECT 1 FROM settled_games s WHERE s.game_id=g.id) "
                "ORDER BY g.updated_at, g.id LIMIT ?", (max(0, limit),)) as cur:
            return [int(r[0]) async for r in cur]

    @_serialised
    async def leaderboard(self, guild_id: int, game_key: str, *, limit: int = 10,
                          offset: int = 0) -> tuple[list[RatingRow], int]:
        where = "guild_id=? AND game_key=? AND user_id<>?"
        params = (guild_id, game_key, COMPUTER_ID)
        async with self._query(f"SELECT COUNT(*) FROM ratings WHERE {where}", params) as cur:
            row = await cur.fetchone()
        async with self._query(
                "SELECT guild_id, game_key, user_id, name, mu, sigma, games, wins, updated_at "
                f"FROM ratings WHERE {where} ORDER BY mu - 3 * sigma DESC, games DESC, user_id "
                "LIMIT ? OFFSET ?", (*params, max(0, limit), max(0, offset))) as cur:
            rows = [RatingRow(*r) async for r in cur]
        return rows, int(row[0]) if row else 0

    @_serialised
    async def ratings_of(self, guild_id: int, user_id: int) -> list[RatingRow]:
        async with self._query(
                "SELECT guild_id, game_key, user_id, name, mu, sigma, games, wins, updated_at "
                "FROM ratings WHERE guild_id=? AND user_id=? ORDER BY games DESC, game_key",
                (guild_id, user_id)) as cur:
            return [RatingRow(*r) async for r in cur]

    @_serialised
    async def longest_game(self, guild_id: int, user_id: int) -> LongestGame | None:
        async with self._query(
                "SELECT s.game_id, s.game_key, s.finished_at - s.started_at, s.moves "
                "FROM settled_places p JOIN settled_games s ON s.game_id=p.game_id "
                "WHERE p.guild_id=? AND p.user_id=? "
                "ORDER BY s.finished_at - s.started_at DESC, s.moves DESC, s.game_id LIMIT 1",
                (guild_id, user_id)) as cur:
            r = await cur.fetchone()
        return None if r is None else LongestGame(int(r[0]), str(r[1]), float(r[2]), int(r[3]))

    # ------------------------------------ player preferences, time away, pauses

    @_serialised
    async def player_prefs(self, user_ids: Sequence[int]) -> dict[int, PlayerPrefs]:
        ids = list(dict.fromkeys(user_ids))
        out = {uid: PlayerPrefs(uid) for uid in ids}
        for start in range(0, len(ids), 500):  # (SQLite allows a bounded number of parameters)
            chunk = ids[start:start + 500]
            async with self._query(
                    f"SELECT {PREFS_COLUMNS} FROM player_prefs WHERE user_id IN ({_marks(chunk)})",
                    chunk) as cur:
                async for r in cur:
                    out[r[0]] = prefs_row(r)
        return out

    @_serialised
    async def save_player_prefs(self, prefs: PlayerPrefs) -> None:
        await self._x(
            f"INSERT INTO player_prefs ({PREFS_COLUMNS}) VALUES (?,?,?,?,?,?,?,?) "
            "ON CONFLICT(user_id) DO UPDATE SET pings=excluded.pings, dms=excluded.dms, "
            "quiet_start=excluded.quiet_start, quiet_end=excluded.quiet_end, zone=excluded.zone, "
            "away_until=excluded.away_until, away_mode=excluded.away_mode",
            (prefs.user_id, int(prefs.pings), prefs.dms, prefs.quiet_start, prefs.quiet_end,
             prefs.zone, prefs.away_until, prefs.away_mode))

    async def _pause_row(self, game_id: int) -> tuple[str, GamePause] | None:
        """A game's status and pause (inside the caller's lock)."""
        async with self._query(f"SELECT status, {PAUSE_COLUMNS} FROM games WHERE id=?",
                                   (game_id,)) as cur:
            r = await cur.fetchone()
        return None if r is None else (str(r[0]), pause_row(r[1:]))

    @_serialised
    async def pause_game(self, game_id: int, *, by: int | None, now: float) -> GamePause | None:
        async with self._transaction():
            row = await self._pause_row(game_id)
            if row is None or row[0] != "active" or row[1].paused:
                return None
            async with self._query(
                    f"SELECT {DEADLINE_COLUMNS} FROM deadlines WHERE game_id=? ORDER BY seat, kind",
                    (game_id,)) as cur:
                frozen = [deadline_row(r) async for r in cur]
            await self._write_deadlines(game_id, [])
            await self._x("UPDATE games SET paused_at=?, paused_by=?, pause_frozen=? WHERE id=?",
                          (now, by, frozen_text(frozen), game_id))
        return GamePause(game_id, now, by, row[1].used, frozen)

    @_serialised
    async def resume_game(self, game_id: int, *, now: float) -> GamePause | None:
        async with self._transaction():
            row = await self._pause_row(game_id)
            if row is None or row[1].paused_at is None:
                return None
            status, pause = row
            await self._x("UPDATE games SET paused_at=NULL, paused_by=NULL, pause_frozen=NULL, "
                          "pause_used=? WHERE id=?",
                          (pause.used + max(0.0, now - (pause.paused_at or now)), game_id))
            if status == "active":
                await self._write_deadlines(game_id, thawed(pause, now))
        return pause

    @_serialised
    async def game_pause(self, game_id: int) -> GamePause | None:
        row = await self._pause_row(game_id)
        return None if row is None else row[1]

    @_serialised
    async def paused_games(self) -> list[GamePause]:
        async with self._query(
                f"SELECT {PAUSE_COLUMNS} FROM games WHERE paused_at IS NOT NULL AND status='active' "
                "ORDER BY paused_at, id") as cur:
            return [pause_row(r) async for r in cur]

    # ------------------------------------------------------- settings and DMs

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        kept = self._guilds.get(guild_id)  # (as for ``get_game``: no lock to wait for)
        if kept is not None:
            return dataclasses.replace(kept, channels=list(kept.channels))
        loaded: GuildSettings = await self._load_guild_settings(guild_id)
        return loaded

    @_serialised
    async def _load_guild_settings(self, guild_id: int) -> GuildSettings:
        kept = self._guilds.get(guild_id)
        if kept is None:
            async with self._query(
                "SELECT default_deadline, reminder_lead, opener_role_id, channels, table_limit, "
                "member_lobby_limit, member_table_limit, leaderboards, lobby_limit, lobby_expiry, "
                "web_pages FROM guild_settings WHERE guild_id=?", (guild_id,)) as cur:
                r = await cur.fetchone()
            kept = GuildSettings(guild_id) if r is None else GuildSettings(
                guild_id, r[0], r[1], r[2], list(from_json(r[3]) or []), r[4], r[5], r[6],
                leaderboards=bool(r[7]), lobby_limit=r[8], lobby_expiry=r[9],
                web_pages=r[10] is None or bool(r[10]))
            self._guilds[guild_id] = kept
        return dataclasses.replace(kept, channels=list(kept.channels))

    @_serialised
    async def save_guild_settings(self, s: GuildSettings) -> None:
        self._guilds.pop(s.guild_id, None)
        await self._x(
            "INSERT INTO guild_settings (guild_id, default_deadline, reminder_lead, opener_role_id, channels, "
            "table_limit, member_lobby_limit, member_table_limit, leaderboards, lobby_limit, "
            "lobby_expiry, web_pages) VALUES (?,?,?,?,?,?,?,?,?,?,?,?) "
            "ON CONFLICT(guild_id) DO UPDATE SET default_deadline=excluded.default_deadline, "
            "reminder_lead=excluded.reminder_lead, opener_role_id=excluded.opener_role_id, "
            "channels=excluded.channels, table_limit=excluded.table_limit, "
            "member_lobby_limit=excluded.member_lobby_limit, member_table_limit=excluded.member_table_limit, "
            "leaderboards=excluded.leaderboards, lobby_limit=excluded.lobby_limit, "
            "lobby_expiry=excluded.lobby_expiry, web_pages=excluded.web_pages",
            (s.guild_id, s.default_deadline, s.reminder_lead, s.opener_role_id, to_json(s.channels),
             s.table_limit, s.member_lobby_limit, s.member_table_limit, int(s.leaderboards),
             s.lobby_limit, s.lobby_expiry, int(s.web_pages)))

    @_serialised
    async def set_dm_reachable(self, user_id: int, reachable: bool, now: float) -> None:
        await self._x(
            "INSERT INTO dm_status (user_id, reachable, checked_at) VALUES (?,?,?) "
            "ON CONFLICT(user_id) DO UPDATE SET reachable=excluded.reachable, checked_at=excluded.checked_at",
            (user_id, int(reachable), now))

    @_serialised
    async def dm_reachable(self, user_id: int) -> bool | None:
        async with self._query("SELECT reachable FROM dm_status WHERE user_id=?", (user_id,)) as cur:
            r = await cur.fetchone()
        return None if r is None else bool(r[0])

    @_serialised
    async def note_dm_notice(self, game_id: int, user_id: int) -> bool:
        cur = await self._x(
            "INSERT OR IGNORE INTO dm_notices (game_id, user_id) VALUES (?,?)", (game_id, user_id))
        return cur.rowcount == 1

    @_serialised
    async def dm_channel(self, user_id: int) -> int | None:
        async with self._query("SELECT channel_id FROM dm_channels WHERE user_id=?", (user_id,)) as cur:
            r = await cur.fetchone()
        return None if r is None else int(r[0])

    @_serialised
    async def log_posted(self, game_id: int) -> int | None:
        async with self._query("SELECT version FROM thread_logs WHERE game_id=?", (game_id,)) as cur:
            r = await cur.fetchone()
        return None if r is None else int(r[0])

    @_serialised
    async def set_log_posted(self, game_id: int, version: int) -> None:
        await self._x(
            "INSERT INTO thread_logs (game_id, version) VALUES (?,?) "
            "ON CONFLICT(game_id) DO UPDATE SET version=excluded.version", (game_id, version))

    @_serialised
    async def set_dm_channel(self, user_id: int, channel_id: int | None) -> None:
        if channel_id is None:
            await self._x("DELETE FROM dm_channels WHERE user_id=?", (user_id,))
            return
        await self._x(
            "INSERT INTO dm_channels (user_id, channel_id) VALUES (?,?) "
            "ON CONFLICT(user_id) DO UPDATE SET channel_id=excluded.channel_id", (user_id, channel_id))

    # -------------------------------------------------------------- web links

    @_serialised
    async def web_link(self, game_id: int, token: str, now: float) -> str:
        await self._x("INSERT INTO web_links (game_id, token, digest, created_at) VALUES (?,?,?,?) "
                      "ON CONFLICT(game_id) DO NOTHING", (game_id, token, link_digest(token), now))
        async with self._query("SELECT token FROM web_links WHERE game_id=?", (game_id,)) as cur:
            r = await cur.fetchone()
        return str(r[0])

    @_serialised
    async def web_links(self, game_ids: Sequence[int]) -> dict[int, str]:
        out: dict[int, str] = {}
        ids = list(game_ids)
        for start in range(0, len(ids), 500):
            chunk = ids[start:start + 500]
            marks = ",".join("?" * len(chunk))
            async with self._query(f"SELECT game_id, token FROM web_links WHERE game_id IN ({marks})",
                                   chunk) as cur:
                out.update({int(r[0]): str(r[1]) async for r in cur})
        return out

    @_serialised
    async def game_of_link(self, token: str) -> int | None:
        async with self._query("SELECT game_id, token FROM web_links WHERE digest=?",
                               (link_digest(token),)) as cur:
            r = await cur.fetchone()
        if r is None or not hmac.compare_digest(str(r[1]).encode(), token.encode("utf-8", "surrogatepass")):
            return None
        return int(r[0])

    @_serialised
    async def web_secret(self, candidate: str) -> str:
        await self._x("INSERT INTO web_secret (id, secret) VALUES (1, ?) ON CONFLICT(id) DO NOTHING",
                      (candidate,))
        async with self._query("SELECT secret FROM web_secret WHERE id=1") as cur:
            r = await cur.fetchone()
        return str(r[0])

    @_serialised
    async def seat_link_generation(self, game_id: int, seat: int) -> int:
        async with self._query("SELECT generation FROM web_seat_links WHERE game_id=? AND seat=?",
                               (game_id, seat)) as cur:
            r = await cur.fetchone()
        return 0 if r is None else int(r[0])

    @_serialised
    async def renew_seat_link(self, game_id: int, seat: int) -> int:
        await self._x("INSERT INTO web_seat_links (game_id, seat, generation) VALUES (?,?,1) "
                      "ON CONFLICT(game_id, seat) DO UPDATE SET generation=generation+1",
                      (game_id, seat))
        async with self._query("SELECT generation FROM web_seat_links WHERE game_id=? AND seat=?",
                               (game_id, seat)) as cur:
            r = await cur.fetchone()
        return int(r[0])

    # ------------------------------------------------------------- saved decks

    _DECK_COLUMNS = "id, user_id, game_key, name, data, created_at, updated_at"

    @staticmethod
    def _deck(r: Sequence[Any]) -> DeckRow:
        return DeckRow(int(r[0]), int(r[1]), str(r[2]), str(r[3]), from_json(r[4]) or {},
                       float(r[5]), float(r[6]))

    @_serialised
    async def decks(self, user_id: int, game_key: str | None = None) -> list[DeckRow]:
        async with self._query(
            f"SELECT {self._DECK_COLUMNS} FROM decks WHERE user_id=? AND (? IS NULL OR game_key=?) "
            "ORDER BY name_key, id", (user_id, game_key, game_key)) as cur:
            return [self._deck(r) async for r in cur]

    @_serialised
    async def deck(self, deck_id: int) -> DeckRow | None:
        async with self._query(
            f"SELECT {self._DECK_COLUMNS} FROM decks WHERE id=?", (deck_id,)) as cur:
            r = await cur.fetchone()
        return None if r is None else self._deck(r)

    @_serialised
    async def create_deck(self, user_id: int, game_key: str, name: str, data: dict[str, Any], *,
                          now: float, limit: int) -> int | None:
        key = deck_name_key(name)
        cur = await self._x(
            "INSERT INTO decks (user_id, game_key, name, name_key, data, created_at, updated_at) "
            "SELECT ?,?,?,?,?,?,? WHERE (SELECT COUNT(*) FROM decks WHERE user_id=?) < ? "
            "AND NOT EXISTS (SELECT 1 FROM decks WHERE user_id=? AND game_key=? AND name_key=?)",
            (user_id, game_key, name, key, to_json(data), now, now, user_id, limit,
             user_id, game_key, key))
        return int(cur.lastrowid) if cur.rowcount == 1 and cur.lastrowid is not None else None

    @_serialised
    async def update_deck(self, deck_id: int, user_id: int, data: dict[str, Any], *,
                          now: float) -> bool:
        cur = await self._x("UPDATE decks SET data=?, updated_at=? WHERE id=? AND user_id=?",
                            (to_json(data), now, deck_id, user_id))
        return cur.rowcount == 1

    @_serialised
    async def delete_deck(self, deck_id: int, user_id: int) -> bool:
        cur = await self._x("DELETE FROM decks WHERE id=? AND user_id=?", (deck_id, user_id))
        return cur.rowcount == 1
