"""Hegemony of Faith on Discord: a whole four-seat game (alice and bob + two computer players) from
/play to the final scoring, every human decision made through Discord — the Decide panel (card →
target), the line-up form (ready-made orders, a typed order in a modal, by DM and after a restart),
DMs and My hand — with a defence prompt left to its deadline, confrontations where both humans
pick in secret, a surrender, and no seat's secret ever in the channel or the thread.

The table is seeded (the seed is written on the lobby's row before Start: a test hook, not an
option players have), and the humans answer as the computer player would (seeded by the game's
version), so the game always takes the same course: seed 329 is one where a human is asked to
defend, fights wars and debates against the other human, and has to surrender (and a short one:
reaction windows ask every player who might react, which adds human decisions).
"""

from __future__ import annotations

import random
import time
from collections import Counter
from typing import Any

import discord
import simcord

from bot.app import HeraldBot
from cogs.hegemony_of_faith.cog import parse_order
from rules.engine import Prompt
from rules.hegemony_of_faith.engine import ENGINE
from rules.hegemony_of_faith.reactions import KINDS as REACTION_KINDS
from tests.discord.conftest import make_config
from tests.discord.helpers import (
    accepted,
    choice_labels,
    choose_in_panel,
    choose_label,
    components,
    custom_ids,
    find_by_prefix,
    form_text,
    last_message,
    open_seeded_table,
    opened,
    private,
    public_text,
    reply_text,
    story,
)

SEED = 329
BELIEVER_WORDS = ("Fool", "Prayer", "Missionary", "Elder", "Fanatic")


def assert_no_secrets(channel: Any, game: Any) -> None:
    """No seat's secret markers, unrevealed skill or unkept skill option, and no hand, in public."""
    text = public_text(channel)
    state = ENGINE.from_json(game.state)
    for seat in range(len(game.seats)):
        for marker in ENGINE.secret_markers(state, seat):
            assert marker not in text, (seat, marker)
        priv = ENGINE.view(state, seat)["private"]
        if priv["skill"] and not priv["skill"]["revealed"]:
            assert priv["skill"]["name"] not in text, (seat, priv["skill"]["name"])
        for option in priv["skill_options"]:
            assert option["name"] not in text, (seat, option["name"])
    assert "Action cards:" not in text and "beats " not in text  # hand texts never leave the DMs


def board(thread: Any) -> discord.Message:
    return find_by_prefix(thread.history(), "herald:hand:")


def human_policy(game: Any, prompt: Prompt, lineups: int) -> dict[str, Any]:
    """What the humans answer: the computer player's choice (seeded by the game's version), except
    that every second line-up is the first ready-made order."""
    if prompt.kind == "lineup" and lineups % 2 == 0:
        return dict(prompt.choices[0].action)
    view = ENGINE.view(ENGINE.from_json(game.state), prompt.seat)
    return ENGINE.bot_action(view, prompt, random.Random(f"human/{game.version}/{prompt.seat}"))


async def decide(actor: Any, where: discord.Message, prompt: Prompt, action: dict[str, Any]) -> Any:
    """Decide on ``where`` (the board or a DM) → the panel → the choice whose action is ``action``."""
    idx = next(i for i, c in enumerate(prompt.choices) if c.action == action)
    panel = await actor.click(where, label="Decide")
    assert private(panel), reply_text(panel)
    assert prompt.text[:40] in form_text(panel)
    done = await choose_in_panel(actor, panel, prompt, idx)
    assert accepted(done), reply_text(done)
    return done


