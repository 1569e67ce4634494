"""Rematch, ``/game export`` and ``/game replay`` through Discord.

The final result carries a Rematch button: a seated player's press opens one lobby (however many
presses), the other humans confirm and the game starts in the old seat order, or the host starts
with those who did; the server's limits hold. The export is public while the game runs (for
spectators too, and in DMs for one's own games) and complete once it is over; the replay is
refused before the end and sent as one GIF after it."""

from __future__ import annotations

import io
import json
from typing import Any

import simcord
from PIL import GifImagePlugin, Image

from bot.app import HeraldBot
from bot.storage import GuildSettings
from tests.discord.helpers import (
    choice_labels,
    components,
    custom_ids,
    find_by_prefix,
    first_choice,
    reply_text,
    simultaneously,
)


class Table:
    """A server with alice and bob (players), carol (a spectator) and a duel #1 between alice,
    bob and a computer player (one round), in a thread of #games."""

    guild: Any
    channel: Any
    thread: Any
    alice: Any
    bob: Any
    carol: Any


async def duel(env: simcord.Env) -> Table:
    t = Table()
    t.guild = env.create_guild()
    t.channel = t.guild.create_text_channel("games")
    t.alice = t.guild.add_member(env.create_user("alice"))
    t.bob = t.guild.add_member(env.create_user("bob"))
    t.carol = t.guild.add_member(env.create_user("carol"))
    await t.alice.slash(t.channel, "play", game="duel", options="fast=yes")
    lobby = t.channel.last_message
    await t.bob.click(lobby, label="Join")
    await t.alice.click(lobby, label="Add computer player")
    await t.alice.click(lobby, label="Start")
    t.thread = t.channel.threads[-1]
    return t


def board(thread: Any) -> Any:
    return find_by_prefix(thread.history(), "herald:act:")


async def finish(t: Table, bot: HeraldBot, players: tuple[Any, ...] = ()) -> None:
    """The humans bid, then whoever is asked claims, until the one round is over."""
    for _ in range(6):
        game = await bot.storage.get_game(1)
        assert game is not None
        if game.status == "finished":
            return
        for player in players or (t.alice, t.bob):
            panel = await player.click(board(t.thread), label="Decide")
            if not choice_labels(panel):
                continue
            _, choose = await first_choice(player, panel)
            await choose()
    raise AssertionError("the duel did not finish")


def final_message(thread: Any) -> Any:
    return next(m for m in thread.history() if "herald:rematch:1" in custom_ids(m))


async def test_rematch_asks_the_players_and_starts_when_all_confirmed(simcord_env: simcord.Env,
                                                                      simcord_bot: HeraldBot) -> None:
    env, bot = simcord_env, simcord_bot
    t = await duel(env)
    await finish(t, bot)
    final = final_message(t.thread)
    assert [c["label"] for c in components(final)] == ["Rematch"]
    # only a seated player may ask for it
    refused = reply_text(await t.carol.click(final, label="Rematch"))
    assert "only the players of game #1" in refused.lower()
    assert len(await bot.storage.list_games(statuses=("lobby",))) == 0
    # bob presses twice at once: one lobby
    first, second = await simultaneously(env, t.bob.click(final, label="Rematch"),
                                         t.bob.click(final, label="Rematch"))
    lobbies = await bot.storage.list_games(statuses=("lobby",))
    assert len(lobbies) == 1
    table = lobbies[0]
    answers = reply_text(first) + "\n" + reply_text(second)
    assert "open already" in answers and f"table #{table.id}" in answers
    again = reply_text(await t.alice.click(final, label="Rematch"))  # later, after a restart too
    assert "open already" in again and len(await bot.storage.list_games(statuses=("lobby",))) == 1
    old = await bot.storage.get_game(1)
    assert old is not None and old.result and old.result["rematch"] == table.id
    assert table.options == old.options and table.host_id == t.bob.id
    assert [s.is_bot for s in table.seats] == [False, True]
    # the lobby in the same channel asks alice (not bob: he is seated) to confirm
    lobby = t.channel.last_message
    assert f"<@{t.alice.id}>" in lobby.content and f"<@{t.bob.id}>" not in lobby.content
    assert custom_ids(lobby) == [f"herald:rematch:1:{table.id}:{op}" for op in ("confirm", "start", "cancel")]
    # a spectator cannot take a seat, alice cannot start bob's table
    assert "for the players of game #1" in reply_text(await t.carol.click(lobby, label="Confirm"))
    assert "only the host" in reply_text(await t.alice.click(lobby, label="Start now")).lower()
    assert "confirmed already" in reply_text(await t.bob.click(lobby, label="Confirm"))
    # alice confirms: everyone has, the rematch starts in the old seat order
    threads = len(t.channel.threads)
    await t.alice.click(lobby, label="Confirm")
    game = await bot.storage.get_game(table.id)
    assert game is not None and game.status == "active"
    assert [(s.user_id, s.is_bot) for s in game.seats] == [(s.user_id, s.is_bot) for s in old.seats]
    assert len(t.channel.threads) == threads + 1 and game.thread_id == t.channel.threads[-1].id
    assert board(t.channel.threads[-1]) is not None
    # the finished rematch lobby: nothing more to press
    assert "already started" in reply_text(await t.alice.click(final, label="Rematch")) or \
        "open already" in reply_text(await t.alice.click(final, label="Rematch"))


