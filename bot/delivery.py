"""Delivery to Discord: the living board message, log lines, DMs, reminders.

Per update: the public board image is rendered off the event loop and the one board message is
edited in place (sent once); public events become one short log message, which mentions only the
players who now have a decision to make; players whose private view changed get a DM (hand text
and image, their private events, a Decide button when they have a secret choice). A failed DM is
remembered and announced once per game in the thread; "My hand" and ``/game hand`` always work.

**Archived threads.** Discord archives a quiet thread after at most a week, while a decision may
take two. Sending into an archived (unlocked) thread reopens it, but editing a message there fails
("Thread is archived"), so everything Herald posts or edits in a game's home goes through
:meth:`DiscordDelivery.in_home`: an archived thread is unarchived first, a refusal because it was
archived or locked meanwhile reopens it and tries once more, and a thread Herald cannot reopen (a
moderator locked it) is left for its parent channel, where the game continues and the players are
told once.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import discord

from .forms import Forms
from .gameui import get_ui
from .render import to_png
from .session import Decision, OpenPrompt, Snapshot, Update, format_duration
from .storage import DeadlineRow, GameRow, Storage
from .text import NO_PINGS, clip, humanise, pings, seat_label
from .views import board_view

log = logging.getLogger("herald.delivery")

Cpu = Callable[..., Awaitable[Any]]
T = TypeVar("T")

THREAD_ARCHIVED = 50083
"""Discord's error code for an operation an archived thread refuses (editing a message in it)."""
THREAD_LOCKED = 160005
"""Discord's error code for posting in a locked thread without Manage Threads."""
STALLED_LINE = "⏳ Everything above is stored; the computer players will answer shortly."


def thread_closed(exc: discord.HTTPException) -> bool:
    """Discord refused because the thread is archived or locked (not for lack of a permission)."""
    return exc.code in (THREAD_ARCHIVED, THREAD_LOCKED)


def ask_line(game: GameRow, asks: list[OpenPrompt]) -> tuple[str, list[int]]:
    """'➡️ @Ann vote — due in 2 hours; @Bob …' and whom it may ping."""
    ids: list[int] = []
    parts: list[str] = []
    for o in asks:
        uid = game.seats[o.seat].user_id
        if uid is None:
            continue
        ids.append(uid)
        due = f" — due <t:{int(o.deadline.due_at)}:R>" if o.deadline else ""
        parts.append(f"<@{uid}> {o.prompt.kind.replace('_', ' ')}{due}")
    return ("➡️ " + "; ".join(dict.fromkeys(parts)) if parts else ""), ids


