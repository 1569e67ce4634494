"""Every decision counts exactly once, whatever the timing: faults players found on Discord.

* Players deciding at the same moment (each their own secret choice) both count — nobody is
  told "out of date" for a choice nobody else could have changed.
* A double tap (two Confirms, two /flick, two form submissions, two /lineup — at once or one
  after the other) is applied once, never twice and never to the player's *next* decision; the
  second tap gets a polite answer.
* Failures have one translation: a lost database race is never "something went wrong", and a
  game saved by another version of Herald says so instead of reading like a rule refusal.

``simultaneously`` (tests/discord/helpers.py) delivers several interactions to the bot before it
settles, so discord.py handles them concurrently, as when two players press at the same moment.
Everything is checked from the players' side: replies, the thread's log, boards, hands, forms.
"""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord

from bot.app import HeraldBot
from bot.storage import VersionConflict
from tests.discord.conftest import make_config
from tests.discord.helpers import (
    answer_text,
    choice_labels,
    choose_label,
    components,
    find_by_prefix,
    first_choice,
    form_text,
    last_message,
    open_seeded_table,
    opened,
    private,
    public_text,
    reply_text,
    simultaneously,
    story,
)

CULT_WARS_SEED = 3
FLICK_SEED = 7
HEGEMONY_SEED = 56  # the course tests/discord/test_hegemony_of_faith.py knows: a Faith Debate at once
OUT_OF_DATE = "out of date"
WENT_WRONG = "something went wrong"


def log_of(thread: Any) -> str:
    return story(thread)


def decide_board(thread: Any) -> discord.Message:
    return find_by_prefix(thread.history(), "herald:act:")


def hand_board(thread: Any) -> discord.Message:
    return find_by_prefix(thread.history(), "herald:hand:")


async def awaited(member: Any, thread: Any) -> str:
    """Whom the game waits for, as ``/game status`` says it (a Cult Wars board in a secret step
    is sealed: it names nobody)."""
    return reply_text(await member.slash(thread, "game status"))


def waiting_line(board: discord.Message) -> str:
    text = board.embeds[0].description or ""
    return next((line for line in text.splitlines() if line.startswith("Waiting for")), "")


def polite_second_answer(text: str) -> bool:
    """The second of a double tap: says it was already done, that the form/board is out of date,
    or (a command that names no decision, arriving once the first was stored) that there is
    nothing left to decide and who is awaited."""
    low = text.lower()
    return bool(text.strip()) and WENT_WRONG not in low and any(
        w in low for w in ("already", OUT_OF_DATE, "at the same moment", "was for turn",
                           "nothing for you to decide right now — waiting for"))


def assert_one_flick_applied(thread: Any, player: Any, before: int, a: Any, b: Any) -> None:
    """Exactly one of two flick submissions was applied, and the other one was refused politely."""
    assert flicks_by(thread, player.name) == before + 1, log_of(thread)[-600:]
    said = [reply_text(a), reply_text(b)]
    assert sum("✅" in s for s in said) == 1, said
    assert polite_second_answer(next(s for s in said if "✅" not in s)), said


# ----------------------------------------------------------------------------- openers


async def open_duel(env: simcord.Env) -> tuple[Any, Any, list[Any]]:
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    await alice.slash(channel, "play", game="duel", options="fast=yes")
    await bob.click(last_message(channel), label="Join")
    await alice.click(last_message(channel), label="Start")
    return channel, channel.threads[0], [alice, bob]


async def open_cult_wars(env: simcord.Env, bot: HeraldBot) -> tuple[Any, Any, list[Any]]:
    """alice, bob and a computer player (it sends its orders at once), seeded, at a table with the
    single secret order a turn (``insignia=single``): these tests are about confirming one form."""
    return await open_seeded_table(env, bot, "cult_wars", CULT_WARS_SEED, computers=1, deadline="2h",
                                   options="insignia=single")


