"""A seated player's own page through aiohttp's test client: what it shows (their view only), a
decision made from it (once, however many clicks, tabs or a session call at the same moment),
and each refusal — a forged, expired, replaced or another game's link, a form that did not come
from the page, a stale page, another seat's decision, a paused game, a server with its pages off.
"""

from __future__ import annotations

import asyncio
import re
import time
from typing import Any

from bot import views
from bot.session import Ticket
from bot.web import WebServer
from bot.web import players as web_players
from bot.web.pages import NOT_FOUND
from bot.web.server import PLAYER_CSP
from rules import registry
from tests.support.sessions import GUEST, HOST, THIRD, Env
from tests.web.conftest import BASE, Client, page_path, played
from tests.web.test_live import next_event

NAMES = ("Ann", "Bo", "Cy")


async def _table(env: Env, seed: int = 9) -> int:
    """Cult Wars between three members (each must choose a target: a secret decision)."""
    s = env.sessions
    table = await s.open_table(guild_id=1, channel_id=2, host_id=HOST, host_name=NAMES[0],
                               game_key="cult_wars", seed=seed)
    await s.join(table.id, GUEST, NAMES[1])
    await s.join(table.id, THIRD, NAMES[2])
    await s.start(table.id, HOST)
    return table.id


async def player_path(web: WebServer, env: Env, game_id: int, seat: int) -> str:
    link = await web.player_link(await env.sessions.get(game_id), seat)
    assert link is not None
    return link.removeprefix(BASE)


def form_of(body: str) -> dict[str, str]:
    """The page's form token and ticket, as its form would send them."""
    form = re.search(r'name="form" value="([^"]+)"', body)
    ticket = re.search(r'name="ticket" value="([^"]+)"', body)
    assert form and ticket, "the page offers no decision"
    return {"form": form[1], "ticket": ticket[1]}


def notice_of(body: str) -> str:
    m = re.search(r'<p class="notice[^"]*" role="status">(.*?)</p>', body)
    return re.sub(r"<[^>]+>", "", m[1]) if m else ""


async def _actions(env: Env, game_id: int) -> list[tuple[int, dict[str, Any], str]]:
    return list(await env.storage.actions(game_id))


async def test_a_player_page_shows_the_seats_own_hand_and_decision(env: Env, web: WebServer,
                                                                  client: Client) -> None:
    game_id = await _table(env)
    game = await env.sessions.get(game_id)
    state = env.sessions.state_of(game)
    engine = registry.get("cult_wars")
    path = await player_path(web, env, game_id, 0)
    r = await client.get(path)
    body = await r.text()
    assert r.status == 200 and r.headers["Content-Security-Policy"] == PLAYER_CSP
    assert "form-action 'self'" in PLAYER_CSP and "'unsafe-inline'" not in PLAYER_CSP
    assert r.headers["Cache-Control"] == "no-store" and r.headers["Referrer-Policy"] == "no-referrer"
    # every card of the seat's hand, with its text
    for card in engine.view(state, 0)["private"]["hand"]:
        assert card["name"] in body and card["text"].replace("'", "&#x27;") in body
    # the decision Decide offers: one button per choice, named
    assert body.count('<button type="submit" name="choice"') == 2
    assert 'Target <bdi class="name seat-1">Bo</bdi>' in body
    assert "on-discord" not in body  # (a target's choices are all its answers)
    # nothing of the others' secrets, nor the base address or another link
    for other in (1, 2):
        for marker in engine.secret_markers(state, other):
            assert marker not in body
    assert BASE not in body
    hand = await client.get(path + f"hand/{game.version}.png")
    assert hand.status == 200 and (await hand.read()).startswith(b"\x89PNG")
    assert (await client.get(path + f"hand/{game.version + 1}.png")).status == 404


async def test_deciding_from_the_page_counts_once_however_many_clicks(env: Env, web: WebServer,
                                                                     client: Client) -> None:
    game_id = await _table(env)
    path = await player_path(web, env, game_id, 0)
    sent = {**form_of(await (await client.get(path)).text()), "choice": "1"}
    before = len(await _actions(env, game_id))
    answers = await asyncio.gather(*(client.post(path + "act", data=sent) for _ in range(6)))
    statuses = sorted(a.status for a in answers)
    assert statuses == [200, 409, 409, 409, 409, 409]
    said = [notice_of(await a.text()) for a in answers]
    assert said.count("Done: Target Cy.") == 1
    assert said.count("You already answered that decision, so this was not applied again.") == 5
    log = await _actions(env, game_id)
    assert len(log) == before + 1 and log[-1][:2] == (0, {"type": "target", "target": 2})
    # the same delivery as a Discord click: the player's own action, told once
    last = env.delivery.updates[-1]
    assert last.actions == [(0, {"type": "target", "target": 2}, "player")]


