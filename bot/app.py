"""The bot process: ``HeraldBot`` (start-up in ``setup_hook``), ``run()`` and the replay check.

This is the only module that assembles the platform — storage, sessions, delivery, forms,
controller, scheduler — into a :class:`~bot.platform.Platform`; nothing else in ``bot/`` imports
it. Components reach the controller through ``HeraldBot.handlers`` (the :class:`bot.views.Handlers`
protocol); game cogs receive the platform.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import signal
import sys
from pathlib import Path
from typing import Any

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

from rules import registry
from rules.engine import RulesError, StateSchemaError

from . import __version__
from .away import TimeAway, post_line
from .cli import missing_database, started_game
from .config import Config
from .controller import Controller
from .delivery import DiscordDelivery
from .errors import TableError
from .forms import Forms
from .gameui import get_ui
from .health import HEARTBEAT_EVERY, clear_heartbeat, heartbeat_path, write_heartbeat
from .platform import Platform
from .refusals import APOLOGY, reply, sentence_for
from .render.pool import RenderPool
from .scheduler import Scheduler
from .session import Sessions
from .storage import Storage, StorageError, open_storage
from .views import ALL_ITEMS
from .web import WebServer
from .web.server import WebError

log = logging.getLogger("herald")

CORE_EXTENSIONS = ("cogs.tables", "cogs.admin", "cogs.ratings", "cogs.away", "cogs.help", "cogs.cards",
                   "cogs.practice")


def intents() -> discord.Intents:
    """Least privilege: guilds only (slash commands, components and DMs sent by the bot need no
    privileged intent; Herald never reads message content or member lists)."""
    i = discord.Intents.none()
    i.guilds = True
    return i


def invite_permissions() -> discord.Permissions:
    """The permissions Herald asks for when invited (least privilege; the README's table says
    why each is needed). Reading the lobby message's history is what starting a thread on it
    needs; unarchiving a game's thread needs only Send Messages."""
    return discord.Permissions(view_channel=True, send_messages=True,
                               send_messages_in_threads=True, create_public_threads=True,
                               embed_links=True, attach_files=True, read_message_history=True)


def invite_url(application_id: int) -> str:
    return discord.utils.oauth_url(application_id, permissions=invite_permissions(),
                                   scopes=("bot", "applications.commands"))


