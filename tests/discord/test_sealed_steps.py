"""Cult Wars' secret steps within the request budget (issue 25), as players meet them.

* **A sealed board.** While every cult answers the same question in secret (its target, then its
  orders), the channel's board shows neither who has answered nor who is still to: it is not
  redrawn for each answer, only when the step ends (the reveal). ``/game status`` says whom the
  table waits for.
* **The next form follows the last click.** The answer that ends a step opens that player's next
  decision at once: its form comes as the follow-up of their click, in the DM they are looking
  at; every other player gets theirs as a new DM, as ever.
* **A turn's story in one thread message**, its long stretch in boxes under the pings.
* **The first form shows the hand**: one DM to begin, not a hand DM and a form.
* **The end** costs no hand DM edit: the result's DM is the one DM of that change.
* A whole game of three humans stays within 1.5 requests per decision against the global limit.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
import simcord
from PIL import Image

from bot.app import HeraldBot
from bot.delivery import sealed_key
from bot.gameui import get_ui
from tests.discord.helpers import (
    cult_wars_answer,
    custom_ids,
    find_by_prefix,
    open_humans_table,
    open_seeded_table,
    reply_text,
    story,
)

SEED = 11


@pytest.fixture
def sketchy_images(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tiny images: these tests count requests and read texts, not pictures."""
    ui = get_ui("cult_wars")
    monkeypatch.setattr(ui, "board_image", lambda *a, **k: Image.new("RGB", (8, 8)))
    monkeypatch.setattr(ui, "hand_image", lambda *a, **k: Image.new("RGB", (8, 8)))


def requests_since(env: simcord.Env, start: int) -> list[Any]:
    return list(env.http_requests[start:])


def global_limited(entries: list[Any]) -> list[Any]:
    """The requests that count against the bot's global rate limit (all but interaction responses)."""
    return [e for e in entries if e.path.strip("/").split("/")[0] not in ("interactions", "webhooks")]


def edits_of(entries: list[Any], channel_id: int) -> list[Any]:
    return [e for e in entries if e.method == "PATCH" and e.path.startswith(f"/channels/{channel_id}/messages")]


def posts_to(entries: list[Any], channel_id: int) -> list[Any]:
    return [e for e in entries if e.method == "POST" and e.path.startswith(f"/channels/{channel_id}/messages")]


async def computer_action(bot: HeraldBot, game_id: int, seat: int) -> tuple[Any, Any]:
    snap = await bot.sessions.snapshot(game_id)
    o = snap.prompt_of(seat)
    assert o is not None
    rng = random.Random(f"human/{snap.game.version}/{seat}")
    return o, await bot.sessions.cpu(snap.engine.bot_action, snap.view(seat), o.prompt, rng)


@pytest.mark.usefixtures("sketchy_images")
async def test_an_answer_in_a_secret_step_leaves_the_board_and_the_last_one_redraws_it(
        simcord_env: simcord.Env, simcord_bot: HeraldBot) -> None:
    env, bot = simcord_env, simcord_bot
    _, thread, (alice, bob) = await open_seeded_table(env, bot, "cult_wars", SEED, computers=1)
    board = find_by_prefix(thread.history(), "herald:act:")
    text = board.embeds[0].description or ""
    assert "chooses its target in secret" in text and "Every answer is due <t:" in text
    assert "Waiting for" not in text and "alice" not in text.split("\n")[0]
    before = sealed_key(await bot.sessions.snapshot(1))
    # one DM each to begin: the target form, which shows their hand too (its picture and its text)
    [first] = alice.user.dm_channel.history()
    assert "Action cards:" in first.content and "the insignia step" in first.content
    assert [a.filename for a in first.attachments] == ["hand.png"]

    o, action = await computer_action(bot, 1, 0)
    start = len(env.http_requests)
    assert await cult_wars_answer(env, alice, 1, o.opened, action)
    sent = requests_since(env, start)
    assert not edits_of(sent, thread.id), "the sealed board was redrawn for one answer"
    assert not global_limited(sent), [(e.method, e.path) for e in global_limited(sent)]
    # the board drawn before and after alice answered is the same board: it names nobody
    assert sealed_key(await bot.sessions.snapshot(1)) == before
    status = reply_text(await bob.slash(thread, "game status"))
    assert "waiting for P2 bob" in status and "waiting for P1 alice" not in status
    # the web page's summary reads the public view itself, unsealed (``bot.web.server``)
    summary = get_ui("cult_wars").status_text((await bot.sessions.snapshot(1)).view(None))
    assert "targets chosen: P1, P3" in summary and "waiting for P2" in summary

    o, action = await computer_action(bot, 1, 1)
    start = len(env.http_requests)
    assert await cult_wars_answer(env, bob, 1, o.opened, action)
    assert len(edits_of(requests_since(env, start), thread.id)) == 1  # the reveal: drawn once
    text = find_by_prefix(thread.history(), "herald:act:").embeds[0].description or ""
    assert "writes its orders in secret" in text and "Insignia: P1 → " in text


