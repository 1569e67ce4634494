"""The animated GIF of a flick, re-simulated from the flick event's data (not from the state).

The event carries the bodies before the flick and the resolved launch velocities; the same
physics replays it frame by frame. Frames are drawn small (they are for a phone) over the cached
map layer, quantised to one shared palette, and kept well under 2 MB.
"""

from __future__ import annotations

import io
from typing import Any

from PIL import Image, ImageDraw

from bot.render import cached_layer
from rules.flick_of_faith import flick, physics

from .render import Board, draw_discs, draw_map

MAX_FRAMES = 48
FRAME_MS = 50


def flick_frames(data: dict[str, Any]) -> list[list[tuple[int, float, float]]]:
    """Positions of the moving discs over time, replayed from a flick event's data."""
    bodies, launches, decel = flick.resimulate_input(data)
    out = physics.simulate(bodies, launches, decel=decel, frame_every=2)
    frames = out.frames
    if len(frames) > MAX_FRAMES:
        step = len(frames) / MAX_FRAMES
        frames = [frames[int(i * step)] for i in range(MAX_FRAMES)] + [frames[-1]]
    return frames


def flick_gif(data: dict[str, Any], players: int, *, side: int = 480) -> bytes:
    """An animated GIF of the flick described by ``data`` (a flick event's ``data``)."""
    return flicks_gif([data], players, side=side)


def flicks_gif(datas: list[dict[str, Any]], players: int, *, side: int = 480) -> bytes:
    """One GIF playing several flicks in order (yours, then the computer player's reply), each
    ending on a short pause, with one shared palette."""
    palette: Image.Image | None = None
    images: list[Image.Image] = []
    durations: list[int] = []
    for data in datas:
        frames, palette = _flick_images(data, players, side, palette)
        images += frames
        durations += [FRAME_MS] * (len(frames) - 1) + [1500 if data is datas[-1] else 700]
    buf = io.BytesIO()
    images[0].save(buf, format="GIF", save_all=True, append_images=images[1:], duration=durations,
                   loop=0, optimize=False)
    return buf.getvalue()


def _flick_images(data: dict[str, Any], players: int, side: int,
                  palette: Image.Image | None) -> tuple[list[Image.Image], Image.Image | None]:
    frames = flick_frames(data)
    base = cached_layer(("fof-map", side, players), lambda: draw_map(side, players))
    b = Board(0, 0, side)
    static = [x for x in data["bodies"] if x["kind"] == "hand"]
    owners = {int(x["id"]): x for x in data["bodies"]}
    flicked = {int(i) for i in data.get("flicked", [])}
    images: list[Image.Image] = []
    trails: dict[int, list[tuple[float, float]]] = {i: [] for i in flicked}
    """One trail per flicked disc (a contest flick moves every player's disc at once)."""
    for frame in frames:
        img = base.copy()
        d = ImageDraw.Draw(img)
        discs = [dict(x) for x in static]
        for i, x, y in frame:
            src = owners[i]
            discs.append({"id": i, "kind": src["kind"], "owner": src.get("owner"), "x": x, "y": y})
            if i in flicked:
                trails[i].append(b.p(x, y))
        for trail in trails.values():
            if len(trail) > 1:
                d.line(trail, fill=(255, 255, 255), width=2)
        draw_discs(d, b, discs, labels=False)
        if palette is None:
            palette = img.quantize(colors=96, method=Image.Quantize.MEDIANCUT)
        images.append(img.quantize(palette=palette, dither=Image.Dither.NONE))
    return images, palette
