"""Hegemony: Alternate Histories on Discord, from ``/play`` to the end: each player chooses a deck
in secret (a saved deck from the menu; a deck code pasted in the form), picks an opening hand in
the multi-select form (a short pick refused, a second Confirm not counted twice), pays a card's
cost in the pick form, answers attacks out of turn (a flee, an intercept), burns 5 graveyard
cards when its deck runs out — and an era change is shown. No card of a hand ever reaches a
public message, an image's alt text or a custom_id. Between the decisions the test makes on
Discord, both seats play the computer player's choices; at the end both players resign and the
computer players finish the game."""

from __future__ import annotations

import random
from typing import Any

import discord
import simcord

from bot.app import HeraldBot
from bot.session import Ticket
from cogs.alternate_histories.ui import UI
from rules.alternate_histories import ENGINE, content
from tests.discord.conftest import make_config
from tests.discord.helpers import (
    answer_text,
    choice_labels,
    choose_label,
    components,
    custom_ids,
    find_by_prefix,
    open_seeded_table,
    opened,
    private,
    public_text,
    reply_text,
    simultaneously,
    story,
)

KEY = "alternate_histories"


def everything_public(channel: Any) -> str:
    """``public_text`` plus every attachment's alt text."""
    out = [public_text(channel)]
    for where in [channel, *getattr(channel, "threads", [])]:
        for m in where.history():
            out += [a.description or "" for a in m.attachments]
    return "\n".join(out)


def form_cid(message: discord.Message, suffix: str) -> str:
    return next(c for c in custom_ids(message) if c.startswith("herald:ah") and c.endswith(suffix))


async def pick(user: Any, message: discord.Message, count: int) -> Any:
    """Choose the first ``count`` options of a pick form, menu by menu, then Confirm."""
    chosen = 0
    menus = [c for c in components(message) if (c["custom_id"] or "").startswith("herald:ah:")]
    result = None
    for menu in menus:
        if chosen >= count:
            break
        values = [o.value for o in menu["options"]][: count - chosen]
        result = await user.select(message, values, custom_id=menu["custom_id"])
        message = opened(result)
        chosen += len(values)
    return await user.click(message, custom_id=form_cid(message, ":ok"))


async def decide(member: Any, thread: Any) -> Any:
    """Press Decide on the game's board; the ephemeral panel."""
    board = find_by_prefix(thread.history(), "herald:act:")
    return await member.click(board, label="Decide")


def hand_names(view: dict[str, Any]) -> set[str]:
    return {content.CARDS[c].name for c in view["private"]["hand"]}


def shown_names(public: dict[str, Any]) -> set[str]:
    """Card names the public view shows now: in play face up, graveyards, burned piles, the
    cards the last combat rolled."""
    names = {p["name"] for p in public["battlefield"]}
    for sd in public["sides"]:
        names |= {content.CARDS[c].name for c in sd["graveyard"] + sd["burned"]}
    fight = public.get("last_combat") or {}
    for side in (fight.get("attacker"), fight.get("defender")):
        if side and side.get("roll_card") in content.CARDS:
            names.add(content.CARDS[side["roll_card"]].name)
    return names


