"""Drawing in worker processes (``bot.render.pool``): the same bytes as drawing in-process, for
every game's board, hand and event files; and a dead worker or data a worker cannot receive
costs time, never a picture."""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import random
import signal
from collections.abc import AsyncIterator, Callable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from bot.config import Config, ConfigError, default_render_processes
from bot.delivery import DiscordDelivery
from bot.forms import Forms
from bot.gameui import UI_MODULES
from bot.render import pool as render_pool
from bot.render.pool import RenderPool
from bot.session import Sessions
from bot.storage import SqliteStorage
from rules import registry
from rules.engine import Event

GAMES = sorted(registry.all_engines())
STEPS = 14


@pytest.fixture(scope="module")
def pool() -> Iterator[RenderPool]:
    """One worker for the module (spawning a worker costs about a second)."""
    made = RenderPool(1)
    try:
        yield made
    finally:
        made.close()


@cache
def _position(key: str) -> tuple[Any, Any, list[Event]]:
    """A game a few computer moves in (:func:`_players` seats): (engine, state, the public events
    of the last move)."""
    engine = registry.get(key)
    state = engine.setup(_players(key), 7, {})
    rng = random.Random(7)
    events: list[Event] = []
    for _ in range(STEPS):
        if engine.result(state) is not None:
            break
        prompt = engine.prompts(state)[0]
        action = engine.bot_action(engine.view(state, prompt.seat), prompt, rng)
        state, step_events = engine.apply(state, prompt.seat, action)
        events = [e for e in step_events if e.to is None] or events
    return engine, state, events


def _players(key: str) -> int:
    engine = registry.get(key)
    return int(min(engine.max_players, max(engine.min_players, 3)))


def _names(players: int) -> list[str]:
    return ["Ann", "Bob", "Zoë", "Computer 4", "Eve", "Finn", "Gus", "Hal"][:players]


@pytest.mark.parametrize("key", GAMES)
async def test_a_worker_draws_the_same_bytes_as_the_bot_itself(pool: RenderPool, key: str) -> None:
    engine, state, events = _position(key)
    public = engine.view(state, None)
    names = _names(_players(key))
    here = RenderPool(0)
    # (a game registered at run time, as the tests' duel, is drawn in-process: a worker would
    # not know its presentation)
    assert render_pool.shipped(key) == (key in UI_MODULES)
    board = await pool.draw(render_pool.board_png, key, public, events, names)
    assert board[:8] == b"\x89PNG\r\n\x1a\n"
    assert board == await here.run(render_pool.board_png, key, public, events, names)
    hand_view = engine.view(state, 0)
    assert (await pool.draw(render_pool.hand_png, key, hand_view, names)
            == await here.run(render_pool.hand_png, key, hand_view, names))
    assert (await pool.draw(render_pool.board_attachments, key, public, events)
            == await here.run(render_pool.board_attachments, key, public, events))
    assert (await pool.draw(render_pool.event_files, key, public, events, names, 1)
            == await here.run(render_pool.event_files, key, public, events, names, 1))
    assert pool.fallbacks == 0


async def test_a_flicks_animation_is_drawn_by_a_worker(pool: RenderPool) -> None:
    """Flick of Faith's event files (the animation of a flick, the heaviest picture Herald draws)
    are really drawn in the worker, and equal the bot's own."""
    engine = registry.get("flick_of_faith")
    state = engine.setup(3, 7, {})
    rng = random.Random(7)
    flicks: list[Event] = []
    while not flicks:
        prompt = engine.prompts(state)[0]
        action = engine.bot_action(engine.view(state, prompt.seat), prompt, rng)
        state, step_events = engine.apply(state, prompt.seat, action)
        flicks = [e for e in step_events if e.to is None and e.kind == "flick"]
    public = engine.view(state, None)
    drawn = await pool.run(render_pool.event_files, "flick_of_faith", public, flicks, _names(3), 1)
    assert drawn and all(files for files in drawn.values())
    assert drawn == render_pool.event_files("flick_of_faith", public, flicks, _names(3), 1)
    assert pool.fallbacks == 0


