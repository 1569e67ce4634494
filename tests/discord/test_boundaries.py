"""Boundaries between servers, and limits: a game is seen and touched only from its own server (or,
in a DM, by its own players) — whatever a command names or a custom_id claims — and no server or
member can open tables without bound or make a listing load everything."""

from __future__ import annotations

import re
from typing import Any

import discord
import pytest
import simcord
from simcord.actors import _dispatch_actor_interaction
from simcord.backend import serializers
from simcord.builders import ChannelHandle
from simcord.enums import ComponentType, InteractionType

from bot.app import HeraldBot
from bot.storage import SeatRow, Storage
from tests.discord.helpers import (
    choice_labels,
    choose_label,
    find_by_prefix,
    last_message,
    private,
    reply_text,
    simultaneously,
    stored_game,
)


class World:
    """Two servers. North: alice and carol play game #1 (a duel) and bob waits in his lobby (table
    #2); carol is a member of South too. South: mallory (Manage Server there, never a member of
    North) with her own lobby (table #3), and sam. Attributes are set by :func:`two_servers`."""

    north: simcord.GuildHandle
    south: simcord.GuildHandle
    n_chan: simcord.ChannelHandle
    s_chan: simcord.ChannelHandle
    alice: simcord.MemberActor
    bob: simcord.MemberActor
    carol: simcord.MemberActor
    carol_south: simcord.MemberActor
    mallory: simcord.MemberActor
    sam: simcord.MemberActor
    n_lobby: discord.Message
    n_lobby2: discord.Message
    s_lobby: discord.Message


async def two_servers(env: simcord.Env) -> World:
    w = World()
    w.north = env.create_guild()
    w.south = env.create_guild()
    w.n_chan = w.north.create_text_channel("games")
    w.s_chan = w.south.create_text_channel("games")
    mods = w.south.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    w.alice = w.north.add_member(env.create_user("alice"))
    w.bob = w.north.add_member(env.create_user("bob"))
    carol = env.create_user("carol")
    w.carol = w.north.add_member(carol)
    w.carol_south = w.south.add_member(carol)
    w.mallory = w.south.add_member(env.create_user("mallory"), roles=[mods])
    w.sam = w.south.add_member(env.create_user("sam"))
    await w.alice.slash(w.n_chan, "play", game="duel")
    w.n_lobby = last_message(w.n_chan)
    await w.carol.click(w.n_lobby, label="Join")
    await w.alice.click(w.n_lobby, label="Start")  # game #1: alice and carol, running
    await w.bob.slash(w.n_chan, "play", game="duel")  # table #2: bob's lobby, waiting
    w.n_lobby2 = last_message(w.n_chan)
    await w.mallory.slash(w.s_chan, "play", game="duel")  # table #3: mallory's own lobby
    w.s_lobby = last_message(w.s_chan)
    return w


def board(w: World) -> discord.Message:
    return find_by_prefix(w.n_chan.threads[0].history(), "herald:act:")


async def forge(actor: Any, message: Any, component: dict[str, Any],
                values: list[str] | None = None) -> Any:
    """``actor`` sends a component interaction the bot never drew: ``component`` (any custom_id,
    e.g. another server's game id) on ``message``, a message of the actor's own channel. Discord
    delivers what the sender's client claims, so this is what a tampered client can do."""
    env = actor._env
    backend = env.backend
    stored = backend.get_message(message.channel.id, message.id)
    shown = dict(serializers.message_payload(backend, stored))
    shown["components"] = [{"type": ComponentType.ACTION_ROW, "components": [component]}]
    data: dict[str, Any] = {"custom_id": component["custom_id"], "component_type": component["type"]}
    if values is not None:
        data["values"] = values
    channel = ChannelHandle(env, getattr(actor, "guild", None), backend.get_channel(stored.channel_id))
    env._begin_operation("forge")
    try:
        return await _dispatch_actor_interaction(actor, InteractionType.MESSAGE_COMPONENT, channel, data,
                                                 extra={"message": shown}, source_message_id=stored.id)
    finally:
        env._end_operation()


