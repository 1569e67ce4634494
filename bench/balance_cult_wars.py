"""Cult Wars balance bench: many seeded computer-player games, win rates per authored card.

For every action card, compares the win rate of seats that played it at least once in a game with
the win rate of seats that did not (a shared win counts as 1/winners). Also reports win rate per
seat, the spread of final VP and followers, deck reshuffles, and how the computer player fares
against simple opponents that pick one of the prompt's ready-made orders at random.

    python bench/balance_cult_wars.py --games 2000
    python bench/balance_cult_wars.py --games 2000 --insignia single   # the faster table option
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.cult_wars import ENGINE  # noqa: E402
from rules.cult_wars.content import KINDS  # noqa: E402

INSIGNIA = {"insignia": "two_step"}
"""The table option the bench plays (``--insignia``)."""


def play(players: int, seed: int, bots: set[int],
         banned: tuple[int, str] | None = None) -> tuple[Any, dict[int, set[str]]]:
    """One game; seats in ``bots`` use the computer player, the others a random choice (a
    random target, ready-made orders, a random split). ``banned`` = (seat, card key): that seat
    never plays that card (it keeps it in hand)."""
    rng = random.Random(seed)
    s = ENGINE.setup(players, seed, INSIGNIA)
    played: dict[int, set[str]] = defaultdict(set)
    while ENGINE.result(s) is None:
        pr = rng.choice(ENGINE.prompts(s))
        if pr.seat in bots:
            view = ENGINE.view(s, pr.seat)
            action = ENGINE.bot_action(view, pr, rng)
            if banned is not None and banned[0] == pr.seat and pr.kind == "orders":
                keys = {h["id"]: h["key"] for h in view["private"]["hand"]}
                action["actions"] = [a for a in action["actions"] if keys[a["card"]] != banned[1]]
        else:
            action = dict(rng.choice(pr.choices).action)
        turn = s.turn
        s, _ = ENGINE.apply(s, pr.seat, action)
        if (s.turn != turn or s.phase == "over") and s.last_turn:
            for c in s.last_turn["cults"]:
                for pl in c["plays"]:
                    if not pl["cancelled"]:
                        played[c["seat"]].add(pl["name"])
    return s, played


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000, help="games per player count")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--insignia", choices=("two_step", "single"), default="two_step",
                    help="the table option to play (default: two_step, as the rulebook)")
    args = ap.parse_args()
    INSIGNIA["insignia"] = args.insignia
    print(f"insignia={args.insignia}")

    names = [k.name for k in KINDS]
    for players in (3, 4):
        wins_with: dict[str, float] = defaultdict(float)
        n_with: dict[str, int] = defaultdict(int)
        wins_without: dict[str, float] = defaultdict(float)
        n_without: dict[str, int] = defaultdict(int)
        seat_wins = [0.0] * players
        vps: list[int] = []
        win_vps: list[int] = []
        followers: list[int] = []
        reshuffles: list[int] = []
        for g in range(args.games):
            seed = args.seed * 1_000_003 + players * 100_000 + g
            s, played = play(players, seed, set(range(players)))
            r = ENGINE.result(s)
            assert r is not None
            share = 1.0 / len(r.winners)
            for k in range(players):
                won = share if k in r.winners else 0.0
                seat_wins[k] += won
                for name in names:
                    if name in played[k]:
                        wins_with[name] += won
                        n_with[name] += 1
                    else:
                        wins_without[name] += won
                        n_without[name] += 1
            vps.extend(c.vp for c in s.cults)
            win_vps.append(max(c.vp for c in s.cults))
            followers.extend(c.followers for c in s.cults)
            reshuffles.append(s.reshuffles)
        base = 1.0 / players
        print(f"\n== {players} players, {args.games} games (baseline win rate {base:.1%}) ==")
        print("win rate by seat: " + ", ".join(f"P{k + 1} {w / args.games:.1%}" for k, w in enumerate(seat_wins)))
        print(f"final VP: mean {statistics.mean(vps):.1f}, winner mean {statistics.mean(win_vps):.1f}, "
              f"max {max(vps)}; final followers: mean {statistics.mean(followers):.1f}, max {max(followers)}; "
              f"deck reshuffles per game: {statistics.mean(reshuffles):.2f}")
        # Any card played means the seat had cards to play, which already goes with winning, so
        # the last column compares each card's effect with the average card's.
        effects = {}
        for name in names:
            w = wins_with[name] / n_with[name] if n_with[name] else float("nan")
            wo = wins_without[name] / n_without[name] if n_without[name] else float("nan")
            effects[name] = (w, wo, w - wo)
        mean_effect = statistics.mean(e[2] for e in effects.values())
        print(f"{'card':<22}{'played in':>10}{'win% with':>11}{'win% w/o':>10}{'effect':>9}{'vs avg':>9}")
        for name in names:
            w, wo, eff = effects[name]
            rate = n_with[name] / (args.games * players)
            print(f"{name:<22}{rate:>10.0%}{w:>11.1%}{wo:>10.1%}{eff * 100:>+8.1f}p"
                  f"{(eff - mean_effect) * 100:>+8.1f}p")
        # Controlled test: one seat may not play card X; how much does it lose by that?
        n_ctl = max(100, args.games // 3)
        print(f"controlled: win rate of a seat forbidden to play the card ({n_ctl} games each; "
              f"baseline {base:.1%}; a big drop means a strong card)")
        for kind in KINDS:
            won = 0.0
            for g in range(n_ctl):
                seat = g % players
                s, _ = play(players, 5_000_000 + players * 10_000 + g, set(range(players)),
                            banned=(seat, kind.key))
                r = ENGINE.result(s)
                assert r is not None
                if seat in r.winners:
                    won += 1.0 / len(r.winners)
            print(f"  without {kind.name:<22}{won / n_ctl:>7.1%}  ({(won / n_ctl - base) * 100:+.1f}p)")
        # The computer player against ready-made-order players.
        bot_wins = 0.0
        n = max(200, args.games // 4)
        for g in range(n):
            seat = g % players
            s, _ = play(players, 7_000_000 + players * 10_000 + g, {seat})
            r = ENGINE.result(s)
            assert r is not None
            if seat in r.winners:
                bot_wins += 1.0 / len(r.winners)
        print(f"computer player alone against {players - 1} random-preset players: "
              f"wins {bot_wins / n:.1%} of {n} games")


if __name__ == "__main__":
    main()
