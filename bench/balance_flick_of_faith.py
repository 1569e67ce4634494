"""Balance: seeded computer-player games of Flick of Faith: win rates per god and per seat, where
the VP come from, and whether one shot beats the computer player.

Run: python bench/balance_flick_of_faith.py [--games N] [--players 2 3 4] [--candidates K]
                                           [--workers W] [--seed S] [--copycat | --exact]

Each game deals god cards at random and the computer players pick a side at random, so every
god appears about equally often. A shared win counts as a fraction for each winner. A fair god
wins about 1/players of the games it plays ("fair share"). The 95% interval is the Wilson score
interval of the win rate; a god whose interval does not contain the fair share is out of
balance with that much confidence. Games are split over ``--workers`` processes; the figures do
not depend on the number of workers (game ``g`` with ``n`` players always uses the same seed).
``--candidates`` sets how many flicks the computer player simulates before choosing (fewer is
faster and a little weaker; every seat gets the same setting).

VP by source: every VP a game hands out is put under one heading: ``navel`` (prophets scored on
the navel), ``presence`` and ``domination`` (Worship), ``other`` (god and law bonuses, less the
Tithe). A share is that heading's part of all VP of all games.

``--copycat`` replaces one seat per game (seat ``g % players`` in game ``g``, so every seat takes
its turn) by a "copycat": every Mission flick it makes is the straight shot at the navel (angle 0,
the power whose slide on an empty map just reaches the navel, 6 on today's map; everything else
it decides like the computer player). A game that collapses to one move is one where the
copycat wins clearly more than the fair share against the computer player.

``--exact`` puts the same seat in the hands of the computer player's former, slower search
(``bot.best_flick(..., exact=True)``: a fresh engine-grade simulation per candidate) against
today's cheaper search in all other seats, in the same games: if the cheaper search were weaker,
the exact seat would win clearly more than the fair share.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import re
import sys
import time
from collections import defaultdict
from pathlib import Path

# Run as a script, Python puts bench/ first on the path, where a sibling module may shadow a
# standard-library one; import from the repository root instead.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

from rules.engine import Event  # noqa: E402
from rules.flick_of_faith import ENGINE as E  # noqa: E402
from rules.flick_of_faith import bot, geometry, physics  # noqa: E402
from rules.flick_of_faith import map as board  # noqa: E402

SOURCES = ("navel", "presence", "domination", "other")
NAVEL_EVENT = re.compile(r"^Navel: P(\d+)'s \w+ scores (-?\d+) VP")

Game = tuple[int, list[str], tuple[int, ...], list[float], int, list[dict[str, float]], int]
"""(players, gods by seat, winning seats, final scores, seat that won the first-player flick,
VP by source per seat, the copycat's seat or -1)"""


def _init(candidates: int) -> None:
    bot.CANDIDATES = candidates


def copycat_shot(view: dict[str, object], seat: int) -> dict[str, object]:
    """The straight shot at the navel, as a person would type it (power to one decimal)."""
    corners = view["corners"]
    assert isinstance(corners, list)
    x, y = board.launch_spot(corners[seat])
    power = min(10.0, physics.power_for_distance(geometry.navel_distance(x, y)))
    return {"type": "flick", "angle": 0.0, "power": round(power, 1)}


def play(players: int, seed: int, copycat: int = -1, exact: bool = False) -> Game:
    """One seeded game (see ``Game``); seat ``copycat`` (if any) always flicks at the navel, or,
    with ``exact``, aims with the former exact search."""
    s = E.setup(players, seed)
    rng = random.Random(seed)
    first = -1
    sources = [dict.fromkeys(SOURCES, 0.0) for _ in range(players)]
    while E.result(s) is None:
        if first < 0 and s.phase not in ("gods", "setup_flick"):
            first = s.first_player
        p = rng.choice(E.prompts(s))
        before = list(s.vp)
        if p.seat == copycat and p.kind == "flick" and exact:
            action = bot.best_flick(E.view(s, p.seat), p.seat, bot.CANDIDATES, exact=True)
        elif p.seat == copycat and p.kind == "flick":
            action = copycat_shot(E.view(s, p.seat), p.seat)
        else:
            action = E.bot_action(E.view(s, p.seat), p, rng)
        s, events = E.apply(s, p.seat, action)
        _attribute(s, before, events, sources)
    r = E.result(s)
    assert r is not None
    return (players, [g or "?" for g in s.gods], r.winners, [float(r.scores[k]) for k in range(players)],
            max(first, 0), sources, copycat)


def _attribute(s: object, before: list[int], events: list[Event], sources: list[dict[str, float]]) -> None:
    """Put the VP an action changed under their sources: navel and Worship events say theirs,
    whatever is left (law and god bonuses, the Tithe) is "other"."""
    vp: list[int] = s.vp  # type: ignore[attr-defined]
    explained = [0.0] * len(vp)
    for e in events:
        text = e.text
        m = NAVEL_EVENT.match(text)
        if m:
            k, n = int(m[1]) - 1, float(m[2])
            sources[k]["navel"] += n
            explained[k] += n
        elif text.startswith("Worship of Generation"):
            for k, r in enumerate(s.last_worship):  # type: ignore[attr-defined]
                pres, bonus = float(len(r["presence"])), float(r["bonus"])
                sources[k]["presence"] += pres
                sources[k]["domination"] += r["vp"] - pres - bonus
                sources[k]["other"] += bonus
                explained[k] += r["vp"]
    for k in range(len(vp)):
        sources[k]["other"] += vp[k] - before[k] - explained[k]


def _play(job: tuple[int, int, int, bool]) -> Game:
    return play(*job)


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval for a proportion (fractional wins allowed)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    d = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, mid - half), min(1.0, mid + half))


