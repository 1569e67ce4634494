"""Interactions acknowledged in time, under load: the bot's time from receiving an interaction to
its first response (an answer or a defer), which Discord requires within 3 seconds.

``--games`` tables of a game (two human players each) run on simcord with the real bot (real
cogs, delivery, SQLite file and boards, drawn by ``--processes`` worker processes). Each round,
the player each game awaits presses **Decide** on its board — every game at the same moment —
then, every game at the same moment again, makes the first choice of the choice form or panel (a
decision with a form of its own is made through the session instead, as the form's last click
does, and not timed; a round where every table awaits a form does not count as one of the
``--rounds``). Every interaction the bot receives is timed from the moment discord.py builds it to the
first call that answers it (``defer``, ``send_message``, ``edit_message``, ``send_modal``):
percentiles by kind of interaction, and for all. The second table splits that time: from the
interaction's arrival to the moment Herald's handler starts (``bot.refusals.answering``, which
every handler enters first: the event loop busy with other work, simcord's own included) and
from there to the answer (Herald's own work before it acknowledges: finding the decision in the
storage, drawing a panel).

    python bench/interaction_ack.py                       # 100 Petition tables, 10 rounds
    python bench/interaction_ack.py --games 20 --rounds 5 --game alternate_histories
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import argparse  # noqa: E402
import asyncio  # noqa: E402
import contextlib  # noqa: E402
import logging  # noqa: E402
import os  # noqa: E402
import random  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from collections import defaultdict  # noqa: E402
from collections.abc import AsyncIterator  # noqa: E402
from typing import Any  # noqa: E402

import discord  # noqa: E402
import simcord  # noqa: E402

from bot import refusals  # noqa: E402
from bot.app import HeraldBot  # noqa: E402
from bot.config import Config  # noqa: E402
from tests.discord.helpers import board_of, first_choice, simultaneously  # noqa: E402

ANSWERS = ("defer", "send_message", "edit_message", "send_modal")


class AckTimer:
    """Stamps each interaction as discord.py builds it and records the delay to its first answer."""

    def __init__(self) -> None:
        self.delays: dict[str, list[float]] = defaultdict(list)
        self.waited: list[float] = []
        """Arrival → the handler's start, for each interaction answered (all kinds)."""
        self.handled: list[float] = []
        """The handler's start → its first answer."""
        self.received: dict[int, float] = {}
        """Interaction id → when discord.py built it (removed at its first answer)."""
        self.started: dict[int, float] = {}
        """Interaction id → when Herald's handler entered ``answering``."""
        self._patched: list[tuple[Any, str, Any]] = []

    def __enter__(self) -> AckTimer:
        timer = self
        real_init = discord.Interaction.__init__
        real_answering = refusals.answering

        @contextlib.asynccontextmanager
        async def answering(interaction: discord.Interaction) -> AsyncIterator[None]:
            timer.started.setdefault(interaction.id, time.perf_counter())
            async with real_answering(interaction):
                yield

        for module in list(sys.modules.values()):  # (every module that imported it by name)
            if getattr(module, "answering", None) is real_answering:
                self._patch(module, "answering", answering)

        def init(self: Any, *args: Any, **kwargs: Any) -> None:
            real_init(self, *args, **kwargs)
            timer.received[self.id] = time.perf_counter()  # (Interaction has __slots__)

        self._patch(discord.Interaction, "__init__", init)
        for name in ANSWERS:
            real = getattr(discord.InteractionResponse, name)

            def make(real: Any, name: str) -> Any:
                async def answer(self: Any, *args: Any, **kwargs: Any) -> Any:
                    parent = self._parent
                    t0 = timer.received.pop(parent.id, None)
                    t1 = timer.started.pop(parent.id, None)
                    if t0 is not None and t1 is not None:
                        now = time.perf_counter()
                        timer.waited.append(t1 - t0)
                        timer.handled.append(now - t1)
                    if t0 is not None:
                        data = parent.data or {}
                        cid = str(data.get("custom_id") or data.get("name") or "?")
                        kind = ":".join(cid.split(":")[:2]) if cid.startswith("herald:") else cid
                        timer.delays[kind].append(time.perf_counter() - t0)
                    return await real(self, *args, **kwargs)
                return answer

            self._patch(discord.InteractionResponse, name, make(real, name))
        return self

    def _patch(self, owner: Any, name: str, value: Any) -> None:
        self._patched.append((owner, name, getattr(owner, name)))
        setattr(owner, name, value)

    def __exit__(self, *exc: Any) -> None:
        for owner, name, value in reversed(self._patched):
            setattr(owner, name, value)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


