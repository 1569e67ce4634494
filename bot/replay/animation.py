"""The animated replay: every step's public board, and the animations of its log lines (each
flick of Flick of Faith), strung into one GIF within a frame and byte budget, since Discord
refuses large files and a phone should still play it."""

from __future__ import annotations

import io
import logging
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image

from rules import registry

from ..gameui import GameUI, get_ui
from ..render import PALETTE, SEAT_COLOURS
from ..storage import GameRow
from .steps import MAX_FILE_BYTES, Step, replay_steps

log = logging.getLogger("herald.replay")

MAX_FRAMES = 360
"""Frames of one animated replay at most: a board per step, and animations thinned to fit."""
CLIP_FRAMES = 8
"""Frames kept of one log line's animation (a flick) before the replay thins them to its budget:
a whole game's animations in full would not fit in memory, let alone in one GIF."""
BOARD_MS = 700
"""How long each board stays up in the animated replay (the last one: :data:`LAST_MS`)."""
LAST_MS = 3000
ANIMATION_MS = 50
WIDTHS = (400, 320, 240)
"""Widths tried in turn while the animated replay is over :data:`MAX_FILE_BYTES`."""


@dataclass
class Frame:
    """One still of the animated replay, with how long it stays up."""

    image: Any
    """An image (or, inside a :class:`Reel`, one kept packed)."""
    ms: int


def step_boards(game: GameRow, actions: Sequence[tuple[int, dict[str, Any], str]],
                ) -> Iterator[tuple[Step, Image.Image, list[Image.Image]]]:
    """Each step with its public board and the frames of its log lines' animations (a flick),
    drawn from public views and public events only. CPU work."""
    engine = registry.get(game.game_key)
    ui = get_ui(game.game_key)
    names = [s.name for s in game.seats]
    animated = type(ui).event_files is not GameUI.event_files
    for step in replay_steps(engine, game, actions):
        public = engine.view(step.state, None)
        told = [e for e in step.events if e.to is None]
        board = ui.board_image(public, told, names=names)
        clips: list[Image.Image] = []
        if animated:
            for e in told:
                try:
                    files = ui.event_files(public, e, names=names)
                except Exception:  # a failure costs the animation, never the replay
                    log.exception("drawing a log line's animation failed", extra={"game_id": game.id})
                    continue
                clips += [f for name, data, _ in files if name.endswith(".gif")
                          for f in _gif_frames(data, CLIP_FRAMES)]
        yield step, board, clips


def _gif_frames(data: bytes, keep: int) -> list[Image.Image]:
    """At most ``keep`` frames of a GIF, evenly spread, its last one always among them."""
    frames: list[Image.Image] = []
    with Image.open(io.BytesIO(data)) as gif:
        for i in _spread(getattr(gif, "n_frames", 1), keep):
            gif.seek(i)
            frames.append(gif.convert("RGB"))
    return frames


def _thin(frames: list[Any], keep: int) -> list[Any]:
    """At most ``keep`` of ``frames``, evenly spread, the last one always kept (where it ends)."""
    if len(frames) <= keep:
        return frames
    if keep <= 1:
        return frames[-1:]
    return [frames[round(i * (len(frames) - 1) / (keep - 1))] for i in range(keep)]


