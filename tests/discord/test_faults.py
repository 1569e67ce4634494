"""Bad input and faults on Discord: each gets a clear ephemeral answer or a recovery."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import discord
import pytest
import simcord

from bot.app import HeraldBot
from tests.discord.conftest import make_config
from tests.discord.helpers import (
    choice_labels,
    choose_label,
    find_by_prefix,
    last_message,
    private,
    reply_text,
    story,
)

Overwrites = dict[
    simcord.RoleHandle | simcord.MemberActor | simcord.UserHandle | discord.Role | discord.Member
    | discord.User | discord.ClientUser,
    discord.PermissionOverwrite,
]
"""What ``GuildHandle.create_text_channel`` takes: the channel's permission overwrites."""


async def open_duel(env: simcord.Env, *, deadline: str | None = None,
                    channel_overwrites: Callable[[simcord.GuildHandle], Overwrites] | None = None
                    ) -> tuple[simcord.GuildHandle, simcord.ChannelHandle, simcord.MemberActor,
                               simcord.MemberActor, simcord.MemberActor, discord.Message]:
    guild = env.create_guild()
    if channel_overwrites is not None:
        channel = guild.create_text_channel("games", overwrites=channel_overwrites(guild))
    else:
        channel = guild.create_text_channel("games")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    carol = guild.add_member(env.create_user("carol"))
    opts: dict[str, str] = {"game": "duel", "options": "fast=yes"}
    if deadline:
        opts["deadline"] = deadline
    await alice.slash(channel, "play", **opts)
    lobby = last_message(channel)
    await bob.click(lobby, label="Join")
    return guild, channel, alice, bob, carol, lobby


def board_of(channel: simcord.ChannelHandle) -> discord.Message:
    where = channel.threads[0] if channel.threads else channel
    return find_by_prefix(where.history(), "herald:act:")


async def test_unknown_game_and_bad_deadline_are_refused(simcord_env: simcord.Env) -> None:
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("games")
    alice = guild.add_member(simcord_env.create_user("alice"))
    r = await alice.slash(channel, "play", game="chess")
    assert private(r) and "Unknown game 'chess'" in reply_text(r) and "duel" in reply_text(r)
    r = await alice.slash(channel, "play", game="duel", deadline="20d")
    assert private(r) and "out of range" in reply_text(r)
    r = await alice.slash(channel, "play", game="duel", deadline="soon")
    assert private(r) and "not a deadline" in reply_text(r)
    assert channel.last_message is None  # no lobby was opened


@pytest.mark.parametrize("option", [
    {"deadline": "inf"}, {"deadline": "1e400"}, {"deadline": "nan"}, {"deadline": "9" * 400},
    {"options": "x=--5"}, {"options": "fast=" + "7" * 4300}, {"options": "first_player=" + "1" * 30},
])
async def test_hostile_play_options_get_a_sentence_and_open_nothing(simcord_env: simcord.Env,
                                                                   option: dict[str, str]) -> None:
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("games")
    alice = guild.add_member(simcord_env.create_user("alice"))
    r = await alice.slash(channel, "play", game="duel", **option)
    said = reply_text(r)
    assert private(r) and said and "something went wrong" not in said.lower(), said
    assert len(said) < 400 and "7777777777" not in said, said  # short, never the value echoed at length
    assert channel.last_message is None  # no lobby was opened


async def test_lobby_refusals(simcord_env: simcord.Env) -> None:
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("games")
    alice = guild.add_member(simcord_env.create_user("alice"))
    bob = guild.add_member(simcord_env.create_user("bob"))
    await alice.slash(channel, "play", game="duel")
    lobby = last_message(channel)
    r = await alice.click(lobby, label="Start")
    assert private(r) and "needs at least 2 players" in reply_text(r)
    r = await bob.click(lobby, label="Leave")
    assert private(r) and "not seated" in reply_text(r)
    await bob.click(lobby, label="Join")
    r = await bob.click(last_message(channel), label="Join")
    assert private(r) and "already seated" in reply_text(r)
    r = await bob.click(last_message(channel), label="Start")
    assert private(r) and "nly the host" in reply_text(r)
    r = await bob.click(last_message(channel), label="Add computer player")
    assert private(r) and "nly the host" in reply_text(r)
    r = await bob.click(last_message(channel), label="Cancel")
    assert private(r) and "nly the host" in reply_text(r)
    assert not channel.threads