def button(custom_id: str) -> dict[str, Any]:
    return {"type": ComponentType.BUTTON, "style": 1, "label": "Go", "custom_id": custom_id}


def select(custom_id: str, value: str) -> dict[str, Any]:
    return {"type": ComponentType.STRING_SELECT, "custom_id": custom_id,
            "options": [{"label": "Go", "value": value}], "min_values": 1, "max_values": 1}


async def forge_form(actor: Any, channel: Any, custom_id: str, values: dict[str, str]) -> Any:
    """``actor`` submits a form (modal) the bot never showed: any custom_id, any values."""
    env = actor._env
    rows = [{"type": ComponentType.ACTION_ROW,
             "components": [{"type": ComponentType.TEXT_INPUT, "custom_id": k, "value": v}]}
            for k, v in values.items()]
    env._begin_operation("forge_form")
    try:
        return await _dispatch_actor_interaction(actor, InteractionType.MODAL_SUBMIT, channel,
                                                 {"custom_id": custom_id, "components": rows})
    finally:
        env._end_operation()


# ------------------------------------------------------------------ commands and autocomplete


async def test_a_dm_shows_only_the_users_own_games(simcord_env: simcord.Env) -> None:
    w = await two_servers(simcord_env)
    mallory = w.mallory.user
    for command in ("game status", "game log"):
        foreign = reply_text(await mallory.slash(command, game=1))
        unknown = reply_text(await mallory.slash(command, game=99))
        assert foreign == unknown.replace("#99", "#1")  # nothing tells the two apart
        assert "no game #1" in foreign and "Duel" not in foreign
    # a player of game #1 reads it from a DM, and in her other server it does not exist
    assert "High Card Duel #1" in reply_text(await w.carol_south.user.slash("game status", game=1))
    assert "no game" not in reply_text(await w.alice.user.slash("game log", game=1))
    south = reply_text(await w.carol_south.slash(w.s_chan, "game status", game=1))
    assert south == reply_text(await w.carol_south.slash(w.s_chan, "game status", game=99)).replace("#99", "#1")


async def test_dm_autocomplete_lists_only_the_users_own_games(simcord_env: simcord.Env) -> None:
    w = await two_servers(simcord_env)
    assert await w.mallory.user.autocomplete("game status", "game", "") == []
    assert await w.mallory.user.autocomplete("game status", "game", "1") == []
    assert await w.bob.user.autocomplete("game status", "game", "") == []  # bob only waits in a lobby
    mine = await w.carol_south.user.autocomplete("game status", "game", "")
    assert [c["value"] for c in mine] == [1] and "carol" in mine[0]["name"]
    # in a server: that server's running games only
    assert await w.mallory.autocomplete(w.s_chan, "game status", "game", "") == []
    assert [c["value"] for c in await w.bob.autocomplete(w.n_chan, "game status", "game", "")] == [1]


# ------------------------------------------------------------------ forged components


async def test_forged_lobby_buttons_of_another_server_change_nothing(
        simcord_env: simcord.Env, simcord_bot: HeraldBot) -> None:
    w = await two_servers(simcord_env)
    unknown = reply_text(await forge(w.mallory, w.s_lobby, button("herald:lobby:99:join")))
    assert "no game #99" in unknown
    joined = await forge(w.sam, w.s_lobby, button("herald:lobby:2:join"))
    assert reply_text(joined) == unknown.replace("#99", "#2")
    # mallory manages South, not North: North's table is not hers to cancel
    cancelled = await forge(w.mallory, w.s_lobby, button("herald:lobby:2:cancel"))
    assert reply_text(cancelled) == unknown.replace("#99", "#2")
    bot_added = await forge(w.mallory, w.s_lobby, button("herald:lobby:2:bot"))
    assert reply_text(bot_added) == unknown.replace("#99", "#2")
    table = await stored_game(simcord_bot, 2)
    assert table.status == "lobby" and [s.name for s in table.seats] == ["bob"]
    # her own server's table she may still cancel as its manager (sam's table)
    await w.sam.slash(w.s_chan, "play", game="duel")
    r = await w.mallory.click(last_message(w.s_chan), label="Cancel")
    assert not private(r) and (await stored_game(simcord_bot, 4)).status == "cancelled"


