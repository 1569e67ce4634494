"""The web pages over PostgreSQL: a game's page, its history and its live stream read the same
from the other backend (tokens, the action log and the stored state as PostgreSQL returns them)."""

from __future__ import annotations

from aiohttp.test_utils import TestClient, TestServer

from bot.session import Sessions
from bot.storage import PostgresStorage
from bot.web import WebServer
from tests.support.sessions import CONFIG, Clock
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