async def flick_to_missions(env: simcord.Env, bot: HeraldBot) -> tuple[Any, Any, Any]:
    """A seeded two-player Flick of Faith played through Discord up to the first Mission flick.

    Gods and Council votes: each player's first choice; the secret first-player flick: straight
    at the navel. Returns the thread, the player whose Mission flick it is, and that player's
    flick form (the ephemeral answer of Decide)."""
    channel, thread, players = await open_seeded_table(env, bot, "flick_of_faith", FLICK_SEED)
    for _ in range(12):
        for player in players:
            panel = await player.click(decide_board(thread), label="Decide")
            text = reply_text(panel)
            message = opened(panel)
            labels = [c["label"] for c in components(message)] if message is not None else []
            if "Flick…" in labels and "🔒" in text:
                r = await player.slash(thread, "flick", angle=0.0, power=6.0)
                assert "locked in" in reply_text(r), reply_text(r)
            elif "Flick…" in labels:
                return thread, player, panel
            elif panel.modal is not None or (message is not None and any(
                    (c["custom_id"] or "").startswith("herald:") for c in components(message))):
                _, choose = await first_choice(player, panel)
                await choose()
    raise AssertionError("no Mission flick reached")


async def hegemony_to_debate(env: simcord.Env, bot: HeraldBot) -> tuple[Any, list[Any]]:
    """A seeded four-seat Hegemony of Faith (alice, bob, two computer players) played through
    Discord, each human taking the first choice of every Decide panel, up to the first Faith
    Debate: seed 56 has bob open one against alice at once, so both owe a secret line-up."""
    channel, thread, players = await open_seeded_table(env, bot, "hegemony_of_faith", HEGEMONY_SEED,
                                                       computers=2, deadline="1h")
    for _ in range(20):
        progressed = False
        for player in players:
            panel = await player.click(hand_board(thread), label="Decide")
            text = reply_text(panel)
            if "your secret line-up" in text:
                return thread, players
            if not choice_labels(panel):
                continue
            _, choose = await first_choice(player, panel)
            await choose()
            progressed = True
            break
        assert progressed, "nobody had anything to decide"
    raise AssertionError("no line-up reached")


def example_order(form_text: str) -> str:
    """The order the line-up form suggests typing (its first ready-made order)."""
    m = re.search(r"/lineup order:([^`]+)`", form_text)
    assert m is not None, form_text
    return m.group(1)


def flicks_by(thread: Any, name: str) -> int:
    return len(re.findall(rf"\*\*P\d {name}\*\* flicks", log_of(thread)))


# ------------------------------------------------------------- the helper really overlaps


async def test_simultaneous_interactions_all_reach_the_bot_before_it_answers_any(simcord_env: simcord.Env) -> None:
    env = simcord_env
    channel, thread, (alice, bob) = await open_duel(env)
    board = decide_board(thread)

    def order_since(start: int) -> list[str]:
        """'in' when an interaction reached the bot, 'out' when the bot first answered one."""
        seen: list[str] = []
        for kind, what, _ in env.backend.transcript[start:]:
            if kind == "GATEWAY" and what == "INTERACTION_CREATE":
                seen.append("in")
            elif kind == "HTTP" and str(what).endswith("/callback"):
                seen.append("out")
        return seen

    start = len(env.backend.transcript)
    a, b = await alice.click(board, label="Decide"), await bob.click(board, label="Decide")
    assert order_since(start) == ["in", "out", "in", "out"]  # one after the other: no overlap
    start = len(env.backend.transcript)
    a, b = await simultaneously(env, alice.click(board, label="Decide"), bob.click(board, label="Decide"))
    assert order_since(start) == ["in", "in", "out", "out"]  # both in flight before either is answered
    assert "Round 1: bid" in form_text(a) and "Round 1: bid" in form_text(b)
    assert private(a) and private(b)
    # and the env is usable again afterwards
    r = await alice.click(board, label="My hand")
    assert "Your cards: 1, 2, 3, 4, 5" in reply_text(r)


# ------------------------------------------------------------ 1. simultaneous choices


async def test_two_players_bidding_at_the_same_moment_both_count(simcord_env: simcord.Env) -> None:
    env = simcord_env
    channel, thread, (alice, bob) = await open_duel(env)
    board = decide_board(thread)
    panel_a = await alice.click(board, label="Decide")
    panel_b = await bob.click(board, label="Decide")
    a, b = await simultaneously(env, choose_label(alice, panel_a, "Bid 3"),
                                choose_label(bob, panel_b, "Bid 2"))
    assert OUT_OF_DATE not in reply_text(a) and OUT_OF_DATE not in reply_text(b), (reply_text(a), reply_text(b))
    assert "Bids revealed: **P1 alice**: 3, **P2 bob**: 2." in log_of(thread)


