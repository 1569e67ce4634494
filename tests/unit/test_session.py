"""Sessions on a real SQLite file with the High Card Duel test game: tables, play, races, computer
players, replay, timeouts and administration."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.errors import Contention, StaleAction, TableError
from bot.session import Sessions, Ticket, Update, parse_deadline
from bot.storage import DeadlineRow, GuildSettings, SqliteStorage, StorageBusy, VersionConflict
from rules.engine import GameOver, IllegalAction, InvalidOptions, NotYourTurn, RulesError
from tests.support.sessions import CONFIG, GUEST, HOST, THIRD, Clock, Env, Recorder, session_env


@pytest.fixture
async def env(tmp_path: Path) -> AsyncIterator[Env]:
    async with session_env(tmp_path) as e:
        yield e


async def _table(env: Env, *, bots: int = 0, guests: int = 1, seed: int = 11, **kw: Any) -> int:
    table = await env.sessions.open_table(guild_id=5, channel_id=6, host_id=HOST, host_name="Ada",
                                          game_key="duel", bots=bots, seed=seed, **kw)
    for user in (GUEST, THIRD)[:guests]:
        await env.sessions.join(table.id, user, f"user{user}")
    return table.id


async def _started(env: Env, **kw: Any) -> int:
    gid = await _table(env, **kw)
    await env.sessions.start(gid, HOST)
    return gid


async def _ticket(env: Env, gid: int, seat: int) -> Ticket:
    """What a menu drawn now for ``seat`` would carry."""
    mine = (await env.sessions.snapshot(gid)).prompt_of(seat)
    assert mine is not None
    return mine.ticket


async def _deadline(env: Env, gid: int, seat: int) -> DeadlineRow:
    return next(d for d in await env.storage.deadlines(gid) if d.seat == seat)


async def _bid(env: Env, gid: int, seat: int) -> dict[str, Any]:
    game = await env.sessions.get(gid)
    hand = (await env.sessions.snapshot(game)).view(seat)["private"]["hand"]
    return {"type": "bid", "card": hand[0]}


# ------------------------------------------------------------------------------ parsing

@pytest.mark.parametrize("text, seconds", [
    ("90m", 5400), ("2h", 7200), ("1d", 86400), ("45m", 2700), (" 12H ", 43200), ("600", 600),
    (120, 120), (None, None), ("", None), ("14d", 14 * 86400)])
def test_deadlines_are_parsed(text: Any, seconds: int | None) -> None:
    assert parse_deadline(text) == seconds


@pytest.mark.parametrize("text", ["30s", "15d", "59", 10**9])
def test_deadlines_out_of_range_are_refused(text: Any) -> None:
    with pytest.raises(TableError, match="out of range"):
        parse_deadline(text)


def test_a_deadline_that_is_not_a_duration_is_refused() -> None:
    with pytest.raises(TableError, match="soon"):
        parse_deadline("soon")


# ------------------------------------------------------------------------------ tables

async def test_players_join_and_leave_a_table(env: Env) -> None:
    gid = await _table(env, guests=2)
    game = await env.sessions.get(gid)
    assert [(s.seat, s.user_id) for s in game.seats] == [(0, HOST), (1, GUEST), (2, THIRD)]
    with pytest.raises(TableError, match="already seated"):
        await env.sessions.join(gid, GUEST, "again")
    game = await env.sessions.leave(gid, GUEST)
    assert [(s.seat, s.user_id) for s in game.seats] == [(0, HOST), (1, THIRD)]
    with pytest.raises(TableError, match="not seated"):
        await env.sessions.leave(gid, GUEST)
    with pytest.raises(TableError, match="host cannot leave"):
        await env.sessions.leave(gid, HOST)


async def test_a_full_table_refuses_more_players(env: Env) -> None:
    gid = await _table(env, guests=2, bots=1)
    with pytest.raises(TableError, match="full .4 seats"):
        await env.sessions.join(gid, 9999, "late")
    with pytest.raises(TableError, match="full"):
        await env.sessions.add_bot(gid, HOST)
    with pytest.raises(TableError, match="at most 4"):
        await env.sessions.open_table(guild_id=5, channel_id=6, host_id=HOST, host_name="Ada",
                                      game_key="duel", bots=4)


async def test_only_the_host_starts_adds_bots_or_cancels(env: Env) -> None:
    gid = await _table(env)
    with pytest.raises(TableError, match="only the host"):
        await env.sessions.start(gid, GUEST)
    with pytest.raises(TableError, match="only the host"):
        await env.sessions.add_bot(gid, GUEST)
    with pytest.raises(TableError, match="only the host"):
        await env.sessions.cancel(gid, GUEST)
    assert (await env.sessions.get(gid)).status == "lobby"
    game = await env.sessions.cancel(gid, GUEST, is_admin=True)
    assert game.status == "cancelled"
    with pytest.raises(TableError, match="already started or closed"):
        await env.sessions.join(gid, THIRD, "late")


async def test_too_few_players_are_refused_with_a_clear_message(env: Env) -> None:
    gid = await _table(env, guests=0)
    with pytest.raises(TableError, match="needs at least 2 players; 1 seated"):
        await env.sessions.start(gid, HOST)
    assert (await env.sessions.get(gid)).status == "lobby"


async def test_an_unknown_game_is_refused_naming_the_known_games(env: Env) -> None:
    with pytest.raises(InvalidOptions, match=r"unknown game 'chess'.*duel"):
        await env.sessions.open_table(guild_id=5, channel_id=6, host_id=HOST, host_name="Ada",
                                      game_key="chess")
    assert await env.storage.list_games() == []


async def test_unknown_options_and_bad_deadlines_open_no_table(env: Env) -> None:
    with pytest.raises(InvalidOptions, match="turbo"):
        await env.sessions.open_table(guild_id=5, channel_id=6, host_id=HOST, host_name="Ada",
                                      game_key="duel", options={"turbo": True})
    with pytest.raises(TableError, match="out of range"):
        await env.sessions.open_table(guild_id=5, channel_id=6, host_id=HOST, host_name="Ada",
                                      game_key="duel", deadline="20d")
    assert await env.storage.list_games() == []


async def test_start_sets_deadlines_for_human_prompts_only(env: Env) -> None:
    gid = await _started(env, bots=1, deadline="2h")
    game = await env.sessions.get(gid)
    assert game.status == "active" and game.version >= 1
    rows = await env.storage.deadlines(gid)
    assert [(d.seat, d.kind) for d in rows] == [(0, "bid"), (2, "bid")]  # seat 1 is the computer
    assert all(d.due_at == env.clock.t + 7200 and d.remind_at == env.clock.t + 7200 - 600
               for d in rows)
    with pytest.raises(TableError, match="already started"):
        await env.sessions.start(gid, HOST)


async def test_the_guild_default_deadline_applies_when_the_table_sets_none(env: Env) -> None:
    await env.storage.save_guild_settings(GuildSettings(5, default_deadline=7200, reminder_lead=60))
    gid = await _started(env)
    assert {(d.due_at, d.remind_at) for d in await env.storage.deadlines(gid)} == {
        (env.clock.t + 7200, env.clock.t + 7200 - 60)}


async def test_a_prompt_with_its_own_shorter_deadline_gets_it(env: Env, monkeypatch: pytest.MonkeyPatch) -> None:
    """A prompt's ``deadline`` (a reaction window) caps the table's deadline; a longer one does
    not stretch it; the reminder still comes before the due time."""
    import dataclasses

    from tests.support import duel

    caps = {0: 600, 1: 86400}  # seat 0: ten minutes; seat 1: longer than the table's two hours
    plain = duel.DuelEngine.prompts

    def capped(self: duel.DuelEngine, s: duel.DuelState) -> list[Any]:
        return [dataclasses.replace(p, deadline=caps.get(p.seat)) for p in plain(self, s)]

    monkeypatch.setattr(duel.DuelEngine, "prompts", capped)
    gid = await _started(env, guests=2, deadline="2h")
    rows = {d.seat: d for d in await env.storage.deadlines(gid)}
    now = env.clock.t
    assert rows[0].remind_at is not None
    assert rows[0].due_at == now + 600 and now < rows[0].remind_at < now + 600
    assert rows[1].due_at == now + 7200 and rows[1].remind_at == now + 7200 - 600
    assert rows[2].due_at == now + 7200  # no deadline of its own: the table's


# ------------------------------------------------------------------------------ play

async def test_an_action_is_applied_persisted_and_delivered(env: Env) -> None:
    gid = await _started(env)
    action = await _bid(env, gid, 0)
    update = await env.sessions.act(gid, 0, action, user_id=HOST, answers=await _ticket(env, gid, 0))
    assert update.actions == [(0, action, "player")]
    assert update.game.version == 2
    assert [e.text for e in update.events] == [f"You bid {action['card']}.", "P1 has bid."]
    assert env.delivery.updates[-1] is update
    game = await env.sessions.get(gid)
    assert (await env.sessions.snapshot(game)).view(None)["bid_submitted"] == [0]
    assert await env.storage.actions(gid) == [(0, action, "player")]
    assert [(d.seat, d.kind) for d in await env.storage.deadlines(gid)] == [(1, "bid")]
    assert [e.text for e in await env.storage.events(gid, viewer_seat=1)] == ["P1 has bid."]


async def test_an_open_prompt_keeps_its_deadline_and_a_new_round_gets_fresh_ones(env: Env) -> None:
    gid = await _started(env)
    start = env.clock.t
    env.clock.t = start + 600
    await env.sessions.act(gid, 0, {"type": "bid", "card": 3})
    assert [(d.seat, d.due_at) for d in await env.storage.deadlines(gid)] == [(1, start + 3600)]
    env.clock.t = start + 3000
    await env.sessions.act(gid, 1, {"type": "bid", "card": 3})  # a tie: round 2, both bid again
    game = await env.sessions.get(gid)
    assert (await env.sessions.snapshot(game)).view(None)["round"] == 2
    assert [(d.seat, d.kind, d.due_at) for d in await env.storage.deadlines(gid)] == [
        (0, "bid", start + 3000 + 3600), (1, "bid", start + 3000 + 3600)]


@pytest.mark.parametrize("seat, action, error", [
    (0, {"type": "bid", "card": 9}, IllegalAction),
    (0, {"type": "gold"}, IllegalAction),
    (3, {"type": "bid", "card": 1}, NotYourTurn),
])
async def test_a_bad_action_raises_a_rules_error_and_changes_nothing(
        env: Env, seat: int, action: dict[str, Any], error: type[RulesError]) -> None:
    gid = await _started(env)
    before = await env.sessions.get(gid)
    with pytest.raises(error):
        await env.sessions.act(gid, seat, action)
    after = await env.sessions.get(gid)
    assert (after.version, after.state) == (before.version, before.state)
    assert await env.storage.actions(gid) == []


async def test_acting_twice_on_one_prompt_is_out_of_turn(env: Env) -> None:
    gid = await _started(env)
    await env.sessions.act(gid, 0, await _bid(env, gid, 0))
    before = await env.sessions.get(gid)
    with pytest.raises(NotYourTurn, match="seat 0 has nothing to decide"):
        await env.sessions.act(gid, 0, {"type": "bid", "card": 5})
    assert (await env.sessions.get(gid)).state == before.state


async def test_another_seats_move_never_makes_my_open_decision_stale(env: Env) -> None:
    gid = await _started(env)
    t0, t1 = await _ticket(env, gid, 0), await _ticket(env, gid, 1)  # both menus drawn at version 1
    await env.sessions.act(gid, 0, await _bid(env, gid, 0), answers=t0)
    await env.sessions.act(gid, 1, await _bid(env, gid, 1), answers=t1)
    assert [s for s, _, _ in await env.storage.actions(gid)] == [0, 1]


async def test_a_menu_for_an_answered_decision_is_refused_and_applies_nothing(env: Env) -> None:
    gid = await _started(env, options={"fast": False})
    t0 = await _ticket(env, gid, 0)
    await env.sessions.act(gid, 0, {"type": "bid", "card": 3}, answers=t0)
    await env.sessions.act(gid, 1, {"type": "bid", "card": 3})  # a tie: round 2 asks seat 0 again
    assert (await env.sessions.snapshot(gid)).prompt_of(0) is not None
    with pytest.raises(StaleAction, match="already answered") as refused:
        await env.sessions.act(gid, 0, {"type": "bid", "card": 5}, answers=t0)
    assert refused.value.answered
    assert len(await env.storage.actions(gid)) == 2  # never applied to the round-2 decision


async def test_a_menu_drawn_from_other_options_is_refused(env: Env) -> None:
    gid = await _started(env)
    t0 = await _ticket(env, gid, 0)
    with pytest.raises(StaleAction, match="options changed") as refused:
        await env.sessions.act(gid, 0, await _bid(env, gid, 0), answers=Ticket(t0.opened, "0000000000"))
    assert not refused.value.answered
    assert await env.storage.actions(gid) == []


async def test_acting_in_a_lobby_or_finished_game_is_refused(env: Env) -> None:
    gid = await _table(env)
    with pytest.raises(TableError, match="not started"):
        await env.sessions.act(gid, 0, {"type": "bid", "card": 1})
    await env.sessions.start(gid, HOST)
    await env.sessions.end(gid, "the host ended it")
    with pytest.raises(TableError, match="not running"):
        await env.sessions.act(gid, 0, {"type": "bid", "card": 1})


async def test_two_seats_deciding_at_the_same_moment_both_count(env: Env) -> None:
    gid = await _started(env)
    a0, a1 = await _bid(env, gid, 0), await _bid(env, gid, 1)
    t0, t1 = await _ticket(env, gid, 0), await _ticket(env, gid, 1)
    outcomes = await asyncio.gather(
        env.sessions.act(gid, 0, a0, answers=t0),
        env.sessions.act(gid, 1, a1, answers=t1),
        return_exceptions=True)
    assert all(isinstance(o, Update) for o in outcomes)
    assert sorted(s for s, _, _ in await env.storage.actions(gid)) == [0, 1]
    assert (await env.sessions.get(gid)).version == 3


async def test_the_same_click_twice_at_once_is_applied_once(env: Env) -> None:
    gid = await _started(env)
    a0 = await _bid(env, gid, 0)
    t0 = await _ticket(env, gid, 0)
    outcomes = await asyncio.gather(*(env.sessions.act(gid, 0, a0, answers=t0)
                                      for _ in range(3)), return_exceptions=True)
    assert sum(isinstance(o, Update) for o in outcomes) == 1
    assert all(isinstance(o, (Update, StaleAction)) for o in outcomes)
    assert await env.storage.actions(gid) == [(0, a0, "player")]


async def test_simultaneous_secret_prompts_of_different_seats_both_apply(env: Env) -> None:
    gid = await _started(env, guests=2)
    bids = [await _bid(env, gid, seat) for seat in range(3)]
    outcomes = await asyncio.gather(*(env.sessions.act(gid, seat, bids[seat]) for seat in range(3)))
    assert all(isinstance(o, Update) for o in outcomes)
    logged = await env.storage.actions(gid)
    assert sorted((s, a["card"]) for s, a, _ in logged) == sorted((s, b["card"]) for s, b in enumerate(bids))
    game = await env.sessions.get(gid)
    assert game.version == 4
    assert (await env.sessions.snapshot(game)).view(None)["last_reveal"] == {str(s): b["card"] for s, b in enumerate(bids)}
    assert await env.sessions.verify_replay(gid)


async def test_computer_players_answer_their_prompts(env: Env) -> None:
    gid = await _started(env, guests=0, bots=1)
    game = await env.sessions.get(gid)
    assert (await env.sessions.snapshot(game)).view(None)["bid_submitted"] == [1]
    assert [(s, o) for s, _, o in await env.storage.actions(gid)] == [(1, "bot")]
    assert [p.seat for p in (await env.sessions.snapshot(game)).prompts] == [0]
    # the human decides every time; the computer answers everything else, to the end
    while game.status == "active":
        prompt = (await env.sessions.snapshot(game)).prompts[0]
        assert prompt.seat == 0
        game = (await env.sessions.act(gid, 0, dict(prompt.choices[0].action))).game
    assert game.result is not None
    assert {o for _, _, o in await env.storage.actions(gid)} == {"player", "bot"}
    assert await env.storage.deadlines(gid) == []


async def test_a_game_of_computer_players_plays_itself_to_the_end(env: Env) -> None:
    table = await env.sessions.open_table(guild_id=None, channel_id=None, host_id=None, host_name="",
                                          game_key="duel", bots=4, seed=3, host_plays=False)
    update = await env.sessions.start(table.id, None)
    assert update.game.status == "finished" and update.result is not None
    assert await env.sessions.verify_replay(table.id)


async def test_replaying_the_log_reproduces_the_stored_state(env: Env) -> None:
    gid = await _started(env, guests=2, seed=77)
    game = await env.sessions.get(gid)
    while game.status == "active":
        prompt = (await env.sessions.snapshot(game)).prompts[0]
        game = (await env.sessions.act(gid, prompt.seat, dict(prompt.choices[-1].action),
                                       answers=await _ticket(env, gid, prompt.seat))).game
        assert await env.sessions.verify_replay(gid)
    with pytest.raises(TableError):
        await env.sessions.act(gid, 0, {"type": "gold"})


async def test_replay_notices_a_tampered_state(env: Env) -> None:
    gid = await _started(env)
    await env.sessions.act(gid, 0, await _bid(env, gid, 0))
    game = await env.sessions.get(gid)
    assert game.state is not None
    tampered = dict(game.state, points=[99, 0])
    env.storage.db.raw.execute("UPDATE games SET state=? WHERE id=?", (json.dumps(tampered), gid))
    env.storage.forget(gid)  # (written behind the storage's back)
    assert not await env.sessions.verify_replay(gid)


# ------------------------------------------------------------------------------ timeouts

async def test_a_timeout_applies_the_engine_timeout_action_and_says_so(env: Env) -> None:
    gid = await _started(env)
    hand = (await env.sessions.snapshot(await env.sessions.get(gid))).view(1)["private"]["hand"]
    update = await env.sessions.timeout(await _deadline(env, gid, 1))
    assert update is not None and update.kind == "timeout"
    assert update.actions == [(1, {"type": "bid", "card": min(hand)}, "timeout")]
    assert "ran out of time" in update.events[0].text and "lowest card" in update.events[0].text
    assert await env.storage.actions(gid) == [(1, {"type": "bid", "card": min(hand)}, "timeout")]
    assert [(d.seat, d.kind) for d in await env.storage.deadlines(gid)] == [(0, "bid")]
    assert await env.sessions.verify_replay(gid)


async def test_a_timeout_for_an_answered_prompt_only_drops_its_deadline(env: Env) -> None:
    gid = await _started(env)
    await env.sessions.act(gid, 0, await _bid(env, gid, 0))
    # a deadline left over from before the answer (e.g. read by the scheduler just before)
    stale = DeadlineRow(gid, 0, "bid", env.clock.t, None, False, 1)
    await env.storage.replace_deadlines(gid, [stale, *await env.storage.deadlines(gid)])
    before = await env.sessions.get(gid)
    assert await env.sessions.timeout(stale) is None
    assert (await env.sessions.get(gid)).version == before.version
    assert [(d.seat, d.kind) for d in await env.storage.deadlines(gid)] == [(1, "bid")]


async def test_a_timeout_on_an_ended_game_clears_its_deadlines(env: Env) -> None:
    gid = await _started(env)
    deadline = await _deadline(env, gid, 0)
    await env.storage.update_game(gid, status="cancelled")
    assert await env.sessions.timeout(deadline) is None
    assert await env.storage.deadlines(gid) == []


# ------------------------------------------------------------------------------ administration

async def test_a_seat_given_to_a_computer_player_answers_at_once(env: Env) -> None:
    gid = await _started(env, guests=2)
    update = await env.sessions.replace_seat(gid, 2, user_id=None, name="Computer",
                                             reason="user1003 was replaced by a computer player")
    assert update.kind == "admin" and update.events[0].text.startswith("user1003 was replaced")
    assert [(s, o) for s, _, o in update.actions] == [(2, "bot")]
    game = update.game
    assert game.seats[2].is_bot and game.seats[2].user_id is None
    assert [(d.seat, d.kind) for d in await env.storage.deadlines(gid)] == [(0, "bid"), (1, "bid")]


async def test_a_seat_can_pass_to_another_member_but_not_to_a_seated_one(env: Env) -> None:
    gid = await _started(env)
    with pytest.raises(TableError, match="already has a seat"):
        await env.sessions.replace_seat(gid, 1, user_id=HOST, name="Ada", reason="x")
    with pytest.raises(TableError, match="no seat 9"):
        await env.sessions.replace_seat(gid, 8, user_id=4444, name="Zed", reason="x")
    update = await env.sessions.replace_seat(gid, 1, user_id=4444, name="Zed", reason="Zed takes over")
    assert update.game.seat_of(4444) == 1 and update.game.seat_of(GUEST) is None
    await env.sessions.act(gid, 1, await _bid(env, gid, 1), user_id=4444)


async def test_replacing_the_last_human_ends_the_game(env: Env) -> None:
    gid = await _started(env, guests=0, bots=1)
    update = await env.sessions.replace_seat(gid, 0, user_id=None, name="Computer", reason="Ada left")
    assert update.game.status == "finished" and update.result is not None
    assert "every human player has left" in update.result.reason
    assert await env.storage.deadlines(gid) == []


async def test_ending_a_game_records_the_reason_and_clears_deadlines(env: Env) -> None:
    gid = await _started(env)
    update = await env.sessions.end(gid, "the host ended the game")
    assert update.kind == "end" and update.game.status == "finished"
    assert update.game.result == {"winners": [], "scores": {}, "reason": "the host ended the game"}
    assert await env.storage.deadlines(gid) == []
    with pytest.raises(TableError, match="already over"):
        await env.sessions.end(gid, "again")


async def test_a_draining_session_takes_no_new_actions(env: Env) -> None:
    gid = await _started(env)
    await env.sessions.drain(timeout=1.0)
    with pytest.raises(TableError, match="restarting"):
        await env.sessions.act(gid, 0, await _bid(env, gid, 0))
    assert await env.storage.actions(gid) == []


async def test_game_over_is_reported_by_the_engine(env: Env, duel_engine: Any) -> None:
    state = duel_engine.setup(2, 1, {"fast": True})
    state, _ = duel_engine.apply(state, 0, {"type": "bid", "card": 5})
    state, _ = duel_engine.apply(state, 1, {"type": "bid", "card": 5})
    assert duel_engine.result(state) is not None
    with pytest.raises(GameOver):
        duel_engine.apply(state, 0, {"type": "gold"})


async def test_the_last_to_answer_gets_the_next_round_as_a_new_decision(env: Env) -> None:
    """Both bid the same card: nobody wins, the next round opens at once. The seat that answered
    last is asked again, and that is a new prompt (announced and DMed), not the old one."""
    gid = await _started(env, options={"fast": False})
    await env.sessions.act(gid, 0, {"type": "bid", "card": 3})
    update = await env.sessions.act(gid, 1, {"type": "bid", "card": 3})
    assert "No unique bid" in " ".join(e.text for e in update.events)
    assert {(o.seat, o.prompt.kind) for o in update.new_prompts} == {(0, "bid"), (1, "bid")}


# ------------------------------------------------------------------- races between processes

async def test_a_race_lost_to_another_process_is_retried_from_a_fresh_read(
        env: Env, monkeypatch: pytest.MonkeyPatch) -> None:
    gid = await _started(env)
    real = env.storage.commit_action
    calls: list[int] = []

    async def lose_once(*args: Any, **kwargs: Any) -> int:
        calls.append(1)
        if len(calls) == 1:
            raise VersionConflict("another process committed first")
        return await real(*args, **kwargs)

    monkeypatch.setattr(env.storage, "commit_action", lose_once)
    action = await _bid(env, gid, 0)
    update = await env.sessions.act(gid, 0, action, answers=await _ticket(env, gid, 0))
    assert update.actions == [(0, action, "player")] and len(calls) == 2
    assert await env.storage.actions(gid) == [(0, action, "player")]


async def test_a_race_lost_every_time_is_one_clear_refusal(env: Env, monkeypatch: pytest.MonkeyPatch) -> None:
    gid = await _started(env)

    async def always_lose(*args: Any, **kwargs: Any) -> int:
        raise VersionConflict("another process committed first")

    monkeypatch.setattr(env.storage, "commit_action", always_lose)
    with pytest.raises(Contention, match="at the same moment"):
        await env.sessions.act(gid, 0, await _bid(env, gid, 0))
    assert await env.storage.actions(gid) == []


async def test_a_deadline_fires_only_on_the_decision_it_belongs_to(env: Env) -> None:
    """The scheduler read seat 0's deadline; seat 0 answered, and the tie asked it again (a new
    decision). The old deadline must not answer the new decision at once."""
    gid = await _started(env, options={"fast": False})
    old = await _deadline(env, gid, 0)
    await env.sessions.act(gid, 0, {"type": "bid", "card": 3})
    await env.sessions.act(gid, 1, {"type": "bid", "card": 3})  # a tie: both are asked again
    before = await env.sessions.get(gid)
    assert (await env.sessions.snapshot(gid)).prompt_of(0) is not None
    assert await env.sessions.timeout(old) is None
    after = await env.sessions.get(gid)
    assert after.version == before.version
    fresh = await _deadline(env, gid, 0)
    assert fresh.opened == after.opened[0] != old.opened


async def test_a_move_stored_before_the_computer_fails_stands_and_the_game_resumes(
        env: Env, monkeypatch: pytest.MonkeyPatch) -> None:
    """The player's move commits; the computer player's answer then hits a locked database. The
    player's move is not reported as lost, and ``resume`` lets the computer answer later."""
    gid = await _started(env, guests=0, bots=1)
    real = env.storage.commit_action
    calls: list[int] = []

    async def locked_on_the_second(*args: Any, **kwargs: Any) -> int:
        calls.append(1)
        if len(calls) == 2:
            raise StorageBusy("the database is locked by another process.")
        return await real(*args, **kwargs)

    monkeypatch.setattr(env.storage, "commit_action", locked_on_the_second)
    action = await _bid(env, gid, 0)
    update = await env.sessions.act(gid, 0, action)  # no exception: the move is stored
    assert update.actions == [(0, action, "player")]
    assert gid in env.sessions.stalled
    assert update.stalled  # the reply says the move was stored and the computer answers shortly
    snap = await env.sessions.snapshot(gid, touch=False)  # looking without touching (no resume)
    assert [o.seat for o in snap.open] == [1]  # only the computer is awaited
    assert await env.sessions.resume() == 1
    assert gid not in env.sessions.stalled
    seats = [s for s, _, _ in await env.storage.actions(gid)]
    assert seats[:3] == [1, 0, 1]  # the computer's opening bid, the player's, the resumed answer
    after = await env.sessions.snapshot(gid)
    assert after.game.status == "finished" or any(o.seat == 0 for o in after.open)


