"""The command-line tools' output folders (one helper for ``replay --render`` and ``simulate``):
a previous output of the same tool is emptied, anything else in the folder stops the run with
nothing deleted, a file in the folder's place is refused; each tool says so in its own words."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot import replay, simulate
from bot.cli import missing_database, started_game
from bot.errors import TableError
from bot.storage import SqliteStorage


def test_a_previous_replay_is_emptied_and_a_new_folder_made(tmp_path: Path) -> None:
    out = tmp_path / "replay"
    replay.prepare_out(out)
    assert out.is_dir() and not list(out.iterdir())
    (out / "board_0001.png").write_bytes(b"x")
    (out / "replay.gif").write_bytes(b"x")
    replay.prepare_out(out)
    assert not list(out.iterdir())


def test_a_foreign_file_stops_the_replay_and_nothing_is_deleted(tmp_path: Path) -> None:
    (tmp_path / "board_0001.png").write_bytes(b"x")
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(replay.ReplayError) as err:
        replay.prepare_out(tmp_path)
    assert str(err.value) == (f"the folder {tmp_path} holds files a replay does not write (such as "
                              "notes.txt); give a new or empty folder.")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["board_0001.png", "notes.txt"]


def test_each_tool_refuses_a_file_in_its_own_words(tmp_path: Path) -> None:
    target = tmp_path / "out"
    target.write_text("a file")
    with pytest.raises(replay.ReplayError) as r:
        replay.prepare_out(target)
    assert str(r.value) == f"{target} is a file, not a folder; give a new or empty folder."
    with pytest.raises(simulate.SimulateError) as s:
        simulate.prepare_out(target)
    assert str(s.value) == f"the output {target} is a file, not a folder; give a new or empty folder."
    (tmp_path / "sim").mkdir()
    (tmp_path / "sim" / "board_0002.png").write_bytes(b"x")
    (tmp_path / "sim" / "keep.md").write_text("mine")
    with pytest.raises(simulate.SimulateError) as s:
        simulate.prepare_out(tmp_path / "sim")
    assert str(s.value) == (f"the output folder {tmp_path / 'sim'} holds files simulate did not write "
                            "(such as keep.md); give a new or empty folder.")


def test_a_missing_or_empty_database_is_reported_not_created(tmp_path: Path) -> None:
    db = tmp_path / "herald.db"
    assert missing_database(str(db)) == (f"error: there is no Herald database at {db} (set HERALD_DB "
                                         "to the bot's database file); nothing was created.")
    db.write_bytes(b"")
    assert missing_database(str(db)) is not None
    assert missing_database("postgresql://herald@127.0.0.1:1/none") is None
    assert not db.read_bytes()


def test_reading_a_game_refuses_an_unknown_or_unstarted_one(tmp_path: Path) -> None:
    db = str(tmp_path / "herald.db")

    async def main() -> list[str]:
        storage = SqliteStorage(db)
        await storage.open()
        gid = await storage.create_game(guild_id=1, channel_id=2, game_key="duel", seed=1, options={},
                                        host_id=3, deadline=None, now=1.0, seats=[])
        await storage.close()
        said = []
        for game_id in (gid + 1, gid):
            with pytest.raises(TableError) as err:
                async with started_game(db, game_id):
                    pass
            said.append(str(err.value))
        return said

    assert asyncio.run(main()) == [f"there is no game #2 in {db}.",
                                   "game #1 has not started yet: there is nothing to replay."]
