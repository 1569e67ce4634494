"""The server admin's tools: ``python -m bot backup`` copies the database safely while the bot
writes to it, ``python -m bot health`` reads the database and the running bot's heartbeat, and
every rules page a game names can be found by an installed Herald."""

from __future__ import annotations

import asyncio
import json
import os
import re
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from bot.backup import BackupError, backup
from bot.health import STALE_AFTER, check, heartbeat_path, write_heartbeat
from bot.storage import open_storage

REPO = Path(__file__).resolve().parents[2]


def _cli(args: list[str], cwd: Path, **extra: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "HERALD_DB")}
    env.update(PYTHONPATH=str(REPO), HERALD_DB=str(cwd / "herald.db"), **extra)
    return subprocess.run([sys.executable, "-m", "bot", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=60)


def make_herald_db(path: Path) -> None:
    """A real Herald database: created and migrated by the storage, as the bot does at start."""

    async def create() -> None:
        storage = open_storage(str(path))
        await storage.open()
        await storage.close()

    asyncio.run(create())


def _insert_game(db: sqlite3.Connection, n: int) -> None:
    now = time.time()
    db.execute("INSERT INTO games (guild_id, game_key, status, seed, created_at, updated_at) "
               "VALUES (?, 'duel', 'lobby', ?, ?, ?)", (1, n, now, now))
    db.execute("INSERT INTO events (game_id, n, version, text, kind, created_at) "
               "VALUES (last_insert_rowid(), 1, 0, ?, 'log', ?)", ("x" * 2000, now))


# ------------------------------------------------------------------ backup


def test_a_backup_taken_while_the_bot_writes_is_consistent_and_complete(tmp_path: Path) -> None:
    """A writer commits games as fast as it can (in WAL mode, as the bot does) while backups are
    taken: every copy opens, passes ``integrity_check``, holds whole games only (each game with
    its event), and holds at least every game committed before the backup began."""
    db_path = tmp_path / "herald.db"
    make_herald_db(db_path)
    stop = threading.Event()
    committed = [0]

    def writer() -> None:
        db = sqlite3.connect(db_path, isolation_level=None, timeout=10)
        db.execute("PRAGMA journal_mode=WAL")
        n = 0
        while not stop.is_set():
            n += 1
            db.execute("BEGIN IMMEDIATE")
            _insert_game(db, n)
            db.execute("COMMIT")
            committed[0] = n
        db.close()

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        while committed[0] < 50:
            time.sleep(0.005)
        for i in range(3):
            before = committed[0]
            dest = tmp_path / f"copy{i}.db"
            done = backup(db_path, dest)
            assert done.games >= before and done.path == dest
            copy = sqlite3.connect(dest)
            assert copy.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
            assert copy.execute("PRAGMA journal_mode").fetchone() == ("delete",)
            games = copy.execute("SELECT count(*) FROM games").fetchone()[0]
            events = copy.execute("SELECT count(*) FROM events").fetchone()[0]
            assert games == events == done.games >= before
            copy.close()
            assert not Path(f"{dest}-wal").exists()
    finally:
        stop.set()
        thread.join()
    assert committed[0] > before  # the writer kept writing through the backups


def test_a_backup_never_overwrites_without_force(tmp_path: Path) -> None:
    db_path = tmp_path / "herald.db"
    make_herald_db(db_path)
    dest = tmp_path / "backup.db"
    dest.write_bytes(b"an older backup")
    with pytest.raises(BackupError, match="already exists.*--force"):
        backup(db_path, dest)
    assert dest.read_bytes() == b"an older backup"
    done = backup(db_path, dest, force=True)
    assert done.games == 0
    assert sqlite3.connect(dest).execute("PRAGMA user_version").fetchone()[0] > 0
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".partial")] == []


@pytest.mark.parametrize("case", ["missing", "empty", "not_sqlite", "not_herald", "same_file",
                                  "no_folder", "folder"])
