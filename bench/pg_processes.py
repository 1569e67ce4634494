"""Several bot processes over one PostgreSQL database: throughput, step latency and lost races.

N OS processes (``--processes``, default 2), each with its own ``Sessions`` over its own
``PostgresStorage`` (a pool of connections), as several Herald processes running some of Discord's
shards each; deliveries are discarded, nothing is rendered. They play for ``--duration`` seconds,
closed loop:

* **distinct games** (``--games`` per process): a table whose seat 0 is a scripted player this
  process answers (choosing like the computer player, from its own view) and whose other seats are
  computer players; a finished game is replaced by a new one until the time is up;
* **shared games** (``--shared``): tables driven by every process at once, their human seats split
  among the processes (the i-th human seat answered by process i mod N), the rest computer
  players — a game whose clicks arrive on several processes (a player's direct messages all reach
  shard 0). A process learns that the others moved such a game on by reading it again every
  ``--poll`` seconds while none of its seats is to decide; process 0 replaces a finished one.

Measured: total accepted actions per second (the players' and the computer players'), each
process's, the time of each engine step + commit (``Sessions._apply``) over all processes, and the
version races lost (a commit refused because another process stored a move of that game first,
then retried from a fresh read; ``Sessions.act`` gives up after a few, as "try again").

    python bench/pg_processes.py                       # 2 processes, a throwaway server, 20 s
    python bench/pg_processes.py --processes 3 --games 30 --shared 6 --duration 30
    python bench/pg_processes.py --db postgresql://herald@db.example.org/postgres
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import argparse  # noqa: E402
import asyncio  # noqa: E402
import multiprocessing  # noqa: E402
import random  # noqa: E402
import shlex  # noqa: E402
import time  # noqa: E402
import traceback  # noqa: E402
from dataclasses import dataclass  # noqa: E402
from multiprocessing.connection import Connection  # noqa: E402
from typing import Any  # noqa: E402

from bench.pg_server import PgServer, describe, pg_server  # noqa: E402
from bench.sessions_load import (  # noqa: E402
    CONFIG,
    TimedPostgresStorage,
    TimedSessions,
    add_postgres_arguments,
    percentile,
    play_one,
    rss_mb,
)
from bot.errors import Contention, StaleAction, TableError  # noqa: E402
from bot.session import NullDelivery, Sessions  # noqa: E402
from bot.storage import GuildSettings, PostgresStorage  # noqa: E402
from rules import registry  # noqa: E402

DISTINCT_GUILD = 1
SHARED_GUILD = 2
SHARED_USERS = 500_000
"""Users of shared games: 500,000 + 100 × the game's seed + the human's index."""
SEED_STRIDE = 1_000_000
"""Seeds of process k's distinct games start at seed + (k + 1) × this (no two processes alike)."""
START_TIMEOUT = 120.0
"""Seconds for every child to be ready (imports, engines warmed, storage open)."""


@dataclass(frozen=True)
class Plan:
    game_key: str
    players: int
    processes: int
    games: int
    shared: int
    duration: float
    poll: float
    seed: int

    @property
    def humans(self) -> int:
        """Human seats of a shared game: one per process (at least two), within the table."""
        return max(2, min(self.processes, self.players))


# ------------------------------------------------------------------------------------- games


async def open_shared(sessions: Sessions, plan: Plan, seed: int) -> int:
    """A started shared table: ``plan.humans`` players (process i answers the i-th), the rest
    computer players."""
    users = [SHARED_USERS + 100 * seed + k for k in range(plan.humans)]
    table = await sessions.open_table(guild_id=SHARED_GUILD, channel_id=seed, host_id=users[0],
                                      host_name=f"s{seed}", game_key=plan.game_key,
                                      bots=plan.players - plan.humans, seed=seed)
    for user in users[1:]:
        await sessions.join(table.id, user, f"u{user}")
    await sessions.start(table.id, users[0])
    return table.id


