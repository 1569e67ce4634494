"""Strength bench: how well each computer-player strength plays, and how fast.

For each game that searches (``rules.search``), seeded games between:

* one ``hard`` seat against ``easy`` seats (the seat rotates), its win share with a 95% interval
  (goal: at least 60% in a two-player game, 1.5 times the fair share at larger tables);
* each simple counter-strategy against ``hard`` seats, and against the heuristic player for
  comparison (goal: no more than the fair share + 5 points against ``hard``);
* the time each searched decision took (median and p99), run as the platform runs it: the
  iteration budget, stopped early by the time budget (0.1 s, 0.5 s) on a slow or busy machine
  (how often that happened is counted).

A shared win counts as 1/winners. Keep runs short while developing:

    python bench/strength.py --game cult_wars --games 30
    python bench/strength.py --game alternate_histories --games 30 --only counter
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules import registry, search  # noqa: E402
from rules.engine import Action, Engine, Prompt, Result  # noqa: E402

Player = Callable[[Engine[Any], dict[str, Any], Prompt, random.Random], Action]


# ------------------------------------------------------------------------- counter-strategies


def cult_wars_turtle(engine: Engine[Any], view: dict[str, Any], prompt: Prompt,
                     rng: random.Random) -> Action:
    """Cult Wars: always 8 on Defend; the other cards on Breed for five turns, then on Sacrifice;
    no action cards; a target at random; a split in proportion."""
    if prompt.kind == "target":
        return dict(rng.choice(prompt.choices).action)
    if prompt.kind == "split":
        return dict(prompt.choices[0].action)
    me = view["private"]["seat"]
    followers = view["cults"][me]["followers"]
    rest = "breed" if view["turn"] <= 5 else "sacrifice"
    slots: dict[str, list[int]] = {"attack": [], "defend": [], "sacrifice": [], "breed": []}
    room = followers
    if room >= 8:
        slots["defend"] = [8]
        room -= 8
    for v in (5, 3, 2, 1, 1):
        if v <= room:
            slots[rest].append(v)
            room -= v
    if not slots["defend"]:  # fewer than 8 followers: all of them defend
        slots = {"attack": [], "defend": [], "sacrifice": [], "breed": []}
        room = followers
        for v in (8, 5, 3, 2, 1, 1):
            if v <= room:
                slots["defend"].append(v)
                room -= v
    out: Action = {"type": "orders", "slots": slots, "actions": [], "face_up": []}
    if not (view.get("insignia") == "two_step" and view["cults"][me].get("target") is not None):
        out["target"] = int(rng.choice(prompt.params["targets"]))
        out["loss_order"] = "proportional"
    return out


def alternate_histories_direct(engine: Engine[Any], view: dict[str, Any], prompt: Prompt,
                               rng: random.Random) -> Action:
    """Alternate Histories: in combat, attack the opponent directly with the strongest unit that
    can, every time, unless the opponent has a Nuclear unit; everything else as the heuristic."""
    if prompt.kind == "combat":
        me = prompt.seat
        nukes = [p for p in view["battlefield"] if p["owner"] != me and "nuclear" in p["keywords"]]
        direct = [c.action for c in prompt.choices
                  if c.action.get("type") == "attack" and c.action.get("target") == "player"]
        if direct and not nukes:
            power = {p["uid"]: p["attack"] for p in view["battlefield"]}
            return dict(max(direct, key=lambda a: power.get(a["uid"], 0)))
    return engine.bot_action(view, prompt, rng)


def petition_heathen_rush(engine: Engine[Any], view: dict[str, Any], prompt: Prompt,
                          rng: random.Random) -> Action:
    """Petition: never petitions a god; attacks whenever it may (the heuristic's pick if it
    attacks, else the first pillar listed), else turns heathen for a bead, else draws two cards
    (or takes the beads when its hand is full); everything else as the heuristic. It won
    39.5% of 200 four-player games against three heuristic players (fair share 25%)."""
    if prompt.kind == "turn":
        acts = [dict(c.action) for c in prompt.choices]
        attacks = [a for a in acts if a["type"] == "attack"]
        if attacks:
            own = engine.bot_action(view, prompt, rng)
            return own if own["type"] == "attack" else attacks[0]
        for t in ("heathen", "draw", "beads", "both"):
            pick = next((a for a in acts if a["type"] == t), None)
            if pick is not None:
                return pick
    return engine.bot_action(view, prompt, rng)


COUNTERS: dict[str, dict[str, Player]] = {
    "cult_wars": {"turtle (8 on Defend, breed 5 turns, then sacrifice)": cult_wars_turtle},
    "alternate_histories": {"direct (attack the player unless they hold a Nuclear unit)":
                            alternate_histories_direct},
    "petition": {"heathen rush (never petitions: a heathen who attacks every other turn)":
                 petition_heathen_rush},
}
PLAYERS = {"cult_wars": 3, "alternate_histories": 2, "petition": 4, "hegemony_of_faith": 4}
PLAYERS["flick_of_faith"] = 2
"""The table size each game is benched at (``--players`` for another)."""


# ---------------------------------------------------------------------------------- the games


CLOCK: list[Callable[[], float]] = [time.perf_counter]
"""The clock that times (and may stop) a search: the wall clock, as the platform's worker, or
with ``--clock cpu`` the process's processor time (what a decision costs on a machine busy with
other work, which the wall clock would count against the search)."""

CUT: dict[str, int] = {"normal": 0, "hard": 0}
"""Searches stopped by their time budget before their iteration budget, per strength."""


def strength(name: str, times: list[float]) -> Player:
    """A computer player of the strength ``name`` as the platform runs it (the worker's clock
    stops a search that outruns its time budget); ``times`` gets the time of each decision that
    was searched (more than one candidate)."""
    def play(engine: Engine[Any], view: dict[str, Any], prompt: Prompt, rng: random.Random) -> Action:
        if name == "easy":
            return search.choose(engine, view, prompt, rng, name)
        budget = search.budget_for(engine, name)
        clock = CLOCK[0]
        t = clock()
        found = search.run(engine, view, prompt, rng, budget, clock=clock)
        if found.iterations:
            times.append(clock() - t)
            CUT[name] += found.iterations < budget.iterations
        return found.action
    return play


def heuristic(engine: Engine[Any], view: dict[str, Any], prompt: Prompt, rng: random.Random) -> Action:
    return engine.bot_action(view, prompt, rng)


def play(engine: Engine[Any], seats: list[Player], seed: int) -> Result:
    """One seeded game, played to its end: its result (winners, each seat's final score)."""
    state = engine.setup(len(seats), seed, {})
    rng = random.Random(f"strength/{seed}")
    while (result := engine.result(state)) is None:
        p = engine.prompts(state)[0]
        action = seats[p.seat](engine, engine.view(state, p.seat), p, random.Random(rng.random()))
        state, _ = engine.apply(state, p.seat, action)
    return result


def game(engine: Engine[Any], seats: list[Player], seed: int) -> dict[int, float]:
    """One seeded game (:func:`play`); each seat's share of the win."""
    result = play(engine, seats, seed)
    return {k: (1.0 / len(result.winners) if k in result.winners else 0.0) for k in range(len(seats))}


def margin(result: Result, seat: int) -> tuple[float, float]:
    """The seat's final score minus the best rival's, and minus the rivals' mean."""
    mine = float(result.scores[seat])
    rivals = [float(v) for k, v in result.scores.items() if k != seat]
    if not rivals:
        return 0.0, 0.0
    return mine - max(rivals), mine - sum(rivals) / len(rivals)


def mean_se(values: list[float]) -> tuple[float, float]:
    """The mean of ``values`` and its standard error."""
    if not values:
        return 0.0, 0.0
    if len(values) == 1:
        return values[0], 0.0
    return statistics.fmean(values), statistics.stdev(values) / math.sqrt(len(values))


def interval(wins: float, n: int) -> tuple[float, float]:
    """Wilson's 95% interval for a share of ``wins`` in ``n``."""
    if n == 0:
        return 0.0, 1.0
    z = 1.96
    p = wins / n
    mid = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, mid - half), min(1.0, mid + half)


