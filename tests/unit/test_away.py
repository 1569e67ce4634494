"""Time away, pauses and quiet hours (``bot.away``) on real sessions over a SQLite file with the
High Card Duel test game: deadlines stretched past a return or covered by the computer player,
pauses that freeze the deadlines and end by themselves, reminders put off to the end of quiet
hours — and the parsing of what players type."""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.away import (
    DAY,
    MAX_PAUSE,
    TimeAway,
    parse_mode,
    parse_quiet,
    parse_until,
    parse_zone,
    pause_ends,
    quiet_end,
    stretched,
)
from bot.errors import TableError
from bot.session import Sessions
from bot.storage import DeadlineRow, GameRow, SqliteStorage
from bot.storage.base import GamePause, PlayerPrefs
from tests.support.sessions import CONFIG, GUEST, HOST, Clock, session_env

T0 = dt.datetime(2026, 11, 20, 12, 0, tzinfo=dt.UTC).timestamp()
"""Friday 20 November 2026, noon UTC."""


def at(text: str, tz: dt.tzinfo = dt.UTC) -> float:
    return dt.datetime.fromisoformat(text).replace(tzinfo=tz).timestamp()


@dataclass
class Env:
    sessions: Sessions
    storage: SqliteStorage
    clock: Clock
    away: TimeAway
    lines: list[tuple[int, str]]
    reminded: list[DeadlineRow]


@pytest.fixture
async def env(tmp_path: Path) -> AsyncIterator[Env]:
    lines: list[tuple[int, str]] = []
    reminded: list[DeadlineRow] = []

    async def post(game: GameRow, line: str) -> None:
        lines.append((game.id, line))

    async def remind(game: GameRow, deadline: DeadlineRow) -> None:
        reminded.append(deadline)

    async with session_env(tmp_path, clock=Clock(T0)) as base:
        away = TimeAway(base.sessions, post, remind)
        base.sessions.policy = away
        yield Env(base.sessions, base.storage, base.clock, away, lines, reminded)


async def _started(env: Env) -> int:
    table = await env.sessions.open_table(guild_id=5, channel_id=6, host_id=HOST, host_name="Ada",
                                          game_key="duel", seed=11)
    await env.sessions.join(table.id, GUEST, "Bo")
    await env.sessions.start(table.id, HOST)
    return table.id


async def _deadline(env: Env, gid: int, seat: int) -> DeadlineRow:
    return next(d for d in await env.storage.deadlines(gid) if d.seat == seat)


async def _bid(env: Env, gid: int, seat: int) -> dict[str, Any]:
    snap = await env.sessions.snapshot(gid)
    mine = snap.prompt_of(seat)
    assert mine is not None
    return dict(mine.prompt.choices[0].action)


# ------------------------------------------------------------------------------ parsing


def test_until_takes_dates_days_weekdays_and_lengths_in_the_players_zone() -> None:
    assert parse_until("2026-12-01", T0) == at("2026-12-01T00:00")
    assert parse_until("2026-12-01", T0, "+02:00") == at("2026-11-30T22:00")
    assert parse_until("2026-12-01", T0, "Europe/Berlin") == at("2026-11-30T23:00")
    assert parse_until("tomorrow", T0) == at("2026-11-21T00:00")
    assert parse_until("Friday", T0) == at("2026-11-27T00:00")  # (today is a Friday: the next one)
    assert parse_until("mon", T0) == at("2026-11-23T00:00")
    assert parse_until("in 3 days", T0) == T0 + 3 * DAY
    assert parse_until("2w", T0) == T0 + 14 * DAY
    assert parse_until(" 36h ", T0) == T0 + 36 * 3600


@pytest.mark.parametrize(("text", "says"), [
    ("someday", "`2026-12-01`, `in 3 days`"), ("2026-02-30", "not a date in the calendar"),
    ("2026-11-01", "not in the future"), ("in 31 days", "at most 30 days"),
    ("2027-06-01", "at most 30 days"), ("", "can't read"), ("9" * 5000, "can't read")])
def test_until_refuses_with_an_example(text: str, says: str) -> None:
    with pytest.raises(TableError, match=None) as caught:
        parse_until(text, T0)
    assert says in str(caught.value)


