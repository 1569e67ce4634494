"""The PostgreSQL backend of :class:`bot.storage.sql.Storage`, for communities that outgrow a file.

Two processes writing one game serialise on its row, locked by an action's version-checked update
(``_COMMIT``) or, for an undo or a pause, by ``SELECT … FOR UPDATE`` before the check: the loser
gets :class:`VersionConflict`, as with SQLite, and a lock waited for beyond ``lock_timeout`` is
:class:`StorageBusy`. Servers' settings are kept in memory only while every change to them is heard
(LISTEN/NOTIFY); nothing of a game is kept. The URL's password is never written anywhere
(:mod:`bot.dburl`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from typing import Any

import asyncpg

from ..dburl import ENCODING_HINT, redacted, scrubbed
from .base import (
    DEADLINE_COLUMNS,
    G_COLUMNS,
    SEAT_COLUMNS,
    DeadlineRow,
    GameRow,
    StorageBusy,
    StorageCorrupt,
    StorageError,
    StorageFull,
    StorageOpenError,
    StorageReadOnly,
    StorageUnavailable,
    VersionConflict,
    deadline_row,
    event_values,
    seat_map_json,
    seat_row,
    to_json,
)
from .dialect import POSTGRES
from .migrations import scripts
from .sql import Executor, Landed, Storage, boundary, doing, row_to_game

log = logging.getLogger("herald.storage")

MIGRATIONS: list[str] = scripts(POSTGRES)
"""Each schema step as PostgreSQL runs it: step for step SQLite's, so a number means the same."""
SCHEMA_TABLE = "herald_schema"
"""One row, the schema version (PostgreSQL has no ``user_version``); absent: an empty database."""
SCHEMA_EXISTS = ("SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_tables "
                 f"WHERE tablename='{SCHEMA_TABLE}' AND schemaname=current_schema())")
"""Whether the database holds Herald's schema table (a query on the catalog, not to_regclass: it
sees a table another process created while this one waited for the migration lock)."""
SCHEMA_VERSION = f"SELECT MAX(version) FROM {SCHEMA_TABLE}"
TABLE_NAMES = ("SELECT tablename FROM pg_tables WHERE schemaname = current_schema() "
               "ORDER BY tablename")
"""The tables in Herald's schema (the connection's first ``search_path`` entry)."""
_MIGRATION_LOCK = 0x6865_7261_6C64
"""The advisory lock held while migrating, so that processes starting together migrate once."""
_DRIVER_ERRORS = (asyncpg.PostgresError, asyncpg.InterfaceError,
                  asyncpg.exceptions.InternalClientError, OSError, TimeoutError)


def _kind(exc: BaseException) -> type[StorageError] | None:
    if isinstance(exc, asyncpg.PostgresError):
        state = str(getattr(exc, "sqlstate", "") or "")
        if state in ("40001", "40P01", "55P03", "57014"):
            # serialisation failure, deadlock, lock_timeout, statement timeout: contention
            return StorageBusy
        if state == "53100":
            return StorageFull
        if state in ("25006", "42501"):
            # read-only transaction (a standby, default_transaction_read_only), no privilege
            return StorageReadOnly
        if state in ("XX001", "XX002"):
            return StorageCorrupt
        if state[:2] in ("08", "53", "57", "58"):
            # connection lost, out of resources, server shutting down, I/O error on the server
            return StorageUnavailable
        return None
    if isinstance(exc, TimeoutError):
        return StorageBusy
    if isinstance(exc, OSError):
        return StorageUnavailable
    if isinstance(exc, asyncpg.exceptions.InternalClientError):
        return StorageUnavailable  # the protocol met a message it did not expect: a dying link
    if isinstance(exc, asyncpg.InterfaceError) and "closed" in str(exc):
        return StorageUnavailable  # the connection was closed under the call
    return None


def _answered(exc: BaseException) -> bool:
    """The server refused the statement or commit (nothing stored): not a connection lost."""
    return isinstance(exc, asyncpg.PostgresError) and not str(
        getattr(exc, "sqlstate", "")).startswith("08")


