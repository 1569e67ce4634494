"""Forms survive restarts and long thinking: a player who opened a form (a modal) and submits it
after Herald restarted, or after a quarter of an hour of thought, still has it applied and gets
a confirmation — the way players actually fill in forms.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import simcord

from bot.app import HeraldBot
from tests.discord.conftest import make_config
from tests.discord.helpers import (
    choose_label,
    first_choice,
    open_seeded_table,
    private,
    reply_text,
)
from tests.discord.test_exactly_once import (
    FLICK_SEED,
    decide_board,
    example_order,
    hand_board,
    hegemony_to_debate,
    log_of,
)

SIXTEEN_MINUTES = 16 * 60  # longer than Discord's usual 15-minute life of an in-memory modal


async def flick_form_opened(env: simcord.Env, bot: HeraldBot) -> tuple[Any, Any, Any]:
    """Both gods chosen; alice opens the first-player flick form (Decide → Flick…)."""
    channel, thread, (alice, bob) = await open_seeded_table(env, bot, "flick_of_faith", FLICK_SEED)
    for player in (alice, bob):
        panel = await player.click(decide_board(thread), label="Decide")
        _, choose = await first_choice(player, panel)
        await choose()
    form = await alice.click(decide_board(thread), label="Decide")
    shown = await choose_label(alice, form, "Flick…")
    assert shown.modal is not None
    return thread, alice, shown


async def test_a_flick_form_submitted_after_a_restart_is_applied(simcord_env: simcord.Env, simcord_bot: HeraldBot,
                                                                 db_path: Path) -> None:
    env = simcord_env
    thread, alice, shown = await flick_form_opened(env, simcord_bot)
    await env.restart_bot(HeraldBot(make_config(db_path)))
    r = await alice.submit_modal(shown, {"angle": "3.25", "power": "6.15"})
    assert private(r) and "locked in" in reply_text(r) and "3.25" in reply_text(r), reply_text(r)
    assert log_of(thread).count("**P1 alice** has flicked in secret") == 1


async def test_a_flick_form_submitted_after_sixteen_minutes_is_applied(simcord_env: simcord.Env,
                                                                       simcord_bot: HeraldBot) -> None:
    env = simcord_env
    thread, alice, shown = await flick_form_opened(env, simcord_bot)
    await env.advance_time(SIXTEEN_MINUTES)
    r = await alice.submit_modal(shown, {"angle": "3.25", "power": "6.15"})
    assert private(r) and "locked in" in reply_text(r) and "3.25" in reply_text(r), reply_text(r)
    assert log_of(thread).count("**P1 alice** has flicked in secret") == 1


async def lineup_form_opened(env: simcord.Env, bot: HeraldBot) -> tuple[Any, Any, Any, str]:
    """The first Faith Debate of the seeded game: alice opens Decide → Type my own order…"""
    thread, (alice, bob) = await hegemony_to_debate(env, bot)
    form = await alice.click(hand_board(thread), label="Decide")
    order = example_order(reply_text(form))
    shown = await choose_label(alice, form, "Type my own order…")
    assert shown.modal is not None
    return thread, alice, shown, order


async def test_a_line_up_typed_while_herald_restarts_is_locked_in(simcord_env: simcord.Env, simcord_bot: HeraldBot,
                                                                  db_path: Path) -> None:
    env = simcord_env
    thread, alice, shown, order = await lineup_form_opened(env, simcord_bot)
    await env.restart_bot(HeraldBot(make_config(db_path)))
    r = await alice.submit_modal(shown, {"order": order})
    assert private(r) and "Line-up locked in" in reply_text(r), reply_text(r)
    assert log_of(thread).count("**P1 alice** has chosen in secret") == 1


async def test_a_line_up_typed_after_sixteen_minutes_is_locked_in(simcord_env: simcord.Env,
                                                                  simcord_bot: HeraldBot) -> None:
    env = simcord_env
    thread, alice, shown, order = await lineup_form_opened(env, simcord_bot)
    await env.advance_time(SIXTEEN_MINUTES)
    r = await alice.submit_modal(shown, {"order": order})
    assert private(r) and "Line-up locked in" in reply_text(r), reply_text(r)
    assert log_of(thread).count("**P1 alice** has chosen in secret") == 1
