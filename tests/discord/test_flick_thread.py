"""Flick of Faith: every flick's animation (with alt text) goes with the board edit of its update,
under the still board, a computer player's flicks too; its line is on the board at once and in the
thread with its generation's message, in the order of the game. A GIF that cannot be drawn or
uploaded never costs the line (nor the board)."""

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
    private,
    reply_text,
    stored_game,
    story,
)

SEED = 11


def board_of(thread: Any) -> discord.Message:
    return find_by_prefix(thread.history(), "herald:act:")


def is_flick_line(line: str) -> bool:
    return line.startswith("• ") and (" flicks " in line and ("(angle" in line or "(aimed at" in line)
                                      or "flicks are revealed" in line)


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
        assert private(r), reply_text(r)
        return p.kind
    panel = await player.click(board_of(thread), label="Decide")
    assert private(panel), reply_text(panel)
    _, choose = await first_choice(player, panel)
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


def board_gifs(board: discord.Message) -> list[discord.Attachment]:
    return [a for a in board.attachments if a.filename.endswith(".gif")]


async def test_each_flick_is_shown_with_its_gif_on_the_board_and_told_in_the_thread(
        simcord_env: simcord.Env, simcord_bot: HeraldBot) -> None:
    """The board edit of a flick's update carries its animation under the still board (no thread
    message of its own: the thread gets the line with its generation's message)."""
    env, bot = simcord_env, simcord_bot
    thread, players, game, computer = await open_game(env, bot)
    computer_name = game.seats[computer].name
    human_mission_flicks = 0
    told: list[str] = []
    for _ in range(60):
        game = await stored_game(bot, game.id)
        board_ids = custom_ids(board_of(thread))
        kind = await act_once(bot, thread, players, game)
        before, told = told, await flick_lines_logged(bot, game)
        new = told[len(before):]
        board = board_of(thread)
        assert custom_ids(board) != board_ids  # the one board message updates
        assert board.attachments[0].filename == "board.png"
        gifs = board_gifs(board)
        # every flick of the update is on the board, with its animation described in words
        assert len(gifs) == len(new), ([a.filename for a in board.attachments], new)
        for gif in gifs:
            assert 0 < gif.size < 1_000_000
            assert gif.description and "Animation of" in gif.description, gif.description
        if kind == "flick":
            human_mission_flicks += 1
            assert gifs
        computer_told = [x for x in told if computer_name in x]
        if human_mission_flicks >= 3 and computer_told:
            break
    else:
        pytest.fail(f"too few flicks: {human_mission_flicks} by humans, {computer_told} by the computer")

    # no thread message of its own for a flick, and every flick told in the story, in order
    assert not [m for m in thread.history() if m.id != board_of(thread).id
                and any(a.filename.endswith(".gif") for a in m.attachments)]
    # (the lines of the generation not yet in the thread nor among the board's latest wait for
    # its message: none is lost)
    lines = [x for x in story(thread).splitlines() if is_flick_line(x)]
    delivery: Any = bot.sessions.delivery
    waiting = [x for x in delivery._logs[game.id].lines if is_flick_line(x)]
    assert lines + [x for x in waiting if x not in lines] == told


async def mission_flick_turn(bot: HeraldBot, thread: Any, players: list[Any], game: GameRow) -> tuple[GameRow, Any]:
    """Play up to a human's mission flick; returns the game and that player."""
    for _ in range(40):
        game = await stored_game(bot, game.id)
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
    assert private(r), reply_text(r)
    # without its animation the line is an ordinary one: on the board at once, in the thread
    # with its round's message
    assert not [m for m in thread.history() if m.id not in before and m.attachments]
    assert (await flick_lines_logged(bot, game))[-1] in story(thread).splitlines()
    assert "drawing the files of a log line failed" in caplog.text


async def test_a_refused_upload_edits_the_board_without_its_gif_and_keeps_the_line(
        simcord_env: simcord.Env, simcord_bot: HeraldBot) -> None:
    env, bot = simcord_env, simcord_bot
    thread, players, game, _ = await open_game(env, bot)
    game, player = await mission_flick_turn(bot, thread, players, game)
    board = board_of(thread)
    ids = custom_ids(board)
    # the board's edit with the flick's animation is refused as too large
    env.inject_error("PATCH", f"/channels/{thread.id}/messages/{board.id}", status=413, code=40005,
                     message="Request entity too large")
    r = await player.slash(thread, "flick", angle=0.0, power=5.0)
    assert private(r), reply_text(r)
    board = board_of(thread)
    assert custom_ids(board) != ids, "the board was lost with its GIF"
    assert [a.filename for a in board.attachments] == ["board.png"]
    assert (await flick_lines_logged(bot, game))[-1] in story(thread).splitlines()


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
