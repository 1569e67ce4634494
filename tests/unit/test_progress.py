"""The progress line of ``simulate`` and ``replay --render``: a bar with the count when the total is
known, a spinner otherwise, drawn only on a terminal and cleared before the result is printed."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

import pytest

from bot import replay
from bot.progress import Progress
from bot.simulate import DB_NAME, simulate


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_known_total_draws_a_bar_with_the_count_in_words() -> None:
    bar = Progress(Terminal(), "game #3", "board", "drawn")
    assert bar.line(0, 40) == "game #3: " + "░" * 20 + " 0/40 boards drawn"
    assert bar.line(20, 40) == "game #3: " + "█" * 10 + "░" * 10 + " 20/40 boards drawn"
    assert bar.line(40, 40) == "game #3: " + "█" * 20 + " 40/40 boards drawn"
    assert bar.line(1, 1).endswith(" 1/1 board drawn")


def test_an_unknown_total_spins_and_counts() -> None:
    bar = Progress(Terminal(), "Petition", "move", "played")
    assert bar.line(1).endswith("Petition: 1 move played…")
    assert bar.line(7).endswith("Petition: 7 moves played…")


def test_nothing_is_written_when_the_stream_is_not_a_terminal() -> None:
    out = io.StringIO()
    bar = Progress(out, "game #1", "board", "drawn")
    bar(3, 10)
    bar.done()
    assert out.getvalue() == ""


def test_replay_render_shows_its_progress_then_clears_it(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    asyncio.run(simulate("duel", 2, 5, tmp_path / "sim", images=False))
    err = Terminal()
    monkeypatch.setattr("sys.stderr", err)
    assert replay.render_main(1, str(tmp_path / "boards"), str(tmp_path / "sim" / DB_NAME)) == 0
    written = err.getvalue()
    frames = [f for f in written.split("\r") if f]
    boards = len(list((tmp_path / "boards").glob("board_*.png")))
    assert frames[0].startswith("game #1: ") and frames[0].endswith(f" 1/{boards} boards drawn")
    assert frames[-2].endswith(f" {boards}/{boards} boards drawn") and "█" * 20 in frames[-2]
    assert frames[-1] == "\033[K"  # cleared before the result line
