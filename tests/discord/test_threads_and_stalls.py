"""Games that outlive their thread's activity, and games left waiting on computer players.

* Discord archives a quiet thread after at most a week, and a decision may take two: a move in a
  game whose thread was archived still posts its log and updates its board (the thread is
  reopened); a thread Herald may not reopen sends the game to its channel, once.
* A player's move is stored, then the computer players fail (a locked database, or the process
  dies between the two commits): the player and the thread are told the truth, and the game moves
  on by itself — at the next start, or as soon as a player touches it.

simcord (3.x) does not model archived threads, so :class:`DiscordThreadRules` adds Discord's rules
for them around simcord's router.
"""

from __future__ import annotations

import logging
import sqlite3
from typing import Any

import discord
import pytest
import simcord
from simcord.backend.errors import BackendError
from simcord.http import router

from bot import scheduler
from bot.app import HeraldBot
from bot.delivery import STALLED_LINE
from bot.session import STALLED_REPLY
from tests.discord.conftest import make_config
from tests.discord.helpers import (
    accepted,
    choose_label,
    custom_ids,
    find_by_prefix,
    last_message,
    private,
    reply_text,
    story,
)


@pytest.fixture(autouse=True)
def patient_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    """The scheduler retries a stalled game after 60 s instead of 5: simcord's settle waits in real
    time for a bot's sleep that ends within its own 5 s timeout, so a 5 s retry would stall every
    interaction of these tests. Only the first delay changes; what is retried does not."""
    monkeypatch.setattr(scheduler, "RETRY_FIRST", 60.0)


class DiscordThreadRules:
    """Discord's rules for archived threads, which simcord does not model, wrapped around its
    router for one test:

    * editing a message in an archived thread fails: 400, code 50083 "Thread is archived";
    * sending a message into an archived thread reopens it — unless the thread is locked and the
      bot lacks Manage Threads: then the send fails with 50083 too;
    * only Manage Threads may unarchive a locked thread (403, code 50013 "Missing Permissions").

    ``refused`` lists each refusal ("METHOD path"), so a test can tell the bot met them."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.refused: list[str] = []
        real = router.dispatch

        def dispatch(backend: Any, method: str, path: str, **kwargs: Any) -> Any:
            self.check(backend, method, path, kwargs.get("json"))
            return real(backend, method, path, **kwargs)

        monkeypatch.setattr(router, "dispatch", dispatch)

    def check(self, backend: Any, method: str, path: str, body: Any) -> None:
        parts = path.strip("/").split("/")
        if len(parts) < 2 or parts[0] != "channels" or not parts[1].isdigit():
            return
        thread = backend.channels.get(int(parts[1]))
        meta = getattr(thread, "thread_metadata", None)
        if thread is None or not thread.is_thread or meta is None or not meta.archived:
            return
        manage = discord.Permissions(
            backend.compute_permissions(thread.guild_id, backend.bot_user.id, thread.id)).manage_threads
        rest = parts[2:]
        if method == "PATCH" and len(rest) == 2 and rest[0] == "messages":
            self.refuse(method, path, 400, 50083, "Thread is archived")
        if method == "POST" and rest == ["messages"]:
            if meta.locked and not manage:
                self.refuse(method, path, 400, 50083, "Thread is archived")
            meta.archived = False  # Discord reopens a thread a message is sent into
            backend.announce_channel_update(thread.id)
        if method == "PATCH" and not rest and isinstance(body, dict) and body.get("archived") is False \
                and meta.locked and not manage:
            self.refuse(method, path, 403, 50013, "Missing Permissions")

    def refuse(self, method: str, path: str, status: int, code: int, message: str) -> None:
        self.refused.append(f"{method} {path}")
        raise BackendError(status, code, message)


async def archive(env: simcord.Env, thread: Any, *, locked: bool = False, announce: bool = True) -> None:
    """Archive (and lock) the thread as Discord's inactivity timer (or a moderator) does; with
    ``announce`` False the bot misses the THREAD_UPDATE (e.g. while reconnecting)."""
    if announce:
        env.backend.edit_channel(thread.id, {}, thread_metadata={"archived": True, "locked": locked})
        await env.settle()
    else:
        meta = env.backend.channels[thread.id].thread_metadata
        assert meta is not None
        meta.archived, meta.locked = True, locked


def is_archived(env: simcord.Env, thread: Any) -> bool:
    meta = env.backend.channels[thread.id].thread_metadata
    assert meta is not None
    return bool(meta.archived)


async def open_game(env: simcord.Env, *, computer: HeraldBot | None = None, fast: bool = True,
                    overwrites: Any = None, deadline: str | None = None) -> tuple[Any, Any, Any, Any]:
    """A started duel between alice and bob, or (given the bot) between alice and a computer
    player who bids 2 first (a seed written on the lobby's row): channel, thread, alice, bob."""
    guild = env.create_guild()
    channel = guild.create_text_channel("games", overwrites=overwrites(guild) if overwrites else None)
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    opts = {"game": "duel", "options": "fast=yes" if fast else "fast=no"}
    if deadline:
        opts["deadline"] = deadline
    await alice.slash(channel, "play", **opts)
    lobby = last_message(channel)
    if computer is not None:
        await alice.click(lobby, label="Add computer player")
        table = (await computer.storage.list_games(guild_id=guild.id))[0]
        await computer.storage.update_game(table.id, seed=1)
    else:
        await bob.click(lobby, label="Join")
    await alice.click(lobby, label="Start")
    return channel, channel.threads[0], alice, bob


async def bid(player: Any, where: Any, card: int) -> Any:
    """Decide on the game's board, then the card: what the player read."""
    panel = await player.click(find_by_prefix(where.history(), "herald:act:"), label="Decide")
    assert private(panel), reply_text(panel)
    return await choose_label(player, panel, f"Bid {card}")


async def bid_by_dm(player: Any, card: int) -> Any:
    """Decide in the player's hand DM, then the card: the board is then edited as a message (its
    edit is not the answer to the click)."""
    hand = next(m for m in reversed(player.user.dm_channel.history())
                if any("herald:act:" in cid for cid in custom_ids(m)))
    panel = await player.user.click(hand, label="Decide")
    return await choose_label(player.user, panel, f"Bid {card}")


def text_of(where: Any) -> str:
    return story(where)


def board_text(where: Any) -> str:
    board = find_by_prefix(where.history(), "herald:act:")
    return "\n".join(e.description or "" for e in board.embeds)


def no_errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR and r.name.startswith("herald")]


