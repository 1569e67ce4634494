"""Configuration, from environment variables (and an optional ``.env`` file) with documented defaults.

| variable | default | meaning |
|---|---|---|
| ``DISCORD_TOKEN`` | — (required to run the bot) | the bot token (blank counts as unset) |
| ``HERALD_DB`` | ``./herald.db`` | SQLite database file, or a ``postgresql://user:password@host:5432/database`` URL (docs/deployment.md) |
| ``HERALD_DEV_GUILD`` | — | a guild id: sync commands there instantly (development) |
| ``HERALD_LOG_LEVEL`` | ``INFO`` | ``DEBUG``, ``INFO``, ``WARNING``, ``ERROR`` or ``CRITICAL`` |
| ``HERALD_DEFAULT_DEADLINE`` | ``1d`` | time a player has for a decision, 1 minute – 14 days (guilds can change it) |
| ``HERALD_REMINDER_LEAD`` | ``1h`` | time before a deadline the reminder goes out, 1 minute – 7 days |
| ``HERALD_DOCS_URL`` | — (no link) | a web copy of the repository: ``/rules`` adds a link to ``<url>docs/rules/<game>.md`` (``http(s)://``) |
| ``HERALD_SHARD_COUNT`` | — (one connection) | how many Discord shards the whole bot runs, over all its processes (docs/deployment.md) |
| ``HERALD_SHARDS`` | — (all of them) | the shards this process runs, e.g. ``0-1`` or ``2,3`` (needs ``HERALD_SHARD_COUNT``) |
| ``HERALD_RENDER_PROCESSES`` | ``1`` on a machine with two or more cores, else ``0`` | worker processes that draw boards, hands and animations and run heavy computer-player searches, 0–16; 0 does it all in the bot's own process (:mod:`bot.render.pool`) |
| ``HERALD_WEB_URL`` | — (no web pages) | the public address of Herald's web pages, e.g. ``https://herald.example.org``: set, every game gets a live page and its board an "Open in browser" link (:mod:`bot.web`) |
| ``HERALD_WEB_BIND`` | ``127.0.0.1:8080`` | where the web server listens (``host:port``; ``[::1]:8080`` for IPv6), behind the reverse proxy that serves ``HERALD_WEB_URL`` |
| ``HERALD_HEARTBEAT`` | beside a SQLite file (``herald.db.heartbeat``); ``./herald-heartbeat-<shards>.json`` for PostgreSQL | the liveness file the bot writes and ``python -m bot health`` reads (:mod:`bot.health`) |

Times use the syntax of ``/play deadline:`` (:func:`bot.parsing.parse_duration`): ``30m``, ``12h``,
``2d``, ``1h30m`` or plain seconds (``86400``). A variable set to blank text counts as unset.
:meth:`Config.from_env` checks every value up front and raises :class:`ConfigError` with one
sentence naming the variable and what it accepts, so a typo stops the process before it opens a
database or connects anywhere.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from .dburl import ENCODING_HINT, is_postgres_url, redacted
from .errors import TableError
from .parsing import (
    MAX_DEADLINE,
    MAX_REMINDER_LEAD,
    MIN_DEADLINE,
    MIN_REMINDER_LEAD,
    duration_words,
    parse_duration,
    shown,
)

DOCS_URL = ""
"""No web link by default: ``/rules`` shows the rules pages shipped with Herald in Discord itself."""
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
MAX_SNOWFLAKE = 2**63 - 1
MAX_SHARDS = 4096
WEB_BIND = ("127.0.0.1", 8080)
"""Where the web server listens by default: this machine only, behind a reverse proxy."""
MAX_RENDER_PROCESSES = 16
"""The same bound as ``bot.render.pool.MAX_PROCESSES`` (not imported: the pool imports Pillow)."""
"""More shards than any bot Herald is made for needs (Discord asks for one per 1,000–2,500 servers)."""


class ConfigError(Exception):
    """A configuration value Herald cannot use: one sentence naming the variable."""


def load_dotenv(path: Path = Path(".env")) -> None:
    """Read KEY=VALUE lines into the environment (existing variables win). No interpolation."""
    if not path.is_file():
        return
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"the .env file could not be read ({exc}).") from None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        key = key.strip().removeprefix("export ").strip()
        value = value.strip().strip("'\"")
        if key and "\0" not in key + value:
            os.environ.setdefault(key, value)


def _duration(env: Mapping[str, str], name: str, default: int, lo: int, hi: int) -> int:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        return parse_duration(raw, lo=lo, hi=hi)
    except TableError:
        raise ConfigError(f"{name}='{shown(raw)}' is not usable: give a time from "
                          f"{duration_words(lo)} to {duration_words(hi)}, like 30m, 12h, 2d "
                          "or plain seconds.") from None


def _database(env: Mapping[str, str]) -> str:
    """``HERALD_DB``: a SQLite file path (the default), or a PostgreSQL URL whose form is checked
    here (whether the server answers is ``open``'s business). The password is never echoed."""
    raw = env.get("HERALD_DB", "").strip()
    if not raw:
        return "./herald.db"
    if not is_postgres_url(raw):
        return raw
    try:
        parts = urlsplit(raw)
        parts.port  # noqa: B018 - parsing the port is the check (a bad one raises)
    except ValueError:
        parts = None
    # a password holding '/', '#' or '?' ends the URL's user part early: the rest of it lands in
    # the path, query or fragment, where an '@' (or a fragment at all) is never meant to be
    broken = parts is not None and (
        "@" not in parts.netloc and "@" in parts.path + parts.query + parts.fragment
        or "@" in parts.path or bool(parts.fragment))
    if (parts is None or broken or any(ch.isspace() for ch in raw)
            or not parts.path.strip("/")):
        raise ConfigError(f"HERALD_DB='{shown(redacted(raw), 80)}' is not a usable PostgreSQL URL: "
                          "write it as postgresql://user:password@host:5432/database. "
                          + ENCODING_HINT)
    return raw


def _dev_guild(env: Mapping[str, str]) -> int | None:
    raw = env.get("HERALD_DEV_GUILD", "").strip()
    if not raw:
        return None
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 19 and 0 < int(raw) <= MAX_SNOWFLAKE):
        raise ConfigError(f"HERALD_DEV_GUILD='{shown(raw)}' is not a server id: give the number "
                          "Discord shows under Copy Server ID, or leave it unset.")
    return int(raw)


