"""Delivery to Discord: the living board message, log lines, DMs, reminders.

Per update: the public board image is rendered off the event loop and the one board message is
edited in place (sent once), carrying the latest public lines and the files of the update's events
(a flick's animation); the thread gets the lines a round or a turn at a time (``bot.threadlog``),
mentioning only the players who now have a decision to make and hear of it by no DM. Private
news is quiet (:meth:`DiscordDelivery.push_private`): a new DM only when a player must decide (one
per decision) or something happened to them that they did not cause; what their own click changed
costs no DM request when its answer showed it them. A refused DM is announced once per game in the thread and tried again in each
new game and after a back-off; "My hand" and ``/game hand`` always work. The end of a game
mentions every human player once and DMs each their standing.

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
import hashlib
import io
import json
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

import discord

from rules import registry
from rules.engine import ECHO, InvalidOptions
from rules.text import count, listing, ordinal

from .answer import BOARD_ANSWER, form_answer
from .away import away_until, quiet_end
from .forms import Forms
from .gameui import GameUI, get_ui
from .render import pool as render_pool
from .render.pool import MAX_SHOTS as MAX_SHOTS  # (where a game's event files are drawn)
from .render.pool import RenderPool
from .render.pool import draw_event_files as draw_event_files
from .session import Decision, OpenPrompt, Snapshot, Update
from .storage import DeadlineRow, GameRow, Storage, StorageError
from .text import NO_PINGS, board_url, clip, humanise, pings, seat_label
from .threadlog import BOARD_LINES, MESSAGE_CHARS, RESTARTED, Waiting, chapter_of
from .views import board_view, rematch_view, with_player_link

log = logging.getLogger("herald.delivery")

Cpu = Callable[..., Awaitable[Any]]
T = TypeVar("T")

THREAD_ARCHIVED = 50083
"""Discord's error code for an operation an archived thread refuses (editing a message in it)."""
THREAD_LOCKED = 160005
"""Discord's error code for posting in a locked thread without Manage Threads."""
STALLED_LINE = "⏳ Everything above is stored; the computer players will answer shortly."
CANNOT_DM = 50007
"""Discord's error code for a DM the user does not accept."""
DM_RETRY_FIRST = 3600.0
"""Seconds before a refused user is tried again within the same game; doubled at each refusal…"""
DM_RETRY_MAX = 86400.0
"""…up to a day. A new game always tries once more."""

Files = list[tuple[str, bytes, str]]
"""Files to attach as (file name, bytes, alt text): a fresh ``discord.File`` is made for each
attempt to post, a used one being spent."""


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


def result_text(game: GameRow) -> str:
    """The winners, the reason and the scores (winner first, whole numbers without ".0")."""
    r = game.result or {}
    scores = {int(k): v for k, v in (r.get("scores") or {}).items()}
    winners = listing([seat_label(game, w) for w in r.get("winners", [])]) or "nobody"
    lines = [f"Winner: {winners}", str(r.get("reason") or "")]
    if scores:
        order = sorted(scores, key=lambda k: (-float(scores[k]), k))
        lines += [""] + [f"{seat_label(game, k)}: {count(scores[k], 'point')}" for k in order]
    return "\n".join(lines).strip()


def standing(game: GameRow, seat: int) -> str:
    """One seat's final standing, said to its player: "You finished 2nd of 4 with 12 points."."""
    r = game.result or {}
    scores = {int(k): float(v) for k, v in (r.get("scores") or {}).items()}
    winners = [int(w) for w in r.get("winners", [])]
    points = f" with {count(scores[seat], 'point')}" if seat in scores else ""
    if seat in winners:
        said = (f"You won{points}!" if len(winners) == 1
                else f"You share the win with {listing([seat_label(game, w) for w in winners if w != seat])}{points}.")
    elif scores and seat in scores:
        rank = 1 + sum(1 for v in scores.values() if v > scores[seat])
        said = f"You finished {ordinal(rank)} of {len(scores)}{points}."
    else:
        said = ""
    win = listing([seat_label(game, w) for w in winners])
    tail = f" Winner: {win}." if win and seat not in winners else ""
    reason = str(r.get("reason") or "").strip()
    if reason:
        reason = reason[0].upper() + reason[1:] + ("" if reason.endswith((".", "!", "?")) else ".")
    return " ".join(x for x in (said, tail.strip(), reason) if x)


def chunk_lines(lines: Sequence[str], limit: int = 1900) -> list[str]:
    """Lines joined into as few messages as Discord's length limit allows (a longer line is
    clipped when it is sent)."""
    chunks: list[str] = []
    for line in lines:
        if chunks and len(chunks[-1]) + len(line) < limit:
            chunks[-1] += "\n" + line
        else:
            chunks.append(line)
    return chunks


KEPT_ANSWER = 14 * 60.0
"""Seconds a board answer is kept (:meth:`DiscordDelivery.keep_board_answer`): Discord lets an
interaction's answer be edited for 15 minutes."""
MAX_FILES = 10
"""Files Discord takes in one message."""

Shown = tuple[str, bytes, tuple[str, ...]]
"""What a hand DM shows: its text, a digest of its files and its buttons."""


def shows(text: str, files: Sequence[discord.File], view: discord.ui.View | None) -> Shown:
    """What a message of this text, these files and these buttons shows (:data:`Shown`)."""
    digest = hashlib.blake2b(digest_size=16)
    for f in files:
        fp: Any = f.fp
        digest.update(str(f.filename).encode() + b"\0" + str(f.description).encode() + b"\0")
        digest.update(fp.getvalue() if hasattr(fp, "getvalue") else b"")
    # (buttons by their labels: the version a Decide button carries, or the signature of a page
    # link, changes with every update without changing what the button does)
    buttons = tuple(str(getattr(getattr(item, "item", item), "label", None))
                    for item in (view.children if view is not None else []))
    return text, digest.digest(), buttons


def shown_on_board(snap: Snapshot) -> tuple[dict[str, Any], str | None]:
    """The public view the channel's board is drawn from, and — in a sealed step
    (:meth:`bot.gameui.GameUI.sealed`) — the line that stands for "Waiting for: …": when every
    answer is due, not whose are still missing."""
    public = snap.view(None)
    sealed = get_ui(snap.game.game_key).sealed(public) if snap.game.status == "active" else None
    if sealed is None:
        return public, None
    dues = [o.deadline.due_at for o in snap.open if o.deadline is not None]
    return sealed, (f"⏳ Every answer is due <t:{int(min(dues))}:R>." if dues
                    else "⏳ Every player answers in secret.")


def sealed_key(snap: Snapshot) -> str | None:
    """What a sealed board (:func:`shown_on_board`) is drawn from, its latest lines aside; None
    when the board is not sealed. Two updates with the same key draw the same board, so the second
    is not drawn: an answer in a sealed step leaves the board as it was (its line reaches the
    board with the next drawing, and the thread as ever)."""
    public, line = shown_on_board(snap)
    if line is None:
        return None
    game = snap.game
    asks = any(o.seat < len(game.seats) and not game.seats[o.seat].is_bot for o in snap.open)
    return json.dumps([public, line, [(s.name, s.is_bot) for s in game.seats], game.board_message_id, asks],
                      sort_keys=True, default=str)


