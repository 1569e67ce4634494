"""``/away`` (time away from every game) and ``/notify`` (pings, DMs, quiet hours): a player's own
settings, the same in every server and in DMs. Thin: parse → ``bot.away`` → respond."""

from __future__ import annotations

import dataclasses

import discord
from discord import app_commands
from discord.ext import commands

from bot.away import (
    DM_MODES,
    TimeAway,
    describe,
    parse_mode,
    parse_quiet,
    parse_until,
    parse_zone,
    post_line,
)
from bot.errors import TableError
from bot.platform import Platform, platform_of
from bot.refusals import refusals, reply
from rules.text import count

BACK_WORDS = ("off", "back", "none", "no")
"""What ``/away until:`` takes for "I am back"."""


class Away(commands.Cog):
    def __init__(self, herald: Platform) -> None:
        self.herald = herald
        self.away = TimeAway(herald.sessions, post_line(herald.delivery))

    @app_commands.command(name="away")
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.describe(until="back when? e.g. 2026-12-01, in 3 days, tomorrow, friday — or off",
                           mode="meanwhile: your deadlines wait for you, or the computer decides for you")
    @app_commands.choices(mode=[
        app_commands.Choice(name="extend — my deadlines wait for me", value="extend"),
        app_commands.Choice(name="computer — the computer player decides for me", value="computer")])
    @refusals
    async def away_command(self, interaction: discord.Interaction, until: str,
                           mode: str = "extend") -> None:
        """Time away from all your games (at most 30 days), or `until:off` when you are back."""
        user = interaction.user.id
        prefs = await self.away.prefs(user)
        now = self.away.now()
        if until.strip().lower() in BACK_WORDS:
            if prefs.away_until is None or prefs.away_until <= now:
                raise TableError("you are not away; `/away until:<date>` sets time away.")
            await interaction.response.defer(ephemeral=True, thinking=True)
            games = await self.away.set_away(user, None)
            await reply(interaction, "Welcome back! Your deadlines run as usual again"
                        + (f" in your {count(len(games), 'running game')}." if games else "."))
            return
        when = parse_until(until, now, prefs.zone)
        chosen = parse_mode(mode)
        await interaction.response.defer(ephemeral=True, thinking=True)
        games = await self.away.set_away(user, when, chosen)
        how = ("the computer player decides for you, at once" if chosen == "computer"
               else "your deadlines wait for you: what is left of each counts from your return")
        where = f"in your {count(len(games), 'running game')}" if games else "in any game you play meanwhile"
        await reply(interaction, f"You are away until <t:{int(when)}:f> (<t:{int(when)}:R>): {how}, "
                                 f"{where}. `/away until:off` when you are back sooner.")

    @app_commands.command(name="notify")
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.describe(pings="be pinged in game threads when it is your move",
                           dms="a DM for every decision, or only reminders",
                           quiet="quiet hours in your time, e.g. 22:00-07:00 (or off)",
                           zone="your UTC offset or time zone, e.g. +02:00 or Europe/Berlin")
    @app_commands.choices(
        pings=[app_commands.Choice(name="on", value="on"), app_commands.Choice(name="off", value="off")],
        dms=[app_commands.Choice(name="every decision", value="every"),
             app_commands.Choice(name="only reminders", value="reminders")])
    @refusals
    async def notify(self, interaction: discord.Interaction, pings: str | None = None,
                     dms: str | None = None, quiet: str | None = None, zone: str | None = None) -> None:
        """Your notifications: pings, DMs, quiet hours (only you see the answer)."""
        prefs = await self.away.prefs(interaction.user.id)
        changes: dict[str, object] = {}
        if pings is not None:
            if pings.strip().lower() not in ("on", "off"):
                raise TableError("pings are `on` or `off`.")
            changes["pings"] = pings.strip().lower() == "on"
        if dms is not None:
            if dms.strip().lower() not in DM_MODES:
                raise TableError("DMs are for `every` decision or only `reminders`.")
            changes["dms"] = dms.strip().lower()
        if zone is not None:
            changes["zone"] = parse_zone(zone)
        if quiet is not None:
            hours = parse_quiet(quiet)
            changes["quiet_start"], changes["quiet_end"] = hours if hours else (None, None)
        if changes:
            prefs = dataclasses.replace(prefs, **changes)  # type: ignore[arg-type]
            await self.away.save(prefs)
        head = "Saved. " if changes else ""
        await reply(interaction, f"{head}Your notifications, in every server:\n"
                                 + describe(prefs, self.away.now()))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Away(platform_of(bot)))