async def test_forged_decide_choices_and_forms_of_another_server_change_nothing(
        simcord_env: simcord.Env, simcord_bot: HeraldBot) -> None:
    w = await two_servers(simcord_env)
    storage = simcord_bot.storage
    panel = await w.carol.click(board(w), label="Decide")  # carol's real choice form, in North
    assert panel.modal is not None
    ticket = panel.modal["custom_id"].split(":")[4]
    bid = f"herald:btn:1:{ticket}:0"  # (the panel's button for the same choice)
    before = await stored_game(simcord_bot, 1)
    unknown = reply_text(await forge(w.mallory, w.s_lobby, button("herald:act:99:1")))
    assert "no game #99" in unknown
    same = unknown.replace("#99", "#1")
    # an outsider learns nothing, and carol — seated in #1 — cannot act on it from South
    for actor in (w.mallory, w.carol_south):
        assert reply_text(await forge(actor, w.s_lobby, button("herald:act:1:1"))) == same
        assert reply_text(await forge(actor, w.s_lobby, button("herald:hand:1"))) == same
        assert reply_text(await forge(actor, w.s_lobby, button(bid))) == same
        choice = await forge_form(actor, w.s_chan, f"herald:form:choice:1:{ticket}", {"choice": "0"})
        assert reply_text(choice) == same
        assert reply_text(await forge(actor, w.s_lobby, select(f"herald:pick:1:{ticket}:0", "0"),
                                      values=["0"])) == same
        assert reply_text(await forge(actor, w.s_lobby, select(f"herald:grp:1:{ticket}", "c:0"),
                                      values=["c:0"])) == same
        form = await forge_form(actor, w.s_chan, f"herald:form:hof_lineup:1:{ticket}", {"order": "1"})
        assert reply_text(form) == same
        aim = await forge_form(actor, w.s_chan, "herald:form:fof_aim:1:0", {"angle": "0", "power": "5"})
        assert reply_text(aim) == same
    after = await stored_game(simcord_bot, 1)
    assert (after.version, after.state) == (before.version, before.state)  # nothing was applied
    assert await storage.actions(1) == []
    # a choice the form never offered is refused where the form is read
    wrong = await forge_form(w.carol, w.n_chan, f"herald:form:choice:1:{ticket}", {"choice": "99"})
    assert "not on this form" in reply_text(wrong)
    assert (await stored_game(simcord_bot, 1)).version == before.version
    # in North, the same form still works for carol
    await choose_label(w.carol, panel, choice_labels(panel)[0])
    assert (await stored_game(simcord_bot, 1)).version == before.version + 1


async def test_a_forged_dm_component_needs_a_seat_in_the_game(
        simcord_env: simcord.Env, simcord_bot: HeraldBot) -> None:
    w = await two_servers(simcord_env)
    dm_message = w.alice.user.dm_channel.history()[-1]  # alice's hand DM of game #1
    unknown = reply_text(await forge(w.alice.user, dm_message, button("herald:lobby:99:leave")))
    assert "no game #99" in unknown
    r = await forge(w.alice.user, dm_message, button("herald:lobby:3:join"))  # South's table, by DM
    assert reply_text(r) == unknown.replace("#99", "#3")
    assert [s.name for s in (await stored_game(simcord_bot, 3)).seats] == ["mallory"]
    hand = await forge(w.alice.user, dm_message, button("herald:hand:1"))  # her own game: fine
    assert "Your cards" in reply_text(hand)


# ------------------------------------------------------------------ limits


