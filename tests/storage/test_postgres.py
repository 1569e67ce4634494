"""What only the PostgreSQL backend has: choosing it by URL, its refusals at open, racing writers
from separate pools (as two processes would be), lock waits, lost connections and a commit whose
outcome must be asked for. The behaviour both backends share is ``tests/unit/test_storage.py``."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import asyncpg
import pytest
from asyncpg.transaction import Transaction
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.config import Config, ConfigError
from bot.dburl import redacted, scrubbed
from bot.storage import (
    MIGRATIONS,
    DeadlineRow,
    PostgresStorage,
    SqliteStorage,
    StorageBusy,
    StorageCorrupt,
    StorageFull,
    StorageOpenError,
    StorageReadOnly,
    StorageUnavailable,
    VersionConflict,
    open_storage,
    shown_location,
)
from bot.storage import postgres as pg
from tests.support.storage import opened, started_duel


def _with_password(url: str, password: str) -> str:
    """The same database, logged in with a password (the test server trusts any)."""
    scheme, rest = url.split("://", 1)
    user, host = rest.split("@", 1)
    return f"{scheme}://{user}:{password}@{host}"


@pytest.fixture
async def store(postgres_url: str) -> AsyncIterator[PostgresStorage]:
    async with opened(PostgresStorage(postgres_url)) as s:
        yield s


async def _started(s: PostgresStorage) -> int:
    return await started_duel(s, {"turn": 0}, [DeadlineRow(0, 0, "bid", 100.0, 50.0, False, 1)])


def _commit(gid: int, seat: int = 0, version: int = 1) -> dict[str, Any]:
    return dict(expected_version=version, seat=seat, action={"type": "bid", "card": seat + 3},
                origin="player", user_id=100 + 100 * seat, state={"turn": version, "by": seat},
                events=[{"text": f"P{seat + 1} has bid."}], status="active", result=None,
                opened={1 - seat: version + 1}, answered={seat: version},
                deadlines=[DeadlineRow(gid, 1 - seat, "bid", 200.0, None, False, version + 1)],
                now=3.0)


# ------------------------------------------------------------------ choosing and naming

def test_herald_db_chooses_the_backend_and_never_shows_the_password() -> None:
    url = "postgresql://herald:s3cret@db.example:5432/herald"
    chosen = open_storage(url)
    assert isinstance(chosen, PostgresStorage)
    assert isinstance(open_storage("./herald.db"), SqliteStorage)
    assert isinstance(open_storage("postgres://h@db/x"), PostgresStorage)
    assert "s3cret" not in chosen.where and "s3cret" not in shown_location(url)
    assert "s3cret" not in shown_location("postgresql://h@db/x?password=s3cret&sslmode=require")
    assert shown_location("/data/herald.db") == "/data/herald.db"
    config = Config.from_env({"HERALD_DB": url})
    assert config.db_path == url and "s3cret" not in repr(config)


@pytest.mark.parametrize("bad", ["postgresql://h:s3cret@db:99999/herald", "postgresql://h:s3cret@db/",
                                 "postgresql://h:s3cret@db /herald"])
def test_a_malformed_url_stops_the_configuration_without_showing_the_password(bad: str) -> None:
    with pytest.raises(ConfigError, match="HERALD_DB") as caught:
        Config.from_env({"HERALD_DB": bad})
    assert "s3cret" not in str(caught.value) and "postgresql://user:password@" in str(caught.value)


@pytest.mark.parametrize(("command", "code"), [(["backup", "copy.db"], 2)])
def test_the_sqlite_file_commands_point_a_postgres_admin_to_its_tools(
        command: list[str], code: int, monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    from bot.__main__ import main

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HERALD_DB", "postgresql://herald:s3cret@db.example:5432/herald")
    assert main(command) == code
    err = capsys.readouterr().err
    assert "PostgreSQL" in err and ("pg_dump" in err or "pg_isready" in err) and "s3cret" not in err
    assert list(tmp_path.iterdir()) == []  # nothing written


@pytest.mark.parametrize(("sqlstate", "kind"), [
    ("40001", StorageBusy), ("40P01", StorageBusy), ("55P03", StorageBusy), ("53100", StorageFull),
    ("25006", StorageReadOnly), ("42501", StorageReadOnly), ("XX001", StorageCorrupt),
    ("08006", StorageUnavailable), ("57P01", StorageUnavailable), ("53300", StorageUnavailable),
    ("23505", None), ("42601", None)])
def test_server_errors_are_translated_by_their_sqlstate(sqlstate: str, kind: type | None) -> None:
    error = asyncpg.PostgresError.new({"C": sqlstate, "M": "m", "S": "ERROR"})
    assert pg._kind(error) is kind  # constraint and syntax errors are bugs: not translated
    assert pg._kind(TimeoutError()) is StorageBusy
    assert pg._kind(ConnectionResetError()) is StorageUnavailable


# ------------------------------------------------------------------------------- opening

async def test_another_programs_database_is_refused_untouched(postgres_url: str) -> None:
    raw = await asyncpg.connect(postgres_url)
    try:
        await raw.execute("CREATE TABLE invoices (id INTEGER)")
        s = PostgresStorage(postgres_url)
        with pytest.raises(StorageOpenError, match="another program's database .*invoices"):
            await s.open()
        assert await raw.fetchval("SELECT to_regclass('games')") is None
        assert await raw.fetchval(f"SELECT to_regclass('{pg.SCHEMA_TABLE}')") is None
    finally:
        await raw.close()


async def test_a_missing_database_and_a_refused_login_are_explained(postgres_url: str) -> None:
    base = postgres_url.rsplit("/", 1)[0]
    missing = PostgresStorage(_with_password(base + "/nowhere", "s3cret"))
    with pytest.raises(StorageOpenError, match="there is no database .*createdb") as caught:
        await missing.open()
    assert "s3cret" not in str(caught.value)
    stranger = PostgresStorage(_with_password(postgres_url, "s3cret").replace("herald:", "nobody_here:", 1))
    with pytest.raises(StorageOpenError, match="refused Herald's login") as caught:
        await stranger.open()
    assert "s3cret" not in str(caught.value)


async def test_an_unreachable_server_is_explained(postgres_url: str) -> None:
    import socket

    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    s = PostgresStorage(f"postgresql://herald:s3cret@127.0.0.1:{port}/herald", busy_timeout=1.0)
    with pytest.raises(StorageOpenError, match="cannot reach the PostgreSQL server") as caught:
        await s.open()
    assert "s3cret" not in str(caught.value)
    assert s._pool is None


def test_a_full_disk_at_opening_is_told_as_a_full_disk_not_as_an_unreachable_server() -> None:
    s = PostgresStorage("postgresql://herald:s3cret@127.0.0.1:1/herald")
    refusal = str(s._refusal(asyncpg.exceptions.DiskFullError("could not extend file")))
    assert "has a full disk; free some space" in refusal and "cannot reach" not in refusal
    assert "s3cret" not in refusal
    too_many = str(s._refusal(asyncpg.exceptions.TooManyConnectionsError("sorry")))
    assert "cannot reach the PostgreSQL server" in too_many  # (the rest of class 53 as before)


async def test_a_read_only_database_is_refused_before_the_first_move(postgres_url: str) -> None:
    first = PostgresStorage(postgres_url)
    await first.open()
    await first.close()
    raw = await asyncpg.connect(postgres_url)
    try:
        name = await raw.fetchval("SELECT current_database()")
        await raw.execute(f'ALTER DATABASE "{name}" SET default_transaction_read_only = on')
    finally:
        await raw.close()
    s = PostgresStorage(postgres_url)
    with pytest.raises(StorageOpenError, match="read-only"):
        await s.open()


async def test_processes_starting_together_migrate_once(postgres_url: str) -> None:
    stores = [PostgresStorage(postgres_url) for _ in range(3)]
    try:
        await asyncio.gather(*(s.open() for s in stores))
        assert [await s.schema_version() for s in stores] == [len(MIGRATIONS)] * 3
        async with stores[0].pool.acquire() as conn:
            assert await conn.fetchval(f"SELECT COUNT(*) FROM {pg.SCHEMA_TABLE}") == 1
    finally:
        for s in stores:
            await s.close()


# --------------------------------------------------------------- racing writers, lost links

async def test_two_processes_racing_on_one_game_store_exactly_one_action(postgres_url: str) -> None:
    """Two pools stand for two bot processes: both read version 1 and commit at once."""
    a, b = PostgresStorage(postgres_url), PostgresStorage(postgres_url)
    await a.open()
    await b.open()
    try:
        gid = await _started(a)
        outcomes = await asyncio.gather(a.commit_action(gid, **_commit(gid, seat=0)),
                                        b.commit_action(gid, **_commit(gid, seat=1)),
                                        return_exceptions=True)
        assert sorted(type(o).__name__ for o in outcomes) == ["VersionConflict", "int"]
        winner = 0 if outcomes[0] == 2 else 1
        game = await b.get_game(gid)
        assert game is not None and game.version == 2 and game.state == {"turn": 1, "by": winner}
        assert [seat for seat, _, _ in await a.actions(gid)] == [winner]
        assert [e.text for e in await a.events(gid, viewer_seat=None)] == [f"P{winner + 1} has bid."]
        assert [d.seat for d in await a.deadlines(gid)] == [1 - winner]
    finally:
        await a.close()
        await b.close()


async def test_a_game_row_locked_too_long_is_busy_and_stores_nothing(postgres_url: str) -> None:
    s = PostgresStorage(postgres_url, busy_timeout=0.3)
    await s.open()
    other = await asyncpg.connect(postgres_url)
    try:
        gid = await _started(s)
        async with other.transaction():
            await other.execute("SELECT 1 FROM games WHERE id=$1 FOR UPDATE", gid)
            with pytest.raises(StorageBusy) as caught:
                await s.commit_action(gid, **_commit(gid))
            assert caught.value.stored is False and isinstance(caught.value, tuple(s.transient_errors))
        assert await s.actions(gid) == []
        assert await s.commit_action(gid, **_commit(gid)) == 2  # the lock gone, the move goes in
    finally:
        await other.close()
        await s.close()


async def test_connections_killed_by_the_server_are_replaced(store: PostgresStorage, postgres_url: str) -> None:
    """As after a restart of the server: every pooled connection is dead, and at most one call
    finds out (the others get fresh connections)."""
    gid = await _started(store)
    await asyncio.gather(*(store.get_game(gid) for _ in range(4)))  # several pooled connections
    raw = await asyncpg.connect(postgres_url)
    try:
        killed = await raw.fetchval(
            "SELECT COUNT(pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE application_name='herald' AND pid <> pg_backend_pid()")
        assert killed >= 2
    finally:
        await raw.close()
    try:  # the first call may meet the dead connection: a transient error, never a crash
        await store.get_game(gid)
    except StorageUnavailable:
        pass
    game = await store.get_game(gid)
    assert game is not None and game.version == 1
    assert await store.commit_action(gid, **_commit(gid)) == 2


@pytest.mark.parametrize("committed", [True, False])
async def test_a_connection_lost_before_an_actions_answer_is_checked_against_the_database(
        store: PostgresStorage, monkeypatch: pytest.MonkeyPatch, committed: bool) -> None:
    """An action is one statement, its own transaction: the server may have committed it before
    the link broke, or not. Asked afterwards, a stored action stands (its version is returned),
    and one that is not is reported as not stored."""
    gid = await _started(store)
    real_fetchrow = asyncpg.Connection.fetchrow

    async def answer_lost(self: asyncpg.Connection, query: str, *args: Any, **kw: Any) -> Any:
        if query != pg._COMMIT:
            return await real_fetchrow(self, query, *args, **kw)
        if committed:
            await real_fetchrow(self, query, *args, **kw)
        raise asyncpg.ConnectionDoesNotExistError("connection was closed in the middle of operation")

    monkeypatch.setattr(asyncpg.Connection, "fetchrow", answer_lost)
    if committed:
        assert await store.commit_action(gid, **_commit(gid)) == 2
    else:
        with pytest.raises(StorageUnavailable) as caught:
            await store.commit_action(gid, **_commit(gid))
        assert caught.value.stored is False
    monkeypatch.undo()
    game = await store.get_game(gid)
    assert game is not None and game.version == (2 if committed else 1)
    assert len(await store.actions(gid)) == (1 if committed else 0)
    # the same action committed by another process (the same seat, another moment) is not ours
    if not committed:
        other = PostgresStorage(store.url)
        await other.open()
        try:
            await other.commit_action(gid, **{**_commit(gid), "now": 4.0})
        finally:
            await other.close()
        monkeypatch.setattr(asyncpg.Connection, "fetchrow", answer_lost)
        with pytest.raises(StorageUnavailable):
            await store.commit_action(gid, **_commit(gid))


@pytest.mark.parametrize("committed", [True, False])
async def test_a_connection_lost_while_committing_an_undo_is_checked_against_the_database(
        store: PostgresStorage, monkeypatch: pytest.MonkeyPatch, committed: bool) -> None:
    """An undo is a transaction of several statements: the link may break at its COMMIT."""
    gid = await _started(store)
    assert await store.commit_action(gid, **_commit(gid)) == 2
    real_commit, real_rollback = Transaction.commit, Transaction.rollback

    async def commit_then_lose_the_link(self: Transaction) -> None:
        if committed:
            await real_commit(self)
        else:
            await real_rollback(self)
        raise asyncpg.ConnectionDoesNotExistError("connection was closed in the middle of operation")

    monkeypatch.setattr(Transaction, "commit", commit_then_lose_the_link)
    undo = store.undo_actions(gid, expected_version=2, keep=0, state={"turn": 0}, events=[],
                              opened={0: 3, 1: 3}, answered={}, deadlines=[], now=4.0)
    if committed:
        assert await undo == 3
    else:
        with pytest.raises(StorageUnavailable) as caught:
            await undo
        assert caught.value.stored is False
    monkeypatch.undo()
    game = await store.get_game(gid)
    assert game is not None and game.version == (3 if committed else 2)
    assert len(await store.actions(gid)) == (0 if committed else 1)


async def test_a_conflict_is_reported_as_such_not_as_a_failure(store: PostgresStorage) -> None:
    gid = await _started(store)
    await store.commit_action(gid, **_commit(gid))
    with pytest.raises(VersionConflict):
        await store.commit_action(gid, **_commit(gid, seat=1))
    with pytest.raises(VersionConflict):
        await store.commit_action(gid + 99, **_commit(gid + 99))
    with pytest.raises(VersionConflict):
        await store.start_game(gid, seats=[], state={}, opened={}, deadlines=[], now=5.0)


# ------------------------------------------------------------------------ the test server

@pytest.mark.parametrize("required", ["", "1"])
def test_without_server_binaries_the_tier_skips_unless_required(
        monkeypatch: pytest.MonkeyPatch, required: str) -> None:
    from tests.support import postgres as support

    monkeypatch.delenv("HERALD_PG_BINDIR", raising=False)
    monkeypatch.setattr("tests.support.postgres.shutil.which", lambda name: None)
    monkeypatch.setattr("tests.support.postgres.glob.glob", lambda pattern: [])
    monkeypatch.setenv(support.REQUIRE, required)
    assert support.find_bindir() is None
    outcome = pytest.fail.Exception if required else pytest.skip.Exception
    with pytest.raises(outcome, match="PostgreSQL") as caught:
        with support.running_server():
            pass
    assert ("HERALD_REQUIRE_POSTGRES is set" in str(caught.value)) == bool(required)


PASSWORD_BREAKERS = "/#?@:% "


@given(middle=st.text(alphabet=st.sampled_from(list(PASSWORD_BREAKERS) + list("abcXYZ019_-.!$&'()*+,;=~")),
                      min_size=1, max_size=12))
@settings(max_examples=300)
def test_a_password_of_any_shape_is_never_shown(middle: str) -> None:
    """Whatever a password holds (a '/' or '#' breaks the URL's parse), no refusal, log line or
    shown location repeats it: redaction reads the text, not a parse."""
    password = f"Pw{middle}Zq"
    for url in (f"postgresql://herald:{password}@db.example:5432/herald",
                f"postgres://herald:{password}@db.example/herald?sslmode=require",
                f"postgresql://herald@db.example/herald?sslmode=require&password={password}"):
        assert password not in shown_location(url)
        assert password not in redacted(url)
        assert password not in scrubbed(f"driver says: cannot log in with {password!s} at {url}", url)
        try:
            config = Config.from_env({"HERALD_DB": url})
        except ConfigError as exc:
            assert password not in str(exc)
            assert "%2F" in str(exc) and "percent-encoded" in str(exc)
        else:
            assert password not in repr(config)


@pytest.mark.parametrize("url", [
    "postgresql://herald:pa/ss@db:5432/herald",        # the path swallows the rest of the password
    "postgresql://herald:pa#ss@db:5432/herald",        # so does the fragment
    "postgresql://herald:pa?ss@db:5432/herald",        # and the query
    "postgresql://herald:12/34@db:5432/herald",        # an all-digit start parses as a port
])
def test_a_password_that_breaks_the_url_is_refused_with_how_to_encode_it(url: str) -> None:
    with pytest.raises(ConfigError) as caught:
        Config.from_env({"HERALD_DB": url})
    text = str(caught.value)
    secret = url.split("herald:", 1)[1].rsplit("@", 1)[0]
    assert secret not in text and secret[:3] not in text
    assert "postgresql://herald:***@db:5432/herald" in text
    assert "percent-encoded" in text and "%23" in text and "urllib.parse.quote" in text
    # the encoded form is accepted, and the driver reads it back as the password
    encoded = url.replace(secret, quote(secret, safe=""))
    assert Config.from_env({"HERALD_DB": encoded}).db_path == encoded