def _event_arrays(events: Sequence[dict[str, Any]]) -> tuple[list[Any], ...]:
    """Events as four parallel arrays (text, recipients, kind, data): one ``unnest`` inserts all."""
    rows = [event_values(e) for e in events]
    return tuple([r[i] for r in rows] for i in range(4))


def _deadline_arrays(deadlines: Sequence[DeadlineRow]) -> tuple[list[Any], ...]:
    """Deadlines as six parallel arrays (seat, kind, due, reminder, reminded, prompt instance).
    Two for one seat and kind, a bug of the caller's, are refused as the primary key refuses them
    (with a clearer error than the statement's own): nothing of the transaction is stored."""
    keys = [(d.seat, d.kind) for d in deadlines]
    if len(set(keys)) != len(keys):
        twice = next(k for k in keys if keys.count(k) > 1)
        raise asyncpg.UniqueViolationError(
            f"two deadlines for seat {twice[0]}'s {twice[1]!r} decision in one write")
    rows = [(d.seat, d.kind, float(d.due_at), None if d.remind_at is None else float(d.remind_at),
             bool(d.reminded), int(d.opened)) for d in deadlines]
    return tuple([r[i] for r in rows] for i in range(6))


def _deadline_ctes(first: int, game: str, guard: str) -> str:
    """The common table expressions that replace the deadlines of ``game`` (an SQL expression)
    with those of :func:`_deadline_arrays` at parameters ``first`` to ``first + 5``, if ``guard``
    has a row (it has one or none). A row of the same seat and kind is updated only when it
    changed (see ``Storage._write_deadlines``): an unchanged one gets no new row version, so a
    claim or a reminder another process made since the caller read it stands (the statement waits
    for that process's row lock, then sees its committed row). Rows no longer open are deleted."""
    p = [f"${first + i}" for i in range(6)]
    same = ("(d.due_at, d.remind_at, d.opened) IS NOT DISTINCT FROM "
            "(excluded.due_at, excluded.remind_at, excluded.opened)")
    return (
        f"dn AS (SELECT * FROM unnest({p[0]}::int[], {p[1]}::text[], {p[2]}::float8[], "
        f"{p[3]}::float8[], {p[4]}::bool[], {p[5]}::bigint[]) "
        "AS x(seat, kind, due_at, remind_at, reminded, opened)), "
        f"dd AS (DELETE FROM deadlines AS d WHERE d.game_id={game} AND EXISTS (SELECT 1 FROM {guard}) "
        "AND NOT EXISTS (SELECT 1 FROM dn WHERE dn.seat=d.seat AND dn.kind=d.kind)), "
        "du AS (INSERT INTO deadlines AS d (game_id, seat, kind, due_at, remind_at, reminded, opened) "
        f"SELECT {game}, dn.seat, dn.kind, dn.due_at, dn.remind_at, dn.reminded, dn.opened "
        f"FROM dn WHERE EXISTS (SELECT 1 FROM {guard}) "
        "ON CONFLICT (game_id, seat, kind) DO UPDATE SET due_at=excluded.due_at, "
        "remind_at=excluded.remind_at, opened=excluded.opened, "
        f"reminded=excluded.reminded OR (d.reminded AND {same}), "
        "claimed_by=CASE WHEN d.opened=excluded.opened THEN d.claimed_by END, "
        "claimed_until=CASE WHEN d.opened=excluded.opened THEN d.claimed_until END "
        f"WHERE NOT {same} OR (excluded.reminded AND NOT d.reminded))")


def _deadline_news(game: str, guard: str) -> str:
    """True when :func:`_deadline_ctes` writes a deadline (seat, kind and prompt instance) the
    game did not have: the other processes are then woken for it."""
    return (f"EXISTS (SELECT 1 FROM {guard}) AND EXISTS (SELECT 1 FROM dn WHERE NOT EXISTS "
            f"(SELECT 1 FROM deadlines AS o WHERE o.game_id={game} AND o.seat=dn.seat "
            "AND o.kind=dn.kind AND o.opened=dn.opened))")


