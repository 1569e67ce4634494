"""kill -9 at random moments: no acknowledged action is lost or stored twice, every game resumes
and finishes (see ``tests/faults/kill_child.py`` for the child, the ledger and the checks).

A few dozen kills here; ``HERALD_SOAK=1`` runs hundreds. The kill delays are drawn from a seed
(``HERALD_KILL_SEED`` to repeat a failing run); a failure names the seed and keeps the database
and the ledger in the test's temporary folder.
"""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

from bot.session import Sessions
from bot.storage import SqliteStorage
from tests.faults import kill_child
from tests.faults.kill_child import Checker, Intent, LedgerWriter, Player, read_ledger

SOAK = os.environ.get("HERALD_SOAK") == "1"
KILLS = 400 if SOAK else 30
SEED = int(os.environ.get("HERALD_KILL_SEED", "1066"))


def test_sigkill_at_random_moments_loses_no_acknowledged_action_and_repeats_none(
        tmp_path: Path) -> None:
    figures = kill_child.run(tmp_path, kills=KILLS, seed=SEED, progress=print)
    report = figures.summary()
    print(report)
    assert not figures.problems, "\n".join(
        [report, *figures.problems[:20], f"repeat with HERALD_KILL_SEED={SEED} (files in {tmp_path})"])
    assert (figures.lost, figures.duplicated, figures.misplaced) == (0, 0, 0), report
    assert figures.kills == KILLS and figures.killed_in_play > KILLS // 2, report
    assert figures.acked > KILLS and figures.finished == figures.games > 4, report
    # the kills hit the windows that matter: a move stored but never acknowledged (clicked again
    # after the restart and refused), and computer players cut off while answering
    assert figures.resent["answered"] > 0, report
    assert figures.left_waiting_on_computers + figures.left_computer_game > 0, report
    assert figures.resumed > 0 and figures.stalls == 0, report


async def test_the_checker_catches_lost_misplaced_and_half_written_actions(tmp_path: Path) -> None:
    """The checks themselves: a clean game passes; an acknowledgement with nothing stored, a click
    stored on a decision it did not answer, and a state that is not the log's replay are caught."""
    db, ledger = tmp_path / "herald.db", tmp_path / "ledger.jsonl"
    await kill_child._open_tables(db, 0, 1, seed=5)  # Hegemony of Faith, 2 players + 2 computers
    storage = SqliteStorage(str(db))
    await storage.open()
    writer = LedgerWriter(ledger)
    try:
        sessions = Sessions(storage, kill_child.CONFIG)
        player = Player(sessions, writer, run=0)
        gid = (await storage.list_games())[0].id
        await sessions.start(gid, (await sessions.get(gid)).host_id)

        async def play_one() -> None:
            snap = await sessions.snapshot(gid)
            users = {s.seat: s.user_id for s in snap.game.seats if not s.is_bot}
            mine = next(o for o in snap.open if o.seat in users)
            await player.answer(gid, users[mine.seat], mine, snap.game.seed, snap.game.version,
                                snap.view(mine.seat), snap.engine)

        await play_one()
        await play_one()
        checker = Checker(db, ledger)
        clean = checker.check()
        assert clean.problems == [] and clean.acked == 2 and clean.lost == 0

        # a click sent without its ticket, stored on the seat's next decision
        snap = await sessions.snapshot(gid)
        users = {s.seat: s.user_id for s in snap.game.seats if not s.is_bot}
        mine = next(o for o in snap.open if o.seat in users)
        action = snap.engine.timeout_action(snap.state, mine.prompt)
        writer.write({"t": "intent", "id": "x-1", "g": gid, "s": mine.seat, "o": mine.opened - 1,
                      "d": None, "a": action})
        update = await sessions.act(gid, mine.seat, action, user_id=users[mine.seat])
        writer.write({"t": "ack", "id": "x-1", "v": update.since + 1})
        # an acknowledgement of a move that was never stored
        writer.write({"t": "intent", "id": "x-2", "g": gid, "s": mine.seat, "o": 99, "d": None,
                      "a": action})
        writer.write({"t": "ack", "id": "x-2", "v": update.snap.game.version + 7})
        found = checker.check()
        assert found.misplaced == 1 and found.lost == 2 and found.acked == 4
        assert any("no click for that decision" in p for p in found.problems)
    finally:
        writer.close()
        await storage.close()

    # a state written without its action (or half of one) is not the replay of the log
    con = sqlite3.connect(db)
    with con:
        state = json.loads(con.execute("SELECT state FROM games WHERE id=?", (gid,)).fetchone()[0])
        state["rng"] = {"seed": 1, "position": 12345}
        con.execute("UPDATE games SET state=? WHERE id=?", (json.dumps(state), gid))
    con.close()
    assert any("stored state is not the replay's" in p for p in Checker(db, ledger).check().problems)


def test_a_ledger_line_cut_short_by_the_kill_is_not_an_acknowledgement(tmp_path: Path) -> None:
    path = tmp_path / "ledger.jsonl"
    writer = LedgerWriter(path)
    writer.write({"t": "intent", "id": "0-1", "g": 1, "s": 0, "o": 3, "d": "ab", "a": {"x": 1}})
    writer.write({"t": "ack", "id": "0-1", "v": 4}, durable=True)
    writer.write({"t": "intent", "id": "0-2", "g": 1, "s": 1, "o": 3, "d": None, "a": {"x": 2}})
    os.write(writer.fd, b'{"t": "ack", "id": "0-')
    writer.close()
    ledger = read_ledger(path)
    assert ledger.acks == {"0-1": 4} and ledger.torn == 1
    assert ledger.pending() == [Intent("0-2", 1, 1, 3, None, {"x": 2})]
    # the next child starts on a line of its own
    writer = LedgerWriter(path)
    writer.write({"t": "answered", "id": "0-2", "resent": True})
    writer.close()
    ledger = read_ledger(path)
    assert ledger.torn == 1 and ledger.pending() == [] and ledger.resent == {"answered": 1}
