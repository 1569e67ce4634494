"""The web tests' server: Herald's web application on sessions over a real SQLite file, reached
through aiohttp's test client, and games played to the end by computer players; and a bare
storage on each backend for the tests of what the web keeps."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiohttp import web as aiohttp_web
from aiohttp.test_utils import TestClient, TestServer

from bot.storage import GameRow, Storage, open_storage
from bot.web import WebServer
from tests.support.sessions import Env, session_env
from tests.support.storage import BACKENDS, new_location, opened

BASE = "https://herald.example.org"
PLAYERS = {"cult_wars": 3, "petition": 2, "alternate_histories": 2, "hegemony_of_faith": 4,
           "flick_of_faith": 2}
"""A table size for each game (the smallest that plays its usual course)."""

Client = TestClient[aiohttp_web.Request, aiohttp_web.Application]
"""aiohttp's test client of Herald's web application (the ``client`` fixture)."""


@pytest.fixture(params=BACKENDS)
def location(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A new database on each backend."""
    return new_location(request, tmp_path)


@pytest.fixture
async def store(location: str) -> AsyncIterator[Storage]:
    """That database, opened."""
    async with opened(open_storage(location)) as s:
        yield s


@pytest.fixture
async def env(tmp_path: Path) -> AsyncIterator[Env]:
    async with session_env(tmp_path) as e:
        yield e


@pytest.fixture
async def web(env: Env) -> AsyncIterator[WebServer]:
    server = WebServer(env.sessions, env.storage, BASE)
    server.attach()
    yield server
    await server.stop()


@pytest.fixture
async def client(web: WebServer) -> AsyncIterator[Client]:
    async with TestClient(TestServer(web.app)) as c:
        yield c


async def played(env: Env, key: str, seed: int = 5, players: int | None = None) -> GameRow:
    """A game of ``key`` between computer players, played to its end."""
    s = env.sessions
    table = await s.open_table(guild_id=1, channel_id=2, host_id=None, host_name="-", game_key=key,
                               bots=players or PLAYERS[key], seed=seed, host_plays=False)
    await s.start(table.id, None, is_admin=True)
    return await s.get(table.id)


async def page_path(web: WebServer, game_id: int) -> str:
    """The path of a game's page (its address without the public base)."""
    return (await web.ensure_link(game_id)).removeprefix(BASE)