_ALWAYS = "(VALUES (1)) AS always"
"""A guard of :func:`_deadline_ctes` with one row: write unconditionally."""
_REPLACE_DEADLINES = (f"WITH {_deadline_ctes(2, '$1::bigint', _ALWAYS)} SELECT CASE WHEN "
                      f"{_deadline_news('$1::bigint', _ALWAYS)} THEN pg_notify($8, $9) END")
"""A game's deadlines replaced (``$1`` the game, ``$8``/``$9`` the wake-up's channel and tag)."""

_COMMIT = (
    "WITH g AS (UPDATE games SET state=$3, version=$2 + 1, status=$4, result=$5, opened=$6, "
    "answered=$7, updated_at=$8 WHERE id=$1 AND version=$2 AND status='active' "
    "AND paused_at IS NULL RETURNING id), "
    # numbered the version it made, less one: paired with its events after an undo too
    "a AS (INSERT INTO actions (game_id, n, seat, action, origin, user_id, created_at, "
    "prompt_kind, secret) "
    "SELECT g.id, GREATEST(COALESCE((SELECT MAX(n) FROM actions WHERE game_id=$1), 0) + 1, $2), "
    "$9, $10, $11, $12, $8, $25, $26 FROM g RETURNING n), "
    "e AS (INSERT INTO events (game_id, n, version, text, recipients, kind, data, created_at) "
    "SELECT g.id, COALESCE((SELECT MAX(n) FROM events WHERE game_id=$1), 0) + e.i, $2 + 1, "
    "e.text, e.recipients, e.kind, e.data, $8 FROM g, unnest($13::text[], $14::text[], "
    "$15::text[], $16::text[]) WITH ORDINALITY AS e(text, recipients, kind, data, i)), "
    + _deadline_ctes(17, "$1::bigint", "g")
    + " SELECT (SELECT n FROM a), CASE WHEN " + _deadline_news("$1::bigint", "g")
    + " THEN pg_notify($23, $24) END")
"""An action's whole write, one statement that is its own transaction (one round trip). The game's
row is updated only at ``expected_version`` (``$2``), active and not paused, which locks it: a
racing write re-checks the condition on the row as committed and updates nothing. Only then are
the action numbered, its events numbered on from the game's last, its deadlines replaced and the
other processes woken for a new one. The first column is the action's number, NULL when nothing
was written. The last numbers are read in the statement's snapshot, which may predate the lock:
safe, because every write of a game's actions or events changes its version under that lock, so
a snapshot that missed one finds the row at another version and writes nothing."""

WAKE_CHANNEL = "herald_deadlines"
"""NOTIFY to the other processes: a new deadline is stored (the payload: the sender's tag)."""
SETTINGS_CHANNEL = "herald_settings"
"""NOTIFY to every process, the sender too: a server's settings changed (the payload: its id)."""
UPDATE_CHANNEL = "herald_updates"
"""NOTIFY to other processes' web pages: a game's new version (the payload: tag:game:version)."""
RELISTEN_EVERY = 30
"""Seconds between attempts to re-open a lost listening connection."""

_GAME_WITH_SEATS = (
    f"SELECT {G_COLUMNS}, "
    + ", ".join(f"ARRAY(SELECT s.{c} FROM seats s WHERE s.game_id=g.id ORDER BY s.seat)"
                for c in SEAT_COLUMNS.split(", "))
    + " FROM games g WHERE g.id=$1")
"""A game and its seats (four arrays, in seat order): the read every step of a game starts with."""
_GAME_SEATS_DEADLINES = (
    _GAME_WITH_SEATS.replace(" FROM games g WHERE g.id=$1", ", ")
    + ", ".join(f"ARRAY(SELECT d.{c} FROM deadlines d WHERE d.game_id=g.id ORDER BY d.seat, d.kind)"
                for c in DEADLINE_COLUMNS.split(", ")[1:])
    + " FROM games g WHERE g.id=$1")
"""The same with the game's deadlines (six more arrays, by seat and kind): a player's move."""


