"""What Herald's command-line tools share: refusing to create a database they only read, reading
one stored game, and preparing the folder they write their files into.

The tools (``replay``, ``replay --render``, ``simulate``) run beside the bot, often on its own
database: they never create or change a database they read, and never delete a file they did not
write themselves."""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
from collections.abc import AsyncIterator, Callable
from pathlib import Path

from .dburl import is_postgres_url
from .errors import TableError
from .storage import GameRow, Storage, open_storage, shown_location


def missing_database(location: str) -> str | None:
    """The line to print when ``location`` is a SQLite path with no database (no file, or an empty
    one that opening would turn into a new database), else None."""
    path = Path(location)
    if is_postgres_url(location) or (path.is_file() and path.stat().st_size > 0):
        return None
    return (f"error: there is no Herald database at {shown_location(location)} (set HERALD_DB to the "
            "bot's database file); nothing was created.")


@contextlib.asynccontextmanager
async def started_game(location: str, game_id: int) -> AsyncIterator[tuple[Storage, GameRow]]:
    """The database at ``location`` open, with its game ``game_id``, for the block; a
    :class:`TableError` when there is no such game or it has not started (nothing to replay)."""
    where = shown_location(location)
    storage = open_storage(location)
    try:  # opened inside the try: a failing open() still closes the connection
        await storage.open()
        game = await storage.get_game(game_id)
        if game is None:
            raise TableError(f"there is no game #{game_id} in {where}.")
        if game.state is None:
            raise TableError(f"game #{game_id} has not started yet: there is nothing to replay.")
        yield storage, game
    finally:
        await storage.close()


def prepare_folder(out: Path, owned: re.Pattern[str], error: Callable[[str], Exception], *,
                   is_file: str, foreign: str, unwritable: str) -> None:
    """Make ``out`` ready for a tool's new output: create it, or empty the tool's previous output
    in it (the files whose names ``owned`` matches in full). A file at ``out``, a folder holding
    anything else (nothing is deleted then) or one where no file can be written raises
    ``error(message)``; the messages are formatted with ``where`` (the folder), ``name`` (the
    first file the tool did not write) and ``reason`` (the system's words)."""
    where = os.fspath(out)
    try:
        if out.exists() and not out.is_dir():
            raise error(is_file.format(where=where))
        if out.is_dir():
            entries = sorted(out.iterdir())
            others = [p for p in entries if p.is_symlink() or not p.is_file() or not owned.fullmatch(p.name)]
            if others:
                raise error(foreign.format(where=where, name=others[0].name))
            for p in entries:
                p.unlink()
        else:
            out.mkdir(parents=True)
        with tempfile.TemporaryFile(dir=out):
            pass
    except OSError as exc:
        raise error(unwritable.format(where=where, reason=exc.strerror or exc)) from None
