"""The web pages over PostgreSQL: a game's page, its history and its live stream read the same
from the other backend (tokens, the action log and the stored state as PostgreSQL returns them)."""

from __future__ import annotations

import asyncio
import re
import time

from aiohttp.test_utils import TestClient, TestServer

from bot.session import Sessions
from bot.storage import PostgresStorage
from bot.web import WebServer
from tests.support.sessions import CONFIG, GUEST, HOST, THIRD, Clock
from tests.web.conftest import BASE
from tests.web.test_live import next_event


async def test_a_game_page_and_its_history_over_postgresql(postgres_url: str) -> None:
    storage = PostgresStorage(postgres_url)
    await storage.open()
    try:
        sessions = Sessions(storage, CONFIG, now=Clock())
        table = await sessions.open_table(guild_id=1, channel_id=2, host_id=None, host_name="-",
                                          game_key="petition", bots=2, seed=4, host_plays=False)
        await sessions.start(table.id, None, is_admin=True)
        web = WebServer(sessions, storage, BASE)
        web.attach()
        path = (await web.ensure_link(table.id)).removeprefix(BASE)
        async with TestClient(TestServer(web.app)) as client:
            page = await client.get(path)
            assert page.status == 200 and "<h1>Petition</h1>" in await page.text()
            last = len(await storage.actions(table.id))
            for n in (0, last // 2, last):
                step = await (await client.get(path + f"at/{n}.json")).json()
                assert (step["n"], step["last"]) == (n, last)
                board = await client.get(path + step["board"])
                assert board.status == 200 and (await board.read()).startswith(b"\x89PNG")
            stream = await client.get(path + "live")
            kind, head = await next_event(stream)
            assert (kind, head["last"], head["finished"]) == ("head", last, True)
            stream.close()
        await web.stop()
    finally:
        await storage.close()


async def test_a_move_stored_by_one_process_reaches_pages_open_on_another_within_a_second(
        postgres_url: str) -> None:
    """Two processes over one PostgreSQL database: A stores a move (its web server announces it),
    B hears it through LISTEN/NOTIFY and its open game page and player page update at once — not
    at their next periodic look. A player link A made opens on B (one secret for every process)."""
    one, two = PostgresStorage(postgres_url), PostgresStorage(postgres_url)
    await one.open()
    await two.open()
    try:
        a, b = Sessions(one, CONFIG, now=Clock()), Sessions(two, CONFIG, now=Clock())
        table = await a.open_table(guild_id=1, channel_id=2, host_id=HOST, host_name="Ann",
                                   game_key="cult_wars", seed=9)
        await a.join(table.id, GUEST, "Bo")
        await a.join(table.id, THIRD, "Cy")
        await a.start(table.id, HOST)
        web_a, web_b = WebServer(a, one, BASE), WebServer(b, two, BASE)
        web_a.attach()
        web_b.attach()
        await two.listen(lambda: None)
        path = (await web_a.ensure_link(table.id)).removeprefix(BASE)
        link = await web_a.player_link(await a.get(table.id), 1)
        assert link is not None
        mine = link.removeprefix(BASE)
        async with TestClient(TestServer(web_b.app)) as client:
            page = await client.get(mine)
            assert page.status == 200
            version = int(re.search(r'data-version="(\d+)"', await page.text())[1])  # type: ignore[index]
            stream = await client.get(path + "live")
            player = await client.get(mine + f"live?v={version}")
            kind, head = await next_event(stream)
            assert (kind, head["last"]) == ("head", 0)
            await asyncio.sleep(0.2)
            snap = await a.snapshot(table.id)
            first = snap.prompt_of(0)
            assert first is not None
            began = time.perf_counter()
            await a.act(table.id, 0, dict(first.prompt.choices[0].action), answers=first.ticket)
            kind, step = await next_event(stream, timeout=1.0)
            assert (kind, step["last"]) == ("step", 1)
            kind, _ = await next_event(player, timeout=1.0)
            assert kind == "changed"
            assert time.perf_counter() - began < 1.0
            stream.close()
            player.close()
        await web_a.stop()
        await web_b.stop()
    finally:
        await one.close()
        await two.close()
