"""``python -m bot health`` for every deployment: the heartbeat file where ``HERALD_HEARTBEAT``
says (or its default: beside a SQLite file, one per shard range for PostgreSQL), and for
PostgreSQL a database that answers a query within a timeout."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.app import HeraldBot
from bot.config import Config
from bot.health import check, heartbeat_path, shard_label, write_heartbeat
from bot.storage import PostgresStorage

REPO = Path(__file__).resolve().parents[2]


def _cli(cwd: Path, **env_vars: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISCORD_TOKEN", "HERALD_DB", "HERALD_HEARTBEAT", "HERALD_SHARDS",
                        "HERALD_SHARD_COUNT")}
    env.update(PYTHONPATH=str(REPO), **env_vars)
    return subprocess.run([sys.executable, "-m", "bot", "health"], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=60)


async def _herald_database(url: str) -> None:
    storage = PostgresStorage(url)
    await storage.open()  # creates Herald's schema, as the bot does at start
    await storage.close()


# ------------------------------------------------------------------ where the heartbeat is


def test_the_heartbeat_file_is_beside_sqlite_per_shards_for_postgres_or_where_configured() -> None:
    assert heartbeat_path("/data/herald.db") == Path("/data/herald.db.heartbeat")
    url = "postgresql://herald:s3cret@db:5432/herald"
    assert heartbeat_path(url) == Path("herald-heartbeat-all.json")
    assert heartbeat_path(url, None, (0, 1)) == Path("herald-heartbeat-0-1.json")
    assert heartbeat_path(url, None, (2, 3, 5)) == Path("herald-heartbeat-2-3_5.json")
    assert heartbeat_path(url, "/run/herald/beat.json", (0,)) == Path("/run/herald/beat.json")
    assert heartbeat_path("/data/herald.db", "/tmp/b.json") == Path("/tmp/b.json")
    assert shard_label(None) == "all" and shard_label([4]) == "4"
    assert shard_label([7, 0, 1, 2, 9]) == "0-2_7_9"


def test_herald_heartbeat_is_read_from_the_environment() -> None:
    assert Config.from_env({}).heartbeat is None
    assert Config.from_env({"HERALD_HEARTBEAT": "  "}).heartbeat is None
    assert Config.from_env({"HERALD_HEARTBEAT": "/run/beat.json"}).heartbeat == "/run/beat.json"


def test_the_bot_writes_the_file_health_reads(tmp_path: Path) -> None:
    """The running bot and ``health`` find the same file from the same configuration (the bot
    writes a heartbeat on PostgreSQL too)."""
    base = Config(token=None, db_path="postgresql://herald@db/herald", dev_guild=None,
                  log_level="INFO", default_deadline=86400, reminder_lead=3600, docs_url="",
                  shard_count=4, shard_ids=(2, 3))
    bot = HeraldBot(base)
    assert bot.heartbeat_file == Path("herald-heartbeat-2-3.json")
    configured = Config(**{**base.__dict__, "heartbeat": str(tmp_path / "beat.json")})
    assert HeraldBot(configured).heartbeat_file == tmp_path / "beat.json"


# ------------------------------------------------------------------ PostgreSQL


async def test_health_on_postgres_needs_an_answering_database_and_a_recent_heartbeat(
        postgres_url: str, tmp_path: Path) -> None:
    beat = tmp_path / "beat.json"
    result = await asyncio.to_thread(check, postgres_url, heartbeat=beat)
    assert not result.ok and "is not Herald's" in result.message  # an empty database
    await _herald_database(postgres_url)
    result = await asyncio.to_thread(check, postgres_url, heartbeat=beat)
    assert not result.ok and "no gateway heartbeat" in result.message and str(beat) in result.message
    write_heartbeat(beat, latency=0.031, now=5000.0)
    result = await asyncio.to_thread(check, postgres_url, heartbeat=beat, now=5012.0)
    assert result.ok and "database schema" in result.message and "12 s ago" in result.message
    assert "31 ms" in result.message
    result = await asyncio.to_thread(check, postgres_url, heartbeat=beat, now=5000.0 + 1000)
    assert not result.ok and "stuck or has lost its connection" in result.message


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def silent_server() -> Iterator[int]:
    """A port that accepts connections and never says a word (a hung server)."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        server.settimeout(0.1)
        while not stop.is_set():
            try:
                held.append(server.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield int(server.getsockname()[1])
    finally:
        stop.set()
        thread.join(5)
        for conn in held:
            conn.close()
        server.close()


def test_a_postgres_server_that_is_down_or_hung_is_unhealthy_without_showing_the_password(
        tmp_path: Path, silent_server: int) -> None:
    beat = tmp_path / "beat.json"
    write_heartbeat(beat, latency=0.01)  # (a heartbeat is not enough: the database must answer)
    down = check(f"postgresql://herald:s3cret@127.0.0.1:{_closed_port()}/herald", heartbeat=beat,
                 db_timeout=5)
    assert not down.ok and down.message.startswith("unhealthy: the PostgreSQL database")
    assert "does not answer" in down.message and "s3cret" not in down.message
    assert "***" in down.message and "\n" not in down.message
    hung = check(f"postgresql://herald:s3cret@127.0.0.1:{silent_server}/herald", heartbeat=beat,
                 db_timeout=0.5)
    assert not hung.ok and "did not answer within 0.5 s" in hung.message
    assert "s3cret" not in hung.message


def test_the_health_command_on_postgres(postgres_url: str, tmp_path: Path) -> None:
    """From the command line, as Docker's HEALTHCHECK runs it: exit 1 then 0, the default file
    named after the process's shards, written nowhere else."""
    asyncio.run(_herald_database(postgres_url))
    shards = {"HERALD_DB": postgres_url, "HERALD_SHARD_COUNT": "4", "HERALD_SHARDS": "0-1"}
    done = _cli(tmp_path, **shards)
    assert done.returncode == 1 and done.stderr.startswith("unhealthy:") and "herald-heartbeat-0-1.json" in done.stderr
    assert "Traceback" not in done.stderr and list(tmp_path.iterdir()) == []
    write_heartbeat(tmp_path / "herald-heartbeat-0-1.json", latency=0.02)
    done = _cli(tmp_path, **shards)
    assert done.returncode == 0 and done.stdout.startswith("healthy:"), done.stderr
    elsewhere = tmp_path / "beat.json"
    done = _cli(tmp_path, HERALD_DB=postgres_url, HERALD_HEARTBEAT=str(elsewhere))
    assert done.returncode == 1 and str(elsewhere) in done.stderr
    elsewhere.write_text(json.dumps({"at": 0}), encoding="utf-8")  # a beat from 1970
    done = _cli(tmp_path, HERALD_DB=postgres_url, HERALD_HEARTBEAT=str(elsewhere))
    assert done.returncode == 1 and "stuck" in done.stderr
    done = _cli(tmp_path, HERALD_DB=f"postgresql://herald:s3cret@127.0.0.1:{_closed_port()}/herald")
    assert done.returncode == 1 and "s3cret" not in done.stderr + done.stdout
    assert "does not answer" in done.stderr