def test_zones_offsets_quiet_hours_and_modes() -> None:
    assert parse_zone("+2") == "+02:00" and parse_zone("UTC-5") == "-05:00"
    assert parse_zone("+0530") == "+05:30" and parse_zone("utc") == "+00:00"
    assert parse_zone("europe/berlin") == "Europe/Berlin"
    for bad in ("+15", "Mars/Olympus", "../etc/passwd", "x" * 300):
        with pytest.raises(TableError):
            parse_zone(bad)
    assert parse_quiet("22:00-07:00") == (22 * 60, 7 * 60)
    assert parse_quiet("23.30 – 6.15") == (23 * 60 + 30, 6 * 60 + 15)
    assert parse_quiet("off") is None
    for bad in ("22-22", "25:00-07:00", "night"):
        with pytest.raises(TableError):
            parse_quiet(bad)
    assert parse_mode(None) == "extend" and parse_mode("Computer") == "computer"
    with pytest.raises(TableError):
        parse_mode("vacation")


# -------------------------------------------------------------------------- quiet hours


def _quiet(start: str, end: str, zone: str | None = None) -> PlayerPrefs:
    (h1, m1), (h2, m2) = (map(int, start.split(":")), map(int, end.split(":")))
    return PlayerPrefs(1, quiet_start=h1 * 60 + m1, quiet_end=h2 * 60 + m2, zone=zone)


def test_quiet_hours_across_midnight() -> None:
    night = _quiet("22:00", "07:00")
    assert quiet_end(night, at("2026-11-20T21:59")) is None
    assert quiet_end(night, at("2026-11-20T22:00")) == at("2026-11-21T07:00")
    assert quiet_end(night, at("2026-11-20T23:30")) == at("2026-11-21T07:00")
    assert quiet_end(night, at("2026-11-21T00:00")) == at("2026-11-21T07:00")
    assert quiet_end(night, at("2026-11-21T06:59")) == at("2026-11-21T07:00")
    assert quiet_end(night, at("2026-11-21T07:00")) is None
    nap = _quiet("13:00", "15:00")
    assert quiet_end(nap, at("2026-11-20T14:00")) == at("2026-11-20T15:00")
    assert quiet_end(nap, at("2026-11-20T15:00")) is None and quiet_end(nap, at("2026-11-20T12:59")) is None
    assert quiet_end(PlayerPrefs(1), T0) is None


def test_quiet_hours_in_the_players_own_time() -> None:
    east = _quiet("22:00", "07:00", "+02:00")  # 20:00–05:00 UTC
    assert quiet_end(east, at("2026-11-20T19:59")) is None
    assert quiet_end(east, at("2026-11-20T20:30")) == at("2026-11-21T05:00")
    west = _quiet("22:00", "07:00", "-05:00")  # 03:00–12:00 UTC: the local day is the day before
    assert quiet_end(west, at("2026-11-21T02:00")) is None
    assert quiet_end(west, at("2026-11-21T04:00")) == at("2026-11-21T12:00")
    # a zone follows its daylight saving time: 07:00 in Berlin is 05:00 UTC in summer, 06:00 in winter
    berlin = _quiet("22:00", "07:00", "Europe/Berlin")
    assert quiet_end(berlin, at("2026-07-01T03:00")) == at("2026-07-01T05:00")
    assert quiet_end(berlin, at("2026-12-01T03:00")) == at("2026-12-01T06:00")
    # the night the clocks go back (25 October 2026): still 07:00 local, an hour later in UTC
    assert quiet_end(berlin, at("2026-10-24T21:00")) == at("2026-10-25T06:00")


def test_a_stretched_deadline_keeps_what_was_left_and_its_reminder_lead() -> None:
    d = DeadlineRow(1, 0, "bid", T0 + 3600, T0 + 3000, True, 4)
    s = stretched(d, T0 + 2 * DAY, T0)
    assert (s.due_at, s.remind_at, s.reminded, s.opened) == (T0 + 2 * DAY + 3600, T0 + 2 * DAY + 3000, False, 4)
    assert stretched(dataclasses.replace(d, due_at=T0 - 1), T0 + DAY, T0).due_at == T0 - 1


# ---------------------------------------------------------------------------- time away


