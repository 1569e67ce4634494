"""**Decide** → the choice form, and one answer per click (``bot.answer``).

A decision whose choices fit one menu is made in a pop-up form: what is asked, by when, the choices
each with what it does. Sent from the board, its answer is the board itself, redrawn — an
interaction response, not a message edit counted against the bot's global rate limit; sent from
the player's DM, a private "✅". Every answer is made once: at once when the move is quick, else
deferred in time and edited after."""

from __future__ import annotations

from typing import Any

import discord
import pytest
import simcord

import bot.answer
from bot.app import HeraldBot
from bot.forms import choice_modal, fits_modal
from bot.session import OpenPrompt
from rules.engine import Choice, Prompt
from tests.discord.helpers import (
    choose_label,
    form_answer,
    form_text,
    modal_choices,
    reply_text,
    simultaneously,
)
from tests.discord.test_thread_log import board, open_duel


def requests_since(env: simcord.Env, start: int) -> list[tuple[str, str]]:
    return [(e.method, e.path.split("?")[0]) for e in env.http_requests[start:]]


def board_edits(requests: list[tuple[str, str]], thread: Any, message: discord.Message) -> int:
    """Edits of the board message made as channel message edits (the global-limited kind)."""
    return sum(1 for method, path in requests
               if method == "PATCH" and path == f"/channels/{thread.id}/messages/{message.id}")


async def test_decide_opens_a_form_with_the_question_the_deadline_and_every_choice(
        simcord_env: simcord.Env) -> None:
    thread, alice, _ = await open_duel(simcord_env)
    shown = await alice.click(board(thread), label="Decide")
    assert shown.modal is not None
    text = form_text(shown)
    assert "Round 1: bid" in text and "Due <t:" in text and "your lowest card is bid" in text, text
    assert [label for label, _ in modal_choices(shown) or []] == [f"Bid {n}" for n in range(1, 6)]
    assert form_answer(shown, "0") == {"choice": "0"}  # five choices: a radio group, all in view


async def test_a_choice_sent_from_the_board_is_answered_by_the_board_itself(
        simcord_env: simcord.Env, simcord_bot: HeraldBot) -> None:
    env = simcord_env
    thread, alice, _ = await open_duel(env)
    message = board(thread)
    shown = await alice.click(message, label="Decide")
    start = len(env.http_requests)
    done = await choose_label(alice, shown, "Bid 3")
    assert done.response is not None and done.response.id == message.id  # the answer is the board
    assert board_edits(requests_since(env, start), thread, message) == 0
    embed = board(thread).embeds[0]
    assert "Waiting for" in (embed.description or "") and "bob" in (embed.description or "")
    assert "alice" not in (embed.description or "").split("Waiting for", 1)[1]
    # no line of its own (the board shows the move) but the secret bid, which only alice sees
    assert reply_text(done) == "• You bid 3." and all(f.ephemeral for f in done.followups)
    assert len(await simcord_bot.storage.actions(1)) == 1


async def test_the_same_decision_sent_from_two_forms_at_once_counts_once(
        simcord_env: simcord.Env, simcord_bot: HeraldBot) -> None:
    env = simcord_env
    thread, alice, _ = await open_duel(env)
    first = await alice.click(board(thread), label="Decide")
    second = await alice.click(board(thread), label="Decide")  # a double tap: two forms
    a, b = await simultaneously(env, choose_label(alice, first, "Bid 2"), choose_label(alice, second, "Bid 5"))
    stored = await simcord_bot.storage.actions(1)
    assert len(stored) == 1
    refused = [r for r in (a, b) if "already answered" in reply_text(r)]
    assert len(refused) == 1, (reply_text(a), reply_text(b))


async def test_a_slow_move_is_acknowledged_in_time_and_the_board_still_answers(
        simcord_env: simcord.Env, monkeypatch: pytest.MonkeyPatch) -> None:
    env = simcord_env
    thread, alice, _ = await open_duel(env)
    message = board(thread)
    shown = await alice.click(message, label="Decide")
    monkeypatch.setattr(bot.answer, "ACK_WITHIN", 0.0)  # (any move is slower than this)
    start = len(env.http_requests)
    await choose_label(alice, shown, "Bid 4")
    sent = requests_since(env, start)
    callbacks = [i for i, (method, path) in enumerate(sent) if path.endswith("/callback")]
    edits = [i for i, (method, path) in enumerate(sent)
             if method == "PATCH" and path.startswith("/webhooks/") and path.endswith("/messages/@original")]
    assert len(callbacks) == 1 and edits and callbacks[0] < edits[0], sent  # deferred, then the board
    assert board_edits(sent, thread, message) == 0
    assert "bob" in (board(thread).embeds[0].description or "")


async def test_a_choice_sent_from_the_dm_is_confirmed_privately_and_the_board_moves(
        simcord_env: simcord.Env, simcord_bot: HeraldBot) -> None:
    env = simcord_env
    thread, alice, _ = await open_duel(env)
    dm = alice.user.dm_channel
    hand = next(m for m in dm.history() if any(
        getattr(c, "label", None) == "Decide" for row in m.components for c in getattr(row, "children", [])))
    shown = await alice.user.click(hand, label="Decide")
    done = await choose_label(alice.user, shown, "Bid 1")
    assert reply_text(done).startswith("✅ Bid 1") and done.ephemeral
    assert len(await simcord_bot.storage.actions(1)) == 1
    assert "bob" in (board(thread).embeds[0].description or "")


def prompt_with(n: int, description: str | None = None) -> OpenPrompt:
    choices = [Choice(f"Option {i}", {"i": i}, description=description) for i in range(n)]
    return OpenPrompt(Prompt(0, "pick", "Pick one", tuple(choices)), opened=1)


def test_the_form_holds_ten_choices_in_view_twenty_five_in_a_menu_and_no_more() -> None:
    kinds = {}
    for n in (2, 10, 11, 25):
        modal = choice_modal(1, prompt_with(n, "what it does"), "Game #1 — your decision", "Pick one")
        payload: Any = modal.to_dict()
        control = payload["components"][1]["component"]
        kinds[n] = control["type"]
        assert [o["value"] for o in control["options"]] == [str(i) for i in range(n)]
        assert all(o["description"] == "what it does" for o in control["options"])
    assert kinds == {2: 21, 10: 21, 11: 3, 25: 3}  # a radio group up to ten, then a menu
    assert fits_modal(prompt_with(25)) and not fits_modal(prompt_with(26)) and not fits_modal(prompt_with(0))
