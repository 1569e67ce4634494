"""No user look-up per DM: Herald remembers each player's DM channel (in memory and in the
database, schema 9), so a DM is one request — never ``GET /users/{id}`` — and Discord is asked
for the channel (``POST /users/@me/channels``) once per player, not again after a restart. A
channel Discord no longer knows is opened again and the DM still goes."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import simcord

from bot.app import HeraldBot
from tests.discord.conftest import make_config
from tests.discord.helpers import discord_delivery, open_seeded_table
from tests.discord.test_decisions_reach import sketchy_images  # noqa: F401  (a fixture)

OPEN_DM = "POST /users/@me/channels"


def requests(env: simcord.Env, start: int = 0) -> list[str]:
    return [str(what).split("?")[0] for kind, what, _ in env.backend.transcript[start:] if kind == "HTTP"]


async def answer(bot: HeraldBot, game_id: int, humans: set[int], times: int) -> None:
    """The humans answer ``times`` decisions as the computer player would (as a click does)."""
    engine = bot.sessions.engine(await bot.sessions.get(game_id))
    for _ in range(times):
        snap = await bot.sessions.snapshot(game_id)
        if snap.game.status != "active":
            return
        mine = next(o for o in snap.open if snap.game.seats[o.seat].user_id in humans)
        rng = random.Random(f"human/{snap.game.version}/{mine.seat}")
        action = await bot.sessions.cpu(engine.bot_action, snap.view(mine.seat), mine.prompt, rng)
        await bot.sessions.act(game_id, mine.seat, action, user_id=snap.game.seats[mine.seat].user_id,
                               answers=mine.ticket)


@pytest.mark.usefixtures("sketchy_images")
async def test_a_dm_needs_no_user_lookup_and_its_channel_outlives_a_restart(
        simcord_env: simcord.Env, simcord_bot: HeraldBot, db_path: Path) -> None:
    env, bot = simcord_env, simcord_bot
    _, _, (alice, bob) = await open_seeded_table(env, bot, "petition", 3, computers=1)
    game_id = (await bot.storage.list_games())[-1].id
    await answer(bot, game_id, {alice.id, bob.id}, 12)
    sent = requests(env)
    dms = {m.user.dm_channel.id: m for m in (alice, bob)}
    posts = [r for r in sent if r.startswith("POST /channels/") and int(r.split("/")[2]) in dms]
    assert len(posts) >= 4  # (hands and decisions went out by DM)
    assert not [r for r in sent if r.startswith("GET /users/")], sent
    assert sent.count(OPEN_DM) <= 2
    for uid, member in ((alice.id, alice), (bob.id, bob)):
        assert await bot.storage.dm_channel(uid) == member.user.dm_channel.id

    await env.restart_bot(HeraldBot(make_config(db_path)))
    again = env.bot
    assert isinstance(again, HeraldBot)
    start = len(env.backend.transcript)
    await answer(again, game_id, {alice.id, bob.id}, 12)
    after = requests(env, start)
    assert [r for r in after if r.startswith("POST /channels/") and int(r.split("/")[2]) in dms]
    assert OPEN_DM not in after and not [r for r in after if r.startswith("GET /users/")], after


@pytest.mark.usefixtures("sketchy_images")
async def test_a_dm_channel_discord_no_longer_knows_is_opened_again(
        simcord_env: simcord.Env, simcord_bot: HeraldBot) -> None:
    env, bot = simcord_env, simcord_bot
    _, _, (alice, bob) = await open_seeded_table(env, bot, "petition", 3, computers=1)
    game_id = (await bot.storage.list_games())[-1].id
    await bot.storage.set_dm_channel(bob.id, 4242)  # (a channel Discord does not know)
    discord_delivery(bot)._dm_channels[bob.id] = 4242
    before = len(bob.user.dm_channel.history())
    await answer(bot, game_id, {alice.id, bob.id}, 12)
    assert len(bob.user.dm_channel.history()) > before
    assert await bot.storage.dm_channel(bob.id) == bob.user.dm_channel.id
