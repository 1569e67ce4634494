"""Flick starvation benchmark: do Flick of Faith's computer players slow every other game down?

Flick of Faith's computer player simulates its candidate flicks (milliseconds of Python per move).
On a thread of the bot's own process that search holds the interpreter that every other game's
moves need; in a worker process (``Engine.heavy_bot``, ``bot.render.pool.WorkPool.search``) it
does not. While ``--games`` Hegemony of Faith games run flat out through the session layer (real
SQLite file, deliveries discarded, as in ``bench/sessions_load.py``: seat 0 a scripted player,
the others computer players), ``--flick-games`` Flick of Faith tables of computer players only
play game after game for ``--duration`` seconds:

* ``none``: no Flick game at all (Hegemony of Faith alone, for comparison);
* ``in-process``: the Flick searches run on the bot's thread pool (``HERALD_RENDER_PROCESSES=0``);
* ``pool``: they run in ``--processes`` worker processes.

Reported per mode, as the median over ``--repeats`` runs: Hegemony of Faith's actions per second
and the p50/p99 of its engine step + commit (``Sessions._apply``) and of a player's action with
the computer replies it sets off (``Sessions.act``), Flick of Faith's actions per second, and the
event loop's lag p99 (how late a 1 ms timer fires). First, the Flick search's own cost: the median
ms of one computer player's answer (``bot_action`` from its view, in this process, unloaded), over
every prompt and over flicks only.

    python bench/flick_starvation.py
    python bench/flick_starvation.py --games 50 --flick-games 4 --duration 8 --repeats 3
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import argparse  # noqa: E402
import asyncio  # noqa: E402
import os  # noqa: E402
import random  # noqa: E402
import shlex  # noqa: E402
import statistics  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable, Coroutine, Sequence  # noqa: E402
from typing import Any  # noqa: E402

from report import median_table  # noqa: E402
from sessions_load import CONFIG, TimedStorage, percentile, play_one  # noqa: E402

from bot.render.pool import WorkPool  # noqa: E402
from bot.session import NullDelivery, Sessions, Update  # noqa: E402
from bot.storage import GuildSettings  # noqa: E402
from rules import registry  # noqa: E402
from rules.engine import Event  # noqa: E402

MODES = ("none", "in-process", "pool")
HOF = "hegemony_of_faith"
FLICK = "flick_of_faith"


class KeyedSessions(Sessions):
    """Sessions that record how long each engine step + commit takes, per game."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.step_times: dict[str, list[float]] = {HOF: [], FLICK: []}

    async def _apply(self, update: Update, seat: int, action: dict[str, Any], origin: str,
                     user_id: int | None, notes: Sequence[Event] = ()) -> Update:
        t0 = time.perf_counter()
        try:
            return await super()._apply(update, seat, action, origin, user_id, notes)
        finally:
            self.step_times.setdefault(update.snap.engine.key, []).append(time.perf_counter() - t0)


def search_ms(players: int, games: int = 4) -> tuple[float, float, int]:
    """Median ms of one Flick of Faith computer player's answer (every prompt; flicks only), and
    how many were timed, along ``games`` seeded games between computer players."""
    engine = registry.get(FLICK)
    every: list[float] = []
    flicks: list[float] = []
    for seed in range(1, games + 1):
        state = engine.setup(players, seed, {})
        rng = random.Random(seed)
        while engine.result(state) is None:
            prompt = engine.prompts(state)[0]
            t0 = time.perf_counter()
            action = engine.bot_action(engine.view(state, prompt.seat), prompt, rng)
            took = (time.perf_counter() - t0) * 1000
            every.append(took)
            if prompt.kind == "flick":
                flicks.append(took)
            state, _ = engine.apply(state, prompt.seat, action)
    return statistics.median(every), statistics.median(flicks), len(every)


async def flick_table(sessions: Sessions, players: int, seed: int, stop_at: float) -> None:
    """Flick of Faith games of computer players only, one after the other until ``stop_at`` (a
    game is played to its end at its start: the computer players answer each other)."""
    while time.perf_counter() < stop_at:
        table = await sessions.open_table(guild_id=1, channel_id=seed, host_id=None,
                                          host_name="Ann", game_key=FLICK, bots=players,
                                          seed=seed, host_plays=False)
        await sessions.start(table.id, None)
        seed += 1


Beside = Callable[[Sessions, float], list[Coroutine[Any, Any, Any]]]
"""The other tables of a run: their jobs, given the sessions and the time the run stops."""


