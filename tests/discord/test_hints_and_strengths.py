"""On simulated Discord: ``/game hint`` (allowed by a table's ``hints=on``, refused otherwise and in
rated games, seen by the asker alone) and computer players of a chosen strength (issue 29)."""

from __future__ import annotations

import pytest
import simcord

from bot import hints
from bot.app import HeraldBot
from bot.errors import TableError
from bot.storage import GameRow
from rules import search
from tests.discord.helpers import components, last_message, private, public_text, reply_text


async def _table(env: simcord.Env, bot: HeraldBot, options: str | None = None
                 ) -> tuple[simcord.GuildHandle, simcord.ChannelHandle, simcord.MemberActor,
                            simcord.MemberActor, int]:
    """Alice's Flick of Faith table with Bob, started: (guild, channel, alice, bob, game id)."""
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    await alice.slash(channel, "play", game="flick_of_faith",
                      **({"options": options} if options else {}))
    lobby = last_message(channel)
    await bob.click(lobby, label="Join")
    await alice.click(lobby, label="Start")
    game_id = (await bot.storage.list_games(guild_id=guild.id))[0].id
    return guild, channel, alice, bob, game_id


async def test_game_hint_tells_only_the_asker_what_the_computer_player_would_choose(
        simcord_env: simcord.Env, simcord_bot: HeraldBot) -> None:
    _, channel, alice, _, game_id = await _table(simcord_env, simcord_bot, "hints=on")
    before = public_text(channel)
    r = await alice.slash(channel.threads[0], "game hint")
    assert private(r)
    said = reply_text(r)
    snap = await simcord_bot.sessions.snapshot(game_id)
    mine = snap.prompt_of(0)
    assert mine is not None and mine.prompt.kind == "god"
    labels = [c.label for c in mine.prompt.choices]  # (the Decide menu's labels)
    assert "the computer player (normal) would choose" in said
    assert any(f"**{label}**" in said for label in labels), said
    assert public_text(channel) == before  # nothing of it where others read
    assert "would choose" not in public_text(channel)


async def test_game_hint_is_refused_in_a_rated_game(simcord_env: simcord.Env,
                                                     simcord_bot: HeraldBot) -> None:
    _, channel, alice, _, _ = await _table(simcord_env, simcord_bot)
    r = await alice.slash(channel.threads[0], "game hint")
    assert private(r)
    assert "counts in this server's ratings, so it gives no hints" in reply_text(r)


def test_a_table_without_the_hints_option_gives_none_even_unrated() -> None:
    """A game of no server is rated for nobody, but gives hints only if its table allows them
    (practice tables do: ``tests/discord/test_practice.py``)."""
    game = GameRow(id=7, guild_id=None, channel_id=None, thread_id=None, game_key="duel",
                   status="active", version=1, seed=1, options={}, state=None, host_id=1,
                   deadline=None)
    assert not hints.rated(game)
    with pytest.raises(TableError, match="does not allow hints"):
        hints.check_allowed(game)
    game.options = {search.HINTS_OPTION: True}
    hints.check_allowed(game)  # (allowed: no refusal)


async def test_the_host_adds_a_computer_player_of_a_chosen_strength(
        simcord_env: simcord.Env, simcord_bot: HeraldBot) -> None:
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("games")
    alice = guild.add_member(simcord_env.create_user("alice"))
    bob = guild.add_member(simcord_env.create_user("bob"))
    await alice.slash(channel, "play", game="cult_wars", bots=1, strength="easy")
    lobby = last_message(channel)
    menu = next(c for c in components(lobby) if (c["custom_id"] or "").startswith("herald:lobbybot:"))
    assert [o.value for o in menu["options"]] == list(search.STRENGTHS)
    refused = await bob.select(lobby, ["hard"], custom_id=menu["custom_id"])  # not the host
    assert "Only the host can add computer players" in reply_text(refused)
    chosen = await alice.select(lobby, ["hard"], custom_id=menu["custom_id"])
    assert chosen.acknowledged
    game = (await simcord_bot.storage.list_games(guild_id=guild.id))[0]
    assert [(s.name, s.is_bot) for s in game.seats] == [
        ("alice", False), ("Computer 2 (easy)", True), ("Computer 2 (hard)", True)]
    assert game.options[search.SEATS_OPTION] == {"1": "easy", "2": "hard"}
    shown = last_message(channel)
    seated = next(f.value or "" for f in shown.embeds[0].fields if (f.name or "").startswith("Seated"))
    assert "Computer 2 (easy)" in seated and "Computer 2 (hard)" in seated
    # the game starts with them, each playing at its own strength
    await alice.click(shown, label="Start")
    started = await simcord_bot.storage.get_game(game.id)
    assert started is not None and started.status == "active"
    assert search.seat_strength(started.options, 2) == "hard"
    assert search.seat_strength(started.options, 1) == "easy"
