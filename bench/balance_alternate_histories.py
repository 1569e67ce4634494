"""Alternate Histories balance bench: computer-player games between the ready-made decks.

Every ready-made deck meets every other one (both seat orders, ``--rounds`` times each), and the
bench reports win rates per deck, per nation and per governance, how games end, how long they
last and how far the eras go, the best and worst head-to-head pairing, and the computer player
against a random player.

    python bench/balance_alternate_histories.py            # 18 decks, each pairing twice
    python bench/balance_alternate_histories.py --rounds 3
    python bench/balance_alternate_histories.py --pair britain-autocracy france-capitalism --games 60
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.alternate_histories import ENGINE  # noqa: E402
from rules.alternate_histories.bot import random_action  # noqa: E402
from rules.alternate_histories.content import GOVERNANCES, NATIONS, READY_DECKS  # noqa: E402
from rules.alternate_histories.state import State  # noqa: E402
from rules.engine import Prompt  # noqa: E402

Player = Callable[[dict[str, Any], Prompt, random.Random], dict[str, Any]]


def play(seed: int, decks: tuple[str, str], players: tuple[Player, Player] | None = None) -> State:
    """One game with the given ready-made decks (seat 0, seat 1)."""
    rng = random.Random(seed)
    s = ENGINE.setup(2, seed)
    chooser = players or (ENGINE.bot_action, ENGINE.bot_action)
    while ENGINE.result(s) is None:
        p = rng.choice(ENGINE.prompts(s))
        if p.kind == "deck":
            action = {"type": "deck", "ready": decks[p.seat]}
        else:
            action = chooser[p.seat](ENGINE.view(s, p.seat), p, rng)
        s, _ = ENGINE.apply(s, p.seat, action)
    return s


def ending(s: State) -> str:
    r = s.reason
    for key, words in (("deck spent", "deck is spent"), ("nuclear retaliation", "Nuclear retaliation"),
                       ("turn limit", "turn limit"), ("card", "wins the game"), ("card", "ends the game")):
        if words in r:
            return key
    return "other"


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--rounds", type=int, default=1, help="games per ordered pairing of decks")
    ap.add_argument("--random-games", type=int, default=100, help="computer player against random")
    ap.add_argument("--pair", nargs=2, metavar="DECK", help="only this pairing, --games times")
    ap.add_argument("--games", type=int, default=40, help="games for --pair (seats alternate)")
    args = ap.parse_args()
    if args.pair:
        a, b = args.pair
        won = 0.0
        for i in range(args.games):
            s = play(50_000 + i, (a, b) if i % 2 == 0 else (b, a))
            if s.winner is None:
                won += 0.5
            else:
                won += (s.winner == 0) == (i % 2 == 0)
        print(f"{a} against {b}: {won:g}/{args.games} won ({won / args.games:.0%})")
        return

    keys = sorted(READY_DECKS)
    wins: Counter[str] = Counter()
    games: Counter[str] = Counter()
    head: dict[tuple[str, str], list[float]] = defaultdict(list)
    endings: Counter[str] = Counter()
    turns: list[int] = []
    eras: list[int] = []
    first_wins = 0
    seed = 0
    for r in range(args.rounds):
        for a in keys:
            for b in keys:
                if a == b:
                    continue
                seed += 1
                s = play(seed * 7 + r, (a, b))
                games[a] += 1
                games[b] += 1
                endings[ending(s)] += 1
                turns.append(s.turn)
                eras.append(s.global_era)
                if s.winner is None:
                    wins[a] += 0.5  # type: ignore[assignment]
                    wins[b] += 0.5  # type: ignore[assignment]
                    head[(a, b)].append(0.5)
                    continue
                winner = a if s.winner == 0 else b
                wins[winner] += 1
                head[(a, b)].append(1.0 if winner == a else 0.0)
                first_wins += s.winner == s.first

    def rate(k: str) -> float:
        return wins[k] / games[k] if games[k] else 0.0

    total = sum(games.values()) // 2
    print(f"{total} games between {len(keys)} ready-made decks")
    print("\nper deck:")
    for k in sorted(keys, key=rate, reverse=True):
        print(f"  {k:24s} {rate(k):6.1%}")
    print("\nper nation:")
    for n in NATIONS:
        ks = [k for k in keys if READY_DECKS[k][0] == n]
        w, g = sum(wins[k] for k in ks), sum(games[k] for k in ks)
        print(f"  {NATIONS[n].name:16s} {w / g:6.1%}")
    print("\nper governance:")
    for gv in GOVERNANCES:
        ks = [k for k in keys if READY_DECKS[k][1] == gv]
        w, g = sum(wins[k] for k in ks), sum(games[k] for k in ks)
        print(f"  {GOVERNANCES[gv].name:16s} {w / g:6.1%}")
    pair: dict[tuple[str, str], float] = {}
    for (a, b), res in head.items():
        back = [1 - x for x in head.get((b, a), [])]
        both = res + back
        pair[tuple(sorted((a, b)))] = statistics.mean(both) if a < b else 1 - statistics.mean(both)  # type: ignore[index]
    best = max(pair.items(), key=lambda kv: abs(kv[1] - 0.5))
    print(f"\nmost lopsided pairing: {best[0][0]} vs {best[0][1]}: {best[1]:.0%} for the first "
          f"({2 * args.rounds} games)")
    print(f"first player wins {first_wins / total:.1%}")
    print(f"endings: {dict(endings)}")
    print(f"turns: median {statistics.median(turns)}, max {max(turns)}; global era at the end: "
          f"{dict(sorted(Counter(eras).items()))}")

    won = 0
    for i in range(args.random_games):
        deck = keys[i % len(keys)]
        other = keys[(i * 7 + 3) % len(keys)]
        if i % 2 == 0:
            s = play(10_000 + i, (deck, other), (ENGINE.bot_action, random_action))
            won += s.winner == 0
        else:
            s = play(10_000 + i, (other, deck), (random_action, ENGINE.bot_action))
            won += s.winner == 1
    print(f"\ncomputer player against random: {won}/{args.random_games} won")


if __name__ == "__main__":
    main()
