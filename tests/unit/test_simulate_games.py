"""`python -m bot simulate` end to end on every registered game (and the test game)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.simulate import simulate
from rules import registry

GAMES = sorted(registry.all_engines())


def test_every_builtin_game_loads() -> None:
    assert registry.load_errors == {}
    assert {"hegemony_of_faith", "flick_of_faith", "cult_wars"} <= set(GAMES)


@pytest.mark.parametrize("game", GAMES)
def test_simulate_plays_to_the_end_and_writes_boards(game: str, tmp_path: Path) -> None:
    engine = registry.get(game)
    players = engine.max_players if game != "flick_of_faith" else engine.min_players
    update, delivery = asyncio.run(simulate(game, players, 11, tmp_path, every=40))
    log = (tmp_path / "log.txt").read_text(encoding="utf-8")
    assert "RESULT: winner" in log
    assert "Replay check: identical" in log
    boards = sorted(tmp_path.glob("board_*.png"))
    assert len(boards) >= 2
    assert boards[0].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_same_seed_gives_a_byte_identical_log(tmp_path: Path) -> None:
    for run in ("a", "b"):
        asyncio.run(simulate("cult_wars", 3, 5, tmp_path / run, images=False))
    assert (tmp_path / "a" / "log.txt").read_bytes() == (tmp_path / "b" / "log.txt").read_bytes()