async def test_two_players_choosing_their_gods_at_the_same_moment_both_count(simcord_env: simcord.Env,
                                                                             simcord_bot: HeraldBot) -> None:
    env = simcord_env
    channel, thread, (alice, bob) = await open_seeded_table(env, simcord_bot, "flick_of_faith", FLICK_SEED)
    god_a, choose_a = await first_choice(alice, (await alice.click(decide_board(thread), label="Decide")))
    god_b, choose_b = await first_choice(bob, (await bob.click(decide_board(thread), label="Decide")))
    a, b = await simultaneously(env, choose_a(), choose_b())
    assert OUT_OF_DATE not in reply_text(a) and OUT_OF_DATE not in reply_text(b), (reply_text(a), reply_text(b))
    log = log_of(thread)
    assert "The gods are revealed" in log and god_a in log and god_b in log, log[-600:]
    # both are asked for the first-player flick next
    for player in (alice, bob):
        form = await player.click(decide_board(thread), label="Decide")
        assert "First player flick" in reply_text(form), reply_text(form)


async def test_two_players_keeping_their_secret_skills_at_the_same_moment_both_count(
        simcord_env: simcord.Env, simcord_bot: HeraldBot) -> None:
    env = simcord_env
    channel, thread, (alice, bob) = await open_seeded_table(env, simcord_bot, "hegemony_of_faith",
                                                            HEGEMONY_SEED, computers=2, deadline="1h")
    board = hand_board(thread)
    skill_a, choose_a = await first_choice(alice, (await alice.click(board, label="Decide")))
    skill_b, choose_b = await first_choice(bob, (await bob.click(board, label="Decide")))
    a, b = await simultaneously(env, choose_a(), choose_b())
    assert OUT_OF_DATE not in reply_text(a) and OUT_OF_DATE not in reply_text(b), (reply_text(a), reply_text(b))
    log = log_of(thread)
    assert "**P1 alice** has chosen a skill" in log and "**P2 bob** has chosen a skill" in log
    for player, skill in ((alice, skill_a), (bob, skill_b)):
        hand = await player.click(hand_board(thread), label="My hand")
        assert f"**Skill:** {skill}" in reply_text(hand), reply_text(hand)
    assert "choosing a secret skill" not in (hand_board(thread).embeds[0].description or "")


async def test_a_late_delivery_never_puts_an_older_board_back(
        simcord_env: simcord.Env, simcord_bot: HeraldBot) -> None:
    """Two players deciding at once: the later decision's delivery can overtake the earlier
    one's. Whatever order they arrive in, the board shows the newest state and every line is told."""
    env = simcord_env
    delivered: list[Any] = []
    delivery = simcord_bot.sessions.delivery
    real = delivery.deliver

    async def record(update: Any) -> None:
        delivered.append(update)
        await real(update)

    delivery.deliver = record  # type: ignore[method-assign]  # (recorded for this test)
    channel, thread, (alice, bob) = await open_seeded_table(env, simcord_bot, "hegemony_of_faith",
                                                            HEGEMONY_SEED, computers=2, deadline="1h")
    board = hand_board(thread)
    _, choose_a = await first_choice(alice, (await alice.click(board, label="Decide")))
    _, choose_b = await first_choice(bob, (await bob.click(board, label="Decide")))
    await choose_a()
    await choose_b()
    before = hand_board(thread).embeds[0].description or ""
    assert "choosing a secret skill" not in before, before
    older = next(u for u in delivered if u.kind == "action")
    lines_before = len(thread.history())
    await real(older)  # the earlier decision's delivery, arriving last
    await env.settle()
    after = hand_board(thread).embeds[0].description or ""
    assert after == before, (before, after)
    assert "choosing a secret skill" not in after
    assert len(thread.history()) > lines_before  # its lines are still told


# ------------------------------------------------------------------- 2. double taps


