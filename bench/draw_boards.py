"""Board drawing benchmark: draw + PNG encode time and bytes per board, per game.

Boards of a seeded game between computer players (public views every few moves, as the
delivery draws one for every update) are drawn and encoded ``--repeats`` times each, after one
cold draw that builds the cached layers and loads the fonts; reported per game: the median and
p90 draw + encode time of a board, and the median PNG size. ``--names`` picks the players'
display names: ``latin`` (Ann, Bob, Zoë, ...), ``world`` (a name in every script the kit draws:
accents, Greek, Cyrillic, CJK, Arabic, Hebrew, emoji) or ``none`` (seat numbers).

    python bench/draw_boards.py
    python bench/draw_boards.py --names world --boards 12 --repeats 5
    python bench/draw_boards.py --every-move --only alternate_histories

A board drawn again from the same position reuses what its game keeps drawn (Alternate Histories
keeps the battlefield's tiles), so ``--repeats`` measures a board drawn a second time.
``--every-move`` measures what the delivery does instead: every board of the seeded game once, in
the order of the game, as CPU time of this process (steadier than the wall clock on a busy
machine): the median, the median of the game's last quarter (the fullest boards) and the p90.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import argparse  # noqa: E402
import random  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from typing import Any  # noqa: E402

from bot.gameui import get_ui  # noqa: E402
from bot.render import to_png  # noqa: E402
from rules import registry  # noqa: E402

PLAYERS = {"hegemony_of_faith": 5, "flick_of_faith": 3, "cult_wars": 4, "petition": 3,
           "alternate_histories": 2}
NAMES: dict[str, list[str] | None] = {
    "none": None,
    "latin": ["Ann", "Bob", "Zoë", "Dee", "Eve", "Finn", "Gus", "Hal"],
    "world": ["Søren Ærøskøbing", "王小明", "محمد", "Дмитрий", "🎉 Party 👍🏽", "김민준", "דוד",
              "Νίκος"],
}


def positions(game: str, players: int, count: int, seed: int) -> list[tuple[Any, list[Any]]]:
    """``count`` public views (with the last move's public events) spread over a seeded game."""
    engine = registry.get(game)
    state = engine.setup(players, seed, {})
    rng = random.Random(seed)
    out: list[tuple[Any, list[Any]]] = []
    while engine.result(state) is None and len(out) < 3000:
        prompt = engine.prompts(state)[0]
        action = engine.bot_action(engine.view(state, prompt.seat), prompt, rng)
        state, events = engine.apply(state, prompt.seat, action)
        out.append((engine.view(state, None), [e for e in events if e.to is None]))
    step = max(1, len(out) // count)
    return out[::step][:count]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--boards", type=int, default=12, help="positions per game (default 12)")
    ap.add_argument("--repeats", type=int, default=5, help="draws per position (default 5)")
    ap.add_argument("--names", choices=sorted(NAMES), default="latin")
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--only", default=None, help="one game's key")
    ap.add_argument("--every-move", action="store_true",
                    help="every board of the game once, in order, as CPU time")
    args = ap.parse_args()
    names = NAMES[args.names]
    if args.every_move:
        every_move(args, names)
        return
    print(f"| game | draw + encode, median ms | p90 ms | PNG KiB | ({args.names} names, "
          f"{args.boards} boards x {args.repeats}) |")
    print("|---|---|---|---|---|")
    for game, players in PLAYERS.items():
        if args.only and game != args.only:
            continue
        ui = get_ui(game)
        views = positions(game, players, args.boards, args.seed)
        ui.board_image(views[0][0], views[0][1], names=names)  # cold: layers, fonts
        times: list[float] = []
        sizes: list[int] = []
        for view, events in views:
            for _ in range(args.repeats):
                t0 = time.perf_counter()
                png = to_png(ui.board_image(view, events, names=names))
                times.append(time.perf_counter() - t0)
            sizes.append(len(png))
        times.sort()
        print(f"| {game} | {statistics.median(times) * 1000:.1f} | "
              f"{times[int(len(times) * 0.9)] * 1000:.1f} | {statistics.median(sizes) / 1024:.0f} | |")


def every_move(args: argparse.Namespace, names: list[str] | None) -> None:
    """Every board of a seeded game drawn once, in the order of the game (CPU time)."""
    print(f"| game | boards | draw, median ms | last quarter, median ms | p90 ms | encode, median ms | "
          f"({args.names} names, every move, CPU time) |")
    print("|---|---|---|---|---|---|---|")
    for game, players in PLAYERS.items():
        if args.only and game != args.only:
            continue
        ui = get_ui(game)
        views = positions(game, players, 10_000, args.seed)
        draws: list[float] = []
        encodes: list[float] = []
        for view, events in views:
            t0 = time.process_time()
            image = ui.board_image(view, events, names=names)
            t1 = time.process_time()
            to_png(image)
            draws.append(t1 - t0)
            encodes.append(time.process_time() - t1)
        late = draws[-max(1, len(draws) // 4):]
        print(f"| {game} | {len(draws)} | {statistics.median(draws) * 1000:.1f} | "
              f"{statistics.median(late) * 1000:.1f} | {sorted(draws)[int(len(draws) * 0.9)] * 1000:.1f} | "
              f"{statistics.median(encodes) * 1000:.1f} | |")


if __name__ == "__main__":
    main()