async def test_a_page_and_a_session_click_at_once_count_once(env: Env, web: WebServer,
                                                            client: Client) -> None:
    game_id = await _table(env)
    path = await player_path(web, env, game_id, 1)
    sent = {**form_of(await (await client.get(path)).text()), "choice": "0"}
    snap = await env.sessions.snapshot(game_id)
    mine = snap.prompt_of(1)
    assert mine is not None

    async def discord_click() -> str:
        try:
            await env.sessions.act(game_id, 1, dict(mine.prompt.choices[1].action), user_id=GUEST,
                                   answers=mine.ticket)
            return "applied"
        except Exception as exc:
            return type(exc).__name__

    page, click = await asyncio.gather(client.post(path + "act", data=sent), discord_click())
    applied = (page.status == 200) + (click == "applied")
    assert applied == 1, (page.status, click)
    assert len([a for a in await _actions(env, game_id) if a[0] == 1]) == 1


async def test_a_stale_page_says_so_and_shows_the_game_as_it_stands(env: Env, web: WebServer,
                                                                    client: Client) -> None:
    game_id = await _table(env)
    path = await player_path(web, env, game_id, 2)
    sent = {**form_of(await (await client.get(path)).text()), "choice": "0"}
    snap = await env.sessions.snapshot(game_id)
    mine = snap.prompt_of(2)
    assert mine is not None  # (answered meanwhile elsewhere: on Discord)
    await env.sessions.act(game_id, 2, dict(mine.prompt.choices[1].action), user_id=THIRD,
                           answers=mine.ticket)
    r = await client.post(path + "act", data=sent)
    body = await r.text()
    assert r.status == 409 and notice_of(body).startswith("You already answered that decision")
    assert "Nothing for you to decide right now — waiting for Ann, Bo." in body
    assert [a[1] for a in await _actions(env, game_id) if a[0] == 2] == [{"type": "target", "target": 1}]


async def test_another_seats_decision_cannot_be_answered_from_a_page(env: Env, web: WebServer,
                                                                    client: Client) -> None:
    game_id = await _table(env)
    mine = await player_path(web, env, game_id, 0)
    theirs = form_of(await (await client.get(await player_path(web, env, game_id, 1))).text())
    own = form_of(await (await client.get(mine)).text())
    # seat 1's ticket sent from seat 0's page: not seat 0's open decision
    r = await client.post(mine + "act", data={"form": own["form"], "ticket": theirs["ticket"], "choice": "0"})
    assert r.status == 409 and "nothing was applied" in notice_of(await r.text()).lower()
    # seat 1's own page form, posted to seat 0's link: its form token is not this page's
    r = await client.post(mine + "act", data={**theirs, "choice": "0"})
    assert r.status == 403
    assert await _actions(env, game_id) == []


async def test_a_choice_not_on_the_page_applies_nothing(env: Env, web: WebServer, client: Client) -> None:
    game_id = await _table(env)
    path = await player_path(web, env, game_id, 0)
    sent = form_of(await (await client.get(path)).text())
    for choice in ("2", "-1", "x", "99999999"):
        r = await client.post(path + "act", data={**sent, "choice": choice})
        assert r.status == 409 and "nothing was applied" in notice_of(await r.text())
    assert await _actions(env, game_id) == []


async def test_a_form_that_did_not_come_from_the_page_is_refused(env: Env, web: WebServer,
                                                                 client: Client) -> None:
    game_id = await _table(env)
    path = await player_path(web, env, game_id, 0)
    sent = form_of(await (await client.get(path)).text())
    assert (await client.post(path + "act", data={"ticket": sent["ticket"], "choice": "0"})).status == 403
    assert (await client.post(path + "act", data={**sent, "form": "A" * 24, "choice": "0"})).status == 403
    r = await client.post(path + "act", data={**sent, "choice": "0"}, headers={"Sec-Fetch-Site": "cross-site"})
    assert r.status == 403
    assert (await client.get(path + "act")).status == 404  # (acting is a POST)
    assert await _actions(env, game_id) == []


