"""A database Herald must not use is refused at open, with one sentence for the admin, without a
byte of it changed — and the process still exits (a connection left open by a failed open kept
``python -m bot`` alive for ever).

Each bad file is made from a real Herald database: truncated, a page of garbage written into its
middle, stamped by a newer Herald, emptied, replaced by text, or another program's database.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import os
import random
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from bot.storage import MIGRATIONS, SeatRow, SqliteStorage, StorageOpenError

ROOT = Path(__file__).resolve().parents[2]
EXIT_WITHIN = 30.0
"""Seconds a child gets to open, refuse and exit (it takes well under one)."""

OPEN_CHILD = """
import asyncio, sys
from bot.storage import SqliteStorage, StorageError

async def main() -> None:
    storage = SqliteStorage(sys.argv[1])
    await storage.open()
    await storage.close()

try:
    asyncio.run(main())
except StorageError as exc:
    print(exc, flush=True)
    sys.exit(3)
print("opened", flush=True)
"""


async def _herald_db(path: Path) -> None:
    """A real database with a started game and some forty moves, then compacted (every page in
    use, so that garbage anywhere in it is garbage in a table)."""
    s = SqliteStorage(str(path))
    await s.open()
    gid = await s.create_game(guild_id=1, channel_id=2, game_key="duel", seed=3, options={},
                              host_id=10, deadline=None, now=0.0)
    seats = [SeatRow(0, 10, False, "Ada"), SeatRow(1, 20, False, "Bo")]
    await s.set_seats(gid, seats)
    await s.start_game(gid, seats=seats, state={"turn": 0}, opened={0: 1}, deadlines=[], now=0.0)
    version = 1
    for i in range(40):
        version = await s.commit_action(
            gid, expected_version=version, seat=i % 2, action={"move": i, "note": "n" * 1500},
            origin="player", user_id=None, state={"turn": i}, events=[{"text": f"move {i}"}],
            status="active", result=None, opened={(i + 1) % 2: version + 1}, answered={},
            deadlines=[], now=float(i))
    await s.close()
    with _raw(path) as raw:
        raw.execute("VACUUM")
    assert not Path(f"{path}-wal").exists()


@contextlib.contextmanager
def _raw(path: Path) -> Iterator[sqlite3.Connection]:
    """A plain connection (foreign keys off), committed and closed: nothing left in a -wal file."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        yield conn
    finally:
        conn.close()