async def run_beside(prefix: str, processes: int, games: int, duration: float, seed: int,
                     beside: Beside, others: str, other_name: str) -> dict[str, float]:
    """One run: ``games`` Hegemony of Faith games (4 players) flat out for ``duration`` seconds
    beside the tables ``beside`` gives, on a fresh database with a pool of ``processes`` workers;
    the Hegemony tables' speed and steps, the others' moves a second (as ``other_name``, of the
    game ``others``), the event loop's lag and the pool's fallbacks."""
    folder = tempfile.mkdtemp(prefix=prefix)
    storage = TimedStorage(os.path.join(folder, "herald.db"))
    await storage.open()
    await storage.save_guild_settings(GuildSettings(1, table_limit=100_000))
    sessions = KeyedSessions(storage, CONFIG, NullDelivery())
    pool = WorkPool(processes, sessions.cpu)
    sessions.searches = pool
    await pool.worker_pids()  # (started and warmed before the clock starts)
    lags: list[float] = []
    stop_at = time.perf_counter() + duration
    try:
        async def ticker() -> None:
            while time.perf_counter() < stop_at:
                t0 = time.perf_counter()
                await asyncio.sleep(0.001)
                lags.append(time.perf_counter() - t0 - 0.001)

        act_times: list[float] = []
        started = time.perf_counter()
        jobs: list[Coroutine[Any, Any, Any]] = [
            play_one(sessions, HOF, 4, seed * 1000 + g, act_times, stop_at) for g in range(games)]
        await asyncio.gather(ticker(), *jobs, *beside(sessions, stop_at))
        wall = time.perf_counter() - started
        hof = sessions.step_times[HOF]
        other = sessions.step_times.get(others, []) if others != HOF else []
        return {"HoF actions/s": len(hof) / wall,
                "HoF step p50 ms": percentile(hof, 50) * 1000,
                "HoF step p99 ms": percentile(hof, 99) * 1000,
                "HoF act p50 ms": percentile(act_times, 50) * 1000,
                "HoF act p99 ms": percentile(act_times, 99) * 1000,
                other_name: len(other) / wall,
                "loop lag p99 ms": percentile(lags, 99) * 1000,
                "pool fallbacks": float(pool.fallbacks)}
    finally:
        pool.close()
        await storage.close()


async def one_run(mode: str, args: argparse.Namespace, seed: int) -> dict[str, float]:
    def flicks(sessions: Sessions, stop_at: float) -> list[Coroutine[Any, Any, Any]]:
        if mode == "none":
            return []
        return [flick_table(sessions, args.flick_players, seed * 100_000 + 1000 * k, stop_at)
                for k in range(args.flick_games)]

    return await run_beside("herald-flick-bench-", args.processes if mode == "pool" else 0,
                            args.games, args.duration, seed, flicks, FLICK, "Flick actions/s")


async def main(args: argparse.Namespace) -> None:
    print(f"# {shlex.join([sys.executable.rsplit('/', 1)[-1], *sys.argv])}")
    every, flicks, moves = search_ms(args.flick_players)
    print(f"# Flick of Faith computer player, {args.flick_players} players, unloaded, in-process: "
          f"median {every:.2f} ms per answer over {moves} answers, {flicks:.2f} ms per flick")
    print(f"# {os.cpu_count()} cores; {args.games} games of {HOF} (4 players) flat out beside "
          f"{args.flick_games} tables of {FLICK} ({args.flick_players} computer players), "
          f"{args.duration:g} s a run, median of {args.repeats} runs; pool: {args.processes} "
          f"worker process(es); load average {os.getloadavg()[0]:.2f} at the start")
    await median_table(args.modes, args.repeats, lambda mode, seed: one_run(mode, args, seed=seed))


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=20, help="Hegemony of Faith games (4 players) flat out")
    p.add_argument("--flick-games", type=int, default=2,
                   help="Flick of Faith tables of computer players beside them")
    p.add_argument("--flick-players", type=int, default=4, choices=(2, 3, 4))
    p.add_argument("--processes", type=int, default=1, help="worker processes of the pool mode")
    p.add_argument("--duration", type=float, default=5.0, help="seconds per run")
    p.add_argument("--repeats", type=int, default=3, help="runs per mode (the median is reported)")
    p.add_argument("--modes", nargs="+", choices=MODES, default=list(MODES))
    return p.parse_args(argv)


if __name__ == "__main__":
    asyncio.run(main(parse()))
