"""Turns clicks and commands into session calls: lobby buttons, Decide panels, choice menus, "My hand",
and the lookups every game cog shares (which game, which seat, which open decision).

Every handler runs inside :func:`bot.refusals.answering` (one sentence per failure type),
acknowledges the interaction quickly (deferring before engine work or rendering) and passes the
decision it answers (a :class:`~bot.session.Ticket`) to the session, which checks it under the
game's lock.

**Boundaries.** A custom_id is written by whoever sends the interaction, so the game id in it is a
claim, not a fact. Every command, component and form finds its game through
:meth:`Controller.game_for` (directly, or through :meth:`Controller.resolve` and
:meth:`Controller.decision`): in a server only that server's games exist, in a DM only the games
the user is seated in, and a game outside those is refused with the very sentence an unknown
number gets — whether it exists elsewhere is nobody's business. Manage Server counts only in the
game's own server.
"""

from __future__ import annotations

import contextlib
import logging
import time
from typing import Any

import discord

from rules import registry

from .answer import FORM_ANSWER, FORM_FOLLOWS, Answer
from .delivery import DiscordDelivery, get_engine_name, waits_for
from .errors import StaleAction, TableError
from .forms import CHOICE_FORM, Forms, choice_modal, fits_modal
from .parsing import duration_words, parse_id, shown_number
from .refusals import answering, is_manager, reply
from .replay import rematch_click
from .session import PAUSED, STALLED_REPLY, Decision, Sessions, Ticket, Update, format_duration
from .storage import DeadlineRow, GameRow
from .text import NO_PINGS, board_url, clip, seat_label
from .views import choice_notes, choice_view, lobby_view, shown_label

log = logging.getLogger("herald.controller")


def visible(interaction: discord.Interaction, game: GameRow) -> bool:
    """A game is visible to its own server's members, and (in a DM) to its seated players."""
    if interaction.guild_id is not None:
        return game.guild_id == interaction.guild_id
    return game.seat_of(interaction.user.id) is not None


def not_here(interaction: discord.Interaction, game_id: int) -> str:
    """The one refusal for a game number that is unknown *or* not visible here."""
    if interaction.guild_id is not None:
        return f"there is no game #{shown_number(game_id)} in this server."
    return f"you have no game #{shown_number(game_id)}; in a DM you can only name games you play in."


def manages(interaction: discord.Interaction, game: GameRow) -> bool:
    """The member has Manage Server in the game's own server (nowhere else does it count)."""
    return (interaction.guild_id is not None and game.guild_id == interaction.guild_id
            and is_manager(interaction))


def on_board(interaction: discord.Interaction, game: GameRow) -> bool:
    """Whether the click was made on the game's board message (whose answer may then redraw it)."""
    return (interaction.message is not None and game.board_message_id is not None
            and interaction.message.id == game.board_message_id)


def due_text(d: Decision) -> str:
    """'Due in 3 hours; then the computer player decides.' (empty without a deadline)."""
    if d.deadline is None:
        return ""
    return f"Due <t:{int(d.deadline.due_at)}:R>; then {d.prompt.timeout_note}."


MY_GAMES_PAGE = 1800
"""Characters of games per page of ``/mygames``: with its footer, within a message's 2,000."""


def server_name(client: discord.Client, game: GameRow) -> str:
    """The game's server as the player knows it (escaped: a server's name is anyone's text)."""
    if game.guild_id is None:
        return "direct messages"
    guild = client.get_guild(game.guild_id)
    if guild is None:
        return "a server I can no longer see"
    return clip(discord.utils.escape_markdown(discord.utils.escape_mentions(guild.name)), 40)


def opened_at(deadline: DeadlineRow, table_deadline: int, lead: int) -> float:
    """When the decision ``deadline`` belongs to was opened, from what its row keeps: it was due
    the table's deadline after it opened — or, for a prompt with a shorter window of its own (its
    reminder then falls halfway, the lead being longer than the window), twice the time from the
    reminder to the deadline."""
    if deadline.remind_at is not None and deadline.due_at - deadline.remind_at < lead:
        return 2 * deadline.remind_at - deadline.due_at
    return deadline.due_at - table_deadline


def pack(blocks: list[str], limit: int) -> list[list[str]]:
    """Blocks of text into pages of at most ``limit`` characters each (one block per page at
    least, clipped if it alone is longer)."""
    pages: list[list[str]] = [[]]
    size = 0
    for block in blocks:
        block = clip(block, limit)
        if pages[-1] and size + len(block) + 1 > limit:
            pages.append([])
            size = 0
        pages[-1].append(block)
        size += len(block) + 1
    return pages


