"""Smoke tests of the command line: the bot refuses to start without a token, lists its games, and
``simulate`` is deterministic (run in-process: the test game is registered only in the tests)."""

from __future__ import annotations

import io
import logging
import os
import subprocess
import sys
from collections.abc import Iterator
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
    assert any(line.startswith("RESULT: winner(s) ") for line in lines)
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
