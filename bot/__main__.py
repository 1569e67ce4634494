"""Command line: ``python -m bot`` runs the bot; ``simulate``, ``games``, ``replay``, ``backup`` and
``health`` need no token.

Every refusal is one line on stderr and a non-zero exit, never a traceback: a mistake on the
command line or in the configuration exits 2 before anything is opened or written; ``replay`` only
reads, ``backup`` only reads the database. ``health`` exits 1 for every problem, a configuration it
cannot read included, because Docker reserves exit code 2 of a health check. The configuration is
checked once, up front, for every command that uses it.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Callable
from typing import NoReturn

from . import __version__

MAX_ID = 2**63 - 1
"""Game ids and seeds are SQLite integers (64-bit, signed)."""

OUT_HELP = ("output folder (default: a new temporary folder). It must be new, empty, or hold only "
            "a previous simulate output, which is deleted first; any other folder is refused "
            "and left alone")


class _Parser(argparse.ArgumentParser):
    """argparse, with a mistake reported as one line instead of the usage block."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"error: {message} (see `{self.prog} --help`).\n")


def whole(name: str, lo: int, hi: int) -> Callable[[str], int]:
    """An argparse type: a whole number from ``lo`` to ``hi``, read without ever calling int()
    on long text (Python refuses to convert more than 4,300 digits)."""

    def convert(text: str) -> int:
        raw = text.strip()
        if re.fullmatch(r"[+-]?[0-9]{1,25}", raw, re.ASCII):
            value = int(raw)
            if lo <= value <= hi:
                return value
        shown = raw if len(raw) <= 30 else raw[:29] + "…"
        raise argparse.ArgumentTypeError(f"must be a whole number from {lo} to {hi}, not {shown!r}")

    convert.__name__ = name  # argparse names the type in some messages
    return convert


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="python -m bot", description="Herald, a Discord game master.")
    sub = p.add_subparsers(dest="command")
    sub.add_parser("run", help="run the bot (the default): needs DISCORD_TOKEN")
    sim = sub.add_parser("simulate", help="play a whole game between computer players")
    sim.add_argument("game", help="game key, see `python -m bot games`")
    sim.add_argument("--players", type=whole("--players", 0, 1000), default=None,
                     help="number of players, within the game's range (default: its minimum)")
    sim.add_argument("--seed", type=whole("--seed", 0, MAX_ID), default=1,
                     help=f"random seed from 0 to {MAX_ID} (same seed, same game)")
    sim.add_argument("--out", default=None, help=OUT_HELP)
    sim.add_argument("--every", type=whole("--every", 1, 10**9), default=1,
                     help="write a board image every N moves (N ≥ 1)")
    sim.add_argument("--no-images", action="store_true", help="write only the log")
    sim.add_argument("--verbose", action="store_true",
                     help="print Herald's log lines (to stderr) while the game is played")
    sub.add_parser("games", help="list the registered games")
    rep = sub.add_parser("replay", help="check that a stored game replays to its stored state, or "
                                        "with --render draw its board of every step and an animated "
                                        "replay (reads the database, never changes or creates it)")
    rep.add_argument("game_id", type=whole("game id", 1, MAX_ID))
    rep.add_argument("--render", metavar="DIR", default=None,
                     help="write board_NNNN.png for every step and replay.gif into DIR (new, empty, "
                          "or a previous replay output, which is replaced; any other folder is refused)")
    bak = sub.add_parser("backup", help="copy the database safely while the bot runs (SQLite's "
                                        "online backup; the copy is checked before it is kept)")
    bak.add_argument("path", help="the backup file to write (a new file, unless --force)")
    bak.add_argument("--force", action="store_true", help="replace PATH if it exists")
    sub.add_parser("health", help="exit 0 if the database answers and the running bot's gateway "
                                  "heartbeat (HERALD_HEARTBEAT) is recent, 1 otherwise (for Docker "
                                  "HEALTHCHECK; SQLite or PostgreSQL)")
    srv = sub.add_parser("serve", help="serve the web pages of a database's games on this machine, "
                                      "without Discord (prints each game's address)")
    srv.add_argument("--bind", default=None, metavar="HOST:PORT",
                     help="where to listen (default: HERALD_WEB_BIND, else 127.0.0.1:8080)")
    p.add_argument("--version", action="version", version=f"Herald {__version__}")
    return p


def _fail(message: object, code: int = 2) -> int:
    print(f"error: {message}", file=sys.stderr)
    return code


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    from rules.engine import RulesError

    from .config import Config, ConfigError, load_dotenv
    from .logs import setup_logging
    from .storage import StorageError, is_postgres_url

    try:
        load_dotenv()
        config = Config.from_env()
    except ConfigError as exc:
        if args.command == "health":
            print(f"unhealthy: {exc}", file=sys.stderr)
            return 1
        if args.command in ("run", "simulate", "replay", "backup", "serve", None):
            return _fail(exc)
        config = None  # `games` reads no configuration: log at the default level
    # the logs scrub the token they find in the environment: exactly the one in use, or none
    if config is not None and config.token:
        os.environ["DISCORD_TOKEN"] = config.token
    else:
        os.environ.pop("DISCORD_TOKEN", None)
    if args.command == "simulate":  # its output is the result; the log lines only on request
        setup_logging(config.log_level if args.verbose and config else "WARNING", stream=sys.stderr)
    else:
        setup_logging(config.log_level if config else "INFO")
    if args.command == "games":
        from rules import registry
        from rules.text import count_range

        for key, engine in registry.all_engines().items():
            print(f"{key:<22} {engine.name} ({count_range(engine.min_players, engine.max_players, 'player')})")
        return 0
    assert config is not None
    if args.command == "backup" and is_postgres_url(config.db_path):
        # it reads a SQLite file; PostgreSQL has its own tools (docs/deployment.md)
        print("error: `backup` works on a SQLite database file, and HERALD_DB names a PostgreSQL "
              "database: use pg_dump (see docs/deployment.md).", file=sys.stderr)
        return 2
    if args.command == "backup":
        from .backup import main as backup_main

        return backup_main(config.db_path, args.path, force=args.force)
    if args.command == "health":
        from .health import heartbeat_path, web_probe
        from .health import main as health_main

        return health_main(config.db_path, heartbeat_path(config.db_path, config.heartbeat,
                                                          config.shard_ids),
                           web=web_probe(config.web_bind) if config.web_url else None)
    if args.command == "serve":
        from .web.serve import main as serve_main

        return serve_main(config, args.bind)
    try:
        if args.command == "simulate":
            from .simulate import SimulateError
            from .simulate import main as sim_main

            try:
                return sim_main(args, config)
            except SimulateError as exc:
                return _fail(exc, exc.code)
        if args.command == "replay" and args.render is not None:
            from .replay import render_main

            return render_main(args.game_id, args.render, config.db_path)
        if args.command == "replay":
            from .app import replay_check

            return replay_check(args.game_id, config)
        from .app import run

        return run(config)
    except (RulesError, StorageError) as exc:
        return _fail(exc)


if __name__ == "__main__":
    sys.exit(main())