async def prepare(url: str, plan: Plan) -> None:
    """The database the children share: their servers' table limits lifted, the shared games."""
    storage = PostgresStorage(url)
    await storage.open()
    try:
        limit = 4 * (plan.games * plan.processes + plan.shared) + 10
        for guild in (DISTINCT_GUILD, SHARED_GUILD):
            await storage.save_guild_settings(GuildSettings(guild, table_limit=limit))
        sessions = Sessions(storage, CONFIG, NullDelivery())
        for i in range(plan.shared):
            await open_shared(sessions, plan, plan.seed + i)
    finally:
        await storage.close()


@dataclass
class Counts:
    stale: int = 0
    """Clicks refused as answering a decision no longer open."""
    gave_up: int = 0
    """Actions refused after losing every retry ("the game was changing… try again")."""
    polls: int = 0
    """Reads of a shared game while waiting for the other processes."""
    resumed: int = 0
    """Shared games whose computer players were left waiting, resumed here."""


class Child:
    def __init__(self, index: int, plan: Plan, sessions: TimedSessions) -> None:
        self.index = index
        self.plan = plan
        self.sessions = sessions
        self.counts = Counts()
        self.driving: set[int] = set()
        self.tasks: list[asyncio.Task[None]] = []
        self.next_shared = plan.seed + plan.shared

    def serves(self, game_seats: list[Any], seat: int) -> bool:
        humans = [s.seat for s in game_seats if not s.is_bot]
        return seat in humans and humans.index(seat) % self.plan.processes == self.index

    async def distinct(self, slot: int, stop_at: float, act_times: list[float]) -> None:
        """One slot of this process's own games: a new table each time one ends, until the time."""
        seed = self.plan.seed + (self.index + 1) * SEED_STRIDE + slot
        while time.perf_counter() < stop_at:
            await play_one(self.sessions, self.plan.game_key, self.plan.players, seed, act_times,
                           stop_at)
            seed += self.plan.games

    async def shared(self, game_id: int, stop_at: float, act_times: list[float]) -> None:
        """Answer this process's seats of one shared game until it ends or the time is up."""
        sessions = self.sessions
        rng = random.Random(f"shared/{self.index}/{game_id}")
        stuck_since: dict[int, float] = {}
        while time.perf_counter() < stop_at:
            sessions.storage.forget(game_id)  # (the other processes' moves: read the database)
            snap = await sessions.snapshot(game_id)
            game = snap.game
            if game.status != "active":
                if self.index == 0:  # (one process replaces it: the others find it by listing)
                    self.next_shared += 1
                    await open_shared(sessions, self.plan, self.next_shared)
                return
            mine = [o for o in snap.open if self.serves(game.seats, o.seat)]
            if not mine:
                if snap.awaits_computers() and not any(
                        not game.seats[o.seat].is_bot for o in snap.open):
                    # computers awaited a while at one version: the process that was to run
                    # them lost a race and stopped (the winner runs its own)
                    first = stuck_since.setdefault(game.version, time.perf_counter())
                    if time.perf_counter() - first > 0.5:
                        self.counts.resumed += await sessions.resume([game_id])
                self.counts.polls += 1
                await asyncio.sleep(self.plan.poll)
                continue
            o = mine[0]
            action = snap.engine.bot_action(snap.view(o.seat), o.prompt, rng)
            t0 = time.perf_counter()
            try:
                await sessions.act(game_id, o.seat, action, user_id=game.seats[o.seat].user_id,
                                   answers=o.ticket)
            except StaleAction:
                self.counts.stale += 1
                continue
            except Contention:
                self.counts.gave_up += 1
                continue
            except TableError:  # (finished meanwhile by another process)
                continue
            act_times.append(time.perf_counter() - t0)

    async def watch_shared(self, stop_at: float, act_times: list[float]) -> None:
        """Drive every active shared game, the new ones too, until the time is up."""
        storage = self.sessions.storage
        while time.perf_counter() < stop_at:
            for game in await storage.list_games(guild_id=SHARED_GUILD, statuses=("active",)):
                if game.id not in self.driving:
                    self.driving.add(game.id)
                    self.tasks.append(asyncio.get_running_loop().create_task(
                        self.shared(game.id, stop_at, act_times)))
            await asyncio.sleep(0.2)


