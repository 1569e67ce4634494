"""``/game undo`` through Discord: a secret bid taken back, the thread's line (no hidden value in
it), the decision asked again by DM, a button drawn before the undo refused after it, and the
refusals a player reads, each one sentence."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import discord
import pytest
import simcord

from bot.gameui import _uis, register_ui
from rules import registry
from tests.discord.helpers import (
    accepted,
    choose_label,
    find_by_prefix,
    last_message,
    reply_text,
    simultaneously,
    story,
)
from tests.support.duel import DuelUI
from tests.unit.test_undo import UndoDuel

WENT_WRONG = "something went wrong"


class UndoDuelUI(DuelUI):
    key = "undo_duel"


@pytest.fixture(autouse=True)
def _undo_duel() -> Iterator[None]:
    registry.register(UndoDuel())
    register_ui(UndoDuelUI())
    try:
        yield
    finally:
        registry.unregister("undo_duel")
        _uis.pop("undo_duel", None)


def log_of(thread: Any) -> str:
    return story(thread)


def decide_board(thread: Any) -> discord.Message:
    return find_by_prefix(thread.history(), "herald:act:")


async def open_game(env: simcord.Env) -> tuple[Any, Any, Any]:
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    await alice.slash(channel, "play", game="undo_duel")
    await bob.click(last_message(channel), label="Join")
    await alice.click(last_message(channel), label="Start")
    return channel.threads[0], alice, bob


async def test_a_bid_taken_back_through_discord(simcord_env: simcord.Env) -> None:
    env = simcord_env
    thread, alice, bob = await open_game(env)
    r = await bob.slash(thread, "game undo")
    assert "You have not made a move in this game yet" in reply_text(r), reply_text(r)

    old_menu = await alice.click(decide_board(thread), label="Decide")
    panel = await alice.click(decide_board(thread), label="Decide")  # (a second menu: she bids there)
    await choose_label(alice, panel, "Bid 4")
    assert "**P1 alice** has bid." in log_of(thread)
    dms_before = len(alice.user.dm_channel.history())

    r = await alice.slash(thread, "game undo")
    assert "Your last move was taken back" in reply_text(r), reply_text(r)
    line = "↩️ **P1 alice** took back their last move: **P1 alice** has bid."
    assert line in log_of(thread)
    said_line = next(ln for m in thread.history() for ln in m.content.splitlines() if "took back" in ln)
    assert "4" not in said_line  # (the value taken back stays secret)
    # the decision is asked again, privately (a fresh menu by DM)
    assert len(alice.user.dm_channel.history()) > dms_before

    # the menu drawn before the undo applies nothing now; a fresh one does
    stale = await choose_label(alice, old_menu, "Bid 4")
    said = reply_text(stale)
    assert "not applied" in said and WENT_WRONG not in said.lower(), said
    assert log_of(thread).count("**P1 alice** has bid.") == 2  # (the bid, and the undo quoting it)

    panel = await alice.click(decide_board(thread), label="Decide")
    await choose_label(alice, panel, "Bid 2")
    panel = await bob.click(decide_board(thread), label="Decide")
    await choose_label(bob, panel, "Bid 5")
    assert "Bids revealed: **P1 alice**: 2, **P2 bob**: 5." in log_of(thread)

    # the bids are out: neither can take theirs back, and each is told why in one sentence
    r = await alice.slash(thread, "game undo")
    said = reply_text(r)
    assert said.startswith("Bob has played since your last move"), said
    r = await bob.slash(thread, "game undo")
    said = reply_text(r)
    assert "every bid is in, so the bids are revealed" in said and WENT_WRONG not in said.lower(), said


async def test_an_undo_and_the_closing_bid_at_the_same_moment(simcord_env: simcord.Env) -> None:
    """alice takes her bid back as bob sends the round's last one: both wait on the game's lock,
    and whichever comes second sees the first — never a half of each, never "went wrong"."""
    env = simcord_env
    thread, alice, bob = await open_game(env)
    panel = await alice.click(decide_board(thread), label="Decide")
    await choose_label(alice, panel, "Bid 4")
    bob_menu = await bob.click(decide_board(thread), label="Decide")
    took, bid = await simultaneously(env, alice.slash(thread, "game undo"),
                                     choose_label(bob, bob_menu, "Bid 2"))
    took_text, bid_text = reply_text(took), reply_text(bid)
    assert WENT_WRONG not in (took_text + bid_text).lower(), (took_text, bid_text)
    assert accepted(bid), bid_text  # bob's bid counts either way
    if took_text.startswith("Your last move was taken back"):  # the undo came first: the round waits for alice again
        assert "Bids revealed" not in log_of(thread)
        assert "took back their last move" in log_of(thread)
    else:  # bob's bid came first and revealed the round
        assert took_text.startswith("Bob has played since your last move"), took_text
        assert "Bids revealed: **P1 alice**: 4, **P2 bob**: 2." in log_of(thread)
        assert "took back" not in log_of(thread)


async def test_an_undo_from_a_direct_message(simcord_env: simcord.Env) -> None:
    """``/game undo game:N`` in a DM with the bot takes back the move like in the thread; a member
    who is not in that game is told so, not shown anything of it."""
    env = simcord_env
    thread, alice, bob = await open_game(env)
    panel = await alice.click(decide_board(thread), label="Decide")
    await choose_label(alice, panel, "Bid 3")
    game_id = int(thread.name.rsplit("#", 1)[1]) if "#" in thread.name else 1
    stranger = env.create_user("eve")
    r = await stranger.slash("game undo", game=game_id)
    assert f"You have no game #{game_id}" in reply_text(r), reply_text(r)
    r = await alice.user.slash("game undo", game=game_id)
    assert "Your last move was taken back" in reply_text(r), reply_text(r)
    assert "↩️ **P1 alice** took back their last move" in log_of(thread)