# ------------------------------------------------------------ games waiting on computer players

def _computer_commits_locked(env: Env, monkeypatch: pytest.MonkeyPatch, games: set[int] | None = None
                             ) -> dict[str, bool]:
    """While ``locked["on"]``, storing a computer player's answer (in one of ``games``, or any)
    meets a locked database."""
    locked = {"on": True}
    real = env.storage.commit_action

    async def commit_action(game_id: int, **kwargs: Any) -> Any:
        if locked["on"] and kwargs.get("origin") == "bot" and (games is None or game_id in games):
            raise StorageBusy("the database is locked by another process.")
        return await real(game_id, **kwargs)

    monkeypatch.setattr(env.storage, "commit_action", commit_action)
    return locked


async def _awaited(env: Env, gid: int) -> list[int]:
    return [o.seat for o in (await env.sessions.snapshot(gid, touch=False)).open]


async def _eventually(check: Any) -> None:
    """Wait (briefly) for background work: ``check()`` becomes true."""
    for _ in range(200):
        if await check():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("never happened")


async def test_touching_a_game_waiting_on_its_computer_players_resumes_it(
        env: Env, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game a failure left waiting on the computer is resumed by the next read of it — also by
    an action, which holds the game's lock while reading (no deadlock: the resume waits for it)."""
    gid = await _started(env, guests=0, bots=1)
    locked = _computer_commits_locked(env, monkeypatch)
    await env.sessions.act(gid, 0, await _bid(env, gid, 0))
    env.sessions.stalled.clear()  # as after a restart: nothing remembers the failure
    assert await _awaited(env, gid) == [1]
    locked["on"] = False

    with pytest.raises(RulesError):  # seat 0 has nothing to do; its read touches the game
        await asyncio.wait_for(env.sessions.act(gid, 0, {"type": "gold"}), 5)

    async def moved() -> bool:
        return await _awaited(env, gid) != [1]

    await _eventually(moved)
    assert [o for _, _, o in await env.storage.actions(gid)][:3] == ["bot", "player", "bot"]
    assert env.delivery.updates[-1].actions[0][2] == "bot"  # the resumed answer was delivered


async def test_a_status_read_resumes_a_game_waiting_on_its_computer_players(
        env: Env, monkeypatch: pytest.MonkeyPatch) -> None:
    gid = await _started(env, guests=0, bots=1)
    locked = _computer_commits_locked(env, monkeypatch)
    await env.sessions.act(gid, 0, await _bid(env, gid, 0))
    locked["on"] = False
    snap = await env.sessions.snapshot(gid)  # answers at once with what is stored…
    assert [o.seat for o in snap.open] == [1]

    async def moved() -> bool:  # …and the computer answers in the background
        return await _awaited(env, gid) != [1]

    await _eventually(moved)
    assert gid not in env.sessions.stalled


async def test_computer_players_failing_after_a_timeout_leave_the_game_stalled_not_broken(
        env: Env, monkeypatch: pytest.MonkeyPatch) -> None:
    gid = await _started(env, guests=0, bots=1)
    deadline = await _deadline(env, gid, 0)
    locked = _computer_commits_locked(env, monkeypatch)
    env.clock.t = deadline.due_at
    update = await env.sessions.timeout(deadline)  # the timeout is stored; the computer fails
    assert update is not None and update.stalled and update.actions[0][2] == "timeout"
    assert gid in env.sessions.stalled
    locked["on"] = False
    assert await env.sessions.resume([gid]) == 1
    assert [o for _, _, o in await env.storage.actions(gid)][:3] == ["bot", "timeout", "bot"]


async def test_a_game_that_cannot_resume_does_not_hold_up_the_others(
        env: Env, monkeypatch: pytest.MonkeyPatch) -> None:
    first = await _started(env, guests=0, bots=1)
    second = await _started(env, guests=0, bots=1, seed=12)
    locked = _computer_commits_locked(env, monkeypatch)
    await env.sessions.act(first, 0, await _bid(env, first, 0))
    await env.sessions.act(second, 0, await _bid(env, second, 0))
    locked["on"] = False
    _computer_commits_locked(env, monkeypatch, games={first})  # the first stays locked
    assert await env.sessions.resume() == 1  # the second moved on although the first failed
    assert first in env.sessions.stalled and second not in env.sessions.stalled
    assert await _awaited(env, first) == [1]
    assert await _awaited(env, second) != [1]


# ------------------------------------------------------------------ work done per step

class _Forgetful(dict[int, Any]):
    """A memory that keeps nothing: the session computes everything afresh each step."""

    def __setitem__(self, key: int, value: Any) -> None:
        return None


async def _play_out(env: Env, *, forgetful: bool) -> list[tuple[set[int], set[int]]]:
    """A whole game against a computer player: what each call's update says changed privately."""
    if forgetful:
        env.sessions._privates = _Forgetful()
    gid = await _started(env, bots=1, guests=0)
    seen = []
    while (game := await env.sessions.get(gid)).status == "active":
        mine = (await env.sessions.snapshot(gid)).prompt_of(0)
        assert mine is not None
        update = await env.sessions.act(gid, 0, dict(mine.prompt.choices[0].action), user_id=HOST,
                                        answers=mine.ticket)
        seen.append((update.changed_private, update.changed_by_others))
        if len(seen) == 2:  # a session that starts afresh mid-game (a restart) knows nothing
            env.sessions = Sessions(env.storage, CONFIG, env.delivery, now=env.clock)
    assert game.status == "finished"
    return seen


async def test_views_remembered_from_the_last_step_find_the_same_changed_hands(tmp_path: Path) -> None:
    results = []
    for forgetful in (False, True):
        storage = SqliteStorage(str(tmp_path / f"herald-{forgetful}.db"))
        await storage.open()
        try:
            results.append(await _play_out(Env(Sessions(storage, CONFIG, Recorder(), now=Clock()),
                                               storage, Clock(), Recorder()), forgetful=forgetful))
        finally:
            await storage.close()
    assert results[0] == results[1]
    assert any(changed for changed, _ in results[0])


async def test_a_step_asks_the_engine_only_about_the_new_state(
        env: Env, monkeypatch: pytest.MonkeyPatch) -> None:
    gid = await _started(env)
    await env.sessions.act(gid, 0, await _bid(env, gid, 0), user_id=HOST)
    engine = env.sessions.engine(await env.sessions.get(gid))
    calls: dict[str, int] = {}
    for name in ("view", "prompts", "from_json"):
        real = getattr(engine, name)

        def counted(*args: Any, _real: Any = real, _name: str = name) -> Any:
            calls[_name] = calls.get(_name, 0) + 1
            return _real(*args)

        monkeypatch.setattr(engine, name, counted)
    action, ticket = await _bid(env, gid, 1), await _ticket(env, gid, 1)
    calls.clear()
    await env.sessions.act(gid, 1, action, user_id=GUEST, answers=ticket)
    # the state before was parsed, its prompts and seats' views known from the step that made it:
    # one view per seat, and the prompts of the state after (plus those ``apply`` itself asks for
    # to check the action)
    assert calls == {"view": 2, "prompts": 2}
    calls.clear()
    await env.sessions.snapshot(gid)
    assert calls == {}


async def test_only_so_many_games_keep_their_parsed_state(
        env: Env, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.session.KEPT_GAMES", 2)
    games = [await _started(env, seed=s) for s in (1, 2, 3)]
    assert list(env.sessions._parsed) == games[1:]
    assert set(env.sessions._prompts) <= set(games[1:])
    for gid in games:  # a forgotten game is parsed again, and plays on
        await env.sessions.act(gid, 0, await _bid(env, gid, 0), user_id=HOST)


async def test_a_burst_of_clicks_keeps_only_so_many_steps_in_flight(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.session.STEPS_IN_FLIGHT", 2)
    running, most = 0, 0

    async def run_cpu(fn: Any, *args: Any) -> Any:
        nonlocal running, most
        running += 1
        most = max(most, running)
        try:
            await asyncio.sleep(0.01)  # (every step is still under way when the next arrives)
            return fn(*args)
        finally:
            running -= 1

    storage = SqliteStorage(str(tmp_path / "herald.db"))
    await storage.open()
    try:
        await storage.save_guild_settings(GuildSettings(5, table_limit=20, member_table_limit=20))
        env = Env(Sessions(storage, CONFIG, Recorder(), now=Clock()), storage, Clock(), Recorder())
        games = [await _started(env, seed=s) for s in range(6)]
        bids = [await _bid(env, gid, 0) for gid in games]
        env.sessions._run_cpu = run_cpu
        updates = await asyncio.gather(*(env.sessions.act(gid, 0, bid, user_id=HOST)
                                         for gid, bid in zip(games, bids, strict=True)))
    finally:
        await storage.close()
    assert [u.steps for u in updates] == [1] * 6 and most == 2


# ------------------------------------------------------------------ rules revisions


async def test_a_table_records_the_rules_revision_its_game_is_played_by(env: Env) -> None:
    """An engine whose rules changed plays new tables under its current revision, and the
    table's stored options say so (a player cannot choose it; a rematch of a game played under
    earlier rules gets today's), so that every replay uses the rules the log was played by."""
    from rules import registry
    from rules.engine import REVISION_OPTION

    engine = registry.get("alternate_histories")
    assert engine.rules_revision > 1
    table = await env.sessions.open_table(guild_id=5, channel_id=6, host_id=HOST, host_name="Ada",
                                          game_key="alternate_histories", bots=1, seed=3)
    assert table.options[REVISION_OPTION] == engine.rules_revision
    rematch = await env.sessions.open_table(guild_id=5, channel_id=6, host_id=GUEST, host_name="Bo",
                                            game_key="alternate_histories", bots=1, seed=4,
                                            options={**table.options, REVISION_OPTION: 1})
    assert rematch.options[REVISION_OPTION] == engine.rules_revision
    duel = await env.sessions.open_table(guild_id=5, channel_id=6, host_id=THIRD, host_name="Cy",
                                         game_key="duel", seed=5)
    assert REVISION_OPTION not in duel.options  # a game with one revision records none
    await env.sessions.start(table.id, HOST)
    assert await env.sessions.verify_replay(table.id)
