"""Fit Flick of Faith's search evaluation (``rules.flick_of_faith.search.standing``) to data.

The ``hard`` player's search judges where a sampled flick leaves the game with hand-set weights:
VP now, Worship to come, prophets left to flick, temples at the Worships still to come, prophets
on cities, prophets on the navel. This script measures what those things are worth in games of
the computer players:

* ``generate``: seeded games with ``easy`` (or the plain heuristic) at every seat; at the start
  of each Generation's Council or Mission, at every Mission flick about to be made and again
  right after it, each seat's features (as ``standing`` counts them, each apart) and its
  ``standing`` are recorded; when the game ends, each seat's final VP and win share are added.
  One JSON line per position and seat.
* ``fit``: per table size, a least-squares model of each seat's final VP from its features, both
  relative to the mean of the seats (a softmax over the seats sees nothing else), with standard
  errors clustered on games (a game's positions are not independent) and the R² each feature
  carries; a conditional logit of winning (a softmax over the seats of weighted features, the
  form of ``chances``); and the temperature that best turns ``standing``, today's and the
  fitted one, into the winners, overall and per Generation.
* ``noise``: at some Mission turns of ``easy`` games, every candidate aim of the search played
  the same many times and judged by ``evaluate`` (the project's, or another version's): how far
  apart the candidates are against how noisy one sample is.

Run from the repository's root:

    python scripts/fit_flick_eval.py generate --players 4 --games 300 --seed 100000 --out d4.jsonl
    python scripts/fit_flick_eval.py fit d4.jsonl
    python scripts/fit_flick_eval.py noise --players 4 --games 2 --samples 30 --every 6

Pure Python (no numerical library): the models have a handful of weights.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import strength  # noqa: E402

from rules import registry  # noqa: E402
from rules import search as searching  # noqa: E402
from rules.engine import Engine  # noqa: E402

GAME = "flick_of_faith"


# ---------------------------------------------------------------------------------- features


FEATURES = ("vp", "worship_board", "worship_expected", "prophets_left", "temples_map",
            "temples_later", "temples_hand", "city", "city_later", "navel", "later")
"""What is recorded of each seat at a position (see :func:`features`)."""


def features(state: Any) -> list[dict[str, float]]:
    """Each seat's features in ``state``, counted as ``standing`` counts them but kept apart:

    * ``vp``: VP now; ``worship_board``: what Worship would give for the board as it lies;
      ``worship_expected``: as it is likely to stand when the Generation ends
      (``expected_worship``);
    * ``prophets_left``: prophets not yet flicked this Generation (0 outside the phases where
      ``standing`` counts them);
    * ``temples_map``: its temples on the map; ``temples_later``: the same times the Worships
      still to come after this Generation's (``later``); ``temples_hand``: temples not built;
    * ``city``: its prophets touching a city while it may still build (a temple left, building
      allowed), ``city_later``: the same times ``later``;
    * ``navel``: what its prophets on the navel score when the turn ends.
    """
    from rules.flick_of_faith import geometry, laws, scoring
    from rules.flick_of_faith import search as hooks
    from rules.flick_of_faith.discs import KINDS, PROPHET_KINDS

    s = state
    n = s.players
    board = [float(r["vp"]) for r in scoring.worship(s.discs, n, s.laws, s.gods, s.vp)]
    expected = hooks.expected_worship(s)
    later = float(max(0, s.generations - s.generation))
    counting = s.phase in ("gods", "setup_flick", "council", "mission")
    can_build = laws.builds_allowed(s.laws)
    out = [{"vp": float(s.vp[k]), "worship_board": board[k], "worship_expected": expected[k],
            "prophets_left": float(sum(s.supply[k].values())) if counting else 0.0,
            "temples_map": 0.0, "temples_later": 0.0, "temples_hand": float(s.temples[k]),
            "city": 0.0, "city_later": 0.0, "navel": 0.0, "later": later} for k in range(n)]
    for d in s.discs:
        k = d["owner"]
        if k is None:
            continue
        f = out[k]
        if d["kind"] == "temple":
            f["temples_map"] += 1.0
            f["temples_later"] += later
            continue
        if d["kind"] not in PROPHET_KINDS:
            continue
        r = KINDS[d["kind"]].radius
        if geometry.on_navel(d["x"], d["y"], r):
            f["navel"] += float(scoring.navel_value(s.discs, n, s.laws, s.gods, k))
        elif can_build and s.temples[k] > 0 and geometry.city_at(d["x"], d["y"], r) is not None:
            f["city"] += 1.0
            f["city_later"] += later
    return out


# ---------------------------------------------------------------------------------- generate


def heuristic(engine: Engine[Any], view: dict[str, Any], prompt: Any, rng: random.Random) -> Any:
    """The plain heuristic player (no noise)."""
    return engine.bot_action(view, prompt, rng)


Row = tuple[str, "int | None", tuple[int, str, str, int], list[dict[str, float]], list[float]]
"""A recorded position: its kind, the seat flicking, (generation, phase, stage, attempts), each
seat's features and each seat's ``standing`` with today's weights."""


