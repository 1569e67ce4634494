"""``python -m bot serve``: the web pages of a database's games, served on this machine without
Discord — a way to see the pages of ``simulate``'s games (their database is ``simulate.db`` in
the output folder) or of a copy of the bot's database.

It prints the address of every running and finished game's page (and of each member's own
page: keep those private) and serves them until Ctrl-C.
It stores a web token for each game that has none yet (what a page's address is made of), and
changes nothing else.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sys
from collections.abc import Callable

from rules import registry

from ..cli import missing_database
from ..config import Config, ConfigError, _web_bind
from ..session import Sessions
from ..storage import StorageError, open_storage
from .server import WebError, WebServer


def _bind(raw: str | None, config: Config) -> tuple[str, int]:
    if raw is None:
        return config.web_bind
    return _web_bind({"HERALD_WEB_BIND": raw}, "serve")


async def serve(config: Config, bind: tuple[str, int], *,
                ready: Callable[[WebServer], None] | None = None, stop: asyncio.Event | None = None) -> int:
    """Serve until ``stop`` is set (or SIGINT/SIGTERM); ``ready`` is told of the server once it
    listens and the addresses are printed."""
    storage = open_storage(config.db_path)
    await storage.open()
    try:
        sessions = Sessions(storage, config)
        web = WebServer(sessions, storage, config.web_url or "", bind)
        await web.start()
        if not config.web_url:  # (the address it listens on, its port once chosen)
            web.base_url = web.url
        try:
            games = await storage.list_games(statuses=("active", "finished"))
            if not games:
                print("There is no running or finished game in this database yet.")
            for game in sorted(games, key=lambda g: g.id):
                name = registry.get(game.game_key).name if game.game_key in registry.all_engines() else game.game_key
                print(f"game #{game.id} ({name}, {game.status}): {await web.ensure_link(game.id)}")
                for seat in game.seats:  # (a member's own page; computer players have none)
                    link = await web.player_link(game, seat.seat)
                    if link is not None:
                        print(f"  {seat.name}'s own page: {link}")
            print(f"Serving on {web.url}; Ctrl-C stops.", flush=True)
            if ready is not None:
                ready(web)
            stop = stop or asyncio.Event()
            loop = asyncio.get_running_loop()
            for sig in (signal.SIGTERM, signal.SIGINT):
                with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                    loop.add_signal_handler(sig, stop.set)
            await stop.wait()
        finally:
            await web.stop()
    finally:
        await storage.close()
    return 0


def main(config: Config, raw_bind: str | None) -> int:
    missing = missing_database(config.db_path)
    if missing:
        print(missing, file=sys.stderr)
        return 2
    try:
        bind = _bind(raw_bind, config)
        return asyncio.run(serve(config, bind))
    except ConfigError as exc:
        print(f"error: {str(exc).replace('HERALD_WEB_BIND', '--bind', 1)}", file=sys.stderr)
        return 2
    except (StorageError, WebError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 0
