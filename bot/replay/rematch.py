"""Rematch: the final result message carries a Rematch button.

A seated player's press opens a new lobby in the game's channel with the same options and
computer players, the presser seated as its host; the other human players are asked to confirm.
The game starts once all have (seats in the same order as before), or when the host starts it
with those who did. The old game's result remembers its rematch, so a double press — or a press
after a restart — finds the lobby already open instead of opening a second one.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import discord

from rules import registry

from ..errors import TableError
from ..refusals import answering, is_manager, reply
from ..storage import GameRow, SeatRow
from ..text import NO_PINGS, clip, pings
from ..views import rematch_lobby_view
from .commands import Lookups


def invited(old: GameRow) -> list[int]:
    """The human players of a game: whom its rematch asks to confirm."""
    return [s.user_id for s in old.seats if not s.is_bot and s.user_id is not None]


def rematch_order(old: Sequence[SeatRow], new: Sequence[SeatRow]) -> list[SeatRow]:
    """The rematch's seats in the old game's order: each player back in their seat, computer
    players in theirs; a player who did not confirm leaves no gap; anyone else comes last."""
    bots = [s for s in new if s.is_bot]
    humans = {s.user_id: s for s in new if not s.is_bot}
    out: list[SeatRow] = []
    for s in old:
        if s.is_bot or s.user_id is None:
            if bots:
                out.append(bots.pop(0))
        elif s.user_id in humans:
            out.append(humans.pop(s.user_id))
    out += bots + list(humans.values())
    return [SeatRow(i, s.user_id, s.is_bot, s.name) for i, s in enumerate(out)]


def awaited(old: GameRow, table: GameRow) -> list[int]:
    """The old game's players who have not confirmed the rematch yet."""
    return [uid for uid in invited(old) if table.seat_of(uid) is None]


def lobby_text(old: GameRow, table: GameRow) -> str:
    missing = awaited(old, table)
    if table.status != "lobby":
        return f"🔁 Rematch of game #{old.id}."
    if not missing:
        return f"🔁 Rematch of game #{old.id}: everyone has confirmed."
    return (f"🔁 Rematch of game #{old.id}: {' '.join(f'<@{u}>' for u in missing)} — press **Confirm** to "
            "take your seat again. The game starts once everyone has; the host may start sooner "
            "with those who did.")


async def rematch_click(c: Lookups, interaction: discord.Interaction, game_id: int,
                        op: str, table_id: int | None) -> None:
    """The Rematch button of a final result (``op`` "new") and the rematch lobby's buttons."""
    async with answering(interaction):
        old = await c.game_for(interaction, game_id)
        if op == "new" or table_id is None:
            await _open_rematch(c, interaction, old)
            return
        table = await c.game_for(interaction, table_id)
        if (old.result or {}).get("rematch") != table.id:
            raise TableError("this rematch table is no longer open.")
        if op == "confirm":
            await _confirm(c, interaction, old, table)
        elif op == "start":
            if interaction.user.id != table.host_id and not is_manager(interaction):
                raise TableError("only the host can start the rematch.")
            await _start(c, interaction, old, table)
        else:
            table = await c.sessions.cancel(table.id, interaction.user.id, is_admin=is_manager(interaction))
            await interaction.response.edit_message(content=f"🔁 Rematch of game #{old.id}: cancelled.",
                                                    embed=c.lobby_embed(table),
                                                    view=rematch_lobby_view(old.id, table.id, closed=True),
                                                    allowed_mentions=NO_PINGS)


async def _open_rematch(c: Lookups, interaction: discord.Interaction, old: GameRow) -> None:
    s = c.sessions
    user = interaction.user
    if old.guild_id is None or old.channel_id is None:
        raise TableError("a rematch can only be opened for a game played in a server.")
    channel_id = old.channel_id
    if old.status != "finished":
        raise TableError(f"game #{old.id} is not over yet; a rematch can be asked for once it ends.")
    if old.seat_of(user.id) is None:
        raise TableError(f"only the players of game #{old.id} can ask for its rematch.")
    async with s.lock(old.id):  # a double press (or two players at once) opens one lobby
        old = await s.get(old.id)
        earlier = (old.result or {}).get("rematch")
        table = await s.storage.get_game(earlier) if isinstance(earlier, int) else None
        if table is not None and table.status in ("lobby", "active"):
            where = _table_link(table)
            await reply(interaction, f"A rematch of game #{old.id} is open already: table #{table.id}"
                                     + (f" — {where}" if where else "") + ".")
            return
        channel = interaction.client.get_channel(channel_id)
        if channel is None or not hasattr(channel, "send"):
            raise TableError(f"I can't find the channel game #{old.id} was opened in any more, so no "
                             "rematch was opened; open a new table with `/play`.")
        bots = sum(1 for seat in old.seats if seat.is_bot or seat.user_id is None)
        table = await s.open_table(guild_id=old.guild_id, channel_id=channel_id, host_id=user.id,
                                   host_name=user.display_name, game_key=old.game_key,
                                   options=dict(old.options), deadline=old.deadline, bots=bots)
        await s.storage.update_game(old.id, result={**(old.result or {}), "rematch": table.id})
    others = [u for u in invited(old) if u != user.id]
    try:
        message = await channel.send(lobby_text(old, table), embed=await c.open_lobby_embed(table),
                                     view=rematch_lobby_view(old.id, table.id), allowed_mentions=pings(others))
    except discord.HTTPException:
        await s.storage.update_game(table.id, status="cancelled", updated_at=s.now())
        raise TableError(f"I can't post in <#{old.channel_id}>, so no rematch was opened.") from None
    await s.storage.update_game(table.id, lobby_message_id=message.id)
    if not others:  # nobody else to ask: everyone has confirmed
        await interaction.response.defer(ephemeral=True, thinking=True)
        await _begin(c, old, table.id, message)
        await interaction.followup.send(f"Rematch #{table.id} has started: {message.jump_url}", ephemeral=True)
        return
    await reply(interaction, f"Rematch table #{table.id} is open: {message.jump_url} — the other players "
                             "are asked to confirm.")