def _mean_se(values: list[float]) -> str:
    """A mean ± its standard error, signed, in VP."""
    mean = sum(values) / len(values)
    var = sum((v - mean) ** 2 for v in values) / max(1, len(values) - 1)
    return f"{mean:+6.2f} ± {math.sqrt(var / len(values)):.2f}"


def report(n: int, games: list[Game], exact: bool = False) -> None:
    played: dict[str, int] = defaultdict(int)
    won: dict[str, float] = defaultdict(float)
    vp: dict[str, float] = defaultdict(float)
    margins: dict[str, list[float]] = defaultdict(list)
    order_won = [0.0] * n
    for _, gods_, winners, scores, first, _src, _cc in games:
        for k, god in enumerate(gods_):
            played[god] += 1
            vp[god] += scores[k]
            margins[god].append(scores[k] - (sum(scores) - scores[k]) / (n - 1))
            if k in winners:
                won[god] += 1 / len(winners)
                order_won[(k - first) % n] += 1 / len(winners)
    fair = 100 / n
    print(f"\n{n} players, {len(games)} games (fair share {fair:.1f}%)")
    print(f"  {'god':10s} {'games':>5s} {'wins':>6s} {'win %':>6s} {'vs fair':>7s} {'95% interval':>14s} {'avg VP':>7s}"
          f"  {'margin ± s.e.':>14s}")
    for god in sorted(played, key=lambda x: -won[x] / played[x]):
        rate = 100 * won[god] / played[god]
        lo, hi = wilson(won[god], played[god])
        flag = "" if lo * 100 <= fair <= hi * 100 else "  *"
        print(f"  {god:10s} {played[god]:5d} {won[god]:6.1f} {rate:6.1f} {rate - fair:+7.1f} "
              f"{100 * lo:6.1f}–{100 * hi:5.1f}% {vp[god] / played[god]:7.1f}  {_mean_se(margins[god])}{flag}")
    print("  (margin: a seat's final VP over its rivals' mean, what search.GOD_WORTH holds)")
    print("  by place in the first Generation's turn order (1st = won the first-player flick;")
    print("  the token then passes clockwise each Generation):")
    for k, w in enumerate(order_won):
        lo, hi = wilson(w, len(games))
        print(f"    {k + 1}{'stndrd'[2 * k:2 * k + 2] if k < 3 else 'th'}: {100 * w / len(games):5.1f}%  "
              f"({100 * lo:.1f}–{100 * hi:.1f}%)")
    print("  (* = the fair share lies outside the 95% interval)")
    total = {src: sum(seat[src] for g in games for seat in g[5]) for src in SOURCES}
    allvp = sum(total.values()) or 1.0
    print("  VP by source (share of all VP): " + ", ".join(
        f"{src} {100 * total[src] / allvp:.1f}%" for src in SOURCES)
        + f"; {allvp / len(games) / n:.1f} VP per player per game")
    cc = [g for g in games if g[6] >= 0]
    if cc:
        wins = sum(1 / len(g[2]) for g in cc if g[6] in g[2])
        lo, hi = wilson(wins, len(cc))
        mine = sum(g[3][g[6]] for g in cc) / len(cc)
        others = sum(sum(g[3]) - g[3][g[6]] for g in cc) / len(cc) / (n - 1)
        navel = sum(g[5][g[6]]["navel"] for g in cc) / max(1.0, sum(g[3][g[6]] for g in cc))
        who = "former exact search" if exact else "copycat (always angle 0 at the navel)"
        print(f"  {who} vs the computer player: wins "
              f"{100 * wins / len(cc):.1f}% ({100 * lo:.1f}–{100 * hi:.1f}%, fair {fair:.1f}%), "
              f"avg VP {mine:.1f} vs {others:.1f}, {100 * navel:.0f}% of its VP from the navel")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=60, help="games per player count")
    ap.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    ap.add_argument("--candidates", type=int, default=bot.CANDIDATES,
                    help=f"flicks the computer player simulates per decision (default {bot.CANDIDATES})")
    ap.add_argument("--workers", type=int, default=min(2, multiprocessing.cpu_count()))
    ap.add_argument("--seed", type=int, default=0, help="offset added to every game's seed")
    ap.add_argument("--copycat", action="store_true",
                    help="one seat per game always plays the straight shot at the navel")
    ap.add_argument("--exact", action="store_true",
                    help="one seat per game aims with the former exact (slower) search")
    args = ap.parse_args()
    if args.copycat and args.exact:
        ap.error("choose --copycat or --exact, not both")
    t0 = time.time()
    jobs = [(n, 10_000 * n + args.seed + g, g % n if args.copycat or args.exact else -1, args.exact)
            for n in args.players for g in range(args.games)]
    if args.workers > 1:
        with multiprocessing.Pool(args.workers, initializer=_init, initargs=(args.candidates,)) as pool:
            results = pool.map(_play, jobs, chunksize=4)
    else:
        _init(args.candidates)
        results = [_play(j) for j in jobs]
    print(f"Flick of Faith balance: {args.games} games per player count, "
          f"computer player with {args.candidates} candidates"
          + (", one copycat seat per game" if args.copycat else "")
          + (", one seat per game with the former exact search" if args.exact else ""))
    for n in args.players:
        report(n, [g for g in results if g[0] == n], args.exact)
    print(f"\n({time.time() - t0:.0f} s, {args.workers} worker(s))")


if __name__ == "__main__":
    main()
