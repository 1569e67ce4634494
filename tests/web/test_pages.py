"""Every route of the web pages through aiohttp's test client: the game page, every step of the
history of a seeded game of each game, the board at full resolution, the refusals (one 404 for
all, a cancelled game's link dead), the security headers, and the board's link button."""

from __future__ import annotations

import asyncio
import json
import re

import discord
import pytest

from bot import views
from bot.render.pool import board_png
from bot.web import WebServer
from bot.web.pages import NOT_FOUND
from bot.web.server import CSP
from rules import registry
from tests.support.sessions import GUEST, HOST, THIRD, Env
from tests.web.conftest import BASE, PLAYERS, Client, page_path, played

NAMES = ["Алиса <b>&amp;", "李雷", "محمد"]
"""Names in three scripts (one right to left), the first with text that would be markup."""


async def _named_table(env: Env) -> int:
    """A Cult Wars table of three members named in three scripts, started (nobody has moved)."""
    s = env.sessions
    table = await s.open_table(guild_id=1, channel_id=2, host_id=HOST, host_name=NAMES[0],
                               game_key="cult_wars", seed=9)
    await s.join(table.id, GUEST, NAMES[1])
    await s.join(table.id, THIRD, NAMES[2])
    await s.start(table.id, HOST)
    return table.id


async def test_the_game_page_shows_each_name_as_text_in_its_script(env: Env, web: WebServer,
                                                                   client: Client) -> None:
    game_id = await _named_table(env)
    path = await page_path(web, game_id)
    r = await client.get(path)
    assert r.status == 200 and r.content_type == "text/html"
    body = await r.text()
    assert '<bdi class="name seat-0">Алиса &lt;b&gt;&amp;amp;</bdi>' in body
    assert '<bdi class="name seat-1">李雷</bdi>' in body and '<bdi class="name seat-2">محمد</bdi>' in body
    assert "<b>&amp;" not in body  # (the name's markup is text, never markup)
    # who must do what: all three choose their target, each with the deadline in a <time>
    assert body.count("<td>target <span class=\"due\">by <time datetime=") == 3
    assert 'src="board/0-' in body and 'alt="' in body
    token = path.split("/")[2]
    assert token not in body and BASE not in body  # (addresses in a page are relative)


async def test_every_answer_carries_the_strict_content_security_policy(env: Env, web: WebServer,
                                                                        client: Client) -> None:
    game = await played(env, "cult_wars")
    path = await page_path(web, game.id)
    page = await client.get(path)
    data = await (await client.get(path + "at/0.json")).json()
    for r in (page, await client.get(path + data["board"]), await client.get("/static/herald.js"),
              await client.get("/static/herald.css"), await client.get("/static/seats-cult_wars.css"),
              await client.get(path + "at/0.json"), await client.get("/g/" + "x" * 32 + "/")):
        assert r.headers["Content-Security-Policy"] == CSP
        assert r.headers["Referrer-Policy"] == "no-referrer"
        assert r.headers["X-Content-Type-Options"] == "nosniff"
    assert "'unsafe-inline'" not in CSP and "http" not in CSP
    body = await page.text()
    # nothing from elsewhere: every address the page loads is relative to Herald itself
    assert not re.search(r'(src|href)="(https?:)?//', body)
    assert "<style" not in body and " style=" not in body and "<script>" not in body


