"""Balance bench for Hegemony of Faith: seeded computer-player games, win rates per skill.

Usage: python bench/balance_hegemony_of_faith.py [--games N] [--players 4,5,6,7,8] [--seed S]

Each player keeps one of their two skill cards at random (so every skill is measured); everything
else is played by the computer player. A skill's win rate is the share of games won by the players
who kept it, shown next to the baseline a skill would get by pure chance (1 / players, averaged
over the games it appeared in); ratio 1.00 is perfectly fair.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.hegemony_of_faith import ENGINE  # noqa: E402
from rules.hegemony_of_faith.cards import SKILL_NAMES  # noqa: E402


def play(players: int, seed: int) -> tuple[int, list[str], str, int]:
    rng = random.Random(seed)
    s = ENGINE.setup(players, seed)
    kept: list[str] = []
    steps = 0
    while ENGINE.result(s) is None:
        p = rng.choice(ENGINE.prompts(s))
        if p.kind == "choose_skill":  # every skill gets played: the skill card is kept at random
            action = dict(rng.choice(p.choices).action)
        else:
            action = ENGINE.bot_action(ENGINE.view(s, p.seat), p, rng)
        s, _ = ENGINE.apply(s, p.seat, action)
        steps += 1
        if not kept and s.phase != "setup":
            kept = [SKILL_NAMES[k] if k is not None else "-" for k in s.skill]
    res = ENGINE.result(s)
    assert res is not None
    return res.winners[0], kept, res.reason, s.round_no


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=400, help="games per player count")
    ap.add_argument("--players", default="4,5,6,7,8")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    counts = [int(x) for x in args.players.split(",")]
    seen: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    chance: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    seat_wins: Counter[int] = Counter()
    seat_games: Counter[int] = Counter()
    rounds = 0
    total = 0
    for n in counts:
        for g in range(args.games):
            winner, kept, reason, rnd = play(n, args.seed * 100003 + n * 10007 + g)
            total += 1
            rounds += rnd
            seat_wins[winner] += 1
            for k in range(n):
                seat_games[k] += 1
            reasons["unification" if "unified" in reason else reason.split(" (")[0].split(":")[0]] += 1
            for seat, name in enumerate(kept):
                seen[name] += 1
                chance[name] += 1.0 / n  # type: ignore[assignment]
                if seat == winner:
                    wins[name] += 1
    print(f"{total} games ({args.games} per player count {args.players}); "
          f"average length {rounds / total:.1f} rounds\n")
    print(f"{'skill':24} {'kept':>6} {'wins':>6} {'win %':>7} {'chance %':>9} {'ratio':>6}")
    for name in sorted(seen, key=lambda k: -wins[k] / seen[k]):
        rate = wins[name] / seen[name]
        base = chance[name] / seen[name]
        print(f"{name:24} {seen[name]:6d} {wins[name]:6d} {100 * rate:6.1f}% {100 * base:8.1f}% "
              f"{rate / base:6.2f}")
    print("\nhow games end:")
    for reason, n in reasons.most_common():
        print(f"  {n:5d}  {reason}")
    print("\nwin % by seat: " + ", ".join(
        f"P{k + 1}: {100 * seat_wins[k] / seat_games[k]:.1f}%" for k in sorted(seat_games)))


if __name__ == "__main__":
    main()
