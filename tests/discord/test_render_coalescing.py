"""Board renders are coalesced per game: in a burst of updates of one game (several players
deciding at once, computer players answering in a row), only the newest update draws the board;
the others post their lines with a link to it. Nothing is lost: the final board is the newest
state, every line is told once and in order (the newest on the board, all of them in the thread
once its message is due: ``bot.threadlog``), and each flick keeps its animation (on the board
for the update that draws it, in the thread for the others).

The burst is made by storing actions without delivering them (``act(..., deliver=False)``) and
then delivering all their updates at the same moment, as the sessions do when several calls end
together."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import discord
import simcord

from bot.app import HeraldBot
from bot.session import Update
from bot.text import humanise
from tests.discord.helpers import (
    custom_ids,
    discord_delivery,
    find_by_prefix,
    latest_lines,
    open_seeded_table,
)

HEGEMONY_SEED = 56
FLICK_SEED = 11


async def stored_burst(bot: HeraldBot, game_id: int, n: int) -> list[Update]:
    """``n`` human decisions stored one after the other (each answered as a computer player
    would), their updates kept back from Discord."""
    rng = random.Random(5)
    updates: list[Update] = []
    for _ in range(n):
        snap = await bot.sessions.snapshot(game_id)
        if snap.game.status != "active":
            break
        o = next(o for o in snap.open if not snap.game.seats[o.seat].is_bot)
        action = snap.engine.bot_action(snap.view(o.seat), o.prompt, rng)
        updates.append(await bot.sessions.act(game_id, o.seat, action, deliver=False))
    assert len(updates) == n, "the game ended before the burst was made"
    return updates


def count_draws(bot: HeraldBot) -> list[int]:
    """The version of each board drawn from now on (the delivery's board payload with its image)."""
    delivery: Any = bot.sessions.delivery
    real = delivery.board_payload
    drawn: list[int] = []

    async def counting(snap: Any, events: list[Any], *, with_image: bool, **kwargs: Any) -> Any:
        drawn.append(snap.game.version)
        return await real(snap, events, with_image=with_image, **kwargs)

    delivery.board_payload = counting
    return drawn


def public_lines(updates: list[Update]) -> list[str]:
    return [f"• {humanise(e.text, u.game)}" for u in updates for e in u.events if e.to is None]


def posted_lines(messages: list[discord.Message]) -> list[str]:
    return [x for m in messages for x in m.content.splitlines() if x.startswith("• ")]


async def deliver_at_once(env: simcord.Env, bot: HeraldBot, updates: list[Update]) -> None:
    await asyncio.gather(*(bot.sessions.delivery.deliver(u) for u in updates))
    await env.settle()


async def test_a_burst_of_ten_updates_draws_the_board_once_with_the_newest_state(
        simcord_env: simcord.Env, simcord_bot: HeraldBot) -> None:
    env, bot = simcord_env, simcord_bot
    _, thread, _ = await open_seeded_table(env, bot, "hegemony_of_faith", HEGEMONY_SEED, computers=2,
                                           deadline="1h")
    game_id = (await bot.storage.list_games())[0].id
    updates = await stored_burst(bot, game_id, 10)
    latest = updates[-1]
    before = {m.id for m in thread.history()}
    drawn = count_draws(bot)
    await deliver_at_once(env, bot, updates)
    # ten updates, one render (two at most, should one be posting as the burst arrives)
    assert 1 <= len(drawn) <= 2, drawn
    assert drawn[-1] == latest.game.version
    # the board message shows the newest state, its buttons answer the newest version
    board = find_by_prefix(thread.history(), "herald:hand:")
    expected, _, _ = await discord_delivery(bot).board_payload(
        latest.snap, latest.events, with_image=False)
    assert board.embeds[0].description == expected.description
    if any(not latest.game.seats[o.seat].is_bot for o in latest.snap.open):
        assert f"herald:act:{game_id}:{latest.game.version}" in custom_ids(board)
    assert [a.filename for a in board.attachments] == ["board.png"]
    # every update's lines are told once, in the order they happened: the newest on the board at
    # once, all of them in the thread when its message is due (here: the game is ended), their
    # message linking to the board
    lines = public_lines(updates)
    shown = latest_lines(board)
    assert shown and shown == lines[-len(shown):], shown
    await bot.sessions.end(game_id, "the burst is told")
    await env.settle()
    new = [m for m in thread.history() if m.id not in before and m.id != board.id]
    assert posted_lines(new)[:len(lines)] == lines
    last = next(m for m in new if lines[-1] in m.content.splitlines())
    assert f"[board]({board.jump_url})" in last.content, last.content


async def test_a_late_older_update_in_a_burst_never_draws_over_the_newest(
        simcord_env: simcord.Env, simcord_bot: HeraldBot) -> None:
    """The newest update delivered first, the older ones behind it: still one render, the newest."""
    env, bot = simcord_env, simcord_bot
    _, thread, _ = await open_seeded_table(env, bot, "hegemony_of_faith", HEGEMONY_SEED, computers=2,
                                           deadline="1h")
    game_id = (await bot.storage.list_games())[0].id
    updates = await stored_burst(bot, game_id, 4)
    drawn = count_draws(bot)
    await deliver_at_once(env, bot, [updates[-1], *updates[:-1]])
    assert drawn == [updates[-1].game.version]
    board = find_by_prefix(thread.history(), "herald:hand:")
    expected, _, _ = await discord_delivery(bot).board_payload(
        updates[-1].snap, updates[-1].events, with_image=False)
    assert board.embeds[0].description == expected.description


async def test_updates_one_after_another_each_draw_their_board(
        simcord_env: simcord.Env, simcord_bot: HeraldBot) -> None:
    """Coalescing is for bursts only: an update with nothing newer behind it always draws."""
    env, bot = simcord_env, simcord_bot
    await open_seeded_table(env, bot, "hegemony_of_faith", HEGEMONY_SEED, computers=2, deadline="1h")
    game_id = (await bot.storage.list_games())[0].id
    updates = await stored_burst(bot, game_id, 3)
    drawn = count_draws(bot)
    for u in updates:
        await bot.sessions.delivery.deliver(u)
        await env.settle()
    assert drawn == [u.game.version for u in updates]


async def test_each_flick_of_a_burst_keeps_its_animation(
        simcord_env: simcord.Env, simcord_bot: HeraldBot) -> None:
    env, bot = simcord_env, simcord_bot
    _, thread, _ = await open_seeded_table(env, bot, "flick_of_faith", FLICK_SEED)
    game_id = (await bot.storage.list_games())[0].id
    updates = await stored_burst(bot, game_id, 16)
    flicks = [e for u in updates for e in u.events
              if e.to is None and e.kind == "flick" and e.data.get("bodies")]
    assert len(flicks) >= 3, [e.kind for u in updates for e in u.events]
    before = {m.id for m in thread.history()}
    drawn = count_draws(bot)
    await deliver_at_once(env, bot, updates)
    assert 1 <= len(drawn) <= 2 and drawn[-1] == updates[-1].game.version, drawn
    board = find_by_prefix(thread.history(), "herald:hand:")
    new = [m for m in thread.history() if m.id not in before and m.id != board.id]
    # the update that drew the board carries its flicks' animations with it; the others, whose
    # board it never drew, post theirs in the thread with their lines (none waits: files go at once)
    on_board = [a for a in board.attachments if a.filename.endswith(".gif")]
    delivery = discord_delivery(bot)
    waiting = delivery._logs[game_id].lines
    assert posted_lines(new) + waiting == public_lines(updates)
    gifs = [m for m in new if [a.filename for a in m.attachments] == ["flick.gif"]]
    assert len(gifs) + len(on_board) == len(flicks), [(m.content, m.attachments) for m in new]
    assert on_board and all("Animation of" in str(a.description) for a in on_board)