async def test_the_delivery_draws_the_board_it_posts_in_the_pool(pool: RenderPool, tmp_path: Path) -> None:
    """The board message's picture, as the delivery builds it, is the pool's drawing."""
    storage = SqliteStorage(str(tmp_path / "herald.db"))
    await storage.open()
    try:
        config = Config(token=None, db_path="", dev_guild=None, log_level="WARNING",
                        default_deadline=86400, reminder_lead=3600, docs_url="")
        sessions = Sessions(storage, config)
        table = await sessions.open_table(guild_id=1, channel_id=2, host_id=None, host_name="Ann",
                                          game_key="cult_wars", bots=3, seed=4, host_plays=False)
        await sessions.start(table.id, None)
        snap = await sessions.snapshot(table.id)
        calls: list[Any] = []

        async def cpu(fn: Any, *args: Any) -> Any:
            calls.append(fn)
            return await asyncio.to_thread(fn, *args)

        pooled = DiscordDelivery(None, storage, Forms(), cpu=cpu, now=sessions.now,  # type: ignore[arg-type]
                                 render=pool)
        _, files, _ = await pooled.board_payload(snap, [], with_image=True)
        assert calls == []  # nothing drawn on the bot's own threads
        in_process = DiscordDelivery(None, storage, Forms(), cpu=cpu, now=sessions.now)  # type: ignore[arg-type]
        _, same, _ = await in_process.board_payload(snap, [], with_image=True)
        assert calls and files == same and files[0][0] == "board.png"
    finally:
        await storage.close()


def _dies_in_a_worker(value: int) -> int:
    """Kills the worker process it runs in (as the out-of-memory killer would); harmless in the
    test's own process, where the fallback runs it."""
    if multiprocessing.parent_process() is not None:
        os._exit(1)
    return value * 2


async def test_a_worker_killed_by_a_signal_costs_no_image_and_the_pool_is_rebuilt() -> None:
    engine, state, events = _position("hegemony_of_faith")
    public = engine.view(state, None)
    names = _names(_players("hegemony_of_faith"))
    expected = render_pool.board_png("hegemony_of_faith", public, events, names)
    pool = RenderPool(1)
    try:
        before = await pool.worker_pids()
        assert len(before) == 1 and os.getpid() not in before
        os.kill(next(iter(before)), signal.SIGKILL)
        assert await pool.run(render_pool.board_png, "hegemony_of_faith", public, events, names) == expected
        assert (pool.rebuilds, pool.fallbacks) == (1, 1)
        # the next image is drawn by a new worker
        assert await pool.run(render_pool.board_png, "hegemony_of_faith", public, events, names) == expected
        after = await pool.worker_pids()
        assert len(after) == 1 and not after & before
        assert (pool.rebuilds, pool.fallbacks) == (1, 1)
    finally:
        pool.close()


async def test_a_worker_dying_while_it_draws_costs_no_image() -> None:
    pool = RenderPool(1)
    try:
        results = await asyncio.gather(*(pool.run(_dies_in_a_worker, n) for n in range(3)))
        assert results == [0, 2, 4]
        assert pool.rebuilds == 1 and pool.fallbacks == 3
        assert await pool.run(os.getpid) != os.getpid()  # a new pool, in a worker again
    finally:
        pool.close()


async def test_data_a_worker_cannot_receive_is_drawn_in_process(pool: RenderPool) -> None:
    fallbacks = pool.fallbacks
    unpicklable = lambda: 42  # noqa: E731 - a lambda cannot be pickled
    assert await pool.run(unpicklable) == 42
    assert pool.fallbacks == fallbacks + 1 and pool.rebuilds == 0


async def test_a_drawing_that_fails_fails_as_it_would_in_process(pool: RenderPool) -> None:
    with pytest.raises(KeyError):
        await pool.run(render_pool.board_png, "hegemony_of_faith", {}, [], [])
    with pytest.raises(KeyError):
        await RenderPool(0).run(render_pool.board_png, "hegemony_of_faith", {}, [], [])


async def test_without_processes_everything_is_drawn_by_the_fallback() -> None:
    calls: list[Any] = []

    async def cpu(fn: Any) -> Any:
        calls.append(fn)
        return fn()

    pool = RenderPool(0, cpu)
    assert await pool.run(os.getpid) == os.getpid() and len(calls) == 1
    assert await pool.worker_pids() == set()
    pool.close()
    closed = RenderPool(1, cpu)
    closed.close()
    assert await closed.run(os.getpid) == os.getpid() and len(calls) == 2


def test_the_number_of_render_processes_is_configured_and_checked() -> None:
    cores = len(os.sched_getaffinity(0))
    assert Config.from_env({}).render_processes == (1 if cores >= 2 else 0) == default_render_processes()
    assert Config.from_env({"HERALD_RENDER_PROCESSES": "0"}).render_processes == 0
    assert Config.from_env({"HERALD_RENDER_PROCESSES": " 2 "}).render_processes == 2
    for bad in ("-1", "17", "two", "1.5", "²"):
        with pytest.raises(ConfigError, match="HERALD_RENDER_PROCESSES"):
            Config.from_env({"HERALD_RENDER_PROCESSES": bad})
    with pytest.raises(ValueError):
        RenderPool(17)


