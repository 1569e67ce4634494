"""Command line: ``python -m bot`` runs the bot; ``simulate``, ``games`` and ``replay`` need no token."""

from __future__ import annotations

import argparse
import sys

from . import __version__


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m bot", description="Herald, a Discord game master.")
    sub = p.add_subparsers(dest="command")
    sub.add_parser("run", help="run the bot (the default): needs DISCORD_TOKEN")
    sim = sub.add_parser("simulate", help="play a whole game between computer players")
    sim.add_argument("game", help="game key, see `python -m bot games`")
    sim.add_argument("--players", type=int, default=None, help="number of players (default: the minimum)")
    sim.add_argument("--seed", type=int, default=1, help="random seed (same seed, same game)")
    sim.add_argument("--out", default=None, help="output folder (default: a new temporary folder)")
    sim.add_argument("--every", type=int, default=1, help="write a board image every N moves")
    sim.add_argument("--no-images", action="store_true", help="write only the log")
    sub.add_parser("games", help="list the registered games")
    rep = sub.add_parser("replay", help="check that a stored game replays to its stored state")
    rep.add_argument("game_id", type=int)
    p.add_argument("--version", action="version", version=f"Herald {__version__}")
    return p


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    from .config import load_dotenv
    from .logs import setup_logging

    load_dotenv()
    setup_logging()
    if args.command == "simulate":
        from rules.engine import RulesError

        from .simulate import main as sim_main

        try:
            return sim_main(args)
        except RulesError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
    if args.command == "games":
        from rules import registry

        for key, engine in registry.all_engines().items():
            print(f"{key:<22} {engine.name} ({engine.min_players}–{engine.max_players} players)")
        return 0
    if args.command == "replay":
        from .app import replay_check

        return replay_check(args.game_id)
    from .app import run

    return run()


if __name__ == "__main__":
    sys.exit(main())