async def test_simultaneous_plays_never_exceed_the_server_limit(
        simcord_env: simcord.Env, simcord_bot: HeraldBot) -> None:
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    mod = guild.add_member(env.create_user("mod"), roles=[mods])
    r = await mod.slash(channel, "herald settings", lobby_limit=4)
    assert "tables waiting to start: at most **4**" in reply_text(r)
    members = [guild.add_member(env.create_user(f"m{i}")) for i in range(10)]
    results = await simultaneously(env, *(m.slash(channel, "play", game="duel") for m in members))
    opened = [r for r in results if not r.ephemeral]
    refused = [reply_text(r) for r in results if r.ephemeral]
    assert len(opened) == 4 and len(refused) == 6
    assert all("already has 4 tables waiting to start" in t for t in refused)
    storage = simcord_bot.storage
    assert (await storage.count_tables(guild.id, 0)).tables == 4
    # cancelling one makes room for one more
    host = next(i for i, r in enumerate(results) if not r.ephemeral)
    await members[host].click(results[host].response.message, label="Cancel")
    assert not (await mod.slash(channel, "play", game="duel")).ephemeral


async def test_one_member_opening_many_tables_at_once_is_held_to_the_member_limits(
        simcord_env: simcord.Env, simcord_bot: HeraldBot) -> None:
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    eve = guild.add_member(env.create_user("eve"))
    results = await simultaneously(env, *(eve.slash(channel, "play", game="duel") for _ in range(9)))
    assert sum(not r.ephemeral for r in results) == 5  # the default: 5 lobbies per member
    assert all("tables waiting to start" in reply_text(r) for r in results if r.ephemeral)
    # joining someone else's table counts too
    zed = guild.add_member(env.create_user("zed"))
    await zed.slash(channel, "play", game="duel")
    r = await eve.click(last_message(channel), label="Join")
    assert private(r) and "tables waiting to start" in reply_text(r)
    assert [s.name for s in (await stored_game(simcord_bot, 6)).seats] == ["zed"]


async def test_limits_are_shown_and_changed_by_managers(simcord_env: simcord.Env) -> None:
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    mod = guild.add_member(env.create_user("mod"), roles=[mods])
    text = reply_text(await mod.slash(channel, "herald settings"))
    assert "Running games: at most **50** in this server" in text and "at most **25**" in text
    assert "closing after **3 days**" in text
    assert "at most **5** tables waiting to start" in text and "**10** tables in all" in text
    text = reply_text(await mod.slash(channel, "herald settings", member_lobby_limit=1, member_table_limit=2))
    assert "Saved" in text and "**1** tables waiting to start" in text and "**2** tables in all" in text
    await mod.slash(channel, "play", game="duel")
    r = await mod.slash(channel, "play", game="duel")
    assert private(r) and "already seated at 1 table waiting to start" in reply_text(r)


# ------------------------------------------------------------------ listings


async def _stored_tables(storage: Storage, guild_id: int, n: int, *, status: str = "lobby") -> list[int]:
    """``n`` tables written straight to storage (the limits are not what is tested here), each
    a little more recently active than the one before."""
    ids = []
    for i in range(n):
        gid = await storage.create_game(guild_id=guild_id, channel_id=1, game_key="duel", seed=1,
                                        options={}, host_id=1000 + i, deadline=None, now=100.0 + i)
        await storage.set_seats(gid, [SeatRow(0, 1000 + i, False, f"player{i}"), SeatRow(1, None, True, "Computer 2")])
        await storage.update_game(gid, status=status, updated_at=100.0 + i)
        ids.append(gid)
    return ids