async def test_a_forged_link_gets_the_one_not_found_page(env: Env, web: WebServer, client: Client) -> None:
    game_id = await _table(env)
    other = await _table(env, seed=10)
    path = await player_path(web, env, game_id, 0)
    _, _, token, part, _ = path.split("/")
    seat, generation, expires, mac = part.split("-", 3)
    flipped = mac[:-1] + ("A" if mac[-1] != "A" else "B")
    other_token = (await page_path(web, other)).split("/")[2]
    forged = [
        f"/p/{token}/{seat}-{generation}-{expires}-{flipped}/",  # a changed signature
        f"/p/{token}/1-{generation}-{expires}-{mac}/",  # another seat
        f"/p/{token}/{seat}-{generation}-{int(expires) + 3600}-{mac}/",  # a later expiry
        f"/p/{token}/{seat}-{int(generation) + 1}-{expires}-{mac}/",  # another generation
        f"/p/{other_token}/{part}/",  # another game
        f"/p/{token}/{part[:-1]}/", "/p/x/y/",
    ]
    for bad in forged:
        for r in (await client.get(bad), await client.post(bad + "act", data={"choice": "0"})):
            assert r.status == 404 and await r.text() == NOT_FOUND, bad


async def test_an_expired_link_says_so(env: Env, web: WebServer, client: Client, monkeypatch: Any) -> None:
    game_id = await _table(env)
    monkeypatch.setattr(web_players, "expiry", lambda now: int(now) - 1)
    path = await player_path(web, env, game_id, 0)
    r = await client.get(path)
    assert r.status == 410 and "expired" in await r.text()
    assert (await client.post(path + "act", data={"choice": "0"})).status == 410
    assert await _actions(env, game_id) == []


async def test_a_link_works_for_fourteen_days(env: Env, web: WebServer) -> None:
    game_id = await _table(env)
    link = await web.player_link(await env.sessions.get(game_id), 0)
    assert link is not None
    expires = int(link.rstrip("/").rsplit("/", 1)[1].split("-")[2])
    assert 14 * 86400 <= expires - time.time() <= 14 * 86400 + 3600


async def test_a_new_link_stops_every_older_one_at_once(env: Env, web: WebServer, client: Client) -> None:
    game_id = await _table(env)
    old = await player_path(web, env, game_id, 1)
    sent = form_of(await (await client.get(old)).text())
    new = (await web.renew_player_link(game_id, GUEST)).removeprefix(BASE)
    assert new != old
    r = await client.get(old)
    assert r.status == 410 and "replaced by a newer one" in await r.text()
    assert (await client.post(old + "act", data={**sent, "choice": "0"})).status == 410
    assert (await client.get(new)).status == 200
    assert await _actions(env, game_id) == []
    # only the member's own seat: another game, or one they do not play in, is refused alike
    for game, member in ((game_id, 4242), (999, GUEST)):
        try:
            await web.renew_player_link(game, member)
        except Exception as exc:
            assert "you have no game" in str(exc)
        else:
            raise AssertionError("renewed a link of a seat that is not the member's")


async def test_a_handed_over_seat_invalidates_its_old_players_links(env: Env, web: WebServer,
                                                                    client: Client) -> None:
    game_id = await _table(env)
    path = await player_path(web, env, game_id, 2)
    await env.sessions.replace_seat(game_id, 2, user_id=4242, name="Dee", reason="Cy left")
    assert (await client.get(path)).status == 404
    assert (await client.get(await player_path(web, env, game_id, 2))).status == 200


async def test_a_paused_game_refuses_a_decision_from_the_page(env: Env, web: WebServer,
                                                              client: Client) -> None:
    game_id = await _table(env)
    path = await player_path(web, env, game_id, 0)
    sent = {**form_of(await (await client.get(path)).text()), "choice": "0"}
    await env.storage.pause_game(game_id, by=HOST, now=env.clock())
    r = await client.post(path + "act", data=sent)
    assert r.status == 409 and "is paused by its host" in notice_of(await r.text())
    assert await _actions(env, game_id) == []


async def test_a_computer_seat_and_a_finished_games_decisions_have_no_page(env: Env, web: WebServer,
                                                                          client: Client) -> None:
    game = await played(env, "petition")
    assert await web.player_link(game, 0) is None  # (computer players have no link)
    finished = await _table(env)
    path = await player_path(web, env, finished, 0)
    sent = form_of(await (await client.get(path)).text())
    await env.sessions.end(finished, "the host ended it")
    r = await client.post(path + "act", data={**sent, "choice": "0"})
    assert r.status == 409 and "this game is over" in notice_of(await r.text())
    await env.storage.update_game(finished, status="cancelled")
    assert (await client.get(path)).status == 404


