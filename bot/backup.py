"""``python -m bot backup PATH``: a consistent copy of the database, taken while Herald runs.

The database is in WAL mode: the latest moves may live only in ``herald.db-wal`` until the next
checkpoint, so copying ``herald.db`` with ``cp`` can lose them or copy a half-written page.
SQLite's online backup API reads one consistent snapshot through a normal read transaction
instead, and in WAL mode a reader never blocks the bot's writers (nor they it).

The copy is written to a temporary file beside the destination, switched to a single-file
journal (no ``-wal`` to forget), checked with ``PRAGMA integrity_check`` and only then renamed
into place, so a failed or interrupted backup never leaves a half-written file where a good
backup was. Every refusal is a :class:`BackupError` with one sentence for the admin.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from .storage.sql import GAMES_COUNT
from .storage.sqlite import TABLE_NAMES, USER_VERSION

BUSY_TIMEOUT = 10.0
"""Seconds to wait for a lock: only SQLite's WAL recovery holds one a reader must wait for."""


class BackupError(Exception):
    """A backup that could not be made: one sentence saying why and what to do."""


@dataclass(frozen=True)
class BackupResult:
    path: Path
    size: int
    games: int


def _connect_existing(path: Path) -> sqlite3.Connection:
    """Open ``path`` without ever creating it (``mode=rw``: a typo must not make a new file)."""
    uri = f"file:{quote(str(path.resolve()))}?mode=rw"
    return sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT, isolation_level=None)


def _explain(exc: BaseException, what: str) -> str:
    """The end of a sentence about ``exc`` (an ``sqlite3`` or ``OS`` error) while doing ``what``."""
    text = str(exc).strip() or type(exc).__name__
    lowered = text.lower()
    if "locked" in lowered or "busy" in lowered:
        return f"{what} failed because the database stayed locked for {BUSY_TIMEOUT:g} s; try again"
    if "full" in lowered or getattr(exc, "errno", None) == 28:
        return f"{what} failed because the disk is full; free some space and try again"
    if isinstance(exc, PermissionError) or "readonly" in lowered or "read-only" in lowered:
        return f"{what} failed: permission denied ({text})"
    return f"{what} failed ({text})"


def backup(source: str | os.PathLike[str], dest: str | os.PathLike[str], *,
           force: bool = False) -> BackupResult:
    """Copy the Herald database ``source`` to ``dest`` while it may be in use.

    Refuses (``BackupError``) a missing, empty or non-Herald source, a destination that exists
    (unless ``force``), is a folder, is the source itself or lies in a missing folder."""
    src = Path(source)
    dst = Path(dest)
    if not src.is_file() or src.stat().st_size == 0:
        raise BackupError(f"there is no Herald database at {src} (set HERALD_DB to the bot's "
                          "database file); nothing was written.")
    if dst.is_dir():
        raise BackupError(f"{dst} is a folder: give the backup a file name, e.g. "
                          f"{dst / 'herald-backup.db'}.")
    if dst.exists() or dst.is_symlink():
        if dst.resolve() == src.resolve():
            raise BackupError(f"{dst} is the database itself: give the backup another file name.")
        if not force:
            raise BackupError(f"{dst} already exists: choose a new file name, or add --force to "
                              "replace it.")
    folder = dst.parent if str(dst.parent) else Path(".")
    if not folder.is_dir():
        raise BackupError(f"the folder {folder} does not exist: create it first, or choose "
                          "another place for the backup.")
    try:
        fd, tmp_name = tempfile.mkstemp(prefix=f".{dst.name}.", suffix=".partial", dir=folder)
    except OSError as exc:
        raise BackupError(f"cannot write in {folder}: {_explain(exc, 'creating the backup')}.") from None
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        games = _copy(src, tmp)
        os.replace(tmp, dst)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    return BackupResult(path=dst, size=dst.stat().st_size, games=games)


def _copy(src: Path, tmp: Path) -> int:
    """The online backup of ``src`` into ``tmp``, made self-contained and checked; the number
    of games in the copy."""
    try:
        source = _connect_existing(src)
    except sqlite3.Error as exc:
        raise BackupError(f"cannot open the database {src}: {_explain(exc, 'opening it')}.") from None
    try:
        try:
            version = source.execute(USER_VERSION).fetchone()[0]
            tables = {r[0] for r in source.execute(TABLE_NAMES)}
        except sqlite3.DatabaseError as exc:
            raise BackupError(f"{src} is not a readable SQLite database ({exc}), so it is not "
                              "Herald's: point HERALD_DB at the bot's database file.") from None
        if not version or "games" not in tables:
            raise BackupError(f"{src} is not a Herald database (Herald never set it up): point "
                              "HERALD_DB at the bot's database file.")
        target = sqlite3.connect(tmp, isolation_level=None)
        try:
            try:
                source.backup(target)  # one step: one read transaction, one consistent snapshot
            except sqlite3.Error as exc:
                raise BackupError(f"{_explain(exc, 'copying the database')}; nothing was written "
                                  "at the destination.") from None
            try:
                target.execute("PRAGMA journal_mode=DELETE")  # one file, no -wal beside it
                problems = [r[0] for r in target.execute("PRAGMA integrity_check(3)")]
                games = int(target.execute(GAMES_COUNT).fetchone()[0])
            except sqlite3.Error as exc:
                raise BackupError(f"{_explain(exc, 'checking the copy')}; nothing was written at "
                                  "the destination.") from None
            if problems != ["ok"]:
                raise BackupError(f"the copy failed SQLite's integrity check ({problems[0][:120]}), "
                                  f"so the database {src} itself may be damaged; nothing was "
                                  "written at the destination.")
        finally:
            target.close()
    finally:
        source.close()
    return games


def main(source: str, dest: str, *, force: bool) -> int:
    """The ``backup`` subcommand: one line on stdout (0), or one sentence on stderr (2)."""
    try:
        done = backup(source, dest, force=force)
    except BackupError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"error: {_explain(exc, 'the backup')}; nothing was written at {dest}.", file=sys.stderr)
        return 2
    games = f"{done.games} game{'' if done.games == 1 else 's'}"
    print(f"Backed up {source} to {done.path} ({games}, {done.size / 1e6:.1f} MB); "
          "the copy passed SQLite's integrity check.")
    return 0


__all__ = ["BackupError", "BackupResult", "backup", "main"]
