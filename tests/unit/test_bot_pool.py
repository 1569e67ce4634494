"""Heavy computer players searched in worker processes (``Engine.heavy_bot``, ``bot.render.pool``):
the choice a worker makes is the one the bot makes in-process, for many Flick of Faith positions
and for whole games through the session (whose replays still verify); light engines never cross;
a dead worker costs a search's time, never its answer."""

from __future__ import annotations

import os
import random
import signal
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from bot.config import Config
from bot.render import pool as work
from bot.render.pool import WorkPool
from bot.session import NullDelivery, Sessions
from bot.storage import SqliteStorage
from rules import registry
from rules import search as rules_search
from rules.engine import Engine, Prompt
from tests.support import duel

FLICK = "flick_of_faith"
CONFIG = Config(token=None, db_path="", dev_guild=None, log_level="WARNING",
                default_deadline=86400, reminder_lead=3600, docs_url="")


@pytest.fixture(scope="module")
def pool() -> Iterator[WorkPool]:
    """One worker for the module (spawning a worker costs about a second)."""
    made = WorkPool(1)
    try:
        yield made
    finally:
        made.close()


@cache
def _positions() -> list[tuple[dict[str, Any], Prompt, str]]:
    """Flick of Faith positions of 2, 3 and 4 players along seeded games, every prompt kind the
    computer player meets: (the state's JSON, an open prompt, the seed of the rng)."""
    engine = registry.get(FLICK)
    out: list[tuple[dict[str, Any], Prompt, str]] = []
    for seed in range(1, 7):
        players = 2 + seed % 3
        state = engine.setup(players, seed, {})
        for move in range(14 + 3 * seed):
            if engine.result(state) is not None:
                break
            prompts = engine.prompts(state)
            if move % 2 == 0 or len(prompts) > 1:
                out.extend((engine.to_json(state), p, f"{seed}/bot/{move}/{p.seat}") for p in prompts)
            prompt = prompts[0]
            rng = random.Random(f"{seed}/walk/{move}")
            action = engine.bot_action(engine.view(state, prompt.seat), prompt, rng)
            state, _ = engine.apply(state, prompt.seat, action)
    return out


def _here(engine: Engine[Any], data: dict[str, Any], prompt: Prompt, seed: str) -> dict[str, Any]:
    """The choice as the session makes it in-process (``Sessions._bot_choice``: the parsed state's
    view, an rng seeded from ``seed``)."""
    state = engine.from_json(data)
    return engine.bot_action(engine.view(state, prompt.seat), prompt, random.Random(seed))


def test_flick_of_faith_is_heavy_and_the_light_games_are_not() -> None:
    heavy = {key for key, engine in registry.all_engines().items() if engine.heavy_bot}
    assert FLICK in heavy and "hegemony_of_faith" not in heavy and "cult_wars" not in heavy
    assert work.searched(FLICK)
    # a game registered at run time (the tests' duel, registered by the test configuration) is
    # unknown to a worker: searched in-process
    assert duel.ENGINE.key in registry.all_engines()
    assert not work.searched(duel.ENGINE.key)


async def test_a_worker_chooses_exactly_what_the_bot_chooses_in_process(pool: WorkPool) -> None:
    engine = registry.get(FLICK)
    positions = _positions()
    kinds = {p.kind for _, p, _ in positions}
    assert len(positions) >= 60 and {"flick", "vote"} <= kinds, kinds
    assert os.getpid() not in await pool.worker_pids()
    for data, prompt, seed in positions:
        there = await pool.search(work.bot_choice, FLICK, data, prompt, seed)
        assert there == _here(engine, data, prompt, seed), (prompt.kind, seed)
    for data, prompt, _ in positions[::5]:  # a deadline's action too (the computer player's)
        there = await pool.search(work.timeout_choice, FLICK, data, prompt)
        assert there == rules_search.timeout_action(engine, engine.from_json(data), prompt)
    assert pool.fallbacks == 0 and pool.rebuilds == 0


async def _play(tmp_path: Path, name: str, searches: WorkPool | None, seed: int,
                game_key: str = FLICK, bots: int = 3) -> tuple[Sessions, int, list[Any], list[str]]:
    """A game of computer players only, played to its end through the session: (the sessions,
    the game's id, its stored actions, the names of the functions run on the bot's threads)."""
    storage = SqliteStorage(str(tmp_path / f"{name}.db"))
    await storage.open()
    on_threads: list[str] = []

    async def cpu(fn: Any, *args: Any) -> Any:
        on_threads.append(getattr(fn, "__name__", type(fn).__name__))
        return fn(*args)

    sessions = Sessions(storage, CONFIG, NullDelivery(), run_cpu=cpu)
    sessions.searches = searches
    try:
        table = await sessions.open_table(guild_id=1, channel_id=2, host_id=None, host_name="Ann",
                                          game_key=game_key, bots=bots, seed=seed, host_plays=False)
        await sessions.start(table.id, None)
        game = await sessions.get(table.id)
        actions = await storage.actions(table.id)
        assert game.status == "finished", game.status
    except BaseException:
        await storage.close()  # (its thread would keep the test process alive)
        raise
    return sessions, table.id, list(actions), on_threads


