"""Herald as a sharded bot (``HERALD_SHARD_COUNT``/``HERALD_SHARDS``): one process running two
of Discord's shards serves tables in servers on either shard, answers in DMs (shard 0), and counts
itself alive only while every one of its connections is."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from pathlib import Path

import pytest_asyncio
import simcord

from bot.app import HeraldBot, ShardedHeraldBot, make_bot
from tests.discord.conftest import make_config
from tests.discord.helpers import choose_label, find_by_prefix, last_message, reply_text, story


@pytest_asyncio.fixture
async def simcord_bot(db_path: Path) -> AsyncIterator[HeraldBot]:
    config = dataclasses.replace(make_config(db_path), shard_count=2, shard_ids=(0, 1))
    bot = make_bot(config)
    bot.heartbeat_every = 6 * 3600
    yield bot
    await bot.close_storage()


def _shard_of(guild_id: int, count: int) -> int:
    return (guild_id >> 22) % count  # Discord's rule for which shard carries a server


async def test_tables_on_both_shards_play_and_direct_messages_work(
        simcord_env: simcord.Env, simcord_bot: HeraldBot) -> None:
    env = simcord_env
    assert isinstance(simcord_bot, ShardedHeraldBot)
    assert sorted(simcord_bot.shards) == [0, 1]
    assert simcord_bot.gateway_alive()

    for shard in (0, 1):  # a server on each shard
        guild = env.create_guild(f"server {shard}", shard_id=shard)
        assert _shard_of(guild.id, 2) == shard
        channel = guild.create_text_channel("games")
        alice = guild.add_member(env.create_user(f"alice{shard}"))
        bob = guild.add_member(env.create_user(f"bob{shard}"))
        await alice.slash(channel, "play", game="duel", options="fast=yes")
        await bob.click(last_message(channel), label="Join")
        await alice.click(last_message(channel), label="Start")
        game_id = (await simcord_bot.storage.list_games(guild_id=guild.id))[0].id
        board = find_by_prefix(channel.threads[0].history(), "herald:act:")
        for player, bid in ((alice, "Bid 5"), (bob, "Bid 4")):
            panel = await player.click(board, label="Decide")
            await choose_label(player, panel, bid)
        assert "Bids revealed" in story(channel.threads[0])
        served = simcord_bot.get_guild(guild.id)
        assert served is not None and served.shard_id == shard
        mine = reply_text(await alice.user.slash("mygames"))  # in a DM: it arrives on shard 0
        assert f"game #{game_id}" in mine.lower() or f"#{game_id}" in mine, mine


def test_the_configuration_picks_the_bot(tmp_path: Path) -> None:
    plain = make_config(tmp_path / "a.db")
    assert type(make_bot(plain)) is HeraldBot
    assert plain.registers_commands
    sharded = dataclasses.replace(plain, shard_count=4, shard_ids=(2, 3))
    assert not sharded.registers_commands, "only the process running shard 0 registers commands"
    assert dataclasses.replace(plain, shard_count=4, shard_ids=(0, 1)).registers_commands
