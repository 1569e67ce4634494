"""``python -m bot simulate``: a whole game between computer players, written to a folder.

Runs through the same engine, session, storage (a real SQLite file in the output folder) and
rendering code as the bot. Writes ``board_NNNN.png`` after each step (and any extra files the
game draws, e.g. flick animations), ``log.txt`` (byte-identical for the same game, seed and
player count) and prints the result.

The output folder must be new, empty, or a previous simulate output (only files this command
writes): a previous output is deleted first, so boards of an old run never mix with a new log;
any other folder is refused and left alone. Every refusal is a :class:`SimulateError` (or the
engine's ``RulesError`` for a game or player count it does not know), raised before anything is
written.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shlex
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from rules import registry
from rules.engine import Event, seat_name
from rules.text import number

from .cli import prepare_folder
from .config import Config
from .gameui import get_ui
from .progress import Progress
from .render import to_png
from .session import Sessions, Update
from .storage import open_storage

MAX_SEED = 2**63 - 1
"""Seeds are stored as SQLite integers (64-bit, signed)."""
DB_NAME = "simulate.db"
OUTPUT_FILE = re.compile(r"log\.txt|simulate\.db(?:-wal|-shm|-journal)?|board_[0-9]{4,}\.png"
                         r"|step[0-9]{4,}_[A-Za-z0-9_.-]+")
"""The names of the files simulate writes: a folder holding only these is a previous output."""


class SimulateError(Exception):
    """The simulation cannot run or did not finish: one sentence; ``code`` is the exit status."""

    def __init__(self, message: str, code: int = 2) -> None:
        super().__init__(message)
        self.code = code


def prepare_out(out: Path) -> None:
    """Make ``out`` ready for a new run: create it, or empty a previous simulate output in it.

    Refuses a file, a folder holding anything simulate does not write (nothing is deleted then)
    and a folder where no file can be written."""
    prepare_folder(out, OUTPUT_FILE, SimulateError,
                   is_file="the output {where} is a file, not a folder; give a new or empty folder.",
                   foreign="the output folder {where} holds files simulate did not write (such as {name}); "
                           "give a new or empty folder.",
                   unwritable="cannot write into the output folder {where}: {reason}.")


@dataclass
class FileDelivery:
    """Writes each update of one game to a folder."""

    out: Path
    sessions: Sessions | None = None
    images: bool = True
    every: int = 1
    per_action: bool = True
    lines: list[str] = field(default_factory=list)
    step: int = 0
    files: list[str] = field(default_factory=list)
    progress: Callable[[int], None] | None = None
    """Told the number of moves played after each update (the command's progress line)."""

    async def deliver(self, update: Update) -> None:
        assert self.sessions is not None
        if not update.actions and update.kind != "start":
            return
        game = update.game
        names = {s.seat: s.name for s in game.seats}
        for seat, action, origin in update.actions:
            self.step += 1
            self.lines.append(f"[{self.step:04d}] {seat_name(seat)} {names[seat]} ({origin}): "
                              f"{json.dumps(action, sort_keys=True)}")
        if self.progress is not None:
            self.progress(self.step)
        for e in update.events:
            if e.to is None:
                self.lines.append(f"        {e.text}")
        if update.kind == "start":
            self.lines.append("        The game begins.")
        if game.state is None:
            return
        ui = get_ui(game.game_key)
        public = update.snap.view(None)
        public_events = [e for e in update.events if e.to is None]
        if self.images and (self.step % self.every == 0 or update.result is not None or update.kind == "start"):
            image = await self.sessions.cpu(partial(ui.board_image, public, public_events,
                                                    names=[s.name for s in game.seats]))
            name = f"board_{self.step:04d}.png"
            (self.out / name).write_bytes(await self.sessions.cpu(to_png, image))
            self.files.append(name)
            extra = await self.sessions.cpu(ui.attachments, public, public_events)
            shown = [s.name for s in game.seats]
            for e in public_events:  # (what goes with a log line: a flick's animation)
                extra += [(fname, data) for fname, data, _ in
                          await self.sessions.cpu(partial(ui.event_files, public, e, names=shown))]
            for n, (fname, data) in enumerate(extra):
                target = f"step{self.step:04d}_{fname}" if n == 0 else f"step{self.step:04d}_{n}_{fname}"
                (self.out / target).write_bytes(data)
                self.files.append(target)
        if update.result is not None:
            r = update.result
            winners = ", ".join(f"{seat_name(w)} {names[w]}" for w in r.winners) or "nobody"
            scores = ", ".join(f"{seat_name(int(k))}: {number(v)}" for k, v in sorted(r.scores.items()))
            word = "winner" if len(r.winners) == 1 else "winners"
            self.lines.append(f"RESULT: {word} {winners}; scores {scores}; {r.reason}")


def check(game_key: str, players: int | None, seed: int, every: int,
          options: dict[str, object] | None = None) -> int:
    """Refuse what cannot run before anything is written; returns the number of players."""
    engine = registry.get(game_key)  # InvalidOptions names the known games
    n = engine.min_players if players is None else players
    engine.validate_options(n, options or {})
    if not 0 <= seed <= MAX_SEED:
        raise SimulateError(f"the seed must be a whole number from 0 to {MAX_SEED}, not {seed}.")
    if every < 1:
        raise SimulateError(f"--every must be 1 or more (a board every N moves), not {every}.")
    return n


async def simulate(game_key: str, players: int | None, seed: int, out: Path, *,
                   images: bool = True, every: int = 1, options: dict[str, object] | None = None,
                   config: Config | None = None,
                   progress: Callable[[int], None] | None = None) -> tuple[Update | None, FileDelivery]:
    """Play one game between computer players into ``out`` (see the module docstring for the
    folder rules); ``config`` defaults to the environment's, read before anything is opened."""
    n = check(game_key, players, seed, every, options)
    engine = registry.get(game_key)
    config = config or Config.from_env()
    prepare_out(out)
    # opened inside the try: a failing open() still closes the connection, whose worker thread
    # would otherwise keep the process alive after the error
    storage = open_storage(str(out / DB_NAME))
    delivery = FileDelivery(out, images=images, every=every, progress=progress)
    clock = iter(range(10**9))
    sessions = Sessions(storage, config, delivery, now=lambda: float(next(clock)))
    delivery.sessions = sessions
    try:
        await storage.open()
        table = await sessions.open_table(guild_id=None, channel_id=None, host_id=None,
                                          host_name="", game_key=game_key, options=options,
                                          bots=n, seed=seed, host_plays=False)
        delivery.lines.append(f"{engine.name} — {n} computer players — seed {seed}")
        for s in table.seats:
            delivery.lines.append(f"{seat_name(s.seat)}: {s.name}")
        update = await sessions.start(table.id, None)
        game = await sessions.get(table.id)
        ok = await sessions.verify_replay(table.id)
        delivery.lines.append(f"Replay check: {'identical' if ok else 'DIFFERENT'}")
        (out / "log.txt").write_text("\n".join(delivery.lines) + "\n", encoding="utf-8")
        if game.status != "finished":
            raise SimulateError(f"the simulated game did not finish; see {os.fspath(out / 'log.txt')}.",
                                code=1)
        return update, delivery
    finally:
        await storage.close()


def main(args: argparse.Namespace, config: Config | None = None) -> int:
    """The command: refusals (``SimulateError``, ``RulesError``, ``StorageError``) reach the caller."""
    game: str = args.game
    check(game, args.players, args.seed, args.every)
    config = config or Config.from_env()
    try:
        out = Path(args.out) if args.out else Path(tempfile.mkdtemp(prefix=f"herald-{game}-"))
    except OSError as exc:
        raise SimulateError(f"cannot create a temporary output folder: {exc.strerror or exc}; "
                            "give one with --out.") from None
    bar = Progress(sys.stderr, registry.get(game).name, "move", "played")
    try:
        update, delivery = asyncio.run(simulate(
            game, args.players, args.seed, out,
            images=not args.no_images, every=args.every, config=config, progress=bar))
    except OSError as exc:
        raise SimulateError(f"writing into {os.fspath(out)} failed: {exc.strerror or exc}.",
                            code=1) from None
    finally:
        bar.done()
    last = delivery.lines[-2] if len(delivery.lines) >= 2 else ""
    print(last)
    print(f"{delivery.step} moves; {len(delivery.files)} files and log.txt written to {os.fspath(out)}")
    kept = out.resolve() / DB_NAME
    beside = kept.parent.parent / f"{kept.parent.name}-replay"  # (not inside: a new simulate
    print(f"The game is kept in {os.fspath(kept)} (game #1). To watch it again, step by step:")
    print(f"  HERALD_DB={shlex.quote(os.fspath(kept))} python -m bot replay 1 --render "
          f"{shlex.quote(os.fspath(beside))}")  # run into that folder would refuse it)
    return 0


__all__ = ["MAX_SEED", "SimulateError", "check", "main", "prepare_out", "simulate", "Event"]
