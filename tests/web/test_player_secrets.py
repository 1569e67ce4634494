"""Hidden information on the player pages.

* **Non-interference.** Two copies of one database that differ only in what one seat holds in
  secret (``Engine.secret_variants``, as the conformance suite makes them) give every *other*
  seat byte-identical player pages (page, hand image, live stream) and byte-identical public
  pages (page, every step, board, live stream).
* **A scan of a whole game.** A seeded game of each game is played to its end between members,
  each decision made from the deciding seat's page when the page offers it (else as Discord would
  send it); at every step each seat's page, and at the end every public answer of every step,
  is searched for the secrets (``Engine.secret_markers``) of every other seat at that step.
"""

from __future__ import annotations

import html
import json
import random
import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.gameui import get_ui
from bot.session import Sessions, Ticket
from bot.storage import SqliteStorage
from bot.web import WebServer
from bot.web.forms import web_form
from rules import registry
from tests.support.sessions import CONFIG, Clock
from tests.web.conftest import BASE, PLAYERS
from tests.web.test_live import next_event
from tests.web.test_non_interference import _everything
from tests.web.test_player_forms import fields_for, page_form
from tests.web.test_player_pages import form_of

MOVES = 40
NAMES = ["Ann", "Bo", "Сева", "李", "Dee"]
SCAN_LIMIT = 1500
"""Moves at most in the scan's game (each game of the seeds below ends well before)."""


async def _members_table(s: Sessions, key: str, seed: int) -> int:
    table = await s.open_table(guild_id=1, channel_id=2, host_id=500, host_name=NAMES[0],
                               game_key=key, seed=seed)
    for i in range(1, PLAYERS[key]):
        await s.join(table.id, 500 + i, NAMES[i])
    await s.start(table.id, 500)
    return table.id


async def _player_answers(web: WebServer, client: Any, s: Sessions, game_id: int, seat: int) -> list[bytes]:
    game = await s.get(game_id)
    link = await web.player_link(game, seat)
    assert link is not None
    path = link.removeprefix(BASE)
    page = await client.get(path)
    body = await page.read()
    out = [body]
    hand = await client.get(path + f"hand/{game.version}.png")
    out.append(await hand.read())
    stream = await client.get(path + "live?v=-5")  # (a page behind: told at once)
    out.append(repr(await next_event(stream)).encode())
    stream.close()
    return out


async def _make_twins(folder: Path, key: str) -> tuple[int, int, dict[str, Any]]:
    """One game of members in ``a.db``, moved on until some seat holds a secret to vary; its
    links and secret made; returns the game, that seat and the variant state."""
    storage = SqliteStorage(str(folder / "a.db"))
    await storage.open()
    try:
        s = Sessions(storage, CONFIG, now=Clock())
        game_id = await _members_table(s, key, 21)
        web = WebServer(s, storage, BASE)
        for seat in range(PLAYERS[key]):
            assert await web.player_link(await s.get(game_id), seat) is not None
        engine = registry.get(key)
        rng = random.Random(3)
        for n in range(MOVES):
            snap = await s.snapshot(game_id)
            state = s.state_of(snap.game)
            for seat in range(PLAYERS[key]):
                variants = engine.secret_variants(state, seat, rng)
                changed = [v for v in variants if engine.to_json(v) != engine.to_json(state)]
                if changed and n > 0:
                    return game_id, seat, engine.to_json(changed[0])
            mine = snap.open[0]
            action = engine.bot_action(snap.view(mine.seat), mine.prompt, random.Random(n))
            await s.act(game_id, mine.seat, action, answers=Ticket(mine.opened))
        raise AssertionError(f"no secret to vary in {MOVES} moves of {key}")
    finally:
        await storage.close()


