"""``python -m bot simulate``: a whole game between computer players, written to a folder.

Runs through the same engine, session, storage (a real SQLite file in the output folder) and
rendering code as the bot. Writes ``board_NNNN.png`` after each step (and any extra files the
game draws, e.g. flick animations), ``log.txt`` (byte-identical for the same game, seed and
player count) and prints the result.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from rules import registry
from rules.engine import Event, seat_name

from .config import Config
from .gameui import get_ui
from .render import to_png
from .session import Sessions, Update
from .storage import open_storage


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
            image = await self.sessions.cpu(ui.board_image, public, public_events)
            name = f"board_{self.step:04d}.png"
            (self.out / name).write_bytes(await self.sessions.cpu(to_png, image))
            self.files.append(name)
            for fname, data in await self.sessions.cpu(ui.attachments, public, public_events):
                target = f"step{self.step:04d}_{fname}"
                (self.out / target).write_bytes(data)
                self.files.append(target)
        if update.result is not None:
            r = update.result
            winners = ", ".join(f"{seat_name(w)} {names[w]}" for w in r.winners) or "nobody"
            scores = ", ".join(f"{seat_name(int(k))}: {v}" for k, v in sorted(r.scores.items()))
            self.lines.append(f"RESULT: winner(s) {winners}; scores {scores}; {r.reason}")


async def simulate(game_key: str, players: int | None, seed: int, out: Path, *,
                   images: bool = True, every: int = 1, options: dict[str, object] | None = None
                   ) -> tuple[Update | None, FileDelivery]:
    engine = registry.get(game_key)
    n = players or engine.min_players
    engine.validate_options(n, options or {})
    out.mkdir(parents=True, exist_ok=True)
    db_path = out / "simulate.db"
    for suffix in ("", "-wal", "-shm"):
        p = Path(str(db_path) + suffix)
        if p.exists():
            p.unlink()
    storage = open_storage(str(db_path))
    await storage.open()
    delivery = FileDelivery(out, images=images, every=max(1, every))
    clock = iter(range(10**9))
    sessions = Sessions(storage, Config.from_env(), delivery, now=lambda: float(next(clock)))
    delivery.sessions = sessions
    try:
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
            raise RuntimeError("the simulated game did not finish")
        return update, delivery
    finally:
        await storage.close()


def main(args: argparse.Namespace) -> int:
    game: str = args.game
    out = Path(args.out or tempfile.mkdtemp(prefix=f"herald-{game}-"))
    update, delivery = asyncio.run(simulate(
        game, args.players, args.seed, out,
        images=not args.no_images, every=args.every))
    last = delivery.lines[-2] if len(delivery.lines) >= 2 else ""
    print(last)
    print(f"{delivery.step} moves; {len(delivery.files)} files and log.txt written to {os.fspath(out)}")
    return 0


__all__ = ["simulate", "main", "Event"]
