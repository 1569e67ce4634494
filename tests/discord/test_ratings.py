"""``/leaderboard`` and ``/stats`` through Discord: a finished game rates its players once, the
leaderboard is an image and text with names (never ids), a server without ratings or a page past
the end gets one friendly line, DMs are told ratings live in servers, and a server that turned
leaderboards off is refused politely (``/stats`` then leaves ratings out)."""

from __future__ import annotations

from typing import Any

import discord
import simcord

from bot.app import HeraldBot
from tests.discord.helpers import (
    accepted,
    choice_labels,
    choose_label,
    find_by_prefix,
    private,
    reply_text,
)


def server(env: simcord.Env) -> tuple[Any, Any, Any, Any, Any]:
    guild = env.create_guild("North Hall")
    channel = guild.create_text_channel("games")
    managers = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    alice = guild.add_member(env.create_user("alice"), roles=[managers])
    bob = guild.add_member(env.create_user("bob"))
    return guild, channel, alice, bob, managers


async def choose(player: Any, thread: Any, label: str) -> None:
    """The player presses Decide on the board, then chooses ``label`` in what it opened."""
    panel = await player.click(find_by_prefix(thread.history(), "herald:act:"), label="Decide")
    assert label in choice_labels(panel), choice_labels(panel)
    assert accepted(await choose_label(player, panel, label))


async def finished_game(alice: Any, bob: Any, channel: Any) -> None:
    """One round of the duel: alice bids 1, bob bids 2 and wins it, takes gold, and wins."""
    await alice.slash(channel, "play", game="duel", options="fast=true")
    lobby = channel.last_message
    await bob.click(lobby, label="Join")
    await alice.click(lobby, label="Start")
    thread = channel.threads[-1]
    await choose(alice, thread, "Bid 1")
    await choose(bob, thread, "Bid 2")
    await choose(bob, thread, "Gold (+2)")


async def test_a_finished_game_shows_on_the_leaderboard_and_in_stats(simcord_env: simcord.Env,
                                                                     simcord_bot: HeraldBot) -> None:
    guild, channel, alice, bob, _ = server(simcord_env)
    await finished_game(alice, bob, channel)
    game = await simcord_bot.storage.get_game(1)
    assert game is not None and game.status == "finished" and game.result
    assert game.result["winners"] == [1]

    r = await alice.slash(channel, "leaderboard", game="duel")
    assert not private(r)
    text = reply_text(r)
    lines = [line for line in text.splitlines() if line[:1].isdigit()]
    assert lines[0].startswith("1. **bob**") and lines[1].startswith("2. **alice**"), text
    assert "(1 game, 1 win)" in lines[0] and "(1 game, 0 wins)" in lines[1]
    assert str(bob.id) not in text and str(alice.id) not in text  # names, never ids
    posted = channel.last_message
    (image,) = posted.attachments
    assert image.filename == "leaderboard-duel.png" and "bob" in (image.description or "")

    stats = reply_text(await bob.slash(channel, "stats"))
    assert "**bob** on this server: 1 game, 1 win." in stats
    assert "High Card Duel: 1 game, 1 win — rating" in stats
    assert "Favourite game: **High Card Duel**" in stats and "Longest game: High Card Duel #1" in stats
    other = reply_text(await bob.slash(channel, "stats", member=alice))
    assert "**alice** on this server: 1 game, 0 wins." in other

    # the game counted once: a restart's scan settles nothing again
    assert await simcord_bot.sessions.resume() == 0
    rows, total = await simcord_bot.storage.leaderboard(guild.id, "duel")
    assert total == 2 and [r.games for r in rows] == [1, 1]


async def test_empty_leaderboards_pages_past_the_end_and_dms(simcord_env: simcord.Env) -> None:
    guild, channel, alice, bob, _ = server(simcord_env)
    r = await alice.slash(channel, "leaderboard", game="duel")
    assert private(r) and "Nobody has a High Card Duel rating on this server yet" in reply_text(r)
    assert "not finished a rated game" in reply_text(await alice.slash(channel, "stats"))
    await finished_game(alice, bob, channel)
    r = await alice.slash(channel, "leaderboard", game="duel", page=3)
    assert private(r) and "only 1 page" in reply_text(r)
    r = await alice.slash(channel, "leaderboard", game="no such game")
    assert private(r) and "unknown game" in reply_text(r).lower()
    for command, kwargs in (("leaderboard", {"game": "duel"}), ("stats", {})):
        dm = await alice.user.slash(command, **kwargs)
        assert "ratings are kept per server" in reply_text(dm).lower()


async def test_a_server_can_turn_leaderboards_off(simcord_env: simcord.Env) -> None:
    guild, channel, alice, bob, _ = server(simcord_env)
    await finished_game(alice, bob, channel)
    r = await alice.slash(channel, "herald settings", leaderboards=False)
    assert "Saved" in reply_text(r) and "Leaderboards and ratings: **hidden**" in reply_text(r)
    r = await bob.slash(channel, "leaderboard", game="duel")
    assert private(r) and "turned leaderboards off" in reply_text(r)
    stats = reply_text(await bob.slash(channel, "stats"))
    assert "1 game, 1 win" in stats and "rating" not in stats.replace("ratings are not shown", "")
    await alice.slash(channel, "herald settings", leaderboards=True)
    r = await bob.slash(channel, "leaderboard", game="duel")
    assert not private(r) and "1. **bob**" in reply_text(r)