async def test_a_double_tapped_confirm_sends_the_last_orders_once_and_nothing_for_the_next_turn(
        simcord_env: simcord.Env, simcord_bot: HeraldBot) -> None:
    env = simcord_env
    channel, thread, (alice, bob) = await open_cult_wars(env, simcord_bot)
    form = find_by_prefix(alice.user.dm_channel.history(), "herald:cw:1:1:")
    sent = await alice.user.click(form, label="✅ Confirm orders")
    assert "Orders sent" in reply_text(sent)
    # bob is the last: he taps Confirm twice on his DM form
    form = find_by_prefix(bob.user.dm_channel.history(), "herald:cw:1:1:")
    taps = await simultaneously(env, bob.user.click(form, label="✅ Confirm orders"),
                                bob.user.click(form, label="✅ Confirm orders"))
    said = [answer_text(env, t) for t in taps]
    log = log_of(thread)
    assert log.count("End of turn 1") == 1  # turn 1 resolved once
    assert "**P2 bob** has sent their orders for turn 2" not in log, "the second tap became bob's orders for turn 2"
    assert "waiting for P2 bob" in await awaited(bob, thread)
    r = await bob.slash(thread, "orders")
    assert "turn 2" in reply_text(r) and "Your orders are in" not in reply_text(r), reply_text(r)
    # one tap sent the orders; the other says so politely, without claiming to send anything
    assert sum("Orders sent" in s for s in said) == 1, said
    second = next(s for s in said if "Orders sent" not in s)
    assert "Orders changed" not in second and polite_second_answer(second), said


def stored_orders(db: Path, seat: int) -> int:
    """How many order actions of ``seat`` game 1's action log holds."""
    with sqlite3.connect(db) as conn:
        count: int = conn.execute("SELECT COUNT(*) FROM actions WHERE game_id=1 AND seat=?",
                                  (seat,)).fetchone()[0]
        return count


async def test_a_first_confirm_tapped_again_later_never_becomes_a_replacement(
        simcord_env: simcord.Env, simcord_bot: HeraldBot, db_path: Path) -> None:
    """alice is not the last cult: her orders stay revisable, yet a retried first Confirm (the old
    form's button, after the first tap was stored) is refused instead of sending them again."""
    env = simcord_env
    channel, thread, (alice, bob) = await open_cult_wars(env, simcord_bot)
    form = find_by_prefix(alice.user.dm_channel.history(), "herald:cw:1:1:")
    other = await alice.slash(thread, "orders")  # a second form drawn before the orders went in
    first = await alice.user.click(form, label="✅ Confirm orders")
    assert "Orders sent" in reply_text(first)
    again = await choose_label(alice, other, "✅ Confirm orders")
    said = answer_text(env, again)
    assert "Orders changed" not in said and polite_second_answer(said), said
    assert stored_orders(db_path, 0) == 1
    assert "**P1 alice** has changed their orders" not in log_of(thread)


async def test_a_replacement_confirmed_twice_at_once_is_stored_once(
        simcord_env: simcord.Env, simcord_bot: HeraldBot, db_path: Path) -> None:
    env = simcord_env
    channel, thread, (alice, bob) = await open_cult_wars(env, simcord_bot)
    await alice.user.click(find_by_prefix(alice.user.dm_channel.history(), "herald:cw:1:1:"),
                           label="✅ Confirm orders")
    change = await alice.slash(thread, "orders")  # drawn after the orders went in: a replacement
    assert "Your orders are in" in reply_text(change), reply_text(change)
    lo = next(c["custom_id"] for c in components(opened(change)) if c["custom_id"].endswith(":lo"))
    edited = await alice.select(opened(change), ["1.2"], custom_id=lo)  # a real change
    form = opened(edited)
    taps = await simultaneously(env, alice.click(form, label="✅ Confirm orders"),
                                alice.click(form, label="✅ Confirm orders"))
    said = [answer_text(env, t) for t in taps]
    assert stored_orders(db_path, 0) == 2, "the doubled replacement was stored twice"
    assert sum("Orders changed" in s for s in said) == 1, said
    assert all(WENT_WRONG not in s.lower() for s in said), said
    # and an unchanged form confirmed again changes nothing either
    fresh = await alice.slash(thread, "orders")
    again = await choose_label(alice, fresh, "✅ Confirm orders")
    assert "nothing was changed" in answer_text(env, again) and stored_orders(db_path, 0) == 2
    await bob.user.click(find_by_prefix(bob.user.dm_channel.history(), "herald:cw:1:1:"),
                         label="✅ Confirm orders")  # (the reveal tells the table of the change)
    assert log_of(thread).count("**P1 alice** has changed their orders") == 1, said


