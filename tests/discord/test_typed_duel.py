"""The free-form example of the docs (the typed duel) works on Discord: its secret bid is DMed
as the game's own panel, ``/bid`` answers it through the engine's checks, a refused bid is one
sentence, and the round's enumerated claim still needs no code of the game's."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import simcord

from bot.gameui import _uis, register_ui
from rules import registry
from tests.discord.helpers import choose_label, find_by_prefix, last_message, reply_text, story
from tests.support import typed_duel


@pytest.fixture(autouse=True)
def _typed_duel() -> Iterator[None]:
    registry.register(typed_duel.ENGINE)
    register_ui(typed_duel.UI)
    try:
        yield
    finally:
        registry.unregister(typed_duel.KEY)
        _uis.pop(typed_duel.KEY, None)


async def test_a_typed_bid_is_asked_by_the_panel_and_answered_by_the_command(
        simcord_env: simcord.Env) -> None:
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    await alice.slash(channel, "play", game=typed_duel.KEY)
    await bob.click(last_message(channel), label="Join")
    await alice.click(last_message(channel), label="Start")
    thread = channel.threads[0]

    dm = "\n".join(m.content for m in alice.user.dm_channel.history())
    assert "Type `/bid card:` and one of them." in dm, dm
    assert "Your cards: 1, 2, 3, 4, 5." in dm

    r = await alice.slash(thread, "bid", card=9)
    assert "You cannot bid 9; your cards are 1, 2, 3, 4, 5." in reply_text(r), reply_text(r)
    assert "has bid" not in story(thread)

    r = await alice.slash(thread, "bid", card=4)
    assert "You bid 4 in game #" in reply_text(r), reply_text(r)
    assert "**P1 alice** has bid." in story(thread)
    said = next(ln for ln in story(thread).splitlines() if "has bid" in ln)
    assert "4" not in said  # (the bid stays secret until the reveal)

    await bob.slash(thread, "bid", card=2)
    assert "Bids revealed: **P1 alice**: 4, **P2 bob**: 2." in story(thread)

    # the claim is enumerated: Decide shows its choices with no code of the game's
    board = find_by_prefix(thread.history(), "herald:act:")
    panel = await alice.click(board, label="Decide")
    await choose_label(alice, panel, "Gold (+2)")
    assert "**P1 alice** takes gold (+2)." in story(thread)
