"""The liveness file the running bot keeps, and ``python -m bot health`` that reads it.

A process that is up is not necessarily a bot that works: the gateway connection can be lost
while reconnects keep failing, or the event loop can be stuck. So the bot itself writes a small
heartbeat file every :data:`HEARTBEAT_EVERY` seconds, and only while its gateway connection is
open and Discord answers its heartbeats; a stuck loop or a lost connection stops the writes.
``health`` (a Docker ``HEALTHCHECK``, a systemd watchdog script, a monitoring probe) then checks
two things from outside the process: the database answers, and the last heartbeat is recent.

Where the file is (:func:`heartbeat_path`): ``HERALD_HEARTBEAT`` when set; else beside a SQLite
database (``herald.db.heartbeat``, in the folder Herald must be able to write anyway); for
PostgreSQL, which has no such folder, ``herald-heartbeat-<shards>.json`` in the folder Herald runs
in, named after the shards the process runs (``all``, ``0-1``, ``2_5``…), so that several
processes started from one folder on one machine keep a file each. ``health`` run with the same
configuration as the process (the same environment: in its container, or with its variables)
reads that process's file. For PostgreSQL it also asks the server one cheap question, which
must be answered within :data:`DB_TIMEOUT` seconds.

Exit codes follow Docker's convention: 0 healthy, 1 unhealthy — never 2 (Docker reserves it),
even for a configuration it cannot read.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import os
import sqlite3
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from .dburl import is_postgres_url, redacted, scrubbed
from .storage.postgres import SCHEMA_EXISTS, SCHEMA_VERSION
from .storage.sql import GAMES_COUNT
from .storage.sqlite import USER_VERSION

HEARTBEAT_EVERY = 30.0
"""Seconds between two heartbeat writes by the running bot."""
STALE_AFTER = 120.0
"""A heartbeat older than this (four missed writes) means the bot is stuck or disconnected."""
DB_TIMEOUT = 5.0
"""Seconds ``health`` waits for the database before calling it unavailable."""


def shard_label(shard_ids: Sequence[int] | None) -> str:
    """The shards of a process in a file name: ``all``, or runs of shards like ``0-1`` and
    ``2_5`` (shards 0 and 1; shards 2 and 5)."""
    if shard_ids is None:
        return "all"
    runs: list[list[int]] = []
    for shard in sorted(shard_ids):
        if runs and shard == runs[-1][-1] + 1:
            runs[-1].append(shard)
        else:
            runs.append([shard])
    return "_".join(f"{r[0]}-{r[-1]}" if len(r) > 1 else str(r[0]) for r in runs)


def heartbeat_path(db_path: str | os.PathLike[str], configured: str | None = None,
                   shard_ids: Sequence[int] | None = None) -> Path:
    """Where the bot using the database ``db_path`` writes its heartbeat: ``configured``
    (``HERALD_HEARTBEAT``) when set; beside a SQLite file, in the folder Herald must be able to
    write anyway (the database's ``-wal`` and ``-shm`` go there); for PostgreSQL a file named
    after the process's shards in the current folder."""
    if configured:
        return Path(configured)
    if is_postgres_url(os.fspath(db_path)):
        return Path(f"herald-heartbeat-{shard_label(shard_ids)}.json")
    return Path(f"{os.fspath(db_path)}.heartbeat")


def write_heartbeat(path: Path, *, latency: float, now: float | None = None) -> None:
    """Record a live gateway: the wall-clock time and the last heartbeat's round trip.

    Written to a temporary file and renamed, so a reader never sees half a file."""
    at = time.time() if now is None else now
    body = {"at": round(at, 3), "pid": os.getpid(),
            "latency_ms": round(latency * 1000) if math.isfinite(latency) else None}
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_text(json.dumps(body), encoding="utf-8")
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


def clear_heartbeat(path: Path) -> None:
    """A cleanly stopped bot removes its heartbeat: ``health`` then says it is not running."""
    with contextlib.suppress(OSError):
        path.unlink()


@dataclass(frozen=True)
class Health:
    ok: bool
    message: str


def _database(db_path: str) -> tuple[str | None, int]:
    """(the problem, or None; the schema version) after opening the database and asking it one
    cheap question. Never creates the file (``mode=rw``) and never writes."""
    path = Path(db_path)
    if not path.is_file() or path.stat().st_size == 0:
        return f"there is no Herald database at {db_path}", 0
    try:
        db = sqlite3.connect(f"file:{quote(str(path.resolve()))}?mode=rw", uri=True,
                             timeout=DB_TIMEOUT, isolation_level=None)
    except sqlite3.Error as exc:
        return f"the database {db_path} does not open ({exc})", 0
    try:
        version = int(db.execute(USER_VERSION).fetchone()[0])
        db.execute(GAMES_COUNT).fetchone()
    except sqlite3.Error as exc:
        return f"the database {db_path} does not answer ({exc})", 0
    finally:
        db.close()
    return None, version


async def _ask_postgres(url: str) -> int:
    """The schema version, after the cheap question (one connection, closed again)."""
    import asyncpg

    conn = await asyncpg.connect(url, timeout=DB_TIMEOUT,
                                 server_settings={"application_name": "herald-health"})
    try:
        if not await conn.fetchval(SCHEMA_EXISTS):
            raise LookupError("it holds no Herald schema")
        version = int(await conn.fetchval(SCHEMA_VERSION) or 0)
        await conn.fetchval(GAMES_COUNT)
        return version
    finally:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(conn.close(), DB_TIMEOUT)


def _postgres(url: str, timeout: float) -> tuple[str | None, int]:
    """(the problem, or None; the schema version) after asking the PostgreSQL database one cheap
    question, within ``timeout`` seconds. Never writes; the URL is shown without its password."""
    where = f"the PostgreSQL database {redacted(url)}"
    try:
        return None, asyncio.run(asyncio.wait_for(_ask_postgres(url), timeout))
    except TimeoutError:
        return f"{where} did not answer within {timeout:g} s", 0
    except LookupError as exc:
        return f"{where} is not Herald's: {exc}", 0
    except Exception as exc:  # (the driver's errors: refused, unknown host, login, missing table)
        reason = scrubbed(str(exc), url).strip().splitlines()
        shown = reason[0] if reason else type(exc).__name__
        return f"{where} does not answer ({shown})", 0


def check(db_path: str, *, now: float | None = None, stale_after: float = STALE_AFTER,
          heartbeat: Path | None = None, db_timeout: float = DB_TIMEOUT) -> Health:
    """Is the bot using ``db_path`` (and writing ``heartbeat``: default, :func:`heartbeat_path`
    of an unsharded process) healthy? One sentence either way."""
    if is_postgres_url(db_path):
        problem, version = _postgres(db_path, db_timeout)
    else:
        problem, version = _database(db_path)
    if problem:
        return Health(False, f"unhealthy: {problem}.")
    beat = heartbeat if heartbeat is not None else heartbeat_path(db_path)
    try:
        data = json.loads(beat.read_text(encoding="utf-8"))
        at = float(data["at"])
        latency = data.get("latency_ms")
    except FileNotFoundError:
        return Health(False, "unhealthy: the database is fine but there is no gateway heartbeat "
                             f"({beat}): Herald is not running, or has not connected to Discord yet.")
    except (OSError, ValueError, TypeError, KeyError) as exc:
        return Health(False, f"unhealthy: the heartbeat file {beat} cannot be read ({exc}).")
    age = (time.time() if now is None else now) - at
    if not math.isfinite(age) or age > stale_after:
        ago = f"{age:.0f} s ago" if math.isfinite(age) else "at an unreadable time"
        return Health(False, f"unhealthy: the last gateway heartbeat was {ago} (more than "
                             f"{stale_after:.0f} s): Herald is stuck or has lost its connection "
                             "to Discord; its log says why.")
    shown = f", latency {latency} ms" if isinstance(latency, int) else ""
    return Health(True, f"healthy: database schema {version}, last gateway heartbeat "
                        f"{max(age, 0):.0f} s ago{shown}.")


def web_probe(bind: tuple[str, int]) -> str:
    """The address ``health`` asks the web server listening on ``bind`` (``HERALD_WEB_BIND``):
    this machine, when it listens on every address."""
    host, port = bind
    host = {"0.0.0.0": "127.0.0.1", "::": "::1", "": "127.0.0.1"}.get(host, host)
    return f"http://{f'[{host}]' if ':' in host else host}:{port}/healthz"


def check_web(url: str, timeout: float = DB_TIMEOUT) -> str | None:
    """None when the web server answers ``url`` (its ``/healthz``), else why not."""
    import urllib.error
    import urllib.request

    try:
        with urllib.request.urlopen(url, timeout=timeout) as answer:  # noqa: S310 - our own address
            if answer.status == 200 and json.loads(answer.read(4096)).get("ok") is True:
                return None
            return f"the web server at {url} answers {answer.status}"
    except (OSError, ValueError) as exc:
        reason = getattr(exc, "reason", None) or exc
        return f"the web server at {url} does not answer ({reason})"


def main(db_path: str, heartbeat: Path | None = None, web: str | None = None) -> int:
    """The ``health`` subcommand: the sentence on stdout (0) or stderr (1). ``web``: the web
    server's ``/healthz`` address, when ``HERALD_WEB_URL`` turns it on."""
    result = check(db_path, heartbeat=heartbeat)
    if result.ok and web is not None:
        problem = check_web(web)
        result = (Health(False, f"unhealthy: {problem}.") if problem
                  else Health(True, result.message.rstrip(".") + "; the web pages answer."))
    print(result.message, file=sys.stdout if result.ok else sys.stderr)
    return 0 if result.ok else 1


__all__ = ["DB_TIMEOUT", "HEARTBEAT_EVERY", "check_web", "web_probe", "STALE_AFTER", "Health", "check", "clear_heartbeat",
           "heartbeat_path", "main", "shard_label", "write_heartbeat"]
