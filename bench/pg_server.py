"""The PostgreSQL server of the benches: a throwaway one, started as the tests start theirs, or an
existing one named by a URL; each bench run works in databases of its own, dropped after it.

A throwaway server keeps PostgreSQL's own durability (``fsync``, ``full_page_writes`` and
``synchronous_commit`` on: what a deployment started from the docker-compose example runs), not
the tests' (which turn it off: their databases are thrown away). ``--synchronous-commit off``
sets that one setting on the bench's databases, on either kind of server: each commit then returns
before its WAL reaches the disk (the server stays consistent; a crash of the server or of the
machine may lose the last fraction of a second of commits, a crash of Herald loses nothing).
"""

from __future__ import annotations

import contextlib
import itertools
import os
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from bot.dburl import redacted
from tests.support.postgres import find_bindir, running_server

SERVER_SETTINGS = {"fsync": "on", "full_page_writes": "on", "synchronous_commit": "on",
                   "max_connections": "200"}
"""A throwaway bench server's settings: PostgreSQL's defaults for durability, room for several
processes' pools."""


def with_database(url: str, name: str) -> str:
    """``url`` naming the database ``name`` instead of its own (user, password, host, options kept)."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{name}"))


@dataclass
class PgServer:
    admin_url: str
    """A URL on the server whose database the bench connects to for creating its own."""
    description: str
    """What the output says the server is (never a password)."""
    synchronous_commit: str | None = None
    """Set on each bench database (None: the server's own setting)."""

    def __post_init__(self) -> None:
        self._numbers = itertools.count(1)

    @contextlib.asynccontextmanager
    async def database(self, label: str) -> AsyncIterator[str]:
        """A new, empty database for the bench (its URL), dropped on exit. With an existing server
        the URL's user needs the ``CREATEDB`` privilege."""
        name = f"herald_bench_{os.getpid()}_{next(self._numbers)}_{label}"
        admin = await asyncpg.connect(self.admin_url)
        try:
            await admin.execute(f'CREATE DATABASE "{name}" TEMPLATE template0')
            if self.synchronous_commit is not None:
                await admin.execute(f'ALTER DATABASE "{name}" SET synchronous_commit = '
                                    f"'{self.synchronous_commit}'")
        finally:
            await admin.close()
        try:
            yield with_database(self.admin_url, name)
        finally:
            admin = await asyncpg.connect(self.admin_url)
            try:
                await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            finally:
                await admin.close()


async def describe(url: str) -> str:
    """The server's version and the durability settings a bench database runs with."""
    conn = await asyncpg.connect(url)
    try:
        version = await conn.fetchval("SHOW server_version")
        fsync = await conn.fetchval("SHOW fsync")
        sync = await conn.fetchval("SHOW synchronous_commit")
    finally:
        await conn.close()
    return f"PostgreSQL {str(version).split()[0]} (fsync {fsync}, synchronous_commit {sync})"


async def database_size(url: str) -> int:
    conn = await asyncpg.connect(url)
    try:
        return int(await conn.fetchval("SELECT pg_database_size(current_database())"))
    finally:
        await conn.close()


@contextlib.contextmanager
def pg_server(url: str | None, synchronous_commit: str | None = None) -> Iterator[PgServer]:
    """An existing server (``url``: a PostgreSQL URL, its database used only to create the
    bench's), or, with None, a throwaway server in a temporary folder, stopped and removed on exit.
    Without the server binaries the bench stops with a sentence saying what it needs."""
    if url is not None:
        yield PgServer(url, f"the server of {redacted(url)}", synchronous_commit)
        return
    if find_bindir() is None:
        raise SystemExit("no PostgreSQL server binaries (initdb, postgres) were found: install "
                         "the Debian package postgresql, set HERALD_PG_BINDIR, or name an "
                         "existing server with --db postgresql://…")
    with running_server(SERVER_SETTINGS) as server:
        yield PgServer(server.url("postgres"), "a throwaway server on 127.0.0.1",
                       synchronous_commit)
