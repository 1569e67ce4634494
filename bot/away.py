"""Time away, paused games and notification preferences: slow games that fit around people's lives.

**Time away** (``/away``) is the player's, in every game they play. In *extend* mode the clock of
each of their decisions stops while they are away: what was left of it counts from their return
(a decision that opens while they are away gets its whole time after it). In *computer* mode the
computer player decides for them — at once, so nobody waits on an empty chair: their open
decisions fall due now, and a decision that opens while they are away falls due as it opens.
Either way the game's thread says so in one line, without a word of anyone's hand. The deadlines
are moved when the player goes away (and back, when they return early) and when a decision opens;
the deadline itself asks again, from the database, when it falls due, so a player who went away
meanwhile in another process is covered all the same.

**A pause** (``/game pause``) is the host's, for one game: nobody moves (as on correspondence
sites: a paused game is one where nobody gains time over the others), and the deadlines are taken
out with what was left of each, given back on ``/game resume``. A pause lasts at most
:data:`MAX_PAUSE` and a game pauses :data:`MAX_PAUSED_TOTAL` in all; then it resumes by itself
(the scheduler's job :meth:`TimeAway.resume_due`). The storage makes both one transaction and
refuses every action's commit while the game is paused, whichever process tries.

**Notification preferences** (``/notify``): pings on or off; a DM for every decision or only
reminders; quiet hours in the player's own time (a UTC offset or a time zone, daylight saving
time followed). Reminders and decision DMs wait for the end of the quiet hours (a decision that
opens in them has its reminder moved to their end); deadlines never move for them.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import logging
import re
import zoneinfo
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import discord

from .errors import TableError
from .parsing import parse_duration, shown
from .session import Sessions
from .storage import DeadlineRow, GameRow, Storage
from .storage.base import GamePause, PlayerPrefs
from .text import seat_label

log = logging.getLogger("herald.away")

DAY = 86400.0
MAX_AWAY = 30 * DAY
"""The furthest ahead a player may be away: beyond a month, the table is better off replacing them."""
MAX_PAUSE = 7 * DAY
"""How long one pause lasts at most before the game resumes by itself."""
MAX_PAUSED_TOTAL = 14 * DAY
"""How long one game may be paused in all."""
MODES = ("extend", "computer")
DM_MODES = ("every", "reminders")
COVER = "computer"
"""What :meth:`TimeAway.at_deadline` says when the computer player decides for an away player."""

UNTIL_EXAMPLE = "`2026-12-01`, `in 3 days`, `2w`, `tomorrow` or `friday`"
"""What ``/away until:`` accepts, for its refusals."""
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_DATE = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})", re.ASCII)
_OFFSET = re.compile(r"(?:utc|gmt)?\s*([+-])\s*(\d{1,2})(?::?(\d{2}))?", re.ASCII)
_CLOCK = r"(\d{1,2})(?:[:.h](\d{2}))?"
_QUIET = re.compile(rf"{_CLOCK}\s*(?:-|–|—|to)\s*{_CLOCK}", re.ASCII)
_ZONE_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_+\-]*(?:/[A-Za-z0-9_+\-]+){0,2}", re.ASCII)


# ------------------------------------------------------------------ parsing


@functools.lru_cache(maxsize=1)
def _zone_names() -> frozenset[str]:
    try:
        return frozenset(zoneinfo.available_timezones())
    except Exception:  # (no time zone database on this machine: offsets still work)
        return frozenset()


def parse_zone(text: str) -> str:
    """A UTC offset ("+02:00", "UTC-5", "+0530") or an IANA zone ("Europe/Berlin"), as stored:
    an offset as ``+HH:MM``, a zone by its own name."""
    raw = " ".join(text.split())[:64]
    if raw.lower() in ("utc", "gmt", "z"):
        return "+00:00"
    m = _OFFSET.fullmatch(raw.lower())
    if m:
        sign, hours, minutes = m.group(1), int(m.group(2)), int(m.group(3) or 0)
        if hours > 14 or minutes > 59 or (hours == 14 and minutes):
            raise TableError(f"`{shown(text)}` is not a UTC offset; they run from -14:00 to +14:00.")
        return f"{sign}{hours:02d}:{minutes:02d}"
    names = _zone_names()
    if _ZONE_NAME.fullmatch(raw):
        found = raw if raw in names else next((n for n in names if n.lower() == raw.lower()), None)
        if found is not None:
            return found
    raise TableError(f"`{shown(text)}` is neither a UTC offset nor a time zone I know; write it "
                     "like `+02:00`, `UTC-5` or `Europe/Berlin`.")


def zone_of(zone: str | None) -> dt.tzinfo:
    """The tzinfo of a stored zone (UTC when none, or when the zone cannot be found any more)."""
    if not zone:
        return dt.UTC
    m = _OFFSET.fullmatch(zone.lower())
    if m:
        minutes = int(m.group(2)) * 60 + int(m.group(3) or 0)
        return dt.timezone(dt.timedelta(minutes=-minutes if m.group(1) == "-" else minutes))
    try:
        return zoneinfo.ZoneInfo(zone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return dt.UTC


def parse_quiet(text: str) -> tuple[int, int] | None:
    """Quiet hours "22:00-07:00" (or "22-7", "23.30–6.15") as minutes after midnight; None for
    "off". They may cross midnight; they may not be empty or the whole day."""
    raw = " ".join(text.split()).lower()[:40]
    if raw in ("off", "none", "no"):
        return None
    m = _QUIET.fullmatch(raw)
    if m:
        h1, m1, h2, m2 = (int(g or 0) for g in m.groups())
        if h1 < 24 and h2 < 24 and m1 < 60 and m2 < 60:
            start, end = h1 * 60 + m1, h2 * 60 + m2
            if start == end:
                raise TableError("quiet hours need a start and an end that differ, e.g. `22:00-07:00`.")
            return start, end
    raise TableError(f"`{shown(text)}` are not quiet hours I understand; write them like "
                     "`22:00-07:00` (or `off`).")


def clock(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def parse_until(text: str, now: float, zone: str | None = None) -> float:
    """When a player's time away ends: a date ("2026-12-01": back when that day begins, in the
    player's zone), "tomorrow", a weekday ("friday": the next one), or a length of time ("in 3
    days", "2w", "36h"). At most :data:`MAX_AWAY` ahead, and in the future."""
    raw = " ".join(text.split()).lower()[:40]
    tz = zone_of(zone)
    today = dt.datetime.fromtimestamp(now, tz).date()

    def start_of(day: dt.date) -> float:
        return dt.datetime.combine(day, dt.time(0, 0), tz).timestamp()

    m = _DATE.fullmatch(raw)
    when: float | None = None
    if m:
        try:
            when = start_of(dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3))))
        except ValueError:
            raise TableError(f"`{shown(text)}` is not a date in the calendar.") from None
    elif raw == "tomorrow":
        when = start_of(today + dt.timedelta(days=1))
    elif raw.rstrip("s") in WEEKDAYS or raw in (w[:3] for w in WEEKDAYS):
        target = next(i for i, w in enumerate(WEEKDAYS) if w.startswith(raw[:3]))
        ahead = (target - today.weekday()) % 7 or 7
        when = start_of(today + dt.timedelta(days=ahead))
    elif raw:
        length = raw.removeprefix("in ").strip()
        try:
            when = now + parse_duration(length, what="time away", lo=0, hi=int(100 * MAX_AWAY))
        except TableError:
            when = None
    if when is None:
        raise TableError(f"I can't read `{shown(text)}` as a date; write it like {UNTIL_EXAMPLE}.")
    if when <= now + 60:
        raise TableError("that is not in the future; say until when you are away, e.g. `in 3 days`.")
    if when > now + MAX_AWAY:
        raise TableError("you can be away for at most 30 days at a time; ask the host to give "
                         "your seat to someone else (`/game replace`) for longer.")
    return when


