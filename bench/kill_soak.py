"""kill -9 soak: many SIGKILLs of a process playing games through the session layer.

Runs the harness of ``tests/faults/kill_child.py`` for as many kills as asked and prints its
figures: kills, acknowledged actions, lost and duplicated ones (both must be 0), what became of
the actions sent again after a restart, kills that cut computer players off while answering,
games finished, wall time. Exits 1 if anything was lost, duplicated or left unfinished.

    python bench/kill_soak.py                        # 300 kills, seed 1066
    python bench/kill_soak.py --kills 500 --seed 7 --keep /some/folder
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import argparse  # noqa: E402
import shlex  # noqa: E402
import tempfile  # noqa: E402

from tests.faults import kill_child  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--kills", type=int, default=300, help="children killed (default 300)")
    ap.add_argument("--seed", type=int, default=1066, help="seed of the kill delays and the tables")
    ap.add_argument("--active", type=int, default=4, help="games kept running (default 4)")
    ap.add_argument("--max-delay", type=float, default=0.5,
                    help="longest time a child plays before its kill, in seconds (default 0.5)")
    ap.add_argument("--keep", type=Path, default=None,
                    help="write the database and the ledger here (an empty folder) and keep them")
    args = ap.parse_args(argv)

    print(f"command: python bench/kill_soak.py {shlex.join(sys.argv[1:] if argv is None else argv)}")
    with tempfile.TemporaryDirectory(prefix="herald-kill-") as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        figures = kill_child.run(folder, kills=args.kills, seed=args.seed, active=args.active,
                                 max_delay=args.max_delay, progress=print)
    print(figures.summary())
    for problem in figures.problems[:50]:
        print("  " + problem)
    bad = figures.problems or figures.lost or figures.duplicated or figures.misplaced
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
