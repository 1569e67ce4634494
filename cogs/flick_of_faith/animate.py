"""The animated GIF of a flick, re-simulated from the flick event's data (not from the state).

The event carries the bodies before the flick and the resolved launch velocities; the same
physics replays it frame by frame. Frames are drawn small (they are for a phone) over the cached
map layer, quantised to one shared palette, and kept well under 2 MB. Each disc carries its
owner's seat number, as on the board, so the shot reads without telling colours apart.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw

from bot.render import alt_text, cached_layer, min_text, seat_names
from rules.flick_of_faith import flick, physics
from rules.flick_of_faith.views import View

from .render import Board, draw_discs, draw_map

MAX_FRAMES = 48
FRAME_MS = 50
MAX_BYTES = 1_000_000
"""A GIF over this is drawn again smaller: it is posted with each flick's line in the thread, where
a phone on a slow connection loads every one (one flick on a crowded map is about 300 KB)."""
SMALLER = (0.75, 0.6)
"""Sizes tried in turn (fractions of ``side``) while a GIF stays over :data:`MAX_BYTES`."""


def flick_frames(data: dict[str, Any]) -> list[list[tuple[int, float, float]]]:
    """Positions of the moving discs over time, replayed from a flick event's data."""
    bodies, launches, decel = flick.resimulate_input(data)
    out = physics.simulate(bodies, launches, decel=decel, frame_every=2)
    frames = out.frames
    if len(frames) > MAX_FRAMES:
        step = len(frames) / MAX_FRAMES
        frames = [frames[int(i * step)] for i in range(MAX_FRAMES)] + [frames[-1]]
    return frames


def flick_gif(data: dict[str, Any], players: int, *, side: int = 480, max_bytes: int = MAX_BYTES) -> bytes:
    """An animated GIF of the flick described by ``data`` (a flick event's ``data``)."""
    return flicks_gif([data], players, side=side, max_bytes=max_bytes)


def flicks_gif(datas: list[dict[str, Any]], players: int, *, side: int = 480,
               max_bytes: int = MAX_BYTES) -> bytes:
    """One GIF playing several flicks in order (yours, then the computer player's reply), each
    ending on a short pause, with one shared palette; drawn smaller while it is over
    ``max_bytes`` (the smallest size tried is returned whatever its weight)."""
    data = _gif(datas, players, side)
    for scale in SMALLER:
        if len(data) <= max_bytes:
            break
        data = _gif(datas, players, int(side * scale))
    return data


def _gif(datas: list[dict[str, Any]], players: int, side: int) -> bytes:
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
        draw_discs(d, b, discs, text=min_text(side))  # seat numbers on the discs, as on the board
        if palette is None:
            palette = img.quantize(colors=96, method=Image.Quantize.MEDIANCUT)
        images.append(img.quantize(palette=palette, dither=Image.Dither.NONE))
    return images, palette


def flicks_alt(datas: list[dict[str, Any]], view: View, names: Sequence[str] | None = None) -> str:
    """The animation in words: whose flicks it shows, at what angle and power (public)."""
    who = seat_names(names, view["players"], drawn=False)
    shots: list[str] = []
    for data in datas:
        seat = data.get("seat")
        if seat is None:
            shots.append("the contest flicks of every player at once")
        else:
            shots.append(f"{who[seat]}'s flick at angle {data.get('angle', 0):g}, power {data.get('power', 0):g}")
    return alt_text("Animation of " + ("; then ".join(shots) or "the last flick") + ".",
                    "It ends where every disc came to rest.")
