"""``/away``, ``/game pause`` / ``/game resume`` and ``/notify`` through Discord: deadlines that wait
for an away player or a computer player that decides for them (the thread says which, in one line,
without a word of anyone's hand), a paused game where nobody moves and whose deadlines are
frozen, a pause that ends by itself on the virtual clock, and a reminder put off by quiet hours."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
import simcord

from bot.app import HeraldBot
from tests.discord.helpers import (
    choice_labels,
    choose_label,
    find_by_prefix,
    first_choice,
    opened,
    reply_text,
    story,
)

DAY = 86400


@pytest.fixture(autouse=True)
def _long_sleeps(monkeypatch: pytest.MonkeyPatch) -> None:
    """The scheduler wakes at least hourly; these tests jump days ahead on the virtual clock, and
    each wake-up is settled in real time: let it sleep until what is due instead."""
    monkeypatch.setattr("bot.scheduler.MAX_SLEEP", 30.0 * DAY)


async def start(host: Any, guest: Any, channel: Any, deadline: str | None = None) -> Any:
    """/play duel by ``host``, joined by ``guest`` and started; returns the game's thread."""
    await host.slash(channel, "play", game="duel", **({"deadline": deadline} if deadline else {}))
    lobby = channel.last_message
    await guest.click(lobby, label="Join")
    await host.click(lobby, label="Start")
    return channel.threads[-1]


def board(thread: Any) -> Any:
    return find_by_prefix(thread.history(), "herald:act:")


async def bid(player: Any, thread: Any) -> str:
    """The player bids their first card; what they read at the end (nothing but the board
    redrawn when the bid is taken from the board)."""
    panel = await player.click(board(thread), label="Decide")
    if panel.modal is None:
        return reply_text(panel)
    _, choose = await first_choice(player, panel)
    return reply_text(await choose())


def pinged(env: simcord.Env, channel_id: int, text: str) -> list[list[str]]:
    """Whom each post containing ``text`` in the channel was allowed to ping (the transcript)."""
    out: list[list[str]] = []
    for kind, what, body in env.backend.transcript:
        method, _, path = str(what).partition(" ")
        if (kind == "HTTP" and method == "POST" and path.strip("/") == f"channels/{channel_id}/messages"
                and isinstance(body, dict) and text in str(body.get("content") or "")):
            out.append([str(u) for u in (body.get("allowed_mentions") or {}).get("users") or []])
    return out


def said(thread: Any) -> list[str]:
    return [m.content for m in thread.history() if m.content]


async def world(env: simcord.Env, deadline: str | None = None) -> tuple[Any, Any, Any, Any]:
    guild = env.create_guild("North Hall")
    channel = guild.create_text_channel("games")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    thread = await start(alice, bob, channel, deadline)
    return guild, alice, bob, thread


async def test_away_extend_and_computer_in_a_running_game(simcord_env: simcord.Env,
                                                         simcord_bot: HeraldBot) -> None:
    env, bot = simcord_env, simcord_bot
    _, alice, bob, thread = await world(env)
    before = {d.seat: d.due_at for d in await bot.storage.deadlines(1)}
    now = bot.sessions.now()
    # bob, in a DM: his deadline waits for him
    answer = reply_text(await bob.user.slash("away", until="in 3 days"))
    assert "You are away until" in answer and "your deadlines wait for you" in answer and "1 running game" in answer
    back = now + 3 * DAY
    after = {d.seat: d.due_at for d in await bot.storage.deadlines(1)}
    assert abs(after[1] - (back + before[1] - now)) < 5 and after[0] == before[0]
    line = said(thread)[-1]
    assert line.startswith("🏖️ P2 bob is away until <t:") and "their deadlines wait for them" in line
    # alice, in the server: the computer player decides for her at once
    answer = reply_text(await alice.slash(thread, "away", until="tomorrow", mode="computer"))
    assert "the computer player decides for you" in answer
    await env.advance_time(5)
    text = story(thread)
    assert "🏖️ P1 alice is away until <t:" in text and "the computer player decides for them." in text
    assert "🏖️ **P1 alice** is away; the computer player decided for them (bid)." in text
    actions = await bot.storage.actions(1)
    assert [(seat, origin) for seat, _, origin in actions] == [(0, "away")]
    assert "card" not in "\n".join(story(thread).splitlines()[-3:]).lower()  # no hand information
    # bob is back sooner: his deadline counts from now again
    answer = reply_text(await bob.user.slash("away", until="off"))
    assert "Welcome back" in answer
    assert said(thread)[-1] == "👋 P2 bob is back."
    assert "not away" in reply_text(await bob.user.slash("away", until="off"))
    for bad, says in (("someday", "`in 3 days`"), ("in 40 days", "at most 30 days")):
        assert says in reply_text(await bob.user.slash("away", until=bad))