async def test_a_game_searched_in_a_worker_is_the_game_played_in_process(pool: WorkPool,
                                                                         tmp_path: Path) -> None:
    searches = pool.fallbacks
    here, _, played_here, threads_here = await _play(tmp_path, "here", None, seed=11)
    there, game_id, played_there, threads_there = await _play(tmp_path, "there", pool, seed=11)
    try:
        assert played_there == played_here and len(played_here) > 20
        assert threads_here.count("_bot_choice") == len(played_here)
        assert "_bot_choice" not in threads_there  # every choice was searched in the worker
        assert pool.fallbacks == searches
        assert await there.verify_replay(game_id)
    finally:
        await here.storage.close()
        await there.storage.close()


class _Counting(WorkPool):
    """A pool that counts the searches asked of it."""

    def __init__(self, processes: int) -> None:
        super().__init__(processes)
        self.asked = 0

    async def search(self, fn: Any, key: str, *args: Any) -> Any:
        self.asked += 1
        return await super().search(fn, key, *args)


async def test_a_light_computer_player_never_crosses_to_a_worker(tmp_path: Path) -> None:
    counting = _Counting(1)
    try:
        sessions, _, played, threads = await _play(tmp_path, "light", counting, seed=5,
                                                   game_key="hegemony_of_faith", bots=4)
        await sessions.storage.close()
        assert counting.asked == 0 and counting._executor is None  # (not even started)
        assert threads.count("_bot_choice") == len(played) > 0
    finally:
        counting.close()


async def test_a_deadline_in_a_heavy_game_is_answered_in_a_worker(
        pool: WorkPool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[str] = []
    search = pool.search

    async def recorded(fn: Any, key: str, *args: Any) -> Any:
        asked.append(fn.__name__)
        return await search(fn, key, *args)

    monkeypatch.setattr(pool, "search", recorded)
    storage = SqliteStorage(str(tmp_path / "timeout.db"))
    await storage.open()
    try:
        sessions = Sessions(storage, CONFIG, NullDelivery())
        sessions.searches = pool
        table = await sessions.open_table(guild_id=1, channel_id=2, host_id=7, host_name="Ann",
                                          game_key=FLICK, bots=1, seed=3)
        await sessions.start(table.id, 7)
        snap = await sessions.snapshot(table.id)
        mine = snap.prompt_of(0)
        assert mine is not None and snap.engine.heavy_bot
        expected = rules_search.timeout_action(snap.engine, snap.state, mine.prompt)
        asked.clear()  # (the computer player's own moves at the start)
        assert await sessions._timeout_choice(snap, mine.prompt) == expected
        seed = f"{snap.game.seed}/away/{snap.game.version}/0"
        assert (await sessions._choose(snap, mine.prompt, seed)
                == Sessions._bot_choice(snap, mine.prompt, random.Random(seed)))
        assert asked == ["timeout_choice", "bot_choice"]
    finally:
        await storage.close()


async def test_a_worker_killed_mid_game_costs_no_choice_and_the_pool_is_rebuilt() -> None:
    engine = registry.get(FLICK)
    data, prompt, seed = next(p for p in _positions() if p[1].kind == "flick")
    expected = _here(engine, data, prompt, seed)
    pool = WorkPool(1)
    try:
        before = await pool.worker_pids()
        os.kill(next(iter(before)), signal.SIGKILL)
        assert await pool.search(work.bot_choice, FLICK, data, prompt, seed) == expected
        assert (pool.rebuilds, pool.fallbacks) == (1, 1)
        # the next search runs in a new worker
        assert await pool.search(work.bot_choice, FLICK, data, prompt, seed) == expected
        after = await pool.worker_pids()
        assert len(after) == 1 and not after & before and os.getpid() not in after
        assert (pool.rebuilds, pool.fallbacks) == (1, 1)
    finally:
        pool.close()


async def test_without_processes_the_search_runs_on_the_bots_threads() -> None:
    engine = registry.get(FLICK)
    data, prompt, seed = _positions()[0]
    calls: list[Any] = []

    async def cpu(fn: Any) -> Any:
        calls.append(fn)
        return fn()

    assert (await WorkPool(0, cpu).search(work.bot_choice, FLICK, data, prompt, seed)
            == _here(engine, data, prompt, seed))
    assert len(calls) == 1