def _table_link(table: GameRow) -> str | None:
    if table.status == "active" and table.thread_id:
        return f"<#{table.thread_id}>"
    if table.guild_id and table.channel_id and table.lobby_message_id:
        return f"https://discord.com/channels/{table.guild_id}/{table.channel_id}/{table.lobby_message_id}"
    return None


async def _confirm(c: Lookups, interaction: discord.Interaction, old: GameRow, table: GameRow) -> None:
    user = interaction.user
    if table.status != "lobby":
        raise TableError("this rematch has already started or closed.")
    if user.id not in invited(old):
        raise TableError(f"this rematch is for the players of game #{old.id}; open your own table with `/play`.")
    if table.seat_of(user.id) is not None:
        missing = awaited(old, table)
        raise TableError("you have confirmed already" + (
            f"; waiting for {', '.join(f'<@{u}>' for u in missing)}." if missing else "."))
    table = await c.sessions.join(table.id, user.id, user.display_name)
    if awaited(old, table):
        await interaction.response.edit_message(content=lobby_text(old, table),
                                                embed=await c.open_lobby_embed(table),
                                                view=rematch_lobby_view(old.id, table.id),
                                                allowed_mentions=NO_PINGS)
        return
    await _start(c, interaction, old, table)


async def _start(c: Lookups, interaction: discord.Interaction, old: GameRow, table: GameRow) -> None:
    """Start the rematch on its lobby message (the one clicked), seats in the old game's order."""
    engine = registry.get(table.game_key)
    if table.status != "lobby":
        raise TableError("this rematch has already started or closed.")
    if len(table.seats) < engine.min_players:
        raise TableError(f"{engine.name} needs at least {engine.min_players} players; "
                         f"{len(table.seats)} confirmed so far.")
    await c.sessions.check_start(table)
    await interaction.response.defer()
    assert interaction.message is not None
    started = await _begin(c, old, table.id, interaction.message)
    await interaction.edit_original_response(content=lobby_text(old, started), embed=c.lobby_embed(started),
                                             view=rematch_lobby_view(old.id, table.id, closed=True),
                                             allowed_mentions=NO_PINGS)


async def _begin(c: Lookups, old: GameRow, table_id: int, message: Any) -> GameRow:
    """Seat the rematch in the old order, open its thread on ``message`` (the lobby) and start."""
    s = c.sessions
    # (two last confirmations at once: one opens the thread and starts, the other is told so)
    async with _starting.setdefault(table_id, asyncio.Lock()):
        async with s.lock(table_id):
            table = await s.get(table_id)
            if table.status != "lobby":
                raise TableError("this rematch has already started or closed.")
            await s.storage.set_seats(table_id, rematch_order(old.seats, table.seats))
        thread_id = await _open_thread(c, message, f"{registry.get(table.game_key).name} #{table_id}")
        await s.storage.update_game(table_id, thread_id=thread_id)
        update = await s.start(table_id, None)
    _starting.pop(table_id, None)
    return update.game


_starting: dict[int, asyncio.Lock] = {}
"""Rematch tables being started (held from the last look at the lobby to the start)."""


async def _open_thread(c: Lookups, message: Any, name: str) -> int | None:
    """A public thread on the lobby message; None (play in the channel) where that is refused."""
    channel = getattr(message, "channel", None)
    if not isinstance(channel, discord.TextChannel):
        return None
    me = channel.guild.me
    if me is not None and not channel.permissions_for(me).create_public_threads:
        await c.note_channel_fallback(channel)
        return None
    try:
        thread = await message.create_thread(name=clip(name, 90), auto_archive_duration=10080)
    except discord.HTTPException:
        await c.note_channel_fallback(channel)
        return None
    return int(thread.id)