def _row(kind: str, mover: int | None, s: Any) -> Row:
    from rules.flick_of_faith import search as hooks

    return kind, mover, (s.generation, s.phase, s.stage, s.attempts), features(s), hooks.standing(s)


def generate(players: int, games: int, seed: int, player: str, out: Path) -> None:
    """Seeded games with ``player`` (``easy`` or ``heuristic``) at every seat; a JSON line per
    recorded position and seat (see the module's docstring)."""
    engine = registry.get(GAME)
    seat_player = strength.strength("easy", []) if player == "easy" else heuristic
    t0 = time.perf_counter()
    with out.open("a") as fh:
        for g in range(games):
            game_seed = seed + g
            state = engine.setup(players, game_seed, {})
            rng = random.Random(f"fit/{game_seed}")
            rows: list[Row] = []
            generation = -1

            while engine.result(state) is None:
                p = engine.prompts(state)[0]
                if state.generation != generation and state.phase in ("council", "mission"):
                    generation = state.generation  # (a new Generation: Worship has just scored)
                    rows.append(_row("generation", None, state))
                flicking = state.phase == "mission" and p.kind == "flick"
                if flicking:
                    rows.append(_row("before" if state.attempts == 0 and not state.in_corner
                                     else "again", p.seat, state))
                action = seat_player(engine, engine.view(state, p.seat), p,
                                     random.Random(rng.random()))
                state, _ = engine.apply(state, p.seat, action)
                if flicking and action.get("type") != "leave":
                    rows.append(_row("after", p.seat, state))
            result = engine.result(state)
            assert result is not None
            share = [1.0 / len(result.winners) if k in result.winners else 0.0
                     for k in range(players)]
            for pos, (kind, mover, (gen, phase, stage, attempts), feats, stand) in enumerate(rows):
                for k in range(players):
                    fh.write(json.dumps({
                        "game": game_seed, "pos": pos, "players": players, "kind": kind,
                        "mover": mover,
                        "generation": gen, "phase": phase, "stage": stage, "attempts": attempts,
                        "seat": k, **feats[k], "standing": stand[k],
                        "final_vp": float(state.vp[k]), "won": share[k]}) + "\n")
            if (g + 1) % 10 == 0 or g + 1 == games:
                print(f"  {g + 1} games, {time.perf_counter() - t0:.0f} s", flush=True)


# --------------------------------------------------------------------------------------- fit

Matrix = list[list[float]]

TODAY = {"vp": 1.0, "worship_expected": 1.0, "prophets_left": 1.2, "temples_later": 1.0,
         "city": 1.0, "city_later": 1.0, "navel": 1.0}
"""``standing``'s weights today (from three players on; with two, ``worship_board`` in place of
``worship_expected``): PROPHET_VALUE, FUTURE_WORSHIP, CITY_VALUE, the rest 1."""
MODEL = ("vp", "worship_expected", "prophets_left", "temples_later", "city", "city_later",
         "navel")
"""The features the models weigh by default (``standing``'s own terms)."""