async def test_extend_stretches_open_and_new_deadlines_and_returning_early_gives_it_back(env: Env) -> None:
    gid = await _started(env)
    before = await _deadline(env, gid, 0)
    until = T0 + 3 * DAY
    told = await env.away.set_away(HOST, until, "extend")
    assert [g.id for g in told] == [gid]
    mine = await _deadline(env, gid, 0)
    assert mine.due_at == until + (before.due_at - T0) and not mine.reminded
    assert (await _deadline(env, gid, 1)).due_at == before.due_at  # the other player's is untouched
    assert env.lines == [(gid, f"🏖️ P1 Ada is away until <t:{int(until)}:D>; their deadlines wait for "
                               "them (what is left of each counts from their return).")]
    assert "hand" not in env.lines[0][1]
    # a decision that opens while away gets its whole time after the return
    env.clock.t += 600
    await env.sessions.act(gid, 0, await _bid(env, gid, 0))
    for _ in range(4):  # the others play until a new decision opens for P1
        snap = await env.sessions.snapshot(gid)
        if snap.prompt_of(0) is not None:
            break
        await env.sessions.act(gid, snap.waiting()[0], await _bid(env, gid, snap.waiting()[0]))
    new = snap.prompt_of(0)
    assert new is not None and new.opened > 1
    assert (await _deadline(env, gid, 0)).due_at == until + CONFIG.default_deadline
    # back a day early: the stretch not used is given back
    env.clock.t = T0 + 2 * DAY
    moved = {d.seat: d.due_at for d in await env.storage.deadlines(gid)}
    await env.away.set_away(HOST, None)
    after = {d.seat: d.due_at for d in await env.storage.deadlines(gid)}
    assert after[0] == moved[0] - (until - env.clock.t) == env.clock.t + CONFIG.default_deadline
    assert env.lines[-1] == (gid, "👋 P1 Ada is back.")
    assert (await env.away.prefs(HOST)).away_until is None


async def test_a_deadline_of_a_player_gone_away_elsewhere_waits_instead_of_timing_out(env: Env) -> None:
    gid = await _started(env)
    deadline = await _deadline(env, gid, 1)
    # set by another process: this one's deadlines were not moved
    await env.storage.save_player_prefs(PlayerPrefs(GUEST, away_until=T0 + 5 * DAY, away_mode="extend"))
    env.clock.t = deadline.due_at
    assert await env.sessions.timeout(deadline) is None
    assert await env.storage.actions(gid) == []
    waiting = await _deadline(env, gid, 1)  # nothing was left: a whole deadline after the return
    assert (waiting.due_at, waiting.remind_at) == (T0 + 5 * DAY + 3600, T0 + 5 * DAY + 3000)
    assert (await _deadline(env, gid, 0)).due_at == deadline.due_at


async def test_computer_mode_decides_for_the_away_player_at_once(env: Env) -> None:
    gid = await _started(env)
    await env.away.set_away(GUEST, T0 + DAY, "computer")
    covered = await _deadline(env, gid, 1)
    assert covered.due_at == T0 and covered.remind_at is None
    assert env.lines[-1][1].endswith("the computer player decides for them.")
    update = await env.sessions.timeout(covered)
    assert update is not None and update.actions[0][0] == 1 and update.actions[0][2] == "away"
    assert update.events[0].text == "🏖️ P2 is away; the computer player decided for them (bid)."
    assert await env.sessions.verify_replay(gid)
    # the next decision that opens for them falls due as it opens
    env.clock.t += 60
    for _ in range(4):  # the others play until a new decision opens for P2
        snap = await env.sessions.snapshot(gid)
        if snap.prompt_of(1) is not None:
            break
        await env.sessions.act(gid, snap.waiting()[0], await _bid(env, gid, snap.waiting()[0]))
    assert snap.prompt_of(1) is not None
    assert (await _deadline(env, gid, 1)).due_at == env.clock.t


# ------------------------------------------------------------------------------- pauses


async def test_a_pause_refuses_moves_freezes_deadlines_and_gives_back_what_was_left(env: Env) -> None:
    gid = await _started(env)
    before = await env.storage.deadlines(gid)
    await env.away.pause(gid, HOST, "Ada")
    assert await env.storage.deadlines(gid) == []
    assert env.lines[-1][1].startswith("⏸️ Ada paused the game: nobody moves")
    with pytest.raises(TableError, match="paused by its host"):
        await env.sessions.act(gid, 0, await _bid(env, gid, 0))
    assert await env.storage.actions(gid) == []
    with pytest.raises(TableError, match="paused already"):
        await env.away.pause(gid, HOST, "Ada")
    # a deadline claimed just before the pause finds nothing to do
    assert await env.sessions.timeout(before[0]) is None
    env.clock.t += 2 * 3600
    await env.away.resume(gid, "Ada")
    assert [(d.seat, d.due_at, d.remind_at) for d in await env.storage.deadlines(gid)] == [
        (d.seat, d.due_at + 2 * 3600, (d.remind_at or 0) + 2 * 3600) for d in before]
    assert env.lines[-1][1] == "▶️ Ada resumed the game; the deadlines run again with what was left of each."
    await env.sessions.act(gid, 0, await _bid(env, gid, 0))
    with pytest.raises(TableError, match="not paused"):
        await env.away.resume(gid, "Ada")


