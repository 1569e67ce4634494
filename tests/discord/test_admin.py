"""/herald settings: Manage Server only; validated, persisted, confirmed, and obeyed by /play."""

from __future__ import annotations

import discord
import simcord

from tests.discord.helpers import last_message, private, reply_text


def server(env: simcord.Env) -> tuple[simcord.GuildHandle, simcord.ChannelHandle, simcord.ChannelHandle,
                                     simcord.RoleHandle, simcord.MemberActor, simcord.MemberActor,
                                     simcord.MemberActor]:
    guild = env.create_guild()
    games = guild.create_text_channel("games")
    chat = guild.create_text_channel("chat")
    managers = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    hosts = guild.create_role("Hosts")
    mod = guild.add_member(env.create_user("mod"), roles=[managers])
    host = guild.add_member(env.create_user("host"), roles=[hosts])
    pleb = guild.add_member(env.create_user("pleb"))
    return guild, games, chat, hosts, mod, host, pleb


async def test_settings_are_validated_persisted_and_confirmed(simcord_env: simcord.Env) -> None:
    guild, games, chat, hosts, mod, host, pleb = server(simcord_env)
    r = await mod.slash(games, "herald settings")
    assert private(r) and "Default deadline: **1d**" in reply_text(r)
    r = await mod.slash(games, "herald settings", deadline="90d")
    assert "out of range" in reply_text(r)
    r = await mod.slash(games, "herald settings", deadline="12h", reminder="30m")
    text = reply_text(r)
    assert "Saved" in text and "**12h**" in text and "**30m**" in text
    r = await mod.slash(games, "herald settings")
    assert "**12h**" in reply_text(r)  # persisted


async def test_settings_need_manage_server(simcord_env: simcord.Env) -> None:
    guild, games, chat, hosts, mod, host, pleb = server(simcord_env)
    try:
        r = await pleb.slash(games, "herald settings", deadline="1h")
    except simcord.SetupError:
        return  # hidden from members without Manage Server (default permissions), as on Discord
    assert private(r) and "Manage Server" in reply_text(r)


async def test_play_obeys_channel_and_role_settings(simcord_env: simcord.Env) -> None:
    guild, games, chat, hosts, mod, host, pleb = server(simcord_env)
    await mod.slash(games, "herald settings", add_channel=games, opener_role=hosts)
    r = await host.slash(chat, "play", game="duel")
    assert private(r) and "can't be opened in this channel" in reply_text(r)
    r = await pleb.slash(games, "play", game="duel")
    assert private(r) and "role can open tables" in reply_text(r)
    r = await host.slash(games, "play", game="duel")
    assert not private(r) and (last_message(games).embeds[0].title or "").startswith("High Card Duel")
    r = await mod.slash(games, "herald settings", everyone_opens=True, remove_channel=games)
    assert "everyone" in reply_text(r) and "any channel" in reply_text(r)
    r = await pleb.slash(chat, "play", game="duel")
    assert not private(r)


async def test_rules_and_games_listing(simcord_env: simcord.Env) -> None:
    guild, games, chat, hosts, mod, host, pleb = server(simcord_env)
    r = await pleb.slash(games, "rules", game="cult_wars")
    assert r.response is not None
    assert private(r) and "Cult Wars" in (r.response.embeds[0].title or "")
    assert "docs/rules/cult_wars.md" in str(r.response.embeds[0].to_dict())
    choices = await pleb.autocomplete(games, "play", "game", "cult")
    assert [c["value"] for c in choices] == ["cult_wars"]
    r = await pleb.slash(games, "games")
    assert "No tables" in reply_text(r)
    await host.slash(games, "play", game="duel")
    r = await pleb.slash(games, "games")
    assert "#1 High Card Duel" in reply_text(r) and "lobby" in reply_text(r)


async def test_a_server_turns_its_games_web_pages_off(simcord_env: simcord.Env) -> None:
    guild, games, chat, hosts, mod, host, pleb = server(simcord_env)
    r = await mod.slash(games, "herald settings")
    assert "Web pages of this server's games: **on**" in reply_text(r)
    r = await mod.slash(games, "herald settings", web_pages=False)
    assert "Saved" in reply_text(r) and "Web pages of this server's games: **off**" in reply_text(r)
    r = await mod.slash(games, "herald settings")
    assert "**off**" in reply_text(r)  # persisted
