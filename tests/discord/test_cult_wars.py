"""Cult Wars on Discord: secret orders through the form (DM and ephemeral), changed orders, an
over-commit refused, an outsider refused, a missed deadline filled by the computer player, the
reveal in the thread with its image — and no order or hand leaking before the reveal."""

from __future__ import annotations

import re
from typing import Any

import discord
import simcord

from bot.app import HeraldBot
from tests.discord.conftest import make_config
from tests.discord.helpers import custom_ids, find_by_prefix, public_text, reply_text

SLOT_WORDS = ("Attack", "Defend", "Sacrifice", "Breed")


def cid(message: discord.Message, suffix: str) -> str:
    return next(c for c in custom_ids(message) if c.endswith(suffix))


async def open_table(env: simcord.Env) -> tuple[Any, Any, Any, Any, Any]:
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    carol = guild.add_member(env.create_user("carol"))
    await alice.slash(channel, "play", game="cult_wars", deadline="2h")
    await bob.click(channel.last_message, label="Join")
    await alice.click(channel.last_message, label="Add computer player")
    await alice.click(channel.last_message, label="Start")
    return guild, channel, alice, bob, carol


async def hands(bot: HeraldBot, game_id: int = 1) -> dict[int, list[dict[str, Any]]]:
    game = await bot.sessions.get(game_id)
    return {s.seat: (await bot.sessions.snapshot(game)).view(s.seat)["private"]["hand"] for s in game.seats}


async def test_orders_form_change_overcommit_timeout_and_reveal(simcord_env: simcord.Env,
                                                                simcord_bot: HeraldBot) -> None:
    env = simcord_env
    guild, channel, alice, bob, carol = await open_table(env)
    thread = channel.threads[0]
    secret_hands = await hands(simcord_bot)
    assert len(secret_hands) == 3  # alice P1, bob P2, the computer P3 (already has its orders in)

    # --- alice writes her orders in the form she got by DM
    form = find_by_prefix(alice.user.dm_channel.history(), "herald:cw:1:1:")
    assert "Your orders for turn 1" in form.embeds[0].title
    r = await alice.user.select(form, ["1"], custom_id=cid(form, ":tgt"))  # target bob (P2)
    card = secret_hands[0][0]
    value = card["id"] if card["target"] == "self" else f"{card['id']}>1"
    r = await alice.user.select(r.response.message, [value], custom_id=cid(r.response.message, ":cards"))
    assert card["name"] in r.response.embeds[0].description
    r = await alice.user.click(r.response.message, label="Followers on slots ▶")
    for slot, cards in (("attack", ["8"]), ("defend", ["3"]), ("sacrifice", ["1a"]), ("breed", [])):
        r = await alice.user.select(r.response.message, cards, custom_id=cid(r.response.message, f":sl_{slot}"))
    summary = r.response.embeds[0].description
    assert "Attack 8" in summary and "Defend 3" in summary and "assigned **12** of 12" in summary
    sent = await alice.user.click(r.response.message, label="✅ Confirm orders")
    assert "Orders sent" in sent.response.content and "bob" in sent.response.content
    assert "Attack 8" in sent.response.embeds[0].description
    assert "P1 alice** has sent its orders" in public_text(channel)

    # --- she changes them before the reveal (Change orders reopens the form with her orders)
    r = await alice.user.click(sent.response.message, label="✏️ Change orders")
    assert "Attack 8" in r.response.embeds[0].description and "Confirm** again" in r.response.content
    r = await alice.user.click(r.response.message, label="Followers on slots ▶")
    r = await alice.user.select(r.response.message, ["5"], custom_id=cid(r.response.message, ":sl_attack"))
    r = await alice.user.select(r.response.message, ["2"], custom_id=cid(r.response.message, ":sl_breed"))
    changed = await alice.user.click(r.response.message, label="✅ Confirm orders")
    assert "Orders changed" in changed.response.content
    assert "P1 alice** has changed its orders" in public_text(channel)

    # --- bob uses the ephemeral fallback (Decide on the board) and over-commits: the engine refuses
    board = find_by_prefix(thread.history(), "herald:act:")
    panel = await bob.click(board, label="Decide")
    assert panel.ephemeral and any(c.startswith("herald:cw:1:1:") for c in custom_ids(panel.response.message))
    r = await bob.click(panel.response.message, label="Followers on slots ▶")
    r = await bob.select(r.response.message, ["1a", "1b", "2", "3", "5", "8"],
                         custom_id=cid(r.response.message, ":sl_attack"))
    assert "⚠️" in r.response.embeds[0].description
    refused = await bob.click(r.response.message, label="✅ Confirm orders")
    assert "you assigned 20 followers" in reply_text(refused).lower()
    assert "only 12" in reply_text(refused)
    assert "P2 bob** has sent" not in public_text(channel)

    # --- an outsider is refused by Decide and by /orders
    r = await carol.click(board, label="Decide")
    assert r.ephemeral and "not playing in this game" in r.response.content
    r = await carol.slash(thread, "orders")
    assert r.ephemeral and "not playing in this game" in reply_text(r)

    # --- nothing secret in public before the reveal: no slot, no card, no draft
    text = public_text(channel)
    for word in SLOT_WORDS:
        assert word not in text, word
    for seat_hand in secret_hands.values():
        for h in seat_hand:
            assert h["id"] not in text and h["name"] not in text, h
    assert "draft T=" not in text

    # --- bob misses the deadline: the computer player writes his orders, the log says so
    await env.advance_time(2 * 3600 + 60)
    log = "\n".join(m.content for m in thread.history())
    assert "P2 bob** ran out of time (orders): the computer player writes your orders" in log
    assert "P2 bob** has sent its orders for turn 1" in log
    board = find_by_prefix(thread.history(), "herald:act:")
    embed = board.embeds[0]
    assert board.attachments and embed.image and "board.png" in (embed.image.url or "")
    assert "Turn 1 revealed" in embed.description
    # alice's changed orders are the ones revealed, with the card she played
    p1 = next(line for line in embed.description.splitlines() if line.startswith("P1 → P2"))
    assert "Attack 5, Defend 3, Sacrifice 1, Breed 2" in p1 and card["name"] in p1
    assert "Combat" in embed.description or "Sacrifices" in embed.description
    assert "Turn 2 of 8" in embed.description

    # --- a new form arrives for turn 2; the old form is refused as out of date
    fresh = find_by_prefix(alice.user.dm_channel.history(), "herald:cw:1:")
    assert "turn 2 of 8" in fresh.content
    r = await alice.user.click(changed.response.message, label="✏️ Change orders")
    assert "out of date" in reply_text(r) and "earlier turn" in reply_text(r)


