"""A lock (or a bounded number of places) for work that nearly always runs without waiting.

``asyncio.Lock`` and ``asyncio.Semaphore`` are fair: while anyone waits to be woken, a newcomer
queues behind them even when the lock is free. Herald's moves run on the event loop without a
pause (the SQLite statements inline, the engine inline), so a holder almost always lets go
before the loop runs anything else; but the rare holder that does wait (a statement group sent
to the connection's thread) made every move arriving meanwhile queue, and under a steady stream
that queue never drained: each turn costs a pass of the loop, during which more moves arrive and
queue. ``Turns`` lets a newcomer take a free place at once; a waiter woken for its turn finds
the place free when it runs (whoever took it meanwhile could not have paused), or waits again.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib


class Turns:
    """``capacity`` places (1: a lock), taken at once when one is free, waited for otherwise."""

    def __init__(self, capacity: int = 1) -> None:
        if capacity < 1:
            raise ValueError("Turns needs at least one place")
        self._free = capacity
        self._waiting: collections.deque[asyncio.Future[None]] = collections.deque()

    def locked(self) -> bool:
        """No place is free."""
        return self._free == 0

    def take(self) -> bool:
        """Take a free place at once (True); False if none is free (then ``acquire``)."""
        if self._free == 0:
            return False
        self._free -= 1
        return True

    async def __aenter__(self) -> None:
        await self.acquire()

    async def acquire(self) -> None:
        """Take a place, waiting for one if none is free (given back by ``release``)."""
        while self._free == 0:
            turn = asyncio.get_running_loop().create_future()
            self._waiting.append(turn)
            try:
                await turn
            except BaseException:
                if turn.done() and not turn.cancelled():
                    self._wake()  # (woken, then cancelled: the next one gets the turn)
                with contextlib.suppress(ValueError):
                    self._waiting.remove(turn)
                raise
        self._free -= 1

    async def __aexit__(self, *exc: object) -> None:
        self.release()

    def release(self) -> None:
        self._free += 1
        self._wake()

    def _wake(self) -> None:
        while self._waiting:
            turn = self._waiting.popleft()
            if not turn.done():
                turn.set_result(None)
                return
