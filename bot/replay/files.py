"""``python -m bot replay GAME --render DIR``: a stored game's boards (``board_NNNN.png``, one per
step) and its animated replay (``replay.gif``) written into a folder, from the database alone."""

from __future__ import annotations

import asyncio
import os
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rules.engine import RulesError, StateSchemaError

from ..cli import missing_database, prepare_folder, started_game
from ..errors import TableError
from ..progress import Progress
from ..render import to_png
from ..storage import GameRow, StorageError
from .animation import MAX_FRAMES, Reel, step_boards

OUTPUT_FILE = re.compile(r"board_[0-9]{4,}\.png|replay\.gif")
"""What ``replay --render`` writes: a folder holding only these is a previous output."""


def render(game: GameRow, actions: Sequence[tuple[int, dict[str, Any], str]], out: Path,
           budget: int = MAX_FRAMES,
           progress: Callable[[int, int], None] | None = None) -> list[str]:
    """Write ``board_NNNN.png`` for every step (0000: the start) and ``replay.gif`` into ``out``
    (ready, see :func:`prepare_out`); returns the names written. CPU work. ``progress`` is told
    the boards drawn so far and how many there will be (one per move and the start)."""
    written: list[str] = []
    reel = Reel()
    total = len(actions) + 1
    for step, board, moving in step_boards(game, actions):
        name = f"board_{step.n:04d}.png"
        (out / name).write_bytes(to_png(board))
        written.append(name)
        reel.add(board, moving)
        if progress is not None:
            progress(len(written), total)
    (out / "replay.gif").write_bytes(reel.gif(budget))
    written.append("replay.gif")
    return written


class ReplayError(Exception):
    """The replay cannot be written: one sentence for the command line."""


def prepare_out(out: Path) -> None:
    """Create ``out``, or empty a previous ``replay --render`` output in it; refuse a file or a
    folder holding anything else (nothing is deleted then)."""
    prepare_folder(out, OUTPUT_FILE, ReplayError,
                   is_file="{where} is a file, not a folder; give a new or empty folder.",
                   foreign="the folder {where} holds files a replay does not write (such as {name}); "
                           "give a new or empty folder.",
                   unwritable="cannot write into the folder {where}: {reason}.")


def render_main(game_id: int, out_dir: str, db: str) -> int:
    """``python -m bot replay GAME --render DIR``: read the game from the database ``db`` (never
    changing or creating it) and write its boards and animated replay. 0 when written; 2 and one
    line on stderr otherwise."""
    missing = missing_database(db)
    if missing:
        print(missing, file=sys.stderr)
        return 2

    async def load() -> tuple[GameRow, list[tuple[int, dict[str, Any], str]]]:
        async with started_game(db, game_id) as (storage, game):
            return game, await storage.actions(game_id)

    out = Path(out_dir)
    bar = Progress(sys.stderr, f"game #{game_id}", "board", "drawn")
    try:
        game, actions = asyncio.run(load())
        prepare_out(out)
        written = render(game, actions, out, progress=bar)
    except (TableError, RulesError, StateSchemaError, StorageError, ReplayError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"error: writing into {os.fspath(out)} failed: {exc.strerror or exc}.", file=sys.stderr)
        return 2
    finally:
        bar.done()
    boards = sum(1 for n in written if n.endswith(".png"))
    print(f"game #{game_id}: {boards} boards and replay.gif written to {os.fspath(out)}")
    return 0
