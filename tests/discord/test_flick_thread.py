"""Flick of Faith: every flick is posted in the flow of the thread, its log line and its animation
together (with alt text), in the order of the game, a computer player's flicks too; the board
message at the top keeps the latest still board. A GIF that cannot be drawn or uploaded never
costs the line."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import discord
import pytest
import simcord

from bot.app import HeraldBot
from bot.delivery import MAX_SHOTS, draw_event_files
from bot.gameui import GameUI
from bot.storage import GameRow
from bot.text import humanise
from rules.engine import Event
from tests.discord.helpers import (
    custom_ids,
    find_by_prefix,
    first_choice,
    open_seeded_table,
    reply_text,
    story,
)

SEED = 11


def board_of(thread: Any) -> discord.Message:
    return find_by_prefix(thread.history(), "herald:act:")


def is_flick_line(line: str) -> bool:
    return line.startswith("• ") and (" flicks " in line and "(angle" in line or "flicks are revealed" in line)


def flick_messages(thread: Any) -> list[discord.Message]:
    """The thread's messages that tell a flick, in the thread's order."""
    return [m for m in thread.history() if any(is_flick_line(x) for x in m.content.splitlines())]


async def flick_lines_logged(bot: HeraldBot, game: GameRow) -> list[str]:
    """Each public flick of the game's log, as the thread says it, in order."""
    events = await bot.storage.events(game.id, viewer_seat=None, limit=10_000)
    return [f"• {humanise(e.text, game)}" for e in sorted(events, key=lambda e: e.n)
            if e.to is None and e.kind == "flick" and e.data.get("bodies")]


async def act_once(bot: HeraldBot, thread: Any, players: list[Any], game: GameRow) -> str:
    """The first human with an open prompt answers it: a flick straight at the navel (the
    contest flick too), any other decision with its first choice. Returns the prompt's kind."""
    prompts = (await bot.sessions.snapshot(game)).prompts
    p = next(p for p in prompts if not game.seats[p.seat].is_bot)
    player = players[p.seat]
    if p.free_form == "flick":
        r = await player.slash(thread, "flick", angle=0.0, power=4.5 + p.seat)
        assert r.ephemeral, reply_text(r)
        return p.kind
    panel = await player.click(board_of(thread), label="Decide")
    assert panel.ephemeral, reply_text(panel)
    _, choose = await first_choice(player, panel.response.message)
    await choose()
    return p.kind


async def open_game(env: simcord.Env, bot: HeraldBot) -> tuple[Any, list[Any], GameRow, int]:
    """Alice, Bob and a computer player; returns the thread, the human players by seat, the
    game and the computer's seat."""
    _, thread, (alice, bob) = await open_seeded_table(env, bot, "flick_of_faith", SEED, computers=1)
    game = (await bot.storage.list_games())[0]
    by_user = {alice.user.id: alice, bob.user.id: bob}
    players = [by_user.get(s.user_id) for s in game.seats]
    computer = next(s.seat for s in game.seats if s.is_bot)
    return thread, players, game, computer


async def test_each_flick_is_posted_with_its_gif_in_the_thread(simcord_env: simcord.Env,
                                                              simcord_bot: HeraldBot) -> None:
    env, bot = simcord_env, simcord_bot
    thread, players, game, computer = await open_game(env, bot)
    computer_name = game.seats[computer].name
    human_mission_flicks = 0
    for _ in range(60):
        game = await bot.storage.get_game(game.id)  # type: ignore[assignment]
        before = {m.id for m in thread.history()}
        board_ids = custom_ids(board_of(thread))
        kind = await act_once(bot, thread, players, game)
        new = [m for m in thread.history() if m.id not in before]
        if kind == "flick":
            human_mission_flicks += 1
            # the flick just made is in a new message of the thread, with its animation
            shot = [m for m in new if any(is_flick_line(x) for x in m.content.splitlines())]
            assert shot, [m.content for m in new]
            # the board message at the top still updates, and shows the still board only
            board = board_of(thread)
            assert custom_ids(board) != board_ids
            assert [a.filename for a in board.attachments] == ["board.png"]
        told = await flick_lines_logged(bot, game)
        computer_told = [x for x in told if computer_name in x]
        if human_mission_flicks >= 3 and computer_told:
            break
    else:
        pytest.fail(f"too few flicks: {human_mission_flicks} by humans, {computer_told} by the computer")

    messages = flick_messages(thread)
    # one message per flick, in the order of the game, each opening with that flick's line…
    assert [m.content.splitlines()[0] for m in messages] == told
    for m in messages:
        assert sum(is_flick_line(x) for x in m.content.splitlines()) == 1, m.content
        # …and carrying its animation, described in words
        assert [a.filename for a in m.attachments] == ["flick.gif"], m.content
        gif = m.attachments[0]
        assert 0 < gif.size < 1_000_000
        assert gif.description and "Animation of" in gif.description, gif.description
        assert "flick" in gif.description
    by_computer = [m for m in messages if computer_name in m.content.splitlines()[0]]
    assert by_computer and all(f"{computer_name}'s flick" in m.attachments[0].description  # type: ignore[operator]
                               for m in by_computer if "flicks are revealed" not in m.content)