async def test_games_is_paged_most_recently_active_first(
        simcord_env: simcord.Env, simcord_bot: HeraldBot) -> None:
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    pat = guild.add_member(env.create_user("pat"))
    storage = simcord_bot.storage
    ids = await _stored_tables(storage, guild.id, 20)
    first = reply_text(await pat.slash(channel, "games"))
    listed = [line for line in first.splitlines() if line.startswith("**#")]
    assert len(listed) == 15 and listed[0].startswith(f"**#{ids[-1]} ") and listed[-1].startswith(f"**#{ids[5]} ")
    assert "and 5 more" in first and "/games page:2" in first
    second = reply_text(await pat.slash(channel, "games", page=2))
    assert [line.split()[0] for line in second.splitlines() if line.startswith("**#")] == \
        [f"**#{i}" for i in reversed(ids[:5])]
    assert "page 2 of 2" in second and "more" not in second
    assert "only 2 pages" in reply_text(await pat.slash(channel, "games", page=9))


async def test_game_autocomplete_is_bounded_and_filtered_in_the_database(
        simcord_env: simcord.Env, simcord_bot: HeraldBot) -> None:
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    pat = guild.add_member(env.create_user("pat"))
    storage = simcord_bot.storage
    ids = await _stored_tables(storage, guild.id, 30, status="active")
    everything = await pat.autocomplete(channel, "game status", "game", "")
    assert len(everything) == 25 and everything[0]["value"] == ids[-1]
    assert [c["value"] for c in await pat.autocomplete(channel, "game status", "game", "player17")] == [ids[17]]
    numbered = await pat.autocomplete(channel, "game status", "game", f"#{ids[22]}")
    assert ids[22] in [c["value"] for c in numbered] and all(str(ids[22]) in c["name"] for c in numbered)
    assert len(numbered) == 2  # #23, and #24 where player23 sits
    assert len(await pat.autocomplete(channel, "game status", "game", "duel")) == 25
    assert await pat.autocomplete(channel, "game status", "game", "50%") == []