async def test_the_host_starts_the_rematch_with_those_who_confirmed(simcord_env: simcord.Env,
                                                                    simcord_bot: HeraldBot) -> None:
    env, bot = simcord_env, simcord_bot
    t = await duel(env)
    await finish(t, bot)
    await t.alice.click(final_message(t.thread), label="Rematch")
    lobby = t.channel.last_message
    assert f"<@{t.bob.id}>" in lobby.content
    await t.alice.click(lobby, label="Start now")
    game = (await bot.storage.list_games(statuses=("active",)))[0]
    assert [(s.user_id, s.is_bot) for s in game.seats] == [(t.alice.id, False), (None, True)]
    lobby = next(m for m in t.channel.history() if m.id == lobby.id)
    assert "Rematch of game #1." in lobby.content  # no one is asked any more
    assert all(c.disabled for row in lobby.components for c in getattr(row, "children", [row]))


async def test_a_rematch_respects_the_servers_table_limit(simcord_env: simcord.Env,
                                                          simcord_bot: HeraldBot) -> None:
    env, bot = simcord_env, simcord_bot
    t = await duel(env)
    await finish(t, bot)
    await bot.storage.save_guild_settings(GuildSettings(t.guild.id, lobby_limit=1))
    await t.carol.slash(t.channel, "play", game="duel")  # the one table waiting to start allowed
    refused = reply_text(await t.bob.click(final_message(t.thread), label="Rematch"))
    assert "limit" in refused and "Traceback" not in refused
    assert len(await bot.storage.list_games(statuses=("lobby",))) == 1
    old = await bot.storage.get_game(1)
    assert old is not None and "rematch" not in (old.result or {})
    # once there is room, the press works
    await bot.storage.save_guild_settings(GuildSettings(t.guild.id, lobby_limit=2))
    assert "is open" in reply_text(await t.bob.click(final_message(t.thread), label="Rematch"))


def attached(env: simcord.Env, result: Any) -> tuple[str, bytes]:
    said = ([result.response] if result.response is not None else []) + list(result.followups)
    files = [a for f in said for a in f.attachments]
    assert len(files) == 1, reply_text(result)
    data = env.backend.cdn.get(files[0].url)
    assert data is not None
    return files[0].filename, data