async def mission_flick_turn(bot: HeraldBot, thread: Any, players: list[Any], game: GameRow) -> tuple[GameRow, Any]:
    """Play up to a human's mission flick; returns the game and that player."""
    for _ in range(40):
        game = await bot.storage.get_game(game.id)  # type: ignore[assignment]
        prompts = (await bot.sessions.snapshot(game)).prompts
        human = [p for p in prompts if not game.seats[p.seat].is_bot]
        if human and human[0].kind == "flick":
            return game, players[human[0].seat]
        await act_once(bot, thread, players, game)
    raise AssertionError("no human mission flick reached")


async def test_a_gif_that_cannot_be_drawn_never_costs_the_line(simcord_env: simcord.Env, simcord_bot: HeraldBot,
                                                               monkeypatch: pytest.MonkeyPatch,
                                                               caplog: pytest.LogCaptureFixture) -> None:
    env, bot = simcord_env, simcord_bot
    thread, players, game, _ = await open_game(env, bot)
    game, player = await mission_flick_turn(bot, thread, players, game)

    def broken(*args: Any, **kwargs: Any) -> bytes:
        raise ValueError("no frames")

    monkeypatch.setattr("cogs.flick_of_faith.ui.flick_gif", broken)
    before = {m.id for m in thread.history()}
    with caplog.at_level(logging.ERROR, logger="herald.delivery"):
        r = await player.slash(thread, "flick", angle=0.0, power=5.0)
    assert r.ephemeral, reply_text(r)
    # without its animation the line is an ordinary one: on the board at once, in the thread
    # with its round's message
    assert not [m for m in thread.history() if m.id not in before and m.attachments]
    assert (await flick_lines_logged(bot, game))[-1] in story(thread).splitlines()
    assert "drawing the files of a log line failed" in caplog.text


async def test_a_refused_upload_posts_the_line_without_its_gif(simcord_env: simcord.Env,
                                                              simcord_bot: HeraldBot) -> None:
    env, bot = simcord_env, simcord_bot
    thread, players, game, _ = await open_game(env, bot)
    game, player = await mission_flick_turn(bot, thread, players, game)
    before = {m.id for m in thread.history()}
    # the first message posted after the flick is the flick's own (it opens the update)
    env.inject_error("POST", f"/channels/{thread.id}/messages", status=413, code=40005,
                     message="Request entity too large")
    r = await player.slash(thread, "flick", angle=0.0, power=5.0)
    assert r.ephemeral, reply_text(r)
    new = [m for m in flick_messages(thread) if m.id not in before]
    assert new, "the flick's line was lost with its GIF"
    assert not new[0].attachments
    assert all([a.filename for a in m.attachments] == ["flick.gif"] for m in new[1:])


def test_only_the_last_shots_of_a_long_run_are_drawn_and_a_failure_costs_one(
        caplog: pytest.LogCaptureFixture) -> None:
    """A long run of computer players (a catch-up) never floods the thread with animations: the
    last :data:`MAX_SHOTS` events with files get them; one that fails to draw loses only its own."""

    class Shots(GameUI):
        def event_files(self, view: dict[str, Any], event: Event, *,
                        names: Sequence[str] | None = None) -> list[tuple[str, bytes, str]]:
            if event.text == "broken":
                raise ValueError("no frames")
            return [("shot.gif", event.text.encode(), "alt")] if event.kind == "flick" else []

    events = [Event(f"{i}", kind="flick" if i % 2 else "log") for i in range(2 * MAX_SHOTS + 4)]
    drawn = draw_event_files(Shots(), {}, events, [], game_id=1)
    assert sorted(drawn) == [i for i in range(len(events)) if i % 2][-MAX_SHOTS:]
    events[-1] = Event("broken", kind="flick")
    with caplog.at_level(logging.ERROR, logger="herald.delivery"):
        drawn = draw_event_files(Shots(), {}, events, [], game_id=1)
    assert len(drawn) == MAX_SHOTS and len(events) - 1 not in drawn and "failed" in caplog.text
    assert draw_event_files(GameUI(), {}, events, [], game_id=1) == {}  # the other games: no files
