"""The one background scheduler: reminders before deadlines, timeout actions at deadlines.

Deadlines live in the database, so a restart loses none: on start the scheduler reads the nearest
one and sleeps until then (or until woken because deadlines changed). Overdue deadlines found at
start (the bot was down) are handled at once. Games left waiting on computer players (``stalled``,
or a start-up look for them that failed) are retried with the same back-off as deadlines.

Several processes may run over one database, each with its scheduler: a scheduler *claims* the due
deadlines it handles (``Storage.claim_deadlines``, for ``LEASE`` seconds, under an owner name of
its own), so each is handled by one process; a reminder is sent only by the process whose
``mark_reminded`` set it. A process that dies mid-way leaves claims that expire, and another
process takes them over.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import os
import secrets
import socket
from collections.abc import Awaitable, Callable

from .session import Sessions
from .storage import DeadlineRow, GameRow

log = logging.getLogger("herald.scheduler")

Reminder = Callable[[GameRow, DeadlineRow], Awaitable[None]]
MAX_SLEEP = 3600.0
"""Longest sleep between passes when nothing is due sooner."""
RETRY_FIRST, RETRY_MAX = 5.0, 600.0
"""Back-off after a transient failure: 5 s, doubling, at most 10 minutes; never given up."""
LEASE = 120.0
"""Seconds a claim on a deadline keeps it from other processes: long enough for one pass to
handle what it claimed, short enough that a crashed process's deadlines are not late by much."""
BATCH = 20
"""Deadlines claimed at once; more due come in the next pass, at once."""
SCAN = -1
"""Stands for "every game" among the stalled games' retries: the look at start for games waiting
on computer players failed (game ids are positive)."""


