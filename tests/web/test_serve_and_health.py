"""``python -m bot serve`` shows a database's games without Discord, and ``python -m bot health``
asks the web server too when the pages are on."""

from __future__ import annotations

import asyncio
import dataclasses
import re
import socket
from pathlib import Path

import aiohttp
import pytest

from bot import health
from bot.config import Config
from bot.web import WebServer
from bot.web import serve as web_serve
from tests.support.sessions import CONFIG, session_env
from tests.web.conftest import played


def _config(db: Path, **more: object) -> Config:
    return dataclasses.replace(CONFIG, db_path=str(db), **more)  # type: ignore[arg-type]


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def test_serve_prints_each_games_page_and_serves_it(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    async with session_env(tmp_path) as env:
        one = await played(env, "petition", seed=1)
        two = await played(env, "cult_wars", seed=2)
    started: list[WebServer] = []
    stop = asyncio.Event()
    task = asyncio.create_task(web_serve.serve(_config(tmp_path / "herald.db"), ("127.0.0.1", 0),
                                               ready=started.append, stop=stop))
    await _until(started)
    out = capsys.readouterr().out
    urls = re.findall(r"game #(\d+) \(([^,]+), finished\): (http://127\.0\.0\.1:\d+/g/[A-Za-z0-9_-]{32}/)", out)
    assert [(int(i), name) for i, name, _ in urls] == [(one.id, "Petition"), (two.id, "Cult Wars")]
    async with aiohttp.ClientSession() as http:
        for _, name, url in urls:
            async with http.get(url) as r:
                assert r.status == 200 and f"<h1>{name}</h1>" in await r.text()
    stop.set()
    assert await asyncio.wait_for(task, 10) == 0


def test_serve_refuses_a_database_that_is_not_there(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    assert web_serve.main(_config(tmp_path / "none.db"), None) == 2
    assert "there is no Herald database" in capsys.readouterr().err
    assert not (tmp_path / "none.db").exists()


def test_serve_refuses_an_address_it_cannot_listen_on(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "herald.db").write_bytes(b"x")
    assert web_serve.main(_config(tmp_path / "herald.db"), "nowhere") == 2
    assert "--bind='nowhere' is not an address to listen on" in capsys.readouterr().err


async def test_health_asks_the_web_server_when_the_pages_are_on(tmp_path: Path) -> None:
    async with session_env(tmp_path):
        pass
    started: list[WebServer] = []
    stop = asyncio.Event()
    task = asyncio.create_task(web_serve.serve(_config(tmp_path / "herald.db"), ("127.0.0.1", 0),
                                               ready=started.append, stop=stop))
    await _until(started)
    try:
        port = started[0].port
        assert port is not None
        assert await asyncio.to_thread(health.check_web, health.web_probe(("0.0.0.0", port))) is None
    finally:
        stop.set()
        await asyncio.wait_for(task, 10)
    closed = health.web_probe(("127.0.0.1", _closed_port()))
    problem = health.check_web(closed, timeout=2)
    assert problem is not None and problem.startswith(f"the web server at {closed} does not answer")


def test_health_asks_this_machine_when_the_server_listens_everywhere() -> None:
    assert health.web_probe(("0.0.0.0", 8080)) == "http://127.0.0.1:8080/healthz"
    assert health.web_probe(("::", 9000)) == "http://[::1]:9000/healthz"
    assert health.web_probe(("herald", 80)) == "http://herald:80/healthz"



async def _until(started: list[WebServer]) -> None:
    for _ in range(400):
        if started:
            return
        await asyncio.sleep(0.025)
    raise AssertionError("serve did not start")
