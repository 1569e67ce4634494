"""The storage's SQL, written once for both backends.

:class:`SqlStorage` holds every statement the backends share, with ``?`` placeholders, run
through an :class:`Executor` (three methods: execute, rows, one value) that each backend makes
from its driver and its :class:`~bot.storage.dialect.Dialect`. A backend keeps only what truly
differs: opening a database and its checks, migrating, the hot commit path of a move, claiming
deadlines, replacing a game's deadlines (PostgreSQL keeps claims in one statement and wakes the
other processes), what it remembers (SQLite's write-through cache, PostgreSQL's settings heard
over LISTEN/NOTIFY) and how a failure is told.

Every public method is wrapped by :func:`boundary`: one call at a time where the backend needs
it (SQLite's shared connection) and driver errors translated into
:class:`~bot.storage.base.StorageError` subclasses.
"""

from __future__ import annotations

import functools
import hmac
import json
from abc import abstractmethod
from collections.abc import Awaitable, Callable, Coroutine, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, Concatenate, ParamSpec, Protocol, TypeVar

from .base import (
    COMPUTER_ID,
    DEADLINE_COLUMNS,
    G_COLUMNS,
    GAME_COLUMNS,
    PAUSE_COLUMNS,
    PREFS_COLUMNS,
    RECENT_FIRST,
    UPDATABLE,
    ActionRow,
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
    StorageError,
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
)
from .dialect import Dialect
from .settings import SETTINGS_SELECT, SETTINGS_UPSERT, settings_from_row, settings_values


class Executor(Protocol):
    """Where a statement runs: a connection, or a transaction on one."""

    async def execute(self, sql: str, *params: Any) -> int:
        """Run a statement; the number of rows it changed."""

    async def rows(self, sql: str, *params: Any) -> list[Sequence[Any]]:
        """Every row a statement returns."""

    async def value(self, sql: str, *params: Any) -> Any:
        """The first column of the first row a statement returns (None: no row)."""


Landed = Callable[[Executor], Awaitable[bool]]
"""Asked after a failed COMMIT, on a working connection: is this very write stored?"""

_S = TypeVar("_S", bound="SqlStorage")
_P = ParamSpec("_P")
_R = TypeVar("_R")

_WAIT = object()
"""What ``SqlStorage._enter`` returns when the call must wait for its turn."""


