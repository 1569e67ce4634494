"""Engine benchmark: the CPU of one step, per engine call, without the platform around it.

For every action the session layer (``Sessions._apply``) asks the game's engine for: the new state
(``apply``, which clones), the open prompts, each seat's private view (to know whose hand changed),
the state's JSON and the result, plus the computer player's choice from its own view, and the
state from its JSON when a game is read back. This bench plays seeded games of computer players
only, in this process and with nothing else running, and times each of those calls around every
action taken:

* ``apply``, ``prompts``, ``result``;
* ``private_view``: every seat's, together (one figure per action);
* ``to_json``, and ``from_json`` of that JSON after a round trip through text (as stored);
* ``view+bot``: the acting seat's view and the computer player's choice from it;
* ``total``: the sum of the above for the action.

Each game (``--game``, default all registered) is played ``--repeats`` times (seeds 1, 2, …) at
``--players`` players, or the nearest count the game allows; the table shows the median over those
games of each game's median (``µs``) and 99th percentile (``p99``) microseconds per call. Flick of
Faith's computer player is a physics search (milliseconds per move), so its ``view+bot`` and total
are of another order than the rest.

    python bench/engine_steps.py
    python bench/engine_steps.py --game hegemony_of_faith --game cult_wars --repeats 10
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import argparse  # noqa: E402
import asyncio  # noqa: E402
import json  # noqa: E402
import random  # noqa: E402
import shlex  # noqa: E402
import statistics  # noqa: E402
from collections.abc import Sequence  # noqa: E402
from time import perf_counter_ns  # noqa: E402
from typing import Any  # noqa: E402

from report import median_table  # noqa: E402

from rules import registry  # noqa: E402
from rules.engine import Engine  # noqa: E402

CALLS = ("apply", "prompts", "private_view", "to_json", "from_json", "view+bot", "result", "total")
MAX_ACTIONS = 20000


def seats_for(engine: Engine[Any], wanted: int) -> int:
    """``wanted`` players, or the nearest count the game allows."""
    return max(engine.min_players, min(engine.max_players, wanted))


def p99(xs: Sequence[float]) -> float:
    ordered = sorted(xs)
    return ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]


def play(engine: Engine[Any], players: int, seed: int) -> dict[str, list[float]]:
    """One seeded game of computer players; microseconds of each call, per action."""
    rng = random.Random(seed)
    times: dict[str, list[float]] = {c: [] for c in CALLS}
    state = engine.setup(players, seed)
    seats = range(players)
    for _ in range(MAX_ACTIONS):
        t0 = perf_counter_ns()
        open_ = engine.prompts(state)
        t1 = perf_counter_ns()
        prompt = rng.choice(open_)
        action = engine.bot_action(engine.view(state, prompt.seat), prompt, rng)
        t2 = perf_counter_ns()
        state, _events = engine.apply(state, prompt.seat, action)
        t3 = perf_counter_ns()
        for k in seats:
            engine.private_view(state, k)
        t4 = perf_counter_ns()
        data = engine.to_json(state)
        t5 = perf_counter_ns()
        stored = json.loads(json.dumps(data))
        t6 = perf_counter_ns()
        engine.from_json(stored)
        t7 = perf_counter_ns()
        over = engine.result(state) is not None
        t8 = perf_counter_ns()
        spent = {"prompts": t1 - t0, "view+bot": t2 - t1, "apply": t3 - t2, "private_view": t4 - t3,
                 "to_json": t5 - t4, "from_json": t7 - t6, "result": t8 - t7}
        for call, ns in spent.items():
            times[call].append(ns / 1000)
        times["total"].append(sum(spent.values()) / 1000)
        if over:
            return times
    raise RuntimeError(f"{engine.name} did not end within {MAX_ACTIONS} actions")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", action="append", help="game key (repeatable; default: every game)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--repeats", type=int, default=10, help="seeded games per game")
    args = parser.parse_args(argv)
    print(f"command: python bench/engine_steps.py {shlex.join(sys.argv[1:] if argv is None else argv)}")
    games = args.game or list(registry.all_engines())
    actions: dict[str, list[int]] = {g: [] for g in games}

    async def run(game: str, seed: int) -> dict[str, float]:
        engine = registry.get(game)
        times = play(engine, seats_for(engine, args.players), seed)
        actions[game].append(len(times["total"]))
        row: dict[str, float] = {}
        for call in CALLS:
            row[f"{call} µs"] = statistics.median(times[call])
            row[f"{call} p99"] = p99(times[call])
        return row

    for game in games:
        engine = registry.get(game)
        print(f"{game}: {seats_for(engine, args.players)} players")
    asyncio.run(median_table(games, args.repeats, run))
    for game in games:
        print(f"{game}: median {statistics.median(actions[game]):.0f} actions per game")


if __name__ == "__main__":
    main()
