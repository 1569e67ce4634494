"""Alternate Histories boards paste the battlefield's tiles kept from the boards before: the same
pixels as drawing each tile anew, and a tile is drawn once while it does not change."""

from __future__ import annotations

import random
from typing import Any

import pytest

import cogs.alternate_histories.render as render
from bot.gameui import get_ui
from rules import registry


def boards(seed: int, every: int = 6) -> list[tuple[dict[str, Any], list[Any]]]:
    """Public views (and their events) of a seeded game between computer players."""
    engine = registry.get("alternate_histories")
    state = engine.setup(2, seed, {})
    rng = random.Random(seed)
    out: list[tuple[dict[str, Any], list[Any]]] = []
    while engine.result(state) is None and len(out) < 3000:
        prompt = engine.prompts(state)[0]
        state, events = engine.apply(state, prompt.seat,
                                     engine.bot_action(engine.view(state, prompt.seat), prompt, rng))
        out.append((engine.view(state, None), [e for e in events if e.to is None]))
    return out[::every]


def drawn_anew(c: Any, x0: int, y: int, perms: Any, field: Any, colour: Any) -> int:
    """Every tile drawn on the board itself, as before tiles were kept."""
    for row in render._tile_rows(perms, field):
        h = max(t.height for _, t in row)
        for i, (p, tile) in enumerate(row):
            render._draw_tile(c, x0 + i * (render.TILE_W + 8), y, h, tile, bool(p.get("tapped")), colour)
        y += h + 8
    return y


def test_kept_tiles_draw_the_same_pixels_as_tiles_drawn_anew(monkeypatch: pytest.MonkeyPatch) -> None:
    ui = get_ui("alternate_histories")
    names = ["Ann", "Bob"]
    views = boards(5)
    assert any(v["battlefield"] for v, _ in views)
    kept = [ui.board_image(v, e, names=names).tobytes() for v, e in views]
    monkeypatch.setattr(render, "_tiles", drawn_anew)
    assert [ui.board_image(v, e, names=names).tobytes() for v, e in views] == kept


def test_a_tile_that_does_not_change_is_drawn_once(monkeypatch: pytest.MonkeyPatch) -> None:
    ui = get_ui("alternate_histories")
    view, events = next((v, e) for v, e in reversed(boards(6)) if len(v["battlefield"]) >= 4)
    render._tile_images.clear()
    drawn: list[int] = []
    real = render._draw_tile

    def counting(*args: Any) -> None:
        drawn.append(1)
        real(*args)

    monkeypatch.setattr(render, "_draw_tile", counting)
    first = ui.board_image(view, events, names=["Ann", "Bob"])
    assert drawn
    n = len(drawn)
    again = ui.board_image(view, events, names=["Ann", "Bob"])
    assert len(drawn) == n and again.tobytes() == first.tobytes()
    assert len(render._tile_images) <= render.TILE_CACHE
