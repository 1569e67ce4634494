"""Where the log lives (``bot.threadlog``): the board message carries the latest lines at once;
the thread gets one message per round (or turn) holding every public line of it, in order; a
message goes out at once where it must — a decision for a player whose only notice is a ping,
the end of the game; and a restart in the middle of a round loses no line (the lines are read
back from the game's events).

The game is the test duel (three rounds of secret bids, the round's winner claims a prize), whose
public view counts rounds."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord
import pytest
import simcord

from bot.app import HeraldBot
from bot.text import humanise
from bot.threadlog import BOARD_LINES
from tests.discord.conftest import make_config
from tests.discord.helpers import (
    accepted,
    choose_label,
    discord_delivery,
    find_by_prefix,
    last_message,
    latest_lines,
    private,
    reply_text,
    story,
)


async def open_duel(env: simcord.Env, *, fast: bool = False) -> tuple[Any, Any, Any]:
    """A started duel between alice and bob: its thread, alice, bob."""
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    await alice.slash(channel, "play", game="duel", options="fast=yes" if fast else "fast=no")
    lobby = last_message(channel)
    await bob.click(lobby, label="Join")
    await alice.click(lobby, label="Start")
    return channel.threads[0], alice, bob


def board(thread: Any) -> discord.Message:
    return find_by_prefix(thread.history(), "herald:act:")


async def act(player: Any, thread: Any, label: str) -> None:
    """Decide on the board, then click ``label`` (a bid, a prize)."""
    panel = await player.click(board(thread), label="Decide")
    assert private(panel), reply_text(panel)
    done = await choose_label(player, panel, label)
    assert accepted(done), reply_text(done)


async def public_lines(bot: HeraldBot, after: int = 0) -> list[str]:
    """The game's public log lines, as the thread words them, of the versions after ``after``,
    in order."""
    game = await bot.storage.get_game(1)
    assert game is not None
    events = await bot.storage.events(game.id, viewer_seat=None, limit=10_000)
    return [f"• {humanise(e.text, game)}" for e in events if after < e.version]


def pinged(env: simcord.Env, thread: Any, text: str) -> list[str]:
    """Whom the thread's posts containing ``text`` were allowed to ping (simcord's transcript)."""
    out: list[str] = []
    for kind, what, body in env.backend.transcript:
        method, _, path = str(what).partition(" ")
        if (kind == "HTTP" and method == "POST" and path.strip("/") == f"channels/{thread.id}/messages"
                and isinstance(body, dict) and text in str(body.get("content") or "")):
            out += [str(u) for u in (body.get("allowed_mentions") or {}).get("users") or []]
    return out


def bullet_lines(messages: list[discord.Message]) -> list[str]:
    return [line for m in messages for line in m.content.splitlines() if line.startswith("• ")]


async def version(bot: HeraldBot) -> int:
    game = await bot.storage.get_game(1)
    assert game is not None
    return game.version


async def test_the_board_carries_the_latest_lines_while_the_round_goes_on(
        simcord_env: simcord.Env, simcord_bot: HeraldBot) -> None:
    thread, alice, bob = await open_duel(simcord_env)
    before = [m.id for m in thread.history()]
    await act(alice, thread, "Bid 2")
    # alice's bid is on the board at once; the thread waits for the round's end (bob hears of
    # his decision by DM: nobody needs a ping)
    shown = latest_lines(board(thread))
    assert shown[-1] == "• **P1 alice** has bid.", shown
    assert [m.id for m in thread.history()] == before
    assert "You bid" not in "\n".join(shown)  # (her own line, "You bid 2.", is hers alone)
    await act(bob, thread, "Bid 4")
    shown = latest_lines(board(thread))
    assert shown[-len(await public_lines(simcord_bot, 1)):] == await public_lines(simcord_bot, 1)
    assert len(shown) <= BOARD_LINES


async def test_the_thread_gets_one_message_per_round_with_every_public_line_in_order(
        simcord_env: simcord.Env, simcord_bot: HeraldBot) -> None:
    thread, alice, bob = await open_duel(simcord_env)
    start = await version(simcord_bot)
    before = {m.id for m in thread.history()}
    await act(alice, thread, "Bid 2")
    await act(bob, thread, "Bid 4")  # bob wins round 1: he claims a prize
    assert {m.id for m in thread.history()} == before
    await act(bob, thread, "Gold (+2)")  # round 2 begins: round 1's message goes out
    new = [m for m in thread.history() if m.id not in before]
    assert len(new) == 1, [m.content for m in new]
    round_one = await public_lines(simcord_bot, start)
    assert "• **P2 bob** wins round 1." in round_one and "• **P2 bob** takes gold (+2)." in round_one
    assert bullet_lines(new) == round_one
    assert f"[board]({board(thread).jump_url})" in new[0].content
    assert "You bid" not in new[0].content  # (nothing private)
    # it names who is asked now (bob, who just claimed, is looking already), without pinging
    # them: their DMs are their notice
    assert f"{alice.mention} bid" in new[0].content
    assert pinged(simcord_env, thread, "wins round 1") == []


async def test_a_restart_in_the_middle_of_a_round_loses_no_line(
        simcord_env: simcord.Env, simcord_bot: HeraldBot, db_path: Path) -> None:
    thread, alice, bob = await open_duel(simcord_env)
    start = await version(simcord_bot)
    before = {m.id for m in thread.history()}
    await act(alice, thread, "Bid 2")
    await act(bob, thread, "Bid 4")
    told_before_restart = await public_lines(simcord_bot, start)
    fresh = HeraldBot(make_config(db_path))  # the process stops with round 1's lines unposted
    fresh.heartbeat_every = 6 * 3600
    await simcord_env.restart_bot(fresh)
    await act(bob, thread, "Gold (+2)")
    new = [m for m in thread.history() if m.id not in before]
    lines = bullet_lines(new)
    assert lines == await public_lines(fresh, start)  # every line once, in order
    assert lines[:len(told_before_restart)] == told_before_restart


async def test_a_decision_for_a_player_whose_only_notice_is_a_ping_goes_out_at_once(
        simcord_env: simcord.Env, simcord_bot: HeraldBot) -> None:
    thread, alice, bob = await open_duel(simcord_env)
    answer = reply_text(await alice.slash(thread, "notify", dms="reminders"))
    assert "only reminders" in answer
    start = await version(simcord_bot)
    before = {m.id for m in thread.history()}
    await act(alice, thread, "Bid 4")
    assert {m.id for m in thread.history()} == before  # (alice's bid opens nothing new)
    await act(bob, thread, "Bid 2")  # alice wins the round: her claim opens, mid-round
    new = [m for m in thread.history() if m.id not in before]
    assert len(new) == 1 and f"{alice.mention} claim" in new[0].content, [m.content for m in new]
    assert pinged(simcord_env, thread, "wins round 1") == [str(alice.id)]
    assert bullet_lines(new) == await public_lines(simcord_bot, start)  # the round so far, whole
    assert bullet_lines(new)[-1] == "• **P1 alice** wins round 1."
    assert new[0].content.splitlines()[-1].startswith("[board](")


async def test_the_end_of_the_game_goes_out_at_once_with_its_last_lines(
        simcord_env: simcord.Env, simcord_bot: HeraldBot) -> None:
    thread, alice, bob = await open_duel(simcord_env, fast=True)
    start = await version(simcord_bot)
    before = {m.id for m in thread.history()}
    await act(alice, thread, "Bid 5")
    await act(bob, thread, "Bid 3")
    await act(alice, thread, "Gold (+2)")  # the only round ends the duel
    game = await simcord_bot.storage.get_game(1)
    assert game is not None and game.status == "finished"
    new = [m for m in thread.history() if m.id not in before]
    assert bullet_lines(new) == await public_lines(simcord_bot, start)
    assert "• The duel is over." in bullet_lines(new)
    assert story(thread).count("• **P1 alice** takes gold (+2).") == 1


async def test_the_last_moves_and_the_result_go_out_even_when_the_private_news_fails(
        simcord_env: simcord.Env, simcord_bot: HeraldBot, monkeypatch: pytest.MonkeyPatch) -> None:
    """The last moves ride on the final result's message: a failure in the players' private news
    of that update (DMs) must not keep either from the thread."""
    thread, alice, bob = await open_duel(simcord_env, fast=True)
    delivery = discord_delivery(simcord_bot)
    real = delivery.push_private

    async def failing(update: Any) -> dict[int, list[str]]:
        if update.result is not None:
            raise RuntimeError("the DMs of the last update failed")
        return await real(update)

    monkeypatch.setattr(delivery, "push_private", failing)
    start = await version(simcord_bot)
    before = {m.id for m in thread.history()}
    await act(alice, thread, "Bid 5")
    await act(bob, thread, "Bid 3")
    await act(alice, thread, "Gold (+2)")  # the only round ends the duel
    new = [m for m in thread.history() if m.id not in before]
    assert bullet_lines(new) == await public_lines(simcord_bot, start)
    assert any(e.title == "🏁 Final result" for m in new for e in m.embeds)
