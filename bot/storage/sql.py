"""The storage interface, with its SQL written once for both backends.

:class:`Storage` is what the rest of the bot uses: every method documented once, every shared
statement written with ``?`` placeholders and run through an :class:`Executor` that each backend
makes from its driver and its :class:`~bot.storage.dialect.Dialect`. A backend keeps only what
truly differs: opening and migrating, the hot commit path of a move, claiming and replacing
deadlines, what it remembers (SQLite) or hears (PostgreSQL), and what its driver's errors mean.
Every public method is wrapped by :func:`boundary`.
"""

from __future__ import annotations

import dataclasses
import functools
import hmac
import json
import logging
import math
import time
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Coroutine, Iterator, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from contextvars import ContextVar
from typing import Any, ClassVar, Concatenate, ParamSpec, Protocol, TypeVar

from ..settings import GuildSettings
from .base import (
    COMPUTER_ID,
    DEADLINE_COLUMNS,
    G_COLUMNS,
    GAME_COLUMNS,
    PAUSE_COLUMNS,
    PREFS_COLUMNS,
    RECENT_FIRST,
    SEAT_COLUMNS,
    SETTINGS_COLUMNS,
    UPDATABLE,
    ActionRow,
    DeadlineRow,
    DeckRow,
    Departure,
    EventRow,
    GamePage,
    GamePause,
    GameRow,
    LongestGame,
    PlayerPrefs,
    RatedGame,
    Rater,
    RatingRow,
    SeatRow,
    StorageBusy,
    StorageError,
    StorageOpenError,
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
    seat_row,
    settings_row,
    settings_values,
    thawed,
    to_json,
)
from .dialect import Dialect
from .migrations import tables as schema_tables

log = logging.getLogger("herald.storage")


class Executor(Protocol):
    """Where a statement runs: a connection, or a transaction on one."""

    async def execute(self, sql: str, *params: Any) -> int:
        """Run a statement; the number of rows it changed."""

    async def rows(self, sql: str, *params: Any) -> list[Sequence[Any]]:
        """Every row a statement returns."""

    async def value(self, sql: str, *params: Any) -> Any:
        """The first column of the first row a statement returns (None: no row)."""
        rows = await self.rows(sql, *params)
        return rows[0][0] if rows else None


Landed = Callable[[Executor], Awaitable[bool]]
"""Asked after a failed COMMIT, on a working connection: is this very write stored?"""

_S = TypeVar("_S", bound="Storage")
_P = ParamSpec("_P")
_R = TypeVar("_R")

doing: ContextVar[str] = ContextVar("herald_storage_doing", default="open")
"""The storage method in progress in this task (per task: PostgreSQL's calls run concurrently),
named when a failure is logged."""