async def run(args: argparse.Namespace) -> AckTimer:
    with tempfile.TemporaryDirectory() as folder:
        config = Config(token=None, db_path=str(Path(folder) / "herald.db"), dev_guild=None, log_level="ERROR",
                        default_deadline=86400, reminder_lead=3600, docs_url="",
                        render_processes=args.processes)
        bot = HeraldBot(config)
        bot.heartbeat_every = 6 * 3600
        try:
            # (a hundred games settling at once take longer than simcord's default 5 s)
            async with simcord.run(bot, settle_timeout=600.0) as env:
                return await _run(env, bot, args)
        finally:
            await bot.close_storage()


async def _run(env: Any, bot: HeraldBot, args: argparse.Namespace) -> AckTimer:
    tables: list[tuple[int, Any, dict[int, Any]]] = []
    for g in range(args.games):  # (a server each: a server has a limit of running tables)
        guild = env.create_guild()
        channel = guild.create_text_channel("games")
        host = guild.add_member(env.create_user(f"host{g}"))
        guest = guild.add_member(env.create_user(f"guest{g}"))
        await host.slash(channel, "play", game=args.game)
        lobby = channel.last_message
        await guest.click(lobby, label="Join")
        game_id = (await bot.storage.list_games(guild_id=guild.id))[0].id
        await bot.storage.update_game(game_id, seed=g + 1)
        await host.click(lobby, label="Start")
        tables.append((game_id, channel.threads[0], {host.id: host, guest.id: guest}))
    with AckTimer() as timer:
        rounds = 0
        while rounds < args.rounds:
            pending = []
            active = 0
            for game_id, thread, people in tables:
                snap = await bot.sessions.snapshot(game_id)
                if snap.game.status != "active":
                    continue
                active += 1
                o = snap.open[0]
                uid = snap.game.seats[o.seat].user_id
                if o.prompt.free_form is not None or not o.prompt.choices or board_of(thread) is None:
                    engine = bot.sessions.engine(snap.game)
                    rng = random.Random(f"human/{snap.game.version}/{o.seat}")
                    action = await bot.sessions.cpu(engine.bot_action, snap.view(o.seat), o.prompt, rng)
                    await bot.sessions.act(game_id, o.seat, action, user_id=uid, answers=o.ticket)
                    continue
                assert uid is not None  # (a computer player's turn is taken by the bot itself)
                pending.append((people[uid], board_of(thread)))
            if not active:
                break
            if not pending:  # (only forms this time round: they were made; the round is not over)
                continue
            rounds += 1
            panels = await simultaneously(env, *(m.click(b, label="Decide") for m, b in pending))
            finals = []
            for (member, _), panel in zip(pending, panels, strict=True):
                message = panel.response.message if panel.response is not None else None
                if panel.modal is not None or (message is not None and message.components):
                    _, make = await first_choice(member, panel)  # (the choice form, or the panel)
                    finals.append(make())
            await simultaneously(env, *finals)
    return timer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="petition")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--processes", type=int, default=1, help="render worker processes")
    args = parser.parse_args()
    logging.disable(logging.WARNING)
    started = time.perf_counter()
    timer = asyncio.run(run(args))
    every = [d for ds in timer.delays.values() for d in ds]
    print(f"{args.games} {args.game} tables, {args.rounds} rounds, {args.processes} render processes, "
          f"{time.perf_counter() - started:.0f} s")
    print("| interaction | n | p50 ms | p90 ms | p99 ms | max ms |")
    print("|---|---|---|---|---|---|")
    for kind, ds in [*sorted(timer.delays.items()), ("all", every)]:
        print(f"| {kind} | {len(ds)} | {1000 * percentile(ds, 0.5):.0f} | {1000 * percentile(ds, 0.9):.0f} | "
              f"{1000 * percentile(ds, 0.99):.0f} | {1000 * max(ds, default=0):.0f} |")
    print()
    print("| of which | n | p50 ms | p90 ms | p99 ms | max ms |")
    print("|---|---|---|---|---|---|")
    for part, ds in (("before the handler starts", timer.waited), ("in the handler", timer.handled)):
        print(f"| {part} | {len(ds)} | {1000 * percentile(ds, 0.5):.0f} | {1000 * percentile(ds, 0.9):.0f} | "
              f"{1000 * percentile(ds, 0.99):.0f} | {1000 * max(ds, default=0):.0f} |")
    print(f"\nload average at the end: {' '.join(f'{x:.1f}' for x in os.getloadavg())} "
          f"({os.cpu_count()} cores)")


if __name__ == "__main__":
    main()