async def test_export_is_public_while_running_and_complete_after(simcord_env: simcord.Env,
                                                                  simcord_bot: HeraldBot) -> None:
    env, bot = simcord_env, simcord_bot
    t = await duel(env)
    # alice bids: a secret answer, and a line for her eyes only
    panel = await t.alice.click(board(t.thread), label="Decide")
    label, choose = await first_choice(t.alice, panel)
    await choose()
    for who, result in (("spectator", await t.carol.slash(t.thread, "game export")),
                        ("player in a DM", await t.alice.user.slash("game export", game=1))):
        name, data = attached(env, result)
        out = json.loads(data)
        assert name == "herald-game-1-public.json", who
        assert out["complete"] is False and "seed" not in out and "hands" not in out, who
        assert [s["name"] for s in out["seats"]] == ["alice", "bob", "Computer 1"]
        assert out["actions"] and all(r.get("secret") and "action" not in r for r in out["actions"]), who
        assert "You bid" not in data.decode() and all("to" not in e for e in out["events"]), who
        assert "secret choices and hands stay out" in reply_text(result)
    # another server's member and someone else's DM: the game does not exist for them
    server = env.create_guild()
    other = server.create_text_channel("elsewhere")
    dave = server.add_member(env.create_user("dave"))
    assert "no game #1 in this server" in reply_text(await dave.slash(other, "game export", game=1))
    assert "You have no game #1" in reply_text(await t.carol.user.slash("game export", game=1))
    # the replay waits for the end
    early = reply_text(await t.alice.slash(t.thread, "game replay"))
    assert "still being played" in early
    await finish(t, bot)
    name, data = attached(env, await t.carol.slash(t.thread, "game export", game=1))
    out = json.loads(data)
    game = await bot.storage.get_game(1)
    assert game is not None and game.result is not None and name == "herald-game-1.json"
    assert out["complete"] is True and out["seed"] == game.seed and out["result"]["winners"] == game.result["winners"]
    assert all("action" in r for r in out["actions"]) and set(out["hands"]) == {"P1", "P2", "P3"}
    assert any(e["to"] == [0] and "You bid" in e["text"] for e in out["events"])
    # and the replay: one GIF, a frame per step at least
    result = await t.bob.slash(t.thread, "game replay")
    name, data = attached(env, result)
    assert name.endswith(".gif") and result.response.ephemeral
    with Image.open(io.BytesIO(data)) as gif:
        assert isinstance(gif, GifImagePlugin.GifImageFile)
        assert gif.n_frames == len(out["actions"]) + 1


async def test_forged_rematch_buttons_are_refused(simcord_env: simcord.Env, simcord_bot: HeraldBot) -> None:
    """A custom_id is a claim: another server's game, a running game, or a table that is not the
    game's rematch are refused, nothing opened."""
    from tests.discord.test_boundaries import button, forge

    env, bot = simcord_env, simcord_bot
    t = await duel(env)
    server = env.create_guild()
    other = server.create_text_channel("elsewhere")
    mallory = server.add_member(env.create_user("mallory"))
    await mallory.slash(other, "play", game="duel")  # (table #2: a message of her own to click on)
    where = other.last_message
    assert "no game #1 in this server" in reply_text(await forge(mallory, where, button("herald:rematch:1")))
    running = reply_text(await forge(t.alice, t.thread.last_message, button("herald:rematch:1")))
    assert "not over yet" in running
    await finish(t, bot)
    await t.carol.slash(t.channel, "play", game="duel")  # table #3: not a rematch of #1
    forged = reply_text(await forge(t.alice, t.thread.last_message, button("herald:rematch:1:3:confirm")))
    assert "no longer open" in forged
    table = await bot.storage.get_game(3)
    assert table is not None and [s.user_id for s in table.seats] == [t.carol.id]
    elsewhere = reply_text(await forge(t.alice, t.thread.last_message, button("herald:rematch:1:2:confirm")))
    assert "no game #2 in this server" in elsewhere
    assert len(await bot.storage.list_games(statuses=("lobby",))) == 2


async def test_the_last_confirmation_and_start_at_once_start_one_game(simcord_env: simcord.Env,
                                                             simcord_bot: HeraldBot) -> None:
    env, bot = simcord_env, simcord_bot
    t = Table()
    t.guild = env.create_guild()
    t.channel = t.guild.create_text_channel("games")
    t.alice, t.bob, t.carol = (t.guild.add_member(env.create_user(n)) for n in ("alice", "bob", "carol"))
    await t.alice.slash(t.channel, "play", game="duel", options="fast=yes")
    lobby = t.channel.last_message
    await t.bob.click(lobby, label="Join")
    await t.carol.click(lobby, label="Join")
    await t.alice.click(lobby, label="Start")
    t.thread = t.channel.threads[-1]
    await finish(t, bot, (t.alice, t.bob, t.carol))
    await t.carol.click(final_message(t.thread), label="Rematch")
    rematch = t.channel.last_message
    threads = len(t.channel.threads)
    await t.bob.click(rematch, label="Confirm")
    # alice confirms last while carol, the host, presses Start now: one game, one thread
    first, second = await simultaneously(env, t.alice.click(rematch, label="Confirm"),
                                         t.carol.click(rematch, label="Start now"))
    game = await bot.storage.get_game(2)
    assert game is not None and game.status == "active"
    assert [s.user_id for s in game.seats] == [t.alice.id, t.bob.id, t.carol.id]
    assert len(t.channel.threads) == threads + 1 and game.thread_id == t.channel.threads[-1].id
    assert "Traceback" not in reply_text(first) + reply_text(second)