async def _child(index: int, url: str, plan: Plan, conn: Connection) -> None:
    storage = TimedPostgresStorage(url)
    await storage.open()
    try:
        sessions = TimedSessions(storage, CONFIG, NullDelivery())
        engine = registry.get(plan.game_key)
        # warm the engine (first calls build its caches) before the clock starts
        state = engine.setup(plan.players, 0, {})
        engine.view(state, 0)
        child = Child(index, plan, sessions)
        conn.send(("ready",))
        start_at = await asyncio.get_running_loop().run_in_executor(None, conn.recv)
        await asyncio.sleep(max(0.0, start_at - time.time()))
        t0, cpu0 = time.perf_counter(), time.process_time()
        stop_at = t0 + plan.duration
        act_times: list[float] = []
        sessions.step_times.clear()
        storage.commit_times.clear()
        storage.races_lost = 0
        tasks = [asyncio.create_task(child.distinct(i, stop_at, act_times))
                 for i in range(plan.games)]
        if plan.shared:
            await child.watch_shared(stop_at, act_times)
        await asyncio.gather(*tasks, *child.tasks)
        wall = time.perf_counter() - t0
        conn.send(("result", {
            "index": index, "wall": wall, "cpu": time.process_time() - cpu0,
            "actions": len(storage.commit_times) - storage.races_lost,
            "races_lost": storage.races_lost, "steps": sessions.step_times, "acts": act_times,
            "stale": child.counts.stale, "gave_up": child.counts.gave_up,
            "polls": child.counts.polls, "resumed": child.counts.resumed, "rss": rss_mb(),
            "pool": storage.pool_size}))
    finally:
        await storage.close()


def child_main(index: int, url: str, plan: Plan, conn: Connection) -> None:
    try:
        asyncio.run(_child(index, url, plan, conn))
    except BaseException:
        conn.send(("error", traceback.format_exc()))
        raise SystemExit(1) from None


# ------------------------------------------------------------------------------------ parent


def _receive(pipe: Connection, kind: str, timeout: float) -> tuple[Any, ...]:
    if not pipe.poll(timeout):
        raise RuntimeError(f"a bench process sent no {kind!r} within {timeout:g} s")
    message = pipe.recv()
    if message[0] == "error":
        raise RuntimeError(f"a bench process failed:\n{message[1]}")
    if message[0] != kind:
        raise RuntimeError(f"a bench process sent {message[0]!r}, not {kind!r}")
    return tuple(message)


def run_processes(url: str, plan: Plan) -> list[dict[str, Any]]:
    """Start the children over the prepared database ``url``, start them together, and collect
    what each measured (in the order of their index)."""
    asyncio.run(prepare(url, plan))
    ctx = multiprocessing.get_context("spawn")
    procs, pipes = [], []
    try:
        for index in range(plan.processes):
            receive, send = ctx.Pipe()
            proc = ctx.Process(target=child_main, args=(index, url, plan, send), daemon=True)
            proc.start()
            procs.append(proc)
            pipes.append(receive)
        for pipe in pipes:
            _receive(pipe, "ready", START_TIMEOUT)
        start_at = time.time() + 0.2
        for pipe in pipes:
            pipe.send(start_at)
        return [_receive(pipe, "result", plan.duration + 120)[1] for pipe in pipes]
    finally:
        for proc in procs:
            proc.join(10)
            if proc.is_alive():
                proc.kill()
                proc.join()


