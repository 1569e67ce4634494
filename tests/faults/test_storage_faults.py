"""Storage faults met in service, each real where it can be: a write lock held by another process,
a full disk (a file-size limit, a tiny file system), a read-only connection, a page damaged under a
running Herald — and, injected at the driver, a COMMIT that fails after or before its data landed.

Each checks what the caller (and the player) is told against what is stored: a move reported as
not saved is not stored, a move stored is never reported as lost, and the error says what went
wrong ("busy", "full"), never a rollback error that hides it. Last, debug logs hold no hand.
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
import random
import resource
import signal
import sqlite3
import subprocess
import sys
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.logs import NEVER_DEBUG, setup_logging
from bot.refusals import sentence_for
from bot.session import Sessions
from bot.storage import (
    SeatRow,
    SqliteStorage,
    Storage,
    StorageBusy,
    StorageCorrupt,
    StorageError,
    StorageFull,
    StorageReadOnly,
    StorageUnavailable,
    VersionConflict,
)
from rules import registry
from tests.support.sessions import CONFIG, Clock, Recorder

ROOT = Path(__file__).resolve().parents[2]
HOST, GUEST = 1001, 1002
CHILD_TIMEOUT = 30.0


@contextlib.asynccontextmanager
async def _sessions(path: Path, **kwargs: Any) -> AsyncIterator[Sessions]:
    storage = SqliteStorage(str(path), **kwargs)
    await storage.open()
    try:
        yield Sessions(storage, CONFIG, Recorder(), now=Clock())
    finally:
        await storage.close()


async def _duel(sessions: Sessions) -> int:
    table = await sessions.open_table(guild_id=5, channel_id=6, host_id=HOST, host_name="Ada",
                                      game_key="duel", seed=11)
    await sessions.join(table.id, GUEST, "Bo")
    await sessions.start(table.id, HOST)
    return table.id


async def _bid(sessions: Sessions, gid: int, seat: int) -> dict[str, Any]:
    hand = (await sessions.snapshot(gid)).view(seat)["private"]["hand"]
    return {"type": "bid", "card": hand[0]}


def _sqlite(sessions: Sessions) -> SqliteStorage:
    assert isinstance(sessions.storage, SqliteStorage)
    return sessions.storage


async def _stored(storage: Storage, gid: int) -> tuple[Any, ...]:
    """Everything a move writes: version, state, the action log, the events, the deadlines."""
    game = await storage.get_game(gid)
    assert game is not None
    events = await storage.events(gid, viewer_seat=None, limit=1000)
    deadlines = await storage.deadlines(gid)
    return (game.version, game.state, game.opened, game.answered, await storage.actions(gid),
            [(e.n, e.version, e.text) for e in events], deadlines)


# ------------------------------------------------------------------ locked by another process

@contextlib.contextmanager
def _locked_by_another_process(db: Path) -> Iterator[subprocess.Popen[str]]:
    child = subprocess.Popen([sys.executable, "-m", "tests.faults.storage_child", "lock", str(db)],
                             cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == "locked"
        yield child
    finally:
        if child.poll() is None:
            child.kill()
        child.wait(CHILD_TIMEOUT)


async def test_a_move_meets_a_lock_held_by_another_process_as_busy_and_succeeds_after(
        tmp_path: Path) -> None:
    db = tmp_path / "herald.db"
    async with _sessions(db, busy_timeout=0.3) as sessions:
        gid = await _duel(sessions)
        action = await _bid(sessions, gid, 0)
        before = await _stored(sessions.storage, gid)
        with _locked_by_another_process(db) as child:
            with pytest.raises(StorageBusy) as refused:
                await sessions.act(gid, 0, action, user_id=HOST)
            assert await _stored(sessions.storage, gid) == before  # nothing half-written
            assert refused.value.stored is False
            assert isinstance(refused.value, sessions.storage.transient_errors)
            assert sentence_for(refused.value) == (
                "The game's database is busy right now, so that was not saved — please try again "
                "in a moment.")
            assert child.stdin is not None
            child.stdin.write("done\n")
            child.stdin.flush()
            assert child.wait(CHILD_TIMEOUT) == 0
        update = await sessions.act(gid, 0, action, user_id=HOST)  # the very same move, now stored
        assert update.actions == [(0, action, "player")]
        assert (await _stored(sessions.storage, gid))[0] == before[0] + 1


# ------------------------------------------------------------------------------ a full disk

def _under_file_size_limit(limit: int) -> Any:
    def apply() -> None:  # pragma: no cover - runs in the child, between fork and exec
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return apply


@contextlib.contextmanager
def _tiny_file_system(folder: Path, size: str) -> Iterator[Path]:
    folder.mkdir()
    try:
        subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)],
                       check=True, capture_output=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        pytest.skip("no right to mount a small file system here (the file-size limit case runs)")
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=True, capture_output=True, timeout=10)


async def _one_running_game(db: Path) -> int:
    storage = SqliteStorage(str(db))
    await storage.open()
    try:
        gid = await storage.create_game(guild_id=1, channel_id=2, game_key="duel", seed=3,
                                        options={}, host_id=10, deadline=None, now=0.0)
        seats = [SeatRow(0, 10, False, "Ada"), SeatRow(1, 20, False, "Bo")]
        await storage.set_seats(gid, seats)
        await storage.start_game(gid, seats=seats, state={"move": -1}, opened={0: 1},
                                 deadlines=[], now=0.0)
        return int(gid)
    finally:
        await storage.close()


@pytest.mark.parametrize("fault", ["file-size limit", "full file system"])
async def test_a_full_disk_is_reported_as_full_and_what_was_acknowledged_is_what_is_stored(
        tmp_path: Path, fault: str) -> None:
    with contextlib.ExitStack() as stack:
        if fault == "full file system":
            folder = stack.enter_context(_tiny_file_system(tmp_path / "tiny", "1m"))
        else:
            folder = tmp_path
        db = folder / "herald.db"
        gid = await _one_running_game(db)
        limit = None if fault == "full file system" else _under_file_size_limit(
            db.stat().st_size + 200_000)
        done = subprocess.run([sys.executable, "-m", "tests.faults.storage_child", "fill", str(db)],
                              cwd=ROOT, capture_output=True, text=True, timeout=CHILD_TIMEOUT,
                              preexec_fn=limit, check=False)
        assert done.returncode == 0, done.stderr
        told = json.loads(done.stdout.strip().splitlines()[-1])
        assert told["error"] == "StorageFull", told
        assert "full" in told["message"] and "rollback" not in told["message"], told
        assert told["stored"] is False and told["transient"] is True
        assert told["sentence"] == (
            "The server could not write to the game's database (its disk is full or failing), so "
            "that was not saved; the server's admin has been told in the log.")
        assert told["acknowledged"] > 3  # some moves fitted before the disk was full
        assert told["read_back"] == told["acknowledged"]
        # what a restarted Herald finds: exactly the acknowledged moves, nothing of the refused one
        storage = SqliteStorage(str(db))
        await storage.open()
        try:
            game = await storage.get_game(gid)
            assert game is not None and game.version == told["acknowledged"]
            assert game.state is not None and game.state["move"] == told["acknowledged"] - 2
            assert len(await storage.actions(gid)) == told["acknowledged"] - 1
            events = await storage.events(gid, viewer_seat=None, limit=100_000)
            assert max(e.version for e in events) == told["acknowledged"]
        finally:
            await storage.close()


# ---------------------------------------------- a COMMIT that fails (injected at the driver)

def _failing_commit(storage: SqliteStorage, *, lands: bool, error: str) -> None:
    """COMMIT runs (``lands``) or is rolled back, then the driver reports ``error`` all the same."""
    def commit(conn: sqlite3.Connection | sqlite3.Cursor) -> None:
        conn.execute("COMMIT" if lands else "ROLLBACK")
        raise sqlite3.OperationalError(error)

    storage._commit = commit  # type: ignore[method-assign]


async def test_a_move_stored_although_commit_reported_an_error_is_not_reported_as_lost(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    async with _sessions(tmp_path / "herald.db") as sessions:
        gid = await _duel(sessions)
        before = await _stored(sessions.storage, gid)
        action = await _bid(sessions, gid, 0)
        _failing_commit(_sqlite(sessions), lands=True, error="disk I/O error")
        with caplog.at_level(logging.WARNING, logger="herald.storage"):
            update = await sessions.act(gid, 0, action, user_id=HOST)
        assert update.actions == [(0, action, "player")]
        after = await _stored(sessions.storage, gid)
        assert after[0] == before[0] + 1 and after[4][-1] == (0, action, "player")
    assert caplog.messages == ["commit_action: COMMIT reported an error (OperationalError: disk "
                               "I/O error), but the change is stored"]


async def test_a_commit_that_failed_is_reported_full_not_as_a_failed_rollback(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    async with _sessions(tmp_path / "herald.db") as sessions:
        gid = await _duel(sessions)
        before = await _stored(sessions.storage, gid)
        action = await _bid(sessions, gid, 0)
        _failing_commit(_sqlite(sessions), lands=False, error="database or disk is full")
        with caplog.at_level(logging.WARNING, logger="herald.storage"), \
                pytest.raises(StorageFull) as refused:
            await sessions.act(gid, 0, action, user_id=HOST)
        assert refused.value.stored is False
        assert isinstance(refused.value.__cause__, sqlite3.OperationalError)  # the cause is kept
        assert "not saved" in (sentence_for(refused.value) or "")
        assert await _stored(sessions.storage, gid) == before
    assert [r.getMessage() for r in caplog.records] == [
        f"commit_action failed: could not write to the database {tmp_path / 'herald.db'}: the "
        "disk, a quota or a file-size limit is full, or the disk is failing (OperationalError: "
        "database or disk is full)."]  # the real cause, logged once


async def test_a_commit_whose_outcome_cannot_be_checked_says_so(tmp_path: Path) -> None:
    async with _sessions(tmp_path / "herald.db") as sessions:
        gid = await _duel(sessions)
        action = await _bid(sessions, gid, 0)
        _failing_commit(_sqlite(sessions), lands=False, error="disk I/O error")
        connection = _sqlite(sessions).db
        real_on_thread = connection.on_thread

        class Failing:  # the connection as the check after COMMIT finds it: failing too
            def execute(self, sql: str, params: Any = ()) -> Any:
                assert sql.startswith("SELECT g.version, a.seat"), sql
                raise sqlite3.OperationalError("disk I/O error")

        async def on_thread(fn: Callable[[Any], Any]) -> Any:  # (the check's, once)
            connection.on_thread = real_on_thread  # type: ignore[method-assign]
            return fn(Failing())

        connection.on_thread = on_thread  # type: ignore[method-assign]
        with pytest.raises(StorageFull) as refused:
            await sessions.act(gid, 0, action, user_id=HOST)
        assert refused.value.stored is None
        assert "may or may not be stored" in str(refused.value)
        assert sentence_for(refused.value) == (
            "The server could not write to the game's database (its disk is full or failing), and "
            "I could not check whether that was saved: please look at the board before trying "
            "again.")


# ----------------------------------------------------------------------- read-only, damaged

async def test_a_read_only_database_refuses_a_move_with_its_sentence(tmp_path: Path) -> None:
    async with _sessions(tmp_path / "herald.db") as sessions:
        gid = await _duel(sessions)
        before = await _stored(sessions.storage, gid)
        action = await _bid(sessions, gid, 0)
        _sqlite(sessions).db.raw.execute("PRAGMA query_only=1")
        with pytest.raises(StorageReadOnly) as refused:
            await sessions.act(gid, 0, action, user_id=HOST)
        assert isinstance(refused.value, sessions.storage.transient_errors)
        assert sentence_for(refused.value) == (
            "The game's database has become read-only, so that was not saved; the server's admin "
            "has been told in the log.")
        assert await _stored(sessions.storage, gid) == before
        _sqlite(sessions).db.raw.execute("PRAGMA query_only=0")
        await sessions.act(gid, 0, action, user_id=HOST)
        assert (await _stored(sessions.storage, gid))[0] == before[0] + 1


async def test_a_page_damaged_under_a_running_herald_is_reported_damaged_and_not_retried(
        tmp_path: Path) -> None:
    db = tmp_path / "herald.db"
    async with _sessions(db) as sessions:
        storage = _sqlite(sessions)
        gid = await _duel(sessions)
        for i in range(30):  # a long action log: pages of its own in the file
            game = await sessions.get(gid)
            await storage.commit_action(
                gid, expected_version=game.version, seat=0, action={"note": "n" * 2000},
                origin="player", user_id=None, state=game.state or {}, events=[],
                status="active", result=None, opened=game.opened, answered=game.answered,
                deadlines=[], now=float(i))
        # another process writes (so Herald reads the file again rather than its cache) and moves
        # everything into the file itself; then the first page of the action log goes bad
        raw = sqlite3.connect(db, isolation_level=None)
        try:
            raw.execute("INSERT INTO dm_status (user_id, reachable, checked_at) VALUES (1, 1, 0)")
            raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            page = raw.execute(
                "SELECT rootpage FROM sqlite_master WHERE name='actions'").fetchone()[0]
        finally:
            raw.close()
        with db.open("r+b") as f:
            f.seek((page - 1) * 4096)
            f.write(random.Random(3).randbytes(4096))
        with pytest.raises(StorageCorrupt) as refused:
            await storage.actions(gid)
        assert not isinstance(refused.value, storage.transient_errors)
        assert "copy your latest backup over the file" in str(refused.value)
        assert sentence_for(refused.value) == (
            "The game's database is damaged, so that was not saved; the server's admin has been "
            "told in the log and must restore a backup.")


# --------------------------------------------------------------------- what a player reads

ADMIN_ONLY = "the database /srv/herald.db: SQLITE_IOERR_WRITE"


@pytest.mark.parametrize("kind", [StorageBusy, StorageFull, StorageReadOnly, StorageCorrupt,
                                  StorageUnavailable, StorageError])
def test_every_storage_failure_has_one_truthful_sentence(kind: type[StorageError]) -> None:
    error = kind(ADMIN_ONLY)
    told = sentence_for(error)
    assert told is not None and told.endswith(".") and "/srv" not in told and "SQLITE" not in told
    assert "not saved" in told and "nothing was changed" not in told
    error.stored = None
    unsure = sentence_for(error)
    assert unsure is not None and "not saved" not in unsure and "could not check" in unsure


def test_a_lost_race_keeps_its_sentence_and_transient_failures_are_retried() -> None:
    assert "at the same moment" in (sentence_for(VersionConflict("game 1 moved")) or "")
    transient = SqliteStorage.transient_errors
    assert all(isinstance(e, transient) for e in (StorageBusy(), StorageFull(), StorageReadOnly()))
    assert not isinstance(StorageCorrupt(), transient)
    assert not isinstance(VersionConflict(), transient)


# ------------------------------------------------------------------- no hand in any log line

@contextlib.contextmanager
def _captured_logging(level: str) -> Iterator[io.StringIO]:
    """``setup_logging(level)`` writing into a buffer; the logging set-up is restored after."""
    root = logging.getLogger()
    saved = (root.handlers[:], root.level,
             {name: logging.getLogger(name).level for name in (*NEVER_DEBUG, "discord.client")},
             logging.getLogger("discord.client").filters[:])
    buffer = io.StringIO()
    real_stdout = sys.stdout
    sys.stdout = buffer
    try:
        setup_logging(level)
    finally:
        sys.stdout = real_stdout
    try:
        yield buffer
    finally:
        root.handlers[:], root.level = saved[0], saved[1]
        for name, lvl in saved[2].items():
            logging.getLogger(name).setLevel(lvl)
        logging.getLogger("discord.client").filters[:] = saved[3]


async def test_debug_logs_hold_no_hand_and_no_state(tmp_path: Path) -> None:
    """Cult Wars (hands of unique cards) at HERALD_LOG_LEVEL=DEBUG: a player and two computer
    players play; no card of any hand at any point, and no stored state, is in the log."""
    engine = registry.get("cult_wars")
    with _captured_logging("DEBUG") as log:
        assert logging.getLogger().level == logging.DEBUG
        async with _sessions(tmp_path / "herald.db") as sessions:
            table = await sessions.open_table(guild_id=5, channel_id=6, host_id=HOST,
                                              host_name="Ada", game_key="cult_wars", bots=2, seed=4)
            await sessions.start(table.id, HOST)
            for turn in range(4):
                snap = await sessions.snapshot(table.id)
                mine = snap.prompt_of(0)
                if mine is None:
                    break
                action = engine.bot_action(snap.view(0), mine.prompt, random.Random(turn))
                await sessions.act(table.id, 0, action, user_id=HOST, answers=mine.ticket)
            game = await sessions.get(table.id)
            actions = await sessions.storage.actions(table.id)
    text = log.getvalue()
    assert "action applied seat=0" in text  # the capture works, and moves were made
    assert len(actions) > 4
    state = engine.setup(len(game.seats), game.seed, game.options)
    markers: set[str] = set()
    for seat, action, _ in actions:
        markers |= {m for k in range(len(game.seats)) for m in engine.secret_markers(state, k)}
        state, _events = engine.apply(state, seat, action)
    assert markers
    leaked = sorted(m for m in markers if m in text)
    assert not leaked, leaked[:5]
    assert game.state is not None and json.dumps(game.state, sort_keys=True,
                                                 separators=(",", ":"))[:40] not in text
    assert '"hand"' not in text and "UPDATE games" not in text
