"""Balance: seeded computer-player games of Flick of Faith, win rates per god and per seat.

Run: python bench/balance_flick_of_faith.py [--games N] [--players 2 3 4] [--candidates K]
Each game deals god cards at random and the computer players pick a side at random, so every
god appears about equally often. Shared wins count as a fraction. A fair god wins about
1/players of the games it plays.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.flick_of_faith import ENGINE as E  # noqa: E402
from rules.flick_of_faith import bot  # noqa: E402


def play(players: int, seed: int) -> tuple[list[str], tuple[int, ...], list[float]]:
    s = E.setup(players, seed)
    rng = random.Random(seed)
    while E.result(s) is None:
        p = rng.choice(E.prompts(s))
        s, _ = E.apply(s, p.seat, E.bot_action(E.view(s, p.seat), p, rng))
    r = E.result(s)
    assert r is not None
    return [g or "?" for g in s.gods], r.winners, [float(r.scores[k]) for k in range(players)]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=60, help="games per player count")
    ap.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    ap.add_argument("--candidates", type=int, default=bot.CANDIDATES)
    args = ap.parse_args()
    bot.CANDIDATES = args.candidates
    t0 = time.time()
    for n in args.players:
        played: dict[str, int] = defaultdict(int)
        won: dict[str, float] = defaultdict(float)
        vp: dict[str, float] = defaultdict(float)
        seat_won = [0.0] * n
        for g in range(args.games):
            gods_, winners, scores = play(n, 10_000 * n + g)
            for k, god in enumerate(gods_):
                played[god] += 1
                vp[god] += scores[k]
                if k in winners:
                    won[god] += 1 / len(winners)
                    seat_won[k] += 1 / len(winners)
        print(f"\n{n} players, {args.games} games (fair share {100 / n:.0f}%)")
        print(f"  {'god':10s} {'games':>5s} {'win %':>6s} {'avg VP':>7s}")
        for god in sorted(played, key=lambda x: -won[x] / played[x]):
            print(f"  {god:10s} {played[god]:5d} {100 * won[god] / played[god]:6.1f} {vp[god] / played[god]:7.1f}")
        print("  by seat: " + ", ".join(f"P{k + 1} {100 * w / args.games:.0f}%" for k, w in enumerate(seat_won)))
    print(f"\n({time.time() - t0:.0f} s)")


if __name__ == "__main__":
    main()