class DiscordDelivery:
    """Sends what an :class:`Update` carries; reads nothing back but its own DM bookkeeping."""

    per_action = False

    def __init__(self, client: discord.Client, storage: Storage, forms: Forms, *, cpu: Cpu,
                 now: Callable[[], float]) -> None:
        self.client = client
        self.storage = storage
        self.forms = forms
        self.cpu = cpu
        self.now = now
        self._leaving: dict[int, asyncio.Lock] = {}

    async def channel(self, game: GameRow, cid: int | None = None) -> discord.abc.Messageable | None:
        """The game's home (its thread, else its channel), or the channel ``cid``."""
        cid = cid or game.home_channel_id
        if cid is None:
            return None
        # (an archived thread is not in discord.py's cache: fetching it tells that it is archived)
        ch = self.client.get_channel(cid)
        if ch is None:
            try:
                ch = await self.client.fetch_channel(cid)
            except discord.HTTPException:
                log.warning("channel %s is gone", cid, extra={"game_id": game.id})
                return None
        return ch  # type: ignore[return-value]

    # ------------------------------------------------------------- the game's home

    async def home(self, game: GameRow) -> Any | None:
        """The game's channel, ready to post and edit in: an archived thread is reopened first
        (Discord refuses edits in it); one Herald cannot reopen is left for its parent channel."""
        channel = await self.channel(game)
        if isinstance(channel, discord.Thread) and channel.archived and not await self._reopen(game, channel):
            return await self._leave_thread(game, channel)
        return channel

    async def in_home(self, game: GameRow, do: Callable[[Any], Awaitable[T]]) -> T | None:
        """``do(channel)`` in the game's home (:meth:`home`); None if the game has none.

        Should Discord refuse because the thread was archived or locked after Herald looked, the
        thread is reopened and ``do`` tried once more; if it cannot be reopened, ``do`` runs in
        the parent channel, where the game continues. Other failures (``Forbidden``…) propagate."""
        channel = await self.home(game)
        if channel is None:
            return None
        try:
            return await do(channel)
        except discord.HTTPException as exc:
            if not isinstance(channel, discord.Thread) or not thread_closed(exc):
                raise
        if await self._reopen(game, channel):
            try:
                return await do(channel)
            except discord.HTTPException as exc:
                if not thread_closed(exc):
                    raise
        parent = await self._leave_thread(game, channel)
        return None if parent is None else await do(parent)

    async def _reopen(self, game: GameRow, thread: discord.Thread) -> bool:
        """Unarchive the game's thread (Herald opened it, so needs no extra permission unless a
        moderator locked it: then only Manage Threads may). False where Discord refuses it; any
        other failure (Discord unavailable) propagates: the game stays in its thread."""
        try:
            await thread.edit(archived=False)
        except discord.HTTPException as exc:
            if not (isinstance(exc, discord.Forbidden) or thread_closed(exc)):
                raise
            log.warning("cannot reopen the game's thread (HTTP %s, code %s)", exc.status, exc.code,
                        extra={"game_id": game.id, "guild_id": game.guild_id})
            return False
        log.info("reopened the game's archived thread", extra={"game_id": game.id, "guild_id": game.guild_id})
        return True

    async def _leave_thread(self, game: GameRow, thread: discord.Thread) -> Any | None:
        """The thread stays closed to Herald: the game moves to the thread's parent channel, with
        a fresh board there, and its players are told once (moving it is what makes it once)."""
        parent_id = game.channel_id or thread.parent_id
        if parent_id is None or parent_id == thread.id:
            return None
        async with self._leaving.setdefault(game.id, asyncio.Lock()):
            stored = await self.storage.get_game(game.id)
            moved = stored is not None and stored.thread_id != thread.id
            if moved and stored is not None:  # another delivery of this game moved it already
                game.thread_id, game.board_message_id = stored.thread_id, stored.board_message_id
            else:
                await self.storage.update_game(game.id, thread_id=None, board_message_id=None)
                game.thread_id, game.board_message_id = None, None
            parent = await self.channel(game, parent_id)
            if parent is None or moved:
                return parent
            log.warning("the game's thread is closed to Herald; the game moves to its channel",
                        extra={"game_id": game.id, "guild_id": game.guild_id})
            players = sorted({s.user_id for s in game.seats if s.user_id is not None and not s.is_bot})
            try:
                await parent.send(
                    " ".join(f"<@{uid}>" for uid in players) + f" I can't post in the thread of game "
                    f"#{game.id} any more (it was archived or locked), so the game continues here.",
                    allowed_mentions=pings(players))
            except discord.HTTPException:
                log.warning("cannot tell the players where the game went", extra={"game_id": game.id})
            return parent

    def _can_attach(self, channel: Any) -> bool:
        guild = getattr(channel, "guild", None)
        if guild is None or guild.me is None:
            return True
        return bool(channel.permissions_for(guild.me).attach_files)

    # --------------------------------------------------------------- board

    async def board_payload(self, snap: Snapshot, events: list[Any], *, with_image: bool
                            ) -> tuple[discord.Embed, list[tuple[str, bytes]], discord.ui.View | None]:
        """The board's embed, its images as (file name, bytes) — a fresh ``discord.File`` is made
        for each attempt to post, a used one being spent — and its buttons."""
        game = snap.game
        ui = get_ui(game.game_key)
        public = snap.view(None)
        public_events = [e for e in events if e.to is None]
        embed = discord.Embed(title=f"{snap.engine.name} — game #{game.id}", colour=0xF2BA48)
        status = ui.status_text(public)
        lines = [status] if status else []
        if game.status == "finished" and game.result:
            r = game.result
            winners = ", ".join(seat_label(game, w) for w in r.get("winners", [])) or "nobody"
            lines.append(f"🏁 **Game over** — winner: {winners}. {r.get('reason', '')}")
        elif snap.open:
            lines.append("Waiting for: " + snap.waiting_text())
        embed.description = clip("\n".join(lines), 4000)
        embed.add_field(name="Players", value=clip("\n".join(
            seat_label(game, s.seat) + (" 🤖" if s.is_bot else "") for s in game.seats), 1000))
        files: list[tuple[str, bytes]] = []
        if with_image:
            image = await self.cpu(ui.board_image, public, public_events)
            files.append(("board.png", await self.cpu(to_png, image)))
            embed.set_image(url="attachment://board.png")
            files += await self.cpu(ui.attachments, public, public_events)
        else:
            embed.set_footer(text="I need the Attach Files permission here to show the board image.")
        view = board_view(game.id, game.version, active=game.status == "active",
                          has_prompts=any(not game.seats[o.seat].is_bot for o in snap.open))
        return embed, files, view

    async def update_board(self, snap: Snapshot, events: list[Any]) -> discord.Message | None:
        """Edit the game's one board message (post it if it has none, or it was deleted)."""
        game = snap.game
        drawn: dict[bool, tuple[discord.Embed, list[tuple[str, bytes]], discord.ui.View | None]] = {}

        async def post(channel: Any) -> discord.Message:
            attach = self._can_attach(channel)
            if attach not in drawn:  # drawn once, unless the game moves to a channel without files
                drawn[attach] = await self.board_payload(snap, events, with_image=attach)
            embed, images, view = drawn[attach]
            files = [discord.File(io.BytesIO(data), filename=name) for name, data in images]
            if game.board_message_id:
                msg = channel.get_partial_message(game.board_message_id)
                try:
                    return await msg.edit(attachments=files, embed=embed, view=view,  # type: ignore[no-any-return]
                                          allowed_mentions=NO_PINGS)
                except discord.NotFound:
                    files = [discord.File(io.BytesIO(data), filename=name) for name, data in images]
            kwargs: dict[str, Any] = {"embed": embed, "allowed_mentions": NO_PINGS}
            if view is not None:
                kwargs["view"] = view
            sent: discord.Message = await channel.send(files=files, **kwargs)
            await self.storage.update_game(game.id, board_message_id=sent.id)
            game.board_message_id = sent.id
            return sent

        try:
            return await self.in_home(game, post)
        except discord.Forbidden:
            log.warning("cannot post the board", extra={"game_id": game.id, "guild_id": game.guild_id})
            return None

    # ------------------------------------------------------------- updates

    async def deliver(self, update: Update) -> None:
        game = update.game
        try:
            await self._deliver(update)
        except Exception:
            log.exception("delivery failed", extra={"game_id": game.id, "guild_id": game.guild_id})

    async def _deliver(self, update: Update) -> None:
        game = update.game
        public = [humanise(e.text, game) for e in update.events if e.to is None]
        # the player who just acted is looking at the result already: no ping for them
        acted = {seat for seat, _, origin in update.actions if origin == "player"}
        new_for_humans = [o for o in update.new_prompts
                          if o.seat < len(game.seats) and not game.seats[o.seat].is_bot
                          and o.seat not in acted]
        board = await self.update_board(update.snap, update.events)
        # a long update (a reveal) is told whole, in up to three messages
        text_lines = [f"• {t}" for t in public]
        while len(text_lines) > 15 and sum(len(t) + 1 for t in text_lines) > 5000:
            text_lines.pop(0)
        if len(text_lines) < len(public):
            text_lines.insert(0, f"… {len(public) - len(text_lines)} earlier lines in `/game log`")
        if update.stalled and game.status == "active":
            text_lines.append(STALLED_LINE)
        ping_ids: list[int] = []
        if game.status == "active" and new_for_humans:
            line, ping_ids = ask_line(game, new_for_humans)
            if line:
                text_lines.append(line)
        if board is not None and text_lines:
            text_lines.append(f"[board]({board.jump_url})")
        chunks: list[str] = []
        for line in text_lines:
            if chunks and len(chunks[-1]) + len(line) < 1900:
                chunks[-1] += "\n" + line
            else:
                chunks.append(line)

        async def send_log(channel: Any) -> None:
            for i, chunk in enumerate(chunks):
                last = i == len(chunks) - 1
                await channel.send(clip(chunk), allowed_mentions=pings(ping_ids) if last else NO_PINGS)

        if chunks:
            try:
                await self.in_home(game, send_log)
            except discord.Forbidden:
                log.warning("cannot post the log line", extra={"game_id": game.id})
        await self.push_private(update)
        if update.result is not None:
            await self.announce_result(game)

    async def announce_result(self, game: GameRow) -> None:
        r = game.result or {}
        scores = r.get("scores", {})
        lines = [f"{seat_label(game, int(k))}: {v}" for k, v in sorted(scores.items(), key=lambda kv: -float(kv[1]))]
        winners = ", ".join(seat_label(game, w) for w in r.get("winners", [])) or "nobody"
        embed = discord.Embed(title="🏁 Final result", colour=0x60C478,
                              description=clip(f"Winner: {winners}\n{r.get('reason', '')}\n\n" + "\n".join(lines), 4000))

        async def send(channel: Any) -> None:
            await channel.send(embed=embed, allowed_mentions=NO_PINGS)

        try:
            await self.in_home(game, send)
        except discord.Forbidden:
            pass

    # ------------------------------------------------------------- private

    async def push_private(self, update: Update) -> None:
        snap = update.snap
        game = snap.game
        if game.state is None:
            return
        new_seats = {o.seat for o in update.new_prompts}
        targets: set[int] = set(update.changed_private)
        for e in update.events:
            if e.to is not None:
                targets |= set(e.to)
        targets |= {o.seat for o in update.new_prompts if o.prompt.secret}
        for seat in sorted(targets):
            if seat >= len(game.seats) or game.seats[seat].is_bot or game.seats[seat].user_id is None:
                continue
            private_events = [humanise(e.text, game) for e in update.events
                              if e.to is not None and seat in e.to]
            mine = snap.prompt_of(seat)
            sent = await self.dm_seat(snap, seat, private_events, mine if seat in new_seats else None)
            builder = self.forms.panel_for(game.game_key, mine.prompt.free_form) \
                if mine is not None and mine.prompt.secret else None
            if sent and builder is not None and mine is not None:
                await self.dm_form(Decision(snap, seat, mine), builder)

    async def hand_payload(self, snap: Snapshot, seat: int) -> tuple[str, list[discord.File]]:
        ui = get_ui(snap.game.game_key)
        view = snap.view(seat)
        text = ui.hand_text(view)
        files: list[discord.File] = []
        image = await self.cpu(ui.hand_image, view)
        if image is not None:
            files.append(discord.File(io.BytesIO(await self.cpu(to_png, image)), filename="hand.png"))
        return text, files

    async def _user(self, user_id: int) -> discord.User:
        return self.client.get_user(user_id) or await self.client.fetch_user(user_id)

    async def dm_seat(self, snap: Snapshot, seat: int, private_events: list[str],
                      asked: OpenPrompt | None) -> bool:
        game = snap.game
        uid = game.seats[seat].user_id
        assert uid is not None
        known = await self.storage.dm_reachable(uid)
        if known is False:
            return False
        text, files = await self.hand_payload(snap, seat)
        parts = [f"**{snap.engine.name} — game #{game.id}** (you are {seat_label(game, seat)})"]
        parts += [f"• {t}" for t in private_events]
        parts.append(text)
        view = None
        if asked is not None and game.status == "active":
            parts.append(f"➡️ **Your decision:** {asked.prompt.text}")
            view = board_view(game.id, game.version, active=True, has_prompts=True)
        try:
            user = await self._user(uid)
            kwargs: dict[str, Any] = {"files": files, "allowed_mentions": NO_PINGS}
            if view is not None:
                kwargs["view"] = view
            await user.send(clip("\n".join(parts)), **kwargs)
            if known is None:
                await self.storage.set_dm_reachable(uid, True, self.now())
            return True
        except (discord.Forbidden, discord.HTTPException) as exc:
            if isinstance(exc, discord.Forbidden) or getattr(exc, "code", 0) == 50007:
                await self.storage.set_dm_reachable(uid, False, self.now())
                await self.dm_failed_notice(game, uid)
            else:
                log.warning("DM failed: %s", exc, extra={"game_id": game.id})
            return False

    async def dm_form(self, d: Decision, builder: Any) -> None:
        uid = d.game.seats[d.seat].user_id
        assert uid is not None
        try:
            kwargs = await builder(d)
            user = await self._user(uid)
            await user.send(allowed_mentions=NO_PINGS, **kwargs)
        except discord.HTTPException as exc:
            log.warning("DM form failed: %s", exc, extra={"game_id": d.game.id})

    async def dm_failed_notice(self, game: GameRow, user_id: int) -> None:
        if not await self.storage.note_dm_notice(game.id, user_id):
            return

        async def send(channel: Any) -> None:
            await channel.send(
                f"<@{user_id}> I can't send you direct messages (they seem closed for this server). "
                "Nothing is lost: use the **My hand** button or `/game hand` to see your cards, "
                "and **Decide** when it is your move.", allowed_mentions=pings([user_id]))

        try:
            await self.in_home(game, send)
        except discord.Forbidden:
            pass

    async def remind(self, game: GameRow, deadline: DeadlineRow) -> None:
        if deadline.seat >= len(game.seats):
            return
        seat = game.seats[deadline.seat]
        if seat.is_bot or seat.user_id is None:
            return
        left = max(0, deadline.due_at - self.now())
        text = (f"⏳ <@{seat.user_id}> reminder: your **{deadline.kind.replace('_', ' ')}** in game "
                f"#{game.id} is due <t:{int(deadline.due_at)}:R> (about {format_duration(round(left / 60) * 60 or 60)} left).")
        uid = seat.user_id

        async def send(channel: Any) -> None:
            await channel.send(text, allowed_mentions=pings([uid]))

        try:
            await self.in_home(game, send)
        except discord.Forbidden:
            pass
        if await self.storage.dm_reachable(seat.user_id) is not False:
            try:
                user = await self._user(seat.user_id)
                await user.send(text, allowed_mentions=NO_PINGS)
            except discord.HTTPException:
                await self.storage.set_dm_reachable(seat.user_id, False, self.now())
                await self.dm_failed_notice(game, seat.user_id)
