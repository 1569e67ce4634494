"""Search starvation benchmark: does a table of four ``hard`` computer players slow other tables?

A ``hard`` computer player searches for about half a second per decision (``rules.search``). The
platform runs those searches in its worker processes (``bot.render.pool.WorkPool``), never on the
event loop, so a table of searching computer players should cost the other tables nothing but a
share of the machine. Measured as ``bench/flick_starvation.py`` does: ``--games`` Hegemony of
Faith games run flat out through the session layer (real SQLite file, deliveries discarded; seat 0
a scripted player, the others plain computer players) for ``--duration`` seconds, and

* ``none``: alone, for comparison;
* ``hard``: beside ``--tables`` tables of four computer players of ``--game`` at the table option
  ``computer=hard``, game after game, their searches in ``--processes`` worker processes.

Reported per mode, the median over ``--repeats`` runs: Hegemony of Faith's actions per second,
the p50/p99 of its engine step + commit and of a player's action with the computer replies it
sets off, the searching table's decisions per second, and the event loop's lag p99.

    python bench/search_starvation.py
    python bench/search_starvation.py --game cult_wars --duration 10 --repeats 3

Measured on two cores shared with other work (load average about 10), the defaults gave: alone,
148.7 Hegemony of Faith actions/s, step p50/p99 0.3/53.1 ms, action p99 138.4 ms; beside four
``hard`` Flick of Faith players (1.7 searched decisions a second), 143.7 actions/s, step p50/p99
0.4/53.0 ms, action p99 134.8 ms: the other tables' step p99 is unchanged.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import argparse  # noqa: E402
import asyncio  # noqa: E402
import os  # noqa: E402
import shlex  # noqa: E402
import time  # noqa: E402
from collections.abc import Coroutine  # noqa: E402
from typing import Any  # noqa: E402

from flick_starvation import HOF, run_beside  # noqa: E402
from report import median_table  # noqa: E402

from bot.session import Sessions  # noqa: E402
from rules import registry, search  # noqa: E402

MODES = ("none", "hard")


async def hard_table(sessions: Sessions, game: str, seed: int, stop_at: float) -> None:
    """Games of four ``hard`` computer players of ``game``, one after the other until
    ``stop_at`` (a game is played at its start, the computer players answering each other: the
    one still running at ``stop_at`` is stopped there)."""
    while (left := stop_at - time.perf_counter()) > 0:
        table = await sessions.open_table(guild_id=1, channel_id=seed, host_id=None,
                                          host_name="Ann", game_key=game, bots=4, seed=seed,
                                          host_plays=False,
                                          options={search.STRENGTH_OPTION: "hard"})
        try:
            await asyncio.wait_for(sessions.start(table.id, None), left)
        except TimeoutError:
            return
        seed += 1


async def one_run(mode: str, args: argparse.Namespace, seed: int) -> dict[str, float]:
    def hard_tables(sessions: Sessions, stop_at: float) -> list[Coroutine[Any, Any, Any]]:
        if mode == "none":
            return []
        return [hard_table(sessions, args.game, seed * 100_000 + 1000 * k, stop_at)
                for k in range(args.tables)]

    figures: dict[str, float] = await run_beside("herald-search-bench-", args.processes, args.games,
                                                 args.duration, seed, hard_tables, args.game,
                                                 "hard decisions/s")
    return figures


async def main(args: argparse.Namespace) -> None:
    print(f"# {shlex.join([sys.executable.rsplit('/', 1)[-1], *sys.argv])}")
    engine = registry.get(args.game)
    print(f"# {os.cpu_count()} cores; {args.games} games of {HOF} (4 players) flat out beside "
          f"{args.tables} table(s) of {engine.name} (4 hard computer players, budget "
          f"{search.budget_for(engine, 'hard')}), {args.duration:g} s a run, median of "
          f"{args.repeats} runs; pool: {args.processes} worker process(es); load average "
          f"{os.getloadavg()[0]:.2f} at the start")
    await median_table(args.modes, args.repeats, lambda mode, seed: one_run(mode, args, seed=seed))


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--game", default="flick_of_faith",
                   help="the game of the hard computer players' table (four seats)")
    p.add_argument("--games", type=int, default=8,
                   help="Hegemony of Faith games (4 players) flat out (with many more, their "
                        "moves alone fill the event loop: no other table gets a turn)")
    p.add_argument("--tables", type=int, default=1, help="tables of four hard computer players")
    p.add_argument("--processes", type=int, default=1, help="worker processes of the pool")
    p.add_argument("--duration", type=float, default=8.0, help="seconds per run")
    p.add_argument("--repeats", type=int, default=3, help="runs per mode (the median is reported)")
    p.add_argument("--modes", nargs="+", choices=MODES, default=list(MODES))
    return p.parse_args(argv)


if __name__ == "__main__":
    asyncio.run(main(parse()))