async def test_a_second_order_form_confirmed_after_the_reveal_is_refused_politely(
        simcord_env: simcord.Env, simcord_bot: HeraldBot) -> None:
    """Sequential variant: bob's DM form and a form from /orders, confirmed one after the other."""
    env = simcord_env
    channel, thread, (alice, bob) = await open_cult_wars(env, simcord_bot)
    await alice.user.click(find_by_prefix(alice.user.dm_channel.history(), "herald:cw:1:1:"), label="✅ Confirm orders")
    dm_form = find_by_prefix(bob.user.dm_channel.history(), "herald:cw:1:1:")
    other = await bob.slash(thread, "orders")
    first = await bob.user.click(dm_form, label="✅ Confirm orders")
    assert "Orders sent" in reply_text(first)
    second = await choose_label(bob, other, "✅ Confirm orders")
    assert "Orders sent" not in answer_text(env, second) and polite_second_answer(answer_text(env, second))
    assert "**P2 bob** has sent their orders for turn 2" not in log_of(thread)
    assert "waiting for P2 bob" in await awaited(bob, thread)


async def test_a_flick_sent_twice_at_the_same_moment_is_applied_once(simcord_env: simcord.Env,
                                                                     simcord_bot: HeraldBot) -> None:
    env = simcord_env
    thread, player, _ = await flick_to_missions(env, simcord_bot)
    before = flicks_by(thread, player.name)
    # power 1: the disc barely moves, so the same player is asked to flick again at once
    a, b = await simultaneously(env, player.slash(thread, "flick", angle=0.0, power=1.0),
                                player.slash(thread, "flick", angle=0.0, power=1.0))
    assert_one_flick_applied(thread, player, before, a, b)


async def test_the_flick_form_submitted_twice_at_once_is_applied_once(simcord_env: simcord.Env,
                                                                     simcord_bot: HeraldBot) -> None:
    env = simcord_env
    thread, player, form = await flick_to_missions(env, simcord_bot)
    before = flicks_by(thread, player.name)
    shown = [await choose_label(player, form, "Flick…") for _ in range(2)]
    assert all(s.modal is not None for s in shown)
    a, b = await simultaneously(env, *(player.submit_modal(s, {"angle": "0", "power": "1"}) for s in shown))
    assert_one_flick_applied(thread, player, before, a, b)


async def test_the_flick_form_submitted_twice_in_a_row_is_applied_once(simcord_env: simcord.Env,
                                                                      simcord_bot: HeraldBot) -> None:
    """Sequential variant: the second submission arrives after the first flick was applied."""
    env = simcord_env
    thread, player, form = await flick_to_missions(env, simcord_bot)
    before = flicks_by(thread, player.name)
    shown = [await choose_label(player, form, "Flick…") for _ in range(2)]
    first = await player.submit_modal(shown[0], {"angle": "0", "power": "1"})
    assert "✅" in reply_text(first), reply_text(first)
    second = await player.submit_modal(shown[1], {"angle": "0", "power": "1"})
    assert flicks_by(thread, player.name) == before + 1, log_of(thread)[-600:]
    assert "✅" not in reply_text(second) and polite_second_answer(reply_text(second)), reply_text(second)


async def test_a_line_up_sent_twice_at_the_same_moment_is_locked_in_once(simcord_env: simcord.Env,
                                                                         simcord_bot: HeraldBot) -> None:
    env = simcord_env
    thread, (alice, bob) = await hegemony_to_debate(env, simcord_bot)
    form = await alice.click(hand_board(thread), label="Decide")
    order = example_order(reply_text(form))
    a, b = await simultaneously(env, alice.slash(thread, "lineup", order=order),
                                alice.slash(thread, "lineup", order=order))
    said = [reply_text(a), reply_text(b)]
    assert sum("Line-up locked in" in s for s in said) == 1, said
    assert polite_second_answer(next(s for s in said if "Line-up locked in" not in s)), said
    assert log_of(thread).count("**P1 alice** has chosen in secret") == 1
    # bob is still asked for his line-up: the debate waits for him, not for alice
    panel = await bob.click(hand_board(thread), label="Decide")
    assert "your secret line-up" in reply_text(panel)
    assert "P2 bob" in waiting_line(hand_board(thread)) and "P1 alice" not in waiting_line(hand_board(thread))