def on_board(shots: dict[int, Files]) -> Files:
    """An update's event files as the board message carries them, in the order of their events;
    several of one name (two flicks) numbered apart."""
    files = [f for i in sorted(shots) for f in shots[i]]
    names = [name for name, _, _ in files]
    out: Files = []
    for k, (name, data, alt) in enumerate(files):
        if names.count(name) > 1:
            stem, dot, ext = name.rpartition(".")
            name = f"{stem}-{names[:k + 1].count(name)}{dot}{ext}" if dot else f"{name}-{k + 1}"
        out.append((name, data, alt))
    return out


def waits_for(game: GameRow, user_id: int) -> int | None:
    """The user's seat whose decision the game awaits (None: it awaits someone else, or nobody).
    ``GameRow.opened`` holds exactly the seats with an open prompt, so no engine work is needed."""
    for s in game.seats:
        if s.user_id == user_id and not s.is_bot and s.seat in game.opened:
            return s.seat
    return None


def get_engine_name(game: GameRow) -> str:
    try:
        return registry.get(game.game_key).name
    except InvalidOptions:  # a game this Herald no longer has
        return game.game_key.replace("_", " ").title()


def thread_batch(waiting: Waiting, lines: list[str], *, due: bool, version: int,
                 since: int) -> tuple[list[str], int, int] | None:
    """Which lines the thread is told now (:mod:`bot.threadlog`), and ``waiting`` brought up to
    date: (the lines, how many of them were waiting before this update's, the version the thread
    is then told up to), or None when nothing goes yet. When ``due``, every waiting line and
    this update's go; when the waiting lines fill a message, they go and this update's wait in
    their place; else this update's lines wait too."""
    backlog = list(waiting.lines)
    if due:
        waiting.lines = []
        return [*backlog, *lines], len(backlog), version
    if backlog and waiting.chars() + sum(len(t) + 1 for t in lines) > MESSAGE_CHARS:
        waiting.lines = list(lines)
        return backlog, len(backlog), since
    waiting.lines = [*backlog, *lines]
    return None


BOX_CHARS = 4000
"""The most a thread message's box (an embed) holds; Discord allows 4,096."""
MESSAGE_TOTAL = 5800
"""The most the boxes of one thread message hold together; Discord allows 6,000 with its text."""

Post = tuple[str, Files, list[str]]
"""One thread message: its text (pings work only there), its files, and its boxes (embeds)."""


def thread_messages(posting: list[str], offset: int, shots: dict[int, Files], tail: list[str],
                    board_url: str | None) -> list[Post]:
    """The thread messages that tell ``posting``: a long stretch (a reveal) told whole in one
    message, the oldest lines then pointed to ``/game log``; a line whose event has files
    (``shots``, by index among this update's lines, after the ``offset`` lines that were
    waiting) starts a message carrying them; ``tail`` (the stall notice, whom the game asks) ends
    the last message, with the link to the board — never a message of its own.

    A message's lines are its text when they fit one message (1,900 characters); a longer stretch
    (a Cult Wars turn revealed) goes in boxes under it — up to 5,800 characters in one message,
    where the text would take three — and the text is then the ``tail``: whom the game asks, with
    their pings, which work only in a message's text."""
    skip = 0
    while len(posting) - skip > 15 and sum(len(t) + 1 for t in posting[skip:]) > 5000:
        skip += 1
    posts: list[tuple[list[str], Files]] = [([], [])]
    if skip:
        posts[0][0].append(f"… {skip} earlier lines in `/game log`")
    for i, line in enumerate(posting[skip:], start=skip):
        if i - offset in shots:  # (the files belong to this update's lines, after the backlog)
            posts.append(([line], shots[i - offset]))
        else:
            posts[-1][0].append(line)
    messages: list[Post] = []
    for k, (text_lines, files) in enumerate(posts):
        ends = tail if k == len(posts) - 1 else []
        whole = [*text_lines, *ends]
        boxes = chunk_lines(text_lines, BOX_CHARS)
        if (len(chunk_lines(whole)) > 1 and sum(len(b) for b in boxes) <= MESSAGE_TOTAL
                and len("\n".join(ends)) <= 1900):
            messages.append(("\n".join(ends), files, boxes))
        else:
            messages += [(chunk, files if n == 0 else [], []) for n, chunk in enumerate(chunk_lines(whole))]
    if board_url is not None and messages:
        text, files, boxes = messages[-1]
        messages[-1] = ("\n".join(x for x in (text, f"[board]({board_url})") if x), files, boxes)
    return messages


@dataclass(frozen=True)
class PrivateNote:
    """What one seat hears of an update privately (decided by :func:`private_plan`):

    * ``ask``: a new DM with their hand and the decision asked of them;
    * ``form``: a new DM that is the game's own form for that (secret) decision;
    * ``news``: a new DM with their hand and what happened to them that they did not cause;
    * ``edit``: their hand DM edited in place (a new one if they have none);
    * ``quiet``: their hand DM edited in place only — they take reminders only, or it is their
      quiet hours, so a decision or news waits for its reminder (``bot.away``)."""

    seat: int
    how: Literal["ask", "form", "news", "edit", "quiet"]
    lines: list[str]
    """The lines for their eyes that the message carries."""
    asked: OpenPrompt | None = None


def private_targets(update: Update) -> set[int]:
    """The seats an update may have private news for: their view changed, a line for their eyes,
    or a decision opened for them — every decision that opens reaches its player, in turn or out
    of it (a challenge window, a flee or intercept, a defence): who is asked is the engine's
    prompts, which a reaction window opens for every eligible seat whatever it holds, so a DM
    tells nothing more."""
    targets: set[int] = set(update.changed_private)
    for e in update.events:
        if e.to is not None:
            targets |= set(e.to)
    return targets | {o.seat for o in update.new_prompts}


@dataclass(frozen=True)
class _Movers:
    """Who moved in an update, as :func:`private_plan` reads it."""

    clickers: set[int]
    """Seats whose own clicks are in the update."""
    going_on: int | None
    """The seat whose own clicks are the whole of the update, still in the turn or round it was
    in: its next decision goes on from what it is doing."""
    new_seats: set[int]
    """Seats a decision opened for."""


def private_plan(update: Update, *, before: Any, chapter: Any, echoes: set[str],
                 has_form: dict[int, bool], hushed: set[int]) -> list[PrivateNote]:
    """Who hears what of ``update`` privately, in the quietest useful way (sent by
    :meth:`DiscordDelivery.push_private`, which documents the rules). ``before``/``chapter``: the
    game's chapter at the last update delivered and now; ``echoes``: the kinds of private lines
    the answer to a click shows its player already; ``has_form``: the seats whose open secret
    decision is made in the game's own form; ``hushed``: the users taking no new DM now."""
    game = update.snap.game
    movers = {(seat, origin) for seat, _, origin in update.actions}
    clickers = {seat for seat, origin in movers if origin == "player"}
    going_on = next(iter(clickers)) if (len(movers) == 1 and clickers and before is not None
                                        and before == chapter) else None
    who = _Movers(clickers, going_on, {o.seat for o in update.new_prompts})
    notes: list[PrivateNote] = []
    for seat in sorted(private_targets(update)):
        if seat >= len(game.seats) or game.seats[seat].is_bot or game.seats[seat].user_id is None:
            continue
        note = _seat_note(update, seat, who, echoes, has_form.get(seat, False),
                          game.seats[seat].user_id in hushed)
        if note is not None:
            notes.append(note)
    return notes