async def test_a_whole_game_from_play_to_the_end(simcord_env: simcord.Env, simcord_bot: HeraldBot) -> None:
    env, bot = simcord_env, simcord_bot
    channel, thread, (alice, bob) = await open_seeded_table(env, bot, KEY, seed=5)
    game_id = 1

    # --- before the table: alice saves a deck; bob exports one to paste
    r = await alice.slash(channel, "deck copy", ready="germany-autocracy", name="Blitz")
    assert "Blitz (#1)" in reply_text(r)
    r = await alice.slash(channel, "deck create", name="Unfinished", nation="usa", governance="capitalism")
    r = await bob.slash(channel, "deck copy", ready="britain-capitalism", name="Navy")
    code = reply_text(await bob.slash(channel, "deck export", deck="Navy")).split("```\n")[1].split("\n")[0]

    # --- deck choice, in secret: the DM came before alice saved her decks; Decide shows them
    dm = find_by_prefix(alice.user.dm_channel.history(), "herald:ah:1:")
    assert "choose your deck" in dm.content and "You have no saved decks" in dm.content
    panel = await decide(alice, thread)
    assert private(panel) and panel.response is not None
    form = opened(panel)
    assert "Unfinished** is not ready" in form.content and "exactly 40 cards" in form.content
    saved = next(c for c in components(form) if (c["custom_id"] or "").endswith(":saved"))
    unfinished = next(o.value for o in saved["options"] if o.label == "Unfinished")
    r = await alice.select(form, [unfinished], custom_id=saved["custom_id"])
    assert "not ready to play" in reply_text(r)
    blitz = next(o.value for o in saved["options"] if o.label == "Blitz")
    r = await alice.select(form, [blitz], custom_id=saved["custom_id"])
    assert "You play your deck **Blitz**" in (reply_text(r) if r.response else "")
    # the DM form answers the same decision: it is out of date now
    dm_saved = next(c for c in components(dm) if (c["custom_id"] or "").endswith(":ready"))
    again = await alice.user.select(dm, [dm_saved["options"][0].value], custom_id=dm_saved["custom_id"])
    assert "out of date" in reply_text(again)

    bob_form = find_by_prefix(bob.user.dm_channel.history(), "herald:ah:1:")
    shown = await bob.user.click(bob_form, custom_id=form_cid(bob_form, ":code"))
    assert shown.modal is not None
    r = await bob.user.submit_modal(shown, {"code": code})
    assert "You play the pasted deck (Britain, Capitalism)" in reply_text(r)
    log = story(thread)
    assert "Germany under Autocracy" in log and "Britain under Capitalism" in log

    # --- opening hands: the multi-select form, by DM
    opening = find_by_prefix(alice.user.dm_channel.history(), "herald:ah:1:")
    assert "opening hand" in opening.content
    r = await alice.user.click(opening, custom_id=form_cid(opening, ":ok"))
    assert "Choose exactly 7 cards (you have chosen 0)" in reply_text(r)
    # seven picked, then Confirm pressed twice at the same moment: it counts once
    message = opening
    for menu in [c for c in components(opening) if (c["custom_id"] or "").startswith("herald:ah:")][:1]:
        r = await alice.user.select(message, [o.value for o in menu["options"]][:7], custom_id=menu["custom_id"])
        message = opened(r)
    assert "Chosen **7 of 7**" in (message.embeds[0].description or "")
    first, second = await simultaneously(env, alice.user.click(message, custom_id=form_cid(message, ":ok")),
                                         alice.user.click(message, custom_id=form_cid(message, ":ok")))
    answers = [answer_text(env, first), answer_text(env, second)]
    assert sum("Opening hand for game #1" in a for a in answers) == 1, answers
    assert sum("already answered that decision" in a or "out of date" in a for a in answers) == 1, answers
    bob_opening = find_by_prefix(bob.user.dm_channel.history(), "herald:ah:1:")
    await pick(bob.user, bob_opening, 7)

    snap = await bot.sessions.snapshot(game_id)
    state: Any = snap.state
    assert state.phase == "turn"
    hands = {seat: hand_names(snap.view(seat)) for seat in (0, 1)}
    public = everything_public(channel)
    for seat, names in hands.items():
        for name in names:
            assert name not in public, (seat, name)

    # --- the game: Discord for one pay, a flee, an intercept and a burn; computer choices else
    players = {0: alice, 1: bob}
    done: set[str] = set()
    rng = random.Random(5)
    eras_seen: set[int] = set()
    ever_shown: set[str] = set()
    for _ in range(900):
        snap = await bot.sessions.snapshot(game_id)
        if snap.game.status != "active":
            break
        ever_shown |= shown_names(snap.view(None))
        eras_seen.add(getattr(snap.state, "global_era", 0))
        if {"pay", "flee", "intercept", "burn"} <= done and len(eras_seen) > 1:
            break
        o = snap.open[0]
        seat, prompt = o.seat, o.prompt
        member = players[seat]
        labels = [c.label for c in prompt.choices]
        if prompt.kind == "react" and "intercept" not in done and any(x.startswith("Intercept") for x in labels):
            panel = await decide(member, thread)
            label = next(x for x in choice_labels(panel) if x.startswith("Intercept"))
            await choose_label(member, panel, label)
            done.add("intercept")
            continue
        if prompt.kind == "react" and "flee" not in done and "Flee" in labels:
            panel = await decide(member, thread)
            await choose_label(member, panel, "Flee")
            done.add("flee")
            continue
        if prompt.kind in ("burn", "pay") and prompt.kind not in done:
            panel = await decide(member, thread)
            assert private(panel)
            message = opened(panel)
            r = await pick(member, message, int(prompt.params["count"]))
            assert "Chosen for game #1" in (reply_text(r) if r.response else reply_text(r)), reply_text(r)
            done.add(prompt.kind)
            continue
        action = ENGINE.bot_action(snap.view(seat), prompt, rng)
        await bot.sessions.act(game_id, seat, action, user_id=member.id, answers=Ticket(o.opened),
                               deliver=False)  # (kept back from Discord: only the test's clicks post)
    assert {"pay", "flee", "intercept", "burn"} <= done, done
    assert len(eras_seen) > 1

    log = story(thread)
    assert "flees" in log and "intercepts" in log
    assert "forever, shuffles the graveyard back in" in log and "advances the era tracker to 1" in log
    assert "The world enters the Mechanical era." in log  # the first reshuffle was the form's
    # hidden hands: no card of either hand in anything public, and no card in any custom_id,
    # even of the private forms
    # (a card that was in play, in a graveyard or rolled may come back into a hand by the rules —
    # a reshuffle, a Field Hospital, the bottom of the deck — so its name was public before)
    snap = await bot.sessions.snapshot(game_id)
    public = everything_public(channel)
    shown_cards = ever_shown | shown_names(snap.view(None))
    for row in await bot.storage.events(game_id, viewer_seat=None, limit=100_000):
        named = [row.data.get("card")] + list(row.data.get("cards") or [])
        shown_cards |= {content.CARDS[c].name for c in named if c in content.CARDS}
    for seat in (0, 1):
        for name in hand_names(snap.view(seat)) - shown_cards:
            assert name not in public, name
    ids = [cid for member in (alice, bob) for m in member.user.dm_channel.history() for cid in custom_ids(m)]
    ids += [cid for m in thread.history() for cid in custom_ids(m)]
    assert ids and not any(card in cid for cid in ids for card in content.CARDS), ids

    # --- alice resigns (a computer player takes her seat); bob plays on to the end
    r = await alice.slash(thread, "game resign")
    assert "You resigned" in reply_text(r)
    for _ in range(3000):
        snap = await bot.sessions.snapshot(game_id)
        if snap.game.status != "active":
            break
        o = snap.open[0]
        assert o.seat == 1  # the computer answers alice's seat itself
        update = await bot.sessions.act(game_id, 1, ENGINE.bot_action(snap.view(1), o.prompt, rng),
                                        user_id=bob.id, answers=Ticket(o.opened), deliver=False)
        if update.game.status == "finished":
            await bot.sessions.delivery.deliver(update)
    game = await bot.storage.get_game(game_id)
    assert game is not None and game.status == "finished" and game.result
    reason = str(game.result.get("reason", ""))
    assert "cannot draw back to 7" in reason or "turn limit" in reason or "Nuclear" in reason, reason
    result = thread.history()[-1].embeds[-1]  # (under the last moves, when they fill boxes)
    assert result.title == "🏁 Final result" and "Winner:" in (result.description or "")
    final = next(m for m in thread.history() if m.id == game.board_message_id)
    assert "Game over" in (final.embeds[0].description or "") and not custom_ids(final)
    assert final.attachments
    end = await bot.sessions.snapshot(game_id)
    alt = UI.board_alt(end.view(None), names=[s.name for s in game.seats])
    assert "game over" in alt and "Final ranking" in alt
    assert await bot.sessions.verify_replay(game_id)