async def test_the_last_line_up_typed_twice_at_once_is_locked_in_once(simcord_env: simcord.Env,
                                                                     simcord_bot: HeraldBot) -> None:
    env = simcord_env
    thread, (alice, bob) = await hegemony_to_debate(env, simcord_bot)
    form = await alice.click(hand_board(thread), label="Decide")
    r = await alice.slash(thread, "lineup", order=example_order(reply_text(form)))
    assert "Line-up locked in" in reply_text(r)
    # bob, the last, opens the typed-order form twice and both submissions arrive together
    form = await bob.click(hand_board(thread), label="Decide")
    order = example_order(reply_text(form))
    shown = [await choose_label(bob, form, "Type my own order…") for _ in range(2)]
    assert all(s.modal is not None for s in shown)
    a, b = await simultaneously(env, *(bob.submit_modal(s, {"order": order}) for s in shown))
    said = [reply_text(a), reply_text(b)]
    assert sum("Line-up locked in" in s for s in said) == 1, said
    assert polite_second_answer(next(s for s in said if "Line-up locked in" not in s)), said
    log = log_of(thread)
    assert log.count("**P2 bob** has chosen in secret") == 1, log[-800:]
    assert log.count("Faith Debate: **P2 bob** and **P1 alice** hold") == 1, log[-800:]


async def test_a_line_up_sent_again_after_it_was_locked_in_is_refused_politely(
        simcord_env: simcord.Env, simcord_bot: HeraldBot) -> None:
    """Sequential variant: /lineup, then the same /lineup once the first was applied."""
    env = simcord_env
    thread, (alice, bob) = await hegemony_to_debate(env, simcord_bot)
    form = await alice.click(hand_board(thread), label="Decide")
    order = example_order(reply_text(form))
    first = await alice.slash(thread, "lineup", order=order)
    assert "Line-up locked in" in reply_text(first)
    second = await alice.slash(thread, "lineup", order=order)
    text = reply_text(second)
    assert "Line-up locked in" not in text and WENT_WRONG not in text.lower(), text
    # once the first is in, "nothing to decide — waiting for …" is as good an answer as "already"
    assert polite_second_answer(text) or "waiting for" in text.lower(), text
    assert not re.search(r"\bSeat \d", text), text  # no engine-internal seat numbers
    assert log_of(thread).count("**P1 alice** has chosen in secret") == 1


# ------------------------------------------------------------------ 4. one translation


async def test_a_lost_database_race_on_a_click_is_never_something_went_wrong(
        simcord_env: simcord.Env, simcord_bot: HeraldBot, monkeypatch: pytest.MonkeyPatch) -> None:
    """The version check in the database loses a race once: either the platform retries and the
    bid counts, or the player reads that someone acted at the same moment — never an apology."""
    env, bot = simcord_env, simcord_bot
    channel, thread, (alice, bob) = await open_duel(env)
    lost_once = lose_the_next_race(monkeypatch, bot)
    panel = await alice.click(decide_board(thread), label="Decide")
    r = await choose_label(alice, panel, "Bid 3")
    assert lost_once(), "the injected race did not happen"
    text = reply_text(r)
    assert WENT_WRONG not in text.lower(), text
    hand = reply_text(await alice.click(hand_board(thread), label="My hand"))
    applied = "Your cards: 1, 2, 4, 5" in hand
    assert applied or "at the same moment" in text, (text, hand)


async def test_a_lost_database_race_on_a_slash_command_is_never_something_went_wrong(
        simcord_env: simcord.Env, simcord_bot: HeraldBot, monkeypatch: pytest.MonkeyPatch) -> None:
    env, bot = simcord_env, simcord_bot
    channel, thread, (alice, bob) = await open_seeded_table(env, bot, "flick_of_faith", FLICK_SEED)
    for player in (alice, bob):
        _, choose = await first_choice(player, (await player.click(decide_board(thread), label="Decide")))
        await choose()
    lost_once = lose_the_next_race(monkeypatch, bot)
    r = await alice.slash(thread, "flick", angle=0.0, power=6.0)
    assert lost_once(), "the injected race did not happen"
    text = reply_text(r)
    assert WENT_WRONG not in text.lower(), text
    assert "locked in" in text or "at the same moment" in text, text


