"""Petition on Discord: a three-player game from /play to the final result and a solo game to its
end, every decision made through Discord — the Decide panel for choices, the card form (by DM for
face-down picks, ephemeral through Decide and ``/pick``) for every pick of several cards.

The three-player table is seeded (the seed is written on the lobby's row before Start, a test hook)
and its first rounds are scripted: everybody takes beads, alice (P1) petitions a god, bob and carol
both challenge (two challengers, met one after the other, each with face-down bids), bob becomes
a godless heathen and attacks carol, who surrenders, and bob fortifies a pillar with the captured
one. After that the humans answer as the computer player would, up to the round limit. Nothing
bid or laid face down may appear in any public message, embed, custom_id or image alt text
before its reveal; a doubled Confirm counts once.
"""

from __future__ import annotations

import random
from typing import Any

import discord
import pytest
import simcord
from PIL import Image

from bot.app import HeraldBot
from bot.gameui import get_ui
from rules.engine import Prompt
from rules.petition import ENGINE
from rules.petition.content import CARDS
from tests.discord.conftest import make_config
from tests.discord.helpers import (
    accepted,
    answer_text,
    choose_in_panel,
    custom_ids,
    find_by_prefix,
    last_message,
    opened,
    private,
    public_text,
    reply_text,
    simultaneously,
    state_json,
    story,
)

SEED = 3


def everything_public(channel: Any) -> str:
    """What anybody in the server can read, and the alt text of every image posted there."""
    alts = [a.description or "" for where in [channel, *channel.threads] for m in where.history()
            for a in m.attachments]
    return public_text(channel) + "\n" + "\n".join(alts)


def board(thread: Any) -> discord.Message:
    return find_by_prefix(thread.history(), "herald:act:")


async def choose(actor: Any, message: Any, prompt: Prompt, action: dict[str, Any]) -> Any:
    """Click through a choice panel (buttons, or group menu → choice menu) to ``action``."""
    idx = next(i for i, c in enumerate(prompt.choices) if c.action == action)
    return await choose_in_panel(actor, message, prompt, idx)


def form_id(message: discord.Message, kind: str) -> str:
    return next(c for c in custom_ids(message) if c.endswith(f":{kind}"))


async def pick_cards(actor: Any, form: discord.Message, ids: list[str], *, double: Any = None) -> Any:
    """Pick ``ids`` in a card form (the embed shows the running total) and confirm, or pass when
    nothing is picked. ``double`` (the env): confirm twice at the same moment."""
    if not ids:
        return await actor.click(form, custom_id=form_id(form, "pass"))
    r = await actor.select(form, ids, custom_id=form_id(form, "pick"))
    picked = opened(r)
    shown = picked.embeds[0].description
    for cid in ids:
        assert CARDS[cid].name in shown, (cid, shown)
    assert "total" in shown.lower() or "Devotion:" in shown, shown
    ok = form_id(picked, "ok")
    if double is not None:
        return await simultaneously(double, actor.click(picked, custom_id=ok), actor.click(picked, custom_id=ok))
    return await actor.click(picked, custom_id=ok)


def bot_answer(game: Any, prompt: Prompt) -> dict[str, Any]:
    view = ENGINE.view(ENGINE.from_json(state_json(game)), prompt.seat)
    return dict(ENGINE.bot_action(view, prompt, random.Random(f"human/{game.version}/{prompt.seat}")))