def replay_frames(boards: Sequence[Any], clips: Sequence[Sequence[Any]],
                  budget: int = MAX_FRAMES) -> list[Frame]:
    """The animated replay's frames within ``budget``: each step's animations (thinned to fit),
    then its board. When the boards alone are over the budget, boards are spread evenly over it
    (the first and last always kept) and animations are left out."""
    n = len(boards)
    if n == 0:
        return []
    moving = [k for k in range(n) if clips[k]]
    if n >= budget or not moving:
        keep = sorted({round(i * (n - 1) / max(1, min(n, budget) - 1)) for i in range(min(n, budget))})
        out = [Frame(boards[k], BOARD_MS) for k in keep]
    else:
        room = budget - n
        per = room // len(moving)
        chosen = set(moving) if per >= 2 else set(moving[k] for k in _spread(len(moving), room // 2))
        per = max(2, room // max(1, len(chosen)))
        out = []
        for k in range(n):
            if k in chosen:
                out += [Frame(f, ANIMATION_MS) for f in _thin(list(clips[k]), per)]
            out.append(Frame(boards[k], BOARD_MS))
    out[-1].ms = LAST_MS
    return out


def _spread(total: int, keep: int) -> list[int]:
    if keep <= 0:
        return []
    if keep >= total:
        return list(range(total))
    return sorted({round(i * (total - 1) / max(1, keep - 1)) for i in range(keep)})


def encode_gif(frames: Sequence[Frame], max_bytes: int = MAX_FILE_BYTES,
               palette: Image.Image | None = None) -> bytes:
    """One GIF of ``frames`` (all fitted into the first frame's shape, mapped to ``palette`` or
    to one drawn from the first frame), drawn narrower — and then with fewer frames — while it
    is over ``max_bytes``."""
    if not frames:
        raise ValueError("no frames")
    shown = list(frames)
    widths = [w for w in WIDTHS if w <= frames[0].image.width] or [frames[0].image.width]
    while True:
        for width in widths:
            data = _encode(shown, width, palette)
            if len(data) <= max_bytes:
                return data
        if len(shown) <= 1:
            return data  # (the caller judges a single frame still too large)
        shown = [shown[k] for k in _spread(len(shown), len(shown) // 2)]
        shown[-1] = Frame(frames[-1].image, LAST_MS)


def _encode(frames: Sequence[Frame], width: int, palette: Image.Image | None) -> bytes:
    first = frames[0].image
    canvas = _shape(first, width)
    if palette is None:
        palette = _palette(_fit(first, canvas))
    images = [_mapped(f.image, canvas, palette) for f in frames]
    buf = io.BytesIO()
    images[0].save(buf, format="GIF", save_all=True, append_images=images[1:],
                   duration=[f.ms for f in frames], loop=0, optimize=False)
    return buf.getvalue()


def _palette(first: Image.Image) -> Image.Image:
    """The replay's colours: the drawing kit's own (the seats' among them, also those the first
    board does not show yet), then the first board's most telling ones."""
    kit = list(dict.fromkeys([*PALETTE.values(), *SEAT_COLOURS]))
    drawn = first.quantize(colors=256 - len(kit), method=Image.Quantize.MEDIANCUT)
    flat = [int(v) for colour in kit for v in colour] + list(drawn.getpalette() or [])
    out = Image.new("P", (1, 1))
    out.putpalette(flat[:768])
    return out


def _mapped(image: Image.Image, canvas: tuple[int, int], palette: Image.Image) -> Image.Image:
    """``image`` fitted to ``canvas`` in ``palette``'s colours (as it is, when it already is)."""
    if image.mode == "P" and image.size == canvas:
        return image
    return _fit(image, canvas).quantize(palette=palette, dither=Image.Dither.NONE)


def _fit(image: Image.Image, canvas: tuple[int, int]) -> Image.Image:
    """``image`` scaled to fit ``canvas`` and centred on a dark background."""
    rgb = image.convert("RGB")
    scale = min(canvas[0] / rgb.width, canvas[1] / rgb.height)
    size = (max(1, round(rgb.width * scale)), max(1, round(rgb.height * scale)))
    if size != rgb.size:
        rgb = rgb.resize(size, Image.Resampling.LANCZOS)
    if size == canvas:
        return rgb
    out = Image.new("RGB", canvas, (24, 26, 33))
    out.paste(rgb, ((canvas[0] - size[0]) // 2, (canvas[1] - size[1]) // 2))
    return out


def _shape(image: Image.Image, width: int) -> tuple[int, int]:
    return width, max(1, round(image.height * width / image.width))


class Reel:
    """The animated replay's pictures, kept small as they come (a whole game's boards and
    animations would not fit in memory as they are drawn): each fitted to the first board's
    shape at the widest width, mapped to that board's colours and packed (consecutive boards and
    animation frames differ little, so they pack to a small part of their size). Only the
    frames the replay shows are unpacked, when it is encoded."""

    def __init__(self) -> None:
        self.canvas: tuple[int, int] = (1, 1)
        self.palette: Image.Image | None = None
        self.boards: list[bytes] = []
        self.clips: list[list[bytes]] = []

    def add(self, board: Image.Image, clip: Sequence[Image.Image]) -> None:
        if self.palette is None:
            self.canvas = _shape(board, WIDTHS[0])
            self.palette = _palette(_fit(board, self.canvas))
        self.boards.append(self._pack(board))
        self.clips.append([self._pack(f) for f in clip])
        if sum(len(c) for c in self.clips) > 2 * MAX_FRAMES:  # more than any replay shows
            self.clips = [_thin(c, max(2, len(c) // 2)) for c in self.clips]

    def _pack(self, image: Image.Image) -> bytes:
        assert self.palette is not None
        return zlib.compress(_mapped(image, self.canvas, self.palette).tobytes(), 1)

    def _unpack(self, packed: bytes) -> Image.Image:
        assert self.palette is not None
        image = Image.frombytes("P", self.canvas, zlib.decompress(packed))
        image.putpalette(self.palette.getpalette() or [])
        return image

    def gif(self, budget: int = MAX_FRAMES) -> bytes:
        frames = [Frame(self._unpack(f.image), f.ms) for f in replay_frames(self.boards, self.clips, budget)]
        return encode_gif(frames, palette=self.palette)


def animated_replay(game: GameRow, actions: Sequence[tuple[int, dict[str, Any], str]],
                    budget: int = MAX_FRAMES) -> bytes:
    """The whole game as one GIF (see :func:`replay_frames`), within :data:`MAX_FILE_BYTES`.
    CPU work."""
    reel = Reel()
    for _, board, moving in step_boards(game, actions):
        reel.add(board, moving)
    return reel.gif(budget)


def replay_gif(key: str, game: GameRow,
               actions: Sequence[tuple[int, dict[str, Any], str]]) -> bytes:
    """:func:`animated_replay` of ``game`` (a game of ``key``), as ``Sessions.game_work`` runs it."""
    return animated_replay(game, actions)