class _Connection:
    """The executor of :mod:`bot.storage.sql` on asyncpg (``?`` placeholders numbered ``$1``, …)."""

    __slots__ = ("conn",)

    def __init__(self, conn: asyncpg.Connection) -> None:
        self.conn = conn

    async def execute(self, sql: str, *params: Any) -> int:
        status = str(await self.conn.execute(POSTGRES.sql(sql), *params))
        count = status.rpartition(" ")[2]  # the rows changed ("UPDATE 1", "INSERT 0 1")
        return int(count) if count.isdigit() else 0

    async def rows(self, sql: str, *params: Any) -> list[Sequence[Any]]:
        return list(await self.conn.fetch(POSTGRES.sql(sql), *params))

    async def value(self, sql: str, *params: Any) -> Any:
        return await self.conn.fetchval(POSTGRES.sql(sql), *params)


class PostgresStorage(Storage):
    """Calls run concurrently, each on a connection of asyncpg's pool."""

    dialect = POSTGRES
    migrations = MIGRATIONS
    _TABLE_NAMES = TABLE_NAMES
    _RECOVER = "restore it from a backup (pg_dump) before starting Herald again"
    _OLDER_BACKUP = "restore a backup made with this version"
    driver_errors = _DRIVER_ERRORS
    SETTINGS_KEPT_FOR = 60.0
    """A backstop: a change is heard at once, unless the listening connection died unnoticed."""

    def __init__(self, url: str, *, busy_timeout: float = 5.0, pool_size: int = 10,
                 trace: Callable[[str], None] | None = None) -> None:
        super().__init__()
        self.url = url
        self.where = redacted(url)
        self.busy_timeout = busy_timeout
        """Seconds to wait for a row lock or a free connection before ``StorageBusy``."""
        self.pool_size = pool_size
        self.trace = trace
        """Called with every statement's text (tests count statements; never set in service).
        Set at construction for the connections to report to it; it may be swapped later."""
        self._pool: asyncpg.Pool | None = None
        self.tag = secrets.token_hex(6)
        """This storage's name in the wake-ups it sends (it does not wake itself)."""
        self._listener: asyncpg.Connection | None = None
        self._on_new_deadline: Callable[[], None] | None = None
        self._relisten: asyncio.Task[None] | None = None
        self._on_update: Callable[[int, int], None] | None = None

    @property
    def pool(self) -> asyncpg.Pool:
        if self._pool is None:
            raise StorageError("storage is not open")
        return self._pool

    @contextlib.asynccontextmanager
    async def _connection(self) -> AsyncIterator[asyncpg.Connection]:
        async with self.pool.acquire(timeout=self.busy_timeout) as conn:
            try:
                yield conn
            except _DRIVER_ERRORS as exc:
                if _kind(exc) is StorageUnavailable:
                    # the server dropped this connection (a restart, a shutdown, a killed
                    # backend), and likely its siblings, which may not know it yet: this one is
                    # closed now, the idle ones are replaced at their next use
                    with contextlib.suppress(asyncpg.InterfaceError):  # already given back
                        conn.terminate()
                    await self.pool.expire_connections()
                raise

    @contextlib.asynccontextmanager
    async def _session(self) -> AsyncIterator[Executor]:
        async with self._connection() as conn:
            yield _Connection(conn)

    async def _lock_key(self, x: Executor, key: str) -> None:
        await x.execute("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))", key)

    async def _settings_saved(self, x: Executor, guild_id: int) -> None:
        await x.execute("SELECT pg_notify(?, ?)", SETTINGS_CHANNEL, str(guild_id))

    def _settings_heard(self) -> bool:
        return self._listener is not None  # (every process notifies the changes it saves)

    # ------------------------------------------------------------ failures

    _FAULTS = {
        StorageBusy: "{where} kept Herald waiting for more than {timeout}s (rows locked by "
                     "another process, or the server overloaded)",
        StorageFull: "could not write to {where}: the server's disk is full",
        StorageReadOnly: "{where} refused a write (a read-only server or transaction, or Herald's "
                         "database user lacks the privilege)",
        StorageCorrupt: "{where} reports damaged data; restore it from a backup (pg_dump) or "
                        "repair it before starting Herald again",
        StorageUnavailable: "{where} could not be reached just now",
    }

    _kind = staticmethod(_kind)

    def _cause(self, exc: BaseException) -> str:
        state = getattr(exc, "sqlstate", None)
        name = type(exc).__name__ + (f" {state}" if state else "")
        return scrubbed(f"{name}: {str(exc) or 'no details'}", self.url)

    @contextlib.asynccontextmanager
    async def _tx(self, landed: Landed | None = None) -> AsyncIterator[Executor]:
        async with self._connection() as conn:
            tr = conn.transaction()
            await tr.start()
            try:
                yield _Connection(conn)
            except BaseException as exc:
                try:
                    await tr.rollback()
                except _DRIVER_ERRORS as err:  # the server rolls back a lost session itself
                    log.warning("%s: rolling back after %s failed too (%s)", doing.get(),
                                self._cause(exc), self._cause(err))
                raise
            try:
                await tr.commit()
            except _DRIVER_ERRORS as exc:
                pid = conn.get_server_pid()
                if not _answered(exc):
                    with contextlib.suppress(asyncpg.InterfaceError):
                        conn.terminate()  # (no use after a lost answer: the pool replaces it)
                await self._settle_lost(exc, landed, pid)

    async def _settle_lost(self, exc: BaseException, landed: Landed | None, pid: int) -> None:
        """After ``exc`` ended a commit (a COMMIT, or a statement that is its own transaction) on
        server process ``pid``: return if the change is stored after all, else raise. A server's
        error answer is a refused commit; after a lost connection, ``landed`` asks on another
        connection once that server process is ended: one still waiting for a row lock, or unaware
        that its client is gone, would otherwise commit after being reported as not stored
        (``landed`` also waits for the game's row lock, which such a process holds until gone)."""
        if _answered(exc):
            raise exc
        stored: bool | None = None
        if landed is not None:
            try:
                async with self._connection() as other:
                    with contextlib.suppress(asyncpg.PostgresError):  # (gone already, or not ours)
                        await other.execute(
                            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid=$1 "
                            "AND pid <> pg_backend_pid() AND application_name='herald'", pid)
                    stored = await landed(_Connection(other))
            except _DRIVER_ERRORS:
                stored = None
        self._settled(exc, stored, "the connection failed while committing")

    # ------------------------------------------------------------ opening

    async def open(self) -> None:
        """Connect, check the database and migrate it. One that must not become Herald's (another
        program's tables, a newer Herald's schema, read-only, missing, unreachable, a refused
        login) is refused before any write (``StorageOpenError``, one sentence for the admin)."""
        token = doing.set("open")
        try:
            self._pool = await self._connect()
            version = await self.schema_version()
            if version > len(MIGRATIONS):
                raise self._newer(version)
            if version:
                # refused by a read-only server (a standby) or a user without write privileges,
                # though it changes no row: found out now rather than at the first move
                await self._execute(f"UPDATE {SCHEMA_TABLE} SET version = version WHERE FALSE")
            await self.migrate()  # an empty database is checked there, under the migration lock
            await self._check_tables()
            if not await self._listen_once():
                # no settings kept in memory until it is back; the deadlines need no notice yet
                self._relisten_later()
        except BaseException as exc:
            with contextlib.suppress(Exception):
                await self.close()
            if isinstance(exc, StorageOpenError) or not isinstance(
                    exc, (*_DRIVER_ERRORS, StorageError, ValueError)):
                raise
            raise self._refusal(exc) from exc
        finally:
            doing.reset(token)

    async def _connect(self) -> asyncpg.Pool:
        def traced(record: Any) -> None:
            if self.trace is not None:
                self.trace(record.query)

        async def prepare(conn: asyncpg.Connection) -> None:
            if self.trace is not None:  # only then: logging every query costs a little each
                conn.add_query_logger(traced)

        async def keep_session(conn: asyncpg.Connection) -> None:
            """Nothing beyond asyncpg's own rollback of an open transaction: Herald sets no session
            state (settings are startup parameters, its advisory locks and cursors end with their
            transaction, no LISTEN), so the default reset's round trip per call is saved."""

        lock_ms = str(int(self.busy_timeout * 1000))
        pool: asyncpg.Pool = await asyncpg.create_pool(
            self.url, min_size=1, max_size=max(1, self.pool_size), timeout=self.busy_timeout * 2,
            init=prepare, reset=keep_session,
            server_settings={"application_name": "herald", "lock_timeout": lock_ms})
        return pool

    async def _check_empty(self, conn: asyncpg.Connection) -> None:
        """A database without Herald's schema table must hold no tables, else it is another
        program's; asked under the migration lock, as another Herald may be creating them."""
        tables = [str(r[0]) for r in await conn.fetch(TABLE_NAMES)]
        if tables:
            raise self._foreign(tables, "database", "point HERALD_DB at a database of Herald's "
                                "own (an empty one to start)")

    def _refusal(self, exc: BaseException) -> StorageOpenError:
        """One sentence for the admin about why the database could not be opened."""
        where = self.where
        state = str(getattr(exc, "sqlstate", "") or "")
        if isinstance(exc, asyncpg.InvalidPasswordError) or state.startswith("28"):
            text = (f"the PostgreSQL server refused Herald's login to {where}: check the user and "
                    "password in HERALD_DB")
        elif isinstance(exc, asyncpg.InvalidCatalogNameError):
            text = (f"there is no database {where}: create it first (for example createdb -O "
                    "<user> <name>), empty; Herald makes its tables itself")
        elif state == "42501":
            text = (f"Herald's database user may not create or change tables in {where}: make "
                    "the user the database's owner (CREATE DATABASE … OWNER …)")
        elif state == "25006":
            text = f"{where} is read-only (a standby server?); Herald needs a writable primary"
        elif isinstance(exc, asyncpg.exceptions.ClientConfigurationError | ValueError):
            text = (f"HERALD_DB ({where}) is not a usable PostgreSQL URL. "
                    + ENCODING_HINT.rstrip("."))
        elif isinstance(exc, TimeoutError):
            text = (f"the PostgreSQL server of {where} did not answer within "
                    f"{self.busy_timeout * 2:g}s: check that it is running and reachable")
        elif state == "53100":  # (before the rest of class 53: resources, not reach)
            text = f"the PostgreSQL server of {where} has a full disk; free some space"
        elif isinstance(exc, OSError) or state[:2] in ("08", "53", "57"):
            text = (f"cannot reach the PostgreSQL server of {where}: check that it is running and "
                    "that HERALD_DB names the right host and port")
        elif _kind(exc) is StorageCorrupt:
            text = f"{where} reports damaged data; restore it from a backup (pg_dump)"
        else:
            text = f"{where} could not be prepared, so it was damaged or edited by hand"
        return StorageOpenError(f"{text} ({self._cause(exc)}).")

    async def listen(self, on_new_deadline: Callable[[], None]) -> bool:
        """The notices are heard on a connection of its own, outside the pool (a pooled one is
        reset and shared), opened with the storage; one lost is re-opened every
        ``RELISTEN_EVERY`` seconds, and the scheduler's own passes find every deadline meanwhile."""
        self._on_new_deadline = on_new_deadline
        if self._listener is None and not await self._listen_once():
            log.warning("cannot listen for other processes' deadlines on %s; trying again every "
                        "%d s", self.where, RELISTEN_EVERY)
            self._relisten_later()
        return True

    def _heard(self, _conn: Any, _pid: int, _channel: str, payload: str) -> None:
        if payload != self.tag and self._on_new_deadline is not None:
            self._on_new_deadline()

    def _settings_changed(self, _conn: Any, _pid: int, _channel: str, payload: str) -> None:
        try:
            guild_id = int(payload)
        except ValueError:  # (not a server's id: forget them all)
            self._drop_settings()
            return
        self._drop_settings(guild_id)
        self.settings_changed(guild_id)  # (the web pages of every process hear of it)

    def _lost(self, _conn: Any) -> None:
        if self._listener is not None:  # not a close of ours
            self._listener = None
            self._drop_settings()  # changes may go unheard until it is back
            log.warning("the connection listening for other processes' deadlines on %s was lost; "
                        "re-opening it", self.where)
            self._relisten_later()

    def _relisten_later(self) -> None:
        if self._relisten is None or self._relisten.done():
            self._relisten = asyncio.get_running_loop().create_task(self._relisten_loop())

    async def _relisten_loop(self) -> None:
        while self._pool is not None and self._listener is None:
            await asyncio.sleep(RELISTEN_EVERY)
            if self._pool is not None and await self._listen_once() and self._on_new_deadline:
                self._on_new_deadline()  # a notice may have been missed while away

    async def _listen_once(self) -> bool:
        try:
            conn = await asyncpg.connect(self.url, timeout=self.busy_timeout * 2,
                                         server_settings={"application_name": "herald-wake"})
            await conn.add_listener(WAKE_CHANNEL, self._heard)
            await conn.add_listener(SETTINGS_CHANNEL, self._settings_changed)
            await conn.add_listener(UPDATE_CHANNEL, self._update_heard)
        except _DRIVER_ERRORS:
            return False
        conn.add_termination_listener(self._lost)
        self._settings_epoch += 1  # (a read begun before this may have missed a change)
        self._listener = conn
        return True

    async def close(self) -> None:
        self._on_new_deadline = None
        self._drop_settings()
        listener, self._listener = self._listener, None
        if self._relisten is not None:
            self._relisten.cancel()
        if listener is not None:
            with contextlib.suppress(*_DRIVER_ERRORS):
                await asyncio.wait_for(listener.close(), timeout=5)
        pool, self._pool = self._pool, None
        if pool is not None:
            try:
                await asyncio.wait_for(pool.close(), timeout=10)
            except _DRIVER_ERRORS:
                pool.terminate()

    async def schema_version(self) -> int:
        async with self._connection() as conn:
            return await self._version(conn)

    async def _version(self, conn: asyncpg.Connection) -> int:
        if not await conn.fetchval(SCHEMA_EXISTS):
            return 0
        return int(await conn.fetchval(SCHEMA_VERSION) or 0)

    async def migrate(self) -> int:
        async with self._connection() as conn, conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", _MIGRATION_LOCK)
            current = await self._version(conn)  # again, under the lock
            if current > len(MIGRATIONS):
                raise self._newer(current)
            if current == 0:
                await self._check_empty(conn)
                await conn.execute(f"CREATE TABLE {SCHEMA_TABLE} (version INTEGER NOT NULL)")
                await conn.execute(f"INSERT INTO {SCHEMA_TABLE} (version) VALUES (0)")
            for number in range(current + 1, len(MIGRATIONS) + 1):
                await conn.execute(MIGRATIONS[number - 1])
                await conn.execute(f"UPDATE {SCHEMA_TABLE} SET version = $1", number)
                log.info("database migrated to schema %d", number)
        return len(MIGRATIONS)

    # ------------------------------------------------------------------ games

    @boundary
    async def get_game(self, game_id: int) -> GameRow | None:
        async with self._connection() as conn:
            r = await conn.fetchrow(_GAME_WITH_SEATS, game_id)
        return self._game_with_seats(r) if r is not None else None

    def _game_with_seats(self, r: Any) -> GameRow:
        game = row_to_game(r)
        game.seats = [seat_row(s) for s in zip(r[19], r[20], r[21], r[22], strict=True)]
        return game

    @boundary
    async def game_and_deadlines(self, game_id: int) -> tuple[GameRow | None, list[DeadlineRow]]:
        async with self._connection() as conn:
            r = await conn.fetchrow(_GAME_SEATS_DEADLINES, game_id)
        if r is None:
            return None, []
        game = self._game_with_seats(r)
        if game.status != "active":
            return game, []
        return game, [deadline_row((game_id, *d)) for d in zip(*r[23:29], strict=True)]

    async def _write_deadlines(self, x: Executor, game_id: int,
                               deadlines: Sequence[DeadlineRow]) -> None:
        """In one statement, waking the other processes for a deadline they have not seen
        (``pg_notify`` is delivered at commit, never for a transaction that rolls back)."""
        await x.execute(_REPLACE_DEADLINES, game_id, *_deadline_arrays(deadlines),
                        WAKE_CHANNEL, self.tag)

    @boundary
    async def commit_action(self, game_id: int, *, expected_version: int, seat: int,
                            action: dict[str, Any], origin: str, user_id: int | None,
                            state: dict[str, Any], events: Sequence[dict[str, Any]],
                            status: str, result: dict[str, Any] | None,
                            opened: Mapping[int, int], answered: Mapping[int, int],
                            deadlines: Sequence[DeadlineRow], now: float,
                            prompt_kind: str | None = None, secret: bool | None = None) -> int:
        new_version = expected_version + 1

        async def landed(x: Executor) -> bool:
            """After a connection lost before the answer: is this very action stored (the game
            at the version it made, its last action this one)?"""
            rows = await x.rows(
                "SELECT g.version, a.seat, a.action, a.origin, a.created_at FROM games g "
                "LEFT JOIN LATERAL (SELECT seat, action, origin, created_at FROM actions "
                "WHERE game_id=g.id ORDER BY n DESC LIMIT 1) a ON TRUE WHERE g.id=? "
                "FOR UPDATE OF g", game_id)
            return bool(rows) and tuple(rows[0]) == (new_version, seat, action_text, origin, now)

        action_text = to_json(action)
        args = (game_id, expected_version, to_json(state), status,
                to_json(result) if result else None, seat_map_json(opened), seat_map_json(answered),
                now, seat, action_text, origin, user_id, *_event_arrays(events),
                *_deadline_arrays(deadlines), WAKE_CHANNEL, self.tag, prompt_kind, secret)
        pid = 0
        try:
            async with self._connection() as conn:
                pid = conn.get_server_pid()
                row = await conn.fetchrow(_COMMIT, *args)
        except _DRIVER_ERRORS as exc:
            if not pid:
                raise  # no connection: nothing was sent
            await self._settle_lost(exc, landed, pid)
            return new_version
        if row is None or row[0] is None:
            raise VersionConflict(f"game {game_id} is no longer at version {expected_version}")
        return new_version

    _CLAIM = ("UPDATE deadlines AS d SET claimed_by=?, claimed_until=? FROM ({claimable}) AS c "
              "WHERE d.game_id=c.game_id AND d.seat=c.seat AND d.kind=c.kind RETURNING "
              + ", ".join(f"d.{c}" for c in DEADLINE_COLUMNS.split(", ")))
    """One statement, its own transaction: SKIP LOCKED passes over rows another process is
    claiming this instant, and a row claimed and committed meanwhile is checked again (READ
    COMMITTED re-reads a locked row's newest version), so no two owners get it. The claim is
    committed at once, not held while the deadline is handled: handling it commits the game's
    action in another transaction, which rewrites this very row."""
    _CLAIM_KEY = "game_id, seat, kind"
    _CLAIM_LOCK = " FOR UPDATE SKIP LOCKED"

    async def announce_update(self, game_id: int, version: int) -> None:
        """A failure only delays the other processes' web pages to their periodic check."""
        try:
            await self._execute("SELECT pg_notify(?, ?)", UPDATE_CHANNEL,
                                f"{self.tag}:{game_id}:{version}")
        except (StorageError, *_DRIVER_ERRORS) as exc:
            log.info("could not announce game %d's version %d to other processes (%s)", game_id,
                     version, type(exc).__name__)

    def listen_updates(self, on_update: Callable[[int, int], None] | None) -> bool:
        self._on_update = on_update
        return True

    def _update_heard(self, _conn: Any, _pid: int, _channel: str, payload: str) -> None:
        tag, _, rest = payload.partition(":")
        game, _, version = rest.partition(":")
        if tag != self.tag and self._on_update is not None:
            with contextlib.suppress(ValueError):  # (not ours: ignored)
                self._on_update(int(game), int(version))


__all__ = ["MIGRATIONS", "SCHEMA_TABLE", "PostgresStorage"]