def parse_mode(text: str | None) -> str:
    mode = (text or "extend").strip().lower()
    if mode not in MODES:
        raise TableError("the mode is `extend` (your deadlines wait for you) or `computer` (the "
                         "computer player decides for you).")
    return mode


# ------------------------------------------------------------- quiet hours and time away


def quiet_end(prefs: PlayerPrefs, now: float) -> float | None:
    """When the quiet hours the player is in at ``now`` end; None when they are not in them."""
    if prefs.quiet_start is None or prefs.quiet_end is None:
        return None
    tz = zone_of(prefs.zone)
    local = dt.datetime.fromtimestamp(now, tz)
    minute = local.hour * 60 + local.minute
    start, end = prefs.quiet_start, prefs.quiet_end
    inside = start <= minute < end if start < end else (minute >= start or minute < end)
    if not inside:
        return None
    day = local.date() if minute < end else local.date() + dt.timedelta(days=1)
    # (wall-clock time, so a zone's daylight saving time is followed; a time skipped by a
    # change of clocks resolves to the same instant on either side of it)
    ends = dt.datetime.combine(day, dt.time(end // 60, end % 60), tz).timestamp()
    return ends if ends > now else now


def away_until(prefs: PlayerPrefs, now: float) -> float | None:
    """When the player's time away ends, if they are away at ``now``."""
    if prefs.away_until is None or prefs.away_until <= now:
        return None
    return prefs.away_until


def stretched(d: DeadlineRow, until: float, now: float) -> DeadlineRow:
    """A deadline whose clock stops until ``until``: what was left of it at ``now`` is left at
    ``until`` (the reminder keeps its distance to the deadline, and is due again)."""
    if d.due_at <= now:
        return d
    due = until + (d.due_at - now)
    lead = None if d.remind_at is None else d.due_at - d.remind_at
    return dataclasses.replace(d, due_at=due, remind_at=None if lead is None else due - lead,
                               reminded=False)


def covered_now(d: DeadlineRow, now: float) -> DeadlineRow:
    """A deadline that falls due at once (the computer player decides for an away player)."""
    return dataclasses.replace(d, due_at=min(d.due_at, now), remind_at=None, reminded=True)


def pause_ends(pause: GamePause) -> float | None:
    """When a pause ends by itself: after :data:`MAX_PAUSE`, or when the game's total runs out."""
    if pause.paused_at is None:
        return None
    return pause.paused_at + max(0.0, min(MAX_PAUSE, MAX_PAUSED_TOTAL - pause.used))


# ------------------------------------------------------------------ the service

Post = Callable[[GameRow, str], Awaitable[None]]


class TimeAway:
    """Time away, pauses and quiet hours, for the session (the deadline policy), the scheduler
    (:meth:`resume_due`, :meth:`remind`) and the commands."""

    def __init__(self, sessions: Sessions, post: Post | None = None,
                 remind: Callable[[GameRow, DeadlineRow], Awaitable[None]] | None = None) -> None:
        self.sessions = sessions
        self.post = post
        """Posts one line in a game's home (Discord's delivery; nothing in tests without it)."""
        self._remind = remind

    @property
    def storage(self) -> Storage:
        return self.sessions.storage

    def now(self) -> float:
        return self.sessions.now()

    # ------------------------------------------------------- the deadline policy

    async def fresh(self, game: GameRow, deadlines: list[DeadlineRow]) -> list[DeadlineRow]:
        """New deadlines of a step, adjusted for their players: stretched past an away player's
        return (extend), due at once (computer), the reminder moved to the end of quiet hours."""
        users = {d.seat: game.seats[d.seat].user_id for d in deadlines if d.seat < len(game.seats)}
        ids = [u for u in users.values() if u is not None]
        if not ids:
            return deadlines
        prefs = await self.storage.player_prefs(ids)
        now = self.now()
        out: list[DeadlineRow] = []
        for d in deadlines:
            uid = users.get(d.seat)
            p = prefs.get(uid) if uid is not None else None
            if p is None:
                out.append(d)
                continue
            until = away_until(p, now)
            if until is not None:
                out.append(covered_now(d, now) if p.away_mode == COVER else stretched(d, until, now))
                continue
            ends = quiet_end(p, now)
            if ends is not None and ends < d.due_at and (d.remind_at is None or ends < d.remind_at):
                d = dataclasses.replace(d, remind_at=ends, reminded=False)
            out.append(d)
        return out

    async def at_deadline(self, game: GameRow, deadline: DeadlineRow) -> DeadlineRow | str | None:
        """A deadline falls due: None — the usual timeout; :data:`COVER` — the player is away and
        the computer player decides for them; a deadline — the player is away and it waits for
        them, a whole deadline after their return (the storage is asked afresh: another process
        may have set the time away, so the deadline was not stretched)."""
        if deadline.seat >= len(game.seats):
            return None
        uid = game.seats[deadline.seat].user_id
        if uid is None or game.seats[deadline.seat].is_bot:
            return None
        p = (await self.storage.player_prefs([uid]))[uid]
        now = self.now()
        until = away_until(p, now)
        if until is None:
            return None
        if p.away_mode == COVER:
            return COVER
        # (the stretch was missed — set elsewhere meanwhile: a whole deadline after the return)
        length, lead = await self.sessions.deadline_settings(game)
        due = until + length
        return dataclasses.replace(deadline, due_at=due, reminded=False,
                                   remind_at=due - lead if lead < length else due - length / 2)

    async def remind(self, game: GameRow, deadline: DeadlineRow) -> None:
        """The scheduler's reminder, in the player's waking hours: one falling in their quiet
        hours is put off to their end (if that still comes before the deadline; else it is the
        deadline that speaks); an away player is not reminded."""
        seat = game.seats[deadline.seat] if deadline.seat < len(game.seats) else None
        if seat is not None and seat.user_id is not None and not seat.is_bot:
            p = (await self.storage.player_prefs([seat.user_id]))[seat.user_id]
            now = self.now()
            if away_until(p, now) is not None:
                return
            ends = quiet_end(p, now)
            if ends is not None:
                if ends < deadline.due_at:
                    await self._put_off(deadline, ends)
                return
        if self._remind is not None:
            await self._remind(game, deadline)

    async def _put_off(self, deadline: DeadlineRow, at: float) -> None:
        """Make a reminder due again at ``at`` — if its prompt instance is still the open one."""
        gid = deadline.game_id
        async with self.sessions.lock(gid):
            rows = await self.storage.deadlines(gid)
            same = [d for d in rows if (d.seat, d.kind, d.opened) == (deadline.seat, deadline.kind,
                                                                       deadline.opened)]
            if not same:
                return
            await self.storage.replace_deadlines(gid, [
                dataclasses.replace(d, remind_at=at, reminded=False) if d in same else d for d in rows])
        self.sessions.on_deadlines_changed()

    # ---------------------------------------------------------------- time away

    async def set_away(self, user_id: int, until: float | None, mode: str = "extend") -> list[GameRow]:
        """Go away until ``until`` (None: come back now): the preference is stored, the player's
        deadlines in every running game are moved, and each game's thread is told. Returns the
        games told."""
        p = (await self.storage.player_prefs([user_id]))[user_id]
        now = self.now()
        was = away_until(p, now)
        was_mode = p.away_mode
        if until is None:
            p = dataclasses.replace(p, away_until=None, away_mode=None)
        else:
            p = dataclasses.replace(p, away_until=until, away_mode=mode)
        await self.storage.save_player_prefs(p)
        told: list[GameRow] = []
        for game in await self.storage.games_of_user(user_id, ("active",)):
            if until is None and was is None:
                continue
            seats = [s.seat for s in game.seats if s.user_id == user_id and not s.is_bot]
            length, lead = await self.sessions.deadline_settings(game)
            async with self.sessions.lock(game.id):
                rows = await self.storage.deadlines(game.id)
                moved = [self._moved(d, seats, until, mode, was, was_mode, now) for d in rows]
                if until is None and was_mode == COVER:  # back before the computer player
                    # decided: what was due at once gets a whole deadline again
                    moved = [dataclasses.replace(d, due_at=now + length, reminded=False,
                                                 remind_at=now + length - lead if lead < length else now + length / 2)
                             if d.seat in seats and d.due_at <= now else d for d in moved]
                if moved != rows:
                    await self.storage.replace_deadlines(game.id, moved)
            told.append(game)
            names = " and ".join(seat_label(game, s) for s in seats) or "A player"
            if until is None:
                line = f"👋 {names} is back."
            elif mode == COVER:
                line = f"🏖️ {names} is away until <t:{int(until)}:D>; the computer player decides for them."
            else:
                line = (f"🏖️ {names} is away until <t:{int(until)}:D>; their deadlines wait for them "
                        "(what is left of each counts from their return).")
            await self._say(game, line)
        self.sessions.on_deadlines_changed()
        return told

    @staticmethod
    def _moved(d: DeadlineRow, seats: Sequence[int], until: float | None, mode: str,
               was: float | None, was_mode: str | None, now: float) -> DeadlineRow:
        """One deadline after the player's time away changed (others' deadlines stay)."""
        if d.seat not in seats:
            return d
        if was is not None and was_mode != COVER and d.due_at >= was:
            # back early (or away for another spell): the stretch not used is given back
            d = dataclasses.replace(d, due_at=d.due_at - (was - now), remind_at=None if d.remind_at is None
                                    else max(now, d.remind_at - (was - now)))
        if until is None:
            return d
        return covered_now(d, now) if mode == COVER else stretched(d, until, now)

    async def _say(self, game: GameRow, line: str) -> None:
        if self.post is None:
            return
        try:
            await self.post(game, line)
        except Exception:  # (the thread's line is news, never a reason to fail the command)
            log.exception("telling the game's thread failed", extra={"game_id": game.id})

    # ------------------------------------------------------------------- pauses

    async def pause(self, game_id: int, by: int, name: str) -> GamePause:
        """Pause a running game (the caller checked that ``by`` is its host or a manager)."""
        async with self.sessions.track(), self.sessions.lock(game_id):
            game = await self.sessions.get(game_id)
            if game.status != "active":
                raise TableError("only a running game can be paused.")
            before = await self.storage.game_pause(game_id)
            if before is not None and before.paused:
                raise TableError(f"game #{game_id} is paused already; `/game resume` resumes it.")
            used = before.used if before is not None else 0.0
            if MAX_PAUSED_TOTAL - used < 60:
                raise TableError(f"game #{game_id} has been paused for {int(MAX_PAUSED_TOTAL // DAY)} "
                                 "days in all, as long as a game may be; it plays on.")
            pause = await self.storage.pause_game(game_id, by=by, now=self.now())
            if pause is None:  # (paused or ended meanwhile from another process)
                raise TableError(f"game #{game_id} could not be paused: it is paused already or over.")
        self.sessions.on_deadlines_changed()
        ends = pause_ends(pause)
        await self._say(game, f"⏸️ {discord.utils.escape_markdown(name)} paused the game: nobody moves and "
                              f"the deadlines are frozen until `/game resume` (at the latest <t:{int(ends or 0)}:f>, "
                              "when it resumes by itself).")
        return pause

    async def resume(self, game_id: int, name: str | None = None) -> GamePause:
        """Resume a paused game: its deadlines come back with what was left of each, and
        computer players held up by the pause answer. ``name`` None: it resumed by itself."""
        async with self.sessions.track(), self.sessions.lock(game_id):
            game = await self.sessions.get(game_id)
            pause = await self.storage.resume_game(game_id, now=self.now())
            if pause is None:
                raise TableError(f"game #{game_id} is not paused.")
        self.sessions.on_deadlines_changed()
        if game.status == "active":
            who = (f"{discord.utils.escape_markdown(name)} resumed the game" if name is not None
                   else "The game resumed by itself (a pause lasts a limited time)")
            await self._say(game, f"▶️ {who}; the deadlines run again with what was left of each.")
            await self.sessions.resume([game_id])
        return pause

    async def resume_due(self) -> float | None:
        """The scheduler's job: resume the pauses whose time is up; when the next one is."""
        now = self.now()
        nxt: float | None = None
        for pause in await self.storage.paused_games():
            ends = pause_ends(pause)
            if ends is None:
                continue
            if ends > now:
                nxt = ends if nxt is None else min(nxt, ends)
                continue
            try:
                await self.resume(pause.game_id)
            except TableError:  # resumed meanwhile (by the host, or by another process)
                continue
        return nxt

    # -------------------------------------------------------------- preferences

    async def prefs(self, user_id: int) -> PlayerPrefs:
        return (await self.storage.player_prefs([user_id]))[user_id]

    async def save(self, prefs: PlayerPrefs) -> None:
        await self.storage.save_player_prefs(prefs)


def describe(prefs: PlayerPrefs, now: float) -> str:
    """A player's preferences in a few lines, for ``/notify`` and ``/away``."""
    lines = [f"Pings in game threads: **{'on' if prefs.pings else 'off'}**",
             "DMs: **" + ("a DM for every decision" if prefs.dms != "reminders" else "only reminders") + "**"]
    zone = prefs.zone or "UTC"
    if prefs.quiet_start is not None and prefs.quiet_end is not None:
        lines.append(f"Quiet hours: **{clock(prefs.quiet_start)}–{clock(prefs.quiet_end)}** ({zone}); "
                     "reminders and decision DMs wait for their end, deadlines do not move")
    else:
        lines.append(f"Quiet hours: **none** (time zone {zone})")
    until = away_until(prefs, now)
    if until is not None:
        how = ("the computer player decides for you" if prefs.away_mode == COVER
               else "your deadlines wait for you")
        lines.append(f"Away until <t:{int(until)}:f>: {how}")
    return "\n".join(lines)


def post_line(delivery: Any) -> Post:
    """A :data:`Post` through Discord's delivery: one line in the game's home, mentioning nobody."""

    async def post(game: GameRow, line: str) -> None:
        async def send(channel: Any) -> None:
            await channel.send(line, allowed_mentions=discord.AllowedMentions.none())

        try:
            await delivery.in_home(game, send)
        except discord.Forbidden:
            log.warning("cannot post in the game's home", extra={"game_id": game.id})

    return post