def test_a_backup_that_cannot_be_made_is_one_sentence_and_writes_nothing(tmp_path: Path,
                                                                         case: str) -> None:
    db_path = tmp_path / "herald.db"
    dest = tmp_path / "backup.db"
    if case == "empty":
        db_path.write_bytes(b"")
    elif case == "not_sqlite":
        db_path.write_bytes(b"hello, this is a text file" * 10)
    elif case == "not_herald":
        sqlite3.connect(db_path).execute("CREATE TABLE notes (x)").connection.commit()
    elif case != "missing":
        make_herald_db(db_path)
    if case == "same_file":
        dest = db_path
    elif case == "no_folder":
        dest = tmp_path / "nowhere" / "backup.db"
    elif case == "folder":
        dest = tmp_path
    before = sorted(p.name for p in tmp_path.iterdir())
    with pytest.raises(BackupError) as info:
        backup(db_path, dest, force=True)
    message = str(info.value)
    assert "\n" not in message and message.endswith(".")
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_the_backup_command_reports_in_one_line_and_exits_2_on_refusal(tmp_path: Path) -> None:
    done = _cli(["backup", "copy.db"], tmp_path)
    assert done.returncode == 2 and done.stderr.startswith("error: there is no Herald database")
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr
    assert not (tmp_path / "herald.db").exists() and not (tmp_path / "copy.db").exists()
    make_herald_db(tmp_path / "herald.db")
    done = _cli(["backup", "copy.db"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Backed up" in done.stdout and "integrity check" in done.stdout
    done = _cli(["backup", "copy.db"], tmp_path)
    assert done.returncode == 2 and "--force" in done.stderr
    assert _cli(["backup", "copy.db", "--force"], tmp_path).returncode == 0
    assert _cli(["backup"], tmp_path).returncode == 2  # no PATH: argparse's one line


# ------------------------------------------------------------------ health


def test_health_needs_the_database_and_a_recent_heartbeat(tmp_path: Path) -> None:
    db_path = tmp_path / "herald.db"
    result = check(str(db_path))
    assert not result.ok and "no Herald database" in result.message
    assert not db_path.exists()  # health never creates the database
    make_herald_db(db_path)
    result = check(str(db_path))
    assert not result.ok and "no gateway heartbeat" in result.message
    beat = heartbeat_path(db_path)
    write_heartbeat(beat, latency=0.042, now=1000.0)
    assert json.loads(beat.read_text())["latency_ms"] == 42
    result = check(str(db_path), now=1010.0)
    assert result.ok and "10 s ago" in result.message and "42 ms" in result.message
    result = check(str(db_path), now=1000.0 + STALE_AFTER + 1)
    assert not result.ok and "stuck or has lost its connection" in result.message
    beat.write_text("{half a fi", encoding="utf-8")
    assert not check(str(db_path), now=1010.0).ok
    db_path.write_bytes(b"not a database at all" * 10)
    result = check(str(db_path))
    assert not result.ok and "does not answer" in result.message
    for outcome in (result,):
        assert "\n" not in outcome.message


def test_the_health_command_exits_0_or_1_never_2(tmp_path: Path) -> None:
    """Docker reads 0 as healthy and 1 as unhealthy and reserves 2: even a configuration
    mistake is 1."""
    done = _cli(["health"], tmp_path)
    assert done.returncode == 1 and done.stderr.startswith("unhealthy:")
    done = _cli(["health"], tmp_path, HERALD_LOG_LEVEL="loud")
    assert done.returncode == 1 and "HERALD_LOG_LEVEL" in done.stderr
    make_herald_db(tmp_path / "herald.db")
    write_heartbeat(heartbeat_path(tmp_path / "herald.db"), latency=float("inf"))
    done = _cli(["health"], tmp_path)
    assert done.returncode == 0 and done.stdout.startswith("healthy:"), done.stderr
    assert "Traceback" not in done.stderr + done.stdout


# ------------------------------------------------------------------ rules pages in the package


def test_an_installed_herald_finds_every_games_rules_page(tmp_path: Path) -> None:
    """The build copies ``docs/rules/*.md`` and the pictures they show into the package, and the
    built package — with no repository beside it — finds the page every registered game names,
    and its first-turn picture."""
    source = tmp_path / "src"
    for name in ("setup.py", "pyproject.toml", "README.md", "MANIFEST.in"):
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        (source / name).write_bytes((REPO / name).read_bytes())
    for folder in ("bot", "cogs", "rules", "docs/rules"):
        for path in (REPO / folder).rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts:
                target = source / path.relative_to(REPO)
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(path.read_bytes())
    for path in (REPO / "docs" / "images").glob("first-turn-*.png"):
        target = source / path.relative_to(REPO)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(path.read_bytes())
    built = tmp_path / "installed"
    done = subprocess.run([sys.executable, "setup.py", "-q", "build_py", "--build-lib", str(built)],
                          cwd=source, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in (built / "bot" / "rulepages").glob("*.md")) == sorted(
        p.name for p in (REPO / "docs" / "rules").glob("*.md"))
    assert sorted(p.name for p in (built / "bot" / "rulepages" / "images").iterdir()) == sorted(
        p.name for p in (REPO / "docs" / "images").glob("first-turn-*.png"))
    probe = ("import sys; from rules import registry; from bot import rulebook\n"
             "assert str(rulebook.REPO_ROOT) == sys.argv[1], rulebook.REPO_ROOT\n"
             "for key, engine in registry.all_engines().items():\n"
             "    assert engine.rules_page, key\n"
             "    text = rulebook.page_text(engine.rules_page)\n"
             "    assert text and engine.name in text, key\n"
             "    assert rulebook.page_count(engine) > 3, key\n"
             "    shown = rulebook.picture(engine.rules_page, f'../images/first-turn-{key}.png')\n"
             "    assert shown and shown.startswith(b'\\x89PNG'), key\n"
             "print(len(registry.all_engines()))\n")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(built)
    done = subprocess.run([sys.executable, "-c", probe, str(built)], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) >= 3


# ------------------------------------------------------------------ the README


def test_the_readme_invite_link_asks_for_exactly_the_permissions_herald_uses() -> None:
    """The integer in the README's invite link is the bot's own (``invite_permissions``), and
    the least-privilege table lists the same permissions with their values."""
    import discord

    from bot.app import invite_permissions

    readme = (REPO / "README.md").read_text(encoding="utf-8")
    wanted = invite_permissions()
    (link,) = set(re.findall(r"https://discord\.com/oauth2/authorize\?\S+", readme))
    assert f"permissions={wanted.value}" in link and "scope=bot+applications.commands" in link
    table = readme[readme.index("| permission | value | why |"):]
    table = table[:table.index("\n\n")]
    rows = re.findall(r"^\| ([A-Za-z ]+) \| (\d+) \|", table, re.M)
    assert sum(int(v) for _, v in rows) == wanted.value
    for name, value in rows:
        flag = name.lower().replace(" ", "_").replace("channels", "channel")
        assert getattr(discord.Permissions, flag).flag == int(value), name
    assert len(rows) == sum(1 for _, on in wanted if on)


def test_the_readme_pictures_exist_and_are_small() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    pictures = re.findall(r"!\[[^\]]+\]\((docs/images/[^)]+)\)", readme)
    # (pictures drawn at a set width are HTML, each with its alt text)
    tags = re.findall(r"<img [^>]*>", readme)
    for tag in tags:
        assert re.search(r'alt="[^"]{10,}"', tag), tag
    pictures += [re.search(r'src="([^"]+)"', tag)[1] for tag in tags]  # type: ignore[index]
    boards = [t for t in tags if re.search(r'src="docs/images/[a-z_]+\.png"', t)
              and "web_" not in t]
    assert len(boards) >= 5 and all('width="400"' in t for t in boards), boards
    assert len(pictures) >= 4
    for name in pictures:
        path = REPO / name
        assert path.is_file(), name
        assert path.stat().st_size < 400_000, f"{name} is too big for a README"