def _log_level(env: Mapping[str, str]) -> str:
    raw = env.get("HERALD_LOG_LEVEL", "").strip()
    level = raw.upper() or "INFO"
    level = "WARNING" if level == "WARN" else level
    if level not in LOG_LEVELS:
        raise ConfigError(f"HERALD_LOG_LEVEL='{shown(raw)}' is not a logging level: use one of "
                          f"{', '.join(LOG_LEVELS)}.")
    return level


def _docs_url(env: Mapping[str, str]) -> str:
    raw = env.get("HERALD_DOCS_URL", "").strip()
    if not raw:
        return DOCS_URL
    if not raw.startswith(("https://", "http://")) or any(ch.isspace() for ch in raw):
        raise ConfigError(f"HERALD_DOCS_URL='{shown(raw)}' is not a web address: give one "
                          "starting with https://.")
    return raw if raw.endswith("/") else raw + "/"  # a base the page's path is appended to


def _shards(env: Mapping[str, str]) -> tuple[int | None, tuple[int, ...] | None]:
    """``HERALD_SHARD_COUNT`` and ``HERALD_SHARDS``: (None, None) for one unsharded connection;
    (count, None) for every shard in this process; (count, ids) for some of them."""
    raw_count = env.get("HERALD_SHARD_COUNT", "").strip()
    raw_ids = env.get("HERALD_SHARDS", "").strip()
    if not raw_count:
        if raw_ids:
            raise ConfigError(f"HERALD_SHARDS='{shown(raw_ids)}' needs HERALD_SHARD_COUNT too: set "
                              "it to the number of shards all processes run together, like 4.")
        return None, None
    if not raw_count.isdigit() or not 1 <= int(raw_count) <= MAX_SHARDS:
        raise ConfigError(f"HERALD_SHARD_COUNT='{shown(raw_count)}' is not a shard count: give a "
                          f"whole number from 1 to {MAX_SHARDS}.")
    count = int(raw_count)
    if not raw_ids:
        return count, None
    ids: list[int] = []
    for part in (p.strip() for p in raw_ids.split(",")):
        low, dash, high = part.partition("-")
        if not low.strip().isdigit() or (dash and not high.strip().isdigit()):
            raise ConfigError(f"HERALD_SHARDS='{shown(raw_ids)}' is not a list of shards: give "
                              "numbers and ranges, like 0-1 or 2,3.")
        first, last = int(low), int(high) if dash else int(low)
        if first > last:
            raise ConfigError(f"HERALD_SHARDS='{shown(raw_ids)}' has a range that goes down: write "
                              f"it low to high, like {last}-{first}.")
        if last >= count:
            raise ConfigError(f"HERALD_SHARDS='{shown(raw_ids)}' names a shard outside 0-{count - 1} "
                              f"(HERALD_SHARD_COUNT is {count}).")
        ids.extend(range(first, last + 1))
    if len(set(ids)) != len(ids):
        raise ConfigError(f"HERALD_SHARDS='{shown(raw_ids)}' names a shard twice.")
    return count, tuple(sorted(ids))