async def test_the_opening_pick_survives_a_restart_and_a_timeout_picks_for_a_player(
        simcord_env: simcord.Env, db_path: Any) -> None:
    env = simcord_env
    bot: Any = env.bot
    channel, thread, (alice, bob) = await open_seeded_table(env, bot, KEY, seed=9, deadline="2h")
    for member in (alice, bob):
        dm = find_by_prefix(member.user.dm_channel.history(), "herald:ah:1:")
        ready = next(c for c in components(dm) if (c["custom_id"] or "").endswith(":ready"))
        r = await member.user.select(dm, [ready["options"][0].value], custom_id=ready["custom_id"])
        assert "ready-made" in reply_text(r)
    opening = find_by_prefix(alice.user.dm_channel.history(), "herald:ah:1:")
    menu = next(c for c in components(opening) if (c["custom_id"] or "").startswith("herald:ah:"))
    r = await alice.user.select(opening, [o.value for o in menu["options"]][:7], custom_id=menu["custom_id"])
    draft = opened(r)
    assert "Chosen **7 of 7**" in (draft.embeds[0].description or "")
    await env.restart_bot(HeraldBot(make_config(db_path)))
    bot = env.bot
    sent = await alice.user.click(draft, custom_id=form_cid(draft, ":ok"))
    assert "Opening hand for game #1" in answer_text(env, sent)
    chosen = [o.label.split(" (")[0] for o in menu["options"][:7]]
    snap = await bot.sessions.snapshot(1)
    assert sorted(hand_names(snap.view(0))) == sorted(set(chosen))
    # bob lets the deadline pass: an opening hand is picked for him and the game begins
    await env.advance_time(2 * 3600 + 60)
    snap = await bot.sessions.snapshot(1)
    assert getattr(snap.state, "phase", None) == "turn" and len(snap.view(1)["private"]["hand"]) == 7
    log = story(thread)
    assert "ran out of time" in log