def solve(a: Matrix, b: list[float]) -> list[float]:
    """``x`` with ``a x = b`` (Gaussian elimination with partial pivoting)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        piv = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[piv] = m[piv], m[c]
        if abs(m[c][c]) < 1e-12:
            raise ValueError("singular matrix: a feature is constant or a sum of others")
        for r in range(n):
            if r != c and m[r][c] != 0.0:
                f = m[r][c] / m[c][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c], strict=True)]
    return [m[i][n] / m[i][i] for i in range(n)]


def inverse(a: Matrix) -> Matrix:
    """The inverse of a small square matrix."""
    n = len(a)
    cols = [solve(a, [1.0 if i == j else 0.0 for i in range(n)]) for j in range(n)]
    return [[cols[j][i] for j in range(n)] for i in range(n)]


def sandwich(bread: Matrix, meat: Matrix) -> Matrix:
    """``bread · meat · bread`` (a cluster-robust covariance)."""
    n = len(bread)
    left = [[sum(bread[i][k] * meat[k][j] for k in range(n)) for j in range(n)] for i in range(n)]
    return [[sum(left[i][k] * bread[k][j] for k in range(n)) for j in range(n)] for i in range(n)]


def outer_add(acc: Matrix, v: Sequence[float], w: float = 1.0) -> None:
    """``acc += w · v vᵀ``."""
    for i, vi in enumerate(v):
        if vi:
            row = acc[i]
            for j, vj in enumerate(v):
                row[j] += w * vi * vj


Position = list[dict[str, Any]]
RIDGE = 1e-3
"""The logit's weights are drawn this little towards 0 (per position, it is nothing)."""


def load(paths: Sequence[Path]) -> dict[int, list[Position]]:
    """The recorded positions by table size, each a list of its seats' records."""
    grouped: dict[tuple[int, int, int], Position] = {}
    for path in paths:
        with path.open() as fh:
            for line in fh:
                r = json.loads(line)
                grouped.setdefault((r["players"], r["game"], r["pos"]), []).append(r)
    out: dict[int, list[Position]] = {}
    for (n, _, _), pos in sorted(grouped.items()):
        out.setdefault(n, []).append(pos)
    return out


def relative_vp(positions: Sequence[Position], names: Sequence[str]) -> tuple[list[float], Matrix, float]:
    """Least squares of each seat's final VP from its features, both taken relative to the
    position's mean over the seats (what a softmax over the seats sees: anything every seat
    shares drops out): weights, their covariance clustered on games, and R²."""
    p = len(names)
    xtx = [[0.0] * p for _ in range(p)]
    xty = [0.0] * p
    rows: list[tuple[int, list[float], float]] = []
    for pos in positions:
        n = len(pos)
        means = [sum(r[f] for r in pos) / n for f in names]
        ybar = sum(r["final_vp"] for r in pos) / n
        for r in pos:
            x = [r[f] - m for f, m in zip(names, means, strict=True)]
            y = r["final_vp"] - ybar
            outer_add(xtx, x)
            for i in range(p):
                xty[i] += x[i] * y
            rows.append((r["game"], x, y))
    beta = solve(xtx, xty)
    bread = inverse(xtx)
    scores: dict[int, list[float]] = {}
    sse = sst = 0.0
    for game, x, y in rows:
        e = y - sum(b * v for b, v in zip(beta, x, strict=True))
        sse += e * e
        sst += y * y
        g = scores.setdefault(game, [0.0] * p)
        for i in range(p):
            g[i] += x[i] * e
    meat = [[0.0] * p for _ in range(p)]
    for g in scores.values():
        outer_add(meat, g)
    return beta, sandwich(bread, meat), 1.0 - sse / sst


