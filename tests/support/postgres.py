"""A throwaway PostgreSQL server for the tests: one per test session, a fresh database per test.

The server is the machine's own PostgreSQL (``initdb`` and ``postgres``, found through
``HERALD_PG_BINDIR``, ``pg_config --bindir``, the Debian layout ``/usr/lib/postgresql/<n>/bin`` or
``PATH``), started in a temporary folder on a free port of 127.0.0.1, with durability turned off
(a test database is thrown away anyway). PostgreSQL refuses to run as root, so under root it runs as
an unprivileged system user (``postgres`` if the packages made one, else ``nobody``) that owns the
folder; the privileges are dropped by ``subprocess`` itself, so no wrapper process stands between
the test and the server's signals.

Without the binaries the PostgreSQL tests skip, saying why — unless ``HERALD_REQUIRE_POSTGRES=1``
(CI sets it), which makes the missing server a failure: a tier that silently skips proves nothing.
"""

from __future__ import annotations

import contextlib
import glob
import itertools
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import AsyncIterator, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

REQUIRE = "HERALD_REQUIRE_POSTGRES"
"""Set to 1 to turn a missing PostgreSQL into a failure instead of a skip."""
START_TIMEOUT = 30.0
"""Seconds to wait for the server to accept connections."""
TEST_SETTINGS = {"fsync": "off", "synchronous_commit": "off", "full_page_writes": "off",
                 "max_connections": "200"}
"""The server's settings for the tests: no durability (a test database is thrown away anyway).
A bench that measures what a deployment would see passes its own (``running_server``)."""


@dataclass(frozen=True)
class Server:
    host: str
    port: int
    user: str

    def url(self, database: str) -> str:
        return f"postgresql://{self.user}@{self.host}:{self.port}/{database}"


def find_bindir() -> Path | None:
    """The folder holding ``initdb`` and ``postgres``, or None."""
    candidates: list[str] = []
    if os.environ.get("HERALD_PG_BINDIR"):
        candidates.append(os.environ["HERALD_PG_BINDIR"])
    pg_config = shutil.which("pg_config")
    if pg_config:
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            out = subprocess.run([pg_config, "--bindir"], capture_output=True, text=True,
                                 timeout=10, check=True).stdout.strip()
            candidates.append(out)
    # newest major version first
    candidates += sorted(glob.glob("/usr/lib/postgresql/*/bin"),
                         key=lambda p: int(Path(p).parent.name) if Path(p).parent.name.isdigit() else 0,
                         reverse=True)
    on_path = shutil.which("initdb")
    if on_path:
        candidates.append(str(Path(os.path.realpath(on_path)).parent))
    for folder in candidates:
        path = Path(folder)
        if (path / "initdb").is_file() and (path / "postgres").is_file():
            return path
    return None


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _unprivileged_user() -> str | None:
    """The user to run the server as when this process is root; None when it is not root."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        with contextlib.suppress(KeyError):
            pwd.getpwnam(name)
            return name
    raise RuntimeError("running as root and there is no unprivileged user (postgres, nobody) "
                       "to run PostgreSQL as")


def _as(user: str | None) -> dict[str, Any]:
    """``subprocess`` arguments that run a command as ``user`` (no wrapper process in between:
    signals reach the server itself)."""
    if user is None:
        return {}
    entry = pwd.getpwnam(user)
    return {"user": entry.pw_uid, "group": entry.pw_gid, "extra_groups": [],
            "env": {**os.environ, "HOME": str(tempfile.gettempdir()), "USER": user}}


def _unavailable(reason: str) -> None:
    """Skip the test, or fail it when the PostgreSQL tier is required."""
    if os.environ.get(REQUIRE, "").strip() not in ("", "0"):
        pytest.fail(f"{reason}, and {REQUIRE} is set: install the PostgreSQL server binaries "
                    "(the Debian package postgresql) or point HERALD_PG_BINDIR at them.",
                    pytrace=False)
    pytest.skip(f"{reason}: the PostgreSQL tests need the server binaries (initdb, postgres); "
                "set HERALD_PG_BINDIR, or install the Debian package postgresql.")


def _accepting(bindir: Path, port: int) -> bool:
    """Does the server accept connections (not merely listen: it refuses them while starting)?"""
    ready = bindir / "pg_isready"
    if ready.is_file():
        return subprocess.run([str(ready), "-q", "-h", "127.0.0.1", "-p", str(port), "-t", "1"],
                              check=False, timeout=10).returncode == 0
    try:  # an older layout without pg_isready: listening, then a moment for the start-up
        with socket.create_connection(("127.0.0.1", port), 0.2):
            time.sleep(0.5)
            return True
    except OSError:
        return False


@contextlib.contextmanager
def running_server(settings: Mapping[str, str] | None = None) -> Iterator[Server]:
    """Start a throwaway server; stopped and its folder removed on exit. ``settings`` replace
    or add to :data:`TEST_SETTINGS` (e.g. ``{"fsync": "on"}`` for a bench)."""
    bindir = find_bindir()
    if bindir is None:
        _unavailable("no PostgreSQL server binaries were found")
        raise AssertionError("unreachable")
    user = _unprivileged_user()
    root = Path(tempfile.mkdtemp(prefix="herald-pg-"))
    data = root / "data"
    log_file = root / "server.log"
    proc: subprocess.Popen[bytes] | None = None
    try:
        if user is not None:
            entry = pwd.getpwnam(user)
            os.chown(root, entry.pw_uid, entry.pw_gid)
        subprocess.run([str(bindir / "initdb"), "-D", str(data), "-U", "herald", "-A", "trust",
                        "-E", "UTF8", "--locale=C", "--no-sync"],
                       check=True, capture_output=True, timeout=120, cwd=root, **_as(user))
        port = _free_port()
        with open(log_file, "wb") as out:
            proc = subprocess.Popen(
                [str(bindir / "postgres"), "-D", str(data), "-p", str(port),
                 "-c", "listen_addresses=127.0.0.1", "-c", f"unix_socket_directories={root}",
                 *(arg for name, value in {**TEST_SETTINGS, **(settings or {})}.items()
                   for arg in ("-c", f"{name}={value}"))],
                stdout=out, stderr=subprocess.STDOUT, cwd=root, **_as(user))
        deadline = time.monotonic() + START_TIMEOUT
        while not _accepting(bindir, port):
            if proc.poll() is not None:
                raise RuntimeError(f"PostgreSQL stopped at start-up: {log_file.read_text()[-2000:]}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"PostgreSQL did not start in {START_TIMEOUT:g}s")
            time.sleep(0.05)
        yield Server("127.0.0.1", port, "herald")
    finally:
        if proc is not None and proc.poll() is None:
            proc.send_signal(signal.SIGINT)  # "fast" shutdown: ends the sessions, no waiting
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[Server]:
    """One server for the whole test session, started by the first test that needs it."""
    with running_server() as server:
        yield server


_numbers = itertools.count(1)


@pytest.fixture
async def postgres_url(postgres_server: Server) -> AsyncIterator[str]:
    """The URL of a new, empty database on the session's server (dropped after the test)."""
    import asyncpg

    name = f"herald_test_{os.getpid()}_{next(_numbers)}"
    admin = await asyncpg.connect(postgres_server.url("postgres"))
    try:
        await admin.execute(f'CREATE DATABASE "{name}" TEMPLATE template0')
    finally:
        await admin.close()
    try:
        yield postgres_server.url(name)
    finally:
        admin = await asyncpg.connect(postgres_server.url("postgres"))
        try:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await admin.close()