async def test_draft_survives_a_restart_and_orders_command(simcord_env: simcord.Env, db_path) -> None:
    env = simcord_env
    guild, channel, alice, bob, carol = await open_table(env)
    thread = channel.threads[0]
    r = await alice.slash(thread, "orders")
    assert r.ephemeral
    form = r.response.message
    r = await alice.click(form, label="Followers on slots ▶")
    r = await alice.select(r.response.message, ["8", "3"], custom_id=cid(r.response.message, ":sl_sacrifice"))
    r = await alice.select(r.response.message, ["1a"], custom_id=cid(r.response.message, ":sl_defend"))
    r = await alice.select(r.response.message, [], custom_id=cid(r.response.message, ":sl_breed"))
    assert "assigned **12** of 12" in r.response.embeds[0].description
    draft = r.response.message
    await env.restart_bot(HeraldBot(make_config(db_path)))
    sent = await alice.click(draft, label="✅ Confirm orders")
    assert "Orders sent" in sent.response.content
    assert "Sacrifice 11** (8+3)" in sent.response.embeds[0].description
    # ready-made orders load into the form; /orders after sending offers to replace
    r = await bob.slash(thread, "orders")
    r = await bob.click(r.response.message, label="⚡ Ready-made")
    r = await bob.select(r.response.message, ["4"], custom_id=cid(r.response.message, ":quick"))
    assert "Loaded" in r.response.embeds[0].description
    r = await alice.slash(thread, "orders")
    assert "Confirm** again to replace" in r.response.content
    assert "Sacrifice 11" in r.response.embeds[0].description
    assert "Sacrifice" not in public_text(channel)
    log = "\n".join(m.content for m in thread.history())
    assert log.count("has sent its orders") == 2  # the computer and alice; bob's draft is only a draft
    assert re.search(r"P1 alice\*\* has sent its orders", log)


async def test_a_whole_game_of_eight_turns_by_dm_forms(simcord_env: simcord.Env, simcord_bot: HeraldBot) -> None:
    """Two humans and a computer player: every turn both confirm the form they got by DM (it opens
    on a sensible default), until the eighth reveal and the final result in the thread."""
    guild, channel, alice, bob, carol = await open_table(simcord_env)
    thread = channel.threads[0]
    for turn in range(1, 9):
        for player in (alice, bob):
            form = find_by_prefix(player.user.dm_channel.history(), "herald:cw:1:")
            sent = await player.user.click(form, label="✅ Confirm orders")
            assert "Orders sent" in reply_text(sent), (turn, reply_text(sent))
        log = "\n".join(m.content for m in thread.history())
        assert f"has sent its orders for turn {turn}" in log
    game = await simcord_bot.sessions.get(1)
    assert game.status == "finished" and game.result is not None
    final = [e for m in thread.history() for e in m.embeds if (e.title or "").startswith("🏁 Final result")]
    assert len(final) == 1 and "Winner:" in (final[0].description or "")
    board = next(m for m in thread.history() if m.id == game.board_message_id)
    assert board.attachments and not custom_ids(board)  # the final board keeps its image, no buttons
    assert await simcord_bot.sessions.verify_replay(1)
