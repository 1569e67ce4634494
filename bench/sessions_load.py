"""Platform benchmark: many concurrent games through the session layer, and board render times.

N games (``--games``, default 20) run at once in one process, on one real SQLite file in a
temporary folder, with deliveries discarded (``NullDelivery``): seat 0 of each table is a scripted
"player" that answers its prompts through ``Sessions.act`` (choosing like the computer player, from
its own view), every other seat is a computer player answered by the session itself. Measured:

* throughput: accepted actions per second over the whole run;
* latency of each engine step + commit (``Sessions._apply``: load, apply, one transaction), and of
  each ``Sessions.act`` call (the player's action and the computer replies it sets off);
  no rendering is included;
* peak memory: ``ru_maxrss`` of the process, and the tracemalloc peak with ``--tracemalloc``
  (which slows everything down, so throughput is then not comparable);
* per game registered: median time of ``GameUI.board_image`` on a mid-game public view, and of the
  PNG encoding of that image.

* storage cost per action: ``commit_action`` of a real mid-game state, one game at a time, next
  to the floor — one plain-sqlite3 transaction (update + insert + commit, WAL) of the same state
  in a file beside it — and their ratio;
* ``--rate R`` (open loop): the games are opened first, then player actions arrive at random
  (Poisson, R per second on average, for ``--duration`` seconds) in games waiting on their
  player, whatever is still running; step and arrival-to-answer latencies are reported, and
  finished games are replaced by new ones so that ``--games`` stay live;
* ``--burst``: after the run, one action arrives in every live game at the same moment.

``--postgres`` runs the same over ``PostgresStorage`` instead, on a throwaway PostgreSQL server
started for the run and removed after it (``bench/pg_server.py``); ``--db postgresql://…`` on an
existing server instead (the bench creates databases of its own there and drops them after). The
storage cost's floor is then one plain asyncpg transaction of the same shape (update the state,
insert the action) on the same server.

    python bench/sessions_load.py                      # 20 concurrent High Card Duel games
    python bench/sessions_load.py --games 50 --game cult_wars --players 4
    python bench/sessions_load.py --games 1000 --game hegemony_of_faith --players 4 --rate 500 --burst
    python bench/sessions_load.py --games 100 --game hegemony_of_faith --players 4 --postgres
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import argparse  # noqa: E402
import asyncio  # noqa: E402
import concurrent.futures  # noqa: E402
import contextlib  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import random  # noqa: E402
import resource  # noqa: E402
import shlex  # noqa: E402
import sqlite3  # noqa: E402
import statistics  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
import tracemalloc  # noqa: E402
from collections.abc import Sequence  # noqa: E402
from typing import Any  # noqa: E402

import asyncpg  # noqa: E402

from bench.pg_server import PgServer, database_size, describe, pg_server  # noqa: E402
from bot.config import Config  # noqa: E402
from bot.errors import StaleAction  # noqa: E402
from bot.gameui import get_ui, register_ui  # noqa: E402
from bot.render import to_png  # noqa: E402
from bot.session import NullDelivery, Sessions, Update  # noqa: E402
from bot.storage import (  # noqa: E402
    DeadlineRow,
    GuildSettings,
    PostgresStorage,
    SeatRow,
    SqliteStorage,
    Storage,
    VersionConflict,
)
from rules import registry  # noqa: E402
from rules.engine import Engine, Event  # noqa: E402
from tests.support import duel  # noqa: E402

registry.register(duel.ENGINE)
register_ui(duel.UI)

CONFIG = Config(token=None, db_path="", dev_guild=None, log_level="WARNING",
                default_deadline=86400, reminder_lead=3600, docs_url="")


class TimedSessions(Sessions):
    """Sessions that record how long each engine step + commit takes."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.step_times: list[float] = []

    async def _apply(self, update: Update, seat: int, action: dict[str, Any], origin: str,
                     user_id: int | None, notes: Sequence[Event] = ()) -> Update:
        t0 = time.perf_counter()
        try:
            return await super()._apply(update, seat, action, origin, user_id, notes)
        finally:
            self.step_times.append(time.perf_counter() - t0)


