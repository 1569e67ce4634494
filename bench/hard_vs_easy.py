"""One line of the strength bench, quickly: ``hard`` in a rotating seat against ``easy`` seats.

``bench/strength.py`` plays four matches and the counter-strategies per game; on a busy machine a
game whose decisions are dear (Flick of Faith's physics) is measured faster with only the match
the issue's goal is about, and the time of every searched decision (median, p99), as the platform
runs it (the time budget may stop a search; how often is counted):

    python bench/hard_vs_easy.py --game flick_of_faith --players 2 --games 40
    python bench/hard_vs_easy.py --game flick_of_faith --players 4 --games 24
    python bench/hard_vs_easy.py --game flick_of_faith --players 3 --games 30 --seed 1000
    python bench/hard_vs_easy.py --players 3 --games 30 --seed 1000 --clock cpu
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import strength  # noqa: E402

from rules import registry, search  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="flick_of_faith")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                    help="what times (and may stop) a search: wall clock (default, as the "
                         "platform's worker) or the process's processor time (a busy machine)")
    ap.add_argument("--each", action="store_true",
                    help="print each game's result as it ends (the seed, hard's seat, its share)")
    args = ap.parse_args()
    if args.clock == "cpu":
        strength.CLOCK[0] = time.process_time
    engine = registry.get(args.game)
    print(f"{engine.name}, {args.players} players, hard {search.budget_for(engine, 'hard')}",
          flush=True)
    times: list[float] = []
    hard, easy = strength.strength("hard", times), strength.strength("easy", [])
    w = 0.0
    for g in range(args.games):  # (as strength.match plays them: the seat rotates)
        seat = g % args.players
        share = strength.game(engine, [hard if k == seat else easy for k in range(args.players)],
                              args.seed + g)[seat]
        w += share
        if args.each:
            print(f"  seed {args.seed + g}, hard in seat {seat + 1}: {share:g} "
                  f"({w:g} of {g + 1})", flush=True)
    print(strength.line("hard vs easy", w, args.games, args.players))
    print(strength.timing("time per hard decision", times, strength.CUT["hard"]))


if __name__ == "__main__":
    main()