@pytest.mark.usefixtures("sketchy_images")
async def test_the_last_answer_of_a_step_brings_that_players_next_form_as_its_follow_up(
        simcord_env: simcord.Env, simcord_bot: HeraldBot) -> None:
    env, bot = simcord_env, simcord_bot
    _, thread, (alice, bob) = await open_seeded_table(env, bot, "cult_wars", SEED, computers=1)
    o, action = await computer_action(bot, 1, 0)
    assert await cult_wars_answer(env, alice, 1, o.opened, action)
    o, action = await computer_action(bot, 1, 1)
    start = len(env.http_requests)
    dm = bob.user.dm_channel.history()[-1]
    r = await bob.user.click(dm, custom_id=next(c for c in custom_ids(dm) if c.endswith(
        f":aim_{chr(ord('a') + action['target'])}")))
    sent = requests_since(env, start)
    # bob ended the step: his order form is the follow-up of his click (not a DM against the limit)
    assert "your order form follows" in reply_text(r) and "your secret orders" in reply_text(r)
    assert not posts_to(sent, bob.user.dm_channel.id)
    form = find_by_prefix(bob.user.dm_channel.history(), "herald:cw:1:")
    assert "your secret orders" in form.content and any(":ok" in c for c in custom_ids(form))
    # alice answered earlier and may be gone: hers is a new DM, which notifies her
    assert len(posts_to(sent, alice.user.dm_channel.id)) == 1
    assert "your secret orders" in find_by_prefix(alice.user.dm_channel.history(), "herald:cw:1:").content


@pytest.mark.usefixtures("sketchy_images")
async def test_a_whole_cult_wars_game_of_three_humans_keeps_within_the_budget(
        simcord_env: simcord.Env, simcord_bot: HeraldBot) -> None:
    env, bot = simcord_env, simcord_bot
    _, thread, members, _ = await open_humans_table(env, bot, "cult_wars", ("ann", "bea", "cyd"), SEED)
    start = len(env.http_requests)
    decisions = 0
    by_seat = {k: members[k] for k in range(3)}
    while (snap := await bot.sessions.snapshot(1)).game.status == "active":
        seat = snap.open[0].seat
        o, action = await computer_action(bot, 1, seat)
        if action["type"] == "split":  # (a defender's split: its own buttons, answered here directly)
            await bot.sessions.act(1, seat, action, user_id=by_seat[seat].id, answers=o.ticket)
        else:
            assert await cult_wars_answer(env, by_seat[seat], 1, o.opened, action), (decisions, action)
        assert (await bot.sessions.snapshot(1)).game.version > snap.game.version
        decisions += 1
        if (await bot.sessions.snapshot(1)).game.status != "active":
            end = len(env.http_requests)
    sent = requests_since(env, start)
    limited = global_limited(sent)
    assert len(limited) <= 1.5 * decisions, (len(limited), decisions)
    assert len(sent) <= 4 * decisions, (len(sent), decisions)
    # the board: once per secret step (two a turn), not once per answer
    assert len(edits_of(sent, thread.id)) <= decisions / 2
    # a turn's story is one message: its long stretch in boxes, whom it asks in its text
    turns = [m for m in thread.history() if any(not e.title and "all orders are revealed" in (e.description or "")
                                                 for e in m.embeds)]
    assert len(turns) >= 5 and all(m.content.count("➡️") <= 1 for m in turns)
    log = story(thread)
    assert log.count("all orders are revealed") == 8 and log.index("Turn 1:") < log.index("Turn 8:")
    # the end: no hand DM is edited for it; each player's result DM says how they finished, with
    # what the last turn told them privately (the cards their last sacrifice drew)
    results = []
    for m in members:
        assert not edits_of(requests_since(env, end), m.user.dm_channel.id)
        results.append(m.user.dm_channel.history()[-1].content)
    assert all("is over. You" in r and "Final board: https://" in r for r in results), results
    assert any("\n• You draw " in r for r in results), results
