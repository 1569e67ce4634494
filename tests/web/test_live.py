"""The live stream: a move stored through the session reaches an open page's stream within a
second, without a reload; what no listener of this process heard (an undo, another process's
move) reaches it at its next look; a game whose page closes says so."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from aiohttp import ClientResponse

from bot.session import Ticket
from bot.web import WebServer
from bot.web import server as web_server
from tests.support.sessions import GUEST, HOST, THIRD, Env
from tests.web.conftest import Client, page_path


async def next_event(stream: ClientResponse, timeout: float = 5.0) -> tuple[str, dict[str, Any]]:
    """The next event of a server-sent event stream (comments skipped)."""
    kind, data = "message", ""
    while True:
        line = (await asyncio.wait_for(stream.content.readline(), timeout)).decode().rstrip("\n")
        if line.startswith("event: "):
            kind = line[7:]
        elif line.startswith("data: "):
            data = line[6:]
        elif line == "" and data:
            return kind, json.loads(data)


async def _table(env: Env) -> int:
    s = env.sessions
    table = await s.open_table(guild_id=1, channel_id=2, host_id=HOST, host_name="Ann",
                               game_key="cult_wars", seed=9)
    await s.join(table.id, GUEST, "Bo")
    await s.join(table.id, THIRD, "Cy")
    await s.start(table.id, HOST)
    return table.id


async def _move(env: Env, game_id: int, seat: int) -> None:
    snap = await env.sessions.snapshot(game_id)
    mine = snap.prompt_of(seat)
    assert mine is not None
    await env.sessions.act(game_id, seat, mine.prompt.choices[0].action, answers=Ticket(mine.opened))


async def test_a_move_reaches_an_open_page_within_a_second(env: Env, web: WebServer, client: Client) -> None:
    game_id = await _table(env)
    path = await page_path(web, game_id)
    stream = await client.get(path + "live")
    assert stream.headers["Content-Type"] == "text/event-stream"
    kind, head = await next_event(stream)
    assert (kind, head["last"], head["finished"]) == ("head", 0, False)
    for seat, expected in ((0, 1), (2, 2)):
        began = time.perf_counter()
        await _move(env, game_id, seat)
        kind, step = await next_event(stream, timeout=1.0)
        assert (kind, step["last"], step["n"]) == ("step", expected, expected)
        assert time.perf_counter() - began < 1.0
        # the stream carries the step itself: what the page would fetch, log since the last one
        fetched = await (await client.get(path + f"at/{expected}.json?since={step['since']}"
                                                 f"&chain={head['chain']}")).json()
        assert fetched == step and step["since"] == expected - 1 and step["live"] is True
        assert f'<li class="move" data-n="{expected}">' in step["log"]
        head = {"chain": step["chain"]}
    stream.close()


async def test_several_open_pages_all_hear_of_the_move(env: Env, web: WebServer, client: Client) -> None:
    game_id = await _table(env)
    path = await page_path(web, game_id)
    streams = [await client.get(path + "live") for _ in range(5)]
    for s in streams:
        await next_event(s)
    await _move(env, game_id, 1)
    steps = [await next_event(s, timeout=1.0) for s in streams]
    assert all(kind == "step" and step["last"] == 1 for kind, step in steps)
    assert len({step["chain"] for _, step in steps}) == 1
    for s in streams:
        s.close()


async def test_a_change_no_listener_heard_reaches_the_page_at_its_next_look(
        env: Env, web: WebServer, client: Client, monkeypatch: Any) -> None:
    monkeypatch.setattr(web_server, "KEEPALIVE", 0.2)
    game_id = await _table(env)
    path = await page_path(web, game_id)
    stream = await client.get(path + "live")
    await next_event(stream)
    env.sessions.listeners.clear()  # (as if another process had stored the move)
    await _move(env, game_id, 0)
    kind, step = await next_event(stream, timeout=2.0)
    assert (kind, step["last"]) == ("step", 1)
    await env.storage.update_game(game_id, status="cancelled")
    kind, _ = await next_event(stream, timeout=2.0)
    assert kind == "gone"
    stream.close()
