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

    python bench/sessions_load.py                      # 20 concurrent High Card Duel games
    python bench/sessions_load.py --games 50 --game cult_wars --players 4
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import argparse  # noqa: E402
import asyncio  # noqa: E402
import os  # noqa: E402
import random  # noqa: E402
import resource  # noqa: E402
import shlex  # noqa: E402
import statistics  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
import tracemalloc  # noqa: E402
from typing import Any  # noqa: E402

from bot.config import Config  # noqa: E402
from bot.gameui import get_ui, register_ui  # noqa: E402
from bot.render import to_png  # noqa: E402
from bot.session import NullDelivery, Sessions, StaleAction, Update  # noqa: E402
from bot.storage import SqliteStorage  # noqa: E402
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
                     user_id: int | None) -> Update:
        t0 = time.perf_counter()
        try:
            return await super()._apply(update, seat, action, origin, user_id)
        finally:
            self.step_times.append(time.perf_counter() - t0)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[k]


async def play_one(sessions: Sessions, game_key: str, players: int, seed: int,
                   act_times: list[float]) -> int:
    """One table: seat 0 is the scripted player, the rest computer players. Returns its actions."""
    user = 10_000 + seed
    table = await sessions.open_table(guild_id=1, channel_id=seed, host_id=user, host_name=f"p{seed}",
                                      game_key=game_key, bots=players - 1, seed=seed)
    await sessions.start(table.id, user)
    rng = random.Random(f"bench/{seed}")
    engine = registry.get(game_key)
    while True:
        snap = await sessions.snapshot(table.id)
        if snap.game.status != "active":
            break
        mine = snap.prompt_of(0)
        if mine is None:
            raise RuntimeError(f"game #{snap.game.id}: nobody to answer {snap.prompts}")
        action = engine.bot_action(snap.view(0), mine.prompt, rng)
        t0 = time.perf_counter()
        try:
            await sessions.act(table.id, 0, action, user_id=user, answers=mine.ticket)
        except StaleAction:
            continue
        act_times.append(time.perf_counter() - t0)
    return len(await sessions.storage.actions(table.id))


async def run_sessions(game_key: str, games: int, players: int, seed: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="herald-bench-") as tmp:
        storage = SqliteStorage(os.path.join(tmp, "bench.db"))
        await storage.open()
        sessions = TimedSessions(storage, CONFIG, NullDelivery())
        act_times: list[float] = []
        try:
            t0 = time.perf_counter()
            counts = await asyncio.gather(*(play_one(sessions, game_key, players, seed + i, act_times)
                                            for i in range(games)))
            wall = time.perf_counter() - t0
            db_bytes = sum(os.path.getsize(os.path.join(tmp, f)) for f in os.listdir(tmp))
        finally:
            await storage.close()
    actions = sum(counts)
    return {"games": games, "actions": actions, "wall": wall, "steps": sessions.step_times,
            "acts": act_times, "db_bytes": db_bytes}


def mid_game_view(engine: Engine, players: int, seed: int) -> tuple[dict[str, Any], list[Event]]:
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


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--games", type=int, default=20, help="concurrent games (default 20)")
    ap.add_argument("--game", default="duel", help="game key (default: duel, the test game)")
    ap.add_argument("--players", type=int, default=None, help="players per game (default: minimum)")
    ap.add_argument("--seed", type=int, default=1, help="first seed (game i uses seed + i)")
    ap.add_argument("--renders", type=int, default=5, help="board images drawn per game for the median")
    ap.add_argument("--no-render", action="store_true", help="skip the render timings")
    ap.add_argument("--tracemalloc", action="store_true", help="also report the tracemalloc peak (slow)")
    args = ap.parse_args(argv)

    engine = registry.get(args.game)
    players = args.players or engine.min_players
    engine.validate_options(players, {})
    if args.tracemalloc:
        tracemalloc.start()
    result = asyncio.run(run_sessions(args.game, args.games, players, args.seed))
    traced_peak = tracemalloc.get_traced_memory()[1] if args.tracemalloc else None
    if args.tracemalloc:
        tracemalloc.stop()
    maxrss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux

    ms = 1000.0
    steps, acts = result["steps"], result["acts"]
    print(f"command: python bench/sessions_load.py {shlex.join(sys.argv[1:] if argv is None else argv)}")
    print(f"Python {sys.version.split()[0]}, SQLite file in a temp folder, NullDelivery")
    print()
    print(f"{engine.name} ({args.game}), {players} players, {args.games} concurrent games")
    print(f"  {'actions':<34} {result['actions']}")
    print(f"  {'wall time':<34} {result['wall']:.2f} s")
    print(f"  {'throughput':<34} {result['actions'] / result['wall']:.0f} actions/s")
    print(f"  {'step (apply + commit) p50 / p99':<34} {percentile(steps, 50) * ms:.2f} / "
          f"{percentile(steps, 99) * ms:.2f} ms  (n={len(steps)})")
    print(f"  {'Sessions.act call p50 / p99':<34} {percentile(acts, 50) * ms:.2f} / "
          f"{percentile(acts, 99) * ms:.2f} ms  (n={len(acts)}, incl. computer replies)")
    print(f"  {'database size':<34} {result['db_bytes'] / 1024:.0f} KiB")
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