# ------------------------------------------------------------------ archived threads


async def test_a_game_keeps_working_after_its_thread_was_archived(
        simcord_env: simcord.Env, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    env = simcord_env
    rules = DiscordThreadRules(monkeypatch)
    channel, thread, alice, bob = await open_game(env, deadline="14d")
    await archive(env, thread)  # a quiet week: Discord archives the thread (the deadline is 14 days)
    board_before = find_by_prefix(thread.history(), "herald:act:")

    done = await bid(alice, thread, 4)
    assert accepted(done) and "wrong" not in reply_text(done).lower()
    assert not is_archived(env, thread)  # Herald reopened the thread
    assert "has bid" in text_of(thread)
    board = find_by_prefix(thread.history(), "herald:act:")
    assert board.id == board_before.id  # the one board message, edited in place
    assert "Waiting for: P2 bob" in board_text(thread)

    await archive(env, thread)  # archived again before bob answers
    await bid(bob, thread, 2)
    assert "Bids revealed: **P1 alice**: 4, **P2 bob**: 2." in text_of(thread)
    assert not is_archived(env, thread)
    assert not rules.refused  # Herald reopened the thread before editing: Discord refused nothing
    assert no_errors(caplog) == []


async def test_an_edit_refused_because_the_thread_was_archived_reopens_it_and_tries_again(
        simcord_env: simcord.Env, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """The bot missed the archive event: it edits, Discord refuses (50083), it reopens, edits again."""
    env = simcord_env
    rules = DiscordThreadRules(monkeypatch)
    channel, thread, alice, bob = await open_game(env)
    await archive(env, thread, announce=False)

    done = await bid_by_dm(alice, 3)
    assert accepted(done)
    assert len(rules.refused) == 1 and rules.refused[0].startswith("PATCH")  # the board edit, once
    assert not is_archived(env, thread)
    assert "Waiting for: P2 bob" in board_text(thread)
    assert "has bid" in text_of(thread)
    assert no_errors(caplog) == []


async def test_a_thread_herald_may_not_reopen_sends_the_game_to_its_channel_once(
        simcord_env: simcord.Env, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """A moderator locked the archived thread, and Herald lacks Manage Threads."""
    env = simcord_env
    rules = DiscordThreadRules(monkeypatch)

    def no_manage_threads(guild: Any) -> Any:
        return {guild.me: discord.PermissionOverwrite(manage_threads=False)}

    channel, thread, alice, bob = await open_game(env, overwrites=no_manage_threads)
    await archive(env, thread, locked=True)

    done = await bid(alice, thread, 5)
    assert accepted(done) and "wrong" not in reply_text(done).lower()
    assert is_archived(env, thread)  # a moderator's lock is respected
    notices = [m for m in channel.history() if "continues here" in m.content]
    assert len(notices) == 1
    assert f"<@{alice.id}>" in notices[0].content and f"<@{bob.id}>" in notices[0].content
    assert "Waiting for: P2 bob" in board_text(channel)  # a fresh board in the channel
    assert "has bid" in text_of(channel)

    await bid(bob, channel, 1)  # the game goes on there
    assert "Bids revealed: **P1 alice**: 5, **P2 bob**: 1." in text_of(channel)
    assert len([m for m in channel.history() if "continues here" in m.content]) == 1  # told once
    assert rules.refused  # Discord did refuse in the thread
    assert no_errors(caplog) == []


# ------------------------------------------------------------------ computer players


def lock_computer_commits(bot: HeraldBot, monkeypatch: pytest.MonkeyPatch) -> dict[str, bool]:
    """While ``locked["on"]``, the database is locked whenever a computer player's answer is
    stored (the player's own move commits first)."""
    locked = {"on": True}
    real = bot.storage.commit_action

    async def commit_action(game_id: int, **kwargs: Any) -> Any:
        if locked["on"] and kwargs.get("origin") == "bot":
            raise sqlite3.OperationalError("database is locked")
        return await real(game_id, **kwargs)

    monkeypatch.setattr(bot.storage, "commit_action", commit_action)
    return locked


async def origins(bot: HeraldBot) -> list[str]:
    game = (await bot.storage.list_games(statuses=("active", "finished")))[0]
    return [origin for _, _, origin in await bot.storage.actions(game.id)]


async def awaited(bot: HeraldBot) -> list[str]:
    game = (await bot.storage.list_games(statuses=("active", "finished")))[0]
    snap = await bot.sessions.snapshot(game.id, touch=False)
    return ["bot" if game.seats[o.seat].is_bot else "human" for o in snap.open]


def asked_after_stall(thread: Any, player: Any) -> bool:
    """The thread told of the stall, and then ``player`` was asked for their next decision: by DM
    (their notice, no ping needed), or pinged in the thread."""
    told = max(m.id for m in thread.history() if STALLED_LINE in m.content)
    dms = player.user.dm_channel.history() if player.user.dm_channel else []
    return (any(m.id > told and "Your decision" in m.content for m in dms)
            or any(m.id > told and f"<@{player.id}>" in m.content for m in thread.history()))


async def test_a_move_stored_before_the_computer_failed_is_told_truly_and_resumed_at_the_next_start(
        simcord_env: simcord.Env, simcord_bot: HeraldBot, db_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The process cannot store the computer's answer after alice's move, and dies: alice reads
    that her move was stored, and the next process lets the computer answer at start."""
    env = simcord_env
    channel, thread, alice, bob = await open_game(env, computer=simcord_bot, fast=False)
    lock_computer_commits(simcord_bot, monkeypatch)

    done = await bid(alice, thread, 1)  # the computer's 2 wins the round: it must claim its prize
    assert accepted(done)
    assert STALLED_REPLY in reply_text(done)
    assert "nothing was" not in reply_text(done).lower() and "sorry" not in reply_text(done).lower()
    assert STALLED_LINE in text_of(thread)
    assert await origins(simcord_bot) == ["bot", "player"]
    assert await awaited(simcord_bot) == ["bot"]  # only the computer is awaited

    fresh = HeraldBot(make_config(db_path))  # the process died; a new one starts on the database
    await env.restart_bot(fresh)
    assert len(await origins(fresh)) > 2  # the computer answered at start
    assert await awaited(fresh) == ["human"]
    assert asked_after_stall(thread, alice)


async def test_touching_a_game_left_waiting_on_the_computer_moves_it_on(
        simcord_env: simcord.Env, simcord_bot: HeraldBot, monkeypatch: pytest.MonkeyPatch) -> None:
    """The database was locked while the computer answered; it is free again when alice looks at
    the game (``/game status``), and the computer answers at once — no restart, no waiting for a
    retry."""
    env = simcord_env
    channel, thread, alice, bob = await open_game(env, computer=simcord_bot, fast=False)
    locked = lock_computer_commits(simcord_bot, monkeypatch)
    await bid(alice, thread, 1)
    assert await awaited(simcord_bot) == ["bot"]  # only the computer is awaited
    locked["on"] = False  # the database is free again

    status = await alice.slash(thread, "game status")
    assert "waiting for" in reply_text(status)
    assert len(await origins(simcord_bot)) > 2  # the computer answered
    assert await awaited(simcord_bot) == ["human"]
    assert asked_after_stall(thread, alice)


async def test_a_failed_look_at_start_is_repeated(
        simcord_env: simcord.Env, simcord_bot: HeraldBot, db_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The process died after alice's move; at the next start the database is locked for a
    moment, so the look for games awaiting computer players fails — the scheduler looks again."""
    env = simcord_env
    channel, thread, alice, bob = await open_game(env, computer=simcord_bot, fast=False)
    lock_computer_commits(simcord_bot, monkeypatch)
    await bid(alice, thread, 1)

    fresh = HeraldBot(make_config(db_path))
    real_resume, real_list = fresh.sessions.resume, fresh.storage.list_games
    locked = {"on": False}

    async def list_games(*args: Any, **kwargs: Any) -> Any:
        if locked["on"]:
            raise sqlite3.OperationalError("database is locked")
        return await real_list(*args, **kwargs)

    async def resume(game_ids: Any = None) -> int:
        locked["on"] = game_ids is None and not locked.get("done")  # the first look, at start
        locked["done"] = True
        try:
            return await real_resume(game_ids)
        finally:
            locked["on"] = False

    monkeypatch.setattr(fresh.storage, "list_games", list_games)
    monkeypatch.setattr(fresh.sessions, "resume", resume)
    await env.restart_bot(fresh)
    assert locked["done"] and await awaited(fresh) == ["bot"]  # the look at start failed
    await env.advance_time(61)
    assert await awaited(fresh) == ["human"]
    assert len(await origins(fresh)) > 2
    assert asked_after_stall(thread, alice)
