"""A table's computer-player strength (the ``computer`` option, ``rules.search``) on the platform:
a searching strength is asked of the worker pool, never computed on the event loop; without a
pool it runs on a thread; a whole game of searching players finishes and replays exactly."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.config import Config
from bot.render import pool as work
from bot.render.pool import WorkPool
from bot.session import NullDelivery, Sessions
from bot.storage import SqliteStorage
from rules import registry, search

CONFIG = Config(token=None, db_path="", dev_guild=None, log_level="WARNING",
                default_deadline=86400, reminder_lead=3600, docs_url="")


class _Counting(WorkPool):
    """A pool that records the searches asked of it."""

    def __init__(self, processes: int) -> None:
        super().__init__(processes)
        self.asked: list[str] = []

    async def search(self, fn: Any, key: str, *args: Any) -> Any:
        self.asked.append(fn.__name__)
        return await super().search(fn, key, *args)


@pytest.fixture
def tiny(monkeypatch: pytest.MonkeyPatch) -> None:
    """Budgets of a few iterations, so a whole game of searching players takes seconds."""
    monkeypatch.setattr(search, "BUDGETS", {"normal": search.Budget(2, 3), "hard": search.Budget(3, 4)})


async def _table(tmp_path: Path, name: str, strength: str, searches: WorkPool | None,
                 on_threads: list[str]) -> tuple[Sessions, int]:
    storage = SqliteStorage(str(tmp_path / f"{name}.db"))
    await storage.open()

    async def cpu(fn: Any, *args: Any) -> Any:
        on_threads.append(getattr(fn, "__name__", type(fn).__name__))
        return fn(*args)

    sessions = Sessions(storage, CONFIG, NullDelivery(), run_cpu=cpu)
    sessions.searches = searches
    table = await sessions.open_table(guild_id=1, channel_id=2, host_id=None, host_name="Ann",
                                      game_key="cult_wars", bots=3, seed=4, host_plays=False,
                                      options={search.STRENGTH_OPTION: strength})
    return sessions, table.id


async def test_a_table_of_searching_players_plays_to_the_end_and_replays(tmp_path: Path,
                                                                        tiny: None) -> None:
    """Without a pool, every computer move of a ``hard`` table is searched on a thread."""
    threads: list[str] = []
    sessions, game_id = await _table(tmp_path, "hard", "hard", None, threads)
    try:
        await sessions.start(game_id, None)
        game = await sessions.get(game_id)
        played = await sessions.storage.actions(game_id)
        assert game.status == "finished"
        assert threads.count("strength_choice") == len(played) > 20
        assert "_bot_choice" not in threads
        assert await sessions.verify_replay(game_id)
    finally:
        await sessions.storage.close()


@pytest.fixture(scope="module")
def pool() -> Iterator[_Counting]:
    made = _Counting(1)
    try:
        yield made
    finally:
        made.close()


async def test_a_searching_strength_is_asked_of_the_worker_pool(tmp_path: Path,
                                                                pool: _Counting) -> None:
    """A ``normal`` computer player's decision crosses to a worker (it holds no thread of the
    bot's process), and the easy player, as cheap as the heuristic, does not."""
    threads: list[str] = []
    sessions, game_id = await _table(tmp_path, "normal", "normal", pool, threads)
    try:
        snap = await sessions.snapshot(game_id)
        assert snap.state is None  # (not started: nobody has moved)
        engine = registry.get("cult_wars")
        state = engine.setup(3, 4, {})
        prompt = engine.prompts(state)[0]
        snap.game.state = engine.to_json(state)
        before = len(pool.asked)
        action = await sessions._choose(snap, prompt, "4/bot/0/0")
        assert pool.asked[before:] == ["strength_choice"]
        assert "strength_choice" not in threads
        assert action in [c.action for c in prompt.choices]
        snap.game.options = {search.STRENGTH_OPTION: "easy"}
        easy = await sessions._choose(snap, prompt, "4/bot/0/0")
        assert pool.asked[before:] == ["strength_choice"] and threads == ["strength_choice"]
        assert easy == search.choose(engine, engine.view(state, prompt.seat), prompt,
                                     random.Random("4/bot/0/0"), "easy")
    finally:
        await sessions.storage.close()


def test_the_worker_function_is_the_search_of_the_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    """``strength_choice`` answers as ``rules.search.choose`` does from the stored state (with a
    clock that stands still, the iteration budget decides, as it does on a machine fast enough)."""
    import time

    monkeypatch.setattr(time, "perf_counter", lambda: 0.0)
    engine = registry.get("alternate_histories")
    state = engine.setup(2, 8, {})
    rng = random.Random(8)
    while not (engine.prompts(state)[0].kind == "combat" and len(engine.prompts(state)[0].choices) > 1):
        p = engine.prompts(state)[0]
        state, _ = engine.apply(state, p.seat, engine.bot_action(engine.view(state, p.seat), p, rng))
    prompt = engine.prompts(state)[0]
    here = search.search(engine, engine.view(state, prompt.seat), prompt, random.Random("s"),
                         search.budget_for(engine, "normal"))
    there = work.strength_choice("alternate_histories", engine.to_json(state), prompt, "s", "normal")
    assert there == here
