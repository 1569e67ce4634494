"""``/game export`` and ``/game replay``: the files, sent to the member who asked."""

from __future__ import annotations

import asyncio
import collections
import io
from typing import Protocol

import discord

from ..errors import TableError
from ..session import Sessions
from ..storage import GameRow
from ..text import NO_PINGS
from .animation import replay_gif
from .export import export_file
from .steps import MAX_FILE_BYTES


def check_replayable(game: GameRow) -> None:
    """Refuse the replay of a game still being played (its boards would tell nothing the thread
    does not, but its end is the replay's point) or of one that never started."""
    if game.status != "finished":
        raise TableError(f"game #{game.id} is still being played; its replay is ready once it is over "
                         "(`/game export` gives its public log meanwhile).")
    if game.state is None:
        raise TableError(f"game #{game.id} never started, so there is nothing to replay.")


_REPLAYING = asyncio.Semaphore(1)
"""One animated replay drawn at a time per process: a long game's takes seconds of CPU and a few
hundred MB while drawn; other requests wait their turn (their answer is deferred meanwhile)."""
_RECENT: collections.OrderedDict[tuple[int, int], bytes] = collections.OrderedDict()
RECENT_REPLAYS = 3
"""Finished games never change: the last few replays drawn are sent again without redrawing."""


async def replay_file(sessions: Sessions, game: GameRow) -> tuple[str, bytes]:
    """(file name, bytes) of a finished game's animated replay, for ``/game replay``."""
    check_replayable(game)
    key = (game.id, game.version)
    async with _REPLAYING:
        data = _RECENT.get(key)
        if data is None:
            actions = await sessions.storage.actions(game.id)
            data = await sessions.game_work(replay_gif, game.game_key, game, actions)
            _RECENT[key] = data
            while len(_RECENT) > RECENT_REPLAYS:
                _RECENT.popitem(last=False)
    if len(data) > MAX_FILE_BYTES:
        raise TableError(f"the replay of game #{game.id} is too large to send.")
    return f"herald-game-{game.id}-replay.gif", data


class Lookups(Protocol):
    """What the commands and buttons here need of the controller (``bot.controller.Controller``)."""

    sessions: Sessions

    async def game_for(self, interaction: discord.Interaction, game_id: int) -> GameRow: ...
    async def resolve(self, interaction: discord.Interaction, game_id: int | None,
                      statuses: tuple[str, ...] = ("active",)) -> GameRow: ...
    def lobby_embed(self, game: GameRow) -> discord.Embed: ...
    async def open_lobby_embed(self, game: GameRow) -> discord.Embed: ...
    async def note_channel_fallback(self, channel: discord.TextChannel) -> None: ...


async def send_export(c: Lookups, interaction: discord.Interaction, game_id: int | None) -> None:
    """``/game export``: the file, to the member only."""
    game = await c.resolve(interaction, game_id, ("active", "finished"))
    await interaction.response.defer(ephemeral=True, thinking=True)
    name, data = await export_file(c.sessions, game)
    over = game.status == "finished"
    text = (f"The whole log of game #{game.id}, every hand and secret included (the game is over)."
            if over else f"The public log of game #{game.id} so far: secret choices and hands stay "
                         "out of it until the game is over.")
    await interaction.followup.send(text, file=discord.File(io.BytesIO(data), filename=name),
                                    ephemeral=True, allowed_mentions=NO_PINGS)


async def send_replay(c: Lookups, interaction: discord.Interaction, game_id: int | None) -> None:
    """``/game replay``: the animated replay of a finished game, to the member only."""
    game = await c.resolve(interaction, game_id, ("active", "finished"))
    check_replayable(game)
    await interaction.response.defer(ephemeral=True, thinking=True)
    name, data = await replay_file(c.sessions, game)
    await interaction.followup.send(f"Game #{game.id} from start to end.",
                                    file=discord.File(io.BytesIO(data), filename=name,
                                                      description=f"An animated replay of game #{game.id}."),
                                    ephemeral=True, allowed_mentions=NO_PINGS)
