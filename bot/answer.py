"""One answer per click: the interaction's response is made once, with what the click did.

Discord wants a first response to an interaction within 3 seconds; most of Herald's handlers
answered by deferring first and editing after (two requests). An :class:`Answer` instead waits
for the work: when it is done within :data:`ACK_WITHIN` — nearly always — the one response *is*
the answer (the edited panel, the "✅" line, the board); only when the work takes longer (the lock
held by someone else, a computer player thinking after the move) is the click deferred at that
moment and the answer made as an edit of the deferred response. Either way the acknowledgement
comes well within Discord's limit, and no click is answered twice: every response goes through
the answer's lock, which the deferral takes too.

**The board as the answer.** A choice submitted from **Decide** on a game's board message
(:meth:`bot.controller.Controller.choice_submitted`) is answered *by the board itself*: while the
move is applied and delivered, :data:`BOARD_ANSWER` holds the click's answer, and delivery edits
the board through it (:meth:`bot.delivery.DiscordDelivery.update_board`) — an interaction
response, which does not count against the bot's global rate limit, instead of a message edit
that does; and the player sees the board move as the answer to their click.

**The next form as the answer.** A click in a player's DM that sends a move through a game's own
form (Cult Wars targets or orders) may open that same player's next decision at once — the last
target in reveals the targets and asks every cult for its orders. While the move is applied and
delivered, :data:`FORM_ANSWER` holds the click, and delivery sends that player's new form as the
click's follow-up message (:meth:`bot.delivery.DiscordDelivery.dm_form`): a message in the DM
they are looking at, made through the interaction rather than as a DM that counts against the
global rate limit.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import time
from typing import Any

import discord

from .text import NO_PINGS, clip

log = logging.getLogger("herald.answer")

ACK_WITHIN = 0.25
"""Seconds a click's work may take before the click is deferred (then edited when it is done):
well within Discord's 3 s, and within the acknowledgement budget measured by
``bench/interaction_ack.py``."""

BUSY = 3
"""Clicks being answered at once above which every one of them is deferred at once: when many
players act at the same moment, the work of all of them shares one event loop, so a click left
waiting for its own work (or its timer) would be acknowledged late."""

_live: set[Answer] = set()
"""The answers being worked on (see :data:`BUSY`)."""

BOARD_ANSWER: contextvars.ContextVar[Answer | None] = contextvars.ContextVar("board_answer", default=None)
"""The answer of the click being handled, when that click was made on a game's board message and
its answer is that board (see the module's documentation)."""


FORM_ANSWER: contextvars.ContextVar[tuple[int, discord.Interaction, float] | None] = \
    contextvars.ContextVar("form_answer", default=None)
"""(game id, the click, until when — :data:`FORM_FOLLOWS` on the monotonic clock) while a click
in a DM applies a move (see the module's documentation)."""

FORM_FOLLOWS = 60.0
"""Seconds after the click during which a form it opened is sent as its follow-up: the player is
still there (a later form — a deadline, a slow computer player — is a DM, as every new decision)."""


def form_answer(game_id: int, user_id: int) -> discord.Interaction | None:
    """The click (in that user's DM, for that game) whose follow-up may carry a form, if any."""
    held = FORM_ANSWER.get()
    if held is None or held[0] != game_id or held[1].user.id != user_id or time.monotonic() > held[2]:
        return None
    return held[1]


class Answer:
    """The one response to ``interaction``, made by whichever comes first: the work's answer
    (:meth:`edit`, :meth:`say`) or the deferral after :data:`ACK_WITHIN` seconds.

    Use as ``async with Answer(interaction) as answer:``; on leaving, a deferral being sent is
    finished first, so a refusal sent after it (``bot.refusals.answering``) sees the response as
    it is. ``board``: (game id, board message id) when the click was made on that game's board
    message — delivery then draws the board into this answer (:data:`BOARD_ANSWER`)."""

    def __init__(self, interaction: discord.Interaction, *, board: tuple[int, int] | None = None,
                 within: float | None = None) -> None:
        self.interaction = interaction
        self.board = board
        self.within = ACK_WITHIN if within is None else within
        self._lock = asyncio.Lock()
        self._closed = False
        self._hurried = False
        """Deferred at once, the bot being busy (:data:`BUSY`)."""
        self._tasks: list[asyncio.Task[None]] = []
        """Its deferral: the timer, or the one started when the bot became busy."""
        self._token: contextvars.Token[Answer | None] | None = None
        self.answered = False
        """Whether an answer (not only a deferral) was made."""

    async def __aenter__(self) -> Answer:
        if self.board is not None:
            self._token = BOARD_ANSWER.set(self)
        _live.add(self)
        if len(_live) > BUSY:  # busy: every click being worked on is acknowledged now
            for other in [a for a in _live if a is not self and not a._hurried]:
                other._hurried = True
                other._tasks.append(asyncio.create_task(other.defer()))
            self._hurried = True
            await self.defer()
        else:
            self._tasks.append(asyncio.create_task(self._defer_later()))
        return self

    async def __aexit__(self, *exc: object) -> None:
        _live.discard(self)
        if self._token is not None:
            BOARD_ANSWER.reset(self._token)
            self._token = None
        if not self._lock.locked():
            for task in self._tasks:
                task.cancel()  # (still waiting: nothing was sent by it)
        async with self._lock:  # (a deferral being sent finishes first)
            self._closed = True

    async def _defer_later(self) -> None:
        await asyncio.sleep(self.within)
        await self.defer()

    def fits(self, game_id: int, message_id: int | None) -> bool:
        """Whether this answer is the board message ``message_id`` of game ``game_id``."""
        return self.board is not None and message_id is not None and self.board == (game_id, message_id)

    @property
    def done(self) -> bool:
        return self.interaction.response.is_done()

    async def defer(self) -> None:
        """Acknowledge the click without a word, unless it was answered already (one request)."""
        async with self._lock:
            if not self._closed and not self.interaction.response.is_done():
                with contextlib.suppress(discord.HTTPException):  # (expired: the answer says so)
                    await self.interaction.response.defer()

    async def edit(self, **kwargs: Any) -> None:
        """Answer by editing the clicked message (the panel, or the board): the response itself
        when it is not made yet, else an edit of the deferred response."""
        kwargs.setdefault("allowed_mentions", NO_PINGS)
        async with self._lock:
            if self.interaction.response.is_done():
                await self.interaction.edit_original_response(**kwargs)
            else:
                await self.interaction.response.edit_message(**kwargs)
            self.answered = True

    async def say(self, text: str) -> None:
        """Answer with a line only the clicking player sees."""
        async with self._lock:
            if self.interaction.response.is_done():
                await self.interaction.followup.send(clip(text), ephemeral=True, allowed_mentions=NO_PINGS)
            else:
                await self.interaction.response.send_message(clip(text), ephemeral=True,
                                                              allowed_mentions=NO_PINGS)
            self.answered = True
