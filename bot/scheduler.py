"""The one background scheduler: reminders before deadlines, timeout actions at deadlines.

Deadlines live in the database, so a restart loses none: on start the scheduler reads the nearest
one and sleeps until then (or until woken because deadlines changed). Overdue deadlines found at
start (the bot was down) are handled at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
from collections.abc import Awaitable, Callable

from .session import Sessions
from .storage import DeadlineRow, GameRow

log = logging.getLogger("herald.scheduler")

Reminder = Callable[[GameRow, DeadlineRow], Awaitable[None]]
MAX_SLEEP = 3600.0
"""Longest sleep between passes when nothing is due sooner."""
RETRY_FIRST, RETRY_MAX = 5.0, 600.0
"""Back-off after a transient failure: 5 s, doubling, at most 10 minutes; never given up."""


class Scheduler:
    def __init__(self, sessions: Sessions, remind: Reminder | None = None) -> None:
        self.sessions = sessions
        self.remind = remind
        self._task: asyncio.Task[None] | None = None
        self._sleeping = False
        self._woken = False
        self._retry: dict[tuple[int, int, str, int], tuple[int, float]] = {}
        """(game, seat, kind, instance) of a deadline whose handling failed for a transient
        reason → (failures so far, when to try again)."""
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
            try:
                await self.run_due()
                nxt = await self.sessions.storage.next_deadline_time()
                if nxt is not None and nxt <= self.sessions.now() and self._retry:
                    # what is still due is backing off: sleep until the first retry
                    nxt = min(at for _, at in self._retry.values())
                if self.sessions.stalled:
                    nxt = min(nxt or math.inf, self.sessions.now() + RETRY_FIRST)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("scheduler pass failed")
                nxt = None
            delay = MAX_SLEEP if nxt is None else max(0.0, min(MAX_SLEEP, nxt - self.sessions.now()))
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

    async def run_due(self) -> int:
        """Handle every reminder and deadline that is due now; returns how many were handled."""
        handled = 0
        if self.sessions.closing:
            return 0
        if self.sessions.stalled:
            try:
                handled += await self.sessions.resume(sorted(self.sessions.stalled))
            except Exception:
                log.exception("resuming stalled games failed; trying again next pass")
        now = self.sessions.now()
        for d in await self.sessions.storage.due_deadlines(now):
            key = (d.game_id, d.seat, d.kind, d.opened)
            if key in self._retry and self._retry[key][1] > now:
                continue
            handled += 1
            try:
                if d.due_at <= now:
                    await self.sessions.timeout(d)
                else:
                    await self.sessions.storage.mark_reminded(d.game_id, d.seat, d.kind)
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
