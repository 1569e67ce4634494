"""The deployment page's figures: SQLite beside PostgreSQL, one process and two, median of 3 runs.

Runs each bench command below ``--repeats`` times (default 3), each run a process of its own, the
commands taking turns (A B C D E, A B C D E, …) so that whatever else the machine does meanwhile
weighs on all of them alike; then prints every run's figures and a Markdown table of the medians,
with the commands, ready for ``docs/deployment.md``.

    python bench/pg_figures.py
    python bench/pg_figures.py --repeats 5 --db postgresql://herald@db.example.org/postgres
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import argparse  # noqa: E402
import re  # noqa: E402
import shlex  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
from dataclasses import dataclass  # noqa: E402

BENCH = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Run:
    key: str
    script: str
    args: tuple[str, ...]

    def command(self, db: str | None) -> list[str]:
        extra: tuple[str, ...] = ()
        if db is not None and (self.script == "pg_processes.py" or "--postgres" in self.args):
            extra = ("--db", db)
        args = tuple(a for a in self.args if not (db is not None and a == "--postgres"))
        return [f"bench/{self.script}", *args, *extra]


GAMES = ("--games", "100", "--players", "4", "--no-render")
RUNS = (
    Run("hof sqlite", "sessions_load.py", ("--game", "hegemony_of_faith", *GAMES)),
    Run("hof postgres", "sessions_load.py", ("--game", "hegemony_of_faith", *GAMES, "--postgres")),
    Run("cw sqlite", "sessions_load.py", ("--game", "cult_wars", *GAMES)),
    Run("cw postgres", "sessions_load.py", ("--game", "cult_wars", *GAMES, "--postgres")),
    Run("hof 2 processes", "pg_processes.py", ()),
)

FIGURES = {
    "actions/s": r"^  throughput(?:, all processes)?\s+(\d+) actions/s",
    "step p50": r"^  step \(apply \+ commit\) p50 / p99\s+([\d.]+) /",
    "step p99": r"^  step \(apply \+ commit\) p50 / p99\s+[\d.]+ / ([\d.]+) ms",
    "commit µs": r"^  commit_action\s+(\d+) µs",
    "plain µs": r"^  plain \S+ \([^)]*\)\s+(\d+) µs",
    "ratio": r"^  ratio\s+([\d.]+)x",
    "races lost": r"^  version races lost(?: \(retried\))?\s+(\d+)",
    "given up": r"^  actions given up after retries\s+(\d+)",
    "process 0": r"^  process 0\s+(\d+) actions/s",
    "process 1": r"^  process 1\s+(\d+) actions/s",
}


def figures(output: str) -> dict[str, float]:
    """The figures a bench printed (those it printed: the two benches differ)."""
    found = {}
    for name, pattern in FIGURES.items():
        match = re.search(pattern, output, re.MULTILINE)
        if match:
            found[name] = float(match.group(1))
    return found


def run(argv: list[str]) -> dict[str, float]:
    done = subprocess.run([sys.executable, *argv], cwd=BENCH.parent, capture_output=True,
                          text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{shlex.join(argv)} failed:\n{done.stdout}\n{done.stderr}")
    return figures(done.stdout)


def cell(rows: dict[str, float] | None, *names: str, unit: str = "") -> str:
    if rows is None or any(n not in rows for n in names):
        return "—"
    return " / ".join(number(rows[n]) for n in names) + unit


def number(v: float) -> str:
    """Whole numbers and anything from 100 up without decimals; below, one decimal."""
    return f"{v:,.0f}" if v >= 100 or v == int(v) else f"{v:.1f}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--repeats", type=int, default=3, help="runs of each command (default 3)")
    ap.add_argument("--db", metavar="URL", default=None,
                    help="an existing PostgreSQL server instead of throwaway ones (see --db of "
                         "the benches)")
    args = ap.parse_args(argv)
    runs: dict[str, list[dict[str, float]]] = {r.key: [] for r in RUNS}
    for i in range(args.repeats):
        for r in RUNS:
            got = run(r.command(args.db))
            runs[r.key].append(got)
            print(f"run {i + 1} {r.key:<16} " + ", ".join(f"{k} {v:g}" for k, v in got.items()),
                  flush=True)
    print()
    for r in RUNS:
        print(f"    python {shlex.join(r.command(args.db))}")
    print()
    print(f"Medians of {args.repeats} runs:")
    print()
    print_table(runs)
    return 0


def print_table(runs: dict[str, list[dict[str, float]]]) -> None:
    """The Markdown table: each figure the median of its runs, but the two processes' shares
    those of the run whose total is the median (medians taken apart would not add up)."""
    med = {key: {name: statistics.median(g[name] for g in got) for name in got[0]}
           for key, got in runs.items()}
    by_total = sorted(runs["hof 2 processes"], key=lambda g: g["actions/s"])
    middle = by_total[len(by_total) // 2]
    print("| 4 players, 100 games at once | SQLite, one process | PostgreSQL, one process | "
          "PostgreSQL, two processes |")
    print("|---|---|---|---|")
    two = med["hof 2 processes"]
    print(f"| Hegemony of Faith: actions/s | {cell(med['hof sqlite'], 'actions/s')} | "
          f"{cell(med['hof postgres'], 'actions/s')} | {cell(two, 'actions/s')} "
          f"({cell(middle, 'process 0')} + {cell(middle, 'process 1')}) |")
    print(f"| Hegemony of Faith: step p50 / p99 | {cell(med['hof sqlite'], 'step p50', 'step p99', unit=' ms')} | "
          f"{cell(med['hof postgres'], 'step p50', 'step p99', unit=' ms')} | "
          f"{cell(two, 'step p50', 'step p99', unit=' ms')} |")
    print(f"| Cult Wars: actions/s | {cell(med['cw sqlite'], 'actions/s')} | "
          f"{cell(med['cw postgres'], 'actions/s')} | — |")
    print(f"| Cult Wars: step p50 / p99 | {cell(med['cw sqlite'], 'step p50', 'step p99', unit=' ms')} | "
          f"{cell(med['cw postgres'], 'step p50', 'step p99', unit=' ms')} | — |")
    for game, key in (("Hegemony of Faith", "hof"), ("Cult Wars", "cw")):
        print(f"| {game}: one commit, quiet (µs): Herald / plain transaction | "
              f"{cell(med[key + ' sqlite'], 'commit µs', 'plain µs')} "
              f"({cell(med[key + ' sqlite'], 'ratio')}×) | "
              f"{cell(med[key + ' postgres'], 'commit µs', 'plain µs')} "
              f"({cell(med[key + ' postgres'], 'ratio')}×) | — |")
    print(f"| version races lost (retried) | — | {cell(med['hof postgres'], 'races lost')} | "
          f"{cell(two, 'races lost')} ({cell(two, 'given up')} given up) |")


if __name__ == "__main__":
    sys.exit(main())