class HeraldBot(commands.Bot):
    def __init__(self, config: Config | None = None, storage: Storage | None = None,
                 **options: Any) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=intents(),
                         allowed_mentions=discord.AllowedMentions.none(), help_command=None,
                         **options)
        config = config or Config.from_env()
        storage = storage or open_storage(config.db_path)
        forms = Forms()
        sessions = Sessions(storage, config)
        # boards and hands drawn in worker processes when configured (``HERALD_RENDER_PROCESSES``)
        self.render = RenderPool(config.render_processes, sessions.cpu)
        # …and the same workers search for heavy computer players (Flick of Faith's), whose
        # Python would otherwise hold the interpreter every other game's moves wait for
        sessions.searches = self.render
        delivery = DiscordDelivery(self, storage, forms, cpu=sessions.cpu, now=sessions.now,
                                   render=self.render)
        sessions.delivery = delivery
        controller = Controller(sessions, delivery, forms)
        self.platform = Platform(config=config, storage=storage, sessions=sessions, delivery=delivery,
                                 forms=forms, controller=controller,
                                 scheduler=Scheduler(sessions, delivery.remind))
        # time away, quiet hours and pauses (``bot.away``): the deadline policy, reminders in
        # waking hours, and pauses that end by themselves
        away = TimeAway(sessions, post_line(delivery), delivery.remind)
        sessions.policy = away
        self.platform.scheduler.remind = away.remind
        self.platform.scheduler.jobs.append(away.resume_due)
        # lobbies that nobody touched for the server's expiry close by themselves
        self.platform.scheduler.jobs.append(controller.expire_lobbies)
        self.handlers = controller
        # the live web pages (``HERALD_WEB_URL``): the same sessions, storage and drawing workers
        self.web = (WebServer(sessions, storage, config.web_url, config.web_bind, draw=self.render.draw)
                    if config.web_url else None)
        self.add_listener(forms.on_interaction, "on_interaction")
        self.tree.on_error = self.on_app_command_error  # type: ignore[method-assign]
        self._storage_open = False
        self._heartbeat_task: asyncio.Task[None] | None = None
        self.heartbeat_every = HEARTBEAT_EVERY
        """Seconds between two heartbeat writes (tests on a virtual clock that jumps days ahead
        set it longer, so a jump is not thousands of wake-ups)."""

    # the parts, for tests and the command line
    @property
    def config(self) -> Config:
        return self.platform.config

    @property
    def storage(self) -> Storage:
        return self.platform.storage

    @property
    def sessions(self) -> Sessions:
        return self.platform.sessions

    @property
    def scheduler(self) -> Scheduler:
        return self.platform.scheduler

    async def open_storage(self) -> None:
        """Open the database once. A failed open still closes the connection (its worker thread
        would otherwise keep the process alive after the error)."""
        if self._storage_open:
            return
        try:
            await self.storage.open()
        except BaseException:
            await self.storage.close()
            raise
        self._storage_open = True

    async def start_web(self) -> None:
        """Start the web server once, when ``HERALD_WEB_URL`` asks for it (``WebError`` if it
        cannot listen)."""
        if self.web is not None and self.web.runner is None:
            await self.web.start()

    async def setup_hook(self) -> None:
        await self.open_storage()
        await self.start_web()
        self.sessions.closing = False
        self.add_dynamic_items(*ALL_ITEMS)
        for ext in CORE_EXTENSIONS:
            await self.load_extension(ext)
        for key in registry.all_engines():
            ui = get_ui(key)
            if ui.cog_extension:
                await self.load_extension(ui.cog_extension)
        for key, err in registry.load_errors.items():
            log.error("game %s failed to load: %s", key, err)
        if not self.config.registers_commands:
            log.info("slash commands are registered by the process that runs shard 0")
        elif self.config.dev_guild:
            guild = discord.Object(self.config.dev_guild)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()
        active = await self.storage.list_games(statuses=("active",))
        lobbies = await self.storage.list_games(statuses=("lobby",))
        log.info("Herald %s ready to start: database %s, %d game(s) resumed, %d open table(s), games: %s",
                 __version__, getattr(self.storage, "where", None) or getattr(self.storage, "path", "?"),
                 len(active), len(lobbies),
                 ", ".join(registry.all_engines()))
        if self.application_id:
            log.info("invite Herald to a server with %s", invite_url(self.application_id))
        self.loop.create_task(self._start_scheduler())
        # (beside a SQLite file; for PostgreSQL a file per process: ``bot.health.heartbeat_path``)
        beating = self._heartbeat_task is not None and not self._heartbeat_task.done()
        if not beating:
            self._heartbeat_task = self.loop.create_task(self._heartbeat())

    def gateway_alive(self) -> bool:
        """Connected and answered: ready, the gateway socket open, and Discord has acknowledged
        a heartbeat on this connection (the latency is infinite until it does)."""
        shards = getattr(self, "shards", None)
        if shards is not None:  # a sharded process: every one of its connections
            return (self.is_ready() and not self.is_closed() and bool(shards)
                    and all(not s.is_closed() and math.isfinite(s.latency) for s in shards.values()))
        ws = self.ws
        return (self.is_ready() and not self.is_closed() and ws is not None
                and bool(getattr(ws, "open", False)) and math.isfinite(self.latency))

    @property
    def heartbeat_file(self) -> Path:
        """This process's liveness file (``HERALD_HEARTBEAT``, else :func:`bot.health.heartbeat_path`)."""
        return heartbeat_path(self.config.db_path, self.config.heartbeat, self.config.shard_ids)

    async def _heartbeat(self) -> None:
        """Write the liveness file ``python -m bot health`` reads (see :mod:`bot.health`) every
        ``HEARTBEAT_EVERY`` seconds while the gateway is alive. A stuck event loop or a lost
        connection stops the writes, which is what makes the file worth checking."""
        path = self.heartbeat_file
        failing = False
        await self.wait_until_ready()
        while not self.is_closed():
            if self.gateway_alive():
                try:
                    write_heartbeat(path, latency=self.latency)
                    failing = False
                except OSError as exc:
                    if not failing:  # once per outage, not every 30 s
                        log.warning("cannot write the heartbeat file %s (%s); `python -m bot "
                                    "health` will report Herald unhealthy", path, exc)
                    failing = True
            await asyncio.sleep(self.heartbeat_every)

    async def _start_scheduler(self) -> None:
        await self.wait_until_ready()
        try:  # games left waiting on computer players by a crash between two commits
            resumed = await self.sessions.resume()
            if resumed:
                log.info("resumed %d game(s) waiting on computer players", resumed)
        except Exception:  # (``scan_needed`` stays set: the scheduler looks again, backing off)
            log.exception("looking for games waiting on computer players failed; trying again shortly")
        self.scheduler.start()
        # several processes over one database: another one's new deadline wakes this scheduler
        await self.storage.listen(self.scheduler.wake)

    async def on_app_command_error(self, interaction: discord.Interaction,
                                   error: app_commands.AppCommandError) -> None:
        """Failures outside a command's own refusal path (checks, conversions): the same table."""
        text = sentence_for(error)
        if text is None:
            log.error("command failed", exc_info=getattr(error, "original", error))
            text = APOLOGY
        with contextlib.suppress(discord.HTTPException):
            await reply(interaction, text)

    async def close(self) -> None:
        try:
            if self._heartbeat_task is not None:
                self._heartbeat_task.cancel()
                clear_heartbeat(self.heartbeat_file)
            await self.sessions.drain()
            await self.scheduler.stop()
            if self.web is not None:
                await self.web.stop()
            await super().close()
        finally:
            self.render.close()
            await self.close_storage()

    async def close_storage(self) -> None:
        """Close the database (its worker thread would otherwise keep the process alive)."""
        if self._storage_open:
            self._storage_open = False
            await self.storage.close()