def lobby_line(g: GameRow, title: str) -> str:
    """``/mygames``: a lobby the user sits at, with a link to its message."""
    url = (f"https://discord.com/channels/{g.guild_id}/{g.channel_id}/{g.lobby_message_id}"
           if g.guild_id and g.channel_id and g.lobby_message_id else None)
    seated = f"{len(g.seats)} seated, waiting for the host to start"
    return " — ".join(x for x in (f"• {title}", seated, url) if x)


def others_line(g: GameRow, title: str, deadlines: list[DeadlineRow]) -> tuple[float, int, str]:
    """``/mygames``: a game waiting for others (by name only, as the thread shows it), keyed by
    its soonest deadline."""
    awaited = [seat_label(g, s) for s in sorted(g.opened)]
    who = f"waiting for {', '.join(awaited)}" if awaited else "nothing asked right now"
    soonest = min((d.due_at for d in deadlines), default=None)
    due = f", next deadline <t:{int(soonest)}:R>" if soonest is not None else ""
    return (soonest if soonest is not None else float("inf"), g.id,
            " — ".join(x for x in (f"• {title} — {who}{due}", board_url(g)) if x))


class Controller:
    """Implements :class:`bot.views.Handlers`; game cogs use :meth:`resolve`, :meth:`decision`
    and :meth:`act`."""

    def __init__(self, sessions: Sessions, delivery: DiscordDelivery, forms: Forms) -> None:
        self.sessions = sessions
        self.delivery = delivery
        self.forms = forms
        forms.add_modal(CHOICE_FORM, self.choice_submitted)

    # ----------------------------------------------------------------- lookups

    async def game_for(self, interaction: discord.Interaction, game_id: int) -> GameRow:
        """The game ``game_id`` if this interaction may see it (:func:`visible`); otherwise the
        same refusal as for a number no game has. The guard every handler goes through; a number
        out of the storage's range (a forged command option) is refused before it is looked up."""
        try:
            parse_id(game_id)
        except TableError:
            raise TableError(not_here(interaction, game_id)) from None
        game = await self.sessions.storage.get_game(game_id)
        if game is None or not visible(interaction, game):
            raise TableError(not_here(interaction, game_id))
        return game

    async def resolve(self, interaction: discord.Interaction, game_id: int | None,
                      statuses: tuple[str, ...] = ("active",)) -> GameRow:
        """The game named, or the one played in this thread/channel, or the user's only one.

        Only games visible here are considered (:meth:`game_for`)."""
        storage = self.sessions.storage
        if game_id is not None:
            return await self.game_for(interaction, game_id)
        if interaction.guild_id:
            candidates = await storage.games_near(guild_id=interaction.guild_id,
                                                  channel_id=interaction.channel_id,
                                                  user_id=interaction.user.id, statuses=statuses)
        else:
            candidates = await storage.games_of_user(interaction.user.id, statuses)
        here = [g for g in candidates if interaction.channel_id in (g.thread_id, g.channel_id)]
        if len(here) == 1:
            return here[0]
        mine = [g for g in (here or candidates) if g.seat_of(interaction.user.id) is not None]
        if len(mine) == 1:
            return mine[0]
        if not mine and not here:
            raise TableError("no running game here. Give the `game` option, or see `/games`.")
        ids = ", ".join(f"#{g.id}" for g in (mine or here))
        raise TableError(f"several games match ({ids}); give the `game` option.")

    async def decision(self, interaction: discord.Interaction, game: GameRow | int,
                       ticket: Ticket | None = None, *, game_key: str | None = None,
                       revise: bool = False, stale: str | None = None) -> Decision:
        """The clicking member's open decision (checked against ``ticket`` when the component or
        form carries one; with ``revise``, an answer it may still change), or a refusal that says
        why not. A game id from a component or form is checked by :meth:`game_for`. ``stale`` is
        a game form's own sentence for a ticket that no longer matches (the refusal keeps its
        link to the board)."""
        if isinstance(game, GameRow):
            if not visible(interaction, game):
                raise TableError(not_here(interaction, game.id))
            row = game
        else:
            row = await self.game_for(interaction, game)
        if game_key is not None and row.game_key != game_key:
            raise TableError(f"game #{row.id} is not a {registry.get(game_key).name} game.")
        try:
            return await self.sessions.decision(row, interaction.user.id, ticket, revise=revise)
        except StaleAction as exc:
            if stale is None:
                raise
            raise StaleAction(stale, game_id=exc.game_id, board_url=exc.board_url) from None

    # ----------------------------------------------------------------- lobby

    def lobby_embed(self, game: GameRow, closes_at: float | None = None) -> discord.Embed:
        """The lobby message's card; ``closes_at``: when the open lobby closes if it stays idle."""
        engine = registry.get(game.game_key)
        state = {"lobby": "Open — join with the button below", "active": "Started",
                 "finished": "Finished", "cancelled": "Cancelled"}[game.status]
        if closes_at is not None and game.status == "lobby":
            state += (f"\nCloses by itself <t:{int(closes_at)}:R> unless someone joins, leaves, "
                      "adds a computer player or starts it.")
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

    async def open_lobby_embed(self, game: GameRow) -> discord.Embed:
        """:meth:`lobby_embed` with the time the lobby closes if it stays idle."""
        return self.lobby_embed(game, await self.sessions.lobby_closes_at(game))

    async def expire_lobbies(self) -> float | None:
        """The scheduler's job: close the lobbies idle past their server's expiry and say so on
        their lobby messages (the buttons disabled); when the next one is due."""
        closed, nxt = await self.sessions.expire_lobbies()
        for game in closed:
            if not (game.channel_id and game.lobby_message_id):
                continue
            ttl = (await self.sessions.storage.guild_settings(game.guild_id or 0)).lobby_ttl
            embed = self.lobby_embed(game)
            embed.description = (f"Closed: nobody joined, left or started it for "
                                 f"{duration_words(ttl)}. Open a new table with `/play`.")
            message = self.delivery.client.get_partial_messageable(game.channel_id) \
                .get_partial_message(game.lobby_message_id)
            try:
                await message.edit(embed=embed, view=lobby_view(game.id, closed=True))
            except discord.HTTPException as exc:  # deleted, or no access any more: it is closed anyway
                log.info("could not mark the expired lobby's message (%s)", exc,
                         extra={"game_id": game.id})
        return nxt

    async def lobby_click(self, interaction: discord.Interaction, game_id: int, op: str) -> None:
        async with answering(interaction):
            user = interaction.user
            s = self.sessions
            admin = manages(interaction, await self.game_for(interaction, game_id))
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
            await interaction.response.edit_message(embed=await self.open_lobby_embed(game),
                                                    view=lobby_view(game_id))

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
        await s.check_start(game)
        await interaction.response.defer()
        thread_id = await self.open_thread(interaction, game, engine.name)
        await s.storage.update_game(game_id, thread_id=thread_id)
        update = await s.start(game_id, interaction.user.id, is_admin=admin)
        await interaction.edit_original_response(embed=self.lobby_embed(update.game),
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

    async def decide_click(self, interaction: discord.Interaction, game_id: int) -> None:
        async with answering(interaction):
            d = await self.decision(interaction, game_id)
            if await self.sessions.paused(d.game.id):  # (said now, not after the form is filled)
                raise TableError(PAUSED.format(game_id=d.game.id))
            await self.open_panel(interaction, d)

    async def open_panel(self, interaction: discord.Interaction, d: Decision) -> None:
        """Decide → the game's own form for a free-form prompt; the choice form (a pop-up: what is
        asked, by when, the choices each with what it does) when the choices fit one menu; else
        the choice panel (group menu → paged menu)."""
        prompt = d.prompt
        builder = self.forms.panel_for(d.game.game_key, prompt.free_form)
        if builder is not None:
            payload = await builder(d)
            if on_board(interaction, d.game):  # its answer will redraw this board (``bot.answer``)
                await interaction.response.defer()
                self.delivery.keep_board_answer(d.game, interaction)
            await reply(interaction, **payload)
            return
        if not prompt.choices:
            raise TableError(prompt.text)
        due = due_text(d)
        if fits_modal(d.open):
            about = choice_notes(d.open, long_only=True)  # (options carry 100 characters of it)
            text = "\n".join(x for x in (f"**{prompt.text}**", about, due) if x)
            await interaction.response.send_modal(choice_modal(
                d.game.id, d.open, f"{d.snap.engine.name} #{d.game.id} — your decision", text))
            return
        notes = choice_notes(d.open)  # buttons show only labels: what each does is said here
        await reply(interaction, clip(f"**{prompt.text}**" + (f"\n{notes}" if notes else "")
                                      + (f"\n{due}" if due else "")),
                    view=choice_view(d.game.id, d.open))

    async def choice_submitted(self, interaction: discord.Interaction, game_id: int, ticket: Ticket,
                               values: dict[str, str]) -> None:
        """The choice form sent (:func:`bot.forms.choice_modal`; inside ``answering``). Made from
        the board, its answer is the board itself, redrawn by delivery (``bot.answer``); made from
        the player's DM, a "✅" line. The decision is checked under the game's lock."""
        d = await self.decision(interaction, game_id, ticket)
        raw = values.get("choice", "")
        idx = int(raw) if raw.isdigit() else -1
        if not 0 <= idx < len(d.prompt.choices):
            raise TableError("that option is not on this form; press **Decide** for the current one.")
        choice = d.prompt.choices[idx]
        board = d.game.board_message_id
        here = on_board(interaction, d.game)
        async with Answer(interaction, board=(d.game.id, board) if here and board else None) as answer:
            update = await self.sessions.act(game_id, d.seat, dict(choice.action), user_id=interaction.user.id,
                                             answers=ticket, deliver=here)
            if not here:
                await answer.say(f"✅ {shown_label(choice)}" + (f"\n{STALLED_REPLY}" if update.stalled else ""))
            elif update.stalled:
                await answer.say(STALLED_REPLY)
            else:
                await answer.defer()  # (the board was not drawn by this click: a newer one was)
        if here and any(o.seat == d.seat for o in update.new_prompts):
            # their next decision opened at once (a card pick after choosing to attack): its answer
            # redraws the board through this click too (``DiscordDelivery.keep_board_answer``)
            self.delivery.keep_board_answer(d.game, interaction)
        if not here:
            await self.sessions.deliver(update)

    async def group_chosen(self, interaction: discord.Interaction, game_id: int, ticket: str,
                           value: str) -> None:
        if value.startswith("c:"):  # a choice standing alone in the first menu
            await self.choice_made(interaction, game_id, ticket, value[2:])
            return
        async with answering(interaction):
            d = await self.decision(interaction, game_id, Ticket.parse(ticket))
            raw = value.removeprefix("g:")
            group = int(raw) if raw.isdigit() else 0
            await interaction.response.edit_message(view=choice_view(d.game.id, d.open, group=group))

    async def choice_made(self, interaction: discord.Interaction, game_id: int, ticket: str,
                          value: str) -> None:
        async with answering(interaction):
            answers = Ticket.parse(ticket)
            d = await self.decision(interaction, game_id, answers)
            if value.startswith("page:"):
                _, g, page = value.split(":")
                await interaction.response.edit_message(view=choice_view(
                    d.game.id, d.open, group=None if g == "-1" else int(g), page=int(page)))
                return
            idx = int(value) if value.isdigit() else -1
            if not 0 <= idx < len(d.prompt.choices):
                raise TableError("that option is not on this menu; press **Decide** for the current one.")
            choice = d.prompt.choices[idx]
            async with Answer(interaction) as answer:  # (one response when the move is quick)
                update = await self.sessions.act(game_id, d.seat, dict(choice.action), user_id=interaction.user.id,
                                                 answers=answers, deliver=False)
                text = f"✅ {shown_label(choice)}" + (f"\n{STALLED_REPLY}" if update.stalled else "")
                try:
                    await answer.edit(content=text, view=None, attachments=[], embed=None)
                except discord.HTTPException:
                    await answer.say(text)
            await self.sessions.deliver(update)

    async def act(self, interaction: discord.Interaction, d: Decision, action: dict[str, Any],
                  answers: Ticket | None = None) -> Update:
        """For game cogs: apply a free-form action answering ``d`` (or the given ticket) for the
        clicking player, deferring first. The ticket is checked under the game's lock."""
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)
        # (a click in the player's DM answered by updating its message: a form of theirs this
        # move opens follows it there — after a "thinking" deferral the follow-up would be that
        # response, ephemeral, and gone when the DM is reopened)
        follows = interaction.guild_id is None and interaction.response.type in (
            discord.InteractionResponseType.deferred_message_update, discord.InteractionResponseType.message_update)
        held = FORM_ANSWER.set((d.game.id, interaction, time.monotonic() + FORM_FOLLOWS) if follows else None)
        try:
            update = await self.sessions.act(d.game.id, d.seat, action, user_id=interaction.user.id,
                                             answers=answers or Ticket(d.open.opened))
        finally:
            FORM_ANSWER.reset(held)
        if update.stalled:  # the move is stored: say so, whatever the cog replies next
            with contextlib.suppress(discord.HTTPException):
                await interaction.followup.send(STALLED_REPLY, ephemeral=True)
        return update

    async def rematch_click(self, interaction: discord.Interaction, game_id: int, op: str,
                            table_id: int | None) -> None:
        """The Rematch button of a final result, and a rematch lobby's buttons (``bot.replay``)."""
        await rematch_click(self, interaction, game_id, op, table_id)

    async def hand_click(self, interaction: discord.Interaction, game_id: int) -> None:
        async with answering(interaction):
            await self.show_hand(interaction, await self.game_for(interaction, game_id))

    async def show_hand(self, interaction: discord.Interaction, game: GameRow) -> None:
        """The clicking player's hand, privately (``game`` found by :meth:`game_for` or
        :meth:`resolve`)."""
        snap = await self.sessions.snapshot(game)
        game = snap.game
        if game.state is None:
            raise TableError("this game has not started yet.")
        seat = game.seat_of(interaction.user.id)
        if seat is None:
            raise TableError("you are not playing in this game — only seated players can act.")
        await interaction.response.defer(ephemeral=True, thinking=True)
        text, files = await self.delivery.hand_payload(snap, seat)
        await interaction.followup.send(clip(f"You are {seat_label(game, seat)}.\n{text}"), files=files,
                                        ephemeral=True, allowed_mentions=NO_PINGS)

    # ----------------------------------------------------------------- my games

    async def _waiting_line(self, g: GameRow, title: str, seat: int,
                            deadlines: list[DeadlineRow]) -> tuple[float, int, str]:
        """``/mygames``: a game waiting for the user — their decision by its kind, since when and
        by when — keyed by how long it has waited."""
        own = next((d for d in deadlines if d.seat == seat), None)
        kind = (own.kind if own else "decision").replace("_", " ")
        since = g.updated_at
        due = ""
        if own is not None:
            table_deadline, lead = await self.sessions.deadline_settings(g)
            since = min(self.sessions.now(), opened_at(own, table_deadline, lead))
            due = f", due <t:{int(own.due_at)}:R>"
        line = f"• {title} — your **{kind}**, waiting since <t:{int(since)}:R>{due}"
        return since, g.id, " — ".join(x for x in (line, board_url(g)) if x)

    async def my_games(self, client: discord.Client, user_id: int, page: int = 1) -> str:
        """``/mygames``: every game and lobby the user sits at, in every server. The games
        waiting for them come first, the longest-waiting first; then the others, soonest deadline
        first; then the lobbies. Each says its server, whom it awaits (the user's own decision by
        its kind, anyone else's by name only, as the thread shows it), the deadline as a Discord
        timestamp and a link to the board. Pages of :data:`MY_GAMES_PAGE` characters."""
        storage = self.sessions.storage
        games = await storage.games_of_user(user_id, ("active", "lobby"))
        mine: list[tuple[float, int, str]] = []
        others: list[tuple[float, int, str]] = []
        lobbies: list[str] = []
        for g in games:
            title = f"**{get_engine_name(g)} #{g.id}** · {server_name(client, g)}"
            if g.status == "lobby":
                lobbies.append(lobby_line(g, title))
                continue
            deadlines = await storage.deadlines(g.id)
            seat = waits_for(g, user_id)
            if seat is not None:
                mine.append(await self._waiting_line(g, title, seat, deadlines))
            else:
                others.append(others_line(g, title, deadlines))
        if not games:
            return "You are not in any game or lobby right now. Open one with `/play` in a server."
        blocks: list[str] = []
        for header, lines in ((f"**Your move in {len(mine)} {'game' if len(mine) == 1 else 'games'}** "
                               "(longest wait first)", [t for *_, t in sorted(mine)]),
                              ("**Waiting for others**", [t for *_, t in sorted(others)]),
                              ("**Lobbies you sit at**", lobbies)):
            for i, line in enumerate(lines):
                blocks.append(f"{header}\n{line}" if i == 0 else line)
        pages = pack(blocks, MY_GAMES_PAGE)
        if page > len(pages):
            return (f"There {'is' if len(pages) == 1 else 'are'} only {len(pages)} "
                    f"{'page' if len(pages) == 1 else 'pages'}; try `/mygames page:{len(pages)}`.")
        text = "\n".join(pages[page - 1])
        later = sum(len(p) for p in pages[page:])
        if later:
            text += f"\n…and {later} more — `/mygames page:{page + 1}` (page {page} of {len(pages)})."
        elif len(pages) > 1:
            text += f"\n(page {page} of {len(pages)})"
        return text
