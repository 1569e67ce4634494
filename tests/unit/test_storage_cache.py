"""The SQLite storage's memory of live games: an action's statements run on the event loop with no
hand-off to the connection's thread, reads of a live game go to no database at all, and what they return is always what the file
holds (write-through: every write reaches the file before anything is remembered)."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import sqlite3
import threading
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.storage import DeadlineRow, GameRow, GuildSettings, SeatRow, SqliteStorage, VersionConflict
from bot.storage import sqlite as sqlite_backend
from tests.support.storage import opened

SEATS = [SeatRow(0, 100, False, "Ada"), SeatRow(1, None, True, "Computer 2")]


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqliteStorage]:
    async with opened(SqliteStorage(str(tmp_path / "herald.db"))) as s:
        yield s


async def _started(s: SqliteStorage) -> int:
    gid = await s.create_game(guild_id=10, channel_id=20, game_key="duel", seed=1, options={"x": 1},
                              host_id=100, deadline=None, now=1.0, seats=SEATS)
    await s.start_game(gid, seats=SEATS, state={"turn": 0, "pairs": [[1, 2]]}, opened={0: 1},
                       deadlines=[DeadlineRow(gid, 0, "bid", 100.0, 50.0, False, 1)], now=2.0)
    return gid


def _commit(gid: int, version: int, **over: Any) -> dict[str, Any]:
    args: dict[str, Any] = dict(
        expected_version=version, seat=0, action={"type": "bid", "card": version}, origin="player",
        user_id=100, state={"turn": version, "pairs": [[version, 2]], "by_seat": {"0": 1}},
        events=[{"text": "P1 has bid."}, {"text": "You bid.", "to": [0]}], status="active",
        result=None, opened={1: version + 1}, answered={0: 1},
        deadlines=[DeadlineRow(gid, 1, "bid", 200.0 + version, 150.0, False, version + 1)],
        now=3.0 + version)
    args.update(over)
    return args


async def _from_file(path: str, gid: int) -> tuple[GameRow | None, list[DeadlineRow]]:
    """The game as a storage that remembers nothing reads it from the file."""
    fresh = SqliteStorage(path)
    await fresh.open()
    try:
        return await fresh.get_game(gid), await fresh.deadlines(gid)
    finally:
        await fresh.close()


class _HandOffs:
    """Counts the calls handed to the connection's thread."""

    def __init__(self, s: SqliteStorage, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        real = s.db.on_thread

        async def counted(fn: Any, *args: Any, **kwargs: Any) -> Any:
            self.count += 1
            return await real(fn, *args, **kwargs)

        monkeypatch.setattr(s.db, "on_thread", counted)


async def test_what_is_remembered_after_each_action_is_what_the_file_holds(store: SqliteStorage) -> None:
    gid = await _started(store)
    for version in range(1, 4):
        await store.get_game(gid)  # (remembered from here on)
        assert await store.commit_action(gid, **_commit(gid, version)) == version + 1
        remembered = await store.get_game(gid), await store.deadlines(gid)
        assert remembered == await _from_file(store.path, gid)
    game = remembered[0]
    assert game is not None and game.version == 4
    assert game.state == {"turn": 3, "pairs": [[3, 2]], "by_seat": {"0": 1}}


async def test_the_last_action_forgets_the_finished_game(store: SqliteStorage) -> None:
    gid = await _started(store)
    await store.get_game(gid)
    await store.commit_action(gid, **_commit(gid, 1, status="finished", result={"winners": [0]},
                                             opened={}, deadlines=[]))
    assert gid not in store._games and gid not in store._deadlines
    assert (await store.get_game(gid), await store.deadlines(gid)) == await _from_file(store.path, gid)


async def test_an_action_runs_on_the_event_loop_and_reading_a_live_game_reads_nothing(
        store: SqliteStorage, monkeypatch: pytest.MonkeyPatch) -> None:
    gid = await _started(store)
    await store.get_game(gid), await store.deadlines(gid), await store.guild_settings(10)
    calls = _HandOffs(store, monkeypatch)
    threads: set[int] = set()
    store.db.raw.set_trace_callback(lambda _sql: threads.add(threading.get_ident()))
    await store.commit_action(gid, **_commit(gid, 1))
    assert calls.count == 0 and threads == {threading.get_ident()}  # (no hand-off to a thread)
    calls.count = 0
    for _ in range(3):
        assert (await store.get_game(gid)) is not None
        assert len(await store.deadlines(gid)) == 1
        assert (await store.guild_settings(10)).guild_id == 10
    assert calls.count == 0


async def test_every_other_write_is_seen_by_the_next_read(store: SqliteStorage) -> None:
    gid = await _started(store)
    await store.get_game(gid), await store.deadlines(gid), await store.guild_settings(10)
    await store.update_game(gid, thread_id=77, board_message_id=88)
    await store.set_seats(gid, [*SEATS[:1], SeatRow(1, 200, False, "Bea")])
    await store.mark_reminded(gid, 0, "bid")
    game = await store.get_game(gid)
    assert game is not None and (game.thread_id, game.board_message_id) == (77, 88)
    assert [s.name for s in game.seats] == ["Ada", "Bea"]
    assert [d.reminded for d in await store.deadlines(gid)] == [True]
    await store.replace_deadlines(gid, [DeadlineRow(gid, 1, "bid", 500.0, None, False, 1)])
    assert [d.due_at for d in await store.deadlines(gid)] == [500.0]
    await store.clear_deadlines(gid)
    assert await store.deadlines(gid) == []
    await store.save_guild_settings(GuildSettings(10, default_deadline=600, channels=[5]))
    assert (await store.guild_settings(10)).default_deadline == 600
    assert (await store.get_game(gid), await store.deadlines(gid)) == await _from_file(store.path, gid)
    await store.update_game(gid, status="finished", updated_at=9.0)
    assert gid not in store._games
    game = await store.get_game(gid)
    assert game is not None and game.status == "finished"


async def test_changing_what_a_read_returned_changes_nothing_remembered(store: SqliteStorage) -> None:
    gid = await _started(store)
    game = await store.get_game(gid)
    assert game is not None
    game.seats.append(SeatRow(2, 300, False, "Cy"))
    game.seats[0].name = "Mallory"
    game.opened[1] = 99
    game.thread_id = 5
    (await store.deadlines(gid))[0].reminded = True
    settings = await store.guild_settings(10)
    settings.channels.append(1)
    again = await store.get_game(gid)
    assert again is not None and [s.name for s in again.seats] == ["Ada", "Computer 2"]
    assert again.opened == {0: 1} and again.thread_id is None
    assert [d.reminded for d in await store.deadlines(gid)] == [False]
    assert (await store.guild_settings(10)).channels == []


async def test_a_game_another_process_moved_is_read_again_after_the_lost_race(
        store: SqliteStorage) -> None:
    gid = await _started(store)
    await store.get_game(gid)
    with sqlite3.connect(store.path) as other:  # another Herald on the same file commits first
        other.execute("UPDATE games SET version=2, state='{\"turn\":\"theirs\"}' WHERE id=?", (gid,))
    with pytest.raises(VersionConflict):
        await store.commit_action(gid, **_commit(gid, 1))
    game = await store.get_game(gid)
    assert game is not None and (game.version, game.state) == (2, {"turn": "theirs"})
    assert await store.commit_action(gid, **_commit(gid, 2)) == 3


async def test_a_failed_action_leaves_nothing_remembered_that_the_file_lacks(
        store: SqliteStorage) -> None:
    gid = await _started(store)
    await store.get_game(gid), await store.deadlines(gid)
    twice = [DeadlineRow(gid, 1, "bid", 200.0, None, False), DeadlineRow(gid, 1, "bid", 300.0, None, False)]
    with pytest.raises(sqlite3.IntegrityError):
        await store.commit_action(gid, **_commit(gid, 1, deadlines=twice))
    assert (await store.get_game(gid), await store.deadlines(gid)) == await _from_file(store.path, gid)
    game = await store.get_game(gid)
    assert game is not None and game.version == 1


async def test_forget_shows_a_write_made_behind_the_storage(store: SqliteStorage) -> None:
    gid = await _started(store)
    await store.get_game(gid)
    store.db.raw.execute("UPDATE games SET state='{\"edited\":true}' WHERE id=?", (gid,))
    store.forget(gid)
    game = await store.get_game(gid)
    assert game is not None and game.state == {"edited": True}


async def test_only_so_many_games_are_remembered(
        store: SqliteStorage, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sqlite_backend, "CACHED_GAMES", 3)
    games = [await _started(store) for _ in range(5)]
    for gid in games:
        await store.get_game(gid), await store.deadlines(gid)
    assert list(store._games) == games[2:] and set(store._deadlines) <= set(games[2:])
    for gid in games:
        game = await store.get_game(gid)
        assert game is not None and dataclasses.replace(game) == (await _from_file(store.path, gid))[0]


async def test_unchanged_deadlines_are_not_written_again(store: SqliteStorage) -> None:
    gid = await _started(store)
    await store.get_game(gid)
    kept = [DeadlineRow(gid, 1, "bid", 200.0, 150.0, False, 2)]
    await store.commit_action(gid, **_commit(gid, 1, deadlines=kept))
    statements: list[str] = []
    store.db.raw.set_trace_callback(statements.append)
    # (a computer player's move while the member's clock runs on: the same deadline)
    await store.commit_action(gid, **_commit(gid, 2, deadlines=[dataclasses.replace(kept[0])]))
    store.db.raw.set_trace_callback(None)
    assert statements and not any("deadlines" in s for s in statements)
    assert (await store.get_game(gid), await store.deadlines(gid)) == await _from_file(store.path, gid)
    moved = [DeadlineRow(gid, 1, "bid", 400.0, 350.0, False, 4)]
    await store.commit_action(gid, **_commit(gid, 3, deadlines=moved))  # a new one is written
    assert (await _from_file(store.path, gid))[1] == moved


async def test_a_lock_held_by_another_process_is_waited_for_off_the_event_loop(tmp_path: Path) -> None:
    async with opened(SqliteStorage(str(tmp_path / "herald.db"))) as s:
        gid = await _started(s)
        other = sqlite3.connect(s.path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")  # another process's write lock, released 0.3 s later
        loop = asyncio.get_running_loop()
        loop.call_later(0.3, other.execute, "COMMIT")
        ticks = 0

        async def tick() -> None:
            nonlocal ticks
            while True:
                await asyncio.sleep(0.01)
                ticks += 1

        ticker = asyncio.create_task(tick())
        try:
            assert await s.commit_action(gid, **_commit(gid, 1)) == 2
        finally:
            ticker.cancel()
            other.close()
        assert ticks >= 10  # the loop ran on while the move waited for the lock
        assert (await _from_file(s.path, gid))[0].version == 2  # type: ignore[union-attr]


async def test_the_write_ahead_log_is_copied_back_in_the_background(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sqlite_backend, "CHECKPOINT_ROWS", 5)
    async with opened(SqliteStorage(str(tmp_path / "herald.db"))) as s:
        (auto,) = s.db.raw.execute("PRAGMA wal_autocheckpoint").fetchone()
        assert auto == 0  # (no commit on the event loop waits for a checkpoint)
        gid = await _started(s)
        checkpoints = s._checkpoints
        assert checkpoints is not None
        before = checkpoints.done
        await s.commit_action(gid, **_commit(gid, 1))  # (rows: the action, two events, the game…)
        for _ in range(200):
            if checkpoints.done > before:
                break
            await asyncio.sleep(0.01)
        # the database file itself (its log ignored) now holds the move
        with contextlib.closing(sqlite3.connect(f"file:{s.path}?immutable=1", uri=True)) as file:
            assert file.execute("SELECT version FROM games WHERE id=?", (gid,)).fetchone() == (2,)


async def test_moves_back_to_back_never_letting_the_loop_copy_still_keep_the_log_bounded(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sqlite_backend, "CHECKPOINT_ROWS", 20)
    monkeypatch.setattr(sqlite_backend, "STARVED_ROWS", 80)
    async with opened(SqliteStorage(str(tmp_path / "herald.db"))) as s:
        gid = await _started(s)
        await s.get_game(gid)
        big = {"turn": 0, "pad": "x" * 6000}  # (a few pages of log per move)
        sizes = []
        for version in range(1, 201):  # (nothing here ever waits: the background copy never runs)
            await s.commit_action(gid, **_commit(gid, version, state={**big, "turn": version}))
            sizes.append((Path(s.path + "-wal")).stat().st_size)
        checkpoints = s._checkpoints
        assert checkpoints is not None and checkpoints.done >= 5
        # the log starts over after each copy made by the writer: it never holds every move
        # (about 45 KB of log each here, 9 MB for all of them)
        assert max(sizes) < 2 * 2**20, max(sizes)


async def test_a_move_sets_only_what_changes_and_last_activity_to_the_minute(store: SqliteStorage) -> None:
    gid = await _started(store)
    await store.get_game(gid)
    statements: list[str] = []
    store.db.raw.set_trace_callback(statements.append)

    def update() -> str:  # (what the last move's update set)
        return next(s for s in reversed(statements) if s.startswith("UPDATE games")).split(" WHERE ")[0]

    await store.commit_action(gid, **_commit(gid, 1, now=100.0))  # (started at 2.0: stamped)
    assert "updated_at" in update() and "status" not in update()
    await store.commit_action(gid, **_commit(gid, 2, now=130.0))  # within the minute: kept
    assert "updated_at" not in update() and "status" not in update()
    assert (await store.get_game(gid)).updated_at == 100.0  # type: ignore[union-attr]
    await store.commit_action(gid, **_commit(gid, 3, now=161.0))  # past it: stamped again
    assert "updated_at" in update()
    await store.commit_action(gid, **_commit(gid, 4, now=162.0, status="finished",
                                             result={"winners": [0]}, opened={}, deadlines=[]))
    assert "status" in update() and "updated_at" in update()  # (the end is stamped exactly)
    store.db.raw.set_trace_callback(None)
    game, _ = await _from_file(store.path, gid)
    assert game is not None and (game.status, game.updated_at) == ("finished", 162.0)


async def test_a_game_numbered_otherwise_by_an_older_herald_still_takes_the_next_number(
        store: SqliteStorage) -> None:
    gid = await _started(store)
    with sqlite3.connect(store.path) as older:  # (its last action holds the number due next)
        older.execute("INSERT INTO actions (game_id, n, seat, action, origin, user_id, created_at) "
                      "VALUES (?, 1, 0, '{}', 'player', 100, 0)", (gid,))
    store.forget(gid)
    await store.commit_action(gid, **_commit(gid, 1))
    with sqlite3.connect(store.path) as file:
        assert [n for (n,) in file.execute("SELECT n FROM actions WHERE game_id=? ORDER BY n",
                                           (gid,))] == [1, 2]
    assert len(await store.actions(gid)) == 2


def _event_numbers(path: str, gid: int) -> list[tuple[int, str]]:
    with sqlite3.connect(path) as file:
        return file.execute("SELECT n, text FROM events WHERE game_id=? ORDER BY n", (gid,)).fetchall()


async def test_events_are_numbered_on_from_memory_and_after_an_undo_from_the_file(
        store: SqliteStorage) -> None:
    gid = await _started(store)
    statements: list[str] = []
    store.db.raw.set_trace_callback(statements.append)
    for version in (1, 2, 3):
        await store.commit_action(gid, **_commit(gid, version))
    reads = [s for s in statements if "MAX(n)" in s]
    assert len(reads) == 1  # (the first move after opening reads the last number; then memory)
    assert [n for n, _ in _event_numbers(store.path, gid)] == [1, 2, 3, 4, 5, 6]
    await store.undo_actions(gid, expected_version=4, keep=1, state={"turn": 1}, opened={0: 5},
                             events=[{"text": "Undone.", "kind": "undo"}], answered={},
                             deadlines=[], now=10.0)
    await store.commit_action(gid, **_commit(gid, 5, events=[{"text": "again"}]))
    store.db.raw.set_trace_callback(None)
    numbers = _event_numbers(store.path, gid)
    assert numbers == [(1, "P1 has bid."), (2, "You bid."), (3, "Undone."), (4, "again")]


async def test_an_event_number_taken_behind_the_storage_is_skipped_not_refused(
        store: SqliteStorage) -> None:
    gid = await _started(store)
    await store.commit_action(gid, **_commit(gid, 1))
    with sqlite3.connect(store.path) as other:  # (written without telling the storage)
        other.execute("INSERT INTO events (game_id, n, version, text, kind, created_at) "
                      "VALUES (?, 3, 2, 'elsewhere', 'log', 0)", (gid,))
    await store.commit_action(gid, **_commit(gid, 2))
    assert [text for _, text in _event_numbers(store.path, gid)] == [
        "P1 has bid.", "You bid.", "elsewhere", "P1 has bid.", "You bid."]


async def test_a_refused_move_leaves_no_event_number_behind(store: SqliteStorage) -> None:
    gid = await _started(store)
    await store.commit_action(gid, **_commit(gid, 1))
    with pytest.raises(VersionConflict):
        await store.commit_action(gid, **_commit(gid, 7))
    with pytest.raises(sqlite3.IntegrityError):  # (a bug failing midway: an event with no text)
        await store.commit_action(gid, **_commit(gid, 2, events=[{"text": None}]))
    await store.commit_action(gid, **_commit(gid, 2))
    assert [n for n, _ in _event_numbers(store.path, gid)] == [1, 2, 3, 4]


async def test_a_move_writes_as_many_pages_of_log_as_a_plain_update_and_insert(
        tmp_path: Path) -> None:
    """The game's row, the action and the event: one page each (the action and event tables are
    kept in key order, so no separate index page is written for them)."""
    async with opened(SqliteStorage(str(tmp_path / "herald.db"))) as s:
        gid = await _started(s)
        await s.get_game(gid)  # (as a session reads a game before its first move)
        clock = [DeadlineRow(gid, 1, "bid", 300.0, 250.0, False, 2)]  # (running on unchanged)
        await s.commit_action(gid, **_commit(gid, 1, events=[{"text": "P1 has bid."}],
                                             deadlines=clock))
        s._checkpoints = None  # (nothing copies the log back meanwhile)
        s.db.raw.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
        for version in range(2, 22):
            await s.commit_action(gid, **_commit(gid, version, events=[{"text": "P1 has bid."}],
                                                 deadlines=clock))
        frames = (Path(s.path + "-wal").stat().st_size - 32) // (4096 + 24)
    assert frames == 20 * 3