def scripted(state: Any, prompt: Prompt) -> dict[str, Any] | None:
    """The opening the test needs (None: answer as the computer player would)."""
    p = prompt.seat
    kinds = {c.action["type"] for c in prompt.choices}
    if state.round == 1 and prompt.kind == "turn":
        return {"type": "beads"}
    if prompt.kind == "extra" and state.round <= 3:
        return {"type": "end"}
    if state.round == 2 and prompt.kind == "turn" and p == 0:
        return {"type": "petition", "god": best_god(state, 0)}
    if prompt.kind == "offer":
        return {"type": "offer", "beads": 2}
    if prompt.kind == "challenge" and state.round == 2:
        return {"type": "challenge", "beads": 1 if p == 1 else 2}
    if prompt.kind == "respond" and state.round == 2:
        return {"type": "meet"}
    if state.round == 2 and prompt.kind == "turn" and p == 1:
        return {"type": "heathen"}
    if prompt.kind == "turn" and p in (0, 2) and state.round in (2, 3) and "beads" in kinds:
        return {"type": "beads"} if state.temple else {"type": "draw"}
    if state.round == 3 and prompt.kind == "turn" and p == 1:
        return {"type": "attack", "seat": 2, "pillar": "war"}
    if prompt.kind == "defend" and state.round == 3 and p == 2:
        return {"type": "cards", "cards": []}  # carol surrenders
    if prompt.kind == "place" and p == 1 and state.round == 3:
        return next(dict(c.action) for c in prompt.choices if c.action["type"] == "fortify")
    return None


def best_god(state: Any, seat: int) -> str:
    counts: dict[str, int] = {g: sum(1 for c in state.seats[seat].hand if CARDS[c].god == g and CARDS[c].is_citizen)
              for g in state.gods}
    return max(counts, key=lambda g: (counts[g], g))


async def open_three(env: simcord.Env, bot: HeraldBot) -> tuple[Any, Any, dict[int, Any], int]:
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    carol = guild.add_member(env.create_user("carol"))
    await alice.slash(channel, "play", game="petition", deadline="2h", options="round_limit=5")
    lobby = last_message(channel)
    await bob.click(lobby, label="Join")
    await carol.click(lobby, label="Join")
    gid = (await bot.storage.list_games(guild_id=guild.id))[0].id
    await bot.storage.update_game(gid, seed=SEED)  # test hook: a seeded game
    await alice.click(lobby, label="Start")
    return channel, channel.threads[0], {0: alice, 1: bob, 2: carol}, gid