async def test_four_player_game_from_play_to_final_scoring(simcord_env: simcord.Env, simcord_bot: HeraldBot,
                                                           db_path: Any) -> None:
    env, bot = simcord_env, simcord_bot
    started = time.monotonic()
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    carol = guild.add_member(env.create_user("carol"))
    await alice.slash(channel, "play", game="hegemony_of_faith", deadline="1h")
    lobby = last_message(channel)
    await bob.click(lobby, label="Join")
    await alice.click(lobby, label="Add computer player")
    await alice.click(lobby, label="Add computer player")
    gid = (await bot.storage.list_games(guild_id=guild.id))[0].id
    await bot.storage.update_game(gid, seed=SEED)  # test hook: a seeded game (players cannot choose one)
    await alice.click(lobby, label="Start")
    thread = channel.threads[0]
    players = {0: alice, 1: bob}

    # -- the board: public image and status, Decide and My hand; hands come by DM with their image
    b = board(thread)
    assert b.attachments and b.embeds[0].image and "board.png" in (b.embeds[0].image.url or "")
    assert "choosing a secret skill" in (b.embeds[0].description or "")
    dm = alice.user.dm_channel.history()[-1] if alice.user.dm_channel else None
    assert dm is not None and "Choose a skill" in dm.content and "Believers (3)" in dm.content
    assert [a.filename for a in dm.attachments] == ["hand.png"]
    assert "Your decision" in dm.content and "herald:act:" in " ".join(custom_ids(dm))
    r = await carol.click(b, label="Decide")
    assert private(r) and "not playing in this game" in reply_text(r)
    r = await bob.click(b, label="My hand")
    assert private(r) and "Believers (3)" in reply_text(r) and "Action cards" in reply_text(r)
    files = [a.filename for m in [r.response, *r.followups] if m is not None for a in m.attachments]
    assert files == ["hand.png"]

    seen: Counter[str] = Counter()
    lineups = 0
    both_secret_checked = 0
    restarted = False
    ways: Counter[str] = Counter()
    r = await alice.slash(thread, "lineup", order="5 4 3")
    assert private(r) and "No Faith War or Faith Debate is waiting for your line-up" in reply_text(r)
    for _ in range(200):
        game = await bot.sessions.get(gid)
        if game.status != "active":
            break
        assert_no_secrets(channel, game)
        open_ = [p for p in (await bot.sessions.snapshot(game)).prompts if not game.seats[p.seat].is_bot]
        assert open_, "the computer players answer their prompts at once: a human must be awaited"
        prompt = open_[0]
        actor = players[prompt.seat]
        other = players[1 - prompt.seat]
        seen[prompt.kind] += 1
        if prompt.kind == "lineup":
            lineups += 1
        action = human_policy(game, prompt, lineups)
        before = public_text(channel)
        rival_pick = next((p for p in open_[1:] if p.kind in ("pick", "lineup")), None)

        if prompt.kind == "defend" and seen["defend"] == 1:
            # -- a reaction window: the defence prompt reaches the player privately, then its own
            # deadline (30 minutes, shorter than the table's hour) passes: no reaction
            dm = actor.user.dm_channel.history()[-1]
            assert "Your decision" in dm.content and "targets your sect" in dm.content
            # their DM is their notice: the board names them as awaited, the thread pings nobody
            waiting = board(thread).embeds[0].description or ""
            assert "Waiting for:" in waiting and actor.user.name in waiting.split("Waiting for:")[1]
            assert actor.mention not in thread.history()[-1].content
            await env.advance_time(1800 + 60)
            log = story(thread)
            assert "ran out of time (defend): no reaction" in log
            after = await bot.sessions.get(gid)
            assert not any(p.seat == prompt.seat and p.kind == "defend" for p in (await bot.sessions.snapshot(after)).prompts)
            continue

        if prompt.kind == "lineup":
            if lineups % 2 == 0:  # the ready-made half of human_policy
                # -- a ready-made order from the form Decide opens
                panel = await actor.click(board(thread), label="Decide")
                assert private(panel) and "your secret line-up" in reply_text(panel)
                assert "Type my own order" in " ".join(str(c["label"]) for c in components(opened(panel)))
                idx = next(i for i, c in enumerate(prompt.choices) if c.action == action)
                done = await choose_in_panel(actor, panel, prompt, idx)
                assert "✅" in reply_text(done) or "✅" in reply_text(done)
                ways["ready-made"] += 1
            elif not restarted:
                # -- the whole line-up typed at once in the modal of the form sent by DM
                form = find_by_prefix(actor.user.dm_channel.history(), "herald:hof:own:")
                assert "your secret line-up" in form.content and "Your believers:" in form.content
                shown = await actor.user.click(form, label="Type my own order…")
                assert shown.modal is not None
                r = await actor.user.submit_modal(shown, {"order": "5 banana"})
                assert private(r) and "`banana` in your line-up is not a believer" in reply_text(r)
                short = " ".join(str(x) for x in action["order"][:-1]) or "9"
                shown = await actor.user.click(form, label="Type my own order…")
                r = await actor.user.submit_modal(shown, {"order": short})
                assert private(r) and "of your believers; it needs" in reply_text(r), reply_text(r)
                assert (await bot.sessions.get(gid)).version == game.version  # nothing applied
                # the order typed while Herald restarts still lands
                shown = await actor.user.click(form, label="Type my own order…")
                bot = HeraldBot(make_config(db_path))
                await env.restart_bot(bot)
                restarted = True
                typed = " ".join(str(x) for x in action["order"])
                assert parse_order(typed) == action["order"]
                r = await actor.user.submit_modal(shown, {"order": typed})
                assert private(r) and "Line-up locked in" in reply_text(r), reply_text(r)
                ways["modal"] += 1
            else:
                # -- or with /lineup in the thread
                typed = ",".join(str(x) for x in action["order"])
                r = await actor.slash(thread, "lineup", order=typed)
                assert private(r) and "Line-up locked in" in reply_text(r), reply_text(r)
                ways["slash"] += 1
        elif prompt.secret and prompt.kind == "pick" and seen["pick"] % 2 == 1:
            # -- a secret pick answered from the DM's Decide button
            dm = find_by_prefix(actor.user.dm_channel.history(), "herald:act:")
            await decide(actor.user, dm, prompt, action)
            ways["dm pick"] += 1
        else:
            await decide(actor, board(thread), prompt, action)

        after = await bot.sessions.get(gid)
        assert after.version > game.version, (prompt.kind, action)
        if rival_pick is not None and after.status == "active":
            # -- a confrontation between the two humans: the first pick stays secret until both are in
            still = [p for p in (await bot.sessions.snapshot(after)).prompts if p.seat == rival_pick.seat]
            assert still and still[0].kind == rival_pick.kind
            new = "\n".join((Counter(public_text(channel).splitlines()) - Counter(before.splitlines())).elements())
            assert "has chosen in secret" in new
            assert not any(word in new for word in BELIEVER_WORDS), new
            r = await other.click(board(thread), label="Decide")
            assert private(r) and rival_pick.text[:40] in form_text(r)  # the rival still decides
            both_secret_checked += 1
    else:
        raise AssertionError("the game did not end within 200 human decisions")

    # -- the course of the game: every kind of moment the issue names happened on Discord
    assert seen["defend"] >= 2 and seen["surrender"] >= 1 and lineups >= 2 and both_secret_checked >= 1, seen
    assert ways["modal"] == 1 and ways["ready-made"] >= 1 and ways["slash"] >= 1 and ways["dm pick"] >= 1, ways
    log = story(thread)
    assert "surrender" in log.lower() and "Follower" in public_text(channel)
    # -- the final scoring: the result embed and a finished board without buttons
    game = await bot.sessions.get(gid)
    assert game.status == "finished" and game.result
    result = thread.history()[-1].embeds[-1]  # (under the last moves, when they fill boxes)
    assert result.title == "🏁 Final result" and "Winner:" in (result.description or "")
    winner = game.seats[game.result["winners"][0]].name
    assert winner in (result.description or "")
    final = next(m for m in thread.history() if m.id == game.board_message_id)
    assert "Game over" in (final.embeds[0].description or "") and not custom_ids(final)
    assert final.attachments
    assert_no_secrets(channel, game)
    assert await bot.sessions.verify_replay(gid)
    assert time.monotonic() - started < 60


