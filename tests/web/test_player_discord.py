"""The player page and Discord, on simcord: the hand DM and ``/game hand`` carry the seat's link
("Your page", on messages sent anyway), "New link" revokes the older ones at once, a decision
from the page updates Discord as a click does, and a page and a Discord click at the same moment
count once."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import aiohttp
import simcord

from bot.app import HeraldBot
from tests.discord.helpers import (
    board_of,
    choice_labels,
    find_by_prefix,
    first_choice,
    opened,
    reply_text,
)
from tests.web.test_browser import simcord_bot  # noqa: F401  (the bot with its web pages on)
from tests.web.test_player_pages import form_of, notice_of

NAMES = ("Алиса", "李雷")


async def _table(env: simcord.Env, bot: HeraldBot) -> tuple[Any, list[Any], int]:
    """Hegemony of Faith: two members and two computer players, seeded, started."""
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    members = [guild.add_member(env.create_user(name)) for name in NAMES]
    await members[0].slash(channel, "play", game="hegemony_of_faith", deadline="1h")
    lobby = channel.last_message
    assert lobby is not None
    await members[1].click(lobby, label="Join")
    for _ in range(2):
        await members[0].click(lobby, label="Add computer player")
    game_id = (await bot.storage.list_games(guild_id=guild.id))[0].id
    await bot.storage.update_game(game_id, seed=56)
    await members[0].click(lobby, label="Start")
    return channel.threads[0], members, game_id


def _links(components: Any) -> dict[str, str]:
    """label → url of a message's link buttons."""
    out = {}
    for row in components:
        for c in getattr(row, "children", [row]):
            if getattr(c, "url", None):
                out[str(c.label)] = str(c.url)
    return out


def _dm_links(env: simcord.Env, member: Any) -> list[str]:
    """Every "Your page" link the bot sent or edited into the member's DMs, in order."""
    channel = member.user.dm_channel
    if channel is None:
        return []
    found = []
    for kind, what, body in env.backend.transcript:
        if kind != "HTTP" or not isinstance(body, dict) or f"channels/{channel.id}/messages" not in str(what):
            continue
        for row in body.get("components") or []:
            for c in row.get("components", []):
                if c.get("label") == "Your page":
                    found.append(str(c["url"]))
    return found


async def _deciding(thread: Any, bot: HeraldBot, members: list[Any], game_id: int) -> tuple[Any, int]:
    snap = await bot.sessions.snapshot(game_id)
    for o in snap.open:
        user = snap.game.seats[o.seat].user_id
        for m in members:
            if m.user.id == user and o.prompt.choices:
                return m, o.seat
    raise AssertionError("no member has a decision with choices")


async def _actions_of(bot: HeraldBot, game_id: int, seat: int) -> int:
    return sum(1 for s, _, _ in await bot.storage.actions(game_id) if s == seat)


async def test_the_hand_dm_and_game_hand_carry_the_seats_page_and_a_new_link_revokes(
        simcord_env: simcord.Env, simcord_bot: HeraldBot) -> None:  # noqa: F811
    env, bot = simcord_env, simcord_bot
    assert bot.web is not None
    thread, members, game_id = await _table(env, bot)
    member, seat = await _deciding(thread, bot, members, game_id)
    sent = _dm_links(env, member)
    assert sent and all(link.startswith(f"{bot.web.base_url}/p/") for link in sent)
    answer = await member.slash(thread, "game hand")
    shown = answer.followups[-1] if answer.followups else answer.response
    assert shown is not None and shown.ephemeral, "no private answer to /game hand"
    message = shown.message
    links = _links(message.components)
    assert list(links) == ["Your page"] and f"/{seat}-0-" in links["Your page"]
    assert any(getattr(c, "label", None) == "New link" for row in message.components
               for c in getattr(row, "children", [row]))
    async with aiohttp.ClientSession() as http:
        old = links["Your page"]
        async with http.get(old) as r:
            assert r.status == 200 and NAMES[members.index(member)] in await r.text()
        renewed = await member.click(message, label="New link")
        assert renewed.response is not None and "older link" in reply_text(renewed)
        new = _links(opened(renewed).components)["Your page"]
        assert f"/{seat}-1-" in new
        async with http.get(old) as r:
            assert r.status == 410
        async with http.get(sent[-1]) as r:
            assert r.status == 410
        async with http.get(new) as r:
            assert r.status == 200


async def test_a_decision_from_the_page_updates_discord_as_a_click_does(
        simcord_env: simcord.Env, simcord_bot: HeraldBot) -> None:  # noqa: F811
    env, bot = simcord_env, simcord_bot
    assert bot.web is not None
    thread, members, game_id = await _table(env, bot)
    member, seat = await _deciding(thread, bot, members, game_id)
    link = _dm_links(env, member)[-1]
    before = board_of(thread)
    assert before is not None
    version = (await bot.storage.get_game(game_id)).version  # type: ignore[union-attr]
    async with aiohttp.ClientSession() as http:
        async with http.get(link) as r:
            page = await r.text()
        async with http.post(link + "act", data={**form_of(page), "choice": "0"}) as r:
            assert r.status == 200 and notice_of(await r.text()).startswith("Done:")
    await env.settle()
    after = await bot.storage.get_game(game_id)
    assert after is not None and after.version > version
    board = board_of(thread)
    assert board is not None
    decide = [c for c in re.findall(r"herald:act:\d+:(\d+)", " ".join(
        str(getattr(c, "custom_id", "")) for row in board.components for c in getattr(row, "children", [row])))]
    assert decide == [] or int(decide[0]) > version  # (the board was drawn again for the new state)


async def test_a_page_and_a_discord_click_at_the_same_moment_count_once(
        simcord_env: simcord.Env, simcord_bot: HeraldBot) -> None:  # noqa: F811
    env, bot = simcord_env, simcord_bot
    thread, members, game_id = await _table(env, bot)
    member, seat = await _deciding(thread, bot, members, game_id)
    link = _dm_links(env, member)[-1]
    before = await _actions_of(bot, game_id, seat)
    panel = await member.click(find_by_prefix(thread.history(), "herald:hand:"), label="Decide")
    assert choice_labels(panel)
    _, choose = await first_choice(member, panel)
    async with aiohttp.ClientSession() as http:
        async with http.get(link) as r:
            sent = {**form_of(await r.text()), "choice": "0"}

        async def from_page() -> int:
            async with http.post(link + "act", data=sent) as r:
                return r.status

        status, _ = await asyncio.gather(from_page(), choose())
    await env.settle()
    assert await _actions_of(bot, game_id, seat) == before + 1
    assert status in (200, 409)
