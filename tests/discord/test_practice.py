"""``/practice GAME``: one command starts a game against computer players in the caller's DMs; each
of their decisions comes with a tip (what each choice does, what the computer player would pick,
read from their own view only); the finished game leaves the ratings untouched."""

from __future__ import annotations

import re
from typing import Any

import discord
import pytest
import simcord

from bot.app import HeraldBot
from bot.views import shown_label
from cogs.practice import PRACTICE_LIMIT, pick_words, tip_text
from rules import registry
from rules.engine import Choice, Prompt
from tests.discord.helpers import (
    accepted,
    choice_labels,
    choose_label,
    find_by_prefix,
    private,
    reply_text,
)


def tips(user: Any) -> list[discord.Message]:
    return [m for m in user.dm_channel.history() if m.content.startswith("💡 **Tip")]


async def decide(user: Any, label: str | None = None) -> str:
    """Press Decide on the newest board in the DMs, then ``label`` (or the first choice)."""
    board = find_by_prefix(user.dm_channel.history(), "herald:act:")
    panel = await user.click(board, label="Decide")
    chosen = next(x for x in choice_labels(panel) if label is None or x == label)
    assert accepted(await choose_label(user, panel, chosen))
    return chosen


async def test_practice_starts_a_game_in_dms_with_a_tip_on_each_decision_and_no_rating(
        simcord_env: simcord.Env, simcord_bot: HeraldBot) -> None:
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("games")
    ann = guild.add_member(simcord_env.create_user("ann"))
    r = await ann.slash(channel, "practice", game="duel")
    assert private(r)
    said = reply_text(r)
    assert "practice game of **High Card Duel** (#1) is in our DMs" in said and "never rated" in said
    assert not channel.history() and not channel.threads  # nothing of it in the server
    game = await simcord_bot.storage.get_game(1)
    assert game is not None and game.status == "active" and game.guild_id is None
    assert [s.is_bot for s in game.seats] == [False, True]
    dms = ann.user.dm_channel.history()
    assert dms[0].content.startswith("🎓 **Practice game of High Card Duel** (#1) against 1 computer player.")
    board = find_by_prefix(dms, "herald:act:")
    (first_tip,) = tips(ann.user)
    assert dms.index(board) < dms.index(first_tip)  # the tip follows the board it is about
    assert "Round 1: bid one of your cards in secret." in first_tip.content
    for card in range(1, 6):
        assert f"• **Bid {card}**" in first_tip.content
    assert re.search(r"the computer player( \(\w+\))? would (pick|choose): \*\*Bid [1-5]\*\*",
                     first_tip.content), first_tip.content
    # /game hint answers in a practice game (its table allows hints), only to the player
    hint = await ann.user.slash("game hint", game=1)
    assert private(hint) and "would choose" in reply_text(hint), reply_text(hint)
    # every decision of the player gets its tip, until the end
    decisions = 0
    for _ in range(40):
        game = await simcord_bot.storage.get_game(1)
        assert game is not None
        if game.status != "active":
            break
        assert len(tips(ann.user)) == decisions + 1
        await decide(ann.user)
        decisions += 1
    assert game.status == "finished" and decisions >= 3
    # a practice game is rated for nobody: no leaderboard row, no stats, for her or the computer
    rows, total = await simcord_bot.storage.leaderboard(guild.id, "duel")
    assert total == 0 and not rows
    assert "not finished a rated game" in reply_text(await ann.slash(channel, "stats"))


async def test_practice_refuses_a_table_that_does_not_fit_and_too_many_at_once(
        simcord_env: simcord.Env, simcord_bot: HeraldBot) -> None:
    ann = simcord_env.create_user("ann")
    r = await ann.slash("practice", game="hegemony_of_faith", players=2)
    assert "seats 4–8 players" in reply_text(r)
    for n in range(PRACTICE_LIMIT):
        started = await ann.slash("practice", game="duel")  # from a DM too
        assert f"(#{n + 1}) is in our DMs" in reply_text(started), reply_text(started)
    r = await ann.slash("practice", game="duel")
    assert f"already have {PRACTICE_LIMIT} practice games running" in reply_text(r)
    assert (await simcord_bot.storage.get_game(PRACTICE_LIMIT + 1)) is None


def test_a_tip_names_each_choice_and_the_computer_pick_from_the_prompt_alone() -> None:
    engine = registry.get("duel")
    prompt = Prompt(0, "claim", "You won the round: claim a prize.",
                    (Choice("Gold (+2)", {"type": "gold"}, description="two points for you"),
                     Choice("Raid (+1, leader -1)", {"type": "raid"})))
    assert pick_words(prompt, {"type": "raid"}) == "Raid (+1, leader -1)"
    cards = Prompt(0, "bid", "Bid cards.", free_form="cards",
                   params={"cards": [{"id": "PT01", "name": "Court Poet"}, {"id": "PT02", "name": "Seer"}]})
    assert pick_words(cards, {"type": "cards", "cards": ["PT02"]}) == "Seer"
    assert pick_words(cards, {"type": "cards", "cards": []}) == "no card"

    class Game:
        seats: list[Any] = []

    text = tip_text(Game(), prompt, "Gold (+2)")  # type: ignore[arg-type]  # (a stand-in game row)
    assert "• **Gold (+2)** — two points for you" in text and "• **Raid (+1, leader -1)**" in text
    assert "would pick: **Gold (+2)**" in text and engine.name not in text
    form = tip_text(Game(), cards, None)  # type: ignore[arg-type]  # (the stand-in again)
    assert "Press **Decide**: pick cards in the form's menu" in form and "would pick" not in form


GAMES = sorted(registry.BUILTIN)


@pytest.mark.parametrize("game", GAMES)
async def test_practice_of_each_game_starts_with_a_tip_for_the_first_decision(
        simcord_env: simcord.Env, simcord_bot: HeraldBot, game: str) -> None:
    ann = simcord_env.create_user("ann")
    r = await ann.slash("practice", game=game)
    assert "is in our DMs" in reply_text(r), reply_text(r)
    snap = await simcord_bot.sessions.snapshot(1)
    mine = snap.prompt_of(0)
    assert mine is not None  # the first decision the player meets (a secret choice, a turn)
    (tip,) = tips(ann)
    assert mine.prompt.text.split(":")[0] in tip.content
    if mine.prompt.choices:
        label = shown_label(mine.prompt.choices[0]).replace("P2", "P2 Computer 2")
        assert f"• **{label}**" in tip.content
        assert re.search(r"the computer player( \(\w+\))? would (pick|choose): \*\*", tip.content), tip.content
    # the tip names no other seat's secret: it is the same whatever the computer players hold
    assert all(s.is_bot for s in snap.game.seats[1:]) and snap.game.guild_id is None