WINDOW_SEED = 12
"""A seeded table where, once both humans let their skill choice run out, a computer player's
attack opens a defence window asking both: bob holds the defence card, alice does not."""


async def test_a_reaction_window_looks_the_same_from_outside_for_each_player_asked(
        simcord_env: simcord.Env, simcord_bot: HeraldBot) -> None:
    env, bot = simcord_env, simcord_bot
    channel, thread, (alice, bob) = await open_seeded_table(env, bot, "hegemony_of_faith", WINDOW_SEED,
                                                            computers=2, deadline="1h")
    gid = (await bot.storage.list_games())[0].id
    players = {0: alice, 1: bob}
    for _ in range(6):  # the humans let their decisions run out (no click: both get pinged)
        snap = await bot.sessions.snapshot(gid)
        mine = {o.seat: o for o in snap.open if o.seat in players}
        kinds = {o.prompt.kind for o in mine.values()}
        if len(mine) == 2 and len(kinds) == 1 and kinds <= set(REACTION_KINDS):
            break
        await env.advance_time(3600 + 60)
    else:
        raise AssertionError("no reaction window asked both humans")
    a, b = mine[0], mine[1]
    kind = a.prompt.kind
    # -- everything anyone else can see of the two prompts is the same
    assert a.deadline is not None and b.deadline is not None
    assert (a.prompt.secret, a.prompt.timeout_note, a.deadline.due_at) == \
        (b.prompt.secret, b.prompt.timeout_note, b.deadline.due_at)
    assert a.prompt.secret and bot.sessions.now() < a.deadline.due_at <= bot.sessions.now() + 1800  # the window's
    due = f"due <t:{int(a.deadline.due_at)}:R>"
    ping = thread.history()[-1].content
    assert f"{alice.mention} {kind} — {due}" in ping and f"{bob.mention} {kind} — {due}" in ping, ping
    status = reply_text(await alice.slash(thread, "game status"))
    asked = sorted(line.split(": ", 1)[1] for line in status.splitlines()
                   if line.startswith("• waiting for") and ("alice" in line or "bob" in line))
    assert asked == [f"{kind}, {due}"] * 2, status
    for who in players.values():
        assert "Your decision" in who.user.dm_channel.history()[-1].content
    # -- in private they differ: the holder may play the card, the other can only pass
    panels = {}
    for seat, who in players.items():
        panel = await who.click(board(thread), label="Decide")
        assert private(panel) and mine[seat].prompt.text[:40] in form_text(panel)
        panels[seat] = panel
    labels = {seat: choice_labels(p) for seat, p in panels.items()}
    assert labels[0] == ["No reaction"] and len(labels[1]) == 2 and labels[1][-1] == "No reaction", labels
    card = str(labels[1][0]).removeprefix("Play ")
    # -- alice's answer shows nothing; bob is still asked, on the same deadline
    before = public_text(channel)
    await choose_label(alice, panels[0], labels[0][0])
    new = "\n".join((Counter(public_text(channel).splitlines()) - Counter(before.splitlines())).elements())
    assert card not in new and "reaction" not in new.lower(), new
    still = (await bot.sessions.snapshot(gid)).prompt_of(1)
    assert still is not None and still.prompt.kind == kind and still.deadline == b.deadline
    # -- bob's card is played when the window closes (his answer is the last)
    await choose_label(bob, panels[1], labels[1][0])
    assert f"plays {card}" in public_text(channel)
    assert_no_secrets(channel, await bot.sessions.get(gid))