async def test_pauses_end_by_themselves_and_a_game_pauses_14_days_in_all(env: Env) -> None:
    gid = await _started(env)
    first = await env.away.pause(gid, HOST, "Ada")
    assert pause_ends(first) == T0 + MAX_PAUSE
    assert await env.away.resume_due() == T0 + MAX_PAUSE  # not yet: when
    env.clock.t = T0 + MAX_PAUSE
    assert await env.away.resume_due() is None
    assert env.lines[-1][1].startswith("▶️ The game resumed by itself")
    assert len(await env.storage.deadlines(gid)) == 2
    env.clock.t += DAY
    second = await env.away.pause(gid, HOST, "Ada")
    assert second.used == MAX_PAUSE and pause_ends(second) == env.clock.t + 7 * DAY
    env.clock.t += 3 * DAY
    await env.away.resume(gid, "Ada")
    third = await env.away.pause(gid, HOST, "Ada")  # 10 days used: 4 are left
    assert pause_ends(third) == env.clock.t + 4 * DAY
    env.clock.t += 4 * DAY
    await env.away.resume_due()
    with pytest.raises(TableError, match="14 days in all"):
        await env.away.pause(gid, HOST, "Ada")
    pause = await env.storage.game_pause(gid)
    assert isinstance(pause, GamePause) and not pause.paused and pause.used == 14 * DAY


async def test_an_ended_paused_game_is_not_resumed_into_deadlines(env: Env) -> None:
    gid = await _started(env)
    await env.away.pause(gid, HOST, "Ada")
    await env.sessions.end(gid, "ended by Ada")
    env.clock.t += MAX_PAUSE
    assert await env.away.resume_due() is None
    assert await env.storage.deadlines(gid) == []


# -------------------------------------------------------------------------- quiet hours


async def test_reminders_wait_for_the_end_of_quiet_hours_and_deadlines_do_not_move(env: Env) -> None:
    # the guest is quiet 11:00–12:55 UTC; it is noon
    await env.storage.save_player_prefs(PlayerPrefs(GUEST, quiet_start=11 * 60, quiet_end=12 * 60 + 55))
    gid = await _started(env)
    guest, host = await _deadline(env, gid, 1), await _deadline(env, gid, 0)
    assert guest.due_at == host.due_at == T0 + 3600  # deadlines do not move
    assert guest.remind_at == T0 + 3600 - 600  # 12:50: a reminder in quiet hours…
    game = await env.sessions.get(gid)
    env.clock.t = guest.remind_at
    await env.storage.mark_reminded(gid, 1, "bid", guest.opened)
    await env.away.remind(game, guest)
    assert env.reminded == []  # …is put off to 12:55, the end of the quiet hours
    again = await _deadline(env, gid, 1)
    assert again.remind_at == T0 + 55 * 60 and not again.reminded and again.due_at == guest.due_at
    env.clock.t = again.remind_at
    await env.away.remind(game, again)
    assert env.reminded == [again]
    await env.away.remind(game, host)
    assert env.reminded == [again, host]


async def test_a_decision_opening_in_quiet_hours_is_told_when_they_end(env: Env) -> None:
    await env.storage.save_player_prefs(PlayerPrefs(GUEST, quiet_start=11 * 60 + 30, quiet_end=12 * 60 + 20))
    gid = await _started(env)
    guest = await _deadline(env, gid, 1)
    assert guest.remind_at == T0 + 20 * 60 and guest.due_at == T0 + 3600
    # a reminder that would fall after the deadline is the deadline's business
    env.clock.t = T0 + 3500
    await env.storage.save_player_prefs(PlayerPrefs(GUEST, quiet_start=11 * 60, quiet_end=14 * 60))
    await env.away.remind(await env.sessions.get(gid), guest)
    assert env.reminded == [] and (await _deadline(env, gid, 1)).remind_at == guest.remind_at


async def test_back_before_the_computer_decided_gives_a_whole_deadline_again(env: Env) -> None:
    gid = await _started(env)
    await env.away.set_away(GUEST, T0 + DAY, "computer")
    assert (await _deadline(env, gid, 1)).due_at == T0
    env.clock.t += 1  # the scheduler has not fired yet
    await env.away.set_away(GUEST, None)
    again = await _deadline(env, gid, 1)
    assert (again.due_at, again.remind_at, again.reminded) == (env.clock.t + 3600, env.clock.t + 3000, False)
    assert await env.sessions.timeout(again) is not None  # (at its time, the usual timeout)
    assert (await env.storage.actions(gid))[0][2] == "timeout"
