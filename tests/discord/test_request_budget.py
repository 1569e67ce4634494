"""The Discord request budget of a decision (issue 25): what a decision costs in requests to
Discord, and that nothing is lost for it.

* A player's own click costs no DM request when it told them nothing private: the answer to their
  click showed them what they did, so their hand DM is not edited for it; a decision that opens
  for them alone right after it, in the same turn, is not DMed again (they are at the table).
  A decision opening for anyone else is DMed as ever (``test_decisions_reach``).
* A hand DM edit that would change nothing is not made; an unchanged hand image is not uploaded
  again; an unchanged hand is not drawn again.
* A flick's animation goes with the board edit: a whole Flick of Faith game posts at most one
  thread message per two decisions.
* The link to the board rides on the thread's last message, never a message of its own (a long
  Cult Wars reveal used to push it into one).

Games are played through the session layer (as a click does), every seat a human player.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
import simcord
from PIL import Image

from bot.app import HeraldBot
from bot.gameui import get_ui
from bot.threadlog import chapter_of
from tests.discord.helpers import (
    board_of,
    form_answer,
    open_humans_table,
    open_seeded_table,
    stored_game,
)


@pytest.fixture
def sketchy_images(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tiny images instead of boards and hands: these tests count requests, not pictures."""
    for key in ("flick_of_faith", "alternate_histories", "petition", "cult_wars"):
        ui = get_ui(key)
        monkeypatch.setattr(ui, "board_image", lambda *a, **k: Image.new("RGB", (8, 8)))
        monkeypatch.setattr(ui, "hand_image", lambda *a, **k: Image.new("RGB", (8, 8)))
        monkeypatch.setattr(ui, "attachments", lambda *a, **k: [])


def requests_to(env: simcord.Env, start: int, channel_id: int) -> list[tuple[str, Any]]:
    """(method, body) of each request the bot made to the messages of one channel since
    ``start``."""
    out: list[tuple[str, Any]] = []
    for kind, what, body in env.backend.transcript[start:]:
        if kind != "HTTP":
            continue
        method, _, path = str(what).partition(" ")
        parts = path.split("?")[0].strip("/").split("/")
        if parts[:1] == ["channels"] and parts[1:2] == [str(channel_id)] and parts[2:3] == ["messages"]:
            out.append((method, body))
    return out


async def answer(bot: HeraldBot, game_id: int, humans: dict[int, Any]) -> tuple[Any, Any, int]:
    """The first asked human answers as the computer player would. Returns the snapshot before,
    the update and the seat that answered."""
    snap = await bot.sessions.snapshot(game_id)
    o = snap.open[0]
    uid = snap.game.seats[o.seat].user_id
    assert uid in humans
    rng = random.Random(f"human/{snap.game.version}/{o.seat}")
    action = await bot.sessions.cpu(snap.engine.bot_action, snap.view(o.seat), o.prompt, rng)
    update = await bot.sessions.act(game_id, o.seat, action, user_id=uid, answers=o.ticket)
    return snap, update, o.seat


@pytest.mark.usefixtures("sketchy_images")
async def test_a_seat_deciding_again_in_the_same_turn_is_not_dmed_again(
        simcord_env: simcord.Env, simcord_bot: HeraldBot) -> None:
    env, bot = simcord_env, simcord_bot
    _, thread, (alice, bob) = await open_seeded_table(env, bot, "alternate_histories", 3)
    humans = {alice.id: alice, bob.id: bob}
    game_id = (await bot.storage.list_games())[0].id
    delivery: Any = bot.sessions.delivery
    again = other = 0
    for _ in range(400):
        if (await bot.sessions.snapshot(game_id)).game.status != "active":
            break
        start = len(env.backend.transcript)
        before, update, seat = await answer(bot, game_id, humans)
        game = update.game
        uid = game.seats[seat].user_id
        dm = humans[uid].user.dm_channel.id
        mine = [e for e in update.events if e.to is not None and seat in e.to]
        asked = {o.seat for o in update.new_prompts}
        o = update.snap.prompt_of(seat)
        form = o is not None and o.prompt.secret and delivery.forms.panel_for(game.game_key,
                                                                              o.prompt.free_form)
        if (asked == {seat} and not mine and {s for s, _, _ in update.actions} == {seat}
                and chapter_of(before.view(None)) == chapter_of(update.snap.view(None))):
            if form:  # a game's own form is where that decision is made: DMed all the same
                posts = [b for m, b in requests_to(env, start, dm) if m == "POST"]
                assert len(posts) == 1 and posts[0].get("components"), posts
            else:
                # their next decision in the same turn: no DM request at all for them…
                assert requests_to(env, start, dm) == [], requests_to(env, start, dm)
                # …and the board names them as the one awaited
                assert game.seats[seat].name in update.snap.waiting_text()
                again += 1
        for s in asked - {seat}:  # a decision for the other player: a new DM with Decide
            their_dm = humans[game.seats[s].user_id].user.dm_channel.id
            posts = [b for m, b in requests_to(env, start, their_dm) if m == "POST"]
            assert len(posts) == 1 and posts[0].get("components"), posts
            other += 1
        if again >= 5 and other >= 5:
            break
    assert again >= 5 and other >= 5, (again, other)


