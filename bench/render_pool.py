"""Render pool benchmark: boards drawn in-process or in worker processes, under game load.

While ``--games`` games run flat out through the session layer (real SQLite file, deliveries
discarded, as in ``bench/sessions_load.py``: seat 0 a scripted player, the others computer
players), ``--renderers`` tasks draw public boards of the same game (mid-game views, drawn and
PNG-encoded, as the delivery does for every update) for ``--duration`` seconds:

* ``none``: no drawing at all (the game load alone, for comparison);
* ``in-process``: drawn on the bot's thread pool (``HERALD_RENDER_PROCESSES=0``);
* ``pool``: drawn by ``--processes`` worker processes (``bot.render.pool.RenderPool``).

Reported per mode, as the median over ``--repeats`` runs: boards per second, the games' actions
per second, the event loop's lag p99 (how late a 1 ms timer fires: how long the loop was kept
from other work — every interaction, every game), the p99 of an engine step + commit
(``Sessions._apply``), and memory: the workers' RSS, and the bot's (which never shrinks, so a
later mode shows the earlier ones' peak too: give one ``--modes`` per run for its own figure).

    python bench/render_pool.py
    python bench/render_pool.py --game cult_wars --players 4 --games 50 --renderers 8 --repeats 5
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
import tempfile  # noqa: E402
import time  # noqa: E402
from typing import Any  # noqa: E402

from report import median_table  # noqa: E402
from sessions_load import CONFIG, TimedSessions, TimedStorage, percentile, play_one, rss_mb  # noqa: E402

from bot.render import pool as render_pool  # noqa: E402
from bot.render.pool import RenderPool  # noqa: E402
from rules import registry  # noqa: E402
from rules.engine import Event  # noqa: E402

MODES = ("none", "in-process", "pool")
NAMES = ["Ann", "Bob", "Zoë", "Dee", "Eve", "Finn", "Gus", "Hal"]


def positions(game: str, players: int, count: int = 12) -> list[tuple[dict[str, Any], list[Event]]]:
    """Public views (and the last move's public events) along a game between computer players."""
    engine = registry.get(game)
    state = engine.setup(players, 5, {})
    rng = random.Random(5)
    out: list[tuple[dict[str, Any], list[Event]]] = []
    while engine.result(state) is None and len(out) < count * 4:
        prompt = engine.prompts(state)[0]
        action = engine.bot_action(engine.view(state, prompt.seat), prompt, rng)
        state, events = engine.apply(state, prompt.seat, action)
        out.append((engine.view(state, None), [e for e in events if e.to is None]))
    return out[::4][:count] or out


def worker_rss_mb(pids: set[int]) -> float:
    total = 0.0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/statm") as f:
                total += int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
        except OSError:
            pass
    return total


async def one_run(mode: str, args: argparse.Namespace, views: list[Any], seed: int) -> dict[str, float]:
    folder = tempfile.mkdtemp(prefix="herald-render-bench-")
    storage = TimedStorage(os.path.join(folder, "herald.db"))
    await storage.open()
    sessions = TimedSessions(storage, CONFIG)
    pool = RenderPool(args.processes if mode == "pool" else 0, sessions.cpu)
    pids = await pool.worker_pids()  # (started and warmed before the clock starts)
    names = NAMES[:args.players]
    boards = 0
    lags: list[float] = []
    stop_at = time.perf_counter() + args.duration
    try:
        async def renderer(k: int) -> None:
            nonlocal boards
            i = k
            while time.perf_counter() < stop_at:
                view, events = views[i % len(views)]
                await pool.draw(render_pool.board_png, args.game, view, events, names)
                boards += 1
                i += 1

        async def ticker() -> None:
            while time.perf_counter() < stop_at:
                t0 = time.perf_counter()
                await asyncio.sleep(0.001)
                lags.append(time.perf_counter() - t0 - 0.001)

        act_times: list[float] = []
        started = time.perf_counter()
        jobs = [play_one(sessions, args.game, args.players, seed * 1000 + g, act_times, stop_at)
                for g in range(args.games)]
        if mode != "none":
            jobs += [renderer(k) for k in range(args.renderers)]
        actions = await asyncio.gather(ticker(), *jobs)
        wall = time.perf_counter() - started
        workers = worker_rss_mb(pids)
        return {"boards/s": boards / wall, "actions/s": sum(a for a in actions if a) / wall,
                "loop lag p99 ms": percentile(lags, 99) * 1000,
                "step p99 ms": percentile(sessions.step_times, 99) * 1000,
                "bot RSS MB (so far)": rss_mb(), "workers RSS MB": workers}
    finally:
        pool.close()
        await storage.close()


async def main(args: argparse.Namespace) -> None:
    views = positions(args.game, args.players)
    print(f"# {shlex.join([sys.executable.rsplit('/', 1)[-1], *sys.argv])}")
    print(f"# {os.cpu_count()} cores; {args.games} games of {args.game} ({args.players} players) "
          f"flat out, {args.renderers} boards drawn at a time, {args.duration:g} s a run, "
          f"median of {args.repeats} runs; pool: {args.processes} worker process(es)")
    await median_table(args.modes, args.repeats, lambda mode, seed: one_run(mode, args, views, seed=seed))


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--game", default="hegemony_of_faith")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--games", type=int, default=20, help="games running flat out at the same time")
    p.add_argument("--renderers", type=int, default=4, help="boards being drawn at the same time")
    p.add_argument("--processes", type=int, default=1, help="worker processes of the pool mode")
    p.add_argument("--duration", type=float, default=5.0, help="seconds per run")
    p.add_argument("--repeats", type=int, default=3, help="runs per mode (the median is reported)")
    p.add_argument("--modes", nargs="+", choices=MODES, default=list(MODES))
    return p.parse_args(argv)


if __name__ == "__main__":
    asyncio.run(main(parse()))
