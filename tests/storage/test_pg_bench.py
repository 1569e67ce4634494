"""The PostgreSQL benches run (``bench/sessions_load.py --db``, ``bench/pg_processes.py``): a
second of play on the test tier's server, so that a change to the session layer or the storage
cannot quietly break the figures' commands. Their figures are not checked (that is the benches'
job), only that each part ran and reported what it measured."""

from __future__ import annotations

import asyncio
import re

import asyncpg
import pytest

from bench import pg_processes, sessions_load
from bot.storage import PostgresStorage
from tests.support.postgres import Server


async def _bench_databases(server: Server) -> list[str]:
    conn = await asyncpg.connect(server.url("postgres"))
    try:
        return [r[0] for r in await conn.fetch(
            "SELECT datname FROM pg_database WHERE datname LIKE 'herald_bench_%'")]
    finally:
        await conn.close()


def _figure(out: str, label: str) -> str:
    match = re.search(rf"^  {re.escape(label)}\s+(.+)$", out, re.MULTILINE)
    assert match, f"no {label!r} line in:\n{out}"
    return match.group(1)


def test_sessions_load_runs_over_an_existing_postgres_server(
        postgres_server: Server, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--games", "2", "--game", "hegemony_of_faith", "--players", "4", "--duration", "1",
            "--no-render", "--cost-repeat", "20", "--db", postgres_server.url("postgres")]
    assert sessions_load.main(argv) == 0
    out = capsys.readouterr().out
    first, second = out.splitlines()[:2]
    assert first == "command: python bench/sessions_load.py " + " ".join(argv)
    assert "PostgreSQL" in second and "synchronous_commit" in second
    cost = float(_figure(out, "commit_action").split()[0])
    floor = float(_figure(out, "plain asyncpg (update+insert, 1 tx)").split()[0])
    ratio = float(_figure(out, "ratio").rstrip("x"))
    assert cost > 0 and floor > 0 and ratio == pytest.approx(cost / floor, rel=0.05)
    assert int(_figure(out, "actions")) > 0
    assert _figure(out, "version races lost") == "0"  # (one process: nobody to race)
    assert asyncio.run(_bench_databases(postgres_server)) == []  # (the bench dropped its own)


def test_pg_processes_drive_distinct_and_shared_games_from_two_processes(
        postgres_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    plan = pg_processes.Plan("hegemony_of_faith", 4, processes=2, games=1, shared=1,
                             duration=1.5, poll=0.01, seed=3)
    results = pg_processes.run_processes(postgres_url, plan)
    assert [r["index"] for r in results] == [0, 1]
    assert all(r["actions"] > 0 and r["steps"] for r in results)
    pg_processes.report("python bench/pg_processes.py", plan, "PostgreSQL", "the test server",
                        results)
    out = capsys.readouterr().out
    assert out.startswith("command: python bench/pg_processes.py\n")
    assert int(_figure(out, "actions")) == sum(r["actions"] for r in results)
    assert _figure(out, "version races lost (retried)") == str(sum(r["races_lost"] for r in results))

    async def players_of_shared_games() -> set[int]:
        storage = PostgresStorage(postgres_url)
        await storage.open()
        try:
            seats: set[int] = set()
            for game in await storage.list_games(guild_id=pg_processes.SHARED_GUILD,
                                                 statuses=("active", "finished")):
                seats |= {seat for seat, _, origin in await storage.actions(game.id)
                          if origin == "player"}
            return seats
        finally:
            await storage.close()

    # each process answered its own human seat of the shared game (seat 0: the host; the
    # other human joined after the computer players)
    assert asyncio.run(players_of_shared_games()) == {0, 3}
