"""The PostgreSQL backend of :class:`bot.storage.base.Storage`, for communities that outgrow a file.

asyncpg with a small pool of connections; every write that must be all-or-nothing is one
transaction. An action's is a single statement (one round trip: see ``_COMMIT``) whose
version-checked update locks the game's row; an undo or a pause locks it first (``SELECT … FOR
UPDATE``) and checks under that lock. Either way two processes answering the same game serialise
on the row and the loser gets :class:`VersionConflict`, exactly as with SQLite. Waiting for a lock
is bounded (``lock_timeout``: :class:`StorageBusy`, like SQLite's busy timeout). Deadlines a write
leaves as they were are not written again, so a claim or a reminder another process made on them
stands; servers' settings are kept in memory only while every change to them is heard
(LISTEN/NOTIFY on :data:`SETTINGS_CHANNEL`); nothing of a game is kept.

Numbered migrations, the same steps as the SQLite backend's, are tracked in the one-row table
``herald_schema`` and applied under an advisory lock, so several processes starting at once
migrate once. ``open`` refuses a database that must not become Herald's (another program's
tables, a newer Herald's schema, read-only, unreachable, a refused login) with one sentence for
the admin before writing to it; in service, driver errors leave as :class:`StorageError`
subclasses, and a connection lost while committing is checked against what actually landed.
The password in the URL is never written anywhere (:func:`redacted`).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import dataclasses
import functools
import hmac
import json
import logging
import re
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from typing import Any
from urllib.parse import unquote

import asyncpg

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
)

log = logging.getLogger("herald.storage")

URL_SCHEMES = ("postgresql://", "postgres://")
"""How ``HERALD_DB`` names a PostgreSQL database (anything else is a SQLite file path)."""


def is_postgres_url(location: str) -> bool:
    return location.strip().lower().startswith(URL_SCHEMES)


_SCHEME = re.compile(r"\s*(postgres(?:ql)?://)", re.IGNORECASE)
_PASSWORD_PARAM = re.compile(r"([?&;]password=)(.*)$", re.IGNORECASE | re.DOTALL)
"""A ``password=`` parameter and everything after it: an ``&`` may be part of the password."""

ENCODING_HINT = (
    "A password holding / # ? @ : % or a space must be percent-encoded in the URL (/ as %2F, # as %23, "
    "? as %3F, @ as %40, : as %3A, % as %25, a space as %20); "
    "python3 -c \"import getpass, urllib.parse; print(urllib.parse.quote(getpass.getpass(), safe=''))\" "
    "prints a password so encoded, without showing or storing it.")
"""What every refusal of a PostgreSQL URL adds: how to write a password that breaks the URL."""


def redacted(url: str) -> str:
    """The URL with its password hidden, whatever its shape: what logs and messages show.

    Read from the text itself, not from a parse: a password holding ``/``, ``#`` or ``?`` does not
    parse as one (``urlsplit`` puts part of it in the path or the fragment). Everything between the
    user's name and the *last* ``@`` is hidden, and every ``password=`` parameter; a URL that hides
    more than its password still names the user, host and database for the admin."""
    m = _SCHEME.match(url)
    if m is None:
        return url
    rest = url[m.end():]
    at = rest.rfind("@")
    if at >= 0:
        user, colon, _ = rest[:at].partition(":")
        if colon:
            rest = f"{user}:***{rest[at:]}"
        elif "/" in user or "?" in user or "#" in user:
            rest = f"***{rest[at:]}"  # no ':' before the '@' but a broken user part: hide it all
    rest = _PASSWORD_PARAM.sub(lambda p: p[1] + "***", rest)
    return m[1] + rest


def secrets_of(url: str) -> list[str]:
    """The password(s) a URL holds, as written and percent-decoded: what :func:`scrubbed` hides
    in other text (a driver's error may quote a password without the URL around it)."""
    m = _SCHEME.match(url)
    if m is None:
        return []
    rest = url[m.end():]
    found: list[str] = []
    at = rest.rfind("@")
    if at >= 0:
        user, colon, password = rest[:at].partition(":")
        if colon:
            found.append(password)
    found += [p[2] for p in _PASSWORD_PARAM.finditer(rest)]
    found += [unquote(f) for f in found]
    return sorted({f for f in found if len(f) >= 3}, key=len, reverse=True)


def scrubbed(text: str, url: str) -> str:
    """``text`` (a driver's error, a refusal) with the URL shown redacted and any password of
    the URL replaced by ``***`` wherever it appears (passwords shorter than three characters
    are only hidden inside the URL: replacing every "a" would make the text unreadable)."""
    text = text.replace(url, redacted(url))
    for secret in secrets_of(url):
        text = text.replace(secret, "***")
    return text


MIGRATIONS: list[str] = [
    # 1: initial schema (the SQLite backend's step 1, in PostgreSQL's types)
    """
    CREATE TABLE games (
        id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        guild_id BIGINT, channel_id BIGINT, thread_id BIGINT,
        game_key TEXT NOT NULL, status TEXT NOT NULL, version BIGINT NOT NULL DEFAULT 0,
        seed BIGINT NOT NULL, options TEXT NOT NULL DEFAULT '{}', state TEXT,
        host_id BIGINT, deadline BIGINT,
        board_message_id BIGINT, lobby_message_id BIGINT, result TEXT,
        created_at DOUBLE PRECISION NOT NULL, updated_at DOUBLE PRECISION NOT NULL
    );
    CREATE INDEX games_guild ON games(guild_id, status);
    CREATE TABLE seats (
        game_id BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seat INTEGER NOT NULL, user_id BIGINT, is_bot BOOLEAN NOT NULL DEFAULT FALSE,
        name TEXT NOT NULL,
        PRIMARY KEY (game_id, seat)
    );
    CREATE INDEX seats_user ON seats(user_id);
    CREATE TABLE actions (
        game_id BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        n INTEGER NOT NULL, seat INTEGER NOT NULL, action TEXT NOT NULL,
        origin TEXT NOT NULL, user_id BIGINT, created_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (game_id, n)
    );
    CREATE TABLE events (
        game_id BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        n INTEGER NOT NULL, version BIGINT NOT NULL, text TEXT NOT NULL,
        recipients TEXT, kind TEXT NOT NULL, data TEXT NOT NULL DEFAULT '{}',
        created_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (game_id, n)
    );
    CREATE TABLE deadlines (
        game_id BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seat INTEGER NOT NULL, kind TEXT NOT NULL,
        due_at DOUBLE PRECISION NOT NULL, remind_at DOUBLE PRECISION,
        reminded BOOLEAN NOT NULL DEFAULT FALSE,
        PRIMARY KEY (game_id, seat, kind)
    );
    CREATE INDEX deadlines_due ON deadlines(due_at);
    CREATE TABLE guild_settings (
        guild_id BIGINT PRIMARY KEY,
        default_deadline BIGINT, reminder_lead BIGINT, opener_role_id BIGINT,
        channels TEXT NOT NULL DEFAULT '[]'
    );
    CREATE TABLE dm_status (
        user_id BIGINT PRIMARY KEY, reachable BOOLEAN NOT NULL,
        checked_at DOUBLE PRECISION NOT NULL
    );
    CREATE TABLE dm_notices (
        game_id BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        user_id BIGINT NOT NULL,
        PRIMARY KEY (game_id, user_id)
    );
    """,
    # 2: prompt instances
    """
    ALTER TABLE games ADD COLUMN opened TEXT NOT NULL DEFAULT '{}';
    ALTER TABLE games ADD COLUMN answered TEXT NOT NULL DEFAULT '{}';
    ALTER TABLE deadlines ADD COLUMN opened BIGINT NOT NULL DEFAULT 0;
    """,
    # 3: limits on open tables; listings by last activity; a member's seats by member
    """
    ALTER TABLE guild_settings ADD COLUMN table_limit INTEGER;
    ALTER TABLE guild_settings ADD COLUMN member_lobby_limit INTEGER;
    ALTER TABLE guild_settings ADD COLUMN member_table_limit INTEGER;
    CREATE INDEX games_guild_activity ON games(guild_id, status, updated_at);
    DROP INDEX seats_user;
    CREATE INDEX seats_user ON seats(user_id, game_id);
    """,
    # 4: claims on deadlines (one process handles each, until its lease runs out)
    """
    ALTER TABLE deadlines ADD COLUMN claimed_by TEXT;
    ALTER TABLE deadlines ADD COLUMN claimed_until DOUBLE PRECISION;
    """,
    # 5: ratings (the SQLite backend's step 5: ratings per server and game, settled games and
    # their places, departures, the leaderboards switch; earlier finished games settled unrated)
    """
    CREATE TABLE ratings (
        guild_id BIGINT NOT NULL, game_key TEXT NOT NULL, user_id BIGINT NOT NULL,
        name TEXT NOT NULL, mu DOUBLE PRECISION NOT NULL, sigma DOUBLE PRECISION NOT NULL,
        games INTEGER NOT NULL DEFAULT 0, wins INTEGER NOT NULL DEFAULT 0,
        updated_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (guild_id, game_key, user_id)
    );
    CREATE INDEX ratings_member ON ratings(guild_id, user_id);
    CREATE TABLE settled_games (
        game_id BIGINT PRIMARY KEY, guild_id BIGINT NOT NULL, game_key TEXT NOT NULL,
        started_at DOUBLE PRECISION NOT NULL, finished_at DOUBLE PRECISION NOT NULL,
        moves BIGINT NOT NULL, rated BOOLEAN NOT NULL, settled_at DOUBLE PRECISION NOT NULL
    );
    CREATE TABLE settled_places (
        game_id BIGINT NOT NULL REFERENCES settled_games(game_id) ON DELETE CASCADE,
        user_id BIGINT NOT NULL, guild_id BIGINT NOT NULL, name TEXT NOT NULL,
        rank INTEGER NOT NULL, won BOOLEAN NOT NULL, abandoned BOOLEAN NOT NULL,
        mu DOUBLE PRECISION NOT NULL, sigma DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (game_id, user_id)
    );
    CREATE INDEX settled_places_member ON settled_places(guild_id, user_id);
    CREATE TABLE departures (
        game_id BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        user_id BIGINT NOT NULL, seat INTEGER NOT NULL, name TEXT NOT NULL,
        PRIMARY KEY (game_id, user_id)
    );
    ALTER TABLE guild_settings ADD COLUMN leaderboards BOOLEAN NOT NULL DEFAULT TRUE;
    INSERT INTO settled_games (game_id, guild_id, game_key, started_at, finished_at, moves, rated,
        settled_at)
        SELECT id, guild_id, game_key, created_at, updated_at, version, FALSE, updated_at
        FROM games WHERE status='finished' AND guild_id IS NOT NULL;
    """,
    # 6: player preferences, time away and paused games
    """
    CREATE TABLE player_prefs (
        user_id BIGINT PRIMARY KEY,
        pings BOOLEAN NOT NULL DEFAULT TRUE, dms TEXT NOT NULL DEFAULT 'every',
        quiet_start INTEGER, quiet_end INTEGER, zone TEXT,
        away_until DOUBLE PRECISION, away_mode TEXT
    );
    ALTER TABLE games ADD COLUMN paused_at DOUBLE PRECISION;
    ALTER TABLE games ADD COLUMN paused_by BIGINT;
    ALTER TABLE games ADD COLUMN pause_used DOUBLE PRECISION NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN pause_frozen TEXT;
    """,
    # 7: saved decks (one name once per player and game, compared without case)
    """
    CREATE TABLE decks (
        id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        user_id BIGINT NOT NULL, game_key TEXT NOT NULL,
        name TEXT NOT NULL, name_key TEXT NOT NULL, data TEXT NOT NULL DEFAULT '{}',
        created_at DOUBLE PRECISION NOT NULL, updated_at DOUBLE PRECISION NOT NULL,
        UNIQUE (user_id, game_key, name_key)
    );
    """,
    # 8: (the SQLite backend keeps actions and events in the order of their key; PostgreSQL's
    # tables and their key indexes stay as they are)
    "SELECT 1",
    # 9: each member's DM channel, once Discord has opened it
    """
    CREATE TABLE dm_channels (user_id BIGINT PRIMARY KEY, channel_id BIGINT NOT NULL);
    """,
    # 10: a server's own limit on lobbies, and how long an idle lobby stays open
    """
    ALTER TABLE guild_settings ADD COLUMN lobby_limit INTEGER;
    ALTER TABLE guild_settings ADD COLUMN lobby_expiry INTEGER;
    """,
    # 11: each game's web token, with the digest it is looked up by
    """
    CREATE TABLE web_links (
        game_id BIGINT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
        token TEXT NOT NULL, digest TEXT NOT NULL UNIQUE, created_at DOUBLE PRECISION NOT NULL
    );
    """,
    # 12: each game's version up to which its log lines are posted in its thread
    """
    CREATE TABLE thread_logs (
        game_id BIGINT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
        version BIGINT NOT NULL
    );
    """,
    # 13: the web's link secret, each seat's link generation, a server's switch for its pages
    """
    CREATE TABLE web_secret (
        id INTEGER PRIMARY KEY CHECK (id = 1), secret TEXT NOT NULL
    );
    CREATE TABLE web_seat_links (
        game_id BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seat INTEGER NOT NULL, generation BIGINT NOT NULL,
        PRIMARY KEY (game_id, seat)
    );
    ALTER TABLE guild_settings ADD COLUMN web_pages BOOLEAN;
    """,
]
"""Step for step the SQLite backend's migrations: a schema number means the same in both."""

SCHEMA_TABLE = "herald_schema"
"""One row, the schema version (PostgreSQL has no ``user_version``); absent: an empty database."""
_MIGRATION_LOCK = 0x6865_7261_6C64
"""The advisory lock held while migrating, so that processes starting together migrate once."""


_OPEN = ["lobby", "active"]


def _herald_tables() -> set[str]:
    made: set[str] = set()
    for script in MIGRATIONS:
        made |= set(re.findall(r"CREATE TABLE (\w+)", script))
        made -= set(re.findall(r"DROP TABLE (\w+)", script))
    return made


_DRIVER_ERRORS = (asyncpg.PostgresError, asyncpg.InterfaceError,
                  asyncpg.exceptions.InternalClientError, OSError, TimeoutError)
"""What the driver raises: the server's errors, the client's, the network's, a timeout."""

_doing: contextvars.ContextVar[str] = contextvars.ContextVar("herald_storage_doing", default="open")
"""The storage method in progress in this task, named when a failure is logged (calls run
concurrently on the pool, so this is per task, not per storage)."""


def _kind(exc: BaseException) -> type[StorageError] | None:
    """What a driver error means for Herald; None for a bug in Herald (SQL, a constraint), which
    is not translated: it reaches the one place unexpected failures are logged in full."""
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
    """Whether ``exc`` is the server's answer to a statement (an error it raised: the statement
    or commit is refused, nothing of it stored), not a connection lost before the answer."""
    return isinstance(exc, asyncpg.PostgresError) and not str(
        getattr(exc, "sqlstate", "")).startswith("08")


def _cause(exc: BaseException) -> str:
    """The driver's own words, for the admin (never any SQL or parameters: they hold states)."""
    state = getattr(exc, "sqlstate", None)
    name = type(exc).__name__ + (f" {state}" if state else "")
    text = str(exc) or "no details"
    return f"{name}: {text}"


def _boundary(method: Any) -> Any:
    """The storage's boundary: a driver error met in service leaves as a :class:`StorageError`
    subclass that keeps the driver's error as its cause."""

    @functools.wraps(method)
    async def wrapper(self: PostgresStorage, *args: Any, **kwargs: Any) -> Any:
        token = _doing.set(method.__name__)
        try:
            return await method(self, *args, **kwargs)
        except _DRIVER_ERRORS as exc:
            fault = self._fault(exc)
            if fault is None:
                raise
            raise fault from exc
        finally:
            _doing.reset(token)

    return wrapper


async def _lock_active(conn: asyncpg.Connection, game_id: int, expected_version: int) -> None:
    """Lock the game's row until the commit and check it is active, not paused and at
    ``expected_version``, else :class:`VersionConflict`. The lock orders every process's writes
    to this game, so the second of two racing actions (or undos) conflicts; a paused game takes
    no action and takes nothing back (see ``pause_game``)."""
    row = await conn.fetchrow(
        "SELECT version, status, paused_at FROM games WHERE id=$1 FOR UPDATE", game_id)
    if row is None or row[0] != expected_version or row[1] != "active" or row[2] is not None:
        raise VersionConflict(f"game {game_id} is no longer at version {expected_version}")


def _event_arrays(events: Sequence[dict[str, Any]]) -> tuple[list[Any], ...]:
    """Events as four parallel arrays (text, recipients, kind, data): what one multi-row insert
    takes as its parameters (``unnest``), however many events an action made."""
    rows = [event_values(e) for e in events]
    return tuple([r[i] for r in rows] for i in range(4))


_EVENTS_FROM = ("unnest(${0}::text[], ${1}::text[], ${2}::text[], ${3}::text[]) WITH ORDINALITY "
                "AS e(text, recipients, kind, data, i)")
"""The events of :func:`_event_arrays`, numbered from 1 in their order, at parameters
``{0}``-``{3}``."""


async def _append_events(conn: asyncpg.Connection, game_id: int, version: int,
                         events: Sequence[dict[str, Any]], now: float) -> None:
    """Number ``events`` on after the game's last event, all made by ``version``: one statement
    (the last number read and the rows inserted together, under the caller's lock on the game)."""
    if not events:
        return
    await conn.execute(
        "INSERT INTO events (game_id, n, version, text, recipients, kind, data, created_at) "
        "SELECT $1, COALESCE((SELECT MAX(n) FROM events WHERE game_id=$1), 0) + e.i, $2, "
        "e.text, e.recipients, e.kind, e.data, $3 FROM " + _EVENTS_FROM.format(4, 5, 6, 7),
        game_id, version, now, *_event_arrays(events))


def _deadline_arrays(deadlines: Sequence[DeadlineRow]) -> tuple[list[Any], ...]:
    """Deadlines as six parallel arrays (seat, kind, due, reminder, reminded, prompt instance).

    Two deadlines for one seat and kind are a bug of the caller's, refused as the table's
    primary key refuses them (the one statement that writes them would otherwise stop on its
    own, less telling error): nothing of the transaction is stored."""
    keys = [(d.seat, d.kind) for d in deadlines]
    if len(set(keys)) != len(keys):
        twice = next(k for k in keys if keys.count(k) > 1)
        raise asyncpg.UniqueViolationError(
            f"two deadlines for seat {twice[0]}'s {twice[1]!r} decision in one write")
    rows = [(d.seat, d.kind, float(d.due_at), None if d.remind_at is None else float(d.remind_at),
             bool(d.reminded), int(d.opened)) for d in deadlines]
    return tuple([r[i] for r in rows] for i in range(6))


def _deadline_ctes(first: int, game: str, guard: str) -> str:
    """The common table expressions that replace a game's deadlines with those of
    :func:`_deadline_arrays` (at parameters ``first`` to ``first + 5``), for ``game`` (an SQL
    expression; the rows of ``guard``, one or none, decide whether anything is written).

    A row of the same seat and kind is updated in place only when it changed, keeping its claim
    (``claimed_by``, ``claimed_until``) while it is the same prompt instance: another seat's move
    must not free a deadline a process is about to handle. The same deadline (instance, due time
    and reminder time) is not written at all — no new row version, and a claim or a reminder
    another process made since the caller read it is left as it is (the statement waits for that
    process's row lock and then sees its committed row): a reminder sent stays sent, never sent
    twice because a move carried the deadline over as it was read before. Rows of seats and
    kinds no longer open are deleted."""
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
    """True when a deadline of :func:`_deadline_ctes` is one the game did not have before (a
    seat, kind and prompt instance absent from the rows as the statement found them): the
    other processes are then woken for it."""
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
    "a AS (INSERT INTO actions (game_id, n, seat, action, origin, user_id, created_at) "
    "SELECT g.id, GREATEST(COALESCE((SELECT MAX(n) FROM actions WHERE game_id=$1), 0) + 1, $2), "
    "$9, $10, $11, $12, $8 FROM g RETURNING n), "
    "e AS (INSERT INTO events (game_id, n, version, text, recipients, kind, data, created_at) "
    "SELECT g.id, COALESCE((SELECT MAX(n) FROM events WHERE game_id=$1), 0) + e.i, $2 + 1, "
    "e.text, e.recipients, e.kind, e.data, $8 FROM g, " + _EVENTS_FROM.format(13, 14, 15, 16) + "), "
    + _deadline_ctes(17, "$1::bigint", "g")
    + " SELECT (SELECT n FROM a), CASE WHEN " + _deadline_news("$1::bigint", "g")
    + " THEN pg_notify($23, $24) END")
