"""``/herald settings`` (Manage Server): default deadline, reminder lead time, who may open tables,
the channels where tables may open, the limits on lobbies and running games (for the server, and for
each member), how long an idle lobby stays open, whether leaderboards are shown, and whether the
server's games have web pages. Validated,
persisted, confirmed."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import TableError
from bot.parsing import (
    duration_words,
    format_duration,
    parse_deadline,
    parse_duration,
    parse_reminder_lead,
)
from bot.platform import Platform, platform_of
from bot.refusals import refusals, reply
from bot.storage.base import (
    DEFAULT_LOBBY_EXPIRY,
    DEFAULT_LOBBY_LIMIT,
    DEFAULT_MEMBER_LOBBY_LIMIT,
    DEFAULT_MEMBER_TABLE_LIMIT,
    DEFAULT_TABLE_LIMIT,
    MAX_LOBBY_EXPIRY,
    MIN_LOBBY_EXPIRY,
)

MAX_TABLE_LIMIT = 1000
"""The most open tables a server may allow itself (each is stored, listed and scheduled)."""
MAX_MEMBER_LIMIT = 100


class Admin(commands.Cog):
    herald = app_commands.Group(name="herald", description="Herald settings for this server",
                                guild_only=True, default_permissions=discord.Permissions(manage_guild=True))

    def __init__(self, herald: Platform) -> None:
        self.platform = herald

    @herald.command(name="settings")
    @app_commands.checks.has_permissions(manage_guild=True)
    @app_commands.describe(
        deadline="default time per decision, e.g. 12h (1 minute – 14 days)",
        reminder="how long before a deadline to remind, e.g. 1h",
        opener_role="only this role may open tables", everyone_opens="let everyone open tables again",
        add_channel="allow tables in this channel (once any is set, only listed channels)",
        remove_channel="stop allowing tables in this channel",
        table_limit=f"running games this server may have at once (default {DEFAULT_TABLE_LIMIT})",
        lobby_limit=f"tables waiting to start this server may have at once (default {DEFAULT_LOBBY_LIMIT})",
        lobby_expiry=f"how long a table nobody touches waits to start before it closes, e.g. 12h, 3d (default {duration_words(DEFAULT_LOBBY_EXPIRY)})",
        member_lobby_limit=f"tables waiting to start one member may sit at (default {DEFAULT_MEMBER_LOBBY_LIMIT})",
        member_table_limit=f"open tables one member may sit at, lobbies included (default {DEFAULT_MEMBER_TABLE_LIMIT})",
        leaderboards="show /leaderboard and ratings in /stats here (ratings are kept either way)",
        web_pages="give this server's games their web pages and player links (when Herald has a web address)")
    @refusals
    async def settings(self, interaction: discord.Interaction, deadline: str | None = None,
                       reminder: str | None = None, opener_role: discord.Role | None = None,
                       everyone_opens: bool | None = None, add_channel: discord.TextChannel | None = None,
                       remove_channel: discord.TextChannel | None = None,
                       table_limit: app_commands.Range[int, 1, MAX_TABLE_LIMIT] | None = None,
                       member_lobby_limit: app_commands.Range[int, 1, MAX_MEMBER_LIMIT] | None = None,
                       member_table_limit: app_commands.Range[int, 1, MAX_MEMBER_LIMIT] | None = None,
                       leaderboards: bool | None = None,
                       lobby_limit: app_commands.Range[int, 1, MAX_TABLE_LIMIT] | None = None,
                       lobby_expiry: str | None = None, web_pages: bool | None = None) -> None:
        """View or change Herald's settings for this server."""
        assert interaction.guild_id is not None
        storage = self.platform.storage
        s = await storage.guild_settings(interaction.guild_id)
        changed = []
        if deadline is not None:
            s.default_deadline = parse_deadline(deadline)
            changed.append("deadline")
        if reminder is not None:
            s.reminder_lead = parse_reminder_lead(reminder)
            changed.append("reminder")
        if opener_role is not None and everyone_opens:
            raise TableError("choose either `opener_role` or `everyone_opens`, not both.")
        if opener_role is not None:
            if opener_role.is_default():
                s.opener_role_id = None
            else:
                s.opener_role_id = opener_role.id
            changed.append("opener")
        if everyone_opens:
            s.opener_role_id = None
            changed.append("opener")
        if add_channel is not None and add_channel.id not in s.channels:
            s.channels.append(add_channel.id)
            changed.append("channels")
        if remove_channel is not None:
            if remove_channel.id not in s.channels:
                raise TableError(f"{remove_channel.mention} is not in the list of table channels.")
            s.channels.remove(remove_channel.id)
            changed.append("channels")
        if lobby_expiry is not None:
            s.lobby_expiry = parse_duration(lobby_expiry, what="lobby expiry", lo=MIN_LOBBY_EXPIRY,
                                            hi=MAX_LOBBY_EXPIRY)
            changed.append("lobby_expiry")
        for name, value in (("table_limit", table_limit), ("member_lobby_limit", member_lobby_limit),
                            ("member_table_limit", member_table_limit), ("lobby_limit", lobby_limit)):
            if value is not None:
                setattr(s, name, int(value))
                changed.append(name)
        if leaderboards is not None:
            s.leaderboards = leaderboards
            changed.append("leaderboards")
        if web_pages is not None:
            s.web_pages = web_pages
            changed.append("web_pages")
        if changed:
            await storage.save_guild_settings(s)
        cfg = self.platform.config
        eff_deadline = s.default_deadline or cfg.default_deadline
        eff_lead = s.reminder_lead if s.reminder_lead is not None else cfg.reminder_lead
        limits = s.limits
        lines = [
            ("✅ Saved." if changed else "Herald settings for this server:"),
            f"• Default deadline: **{format_duration(eff_deadline)}**",
            f"• Reminder: **{format_duration(eff_lead)}** before a deadline"
            + (" (longer than the deadline: reminders come at half time)" if eff_lead >= eff_deadline else ""),
            f"• Who may open tables: {f'<@&{s.opener_role_id}>' if s.opener_role_id else 'everyone'}",
            f"• Table channels: {', '.join(f'<#{c}>' for c in s.channels) if s.channels else 'any channel'}",
            f"• Running games: at most **{limits.tables}** in this server; tables waiting to start: "
            f"at most **{limits.lobbies}**, each closing after **{duration_words(s.lobby_ttl)}** "
            "with nobody joining, leaving or starting it",
            f"• Each member: at most **{limits.member_lobbies}** tables waiting to start and "
            f"**{limits.member_tables}** tables in all",
            f"• Leaderboards and ratings: **{'shown' if s.leaderboards else 'hidden'}**",
            f"• Web pages of this server's games: **{'on' if s.web_pages else 'off'}**"
            + ("" if cfg.web_url else " (Herald has no web address set, so there are none)"),
        ]
        await reply(interaction, "\n".join(lines))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Admin(platform_of(bot)))
