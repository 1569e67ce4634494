"""The pictures of each rules page's "Your first turn on Discord": what a new player sees when their
first real decision comes — the board in the game's thread, and their hand as the DM shows it.

    python scripts/first_turn_images.py            # writes docs/images/first-turn-<game>.png
    python scripts/first_turn_images.py --out DIR  # somewhere else
    python scripts/first_turn_images.py --only cult_wars

Each game is set up with a fixed seed and played by computer players (the engines' own
``bot_action``, from each seat's own view) until the first player is asked something that is not a
setting-up step (Alternate Histories' deck and opening hand are taken first); that board and that
player's hand are drawn by the bot's own drawing code and put one above the other at the board's
width, as a phone shows them. The picture changes only when the game or its drawing changes: run
it again after changing a board or a hand.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import argparse  # noqa: E402
import io  # noqa: E402
import random  # noqa: E402
from dataclasses import dataclass  # noqa: E402

from PIL import Image  # noqa: E402

from bot.gameui import get_ui  # noqa: E402
from bot.render.pool import board_png, hand_png  # noqa: E402
from rules import registry  # noqa: E402
from rules.engine import Event  # noqa: E402

OUT = Path(__file__).resolve().parents[1] / "docs" / "images"
COLOURS = 96
"""Palette size: the boards are flat colours and text, 96 is plenty."""
WIDTH = 800
"""The picture's width: the boards' own (Discord shows them at about 400 px on a phone)."""
GAP = 16
BACKGROUND = (32, 34, 37)
"""Discord's dark theme behind the two images."""


@dataclass(frozen=True)
class Shot:
    game: str
    players: int
    seed: int
    setting_up: tuple[str, ...] = ()
    """Prompt kinds of the first player that are taken by the computer before the picture."""


SHOTS = (
    Shot("hegemony_of_faith", 4, 7),
    Shot("cult_wars", 3, 7),
    Shot("flick_of_faith", 3, 7),
    Shot("petition", 3, 7),
    Shot("alternate_histories", 2, 7, setting_up=("deck", "opening")),
)
NAMES = ("Ann", "Computer 2", "Computer 3", "Computer 4")
"""The seats' names: the reader plays the first seat against computer players."""


def first_decision(shot: Shot) -> tuple[object, list[Event]]:
    """The state when the first seat's first real decision opens, and the public events that led
    there (the last few, as the board's latest lines show them)."""
    engine = registry.get(shot.game)
    state = engine.setup(shot.players, shot.seed, {})
    events: list[Event] = []
    rng = random.Random(shot.seed)
    for _ in range(2000):
        prompts = engine.prompts(state)
        mine = [p for p in prompts if p.seat == 0]
        if mine and mine[0].kind not in shot.setting_up:
            return state, events
        prompt = next((p for p in prompts if p.seat != 0), None) or mine[0]
        action = engine.bot_action(engine.view(state, prompt.seat), prompt, rng)
        state, new = engine.apply(state, prompt.seat, action)
        events += [e for e in new if e.to is None]
    raise SystemExit(f"{shot.game}: the first player was never asked within 2000 moves")


def picture(shot: Shot) -> bytes:
    engine = registry.get(shot.game)
    state, events = first_decision(shot)
    names = list(NAMES[: shot.players])
    public = engine.view(state, None)  # (as the thread shows it: sealed in a secret step)
    board = Image.open(io.BytesIO(board_png(shot.game, get_ui(shot.game).sealed(public) or public,
                                            events[-6:], names)))
    hand_bytes = hand_png(shot.game, engine.view(state, 0), names)
    parts = [board.convert("RGB")]
    if hand_bytes is not None:
        parts.append(Image.open(io.BytesIO(hand_bytes)).convert("RGB"))
    scaled = [p.resize((WIDTH, round(p.height * WIDTH / p.width)), Image.Resampling.LANCZOS)
              if p.width != WIDTH else p for p in parts]
    out = Image.new("RGB", (WIDTH, sum(p.height for p in scaled) + GAP * (len(scaled) - 1)), BACKGROUND)
    y = 0
    for p in scaled:
        out.paste(p, (0, y))
        y += p.height + GAP
    small = out.quantize(colors=COLOURS, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    buffer = io.BytesIO()
    small.save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=OUT, help=f"output folder (default: {OUT})")
    parser.add_argument("--only", choices=[s.game for s in SHOTS], action="append",
                        help="draw only this game's picture (may be repeated)")
    args = parser.parse_args(argv)
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    for shot in SHOTS:
        if args.only and shot.game not in args.only:
            continue
        data = picture(shot)
        path = out / f"first-turn-{shot.game}.png"
        path.write_bytes(data)
        print(f"{path}: {len(data) / 1024:.0f} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
