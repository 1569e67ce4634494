"""The boards' figures for the face of Herald (issue 26): per game, a board's draw + encode time
(median wall clock and median CPU time of this process, which a busy machine disturbs far less),
its median PNG size and the smallest text drawn on any board, as a share of the image's width.

    python scripts/board_figures.py                  # 40 boards of each game, each drawn once
    python scripts/board_figures.py --boards 12 --repeats 5

The boards are those of ``bench/draw_boards.py`` (public views spread over a seeded game between
computer players, Latin names), drawn in game order as the platform draws them; a first board is
drawn before timing so fonts and cached layers are loaded.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

import argparse  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402

from draw_boards import NAMES, PLAYERS, positions  # noqa: E402

from bot.gameui import get_ui  # noqa: E402
from bot.render import measure, to_png  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--boards", type=int, default=40, help="boards per game (default 40)")
    ap.add_argument("--repeats", type=int, default=1, help="draws per board (default 1)")
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args()
    names = NAMES["latin"]
    print(f"| game | CPU median ms | wall median ms | PNG bytes, median | smallest text, % of width |"
          f" ({args.boards} boards x {args.repeats})")
    print("|---|---|---|---|---|")
    for game, players in PLAYERS.items():
        ui = get_ui(game)
        views = positions(game, players, args.boards, args.seed)
        ui.board_image(views[0][0], views[0][1], names=names)
        cpu: list[float] = []
        wall: list[float] = []
        sizes: list[int] = []
        smallest = 100.0
        for view, events in views:
            with measure() as texts:
                image = ui.board_image(view, events, names=names)
            smallest = min(smallest, min(texts) / image.width * 100)
            for _ in range(args.repeats):
                c0, t0 = time.process_time(), time.perf_counter()
                png = to_png(ui.board_image(view, events, names=names))
                cpu.append(time.process_time() - c0)
                wall.append(time.perf_counter() - t0)
            sizes.append(len(png))
        print(f"| {game} | {statistics.median(cpu) * 1000:.1f} | {statistics.median(wall) * 1000:.1f} | "
              f"{int(statistics.median(sizes))} | {smallest:.2f} |")


if __name__ == "__main__":
    main()
