"""Every decision reaches its player: a decision opened out of turn (a Petition challenge window,
an Alternate Histories flee or intercept, a Hegemony of Faith reaction window, a Flick of Faith
council vote, a Cult Wars defender's split) is DMed exactly as a turn's decision is — one new DM
with the decision and its deadline, under the default notification setting ("a DM for every
decision") — and not DMed to a player who asked for "only reminders".

Each game is played through the session layer (as a click does) with two humans and computer
players, the humans answering as the computer player would, until a decision of the kind looked
for opens for a human who did not just act. Who is asked by a reaction window depends only on
public information (the engine asks every eligible seat, whatever it holds), so every seat asked
gets the same DM.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
import simcord
from PIL import Image

from bot.app import HeraldBot
from bot.gameui import get_ui
from bot.session import OpenPrompt
from bot.storage.base import PlayerPrefs
from tests.discord.helpers import open_seeded_table


@pytest.fixture
def sketchy_images(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tiny images instead of boards and hands: these tests read DMs, not pictures."""
    for key in ("hegemony_of_faith", "flick_of_faith", "cult_wars", "petition", "alternate_histories"):
        ui = get_ui(key)
        monkeypatch.setattr(ui, "board_image", lambda *a, **k: Image.new("RGB", (8, 8)))
        monkeypatch.setattr(ui, "hand_image", lambda *a, **k: Image.new("RGB", (8, 8)))
        monkeypatch.setattr(ui, "attachments", lambda *a, **k: [])


def dm_posts(env: simcord.Env, start: int, channel_id: int) -> list[dict[str, Any]]:
    """The bodies of the messages the bot posted in one DM channel since ``start``."""
    out: list[dict[str, Any]] = []
    for kind, what, body in env.backend.transcript[start:]:
        if kind != "HTTP" or not isinstance(body, dict):
            continue
        method, _, path = str(what).partition(" ")
        if method == "POST" and path.split("?")[0].strip("/") == f"channels/{channel_id}/messages":
            out.append(body)
    return out


async def play_until(env: simcord.Env, bot: HeraldBot, game_id: int, humans: dict[int, Any],
                     kinds: set[str], limit: int = 2500) -> tuple[list[OpenPrompt], int, set[int]]:
    """Let the humans answer as the computer player would until a decision of one of ``kinds``
    opens for a human other than the one who just answered. Returns those decisions, where the
    transcript stood before the answer that opened them, and the seats that answered it."""
    engine = bot.sessions.engine(await bot.sessions.get(game_id))
    for _ in range(limit):
        snap = await bot.sessions.snapshot(game_id)
        game = snap.game
        assert game.status == "active", f"the game ended before a {kinds} decision reached a human"
        mine = next(o for o in snap.open if game.seats[o.seat].user_id in humans)
        uid = game.seats[mine.seat].user_id
        rng = random.Random(f"human/{game.version}/{mine.seat}")
        action = await bot.sessions.cpu(engine.bot_action, snap.view(mine.seat), mine.prompt, rng)
        start = len(env.backend.transcript)
        update = await bot.sessions.act(game_id, mine.seat, action, user_id=uid, answers=mine.ticket)
        acted = {seat for seat, _, origin in update.actions if origin == "player"}
        opened = [o for o in update.new_prompts if o.prompt.kind in kinds and o.seat not in acted
                  and update.game.seats[o.seat].user_id in humans]
        if opened:
            return opened, start, acted
    raise AssertionError(f"no {kinds} decision opened for a human within {limit} answers")