def match(engine: Engine[Any], one: Player, rest: Player, players: int, games: int,
          seed: int) -> tuple[float, int]:
    """``one`` in a rotating seat against ``rest`` in every other: its summed win share."""
    total = 0.0
    for g in range(games):
        seat = g % players
        seats = [one if k == seat else rest for k in range(players)]
        total += game(engine, seats, seed + g)[seat]
    return total, games


def line(label: str, wins: float, n: int, players: int) -> str:
    lo, hi = interval(wins, n)
    return (f"  {label}: {100 * wins / n:.1f}% of {n} games (95% {100 * lo:.1f}–{100 * hi:.1f}%; "
            f"fair share {100 / players:.1f}%)")


def timing(label: str, times: list[float], cut: int) -> str:
    if not times:
        return f"  {label}: no searched decision"
    ts = sorted(times)
    p99 = ts[min(len(ts) - 1, math.ceil(0.99 * len(ts)) - 1)]
    return (f"  {label}: {len(ts)} searched decisions, median {1000 * statistics.median(ts):.1f} ms, "
            f"p99 {1000 * p99:.1f} ms, max {1000 * ts[-1]:.1f} ms; {cut} stopped by the time "
            "budget before the iteration budget")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", choices=sorted(PLAYERS), action="append")
    ap.add_argument("--games", type=int, default=40, help="games per match")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", choices=("strength", "counter", "hard"), default=None,
                    help="strength: the four strength matches; counter: the counter-strategies; "
                         "hard: only hard against easy")
    ap.add_argument("--players", type=int, default=None,
                    help="table size (default: the game's in PLAYERS)")
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                    help="what times a search: wall clock (default) or processor time")
    args = ap.parse_args()
    if args.clock == "cpu":
        CLOCK[0] = time.process_time
    for key in args.game or sorted(PLAYERS):
        engine = registry.get(key)
        n = args.players or PLAYERS[key]
        print(f"{engine.name}, {n} players, budgets "
              + ", ".join(f"{s} {search.budget_for(engine, s)}" for s in ("normal", "hard")))
        times: dict[str, list[float]] = {"normal": [], "hard": []}
        if args.only == "hard":
            w, g = match(engine, strength("hard", times["hard"]), strength("easy", []), n,
                         args.games, args.seed)
            print(line("hard vs easy", w, g, n), flush=True)
        if args.only in (None, "strength"):
            for s in ("hard", "normal"):
                w, g = match(engine, strength(s, times[s]), strength("easy", []), n, args.games,
                             args.seed)
                print(line(f"{s} vs easy", w, g, n), flush=True)
            w, g = match(engine, heuristic, strength("easy", []), n, args.games, args.seed)
            print(line("the heuristic (no option) vs easy, for comparison", w, g, n), flush=True)
            w, g = match(engine, strength("hard", times["hard"]), heuristic, n, args.games, args.seed)
            print(line("hard vs the heuristic", w, g, n), flush=True)
        if args.only in (None, "counter"):
            for label, counter in COUNTERS.get(key, {}).items():
                w, g = match(engine, counter, heuristic, n, args.games, args.seed)
                print(line(f"{label} vs the heuristic", w, g, n), flush=True)
                w, g = match(engine, counter, strength("hard", times["hard"]), n, args.games,
                             args.seed)
                print(line(f"{label} vs hard", w, g, n), flush=True)
        for s, ts in times.items():
            print(timing(f"time per {s} decision", ts, CUT[s]))
            CUT[s] = 0


if __name__ == "__main__":
    main()
