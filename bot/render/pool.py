"""Drawing boards, hands and event files in worker processes, so that a busy bot uses a second core.

Pillow releases the GIL only in parts of its work, and a game's renderer is Python code that holds
it, so an image drawn on a thread of the bot's own process still slows its event loop (and every
other game's moves) down: ``bench/render_pool.py`` measures by how much. With ``HERALD_RENDER_PROCESSES``
set to 1 or more, :class:`RenderPool` draws in that many worker processes instead.

What crosses to a worker is plain data — the game's key, the redacted view it is drawn from (the
public view for a board, the seat's own view for its hand), the public events and the seats'
names — never a live object; the worker finds the game's :class:`~bot.gameui.GameUI` by its key
and returns PNG bytes. The same drawing code runs on the same data, so a board drawn by a worker
is byte for byte the board drawn in-process (``tests/unit/test_render_pool.py`` checks it for
every game).

A pool never costs a picture: should a worker die (the kernel's out-of-memory killer, a crash in
a native library) the pool is broken, so that image is drawn in-process after all and a fresh pool
replaces the broken one for the next; any other failure to hand the work over (data that cannot
be pickled) also falls back to drawing in-process. A failure *of the drawing itself* then happens
in-process too, and is handled where it always was (the board goes without its picture, a log
line without its files).

``HERALD_RENDER_PROCESSES`` is 1 by default on a machine with two or more cores, 0 on one core
(:func:`bot.config.default_render_processes` says why); with 0, everything is drawn on the bot's
thread pool. Measure with ``bench/render_pool.py``.

The same workers search for the computer players of games whose search is heavy
(``Engine.heavy_bot``: Flick of Faith simulates its candidate flicks, milliseconds of Python per
move), for the same reason: on a thread of the bot's process a search holds the interpreter every
other game's moves need, so one busy Flick table slows every table down
(``bench/flick_starvation.py`` measures it). A search crosses as plain data too — the game's key,
the state's JSON, the prompt and the seed of the computer player's rng — and the worker returns
the action: the same code on the same data, so the choice is the one made in-process
(``tests/unit/test_bot_pool.py``), and the fallback is the same (a dead worker: searched here).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import random
import sys
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import partial
from typing import Any, TypeVar

from rules.engine import Event, Prompt

log = logging.getLogger("herald.render")

T = TypeVar("T")
Cpu = Callable[..., Awaitable[Any]]
Files = list[tuple[str, bytes, str]]
JSON = dict[str, Any]

MAX_PROCESSES = 16
"""More workers than any machine Herald runs on has cores to give it."""
JOB_TIMEOUT = 60.0
"""Seconds a worker may take over one job (a replay's animation is the longest, a few seconds)
before it counts as hung: its workers are stopped, the pool replaced and the job done
in-process, as for a worker that died."""

MAX_SHOTS = 8
"""Events of one update posted with files of their own (the last ones: a flick and its
animation); earlier ones of a long run of computer players are told in words only."""


# ----------------------------------------------------------- the work (runs in a worker or here)


def board_png(key: str, view: JSON, events: Sequence[Event], names: Sequence[str]) -> bytes:
    """The public board of the game ``key`` as PNG bytes (drawn and encoded in one hand-over)."""
    from ..gameui import get_ui
    from .kit import to_png

    return to_png(get_ui(key).board_image(view, list(events), names=names))


def hand_png(key: str, view: JSON, names: Sequence[str]) -> bytes | None:
    """A seat's hand as PNG bytes, from that seat's own view; None for a game without a hand image."""
    from ..gameui import get_ui
    from .kit import to_png

    image = get_ui(key).hand_image(view, names=names)
    return None if image is None else to_png(image)


def board_attachments(key: str, view: JSON, events: Sequence[Event]) -> list[tuple[str, bytes]]:
    """The extra public files of the board message (:meth:`GameUI.attachments`)."""
    from ..gameui import get_ui

    return get_ui(key).attachments(view, list(events))


def draw_event_files(ui: Any, view: dict[str, Any], events: Sequence[Any], names: Sequence[str],
                     game_id: int, limit: int = MAX_SHOTS) -> dict[int, Files]:
    """The files of each public event that has some (index → files), for the last ``limit`` of
    them. Runs off the event loop; a failure to draw one event's files is logged and costs only
    those files (its line is posted without them)."""
    out: dict[int, Files] = {}
    for i in range(len(events) - 1, -1, -1):
        if len(out) >= limit:
            break
        try:
            files = ui.event_files(view, events[i], names=names)
        except Exception:
            log.exception("drawing the files of a log line failed; the line goes without them",
                          extra={"game_id": game_id})
            continue
        if files:
            out[i] = list(files)
    return out


def event_files(key: str, view: JSON, events: Sequence[Event], names: Sequence[str],
                game_id: int) -> dict[int, Files]:
    """The files of each public event that has some (:func:`draw_event_files`)."""
    from ..gameui import get_ui

    return draw_event_files(get_ui(key), view, events, names, game_id)


def picture_png(fn: Callable[..., Any], args: Sequence[Any], kwargs: dict[str, Any]) -> bytes:
    """``fn(*args, **kwargs)``, an image drawn by a module-level function (picklable by its
    name: an aim preview, a leaderboard), encoded as PNG."""
    from .kit import to_png

    png: bytes = to_png(fn(*args, **kwargs))
    return png


def bot_choice(key: str, state: JSON, prompt: Prompt, seed: str) -> JSON:
    """The computer player's answer to ``prompt`` in the game ``key`` at ``state`` (its JSON),
    with its rng seeded from ``seed``: what ``Sessions._bot_choice`` computes from the parsed
    state, computed from the stored one (``from_json(to_json(s))`` equals ``s``)."""
    from rules import registry

    engine = registry.get(key)
    parsed = engine.from_json(state)
    return engine.bot_action(engine.view(parsed, prompt.seat), prompt, random.Random(seed))


def strength_choice(key: str, state: JSON, prompt: Prompt, seed: str, strength: str) -> JSON:
    """The answer of a computer player of a table's strength (the ``computer`` option:
    :func:`rules.search.choose`) to ``prompt`` in the game ``key`` at ``state``, its rng seeded
    from ``seed``. A searching strength stops at its iteration budget, or at its time budget
    should this process be slower than the budget's iterations assume."""
    import time

    from rules import registry, search

    engine = registry.get(key)
    parsed = engine.from_json(state)
    return search.choose(engine, engine.view(parsed, prompt.seat), prompt, random.Random(seed),
                         strength, clock=time.perf_counter)