def lose_the_next_race(monkeypatch: pytest.MonkeyPatch, bot: HeraldBot) -> Any:
    """The next ``commit_action`` raises VersionConflict (as when another writer got there first);
    later ones go through. Returns a function telling whether the conflict was raised."""
    storage: Any = bot.storage
    real = storage.commit_action
    raised: list[bool] = []

    async def commit_action(*args: Any, **kwargs: Any) -> Any:
        if not raised:
            raised.append(True)
            raise VersionConflict("game is no longer at the expected version")
        return await real(*args, **kwargs)

    monkeypatch.setattr(storage, "commit_action", commit_action)
    return lambda: bool(raised)


async def test_a_game_saved_by_another_version_of_herald_says_so(simcord_env: simcord.Env, db_path: Path) -> None:
    env = simcord_env
    channel, thread, (alice, bob) = await open_duel(env)
    board = decide_board(thread)
    with sqlite3.connect(db_path) as db:
        (raw,) = db.execute("SELECT state FROM games").fetchone()
        state = json.loads(raw)
        state["schema_version"] = 99
        db.execute("UPDATE games SET state = ?", (json.dumps(state),))
    await env.restart_bot(HeraldBot(make_config(db_path)))
    for label in ("Decide", "My hand"):
        r = await alice.click(board, label=label)
        text = reply_text(r)
        assert "different version of Herald" in text, (label, text)
        assert "this Herald reads version" not in text and WENT_WRONG not in text.lower(), (label, text)


async def test_orders_confirmed_after_the_deadline_are_told_the_computer_wrote_them_and_shown_them(
        simcord_env: simcord.Env, simcord_bot: HeraldBot, db_path: Path) -> None:
    """alice's deadline passes while bob is still writing: the computer player sends her orders.
    Her Confirm, tapped a moment later, is not "already sent by your first tap" (there was no
    first tap): she is told the deadline passed, shown the orders the computer sent (still her
    secret, to her alone) and given the button to change them."""
    env = simcord_env
    channel, thread, (alice, bob) = await open_cult_wars(env, simcord_bot)
    form = find_by_prefix(alice.user.dm_channel.history(), "herald:cw:1:1:")
    hers = next(d for d in await simcord_bot.sessions.storage.deadlines(1) if d.seat == 0)
    await simcord_bot.sessions.timeout(hers)  # her deadline alone fires (as the scheduler would)
    assert stored_orders(db_path, 0) == 1
    late = await alice.user.click(form, label="✅ Confirm orders")
    said = answer_text(env, late)
    assert "first tap" not in said and "not applied" in said and "deadline" in said, said
    shown = opened(late)
    assert shown.embeds and "as the computer player sent them" in (shown.embeds[0].title or "")
    assert any(c["custom_id"].startswith("herald:cwb:1:") for c in components(shown))  # change them
    assert stored_orders(db_path, 0) == 1  # nothing stored by the late tap
    assert "as the computer player sent them" not in public_text(thread)  # her secret stays hers


async def test_orders_confirmed_after_the_deadline_and_the_reveal_are_told_what_happened(
        simcord_env: simcord.Env, simcord_bot: HeraldBot, db_path: Path) -> None:
    env = simcord_env
    channel, thread, (alice, bob) = await open_cult_wars(env, simcord_bot)
    await bob.user.click(find_by_prefix(bob.user.dm_channel.history(), "herald:cw:1:1:"),
                         label="✅ Confirm orders")
    form = find_by_prefix(alice.user.dm_channel.history(), "herald:cw:1:1:")
    await env.advance_time(2 * 3600 + 60)  # alice misses her deadline: every order is in, revealed
    late = await alice.user.click(form, label="✅ Confirm orders")
    said = answer_text(env, late)
    assert "first tap" not in said and "not applied" in said and "revealed" in said, said
    assert stored_orders(db_path, 0) == 1
