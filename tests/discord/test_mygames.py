"""``/mygames``: every game a player is in, across servers, the ones waiting for them first (the
longest wait first), with deadlines as Discord timestamps and links to the boards; the same in a
DM; and the "your move in N games" line of reminder DMs."""

from __future__ import annotations

import re

import discord
import simcord

from bot.app import HeraldBot
from bot.storage import GuildSettings
from tests.discord.helpers import (
    accepted,
    find_by_prefix,
    first_choice,
    last_message,
    private,
    reply_text,
)


class World:
    """North Hall: game #1 (alice and bob; alice has bid, bob has not), game #3 (bob and alice,
    both to bid since the start, a day each) and bob's lobby #4 with alice seated. South Keep:
    game #2 (carol and alice, two hours each), started an hour after #3 though its table is
    older. Attributes are set by :func:`build`."""

    north: simcord.GuildHandle
    south: simcord.GuildHandle
    n_chan: simcord.ChannelHandle
    s_chan: simcord.ChannelHandle
    alice: simcord.MemberActor
    alice_south: simcord.MemberActor
    bob: simcord.MemberActor
    carol: simcord.MemberActor
    t1: simcord.ChannelHandle
    t2: simcord.ChannelHandle
    t3: simcord.ChannelHandle
    lobby2: discord.Message
    lobby4: discord.Message
    opened2: float
    opened3: float


async def start(host: simcord.MemberActor, guest: simcord.MemberActor, channel: simcord.ChannelHandle,
                deadline: str | None = None) -> discord.Message:
    """/play duel by ``host``, joined by ``guest``; returns the lobby message (not started)."""
    await host.slash(channel, "play", game="duel", **({"deadline": deadline} if deadline else {}))
    lobby = last_message(channel)
    await guest.click(lobby, label="Join")
    return lobby


def board(thread: simcord.ChannelHandle) -> discord.Message:
    return find_by_prefix(thread.history(), "herald:act:")


async def bid(player: simcord.MemberActor, thread: simcord.ChannelHandle) -> None:
    """The player bids their first card (in the choice form of the duel's bid)."""
    panel = await player.click(board(thread), label="Decide")
    _, choose = await first_choice(player, panel)
    assert accepted(await choose())


async def build(env: simcord.Env, bot: HeraldBot) -> World:
    w = World()
    w.north = env.create_guild("North Hall")
    w.south = env.create_guild("South Keep")
    w.n_chan = w.north.create_text_channel("games")
    w.s_chan = w.south.create_text_channel("games")
    w.alice = w.north.add_member(env.create_user("alice"))
    w.alice_south = w.south.add_member(w.alice.user)
    w.bob = w.north.add_member(env.create_user("bob"))
    w.carol = w.south.add_member(env.create_user("carol"))
    lobby1 = await start(w.alice, w.bob, w.n_chan)
    await w.alice.click(lobby1, label="Start")  # game #1
    w.t1 = w.n_chan.threads[-1]
    await bid(w.alice, w.t1)  # #1 now waits for bob only
    w.lobby2 = await start(w.carol, w.alice_south, w.s_chan, deadline="2h")  # table #2, not started yet
    lobby3 = await start(w.bob, w.alice, w.n_chan, deadline="1d")
    await w.bob.click(lobby3, label="Start")  # game #3: alice's bid opens now
    w.t3 = w.n_chan.threads[-1]
    await bid(w.bob, w.t3)  # #3 waits for alice only
    w.opened3 = bot.sessions.now()
    await env.advance_time(3600)
    await w.carol.click(w.lobby2, label="Start")  # game #2: alice's bid opens an hour later
    w.t2 = w.s_chan.threads[-1]
    await bid(w.carol, w.t2)
    w.opened2 = bot.sessions.now()
    w.lobby4 = await start(w.bob, w.alice, w.n_chan)  # table #4: a lobby alice sits at
    return w


def entries(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("• ")]


def numbers(lines: list[str]) -> list[str]:
    """The game number each listed line links (its ``#N**``)."""
    found: list[str] = []
    for line in lines:
        number = re.search(r"#(\d+)\*\*", line)
        assert number is not None, line
        found.append(number.group(1))
    return found