def timeout_choice(key: str, state: JSON, prompt: Prompt) -> JSON:
    """The action taken for ``prompt`` when its deadline passes (``Engine.timeout_action``: for
    most games the computer player, with an rng seeded from the state; in a game that searches,
    the ``normal`` search there: :func:`rules.search.timeout_action`, without a clock)."""
    from rules import registry, search

    engine = registry.get(key)
    return search.timeout_action(engine, engine.from_json(state), prompt)


def hint_choice(key: str, state: JSON, prompt: Prompt, seed: str) -> JSON:
    """What the ``normal`` search would answer to ``prompt`` (a player's hint, ``bot.hints``),
    from the seat's own view of ``state`` alone, its rng seeded from ``seed``, without a clock
    (the same hint however busy the machine)."""
    from rules import registry, search

    engine = registry.get(key)
    parsed = engine.from_json(state)
    return search.choose(engine, engine.view(parsed, prompt.seat), prompt, random.Random(seed),
                         search.TIMEOUT_STRENGTH)


def searched(key: str) -> bool:
    """Whether a worker would search for the game ``key`` with the engine this process has: the
    one :data:`rules.registry.BUILTIN` names (a worker loads only those), not one registered at
    run time in its place (tests do)."""
    from rules import registry

    target = registry.BUILTIN.get(key)
    if target is None:
        return False
    engine = registry.get(key)
    module, attr = target.split(":")
    return getattr(sys.modules.get(module), attr, None) is engine


def _warm_up() -> None:
    """A new worker imports every game's presentation once, before its first image: the first
    board after a (re)start is not slower than the others."""
    from ..gameui import UI_MODULES, get_ui

    for key in UI_MODULES:
        try:
            get_ui(key)
        except Exception:  # (a game that fails to load is reported by the bot itself)
            log.debug("the worker could not load the presentation of %s", key)
    from rules import registry

    registry.all_engines()  # (the engines too, for the computer players' searches)


def shipped(key: str) -> bool:
    """Whether this process draws the game ``key`` with the presentation a worker loads: the one
    :data:`bot.gameui.UI_MODULES` names, not one registered at run time in its place."""
    from ..gameui import UI_MODULES, get_ui

    target = UI_MODULES.get(key)
    if target is None:
        return False
    ui = get_ui(key)
    module, attr = target.split(":")
    return getattr(sys.modules.get(module), attr, None) is ui


# ------------------------------------------------------------------------------------ the pool