async def test_outsiders_and_waiting_players_get_clear_answers(simcord_env: simcord.Env) -> None:
    guild, channel, alice, bob, carol, lobby = await open_duel(simcord_env)
    await alice.click(lobby, label="Start")
    board = board_of(channel)
    r = await carol.click(board, label="Decide")
    assert private(r) and "not playing in this game" in reply_text(r)
    r = await carol.click(board, label="My hand")
    assert "not playing in this game" in reply_text(r)
    # alice bids; she then has nothing to decide while bob is awaited
    panel = await alice.click(board, label="Decide")
    await choose_label(alice, panel, "Bid 3")
    r = await alice.click(board_of(channel), label="Decide")
    assert private(r) and "waiting for" in reply_text(r) and "bob" in reply_text(r)


async def test_double_click_and_stale_menu_are_refused_politely(simcord_env: simcord.Env) -> None:
    guild, channel, alice, bob, carol, lobby = await open_duel(simcord_env)
    await alice.click(lobby, label="Start")
    board = board_of(channel)
    panel_a = await alice.click(board, label="Decide")
    panel_b = await alice.click(board, label="Decide")  # a second panel, opened before the first is used
    first = await choose_label(alice, panel_a, "Bid 2")
    assert first.acknowledged
    second = await choose_label(alice, panel_b, "Bid 5")
    assert "already answered" in reply_text(second)
    assert "https://discord.com/channels/" in reply_text(second)  # a link to the current board
    hand = await alice.click(board_of(channel), label="My hand")
    assert "1, 3, 4, 5" in reply_text(hand)  # bid 2 was applied once; 5 was not applied


async def test_closed_dms_are_noticed_once_and_hand_still_works(simcord_env: simcord.Env) -> None:
    env = simcord_env
    guild, channel, alice, bob, carol, lobby = await open_duel(env)
    bob_dm = bob.user.dm_channel
    env.inject_error("POST", f"/channels/{bob_dm.id}/messages", status=403, code=50007,
                     message="Cannot send messages to this user", times=None)
    await alice.click(lobby, label="Start")
    thread = channel.threads[0]
    notices = [m for m in thread.history() if "can't send you direct messages" in m.content]
    assert len(notices) == 1 and str(bob.id) in notices[0].content
    # play on: still exactly one notice
    board = board_of(channel)
    panel = await alice.click(board, label="Decide")
    await choose_label(alice, panel, "Bid 1")
    notices = [m for m in thread.history() if "can't send you direct messages" in m.content]
    assert len(notices) == 1
    hand = await bob.click(board_of(channel), label="My hand")
    assert "Your cards: 1, 2, 3, 4, 5" in reply_text(hand)
    # alice's DMs work
    assert any("Your cards" in m.content for m in alice.user.dm_channel.history())


async def test_no_thread_permission_plays_in_the_channel(simcord_env: simcord.Env) -> None:
    def deny_threads(guild: simcord.GuildHandle) -> Overwrites:
        me = guild.me  # (the bot's member in the server)
        assert me is not None
        return {me: discord.PermissionOverwrite(create_public_threads=False)}

    guild, channel, alice, bob, carol, lobby = await open_duel(simcord_env, channel_overwrites=deny_threads)
    await alice.click(lobby, label="Start")
    assert not channel.threads
    assert any("can't create threads" in m.content for m in channel.history())
    board = find_by_prefix(channel.history(), "herald:act:")
    panel = await alice.click(board, label="Decide")
    assert private(panel)