@pytest.mark.usefixtures("sketchy_images")
async def test_a_hand_dm_edit_that_would_change_nothing_is_not_made(
        simcord_env: simcord.Env, simcord_bot: HeraldBot, monkeypatch: pytest.MonkeyPatch) -> None:
    env, bot = simcord_env, simcord_bot
    _, _, (alice, _) = await open_seeded_table(env, bot, "petition", 2)
    game_id = (await bot.storage.list_games())[0].id
    delivery: Any = bot.sessions.delivery
    snap = await bot.sessions.snapshot(game_id)
    seat = snap.game.seat_of(alice.id)
    dm = alice.user.dm_channel.id
    drawn: list[int] = []
    real = delivery.render.draw

    async def counting(fn: Any, *args: Any) -> Any:
        drawn.append(1)
        return await real(fn, *args)

    monkeypatch.setattr(delivery.render, "draw", counting)
    start = len(env.backend.transcript)
    await delivery.refresh_hand(snap, seat, [], post=False)  # what the DM shows already
    assert requests_to(env, start, dm) == []
    assert drawn == []  # (the same view: the hand image is not drawn again either)
    # a line for them changes the text, not the image: edited, the image not uploaded again
    await delivery.refresh_hand(snap, seat, ["You draw a card."], post=False)
    sent = requests_to(env, start, dm)
    assert [m for m, _ in sent] == ["PATCH"]
    assert "You draw a card." in sent[0][1]["content"]
    assert "attachments" not in sent[0][1], sent[0][1]
    message = alice.user.dm_channel.history()[-1]
    assert [a.filename for a in message.attachments] == ["hand.png"]  # (the image stays)


@pytest.mark.usefixtures("sketchy_images")
async def test_a_flick_of_faith_game_posts_at_most_one_thread_message_per_two_decisions(
        simcord_env: simcord.Env, simcord_bot: HeraldBot) -> None:
    env, bot = simcord_env, simcord_bot
    _, thread, (alice, bob) = await open_seeded_table(env, bot, "flick_of_faith", 1)
    humans = {alice.id: alice, bob.id: bob}
    game_id = (await bot.storage.list_games())[0].id
    start = len(env.backend.transcript)
    decisions = 0
    for _ in range(400):
        if (await bot.sessions.snapshot(game_id)).game.status != "active":
            break
        await answer(bot, game_id, humans)
        decisions += 1
    else:
        pytest.fail("the game did not end")
    board = (await stored_game(bot, game_id)).board_message_id
    posts = [b for m, b in requests_to(env, start, thread.id) if m == "POST"]
    edits = [b for m, b in requests_to(env, start, thread.id) if m == "PATCH"]
    assert board is not None and len(edits) <= decisions  # one board edit per decision at most
    assert len(posts) <= decisions / 2, (len(posts), decisions)


@pytest.mark.usefixtures("sketchy_images")
async def test_the_board_link_is_never_a_thread_message_of_its_own(
        simcord_env: simcord.Env, simcord_bot: HeraldBot) -> None:
    env, bot = simcord_env, simcord_bot
    _, thread, players, game_id = await open_humans_table(env, bot, "cult_wars", ("ann", "bob", "cal"), 1)
    humans = {p.id: p for p in players}
    for _ in range(400):
        if (await bot.sessions.snapshot(game_id)).game.status != "active":
            break
        await answer(bot, game_id, humans)
    else:
        pytest.fail("the game did not end")
    texts = [m.content for m in thread.history() if m.content]
    assert any(len(t) > 1500 for t in texts)  # (long reveals were told)
    assert not [t for t in texts if t.startswith("[board](")], texts
    assert all(len(t) <= 2000 for t in texts)


@pytest.mark.usefixtures("sketchy_images")
async def test_what_a_players_own_click_drew_is_its_follow_up_not_a_hand_dm_edit(
        simcord_env: simcord.Env, simcord_bot: HeraldBot) -> None:
    """Petition: a player's own turn draws them cards. Made from the board, the choice form's
    answer is the board; the cards drawn ("You draw …") are a follow-up only they see — an
    interaction request — instead of an edit of their hand DM, which catches up with their next
    DM."""
    env, bot = simcord_env, simcord_bot
    _, thread, players, game_id = await open_humans_table(env, bot, "petition", ("ann", "bob"), 1)
    by_id = {p.id: p for p in players}
    whispered = 0
    for _ in range(60):
        snap = await bot.sessions.snapshot(game_id)
        o = snap.open[0]
        uid = snap.game.seats[o.seat].user_id
        assert uid is not None
        rng = random.Random(f"human/{snap.game.version}/{o.seat}")
        action = await bot.sessions.cpu(snap.engine.bot_action, snap.view(o.seat), o.prompt, rng)
        idx = next((i for i, c in enumerate(o.prompt.choices) if dict(c.action) == dict(action)), None)
        board = board_of(thread)
        if idx is None or o.prompt.free_form is not None or board is None:
            await bot.sessions.act(game_id, o.seat, action, user_id=uid, answers=o.ticket)
            continue
        member = by_id[uid]
        shown = await member.click(board, label="Decide")
        if shown.modal is None:
            await bot.sessions.act(game_id, o.seat, action, user_id=uid, answers=o.ticket)
            continue
        start = len(env.http_requests)
        sent = await member.submit_modal(shown, form_answer(shown, str(idx)))
        drawn = [f for f in sent.followups if "You draw" in (f.content or "")]
        if drawn:
            whispered += 1
            dm = member.user.dm_channel
            assert dm is not None
            assert not [e for e in env.http_requests[start:] if e.path.startswith(f"/channels/{dm.id}/")]
            assert all(f.ephemeral for f in drawn)  # (only they see it)
            hand = await bot.sessions.snapshot(game_id)
            assert any(line.split("You draw ")[1].split(" and ")[0].rstrip(".") in str(hand.view(o.seat))
                       for f in drawn for line in (f.content or "").splitlines() if "You draw " in line)
        if whispered >= 2:
            break
    assert whispered >= 2, "no click drew cards"
