"""Taking back actions in storage, on both backends (SQLite, and PostgreSQL where its server
binaries are present): the actions after the kept ones and their events go in one transaction with
the rebuilt state, the version only ever goes up, earlier undo notices stay, and a stale version
changes nothing."""

from __future__ import annotations

from typing import Any

import pytest

from bot.storage import DeadlineRow, Storage, VersionConflict
from tests.support.storage import started_duel


async def _started(s: Storage) -> int:
    return await started_duel(s, {"step": 0}, [DeadlineRow(0, 0, "bid", 1000.0, 900.0, False, 1)])


async def _act(s: Storage, gid: int, version: int, seat: int, *, private: bool = False) -> int:
    events: list[dict[str, Any]] = [{"text": f"P{seat + 1} moves ({version})."}]
    if private:
        events.append({"text": f"You move ({version}).", "to": [seat]})
    return await s.commit_action(
        gid, expected_version=version, seat=seat, action={"type": "move", "n": version},
        origin="player", user_id=100 * (seat + 1), state={"step": version}, events=events,
        status="active", result=None, opened={seat: version + 1}, answered={seat: version},
        deadlines=[DeadlineRow(gid, seat, "move", 2000.0 + version, None, False, version + 1)],
        now=3.0 + version)


async def _undo(s: Storage, gid: int, version: int, keep: int, text: str) -> int:
    return await s.undo_actions(
        gid, expected_version=version, keep=keep, state={"step": -keep},
        events=[{"text": text, "kind": "undo"}], opened={0: version + 1}, answered={},
        deadlines=[DeadlineRow(gid, 0, "move", 5000.0, 4000.0, False, version + 1)], now=50.0)


async def _texts(s: Storage, gid: int, seat: int | None) -> list[str]:
    return [e.text for e in await s.events(gid, viewer_seat=seat, limit=100)]


async def test_an_undo_removes_the_last_actions_and_their_events_in_one_step(store: Storage) -> None:
    gid = await _started(store)
    assert await _act(store, gid, 1, 0, private=True) == 2
    assert await _act(store, gid, 2, 0, private=True) == 3
    assert await _undo(store, gid, 3, 1, "P1 took back a move.") == 4
    game = await store.get_game(gid)
    assert game is not None
    assert (game.version, game.state, game.opened, game.answered) == (4, {"step": -1}, {0: 4}, {})
    assert await store.actions(gid) == [(0, {"type": "move", "n": 1}, "player")]
    assert await _texts(store, gid, 0) == ["P1 moves (1).", "You move (1).", "P1 took back a move."]
    assert [(d.seat, d.due_at, d.opened) for d in await store.deadlines(gid)] == [(0, 5000.0, 4)]

    # the next action pairs with the version it makes: a second undo removes exactly its events
    assert await _act(store, gid, 4, 0, private=True) == 5
    assert await _undo(store, gid, 5, 1, "P1 took back another move.") == 6
    assert await store.actions(gid) == [(0, {"type": "move", "n": 1}, "player")]
    assert await _texts(store, gid, 0) == ["P1 moves (1).", "You move (1).", "P1 took back a move.",
                                           "P1 took back another move."]
    # taking back everything keeps only the undo notices
    assert await _undo(store, gid, 6, 0, "P1 took back the first move.") == 7
    assert await store.actions(gid) == []
    assert await _texts(store, gid, None) == ["P1 took back a move.", "P1 took back another move.",
                                              "P1 took back the first move."]


async def test_an_undo_from_a_stale_version_changes_nothing(store: Storage) -> None:
    gid = await _started(store)
    await _act(store, gid, 1, 0)
    await _act(store, gid, 2, 1)
    with pytest.raises(VersionConflict):
        await _undo(store, gid, 2, 1, "P1 took back a move.")
    game = await store.get_game(gid)
    assert game is not None and game.version == 3 and game.state == {"step": 2}
    assert len(await store.actions(gid)) == 2
    assert await _texts(store, gid, None) == ["P1 moves (1).", "P2 moves (2)."]
    await store.update_game(gid, status="finished")
    with pytest.raises(VersionConflict):  # a game over takes nothing back
        await _undo(store, gid, 3, 1, "P2 took back a move.")


async def test_actions_after_an_undo_keep_their_events_when_a_later_one_is_taken_back(
        store: Storage) -> None:
    """An action's number is the version it made less one, also after an undo: taking back the
    last of two later actions leaves the first one's events, never an older version's guess."""
    gid = await _started(store)
    await _act(store, gid, 1, 0)
    await _undo(store, gid, 2, 0, "P1 took back a move.")
    assert await _act(store, gid, 3, 0) == 4
    assert await _act(store, gid, 4, 1) == 5
    await _undo(store, gid, 5, 1, "P2 took back a move.")
    assert await store.actions(gid) == [(0, {"type": "move", "n": 3}, "player")]
    assert await _texts(store, gid, None) == ["P1 took back a move.", "P1 moves (3).",
                                              "P2 took back a move."]


async def test_a_paused_game_takes_nothing_back(store: Storage) -> None:
    gid = await _started(store)
    await _act(store, gid, 1, 0)
    assert await store.pause_game(gid, by=100, now=10.0) is not None
    with pytest.raises(VersionConflict):
        await _undo(store, gid, 2, 0, "P1 took back a move.")
    assert len(await store.actions(gid)) == 1
    await store.resume_game(gid, now=20.0)
    assert await _undo(store, gid, 2, 0, "P1 took back a move.") == 3
