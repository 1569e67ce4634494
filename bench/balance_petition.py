"""Petition balance bench: seeded computer-player games, win rates by seat and by god.

For 2–6 players: the win rate of each seat (a shared win counts 1/winners; fair is 1/players),
and for each god how often its favour is won, how often an attack made with it captures the
pillar, and the win rate of seats that won its favour at least once in a game. Then the
computer player against random players (one bot seat, the others random) and the solo game's
win rate.

    python bench/balance_petition.py --games 400
    python bench/balance_petition.py --games 600 --players 6 --seed 2   # another set of games
    python bench/balance_petition.py --games 200 --option pillar_stand=true   # a table option

Each table size also reports the game length (rounds), captures per game and how many games the
round limit (a safety net; the rulebook has none) ended.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.petition import ENGINE  # noqa: E402
from rules.petition.bot import random_action  # noqa: E402
from rules.petition.content import GODS, PILLARS  # noqa: E402


def play(players: int, seed: int, bots: set[int], options: dict[str, Any] | None = None) -> dict[str, Any]:
    """One game; seats in ``bots`` use the computer player, the others answer at random."""
    rng = random.Random(seed)
    s = ENGINE.setup(players, seed, options or {})
    favours: dict[int, set[str]] = defaultdict(set)
    attacks: dict[str, list[bool]] = defaultdict(list)
    licence: str | None = None
    heathen_attacks: list[bool] = []
    tally = {"petitions": 0, "heathens": 0, "surrenders": 0, "defended": 0}
    steps = 0
    while ENGINE.result(s) is None:
        pr = ENGINE.prompts(s)[0]
        if pr.seat in bots:
            action = ENGINE.bot_action(ENGINE.view(s, pr.seat), pr, rng)
        else:
            action = random_action(pr, rng)
        s, events = ENGINE.apply(s, pr.seat, action)
        steps += 1
        for e in events:
            if e.kind == "favour" and "bonus" in e.data:
                favours[e.data["seat"]].add(e.data["god"])
            elif e.kind == "campaign":
                licence = e.data["licence"]
            elif e.kind in ("captured", "held") and "attack" in e.data and licence != "-":
                won = e.kind == "captured"
                (attacks[licence].append(won) if licence else heathen_attacks.append(won))
                licence = "-"
            elif e.kind == "petition":
                tally["petitions"] += 1
            elif e.kind == "heathen" and e.data:
                tally["heathens"] += 1
            elif e.kind == "surrender":
                tally["surrenders"] += 1
            elif e.kind == "reveal_campaign" and e.data["defend"]:
                tally["defended"] += 1
    r = ENGINE.result(s)
    assert r is not None
    share = {k: (1 / len(r.winners) if k in r.winners else 0.0) for k in range(players)}
    return {"share": share, "favours": favours, "attacks": attacks, "heathen": heathen_attacks,
            "rounds": s.round, "steps": steps, "tally": tally,
            "limit": "round limit" in (s.over_reason or "")}


def table(players: int, games: int, base: int = 0, options: dict[str, Any] | None = None) -> None:
    wins = [0.0] * players
    god_fav = dict.fromkeys(PILLARS, 0)
    god_win = dict.fromkeys(PILLARS, 0.0)
    god_att: dict[str, list[bool]] = defaultdict(list)
    heathen: list[bool] = []
    rounds = 0
    limit = 0
    counts: dict[str, int] = defaultdict(int)
    for g in range(games):
        out = play(players, base + 1000 * players + g, set(range(players)), options)
        rounds += out["rounds"]
        limit += out["limit"]
        for k, v in out["tally"].items():
            counts[k] += v
        for k in range(players):
            wins[k] += out["share"][k]
            for god in out["favours"][k]:
                god_fav[god] += 1
                god_win[god] += out["share"][k]
        for god, res in out["attacks"].items():
            god_att[god] += res
        heathen += out["heathen"]
    fair = 1 / players
    seats = "  ".join(f"P{k + 1} {wins[k] / games:.3f}" for k in range(players))
    every = [x for res in god_att.values() for x in res] + heathen
    print(f"{players} players, {games} games, {rounds / games:.1f} rounds on average, "
          f"{sum(every) / games:.2f} captures per game; round limit in {limit} of {games}; "
          f"fair share {fair:.3f}")
    print(f"  by seat: {seats}")
    for god in PILLARS:
        att = god_att[god]
        cap = sum(att) / len(att) if att else 0.0
        wr = god_win[god] / god_fav[god] if god_fav[god] else 0.0
        print(f"  {GODS[god].name:7} ({god:7}): favour won {god_fav[god] / games:.2f}/game, "
              f"attacks {len(att) / games:.2f}/game capture {cap:.2f}, win rate of its favoured {wr:.3f}")
    hc = sum(heathen) / len(heathen) if heathen else 0.0
    print(f"  heathen attacks {len(heathen) / games:.2f}/game capture {hc:.2f}")
    n = len(every) or 1
    print(f"  attacks {len(every) / games:.2f}/game: captured {sum(every) / n:.2f}, defended "
          f"{counts['defended'] / n:.2f}, surrendered {counts['surrenders'] / n:.2f}; petitions "
          f"{counts['petitions'] / games:.2f}/game, heathens {counts['heathens'] / games:.2f}/game; "
          f"round limit reached in {limit / games:.2f} of games")


def bot_vs_random(players: int, games: int) -> float:
    total = 0.0
    for g in range(games):
        bot = g % players
        total += play(players, 5000 + g, {bot})["share"][bot]
    return total / games


def solo(games: int) -> float:
    shares: list[float] = [play(1, 9000 + g, {0})["share"][0] for g in range(games)]
    return sum(shares) / games


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0, help="first seed offset (another set of games)")
    ap.add_argument("--players", type=int, nargs="*", default=[2, 3, 4, 5, 6])
    ap.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                    help="a table option for every game (true/false or a whole number)")
    args = ap.parse_args()
    options: dict[str, Any] = {}
    for item in args.option:
        key, _, raw = item.partition("=")
        options[key] = raw == "true" if raw in ("true", "false") else int(raw)
    for n in args.players:
        table(n, args.games, 100_000 * args.seed, options)
    for n in (2, 4, 6):
        print(f"computer player vs random, {n} players: {bot_vs_random(n, args.games):.3f} "
              f"(fair {1 / n:.3f})")
    print(f"solo win rate: {solo(args.games):.3f}")


if __name__ == "__main__":
    main()