@pytest.fixture
def sketchy_boards(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tiny board and hand images in the long game (the reveal images stay real): every move
    redraws the board, and drawing them all would take most of the test's time. The images
    themselves are tested in ``tests/rules/petition/test_render.py`` and by the solo game here."""
    ui = get_ui("petition")
    monkeypatch.setattr(ui, "board_image", lambda *a, **k: Image.new("RGB", (8, 8)))
    monkeypatch.setattr(ui, "hand_image", lambda *a, **k: Image.new("RGB", (8, 8)))


@pytest.mark.usefixtures("sketchy_boards")
async def test_three_players_from_play_to_the_final_result(simcord_env: simcord.Env,
                                                           simcord_bot: HeraldBot) -> None:
    env, bot = simcord_env, simcord_bot
    channel, thread, players, gid = await open_three(env, bot)
    b = board(thread)
    assert b.embeds[0].image and "board.png" in (b.embeds[0].image.url or "")
    dm = players[0].user.dm_channel.history()
    assert any(a.filename == "hand.png" for m in dm for a in m.attachments)
    seen: dict[str, int] = {}
    events: list[str] = []
    shown: list[Any] = []  # the reveal images the thread showed, on its board or in a message
    doubled = slash_used = False
    for _ in range(400):
        game = await bot.sessions.get(gid)
        if game.status != "active":
            break
        snap = await bot.sessions.snapshot(game)
        state = ENGINE.from_json(state_json(game))
        prompt = snap.prompts[0]
        actor = players[prompt.seat]
        seen[prompt.kind] = seen.get(prompt.kind, 0) + 1
        action = scripted(state, prompt) or bot_answer(game, prompt)
        before = everything_public(channel)
        if prompt.free_form == "cards":
            ids = list(action["cards"])
            secret = prompt.secret
            if secret:  # the face-down pick comes by DM (answered there, as the user)
                form = find_by_prefix(actor.user.dm_channel.history(), f"herald:ptb:{gid}:")
                assert "face down" in form.content
                actor = actor.user
            elif not slash_used:
                r = await actor.slash(thread, "pick")
                assert private(r), reply_text(r)
                form, slash_used = opened(r), True
            else:
                r = await actor.click(board(thread), label="Decide")
                assert private(r), reply_text(r)
                form = opened(r)
            if prompt.kind == "bid" and ids and not doubled:
                # -- the same Confirm twice at the same moment: counted once
                first, second = await pick_cards(actor, form, ids, double=env)
                answers = [answer_text(env, first), answer_text(env, second)]
                assert sum("✅" in a for a in answers) == 1, answers
                # (refused under the game's lock, or by the early look when the first press
                # was already stored: either way the player is told it was answered)
                assert any("already answered" in a or "answered it already" in a
                           for a in answers), answers
                doubled = True
            else:
                r = await pick_cards(actor, form, ids)
                assert "✅" in answer_text(env, r), answer_text(env, r)
            if secret:
                # -- nothing laid face down is public before its reveal
                after = ENGINE.from_json(state_json(await bot.sessions.get(gid)))
                still_hidden = (after.petition is not None and after.petition.stage == "bid") or (
                    after.campaign is not None and after.campaign.stage == "gather")
                if still_hidden:
                    text = everything_public(channel)
                    for cid in ids:
                        assert cid not in text
                        if CARDS[cid].name not in before:
                            assert CARDS[cid].name not in text, CARDS[cid].name
        else:
            r = await actor.click(board(thread), label="Decide")
            assert private(r), reply_text(r)
            done = await choose(actor, r, prompt, action)
            assert accepted(done), answer_text(env, done)
        events.append(thread.history()[-1].content)
        shown += [a for m in thread.history() for a in m.attachments
                  if a.filename.startswith("reveal") and a.id not in {b.id for b in shown}]
    else:
        raise AssertionError("the game did not end")
    log = story(thread)
    # the opening the script asked for, as the thread tells it
    assert "petitions" in log and "the others may challenge" in log
    assert "challenges with 1 bead" in log and "challenges with 2 beads" in log
    assert log.count("The bids are revealed") >= 2  # each challenger met in turn
    assert "becomes a godless heathen" in log
    assert "surrenders their War without a fight" in log
    assert "fortifies their" in log
    assert seen.get("challenge", 0) >= 2 and doubled
    # the reveals came with their images (on the board, or in the thread), alt text naming both sides
    reveals = shown
    assert len(reveals) >= 3
    assert all(a.description and "Petition reveal" in a.description for a in reveals)
    # the final result
    final = board(thread) if any(c.startswith("herald:act:") for m in thread.history()
                                 for c in custom_ids(m)) else thread.history()[-1]
    assert final is not None
    end = (await bot.sessions.get(gid))
    assert end.status == "finished"
    assert await bot.sessions.verify_replay(gid)
    assert "game over" in log.lower() or "The game ends" in log


async def test_a_solo_game_to_its_end(simcord_env: simcord.Env, simcord_bot: HeraldBot) -> None:
    env, bot = simcord_env, simcord_bot
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    alice = guild.add_member(env.create_user("alice"))
    await alice.slash(channel, "play", game="petition", deadline="2h")
    lobby = last_message(channel)
    gid = (await bot.storage.list_games(guild_id=guild.id))[0].id
    await bot.storage.update_game(gid, seed=3)
    await alice.click(lobby, label="Start")
    thread = channel.threads[0]
    b = board(thread)
    assert b.attachments and (b.attachments[0].description or "").startswith("Petition solo game")
    for _ in range(200):
        game = await bot.sessions.get(gid)
        if game.status != "active":
            break
        prompt = (await bot.sessions.snapshot(game)).prompts[0]
        action = bot_answer(game, prompt)
        r = await alice.click(board(thread), label="Decide")
        assert private(r), reply_text(r)
        if prompt.free_form == "cards":
            assert prompt.params["purpose"] in ("solo_attack", "solo_add", "tithe")
            done = await pick_cards(alice, opened(r), list(action["cards"]))
        else:
            done = await choose(alice, r, prompt, action)
        assert accepted(done), answer_text(env, done)
    else:
        raise AssertionError("the solo game did not end")
    log = story(thread)
    assert "takes the" in log and "pillar" in log
    assert (await bot.sessions.get(gid)).status == "finished"


async def test_the_card_form_survives_a_restart_and_refuses_old_or_foreign_use(
        simcord_env: simcord.Env, simcord_bot: HeraldBot, db_path: Any) -> None:
    """A confirm with too few cards is refused in one sentence; a pick made before a restart is
    confirmed after it; a second form of a decision answered meanwhile is out of date; a member
    outside the game is refused by ``/pick``."""
    env, bot = simcord_env, simcord_bot
    channel, thread, players, gid = await open_three(env, bot)
    for _ in range(60):
        game = await bot.sessions.get(gid)
        prompt = (await bot.sessions.snapshot(game)).prompts[0]
        if prompt.free_form == "cards" and prompt.secret and prompt.params["cards"]:
            break
        action = scripted(ENGINE.from_json(state_json(game)), prompt) or bot_answer(game, prompt)
        if prompt.free_form == "cards":
            form = find_by_prefix(players[prompt.seat].user.dm_channel.history(), f"herald:ptb:{gid}:")
            await pick_cards(players[prompt.seat].user, form, list(action["cards"]))
            continue
        r = await players[prompt.seat].click(board(thread), label="Decide")
        await choose(players[prompt.seat], r, prompt, action)
    else:
        raise AssertionError("no face-down pick with cards to pick reached")
    member = players[prompt.seat]
    form = find_by_prefix(member.user.dm_channel.history(), f"herald:ptb:{gid}:")
    # a second copy of the form, ephemeral, from Decide on the board
    second = await member.click(board(thread), label="Decide")
    assert private(second) and any(c.startswith(f"herald:ptb:{gid}:") for c in custom_ids(opened(second)))
    if prompt.params["min"] > 0:
        r = await member.user.click(form, custom_id=form_id(form, "ok"))
        assert "Pick 1 more card first" in answer_text(env, r), answer_text(env, r)
    ids = [c["id"] for c in prompt.params["cards"]][: max(1, prompt.params["min"])]
    # the pick lives in the form message: it survives a restart of the bot
    r = await member.user.select(form, ids, custom_id=form_id(form, "pick"))
    picked = opened(r)
    await env.restart_bot(HeraldBot(make_config(db_path)))
    done = await member.user.click(picked, custom_id=form_id(picked, "ok"))
    said = answer_text(env, done)
    assert "✅" in said and all(CARDS[i].name in said for i in ids), said
    late = await member.click(opened(second), custom_id=form_id(opened(second), "ok"))
    assert "out of date" in answer_text(env, late), answer_text(env, late)
    dave = channel.guild.add_member(env.create_user("dave"))
    r = await dave.slash(thread, "pick")
    assert private(r) and "not playing in this game" in reply_text(r), reply_text(r)


def test_the_form_summary_adds_up_the_pick_and_keeps_it_in_the_footer() -> None:
    """The running total: points in the pillar at stake for a campaign, beads plus citizens for
    a bid; the footer carries the pick to the next click (restart-proof)."""
    from cogs.petition import form

    def citizen(cid: str, name: str, god: str, **points: int) -> dict[str, Any]:
        return {"id": cid, "name": name, "kind": "citizen", "god": god, "text": "",
                "points": {p: points.get(p, 0) for p in ("art", "economy", "magic", "war")}}

    warlord = citizen("PT37", "Warlord", "war", war=4)
    acolyte = citizen("PT12", "Dancing Acolyte", "art", art=1, war=2)
    params = {"purpose": "attack", "pillar": "war", "cards": [acolyte, warlord], "min": 1, "max": 2,
              "confirm": "Attack with these", "can_pass": False}
    embed = form.summary_embed(params, ["PT37", "PT12"], gods={"war": "Harth", "art": "Ellari"})
    assert embed.description is not None
    assert "**War total: 6** from 2 cards" in embed.description
    assert "Warlord** (serves Harth): War 4" in embed.description
    assert embed.footer.text == "picked: PT12, PT37"  # in the order offered
    assert form.problem(params, []) == "pick 1 more card first: this takes 1 to 2 cards."
    assert form.problem(params, ["PT37"]) is None
    bid = dict(params, purpose="bid", min=0, can_pass=True)
    text = form.summary_embed(bid, ["PT37"], beads=2).description
    assert text is not None
    assert "Devotion: 2 beads + 1 citizen = 3" in text

    class Stub:
        embeds = [embed]

    assert form.picked_from_message(Stub()) == ["PT12", "PT37"]  # type: ignore[arg-type]  # (a stand-in message)
    labels = [getattr(i, "label", None) for i in form.items(1, 7, bid, [])]
    assert "Bid my beads alone" in labels and "✅ Attack with these" in labels
    assert all("PT" not in (getattr(i, "custom_id", "") or "") for i in form.items(1, 7, bid, ["PT37"]))


async def test_a_discard_down_to_the_hand_limit_is_answered_on_discord(
        simcord_env: simcord.Env, simcord_bot: HeraldBot) -> None:
    """Locked citizens come back to a full hand when the favour ends: the player discards down to
    10 with the card form (Decide on the board), and play goes on."""
    env, bot = simcord_env, simcord_bot
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    await alice.slash(channel, "play", game="petition", deadline="2h")
    lobby = last_message(channel)
    await bob.click(lobby, label="Join")
    gid = (await bot.storage.list_games(guild_id=guild.id))[0].id
    await bot.storage.update_game(gid, seed=SEED)
    await alice.click(lobby, label="Start")
    thread = channel.threads[0]

    async def state() -> Any:
        return ENGINE.from_json(state_json(await bot.sessions.get(gid)))

    async def move(seat: int, action: dict[str, Any]) -> None:
        await bot.sessions.act(gid, seat, action)
        if (await state()).phase == "extra":
            await bot.sessions.act(gid, seat, {"type": "end"})

    for gather in ("draw", "draw", "both"):  # P1 fills its hand; P2 gathers beads
        await move(0, {"type": gather})
        await move(1, {"type": "beads"})
    s = await state()

    def servants(seat: int, god: str) -> list[str]:
        return [c for c in s.seats[seat].hand if CARDS[c].is_citizen and CARDS[c].god == god]

    god = next(g for g in s.gods if len(servants(0, g)) >= 2 and servants(1, g))
    mine, theirs = servants(0, god)[:2], servants(1, god)[:1]
    await move(0, {"type": "petition", "god": god})
    await move(0, {"type": "offer", "beads": 2})
    await move(1, {"type": "challenge", "beads": 3})
    await move(0, {"type": "meet"})
    await move(0, {"type": "cards", "cards": mine})
    await move(1, {"type": "cards", "cards": theirs})
    s = await state()
    assert s.gods[god].holder == 0 and s.gods[god].lock == mine  # 2 + 2 against 3 + 1: locked
    await move(1, {"type": "beads"})
    await move(0, {"type": "draw"})        # its next turn ends: the god and its citizens return
    s = await state()
    assert s.gods[god].holder is None and len(s.seats[0].hand) == 12
    prompt = ENGINE.prompts(s)[0]
    assert (prompt.seat, prompt.kind, prompt.params["purpose"]) == (0, "discard", "discard")
    assert "discards down to the hand limit" in (board(thread).embeds[0].description or "")
    r = await alice.click(board(thread), label="Decide")
    assert private(r), reply_text(r)
    form = opened(r)
    assert "discard down to the hand limit" in form.embeds[0].title
    drop = s.seats[0].hand[:2]
    done = await pick_cards(alice, form, drop)
    assert "✅" in answer_text(env, done), answer_text(env, done)
    s = await state()
    assert len(s.seats[0].hand) == 10 and set(drop) <= set(s.discard)
    assert ENGINE.prompts(s)[0].seat == 1  # bob's turn goes on
    assert "discards down to the hand limit" not in (board(thread).embeds[0].description or "")