def boundary(method: Callable[Concatenate[_S, _P], Awaitable[_R]]
             ) -> Callable[Concatenate[_S, _P], Coroutine[Any, Any, _R]]:
    """The storage's boundary around a method: its turn (``_enter``; SQLite: one statement group
    at a time on the shared connection), and a driver error met in service leaving as the
    :class:`StorageError` subclass ``_fault`` gives (keeping the driver's error as its cause)."""
    doing = method.__name__.lstrip("_")

    async def wrapper(self: _S, /, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        token = self._enter(doing)
        if token is _WAIT:
            token = await self._wait_turn(doing)
        try:
            return await method(self, *args, **kwargs)
        except self.driver_errors as exc:
            fault = self._fault(exc)
            if fault is None:
                raise
            raise fault from exc
        finally:
            self._leave(token)

    functools.update_wrapper(wrapper, method)
    return wrapper


GAMES_COUNT = "SELECT count(*) FROM games"
"""The cheap question that tells a database answers with Herald's tables (``bot.health``,
``bot.backup``)."""

_OPEN = ("lobby", "active")
"""The statuses of an open table (counted against the limits)."""

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


def events_insert(rows: int) -> str:
    """The insert of ``rows`` events, each (game, number, version, text, recipients, kind, data,
    time): see :func:`~bot.storage.base.event_values`."""
    return ("INSERT INTO events (game_id, n, version, text, recipients, kind, data, created_at) "
            f"VALUES {_values(rows, 8)}")


def row_to_game(r: Sequence[Any]) -> GameRow:
    """A game read with :data:`GAME_COLUMNS` (no seats yet)."""
    return GameRow(
        id=r[0], guild_id=r[1], channel_id=r[2], thread_id=r[3], game_key=r[4], status=r[5],
        version=r[6], seed=r[7], options=from_json(r[8]) or {}, state=from_json(r[9]),
        host_id=r[10], deadline=r[11], board_message_id=r[12], lobby_message_id=r[13],
        result=from_json(r[14]), created_at=r[15], updated_at=r[16],
        opened=seat_map(r[17]), answered=seat_map(r[18]),
    )


def _deck(r: Sequence[Any]) -> DeckRow:
    return DeckRow(int(r[0]), int(r[1]), str(r[2]), str(r[3]), from_json(r[4]) or {},
                   float(r[5]), float(r[6]))


class SqlStorage(Storage):
    """The statements both SQL backends share; see the module's docstring."""

    dialect: Dialect
    driver_errors: tuple[type[BaseException], ...] = ()
    """What the driver raises (translated at the boundary by ``_fault``)."""

    # ------------------------------------------------------------ what a backend provides

    @abstractmethod
    def _enter(self, doing: str) -> object:
        """Begin a call named ``doing``: a token for ``_leave``, or ``_WAIT`` when the call must
        wait for its turn (``_wait_turn`` then gives the token)."""

    async def _wait_turn(self, doing: str) -> object:
        raise NotImplementedError  # (a backend whose calls never wait)

    @abstractmethod
    def _leave(self, token: object) -> None: ...

    @abstractmethod
    def _fault(self, exc: BaseException, *, stored: bool | None = False) -> StorageError | None:
        """The :class:`StorageError` for a driver error met in service (logged once); None for
        a bug in Herald (bad SQL, a broken constraint), which goes on untranslated."""

    @abstractmethod
    def _session(self) -> AbstractAsyncContextManager[Executor]:
        """A connection for statements outside any transaction."""

    @abstractmethod
    def _tx(self, landed: Landed | None = None) -> AbstractAsyncContextManager[Executor]:
        """A transaction that holds the write locks it needs (SQLite: BEGIN IMMEDIATE), rolled
        back on any error; ``landed`` settles a COMMIT that failed."""

    @abstractmethod
    async def _write_deadlines(self, x: Executor, game_id: int,
                               deadlines: Sequence[DeadlineRow]) -> None:
        """Replace a game's deadlines inside a transaction: a deadline of the same prompt
        instance as before keeps its claim, the same deadline its reminder once sent."""

    async def _lock_key(self, x: Executor, key: str) -> None:
        """Hold off, until the transaction ends, every other transaction that locks ``key``
        (SQLite: BEGIN IMMEDIATE already made this the only writer)."""

    async def _settings_saved(self, x: Executor, guild_id: int) -> None:
        """Tell every process a server's settings changed (inside the saving transaction)."""

    # what a backend remembers (SQLite's write-through cache): no-ops for one that keeps nothing

    def _drop_game(self, game_id: int, *, deadlines: bool = False) -> GameRow | None:
        """Forget the game's row (and its deadlines); the row as it was remembered."""
        return None

    def _drop_deadlines(self, game_id: int) -> None:
        return None

    def _game_updated(self, kept: GameRow, fields: Mapping[str, Any]) -> None:
        """A remembered game's row changed by ``update_game`` (stored already)."""

    def _deadlines_written(self, game_id: int, deadlines: Sequence[DeadlineRow]) -> None:
        """A live game's deadlines as just written."""

    def _settings_dropped(self, guild_id: int) -> None:
        """A server's settings are about to change."""

    # ------------------------------------------------------------------ games

    @boundary
    async def create_game(self, *, guild_id: int | None, channel_id: int | None, game_key: str,
                          seed: int, options: dict[str, Any], host_id: int | None,
                          deadline: int | None, now: float, seats: Sequence[SeatRow] = ()) -> int:
        async with self._tx() as x:
            game_id = int(await x.value(
                "INSERT INTO games (guild_id, channel_id, game_key, status, version, seed, options, "
                "host_id, deadline, created_at, updated_at) VALUES (?,?,?,'lobby',0,?,?,?,?,?,?) "
                "RETURNING id",
                guild_id, channel_id, game_key, seed, to_json(options), host_id, deadline, now, now))
            await self._write_seats(x, game_id, seats)
        return game_id

    async def _read_game(self, x: Executor, game_id: int) -> GameRow | None:
        """A game and its seats (two statements)."""
        rows = await x.rows(f"SELECT {GAME_COLUMNS} FROM games WHERE id=?", game_id)
        if not rows:
            return None
        game = row_to_game(rows[0])
        game.seats = [SeatRow(r[0], r[1], bool(r[2]), r[3]) for r in await x.rows(
            "SELECT seat, user_id, is_bot, name FROM seats WHERE game_id=? ORDER BY seat", game_id)]
        return game

    async def _many(self, sql: str, *params: Any) -> list[GameRow]:
        """The games ``sql`` selects, with their seats: two statements however many games (the
        seats of all of them are read at once)."""
        async with self._session() as x:
            games = [row_to_game(r) for r in await x.rows(sql, *params)]
            by_id = {g.id: g for g in games}
            for chunk in self.dialect.chunks(list(by_id)):
                member, values = self.dialect.members("game_id", chunk, "bigint")
                for r in await x.rows("SELECT game_id, seat, user_id, is_bot, name FROM seats "
                                      f"WHERE {member} ORDER BY game_id, seat", *values):
                    by_id[r[0]].seats.append(SeatRow(r[1], r[2], bool(r[3]), r[4]))
        return games

    @boundary
    async def list_games(self, *, guild_id: int | None = None,
                         statuses: Sequence[str] = ("lobby", "active")) -> list[GameRow]:
        status, values = self.dialect.members("status", list(statuses), "text")
        if guild_id is None:
            return await self._many(f"SELECT {GAME_COLUMNS} FROM games WHERE {status} ORDER BY id",
                                    *values)
        return await self._many(
            f"SELECT {GAME_COLUMNS} FROM games WHERE guild_id=? AND {status} ORDER BY id",
            guild_id, *values)

    @boundary
    async def games_of_user(self, user_id: int,
                            statuses: Sequence[str] = ("active",)) -> list[GameRow]:
        status, values = self.dialect.members("g.status", list(statuses), "text")
        return await self._many(
            f"SELECT {G_COLUMNS} FROM games g WHERE {status} AND g.id IN "
            "(SELECT game_id FROM seats WHERE user_id=? AND NOT is_bot) ORDER BY g.id",
            *values, user_id)

    @boundary
    async def page_games(self, *, guild_id: int, statuses: Sequence[str] = ("lobby", "active"),
                         limit: int = 15, offset: int = 0) -> GamePage:
        status, values = self.dialect.members("g.status", list(statuses), "text")
        where = f"g.guild_id=? AND {status}"
        async with self._session() as x:
            total = int(await x.value(f"SELECT COUNT(*) FROM games g WHERE {where}",
                                      guild_id, *values) or 0)
        games = await self._many(
            f"SELECT {G_COLUMNS} FROM games g WHERE {where} {RECENT_FIRST} LIMIT ? OFFSET ?",
            guild_id, *values, max(0, limit), max(0, offset))
        return GamePage(games, total)

    @boundary
    async def search_games(self, *, guild_id: int | None, user_id: int, statuses: Sequence[str],
                           text: str = "", game_keys: Sequence[str] = (),
                           limit: int = 25) -> list[GameRow]:
        params: list[Any]
        if guild_id is not None:
            where, params = "g.guild_id=?", [guild_id]
        else:
            where = "g.id IN (SELECT game_id FROM seats WHERE user_id=? AND NOT is_bot)"
            params = [user_id]
        status, values = self.dialect.members("g.status", list(statuses), "text")
        where += f" AND {status}"
        params += values
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
        status, values = self.dialect.members("g.status", list(statuses), "text")
        return await self._many(
            f"SELECT {G_COLUMNS} FROM games g WHERE g.guild_id=? AND {status} "
            "AND (g.channel_id=? OR g.thread_id=? OR g.id IN "
            "(SELECT game_id FROM seats WHERE user_id=? AND NOT is_bot)) "
            f"{RECENT_FIRST} LIMIT ?",
            guild_id, *values, channel_id, channel_id, user_id, max(0, limit))

    @boundary
    async def count_tables(self, guild_id: int, user_id: int, *,
                           lobbies_since: float = 0.0) -> TableCounts:
        status, values = self.dialect.members("g.status", list(_OPEN), "text")
        async with self._session() as x:
            rows = await x.rows(
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
        async with self._session() as x:
            await x.execute(f"UPDATE games SET {sets} WHERE id=?", *values, game_id)
        if kept is not None:
            self._game_updated(kept, fields)

    @boundary
    async def set_seats(self, game_id: int, seats: Sequence[SeatRow], *,
                        now: float | None = None) -> None:
        self._drop_game(game_id)
        async with self._tx() as x:
            await self._write_seats(x, game_id, seats)
            if now is not None:
                await x.execute("UPDATE games SET updated_at=? WHERE id=?", float(now), game_id)

    async def _write_seats(self, x: Executor, game_id: int, seats: Sequence[SeatRow]) -> None:
        await x.execute("DELETE FROM seats WHERE game_id=?", game_id)
        if seats:
            await x.execute(
                f"INSERT INTO seats (game_id, seat, user_id, is_bot, name) VALUES {_values(len(seats), 5)}",
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

    @boundary
    async def undo_actions(self, game_id: int, *, expected_version: int, keep: int,
                           state: dict[str, Any], events: Sequence[dict[str, Any]],
                           opened: Mapping[int, int], answered: Mapping[int, int],
                           deadlines: Sequence[DeadlineRow], now: float) -> int:
        new_version = expected_version + 1

        async def landed(x: Executor) -> bool:
            """After a failed COMMIT: is this very undo stored (the version it made)?"""
            version = await x.value("SELECT version FROM games WHERE id=?", game_id)
            return version is not None and int(version) == new_version

        self._drop_game(game_id, deadlines=True)  # (read again from the database after this)
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
        """Number ``events`` on after the game's last event, all made by ``version`` (inside
        the caller's transaction, which holds the game's row)."""
        if not events:
            return
        last = int(await x.value(LAST_EVENT, game_id))
        rows = [event_values(e) for e in events]
        for start in range(0, len(rows), EVENTS_PER_STATEMENT):
            part = rows[start:start + EVENTS_PER_STATEMENT]
            await x.execute(
                events_insert(len(part)),
                *[v for i, e in enumerate(part, start=last + start + 1)
                  for v in (game_id, i, version, *e, now)])

    @boundary
    async def actions(self, game_id: int) -> list[tuple[int, dict[str, Any], str]]:
        async with self._session() as x:
            rows = await x.rows(
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
            # newest first, read a page at a time until ``limit`` visible ones (private ones
            # skipped)
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
        async with self._session() as x:
            value = await x.value(
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
        async with self._session() as x:
            rows = await x.rows(f"SELECT {DEADLINE_COLUMNS} FROM deadlines WHERE {self._DUE} "
                                "ORDER BY due_at, game_id, seat", now, now)
        return [deadline_row(r) for r in rows]

    _CLAIM = ""
    """The backend's claim: an UPDATE of the rows ``{claimable}`` selects (by ``_CLAIM_KEY``,
    locked with ``_CLAIM_LOCK``), setting the owner and the lease's end, returning the rows."""
    _CLAIM_KEY = ""
    _CLAIM_LOCK = ""

    @boundary
    async def claim_deadlines(self, now: float, owner: str, lease_s: float,
                              limit: int = 100) -> list[DeadlineRow]:
        claimable = (f"SELECT {self._CLAIM_KEY} FROM deadlines WHERE {self._DUE} "
                     "AND (claimed_by IS NULL OR claimed_until <= ? OR claimed_by = ?) "
                     f"ORDER BY due_at, game_id, seat LIMIT ?{self._CLAIM_LOCK}")
        async with self._session() as x:
            rows = await x.rows(self._CLAIM.format(claimable=claimable),
                                owner, now + lease_s, now, now, now, owner, limit)
        return sorted((deadline_row(r) for r in rows),
                      key=lambda d: (d.due_at, d.game_id, d.seat, d.kind))

    @boundary
    async def mark_reminded(self, game_id: int, seat: int, kind: str,
                            opened: int | None = None) -> bool:
        self._drop_deadlines(game_id)
        async with self._session() as x:
            return await x.execute(
                "UPDATE deadlines SET reminded=TRUE, claimed_by=NULL, claimed_until=NULL "
                "WHERE game_id=? AND seat=? AND kind=? AND NOT reminded "
                "AND (CAST(? AS BIGINT) IS NULL OR opened=?)",
                game_id, seat, kind, opened, opened) == 1

    @boundary
    async def clear_deadlines(self, game_id: int) -> None:
        self._drop_deadlines(game_id)
        async with self._session() as x:
            await x.execute("DELETE FROM deadlines WHERE game_id=?", game_id)

    @boundary
    async def replace_deadlines(self, game_id: int, deadlines: Sequence[DeadlineRow]) -> None:
        self._drop_deadlines(game_id)
        async with self._tx() as x:
            await self._write_deadlines(x, game_id, deadlines)

    # ---------------------------------------------------------------- ratings

    @boundary
    async def note_departure(self, d: Departure) -> None:
        async with self._session() as x:
            await x.execute("INSERT INTO departures (game_id, user_id, seat, name) "
                            "VALUES (?,?,?,?) ON CONFLICT DO NOTHING",
                            d.game_id, d.user_id, d.seat, d.name)

    @boundary
    async def departures(self, game_id: int) -> list[Departure]:
        async with self._session() as x:
            rows = await x.rows("SELECT game_id, seat, user_id, name FROM departures "
                                "WHERE game_id=? ORDER BY seat, user_id", game_id)
        return [Departure(r[0], r[1], r[2], r[3]) for r in rows]

    @boundary
    async def settle_game(self, game: RatedGame, rate: Rater, now: float) -> bool:
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
        async with self._session() as x:
            rows = await x.rows(
                "SELECT g.id FROM games g WHERE g.status='finished' AND g.guild_id IS NOT NULL "
                "AND NOT EXISTS (SELECT 1 FROM settled_games s WHERE s.game_id=g.id) "
                "ORDER BY g.updated_at, g.id LIMIT ?", max(0, limit))
        return [int(r[0]) for r in rows]

    @boundary
    async def leaderboard(self, guild_id: int, game_key: str, *, limit: int = 10,
                          offset: int = 0) -> tuple[list[RatingRow], int]:
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
        async with self._session() as x:
            rows = await x.rows(f"SELECT {_RATING_COLUMNS} FROM ratings WHERE guild_id=? "
                                "AND user_id=? ORDER BY games DESC, game_key", guild_id, user_id)
        return [RatingRow(*r) for r in rows]

    @boundary
    async def longest_game(self, guild_id: int, user_id: int) -> LongestGame | None:
        async with self._session() as x:
            rows = await x.rows(
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
        ids = list(dict.fromkeys(user_ids))
        out = {uid: PlayerPrefs(uid) for uid in ids}
        async with self._session() as x:
            for chunk in self.dialect.chunks(ids):
                member, values = self.dialect.members("user_id", chunk, "bigint")
                for r in await x.rows(f"SELECT {PREFS_COLUMNS} FROM player_prefs WHERE {member}",
                                      *values):
                    out[r[0]] = prefs_row(r)
        return out

    @boundary
    async def save_player_prefs(self, prefs: PlayerPrefs) -> None:
        async with self._session() as x:
            await x.execute(
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
        async with self._session() as x:
            row = await self._pause_row(x, game_id)
        return None if row is None else row[1]

    @boundary
    async def paused_games(self) -> list[GamePause]:
        async with self._session() as x:
            rows = await x.rows(f"SELECT {PAUSE_COLUMNS} FROM games WHERE paused_at IS NOT NULL "
                                "AND status='active' ORDER BY paused_at, id")
        return [pause_row(r) for r in rows]

    # ------------------------------------------------------- settings and DMs

    async def _read_guild_settings(self, guild_id: int) -> GuildSettings:
        """A server's settings as stored (defaults for a server that never set any)."""
        async with self._session() as x:
            rows = await x.rows(SETTINGS_SELECT, guild_id)
        return GuildSettings(guild_id) if not rows else settings_from_row(guild_id, rows[0])

    @boundary
    async def save_guild_settings(self, s: GuildSettings) -> None:
        self._settings_dropped(s.guild_id)
        async with self._tx() as x:
            await x.execute(SETTINGS_UPSERT, *settings_values(s))
            await self._settings_saved(x, s.guild_id)

    @boundary
    async def set_dm_reachable(self, user_id: int, reachable: bool, now: float) -> None:
        async with self._session() as x:
            await x.execute(
                "INSERT INTO dm_status (user_id, reachable, checked_at) VALUES (?,?,?) "
                "ON CONFLICT (user_id) DO UPDATE SET reachable=excluded.reachable, "
                "checked_at=excluded.checked_at", user_id, bool(reachable), now)

    @boundary
    async def dm_reachable(self, user_id: int) -> bool | None:
        async with self._session() as x:
            value = await x.value("SELECT reachable FROM dm_status WHERE user_id=?", user_id)
        return None if value is None else bool(value)

    @boundary
    async def note_dm_notice(self, game_id: int, user_id: int) -> bool:
        async with self._session() as x:
            return await x.execute("INSERT INTO dm_notices (game_id, user_id) VALUES (?,?) "
                                   "ON CONFLICT DO NOTHING", game_id, user_id) == 1

    @boundary
    async def dm_channel(self, user_id: int) -> int | None:
        async with self._session() as x:
            value = await x.value("SELECT channel_id FROM dm_channels WHERE user_id=?", user_id)
        return None if value is None else int(value)

    @boundary
    async def set_dm_channel(self, user_id: int, channel_id: int | None) -> None:
        async with self._session() as x:
            if channel_id is None:
                await x.execute("DELETE FROM dm_channels WHERE user_id=?", user_id)
                return
            await x.execute(
                "INSERT INTO dm_channels (user_id, channel_id) VALUES (?,?) "
                "ON CONFLICT (user_id) DO UPDATE SET channel_id=excluded.channel_id",
                user_id, channel_id)

    @boundary
    async def log_posted(self, game_id: int) -> int | None:
        async with self._session() as x:
            value = await x.value("SELECT version FROM thread_logs WHERE game_id=?", game_id)
        return None if value is None else int(value)

    @boundary
    async def set_log_posted(self, game_id: int, version: int) -> None:
        async with self._session() as x:
            await x.execute("INSERT INTO thread_logs (game_id, version) VALUES (?,?) "
                            "ON CONFLICT (game_id) DO UPDATE SET version=excluded.version",
                            game_id, version)

    # -------------------------------------------------------------- web links

    @boundary
    async def web_link(self, game_id: int, token: str, now: float) -> str:
        async with self._session() as x:
            await x.execute("INSERT INTO web_links (game_id, token, digest, created_at) "
                            "VALUES (?,?,?,?) ON CONFLICT (game_id) DO NOTHING",
                            game_id, token, link_digest(token), now)
            return str(await x.value("SELECT token FROM web_links WHERE game_id=?", game_id))

    @boundary
    async def web_links(self, game_ids: Sequence[int]) -> dict[int, str]:
        out: dict[int, str] = {}
        async with self._session() as x:
            for chunk in self.dialect.chunks(list(game_ids)):
                member, values = self.dialect.members("game_id", chunk, "bigint")
                rows = await x.rows(f"SELECT game_id, token FROM web_links WHERE {member}", *values)
                out.update({int(r[0]): str(r[1]) for r in rows})
        return out

    @boundary
    async def game_of_link(self, token: str) -> int | None:
        async with self._session() as x:
            rows = await x.rows("SELECT game_id, token FROM web_links WHERE digest=?",
                                link_digest(token))
        if not rows or not hmac.compare_digest(str(rows[0][1]).encode(),
                                               token.encode("utf-8", "surrogatepass")):
            return None
        return int(rows[0][0])

    @boundary
    async def web_secret(self, candidate: str) -> str:
        async with self._session() as x:
            await x.execute("INSERT INTO web_secret (id, secret) VALUES (1, ?) "
                            "ON CONFLICT (id) DO NOTHING", candidate)
            return str(await x.value("SELECT secret FROM web_secret WHERE id=1"))

    @boundary
    async def seat_link_generation(self, game_id: int, seat: int) -> int:
        async with self._session() as x:
            value = await x.value(
                "SELECT generation FROM web_seat_links WHERE game_id=? AND seat=?", game_id, seat)
        return 0 if value is None else int(value)

    @boundary
    async def renew_seat_link(self, game_id: int, seat: int) -> int:
        async with self._session() as x:
            return int(await x.value(
                "INSERT INTO web_seat_links (game_id, seat, generation) VALUES (?,?,1) "
                "ON CONFLICT (game_id, seat) DO UPDATE SET generation=web_seat_links.generation+1 "
                "RETURNING generation", game_id, seat))

    # ------------------------------------------------------------- saved decks

    @boundary
    async def decks(self, user_id: int, game_key: str | None = None) -> list[DeckRow]:
        async with self._session() as x:
            rows = await x.rows(
                f"SELECT {_DECK_COLUMNS} FROM decks WHERE user_id=? "
                "AND (CAST(? AS TEXT) IS NULL OR game_key=?) ORDER BY name_key, id",
                user_id, game_key, game_key)
        return [_deck(r) for r in rows]

    @boundary
    async def deck(self, deck_id: int) -> DeckRow | None:
        async with self._session() as x:
            rows = await x.rows(f"SELECT {_DECK_COLUMNS} FROM decks WHERE id=?", deck_id)
        return None if not rows else _deck(rows[0])

    @boundary
    async def create_deck(self, user_id: int, game_key: str, name: str, data: dict[str, Any], *,
                          now: float, limit: int) -> int | None:
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
        async with self._session() as x:
            return await x.execute("UPDATE decks SET data=?, updated_at=? WHERE id=? AND user_id=?",
                                   to_json(data), now, deck_id, user_id) == 1

    @boundary
    async def delete_deck(self, deck_id: int, user_id: int) -> bool:
        async with self._session() as x:
            return await x.execute("DELETE FROM decks WHERE id=? AND user_id=?",
                                   deck_id, user_id) == 1