def win_logit(positions: Sequence[Position], names: Sequence[str],
              start: Sequence[float] | None = None) -> tuple[list[float], Matrix, float]:
    """The conditional logit of winning: a seat wins with chance ``softmax(β · features)`` over
    the seats (the form of ``chances``, ``β = weights / TEMPERATURE``), fit by Newton's method
    on the win shares; ``β``, its covariance clustered on games, and the mean log-likelihood per
    position."""
    p = len(names)
    data = [(pos[0]["game"], [[r[f] for f in names] for r in pos], [r["won"] for r in pos])
            for pos in positions]
    beta = list(start) if start is not None else [0.0] * p
    ll = 0.0
    for _ in range(30):
        grad = [0.0] * p
        hess = [[0.0] * p for _ in range(p)]
        ll = 0.0
        for _, xs, won in data:
            u = [sum(b * v for b, v in zip(beta, x, strict=True)) for x in xs]
            top = max(u)
            e = [math.exp(v - top) for v in u]
            z = sum(e)
            q = [v / z for v in e]
            mean = [sum(q[k] * xs[k][i] for k in range(len(xs))) for i in range(p)]
            w = sum(won)
            for k, x in enumerate(xs):
                ll += won[k] * (u[k] - top - math.log(z))
                d = [x[i] - mean[i] for i in range(p)]
                for i in range(p):
                    grad[i] += won[k] * x[i]
                outer_add(hess, d, w * q[k])
            for i in range(p):
                grad[i] -= w * mean[i]
        for i in range(p):  # (a whisper of a prior: a feature rare in the data cannot diverge)
            hess[i][i] += RIDGE
            grad[i] -= RIDGE * beta[i]
        step = solve(hess, grad)
        beta = [b + s for b, s in zip(beta, step, strict=True)]
        if max(abs(s) for s in step) < 1e-7:
            break
    bread = inverse(hess)
    scores: dict[int, list[float]] = {}
    for game, xs, won in data:
        u = [sum(b * v for b, v in zip(beta, x, strict=True)) for x in xs]
        top = max(u)
        e = [math.exp(v - top) for v in u]
        z = sum(e)
        g = scores.setdefault(game, [0.0] * p)
        w = sum(won)
        for i in range(p):
            g[i] += sum(won[k] * xs[k][i] for k in range(len(xs))) - w * sum(
                e[k] / z * xs[k][i] for k in range(len(xs)))
    meat = [[0.0] * p for _ in range(p)]
    for g in scores.values():
        outer_add(meat, g)
    return beta, sandwich(bread, meat), ll / max(1, len(data))


def log_likelihood(positions: Sequence[Position], score: Callable[[dict[str, Any]], float],
                   temperature: float) -> float:
    """The mean log-likelihood per position of the winners under ``softmax(score / T)``."""
    total = 0.0
    for pos in positions:
        u = [score(r) / temperature for r in pos]
        top = max(u)
        z = sum(math.exp(v - top) for v in u)
        total += sum(r["won"] * (v - top - math.log(z)) for r, v in zip(pos, u, strict=True))
    return total / max(1, len(positions))