def _truncate(path: Path) -> None:
    os.truncate(path, path.stat().st_size // 2)


def _garbage_page(path: Path) -> None:
    pages = path.stat().st_size // 4096
    assert pages > 20
    with path.open("r+b") as f:
        f.seek(pages // 2 * 4096)
        f.write(random.Random(7).randbytes(4096))


def _newer(path: Path) -> None:
    with _raw(path) as raw:
        raw.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")


def _empty(path: Path) -> None:
    path.write_bytes(b"")


def _text(path: Path) -> None:
    path.write_text("games:\n  - #1 duel, Ada vs Bo\n" * 200)


def _foreign(path: Path) -> None:
    path.unlink()
    with _raw(path) as raw:
        raw.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
        raw.execute("INSERT INTO notes (body) VALUES ('buy milk')")


BAD_FILES: dict[str, tuple[Callable[[Path], None], tuple[str, ...]]] = {
    "truncated": (_truncate, ("is damaged", "copy your latest backup over the file", "-wal")),
    "garbage page": (_garbage_page, ("is damaged", "copy your latest backup over the file",
                                     "-wal")),
    "newer schema": (_newer, ("newer Herald", f"schema {len(MIGRATIONS) + 1}")),
    "empty file": (_empty, ("is empty", "delete the empty file")),
    "not SQLite": (_text, ("is not an SQLite database",)),
    "foreign database": (_foreign, ("another program's SQLite database", "notes")),
}


@pytest.fixture
def herald_db(tmp_path: Path) -> Path:
    path = tmp_path / "herald.db"
    asyncio.run(_herald_db(path))
    return path


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("fault", list(BAD_FILES))
async def test_a_bad_database_is_refused_with_its_sentence_and_left_untouched(
        herald_db: Path, fault: str) -> None:
    damage, words = BAD_FILES[fault]
    damage(herald_db)
    before = _digest(herald_db)
    storage = SqliteStorage(str(herald_db))
    with pytest.raises(StorageOpenError) as refused:
        await storage.open()
    message = str(refused.value)
    for word in words:
        assert word in message, (fault, message)
    assert "\n" not in message and message.endswith(".")
    assert _digest(herald_db) == before  # not "repaired", migrated or turned into a new database
    with pytest.raises(StorageOpenError):  # and it stays refused
        await SqliteStorage(str(herald_db)).open()


def _run_open_child(path: Path) -> subprocess.CompletedProcess[str]:
    """Open ``path`` in a new process; a child that does not exit in time fails the test."""
    try:
        return subprocess.run([sys.executable, "-c", OPEN_CHILD, str(path)], cwd=ROOT,
                              capture_output=True, text=True, timeout=EXIT_WITHIN, check=False)
    except subprocess.TimeoutExpired:
        pytest.fail(f"the process opening {path.name} did not exit within {EXIT_WITHIN:.0f}s")


@pytest.mark.parametrize("fault", list(BAD_FILES))
def test_a_process_refused_its_database_exits(herald_db: Path, fault: str) -> None:
    damage, words = BAD_FILES[fault]
    damage(herald_db)
    done = _run_open_child(herald_db)
    assert done.returncode == 3, done.stderr
    assert words[0] in done.stdout
    assert "Traceback" not in done.stderr and "Exception" not in done.stderr, done.stderr


def test_a_process_exits_when_the_folder_of_a_new_database_is_missing(tmp_path: Path) -> None:
    done = _run_open_child(tmp_path / "no such folder" / "herald.db")
    assert done.returncode == 3, done.stderr
    assert "does not exist" in done.stdout
    assert not (tmp_path / "no such folder").exists()
    assert "Traceback" not in done.stderr, done.stderr


async def test_a_missing_file_becomes_a_new_database_and_the_log_says_so(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "herald.db"
    storage = SqliteStorage(str(path))
    with caplog.at_level(logging.INFO, logger="herald.storage"):
        await storage.open()
    try:
        assert await storage.schema_version() == len(MIGRATIONS)
    finally:
        await storage.close()
    assert f"created a new database at {path}" in caplog.text
    caplog.clear()
    again = SqliteStorage(str(path))
    with caplog.at_level(logging.INFO, logger="herald.storage"):
        await again.open()  # an existing Herald database: opened, not created
    await again.close()
    assert "created" not in caplog.text


@contextlib.contextmanager
def _read_only(folder: Path) -> Iterator[None]:
    """Make ``folder`` and what is in it read-only. chmod does not bind root: as root, the folder
    is bind-mounted read-only over itself (a file system that went read-only)."""
    if os.geteuid() != 0:
        for f in folder.iterdir():
            f.chmod(0o444)
        folder.chmod(0o555)
        try:
            yield
        finally:
            folder.chmod(0o755)
        return
    try:
        subprocess.run(["mount", "--bind", str(folder), str(folder)], check=True,
                       capture_output=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        pytest.skip("running as root without the right to mount: nothing can be made read-only")
    try:
        subprocess.run(["mount", "-o", "remount,bind,ro", str(folder)], check=True,
                       capture_output=True, timeout=10)
        yield
    finally:
        subprocess.run(["umount", str(folder)], check=True, capture_output=True, timeout=10)


def test_a_read_only_database_is_refused_and_the_process_exits(herald_db: Path) -> None:
    before = _digest(herald_db)
    with _read_only(herald_db.parent):
        done = _run_open_child(herald_db)
        assert done.returncode == 3, (done.stdout, done.stderr)
        assert "is read-only for Herald" in done.stdout
        assert "Traceback" not in done.stderr, done.stderr
    assert _digest(herald_db) == before


class _QueryOnly(SqliteStorage):
    """A connection that may read but not write (what SQLite silently gives for a file it may not
    write, e.g. on a file system whose permissions the process cannot see in advance)."""

    async def _connect(self):  # type: ignore[no-untyped-def]
        connection = await super()._connect()
        connection.raw.execute("PRAGMA query_only=1")
        return connection


async def test_a_database_that_cannot_be_written_is_refused_before_the_first_move(
        herald_db: Path) -> None:
    storage = _QueryOnly(str(herald_db))
    with pytest.raises(StorageOpenError, match="is read-only for Herald"):
        await storage.open()
    assert storage._db is None  # closed again


async def test_a_database_missing_herald_tables_is_refused(herald_db: Path) -> None:
    with _raw(herald_db) as raw:
        raw.execute("DROP TABLE dm_notices")
    with pytest.raises(StorageOpenError, match="lacks Herald's table.s. dm_notices.*backup"):
        await SqliteStorage(str(herald_db)).open()


async def test_rows_of_a_missing_game_are_reported_but_do_not_stop_herald(
        herald_db: Path, caplog: pytest.LogCaptureFixture) -> None:
    with _raw(herald_db) as raw:  # foreign keys are off in a plain connection
        raw.execute("INSERT INTO seats (game_id, seat, user_id, is_bot, name) "
                    "VALUES (99, 0, 1, 0, 'x')")
    storage = SqliteStorage(str(herald_db))
    with caplog.at_level(logging.WARNING, logger="herald.storage"):
        await storage.open()
    try:
        assert await storage.get_game(1) is not None
    finally:
        await storage.close()
    assert "1 row(s) that refer to missing games (in seats)" in caplog.text
