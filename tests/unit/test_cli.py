"""The command line: the bot refuses to start without a token, lists its games, ``simulate`` is
deterministic (run in-process: the test game is registered only in the tests), and every mistake —
in the arguments, the configuration, the database or the output folder — is one line on stderr
and a non-zero exit, with nothing created by a command that only reads."""

from __future__ import annotations

import io
import logging
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from bot.config import Config
from bot.logs import setup_logging
from bot.simulate import simulate
from rules import registry

REPO = Path(__file__).resolve().parents[2]
TOKEN = "MTIz.fake-token-for-tests.abcdefghijklmnop"


def _run(args: list[str], cwd: Path, **extra: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env.update(PYTHONPATH=str(REPO), HERALD_DB=str(cwd / "herald.db"), **extra)
    return subprocess.run([sys.executable, "-m", "bot", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=60)


def test_the_bot_without_a_token_says_how_to_set_one_and_exits_2(tmp_path: Path) -> None:
    done = _run([], tmp_path)
    assert done.returncode == 2, done.stderr
    assert "DISCORD_TOKEN" in done.stderr
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "herald.db").exists()  # nothing created before the token check


def test_an_env_file_without_a_token_still_exits_2(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("# comment\nexport HERALD_LOG_LEVEL=ERROR\n", encoding="utf-8")
    done = _run(["run"], tmp_path)
    assert done.returncode == 2 and "DISCORD_TOKEN" in done.stderr


def test_a_token_discord_refuses_or_no_network_ends_cleanly(tmp_path: Path) -> None:
    """The real entry point starts, tries to log in and fails: a sentence, no traceback, no token.

    Offline (as in CI) the connection fails (exit 1); with a network Discord refuses the token
    (exit 2). Either way the bot never hangs and never prints the token."""
    done = _run([], tmp_path, DISCORD_TOKEN=TOKEN)
    assert done.returncode in (1, 2), done.stderr
    assert "Traceback" not in done.stderr + done.stdout
    assert TOKEN not in done.stderr + done.stdout
    assert "could not reach Discord" in done.stderr or "refused the token" in done.stderr


def test_games_lists_the_built_in_games(tmp_path: Path) -> None:
    done = _run(["games"], tmp_path)
    assert done.returncode == 0, done.stderr
    loaded = [key for key in registry.BUILTIN if key in registry.all_engines()]
    assert loaded, registry.load_errors
    for key in loaded:
        assert key in done.stdout
    assert "duel" not in done.stdout  # the test game is not built in


# ----------------------------------------------------------------------------- simulate

@pytest.fixture(scope="module")
def two_runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    import asyncio

    a, b = tmp_path_factory.mktemp("sim_a"), tmp_path_factory.mktemp("sim_b")
    for out in (a, b):
        asyncio.run(simulate("duel", 3, 42, out))
    return a, b


def test_simulate_with_the_same_seed_writes_the_same_log(two_runs: tuple[Path, Path]) -> None:
    a, b = two_runs
    assert (a / "log.txt").read_bytes() == (b / "log.txt").read_bytes()


def test_simulate_writes_board_images(two_runs: tuple[Path, Path]) -> None:
    a, b = two_runs
    boards = sorted(p.name for p in a.glob("board_*.png"))
    assert boards and boards == sorted(p.name for p in b.glob("board_*.png"))
    assert (a / boards[0]).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_simulate_reports_the_result_and_an_identical_replay(two_runs: tuple[Path, Path]) -> None:
    lines = (two_runs[0] / "log.txt").read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("High Card Duel — 3 computer players — seed 42")
    assert any(line.startswith(("RESULT: winner ", "RESULT: winners ")) for line in lines)
    assert lines[-1] == "Replay check: identical"


def test_another_seed_plays_another_game(tmp_path: Path, two_runs: tuple[Path, Path]) -> None:
    import asyncio

    asyncio.run(simulate("duel", 3, 43, tmp_path, images=False))
    assert (tmp_path / "log.txt").read_bytes() != (two_runs[0] / "log.txt").read_bytes()
    assert not list(tmp_path.glob("*.png"))


# ----------------------------------------------------------------------------- the token

@pytest.fixture
def captured_logs(monkeypatch: pytest.MonkeyPatch) -> Iterator[io.StringIO]:
    root = logging.getLogger()
    saved = (root.handlers[:], root.level)
    stream = io.StringIO()
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setattr(sys, "stdout", stream)
    setup_logging("DEBUG")
    try:
        yield stream
    finally:
        root.handlers[:], level = saved
        root.setLevel(level)


def test_the_token_never_appears_in_log_output(captured_logs: io.StringIO) -> None:
    log = logging.getLogger("herald.test")
    log.info("connecting with %s", TOKEN)
    log.warning(f"header Authorization: Bot {TOKEN}")
    log.info("game %s", "started", extra={"game_id": 7, "guild_id": 3})
    try:
        raise RuntimeError(f"login failed for {TOKEN}")
    except RuntimeError:
        log.exception("startup failed")
    out = captured_logs.getvalue()
    assert TOKEN not in out
    assert out.count("[token]") >= 3
    assert "[guild=3 game=7]" in out


def test_the_config_never_prints_the_token() -> None:
    config = Config(token=TOKEN, db_path="x.db", dev_guild=None, log_level="INFO",
                    default_deadline=60, reminder_lead=30, docs_url="")
    assert TOKEN not in repr(config) and TOKEN not in str(config)
    assert "token=set" in repr(config)


# ------------------------------------------------------------------ refusals: one line, exit ≠ 0
#
# In-process (fast) through ``bot.__main__.main``; the few checks that a process actually ends
# (no leftover database thread) run the real command with a timeout, so a hang fails the test.

Call = Callable[..., tuple[int, str, str]]


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Iterator[Call]:
    """``cli("simulate", "duel", HERALD_X="…")`` → (exit status, stdout, stderr), run in
    ``tmp_path`` with a clean environment; argparse's exits are returned, not raised."""
    from bot.__main__ import main

    monkeypatch.chdir(tmp_path)
    for key in list(os.environ):
        if key.startswith("HERALD_") or key == "DISCORD_TOKEN":
            monkeypatch.delenv(key)
    monkeypatch.setenv("HERALD_DB", str(tmp_path / "herald.db"))
    monkeypatch.setenv("HERALD_LOG_LEVEL", "WARNING")
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    root = logging.getLogger()
    libraries = [logging.getLogger(name) for name in ("discord", "aiosqlite")]
    saved = (root.handlers[:], root.level, [lib.level for lib in libraries])
    environ = dict(os.environ)  # a .env file is read straight into the environment

    def call(*args: str, **env: str) -> tuple[int, str, str]:
        for key, value in env.items():
            monkeypatch.setenv(key, value)
        try:
            code = main(list(args))
        except SystemExit as exc:
            code = int(exc.code or 0)
        out = capsys.readouterr()
        return code, out.out, out.err

    try:
        yield call
    finally:
        os.environ.clear()
        os.environ.update(environ)
        root.handlers[:], level, library_levels = saved
        root.setLevel(level)
        for lib, lib_level in zip(libraries, library_levels, strict=True):
            lib.setLevel(lib_level)


def one_sentence(err: str) -> str:
    """The whole of stderr is one line starting ``error:`` (no traceback, no usage block)."""
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    return lines[0]


def _made(tmp_path: Path) -> set[str]:
    """What the command left in its working folder (the temporary folder included)."""
    return {str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*")} - {"tmp"}


def _stored_game(db: Path, *, started: bool) -> int:
    """A database holding one game of the test game, finished or still a lobby."""
    import asyncio

    from bot.session import Sessions
    from bot.storage import open_storage

    async def make() -> int:
        storage = open_storage(str(db))
        await storage.open()
        try:
            sessions = Sessions(storage, Config.from_env({}))
            table = await sessions.open_table(guild_id=None, channel_id=None, host_id=None,
                                              host_name="", game_key="duel", bots=2, seed=3,
                                              host_plays=False)
            if started:
                await sessions.start(table.id, None)
            return table.id
        finally:
            await storage.close()

    return asyncio.run(make())


def _newer_database(db: Path) -> None:
    import sqlite3

    con = sqlite3.connect(db)
    con.execute("PRAGMA user_version = 999")
    con.commit()
    con.close()


BAD_ENV = [("HERALD_LOG_LEVEL", "quiet"), ("HERALD_DEV_GUILD", "abc"), ("HERALD_REMINDER_LEAD", "-5"),
           ("HERALD_DEFAULT_DEADLINE", "soon"), ("HERALD_DEFAULT_DEADLINE", "1e400"),
           ("HERALD_DEV_GUILD", "9" * 5000), ("HERALD_DOCS_URL", "docs/")]
COMMANDS = [["run"], ["simulate", "duel"], ["replay", "1"]]


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
@pytest.mark.parametrize("name, value", BAD_ENV)
def test_a_bad_setting_is_one_sentence_naming_it_and_exit_2(cli: Call, tmp_path: Path, name: str,
                                                            value: str, command: list[str]) -> None:
    code, out, err = cli(*command, DISCORD_TOKEN=TOKEN, **{name: value})
    assert code == 2
    assert name in one_sentence(err)
    assert not _made(tmp_path)  # no database, no output folder


def test_a_bad_setting_in_the_env_file_is_refused_too(cli: Call, tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("HERALD_REMINDER_LEAD=8d\n", encoding="utf-8")
    code, _, err = cli("simulate", "duel")
    assert code == 2 and "HERALD_REMINDER_LEAD" in one_sentence(err) and "7 days" in err


def test_settings_take_the_same_durations_as_play() -> None:
    config = Config.from_env({"HERALD_DEFAULT_DEADLINE": "1d", "HERALD_REMINDER_LEAD": "90m",
                              "HERALD_LOG_LEVEL": "debug", "HERALD_DEV_GUILD": " 123 "})
    assert (config.default_deadline, config.reminder_lead) == (86400, 5400)
    assert (config.log_level, config.dev_guild) == ("DEBUG", 123)
    assert Config.from_env({"HERALD_DEFAULT_DEADLINE": "7200"}).default_deadline == 7200
    blank = Config.from_env({"HERALD_DEFAULT_DEADLINE": " ", "HERALD_DB": "", "DISCORD_TOKEN": " \t"})
    assert (blank.default_deadline, blank.db_path, blank.token) == (86400, "./herald.db", None)


def test_a_blank_token_counts_as_missing(cli: Call, tmp_path: Path) -> None:
    code, _, err = cli("run", DISCORD_TOKEN="   \n")
    assert code == 2 and "Herald needs a Discord bot token" in err
    assert not _made(tmp_path)


def test_games_lists_even_with_a_bad_log_level(cli: Call) -> None:
    code, out, err = cli("games", HERALD_LOG_LEVEL="quiet")
    assert code == 0 and "duel" in out and not err


# -- replay: read-only

def test_replay_without_a_database_says_so_and_creates_nothing(cli: Call, tmp_path: Path) -> None:
    code, _, err = cli("replay", "1")
    assert code == 2 and "no Herald database" in one_sentence(err)
    assert not _made(tmp_path)


def test_replay_of_an_unknown_game_is_one_sentence(cli: Call, tmp_path: Path) -> None:
    _stored_game(tmp_path / "herald.db", started=True)
    before = _made(tmp_path)
    code, _, err = cli("replay", "42")
    assert code == 2 and "there is no game #42" in one_sentence(err)
    assert _made(tmp_path) == before


@pytest.mark.parametrize("game_id", ["0", "-3", "abc", "1" * 30, "9" * 5000])
def test_replay_of_an_impossible_id_is_one_sentence(cli: Call, game_id: str) -> None:
    code, _, err = cli("replay", game_id)
    assert code == 2 and "game_id" in one_sentence(err)


def test_replay_of_a_table_not_started_says_there_is_nothing_to_replay(cli: Call, tmp_path: Path) -> None:
    game_id = _stored_game(tmp_path / "herald.db", started=False)
    code, _, err = cli("replay", str(game_id))
    assert code == 2 and "has not started" in one_sentence(err)


def test_replay_of_a_stored_game_matches(cli: Call, tmp_path: Path) -> None:
    game_id = _stored_game(tmp_path / "herald.db", started=True)
    code, out, err = cli("replay", str(game_id))
    assert (code, err) == (0, "") and f"game #{game_id}: replay matches" in out


def test_replay_of_a_database_from_a_newer_herald_is_one_sentence(cli: Call, tmp_path: Path) -> None:
    db = tmp_path / "herald.db"
    _stored_game(db, started=True)
    _newer_database(db)
    code, _, err = cli("replay", "1")
    assert code == 2 and "newer" in one_sentence(err)


# -- simulate: refusals before anything is written

@pytest.mark.parametrize("args, says", [
    (["nosuchgame"], "unknown game"), (["duel", "--players", "0"], "2–4 players, not 0"),
    (["duel", "--players", "5"], "2–4 players, not 5"), (["duel", "--seed", str(10**30)], "--seed"),
    (["duel", "--seed", "-1"], "--seed"), (["duel", "--every", "0"], "--every"),
    (["duel", "--players", "9" * 5000], "--players")])
def test_simulate_refuses_what_cannot_run_and_writes_nothing(cli: Call, tmp_path: Path, args: list[str],
                                                             says: str) -> None:
    code, out, err = cli("simulate", *args)
    assert code == 2 and says in one_sentence(err)
    assert not _made(tmp_path)  # not even a temporary folder


def test_simulate_into_a_file_or_below_one_is_refused(cli: Call, tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    code, _, err = cli("simulate", "duel", "--out", "notes.txt")
    assert code == 2 and "is a file, not a folder" in one_sentence(err)
    code, _, err = cli("simulate", "duel", "--out", "notes.txt/boards")
    assert code == 2 and "cannot write into the output folder" in one_sentence(err)
    assert _made(tmp_path) == {"notes.txt"}


def test_simulate_refuses_a_folder_it_did_not_write_and_leaves_it_alone(cli: Call, tmp_path: Path) -> None:
    used = tmp_path / "used"
    used.mkdir()
    (used / "board_0001.png").write_bytes(b"not ours after all")
    (used / "thesis.tex").write_text("precious", encoding="utf-8")
    code, _, err = cli("simulate", "duel", "--out", "used")
    assert code == 2 and "thesis.tex" in one_sentence(err)
    assert sorted(p.name for p in used.iterdir()) == ["board_0001.png", "thesis.tex"]


def test_simulate_replaces_a_previous_output_instead_of_mixing_runs(cli: Call, tmp_path: Path) -> None:
    code, _, err = cli("simulate", "duel", "--players", "3", "--out", "out")
    assert code == 0, err
    assert list((tmp_path / "out").glob("board_*.png"))
    code, out, err = cli("simulate", "duel", "--players", "3", "--seed", "7", "--no-images", "--out", "out")
    assert code == 0, err
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["log.txt", "simulate.db"]
    assert "seed 7" in (tmp_path / "out" / "log.txt").read_text(encoding="utf-8")


def _worker_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if "_connection_worker_thread" in t.name and t.is_alive()]


def test_simulate_closes_the_database_when_opening_it_fails(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """A failing open() must not leave the connection's worker thread running: it keeps the
    process alive after the error (``simulate`` used to hang forever)."""
    import asyncio

    from bot.storage import SqliteStorage, StorageError

    async def broken(self: SqliteStorage) -> int:
        raise StorageError("the database is damaged")

    monkeypatch.setattr(SqliteStorage, "migrate", broken)
    before = len(_worker_threads())
    with pytest.raises(StorageError):
        asyncio.run(simulate("duel", 2, 1, tmp_path / "out", images=False))
    for _ in range(100):
        if len(_worker_threads()) <= before:
            break
        time.sleep(0.02)
    assert len(_worker_threads()) <= before


def test_simulate_with_a_bad_setting_opens_no_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import asyncio

    from bot.config import ConfigError

    monkeypatch.setenv("HERALD_DEFAULT_DEADLINE", "soon")
    with pytest.raises(ConfigError, match="HERALD_DEFAULT_DEADLINE"):
        asyncio.run(simulate("duel", 2, 1, tmp_path / "out", images=False))
    assert not (tmp_path / "out").exists()


# -- the real process ends: a hang fails these (timeout) instead of hanging the suite

def test_simulate_with_a_bad_setting_ends_at_once(tmp_path: Path) -> None:
    done = _run(["simulate", "hegemony_of_faith", "--no-images", "--out", "out"], tmp_path,
                HERALD_DEFAULT_DEADLINE="soon")
    assert done.returncode == 2
    assert "HERALD_DEFAULT_DEADLINE" in one_sentence(done.stderr)
    assert not (tmp_path / "out").exists()


def test_simulate_accepts_a_deadline_written_like_play(tmp_path: Path) -> None:
    done = _run(["simulate", "hegemony_of_faith", "--no-images", "--out", "out"], tmp_path,
                HERALD_DEFAULT_DEADLINE="1d", HERALD_LOG_LEVEL="WARNING")
    assert done.returncode == 0, done.stderr
    assert "Replay check: identical" in (tmp_path / "out" / "log.txt").read_text(encoding="utf-8")


def test_the_bot_with_a_database_from_a_newer_herald_stops_before_connecting(tmp_path: Path) -> None:
    db = tmp_path / "herald.db"
    _stored_game(db, started=False)
    _newer_database(db)
    done = _run(["run"], tmp_path, DISCORD_TOKEN=TOKEN)
    assert done.returncode == 2
    assert "newer" in one_sentence(done.stderr)
    assert "could not reach Discord" not in done.stderr and TOKEN not in done.stderr + done.stdout


def _damaged(db: Path, how: str) -> None:
    """Turn a real database into one of the bad files a server admin may meet."""
    if how == "empty":
        db.write_bytes(b"")
    elif how == "not sqlite":
        db.write_bytes(b"these are somebody's notes, not a database\n" * 200)
    elif how == "truncated":
        data = db.read_bytes()
        db.write_bytes(data[: len(data) // 3])
    elif how == "garbage page":
        damaged = bytearray(db.read_bytes())
        page = 4096
        assert len(damaged) >= 3 * page, "the test database is too small to damage a middle page"
        damaged[2 * page: 3 * page] = bytes((i * 7 + 3) % 256 for i in range(page))
        db.write_bytes(bytes(damaged))


@pytest.mark.parametrize("how", ["empty", "not sqlite", "truncated", "garbage page"])
@pytest.mark.parametrize("command", ["replay", "run"])
def test_a_damaged_database_stops_every_command_with_one_sentence(tmp_path: Path, command: str,
                                                                 how: str) -> None:
    db = tmp_path / "herald.db"
    _stored_game(db, started=True)
    for suffix in ("-wal", "-shm"):
        Path(str(db) + suffix).unlink(missing_ok=True)
    _damaged(db, how)
    before = db.read_bytes()
    done = _run([command, "1"] if command == "replay" else [command], tmp_path, DISCORD_TOKEN=TOKEN)
    assert done.returncode == 2, (done.returncode, done.stderr)
    said = one_sentence(done.stderr)
    assert "herald.db" in said or "database" in said, said
    assert "could not reach Discord" not in done.stderr and "Traceback" not in done.stderr
    assert db.read_bytes() == before  # a refused file is left exactly as it was


# -- simulate as a newcomer meets it


def test_simulate_prints_its_result_and_the_replay_command_and_that_command_works(
        cli: Call, tmp_path: Path) -> None:
    """Only the result on stdout — no log lines (they go to stderr, with --verbose) — ending
    with the command that replays the kept game; pasted, that command works."""
    code, out, err = cli("simulate", "duel", "--players", "2", "--out", "sim", HERALD_LOG_LEVEL="INFO")
    assert code == 0, err
    lines = out.strip().splitlines()
    assert lines[0].startswith("RESULT: ") and "moves;" in lines[1]
    assert " INFO " not in out and " INFO " not in err  # the log is asked for with --verbose
    assert "simulate.db (game #1)" in lines[2]
    command = lines[3].split()
    assert command[0].startswith("HERALD_DB=") and command[1:5] == ["python", "-m", "bot", "replay"]
    database = command[0].removeprefix("HERALD_DB=")
    assert Path(database) == tmp_path / "sim" / "simulate.db"
    code, out, err = cli(*command[4:], HERALD_DB=database)
    assert code == 0, err
    assert "replay.gif written" in out and (tmp_path / "sim-replay" / "replay.gif").exists()
    # the replay beside the output does not stop a new simulate into the same folder
    assert cli("simulate", "duel", "--out", "sim")[0] == 0
    code, out, err = cli("simulate", "duel", "--out", "sim2", "--verbose", HERALD_LOG_LEVEL="INFO")
    assert code == 0 and " INFO " in err and " INFO " not in out
