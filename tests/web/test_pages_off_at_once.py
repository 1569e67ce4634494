"""A server turning its web pages off closes its games' open pages at once — not at their next
periodic look (``KEEPALIVE``, 15 s): ``/herald settings web_pages:false`` on a simulated Discord
ends the open game page's and player page's streams of this process, and over PostgreSQL a change
saved by one process ends the pages open on another. Pages of the other servers stay open."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import aiohttp
import discord
import simcord
from aiohttp.test_utils import TestClient, TestServer

from bot.app import HeraldBot
from bot.session import Sessions
from bot.storage import PostgresStorage
from bot.web import WebServer
from bot.web import server as web_server
from tests.discord.helpers import reply_text
from tests.support.sessions import CONFIG, GUEST, HOST, THIRD, Clock
from tests.web.conftest import BASE
from tests.web.test_browser import simcord_bot  # noqa: F401  (the bot with its web pages on)
from tests.web.test_live import next_event

FAST = 1.0
"""Seconds within which an open page hears that its server turned pages off."""


async def _cult_wars(sessions: Sessions, guild_id: int) -> int:
    table = await sessions.open_table(guild_id=guild_id, channel_id=2, host_id=HOST, host_name="Ann",
                                      game_key="cult_wars", seed=9)
    await sessions.join(table.id, GUEST, "Bo")
    await sessions.join(table.id, THIRD, "Cy")
    await sessions.start(table.id, HOST)
    return table.id


async def _open_streams(http: Any, web: WebServer, sessions: Sessions, game_id: int,
                        base: str) -> tuple[Any, Any]:
    """The game page's stream (its first step heard) and seat 0's player page stream."""
    public = (await web.ensure_link(game_id)).removeprefix(web.base_url)
    link = await web.player_link(await sessions.get(game_id), 0)
    assert link is not None
    version = (await sessions.get(game_id)).version
    stream = await http.get(base + public + "live")
    assert (await next_event(stream))[0] == "head"
    player = await http.get(base + link.removeprefix(web.base_url) + f"live?v={version}")
    assert player.status == 200
    await asyncio.sleep(0.1)  # (both streams wait on their game now)
    return stream, player


async def test_herald_settings_web_pages_off_closes_the_servers_open_pages_at_once(
        simcord_env: simcord.Env, simcord_bot: HeraldBot) -> None:  # noqa: F811
    assert web_server.KEEPALIVE >= 10  # (the periodic look is far away: only the change can close them)
    guild = simcord_env.create_guild()
    games = guild.create_text_channel("games")
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    mod = guild.add_member(simcord_env.create_user("mod"), roles=[mods])
    assert simcord_bot.web is not None
    here = await _cult_wars(simcord_bot.sessions, guild.id)
    elsewhere = await _cult_wars(simcord_bot.sessions, guild.id + 1)
    async with aiohttp.ClientSession() as http:
        web = simcord_bot.web
        stream, player = await _open_streams(http, web, simcord_bot.sessions, here, web.url)
        other, _ = await _open_streams(http, web, simcord_bot.sessions, elsewhere, web.url)
        began = time.perf_counter()
        r = await mod.slash(games, "herald settings", web_pages=False)
        assert "Saved" in str(reply_text(r))
        assert (await next_event(stream, timeout=FAST))[0] == "gone"
        assert (await next_event(player, timeout=FAST))[0] == "changed"  # (it reloads: not found)
        assert time.perf_counter() - began < FAST + 0.5
        assert (await http.get(web.url + (await web.ensure_link(here)).removeprefix(web.base_url))).status == 404
        # another server's open page is not closed
        other_next = asyncio.ensure_future(next_event(other, timeout=0.5))
        try:
            await other_next
            raise AssertionError("another server's page heard something")
        except TimeoutError:
            pass
        for s in (stream, player, other):
            s.close()


async def test_a_server_turning_pages_off_in_one_process_closes_pages_open_on_another(
        postgres_url: str) -> None:
    """Two processes over one PostgreSQL database: A saves the server's settings with its pages
    off; B hears the change through its settings channel and its open pages end at once."""
    one, two = PostgresStorage(postgres_url), PostgresStorage(postgres_url)
    await one.open()
    await two.open()
    try:
        a, b = Sessions(one, CONFIG, now=Clock()), Sessions(two, CONFIG, now=Clock())
        game_id = await _cult_wars(a, 41)
        web_b = WebServer(b, two, BASE)
        web_b.attach()
        await two.listen(lambda: None)  # (B listens on its channels, as a running bot does)
        async with TestClient(TestServer(web_b.app)) as client:
            stream, player = await _open_streams(client, web_b, b, game_id, "")
            assert (await two.guild_settings(41)).web_pages  # (B keeps the settings it read)
            began = time.perf_counter()
            settings = await one.guild_settings(41)
            settings.web_pages = False
            await one.save_guild_settings(settings)
            assert (await next_event(stream, timeout=FAST))[0] == "gone"
            assert (await next_event(player, timeout=FAST))[0] == "changed"
            assert time.perf_counter() - began < FAST + 0.5
            stream.close()
            player.close()
        await web_b.stop()
    finally:
        await one.close()
        await two.close()
