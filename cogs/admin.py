"""``/herald settings`` (Manage Server): default deadline, reminder lead time, who may open tables,
the channels where tables may open, the limits on lobbies and running games (for the server, and for
each member), how long an idle lobby stays open, whether leaderboards are shown, and whether the
server's games have web pages. Validated, persisted, confirmed.

The options, their descriptions, how each changes the settings and the lines shown all come from
the settings' registry (:data:`bot.settings.SETTINGS`): a new setting is one entry there."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Coroutine
from typing import Any, Optional, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.platform import Platform, platform_of
from bot.refusals import refusals, reply
from bot.settings import OPTIONS, Option, apply_options, shown

_F = TypeVar("_F", bound=Callable[..., Coroutine[Any, Any, None]])


def _annotation(option: Option) -> Any:
    """The option's type as discord.py reads it from a command's signature (every option may be
    left out)."""
    kinds: dict[str, Any] = {"text": str, "flag": bool, "role": discord.Role,
                             "channel": discord.TextChannel,
                             "count": app_commands.Range[int, option.lo, option.hi]}
    return Optional[kinds[option.kind]]  # noqa: UP045 (a runtime type: discord.py reads it)


def _with_options(func: _F) -> _F:
    """Give the command's callback the registry's options as its parameters (discord.py builds a
    slash command's options from the signature)."""
    head = list(inspect.signature(func).parameters.values())[:2]  # self, interaction
    func.__signature__ = inspect.Signature([  # type: ignore[attr-defined]
        *head, *(inspect.Parameter(o.name, inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                   default=None, annotation=_annotation(o)) for o in OPTIONS)],
        return_annotation=None)
    return func


def _stored_value(value: Any) -> Any:
    """An option's value as the settings keep it: a role or channel by its id (the server's
    @everyone role as 0: anyone)."""
    if isinstance(value, discord.Role):
        return 0 if value.is_default() else value.id
    if isinstance(value, discord.abc.GuildChannel):
        return value.id
    return value


class Admin(commands.Cog):
    herald = app_commands.Group(name="herald", description="Herald settings for this server",
                                guild_only=True, default_permissions=discord.Permissions(manage_guild=True))

    def __init__(self, herald: Platform) -> None:
        self.platform = herald

    @herald.command(name="settings")
    @app_commands.checks.has_permissions(manage_guild=True)
    @app_commands.describe(**{o.name: o.description for o in OPTIONS})
    @refusals
    @_with_options
    async def settings(self, interaction: discord.Interaction, /, **given: Any) -> None:
        """View or change Herald's settings for this server."""
        assert interaction.guild_id is not None
        storage = self.platform.storage
        s = await storage.guild_settings(interaction.guild_id)
        changed = apply_options(s, {name: _stored_value(v) for name, v in given.items()})
        if changed:
            await storage.save_guild_settings(s)
            storage.settings_changed(s.guild_id)  # (open web pages of a server turning them off close)
        lines = ["✅ Saved." if changed else "Herald settings for this server:",
                 *shown(s, self.platform.config)]
        await reply(interaction, "\n".join(lines))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Admin(platform_of(bot)))
