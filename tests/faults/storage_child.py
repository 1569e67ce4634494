"""Child processes for the storage fault tests: each meets a real fault in a process of its own.

``python -m tests.faults.storage_child lock DB`` holds SQLite's write lock on ``DB`` (``BEGIN
EXCLUSIVE``) from another process until a line arrives on stdin. ``… fill DB`` commits moves of
the one running game in ``DB`` until the storage refuses one (the parent starts it under a
file-size limit or on a tiny file system) and prints, as one JSON line, what a caller was told.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import sys
from typing import Any

from bot.refusals import sentence_for
from bot.storage import SqliteStorage, StorageError

PAD = "x" * 3000
"""Each move stores a state this much bigger, so that the file grows by about a page a move."""


def hold_lock(db: str) -> None:
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("BEGIN EXCLUSIVE")
    print("locked", flush=True)
    sys.stdin.readline()
    conn.execute("ROLLBACK")
    conn.close()


async def fill(db: str) -> dict[str, Any]:
    """Commit moves until one fails; what the caller was told (the last version acknowledged, the
    error and the player's sentence), and what the same connection reads back afterwards."""
    storage = SqliteStorage(db)
    await storage.open()
    try:
        game = (await storage.list_games(statuses=("active",)))[0]
        version = game.version
        for i in range(100_000):
            try:
                version = await storage.commit_action(
                    game.id, expected_version=version, seat=i % 2, action={"move": i},
                    origin="player", user_id=None, state={"move": i, "pad": PAD},
                    events=[{"text": f"move {i}"}], status="active", result=None,
                    opened={(i + 1) % 2: version + 1}, answered={}, deadlines=[], now=float(i))
            except StorageError as exc:
                again = await storage.get_game(game.id)
                return {"acknowledged": version, "error": type(exc).__name__, "message": str(exc),
                        "stored": exc.stored, "sentence": sentence_for(exc),
                        "transient": isinstance(exc, storage.transient_errors),
                        "read_back": again.version if again else None}
        return {"acknowledged": version, "error": None}
    finally:
        await storage.close()


def main(argv: list[str]) -> int:
    command, db = argv
    if command == "lock":
        hold_lock(db)
        return 0
    if command == "fill":
        print(json.dumps(asyncio.run(fill(db))), flush=True)
        return 0
    raise SystemExit(f"unknown command {command!r}")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