def _stops_in_a_worker(n: int) -> int:
    """Hangs in a worker process (a stopped or wedged worker), answers at once in-process."""
    if multiprocessing.parent_process() is not None:
        os.kill(os.getpid(), signal.SIGSTOP)  # (stopped: it never answers, and never dies)
    return n * 3


async def test_a_hung_worker_is_stopped_and_its_job_done_in_process(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(render_pool, "JOB_TIMEOUT", 1.0)
    pool = RenderPool(1)
    try:
        hung = await pool.worker_pids()
        assert await asyncio.wait_for(pool.run(_stops_in_a_worker, 5), 30) == 15  # (after 1 s)
        assert (pool.rebuilds, pool.fallbacks) == (1, 1)
        for _ in range(100):  # the hung worker is ended, not left behind
            if not any(_alive(pid) for pid in hung):
                break
            await asyncio.sleep(0.05)
        assert not any(_alive(pid) for pid in hung)
        fresh = await pool.worker_pids()
        assert fresh and not fresh & hung
    finally:
        pool.close()


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split()[2] != "Z"  # (a zombie is dead, just not yet reaped)
    except FileNotFoundError:
        return False


@contextlib.asynccontextmanager
async def _sessions_with(pool: RenderPool, tmp_path: Path) -> AsyncIterator[Sessions]:
    """Sessions over a new database, with ``pool`` as their worker pool."""
    storage = SqliteStorage(str(tmp_path / "herald.db"))
    await storage.open()
    try:
        sessions = Sessions(storage, Config(token=None, db_path="", dev_guild=None, log_level="WARNING",
                                            default_deadline=86400, reminder_lead=3600, docs_url=""))
        sessions.searches = pool
        yield sessions
    finally:
        await storage.close()


async def test_a_players_own_pictures_are_drawn_in_a_worker_with_the_same_bytes(
        pool: RenderPool, tmp_path: Path) -> None:
    from bot.ratings import leaderboard_image
    from bot.render import to_png
    from bot.storage.base import RatingRow
    from cogs.flick_of_faith.render import aim_image

    engine, state, _ = _position("flick_of_faith")
    view = engine.view(state, 0)
    names = _names(_players("flick_of_faith"))
    rows = [RatingRow(1, "duel", 10 + k, name, 25.0 + k, 8.0 - k, 3 + k, k, 0.0)
            for k, name in enumerate(names)]
    async with _sessions_with(pool, tmp_path) as sessions:
        before = pool.fallbacks
        aim = await sessions.picture(aim_image, view, 0, 40.0, 7.0, names=names)
        board = await sessions.picture(leaderboard_image, "High Card Duel", rows, 1, "this server")
        assert pool.fallbacks == before  # (drawn in the worker, not here)
        assert aim == to_png(aim_image(view, 0, 40.0, 7.0, names=names))
        assert board == to_png(leaderboard_image("High Card Duel", rows, 1, "this server"))
        sessions.searches = None  # without workers: the same bytes, from a thread
        assert await sessions.picture(aim_image, view, 0, 40.0, 7.0, names=names) == aim


async def test_a_replay_and_an_export_are_made_in_a_worker_with_the_same_bytes(
        pool: RenderPool, tmp_path: Path) -> None:
    """The long work over a whole log (``/game replay``'s GIF, ``/game export``'s file) is done by
    a worker, never on a thread of the bot's process, and gives what the bot would have made."""
    from bot.replay import export_bytes, replay_gif
    from tests.unit.test_replay import played

    game, actions, events = played("cult_wars", 12)
    async with _sessions_with(pool, tmp_path) as sessions:
        async def not_here(fn: Callable[..., Any], *args: Any) -> Any:
            raise AssertionError("done on a thread of the bot's process")

        sessions.cpu = not_here  # type: ignore[method-assign]
        before = pool.fallbacks
        gif = await sessions.game_work(replay_gif, game.game_key, game, actions)
        name, data = await sessions.game_work(export_bytes, game.game_key, game, actions, events)
        assert pool.fallbacks == before
        assert gif == replay_gif(game.game_key, game, actions) and gif.startswith(b"GIF8")
        assert (name, data) == export_bytes(game.game_key, game, actions, events)
        assert name == f"herald-game-{game.id}-public.json"