@pytest.mark.parametrize("key", sorted(PLAYERS))
async def test_history_shows_every_step_of_a_seeded_game_as_it_was(key: str, env: Env, web: WebServer,
                                                                   client: Client) -> None:
    """Each step's panels and alt text are those of the public view replayed to that step; the
    board of the start, a middle step and the end is the very PNG Discord's board shows."""
    game = await played(env, key)
    assert game.status == "finished"
    path = await page_path(web, game.id)
    engine = registry.get(key)
    actions = await env.storage.actions(game.id)
    names = [s.name for s in game.seats]
    from bot.gameui import get_ui
    from bot.replay import replay_steps

    ui = get_ui(key)
    steps = list(replay_steps(engine, game, actions))
    last = len(actions)
    assert last == steps[-1].n > 10
    page = await (await client.get(path)).text()
    assert f'data-last="{last}"' in page
    boards = set()
    for step in steps:
        r = await client.get(path + f"at/{step.n}.json")
        assert r.status == 200
        data = await r.json()
        public = engine.view(step.state, None)
        assert (data["n"], data["last"], data["live"]) == (step.n, last, step.n == last)
        assert data["alt"] == ui.board_alt(public, names=names)
        assert data["board"].startswith(f"board/{step.n}-")
        boards.add(data["board"])
        if step.n in (0, last // 2, last):
            png = await client.get(path + data["board"])
            assert png.status == 200 and png.content_type == "image/png"
            events = [e for e in step.events if e.to is None]
            assert await png.read() == board_png(key, public, events, names)
    assert len(boards) == last + 1


async def test_the_log_arrives_in_order_grouped_by_turn(env: Env, web: WebServer, client: Client) -> None:
    game = await played(env, "cult_wars")
    path = await page_path(web, game.id)
    start = await (await client.get(path + "at/0.json")).json()
    assert start["log"] == ""  # (no "since": the page holds its log already)
    later = await (await client.get(path + f"at/12.json?since=0&chain={start['chain']}")).json()
    moves = re.findall(r'<li class="move" data-n="(\d+)">', later["log"])
    assert moves == [str(n) for n in range(1, 13)]
    assert '<li class="turn-head" data-n="' in later["log"] and "<h3>Turn 2</h3>" in later["log"]
    page = await (await client.get(path)).text()
    heads = re.findall(r"<h3>Turn (\d+)</h3>", page)
    assert heads == [str(t) for t in range(1, 9)]  # eight turns, each headed once, in order
    stale = await (await client.get(path + "at/12.json?since=3&chain=0000")).json()
    assert stale["reset"] is True  # (a page whose history is not this game's any more reloads)


async def test_a_wrong_token_gets_the_same_404_as_any_unknown_address(env: Env, web: WebServer,
                                                                      client: Client) -> None:
    game = await played(env, "petition")
    path = await page_path(web, game.id)
    token = path.split("/")[2]
    wrong = token[:-1] + ("A" if token[-1] != "A" else "B")
    answers = []
    for address in (f"/g/{wrong}/", f"/g/{wrong}/live", f"/g/{wrong}/at/0.json", f"/g/{game.id}/",
                    "/g/short/", "/nothing", f"/g/{token}/at/99999.json", f"/g/{token}/board/0-{'0' * 20}.png",
                    "/static/seats-chess.css"):
        r = await client.get(address)
        answers.append((r.status, await r.text()))
    assert answers == [(404, NOT_FOUND)] * len(answers)
    r = await client.post(path)
    assert (r.status, await r.text()) == (404, NOT_FOUND)


async def test_the_address_without_its_slash_leads_to_the_page(env: Env, web: WebServer,
                                                               client: Client) -> None:
    game = await played(env, "petition")
    path = await page_path(web, game.id)
    r = await client.get(path.rstrip("/"), allow_redirects=False)
    assert r.status == 308 and r.headers["Location"] == path.rstrip("/").rsplit("/", 1)[1] + "/"


async def test_a_cancelled_games_link_stops_working(env: Env, web: WebServer, client: Client) -> None:
    game_id = await _named_table(env)
    path = await page_path(web, game_id)
    assert (await client.get(path)).status == 200
    await env.storage.update_game(game_id, status="cancelled")
    for address in (path, path + "at/0.json", path + "live"):
        r = await client.get(address)
        assert (r.status, await r.text()) == (404, NOT_FOUND)


async def test_a_lobby_has_no_page(env: Env, web: WebServer, client: Client) -> None:
    table = await env.sessions.open_table(guild_id=1, channel_id=2, host_id=HOST, host_name="Ann",
                                          game_key="petition")
    path = await page_path(web, table.id)
    assert (await client.get(path)).status == 404


async def test_each_game_gets_its_own_unguessable_token(env: Env, web: WebServer) -> None:
    one, two = await played(env, "petition", seed=1), await played(env, "petition", seed=2)
    a, b = await page_path(web, one.id), await page_path(web, two.id)
    assert a != b and re.fullmatch(r"/g/[A-Za-z0-9_-]{32}/", a) and str(one.id) not in a.split("/")[2][:1]
    assert await page_path(web, one.id) == a  # (kept: the same link every time)


async def test_the_board_message_links_to_the_game_page(env: Env, web: WebServer) -> None:
    game_id = await _named_table(env)  # (its start told the web server, which made its token)
    view = views.board_view(game_id, 1, active=True, has_prompts=True)
    assert view is not None
    links = [c for c in view.children if isinstance(c, discord.ui.Button) and c.url]
    assert [(b.label, b.url) for b in links] == [("Open in browser", web.link(game_id))]
    assert web.link(game_id) == await web.ensure_link(game_id)
    await web.stop()
    view = views.board_view(game_id, 1, active=True, has_prompts=True)
    assert view is not None and not any(isinstance(c, discord.ui.Button) and c.url for c in view.children)


async def test_the_health_route_answers(client: Client) -> None:
    r = await client.get("/healthz")
    assert r.status == 200 and json.loads(await r.text())["ok"] is True



async def test_an_address_asking_too_fast_is_told_to_wait(env: Env, web: WebServer, client: Client,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.web import server

    web.limiter = server._Limiter(rate=0.001, burst=5)
    game = await played(env, "petition")
    path = await page_path(web, game.id)
    mine, other = {"X-Forwarded-For": "198.51.100.7"}, {"X-Forwarded-For": "10.0.0.1, 203.0.113.9"}
    statuses = [(await client.get(path, headers=mine)).status for _ in range(7)]
    assert statuses == [200] * 5 + [429] * 2
    r = await client.get(path, headers=mine)
    assert r.headers["Retry-After"] and r.headers["Content-Security-Policy"] == CSP
    assert (await client.get(path, headers=other)).status == 200  # (another address: its own budget)
    assert (await client.get(path)).status == 200  # (this machine, no proxy in between: not limited)


async def test_an_address_may_hold_only_so_many_live_pages(env: Env, web: WebServer, client: Client,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.web import server

    monkeypatch.setattr(server, "STREAMS", 2)
    monkeypatch.setattr(server, "KEEPALIVE", 0.1)
    game = await played(env, "petition")
    path = await page_path(web, game.id)
    mine = {"X-Forwarded-For": "198.51.100.7"}
    open_ = [await client.get(path + "live", headers=mine) for _ in range(2)]
    assert [r.status for r in open_] == [200, 200]
    refused = await client.get(path + "live", headers=mine)
    assert refused.status == 429
    open_[0].close()  # a page closed: the server sees it go at its next write, and counts it out
    for _ in range(100):
        if web._streams.get("198.51.100.7", 0) < 2:
            break
        await asyncio.sleep(0.02)
    again = await client.get(path + "live", headers=mine)
    assert again.status == 200
