"""The pictures in the README: one board per game and a Flick of Faith flick, from seeded games.

    python scripts/readme_images.py            # writes docs/images/
    python scripts/readme_images.py --out DIR  # somewhere else
    python scripts/readme_images.py --only petition  # one game's pictures
    python scripts/readme_images.py --only alternate_histories

Each game is played between computer players by ``python -m bot simulate``'s code (the same
engine, sessions, storage and drawing as the bot), with a fixed seed, so the pictures change only
when the games or their boards change. The board shown is the one two thirds of the way through
the game (a game in full swing says more than an empty map or a final score); the flick is the
busiest one of the second half. Boards are saved as palette PNGs and the flick as a GIF, so the
README stays light. Run it again after changing a board.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import argparse  # noqa: E402
import asyncio  # noqa: E402
import io  # noqa: E402
import logging  # noqa: E402
import tempfile  # noqa: E402
from dataclasses import dataclass  # noqa: E402

from PIL import GifImagePlugin, Image  # noqa: E402

from bot.config import Config  # noqa: E402
from bot.simulate import simulate  # noqa: E402

OUT = Path(__file__).resolve().parents[1] / "docs" / "images"
COLOURS = 96
"""Palette size of the board PNGs: the boards are flat colours and text, 96 is plenty."""
BOARD_AT = 2 / 3
"""Which board of the game is shown: the one this far through it."""


@dataclass(frozen=True)
class Shot:
    game: str
    players: int
    seed: int
    flick: bool = False


SHOTS = (
    Shot("hegemony_of_faith", 4, 7),
    Shot("cult_wars", 4, 7),
    Shot("flick_of_faith", 3, 7, flick=True),
    Shot("petition", 4, 7),
    Shot("alternate_histories", 2, 7),
)


def palette_png(path: Path, colours: int = COLOURS) -> bytes:
    """The image at ``path`` as a small palette PNG (no dithering: flat colours stay flat)."""
    with Image.open(path) as image:
        rgb = image.convert("RGB")
    small = rgb.quantize(colors=colours, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    buffer = io.BytesIO()
    small.save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()


def pick_board(folder: Path) -> Path:
    boards = sorted(folder.glob("board_*.png"))
    if not boards:
        raise SystemExit(f"the simulation wrote no board into {folder}")
    return boards[min(len(boards) - 1, int(len(boards) * BOARD_AT))]


def pick_flick(folder: Path) -> Path:
    """The flick with the most going on (the biggest GIF) in the second half of the game, when
    the map is full of discs."""
    gifs = sorted(folder.glob("step*_flick*.gif"))
    if not gifs:
        raise SystemExit(f"the simulation drew no flick into {folder}")
    late = gifs[len(gifs) // 2:]
    return max(late, key=lambda p: p.stat().st_size)


def optimised_gif(path: Path) -> bytes:
    """The GIF re-saved with Pillow's optimiser (frames that repeat cost nothing)."""
    with Image.open(path) as gif:
        assert isinstance(gif, GifImagePlugin.GifImageFile), path  # (n_frames: a GIF's)
        frames = []
        durations = []
        for index in range(gif.n_frames):
            gif.seek(index)
            frames.append(gif.convert("RGB").quantize(colors=64, method=Image.Quantize.MEDIANCUT,
                                                      dither=Image.Dither.NONE))
            durations.append(gif.info.get("duration", 50))
    buffer = io.BytesIO()
    frames[0].save(buffer, format="GIF", save_all=True, append_images=frames[1:], loop=0,
                   duration=durations, optimize=True, disposal=1)
    return buffer.getvalue()


def write(out: Path, name: str, data: bytes) -> None:
    (out / name).write_bytes(data)
    print(f"{out / name}: {len(data) / 1024:.0f} KB")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=OUT, help=f"output folder (default: {OUT})")
    parser.add_argument("--only", choices=[s.game for s in SHOTS], action="append",
                        help="draw only this game's pictures (may be repeated)")
    args = parser.parse_args(argv)
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    logging.disable(logging.INFO)  # the simulations' move-by-move log is not wanted here
    config = Config.from_env({})
    for shot in SHOTS:
        if args.only and shot.game not in args.only:
            continue
        with tempfile.TemporaryDirectory(prefix=f"herald-{shot.game}-") as tmp:
            folder = Path(tmp) / "sim"
            asyncio.run(simulate(shot.game, shot.players, shot.seed, folder, config=config))
            write(out, f"{shot.game}.png", palette_png(pick_board(folder)))
            if shot.flick:
                write(out, f"{shot.game}_flick.gif", optimised_gif(pick_flick(folder)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
