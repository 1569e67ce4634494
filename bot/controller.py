"""Turns clicks into session calls: lobby buttons, Decide panels, choice menus, "My hand".

Every handler acknowledges the interaction quickly (deferring before engine work or rendering),
answers refusals ephemerally with a specific message, and never shows a traceback.
"""

from __future__ import annotations

import functools
import inspect
import logging
import typing
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord

from rules import registry
from rules.engine import Prompt, RulesError

from .session import StaleAction, TableError, format_duration
from .storage import GameRow
from .text import NO_PINGS, clip, seat_label
from .views import choice_view, choices_digest, lobby_view

if TYPE_CHECKING:
    from .app import HeraldBot

log = logging.getLogger("herald.controller")

FormOpener = Callable[[discord.Interaction, GameRow, int, Prompt], Awaitable[None]]


def sentence(exc: Exception) -> str:
    """An error message as a sentence for the user ('only the host…' → 'Only the host…')."""
    msg = str(exc)
    return msg[:1].upper() + msg[1:]


async def reply(interaction: discord.Interaction, content: str, **kwargs: Any) -> None:
    """Answer ephemerally whether or not the interaction was already acknowledged."""
    kwargs.setdefault("allowed_mentions", NO_PINGS)
    if interaction.response.is_done():
        await interaction.followup.send(clip(content), ephemeral=True, **kwargs)
    else:
        await interaction.response.send_message(clip(content), ephemeral=True, **kwargs)


_Cmd = typing.TypeVar("_Cmd", bound=Callable[..., Awaitable[None]])


def refusals(func: _Cmd) -> _Cmd:
    """Wrap a slash command: refusals (TableError, RulesError, stale) become ephemeral replies.

    Unexpected errors still propagate to the tree's error handler (logged, short apology)."""

    @functools.wraps(func)
    async def wrapper(self: Any, interaction: discord.Interaction, *args: Any, **kwargs: Any) -> None:
        try:
            await func(self, interaction, *args, **kwargs)
        except StaleAction:
            await reply(interaction, "This board is out of date — the game has moved on.")
        except (TableError, RulesError) as exc:
            await reply(interaction, sentence(exc))

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


def is_manager(interaction: discord.Interaction) -> bool:
    perms = getattr(interaction, "permissions", None)
    return bool(perms and perms.manage_guild)


