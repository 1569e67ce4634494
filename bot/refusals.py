"""The one refusal path: every failure type has one sentence, for slash commands, buttons, menus and
forms alike.

``async with answering(interaction): ...`` runs a handler and turns what it raises into an
ephemeral answer; ``@refusals`` does the same for a slash command; :func:`sentence_for` is the one
translation table (also used by the command tree's error handler). Anything unexpected is logged
with its traceback and the player reads a short apology — never a traceback.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import logging
import typing
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import discord
from discord import app_commands

from rules.engine import RulesError, StateSchemaError

from .errors import Contention, StaleAction, TableError
from .storage import (
    StorageBusy,
    StorageCorrupt,
    StorageError,
    StorageFull,
    StorageReadOnly,
    VersionConflict,
)
from .text import NO_PINGS, clip

log = logging.getLogger("herald.refusals")

APOLOGY = "Sorry — something went wrong on my side. Please look at the board and try again."


def sentence(exc: BaseException) -> str:
    """An error message as a sentence for the user ('only the host…' → 'Only the host…')."""
    msg = str(exc)
    return msg[:1].upper() + msg[1:]


def sentence_for(exc: BaseException) -> str | None:
    """The one sentence for a failure a player can be told about; None for an unexpected one."""
    if isinstance(exc, app_commands.CommandInvokeError):
        exc = exc.original
    if isinstance(exc, StaleAction):
        text = sentence(exc)
        return text + (f" Current board: {exc.board_url}" if exc.board_url else "")
    if isinstance(exc, Contention | TableError | RulesError):
        return sentence(exc)
    if isinstance(exc, StateSchemaError):
        return ("This game was saved by a different version of Herald, which this one cannot read; "
                "nothing was changed. Ask the server's admin to run the matching Herald version.")
    if isinstance(exc, VersionConflict):
        return ("The game changed at the same moment from elsewhere, so your move was not stored; "
                "please try again.")
    if isinstance(exc, StorageError):
        return storage_sentence(exc)
    if isinstance(exc, app_commands.MissingPermissions):
        return "You need the **Manage Server** permission for that."
    if isinstance(exc, app_commands.CheckFailure):
        return str(exc) or "You can't use that command here."
    return None


_STORAGE_CAUSES: tuple[tuple[type[StorageError], str, str], ...] = (
    (StorageBusy, "The game's database is busy right now", " — please try again in a moment."),
    (StorageFull, "The server could not write to the game's database (its disk is full or failing)",
     "; the server's admin has been told in the log."),
    (StorageReadOnly, "The game's database has become read-only",
     "; the server's admin has been told in the log."),
    (StorageCorrupt, "The game's database is damaged",
     "; the server's admin has been told in the log and must restore a backup."),
)


def storage_sentence(exc: StorageError) -> str:
    """A storage failure, truthfully: its cause, and whether what the player did was saved — not
    saved when the storage knows nothing was stored, "could not check" when it may have been.
    The cause itself (file, driver error) is in the log, never in the player's answer."""
    cause, after = "The game's database is not available right now", "; please try again soon."
    for kind, text, tail in _STORAGE_CAUSES:
        if isinstance(exc, kind):
            cause, after = text, tail
            break
    if exc.stored is None:
        return (f"{cause}, and I could not check whether that was saved: please look at the board "
                "before trying again.")
    return f"{cause}, so that was not saved{after}"


def is_manager(interaction: discord.Interaction) -> bool:
    """The member may administer games here (Manage Server)."""
    perms = getattr(interaction, "permissions", None)
    return bool(perms and perms.manage_guild)


async def reply(interaction: discord.Interaction, content: str, **kwargs: Any) -> None:
    """Answer ephemerally whether or not the interaction was already acknowledged."""
    kwargs.setdefault("allowed_mentions", NO_PINGS)
    if interaction.response.is_done():
        await interaction.followup.send(clip(content), ephemeral=True, **kwargs)
    else:
        await interaction.response.send_message(clip(content), ephemeral=True, **kwargs)


async def refuse(interaction: discord.Interaction, exc: BaseException) -> None:
    """Tell the player why (or apologise and log an unexpected failure)."""
    text = sentence_for(exc)
    if text is None:
        log.error("interaction failed", exc_info=exc)
        text = APOLOGY
    with contextlib.suppress(discord.HTTPException):
        await reply(interaction, text)


@contextlib.asynccontextmanager
async def answering(interaction: discord.Interaction) -> AsyncIterator[None]:
    """Run a command's or component's handler; whatever it raises becomes one ephemeral answer."""
    try:
        yield
    except Exception as exc:  # the one place failures become sentences
        await refuse(interaction, exc)


_Cmd = typing.TypeVar("_Cmd", bound=Callable[..., Awaitable[None]])


def refusals(func: _Cmd) -> _Cmd:
    """Wrap a slash command's callback in :func:`answering`."""

    @functools.wraps(func)
    async def wrapper(self: Any, interaction: discord.Interaction, *args: Any, **kwargs: Any) -> None:
        async with answering(interaction):
            await func(self, interaction, *args, **kwargs)

    # discord.py builds the command's options from the signature: give it the original one, with
    # annotations already resolved in the command's own module.
    hints = typing.get_type_hints(func, include_extras=True)
    sig = inspect.signature(func)
    wrapper.__signature__ = sig.replace(  # type: ignore[attr-defined,unused-ignore]
        parameters=[p.replace(annotation=hints.get(p.name, p.annotation)) for p in sig.parameters.values()],
        return_annotation=hints.get("return", sig.return_annotation))
    wrapper.__annotations__ = hints
    del wrapper.__wrapped__
    return typing.cast(_Cmd, wrapper)