"""An action's whole write, one statement that is its own transaction (one round trip): the game's
row updated only at ``expected_version`` (``$2``), active and not paused — which locks it, so
every process's writes to the game are ordered, and a racing one re-checks the condition on the
row as committed and finds nothing to update — then, only if it was, the action numbered, its
events numbered on from the game's last, its deadlines replaced (unchanged rows not written) and
the other processes woken for a new one. The first column is the action's number, NULL when the
game was not at that version (nothing written). The last numbers are read in the statement's
snapshot, which may predate the lock: safe, because every write of a game's actions or events
changes its version under that lock, so a snapshot that missed one finds the row at another
version (re-checked on the committed row) and writes nothing."""


WAKE_CHANNEL = "herald_deadlines"
"""The NOTIFY channel on which a process tells the others it stored a new deadline."""
RELISTEN_EVERY = 30
"""Seconds between attempts to re-open a lost listening connection."""
SETTINGS_CHANNEL = "herald_settings"
"""The NOTIFY channel on which a process tells every process (itself too) that a server's
settings changed (the payload: the server's id), so that they read them again."""
UPDATE_CHANNEL = "herald_updates"
"""The NOTIFY channel on which a process tells the others that a game reached a new version (the
payload: its tag, the game's id and the version), so their web pages update at once."""
SETTINGS_KEPT_FOR = 60.0
"""Seconds a server's settings are served from memory at most (a backstop: a change is heard at
once through :data:`SETTINGS_CHANNEL`, unless the listening connection died unnoticed)."""
SETTINGS_KEPT = 10_000
"""Servers whose settings are kept in memory at most (the least recently read dropped first)."""