def report(positions: Sequence[Position], names: Sequence[str], label: str) -> None:
    """Both models on ``positions``, printed beside today's weights."""
    games = len({pos[0]["game"] for pos in positions})
    print(f"\n{label}: {len(positions)} positions of {games} games")
    varied = [f for f in names if len({r[f] - pos[0][f] for pos in positions for r in pos}) > 1]
    if varied != list(names):
        print(f"  (left out, the same for every seat here: "
              f"{', '.join(f for f in names if f not in varied)})")
        names = varied
    beta, cov, r2 = relative_vp(positions, names)
    scale = beta[names.index("vp")] if "vp" in names else 1.0
    print(f"  final VP relative to the seats' mean (R² {r2:.3f}); s.e. clustered on games; "
          "R² lost without the feature")
    print(f"    {'feature':18} {'weight':>8} {'± s.e.':>7} {'÷ vp':>7} {'R² lost':>8}  today")
    for i, f in enumerate(names):
        rest = [g for g in names if g != f]
        lost = r2 - relative_vp(positions, rest)[2] if rest else r2
        print(f"    {f:18} {beta[i]:8.3f} {math.sqrt(cov[i][i]):7.3f} {beta[i] / scale:7.3f} "
              f"{lost:8.4f}  {TODAY.get(f, 0.0):g}")
    lb, lcov, ll = win_logit(positions, names)
    print(f"  winning: conditional logit (log-likelihood per position {ll:.4f})")
    print(f"    {'feature':18} {'β':>8} {'± s.e.':>7} {'β/β_vp':>7}")
    lscale = lb[names.index("vp")] if "vp" in names else 1.0
    for i, f in enumerate(names):
        print(f"    {f:18} {lb[i]:8.3f} {math.sqrt(lcov[i][i]):7.3f} {lb[i] / lscale:7.3f}")
    if "vp" in names:
        print(f"    temperature implied by β_vp: {1.0 / lscale:.2f} VP")
    today_t, today_ll = fit_temperature(positions, lambda r: r["standing"])
    print(f"  today's standing: best temperature {today_t:.2f} (log-likelihood {today_ll:.4f}; "
          f"at 3.0: {log_likelihood(positions, lambda r: r['standing'], 3.0):.4f}); "
          f"uniform: {log_likelihood(positions, lambda r: 0.0, 1.0):.4f}")
    fitted = dict(zip(names, beta, strict=True))

    def model(r: dict[str, Any]) -> float:
        return sum(w * float(r[f]) for f, w in fitted.items())

    vp_t, vp_ll = fit_temperature(positions, model)
    print(f"  the fitted VP model: best temperature {vp_t:.2f} (log-likelihood {vp_ll:.4f})")
    for gen in sorted({pos[0]["generation"] for pos in positions}):
        part = [pos for pos in positions if pos[0]["generation"] == gen]
        t0, l0 = fit_temperature(part, lambda r: r["standing"])
        t1, l1 = fit_temperature(part, model)
        print(f"    Generation {gen} ({len(part)} positions): best temperature today {t0:.2f} "
              f"({l0:.4f}), fitted {t1:.2f} ({l1:.4f})")


def fit_temperature(positions: Sequence[Position],
                    score: Callable[[dict[str, Any]], float]) -> tuple[float, float]:
    """The temperature that best turns ``score`` into win chances, and its log-likelihood."""
    best = (1.0, -math.inf)
    for t in [0.5 + 0.25 * i for i in range(47)]:
        ll = log_likelihood(positions, score, t)
        if ll > best[1]:
            best = (t, ll)
    return best


def fit(paths: Sequence[Path], names: Sequence[str], kinds: set[str] | None) -> None:
    """Both models per table size, on all positions and then per kind of position."""
    for n, positions in load(paths).items():
        chosen = [pos for pos in positions if kinds is None or pos[0]["kind"] in kinds]
        report(chosen, names, f"{n} players, positions {', '.join(sorted(kinds or {'all'}))}")


# ------------------------------------------------------------------------------------- noise