def default_render_processes() -> int:
    """One drawing worker where there is a second core for it, none on a single core: measured
    (``bench/render_pool.py``) on two cores, a busy bot answers several times as many moves while
    boards are drawn, and its event loop stalls a quarter as long, when they are drawn in a worker
    rather than on its threads (Pillow holds the GIL for much of a board); the worker's memory is
    about what drawing in-process adds to the bot's own. On one core there is nothing to gain."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # (not Linux)
        cores = os.cpu_count() or 1
    return 1 if cores >= 2 else 0


def _render_processes(env: Mapping[str, str]) -> int:
    raw = env.get("HERALD_RENDER_PROCESSES", "").strip()
    if not raw:
        return default_render_processes()
    if not raw.isascii() or not raw.isdigit() or not 0 <= int(raw) <= MAX_RENDER_PROCESSES:
        raise ConfigError(f"HERALD_RENDER_PROCESSES='{shown(raw)}' is not a number of processes: "
                          f"give a whole number from 0 (draw in the bot's own process) to "
                          f"{MAX_RENDER_PROCESSES}.")
    return int(raw)


def _heartbeat(env: Mapping[str, str]) -> str | None:
    raw = env.get("HERALD_HEARTBEAT", "").strip()
    if not raw:
        return None
    if "\0" in raw:
        raise ConfigError("HERALD_HEARTBEAT is not a file path: it holds a NUL character.")
    return raw


def _web_url(env: Mapping[str, str]) -> str | None:
    """``HERALD_WEB_URL``: the pages' public base address, without a trailing slash."""
    raw = env.get("HERALD_WEB_URL", "").strip()
    if not raw:
        return None
    try:
        parts = urlsplit(raw)
        parts.port  # noqa: B018 - parsing the port is the check (a bad one raises)
    except ValueError:
        parts = None
    if (parts is None or parts.scheme not in ("http", "https") or not parts.hostname
            or parts.query or parts.fragment or parts.username or parts.password
            or any(ch.isspace() or ch in "\"<>" for ch in raw)):
        raise ConfigError(f"HERALD_WEB_URL='{shown(raw)}' is not a web address Herald can give out: "
                          "give the public address of its pages, like https://herald.example.org "
                          "(a path is allowed, a query or a password is not).")
    return raw.rstrip("/")


