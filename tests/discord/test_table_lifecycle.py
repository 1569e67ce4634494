"""A whole table on the test game: /play → join → start (thread) → secret bids → claims → result."""

from __future__ import annotations

import simcord

from tests.discord.helpers import (
    accepted,
    choice_labels,
    choose_label,
    custom_ids,
    find_by_prefix,
    last_message,
    private,
    story,
)


async def test_lobby_start_play_to_the_end(simcord_env: simcord.Env) -> None:
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))

    result = await alice.slash(channel, "play", game="duel", options="fast=yes")
    assert result.acknowledged and not result.ephemeral
    lobby = channel.last_message
    assert lobby is not None
    assert any(c.startswith("herald:lobby:") for c in custom_ids(lobby))

    join = await bob.click(lobby, label="Join")
    assert join.acknowledged
    start = await alice.click(last_message(channel), label="Start")
    assert start.acknowledged
    assert channel.threads, "the game should get its own thread"
    thread = channel.threads[0]
    history = thread.history()
    board = find_by_prefix(history, "herald:act:")
    assert board.attachments or board.embeds[0].image

    for player in (alice, bob):
        panel = await player.click(board, label="Decide")
        assert private(panel)
        assert choice_labels(panel) == [f"Bid {n}" for n in range(1, 6)]
        chosen = await choose_label(player, panel, "Bid 5" if player is alice else "Bid 4")
        assert accepted(chosen)

    log_text = story(thread)
    assert "Bids revealed" in log_text
    # alice won with the unique highest bid: she claims
    board = find_by_prefix(thread.history(), "herald:act:")
    panel = await alice.click(board, label="Decide")
    await choose_label(alice, panel, "Gold (+2)")
    texts = [m.content for m in thread.history()] + [e.description or "" for m in thread.history() for e in m.embeds]
    assert any("Final result" in (e.title or "") for m in thread.history() for e in m.embeds)
    assert any("alice" in t for t in texts)
