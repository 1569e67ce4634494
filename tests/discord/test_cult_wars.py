"""Cult Wars on Discord: secret orders through the form (DM and ephemeral), changed orders, an
over-commit refused, an outsider refused, a missed deadline filled by the computer player, the
reveal in the thread with its image — and no order or hand leaking before the reveal.

The first tests play the ``insignia=single`` table option (one secret order a turn); the
two-step turn of the rulebook (targets, then cards, then the defender's split) has its own
tests at the end."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import discord
import simcord

from bot.app import HeraldBot
from tests.discord.conftest import make_config
from tests.discord.helpers import (
    choice_labels,
    choose_label,
    custom_ids,
    find_by_prefix,
    last_message,
    opened,
    private,
    public_text,
    reply_text,
    simultaneously,
    story,
)

SLOT_WORDS = ("Attack", "Defend", "Sacrifice", "Breed")


def cid(message: discord.Message, suffix: str) -> str:
    return next(c for c in custom_ids(message) if c.endswith(suffix))


async def open_table(env: simcord.Env, options: str | None = "insignia=single",
                     *, carol_plays: bool = False) -> tuple[Any, Any, Any, Any, Any]:
    """alice (P1) and bob (P2), then the computer player (P3) — or carol (P3) with ``carol_plays``."""
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    carol = guild.add_member(env.create_user("carol"))
    extra = {"options": options} if options else {}
    await alice.slash(channel, "play", game="cult_wars", deadline="2h", **extra)
    await bob.click(last_message(channel), label="Join")
    if carol_plays:
        await carol.click(last_message(channel), label="Join")
    else:
        await alice.click(last_message(channel), label="Add computer player")
    await alice.click(last_message(channel), label="Start")
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
    assert "Your orders for turn 1" in (form.embeds[0].title or "")
    r = await alice.user.select(form, ["1"], custom_id=cid(form, ":tgt"))  # target bob (P2)
    card = secret_hands[0][0]
    value = card["id"] if card["target"] == "self" else f"{card['id']}>1"
    r = await alice.user.select(opened(r), [value], custom_id=cid(opened(r), ":cards"))
    assert card["name"] in r.response.embeds[0].description
    r = await alice.user.click(opened(r), label="Followers on slots ▶")
    for slot, cards in (("attack", ["8"]), ("defend", ["3"]), ("sacrifice", ["1a"]), ("breed", [])):
        r = await alice.user.select(opened(r), cards, custom_id=cid(opened(r), f":sl_{slot}"))
    summary = r.response.embeds[0].description
    assert "Attack 8" in summary and "Defend 3" in summary and "assigned **12** of 12" in summary
    sent = await alice.user.click(opened(r), label="✅ Confirm orders")
    assert "Orders sent" in reply_text(sent) and "bob" in reply_text(sent)
    assert "Attack 8" in sent.response.embeds[0].description

    # --- she changes them before the reveal (Change orders reopens the form with her orders)
    r = await alice.user.click(opened(sent), label="✏️ Change orders")
    assert "Attack 8" in r.response.embeds[0].description and "Confirm** again" in reply_text(r)
    r = await alice.user.click(opened(r), label="Followers on slots ▶")
    r = await alice.user.select(opened(r), ["5"], custom_id=cid(opened(r), ":sl_attack"))
    r = await alice.user.select(opened(r), ["2"], custom_id=cid(opened(r), ":sl_breed"))
    changed = await alice.user.click(opened(r), label="✅ Confirm orders")
    assert "Orders changed" in reply_text(changed)
    # the board is sealed while orders are written: it is not redrawn for an answer, and shows
    # neither who has sent theirs nor who is still to (``/game status`` says whom it waits for)
    board = find_by_prefix(thread.history(), "herald:act:")
    assert "writes its orders in secret" in (board.embeds[0].description or "")
    assert "Waiting for" not in (board.embeds[0].description or "")
    r = await bob.slash(thread, "game status")
    assert "waiting for P2 bob" in reply_text(r) and "waiting for P1 alice" not in reply_text(r)

    # --- bob uses the ephemeral fallback (Decide on the board) and over-commits: the engine refuses
    board = find_by_prefix(thread.history(), "herald:act:")
    panel = await bob.click(board, label="Decide")
    assert private(panel) and any(c.startswith("herald:cw:1:1:") for c in custom_ids(opened(panel)))
    r = await choose_label(bob, panel, "Followers on slots ▶")
    r = await bob.select(opened(r), ["1a", "1b", "2", "3", "5", "8"],
                         custom_id=cid(opened(r), ":sl_attack"))
    assert "⚠️" in r.response.embeds[0].description
    refused = await choose_label(bob, r, "✅ Confirm orders")
    assert "you assigned 20 followers" in reply_text(refused).lower()
    assert "only 12" in reply_text(refused)
    assert "P2 bob** has sent" not in public_text(channel)

    # --- an outsider is refused by Decide and by /orders
    r = await carol.click(board, label="Decide")
    assert private(r) and "not playing in this game" in reply_text(r)
    r = await carol.slash(thread, "orders")
    assert private(r) and "not playing in this game" in reply_text(r)

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
    log = story(thread)
    assert "P2 bob** ran out of time (orders): the computer player writes" in log
    assert "P2 bob** has sent their orders for turn 1" in log
    assert "P1 alice** has sent their orders" in log and "P1 alice** has changed their orders" in log
    board = find_by_prefix(thread.history(), "herald:act:")
    embed = board.embeds[0]
    assert board.attachments and embed.image and "board.png" in (embed.image.url or "")
    assert embed.description is not None
    assert "Turn 1 revealed" in embed.description
    # alice's changed orders are the ones revealed, with the card she played
    p1 = next(line for line in embed.description.splitlines() if line.startswith("P1 → P2"))
    assert "Attack 5, Defend 3, Sacrifice 1, Breed 2" in p1 and card["name"] in p1
    assert "Combat" in embed.description or "Sacrifices" in embed.description
    assert "Turn 2 of 8" in embed.description

    # --- a new form arrives for turn 2; the old form is refused as out of date
    fresh = find_by_prefix(alice.user.dm_channel.history(), "herald:cw:1:")
    assert "turn 2 of 8" in fresh.content
    r = await alice.user.click(opened(changed), label="✏️ Change orders")
    assert "out of date" in reply_text(r) and "for turn 1" in reply_text(r) and "turn 2 now" in reply_text(r)
    assert not custom_ids(opened(r))  # (its dead button is gone)


async def test_draft_survives_a_restart_and_orders_command(simcord_env: simcord.Env, db_path: Path) -> None:
    env = simcord_env
    guild, channel, alice, bob, carol = await open_table(env)
    thread = channel.threads[0]
    r = await alice.slash(thread, "orders")
    assert private(r)
    form = opened(r)
    r = await alice.click(form, label="Followers on slots ▶")
    r = await alice.select(opened(r), ["8", "3"], custom_id=cid(opened(r), ":sl_sacrifice"))
    r = await alice.select(opened(r), ["1a"], custom_id=cid(opened(r), ":sl_defend"))
    r = await alice.select(opened(r), [], custom_id=cid(opened(r), ":sl_breed"))
    assert "assigned **12** of 12" in r.response.embeds[0].description
    draft = opened(r)
    await env.restart_bot(HeraldBot(make_config(db_path)))
    sent = await alice.click(draft, label="✅ Confirm orders")
    assert "Orders sent" in reply_text(sent)
    assert "Sacrifice 11** (8+3)" in sent.response.embeds[0].description
    # ready-made orders load into the form; /orders after sending offers to replace
    r = await bob.slash(thread, "orders")
    r = await choose_label(bob, r, "⚡ Ready-made")
    r = await bob.select(opened(r), ["4"], custom_id=cid(opened(r), ":quick"))
    assert "Loaded" in r.response.embeds[0].description
    r = await alice.slash(thread, "orders")
    assert "Confirm** again to replace" in reply_text(r)
    assert "Sacrifice 11" in r.response.embeds[0].description
    assert "Sacrifice" not in public_text(channel)
    log = story(thread)
    assert log.count("has sent their orders") == 2  # the computer and alice; bob's draft is only a draft
    assert re.search(r"P1 alice\*\* has sent their orders", log)


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
        log = story(thread)
        assert f"has sent their orders for turn {turn}" in log
    game = await simcord_bot.sessions.get(1)
    assert game.status == "finished" and game.result is not None
    final = [e for m in thread.history() for e in m.embeds if (e.title or "").startswith("🏁 Final result")]
    assert len(final) == 1 and "Winner:" in (final[0].description or "")
    board = next(m for m in thread.history() if m.id == game.board_message_id)
    assert board.attachments and not custom_ids(board)  # the final board keeps its image, no buttons
    assert await simcord_bot.sessions.verify_replay(1)


# ------------------------------------------------------------------ the rulebook's two-step turn

def aim(message: discord.Message, seat: int) -> str:
    """The custom_id of the insignia button aiming at ``seat`` in a target DM."""
    return cid(message, f":aim_{chr(ord('a') + seat)}")


async def lay(player: Any, form_message: discord.Message, slots: dict[str, list[str]]) -> Any:
    """Open the followers page of an order form and lay exactly ``slots`` (others emptied)."""
    r = await player.user.click(form_message, label="Followers on slots ▶")
    for slot in ("attack", "defend", "sacrifice", "breed"):
        if slot not in slots:
            r = await player.user.select(opened(r), [], custom_id=cid(opened(r), f":sl_{slot}"))
    for slot, cards in slots.items():
        r = await player.user.select(opened(r), cards, custom_id=cid(opened(r), f":sl_{slot}"))
    return r


async def test_two_step_turn_targets_revealed_before_cards_then_the_defender_splits(
        simcord_env: simcord.Env, simcord_bot: HeraldBot) -> None:
    """Three humans at the default table: two choose their targets at the same moment (both
    count), nothing is revealed until the third has chosen; the order forms then show who targets
    whom; the defence holds against 5 + 3 by 4 and the defender splits the losses 2/2."""
    env = simcord_env
    guild, channel, alice, bob, carol = await open_table(env, None, carol_plays=True)
    thread = channel.threads[0]
    players = (alice, bob, carol)
    dms = [find_by_prefix(p.user.dm_channel.history(), "herald:cwb:1:") for p in players]
    assert all("insignia step" in m.content for m in dms)
    assert not any(c.startswith("herald:cw:1:") for m in dms for c in custom_ids(m))  # no order form yet

    spare = (await alice.slash(thread, "orders")).response.message  # the same choice, ephemeral
    assert "insignia step" in spare.content and aim(spare, 2)

    # --- alice and bob choose at the same moment: both choices count, neither is revealed
    a, b = await simultaneously(env, alice.user.click(dms[0], custom_id=aim(dms[0], 1)),
                                bob.user.click(dms[1], custom_id=aim(dms[1], 0)))
    assert "Target chosen" in reply_text(a) and "bob" in reply_text(a)
    assert "Target chosen" in reply_text(b) and "alice" in reply_text(b)
    status = reply_text(await carol.slash(thread, "game status"))  # (the sealed board names nobody)
    assert "waiting for P3 carol" in status and "waiting for P1 alice" not in status
    assert "insignia are revealed" not in public_text(channel)
    game = await simcord_bot.sessions.get(1)
    state = (await simcord_bot.sessions.snapshot(game)).state
    assert state is not None and state.targets == {0: 1, 1: 0}
    # the DM keeps no buttons; the other copy of the choice is refused: the choice is made
    assert not custom_ids(alice.user.dm_channel.history()[-1]) or \
        not any(":aim_" in c for c in custom_ids(opened(a)))
    again = await alice.click(spare, custom_id=aim(spare, 2))
    assert "out of date" in reply_text(again)

    # --- carol chooses: all three are revealed together, and the order forms follow
    await carol.user.click(dms[2], custom_id=aim(dms[2], 0))
    log = story(thread)
    assert "P1 alice** has chosen their insignia" in log and "P2 bob** has chosen their insignia" in log
    assert "the insignia are revealed: **P1 alice** → **P2 bob**; **P2 bob** → **P1 alice**; " \
           "**P3 carol** → **P1 alice**" in log
    forms = [find_by_prefix(p.user.dm_channel.history(), "herald:cw:1:") for p in players]
    summary = forms[0].embeds[0].description
    assert summary is not None
    assert "Target: **P2 bob** (revealed)" in summary
    assert "Targeting you: P2 bob, P3 carol" in summary
    assert not any(c.endswith(":tgt") or c.endswith(":lo") for c in custom_ids(forms[0]))

    # --- cards: alice defends with 12, bob attacks with 5 and carol with 3
    ra = await lay(alice, forms[0], {"defend": ["8", "3", "1a"]})
    rb = await lay(bob, forms[1], {"attack": ["5"]})
    rc = await lay(carol, forms[2], {"attack": ["3"]})
    sa, sb = await simultaneously(env, alice.user.click(opened(ra), label="✅ Confirm orders"),
                                  bob.user.click(opened(rb), label="✅ Confirm orders"))
    assert "Orders sent" in reply_text(sa) and "Orders sent" in reply_text(sb)
    await carol.user.click(opened(rc), label="✅ Confirm orders")
    log = story(thread)
    assert "The defence holds by 4: **P1 alice** chooses how **P2 bob** and **P3 carol** share the 4 losses" in log

    # --- only alice is asked; she splits 2/2 (impossible with a priority list or in proportion)
    board = find_by_prefix(thread.history(), "herald:act:")
    r = await bob.click(board, label="Decide")
    assert "Nothing for you to decide right now — waiting for P1 alice" in reply_text(r)
    panel = await alice.click(board, label="Decide")
    labels = choice_labels(panel)
    # (labels name seats as P2/P3, or by name where the platform spells the names out)
    assert len(labels) == 4 and labels[0].startswith("In proportion: P2")
    assert re.search(r"P2( bob)? loses 3, P3( carol)? loses 1$", labels[0])
    two_two = next(lbl for lbl in labels if re.fullmatch(r"P2( bob)? loses 2, P3( carol)? loses 2", lbl))
    await choose_label(alice, panel, two_two)
    log = story(thread)
    assert "**P1 alice** shares out the 4 losses: **P2 bob** loses 2, **P3 carol** loses 2." in log
    assert "End of turn 1: **P1 alice** 12 followers, 0 VP; **P2 bob** 10 followers, 0 VP; " \
           "**P3 carol** 10 followers, 0 VP." in log
    # turn 2 opens with the insignia step again
    fresh = find_by_prefix(alice.user.dm_channel.history(), "herald:cwb:1:")
    assert "turn 2 of 8" in fresh.content and "insignia step" in fresh.content
    assert await simcord_bot.sessions.verify_replay(1)


async def test_two_step_buttons_survive_a_restart_and_deadlines_fill_each_step(
        simcord_env: simcord.Env, db_path: Any) -> None:
    """The insignia buttons work after a restart (they carry no state); each step has its own
    deadline: a missed target is chosen by the computer player, then missed orders are written."""
    env = simcord_env
    guild, channel, alice, bob, carol = await open_table(env, None)
    thread = channel.threads[0]
    dm = find_by_prefix(alice.user.dm_channel.history(), "herald:cwb:1:")
    await env.restart_bot(HeraldBot(make_config(db_path)))
    r = await alice.user.click(dm, custom_id=aim(dm, 2))
    assert "Target chosen" in reply_text(r) and "waiting for P2 bob" in reply_text(r)
    await env.advance_time(2 * 3600 + 60)  # bob misses the insignia step
    log = story(thread)
    assert "P2 bob** ran out of time (target): the computer player chooses" in log
    assert "the insignia are revealed" in log
    form = find_by_prefix(alice.user.dm_channel.history(), "herald:cw:1:")
    assert "Target: **P3 Computer 1** (revealed)" in (form.embeds[0].description or "")
    await alice.user.click(form, label="✅ Confirm orders")
    await env.advance_time(2 * 3600 + 60)  # and the orders step
    log = story(thread)
    assert "P2 bob** ran out of time (orders)" in log
    assert "Turn 1: all orders are revealed." in log or "Turn 1 revealed" in public_text(channel)


async def test_an_order_form_from_an_earlier_turn_names_both_turns_and_loses_its_dead_button(
        simcord_env: simcord.Env, simcord_bot: HeraldBot) -> None:
    env = simcord_env
    guild, channel, alice, bob, carol = await open_table(env)
    sent = {}
    for player in (alice, bob):  # both send the ready-made orders: the turn is revealed
        form = find_by_prefix(player.user.dm_channel.history(), "herald:cw:1:1:")
        sent[player] = await player.user.click(form, label="✅ Confirm orders")
    assert "Orders sent" in sent[alice].response.content, sent[alice].response.content
    game = await simcord_bot.sessions.get(1)
    assert (await simcord_bot.sessions.snapshot(game)).view(0)["turn"] == 2
    # alice's DM from turn 1 still shows her sent orders with "Change orders"
    old = next(m for m in alice.user.dm_channel.history() if m.id == sent[alice].response.message.id)
    r = await alice.user.click(old, label="✏️ Change orders")
    text = reply_text(r)
    assert "out of date" in text and "turn 1" in text and "turn 2 now" in text, text
    assert not custom_ids(opened(r))  # the dead button is gone from the old DM