def _seat_note(update: Update, seat: int, who: _Movers, echoes: set[str], has_form: bool,
               hushed: bool) -> PrivateNote | None:
    """One human seat's part of :func:`private_plan` (None: nothing to send)."""
    snap = update.snap
    game = snap.game
    mine = [(i, humanise(e.text, game)) for i, e in enumerate(update.events)
            if e.to is not None and seat in e.to
            and not (update.clicked_by.get(i) == seat and e.kind in echoes)]
    news = [t for i, t in mine if update.clicked_by.get(i) != seat]
    told = [t for _, t in mine]
    open_ = snap.prompt_of(seat)
    asked = open_ if open_ is not None and seat in who.new_seats and game.status == "active" else None
    form = asked is not None and asked.prompt.secret and has_form
    if seat in who.clickers and not mine and (asked is None or (
            seat == who.going_on and who.new_seats == {seat} and not form)):
        return None  # (their click's answer showed it)
    if hushed and (asked is not None or news):
        return PrivateNote(seat, "quiet", told)
    if asked is not None:
        return PrivateNote(seat, "form" if form else "ask", told, asked)
    if news and game.status == "active":
        return PrivateNote(seat, "news", told)
    return PrivateNote(seat, "edit", told)


class DiscordDelivery:
    """Sends what an :class:`Update` carries; reads nothing back but its own DM bookkeeping."""

    per_action = False

    def __init__(self, client: discord.Client, storage: Storage, forms: Forms, *, cpu: Cpu,
                 now: Callable[[], float], render: RenderPool | None = None) -> None:
        self.client = client
        self.storage = storage
        self.forms = forms
        self.cpu = cpu
        self.render = render or RenderPool(0, cpu)
        """Where images are drawn: worker processes (``HERALD_RENDER_PROCESSES``), else ``cpu``."""
        self.now = now
        self._leaving: dict[int, asyncio.Lock] = {}
        self._hands: dict[tuple[int, int], tuple[int, int]] = {}
        """(game, user) → (DM channel, message) of the user's hand DM, edited on quiet changes."""
        self._hand_shown: dict[tuple[int, int], Shown] = {}
        """(game, user) → what their hand DM shows (:func:`shows`): an edit that would change
        nothing is not made, and an unchanged image is not uploaded again."""
        self._hand_pngs: dict[tuple[int, int], tuple[bytes, bytes | None]] = {}
        """(game, seat) → (digest of what its hand image was drawn from, the image)."""
        self._dm_tried: set[tuple[int, int]] = set()
        """(game, user) pairs a DM was tried for: a refused user is tried once in each new game."""
        self._dm_backoff: dict[int, tuple[float, float]] = {}
        """user → (next try, current interval) after a refused DM."""
        self._dm_ok: set[int] = set()
        """Users whose DMs went through since this process started (stored once)."""
        self._logs: dict[int, Waiting] = {}
        """game → its public lines shown on the board but not yet in its thread (``bot.threadlog``)."""
        self._dm_channels: dict[int, int] = {}
        """user → the id of their DM channel (also stored: :meth:`dm_channel`)."""
        self._posting: dict[int, asyncio.Lock] = {}
        """game → lock held while one update's board and lines are posted: updates of one game
        delivered at the same moment never interleave their messages in the thread."""
        self._board_version: dict[int, int] = {}
        """game → the version of the newest board drawn: an update delivered late (two players
        deciding at once, the later one's delivery overtaking) never puts an older board back."""
        self._sealed: dict[int, str | None] = {}
        """game → what its sealed board was last drawn from (:func:`sealed_key`)."""
        self._last_story: dict[int, Post] = {}
        """game just ended → the message of its last moves, which its final result carries."""
        self._chapters: dict[int, tuple[str, Any] | None] = {}
        """game → its chapter (turn, round) at its last update delivered: a seat's decisions in a
        row within one chapter are DMed once (:meth:`push_private`)."""
        self._board_answers: dict[tuple[int, int], tuple[discord.Interaction, int, float]] = {}
        """(game, user) → (the user's **Decide** click on the game's board that opened a game's
        own form, the board message, until when its token may edit it): the update that form's
        answer makes is drawn into that click's answer (``bot.answer``) instead of a message edit
        counted against the bot's global rate limit. One per player: their next form replaces it."""
        self._waiting: dict[int, list[int]] = {}
        """game → the versions of its updates waiting for their turn to post: one that has a newer
        update behind it posts its lines but leaves drawing the board to that newer one."""

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

    async def board_payload(self, snap: Snapshot, events: list[Any], *, with_image: bool,
                            recent: Sequence[str] = ()
                            ) -> tuple[discord.Embed, list[tuple[str, bytes, str]], discord.ui.View | None]:
        """The board's embed, its images as (file name, bytes, alt text) — a fresh
        ``discord.File`` is made for each attempt to post, a used one being spent — and its
        buttons. ``recent``: the latest public lines, shown under the players."""
        game = snap.game
        ui = get_ui(game.game_key)
        public, sealed = shown_on_board(snap)
        public_events = [e for e in events if e.to is None]
        embed = discord.Embed(title=f"{snap.engine.name} — game #{game.id}", colour=0xF2BA48)
        status = ui.status_text(public)
        lines = [status] if status else []
        if game.status == "finished" and game.result:
            r = game.result
            winners = ", ".join(seat_label(game, w) for w in r.get("winners", [])) or "nobody"
            lines.append(f"🏁 **Game over** — winner: {winners}. {r.get('reason', '')}")
        elif sealed is not None:
            lines.append(sealed)
        elif snap.open:
            lines.append("Waiting for: " + snap.waiting_text())
        embed.description = clip("\n".join(lines), 4000)
        embed.add_field(name="Players", value=clip("\n".join(
            seat_label(game, s.seat) + (" 🤖" if s.is_bot else "") for s in game.seats), 1000))
        if recent:
            latest = list(recent)[-BOARD_LINES:]
            while len(latest) > 1 and sum(len(t) + 1 for t in latest) > 1000:
                latest.pop(0)
            embed.add_field(name="Latest", value=clip("\n".join(latest), 1000), inline=False)
        files: list[tuple[str, bytes, str]] = []
        if with_image:
            names = [s.name for s in game.seats]
            png = await self.render.draw(render_pool.board_png, game.game_key, public, public_events, names)
            files.append(("board.png", png, ui.board_alt(public, names=names)))
            embed.set_image(url="attachment://board.png")
            files += [(name, data, ui.attachment_alt(name, public, public_events, names=names))
                      for name, data in await self.render.draw(render_pool.board_attachments,
                                                              game.game_key, public, public_events)]
        else:
            embed.set_footer(text="I need the Attach Files permission here to show the board image.")
        view = board_view(game.id, game.version, active=game.status == "active",
                          has_prompts=any(not game.seats[o.seat].is_bot for o in snap.open))
        return embed, files, view

    def keep_board_answer(self, game: GameRow, interaction: discord.Interaction) -> None:
        """Keep ``interaction`` — a **Decide** click on the game's board, deferred, that opened a
        game's own form — so that the update the user's answer to that form makes is drawn into
        it (:attr:`_board_answers`). Discord lets a click's answer be edited for 15 minutes: it is
        kept 14."""
        if game.board_message_id is None:
            return
        self._board_answers = {k: v for k, v in self._board_answers.items() if v[2] > self.now()}
        self._board_answers[(game.id, interaction.user.id)] = (
            interaction, game.board_message_id, self.now() + KEPT_ANSWER)

    def _kept_answer(self, game: GameRow, by: Sequence[int]) -> discord.Interaction | None:
        """The kept board answer (:meth:`keep_board_answer`) of a user among ``by`` (those whose
        own clicks made the update), taken: it draws this one update."""
        for uid in by:
            kept = self._board_answers.pop((game.id, uid), None)
            if kept is not None and kept[1] == game.board_message_id and kept[2] > self.now():
                return kept[0]
        return None

    async def update_board(self, snap: Snapshot, events: list[Any], recent: Sequence[str] = (), *,
                           shots: Sequence[tuple[str, bytes, str]] = (), carried: list[bool] | None = None,
                           by: Sequence[int] = ()) -> discord.Message | discord.PartialMessage | None:
        """Edit the game's one board message (post it if it has none, or it was deleted).

        ``shots``: the files of this update's public events (a flick's animation), carried by the
        board message under its image rather than by a thread message of their own; should
        Discord refuse the board with them (too large), the board goes without them. ``carried``
        (a list to append to) is told whether they went. ``by``: the users whose own clicks made
        this update (a board answer kept for one of them draws it: :meth:`keep_board_answer`)."""
        game = snap.game
        drawn: dict[bool, tuple[discord.Embed, list[tuple[str, bytes, str]], discord.ui.View | None]] = {}
        extra = list(shots)

        async def post(channel: Any) -> discord.Message | discord.PartialMessage:
            nonlocal extra
            attach = self._can_attach(channel)
            if attach not in drawn:  # drawn once, unless the game moves to a channel without files
                drawn[attach] = await self.board_payload(snap, events, with_image=attach, recent=recent)
            embed, images, view = drawn[attach]
            images = [*images, *extra[:max(0, MAX_FILES - len(images))]] if attach else images

            def files() -> list[discord.File]:
                return [discord.File(io.BytesIO(data), filename=name, description=alt)
                        for name, data, alt in images]

            answer = BOARD_ANSWER.get()  # (the click being answered was made on this board)
            kept = self._kept_answer(game, by)
            if game.board_message_id and (kept is not None or (
                    answer is not None and answer.fits(game.id, game.board_message_id))):
                try:
                    if answer is not None and answer.fits(game.id, game.board_message_id):
                        await answer.edit(attachments=files(), embed=embed, view=view)
                    elif kept is not None:
                        await kept.edit_original_response(attachments=files(), embed=embed, view=view,
                                                          allowed_mentions=NO_PINGS)
                    board: discord.PartialMessage = channel.get_partial_message(game.board_message_id)
                    return board
                except discord.HTTPException as exc:  # (its token expired, or the board is gone)
                    log.info("answering with the board failed (HTTP %s); editing it", exc.status,
                             extra={"game_id": game.id})
            if game.board_message_id:
                msg = channel.get_partial_message(game.board_message_id)
                try:
                    edited = await msg.edit(attachments=files(), embed=embed, view=view,
                                            allowed_mentions=NO_PINGS)
                except discord.NotFound:
                    pass
                except discord.HTTPException as exc:
                    if not extra or thread_closed(exc) or exc.status >= 500:
                        raise
                    log.warning("the board with its event files was refused (HTTP %s, code %s); "
                                "editing it without them", exc.status, exc.code, extra={"game_id": game.id})
                    extra, images = [], drawn[attach][1]
                    edited = await msg.edit(attachments=files(), embed=embed, view=view,
                                            allowed_mentions=NO_PINGS)
                    return edited  # type: ignore[no-any-return]
                else:
                    return edited  # type: ignore[no-any-return]
            kwargs: dict[str, Any] = {"embed": embed, "allowed_mentions": NO_PINGS}
            if view is not None:
                kwargs["view"] = view
            sent: discord.Message = await channel.send(files=files(), **kwargs)
            await self.storage.update_game(game.id, board_message_id=sent.id)
            game.board_message_id = sent.id
            return sent

        try:
            board = await self.in_home(game, post)
        except discord.Forbidden:
            log.warning("cannot post the board", extra={"game_id": game.id, "guild_id": game.guild_id})
            board = None
        if carried is not None:
            carried.append(board is not None and bool(extra) and bool(drawn.get(True)))
        return board

    # ------------------------------------------------------------- updates

    async def deliver(self, update: Update) -> None:
        game = update.game
        try:
            await self._deliver(update)
        except Exception:
            log.exception("delivery failed", extra={"game_id": game.id, "guild_id": game.guild_id})

    async def _deliver(self, update: Update) -> None:
        """Post the update (one update of a game at a time), then the private news and the result.

        Board renders are coalesced: in a burst (several players deciding at once, deadlines
        falling together) an update whose turn comes while a newer update of the same game is
        already waiting posts its lines with a link to the board as it stands, and only the newest
        draws it. Nothing is lost: the newest state is always drawn (the newest update never sees
        a newer one behind it), every line is posted once in order, and event files (a flick's
        animation) are drawn for each update."""
        game_id, version = update.game.id, update.game.version
        self._waiting.setdefault(game_id, []).append(version)
        waiting = True
        try:
            async with self._posting.setdefault(game_id, asyncio.Lock()):
                # (one turn of the loop: updates delivered at this very moment get in line first)
                await asyncio.sleep(0)
                self._unwait(game_id, version)
                waiting = False
                superseded = any(v > version for v in self._waiting.get(game_id, ()))
                await self.post_update(update, draw=not superseded)
        finally:
            if waiting:  # (cancelled or failed while waiting its turn)
                self._unwait(game_id, version)
        last_words: dict[int, list[str]] = {}
        try:
            last_words = await self.push_private(update)
        except Exception:  # (the result, which carries the game's last moves, is announced all the same)
            if update.result is None:
                raise
            log.exception("private delivery failed", extra={"game_id": game_id})
        if update.result is not None:
            await self.announce_result(update.game, last_words)

    def _unwait(self, game_id: int, version: int) -> None:
        """The update of ``version`` is no longer waiting to post (the game's list goes when empty)."""
        versions = self._waiting.get(game_id)
        if versions is None:
            return
        versions.remove(version)
        if not versions:
            del self._waiting[game_id]

    async def post_update(self, update: Update, *, draw: bool = True) -> None:
        """The board message, showing the update's public lines (and the latest before them), then
        the thread's message when one is due (:mod:`bot.threadlog`): every line since the last
        message, in the order they happened, once a chapter (a round, a turn) ends — or at once
        when someone must be pinged, when lines come with files, a computer player stalled, a host
        changed something, or the game ended. The files of the update's events (a flick: its
        animation) go with the board, under its image; only should the board not carry them (a
        newer update draws it, or Discord refused them there) does an event with files start a
        thread message of its own carrying them, followed by the lines after it. The decision now
        asked comes last, with its pings.

        Without ``draw`` (a newer update of the game is waiting to post and will draw it), the
        board is not drawn: the lines link to it as it stands."""
        game = update.game
        snap = update.snap
        # the player who just acted is looking at the result already: no ping for them
        acted = {seat for seat, _, origin in update.actions if origin == "player"}
        told = [e for e in update.events if e.to is None]
        lines = [f"• {humanise(e.text, game)}" for e in told]
        waiting = await self._waiting_lines(update)
        ask, ping_ids = await self._asked(update, acted)
        chapter = chapter_of(snap.view(None)) if game.state is not None else None
        latest = waiting.shown(lines)
        shots = await self.event_files(snap, told)
        board, shots = await self._draw_board(update, latest, shots, acted, draw=draw)
        due = (game.status != "active" or update.stalled or bool(ping_ids) or bool(shots)
               or update.kind in ("start", "admin", "undo", "end")
               or (waiting.chapter is not None and chapter != waiting.chapter))
        batch = thread_batch(waiting, lines, due=due, version=game.version, since=update.since)
        waiting.chapter = chapter
        if batch is None:
            return
        posting, offset, posted = batch
        tail: list[str] = []
        if update.stalled and game.status == "active":
            tail.append(STALLED_LINE)
        if ask and (posting or ping_ids or board is None):  # (named; pinged only if a ping is their notice)
            tail.append(ask)  # (alone and pinging nobody, it is not a message: the board names them)
        messages = thread_messages(posting, offset, shots, tail,
                                   board.jump_url if board is not None else None)
        sent = 0

        async def send_log(channel: Any) -> None:
            nonlocal sent  # (a retry in a reopened thread goes on from the first message not sent)
            attach = self._can_attach(channel)
            while sent < len(messages):
                text, files, boxes = messages[sent]
                last = sent == len(messages) - 1
                await self.send_line(game, channel, clip(text, 2000), files if attach else [],
                                     pings(ping_ids) if last else NO_PINGS, boxes=boxes)
                sent += 1

        if messages and update.result is not None and not messages[-1][1]:
            # (the game ended: its last message, without files, goes with the final result —
            # one message that tells the last moves and who won: :meth:`announce_result`)
            self._last_story[game.id], messages = messages[-1], messages[:-1]
        if messages:
            try:
                await self.in_home(game, send_log)
            except discord.Forbidden:
                log.warning("cannot post the log line", extra={"game_id": game.id})
        waiting.posted = posted
        try:
            await self.storage.set_log_posted(game.id, posted)
        except StorageError as exc:
            log.warning("storing what the thread shows failed: %s", exc, extra={"game_id": game.id})

    async def _asked(self, update: Update, acted: set[int]) -> tuple[str, list[int]]:
        """The thread's line naming whom the game now asks (not the player who just acted: they
        are looking at the result), and whom it pings (those whose notice is a ping: no DM for
        each decision, or closed DMs; quiet hours name without pinging)."""
        game = update.game
        new_for_humans = [o for o in update.new_prompts
                          if o.seat < len(game.seats) and not game.seats[o.seat].is_bot
                          and o.seat not in acted]
        if game.status != "active" or not new_for_humans:
            return "", []
        ask, asked_ids = ask_line(game, new_for_humans)
        hushed = await self.hushed(asked_ids, pings_only=True)  # (named, not pinged)
        return ask, [uid for uid in asked_ids if uid not in hushed and not await self.dm_reaches(uid)]

    async def _draw_board(self, update: Update, latest: list[str], shots: dict[int, Files],
                          acted: set[int], *, draw: bool
                          ) -> tuple[discord.Message | discord.PartialMessage | None, dict[int, Files]]:
        """The board for this update, and the event files still to post in the thread. The board
        carries the update's event files (a flick's animation) under its image — seen at once
        where everyone looks, without a thread message of their own; without ``draw``, or when a
        newer board is up already, the board stays as it is (its link only) and the files go to
        the thread."""
        game = update.game
        if not draw or game.version < self._board_version.get(game.id, -1):
            return await self._board_link(game), shots
        key = sealed_key(update.snap)
        answer = BOARD_ANSWER.get()  # (a click on the board is answered by it: drawn, at no cost)
        if (key is not None and key == self._sealed.get(game.id) and not shots
                and (answer is None or not answer.fits(game.id, game.board_message_id))):
            return await self._board_link(game), shots  # (a sealed board the answer left as it was)
        self._board_version[game.id] = game.version
        carried: list[bool] = []
        by = [game.seats[seat].user_id for seat in sorted(acted) if seat < len(game.seats)]
        board = await self.update_board(update.snap, update.events, latest, shots=on_board(shots),
                                        carried=carried, by=[uid for uid in by if uid is not None])
        # (what was drawn, its board message now known when this update posted it)
        self._sealed[game.id] = sealed_key(update.snap) if board is not None else None
        return board, ({} if carried and carried[0] else shots)

    async def _waiting_lines(self, update: Update) -> Waiting:
        """The game's lines waiting for their thread message. After a restart they are read back
        from the stored public events after the version the thread was last told (and the
        board's latest lines with them)."""
        game = update.game
        waiting = self._logs.get(game.id)
        if waiting is not None:
            return waiting
        waiting = Waiting(None, update.since)
        self._logs[game.id] = waiting
        try:
            posted = await self.storage.log_posted(game.id)
            if posted is None:  # (a game this Herald never told: it is told from here on)
                await self.storage.set_log_posted(game.id, update.since)
            if update.since > 0:
                back = update.since if posted is None else min(posted, update.since)
                limit = 4 * BOARD_LINES + len(update.events)
                while True:  # (newest first: back to the version told, and the board's lines)
                    events = await self.storage.events(game.id, viewer_seat=None, limit=limit)
                    told = [e for e in events if e.version <= update.since]
                    if len(events) < limit or (events[0].version <= back
                                               and len(told) >= BOARD_LINES):
                        break
                    limit *= 4
                waiting.latest = [f"• {humanise(e.text, game)}" for e in told][-BOARD_LINES:]
                if posted is not None and posted < update.since:
                    waiting.lines = [f"• {humanise(e.text, game)}" for e in told
                                     if e.version > posted]
                    waiting.posted = posted
                    if waiting.lines:  # (the chapter they were told in is not stored: they go now)
                        waiting.chapter = RESTARTED
        except StorageError as exc:
            log.warning("reading what the thread shows failed: %s", exc, extra={"game_id": game.id})
        return waiting

    async def dm_reaches(self, user_id: int) -> bool:
        """Whether the user hears of a decision by DM (so needs no ping): they take a DM for every
        decision and their DMs were not refused. False when the database cannot say."""
        try:
            prefs = (await self.storage.player_prefs([user_id])).get(user_id)
            reachable = await self.storage.dm_reachable(user_id)
        except StorageError:
            return False
        return (prefs is None or prefs.dms != "reminders") and reachable is not False

    async def _board_link(self, game: GameRow) -> discord.PartialMessage | None:
        """The game's board message as it stands (for its link), without drawing it again."""
        if not game.board_message_id:
            return None
        channel = await self.home(game)
        return None if channel is None else channel.get_partial_message(game.board_message_id)

    async def event_files(self, snap: Snapshot, events: Sequence[Any]) -> dict[int, Files]:
        """The files of the update's public events that have some (:func:`draw_event_files`),
        drawn off the event loop; nothing at all should drawing fail outright."""
        game = snap.game
        ui = get_ui(game.game_key)
        if not events or type(ui).event_files is GameUI.event_files:  # (this game has none)
            return {}
        try:
            return await self.render.draw(render_pool.event_files, game.game_key, snap.view(None),
                                         list(events), [s.name for s in game.seats], game.id)
        except Exception:
            log.exception("drawing the files of the log lines failed", extra={"game_id": game.id})
            return {}

    async def send_line(self, game: GameRow, channel: Any, content: str, files: Files,
                        mentions: discord.AllowedMentions, *, boxes: Sequence[str] = ()) -> None:
        """Post one thread message with its files (and its boxes: :func:`thread_messages`); should
        Discord refuse it with the files (too large, no permission to attach), the line goes
        without them: a line is never lost for a picture."""
        extra: dict[str, Any] = {}
        if boxes:
            extra["embeds"] = [discord.Embed(description=clip(b, BOX_CHARS), colour=0xF2BA48) for b in boxes]
        if files:
            try:
                await channel.send(content or None, allowed_mentions=mentions, files=[
                    discord.File(io.BytesIO(data), filename=name, description=alt) for name, data, alt in files],
                    **extra)
                return
            except discord.HTTPException as exc:
                if thread_closed(exc):  # (the caller reopens the thread and tries again)
                    raise
                log.warning("posting a line with its files failed (HTTP %s, code %s); posting it without",
                            exc.status, exc.code, extra={"game_id": game.id})
        await channel.send(content or None, allowed_mentions=mentions, **extra)

    async def announce_result(self, game: GameRow, last_words: dict[int, list[str]] | None = None) -> None:
        """The final result: in the game's home with one line mentioning every human player, and
        one DM to each with their standing, what the last moves told them privately and a link to
        the board (the end of a game that ran for days must not pass unnoticed)."""
        message = await self._post_result(game)
        link = board_url(game) or (message.jump_url if message is not None else None)
        engine_name = get_engine_name(game)
        for seat in game.seats:
            if seat.is_bot or seat.user_id is None:
                continue
            lines = [f"• {t}" for t in (last_words or {}).get(seat.seat, [])]
            text = "\n".join([f"🏁 **{engine_name} — game #{game.id}** is over. {standing(game, seat.seat)}",
                              *lines, *([f"Final board: {link}"] if link else [])])
            await self._send_dm(game, seat.user_id, content=clip(text), allowed_mentions=NO_PINGS)
        self._forget_game(game.id)

    async def _post_result(self, game: GameRow) -> discord.Message | None:
        """The result's message in the game's home, pinging every human player: the message of
        the last moves (kept by :meth:`post_update`) with the result under it, or — too long for
        one message — that message first, then the result's."""
        humans = sorted({s.user_id for s in game.seats if s.user_id is not None and not s.is_bot})
        embed = discord.Embed(title="🏁 Final result", colour=0x60C478,
                              description=clip(result_text(game) or "The game is over.", 4000))
        mention = " ".join(f"<@{uid}>" for uid in humans)
        over = f"🏁 {mention} game #{game.id} is over." if mention else ""
        text, _, told = self._last_story.pop(game.id, ("", [], []))
        content, boxes = "\n".join(x for x in (text, over) if x), told
        if len(content) > 2000 or sum(map(len, told)) + len(embed.description or "") > MESSAGE_TOTAL:
            content, boxes = over, []
            try:
                await self.in_home(game, lambda channel: self.send_line(
                    game, channel, clip(text, 2000), [], NO_PINGS, boxes=told))
            except discord.Forbidden:
                log.warning("cannot post the log line", extra={"game_id": game.id})
        extra: dict[str, Any] = {}
        if humans and game.guild_id is not None:  # (a rematch opens in the game's server)
            extra["view"] = rematch_view(game.id)
        embeds = [*(discord.Embed(description=clip(b, BOX_CHARS), colour=0xF2BA48) for b in boxes), embed]

        async def send(channel: Any) -> discord.Message:
            return await channel.send(content or None, embeds=embeds,  # type: ignore[no-any-return]
                                      allowed_mentions=pings(humans), **extra)

        try:
            return await self.in_home(game, send)
        except discord.Forbidden:
            log.warning("cannot post the final result", extra={"game_id": game.id})
            return None

    def _forget_game(self, game_id: int) -> None:
        """A game is over: nothing of it is left to edit or try."""
        for key in [k for k in self._hands if k[0] == game_id]:
            del self._hands[key]
        for kept in (self._hand_shown, self._hand_pngs):
            for key in [k for k in kept if k[0] == game_id]:
                del kept[key]
        self._posting.pop(game_id, None)
        self._board_version.pop(game_id, None)
        self._sealed.pop(game_id, None)
        self._chapters.pop(game_id, None)
        self._logs.pop(game_id, None)
        self._dm_tried = {k for k in self._dm_tried if k[0] != game_id}

    # ------------------------------------------------------------- private

    async def push_private(self, update: Update) -> dict[int, list[str]]:
        """Each human seat concerned hears of this update in the quietest useful way:

        * a decision opened for them, their turn's or one out of turn (a reaction window, a
          challenge, a vote) → one new DM (their hand, what happened to them, the decision with
          its deadline; a game's own form is that DM, and the hand DM is not edited beside it:
          never a new DM and an edit for one change);
        * something happened to them that they did not cause (an event for their eyes from
          another seat's move, a computer player's, a timeout) → one new DM;
        * otherwise (their own click changed their hand, or it changed without a word) their
          hand DM is edited in place: no notification for what they are looking at already.

        **Their own click costs no DM request** when it told them nothing private (no line for
        their eyes): the answer to their click already showed them what they did, so their hand DM
        is not edited for it; what it did tell them privately (the cards it drew) is a follow-up
        of that click only they see (:meth:`whisper`); and a decision that opens for them alone
        right after it, within the same turn or round and with nobody else having moved (a seat
        acting several times in a row), is not DMed either — they are at the table, the board
        names them, and **Decide** opens it. A game's own form (Cult Wars orders) is DMed all the
        same — it is where that decision is made — or, when their own click in that DM opened it,
        follows that click there (:func:`bot.answer.form_answer`).
        Their hand DM catches up with the next DM they get (each new one is drawn afresh), and
        "My hand" shows it at any time. A new turn or round, a move by anyone else, a line for
        their eyes, or a restart in between (the chapter is not known then) brings the DM as before.

        When the game is over nothing is sent here: the final result's DM is the one DM of that
        change, and it carries each player's last private lines (returned here, per seat)."""
        snap = update.snap
        game = snap.game
        if game.state is None:
            return {}
        chapter = chapter_of(snap.view(None))
        before, self._chapters[game.id] = self._chapters.get(game.id), chapter
        targets = private_targets(update)
        hushed = await self.hushed([game.seats[s].user_id for s in targets if s < len(game.seats)])
        has_form = {seat: self.forms.panel_for(game.game_key, o.prompt.free_form) is not None
                    for seat in targets if (o := snap.prompt_of(seat)) is not None and o.prompt.secret}
        echoes = self.forms.echoes(game.game_key) | {ECHO}
        plan = private_plan(update, before=before, chapter=chapter, echoes=echoes,
                            has_form=has_form, hushed=hushed)
        if game.status != "active":
            return {note.seat: note.lines for note in plan if note.lines}
        for note in plan:
            await self.send_private(snap, note)
        return {}

    async def send_private(self, snap: Snapshot, note: PrivateNote) -> None:
        """Send one seat's private news as :func:`private_plan` decided it."""
        game, seat = snap.game, note.seat
        if note.how == "quiet":
            await self.refresh_hand(snap, seat, note.lines, post=False)
        elif note.how == "form" and note.asked is not None:
            # one DM for one change: the form is it (it shows what the decision needs; for a
            # player with no hand DM, their hand too); the hand DM is brought up to date by their
            # next change that is not a form (posted then if they have none yet) — and "My hand"
            # shows it at any time
            builder = self.forms.panel_for(game.game_key, note.asked.prompt.free_form)
            if builder is not None:
                await self.dm_form(Decision(snap, seat, note.asked), builder, note.lines,
                                   hand=(game.id, game.seats[seat].user_id) not in self._hands)
        elif note.how in ("ask", "news"):
            await self.dm_seat(snap, seat, note.lines, note.asked)
        elif not (note.lines and await self.whisper(game, game.seats[seat].user_id, note.lines)):
            await self.refresh_hand(snap, seat, note.lines, post=game.status == "active")

    async def whisper(self, game: GameRow, user_id: int | None, lines: Sequence[str]) -> bool:
        """What a player's own click told them privately (the cards it drew), said as a follow-up
        of that click — seen by them alone, at once, and an interaction request, which Discord
        does not count against the bot's global limit — instead of an edit of their hand DM,
        which catches up with their next DM ("My hand" shows it at any time). False when no
        answered click of theirs is at hand: the hand DM is edited, as ever."""
        answer = BOARD_ANSWER.get()
        click = (answer.interaction if answer is not None and answer.board is not None
                 and answer.board[0] == game.id else None)
        if click is None or click.user.id != user_id:
            click = form_answer(game.id, user_id) if user_id is not None else None
        if click is None or not click.response.is_done():
            return False
        try:
            await click.followup.send(clip("\n".join(f"• {t}" for t in lines)), allowed_mentions=NO_PINGS,
                                      ephemeral=click.guild_id is not None)
        except discord.HTTPException as exc:
            log.info("a private line as the click's follow-up failed (HTTP %s)", exc.status,
                     extra={"game_id": game.id})
            return False
        return True

    async def hand_payload(self, snap: Snapshot, seat: int) -> tuple[str, list[discord.File]]:
        ui = get_ui(snap.game.game_key)
        view = snap.view(seat)
        text = ui.hand_text(view)
        files: list[discord.File] = []
        names = [s.name for s in snap.game.seats]
        png = await self.hand_png(snap, seat, view, names)
        if png is not None:
            files.append(discord.File(io.BytesIO(png), filename="hand.png",
                                      description=ui.hand_alt(view, names=names)))
        return text, files

    async def hand_png(self, snap: Snapshot, seat: int, view: dict[str, Any],
                       names: list[str]) -> bytes | None:
        """The seat's hand image, drawn only when what it is drawn from (the seat's own view and
        the names) changed since the last one drawn for that seat: the same data draws the same
        image, so it is reused instead (a hand DM refreshed for another seat's move, "My hand"
        pressed twice)."""
        game = snap.game
        key = hashlib.blake2b(json.dumps([view, names], sort_keys=True, default=str).encode(),
                              digest_size=16).digest()
        kept = self._hand_pngs.get((game.id, seat))
        if kept is not None and kept[0] == key:
            return kept[1]
        png = await self.render.draw(render_pool.hand_png, game.game_key, view, names)
        self._hand_pngs[(game.id, seat)] = (key, png)
        return png

    async def hand_message(self, snap: Snapshot, seat: int, private_events: list[str],
                           asked: OpenPrompt | None) -> tuple[str, list[discord.File], discord.ui.View | None]:
        """The text, image and buttons of a seat's hand DM (with the decision it is asked, if any)."""
        game = snap.game
        text, files = await self.hand_payload(snap, seat)
        parts = [f"**{snap.engine.name} — game #{game.id}** (you are {seat_label(game, seat)})"]
        parts += [f"• {t}" for t in private_events]
        parts.append(text)
        view = None
        if asked is not None and game.status == "active":
            due = f" — due <t:{int(asked.deadline.due_at)}:R>" if asked.deadline else ""
            parts.append(f"➡️ **Your decision:** {asked.prompt.text}{due}")
            view = board_view(game.id, game.version, active=True, has_prompts=True)
        view = await with_player_link(view, game, seat)  # ("Your page", when pages are served)
        return clip("\n".join(parts)), files, view

    async def dm_seat(self, snap: Snapshot, seat: int, private_events: list[str],
                      asked: OpenPrompt | None) -> bool:
        """A new hand DM (it becomes the one later quiet changes edit)."""
        game = snap.game
        uid = game.seats[seat].user_id
        assert uid is not None
        if not await self.may_dm(game, uid):
            return False
        text, files, view = await self.hand_message(snap, seat, private_events, asked)
        kwargs: dict[str, Any] = {"content": text, "files": files, "allowed_mentions": NO_PINGS}
        if view is not None:
            kwargs["view"] = view
        sent = await self._send_dm(game, uid, checked=True, **kwargs)
        if sent is not None:
            self._hands[(game.id, uid)] = (sent.channel.id, sent.id)
            self._hand_shown[(game.id, uid)] = shows(text, files, view)
        return sent is not None

    async def refresh_hand(self, snap: Snapshot, seat: int, private_events: list[str], *,
                           post: bool) -> None:
        """Bring the seat's hand DM up to date by editing it (no notification); with ``post``, a
        seat that has no hand DM this process knows of gets a new one instead."""
        game = snap.game
        uid = game.seats[seat].user_id
        assert uid is not None
        where = self._hands.get((game.id, uid))
        if where is None:
            if post:
                await self.dm_seat(snap, seat, private_events, None)
            return
        open_ = snap.prompt_of(seat)
        keep = open_ if open_ is not None and not (
            open_.prompt.secret and self.forms.panel_for(game.game_key, open_.prompt.free_form)) else None
        text, files, view = await self.hand_message(snap, seat, private_events, keep)
        shown = shows(text, files, view)
        before = self._hand_shown.get((game.id, uid))
        if before == shown:  # (nothing it shows changed: no request)
            return
        message = self.client.get_partial_messageable(where[0], type=discord.ChannelType.private) \
            .get_partial_message(where[1])
        kwargs: dict[str, Any] = {"content": text, "view": view, "allowed_mentions": NO_PINGS}
        if before is None or before[1] != shown[1]:  # (an unchanged image stays: not sent again)
            kwargs["attachments"] = files
        try:
            await message.edit(**kwargs)
            self._hand_shown[(game.id, uid)] = shown
        except discord.NotFound:  # the player deleted it: the next change posts a new one
            del self._hands[(game.id, uid)]
            if post:
                await self.dm_seat(snap, seat, private_events, None)
        except discord.HTTPException as exc:
            log.warning("editing the hand DM failed (HTTP %s)", exc.status, extra={"game_id": game.id})

    async def dm_channel(self, user_id: int) -> discord.PartialMessageable:
        """The user's DM channel, to send to at once: remembered in memory and in the database
        (a restart or another process keeps it), asked of Discord only the first time (one
        request, ``POST /users/@me/channels``: no look-up of the user)."""
        cid = self._dm_channels.get(user_id)
        if cid is None:
            try:
                cid = await self.storage.dm_channel(user_id)
            except StorageError as exc:
                log.warning("reading a DM channel failed: %s", exc)
        if cid is None:
            opened = await self.client.create_dm(discord.Object(user_id))
            cid = opened.id
            try:
                await self.storage.set_dm_channel(user_id, cid)
            except StorageError as exc:
                log.warning("storing a DM channel failed: %s", exc)
        self._dm_channels[user_id] = cid
        return self.client.get_partial_messageable(cid, type=discord.ChannelType.private)

    async def _forget_dm_channel(self, user_id: int) -> None:
        self._dm_channels.pop(user_id, None)
        try:
            await self.storage.set_dm_channel(user_id, None)
        except StorageError as exc:
            log.warning("forgetting a DM channel failed: %s", exc)

    async def _dm(self, user_id: int, **kwargs: Any) -> discord.Message:
        """Post one DM in the user's channel; a channel Discord no longer knows is forgotten and
        opened again, once."""
        files = kwargs.get("files") or []
        try:
            return await (await self.dm_channel(user_id)).send(**kwargs)
        except discord.NotFound:
            await self._forget_dm_channel(user_id)
        for f in files:  # (a used file is spent)
            f.reset()
        return await (await self.dm_channel(user_id)).send(**kwargs)

    async def may_dm(self, game: GameRow, user_id: int) -> bool:
        """Whether to try a DM now. A user whose DMs were refused is tried again at the first DM
        of each game and after a back-off (:data:`DM_RETRY_FIRST`, doubling up to
        :data:`DM_RETRY_MAX`): people open their DMs again, and a refusal must not be forever."""
        if await self.storage.dm_reachable(user_id) is not False:
            return True
        if (game.id, user_id) not in self._dm_tried:
            return True
        retry_at, _ = self._dm_backoff.get(user_id, (0.0, 0.0))
        return self.now() >= retry_at

    async def _send_dm(self, game: GameRow, user_id: int, *, checked: bool = False,
                       **kwargs: Any) -> discord.Message | None:
        """Send one DM, keeping the reachability bookkeeping: a refusal is remembered (with its
        back-off) and announced once in the game's home; a success clears it. None if not sent."""
        if not checked and not await self.may_dm(game, user_id):
            return None
        self._dm_tried.add((game.id, user_id))
        try:
            sent = await self._dm(user_id, **kwargs)
        except discord.HTTPException as exc:
            if isinstance(exc, discord.Forbidden) or exc.code == CANNOT_DM:
                _, interval = self._dm_backoff.get(user_id, (0.0, 0.0))
                interval = min(DM_RETRY_MAX, interval * 2 if interval else DM_RETRY_FIRST)
                self._dm_backoff[user_id] = (self.now() + interval, interval)
                self._dm_ok.discard(user_id)
                await self.storage.set_dm_reachable(user_id, False, self.now())
                await self.dm_failed_notice(game, user_id)
            else:
                log.warning("DM failed (HTTP %s)", exc.status, extra={"game_id": game.id})
            return None
        self._dm_backoff.pop(user_id, None)
        if user_id not in self._dm_ok:  # (stored once per process: a refusal clears it)
            await self.storage.set_dm_reachable(user_id, True, self.now())
            self._dm_ok.add(user_id)
        return sent

    async def dm_form(self, d: Decision, builder: Any, private_events: Sequence[str] = (), *,
                      hand: bool = False) -> None:
        """The game's own form for a secret decision, as the one new DM of that decision (what
        happened to the player heads it; with ``hand``, their hand too — its picture, and its
        text when it fits)."""
        uid = d.game.seats[d.seat].user_id
        assert uid is not None
        if not await self.may_dm(d.game, uid):
            return
        try:
            kwargs = await builder(d)
        except discord.HTTPException as exc:
            log.warning("building the DM form failed: %s", exc, extra={"game_id": d.game.id})
            return
        head = [f"**{d.snap.engine.name} — game #{d.game.id}** (you are {seat_label(d.game, d.seat)})"]
        head += [f"• {t}" for t in private_events]
        body = str(kwargs.get("content") or "")
        if hand:
            hand_text, files = await self.hand_payload(d.snap, d.seat)
            kwargs["files"] = [*(kwargs.get("files") or []), *files]
            if len("\n".join([*head, hand_text, body])) <= 2000:
                head.append(hand_text)
        kwargs["content"] = clip("\n".join([*head, body]).strip(), 2000)
        kwargs.setdefault("allowed_mentions", NO_PINGS)
        click = form_answer(d.game.id, uid)  # (their own click in this DM opened it: it follows there)
        if click is not None:
            try:
                await click.followup.send(**kwargs)
                return
            except discord.HTTPException as exc:  # (its token expired: a DM, as ever)
                log.info("sending the form as the click's follow-up failed (HTTP %s)", exc.status,
                         extra={"game_id": d.game.id})
                for f in kwargs.get("files") or []:
                    f.reset()
        await self._send_dm(d.game, uid, checked=True, **kwargs)

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
        """A reminder before a deadline: in the game's home (with a ping) and by DM, with the
        deadline as a Discord timestamp (each reader sees their own time zone) and a link to the
        board, where **Decide** is."""
        if deadline.seat >= len(game.seats):
            return
        seat = game.seats[deadline.seat]
        if seat.is_bot or seat.user_id is None:
            return
        uid = seat.user_id
        url = board_url(game)
        hushed = uid in await self.hushed([uid], pings_only=True)  # (pings off: named, not pinged)
        due = int(deadline.due_at)  # (a timestamp: each reader sees it in their own time zone)
        text = (f"⏳ <@{uid}>, a reminder: the **{deadline.kind.replace('_', ' ')}** in game #{game.id} is "
                f"due <t:{due}:R> (<t:{due}:f>)."
                + (f" Decide on the board: {url}" if url else " Press **Decide** on the board."))

        async def send(channel: Any) -> None:
            await channel.send(text, allowed_mentions=NO_PINGS if hushed else pings([uid]))

        try:
            await self.in_home(game, send)
        except discord.Forbidden:
            pass
        waiting = await self.games_waiting(uid)
        tail = f"\nYour move in {waiting} games — `/mygames` lists them." if waiting > 1 else ""
        await self._send_dm(game, uid, content=text + tail, allowed_mentions=NO_PINGS)

    async def hushed(self, user_ids: Sequence[int | None], *, pings_only: bool = False) -> set[int]:
        """Of these users, those who asked for quiet now (``/notify``, ``/away``): with
        ``pings_only``, those not to be pinged (pings off, in their quiet hours or away); else
        those to get no new DM for a decision (only reminders, in their quiet hours or away).
        Nobody when the database cannot say."""
        ids = [u for u in user_ids if u is not None]
        if not ids:
            return set()
        try:
            prefs = await self.storage.player_prefs(ids)
        except StorageError as exc:
            log.warning("reading the players' notification preferences failed: %s", exc)
            return set()
        now = self.now()
        return {uid for uid, p in prefs.items()
                if quiet_end(p, now) is not None or away_until(p, now) is not None
                or (not p.pings if pings_only else p.dms == "reminders")}

    async def games_waiting(self, user_id: int) -> int:
        """How many running games await a decision of the user (0 when the database cannot say:
        a reminder goes out without its count rather than not at all)."""
        try:
            games = await self.storage.games_of_user(user_id, ("active",))
        except StorageError as exc:
            log.warning("counting a player's games failed: %s", exc)
            return 0
        return sum(1 for g in games if waits_for(g, user_id) is not None)