async def test_a_paused_game_refuses_moves_freezes_deadlines_and_resumes(simcord_env: simcord.Env,
                                                                         simcord_bot: HeraldBot) -> None:
    env, bot = simcord_env, simcord_bot
    _, alice, bob, thread = await world(env, deadline="1d")
    before = {d.seat: d.due_at for d in await bot.storage.deadlines(1)}
    form = await bob.click(board(thread), label="Decide")  # (opened before the pause)
    assert "Only the host" in reply_text(await bob.slash(thread, "game pause"))
    answer = reply_text(await alice.slash(thread, "game pause"))
    assert "Game #1 is paused" in answer
    assert said(thread)[-1].startswith("⏸️ alice paused the game: nobody moves and the deadlines are frozen")
    assert await bot.storage.deadlines(1) == []
    decide = await bob.click(board(thread), label="Decide")  # told at once, no form to fill in
    assert "paused by its host" in reply_text(decide)
    assert decide.modal is None and (opened(decide) is None or not opened(decide).components)
    card = choice_labels(form)[0]
    assert "paused by its host" in reply_text(await choose_label(bob, form, card))  # a form from before
    assert await bot.storage.actions(1) == []
    status = reply_text(await bob.slash(thread, "game status"))
    assert "⏸️ Paused since" in status and "due <t:" not in status
    # two days pass: past the deadline, yet nobody times out and nobody is reminded
    await env.advance_time(2 * DAY)
    assert await bot.storage.actions(1) == []
    assert not [m for m in bob.user.dm_channel.history() if "reminder" in m.content]
    assert "Game #1 is running again" in reply_text(await alice.slash(thread, "game resume"))
    assert said(thread)[-1] == "▶️ alice resumed the game; the deadlines run again with what was left of each."
    after = {d.seat: d.due_at for d in await bot.storage.deadlines(1)}
    assert all(abs(after[s] - (before[s] + 2 * DAY)) < 5 for s in before)
    assert "paused" not in await bid(bob, thread)
    assert [seat for seat, _, _ in await bot.storage.actions(1)] == [1]
    assert "is not paused" in reply_text(await alice.slash(thread, "game resume"))


async def test_a_pause_ends_by_itself_after_seven_days(simcord_env: simcord.Env,
                                                       simcord_bot: HeraldBot) -> None:
    env, bot = simcord_env, simcord_bot
    _, alice, _, thread = await world(env, deadline="1d")
    await alice.slash(thread, "game pause")
    await env.advance_time(7 * DAY - 60)
    assert await bot.storage.deadlines(1) == []
    await env.advance_time(120)
    assert said(thread)[-1].startswith("▶️ The game resumed by itself")
    assert len(await bot.storage.deadlines(1)) == 2


def _hhmm(t: float) -> str:
    return dt.datetime.fromtimestamp(t, dt.UTC).strftime("%H:%M")


async def test_quiet_hours_put_a_reminder_off_to_their_end(simcord_env: simcord.Env,
                                                           simcord_bot: HeraldBot) -> None:
    env, bot = simcord_env, simcord_bot
    guild = env.create_guild("North Hall")
    channel = guild.create_text_channel("games")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    now = bot.sessions.now()
    minute = now - now % 60
    # bob's quiet hours, in his own time (UTC+2): from 30 to 80 minutes from now
    begins, end = minute + 30 * 60, minute + 80 * 60
    east = dt.timedelta(hours=2).total_seconds()
    answer = reply_text(await bob.user.slash("notify", quiet=f"{_hhmm(begins + east)}-{_hhmm(end + east)}",
                                             zone="+02:00", pings="off"))
    assert "Saved." in answer and "Quiet hours" in answer and "+02:00" in answer and "**off**" in answer
    assert "neither a UTC offset" in reply_text(await bob.user.slash("notify", zone="Mars/Olympus"))
    thread = await start(alice, bob, channel, deadline="2h")  # the reminder: an hour before
    due = next(d for d in await bot.storage.deadlines(1) if d.seat == 1)
    assert due.due_at - bot.sessions.now() > 7000
    await env.advance_time(3600 + 60)  # the reminder falls in bob's quiet hours: put off
    assert not [m for m in bob.user.dm_channel.history() if "reminder" in m.content]
    await env.advance_time(end - bot.sessions.now() + 60)
    reminders = [m.content for m in bob.user.dm_channel.history() if "reminder" in m.content]
    assert reminders and "game #1" in reminders[-1]
    again = next(d for d in await bot.storage.deadlines(1) if d.seat == 1)
    assert again.due_at == due.due_at  # the deadline never moved
    public = [m.content for m in thread.history() if "reminder" in m.content]
    assert public and f"<@{bob.id}>" in public[-1]
    assert pinged(env, thread.id, f"<@{bob.id}>, a reminder") == [[]]  # pings off: named, not pinged
    assert pinged(env, thread.id, f"<@{alice.id}>, a reminder") == [[str(alice.id)]]


async def test_only_reminders_means_no_dm_for_each_decision(simcord_env: simcord.Env,
                                                             simcord_bot: HeraldBot) -> None:
    env = simcord_env
    guild = env.create_guild("North Hall")
    channel = guild.create_text_channel("games")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    answer = reply_text(await bob.slash(channel, "notify", dms="reminders"))
    assert "only reminders" in answer and "Pings in game threads: **on**" in answer
    await start(alice, bob, channel)
    assert any("Your decision" in m.content for m in alice.user.dm_channel.history())
    bobs = bob.user.dm_channel
    assert bobs is None or not any("Your decision" in m.content for m in bobs.history())
    assert "only reminders" in reply_text(await bob.user.slash("notify"))  # shown, unchanged