async def test_mygames_lists_waiting_games_first_longest_wait_first(simcord_env: simcord.Env,
                                                                     simcord_bot: HeraldBot) -> None:
    env, bot = simcord_env, simcord_bot
    w = await build(env, bot)
    result = await w.alice.slash(w.n_chan, "mygames")
    assert private(result)
    text = reply_text(result)
    lines = entries(text)
    # #3 has waited longest (though its deadline is later than #2's); then #2; then #1 (bob's
    # move); then the lobby
    assert numbers(lines) == ["3", "2", "1", "4"], text
    assert "Your move in 2 games" in text and "Waiting for others" in text and "Lobbies you sit at" in text
    g2, g3 = await bot.storage.deadlines(2), await bot.storage.deadlines(3)
    due2 = next(d for d in g2 if d.seat == 1).due_at
    due3 = next(d for d in g3 if d.seat == 1).due_at
    assert lines[0].startswith("• **High Card Duel #3** · North Hall — your **bid**")
    assert f"waiting since <t:{int(w.opened3)}:R>" in lines[0] and f"due <t:{int(due3)}:R>" in lines[0]
    assert board(w.t3).jump_url in lines[0]
    assert "South Keep" in lines[1] and f"waiting since <t:{int(w.opened2)}:R>" in lines[1]
    assert f"due <t:{int(due2)}:R>" in lines[1] and board(w.t2).jump_url in lines[1]
    # bob's game: whom it awaits, by name only — nothing of what bob decides or holds
    assert "waiting for P2 bob" in lines[2] and "bid" not in lines[2] and board(w.t1).jump_url in lines[2]
    due1 = next(d for d in await bot.storage.deadlines(1) if d.seat == 1).due_at
    assert f"next deadline <t:{int(due1)}:R>" in lines[2]
    assert w.lobby4.jump_url in lines[3] and "2 seated" in lines[3]
    assert "Your cards" not in text and "Bid " not in text and "bid 1" not in text.lower()
    # the same list in a DM (no server there), and nothing of it for somebody else
    dm = reply_text(await w.alice.user.slash("mygames"))
    assert dm == text
    carol = reply_text(await w.carol.user.slash("mygames"))
    assert numbers(entries(carol)) == ["2"], carol
    assert "waiting for P2 alice" in carol and "North Hall" not in carol


async def test_mygames_without_games_and_beyond_the_last_page(simcord_env: simcord.Env) -> None:
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("games")
    dana = guild.add_member(simcord_env.create_user("dana"))
    assert "not in any game" in reply_text(await dana.slash(channel, "mygames"))
    await dana.slash(channel, "play", game="duel")
    assert "only 1 page" in reply_text(await dana.user.slash("mygames", page=3))


async def test_mygames_pages_a_long_list_with_a_count_of_the_rest(simcord_env: simcord.Env,
                                                                   simcord_bot: HeraldBot) -> None:
    env = simcord_env
    guild = env.create_guild("A server with a rather long name for the test")
    channel = guild.create_text_channel("games")
    erin = guild.add_member(env.create_user("erin"))
    await simcord_bot.storage.save_guild_settings(GuildSettings(guild.id, member_lobby_limit=20,
                                                                member_table_limit=20))
    for _ in range(20):  # lobbies are quick to open; each line carries a link
        await erin.slash(channel, "play", game="duel")
    seen: list[str] = []
    for page in range(1, 10):
        text = reply_text(await erin.user.slash("mygames", page=page))
        assert len(text) <= 2000
        seen += numbers(entries(text))
        more = re.search(r"…and (\d+) more — `/mygames page:(\d+)`", text)
        if more is None:
            break
        assert int(more.group(1)) == 20 - len(seen) and int(more.group(2)) == page + 1, text
    assert page > 1 and f"(page {page} of {page})" in text
    assert seen == [str(n) for n in range(1, 21)]


async def test_reminder_dms_count_the_games_waiting(simcord_env: simcord.Env, simcord_bot: HeraldBot) -> None:
    env, bot = simcord_env, simcord_bot
    w = await build(env, bot)
    # game #2's reminder (two hours per decision: an hour before) reaches alice, who has two
    # games waiting for her
    await env.advance_time(3600 + 60)
    dm = [m.content for m in w.alice.user.dm_channel.history() if "reminder" in m.content]
    assert dm and "game #2" in dm[-1] and "Your move in 2 games — `/mygames`" in dm[-1], dm
    public = [m.content for m in w.t2.history() if "reminder" in m.content]
    assert public and "/mygames" not in public[-1]
    # bob, with one game waiting for him (#1), gets his reminder without the line
    await env.advance_time(21 * 3600)
    bobs = [m.content for m in w.bob.user.dm_channel.history() if "reminder" in m.content]
    assert bobs and "game #1" in bobs[-1] and "/mygames" not in bobs[-1], bobs
