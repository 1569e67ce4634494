"""Non-interference on the web: two games that differ only in what one seat holds in secret give
byte-identical public pages — the page, every step of its history, its board, its live stream.

The twins are made as the conformance suite makes them (``Engine.secret_variants``): two tables
with the same seed, seats and moves, then one of them has its stored state replaced by a variant
of one seat's secrets. Pages are built from the public view, public events and seats only, so
nothing of the variant may show."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.session import Sessions, Ticket
from bot.storage import SqliteStorage
from bot.web import WebServer
from rules import registry
from tests.support.sessions import CONFIG, Clock
from tests.web.conftest import BASE, PLAYERS
from tests.web.test_live import next_event

MOVES = 40
"""Moves tried before giving up on finding a seat with a secret to vary."""


async def _twins(folder: Path, key: str) -> tuple[int, int, int, dict[str, Any]]:
    """Two identical games of ``key`` between members, moved on until some seat holds a secret;
    returns their ids, that seat and a variant of the state in which only its secrets differ."""
    storage = SqliteStorage(str(folder / "herald.db"))
    await storage.open()
    try:
        s = Sessions(storage, CONFIG, now=Clock())
        ids = []
        for _ in range(2):
            table = await s.open_table(guild_id=1, channel_id=2, host_id=500, host_name="Ann",
                                       game_key=key, seed=21)
            for i in range(1, PLAYERS[key]):
                await s.join(table.id, 500 + i, ["Bo", "Сева", "李", "Dee"][i - 1])
            await s.start(table.id, 500)
            ids.append(table.id)
        engine = registry.get(key)
        rng = random.Random(3)
        for n in range(MOVES):
            snap = await s.snapshot(ids[0])
            state = s.state_of(snap.game)
            for seat in range(PLAYERS[key]):
                variants = engine.secret_variants(state, seat, rng)
                changed = [v for v in variants if engine.to_json(v) != engine.to_json(state)]
                if changed and n > 0:
                    return ids[0], ids[1], seat, engine.to_json(changed[0])
            mine = snap.open[0]
            action = engine.bot_action(snap.view(mine.seat), mine.prompt, random.Random(n))
            for game_id in ids:
                await s.act(game_id, mine.seat, action, answers=Ticket(mine.opened))
        raise AssertionError(f"no secret to vary in {MOVES} moves of {key}")
    finally:
        await storage.close()


async def _everything(web: WebServer, client: TestClient, game_id: int) -> list[bytes]:  # type: ignore[type-arg]
    """Every public answer about a game: page, each step, the latest board, the live stream."""
    path = (await web.ensure_link(game_id)).removeprefix(BASE)
    out = [await (await client.get(path)).read()]
    last = int((await (await client.get(path + "at/0.json")).json())["last"])
    for n in range(last + 1):
        data = await (await client.get(path + f"at/{n}.json?since=0&chain=x")).read()
        out.append(data)
    latest = await (await client.get(path + f"at/{last}.json")).json()
    out.append(await (await client.get(path + latest["board"])).read())
    stream = await client.get(path + "live")
    out.append(repr(await next_event(stream)).encode())
    stream.close()
    return out


@pytest.mark.parametrize("key", sorted(PLAYERS))
async def test_a_seats_secrets_change_nothing_on_the_public_page(key: str, tmp_path: Path) -> None:
    one, two, seat, variant = await _twins(tmp_path, key)
    with sqlite3.connect(tmp_path / "herald.db") as raw:  # (the twin: only that seat's secrets differ)
        raw.execute("UPDATE games SET state=? WHERE id=?", (json.dumps(variant), two))
    storage = SqliteStorage(str(tmp_path / "herald.db"))
    await storage.open()
    try:
        sessions = Sessions(storage, CONFIG, now=Clock())
        states = [sessions.state_of(await sessions.get(g)) for g in (one, two)]
        engine = registry.get(key)
        assert engine.to_json(states[0]) != engine.to_json(states[1])  # (they do differ in secret)
        web = WebServer(sessions, storage, BASE)
        async with TestClient(TestServer(web.app)) as client:
            first, second = await _everything(web, client, one), await _everything(web, client, two)
        assert len(first) == len(second) > 3
        for a, b in zip(first, second, strict=True):
            assert a == b, f"seat {seat + 1}'s secret changed a public answer of {key}"
    finally:
        await storage.close()