class ShardedHeraldBot(HeraldBot, commands.AutoShardedBot):
    """Herald running some of the bot's Discord shards (``HERALD_SHARD_COUNT``/``HERALD_SHARDS``).

    Several such processes share one PostgreSQL database: any of them may receive any interaction
    for any game (direct messages all arrive on shard 0), so nothing here routes games to
    processes — each action is decided under the game row's lock and version check, and each
    deadline fires in the one process that claimed it (docs/deployment.md)."""

    def __init__(self, config: Config, storage: Storage | None = None) -> None:
        super().__init__(config, storage, shard_count=config.shard_count,
                         shard_ids=list(config.shard_ids) if config.shard_ids is not None else None)


def make_bot(config: Config) -> HeraldBot:
    """The bot the configuration asks for: sharded when ``HERALD_SHARD_COUNT`` is set."""
    return ShardedHeraldBot(config) if config.shard_count else HeraldBot(config)


def run(config: Config | None = None) -> int:
    """Run the bot until SIGTERM or Ctrl-C; the exit status. Refusals are one line on stderr.

    The database is opened before connecting to Discord: a missing token or an unusable
    database stops start-up with its sentence, before anything reaches the network."""
    config = config or Config.from_env()
    if not config.token:
        print("Herald needs a Discord bot token to connect.\n"
              "Set DISCORD_TOKEN in the environment or in a .env file beside you, e.g.\n"
              "    DISCORD_TOKEN=your-token-here python -m bot\n"
              "Without a token you can still try: python -m bot simulate cult_wars --players 4",
              file=sys.stderr)
        return 2
    bot = make_bot(config)

    async def main() -> None:
        loop = asyncio.get_running_loop()
        stop = asyncio.Event()
        for sig in (signal.SIGTERM, signal.SIGINT):
            with contextlib.suppress(NotImplementedError):
                loop.add_signal_handler(sig, stop.set)
        async with bot:
            await bot.open_storage()
            await bot.start_web()  # (before connecting: an address in use stops start-up here)
            runner = asyncio.create_task(bot.start(config.token or ""))
            stopper = asyncio.create_task(stop.wait())
            done, _ = await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
            if stopper in done:
                log.info("shutting down: finishing in-flight actions")
                await bot.close()
            runner.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await runner
            if runner in done and runner.exception() is not None:
                raise runner.exception()  # type: ignore[misc]

    try:
        asyncio.run(main())
    except (StorageError, WebError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except discord.LoginFailure:
        print("Discord refused the token (DISCORD_TOKEN). Check it in the developer portal.",
              file=sys.stderr)
        return 2
    except discord.PrivilegedIntentsRequired:
        print("Discord refused an intent; Herald only needs the Guilds intent.", file=sys.stderr)
        return 2
    except (aiohttp.ClientError, OSError, discord.HTTPException, discord.GatewayNotFound) as exc:
        print(f"Herald could not reach Discord: {exc}. Check the network and try again.",
              file=sys.stderr)
        return 1
    log.info("Herald stopped cleanly")
    return 0


def replay_check(game_id: int, config: Config | None = None) -> int:
    """Replay a stored game's action log from its seed and compare with its stored state: 0 when
    they match, 1 when they differ, 2 (and one line on stderr) when there is nothing to check.

    Read-only: a missing database is reported, never created."""
    config = config or Config.from_env()
    missing = missing_database(config.db_path)
    if missing:
        print(missing, file=sys.stderr)
        return 2

    async def main() -> bool:
        async with started_game(config.db_path, game_id) as (storage, _):
            return await Sessions(storage, config).verify_replay(game_id)

    try:
        ok = asyncio.run(main())
    except (TableError, RulesError, StateSchemaError, StorageError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"game #{game_id}: replay {'matches' if ok else 'DIFFERS from'} the stored state")
    return 0 if ok else 1