async def _with_database(pg: PgServer, plan: Plan) -> tuple[list[dict[str, Any]], str]:
    async with pg.database("processes") as url:
        server = await describe(url)
        results = await asyncio.get_running_loop().run_in_executor(None, run_processes, url, plan)
    return results, server


def report(command: str, plan: Plan, server: str, where: str, results: list[dict[str, Any]]) -> None:
    ms = 1000.0
    engine = registry.get(plan.game_key)
    total = sum(r["actions"] for r in results)
    wall = max(r["wall"] for r in results)
    steps = [t for r in results for t in r["steps"]]
    acts = [t for r in results for t in r["acts"]]
    print(f"command: {command}")
    print(f"Python {sys.version.split()[0]}, {server} on {where}, {plan.processes} processes "
          f"each with an asyncpg pool of {results[0]['pool']}, NullDelivery")
    print()
    print(f"{engine.name} ({plan.game_key}), {plan.players} players, {plan.duration:g} s of play: "
          f"{plan.games} games per process and {plan.shared} shared games "
          f"({plan.humans} players each, answered by different processes)")
    print(f"  {'actions':<34} {total}")
    print(f"  {'throughput, all processes':<34} {total / wall:.0f} actions/s")
    for r in results:
        print(f"  {'process ' + str(r['index']):<34} {r['actions'] / r['wall']:.0f} actions/s "
              f"({r['actions']} in {r['wall']:.2f} s, CPU {r['cpu'] / r['wall']:.0%} of one "
              f"core, RSS {r['rss']:.0f} MiB)")
    print(f"  {'step (apply + commit) p50 / p99':<34} {percentile(steps, 50) * ms:.2f} / "
          f"{percentile(steps, 99) * ms:.2f} ms  (n={len(steps)})")
    print(f"  {'Sessions.act call p50 / p99':<34} {percentile(acts, 50) * ms:.2f} / "
          f"{percentile(acts, 99) * ms:.2f} ms  (n={len(acts)}, incl. computer replies)")
    print(f"  {'version races lost (retried)':<34} {sum(r['races_lost'] for r in results)}")
    print(f"  {'actions given up after retries':<34} {sum(r['gave_up'] for r in results)}")
    print(f"  {'stale clicks refused':<34} {sum(r['stale'] for r in results)}")
    print(f"  {'shared-game reads while waiting':<34} {sum(r['polls'] for r in results)}")
    print(f"  {'stalled shared games resumed':<34} {sum(r['resumed'] for r in results)}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--processes", type=int, default=2, help="bot processes (default 2)")
    ap.add_argument("--games", type=int, default=50, help="distinct games per process (default 50)")
    ap.add_argument("--shared", type=int, default=4,
                    help="games driven by every process at once (default 4)")
    ap.add_argument("--game", default="hegemony_of_faith", help="game key (default hegemony_of_faith)")
    ap.add_argument("--players", type=int, default=4, help="players per game (default 4)")
    ap.add_argument("--duration", type=float, default=20.0, help="seconds of play (default 20)")
    ap.add_argument("--poll", type=float, default=0.02,
                    help="seconds between reads of a shared game awaiting another process (0.02)")
    ap.add_argument("--seed", type=int, default=1, help="first seed")
    add_postgres_arguments(ap, optional=False)
    args = ap.parse_args(argv)
    engine = registry.get(args.game)
    engine.validate_options(args.players, {})
    if args.processes < 1 or args.games < 0 or args.shared < 0:
        ap.error("--processes must be at least 1, --games and --shared at least 0")
    plan = Plan(args.game, args.players, args.processes, args.games, args.shared, args.duration,
                args.poll, args.seed)
    with pg_server(args.db, args.synchronous_commit) as pg:
        results, server = asyncio.run(_with_database(pg, plan))
    command = f"python bench/pg_processes.py {shlex.join(sys.argv[1:] if argv is None else argv)}"
    report(command, plan, server, pg.description, results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