@pytest.mark.parametrize("key", sorted(PLAYERS))
async def test_a_seats_secrets_change_nothing_on_any_other_seats_page(key: str, tmp_path: Path) -> None:
    game_id, seat, variant = await _make_twins(tmp_path, key)
    with sqlite3.connect(tmp_path / "a.db") as a, sqlite3.connect(tmp_path / "b.db") as b:
        a.backup(b)  # (the twin: the same game, tokens, links and secret)
        b.execute("UPDATE games SET state=? WHERE id=?", (json.dumps(variant), game_id))
    answers: list[dict[int | None, list[bytes]]] = []
    chain_key = b"k" * 32
    for name in ("a.db", "b.db"):
        storage = SqliteStorage(str(tmp_path / name))
        await storage.open()
        try:
            sessions = Sessions(storage, CONFIG, now=Clock())
            web = WebServer(sessions, storage, BASE)
            web._chain_key = chain_key  # (the same history digests in both processes)
            got: dict[int | None, list[bytes]] = {}
            async with TestClient(TestServer(web.app)) as client:
                got[None] = await _everything(web, client, game_id)
                for other in range(PLAYERS[key]):
                    got[other] = await _player_answers(web, client, sessions, game_id, other)
            answers.append(got)
        finally:
            await storage.close()
    first, second = answers
    assert first[seat] != second[seat]  # (the seat itself sees its own secrets differ)
    for who in [None, *(k for k in range(PLAYERS[key]) if k != seat)]:
        assert len(first[who]) == len(second[who]) >= 3
        for x, y in zip(first[who], second[who], strict=True):
            assert x == y, f"seat {seat + 1}'s secret changed {'the public' if who is None else f'seat {who + 1}s'} page of {key}"


def _strings(data: Any) -> set[str]:
    if isinstance(data, str):
        return {data}
    if isinstance(data, dict):
        return set().union(*(_strings(v) for v in data.values())) if data else set()
    if isinstance(data, list):
        return set().union(*(_strings(v) for v in data)) if data else set()
    return set()


def _hand_lines(key: str, view: dict[str, Any]) -> set[str]:
    """The cards of a seat's hand as the page writes them in words, one line each with its
    text (markup left out; lines naming a seat are left out too: the page writes names)."""
    text = get_ui(key).hand_text(view).replace("**", "").replace("`", "")
    return {line.removeprefix("• ").strip() for line in text.splitlines()
            if line.startswith("• ") and not re.search(r"\bP[1-8]\b", line)}


def private_texts(engine: Any, state: Any, players: int) -> dict[int, set[str]]:
    """Each seat's texts that only its own view holds (a card's name and text, a hidden skill…):
    in its private part, in no other seat's view (a card two seats hold is nobody's secret) and not
    in the public view. Short words are left out (they occur in any sentence)."""
    views = [json.dumps(engine.view(state, k), sort_keys=True, ensure_ascii=False) for k in range(players)]
    public = json.dumps(engine.view(state, None), sort_keys=True, ensure_ascii=False)
    hands = [_hand_lines(engine.key, engine.view(state, k)) for k in range(players)]
    out = {}
    for k in range(players):
        own = {t for t in _strings(engine.view(state, k).get("private")) | hands[k] if len(t) >= 8}
        out[k] = {t for t in own if t not in public
                  and not any(t in views[j] or t in "\n".join(hands[j]) for j in range(players) if j != k)}
    return out


def _fields(key: str, prompt: Any, action: dict[str, Any], view: dict[str, Any]) -> dict[str, list[str]] | None:
    """The page's form fields that send ``action``, None where the form cannot say it."""
    if web_form(key, prompt, view) is None:
        return None
    try:
        return fields_for(key, prompt, action, view)
    except (KeyError, ValueError, StopIteration):
        return None


def _found(markers: dict[int, list[str]], body: str, skip: int | None) -> list[tuple[int, str]]:
    return [(seat, m) for seat, ms in markers.items() if seat != skip for m in ms if m in body]