def evaluation_from(path: Path | None) -> Callable[[Any, int], float]:
    """The search's ``evaluate``: the project's, or that of another version of
    ``rules/flick_of_faith/search.py`` at ``path`` (to compare two without swapping files)."""
    if path is None:
        from rules.flick_of_faith import search as hooks

        return hooks.evaluate
    import importlib.util

    spec = importlib.util.spec_from_file_location("rules.flick_of_faith._compared", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.evaluate  # type: ignore[no-any-return]


def noise(players: int, games: int, seed: int, samples: int, every: int,
          path: Path | None) -> None:
    """How far apart the search's candidate aims are against how noisy one sample is: at every
    ``every``-th Mission turn of ``easy`` games, each candidate of the search is played
    ``samples`` times (the same sampled states and dice for every candidate, as the search
    draws them) and judged by ``evaluate``; printed per position: the best candidate's mean
    against the heuristic's aim, the standard deviation of their paired difference, and the
    standard error that 15 samples each (about what the time budget allows) leave."""
    from rules.engine import RulesError

    engine = registry.get(GAME)
    evaluate = evaluation_from(path)
    easy = strength.strength("easy", [])
    gaps: list[float] = []
    ses: list[float] = []
    for g in range(games):
        state = engine.setup(players, seed + g, {})
        rng = random.Random(f"noise/{seed + g}")
        turns = 0
        while engine.result(state) is None:
            p = engine.prompts(state)[0]
            view = engine.view(state, p.seat)
            first = (state.phase == "mission" and p.kind == "flick" and state.attempts == 0
                     and not state.in_corner)
            if first:
                turns += 1
            if first and turns % every == 0:
                cands = searching.candidates(engine, view, p, random.Random(rng.random()))
                values: list[list[float]] = [[] for _ in cands]
                for j in range(samples):
                    for i, action in enumerate(cands):
                        r = random.Random(f"noise/{seed + g}/{turns}/{j}")
                        sample = engine.determinize(view, p.seat, r)  # type: ignore[attr-defined]
                        try:
                            sample, _ = engine.apply(sample, p.seat, action)
                        except RulesError:
                            values[i].append(math.nan)
                            continue
                        result = engine.result(sample)
                        values[i].append(searching.reward(result, p.seat) if result is not None
                                         else evaluate(sample, p.seat))
                means = [statistics.fmean(v) if not any(map(math.isnan, v)) else -1.0
                         for v in values]
                best = max(range(len(cands)), key=lambda i: means[i])
                diff = [a - b for a, b in zip(values[best], values[0], strict=True)]
                sd = statistics.stdev(diff) if best != 0 else 0.0
                gaps.append(means[best] - means[0])
                ses.append(sd / math.sqrt(15))
                print(f"  seed {seed + g}, turn {turns}, Generation {state.generation}: "
                      f"{len(cands)} candidates, means " + " ".join(f"{m:.3f}" for m in means)
                      + f"; best - heuristic {means[best] - means[0]:+.3f}, paired s.d. {sd:.3f} "
                      f"(s.e. at 15 samples {sd / math.sqrt(15):.3f})", flush=True)
            action = easy(engine, view, p, random.Random(rng.random()))
            state, _ = engine.apply(state, p.seat, action)
    print(f"  {len(gaps)} positions: best - heuristic {statistics.fmean(gaps):+.3f} on average "
          f"(at {samples} samples: the best is picked after the fact); the s.e. of a "
          f"difference at 15 samples each {statistics.fmean(ses):.3f} on average")


# -------------------------------------------------------------------------------------- main


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    sub = ap.add_subparsers(dest="command", required=True)
    gp = sub.add_parser("generate", help="record positions of games of the computer players")
    gp.add_argument("--players", type=int, default=4)
    gp.add_argument("--games", type=int, default=100)
    gp.add_argument("--seed", type=int, default=100000)
    gp.add_argument("--player", choices=("easy", "heuristic"), default="easy")
    gp.add_argument("--out", type=Path, required=True, help="JSON lines, appended to")
    fp = sub.add_parser("fit", help="fit the models to recorded positions")
    fp.add_argument("data", type=Path, nargs="+")
    fp.add_argument("--features", default=",".join(MODEL),
                    help=f"comma-separated, among: {', '.join(FEATURES)}")
    fp.add_argument("--kinds", default=None,
                    help="positions to use, comma-separated among: generation, before, again, "
                         "after (default: all)")
    np_ = sub.add_parser("noise", help="candidates' spread against one sample's noise")
    np_.add_argument("--players", type=int, default=4)
    np_.add_argument("--games", type=int, default=1)
    np_.add_argument("--seed", type=int, default=300000)
    np_.add_argument("--samples", type=int, default=40)
    np_.add_argument("--every", type=int, default=4, help="every how many Mission turns")
    np_.add_argument("--evaluation", type=Path, default=None,
                     help="another version of the game's search module to judge with")
    args = ap.parse_args()
    if args.command == "noise":
        noise(args.players, args.games, args.seed, args.samples, args.every, args.evaluation)
    if args.command == "fit":
        fit(args.data, args.features.split(","), set(args.kinds.split(",")) if args.kinds else None)
    if args.command == "generate":
        generate(args.players, args.games, args.seed, args.player, args.out)


if __name__ == "__main__":
    main()