async def test_a_server_with_pages_off_has_no_page_no_link_and_no_button(env: Env, web: WebServer,
                                                                        client: Client) -> None:
    game_id = await _table(env)
    public = await page_path(web, game_id)
    path = await player_path(web, env, game_id, 0)
    hand = f"hand/{(await env.sessions.get(game_id)).version}.png"
    settings = await env.storage.guild_settings(1)
    settings.web_pages = False
    await env.storage.save_guild_settings(settings)
    for address in (public, public + "at/0.json", public + "live", path, path + hand, path + "live"):
        r = await client.get(address)
        assert r.status == 404 and await r.text() == NOT_FOUND, address
    assert (await client.post(path + "act", data={"choice": "0"})).status == 404
    game = await env.sessions.get(game_id)
    assert await web.player_link(game, 0) is None
    assert await views.with_player_link(None, game, 0) is None
    snap = await env.sessions.snapshot(game_id)
    mine = snap.prompt_of(0)
    assert mine is not None
    await env.sessions.act(game_id, 0, dict(mine.prompt.choices[0].action), answers=Ticket(mine.opened))
    assert web.link(game_id) is None  # (the board's "Open in browser" is gone with the next update)
    board = views.board_view(game_id, 1, active=True, has_prompts=True)
    assert board is not None and not any(getattr(c, "url", None) for c in board.children)
    settings.web_pages = True
    await env.storage.save_guild_settings(settings)
    assert (await client.get(path)).status == 200


async def test_the_hand_message_carries_the_seats_link(env: Env, web: WebServer, client: Client) -> None:
    game_id = await _table(env)
    game = await env.sessions.get(game_id)
    view = await views.with_player_link(None, game, 1, renew=True)
    assert view is not None
    link, renew = view.children
    assert getattr(link, "label", None) == "Your page" and renew.item.label == "New link"  # type: ignore[attr-defined]
    url = str(getattr(link, "url", ""))
    assert url.startswith(f"{BASE}/p/") and "/1-0-" in url
    assert (await client.get(url.removeprefix(BASE))).status == 200


async def test_an_open_player_page_hears_that_the_game_moved(env: Env, web: WebServer,
                                                             client: Client) -> None:
    game_id = await _table(env)
    path = await player_path(web, env, game_id, 0)
    body = await (await client.get(path)).text()
    version = re.search(r'data-version="(\d+)"', body)
    assert version
    stream = await client.get(path + f"live?v={version[1]}")
    assert stream.status == 200 and stream.headers["Content-Type"] == "text/event-stream"
    await asyncio.sleep(0.1)
    began = time.perf_counter()
    snap = await env.sessions.snapshot(game_id)
    mine = snap.prompt_of(1)
    assert mine is not None
    await env.sessions.act(game_id, 1, dict(mine.prompt.choices[0].action), answers=Ticket(mine.opened))
    kind, data = await next_event(stream, timeout=1.0)
    assert kind == "changed" and data["version"] > int(version[1])
    assert time.perf_counter() - began < 1.0
    stream.close()
    # an old page opened again hears at once that it is out of date
    stale = await client.get(path + f"live?v={version[1]}")
    assert (await next_event(stale, timeout=1.0))[0] == "changed"
    stale.close()


async def test_the_player_page_script_is_served_with_the_page_assets(client: Client) -> None:
    r = await client.get("/static/player.js")
    assert r.status == 200 and r.content_type == "text/javascript"
    assert "EventSource" in await r.text()


async def test_the_page_gives_every_cards_text_where_the_hand_message_names_cards_only(
        env: Env, web: WebServer, client: Client) -> None:
    s = env.sessions
    table = await s.open_table(guild_id=1, channel_id=2, host_id=HOST, host_name="Ann",
                               game_key="hegemony_of_faith", seed=56, bots=3)
    await s.start(table.id, HOST)
    game = await s.get(table.id)
    view = registry.get("hegemony_of_faith").view(s.state_of(game), 0)
    actions = view["private"]["actions"]
    assert actions
    body = await (await client.get(await player_path(web, env, table.id, 0))).text()
    for card in actions:
        assert f"<dt>{card['name']}</dt><dd>{card['text']}</dd>".replace("'", "&#x27;") in body


async def test_open_pages_close_when_their_server_turns_pages_off(env: Env, web: WebServer, client: Client,
                                                                  monkeypatch: Any) -> None:
    from bot.web import server as web_server

    monkeypatch.setattr(web_server, "KEEPALIVE", 0.2)
    game_id = await _table(env)
    public = await page_path(web, game_id)
    path = await player_path(web, env, game_id, 0)
    version = (await env.sessions.get(game_id)).version
    stream = await client.get(public + "live")
    await next_event(stream)
    player = await client.get(path + f"live?v={version}")
    settings = await env.storage.guild_settings(1)
    settings.web_pages = False
    await env.storage.save_guild_settings(settings)
    assert (await next_event(stream, timeout=2.0))[0] == "gone"
    assert (await next_event(player, timeout=2.0))[0] == "changed"  # (it reloads: not found)
    stream.close()
    player.close()