def _web_bind(env: Mapping[str, str], web_url: str | None) -> tuple[str, int]:
    """``HERALD_WEB_BIND``: (host, port) the web server listens on."""
    raw = env.get("HERALD_WEB_BIND", "").strip()
    if not raw:
        return WEB_BIND
    if web_url is None:
        raise ConfigError(f"HERALD_WEB_BIND='{shown(raw)}' needs HERALD_WEB_URL too: set it to the "
                          "public address of Herald's web pages, like https://herald.example.org.")
    host, colon, port = raw.rpartition(":")
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    if (not colon or not port.isascii() or not port.isdigit() or not 1 <= int(port) <= 65535
            or not host or any(ch.isspace() or ch in "[]/" for ch in host)):
        raise ConfigError(f"HERALD_WEB_BIND='{shown(raw)}' is not an address to listen on: give "
                          "host:port, like 127.0.0.1:8080, 0.0.0.0:8080 or [::1]:8080.")
    return host, int(port)


@dataclass(frozen=True)
class Config:
    token: str | None
    db_path: str
    dev_guild: int | None
    log_level: str
    default_deadline: int
    reminder_lead: int
    docs_url: str
    shard_count: int | None = None
    """Discord shards over all processes; None: one unsharded connection."""
    shard_ids: tuple[int, ...] | None = None
    """The shards this process runs; None: all ``shard_count`` of them."""
    render_processes: int = 0
    """Worker processes drawing images (:mod:`bot.render.pool`); 0: drawn in this process."""
    heartbeat: str | None = None
    """The liveness file (``HERALD_HEARTBEAT``); None: the default place (:func:`bot.health.heartbeat_path`)."""
    web_url: str | None = None
    """The web pages' public base address (``HERALD_WEB_URL``); None: no web server."""
    web_bind: tuple[str, int] = WEB_BIND
    """(host, port) the web server listens on (``HERALD_WEB_BIND``)."""

    @property
    def registers_commands(self) -> bool:
        """Whether this process registers the slash commands with Discord at start: the one that
        runs shard 0 (every process serves them; one registration is enough)."""
        return self.shard_ids is None or 0 in self.shard_ids

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Config:
        """The configuration from ``env`` (default: the process environment), every value
        checked; raises :class:`ConfigError` naming the first unusable variable."""
        env = os.environ if env is None else env
        shard_count, shard_ids = _shards(env)
        web_url = _web_url(env)
        return cls(
            token=env.get("DISCORD_TOKEN", "").strip() or None,
            db_path=_database(env),
            dev_guild=_dev_guild(env),
            log_level=_log_level(env),
            default_deadline=_duration(env, "HERALD_DEFAULT_DEADLINE", 86400, MIN_DEADLINE, MAX_DEADLINE),
            reminder_lead=_duration(env, "HERALD_REMINDER_LEAD", 3600, MIN_REMINDER_LEAD,
                                    MAX_REMINDER_LEAD),
            docs_url=_docs_url(env),
            shard_count=shard_count,
            shard_ids=shard_ids,
            render_processes=_render_processes(env),
            heartbeat=_heartbeat(env),
            web_url=web_url,
            web_bind=_web_bind(env, web_url),
        )

    def __repr__(self) -> str:  # never print the token
        shown_db = redacted(self.db_path) if is_postgres_url(self.db_path) else self.db_path
        return (f"Config(db_path={shown_db!r}, dev_guild={self.dev_guild}, "
                f"log_level={self.log_level!r}, shards={self.shard_ids or 'all'}/{self.shard_count or 1}, "
                f"token={'set' if self.token else 'unset'})")


__all__ = ["DOCS_URL", "LOG_LEVELS", "MAX_DEADLINE", "MAX_REMINDER_LEAD", "MIN_DEADLINE",
           "MIN_REMINDER_LEAD", "MAX_SHARDS", "Config", "ConfigError", "default_render_processes",
           "load_dotenv"]