async def assert_reaches(env: simcord.Env, bot: HeraldBot, game: str, seed: int, computers: int,
                         kinds: set[str]) -> list[OpenPrompt]:
    """Play ``game`` to an out-of-turn decision of ``kinds`` and check that each human asked got
    exactly one new DM carrying it and its deadline, and that no human who was not asked did."""
    _, _, (alice, bob) = await open_seeded_table(env, bot, game, seed, computers=computers, deadline="1d")
    humans = {alice.id: alice, bob.id: bob}
    game_id = (await bot.storage.list_games())[-1].id
    opened, start, _ = await play_until(env, bot, game_id, humans, kinds)
    snap = await bot.sessions.snapshot(game_id)
    asked = {snap.game.seats[o.seat].user_id: o for o in opened}
    for uid, member in humans.items():
        posts = dm_posts(env, start, member.user.dm_channel.id)
        o = asked.get(uid)
        if o is None:  # (a human not asked hears of this move only if it is news for them)
            assert not any("Your decision" in str(p.get("content")) for p in posts
                           if snap.prompt_of(snap.game.seat_of(uid) or 0) is None), posts
            continue
        deciding = [p for p in posts if p.get("components")]
        assert len(deciding) == 1, (o.prompt.kind, [p.get("content") for p in posts])
        content = str(deciding[0].get("content"))
        assert f"game #{game_id}" in content, content
        if o.prompt.free_form is None or not o.prompt.secret:
            assert "Your decision" in content and o.prompt.text[:60] in content, content
        if o.deadline is not None and "Your decision" in content:
            assert f"<t:{int(o.deadline.due_at)}:R>" in content, content
    return opened


@pytest.mark.usefixtures("sketchy_images")
async def test_a_petition_challenge_window_is_dmed_to_every_player_it_asks(
        simcord_env: simcord.Env, simcord_bot: HeraldBot) -> None:
    """"Challenge" is asked of the other players when one petitions: each gets the DM."""
    opened = await assert_reaches(simcord_env, simcord_bot, "petition", 3, 1, {"challenge"})
    assert all(o.deadline is not None for o in opened)


@pytest.mark.usefixtures("sketchy_images")
async def test_an_alternate_histories_flee_or_intercept_is_dmed(
        simcord_env: simcord.Env, simcord_bot: HeraldBot) -> None:
    await assert_reaches(simcord_env, simcord_bot, "alternate_histories", 3, 0, {"react"})


@pytest.mark.usefixtures("sketchy_images")
async def test_a_hegemony_of_faith_reaction_window_is_dmed_to_every_player_it_asks(
        simcord_env: simcord.Env, simcord_bot: HeraldBot) -> None:
    opened = await assert_reaches(simcord_env, simcord_bot, "hegemony_of_faith", 56, 2,
                                  {"defend", "prophet", "karma", "counter", "rebirth"})
    dues = {o.deadline.due_at for o in opened if o.deadline is not None}
    assert len(dues) == 1  # (one window: the same deadline for every seat it asks)


@pytest.mark.usefixtures("sketchy_images")
async def test_a_flick_of_faith_council_vote_is_dmed_to_each_voter(
        simcord_env: simcord.Env, simcord_bot: HeraldBot) -> None:
    await assert_reaches(simcord_env, simcord_bot, "flick_of_faith", 7, 1, {"vote"})


@pytest.mark.usefixtures("sketchy_images")
async def test_a_cult_wars_defenders_split_is_dmed(simcord_env: simcord.Env, simcord_bot: HeraldBot) -> None:
    await assert_reaches(simcord_env, simcord_bot, "cult_wars", 4, 1, {"split"})


@pytest.mark.usefixtures("sketchy_images")
async def test_only_reminders_means_no_dm_for_an_out_of_turn_decision(
        simcord_env: simcord.Env, simcord_bot: HeraldBot) -> None:
    """``/notify dms:only reminders``: the challenge window opens without a new DM for them."""
    env, bot = simcord_env, simcord_bot
    _, _, (alice, bob) = await open_seeded_table(env, bot, "petition", 3, computers=1, deadline="1d")
    humans = {alice.id: alice, bob.id: bob}
    for uid in humans:
        await bot.storage.save_player_prefs(PlayerPrefs(uid, dms="reminders"))
    game_id = (await bot.storage.list_games())[-1].id
    opened, start, _ = await play_until(env, bot, game_id, humans, {"challenge"})
    snap = await bot.sessions.snapshot(game_id)
    for o in opened:
        member = humans[snap.game.seats[o.seat].user_id]
        assert not dm_posts(env, start, member.user.dm_channel.id)