async def test_forged_custom_ids_with_huge_numbers_are_refused_like_an_unknown_game(
        simcord_env: simcord.Env, caplog: pytest.LogCaptureFixture) -> None:
    """A number past the storage's 64-bit range in any id-carrying custom_id, form or command
    option gets the sentence of a game nobody has, and no failure is logged (it used to reach the
    storage and overflow there: "something went wrong" and a traceback per click)."""
    w = await two_servers(simcord_env)
    big = "9" * 30
    unknown = reply_text(await forge(w.mallory, w.s_lobby, button("herald:act:99:1")))
    assert unknown == "There is no game #99 in this server."
    caplog.clear()
    for component in (button(f"herald:act:{big}:1"), button(f"herald:hand:{big}"),
                      button(f"herald:lobby:{big}:join"), button(f"herald:btn:{big}:1-ab:0"),
                      button(f"herald:rematch:{big}"), button(f"herald:rematch:1:{big}:start"),
                      select(f"herald:pick:{big}:1-ab:0", "0"), select(f"herald:grp:{big}:1-ab", "c:0"),
                      button(f"herald:cwb:{big}:1:send"), button(f"herald:hof:own:{big}:1-ab"),
                      button(f"herald:fof:flick:{big}:1-ab")):
        text = reply_text(await forge(w.mallory, w.s_lobby, component))
        assert text.startswith("There is no ") and "went wrong" not in text, (component, text)
    for custom_id in (f"herald:form:hof_lineup:{big}:1-ab", f"herald:form:hof_lineup:1:{big}-ab"):
        text = reply_text(await forge_form(w.mallory, w.s_chan, custom_id, {"order": "1"}))
        assert text.startswith("There is no ") and "went wrong" not in text
    # Discord itself bounds an integer option to ±2⁵³; the ends of that range are checked here
    for command in ("game status", "game log"):
        for number in (2**53 - 1, -(2**53 - 1), 0):
            text = reply_text(await w.mallory.slash(w.s_chan, command, game=number))
            assert text == f"There is no game #{number} in this server.", text
    failures = [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")]
    assert failures == []
    # nothing changed in the servers' games
    assert "alice" in reply_text(await w.alice.slash(w.n_chan, "game status", game=1))


# ------------------------------------------------------------------ lobbies that nobody touches


def current(channel: simcord.ChannelHandle, message: discord.Message) -> discord.Message:
    """The message as it stands now (after edits)."""
    return next(m for m in channel.history() if m.id == message.id)


def embed_text(message: discord.Message) -> str:
    e = message.embeds[0]
    return " ".join([e.title or "", e.description or ""] + [f"{f.name} {f.value}" for f in e.fields])


def closing_time(message: discord.Message) -> int:
    """When the lobby says it closes by itself (the Discord timestamp it shows)."""
    found = re.search(r"<t:(\d+):R>", embed_text(message))
    assert found is not None, embed_text(message)
    return int(found[1])


async def test_an_idle_lobby_says_when_it_closes_and_closes_by_itself(
        simcord_env: simcord.Env, simcord_bot: HeraldBot) -> None:
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    ann = guild.add_member(env.create_user("ann"))
    ben = guild.add_member(env.create_user("ben"))
    await ann.slash(channel, "play", game="duel")
    lobby = last_message(channel)
    assert "Closes by itself <t:" in embed_text(lobby)
    due = closing_time(lobby)
    assert abs(due - (env.now().timestamp() + 3 * 86400)) < 5  # the default: three days idle
    await env.advance_time(2 * 86400)
    await ben.click(lobby, label="Join")  # activity: the three days start again
    lobby = current(channel, lobby)
    moved = closing_time(lobby)
    assert moved - due > 2 * 86400 - 5
    await env.advance_time(2 * 86400)
    assert "Open" in embed_text(current(channel, lobby))
    await env.advance_time(86400 + 120)
    closed = current(channel, lobby)
    assert "Closed: nobody joined, left or started it for 3 days" in embed_text(closed)
    for row in closed.components:
        assert isinstance(row, discord.ActionRow)
        assert all(isinstance(b, (discord.Button, discord.SelectMenu)) and b.disabled for b in row.children)
    storage = simcord_bot.storage
    assert (await stored_game(simcord_bot, 1)).status == "cancelled"
    assert (await storage.count_tables(guild.id, ann.id)).tables == 0
    r = await ben.slash(channel, "play", game="duel")  # nothing of the old lobby is held
    assert not private(r)


async def test_lobbies_do_not_keep_games_from_starting_and_expired_ones_hold_no_place(
        simcord_env: simcord.Env) -> None:
    """Ten members at their lobby limit used to fill a server's 50 tables forever. Lobbies and
    running games now have limits of their own, and a lobby past its expiry counts for nothing."""
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    mod = guild.add_member(env.create_user("mod"), roles=[mods])
    text = reply_text(await mod.slash(channel, "herald settings", lobby_limit=3, table_limit=1,
                                      lobby_expiry="12h"))
    assert "Saved" in text and "at most **3**" in text and "closing after **12 hours**" in text
    bad = reply_text(await mod.slash(channel, "herald settings", lobby_expiry="5m"))
    assert "between 1 hour and 30 days" in bad
    members = [guild.add_member(env.create_user(f"m{i}")) for i in range(5)]
    opened = [await m.slash(channel, "play", game="duel", bots=1) for m in members[:3]]
    assert not any(r.ephemeral for r in opened)
    full = await members[3].slash(channel, "play", game="duel", bots=1)
    assert private(full) and "already has 3 tables waiting to start" in reply_text(full)
    # the lobbies do not count against running games: one starts
    assert opened[0].response is not None and opened[1].response is not None
    await members[0].click(opened[0].response.message, label="Start")
    second = await members[1].click(opened[1].response.message, label="Start")
    assert private(second) and "already runs 1 game, its limit" in reply_text(second)
    # twelve idle hours later the two lobbies left have closed and hold no place
    await env.advance_time(12 * 3600 + 120)
    again = [await m.slash(channel, "play", game="duel") for m in members[3:5]]
    assert not any(r.ephemeral for r in again)