async def test_no_attach_permission_still_shows_a_board(simcord_env: simcord.Env) -> None:
    def deny_files(guild: simcord.GuildHandle) -> Overwrites:
        me = guild.me  # (the bot's member in the server)
        assert me is not None
        return {me: discord.PermissionOverwrite(attach_files=False)}

    guild, channel, alice, bob, carol, lobby = await open_duel(simcord_env, channel_overwrites=deny_files)
    await alice.click(lobby, label="Start")
    board = board_of(channel)
    assert not board.attachments
    assert "Attach Files" in (board.embeds[0].footer.text or "")


async def test_restart_between_two_actions_keeps_game_and_buttons(simcord_env: simcord.Env, db_path: Path) -> None:
    env = simcord_env
    guild, channel, alice, bob, carol, lobby = await open_duel(env)
    await alice.click(lobby, label="Start")
    board = board_of(channel)
    panel = await alice.click(board, label="Decide")
    await choose_label(alice, panel, "Bid 4")
    await env.restart_bot(HeraldBot(make_config(db_path)))
    # the old board message's buttons still work after the restart
    panel = await bob.click(board_of(channel), label="Decide")
    assert private(panel) and "Bid 2" in choice_labels(panel)
    await choose_label(bob, panel, "Bid 2")
    log = story(channel.threads[0])
    assert "Bids revealed: **P1 alice**: 4, **P2 bob**: 2." in log
    assert log.count("has bid") == 2  # nothing applied twice, nothing lost


async def test_reminder_then_timeout_at_the_deadline(simcord_env: simcord.Env) -> None:
    env = simcord_env
    guild, channel, alice, bob, carol, lobby = await open_duel(env, deadline="2h")
    await alice.click(lobby, label="Start")
    thread = channel.threads[0]
    panel = await alice.click(board_of(channel), label="Decide")
    await choose_label(alice, panel, "Bid 5")
    await env.advance_time(3600 + 60)  # the reminder goes out an hour before the deadline
    reminders = [m for m in thread.history() if "reminder" in m.content]
    assert reminders and str(bob.id) in reminders[-1].content and str(alice.id) not in reminders[-1].content
    assert any("reminder" in m.content for m in bob.user.dm_channel.history())
    assert not any("ran out of time" in m.content for m in thread.history())
    await env.advance_time(3600)
    log = story(thread)
    assert "ran out of time" in log and "bob" in log
    assert "Bids revealed: **P1 alice**: 5, **P2 bob**: 1." in log  # timeout bids the lowest card


async def test_mentions_are_limited_to_players_concerned(simcord_env: simcord.Env) -> None:
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    alice = guild.add_member(env.create_user("alice"))
    mallory = guild.add_member(env.create_user("mallory", global_name="@everyone"), nick="@everyone <@&1>")
    await alice.slash(channel, "play", game="duel", options="fast=yes")
    await mallory.click(last_message(channel), label="Join")
    await alice.click(last_message(channel), label="Start")
    for m in channel.threads[0].history():
        assert not m.mention_everyone
        assert not m.role_mentions


async def test_admin_commands_need_host_or_manager(simcord_env: simcord.Env) -> None:
    guild, channel, alice, bob, carol, lobby = await open_duel(simcord_env)
    await alice.click(lobby, label="Start")
    thread = channel.threads[0]
    r = await bob.slash(thread, "game end")
    assert private(r) and "nly the host" in reply_text(r)
    r = await bob.slash(thread, "game kick", player=alice)
    assert private(r) and "nly the host" in reply_text(r)
    r = await alice.slash(thread, "game kick", player=carol)
    assert "has no seat" in reply_text(r)
    r = await alice.slash(thread, "game status")
    assert private(r) and "waiting for" in reply_text(r)
    r = await alice.slash(thread, "game replace", player=bob)
    assert r.acknowledged
    # the computer player took bob's seat and bids at once when alice bids
    panel = await alice.click(board_of(channel), label="Decide")
    await choose_label(alice, panel, "Bid 5")
    log = story(thread)
    assert "Bids revealed" in log
