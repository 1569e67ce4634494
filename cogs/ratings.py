"""``/leaderboard game [page]`` and ``/stats [member]``: a server's ratings, per game.

Ratings are kept per server (``bot.ratings``), so both commands answer in a server; in a DM they
say so in one line. A server that turned leaderboards off (``/herald settings``) gets a polite
refusal from ``/leaderboard``, and ``/stats`` leaves the ratings out (games, wins and the longest
game stay: they are the member's own record)."""

from __future__ import annotations

import io

import discord
from discord import app_commands
from discord.ext import commands

from bot import ratings
from bot.errors import TableError
from bot.platform import Platform, platform_of
from bot.refusals import refusals, reply
from bot.text import NO_PINGS
from cogs.tables import find_game, game_autocomplete
from rules import registry
from rules.text import count

PAGE_SIZE = 10
"""Players per page of ``/leaderboard`` (one image, readable on a phone)."""


def _name(text: str) -> str:
    """A stored display name, safe in a message (no pings, no markdown)."""
    return discord.utils.escape_markdown(discord.utils.escape_mentions(text))


def _game_name(key: str) -> str:
    """A game's display name; its key if it is no longer installed."""
    try:
        return registry.get(key).name
    except Exception:  # (a game removed since its ratings were kept)
        return key


class Ratings(commands.Cog):
    def __init__(self, herald: Platform) -> None:
        self.herald = herald
        self.storage = herald.storage

    @staticmethod
    def _guild(interaction: discord.Interaction) -> int:
        if interaction.guild_id is None:
            raise TableError("ratings are kept per server: use this command in a server where "
                             "you play.")
        return interaction.guild_id

    @app_commands.command(name="leaderboard")
    @app_commands.autocomplete(game=game_autocomplete)
    @app_commands.describe(game="which game", page=f"which page ({PAGE_SIZE} players each)")
    @refusals
    async def leaderboard(self, interaction: discord.Interaction, game: str,
                          page: app_commands.Range[int, 1, 10000] = 1) -> None:
        """This server's best players of a game."""
        guild_id = self._guild(interaction)
        key = find_game(game)
        name = registry.get(key).name
        if not (await self.storage.guild_settings(guild_id)).leaderboards:
            raise TableError("this server has turned leaderboards off (a server manager can turn "
                             "them back on with `/herald settings leaderboards:True`).")
        rows, total = await self.storage.leaderboard(guild_id, key, limit=PAGE_SIZE,
                                                     offset=(page - 1) * PAGE_SIZE)
        if total == 0:
            await reply(interaction, f"Nobody has a {name} rating on this server yet: finish a game "
                                     "against at least one other player (or a computer player) "
                                     "to get one.")
            return
        pages = -(-total // PAGE_SIZE)
        if not rows:
            raise TableError(f"the {name} leaderboard has only {count(pages, 'page')}.")
        first = (page - 1) * PAGE_SIZE + 1
        await interaction.response.defer(thinking=True)
        subtitle = f"page {page} of {pages} · {count(total, 'player')}"
        data = await self.herald.sessions.picture(ratings.leaderboard_image, name, rows, first, subtitle)
        lines = [f"**{name} leaderboard** — {subtitle}"]
        lines += [f"{first + i}. **{_name(r.name)}** — {ratings.shown(r.mu, r.sigma):.1f} "
                  f"({count(r.games, 'game')}, {count(r.wins, 'win')})" for i, r in enumerate(rows)]
        if page < pages:
            lines.append(f"…more with `/leaderboard game:{key} page:{page + 1}`.")
        lines.append("-# The rating is a cautious estimate of skill: it grows as you play.")
        await interaction.followup.send(
            "\n".join(lines), allowed_mentions=NO_PINGS,
            file=discord.File(io.BytesIO(data), filename=f"leaderboard-{key}.png",
                              description=ratings.leaderboard_alt(name, rows, first)))

    @app_commands.command(name="stats")
    @app_commands.describe(member="whose statistics (default: yours)")
    @refusals
    async def stats(self, interaction: discord.Interaction, member: discord.Member | None = None) -> None:
        """Games, wins, ratings, favourite game and longest game on this server."""
        guild_id = self._guild(interaction)
        user = member or interaction.user
        who = "You have" if user.id == interaction.user.id else f"{_name(user.display_name)} has"
        if user.bot:
            raise TableError("bots have no statistics here; Herald's computer players are not "
                             "listed either.")
        rows = await self.storage.ratings_of(guild_id, user.id)
        if not rows:
            await reply(interaction, f"{who} not finished a rated game on this server yet.")
            return
        shows_ratings = (await self.storage.guild_settings(guild_id)).leaderboards
        games, wins = ratings.totals(rows)
        lines = [f"**{_name(user.display_name)}** on this server: {count(games, 'game')}, "
                 f"{count(wins, 'win')}."]
        for r in rows:
            rating = f" — rating **{ratings.shown(r.mu, r.sigma):.1f}**" if shows_ratings else ""
            lines.append(f"• {_game_name(r.game_key)}: {count(r.games, 'game')}, "
                         f"{count(r.wins, 'win')}{rating}")
        fav = ratings.favourite(rows)
        if fav is not None:
            lines.append(f"Favourite game: **{_game_name(fav.game_key)}**.")
        longest = await self.storage.longest_game(guild_id, user.id)
        if longest is not None:
            lines.append(f"Longest game: {_game_name(longest.game_key)} #{longest.game_id}, "
                         f"{ratings.length(longest.seconds)} and {count(longest.moves, 'move')}.")
        if not shows_ratings:
            lines.append("-# This server has turned leaderboards off, so ratings are not shown.")
        await reply(interaction, "\n".join(lines))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Ratings(platform_of(bot)))