_GAME_WITH_SEATS = (
    f"SELECT {G_COLUMNS}, "
    + ", ".join(f"ARRAY(SELECT s.{c} FROM seats s WHERE s.game_id=g.id ORDER BY s.seat)"
                for c in ("seat", "user_id", "is_bot", "name"))
    + " FROM games g WHERE g.id=$1")
"""One game and its seats (as four arrays, in seat order) in one statement: the read every
step of a game starts with."""
_DEADLINE_ARRAYS = ("seat", "kind", "due_at", "remind_at", "reminded", "opened")
_GAME_SEATS_DEADLINES = (
    _GAME_WITH_SEATS.replace(" FROM games g WHERE g.id=$1", ", ")
    + ", ".join(f"ARRAY(SELECT d.{c} FROM deadlines d WHERE d.game_id=g.id ORDER BY d.seat, d.kind)"
                for c in _DEADLINE_ARRAYS)
    + " FROM games g WHERE g.id=$1")
"""The same with the game's deadlines (six more arrays, by seat and kind): a player's move."""


def _copied(s: GuildSettings) -> GuildSettings:
    """A server's settings to hand out (its list of channels its own: callers may change it)."""
    return dataclasses.replace(s, channels=list(s.channels))


class PostgresStorage(Storage):
    """PostgreSQL backend (asyncpg, a pool of connections; concurrent calls run concurrently and
    the database's row locks order the writes to one game)."""

    transient_errors = (StorageUnavailable,)

    def __init__(self, url: str, *, busy_timeout: float = 5.0, pool_size: int = 10,
                 trace: Callable[[str], None] | None = None) -> None:
        self.url = url
        self.where = redacted(url)
        """The database as logs and messages name it (no password)."""
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
        self._guilds: dict[int, tuple[float, GuildSettings]] = {}
        """Servers' settings as read, with when (monotonic): every step of a game asks for them.
        Served only while this storage listens on :data:`SETTINGS_CHANNEL` (see
        ``guild_settings``)."""
        self._settings_epoch = 0
        self._on_update: Callable[[int, int], None] | None = None
        """Counts the changes heard (and losses of the listening connection): a read that began
        before one is not kept."""

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

    # ------------------------------------------------------------ failures

    def _fault(self, exc: BaseException, *, stored: bool | None = False) -> StorageError | None:
        kind = _kind(exc)
        if kind is None:
            return None
        where = f"the database {self.where}"
        text = {
            StorageBusy: f"{where} kept Herald waiting for more than {self.busy_timeout:g}s (rows "
                         "locked by another process, or the server overloaded)",
            StorageFull: f"could not write to {where}: the server's disk is full",
            StorageReadOnly: f"{where} refused a write (a read-only server or transaction, or "
                             "Herald's database user lacks the privilege)",
            StorageCorrupt: f"{where} reports damaged data; restore it from a backup (pg_dump) "
                            "or repair it before starting Herald again",
            StorageUnavailable: f"{where} could not be reached just now",
        }[kind]
        if stored is None:
            text += "; what was being committed may or may not be stored"
        err = kind(f"{text} ({scrubbed(_cause(exc), self.url)}).", stored=stored)
        log.log(logging.WARNING if kind is StorageBusy else logging.ERROR,
                "%s failed: %s", _doing.get(), err)
        return err

    @contextlib.asynccontextmanager
    async def _transaction(self, landed: Callable[[asyncpg.Connection], Awaitable[bool]] | None = None
                           ) -> AsyncIterator[asyncpg.Connection]:
        """A transaction on a connection of its own, rolled back on any error.

        Should the connection be lost while committing, the server may or may not have committed:
        ``landed`` asks it (on another connection) which. Stored, the commit stands (a warning is
        logged); not stored, the error says so; if it cannot be asked, the outcome is unknown."""
        async with self._connection() as conn:
            tr = conn.transaction()
            await tr.start()
            try:
                yield conn
            except BaseException as exc:
                try:
                    await tr.rollback()
                except _DRIVER_ERRORS as err:  # the server rolls back a lost session itself
                    log.warning("%s: rolling back after %s failed too (%s)", _doing.get(),
                                scrubbed(_cause(exc), self.url), _cause(err))
                raise
            try:
                await tr.commit()
            except _DRIVER_ERRORS as exc:
                pid = conn.get_server_pid()
                if not _answered(exc):
                    with contextlib.suppress(asyncpg.InterfaceError):
                        conn.terminate()  # (no use after a lost answer: the pool replaces it)
                await self._settle_lost(exc, landed, pid)

    async def _settle_lost(self, exc: BaseException,
                           landed: Callable[[asyncpg.Connection], Awaitable[bool]] | None,
                           pid: int) -> None:
        """After ``exc`` ended a commit (a COMMIT, or a statement that is its own transaction)
        on the server process ``pid``: return if the change is stored after all, else raise
        what the caller must hear.

        A server that answered with an error refused the commit: nothing is stored, the error
        goes on. A connection lost before the answer leaves the outcome open: ``landed`` asks
        the server (on another connection) which. That server process is ended first, so that
        the answer stays true: one still waiting for a row lock, or not yet aware that its
        client is gone, would otherwise commit after being reported as not stored (``landed``
        also waits for the game's row lock, which such a process holds until it is gone).
        Stored, the commit stands (a warning is logged); not stored, the error says so; if it
        cannot be asked, the outcome is unknown."""
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
                    stored = await landed(other)
            except _DRIVER_ERRORS:
                stored = None
        if stored:
            log.warning("%s: the connection failed while committing (%s), but the change "
                        "is stored", _doing.get(), scrubbed(_cause(exc), self.url))
            return
        fault = self._fault(exc, stored=stored)
        if fault is None:
            raise exc
        raise fault from exc

    # ------------------------------------------------------------ opening

    async def open(self) -> None:
        """Connect, check the database and bring its schema up to date.

        Refuses (``StorageOpenError``, one sentence for the admin) an unreachable server, a
        refused login, a missing database, another program's tables, a newer Herald's schema or a
        read-only database — before writing anything. A failed open closes its connections."""
        token = _doing.set("open")
        try:
            self._pool = await self._connect()
            version = await self.schema_version()
            if version > len(MIGRATIONS):
                raise self._newer(version)
            if version:
                await self._check_writable()
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
            _doing.reset(token)

    async def _connect(self) -> asyncpg.Pool:
        def traced(record: Any) -> None:
            if self.trace is not None:
                self.trace(record.query)

        async def prepare(conn: asyncpg.Connection) -> None:
            if self.trace is not None:  # only then: logging every query costs a little each
                conn.add_query_logger(traced)

        async def keep_session(conn: asyncpg.Connection) -> None:
            """What a connection returned to the pool needs beyond asyncpg's own rollback of an
            open transaction: nothing. Herald sets no session state (its settings are startup
            parameters, its advisory lock ends with its transaction, cursors live inside one,
            no LISTEN), so the default reset's round trip per call is saved."""

        lock_ms = str(int(self.busy_timeout * 1000))
        pool: asyncpg.Pool = await asyncpg.create_pool(
            self.url, min_size=1, max_size=max(1, self.pool_size), timeout=self.busy_timeout * 2,
            init=prepare, reset=keep_session,
            server_settings={"application_name": "herald", "lock_timeout": lock_ms})
        return pool

    async def _check_empty(self, conn: asyncpg.Connection) -> None:
        """A database without Herald's schema table must hold no tables at all (in Herald's
        schema, the connection's first ``search_path`` entry): otherwise it is another
        program's. Asked under the migration lock: another Herald starting at the same moment
        may be creating the tables."""
        tables = [str(r[0]) for r in await conn.fetch(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() "
            "ORDER BY tablename")]
        if tables:
            shown = ", ".join(tables[:5]) + (", …" if len(tables) > 5 else "")
            raise StorageOpenError(
                f"{self.where} is another program's database (tables {shown}; Herald never made "
                "it): point HERALD_DB at a database of Herald's own (an empty one to start).")

    async def _check_writable(self) -> None:
        """A read-only server (a standby) or a user without write privileges fails at the first
        move otherwise: a write that is rolled back finds out now."""
        async with self._connection() as conn:
            tr = conn.transaction()
            await tr.start()
            try:
                await conn.execute(f"UPDATE {SCHEMA_TABLE} SET version = version")
            finally:
                await tr.rollback()

    async def _check_tables(self) -> None:
        async with self._connection() as conn:
            names = {str(r[0]) for r in await conn.fetch(
                "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")}
        missing = sorted(_herald_tables() - names)
        if missing:
            raise StorageOpenError(
                f"{self.where} lacks Herald's table(s) {', '.join(missing)}, so it was edited by "
                "hand; restore it from a backup (pg_dump) before starting Herald again.")

    def _newer(self, version: int) -> StorageOpenError:
        return StorageOpenError(
            f"{self.where} was written by a newer Herald (schema {version}; this one knows up to "
            f"{len(MIGRATIONS)}): run that newer Herald, or restore a backup made with this version.")

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
            text = f"HERALD_DB ({where}) is not a usable PostgreSQL URL"
        elif isinstance(exc, TimeoutError):
            text = (f"the PostgreSQL server of {where} did not answer within "
                    f"{self.busy_timeout * 2:g}s: check that it is running and reachable")
        elif isinstance(exc, OSError) or state[:2] in ("08", "53", "57"):
            text = (f"cannot reach the PostgreSQL server of {where}: check that it is running and "
                    "that HERALD_DB names the right host and port")
        else:
            kind = _kind(exc)
            if kind is StorageCorrupt:
                text = f"{where} reports damaged data; restore it from a backup (pg_dump)"
            elif kind is StorageFull:
                text = f"the PostgreSQL server of {where} has a full disk; free some space"
            else:
                text = f"{where} could not be prepared, so it was damaged or edited by hand"
        if text.startswith("HERALD_DB"):
            text += ". " + ENCODING_HINT.rstrip(".")
        return StorageOpenError(f"{text} ({scrubbed(_cause(exc), self.url)}).")

    async def listen(self, on_new_deadline: Callable[[], None]) -> bool:
        """LISTEN on :data:`WAKE_CHANNEL` on a connection of its own (outside the pool: a pooled
        connection is reset and shared). A lost listening connection is re-opened every
        ``RELISTEN_EVERY`` seconds, waking the scheduler once it is back (it may have missed a
        notice meanwhile); until then the scheduler's own passes still find every deadline."""
        self._on_new_deadline = on_new_deadline
        if self._listener is None:  # (opened with the storage, unless that failed)
            await self._listen()
        return True

    async def _listen(self) -> bool:
        if await self._listen_once():
            return True
        log.warning("cannot listen for other processes' deadlines on %s; trying again every %d s",
                    self.where, RELISTEN_EVERY)
        self._relisten_later()
        return False

    def _heard(self, _conn: Any, _pid: int, _channel: str, payload: str) -> None:
        if payload != self.tag and self._on_new_deadline is not None:
            self._on_new_deadline()

    def _settings_changed(self, _conn: Any, _pid: int, _channel: str, payload: str) -> None:
        self._settings_epoch += 1
        try:
            self._guilds.pop(int(payload), None)
        except ValueError:  # (not a server's id: forget them all)
            self._guilds.clear()

    def _lost(self, _conn: Any) -> None:
        if self._listener is not None:  # not a close of ours
            self._listener = None
            self._settings_epoch += 1  # changes may go unheard until it is back
            self._guilds.clear()
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

    def forget(self, game_id: int | None = None) -> None:
        """Drop the servers' settings kept in memory (this backend keeps nothing of games)."""
        if game_id is None:
            self._settings_epoch += 1
            self._guilds.clear()

    async def close(self) -> None:
        self._on_new_deadline = None
        self._guilds.clear()
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
        # a query on the catalog, not to_regclass: it sees a table another process created
        # while this one waited for the migration lock (a fresh snapshot, not a cached lookup)
        exists = await conn.fetchval(
            "SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_tables WHERE tablename=$1 "
            "AND schemaname=current_schema())", SCHEMA_TABLE)
        if not exists:
            return 0
        value = await conn.fetchval(f"SELECT MAX(version) FROM {SCHEMA_TABLE}")
        return int(value or 0)

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

    @staticmethod
    def _row_to_game(r: Sequence[Any]) -> GameRow:
        return GameRow(
            id=r[0], guild_id=r[1], channel_id=r[2], thread_id=r[3], game_key=r[4], status=r[5],
            version=r[6], seed=r[7], options=from_json(r[8]) or {}, state=from_json(r[9]), host_id=r[10],
            deadline=r[11], board_message_id=r[12], lobby_message_id=r[13], result=from_json(r[14]),
            created_at=r[15], updated_at=r[16],
            opened=seat_map(r[17]), answered=seat_map(r[18]),
        )

    @_boundary
    async def create_game(self, *, guild_id: int | None, channel_id: int | None, game_key: str,
                          seed: int, options: dict[str, Any], host_id: int | None,
                          deadline: int | None, now: float, seats: Sequence[SeatRow] = ()) -> int:
        async with self._transaction() as conn:
            game_id = int(await conn.fetchval(
                "INSERT INTO games (guild_id, channel_id, game_key, status, version, seed, options, "
                "host_id, deadline, created_at, updated_at) "
                "VALUES ($1,$2,$3,'lobby',0,$4,$5,$6,$7,$8,$8) RETURNING id",
                guild_id, channel_id, game_key, seed, to_json(options), host_id, deadline, now))
            await self._write_seats(conn, game_id, seats)
        return game_id

    @_boundary
    async def get_game(self, game_id: int) -> GameRow | None:
        async with self._connection() as conn:
            r = await conn.fetchrow(_GAME_WITH_SEATS, game_id)
        return self._game_with_seats(r) if r is not None else None

    def _game_with_seats(self, r: Any) -> GameRow:
        game = self._row_to_game(r)
        game.seats = [SeatRow(*s) for s in zip(r[19], r[20], r[21], r[22], strict=True)]
        return game

    @_boundary
    async def game_and_deadlines(self, game_id: int) -> tuple[GameRow | None, list[DeadlineRow]]:
        async with self._connection() as conn:
            r = await conn.fetchrow(_GAME_SEATS_DEADLINES, game_id)
        if r is None:
            return None, []
        game = self._game_with_seats(r)
        if game.status != "active":
            return game, []
        return game, [DeadlineRow(game_id, seat, kind, due, remind, bool(reminded), int(opened))
                      for seat, kind, due, remind, reminded, opened in zip(*r[23:29], strict=True)]

    async def _many(self, sql: str, *params: Any) -> list[GameRow]:
        """The games ``sql`` selects, with their seats: two statements however many games."""
        async with self._connection() as conn:
            rows = [self._row_to_game(r) for r in await conn.fetch(sql, *params)]
            if not rows:
                return rows
            by_id = {g.id: g for g in rows}
            for r in await conn.fetch(
                    "SELECT game_id, seat, user_id, is_bot, name FROM seats "
                    "WHERE game_id = ANY($1::bigint[]) ORDER BY game_id, seat", list(by_id)):
                by_id[r[0]].seats.append(SeatRow(r[1], r[2], bool(r[3]), r[4]))
        return rows

    @_boundary
    async def list_games(self, *, guild_id: int | None = None,
                         statuses: Sequence[str] = ("lobby", "active")) -> list[GameRow]:
        if guild_id is None:
            return await self._many(
                f"SELECT {GAME_COLUMNS} FROM games WHERE status = ANY($1::text[]) ORDER BY id",
                list(statuses))
        return await self._many(
            f"SELECT {GAME_COLUMNS} FROM games WHERE guild_id=$1 AND status = ANY($2::text[]) "
            "ORDER BY id", guild_id, list(statuses))

    @_boundary
    async def games_of_user(self, user_id: int, statuses: Sequence[str] = ("active",)) -> list[GameRow]:
        return await self._many(
            f"SELECT {G_COLUMNS} FROM games g WHERE g.status = ANY($1::text[]) AND g.id IN "
            "(SELECT game_id FROM seats WHERE user_id=$2 AND NOT is_bot) ORDER BY g.id",
            list(statuses), user_id)

    @_boundary
    async def page_games(self, *, guild_id: int, statuses: Sequence[str] = ("lobby", "active"),
                         limit: int = 15, offset: int = 0) -> GamePage:
        where = "g.guild_id=$1 AND g.status = ANY($2::text[])"
        async with self._connection() as conn:
            total = int(await conn.fetchval(f"SELECT COUNT(*) FROM games g WHERE {where}",
                                            guild_id, list(statuses)) or 0)
        games = await self._many(
            f"SELECT {G_COLUMNS} FROM games g WHERE {where} {RECENT_FIRST} LIMIT $3 OFFSET $4",
            guild_id, list(statuses), max(0, limit), max(0, offset))
        return GamePage(games, total)

    @_boundary
    async def search_games(self, *, guild_id: int | None, user_id: int, statuses: Sequence[str],
                           text: str = "", game_keys: Sequence[str] = (),
                           limit: int = 25) -> list[GameRow]:
        params: list[Any]
        if guild_id is not None:
            where, params = "g.guild_id=$1", [guild_id]
        else:
            where, params = "g.id IN (SELECT game_id FROM seats WHERE user_id=$1 AND NOT is_bot)", [user_id]
        params.append(list(statuses))
        where += f" AND g.status = ANY(${len(params)}::text[])"
        text = text.strip().lstrip("#").strip()
        if text:
            params.append(like_pattern(text))
            mark = f"${len(params)}"
            found = [f"CAST(g.id AS TEXT) LIKE {mark}",
                     f"g.id IN (SELECT game_id FROM seats WHERE name ILIKE {mark})"]
            if game_keys:
                params.append(list(game_keys))
                found.append(f"g.game_key = ANY(${len(params)}::text[])")
            where += f" AND ({' OR '.join(found)})"
        params.append(max(0, limit))
        return await self._many(
            f"SELECT {G_COLUMNS} FROM games g WHERE {where} {RECENT_FIRST} LIMIT ${len(params)}",
            *params)

    @_boundary
    async def games_near(self, *, guild_id: int, channel_id: int | None, user_id: int,
                         statuses: Sequence[str], limit: int = 25) -> list[GameRow]:
        return await self._many(
            f"SELECT {G_COLUMNS} FROM games g WHERE g.guild_id=$1 AND g.status = ANY($2::text[]) "
            "AND (g.channel_id=$3 OR g.thread_id=$3 OR g.id IN "
            "(SELECT game_id FROM seats WHERE user_id=$4 AND NOT is_bot)) "
            f"{RECENT_FIRST} LIMIT $5",
            guild_id, list(statuses), channel_id, user_id, max(0, limit))

    @_boundary
    async def count_tables(self, guild_id: int, user_id: int, *,
                           lobbies_since: float = 0.0) -> TableCounts:
        async with self._connection() as conn:
            row = await conn.fetchrow(
                "SELECT COUNT(*) FILTER (WHERE g.status='lobby'), "
                "COUNT(*) FILTER (WHERE g.status<>'lobby'), "
                "COUNT(*) FILTER (WHERE g.status='lobby' AND m.game_id IS NOT NULL), "
                "COUNT(m.game_id) FROM games g LEFT JOIN "
                "(SELECT DISTINCT game_id FROM seats WHERE user_id=$1 AND NOT is_bot) m "
                "ON m.game_id=g.id WHERE g.guild_id=$2 AND g.status = ANY($3::text[]) "
                "AND (g.status<>'lobby' OR g.updated_at>=$4)",
                user_id, guild_id, _OPEN, float(lobbies_since))
        return TableCounts(*(int(x) for x in row)) if row else TableCounts(0, 0, 0, 0)

    @_boundary
    async def update_game(self, game_id: int, **fields: Any) -> None:
        bad = set(fields) - UPDATABLE
        if bad:
            raise StorageError(f"cannot update {sorted(bad)}")
        if not fields:
            return
        values = [(to_json(v) if k in ("options", "result") and v is not None else v)
                  for k, v in fields.items()]
        sets = ", ".join(f"{k}=${i}" for i, k in enumerate(fields, start=2))
        async with self._connection() as conn:
            await conn.execute(f"UPDATE games SET {sets} WHERE id=$1", game_id, *values)

    @_boundary
    async def set_seats(self, game_id: int, seats: Sequence[SeatRow], *,
                        now: float | None = None) -> None:
        async with self._transaction() as conn:
            await self._write_seats(conn, game_id, seats)
            if now is not None:
                await conn.execute("UPDATE games SET updated_at=$2 WHERE id=$1", game_id, float(now))

    async def _write_seats(self, conn: asyncpg.Connection, game_id: int,
                           seats: Sequence[SeatRow]) -> None:
        await conn.execute("DELETE FROM seats WHERE game_id=$1", game_id)
        if seats:
            await conn.executemany(
                "INSERT INTO seats (game_id, seat, user_id, is_bot, name) VALUES ($1,$2,$3,$4,$5)",
                [(game_id, s.seat, s.user_id, bool(s.is_bot), s.name) for s in seats])

    async def _write_deadlines(self, conn: asyncpg.Connection, game_id: int,
                               deadlines: Sequence[DeadlineRow]) -> None:
        """Replace a game's deadlines in one statement (see :func:`_deadline_ctes`: unchanged
        rows are not written, one of the same prompt instance as before keeps its claim) and,
        for a deadline other processes have not seen, wake them: ``pg_notify`` is delivered at
        commit, never for a transaction that rolls back."""
        await conn.execute(_REPLACE_DEADLINES, game_id, *_deadline_arrays(deadlines),
                           WAKE_CHANNEL, self.tag)

    @_boundary
    async def start_game(self, game_id: int, *, seats: Sequence[SeatRow], state: dict[str, Any],
                         opened: Mapping[int, int], deadlines: Sequence[DeadlineRow],
                         now: float) -> None:
        async def landed(conn: asyncpg.Connection) -> bool:
            row = await conn.fetchrow("SELECT status, version FROM games WHERE id=$1", game_id)
            return row is not None and (row[0], row[1]) == ("active", 1)

        async with self._transaction(landed) as conn:
            status = await conn.fetchval("SELECT status FROM games WHERE id=$1 FOR UPDATE", game_id)
            if status != "lobby":
                raise VersionConflict(f"game {game_id} is not a lobby any more")
            await conn.execute(
                "UPDATE games SET status='active', state=$2, version=1, opened=$3, updated_at=$4 "
                "WHERE id=$1", game_id, to_json(state), seat_map_json(opened), now)
            await self._write_seats(conn, game_id, seats)
            await self._write_deadlines(conn, game_id, deadlines)

    @_boundary
    async def commit_action(self, game_id: int, *, expected_version: int, seat: int,
                            action: dict[str, Any], origin: str, user_id: int | None,
                            state: dict[str, Any], events: Sequence[dict[str, Any]],
                            status: str, result: dict[str, Any] | None,
                            opened: Mapping[int, int], answered: Mapping[int, int],
                            deadlines: Sequence[DeadlineRow], now: float) -> int:
        new_version = expected_version + 1

        async def landed(conn: asyncpg.Connection) -> bool:
            """After a connection lost before the answer: is this very action stored (the game
            at the version it made, its last action this one)?"""
            row = await conn.fetchrow(
                "SELECT g.version, a.seat, a.action, a.origin, a.created_at FROM games g "
                "LEFT JOIN LATERAL (SELECT seat, action, origin, created_at FROM actions "
                "WHERE game_id=g.id ORDER BY n DESC LIMIT 1) a ON TRUE WHERE g.id=$1 "
                "FOR UPDATE OF g", game_id)
            return row is not None and tuple(row) == (new_version, seat, action_text, origin, now)

        action_text = to_json(action)
        args = (game_id, expected_version, to_json(state), status,
                to_json(result) if result else None, seat_map_json(opened), seat_map_json(answered),
                now, seat, action_text, origin, user_id, *_event_arrays(events),
                *_deadline_arrays(deadlines), WAKE_CHANNEL, self.tag)
        pid = 0
        try:
            async with self._connection() as conn:
                # one statement, its own transaction: one round trip (see ``_COMMIT``); the
                # version-checked update locks the game's row, so of two racing actions the
                # second finds the game at another version and writes nothing
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

    @_boundary
    async def undo_actions(self, game_id: int, *, expected_version: int, keep: int,
                           state: dict[str, Any], events: Sequence[dict[str, Any]],
                           opened: Mapping[int, int], answered: Mapping[int, int],
                           deadlines: Sequence[DeadlineRow], now: float) -> int:
        new_version = expected_version + 1

        async def landed(conn: asyncpg.Connection) -> bool:
            """After a connection lost while committing: is this very undo stored?"""
            version = await conn.fetchval("SELECT version FROM games WHERE id=$1", game_id)
            return version is not None and int(version) == new_version

        async with self._transaction(landed) as conn:
            await _lock_active(conn, game_id, expected_version)
            await conn.execute(
                "UPDATE games SET state=$2, version=$3, opened=$4, answered=$5, updated_at=$6 "
                "WHERE id=$1",
                game_id, to_json(state), new_version, seat_map_json(opened), seat_map_json(answered), now)
            last = 0
            if keep > 0:
                last = int(await conn.fetchval(
                    "SELECT n FROM actions WHERE game_id=$1 ORDER BY n LIMIT 1 OFFSET $2",
                    game_id, keep - 1) or 0)
            await conn.execute("DELETE FROM actions WHERE game_id=$1 AND n>$2", game_id, last)
            # an action numbered n made version n + 1, and its events carry that version
            await conn.execute(
                "DELETE FROM events WHERE game_id=$1 AND version>$2 AND kind<>'undo'",
                game_id, last + 1)
            await _append_events(conn, game_id, new_version, events, now)
            await self._write_deadlines(conn, game_id, deadlines)
        return new_version

    @_boundary
    async def actions(self, game_id: int) -> list[tuple[int, dict[str, Any], str]]:
        async with self._connection() as conn:
            rows = await conn.fetch(
                "SELECT seat, action, origin FROM actions WHERE game_id=$1 ORDER BY n", game_id)
        return [(r[0], json.loads(r[1]), r[2]) for r in rows]

    @_boundary
    async def events(self, game_id: int, *, viewer_seat: int | None, limit: int = 20) -> list[EventRow]:
        out: list[EventRow] = []
        async with self._connection() as conn, conn.transaction(readonly=True):
            # newest first, read in batches until ``limit`` visible ones (private ones skipped)
            async for r in conn.cursor(
                    "SELECT n, version, text, recipients, kind, data, created_at FROM events "
                    "WHERE game_id=$1 ORDER BY n DESC", game_id, prefetch=max(limit, 1) * 2):
                to = from_json(r[3])
                if to is not None and (viewer_seat is None or viewer_seat not in to):
                    continue
                out.append(EventRow(r[0], r[1], r[2], to, r[4], from_json(r[5]) or {}, r[6]))
                if len(out) >= limit:
                    break
        return list(reversed(out))

    # -------------------------------------------------------------- deadlines

    @_boundary
    async def deadlines(self, game_id: int) -> list[DeadlineRow]:
        async with self._connection() as conn:
            rows = await conn.fetch(f"SELECT {DEADLINE_COLUMNS} FROM deadlines WHERE game_id=$1 "
                                    "ORDER BY seat, kind", game_id)
        return [deadline_row(r) for r in rows]

    @_boundary
    async def next_deadline_time(self, owner: str | None = None) -> float | None:
        async with self._connection() as conn:
            value = await conn.fetchval(
                "SELECT MIN(CASE WHEN claimed_by IS NOT NULL AND claimed_by <> $1::text "
                "THEN GREATEST(at, claimed_until) ELSE at END) FROM (SELECT CASE WHEN NOT reminded "
                "AND remind_at IS NOT NULL AND remind_at < due_at THEN remind_at ELSE due_at END "
                "AS at, claimed_by, claimed_until FROM deadlines) AS d", owner)
        return float(value) if value is not None else None

    @_boundary
    async def due_deadlines(self, now: float) -> list[DeadlineRow]:
        # A read, claimed or not: the scheduler uses ``claim_deadlines``.
        async with self._connection() as conn:
            rows = await conn.fetch(
                f"SELECT {DEADLINE_COLUMNS} FROM deadlines "
                "WHERE due_at <= $1 OR (NOT reminded AND remind_at IS NOT NULL AND remind_at <= $1) "
                "ORDER BY due_at, game_id, seat", now)
        return [deadline_row(r) for r in rows]

    @_boundary
    async def claim_deadlines(self, now: float, owner: str, lease_s: float,
                              limit: int = 100) -> list[DeadlineRow]:
        # One statement, its own transaction: SKIP LOCKED passes over rows another process is
        # claiming this instant, and a row claimed and committed meanwhile is checked again
        # (READ COMMITTED re-reads a locked row's newest version), so no two owners get it.
        # The claim is committed at once, not held while the deadline is handled: handling it
        # commits the game's action in another transaction, which rewrites this very row.
        async with self._connection() as conn:
            rows = await conn.fetch(
                "UPDATE deadlines AS d SET claimed_by=$2, claimed_until=$3 FROM ("
                "SELECT game_id, seat, kind FROM deadlines "
                "WHERE (due_at <= $1 OR (NOT reminded AND remind_at IS NOT NULL AND remind_at <= $1)) "
                "AND (claimed_by IS NULL OR claimed_until <= $1 OR claimed_by = $2) "
                "ORDER BY due_at, game_id, seat LIMIT $4 FOR UPDATE SKIP LOCKED) AS c "
                "WHERE d.game_id=c.game_id AND d.seat=c.seat AND d.kind=c.kind "
                "RETURNING d.game_id, d.seat, d.kind, d.due_at, d.remind_at, d.reminded, d.opened",
                now, owner, now + lease_s, limit)
        return sorted((deadline_row(r) for r in rows), key=lambda d: (d.due_at, d.game_id, d.seat, d.kind))

    @_boundary
    async def mark_reminded(self, game_id: int, seat: int, kind: str,
                            opened: int | None = None) -> bool:
        async with self._connection() as conn:
            status = await conn.execute(
                "UPDATE deadlines SET reminded=TRUE, claimed_by=NULL, claimed_until=NULL "
                "WHERE game_id=$1 AND seat=$2 AND kind=$3 AND NOT reminded "
                "AND ($4::bigint IS NULL OR opened=$4)", game_id, seat, kind, opened)
        return bool(status == "UPDATE 1")

    @_boundary
    async def clear_deadlines(self, game_id: int) -> None:
        async with self._connection() as conn:
            await conn.execute("DELETE FROM deadlines WHERE game_id=$1", game_id)

    @_boundary
    async def replace_deadlines(self, game_id: int, deadlines: Sequence[DeadlineRow]) -> None:
        async with self._transaction() as conn:
            await self._write_deadlines(conn, game_id, deadlines)

    # ---------------------------------------------------------------- ratings

    @_boundary
    async def note_departure(self, d: Departure) -> None:
        async with self._connection() as conn:
            await conn.execute(
                "INSERT INTO departures (game_id, user_id, seat, name) VALUES ($1,$2,$3,$4) "
                "ON CONFLICT DO NOTHING", d.game_id, d.user_id, d.seat, d.name)

    @_boundary
    async def departures(self, game_id: int) -> list[Departure]:
        async with self._connection() as conn:
            rows = await conn.fetch("SELECT game_id, seat, user_id, name FROM departures "
                                    "WHERE game_id=$1 ORDER BY seat, user_id", game_id)
        return [Departure(r[0], r[1], r[2], r[3]) for r in rows]

    @_boundary
    async def settle_game(self, game: RatedGame, rate: Rater, now: float) -> bool:
        async def landed(conn: asyncpg.Connection) -> bool:
            return bool(await conn.fetchval(
                "SELECT EXISTS (SELECT 1 FROM settled_games WHERE game_id=$1)", game.game_id))

        async with self._transaction(landed) as conn:
            # every settlement of this server's game waits here for the one before to commit:
            # the ratings it reads are the latest (rows that do not exist yet cannot be locked)
            await conn.execute("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))",
                               f"herald-ratings:{game.guild_id}:{game.game_key}")
            status = await conn.execute(
                "INSERT INTO settled_games (game_id, guild_id, game_key, started_at, finished_at, "
                "moves, rated, settled_at) VALUES ($1,$2,$3,$4,$5,$6,$7,$8) "
                "ON CONFLICT DO NOTHING", game.game_id, game.guild_id, game.game_key,
                game.started_at, game.finished_at, game.moves, bool(game.players), now)
            inserted = str(status).endswith(" 1")
            if not inserted or not game.players:
                return inserted
            rows = await conn.fetch(
                "SELECT guild_id, game_key, user_id, name, mu, sigma, games, wins, updated_at "
                "FROM ratings WHERE guild_id=$1 AND game_key=$2 AND user_id = ANY($3::bigint[])",
                game.guild_id, game.game_key, [p.user_id for p in game.players])
            new = rate({r[2]: RatingRow(*r) for r in rows})
            await conn.executemany(
                "INSERT INTO ratings (guild_id, game_key, user_id, name, mu, sigma, games, wins, "
                "updated_at) VALUES ($1,$2,$3,$4,$5,$6,1,$7,$8) "
                "ON CONFLICT (guild_id, game_key, user_id) DO UPDATE SET name=excluded.name, "
                "mu=excluded.mu, sigma=excluded.sigma, games=ratings.games+1, "
                "wins=ratings.wins+excluded.wins, updated_at=excluded.updated_at",
                [(game.guild_id, game.game_key, p.user_id, p.name, *new[p.user_id], int(p.won), now)
                 for p in game.players])
            await conn.executemany(
                "INSERT INTO settled_places (game_id, user_id, guild_id, name, rank, won, "
                "abandoned, mu, sigma) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9)",
                [(game.game_id, p.user_id, game.guild_id, p.name, p.rank, p.won, p.abandoned,
                  *new[p.user_id]) for p in game.players])
            return True

    @_boundary
    async def unsettled_games(self, limit: int = 100) -> list[int]:
        async with self._connection() as conn:
            rows = await conn.fetch(
                "SELECT g.id FROM games g WHERE g.status='finished' AND g.guild_id IS NOT NULL "
                "AND NOT EXISTS (SELECT 1 FROM settled_games s WHERE s.game_id=g.id) "
                "ORDER BY g.updated_at, g.id LIMIT $1", max(0, limit))
        return [int(r[0]) for r in rows]

    @_boundary
    async def leaderboard(self, guild_id: int, game_key: str, *, limit: int = 10,
                          offset: int = 0) -> tuple[list[RatingRow], int]:
        async with self._connection() as conn:
            total = await conn.fetchval(
                "SELECT COUNT(*) FROM ratings WHERE guild_id=$1 AND game_key=$2 AND user_id<>$3",
                guild_id, game_key, COMPUTER_ID)
            rows = await conn.fetch(
                "SELECT guild_id, game_key, user_id, name, mu, sigma, games, wins, updated_at "
                "FROM ratings WHERE guild_id=$1 AND game_key=$2 AND user_id<>$3 "
                "ORDER BY mu - 3 * sigma DESC, games DESC, user_id LIMIT $4 OFFSET $5",
                guild_id, game_key, COMPUTER_ID, max(0, limit), max(0, offset))
        return [RatingRow(*r) for r in rows], int(total or 0)

    @_boundary
    async def ratings_of(self, guild_id: int, user_id: int) -> list[RatingRow]:
        async with self._connection() as conn:
            rows = await conn.fetch(
                "SELECT guild_id, game_key, user_id, name, mu, sigma, games, wins, updated_at "
                "FROM ratings WHERE guild_id=$1 AND user_id=$2 ORDER BY games DESC, game_key",
                guild_id, user_id)
        return [RatingRow(*r) for r in rows]

    @_boundary
    async def longest_game(self, guild_id: int, user_id: int) -> LongestGame | None:
        async with self._connection() as conn:
            r = await conn.fetchrow(
                "SELECT s.game_id, s.game_key, s.finished_at - s.started_at, s.moves "
                "FROM settled_places p JOIN settled_games s ON s.game_id=p.game_id "
                "WHERE p.guild_id=$1 AND p.user_id=$2 "
                "ORDER BY s.finished_at - s.started_at DESC, s.moves DESC, s.game_id LIMIT 1",
                guild_id, user_id)
        return None if r is None else LongestGame(int(r[0]), str(r[1]), float(r[2]), int(r[3]))

    # ------------------------------------ player preferences, time away, pauses

    @_boundary
    async def player_prefs(self, user_ids: Sequence[int]) -> dict[int, PlayerPrefs]:
        ids = list(dict.fromkeys(user_ids))
        out = {uid: PlayerPrefs(uid) for uid in ids}
        if ids:
            async with self._connection() as conn:
                rows = await conn.fetch(
                    f"SELECT {PREFS_COLUMNS} FROM player_prefs WHERE user_id = ANY($1::bigint[])", ids)
            out.update({r[0]: prefs_row(r) for r in rows})
        return out

    @_boundary
    async def save_player_prefs(self, prefs: PlayerPrefs) -> None:
        async with self._connection() as conn:
            await conn.execute(
                f"INSERT INTO player_prefs ({PREFS_COLUMNS}) VALUES ($1,$2,$3,$4,$5,$6,$7,$8) "
                "ON CONFLICT (user_id) DO UPDATE SET pings=excluded.pings, dms=excluded.dms, "
                "quiet_start=excluded.quiet_start, quiet_end=excluded.quiet_end, "
                "zone=excluded.zone, away_until=excluded.away_until, away_mode=excluded.away_mode",
                prefs.user_id, bool(prefs.pings), prefs.dms, prefs.quiet_start, prefs.quiet_end,
                prefs.zone, prefs.away_until, prefs.away_mode)

    @_boundary
    async def pause_game(self, game_id: int, *, by: int | None, now: float) -> GamePause | None:
        async with self._transaction() as conn:
            # the game's row lock orders this against every commit to the game, which checks
            # ``paused_at`` under the same lock
            row = await conn.fetchrow(
                f"SELECT status, {PAUSE_COLUMNS} FROM games WHERE id=$1 FOR UPDATE", game_id)
            if row is None or row[0] != "active" or row[2] is not None:
                return None
            frozen = [deadline_row(r) for r in await conn.fetch(
                f"SELECT {DEADLINE_COLUMNS} FROM deadlines WHERE game_id=$1 ORDER BY seat, kind",
                game_id)]
            await self._write_deadlines(conn, game_id, [])
            await conn.execute("UPDATE games SET paused_at=$2, paused_by=$3, pause_frozen=$4 "
                               "WHERE id=$1", game_id, now, by, frozen_text(frozen))
        return GamePause(game_id, now, by, float(row[4]), frozen)

    @_boundary
    async def resume_game(self, game_id: int, *, now: float) -> GamePause | None:
        async with self._transaction() as conn:
            row = await conn.fetchrow(
                f"SELECT status, {PAUSE_COLUMNS} FROM games WHERE id=$1 FOR UPDATE", game_id)
            if row is None or row[2] is None:
                return None
            pause = pause_row(row[1:])
            await conn.execute("UPDATE games SET paused_at=NULL, paused_by=NULL, pause_frozen=NULL, "
                               "pause_used=$2 WHERE id=$1",
                               game_id, pause.used + max(0.0, now - (pause.paused_at or now)))
            if row[0] == "active":
                await self._write_deadlines(conn, game_id, thawed(pause, now))
        return pause

    @_boundary
    async def game_pause(self, game_id: int) -> GamePause | None:
        async with self._connection() as conn:
            row = await conn.fetchrow(f"SELECT {PAUSE_COLUMNS} FROM games WHERE id=$1", game_id)
        return None if row is None else pause_row(row)

    @_boundary
    async def paused_games(self) -> list[GamePause]:
        async with self._connection() as conn:
            rows = await conn.fetch(
                f"SELECT {PAUSE_COLUMNS} FROM games WHERE paused_at IS NOT NULL "
                "AND status='active' ORDER BY paused_at, id")
        return [pause_row(r) for r in rows]

    # ------------------------------------------------------- settings and DMs

    @_boundary
    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """A server's settings, from memory while they are known current: every process that
        saves settings notifies :data:`SETTINGS_CHANNEL` in the same transaction, and this
        storage listens on it (while it cannot, it keeps nothing). A read that began before a
        change was heard is not kept, so a change heard while reading is never covered up."""
        kept = self._guilds.get(guild_id)
        if kept is not None and self._listener is not None and (
                time.monotonic() - kept[0] < SETTINGS_KEPT_FOR):
            return _copied(kept[1])
        epoch = self._settings_epoch
        async with self._connection() as conn:
            r = await conn.fetchrow(
                "SELECT default_deadline, reminder_lead, opener_role_id, channels, table_limit, "
                "member_lobby_limit, member_table_limit, leaderboards, lobby_limit, lobby_expiry, "
                "web_pages FROM guild_settings WHERE guild_id=$1", guild_id)
        s = GuildSettings(guild_id) if r is None else GuildSettings(
            guild_id, r[0], r[1], r[2], list(from_json(r[3]) or []), r[4], r[5], r[6],
            leaderboards=bool(r[7]), lobby_limit=r[8], lobby_expiry=r[9],
            web_pages=r[10] is None or bool(r[10]))
        if self._listener is not None and epoch == self._settings_epoch:
            self._guilds.pop(guild_id, None)
            self._guilds[guild_id] = (time.monotonic(), _copied(s))
            while len(self._guilds) > SETTINGS_KEPT:
                del self._guilds[next(iter(self._guilds))]
        return s

    @_boundary
    async def save_guild_settings(self, s: GuildSettings) -> None:
        self._settings_epoch += 1  # (a read of the old settings in flight is not kept)
        self._guilds.pop(s.guild_id, None)
        async with self._connection() as conn:
            # every process (this one too) hears of the change once it is committed
            await conn.execute(
                "WITH saved AS (INSERT INTO guild_settings (guild_id, default_deadline, reminder_lead, "
                "opener_role_id, channels, table_limit, member_lobby_limit, member_table_limit, "
                "leaderboards, lobby_limit, lobby_expiry, web_pages) "
                "VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$11,$12,$13) "
                "ON CONFLICT (guild_id) DO UPDATE SET default_deadline=excluded.default_deadline, "
                "reminder_lead=excluded.reminder_lead, opener_role_id=excluded.opener_role_id, "
                "channels=excluded.channels, table_limit=excluded.table_limit, "
                "member_lobby_limit=excluded.member_lobby_limit, "
                "member_table_limit=excluded.member_table_limit, "
                "leaderboards=excluded.leaderboards, lobby_limit=excluded.lobby_limit, "
                "lobby_expiry=excluded.lobby_expiry, web_pages=excluded.web_pages RETURNING guild_id) "
                "SELECT pg_notify($10, guild_id::text) FROM saved",
                s.guild_id, s.default_deadline, s.reminder_lead, s.opener_role_id,
                to_json(s.channels), s.table_limit, s.member_lobby_limit, s.member_table_limit,
                bool(s.leaderboards), SETTINGS_CHANNEL, s.lobby_limit, s.lobby_expiry,
                bool(s.web_pages))

    @_boundary
    async def set_dm_reachable(self, user_id: int, reachable: bool, now: float) -> None:
        async with self._connection() as conn:
            await conn.execute(
                "INSERT INTO dm_status (user_id, reachable, checked_at) VALUES ($1,$2,$3) "
                "ON CONFLICT (user_id) DO UPDATE SET reachable=excluded.reachable, "
                "checked_at=excluded.checked_at", user_id, bool(reachable), now)

    @_boundary
    async def dm_reachable(self, user_id: int) -> bool | None:
        async with self._connection() as conn:
            value = await conn.fetchval("SELECT reachable FROM dm_status WHERE user_id=$1", user_id)
        return None if value is None else bool(value)

    @_boundary
    async def note_dm_notice(self, game_id: int, user_id: int) -> bool:
        async with self._connection() as conn:
            status = await conn.execute(
                "INSERT INTO dm_notices (game_id, user_id) VALUES ($1,$2) ON CONFLICT DO NOTHING",
                game_id, user_id)
        return str(status).endswith(" 1")

    @_boundary
    async def dm_channel(self, user_id: int) -> int | None:
        async with self._connection() as conn:
            value = await conn.fetchval("SELECT channel_id FROM dm_channels WHERE user_id=$1", user_id)
        return None if value is None else int(value)

    @_boundary
    async def log_posted(self, game_id: int) -> int | None:
        async with self._connection() as conn:
            value = await conn.fetchval("SELECT version FROM thread_logs WHERE game_id=$1", game_id)
        return None if value is None else int(value)

    @_boundary
    async def set_log_posted(self, game_id: int, version: int) -> None:
        async with self._connection() as conn:
            await conn.execute(
                "INSERT INTO thread_logs (game_id, version) VALUES ($1,$2) "
                "ON CONFLICT (game_id) DO UPDATE SET version=excluded.version", game_id, version)

    @_boundary
    async def set_dm_channel(self, user_id: int, channel_id: int | None) -> None:
        async with self._connection() as conn:
            if channel_id is None:
                await conn.execute("DELETE FROM dm_channels WHERE user_id=$1", user_id)
                return
            await conn.execute(
                "INSERT INTO dm_channels (user_id, channel_id) VALUES ($1,$2) "
                "ON CONFLICT (user_id) DO UPDATE SET channel_id=excluded.channel_id", user_id, channel_id)

    # -------------------------------------------------------------- web links

    @_boundary
    async def web_link(self, game_id: int, token: str, now: float) -> str:
        async with self._connection() as conn:
            await conn.execute(
                "INSERT INTO web_links (game_id, token, digest, created_at) VALUES ($1,$2,$3,$4) "
                "ON CONFLICT (game_id) DO NOTHING", game_id, token, link_digest(token), now)
            value = await conn.fetchval("SELECT token FROM web_links WHERE game_id=$1", game_id)
        return str(value)

    @_boundary
    async def web_links(self, game_ids: Sequence[int]) -> dict[int, str]:
        async with self._connection() as conn:
            rows = await conn.fetch("SELECT game_id, token FROM web_links WHERE game_id = ANY($1::bigint[])",
                                    list(game_ids))
        return {int(r[0]): str(r[1]) for r in rows}

    @_boundary
    async def game_of_link(self, token: str) -> int | None:
        async with self._connection() as conn:
            r = await conn.fetchrow("SELECT game_id, token FROM web_links WHERE digest=$1",
                                    link_digest(token))
        if r is None or not hmac.compare_digest(str(r[1]).encode(), token.encode("utf-8", "surrogatepass")):
            return None
        return int(r[0])

    @_boundary
    async def web_secret(self, candidate: str) -> str:
        async with self._connection() as conn:
            await conn.execute("INSERT INTO web_secret (id, secret) VALUES (1, $1) "
                               "ON CONFLICT (id) DO NOTHING", candidate)
            value = await conn.fetchval("SELECT secret FROM web_secret WHERE id=1")
        return str(value)

    @_boundary
    async def seat_link_generation(self, game_id: int, seat: int) -> int:
        async with self._connection() as conn:
            value = await conn.fetchval(
                "SELECT generation FROM web_seat_links WHERE game_id=$1 AND seat=$2", game_id, seat)
        return 0 if value is None else int(value)

    @_boundary
    async def renew_seat_link(self, game_id: int, seat: int) -> int:
        async with self._connection() as conn:
            value = await conn.fetchval(
                "INSERT INTO web_seat_links (game_id, seat, generation) VALUES ($1,$2,1) "
                "ON CONFLICT (game_id, seat) DO UPDATE SET generation=web_seat_links.generation+1 "
                "RETURNING generation", game_id, seat)
        return int(value)

    async def announce_update(self, game_id: int, version: int) -> None:
        """NOTIFY :data:`UPDATE_CHANNEL` that the game reached ``version`` (for the web pages
        other processes serve); a failure only delays those pages to their periodic check."""
        try:
            async with self._connection() as conn:
                await conn.execute("SELECT pg_notify($1, $2)", UPDATE_CHANNEL,
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
        if tag == self.tag or self._on_update is None:
            return
        try:
            self._on_update(int(game), int(version))
        except ValueError:  # (not ours: ignored)
            return

    # ------------------------------------------------------------- saved decks

    _DECK_COLUMNS = "id, user_id, game_key, name, data, created_at, updated_at"

    @staticmethod
    def _deck(r: Sequence[Any]) -> DeckRow:
        return DeckRow(int(r[0]), int(r[1]), str(r[2]), str(r[3]), from_json(r[4]) or {},
                       float(r[5]), float(r[6]))

    @_boundary
    async def decks(self, user_id: int, game_key: str | None = None) -> list[DeckRow]:
        async with self._connection() as conn:
            rows = await conn.fetch(
                f"SELECT {self._DECK_COLUMNS} FROM decks WHERE user_id=$1 "
                "AND ($2::TEXT IS NULL OR game_key=$2) ORDER BY name_key, id", user_id, game_key)
        return [self._deck(r) for r in rows]

    @_boundary
    async def deck(self, deck_id: int) -> DeckRow | None:
        async with self._connection() as conn:
            r = await conn.fetchrow(f"SELECT {self._DECK_COLUMNS} FROM decks WHERE id=$1", deck_id)
        return None if r is None else self._deck(r)

    @_boundary
    async def create_deck(self, user_id: int, game_key: str, name: str, data: dict[str, Any], *,
                          now: float, limit: int) -> int | None:
        key = deck_name_key(name)
        async with self._transaction() as conn:
            # the player's decks are counted under a per-player lock: two creations at once from
            # separate processes cannot both pass the limit
            await conn.execute("SELECT pg_advisory_xact_lock($1, $2)", 0x6465_636B, user_id % (2 ** 31))
            value = await conn.fetchval(
                "INSERT INTO decks (user_id, game_key, name, name_key, data, created_at, updated_at) "
                "SELECT $1,$2,$3,$4,$5,$6,$6 WHERE (SELECT COUNT(*) FROM decks WHERE user_id=$1) < $7 "
                "ON CONFLICT (user_id, game_key, name_key) DO NOTHING RETURNING id",
                user_id, game_key, name, key, to_json(data), now, limit)
        return None if value is None else int(value)

    @_boundary
    async def update_deck(self, deck_id: int, user_id: int, data: dict[str, Any], *,
                          now: float) -> bool:
        async with self._connection() as conn:
            status = await conn.execute(
                "UPDATE decks SET data=$1, updated_at=$2 WHERE id=$3 AND user_id=$4",
                to_json(data), now, deck_id, user_id)
        return str(status).endswith(" 1")

    @_boundary
    async def delete_deck(self, deck_id: int, user_id: int) -> bool:
        async with self._connection() as conn:
            status = await conn.execute("DELETE FROM decks WHERE id=$1 AND user_id=$2",
                                        deck_id, user_id)
        return str(status).endswith(" 1")


__all__ = ["MIGRATIONS", "SCHEMA_TABLE", "URL_SCHEMES", "PostgresStorage", "is_postgres_url",
           "redacted"]
