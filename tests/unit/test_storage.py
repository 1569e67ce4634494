"""Storage: migrations, the version-checked commit, one transaction per action, redacted event
reads, guild settings and DM bookkeeping.

One suite, run against both backends: every test taking ``store`` (or ``location``) runs on SQLite
and on PostgreSQL (a throwaway server, see ``tests/support/postgres.py``; skipped with its reason
where the server binaries are missing, unless ``HERALD_REQUIRE_POSTGRES=1``). What only one
backend has (WAL, a file's header) is tested on that one."""

from __future__ import annotations

import asyncio
import re
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.dburl import is_postgres_url
from bot.storage import (
    MIGRATIONS,
    DeadlineRow,
    GuildSettings,
    PostgresStorage,
    SeatRow,
    SqliteStorage,
    Storage,
    StorageError,
    TableCounts,
    VersionConflict,
    migrations,
    open_storage,
)
from bot.storage import postgres as pg

TABLES = {"games", "seats", "actions", "events", "deadlines", "guild_settings", "dm_status",
          "dm_notices"}
TABLES |= {"ratings", "settled_games", "settled_places", "departures"}  # schema 5: ratings
TABLES |= {"player_prefs"}  # schema 6: player preferences and time away (pauses: columns of games)
TABLES |= {"decks"}  # schema 7: saved decks
TABLES |= {"dm_channels"}  # schema 9: members' DM channels
TABLES |= {"web_links"}  # schema 11: each game's web token
TABLES |= {"thread_logs"}  # schema 12: the version up to which each game's thread is told
TABLES |= {"web_secret", "web_seat_links"}  # schema 13: player links of the web pages


BACKENDS = ["sqlite", "postgres"]


def _ignore(sql: str) -> None:
    """A statement trace that keeps nothing (``_Statements`` swaps in its own)."""