def boundary(method: Callable[Concatenate[_S, _P], Awaitable[_R]]
             ) -> Callable[Concatenate[_S, _P], Coroutine[Any, Any, _R]]:
    """A method's turn (SQLite: one statement group at a time on its connection), its name for
    the logs (:data:`doing`), and its driver errors leaving as ``_fault``'s StorageError."""
    name = method.__name__.lstrip("_")

    async def wrapper(self: _S, /, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        if not self._take_turn():
            await self._wait_turn()
        token = doing.set(name)
        try:
            return await method(self, *args, **kwargs)
        except self.driver_errors as exc:
            fault = self._fault(exc)
            if fault is None:
                raise
            raise fault from exc
        finally:
            doing.reset(token)
            self._leave()

    functools.update_wrapper(wrapper, method)
    return wrapper


GAMES_COUNT = "SELECT count(*) FROM games"
"""The cheap question that tells a database answers with Herald's tables (health, backup)."""
_OPEN = ("lobby", "active")
"""The statuses of an open table (counted against the limits)."""
_SEATED = "g.id IN (SELECT game_id FROM seats WHERE user_id=? AND NOT is_bot)"
"""A game (``g``) where a member (the parameter) is seated."""
_SETTINGS = ", ".join(SETTINGS_COLUMNS)
SETTINGS_KEPT = 10_000
"""Servers whose settings are kept in memory at most (the least recently read dropped first)."""

_RATING_COLUMNS = "guild_id, game_key, user_id, name, mu, sigma, games, wins, updated_at"
_DECK_COLUMNS = "id, user_id, game_key, name, data, created_at, updated_at"
EVENTS_PER_STATEMENT = 100
"""Events inserted by one statement (8 values each: within the oldest SQLite's 999)."""


def _values(rows: int, width: int) -> str:
    """``VALUES`` groups of ``width`` placeholders for ``rows`` rows."""
    group = "(" + ",".join("?" * width) + ")"
    return ",".join([group] * rows)


LAST_EVENT = "SELECT COALESCE(MAX(n), 0) FROM events WHERE game_id=?"
"""A game's last event number (0: none yet)."""


def event_inserts(game_id: int, version: int, rows: Sequence[tuple[str, str | None, str, str]],
                  now: float, last: int) -> Iterator[tuple[str, list[Any]]]:
    """The inserts (statement, parameters) of a game's events (:func:`event_values`), numbered
    on after ``last``, all made by ``version``."""
    for start in range(0, len(rows), EVENTS_PER_STATEMENT):
        part = rows[start:start + EVENTS_PER_STATEMENT]
        yield ("INSERT INTO events (game_id, n, version, text, recipients, kind, data, created_at) "
               f"VALUES {_values(len(part), 8)}",
               [v for i, e in enumerate(part, start=last + start + 1)
                for v in (game_id, i, version, *e, now)])


_K = TypeVar("_K")
_V = TypeVar("_V")


def remember(kept: dict[_K, _V], key: _K, value: _V, most: int) -> list[_K]:
    """Keep ``value`` as the newest entry of ``kept`` (a dict kept oldest first), the oldest
    entries dropped beyond ``most``; the keys dropped."""
    kept.pop(key, None)
    kept[key] = value
    dropped: list[_K] = []
    while len(kept) > most:
        dropped.append(oldest := next(iter(kept)))
        del kept[oldest]
    return dropped


def row_to_game(r: Sequence[Any]) -> GameRow:
    """A game read with :data:`GAME_COLUMNS` (no seats yet)."""
    return GameRow(
        id=r[0], guild_id=r[1], channel_id=r[2], thread_id=r[3], game_key=r[4], status=r[5],
        version=r[6], seed=r[7], options=from_json(r[8]) or {}, state=from_json(r[9]),
        host_id=r[10], deadline=r[11], board_message_id=r[12], lobby_message_id=r[13],
        result=from_json(r[14]), created_at=r[15], updated_at=r[16],
        opened=seat_map(r[17]), answered=seat_map(r[18]),
    )


def _copied(s: GuildSettings) -> GuildSettings:
    """A server's settings to hand out (callers may change its list of channels)."""
    return dataclasses.replace(s, channels=list(s.channels))


def _deck(r: Sequence[Any]) -> DeckRow:
    return DeckRow(int(r[0]), int(r[1]), str(r[2]), str(r[3]), from_json(r[4]) or {},
                   float(r[5]), float(r[6]))


class Storage(ABC):
    """What the bot needs from a database, with every statement the two backends share; a
    backend provides the hooks below (see the module's docstring)."""

    dialect: Dialect
    driver_errors: tuple[type[BaseException], ...] = ()
    """What the driver raises (translated at the boundary by ``_fault``)."""
    transient_errors: tuple[type[BaseException], ...] = (StorageUnavailable,)
    """Errors that may pass if tried again later: callers back off and retry. (A raw driver
    error that escapes the boundary is a bug, bad SQL, not something to retry.)"""
    SETTINGS_KEPT_FOR: ClassVar[float] = math.inf
    """Seconds a server's settings are served from memory at most (see ``guild_settings``)."""

    def __init__(self) -> None:
        self._guilds: dict[int, tuple[float, GuildSettings]] = {}
        """Servers' settings as read, with when (monotonic), the least recently read first."""
        self._settings_epoch = 0
        """Counts the changes heard (or perhaps missed): a read begun before one is not kept."""

    @abstractmethod
    async def open(self) -> None: ...
    @abstractmethod
    async def close(self) -> None: ...

    def forget(self, game_id: int | None = None) -> None:
        """Drop what is kept in memory of one game (or of everything), after a change made
        behind the storage's back (a repair by hand, a test)."""
        if game_id is None:
            self._drop_settings()

    async def listen(self, on_new_deadline: Callable[[], None]) -> bool:
        """Call ``on_new_deadline`` whenever ANOTHER process stores a deadline this one has not
        seen, so its scheduler wakes for it. False: the backend has no other process to hear."""
        return False

    async def announce_update(self, game_id: int, version: int) -> None:
        """Tell the other processes that the game reached ``version`` (for their web pages)."""
        return None

    def listen_updates(self, on_update: Callable[[int, int], None] | None) -> bool:
        """Call ``on_update(game_id, version)`` when another process announces an update; False
        when this backend cannot hear other processes."""
        return False

    _on_settings: Callable[[int], None] | None = None

    def listen_settings(self, on_change: Callable[[int], None] | None) -> None:
        """Call ``on_change(guild_id)`` when a server's settings changed (this process's changes,
        and over PostgreSQL every process's): the web server closes pages turned off."""
        self._on_settings = on_change

    def settings_changed(self, guild_id: int) -> None:
        """A server's settings changed and are stored: tell this process's listener."""
        if self._on_settings is not None:
            self._on_settings(guild_id)

    # ------------------------------------------------------------ what a backend provides

    where: str
    """The database as messages name it (a file's path, a URL without its password)."""
    busy_timeout: float
    """Seconds to wait for another writer's lock before ``StorageBusy``."""
    _FAULTS: ClassVar[Mapping[type[StorageError], str]] = {}
    """What a failure in service tells the admin, by kind (``{where}``, ``{timeout}``)."""

    def _take_turn(self) -> bool:
        """Begin a call: False when it must wait for its turn (``_wait_turn``) first."""
        return True

    async def _wait_turn(self) -> None:
        return None

    def _leave(self) -> None:
        return None

    @abstractmethod
    def _kind(self, exc: BaseException) -> type[StorageError] | None:
        """What a driver error means; None for a bug in Herald (SQL, a constraint), left to
        reach the one place unexpected failures are logged in full."""

    @abstractmethod
    def _cause(self, exc: BaseException) -> str:
        """The driver's own words, for the admin (never SQL or parameters: they hold states)."""

    def _fault(self, exc: BaseException, *, stored: bool | None = False) -> StorageError | None:
        """The StorageError for a driver error met in service, logged once; None for a bug."""
        kind = self._kind(exc)
        if kind is None:
            return None
        text = self._FAULTS[kind].format(where=f"the database {self.where}",
                                         timeout=f"{self.busy_timeout:g}")
        if stored is None:
            text += "; what was being committed may or may not be stored"
        err = kind(f"{text} ({self._cause(exc)}).", stored=stored)
        log.log(logging.WARNING if kind is StorageBusy else logging.ERROR,
                "%s failed: %s", doing.get(), err)
        return err

    def _settled(self, exc: BaseException, stored: bool | None, failure: str) -> None:
        """After ``exc`` ended a commit, ``stored`` being what ``Landed`` said (None: could not
        ask): return if the change is stored all the same (with a warning), else raise that
        nothing was stored, or that the outcome is unknown."""
        if stored:
            log.warning("%s: %s (%s), but the change is stored", doing.get(), failure,
                        self._cause(exc))
            return
        fault = self._fault(exc, stored=stored)
        if fault is None:
            raise exc
        raise fault from exc

    # opening: what both backends check, in their own words
    migrations: ClassVar[list[str]]
    """Each schema step as this backend runs it."""
    _TABLE_NAMES: ClassVar[str]
    """The tables in Herald's schema, one name a row."""
    _RECOVER: ClassVar[str]
    """What the admin does with a damaged or hand-edited database."""
    _OLDER_BACKUP: ClassVar[str]
    """What the admin does with a database from a newer Herald, besides running that one."""

    @property
    def _named(self) -> str:
        return f"the database {self.where}"

    def _newer(self, version: int) -> StorageOpenError:
        return StorageOpenError(
            f"{self._named} was written by a newer Herald (schema {version}; this one knows up to "
            f"{len(self.migrations)}): run that newer Herald, or {self._OLDER_BACKUP}.")

    async def _check_tables(self) -> None:
        names = {str(r[0]) for r in await self._rows(self._TABLE_NAMES)}
        missing = sorted(schema_tables(self.migrations) - names)
        if missing:
            raise StorageOpenError(f"{self._named} lacks Herald's table(s) {', '.join(missing)}, "
                                   f"so it was damaged or edited by hand; {self._RECOVER}.")

    def _foreign(self, tables: Sequence[str], what: str, advice: str) -> StorageOpenError:
        """A database without Herald's schema that holds ``tables``: another program's."""
        shown = ", ".join(tables[:5]) + (", …" if len(tables) > 5 else "")
        return StorageOpenError(f"{self.where} is another program's {what} (tables {shown}; "
                                f"Herald never made it): {advice}.")

    @abstractmethod
    def _session(self) -> AbstractAsyncContextManager[Executor]:
        """A connection for statements outside any transaction."""

    # one statement outside any transaction
    async def _execute(self, sql: str, *params: Any) -> int:
        async with self._session() as x:
            return await x.execute(sql, *params)

    async def _rows(self, sql: str, *params: Any) -> list[Sequence[Any]]:
        async with self._session() as x:
            return await x.rows(sql, *params)

    async def _value(self, sql: str, *params: Any) -> Any:
        async with self._session() as x:
            return await x.value(sql, *params)

    @abstractmethod
    def _tx(self, landed: Landed | None = None) -> AbstractAsyncContextManager[Executor]:
        """A transaction that holds the write locks it needs (SQLite: BEGIN IMMEDIATE), rolled
        back on any error; ``landed`` settles a COMMIT that failed."""

    @abstractmethod
    async def _write_deadlines(self, x: Executor, game_id: int,
                               deadlines: Sequence[DeadlineRow]) -> None:
        """Replace a game's deadlines inside a transaction. A deadline of the same prompt
        instance keeps its claim (another seat's move must not free a deadline a process is
        about to handle), and the same deadline (instance, due and reminder times) its reminder
        once sent, even when the caller read it before the reminder went out."""

    async def _lock_key(self, x: Executor, key: str) -> None:
        """Hold off every other transaction that locks ``key`` until this one ends (SQLite:
        BEGIN IMMEDIATE already made this the only writer)."""
        return None

    async def _settings_saved(self, x: Executor, guild_id: int) -> None:
        """Tell every process a server's settings changed (inside the saving transaction)."""
        return None

    # what a backend remembers (SQLite's write-through cache): no-ops for one that keeps nothing
    def _drop_game(self, game_id: int, *, deadlines: bool = False) -> GameRow | None:
        """Forget the game's row (and its deadlines); the row as it was remembered."""
        return None

    def _drop_deadlines(self, game_id: int) -> None:
        return None

    def _game_updated(self, kept: GameRow, fields: Mapping[str, Any]) -> None:
        """A remembered game's row changed by ``update_game`` (stored already)."""
        return None

    def _deadlines_written(self, game_id: int, deadlines: Sequence[DeadlineRow]) -> None:
        return None

    # ------------------------------------------------------------------ games

    @boundary
    async def create_game(self, *, guild_id: int | None, channel_id: int | None, game_key: str,
                          seed: int, options: dict[str, Any], host_id: int | None,
                          deadline: int | None, now: float, seats: Sequence[SeatRow] = ()) -> int:
        """A new lobby and its first seats in one transaction (never a table without its host)."""
        async with self._tx() as x:
            game_id = int(await x.value(
                "INSERT INTO games (guild_id, channel_id, game_key, status, version, seed, options, "
                "host_id, deadline, created_at, updated_at) VALUES (?,?,?,'lobby',0,?,?,?,?,?,?) "
                "RETURNING id",
                guild_id, channel_id, game_key, seed, to_json(options), host_id, deadline, now, now))
            await self._write_seats(x, game_id, seats)
        return game_id

    @abstractmethod
    async def get_game(self, game_id: int) -> GameRow | None: ...

    async def game_and_deadlines(self, game_id: int) -> tuple[GameRow | None, list[DeadlineRow]]:
        """A game and, while it runs, its deadlines: what a player's move starts from."""
        game = await self.get_game(game_id)
        if game is None or game.status != "active":
            return game, []
        return game, await self.deadlines(game_id)

    async def _read_game(self, x: Executor, game_id: int) -> GameRow | None:
        """A game and its seats (two statements)."""
        rows = await x.rows(f"SELECT {GAME_COLUMNS} FROM games WHERE id=?", game_id)
        if not rows:
            return None
        game = row_to_game(rows[0])
        game.seats = [seat_row(r) for r in await x.rows(
            f"SELECT {SEAT_COLUMNS} FROM seats WHERE game_id=? ORDER BY seat", game_id)]
        return game

    async def _many(self, sql: str, *params: Any) -> list[GameRow]:
        """The games ``sql`` selects, with their seats (read at once: two statements in all)."""
        async with self._session() as x:
            games = [row_to_game(r) for r in await x.rows(sql, *params)]
            by_id = {g.id: g for g in games}
            for r in await self._rows_among(x, f"SELECT game_id, {SEAT_COLUMNS} FROM seats "
                                            "WHERE {among} ORDER BY game_id, seat",
                                            "game_id", list(by_id)):
                by_id[r[0]].seats.append(seat_row(r[1:]))
        return games

    async def _rows_among(self, x: Executor, sql: str, column: str,
                          ids: Sequence[int]) -> list[Sequence[Any]]:
        """Every row of ``sql`` where ``{among}`` is ``column`` in ``ids`` (chunked as the
        dialect needs: SQLite binds a bounded number of values)."""
        rows: list[Sequence[Any]] = []
        for chunk in self.dialect.chunks(ids):
            member, values = self.dialect.members(column, chunk, "bigint")
            rows += await x.rows(sql.format(among=member), *values)
        return rows

    def _status(self, statuses: Sequence[str]) -> tuple[str, list[Any]]:
        """The condition that a game (``g``) has one of ``statuses``, and its values."""
        return self.dialect.members("g.status", list(statuses), "text")

    @boundary
    async def list_games(self, *, guild_id: int | None = None,
                         statuses: Sequence[str] = ("lobby", "active")) -> list[GameRow]:
        status, values = self._status(statuses)
        server = "" if guild_id is None else "g.guild_id=? AND "
        return await self._many(f"SELECT {G_COLUMNS} FROM games g WHERE {server}{status} "
                                "ORDER BY g.id", *([] if guild_id is None else [guild_id]), *values)

    @boundary
    async def games_of_user(self, user_id: int,
                            statuses: Sequence[str] = ("active",)) -> list[GameRow]:
        status, values = self._status(statuses)
        return await self._many(f"SELECT {G_COLUMNS} FROM games g WHERE {status} AND {_SEATED} "
                                "ORDER BY g.id", *values, user_id)

    @boundary
    async def page_games(self, *, guild_id: int, statuses: Sequence[str] = ("lobby", "active"),
                         limit: int = 15, offset: int = 0) -> GamePage:
        """A server's games, most recently active first: ``limit`` from ``offset``, and the total."""
        status, values = self._status(statuses)
        where = f"g.guild_id=? AND {status}"
        total = int(await self._value(f"SELECT COUNT(*) FROM games g WHERE {where}",
                                      guild_id, *values) or 0)
        games = await self._many(
            f"SELECT {G_COLUMNS} FROM games g WHERE {where} {RECENT_FIRST} LIMIT ? OFFSET ?",
            guild_id, *values, max(0, limit), max(0, offset))
        return GamePage(games, total)

    @boundary
    async def search_games(self, *, guild_id: int | None, user_id: int, statuses: Sequence[str],
                           text: str = "", game_keys: Sequence[str] = (),
                           limit: int = 25) -> list[GameRow]:
        """At most ``limit`` games, most recently active first: the server's (``guild_id``), or
        without a server those where ``user_id`` is seated. With ``text``, only games whose number
        or a seat's name contains it, or whose game is one of ``game_keys``."""
        status, values = self._status(statuses)
        where = f"{'g.guild_id=?' if guild_id is not None else _SEATED} AND {status}"
        params: list[Any] = [user_id if guild_id is None else guild_id, *values]
        text = text.strip().lstrip("#").strip()
        if text:
            found = ["CAST(g.id AS TEXT) LIKE ? ESCAPE '\\'",
                     f"g.id IN (SELECT game_id FROM seats WHERE name {self.dialect.ilike} ? "
                     "ESCAPE '\\')"]
            params += [like_pattern(text), like_pattern(text)]
            if game_keys:
                keys, values = self.dialect.members("g.game_key", list(game_keys), "text")
                found.append(keys)
                params += values
            where += f" AND ({' OR '.join(found)})"
        return await self._many(
            f"SELECT {G_COLUMNS} FROM games g WHERE {where} {RECENT_FIRST} LIMIT ?",
            *params, max(0, limit))

    @boundary
    async def games_near(self, *, guild_id: int, channel_id: int | None, user_id: int,
                         statuses: Sequence[str], limit: int = 25) -> list[GameRow]:
        """At most ``limit`` of a server's games played in ``channel_id`` (its lobby channel or its
        thread) or with ``user_id`` seated: the candidates when a command names no game."""
        status, values = self._status(statuses)
        return await self._many(
            f"SELECT {G_COLUMNS} FROM games g WHERE g.guild_id=? AND {status} AND (g.channel_id=? "
            f"OR g.thread_id=? OR {_SEATED}) {RECENT_FIRST} LIMIT ?",
            guild_id, *values, channel_id, channel_id, user_id, max(0, limit))

    @boundary
    async def count_tables(self, guild_id: int, user_id: int, *,
                           lobbies_since: float = 0.0) -> TableCounts:
        """Open tables in a server, and those of them the member is seated at (the limits)."""
        status, values = self._status(_OPEN)
        rows = await self._rows(
            "SELECT COUNT(*) FILTER (WHERE g.status='lobby'), "
            "COUNT(*) FILTER (WHERE g.status<>'lobby'), "
            "COUNT(*) FILTER (WHERE g.status='lobby' AND m.game_id IS NOT NULL), "
            "COUNT(m.game_id) FROM games g LEFT JOIN "
            "(SELECT DISTINCT game_id FROM seats WHERE user_id=? AND NOT is_bot) m "
            f"ON m.game_id=g.id WHERE g.guild_id=? AND {status} "
            "AND (g.status<>'lobby' OR g.updated_at>=?)",
            user_id, guild_id, *values, float(lobbies_since))
        return TableCounts(*(int(v) for v in rows[0])) if rows else TableCounts(0, 0, 0, 0)

    @boundary
    async def update_game(self, /, game_id: int, **fields: Any) -> None:
        bad = set(fields) - UPDATABLE
        if bad:
            raise StorageError(f"cannot update {sorted(bad)}")
        if not fields:
            return
        kept = self._drop_game(game_id)
        values = [(to_json(v) if k in ("options", "result") and v is not None else v)
                  for k, v in fields.items()]
        sets = ", ".join(f"{k}=?" for k in fields)
        await self._execute(f"UPDATE games SET {sets} WHERE id=?", *values, game_id)
        if kept is not None:
            self._game_updated(kept, fields)

    @boundary
    async def set_seats(self, game_id: int, seats: Sequence[SeatRow], *,
                        now: float | None = None) -> None:
        """Replace a lobby's seats (and, given ``now``, mark the table active at that time)."""
        self._drop_game(game_id)
        async with self._tx() as x:
            await self._write_seats(x, game_id, seats)
            if now is not None:
                await x.execute("UPDATE games SET updated_at=? WHERE id=?", float(now), game_id)

    async def _write_seats(self, x: Executor, game_id: int, seats: Sequence[SeatRow]) -> None:
        await x.execute("DELETE FROM seats WHERE game_id=?", game_id)
        if seats:
            await x.execute(
                f"INSERT INTO seats (game_id, {SEAT_COLUMNS}) VALUES {_values(len(seats), 5)}",
                *[v for s in seats for v in (game_id, s.seat, s.user_id, bool(s.is_bot), s.name)])

    @boundary
    async def start_game(self, game_id: int, *, seats: Sequence[SeatRow], state: dict[str, Any],
                         opened: Mapping[int, int], deadlines: Sequence[DeadlineRow],
                         now: float) -> None:
        async def landed(x: Executor) -> bool:
            rows = await x.rows("SELECT status, version FROM games WHERE id=?", game_id)
            return bool(rows) and tuple(rows[0]) == ("active", 1)

        self._drop_game(game_id, deadlines=True)
        async with self._tx(landed) as x:
            # the version-checked update locks the game's row: of two starts, one starts it
            if await x.execute(
                    "UPDATE games SET status='active', state=?, version=1, opened=?, updated_at=? "
                    "WHERE id=? AND status='lobby'",
                    to_json(state), seat_map_json(opened), now, game_id) != 1:
                raise VersionConflict(f"game {game_id} is not a lobby any more")
            await self._write_seats(x, game_id, seats)
            await self._write_deadlines(x, game_id, deadlines)
        self._deadlines_written(game_id, deadlines)

    @abstractmethod
    async def commit_action(self, game_id: int, *, expected_version: int, seat: int,
                            action: dict[str, Any], origin: str, user_id: int | None,
                            state: dict[str, Any], events: Sequence[dict[str, Any]],
                            status: str, result: dict[str, Any] | None,
                            opened: Mapping[int, int], answered: Mapping[int, int],
                            deadlines: Sequence[DeadlineRow], now: float,
                            prompt_kind: str | None = None, secret: bool | None = None) -> int:
        """Append the action and its events, store the new state, version and prompt instances,
        replace the deadlines — all or nothing. Raises VersionConflict if the game is no longer at
        ``expected_version`` (another process won the race); returns the new version.

        The action's number (``n``) is the version it made, less one, so actions and versions
        stay paired after an undo (the numbers then have gaps). ``state`` and ``result`` are plain
        JSON values as a read gives them back (``Engine.to_json``'s), never changed afterwards: a
        storage may remember them as given. ``prompt_kind`` and ``secret``: see ActionRow."""

    @boundary
    async def undo_actions(self, game_id: int, *, expected_version: int, keep: int,
                           state: dict[str, Any], events: Sequence[dict[str, Any]],
                           opened: Mapping[int, int], answered: Mapping[int, int],
                           deadlines: Sequence[DeadlineRow], now: float) -> int:
        """Take back every action after the first ``keep``: remove them and their events (earlier
        undo notices stay), store the rebuilt state, the undo's own ``events``, a new version and
        prompt instances and the deadlines — all or nothing, as ``commit_action``. The version
        goes up, never back: a ticket drawn before the undo never matches a decision it opens."""
        new_version = expected_version + 1

        async def landed(x: Executor) -> bool:
            version = await x.value("SELECT version FROM games WHERE id=?", game_id)
            return version is not None and int(version) == new_version

        self._drop_game(game_id, deadlines=True)
        async with self._tx(landed) as x:
            # the version-checked update locks the game's row until the commit (as a move's)
            if await x.execute(
                    "UPDATE games SET state=?, version=?, opened=?, answered=?, updated_at=? "
                    "WHERE id=? AND version=? AND status='active' AND paused_at IS NULL",
                    to_json(state), new_version, seat_map_json(opened), seat_map_json(answered),
                    now, game_id, expected_version) != 1:
                raise VersionConflict(f"game {game_id} is no longer at version {expected_version}")
            last = 0
            if keep > 0:
                last = int(await x.value(
                    "SELECT n FROM actions WHERE game_id=? ORDER BY n LIMIT 1 OFFSET ?",
                    game_id, keep - 1) or 0)
            await x.execute("DELETE FROM actions WHERE game_id=? AND n>?", game_id, last)
            # an action numbered n made version n + 1, and its events carry that version
            await x.execute("DELETE FROM events WHERE game_id=? AND version>? AND kind<>'undo'",
                            game_id, last + 1)
            await self._add_events(x, game_id, new_version, events, now)
            await self._write_deadlines(x, game_id, deadlines)
        return new_version

    async def _add_events(self, x: Executor, game_id: int, version: int,
                          events: Sequence[dict[str, Any]], now: float) -> None:
        """Number ``events`` on after the game's last (in a transaction holding the game's row)."""
        if not events:
            return
        rows = [event_values(e) for e in events]
        for sql, params in event_inserts(game_id, version, rows, now,
                                         int(await x.value(LAST_EVENT, game_id))):
            await x.execute(sql, *params)

    @boundary
    async def actions(self, game_id: int) -> list[tuple[int, dict[str, Any], str]]:
        """The game's log in order, each action an :class:`ActionRow` (a plain triple too)."""
        rows = await self._rows(
            "SELECT seat, action, origin, prompt_kind, secret FROM actions WHERE game_id=? "
            "ORDER BY n", game_id)
        return [ActionRow(r[0], json.loads(r[1]), r[2], r[3], None if r[4] is None else bool(r[4]))
                for r in rows]

    @boundary
    async def events(self, game_id: int, *, viewer_seat: int | None,
                     limit: int = 20) -> list[EventRow]:
        out: list[EventRow] = []
        page = max(limit, 1) * 2
        before: int | None = None
        async with self._session() as x:
            # newest first, a page at a time until ``limit`` visible ones (others' private skipped)
            while len(out) < limit:
                rows = await x.rows(
                    "SELECT n, version, text, recipients, kind, data, created_at FROM events "
                    "WHERE game_id=? AND (CAST(? AS INTEGER) IS NULL OR n<?) ORDER BY n DESC "
                    "LIMIT ?", game_id, before, before, page)
                for r in rows:
                    to = from_json(r[3])
                    if to is not None and (viewer_seat is None or viewer_seat not in to):
                        continue
                    out.append(EventRow(r[0], r[1], r[2], to, r[4], from_json(r[5]) or {}, r[6]))
                    if len(out) >= limit:
                        break
                if len(rows) < page:
                    break
                before = int(rows[-1][0])
        return list(reversed(out))

    # -------------------------------------------------------------- deadlines

    async def _read_deadlines(self, x: Executor, game_id: int) -> list[DeadlineRow]:
        return [deadline_row(r) for r in await x.rows(
            f"SELECT {DEADLINE_COLUMNS} FROM deadlines WHERE game_id=? ORDER BY seat, kind",
            game_id)]

    @boundary
    async def deadlines(self, game_id: int) -> list[DeadlineRow]:
        async with self._session() as x:
            return await self._read_deadlines(x, game_id)

    @boundary
    async def next_deadline_time(self, owner: str | None = None) -> float | None:
        """When the next reminder or deadline falls due; with ``owner``, one another owner has
        claimed counts from when that claim expires (a process sleeps past what another handles)."""
        value = await self._value(
            "SELECT MIN(CASE WHEN claimed_by IS NOT NULL AND claimed_by <> CAST(? AS TEXT) "
            f"THEN {self.dialect.greatest('at', 'claimed_until')} ELSE at END) FROM "
            "(SELECT CASE WHEN NOT reminded AND remind_at IS NOT NULL AND remind_at < due_at "
            "THEN remind_at ELSE due_at END AS at, claimed_by, claimed_until FROM deadlines) "
            "AS d", owner)
        return float(value) if value is not None else None

    _DUE = "(due_at <= ? OR (NOT reminded AND remind_at IS NOT NULL AND remind_at <= ?))"
    """A deadline or its reminder due at the time given (twice)."""

    @boundary
    async def due_deadlines(self, now: float) -> list[DeadlineRow]:
        """Every deadline or reminder due at ``now``, claimed or not (a plain read)."""
        rows = await self._rows(f"SELECT {DEADLINE_COLUMNS} FROM deadlines WHERE {self._DUE} "
                                "ORDER BY due_at, game_id, seat", now, now)
        return [deadline_row(r) for r in rows]

    _CLAIM = ""
    """The backend's claim: an UPDATE of the rows ``{claimable}`` selects (by ``_CLAIM_KEY``,
    locked with ``_CLAIM_LOCK``) setting the owner and lease, returning the rows."""
    _CLAIM_KEY = ""
    _CLAIM_LOCK = ""

    @boundary
    async def claim_deadlines(self, now: float, owner: str, lease_s: float,
                              limit: int = 100) -> list[DeadlineRow]:
        """Take up to ``limit`` due deadlines, in due order, for ``owner`` (a process's scheduler)
        for ``lease_s`` seconds: exactly one of several processes handles each, and a dead
        process's claims come back when the lease ends. The owner's own unexpired claims come
        again (its retries). Handling a deadline ends its claim (the timeout's action replaces
        the row, ``mark_reminded`` releases it)."""
        claimable = (f"SELECT {self._CLAIM_KEY} FROM deadlines WHERE {self._DUE} "
                     "AND (claimed_by IS NULL OR claimed_until <= ? OR claimed_by = ?) "
                     f"ORDER BY due_at, game_id, seat LIMIT ?{self._CLAIM_LOCK}")
        rows = await self._rows(self._CLAIM.format(claimable=claimable),
                                owner, now + lease_s, now, now, now, owner, limit)
        return sorted((deadline_row(r) for r in rows),
                      key=lambda d: (d.due_at, d.game_id, d.seat, d.kind))

    @boundary
    async def mark_reminded(self, game_id: int, seat: int, kind: str,
                            opened: int | None = None) -> bool:
        """Mark a deadline's reminder (of prompt instance ``opened``, if given) sent and release
        its claim; True only for the one call that changed it (of several processes)."""
        self._drop_deadlines(game_id)
        return await self._execute(
            "UPDATE deadlines SET reminded=TRUE, claimed_by=NULL, claimed_until=NULL "
            "WHERE game_id=? AND seat=? AND kind=? AND NOT reminded "
            "AND (CAST(? AS BIGINT) IS NULL OR opened=?)",
            game_id, seat, kind, opened, opened) == 1

    @boundary
    async def clear_deadlines(self, game_id: int) -> None:
        self._drop_deadlines(game_id)
        await self._execute("DELETE FROM deadlines WHERE game_id=?", game_id)

    @boundary
    async def replace_deadlines(self, game_id: int, deadlines: Sequence[DeadlineRow]) -> None:
        self._drop_deadlines(game_id)
        async with self._tx() as x:
            await self._write_deadlines(x, game_id, deadlines)

    # ---------------------------------------------------------------- ratings

    @boundary
    async def note_departure(self, d: Departure) -> None:
        """Remember that a member left a running game's seat (once per member and game)."""
        await self._execute("INSERT INTO departures (game_id, user_id, seat, name) "
                            "VALUES (?,?,?,?) ON CONFLICT DO NOTHING",
                            d.game_id, d.user_id, d.seat, d.name)

    @boundary
    async def departures(self, game_id: int) -> list[Departure]:
        rows = await self._rows("SELECT game_id, seat, user_id, name FROM departures "
                                "WHERE game_id=? ORDER BY seat, user_id", game_id)
        return [Departure(r[0], r[1], r[2], r[3]) for r in rows]

    @boundary
    async def settle_game(self, game: RatedGame, rate: Rater, now: float) -> bool:
        """Record a finished game's places and update its players' ratings, games and wins, in one
        transaction that holds off every other settlement of the same server and game while it
        reads and writes the ratings (``rate`` computes the new ones from those it reads). False,
        changing nothing, if the game was settled before: a game counts exactly once."""
        async def landed(x: Executor) -> bool:
            return bool(await x.rows("SELECT 1 FROM settled_games WHERE game_id=?", game.game_id))

        async with self._tx(landed) as x:
            # every settlement of this server's game waits here for the one before to commit:
            # the ratings it reads are the latest (rows that do not exist yet cannot be locked)
            await self._lock_key(x, f"herald-ratings:{game.guild_id}:{game.game_key}")
            inserted = await x.execute(
                "INSERT INTO settled_games (game_id, guild_id, game_key, started_at, finished_at, "
                "moves, rated, settled_at) VALUES (?,?,?,?,?,?,?,?) ON CONFLICT DO NOTHING",
                game.game_id, game.guild_id, game.game_key, game.started_at, game.finished_at,
                game.moves, bool(game.players), now) == 1
            if not inserted or not game.players:
                return inserted
            member, values = self.dialect.members(
                "user_id", [p.user_id for p in game.players], "bigint")
            rows = await x.rows(f"SELECT {_RATING_COLUMNS} FROM ratings "
                                f"WHERE guild_id=? AND game_key=? AND {member}",
                                game.guild_id, game.game_key, *values)
            new = rate({r[2]: RatingRow(*r) for r in rows})
            players = game.players
            await x.execute(
                f"INSERT INTO ratings ({_RATING_COLUMNS}) VALUES "
                + ",".join(["(?,?,?,?,?,?,1,?,?)"] * len(players))
                + " ON CONFLICT (guild_id, game_key, user_id) DO UPDATE SET name=excluded.name, "
                "mu=excluded.mu, sigma=excluded.sigma, games=ratings.games+1, "
                "wins=ratings.wins+excluded.wins, updated_at=excluded.updated_at",
                *[v for p in players for v in (game.guild_id, game.game_key, p.user_id, p.name,
                                               *new[p.user_id], int(p.won), now)])
            await x.execute(
                "INSERT INTO settled_places (game_id, user_id, guild_id, name, rank, won, "
                f"abandoned, mu, sigma) VALUES {_values(len(players), 9)}",
                *[v for p in players for v in (game.game_id, p.user_id, game.guild_id, p.name,
                                               p.rank, bool(p.won), bool(p.abandoned),
                                               *new[p.user_id])])
            return True

    @boundary
    async def unsettled_games(self, limit: int = 100) -> list[int]:
        """Finished games of a server that were never settled (a crash or a failure between the
        game's last move and its settlement), oldest first."""
        rows = await self._rows(
            "SELECT g.id FROM games g WHERE g.status='finished' AND g.guild_id IS NOT NULL "
            "AND NOT EXISTS (SELECT 1 FROM settled_games s WHERE s.game_id=g.id) "
            "ORDER BY g.updated_at, g.id LIMIT ?", max(0, limit))
        return [int(r[0]) for r in rows]

    @boundary
    async def leaderboard(self, guild_id: int, game_key: str, *, limit: int = 10,
                          offset: int = 0) -> tuple[list[RatingRow], int]:
        """A page of a server's members rated in a game, best first (the conservative rating
        mu − 3σ), and how many there are; computer players left out."""
        where = "guild_id=? AND game_key=? AND user_id<>?"
        async with self._session() as x:
            total = await x.value(f"SELECT COUNT(*) FROM ratings WHERE {where}",
                                  guild_id, game_key, COMPUTER_ID)
            rows = await x.rows(
                f"SELECT {_RATING_COLUMNS} FROM ratings WHERE {where} "
                "ORDER BY mu - 3 * sigma DESC, games DESC, user_id LIMIT ? OFFSET ?",
                guild_id, game_key, COMPUTER_ID, max(0, limit), max(0, offset))
        return [RatingRow(*r) for r in rows], int(total or 0)

    @boundary
    async def ratings_of(self, guild_id: int, user_id: int) -> list[RatingRow]:
        """A member's ratings in a server, one per game they played there."""
        rows = await self._rows(f"SELECT {_RATING_COLUMNS} FROM ratings WHERE guild_id=? "
                                "AND user_id=? ORDER BY games DESC, game_key", guild_id, user_id)
        return [RatingRow(*r) for r in rows]

    @boundary
    async def longest_game(self, guild_id: int, user_id: int) -> LongestGame | None:
        """The member's settled game in a server that ran longest (opening to last move)."""
        rows = await self._rows(
            "SELECT s.game_id, s.game_key, s.finished_at - s.started_at, s.moves "
            "FROM settled_places p JOIN settled_games s ON s.game_id=p.game_id "
            "WHERE p.guild_id=? AND p.user_id=? "
            "ORDER BY s.finished_at - s.started_at DESC, s.moves DESC, s.game_id LIMIT 1",
            guild_id, user_id)
        if not rows:
            return None
        r = rows[0]
        return LongestGame(int(r[0]), str(r[1]), float(r[2]), int(r[3]))

    # ------------------------------------ player preferences, time away, pauses

    @boundary
    async def player_prefs(self, user_ids: Sequence[int]) -> dict[int, PlayerPrefs]:
        """The preferences of each of ``user_ids``: defaults for a member who never set any. One
        statement however many members (a step reads those of the seats it asks to decide)."""
        ids = list(dict.fromkeys(user_ids))
        out = {uid: PlayerPrefs(uid) for uid in ids}
        async with self._session() as x:
            for r in await self._rows_among(
                    x, f"SELECT {PREFS_COLUMNS} FROM player_prefs WHERE {{among}}", "user_id", ids):
                out[r[0]] = prefs_row(r)
        return out

    @boundary
    async def save_player_prefs(self, prefs: PlayerPrefs) -> None:
        await self._execute(
            f"INSERT INTO player_prefs ({PREFS_COLUMNS}) VALUES (?,?,?,?,?,?,?,?) "
            "ON CONFLICT (user_id) DO UPDATE SET pings=excluded.pings, dms=excluded.dms, "
            "quiet_start=excluded.quiet_start, quiet_end=excluded.quiet_end, "
            "zone=excluded.zone, away_until=excluded.away_until, away_mode=excluded.away_mode",
            prefs.user_id, bool(prefs.pings), prefs.dms, prefs.quiet_start, prefs.quiet_end,
            prefs.zone, prefs.away_until, prefs.away_mode)

    async def _pause_row(self, x: Executor, game_id: int, *,
                         lock: bool = False) -> tuple[str, GamePause] | None:
        """A game's status and pause (``lock``: its row locked until the transaction ends, which
        orders this against every commit to the game, checking ``paused_at`` under that lock)."""
        rows = await x.rows(f"SELECT status, {PAUSE_COLUMNS} FROM games WHERE id=?"
                            + (self.dialect.for_update if lock else ""), game_id)
        return None if not rows else (str(rows[0][0]), pause_row(rows[0][1:]))

    @boundary
    async def pause_game(self, game_id: int, *, by: int | None, now: float) -> GamePause | None:
        """Pause a running game in one transaction: its deadlines are taken out (kept in the
        pause, so no reminder or timeout falls due) and no action commits until it resumes
        (``commit_action`` raises ``VersionConflict``). None, changing nothing, if it is paused
        already or not running."""
        self._drop_deadlines(game_id)
        async with self._tx() as x:
            row = await self._pause_row(x, game_id, lock=True)
            if row is None or row[0] != "active" or row[1].paused:
                return None
            frozen = await self._read_deadlines(x, game_id)
            await self._write_deadlines(x, game_id, [])
            await x.execute("UPDATE games SET paused_at=?, paused_by=?, pause_frozen=? WHERE id=?",
                            now, by, frozen_text(frozen), game_id)
        return GamePause(game_id, now, by, row[1].used, frozen)

    @boundary
    async def resume_game(self, game_id: int, *, now: float) -> GamePause | None:
        """End a game's pause in one transaction: its frozen deadlines come back shifted by the
        time it was paused (what was left of each is left again) and that time is added to
        ``used``. Returns the pause as it was (None if the game was not paused: of two processes
        resuming at once exactly one gets it). A game no longer running gets no deadlines back."""
        self._drop_deadlines(game_id)
        async with self._tx() as x:
            row = await self._pause_row(x, game_id, lock=True)
            if row is None or row[1].paused_at is None:
                return None
            status, pause = row
            await x.execute("UPDATE games SET paused_at=NULL, paused_by=NULL, pause_frozen=NULL, "
                            "pause_used=? WHERE id=?",
                            pause.used + max(0.0, now - (pause.paused_at or now)), game_id)
            if status == "active":
                await self._write_deadlines(x, game_id, thawed(pause, now))
        return pause

    @boundary
    async def game_pause(self, game_id: int) -> GamePause | None:
        """The game's pause (``paused_at`` None when it is not paused; None: no such game)."""
        async with self._session() as x:
            row = await self._pause_row(x, game_id)
        return None if row is None else row[1]

    @boundary
    async def paused_games(self) -> list[GamePause]:
        """Every running game paused now, the earliest paused first."""
        rows = await self._rows(f"SELECT {PAUSE_COLUMNS} FROM games WHERE paused_at IS NOT NULL "
                                "AND status='active' ORDER BY paused_at, id")
        return [pause_row(r) for r in rows]

    # ------------------------------------------------------- settings and DMs

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """A server's settings (defaults for a server that never set any): every step of a game
        asks for them, so they are served from memory while this storage hears of every change
        (``_settings_heard``), for ``SETTINGS_KEPT_FOR`` at most. A read that began before a
        change was heard is not kept, so a change heard while reading is never covered up."""
        kept = self._guilds.get(guild_id)
        if kept is not None and self._settings_heard() and (
                time.monotonic() - kept[0] < self.SETTINGS_KEPT_FOR):
            return _copied(kept[1])
        epoch = self._settings_epoch
        s = await self._read_guild_settings(guild_id)
        if self._settings_heard() and epoch == self._settings_epoch:
            remember(self._guilds, guild_id, (time.monotonic(), _copied(s)), SETTINGS_KEPT)
        return s

    def _settings_heard(self) -> bool:
        """Whether every change to the servers' settings reaches this storage, so that it may
        keep them (SQLite: the changes it writes itself; PostgreSQL: while it listens)."""
        return True

    def _drop_settings(self, guild_id: int | None = None) -> None:
        """Forget a server's settings kept in memory (None: every server's): they changed, or
        a change may have gone unheard. A read in flight is not kept either."""
        self._settings_epoch += 1
        if guild_id is None:
            self._guilds.clear()
        else:
            self._guilds.pop(guild_id, None)

    @boundary
    async def _read_guild_settings(self, guild_id: int) -> GuildSettings:
        """A server's settings as stored (defaults for a server that never set any)."""
        rows = await self._rows(f"SELECT {_SETTINGS} FROM guild_settings WHERE guild_id=?",
                                guild_id)
        return GuildSettings(guild_id) if not rows else settings_row(guild_id, rows[0])

    @boundary
    async def save_guild_settings(self, s: GuildSettings) -> None:
        self._drop_settings(s.guild_id)
        async with self._tx() as x:
            await x.execute(
                f"INSERT INTO guild_settings (guild_id, {_SETTINGS}) "
                f"VALUES {_values(1, len(SETTINGS_COLUMNS) + 1)} ON CONFLICT (guild_id) DO UPDATE "
                "SET " + ", ".join(f"{c}=excluded.{c}" for c in SETTINGS_COLUMNS),
                *settings_values(s))
            await self._settings_saved(x, s.guild_id)

    @boundary
    async def set_dm_reachable(self, user_id: int, reachable: bool, now: float) -> None:
        await self._execute(
            "INSERT INTO dm_status (user_id, reachable, checked_at) VALUES (?,?,?) "
            "ON CONFLICT (user_id) DO UPDATE SET reachable=excluded.reachable, "
            "checked_at=excluded.checked_at", user_id, bool(reachable), now)

    @boundary
    async def dm_reachable(self, user_id: int) -> bool | None:
        value = await self._value("SELECT reachable FROM dm_status WHERE user_id=?", user_id)
        return None if value is None else bool(value)

    @boundary
    async def note_dm_notice(self, game_id: int, user_id: int) -> bool:
        """Record that the thread was told this user cannot be DMed; False if already recorded."""
        return await self._execute("INSERT INTO dm_notices (game_id, user_id) VALUES (?,?) "
                                   "ON CONFLICT DO NOTHING", game_id, user_id) == 1

    @boundary
    async def dm_channel(self, user_id: int) -> int | None:
        """The id of the DM channel Discord opened with this user (None: none is known)."""
        value = await self._value("SELECT channel_id FROM dm_channels WHERE user_id=?", user_id)
        return None if value is None else int(value)

    @boundary
    async def set_dm_channel(self, user_id: int, channel_id: int | None) -> None:
        """Remember the user's DM channel (None: forget it, Discord no longer knows it), so a
        DM is one request, with no look-up of the user, across restarts and processes."""
        if channel_id is None:
            await self._execute("DELETE FROM dm_channels WHERE user_id=?", user_id)
            return
        await self._execute("INSERT INTO dm_channels (user_id, channel_id) VALUES (?,?) "
                            "ON CONFLICT (user_id) DO UPDATE SET channel_id=excluded.channel_id",
                            user_id, channel_id)

    @boundary
    async def log_posted(self, game_id: int) -> int | None:
        """The game version up to which its log lines are posted in its thread (None: not told)."""
        value = await self._value("SELECT version FROM thread_logs WHERE game_id=?", game_id)
        return None if value is None else int(value)

    @boundary
    async def set_log_posted(self, game_id: int, version: int) -> None:
        await self._execute("INSERT INTO thread_logs (game_id, version) VALUES (?,?) "
                            "ON CONFLICT (game_id) DO UPDATE SET version=excluded.version",
                            game_id, version)

    # -------------------------------------------------------------- web links

    @boundary
    async def web_link(self, game_id: int, token: str, now: float) -> str:
        """The game's web token: the one stored, else ``token``, stored now (of two processes
        asking at once, both get the one stored first)."""
        async with self._session() as x:
            await x.execute("INSERT INTO web_links (game_id, token, digest, created_at) "
                            "VALUES (?,?,?,?) ON CONFLICT (game_id) DO NOTHING",
                            game_id, token, link_digest(token), now)
            return str(await x.value("SELECT token FROM web_links WHERE game_id=?", game_id))

    @boundary
    async def web_links(self, game_ids: Sequence[int]) -> dict[int, str]:
        """The stored web tokens of these games (games without one are left out)."""
        async with self._session() as x:
            rows = await self._rows_among(x, "SELECT game_id, token FROM web_links WHERE {among}",
                                          "game_id", list(game_ids))
        return {int(r[0]): str(r[1]) for r in rows}

    @boundary
    async def game_of_link(self, token: str) -> int | None:
        """The game whose web token is ``token``, else None. Found by the token's digest (an
        index look-up tells nothing of the token) and compared in constant time."""
        rows = await self._rows("SELECT game_id, token FROM web_links WHERE digest=?",
                                link_digest(token))
        if not rows or not hmac.compare_digest(str(rows[0][1]).encode(),
                                               token.encode("utf-8", "surrogatepass")):
            return None
        return int(rows[0][0])

    @boundary
    async def web_secret(self, candidate: str) -> str:
        """The secret player links are signed with: the one stored, else ``candidate``, stored now
        (every process signs and checks with the same one)."""
        async with self._session() as x:
            await x.execute("INSERT INTO web_secret (id, secret) VALUES (1, ?) "
                            "ON CONFLICT (id) DO NOTHING", candidate)
            return str(await x.value("SELECT secret FROM web_secret WHERE id=1"))

    @boundary
    async def seat_link_generation(self, game_id: int, seat: int) -> int:
        """The generation of the seat's player link (0: never renewed); a link signed for an
        older generation is revoked."""
        value = await self._value(
            "SELECT generation FROM web_seat_links WHERE game_id=? AND seat=?", game_id, seat)
        return 0 if value is None else int(value)

    @boundary
    async def renew_seat_link(self, game_id: int, seat: int) -> int:
        """Revoke the seat's player links: its generation goes up by one; returns the new one."""
        return int(await self._value(
            "INSERT INTO web_seat_links (game_id, seat, generation) VALUES (?,?,1) "
            "ON CONFLICT (game_id, seat) DO UPDATE SET generation=web_seat_links.generation+1 "
            "RETURNING generation", game_id, seat))

    # ------------------------------------------------------------- saved decks

    @boundary
    async def decks(self, user_id: int, game_key: str | None = None) -> list[DeckRow]:
        """A player's saved decks (of one game, if given), by name."""
        rows = await self._rows(
            f"SELECT {_DECK_COLUMNS} FROM decks WHERE user_id=? "
            "AND (CAST(? AS TEXT) IS NULL OR game_key=?) ORDER BY name_key, id",
            user_id, game_key, game_key)
        return [_deck(r) for r in rows]

    @boundary
    async def deck(self, deck_id: int) -> DeckRow | None:
        """One saved deck, whoever owns it (the caller checks the owner)."""
        rows = await self._rows(f"SELECT {_DECK_COLUMNS} FROM decks WHERE id=?", deck_id)
        return None if not rows else _deck(rows[0])

    @boundary
    async def create_deck(self, user_id: int, game_key: str, name: str, data: dict[str, Any], *,
                          now: float, limit: int) -> int | None:
        """Save a new deck and return its id — or None, storing nothing, when the player already
        has ``limit`` saved decks (of every game) or a deck of this game with the same name
        (:func:`deck_name_key`). Checked and written in one statement, so two commands at once
        cannot pass the limit together."""
        key = deck_name_key(name)
        async with self._tx() as x:
            # the player's decks are counted under a per-player lock: two creations at once
            # (from separate processes) cannot both pass the limit
            await self._lock_key(x, f"herald-decks:{user_id}")
            value = await x.value(
                "INSERT INTO decks (user_id, game_key, name, name_key, data, created_at, "
                "updated_at) SELECT ?,?,?,?,?,?,? WHERE (SELECT COUNT(*) FROM decks "
                "WHERE user_id=?) < ? ON CONFLICT (user_id, game_key, name_key) DO NOTHING "
                "RETURNING id",
                user_id, game_key, name, key, to_json(data), now, now, user_id, limit)
        return None if value is None else int(value)

    @boundary
    async def update_deck(self, deck_id: int, user_id: int, data: dict[str, Any], *,
                          now: float) -> bool:
        """Replace the deck's data; False (nothing changed) if it is not this player's deck."""
        return await self._execute("UPDATE decks SET data=?, updated_at=? WHERE id=? AND user_id=?",
                                   to_json(data), now, deck_id, user_id) == 1

    @boundary
    async def delete_deck(self, deck_id: int, user_id: int) -> bool:
        """Delete the deck; False if it is not this player's deck (or is gone already)."""
        return await self._execute("DELETE FROM decks WHERE id=? AND user_id=?",
                                   deck_id, user_id) == 1