class RenderPool:
    """Runs drawing jobs and searches (the module's functions, or any picklable function of plain
    data) in ``processes`` worker processes, or with ``fallback`` (the bot's thread pool) when there are
    none or the pool fails.

    The pool starts at its first job. Workers are *spawned* (a fresh interpreter), never forked:
    the bot's process has threads (the database's, the thread pool's) that a fork would copy in
    the middle of whatever they were doing."""

    def __init__(self, processes: int = 0, fallback: Cpu | None = None) -> None:
        if not 0 <= processes <= MAX_PROCESSES:
            raise ValueError(f"a render pool has 0 to {MAX_PROCESSES} processes, not {processes}")
        self.processes = processes
        self._fallback: Cpu = fallback or asyncio.to_thread
        self._executor: ProcessPoolExecutor | None = None
        self.rebuilds = 0
        """Pools replaced after a worker died (for tests and the bench)."""
        self.fallbacks = 0
        """Images drawn in-process because the pool could not draw them."""
        self._closed = False

    @property
    def enabled(self) -> bool:
        return self.processes > 0 and not self._closed

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            self._executor = ProcessPoolExecutor(
                max_workers=self.processes, mp_context=multiprocessing.get_context("spawn"),
                initializer=_warm_up)
        return self._executor

    def _replace(self, broken: ProcessPoolExecutor, *, stop: bool = False) -> None:
        """Drop a broken pool (several jobs may find it broken at once: replaced once); the next
        job starts a new one. ``stop``: its workers are hung, not dead: end them too (shutting
        the pool down waits for nobody, but would leave a hung worker running)."""
        if self._executor is not broken:
            return
        self._executor = None
        self.rebuilds += 1
        workers = list(getattr(broken, "_processes", {}).values()) if stop else []
        broken.shutdown(wait=False, cancel_futures=True)
        for worker in workers:
            if worker.is_alive():
                worker.kill()

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a worker; in-process (``fallback``) without a pool or should the pool
        fail. An exception raised by ``fn`` itself propagates, as it would in-process."""
        if self.enabled:
            executor = self._pool()
            try:
                return await asyncio.wait_for(asyncio.wrap_future(executor.submit(fn, *args)),
                                              JOB_TIMEOUT)
            except TimeoutError:
                log.warning("a worker took more than %gs over %s; stopping the pool's workers, "
                            "doing it in-process and starting a new pool for the next",
                            JOB_TIMEOUT, getattr(fn, "__name__", "a job"))
                self._replace(executor, stop=True)
            except BrokenProcessPool:
                log.warning("a worker died; doing its work (%s) in-process and starting a new "
                            "pool for the next", getattr(fn, "__name__", "a job"))
                self._replace(executor)
            except RuntimeError as exc:  # (the pool was shut down meanwhile: the bot is closing)
                if "shutdown" not in str(exc):
                    raise
            except Exception as exc:
                # the drawing failed in the worker, or its data could not be sent there: drawing
                # it here either works or fails as it always did, with the local traceback
                log.warning("%s failed in a worker (%s); running it in-process",
                            getattr(fn, "__name__", "a job"), type(exc).__name__)
            self.fallbacks += 1
        return await self._fallback(partial(fn, *args))  # type: ignore[no-any-return]

    async def draw(self, fn: Callable[..., T], key: str, *args: Any) -> T:
        """``fn(key, *args)`` for the game ``key`` (one of this module's drawing functions): in a
        worker for a game whose presentation a worker loads as this process did (the games of
        :data:`bot.gameui.UI_MODULES`), in-process for one registered at run time (a worker would
        not know it, and would draw the default board)."""
        if self.enabled and shipped(key):
            return await self.run(fn, key, *args)
        return await self._fallback(partial(fn, key, *args))  # type: ignore[no-any-return]

    async def search(self, fn: Callable[..., T], key: str, *args: Any) -> T:
        """``fn(key, *args)``, a computer player's search (:func:`bot_choice`,
        :func:`timeout_choice`) for the game ``key``: in a worker for a game whose engine a worker
        loads as this process did (:func:`searched`), in-process otherwise."""
        if self.enabled and searched(key):
            return await self.run(fn, key, *args)
        return await self._fallback(partial(fn, key, *args))  # type: ignore[no-any-return]

    async def worker_pids(self) -> set[int]:
        """The process ids of the workers running now (empty without a pool): for tests, the
        bench and the logs. Starts the pool if it has not started."""
        if not self.enabled:
            return set()
        executor = self._pool()
        await asyncio.gather(*(asyncio.wrap_future(executor.submit(os.getpid))
                               for _ in range(self.processes)))
        return {p.pid for p in list(getattr(executor, "_processes", {}).values())
                if p.pid is not None}

    def close(self) -> None:
        """Stop the workers (without waiting for images being drawn: nobody will post them)."""
        self._closed = True
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None


WorkPool = RenderPool
"""The pool under the name of all it does: drawing, and the heavy computer players' searches."""

__all__ = ["MAX_PROCESSES", "MAX_SHOTS", "RenderPool", "WorkPool", "board_attachments",
           "board_png", "bot_choice", "hint_choice", "picture_png", "draw_event_files", "event_files", "hand_png", "searched",
           "shipped", "strength_choice", "timeout_choice"]
