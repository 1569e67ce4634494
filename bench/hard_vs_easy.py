"""One line of the strength bench, quickly: ``hard`` in a rotating seat against ``easy`` seats.

``bench/strength.py`` plays four matches and the counter-strategies per game; on a busy machine a
game whose decisions are dear (Flick of Faith's physics) is measured faster with only the match
the issue's goal is about, and the time of every searched decision (median, p99), as the platform
runs it (the time budget may stop a search; how often is counted), and its final score's margin
over the best rival's and over the rivals' mean (mean ± standard error over the games: far less
noisy than the wins, so that a change is judged on fewer games):

    python bench/hard_vs_easy.py --game flick_of_faith --players 2 --games 40
    python bench/hard_vs_easy.py --game flick_of_faith --players 4 --games 24
    python bench/hard_vs_easy.py --game flick_of_faith --players 3 --games 30 --seed 1000
    python bench/hard_vs_easy.py --players 3 --games 30 --seed 1000 --clock cpu
    python bench/hard_vs_easy.py --players 4 --games 40 --seed 5000 --clock cpu --each --one heuristic
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
    ap.add_argument("--one", choices=("hard", "normal", "heuristic"), default="hard",
                    help="who plays the rotating seat (default hard; the others for comparison)")
    args = ap.parse_args()
    if args.clock == "cpu":
        strength.CLOCK[0] = time.process_time
    engine = registry.get(args.game)
    print(f"{engine.name}, {args.players} players, hard {search.budget_for(engine, 'hard')}",
          flush=True)
    times: list[float] = []
    if args.one == "heuristic":
        hard: strength.Player = strength.heuristic
    else:
        hard = strength.strength(args.one, times)
    easy = strength.strength("easy", [])
    w = 0.0
    best: list[float] = []
    mean: list[float] = []
    for g in range(args.games):  # (as strength.match plays them: the seat rotates)
        seat = g % args.players
        result = strength.play(engine, [hard if k == seat else easy for k in range(args.players)],
                               args.seed + g)
        share = 1.0 / len(result.winners) if seat in result.winners else 0.0
        w += share
        b, m = strength.margin(result, seat)
        best.append(b)
        mean.append(m)
        if args.each:
            scores = " ".join(f"{result.scores[k]:g}" for k in range(args.players))
            print(f"  seed {args.seed + g}, {args.one} in seat {seat + 1}: {share:g} "
                  f"({w:g} of {g + 1}); scores {scores}, margin {b:+g}", flush=True)
    print(strength.line(f"{args.one} vs easy", w, args.games, args.players))
    (bm, bs), (mm, ms) = strength.mean_se(best), strength.mean_se(mean)
    print(f"  score margin over the best rival: {bm:+.2f} ± {bs:.2f} (s.e.); over the rivals' "
          f"mean: {mm:+.2f} ± {ms:.2f}")
    print(strength.timing(f"time per {args.one} decision", times, strength.CUT.get(args.one, 0)))

if __name__ == "__main__":
    main()