class Controller:
    def __init__(self, bot: HeraldBot) -> None:
        self.bot = bot
        self.forms: dict[tuple[str, str], FormOpener] = {}
        """(game key, free-form name) → opener of the game's own form (registered by game cogs)."""

    @property
    def sessions(self) -> Any:
        return self.bot.sessions

    async def guard(self, interaction: discord.Interaction, coro: Awaitable[None]) -> None:
        try:
            await coro
        except StaleAction as exc:
            game = await self.sessions.storage.get_game(exc.game_id) if exc.game_id else None
            await self.stale(interaction, game)
        except (TableError, RulesError) as exc:
            await reply(interaction, sentence(exc))
        except Exception:
            log.exception("interaction failed")
            await reply(interaction, "Sorry — something went wrong on my side. Nothing was changed; "
                                     "please try again.")

    async def stale(self, interaction: discord.Interaction, game: GameRow | None = None) -> None:
        link = ""
        if game is not None and game.board_message_id and game.home_channel_id:
            gid = game.guild_id or "@me"
            link = f" Here is the current one: https://discord.com/channels/{gid}/{game.home_channel_id}/{game.board_message_id}"
        await reply(interaction, "This board is out of date — the game has moved on." + link)

    # ----------------------------------------------------------------- lobby

    def lobby_embed(self, game: GameRow) -> discord.Embed:
        engine = registry.get(game.game_key)
        state = {"lobby": "Open — join with the button below", "active": "Started",
                 "finished": "Finished", "cancelled": "Cancelled"}[game.status]
        embed = discord.Embed(title=f"{engine.name} — table #{game.id}", colour=0x56B4E9,
                              description=state)
        seats = "\n".join(seat_label(game, s.seat) + (" 🤖" if s.is_bot else "") for s in game.seats) or "—"
        embed.add_field(name=f"Seated ({len(game.seats)}/{engine.max_players}, "
                             f"needs {engine.min_players})", value=clip(seats, 1000), inline=False)
        if game.host_id:
            embed.add_field(name="Host", value=f"<@{game.host_id}>")
        if game.deadline:
            embed.add_field(name="Deadline per decision", value=format_duration(game.deadline))
        if game.thread_id and game.status != "lobby":
            embed.add_field(name="Play", value=f"<#{game.thread_id}>")
        return embed

    async def lobby_click(self, interaction: discord.Interaction, game_id: int, op: str) -> None:
        await self.guard(interaction, self._lobby_click(interaction, game_id, op))

    async def _lobby_click(self, interaction: discord.Interaction, game_id: int, op: str) -> None:
        user = interaction.user
        s = self.sessions
        admin = is_manager(interaction)
        if op == "join":
            game = await s.join(game_id, user.id, user.display_name)
        elif op == "leave":
            game = await s.leave(game_id, user.id)
        elif op == "bot":
            game = await s.add_bot(game_id, user.id, is_admin=admin)
        elif op == "cancel":
            game = await s.cancel(game_id, user.id, is_admin=admin)
            await interaction.response.edit_message(embed=self.lobby_embed(game),
                                                    view=lobby_view(game_id, closed=True))
            return
        else:
            await self.start_table(interaction, game_id, admin)
            return
        await interaction.response.edit_message(embed=self.lobby_embed(game), view=lobby_view(game_id))

    async def start_table(self, interaction: discord.Interaction, game_id: int, admin: bool) -> None:
        s = self.sessions
        game = await s.get(game_id)
        if game.status != "lobby":
            raise TableError("this table has already started or closed.")
        if interaction.user.id != game.host_id and not admin:
            raise TableError("only the host can start the game.")
        engine = registry.get(game.game_key)
        if len(game.seats) < engine.min_players:
            raise TableError(f"{engine.name} needs at least {engine.min_players} players; "
                             f"{len(game.seats)} seated. Invite more or add computer players.")
        await interaction.response.defer()
        thread_id = await self.open_thread(interaction, game, engine.name)
        await s.storage.update_game(game_id, thread_id=thread_id)
        await s.start(game_id, interaction.user.id, is_admin=admin)
        game = await s.get(game_id)
        await interaction.edit_original_response(embed=self.lobby_embed(game),
                                                 view=lobby_view(game_id, closed=True))

    async def open_thread(self, interaction: discord.Interaction, game: GameRow, name: str) -> int | None:
        """A public thread on the lobby message; None (play in the channel) where that is refused."""
        channel = interaction.channel
        if not isinstance(channel, discord.TextChannel) or interaction.message is None:
            return None
        me = channel.guild.me
        if me is not None and not channel.permissions_for(me).create_public_threads:
            await self.note_channel_fallback(channel)
            return None
        try:
            thread = await interaction.message.create_thread(name=f"{name} #{game.id}",
                                                             auto_archive_duration=10080)
            return thread.id
        except discord.HTTPException:
            await self.note_channel_fallback(channel)
            return None

    async def note_channel_fallback(self, channel: discord.TextChannel) -> None:
        try:
            await channel.send("I can't create threads here, so this game will be played in this "
                               "channel.", allowed_mentions=NO_PINGS)
        except discord.HTTPException:
            pass

    # ----------------------------------------------------------------- play

    async def seat_for(self, interaction: discord.Interaction, game: GameRow) -> int:
        seat = game.seat_of(interaction.user.id)
        if seat is None:
            raise TableError("you are not playing in this game — only seated players can act.")
        return seat

    async def decide_click(self, interaction: discord.Interaction, game_id: int, version: int) -> None:
        await self.guard(interaction, self._decide(interaction, game_id))

    async def _decide(self, interaction: discord.Interaction, game_id: int) -> None:
        game = await self.sessions.get(game_id)
        if game.status != "active":
            raise TableError("this game is over." if game.status == "finished" else "this game is not running.")
        seat = await self.seat_for(interaction, game)
        await self.open_panel(interaction, game, seat)

    async def open_panel(self, interaction: discord.Interaction, game: GameRow, seat: int) -> None:
        prompts = [p for p in self.sessions.prompts(game) if p.seat == seat]
        if not prompts:
            waiting = sorted({p.seat for p in self.sessions.prompts(game)})
            who = ", ".join(seat_label(game, w) for w in waiting) or "nobody"
            raise TableError(f"nothing for you to decide right now — waiting for {who}.")
        prompt = prompts[0]
        opener = self.forms.get((game.game_key, prompt.free_form or ""))
        if prompt.free_form and opener is not None:
            await opener(interaction, game, seat, prompt)
            return
        if not prompt.choices:
            from .gameui import get_ui

            hint = getattr(get_ui(game.game_key), "free_form_help", lambda k: "")(prompt.free_form)
            raise TableError(f"{prompt.text} {hint}".strip())
        deadline = next((d for d in await self.sessions.storage.deadlines(game.id)
                         if d.seat == seat and d.kind == prompt.kind), None)
        due = f"\nDue <t:{int(deadline.due_at)}:R>; then {prompt.timeout_note}." if deadline else ""
        await reply(interaction, f"**{prompt.text}**{due}", view=choice_view(game.id, game.version, prompt))

    async def _current_prompt(self, interaction: discord.Interaction, game_id: int,
                              digest: str) -> tuple[GameRow, int, Prompt]:
        game = await self.sessions.get(game_id)
        if game.status != "active":
            raise TableError("this game is over." if game.status == "finished" else "this game is not running.")
        seat = await self.seat_for(interaction, game)
        prompt = next((p for p in self.sessions.prompts(game) if p.seat == seat), None)
        if prompt is None or choices_digest(prompt) != digest:
            raise StaleAction("stale", game_id)
        return game, seat, prompt

    async def group_chosen(self, interaction: discord.Interaction, game_id: int, digest: str, value: str) -> None:
        if value.startswith("c:"):  # a choice standing alone in the first menu
            await self.choice_made(interaction, game_id, digest, value[2:])
            return

        async def run() -> None:
            game, seat, prompt = await self._current_prompt(interaction, game_id, digest)
            group = int(value.removeprefix("g:")) if value.removeprefix("g:").isdigit() else 0
            await interaction.response.edit_message(view=choice_view(game.id, game.version, prompt, group=group))
        await self.guard(interaction, run())

    async def choice_made(self, interaction: discord.Interaction, game_id: int, digest: str, value: str) -> None:
        async def run() -> None:
            game, seat, prompt = await self._current_prompt(interaction, game_id, digest)
            if value.startswith("page:"):
                _, g, page = value.split(":")
                await interaction.response.edit_message(view=choice_view(
                    game.id, game.version, prompt, group=None if g == "-1" else int(g), page=int(page)))
                return
            idx = int(value)
            if not 0 <= idx < len(prompt.choices):
                raise StaleAction("stale", game_id)
            choice = prompt.choices[idx]
            await interaction.response.defer()
            await self.sessions.act(game.id, seat, dict(choice.action), user_id=interaction.user.id,
                                    expected_version=game.version)
            await self.done(interaction, f"✅ {choice.label}")
        await self.guard(interaction, run())

    async def done(self, interaction: discord.Interaction, text: str) -> None:
        try:
            await interaction.edit_original_response(content=text, view=None, attachments=[], embed=None)
        except discord.HTTPException:
            await interaction.followup.send(text, ephemeral=True)

    async def act(self, interaction: discord.Interaction, game: GameRow, seat: int,
                  action: dict[str, Any], confirm: str) -> Any:
        """For game cogs: apply a free-form action for the clicking player (after deferring)."""
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)
        update = await self.sessions.act(game.id, seat, action, user_id=interaction.user.id)
        await interaction.followup.send(confirm, ephemeral=True)
        return update

    async def hand_click(self, interaction: discord.Interaction, game_id: int) -> None:
        await self.guard(interaction, self.show_hand(interaction, game_id))

    async def show_hand(self, interaction: discord.Interaction, game_id: int) -> None:
        game = await self.sessions.get(game_id)
        if game.state is None:
            raise TableError("this game has not started yet.")
        seat = await self.seat_for(interaction, game)
        await interaction.response.defer(ephemeral=True, thinking=True)
        text, files = await self.bot.delivery.hand_payload(game, seat)
        await interaction.followup.send(clip(f"You are {seat_label(game, seat)}.\n{text}"), files=files,
                                        ephemeral=True, allowed_mentions=NO_PINGS)