def process_owner() -> str:
    """A name for this process's claims, unique among the processes over one database: the host,
    the process id, and a random part (a restarted process must not take over its former self's
    claims as its own: they expire instead)."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"


class Scheduler:
    def __init__(self, sessions: Sessions, remind: Reminder | None = None, *,
                 owner: str | None = None) -> None:
        self.sessions = sessions
        self.remind = remind
        self.owner = owner or process_owner()
        """Whose claims this scheduler's are (see ``process_owner``)."""
        self._task: asyncio.Task[None] | None = None
        self._sleeping = False
        self._woken = False
        self._retry: dict[tuple[int, int, str, int], tuple[int, float]] = {}
        """(game, seat, kind, instance) of a deadline whose handling failed for a transient
        reason → (failures so far, when to try again)."""
        self._failed_passes = 0
        self._stalled: dict[int, tuple[int, float]] = {}
        """A stalled game (or ``SCAN``) → (failures so far, when to try again)."""
        self.jobs: list[Callable[[], Awaitable[float | None]]] = []
        """More timed work, each pass: a job handles what is due and returns when it is next
        due (None: nothing ahead), e.g. pauses that end by themselves (``bot.away``)."""
        sessions.on_deadlines_changed = self.wake

    def wake(self) -> None:
        """Deadlines changed: cut the current sleep short (never interrupts a pass in progress)."""
        if self._task is not None and self._sleeping and not self._woken:
            self._woken = True
            self._task.cancel()

    def start(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run(), name="herald-scheduler")

    async def stop(self) -> None:
        self._woken = False
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _run(self) -> None:
        while True:
            delay = await self.pass_once()
            self._sleeping = True
            try:
                await asyncio.sleep(delay + 0.01)
            except asyncio.CancelledError:
                task = asyncio.current_task()
                if not self._woken or task is None:
                    raise
                task.uncancel()  # woken, not stopped: go round again
            finally:
                self._sleeping = False
                self._woken = False

    async def pass_once(self) -> float:
        """One pass of the loop: handle what is due; returns how long to sleep before the next."""
        try:
            await self.run_due()
            # (before the next deadline is read: a job may give deadlines back, as a pause ends)
            ahead = [at for at in [await job() for job in self.jobs] if at is not None]
            nxt = await self.sessions.storage.next_deadline_time(self.owner)
            if nxt is not None and nxt <= self.sessions.now() and self._retry:
                # what is still due is backing off: sleep until the first retry
                nxt = min(at for _, at in self._retry.values())
            retry = self._next_resume()
            if retry is not None:
                nxt = min(nxt or math.inf, retry)
            for at in ahead:
                nxt = min(nxt or math.inf, at)
            self._failed_passes = 0
        except Exception:
            # e.g. the database could not be read: try again soon, backing off — not in an hour
            self._failed_passes += 1
            nxt = self.sessions.now() + self._backoff(self._failed_passes)
            log.exception("scheduler pass failed; next try in %.0fs", self._backoff(self._failed_passes))
        return MAX_SLEEP if nxt is None else max(0.0, min(MAX_SLEEP, nxt - self.sessions.now()))

    async def run_due(self) -> int:
        """Handle every reminder and deadline that is due now; returns how many were handled."""
        handled = 0
        if self.sessions.closing:
            return 0
        handled += await self._resume_due()
        now = self.sessions.now()
        # (room for this process's own claims that are backing off, which come back each pass)
        limit = BATCH + len(self._retry)
        claimed = await self.sessions.storage.claim_deadlines(now, self.owner, LEASE, limit)
        if len(claimed) < limit:  # every due deadline of ours is here: forget the retries of
            # those handled or taken over by another process since (their claim expired)
            mine = {(d.game_id, d.seat, d.kind, d.opened) for d in claimed}
            for gone in set(self._retry) - mine:
                del self._retry[gone]
        for d in claimed:
            key = (d.game_id, d.seat, d.kind, d.opened)
            if key in self._retry and self._retry[key][1] > now:
                continue
            handled += 1
            try:
                if d.due_at <= now:
                    await self.sessions.timeout(d)
                elif not await self.sessions.storage.mark_reminded(d.game_id, d.seat, d.kind,
                                                                   d.opened or None):
                    pass  # reminded already, by another process (or the prompt moved on)
                else:
                    game = await self.sessions.storage.get_game(d.game_id)
                    if game is not None and game.status == "active" and self.remind is not None:
                        try:
                            await self.remind(game, d)
                        except Exception:  # marked as reminded already: no retry, no spin,
                            # and the timeout itself must still happen at the deadline
                            log.exception("reminder failed", extra={"game_id": d.game_id})
            except Exception as exc:
                if isinstance(exc, self.sessions.storage.transient_errors):
                    # a locked or full database passes: keep the deadline, try again later
                    failures = self._retry.get(key, (0, 0.0))[0] + 1
                    delay = min(RETRY_MAX, RETRY_FIRST * 2 ** (failures - 1))
                    self._retry[key] = (failures, now + delay)
                    log.warning("deadline handling failed (%s); retrying in %.0fs", exc, delay,
                                extra={"game_id": d.game_id})
                    continue
                log.exception("deadline handling failed", extra={"game_id": d.game_id})
                # never spin on a broken game: drop this deadline (the seat can still act)
                rest = [x for x in await self.sessions.storage.deadlines(d.game_id)
                        if (x.seat, x.kind, x.opened) != (d.seat, d.kind, d.opened)]
                await self.sessions.storage.replace_deadlines(d.game_id, rest)
            self._retry.pop(key, None)
        return handled

    @staticmethod
    def _backoff(failures: int) -> float:
        return float(min(RETRY_MAX, RETRY_FIRST * 2.0 ** (failures - 1)))

    def _next_resume(self) -> float | None:
        """When games awaiting computer players are next due to be retried (None: there are none).
        A game seen stalled for the first time is retried after the first back-off: what just
        failed (a locked database) rarely works again at once."""
        now = self.sessions.now()
        waiting = set(self.sessions.stalled) | ({SCAN} if self.sessions.scan_needed else set())
        for key in list(self._stalled):
            if key not in waiting:
                del self._stalled[key]
        for key in waiting:
            self._stalled.setdefault(key, (1, now + self._backoff(1)))
        return min((at for _, at in self._stalled.values()), default=None)

    async def _resume_due(self) -> int:
        """Retry the games awaiting computer players whose back-off has passed; how many moved."""
        self._next_resume()
        now = self.sessions.now()
        due = sorted(key for key, (_, at) in self._stalled.items() if at <= now)
        if not due:
            return 0
        moved = 0
        games = [g for g in due if g != SCAN]
        for batch in ([None] if SCAN in due else []) + ([games] if games else []):
            try:  # (None: the look at every game failed at start: look again)
                moved += await self.sessions.resume(batch)
            except Exception:
                log.exception("resuming games waiting on computer players failed; trying again later")
        still = set(self.sessions.stalled) | ({SCAN} if self.sessions.scan_needed else set())
        for key in due:
            if key in still:
                failures = self._stalled.get(key, (0, 0.0))[0] + 1
                self._stalled[key] = (failures, now + self._backoff(failures))
            else:
                self._stalled.pop(key, None)
        return moved