class CommitTimer:
    """A storage mixin recording how long each ``commit_action`` takes (lock wait included), and
    counting the version races it lost (another process stored a move of that game first)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.commit_times: list[float] = []
        self.races_lost = 0

    async def commit_action(self, game_id: int, **kwargs: Any) -> int:
        t0 = time.perf_counter()
        try:
            version: int = await super().commit_action(game_id, **kwargs)  # type: ignore[misc]
            return version
        except VersionConflict:
            self.races_lost += 1
            raise
        finally:
            self.commit_times.append(time.perf_counter() - t0)


class TimedStorage(CommitTimer, SqliteStorage):
    """The SQLite storage, timing its commits."""


class TimedPostgresStorage(CommitTimer, PostgresStorage):
    """The PostgreSQL storage, timing its commits."""


CPU_MODE = "default"
_ONE_THREAD = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="bench-engine")


async def _one_thread(fn: Any, *args: Any) -> Any:
    return await asyncio.get_running_loop().run_in_executor(_ONE_THREAD, fn, *args)


async def _inline(fn: Any, *args: Any) -> Any:
    return fn(*args)


RUN_CPU: dict[str, Any] = {"one-thread": _one_thread, "inline": _inline}
"""``--cpu``: where engine work runs (default: the session's own choice)."""


def rss_mb() -> float:
    """The resident set size now (``ru_maxrss`` is only the peak)."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[k]


async def new_table(sessions: Sessions, game_key: str, players: int, seed: int) -> int:
    """A started table whose seat 0 is the scripted player (user 10,000 + seed)."""
    user = 10_000 + seed
    table = await sessions.open_table(guild_id=1, channel_id=seed, host_id=user, host_name=f"p{seed}",
                                      game_key=game_key, bots=players - 1, seed=seed)
    await sessions.start(table.id, user)
    return table.id


async def player_move(sessions: Sessions, game_id: int, seed: int, rng: random.Random) -> bool:
    """The scripted player answers its open prompt once; False when the game is over."""
    snap = await sessions.snapshot(game_id)
    if snap.game.status != "active":
        return False
    mine = snap.prompt_of(0)
    if mine is None:
        raise RuntimeError(f"game #{game_id}: nobody to answer {snap.prompts}")
    action = snap.engine.bot_action(snap.view(0), mine.prompt, rng)
    try:
        await sessions.act(game_id, 0, action, user_id=10_000 + seed, answers=mine.ticket)
    except StaleAction:
        pass
    return True


async def play_one(sessions: Sessions, game_key: str, players: int, seed: int,
                   act_times: list[float], stop_at: float = float("inf")) -> int:
    """One table: seat 0 is the scripted player, the rest computer players. Returns its actions
    (the player stops answering at ``stop_at``, a ``time.perf_counter`` time)."""
    user = 10_000 + seed
    table_id = await new_table(sessions, game_key, players, seed)
    rng = random.Random(f"bench/{seed}")
    engine = registry.get(game_key)
    while time.perf_counter() < stop_at:
        snap = await sessions.snapshot(table_id)
        if snap.game.status != "active":
            break
        mine = snap.prompt_of(0)
        if mine is None:
            raise RuntimeError(f"game #{snap.game.id}: nobody to answer {snap.prompts}")
        action = engine.bot_action(snap.view(0), mine.prompt, rng)
        t0 = time.perf_counter()
        try:
            await sessions.act(table_id, 0, action, user_id=user, answers=mine.ticket)
        except StaleAction:
            continue
        act_times.append(time.perf_counter() - t0)
    return len(await sessions.storage.actions(table_id))


async def open_loop(sessions: TimedSessions, game_key: str, games: int, players: int, seed: int,
                    rate: float, duration: float) -> dict[str, Any]:
    """``games`` live tables; player actions arrive at random, ``rate`` per second on average.

    An arrival goes to a random game waiting on its player (none waiting: it is counted as
    dropped, the load generator never queues); it runs as its own task, so arrivals never wait
    for earlier ones."""
    rng = random.Random(f"open-loop/{seed}")
    next_seed = seed
    live: list[int] = []
    seeds: dict[int, int] = {}
    for _ in range(games):
        gid = await new_table(sessions, game_key, players, next_seed)
        seeds[gid], next_seed = next_seed, next_seed + 1
        live.append(gid)
    idle = set(live)
    latencies: list[float] = []
    tasks: set[asyncio.Task[None]] = set()
    dropped = 0
    sessions.step_times.clear()
    sessions.storage.commit_times.clear()  # type: ignore[attr-defined]

    async def arrive(gid: int) -> None:
        nonlocal next_seed
        t0 = time.perf_counter()
        more = await player_move(sessions, gid, seeds[gid], random.Random(f"{seed}/{gid}/{t0}"))
        latencies.append(time.perf_counter() - t0)
        if more and (await sessions.snapshot(gid)).game.status == "active":
            idle.add(gid)
            return
        fresh = await new_table(sessions, game_key, players, next_seed)  # keep ``games`` live
        seeds[fresh], next_seed = next_seed, next_seed + 1
        idle.add(fresh)

    start = time.perf_counter()
    due = start
    arrivals = 0
    while due - start < duration:
        due += rng.expovariate(rate)
        delay = due - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        arrivals += 1
        if not idle:
            dropped += 1
            continue
        gid = rng.choice(tuple(idle))
        idle.discard(gid)
        task = asyncio.get_running_loop().create_task(arrive(gid))
        tasks.add(task)
        task.add_done_callback(tasks.discard)
    await asyncio.gather(*tasks)
    wall = time.perf_counter() - start
    return {"arrivals": arrivals, "dropped": dropped, "wall": wall, "latencies": latencies,
            "steps": list(sessions.step_times),
            "commits": list(sessions.storage.commit_times),  # type: ignore[attr-defined]
            "rss": rss_mb()}


async def burst(sessions: Sessions, seed: int) -> dict[str, Any]:
    """One player action in every live game at the same moment; peak RSS while they run.

    The actions are chosen first, one game at a time (choosing is the client's work: a player's
    click carries no view), then all are sent at once."""
    clicks = []
    for g in await sessions.storage.list_games(statuses=("active",)):
        snap = await sessions.snapshot(g.id)
        mine = snap.prompt_of(0)
        if mine is not None:
            action = snap.engine.bot_action(snap.view(0), mine.prompt, random.Random(f"burst/{g.id}"))
            clicks.append((g.id, 10_000 + g.seed, action, mine.ticket))
    peak = rss_mb()
    running = True

    async def watch() -> None:
        nonlocal peak
        while running:
            peak = max(peak, rss_mb())
            await asyncio.sleep(0.005)

    watcher = asyncio.get_running_loop().create_task(watch())
    t0 = time.perf_counter()
    results = await asyncio.gather(*(sessions.act(gid, 0, action, user_id=user, answers=ticket)
                                     for gid, user, action, ticket in clicks),
                                   return_exceptions=True)
    wall = time.perf_counter() - t0
    running = False
    await watcher
    failed = [r for r in results if isinstance(r, BaseException)]
    if failed:
        raise RuntimeError(f"{len(failed)} of the burst's actions failed") from failed[0]
    return {"games": len(clicks), "wall": wall, "peak_rss": max(peak, rss_mb())}


ROUND = 25
"""Commits per round of the storage cost: Herald's and the floor's are timed in alternate rounds,
so that a change in the machine's speed during the run (frequent on shared machines) weighs on
both alike."""


class SqliteFloor:
    """One plain-sqlite3 transaction per action (update the state, insert the action, commit; WAL,
    synchronous=NORMAL as Herald's): the floor ``commit_action`` is compared with."""

    def __init__(self, folder: str, state: dict[str, Any]) -> None:
        self.conn = sqlite3.connect(os.path.join(folder, "floor.db"), isolation_level=None)
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute("PRAGMA synchronous=NORMAL")
        self.conn.execute("CREATE TABLE games (id INTEGER PRIMARY KEY, state TEXT, version INTEGER)")
        self.conn.execute("CREATE TABLE actions (game_id INTEGER, n INTEGER, action TEXT, "
                          "PRIMARY KEY (game_id, n))")
        self.conn.execute("INSERT INTO games VALUES (1, '{}', 0)")
        self.text = json.dumps(state, sort_keys=True, separators=(",", ":"))
        self.n = 0

    async def run(self, count: int) -> list[float]:
        times = []
        for _ in range(count):
            self.n += 1
            t0 = time.perf_counter()
            self.conn.execute("BEGIN IMMEDIATE")
            self.conn.execute("UPDATE games SET state=?, version=? WHERE id=1", (self.text, self.n))
            self.conn.execute("INSERT INTO actions VALUES (1, ?, ?)", (self.n, '{"type":"pass"}'))
            self.conn.execute("COMMIT")
            times.append(time.perf_counter() - t0)
        return times

    async def close(self) -> None:
        self.conn.close()


class PgFloor:
    """One plain asyncpg transaction per action (update the state, insert the action) on the
    bench's server, in a database of its own: the floor ``commit_action`` is compared with there."""

    def __init__(self, url: str, state: dict[str, Any]) -> None:
        self.url = url
        self.text = json.dumps(state, sort_keys=True, separators=(",", ":"))
        self.n = 0
        self.conn: asyncpg.Connection | None = None

    async def open(self) -> None:
        self.conn = conn = await asyncpg.connect(self.url)
        await conn.execute("CREATE TABLE games (id BIGINT PRIMARY KEY, state TEXT, version BIGINT)")
        await conn.execute("CREATE TABLE actions (game_id BIGINT, n INTEGER, action TEXT, "
                           "PRIMARY KEY (game_id, n))")
        await conn.execute("INSERT INTO games VALUES (1, '{}', 0)")

    async def run(self, count: int) -> list[float]:
        assert self.conn is not None
        times = []
        for _ in range(count):
            self.n += 1
            t0 = time.perf_counter()
            async with self.conn.transaction():
                await self.conn.execute("UPDATE games SET state=$1, version=$2 WHERE id=1",
                                        self.text, self.n)
                await self.conn.execute("INSERT INTO actions VALUES (1, $1, $2)", self.n,
                                        '{"type":"pass"}')
            times.append(time.perf_counter() - t0)
        return times

    async def close(self) -> None:
        if self.conn is not None:
            await self.conn.close()


class HeraldCommits:
    """``commit_action`` of one state in one started game, one at a time (a move a second, the
    same deadline running on), with the event loop's turn between moves as in the bot."""

    def __init__(self, storage: Storage, game_key: str, players: int, seed: int,
                 state: dict[str, Any]) -> None:
        self.storage, self.game_key, self.players, self.seed = storage, game_key, players, seed
        self.state = state
        self.version = 0
        self.gid = 0
        self.deadline: list[DeadlineRow] = []

    async def open(self) -> None:
        storage = self.storage
        await storage.open()
        seats = [SeatRow(k, 1 + k, k > 0, f"p{k}") for k in range(self.players)]
        self.gid = gid = await storage.create_game(
            guild_id=1, channel_id=1, game_key=self.game_key, seed=self.seed, options={},
            host_id=1, deadline=None, now=0.0, seats=seats)
        self.deadline = [DeadlineRow(gid, 0, "turn", 100.0, 50.0, False, 1)]
        await storage.start_game(gid, seats=seats, state=self.state, opened={0: 1},
                                 deadlines=self.deadline, now=0.0)
        await storage.get_game(gid)  # (as the session reads a game before its first move)

    async def run(self, count: int) -> list[float]:
        times = []
        for _ in range(count):
            self.version = version = self.version + 1
            t0 = time.perf_counter()
            await self.storage.commit_action(
                self.gid, expected_version=version, seat=0, action={"type": "pass"},
                origin="player", user_id=1, state=self.state, events=[{"text": "P1 passes."}],
                status="active", result=None, opened={0: version + 1}, answered={0: version},
                deadlines=self.deadline, now=float(version), prompt_kind="pass", secret=False)
            times.append(time.perf_counter() - t0)
            await asyncio.sleep(0)  # (the loop's turn between moves, as in the bot: untimed)
        return times

    async def close(self) -> None:
        await self.storage.close()


async def storage_cost(folder: str, game_key: str, players: int, seed: int,
                       repeat: int, pg: PgServer | None = None) -> tuple[list[float], list[float]]:
    """``commit_action`` of a real mid-game state, one at a time on a quiet storage, and the floor,
    ``repeat`` of each, in alternate rounds of ``ROUND`` (on PostgreSQL with ``pg``: each in a
    database of its own on that server)."""
    engine = registry.get(game_key)
    mid_game_view(engine, players, seed)  # (warms the engine)
    state = engine.to_json(mid_game_state(engine, players, seed))
    async with contextlib.AsyncExitStack() as stack:
        herald: HeraldCommits
        floor: SqliteFloor | PgFloor
        if pg is not None:
            herald = HeraldCommits(PostgresStorage(await stack.enter_async_context(
                pg.database("cost"))), game_key, players, seed, state)
            floor = PgFloor(await stack.enter_async_context(pg.database("floor")), state)
            await floor.open()
        else:
            herald = HeraldCommits(SqliteStorage(os.path.join(folder, "cost.db")), game_key,
                                   players, seed, state)
            floor = SqliteFloor(folder, state)
        stack.push_async_callback(floor.close)
        await herald.open()
        stack.push_async_callback(herald.close)
        cost: list[float] = []
        plain: list[float] = []
        while len(cost) < repeat:
            count = min(ROUND, repeat - len(cost))
            cost += await herald.run(count)
            plain += await floor.run(count)
        return cost, plain


async def run_sessions(game_key: str, games: int, players: int, seed: int, *, rate: float | None,
                       duration: float | None, burst_after: bool,
                       pg: PgServer | None = None, cost_repeat: int = 500) -> dict[str, Any]:
    """The whole run, on a SQLite file in a temporary folder, or with ``pg`` in a new database on
    that PostgreSQL server (dropped after)."""
    async with contextlib.AsyncExitStack() as stack:
        tmp = stack.enter_context(tempfile.TemporaryDirectory(prefix="herald-bench-"))
        cost, floor = await storage_cost(tmp, game_key, players, seed, cost_repeat, pg)
        storage: TimedStorage | TimedPostgresStorage
        if pg is None:
            storage = TimedStorage(os.path.join(tmp, "bench.db"))
        else:
            url = await stack.enter_async_context(pg.database("bench"))
            storage = TimedPostgresStorage(url)
        await storage.open()
        # one server holds every table: lift its limits on open tables and on tables waiting to
        # start (every game is a lobby first) above the bench's count, for it and for one member
        room = 2 * games + 10
        await storage.save_guild_settings(GuildSettings(1, table_limit=room, lobby_limit=room,
                                                        member_table_limit=room, member_lobby_limit=room))
        sessions = TimedSessions(storage, CONFIG, NullDelivery(), run_cpu=RUN_CPU.get(CPU_MODE))
        act_times: list[float] = []
        out: dict[str, Any] = {"games": games, "cost": cost, "floor": floor}
        try:
            t0, cpu0 = time.perf_counter(), time.process_time()
            if rate is None:
                stop_at = t0 + duration if duration else float("inf")
                counts = await asyncio.gather(*(play_one(sessions, game_key, players, seed + i,
                                                         act_times, stop_at)
                                                for i in range(games)))
                out["actions"] = sum(counts)
            else:
                out["open"] = await open_loop(sessions, game_key, games, players, seed, rate,
                                              duration or 20.0)
                out["actions"] = len(sessions.step_times)
            out["wall"] = time.perf_counter() - t0
            out["cpu"] = time.process_time() - cpu0
            out["rss_after"] = rss_mb()
            if burst_after:
                out["burst"] = await burst(sessions, seed)
            if pg is None:
                out["db_bytes"] = sum(os.path.getsize(os.path.join(tmp, f)) for f in os.listdir(tmp))
            else:
                out["db_bytes"] = await database_size(url)
                out["server"] = await describe(url)
                out["pool"] = storage.pool_size if isinstance(storage, PostgresStorage) else 0
        finally:
            await storage.close()
    out.update(steps=sessions.step_times, acts=act_times, commits=storage.commit_times,
               races_lost=storage.races_lost)
    return out


def mid_game_state(engine: Engine[Any], players: int, seed: int) -> Any:
    """The state halfway through a computer game (a representative size to store)."""
    rng = random.Random(f"state/{seed}")
    states = [engine.setup(players, seed, {})]
    for _ in range(20_000):
        prompts = engine.prompts(states[-1])
        if not prompts:
            break
        p = prompts[0]
        states.append(engine.apply(states[-1], p.seat,
                                   engine.bot_action(engine.view(states[-1], p.seat), p, rng))[0])
    return states[len(states) // 2]


def mid_game_view(engine: Engine[Any], players: int, seed: int) -> tuple[dict[str, Any], list[Event]]:
    """The public view (and public events of the last step) halfway through a computer game."""
    rng = random.Random(f"render/{seed}")
    state = engine.setup(players, seed, {})
    history: list[tuple[Any, list[Event]]] = [(state, [])]
    for _ in range(20_000):
        prompts = engine.prompts(state)
        if not prompts:
            break
        p = prompts[0]
        state, events = engine.apply(state, p.seat, engine.bot_action(engine.view(state, p.seat), p, rng))
        history.append((state, events))
    state, events = history[len(history) // 2]
    return engine.view(state, None), [e for e in events if e.to is None]


def render_times(repeat: int, seed: int) -> list[tuple[str, float, float, float, tuple[int, int]]]:
    rows = []
    for key, engine in registry.all_engines().items():
        view, events = mid_game_view(engine, engine.min_players, seed)
        ui = get_ui(key)
        t0 = time.perf_counter()
        image = ui.board_image(view, events)  # cold: builds cached layers
        cold = time.perf_counter() - t0
        draws, encodes = [], []
        for _ in range(repeat):
            t0 = time.perf_counter()
            image = ui.board_image(view, events)
            draws.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            to_png(image)
            encodes.append(time.perf_counter() - t0)
        rows.append((key, cold, statistics.median(draws), statistics.median(encodes), image.size))
    return rows


def add_postgres_arguments(ap: argparse.ArgumentParser, *, optional: bool = True) -> None:
    """The options choosing a PostgreSQL server (shared with ``bench/pg_processes.py``, which
    always runs on PostgreSQL: ``optional`` False)."""
    if optional:
        ap.add_argument("--postgres", action="store_true",
                        help="run over PostgreSQL, on a throwaway server started for the run")
    ap.add_argument("--db", metavar="URL", default=None,
                    help="run over PostgreSQL on this existing server (a postgresql:// URL whose "
                         "user may create databases: the bench's own are dropped after)"
                    + ("" if optional else "; default: a throwaway server started for the run"))
    ap.add_argument("--synchronous-commit", choices=["on", "off"], default=None,
                    help="PostgreSQL's synchronous_commit for the bench's databases (default: "
                         "the server's own; a throwaway server's is on)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--games", type=int, default=20, help="concurrent games (default 20)")
    ap.add_argument("--game", default="duel", help="game key (default: duel, the test game)")
    ap.add_argument("--players", type=int, default=None, help="players per game (default: minimum)")
    ap.add_argument("--seed", type=int, default=1, help="first seed (game i uses seed + i)")
    ap.add_argument("--renders", type=int, default=5, help="board images drawn per game for the median")
    ap.add_argument("--no-render", action="store_true", help="skip the render timings")
    ap.add_argument("--tracemalloc", action="store_true", help="also report the tracemalloc peak (slow)")
    ap.add_argument("--rate", type=float, default=None,
                    help="open loop: player actions arriving per second (default: closed loop)")
    ap.add_argument("--duration", type=float, default=None,
                    help="seconds of play (closed loop: players stop answering then, default: "
                         "play every game to its end; open loop: of arrivals, default 20)")
    ap.add_argument("--burst", action="store_true",
                    help="then one action in every live game at the same moment (peak RSS)")
    ap.add_argument("--cpu", choices=["default", *RUN_CPU], default="default",
                    help="where engine work runs: the session's default, one worker thread, or "
                         "inline on the event loop")
    ap.add_argument("--cost-repeat", type=int, default=500,
                    help="commits timed one at a time for the storage cost (default 500)")
    add_postgres_arguments(ap)
    args = ap.parse_args(argv)
    global CPU_MODE
    CPU_MODE = args.cpu

    engine = registry.get(args.game)
    players = args.players or engine.min_players
    engine.validate_options(players, {})
    if args.tracemalloc:
        tracemalloc.start()
    with contextlib.ExitStack() as stack:
        pg = (stack.enter_context(pg_server(args.db, args.synchronous_commit))
              if args.postgres or args.db else None)
        result = asyncio.run(run_sessions(args.game, args.games, players, args.seed, rate=args.rate,
                                          duration=args.duration, burst_after=args.burst, pg=pg,
                                          cost_repeat=args.cost_repeat))
    traced_peak = tracemalloc.get_traced_memory()[1] if args.tracemalloc else None
    if args.tracemalloc:
        tracemalloc.stop()
    maxrss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux

    ms = 1000.0
    steps, acts = result["steps"], result["acts"]
    commits = result["commits"]
    if "open" in result:  # (the open loop's own steps: not those of opening tables or a burst)
        steps, commits = result["open"]["steps"], result["open"]["commits"]
    print(f"command: python bench/sessions_load.py {shlex.join(sys.argv[1:] if argv is None else argv)}")
    if pg is None:
        print(f"Python {sys.version.split()[0]}, SQLite file in a temp folder, NullDelivery")
    else:
        print(f"Python {sys.version.split()[0]}, {result['server']} on {pg.description}, "
              f"asyncpg pool of {result['pool']}, NullDelivery")
    print()
    cost, floor = statistics.median(result["cost"]), statistics.median(result["floor"])
    print(f"storage cost per action, one game at a time (median of {len(result['cost'])})")
    print(f"  {'commit_action':<34} {cost * 1e6:.0f} µs")
    if pg is None:
        print(f"  {'plain sqlite3 (update+insert+commit)':<34} {floor * 1e6:.0f} µs")
    else:
        print(f"  {'plain asyncpg (update+insert, 1 tx)':<34} {floor * 1e6:.0f} µs")
    print(f"  {'ratio':<34} {cost / floor:.2f}x")
    pairs = sorted(statistics.median(result["cost"][i:i + ROUND])
                   / statistics.median(result["floor"][i:i + ROUND])
                   for i in range(0, len(result["cost"]), ROUND))
    print(f"  {'ratio by round, p10 / p50 / p90':<34} {percentile(pairs, 10):.2f} / "
          f"{percentile(pairs, 50):.2f} / {percentile(pairs, 90):.2f}x  "
          f"({len(pairs)} rounds of {ROUND}, each beside the floor's next)")
    print()
    print(f"{engine.name} ({args.game}), {players} players, {args.games} concurrent games"
          + (f", open loop at {args.rate:g} player actions/s" if args.rate else ""))
    print(f"  {'actions':<34} {result['actions']}")
    print(f"  {'wall time':<34} {result['wall']:.2f} s")
    print(f"  {'throughput':<34} {result['actions'] / result['wall']:.0f} actions/s")
    if "open" in result:
        o = result["open"]
        print(f"  {'arrivals (dropped: none waiting)':<34} {o['arrivals']} ({o['dropped']}), "
              f"{o['arrivals'] / o['wall']:.0f}/s")
        print(f"  {'arrival→answered p50 / p99':<34} {percentile(o['latencies'], 50) * ms:.2f} / "
              f"{percentile(o['latencies'], 99) * ms:.2f} ms  (incl. computer replies)")
        print(f"  {'actions/s in the open loop':<34} {len(o['steps']) / o['wall']:.0f}")
    print(f"  {'step (apply + commit) p50 / p99':<34} {percentile(steps, 50) * ms:.2f} / "
          f"{percentile(steps, 99) * ms:.2f} ms  (n={len(steps)})")
    print(f"  {'Sessions.act call p50 / p99':<34} {percentile(acts, 50) * ms:.2f} / "
          f"{percentile(acts, 99) * ms:.2f} ms  (n={len(acts)}, incl. computer replies)")
    print(f"  {'commit_action under load p50 / p99':<34} {percentile(commits, 50) * ms:.2f} / "
          f"{percentile(commits, 99) * ms:.2f} ms  (lock waits included)")
    if pg is not None:
        print(f"  {'version races lost':<34} {result['races_lost']}")
        print(f"  {'CPU of this process (all threads)':<34} {result['cpu']:.1f} s, "
              f"{result['cpu'] / result['wall']:.0%} of one core, "
              f"{result['cpu'] / max(1, result['actions']) * ms:.2f} ms per action")
    print(f"  {'database size':<34} {result['db_bytes'] / 1024:.0f} KiB")
    print(f"  {'RSS after the games':<34} {result['rss_after']:.0f} MiB")
    if "burst" in result:
        b = result["burst"]
        print(f"  {'burst: one action in each game':<34} {b['games']} at once, {b['wall']:.2f} s, "
              f"peak RSS {b['peak_rss']:.0f} MiB")
    print(f"  {'peak RSS (ru_maxrss)':<34} {maxrss_mb:.0f} MiB")
    if traced_peak is not None:
        print(f"  {'tracemalloc peak':<34} {traced_peak / 2**20:.1f} MiB")
    if not args.no_render:
        print()
        print(f"board_image on a mid-game public view (median of {args.renders}, after one cold draw)")
        print(f"  {'game':<20} {'size':>10} {'cold ms':>9} {'draw ms':>9} {'png ms':>9}")
        for key, cold, draw, encode, size in render_times(args.renders, args.seed):
            print(f"  {key:<20} {size[0]:>4}x{size[1]:<5} {cold * ms:>9.1f} {draw * ms:>9.1f} "
                  f"{encode * ms:>9.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