@pytest.fixture(params=BACKENDS)
def location(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a new, empty database lives: a SQLite file path, or a PostgreSQL URL."""
    if request.param == "postgres":
        return str(request.getfixturevalue("postgres_url"))
    return str(tmp_path / "herald.db")


def _storage(location: str) -> Storage:
    if is_postgres_url(location):
        return PostgresStorage(location, trace=_ignore)
    return SqliteStorage(location)


@pytest.fixture
async def store(location: str) -> AsyncIterator[Storage]:
    s = _storage(location)
    await s.open()
    try:
        yield s
    finally:
        await s.close()


@pytest.fixture
async def sqlite_store(tmp_path: Path) -> AsyncIterator[SqliteStorage]:
    s = SqliteStorage(str(tmp_path / "herald.db"))
    await s.open()
    try:
        yield s
    finally:
        await s.close()


def _integrity(s: Storage) -> type[Exception]:
    """The driver's error for a broken constraint (a bug: the storage does not translate it)."""
    return asyncpg.IntegrityConstraintViolationError if isinstance(s, PostgresStorage) else sqlite3.IntegrityError


async def _fetch(s: Storage, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    """A raw query (``?`` marks), on either backend: the tests' look behind the interface."""
    if isinstance(s, PostgresStorage):
        n = 0

        def mark(_: Any) -> str:
            nonlocal n
            n += 1
            return f"${n}"

        async with s.pool.acquire() as conn:
            return [tuple(r) for r in await conn.fetch(re.sub(r"\?", mark, sql), *params)]
    assert isinstance(s, SqliteStorage)
    return [tuple(r) for r in s.db.raw.execute(sql, params).fetchall()]


async def _table_names(s: Storage) -> set[str]:
    if isinstance(s, PostgresStorage):
        rows = await _fetch(s, "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")
    else:
        rows = await _fetch(s, "SELECT name FROM sqlite_master WHERE type='table'")
    return {str(r[0]) for r in rows}


async def _started_game(s: Storage, *, deadlines: list[DeadlineRow] | None = None) -> int:
    gid = await s.create_game(guild_id=10, channel_id=20, game_key="duel", seed=5, options={},
                              host_id=100, deadline=None, now=1.0)
    seats = [SeatRow(0, 100, False, "Ada"), SeatRow(1, 200, False, "Bo")]
    await s.set_seats(gid, seats)
    await s.start_game(gid, seats=seats, state={"turn": 0}, opened={0: 1, 1: 1}, now=2.0,
                       deadlines=deadlines if deadlines is not None
                       else [DeadlineRow(gid, 0, "bid", 100.0, 50.0, False)])
    return int(gid)


def _commit_args(gid: int, **over: Any) -> dict[str, Any]:
    args: dict[str, Any] = dict(
        expected_version=1, seat=0, action={"type": "bid", "card": 3}, origin="player",
        user_id=100, state={"turn": 1},
        events=[{"text": "P1 has bid."}, {"text": "You bid 3.", "to": [0]}],
        status="active", result=None, opened={1: 1}, answered={0: 1},
        deadlines=[DeadlineRow(gid, 1, "bid", 200.0, 150.0, False, 1)], now=3.0)
    args.update(over)
    return args


async def _count(s: Storage, table: str, gid: int) -> int:
    rows = await _fetch(s, f"SELECT COUNT(*) FROM {table} WHERE game_id=?", gid)
    return int(rows[0][0])


# ------------------------------------------------------------------------------ migrations

async def test_fresh_database_reaches_the_latest_schema(store: Storage) -> None:
    assert isinstance(store, SqliteStorage | PostgresStorage)
    assert await store.schema_version() == len(MIGRATIONS)
    assert TABLES <= await _table_names(store)


def test_both_backends_have_the_same_schema_steps() -> None:
    """A schema number means the same in both: a migration added to one is added to the other."""
    assert len(pg.MIGRATIONS) == len(MIGRATIONS)
    assert migrations.tables(pg.MIGRATIONS) == migrations.tables(MIGRATIONS) == TABLES


async def test_reopening_a_migrated_database_changes_nothing(location: str) -> None:
    path = location
    first = _storage(path)
    await first.open()
    gid = await first.create_game(guild_id=1, channel_id=2, game_key="duel", seed=3, options={"fast": True},
                                  host_id=4, deadline=None, now=0.0)
    await first.close()

    again = open_storage(path)
    await again.open()
    try:
        assert isinstance(again, SqliteStorage | PostgresStorage)
        assert await again.schema_version() == len(MIGRATIONS)
        assert await again.migrate() == len(MIGRATIONS)
        game = await again.get_game(gid)
        assert game is not None and game.options == {"fast": True}
    finally:
        await again.close()


async def test_a_database_from_a_newer_herald_is_refused_postgres(postgres_url: str) -> None:
    raw = await asyncpg.connect(postgres_url)
    try:
        await raw.execute(f"CREATE TABLE {pg.SCHEMA_TABLE} (version INTEGER NOT NULL)")
        await raw.execute(f"INSERT INTO {pg.SCHEMA_TABLE} VALUES ({len(MIGRATIONS) + 1})")
        s = PostgresStorage(postgres_url)
        with pytest.raises(StorageError, match="newer"):
            await s.open()
        await s.close()
        assert await raw.fetchval(f"SELECT version FROM {pg.SCHEMA_TABLE}") == len(MIGRATIONS) + 1
        assert await raw.fetchval("SELECT to_regclass('games')") is None
    finally:
        await raw.close()


async def test_a_database_from_a_newer_herald_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "future.db"
    with sqlite3.connect(path) as raw:
        raw.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
    s = SqliteStorage(str(path))
    with pytest.raises(StorageError, match="newer"):
        await s.open()
    await s.close()
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS) + 1
        assert raw.execute("SELECT COUNT(*) FROM sqlite_master WHERE name='games'").fetchone()[0] == 0


async def test_the_database_runs_in_wal_mode(sqlite_store: SqliteStorage, tmp_path: Path) -> None:
    store = sqlite_store
    row = store.db.raw.execute("PRAGMA journal_mode").fetchone()
    assert row is not None and row[0].lower() == "wal"
    with sqlite3.connect(tmp_path / "herald.db") as raw:  # WAL is persistent in the file
        assert raw.execute("PRAGMA journal_mode").fetchone()[0].lower() == "wal"


async def test_a_closed_storage_says_so(location: str) -> None:
    s = _storage(location)
    with pytest.raises(StorageError, match="not open"):
        await s.get_game(1)


# --------------------------------------------------------------------------- games, commits

async def test_lobby_game_round_trips_with_its_seats(store: Storage) -> None:
    gid = await store.create_game(guild_id=10, channel_id=20, game_key="duel", seed=5,
                                  options={"fast": True}, host_id=100, deadline=3600, now=1.0)
    await store.set_seats(gid, [SeatRow(0, 100, False, "Ada"), SeatRow(1, None, True, "Computer 2")])
    game = await store.get_game(gid)
    assert game is not None
    assert (game.status, game.version, game.seed, game.deadline) == ("lobby", 0, 5, 3600)
    assert game.state is None
    assert [s.name for s in game.seats] == ["Ada", "Computer 2"]
    assert game.seat_of(100) == 0 and game.seat_of(999) is None
    assert [g.id for g in await store.list_games(guild_id=10)] == [gid]
    assert await store.list_games(guild_id=11) == []
    assert await store.get_game(gid + 1) is None


async def test_update_game_refuses_columns_it_does_not_own(store: Storage) -> None:
    gid = await _started_game(store)
    with pytest.raises(StorageError, match="version"):
        await store.update_game(gid, version=99)
    game = await store.get_game(gid)
    assert game is not None and game.version == 1


async def test_starting_a_game_twice_is_a_conflict(store: Storage) -> None:
    gid = await _started_game(store)
    with pytest.raises(VersionConflict):
        await store.start_game(gid, seats=[], state={"other": True}, opened={}, deadlines=[], now=9.0)
    game = await store.get_game(gid)
    assert game is not None and game.state == {"turn": 0} and len(game.seats) == 2


async def test_commit_appends_action_events_and_replaces_deadlines(store: Storage) -> None:
    gid = await _started_game(store)
    assert await store.commit_action(gid, **_commit_args(gid)) == 2
    game = await store.get_game(gid)
    assert game is not None
    assert (game.version, game.state, game.status) == (2, {"turn": 1}, "active")
    assert await store.actions(gid) == [(0, {"type": "bid", "card": 3}, "player")]
    assert [d.seat for d in await store.deadlines(gid)] == [1]
    assert [g.id for g in await store.games_of_user(200)] == [gid]
    assert await store.games_of_user(999) == []


async def test_second_commit_from_the_same_version_conflicts_and_changes_nothing(
        store: Storage) -> None:
    gid = await _started_game(store)
    await store.commit_action(gid, **_commit_args(gid))
    with pytest.raises(VersionConflict):
        await store.commit_action(gid, **_commit_args(
            gid, seat=1, action={"type": "bid", "card": 5}, state={"turn": "lost"},
            events=[{"text": "should not be stored"}], deadlines=[], now=4.0))
    game = await store.get_game(gid)
    assert game is not None and (game.version, game.state) == (2, {"turn": 1})
    assert len(await store.actions(gid)) == 1
    assert [e.text for e in await store.events(gid, viewer_seat=0)] == ["P1 has bid.", "You bid 3."]
    assert [d.seat for d in await store.deadlines(gid)] == [1]


async def test_finishing_commit_stores_the_result(store: Storage) -> None:
    gid = await _started_game(store)
    result = {"winners": [0], "scores": {"0": 4, "1": 2}, "reason": "most points"}
    await store.commit_action(gid, **_commit_args(gid, status="finished", result=result, deadlines=[]))
    game = await store.get_game(gid)
    assert game is not None and game.status == "finished" and game.result == result
    with pytest.raises(VersionConflict):  # a finished game takes no more actions
        await store.commit_action(gid, **_commit_args(gid, expected_version=2))


async def _assert_untouched(store: Storage, gid: int) -> None:
    game = await store.get_game(gid)
    assert game is not None and (game.version, game.state, game.status) == (1, {"turn": 0}, "active")
    assert await store.actions(gid) == []
    assert await _count(store, "events", gid) == 0
    assert [(d.seat, d.kind, d.due_at) for d in await store.deadlines(gid)] == [(0, "bid", 100.0)]


async def test_a_failure_while_writing_events_leaves_nothing_behind(store: Storage) -> None:
    gid = await _started_game(store)
    # the second event has no text: NOT NULL fails after the state, the action and one event
    with pytest.raises(_integrity(store)):
        await store.commit_action(gid, **_commit_args(gid, events=[{"text": "ok"}, {"text": None}]))
    await _assert_untouched(store, gid)
    assert await store.commit_action(gid, **_commit_args(gid)) == 2  # the connection still works


async def test_a_failure_while_writing_deadlines_leaves_nothing_behind(store: Storage) -> None:
    gid = await _started_game(store)
    twice = [DeadlineRow(gid, 1, "bid", 200.0, None, False), DeadlineRow(gid, 1, "bid", 300.0, None, False)]
    with pytest.raises(_integrity(store)):  # duplicate primary key, the very last write
        await store.commit_action(gid, **_commit_args(gid, deadlines=twice))
    await _assert_untouched(store, gid)


async def test_an_exception_raised_mid_transaction_rolls_back(
        store: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    gid = await _started_game(store)

    async def broken(*args: Any) -> None:
        raise RuntimeError("disk on fire")

    def broken_inline(*args: Any) -> None:  # (SQLite writes an action's statements inline)
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(store, "_write_deadlines", broken)
    if isinstance(store, SqliteStorage):
        monkeypatch.setattr(store, "_deadline_statements", broken_inline)
    else:  # (PostgreSQL writes an action in one statement: fail as its parameters are made)
        monkeypatch.setattr(pg, "_deadline_arrays", broken_inline)
    with pytest.raises(RuntimeError, match="disk on fire"):
        await store.commit_action(gid, **_commit_args(gid))
    monkeypatch.undo()
    await _assert_untouched(store, gid)


# --------------------------------------------------------------------------------- events

async def test_private_events_reach_only_their_seats(store: Storage) -> None:
    gid = await _started_game(store)
    await store.commit_action(gid, **_commit_args(gid, events=[
        {"text": "public one"},
        {"text": "secret of seat 0", "to": [0]},
        {"text": "secret of seat 1", "to": [1]},
        {"text": "shared by 0 and 1", "to": [0, 1]},
        {"text": "reveal", "kind": "reveal", "data": {"bids": [3, 5]}},
    ]))

    def texts(rows: list[Any]) -> list[str]:
        return [r.text for r in rows]

    assert texts(await store.events(gid, viewer_seat=None)) == ["public one", "reveal"]
    assert texts(await store.events(gid, viewer_seat=0)) == [
        "public one", "secret of seat 0", "shared by 0 and 1", "reveal"]
    assert texts(await store.events(gid, viewer_seat=1)) == [
        "public one", "secret of seat 1", "shared by 0 and 1", "reveal"]
    assert texts(await store.events(gid, viewer_seat=2)) == ["public one", "reveal"]
    last = (await store.events(gid, viewer_seat=None, limit=1))[0]
    assert (last.text, last.kind, last.data, last.to, last.version) == (
        "reveal", "reveal", {"bids": [3, 5]}, None, 2)


# -------------------------------------------------------------------- settings and DMs

async def test_guild_settings_round_trip(store: Storage) -> None:
    assert await store.guild_settings(7) == GuildSettings(7)
    await store.save_guild_settings(GuildSettings(7, default_deadline=7200, reminder_lead=600,
                                                  opener_role_id=55, channels=[1, 2]))
    assert await store.guild_settings(7) == GuildSettings(7, 7200, 600, 55, [1, 2])
    await store.save_guild_settings(GuildSettings(7, default_deadline=3600))
    assert await store.guild_settings(7) == GuildSettings(7, 3600, None, None, [])
    assert await store.guild_settings(8) == GuildSettings(8)


async def test_dm_reachability_is_remembered(store: Storage) -> None:
    assert await store.dm_reachable(42) is None
    await store.set_dm_reachable(42, False, now=1.0)
    assert await store.dm_reachable(42) is False
    await store.set_dm_reachable(42, True, now=2.0)
    assert await store.dm_reachable(42) is True
    assert await store.dm_reachable(43) is None


async def test_the_closed_dm_notice_is_given_once_per_game(store: Storage) -> None:
    first = await _started_game(store)
    second = await _started_game(store)
    assert await store.note_dm_notice(first, 42) is True
    assert await store.note_dm_notice(first, 42) is False
    assert await store.note_dm_notice(first, 43) is True
    assert await store.note_dm_notice(second, 42) is True


async def test_prompt_instances_are_stored_with_the_action_and_read_back(store: Storage) -> None:
    gid = await _started_game(store)
    assert (await store.get_game(gid)).opened == {0: 1, 1: 1}  # type: ignore[union-attr]
    await store.commit_action(gid, **_commit_args(gid))
    game = await store.get_game(gid)
    assert game is not None and game.opened == {1: 1} and game.answered == {0: 1}
    assert [d.opened for d in await store.deadlines(gid)] == [1]


# ------------------------------------------------------------ listings, limits (boundaries)

async def _table(s: Storage, *, guild_id: int | None = 10, status: str = "lobby",
                 seats: tuple[tuple[int | None, str], ...] = ((100, "Ada"),), at: float = 1.0) -> int:
    """A table with ``seats`` (user id, name; a None user is a computer player)."""
    gid = await s.create_game(guild_id=guild_id, channel_id=20, game_key="duel", seed=1, options={},
                              host_id=seats[0][0], deadline=None, now=at)
    await s.set_seats(gid, [SeatRow(i, u, u is None, name) for i, (u, name) in enumerate(seats)])
    await s.update_game(gid, status=status, updated_at=at)
    return int(gid)


class _Statements:
    """Counts the SQL statements the storage runs (sqlite3's trace callback)."""

    def __init__(self) -> None:
        self.sql: list[str] = []

    async def __call__(self, s: Storage, call: Any) -> Any:
        self.sql.clear()
        if isinstance(s, PostgresStorage):
            s.trace = self.sql.append
            try:
                return await call
            finally:
                s.trace = _ignore
        assert isinstance(s, SqliteStorage)
        s.db.raw.set_trace_callback(self.sql.append)
        try:
            return await call
        finally:
            s.db.raw.set_trace_callback(None)


async def test_listings_load_any_number_of_games_with_their_seats_in_fixed_statements(
        store: Storage) -> None:
    count = _Statements()
    await _table(store, seats=((100, "Ada"), (None, "Computer 2")))
    few: dict[str, int] = {}
    listings: dict[str, Callable[[], Awaitable[Any]]] = {
        "list_games": lambda: store.list_games(guild_id=10),
        "games_of_user": lambda: store.games_of_user(100, ("lobby",)),
        "page_games": lambda: store.page_games(guild_id=10),
        "search_games": lambda: store.search_games(guild_id=10, user_id=100, statuses=("lobby",), text="a"),
        "games_near": lambda: store.games_near(guild_id=10, channel_id=20, user_id=100, statuses=("lobby",)),
    }
    for name, call in listings.items():
        await call()  # PostgreSQL: the driver looks up the array types once per connection
        await count(store, call())
        few[name] = len(count.sql)
    for i in range(11):
        await _table(store, seats=((100, "Ada"), (200 + i, f"Bo{i}"), (None, "Computer 3")), at=2.0 + i)
    for name, call in listings.items():
        result = await count(store, call())
        games = result.games if name == "page_games" else result
        assert len(games) == 12 and all(len(g.seats) >= 2 for g in games), name
        assert len(count.sql) == few[name] <= 3, (name, count.sql)  # not one statement per game
    assert [s.name for s in (await store.list_games(guild_id=10))[-1].seats] == ["Ada", "Bo10", "Computer 3"]


async def test_counting_open_tables_for_the_limits(store: Storage) -> None:
    await _table(store, seats=((100, "Ada"),))                                 # Ada's lobby
    await _table(store, seats=((200, "Bo"), (100, "Ada")))                     # a lobby Ada joined
    await _table(store, status="active", seats=((100, "Ada"), (200, "Bo")))    # a game Ada plays
    await _table(store, status="active", seats=((200, "Bo"), (None, "Computer 2")))
    await _table(store, status="finished", seats=((100, "Ada"),))              # over: not counted
    await _table(store, status="cancelled", seats=((100, "Ada"),))
    await _table(store, guild_id=11, seats=((100, "Ada"),))                    # another server
    counts = await store.count_tables(10, 100)
    assert (counts.lobbies, counts.games, counts.member_lobbies, counts.member_tables) == (2, 2, 2, 3)
    assert counts.tables == 4
    assert (await store.count_tables(10, 200)).member_tables == 3
    assert await store.count_tables(10, 999) == type(counts)(2, 2, 0, 0)
    assert await store.count_tables(12, 100) == type(counts)(0, 0, 0, 0)


async def test_a_lobby_idle_since_before_the_cutoff_counts_nowhere(store: Storage) -> None:
    """A lobby past its server's expiry is closing: it holds no place under any limit, while a
    running game counts however long it has been quiet."""
    idle = await _table(store, seats=((100, "Ada"),), at=10.0)
    await _table(store, seats=((100, "Ada"), (200, "Bo")), at=50.0)
    await _table(store, status="active", seats=((100, "Ada"), (200, "Bo")), at=5.0)
    assert await store.count_tables(10, 100, lobbies_since=20.0) == TableCounts(1, 1, 1, 2)
    assert await store.count_tables(10, 100, lobbies_since=0.0) == TableCounts(2, 1, 2, 3)
    # a seat change moves the lobby's last activity: it counts again
    await store.set_seats(idle, [SeatRow(0, 100, False, "Ada"), SeatRow(1, None, True, "Computer 2")],
                          now=30.0)
    game = await store.get_game(idle)
    assert game is not None and game.updated_at == 30.0
    assert await store.count_tables(10, 100, lobbies_since=20.0) == TableCounts(2, 1, 2, 3)


async def test_a_page_of_games_is_the_most_recently_active_with_the_total(store: Storage) -> None:
    ids = [await _table(store, at=float(i)) for i in range(7)]
    await store.update_game(ids[0], updated_at=100.0)  # the oldest table just moved
    await _table(store, status="finished", at=50.0)
    first = await store.page_games(guild_id=10, limit=3)
    assert first.total == 7 and [g.id for g in first.games] == [ids[0], ids[6], ids[5]]
    last = await store.page_games(guild_id=10, limit=3, offset=6)
    assert [g.id for g in last.games] == [ids[1]]
    assert (await store.page_games(guild_id=10, limit=3, offset=9)).games == []
    assert (await store.page_games(guild_id=99)).total == 0


async def test_searching_games_filters_in_the_database_and_keeps_to_its_scope(store: Storage) -> None:
    ada = await _table(store, status="active", seats=((100, "Ada"), (200, "Bo_b")))
    zoe = await _table(store, status="active", seats=((300, "Zoe"), (None, "Computer 2")), at=2.0)
    far = await _table(store, guild_id=11, status="active", seats=((100, "Ada"), (400, "Kim")), at=3.0)

    async def found(**kw: Any) -> list[int]:
        kw.setdefault("statuses", ("active",))
        kw.setdefault("user_id", 999)
        return [g.id for g in await store.search_games(**kw)]

    assert await found(guild_id=10) == [zoe, ada]
    assert await found(guild_id=10, text="zo") == [zoe]
    assert await found(guild_id=10, text=f"#{ada}") == [ada]
    assert await found(guild_id=10, text="_") == [ada]  # a literal underscore, not a wildcard
    assert await found(guild_id=10, text="%") == []
    assert await found(guild_id=10, text="high card", game_keys=["duel"]) == [zoe, ada]
    assert await found(guild_id=10, limit=1) == [zoe]
    # no server (a DM): only the games the user is seated in, in any server; computer seats are nobody's
    assert await found(guild_id=None, user_id=100) == [far, ada]
    assert await found(guild_id=None, user_id=100, text="kim") == [far]
    assert await found(guild_id=None, user_id=999) == []


async def test_guild_limits_round_trip_and_default(store: Storage) -> None:
    from bot.settings import (
        DEFAULT_LOBBY_EXPIRY,
        DEFAULT_LOBBY_LIMIT,
        DEFAULT_MEMBER_LOBBY_LIMIT,
        DEFAULT_MEMBER_TABLE_LIMIT,
        DEFAULT_TABLE_LIMIT,
    )
    limits = (await store.guild_settings(7)).limits
    assert (limits.tables, limits.member_lobbies, limits.member_tables) == (
        DEFAULT_TABLE_LIMIT, DEFAULT_MEMBER_LOBBY_LIMIT, DEFAULT_MEMBER_TABLE_LIMIT)
    assert (limits.lobbies, (await store.guild_settings(7)).lobby_ttl) == (
        DEFAULT_LOBBY_LIMIT, DEFAULT_LOBBY_EXPIRY)
    await store.save_guild_settings(GuildSettings(7, default_deadline=600, table_limit=3,
                                                  member_lobby_limit=1, member_table_limit=2,
                                                  lobby_limit=4, lobby_expiry=7200))
    saved = await store.guild_settings(7)
    assert (saved.default_deadline, saved.table_limit, saved.member_lobby_limit, saved.member_table_limit) == (
        600, 3, 1, 2)
    assert (saved.limits.tables, saved.limits.member_lobbies, saved.limits.member_tables) == (3, 1, 2)
    assert (saved.lobby_limit, saved.limits.lobbies, saved.lobby_expiry, saved.lobby_ttl) == (4, 4, 7200, 7200)


async def test_settings_of_a_schema_2_database_survive_migration_3_postgres(postgres_url: str) -> None:
    raw = await asyncpg.connect(postgres_url)
    try:
        await raw.execute(f"CREATE TABLE {pg.SCHEMA_TABLE} (version INTEGER NOT NULL)")
        await raw.execute(f"INSERT INTO {pg.SCHEMA_TABLE} VALUES (2)")
        for script in pg.MIGRATIONS[:2]:
            await raw.execute(script)
        await raw.execute("INSERT INTO guild_settings (guild_id, default_deadline, channels) "
                          "VALUES (7, 600, '[5]')")
    finally:
        await raw.close()
    s = PostgresStorage(postgres_url)
    await s.open()
    try:
        assert await s.schema_version() == len(MIGRATIONS) >= 3
        assert await s.guild_settings(7) == GuildSettings(7, 600, None, None, [5])
    finally:
        await s.close()


async def test_settings_of_a_schema_2_database_survive_migration_3(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as raw:
        for script in MIGRATIONS[:2]:
            raw.executescript(script)
        raw.execute("INSERT INTO guild_settings (guild_id, default_deadline, channels) VALUES (7, 600, '[5]')")
        raw.execute("PRAGMA user_version = 2")
    s = SqliteStorage(str(path))
    await s.open()
    try:
        assert await s.schema_version() == len(MIGRATIONS) >= 3
        assert await s.guild_settings(7) == GuildSettings(7, 600, None, None, [5])
    finally:
        await s.close()


async def test_a_failure_while_seating_a_new_table_leaves_no_lobby_behind(store: Storage) -> None:
    """A table and its host's seat are one transaction: never a seatless lobby nobody can close
    that counts against the server's table limit."""
    twice = [SeatRow(0, 7, False, "alice"), SeatRow(0, 8, False, "bob")]  # duplicate seat number
    with pytest.raises(_integrity(store)):
        await store.create_game(guild_id=10, channel_id=20, game_key="duel", seed=5, options={},
                                host_id=7, deadline=None, now=1.0, seats=twice)
    assert await store.list_games(guild_id=10, statuses=("lobby", "active", "cancelled")) == []
    gid = await store.create_game(guild_id=10, channel_id=20, game_key="duel", seed=5, options={},
                                  host_id=7, deadline=None, now=1.0, seats=twice[:1])
    game = await store.get_game(gid)
    assert game is not None and [s.name for s in game.seats] == ["alice"]


# ------------------------------------------------------------------ claims on deadlines
# Several processes over one database: each due deadline is claimed by one of them for a lease.
# A second storage over the same database stands for a second process.


async def _games_with_due_deadlines(s: Storage, n: int) -> set[tuple[int, int]]:
    """``n`` running games, both seats' deadlines due at 100 (reminders at 50)."""
    keys: set[tuple[int, int]] = set()
    for _ in range(n):
        gid = await _started_game(s, deadlines=[])
        await s.replace_deadlines(gid, [DeadlineRow(gid, seat, "bid", 100.0, 50.0, False, 1)
                                        for seat in (0, 1)])
        keys |= {(gid, 0), (gid, 1)}
    return keys


async def test_owners_claiming_at_once_never_get_the_same_deadline(
        store: Storage, location: str) -> None:
    due = await _games_with_due_deadlines(store, 6)
    other = _storage(location)
    await other.open()
    try:
        owners = [(store, "a"), (other, "b"), (store, "c"), (other, "d")]

        async def claim(now: float) -> list[set[tuple[int, int]]]:
            got = await asyncio.gather(*(s.claim_deadlines(now, who, 60.0, 3) for s, who in owners))
            return [{(d.game_id, d.seat) for d in rows} for rows in got]

        first = await claim(200.0)
        assert [len(g) for g in first] == [3, 3, 3, 3]
        assert set().union(*first) == due  # twelve deadlines, each to exactly one owner
        # while the leases run, each owner gets its own again (its retries), nobody another's
        assert await claim(230.0) == first
        assert await store.claim_deadlines(230.0, "e", 60.0) == []
    finally:
        await other.close()


async def test_a_claim_comes_back_when_its_lease_expires(store: Storage) -> None:
    gid = await _started_game(store)  # seat 0: reminder at 50, deadline at 100
    assert await store.claim_deadlines(40.0, "a", 30.0) == []  # nothing due yet
    [mine] = await store.claim_deadlines(60.0, "a", 30.0)
    assert (mine.game_id, mine.seat, mine.kind) == (gid, 0, "bid")
    assert await store.claim_deadlines(70.0, "b", 30.0) == []  # a holds it until 90
    assert len(await store.claim_deadlines(80.0, "a", 30.0)) == 1  # a's retry renews it: 110
    assert await store.claim_deadlines(100.0, "b", 30.0) == []
    # a died: at 110 its claim is free again
    [taken] = await store.claim_deadlines(110.0, "b", 30.0)
    assert (taken.game_id, taken.seat) == (gid, 0)
    assert await store.claim_deadlines(120.0, "a", 30.0) == []
    assert len(await store.due_deadlines(120.0)) == 1  # the plain read still sees it


async def test_the_next_deadline_of_another_owners_claim_is_when_its_lease_ends(
        store: Storage) -> None:
    await _started_game(store)
    assert await store.next_deadline_time("b") == 50.0
    await store.claim_deadlines(60.0, "a", 30.0)
    assert await store.next_deadline_time("b") == 90.0  # b sleeps past what a is handling
    assert await store.next_deadline_time("a") == 50.0  # a's own: due (its retries)
    assert await store.next_deadline_time() == 50.0


async def test_a_move_keeps_the_claim_of_an_unchanged_deadline_only(store: Storage) -> None:
    gid = await _started_game(store, deadlines=[DeadlineRow(0, 0, "bid", 100.0, None, False, 1),
                                                DeadlineRow(0, 1, "bid", 100.0, None, False, 1)])
    assert len(await store.claim_deadlines(100.0, "a", 60.0)) == 2
    # seat 0 answered; seat 1's prompt is the same instance, seat 0 is asked anew
    await store.commit_action(gid, **_commit_args(gid, opened={0: 2, 1: 1}, deadlines=[
        DeadlineRow(gid, 0, "bid", 100.0, None, False, 2),
        DeadlineRow(gid, 1, "bid", 100.0, None, False, 1)]))
    assert [(d.seat, d.opened) for d in await store.claim_deadlines(100.0, "b", 60.0)] == [(0, 2)]


async def test_a_reminder_is_marked_by_exactly_one_of_several_at_once(
        store: Storage, location: str) -> None:
    gid = await _started_game(store, deadlines=[DeadlineRow(0, 0, "bid", 100.0, 50.0, False, 1)])
    other = _storage(location)
    await other.open()
    try:
        marks = await asyncio.gather(*(s.mark_reminded(gid, 0, "bid", 1)
                                       for s in (store, other) * 4))
        assert sorted(marks) == [False] * 7 + [True]
        assert [d.reminded for d in await other.deadlines(gid)] == [True]
    finally:
        await other.close()


async def test_marking_a_reminder_releases_its_claim_and_checks_the_instance(
        store: Storage) -> None:
    gid = await _started_game(store, deadlines=[DeadlineRow(0, 0, "bid", 100.0, 50.0, False, 1)])
    assert len(await store.claim_deadlines(60.0, "a", 100.0)) == 1
    assert await store.mark_reminded(gid, 0, "bid", 2) is False  # another prompt instance
    assert await store.mark_reminded(gid, 0, "bid", 1) is True
    assert await store.mark_reminded(gid, 0, "bid") is False  # once
    # the reminder is done; the deadline itself, at 100, is anyone's (a's lease ran to 160)
    [d] = await store.claim_deadlines(100.0, "b", 30.0)
    assert (d.game_id, d.reminded) == (gid, True)


def test_stored_json_is_sorted_and_compact_and_reads_back_as_written() -> None:
    from bot.storage.base import from_json, to_json, to_json_utf8

    assert to_json({"b": 1, "a": {"z": None, "y": [1.5, True]}}) == '{"a":{"y":[1.5,true],"z":null},"b":1}'
    assert to_json({2: "x", 1: "y"}) == '{"1":"y","2":"x"}'  # (keys as text, as JSON has them)
    assert from_json(to_json({"n": "— Zoë"})) == {"n": "— Zoë"}
    huge = {"n": 2**70, "m": -(2**64)}  # past orjson's 64 bits: the standard library writes it
    assert from_json(to_json(huge)) == huge and isinstance(from_json(to_json(huge))["n"], int)
    for value in ({"b": [1, {"z": "— Zoë", "a": 1}]}, {3: 1}, huge):
        assert to_json_utf8(value) == to_json(value).encode()


async def test_a_state_with_any_character_is_stored_as_text_as_to_json_writes_it(
        tmp_path: Path) -> None:
    """A move's state goes to SQLite as UTF-8 bytes (no decoding into a Python string and back),
    and is stored as text all the same: what other tools and older Herald versions read."""
    from bot.storage.base import to_json

    s = SqliteStorage(str(tmp_path / "herald.db"))
    await s.open()
    try:
        gid = await s.create_game(guild_id=1, channel_id=2, game_key="duel", seed=3, options={},
                                  host_id=4, deadline=None, now=0.0)
        await s.start_game(gid, seats=[], state={"v": 0}, opened={}, deadlines=[], now=0.0)
        state = {"names": ["Zoë", "Ōta — 大"], "n": 1}
        await s.commit_action(gid, expected_version=1, seat=0, action={}, origin="player",
                              user_id=4, state=state, events=[], status="active", result=None,
                              opened={}, answered={}, deadlines=[], now=1.0)
    finally:
        await s.close()
    with sqlite3.connect(tmp_path / "herald.db") as raw:
        assert raw.execute("SELECT typeof(state), state FROM games WHERE id=?", (gid,)).fetchone() == (
            "text", to_json(state))
    again = SqliteStorage(str(tmp_path / "herald.db"))
    await again.open()
    try:
        game = await again.get_game(gid)
        assert game is not None and game.state == state
    finally:
        await again.close()


async def test_actions_and_events_of_a_schema_7_database_survive_migration_8(tmp_path: Path) -> None:
    """Step 8 keeps actions and events in the order of their key (one page per new row, not
    two): every row is copied over as it was, and the tables are then those of a new file."""
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as raw:
        for script in MIGRATIONS[:7]:
            raw.executescript(script)
        raw.execute("PRAGMA user_version = 7")
        raw.execute("INSERT INTO games (id, game_key, status, version, seed, state, created_at, "
                    "updated_at) VALUES (5, 'duel', 'active', 3, 1, '{}', 0, 0)")
        raw.executemany("INSERT INTO actions VALUES (5, ?, 0, ?, 'player', 7, ?)",
                        [(n, f'{{"n":{n}}}', float(n)) for n in (1, 2)])
        raw.executemany("INSERT INTO events VALUES (5, ?, ?, ?, NULL, 'log', '{}', 0)",
                        [(n, n + 1, f"event {n}") for n in (1, 2, 3)])
    s = SqliteStorage(str(path))
    await s.open()
    try:
        assert await s.schema_version() == len(MIGRATIONS) >= 8
        assert await s.actions(5) == [(0, {"n": 1}, "player"), (0, {"n": 2}, "player")]
        events = await s.events(5, viewer_seat=None, limit=10)
        assert sorted(e.text for e in events) == ["event 1", "event 2", "event 3"]
        # the next move numbers on after what was copied
        await s.commit_action(5, expected_version=3, seat=0, action={"n": 3}, origin="player",
                              user_id=7, state={}, events=[{"text": "event 4"}], status="active",
                              result=None, opened={}, answered={}, deadlines=[], now=1.0)
    finally:
        await s.close()
    with sqlite3.connect(path) as raw:
        tables = {name: sql for name, sql in raw.execute(
            "SELECT name, sql FROM sqlite_master WHERE type='table' AND name IN ('actions', 'events')")}
        assert all(sql.endswith("WITHOUT ROWID") for sql in tables.values()) and len(tables) == 2
        assert raw.execute("SELECT n, text FROM events WHERE game_id=5 ORDER BY n").fetchall() == [
            (1, "event 1"), (2, "event 2"), (3, "event 3"), (4, "event 4")]
        assert raw.execute("SELECT COUNT(*) FROM actions WHERE game_id=5").fetchone() == (3,)
        assert raw.execute("PRAGMA foreign_key_check").fetchall() == []
        fresh = tmp_path / "fresh.db"
        new = SqliteStorage(str(fresh))
        await new.open()
        await new.close()
        with sqlite3.connect(fresh) as made:
            def shape(c: sqlite3.Connection) -> list[Any]:
                return [tuple(r[1:]) for t in ("actions", "events")
                        for r in c.execute(f"PRAGMA table_xinfo({t})")]
            assert shape(raw) == shape(made)