@pytest.mark.parametrize("key", sorted(PLAYERS))
async def test_no_response_of_a_whole_game_shows_another_seats_secret(key: str, tmp_path: Path) -> None:
    storage = SqliteStorage(str(tmp_path / "herald.db"))
    await storage.open()
    try:
        s = Sessions(storage, CONFIG, now=Clock())
        game_id = await _members_table(s, key, 8)
        engine = registry.get(key)
        web = WebServer(s, storage, BASE)
        web.attach()
        players = PLAYERS[key]
        rng = random.Random(8)
        markers_at: list[dict[int, list[str]]] = []
        from_page = from_form = temples = 0
        seen_own = 0
        any_secrets = 0
        async with TestClient(TestServer(web.app)) as client:
            paths = {}
            for seat in range(players):
                link = await web.player_link(await s.get(game_id), seat)
                assert link is not None
                paths[seat] = link.removeprefix(BASE)
            for _ in range(SCAN_LIMIT):
                snap = await s.snapshot(game_id)
                state = s.state_of(snap.game)
                markers = {k: engine.secret_markers(state, k) for k in range(players)}
                markers_at.append(markers)
                texts = private_texts(engine, state, players)
                pages = {}
                for seat in range(players):
                    body = await (await client.get(paths[seat])).text()
                    assert not _found(markers, body, seat), f"{key}: seat {seat + 1}'s page shows {_found(markers, body, seat)}"
                    pages[seat] = body
                    plain = html.unescape(re.sub(r"<[^>]+>", "", body))
                    asked = " ".join(p.text + " " + " ".join(f"{c.label} {c.description} {c.group}" for c in p.choices)
                                     for p in engine.prompts(state) if p.seat == seat)
                    leaked = _found({k: sorted(t for t in ts if t not in asked) for k, ts in texts.items()},
                                    plain, seat)
                    assert not leaked, (f"{key}: seat {seat + 1}'s page shows {leaked}", [plain[max(0, plain.find(t) - 300):plain.find(t) + 100] for _, t in leaked])
                    seen_own += sum(t in plain for t in texts[seat])
                    any_secrets += len(texts[seat])
                if snap.game.status != "active" or not snap.open:
                    break
                mine = snap.open[0]
                action = engine.bot_action(snap.view(mine.seat), mine.prompt, rng)
                offered = [i for i, c in enumerate(mine.prompt.choices) if c.action == action]
                if offered and 'name="ticket"' in pages[mine.seat]:
                    r = await client.post(paths[mine.seat] + "act",
                                          data={**form_of(pages[mine.seat]), "choice": str(offered[0])})
                    body = await r.text()
                    assert r.status == 200, re.findall(r'class="notice[^"]*"[^>]*>(.*?)</p>', body)
                    assert not _found(markers, body, mine.seat)
                    from_page += 1
                elif 'class="pick"' in pages[mine.seat] and (fields := _fields(key, mine.prompt, action, snap.view(mine.seat))):
                    data = [*page_form(pages[mine.seat]).items(), *((k, v) for k, vs in fields.items() for v in vs)]
                    r = await client.post(paths[mine.seat] + "act", data=data)
                    body = await r.text()
                    assert r.status == 200, re.findall(r'class="notice[^"]*"[^>]*>(.*?)</p>', body)
                    from_form += 1
                    temples += mine.prompt.free_form == "temple"
                else:
                    await s.act(game_id, mine.seat, action, user_id=500 + mine.seat, answers=mine.ticket)
            assert (await s.get(game_id)).status == "finished", f"{key} did not end in {SCAN_LIMIT} moves"
            assert from_page > 0, f"no decision of {key} was made from a page"
            assert from_form > 0, f"no decision of {key} was made with a page's form"
            if key == "flick_of_faith":
                assert temples > 0, "no temple was built from the page"
            # the scan can see a secret: each seat's own page shows its own
            if key != "flick_of_faith":  # (its secrets are a pending vote or pick: no text to find)
                assert any_secrets > 0 and seen_own > 0, (key, any_secrets, seen_own)
            # every public answer: the page, each step with its log line, the live stream
            public = (await web.ensure_link(game_id)).removeprefix(BASE)
            steps = await storage.actions(game_id)
            assert len(markers_at) == len(steps) + 1
            everything = [(len(steps), await (await client.get(public)).text())]
            chain = json.loads(await (await client.get(public + "at/0.json")).text())["chain"]
            for n in range(len(steps) + 1):
                since = f"?since={n - 1}&chain={chain}" if n > 0 else ""
                step = await (await client.get(public + f"at/{n}.json{since}")).text()
                everything.append((n, step))
                chain = json.loads(step)["chain"]
            stream = await client.get(public + "live")
            everything.append((len(steps), repr(await next_event(stream))))
            stream.close()
            for n, body in everything:
                assert not _found(markers_at[n], body, None), f"{key}: step {n} shows {_found(markers_at[n], body, None)}"
        await web.stop()
    finally:
        await storage.close()
