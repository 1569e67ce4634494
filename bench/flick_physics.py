"""Benchmark: Flick of Faith flick resolution, board PNG and flick GIF.

Run: python bench/flick_physics.py [--repeats N]
Prints median and p95 times of a whole engine flick (validation, wobble, pymunk simulation,
bookkeeping) with 1, 20 and 40 discs on the map, of one computer-player move's flick search
(today's search and the former exact one, on the same boards: every flick decision of seeded
2-, 3- and 4-player games), and the encode time and size of the board PNG and of the flick GIF.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.render import to_png  # noqa: E402
from cogs.flick_of_faith.ui import UI  # noqa: E402
from rules.flick_of_faith import ENGINE as E  # noqa: E402
from rules.flick_of_faith import bot  # noqa: E402
from rules.flick_of_faith import map as board  # noqa: E402


def crowded(n_discs: int):  # type: ignore[no-untyped-def]
    """A Mission state with ``n_discs - 1`` discs already resting on the islands and at sea."""
    s = E.setup(4, 7)
    for k, g in enumerate(("zeus", "ra", "dagda", "tyr")):
        s.gods[k] = g
        s.pool[k] = {"prophet": 5}
        s.supply[k] = {"prophet": 5}
    s.phase, s.generation, s.order, s.turn_index, s.active, s.stage = "mission", 1, [0, 1, 2, 3], 0, 0, "flick"
    s.turn = {"anubis_used": False, "struck": []}
    for i in range(n_discs - 1):
        isl = board.ISLANDS[i % 4]
        ring, a = 5.0 + 3.6 * ((i // 4) % 3), (i * 47) % 360
        import math
        kind = "temple" if i % 7 == 3 else "prophet"
        s.discs.append({"id": s.next_id, "kind": kind, "owner": i % 4,
                        "x": round(isl.x + ring * math.cos(math.radians(a)), 3),
                        "y": round(isl.y + ring * math.sin(math.radians(a)), 3)})
        s.next_id += 1
    return s


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def search_views(games: int) -> list[tuple[dict, int]]:  # type: ignore[type-arg]
    """The view at every computer-player flick of ``games`` seeded games per player count."""
    out = []
    for players in (2, 3, 4):
        for seed in range(games):
            s = E.setup(players, seed)
            rng = random.Random(seed)
            while E.result(s) is None:
                p = rng.choice(E.prompts(s))
                v = E.view(s, p.seat)
                if p.kind == "flick":
                    out.append((v, p.seat))
                s, _ = E.apply(s, p.seat, E.bot_action(v, p, rng))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=60)
    args = ap.parse_args()
    print("flick resolution (engine.apply, whole flick)")
    last = None
    for n in (1, 20, 40):
        s = crowded(n)
        times = []
        for r in range(args.repeats):
            action = {"type": "flick", "angle": -20 + (r % 9) * 5, "power": 5 + (r % 5)}
            t = time.perf_counter()
            s2, ev = E.apply(s, 0, action)
            times.append(time.perf_counter() - t)
            last = (s2, ev)
        print(f"  {n:2d} discs: median {statistics.median(times) * 1000:6.1f} ms   p95 {pct(times, 0.95) * 1000:6.1f} ms")
    assert last is not None
    print(f"computer player's flick search, {bot.CANDIDATES} candidates (bot.best_flick, one move)")
    views = search_views(max(1, args.repeats // 20))
    fast: list[float] = []
    exact: list[float] = []
    for v, seat in views:  # interleaved, so both see the same machine load
        t = time.perf_counter()
        bot.best_flick(v, seat)
        fast.append(time.perf_counter() - t)
        t = time.perf_counter()
        bot.best_flick(v, seat, exact=True)
        exact.append(time.perf_counter() - t)
    for name, xs in (("search", fast), ("former exact search", exact)):
        print(f"  {name:20s} {len(xs)} moves: median {statistics.median(xs) * 1000:6.2f} ms   "
              f"p95 {pct(xs, 0.95) * 1000:6.2f} ms")
    s2, ev = last
    view = E.view(s2, None)
    times, size = [], 0
    for _ in range(10):
        t = time.perf_counter()
        png = to_png(UI.board_image(view, ev))
        times.append(time.perf_counter() - t)
        size = len(png)
    print(f"board PNG (40 discs): median {statistics.median(times) * 1000:.1f} ms, {size / 1024:.0f} KiB")
    times = []
    for _ in range(10):
        t = time.perf_counter()
        files = [f for e in ev for f in UI.event_files(view, e)]
        times.append(time.perf_counter() - t)
    print(f"flick GIF (40 discs, power 9): median {statistics.median(times) * 1000:.1f} ms, "
          f"{len(files[0][1]) / 1024:.0f} KiB")


if __name__ == "__main__":
    main()
