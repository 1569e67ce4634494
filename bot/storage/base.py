"""The storage interface: the rows the bot reads and writes, and what a backend must do.

Only storage backends speak SQL. Every accepted action is one transaction: append to the action
log, record its events, update the state, version and open-prompt instances (only if the version
is still the one that was read: an optimistic check) and replace the game's open deadlines.
:class:`Storage` is what the rest of the bot uses; :mod:`bot.storage.sqlite` is the SQLite backend
and a PostgreSQL backend implements the same methods.
"""

from __future__ import annotations

import hashlib
import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson


class StorageError(Exception):
    """A database failure. The message is one sentence for the server's admin (logs, the command
    line); players read the sentence :func:`bot.refusals.sentence_for` picks for the type.

    ``stored`` is what is known of the write that failed, so that nobody is told "not saved" about
    something that was: False — nothing of it was stored; None — it may have been (the database
    failed while committing, and asking it afterwards failed too)."""

    def __init__(self, message: str = "", *, stored: bool | None = False) -> None:
        super().__init__(message)
        self.stored = stored


class VersionConflict(StorageError):
    """The game changed since it was read (another action won the race)."""


class StorageOpenError(StorageError):
    """The database cannot be used: missing tables, damaged, empty, another program's, from a
    newer Herald, read-only or out of reach. ``open`` raises it after closing whatever it opened
    (a connection left open keeps the process alive), and has changed nothing in the file."""


class StorageUnavailable(StorageError):
    """A failure that may pass if tried again later (a backend's ``transient_errors``): the
    scheduler backs off and retries, a player is asked to try again."""


class StorageBusy(StorageUnavailable):
    """Another process held the database's write lock for longer than the busy timeout."""


class StorageFull(StorageUnavailable):
    """The database could not be written: the disk, a quota or a file-size limit is full (or,
    for a write error the system does not explain, the disk is failing)."""


class StorageReadOnly(StorageUnavailable):
    """The database file, its folder or its file system became read-only."""


class StorageCorrupt(StorageError):
    """The database file is damaged. Trying again does not help; restoring a backup does."""


@dataclass
class SeatRow:
    seat: int
    user_id: int | None
    is_bot: bool
    name: str


@dataclass
class GameRow:
    id: int
    guild_id: int | None
    channel_id: int | None
    thread_id: int | None
    game_key: str
    status: str  # lobby | active | finished | cancelled
    version: int
    seed: int
    options: dict[str, Any]
    state: dict[str, Any] | None
    host_id: int | None
    deadline: int | None
    board_message_id: int | None = None
    lobby_message_id: int | None = None
    result: dict[str, Any] | None = None
    created_at: float = 0.0
    updated_at: float = 0.0
    """The time of last activity, for listings and "waiting since": exact when a game starts
    or ends, otherwise kept to about a minute (the SQLite backend leaves a stamp less than
    ``ACTIVITY_STEP`` old, sparing the rewrite of the index over it at every move)."""
    seats: list[SeatRow] = field(default_factory=list)
    opened: dict[int, int] = field(default_factory=dict)
    """Seat → the game version at which the seat's open prompt opened: the prompt's *instance*.
    A seat asked again after answering (next turn, next round) gets a new instance."""
    answered: dict[int, int] = field(default_factory=dict)
    """Seat → the instance of the prompt the seat answered last (a game may let it revise that
    answer while it has no open prompt, e.g. Cult Wars orders until the last cult submits)."""

    @property
    def home_channel_id(self) -> int | None:
        return self.thread_id or self.channel_id

    def seat_of(self, user_id: int) -> int | None:
        for s in self.seats:
            if s.user_id == user_id and not s.is_bot:
                return s.seat
        return None


@dataclass
class DeadlineRow:
    game_id: int
    seat: int
    kind: str
    due_at: float
    remind_at: float | None
    reminded: bool
    opened: int = 0
    """The instance of the prompt this deadline belongs to (see ``GameRow.opened``)."""


@dataclass
class PlayerPrefs:
    """One member's notification preferences and time away, the same in every server.

    Quiet hours are minutes after local midnight (``quiet_start`` to ``quiet_end``, crossing
    midnight when the start is later than the end) in ``zone``: a fixed UTC offset ("+02:00") or
    an IANA zone ("Europe/Berlin"), whose daylight saving time is followed."""

    user_id: int
    pings: bool = True
    """False: the thread names the player without pinging them."""
    dms: str = "every"
    """"every": a DM for every decision; "reminders": only reminders (the hand DM is edited)."""
    quiet_start: int | None = None
    quiet_end: int | None = None
    zone: str | None = None
    away_until: float | None = None
    """While now is before it the player is away (None: not away)."""
    away_mode: str | None = None
    """"extend" (their deadlines wait for them) or "computer" (the computer player decides)."""


@dataclass
class GamePause:
    """A game's pause: while ``paused_at`` is set nobody moves and its deadlines are frozen in
    ``frozen`` (as they stood when it was paused; restored shifted by the time paused). ``used``
    is the seconds its earlier pauses took, for the game's limit (kept between pauses)."""

    game_id: int
    paused_at: float | None
    paused_by: int | None = None
    used: float = 0.0
    frozen: list[DeadlineRow] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.frozen = [DeadlineRow(self.game_id, d.seat, d.kind, d.due_at, d.remind_at, d.reminded,
                                   d.opened) for d in self.frozen]

    @property
    def paused(self) -> bool:
        return self.paused_at is not None


def frozen_text(deadlines: Sequence[DeadlineRow]) -> str:
    """A paused game's deadlines as the backends store them (``GamePause.frozen``)."""
    return json.dumps([[d.seat, d.kind, d.due_at, d.remind_at, d.reminded, d.opened] for d in deadlines])


def frozen_rows(text: str | None, game_id: int = 0) -> list[DeadlineRow]:
    """The deadlines :func:`frozen_text` stored (``game_id`` is filled in by :class:`GamePause`)."""
    return [DeadlineRow(game_id, int(r[0]), str(r[1]), float(r[2]),
                        None if r[3] is None else float(r[3]), bool(r[4]), int(r[5]))
            for r in json.loads(text or "[]")]


def thawed(pause: GamePause, now: float) -> list[DeadlineRow]:
    """A paused game's deadlines at its resumption: each moved on by the time paused, so what was
    left of it when the game was paused is left again."""
    shift = max(0.0, now - (pause.paused_at if pause.paused_at is not None else now))
    return [DeadlineRow(pause.game_id, d.seat, d.kind, d.due_at + shift,
                        None if d.remind_at is None else d.remind_at + shift, d.reminded, d.opened)
            for d in pause.frozen]


class ActionRow(tuple[int, dict[str, Any], str]):
    """One stored action, as ``(seat, action, origin)`` (a plain triple to every reader that
    unpacks or compares it), with what it answered as judged when it was committed:
    ``prompt_kind``, the kind of decision (None: none matched), and ``secret``, whether a running
    game's export withholds it. Both are None on an action stored before schema 14."""

    prompt_kind: str | None
    secret: bool | None

    def __new__(cls, seat: int, action: dict[str, Any], origin: str,
                prompt_kind: str | None = None, secret: bool | None = None) -> ActionRow:
        row = super().__new__(cls, (seat, action, origin))
        row.prompt_kind = prompt_kind
        row.secret = secret
        return row

    def __reduce__(self) -> tuple[Any, ...]:  # (to a worker process and back as it is)
        return ActionRow, (*self, self.prompt_kind, self.secret)

    @property
    def judged(self) -> bool:
        """Whether the kind and secrecy were stored at commit (schema 14 on)."""
        return self.secret is not None


@dataclass
class EventRow:
    n: int
    version: int
    text: str
    to: list[int] | None
    kind: str
    data: dict[str, Any]
    created_at: float


DEFAULT_TABLE_LIMIT = 50
"""Running games one server may have at once, unless it sets its own (lobbies have their own
limit: a server full of idle lobbies never stops a game from starting)."""
DEFAULT_LOBBY_LIMIT = 25
"""Lobbies (tables waiting to start) one server may have at once, unless it sets its own."""
DEFAULT_LOBBY_EXPIRY = 3 * 86400
"""Seconds a lobby may stay idle (nobody joins, leaves, adds a computer player or starts it)
before it closes by itself, unless the server sets its own."""
MIN_LOBBY_EXPIRY = 3600
MAX_LOBBY_EXPIRY = 30 * 86400
DEFAULT_MEMBER_LOBBY_LIMIT = 5
"""Lobbies (tables waiting to start) one member may sit at in one server at once."""
DEFAULT_MEMBER_TABLE_LIMIT = 10
"""Open tables (lobbies and running games) one member may sit at in one server at once."""


@dataclass
class GuildSettings:
    guild_id: int
    default_deadline: int | None = None
    reminder_lead: int | None = None
    opener_role_id: int | None = None
    channels: list[int] = field(default_factory=list)
    table_limit: int | None = None
    """The server's own limits (None: the defaults above). They bound how much one server, and
    one member, can make Herald store and list: opening tables costs a row each, forever."""
    member_lobby_limit: int | None = None
    member_table_limit: int | None = None
    leaderboards: bool = True
    """False: the server turned ``/leaderboard`` off (ratings are still kept, so turning it back
    on shows them as they would have been)."""
    lobby_limit: int | None = None
    """Lobbies the server may have at once (None: :data:`DEFAULT_LOBBY_LIMIT`)."""
    lobby_expiry: int | None = None
    """Seconds an idle lobby stays open (None: :data:`DEFAULT_LOBBY_EXPIRY`)."""
    web_pages: bool = True
    """False: the server turned its games' web pages off (their links answer "not found", the
    board has no link, and no player link is sent)."""

    @property
    def limits(self) -> TableLimits:
        """The limits in force: the server's own, else the defaults."""
        return TableLimits(
            tables=self.table_limit or DEFAULT_TABLE_LIMIT,
            member_lobbies=self.member_lobby_limit or DEFAULT_MEMBER_LOBBY_LIMIT,
            member_tables=self.member_table_limit or DEFAULT_MEMBER_TABLE_LIMIT,
            lobbies=self.lobby_limit or DEFAULT_LOBBY_LIMIT)

    @property
    def lobby_ttl(self) -> int:
        """Seconds an idle lobby stays open here."""
        return self.lobby_expiry or DEFAULT_LOBBY_EXPIRY


@dataclass(frozen=True)
class TableLimits:
    tables: int
    """Running games in the server."""
    member_lobbies: int
    member_tables: int
    lobbies: int = DEFAULT_LOBBY_LIMIT
    """Lobbies in the server."""


@dataclass(frozen=True)
class TableCounts:
    """What counts against the limits, for one server and one member (``Storage.count_tables``).
    A lobby idle since before the count's cutoff counts nowhere: it is closing."""

    lobbies: int
    """Lobbies in the server."""
    games: int
    """Running games in the server."""
    member_lobbies: int
    """Lobbies in the server the member is seated at."""
    member_tables: int
    """Open tables in the server the member is seated at (lobbies included)."""

    @property
    def tables(self) -> int:
        """Open tables: lobbies and running games."""
        return self.lobbies + self.games


@dataclass
class DeckRow:
    """A player's saved deck for a card game. ``data`` is the game's own (for Alternate Histories
    the nation, the governance and the cards); the storage only keeps it."""

    id: int
    user_id: int
    game_key: str
    name: str
    data: dict[str, Any]
    created_at: float = 0.0
    updated_at: float = 0.0


def deck_name_key(name: str) -> str:
    """The form in which two deck names are the same name (case and spacing aside)."""
    return " ".join(name.casefold().split())


@dataclass(frozen=True)
class GamePage:
    """One page of a listing (``Storage.page_games``): the games, and how many there are in all."""

    games: list[GameRow]
    total: int


COMPUTER_ID = 0
"""The ``user_id`` under which a server's computer players are rated, one entity per game (no
Discord account has id 0). Leaderboards and ``/stats`` leave it out."""


@dataclass(frozen=True)
class Departure:
    """A member who left a running game's seat (resigned, removed, replaced): ranked last."""

    game_id: int
    seat: int
    user_id: int
    name: str


@dataclass(frozen=True)
class RatedPlayer:
    """One entity's place in a settled game (``user_id`` ``COMPUTER_ID`` for computer players).
    ``rank`` 1 is first; equal ranks are a tie."""

    user_id: int
    name: str
    rank: int
    won: bool
    abandoned: bool = False


@dataclass(frozen=True)
class RatedGame:
    """A finished game as ratings see it (``Storage.settle_game``). No players: the game counts
    for nobody (ended early, a game in a DM) but is settled all the same."""

    game_id: int
    guild_id: int
    game_key: str
    started_at: float
    finished_at: float
    moves: int
    players: tuple[RatedPlayer, ...] = ()


@dataclass
class RatingRow:
    """One member's (or the computer players') rating in one game in one server."""

    guild_id: int
    game_key: str
    user_id: int
    name: str
    mu: float
    sigma: float
    games: int = 0
    wins: int = 0
    updated_at: float = 0.0


@dataclass(frozen=True)
class LongestGame:
    """The longest settled game a member played in a server (``Storage.longest_game``)."""

    game_id: int
    game_key: str
    seconds: float
    moves: int


Rater = Callable[[Mapping[int, RatingRow]], Mapping[int, tuple[float, float]]]
"""Given the current ratings of a game's players (those rated before), their new (mu, sigma):
what ``Storage.settle_game`` runs inside its transaction."""


class Storage(ABC):
    """What the bot needs from a database. One implementation per backend."""

    transient_errors: tuple[type[BaseException], ...] = (StorageUnavailable,)
    """The backend's errors that may pass if tried again later (a locked or full database, a lost
    connection); callers back off and retry instead of giving up. Backends translate their
    driver's errors into :class:`StorageError` subclasses at their boundary."""

    def forget(self, game_id: int | None = None) -> None:
        """Drop whatever the backend keeps in memory of one game (or of everything), for whoever
        changed the database behind its back (a repair by hand, a test). A backend that keeps
        nothing has nothing to drop; every write through the storage keeps its memory current."""
        return None

    async def listen(self, on_new_deadline: Callable[[], None]) -> bool:
        """Call ``on_new_deadline`` whenever ANOTHER process stores a deadline this one has not
        seen, so its scheduler wakes for it instead of at its next pass. True when the backend
        can tell (PostgreSQL's LISTEN/NOTIFY); a single-process backend has no other process to
        hear from, returns False and never calls it."""
        return False

    @abstractmethod
    async def open(self) -> None: ...
    @abstractmethod
    async def close(self) -> None: ...

    # games
    @abstractmethod
    async def create_game(self, *, guild_id: int | None, channel_id: int | None, game_key: str,
                          seed: int, options: dict[str, Any], host_id: int | None,
                          deadline: int | None, now: float, seats: Sequence[SeatRow] = ()) -> int:
        """A new lobby and its first seats, in one transaction (never a table without its host)."""
    @abstractmethod
    async def get_game(self, game_id: int) -> GameRow | None: ...
    async def game_and_deadlines(self, game_id: int) -> tuple[GameRow | None, list[DeadlineRow]]:
        """A game and, while it runs, its deadlines (none otherwise): what a player's move starts
        from. A backend that can reads both at once (PostgreSQL: one statement, one snapshot)."""
        game = await self.get_game(game_id)
        if game is None or game.status != "active":
            return game, []
        return game, await self.deadlines(game_id)
    @abstractmethod
    async def list_games(self, *, guild_id: int | None = None,
                         statuses: Sequence[str] = ("lobby", "active")) -> list[GameRow]: ...
    @abstractmethod
    async def games_of_user(self, user_id: int, statuses: Sequence[str] = ("active",)) -> list[GameRow]: ...
    @abstractmethod
    async def page_games(self, *, guild_id: int, statuses: Sequence[str] = ("lobby", "active"),
                         limit: int = 15, offset: int = 0) -> GamePage:
        """A server's games, most recently active first: ``limit`` of them from ``offset``, with
        the total."""
    @abstractmethod
    async def search_games(self, *, guild_id: int | None, user_id: int, statuses: Sequence[str],
                           text: str = "", game_keys: Sequence[str] = (),
                           limit: int = 25) -> list[GameRow]:
        """At most ``limit`` games, most recently active first: the server's (``guild_id``), or
        without a server those where ``user_id`` is seated. With ``text``, only games whose number
        or a seat's name contains it, or whose game is one of ``game_keys``."""
    @abstractmethod
    async def games_near(self, *, guild_id: int, channel_id: int | None, user_id: int,
                         statuses: Sequence[str], limit: int = 25) -> list[GameRow]:
        """At most ``limit`` of a server's games played in ``channel_id`` (its lobby channel or its
        thread) or with ``user_id`` seated: the candidates when a command names no game."""
    @abstractmethod
    async def count_tables(self, guild_id: int, user_id: int, *,
                           lobbies_since: float = 0.0) -> TableCounts:
        """Open tables in a server, and those of them the member is seated at (the limits)."""
    @abstractmethod
    async def update_game(self, game_id: int, **fields: Any) -> None: ...
    @abstractmethod
    async def set_seats(self, game_id: int, seats: Sequence[SeatRow], *,
                        now: float | None = None) -> None:
        """Replace a lobby's seats (and, given ``now``, mark the table active at that time)."""
    @abstractmethod
    async def start_game(self, game_id: int, *, seats: Sequence[SeatRow], state: dict[str, Any],
                         opened: Mapping[int, int], deadlines: Sequence[DeadlineRow],
                         now: float) -> None: ...
    @abstractmethod
    async def commit_action(self, game_id: int, *, expected_version: int, seat: int,
                            action: dict[str, Any], origin: str, user_id: int | None,
                            state: dict[str, Any], events: Sequence[dict[str, Any]],
                            status: str, result: dict[str, Any] | None,
                            opened: Mapping[int, int], answered: Mapping[int, int],
                            deadlines: Sequence[DeadlineRow], now: float,
                            prompt_kind: str | None = None, secret: bool | None = None) -> int:
        """Append the action and its events, store the new state, version and prompt instances,
        replace the deadlines — all or nothing. Raises VersionConflict if the game is no longer at
        ``expected_version`` (another process won the race); returns the new version.

        The action's number in the log (its ``n``) is the version it made, less one: a game's
        actions and the versions they made stay paired after an undo removed some of them (the
        numbers then have gaps; the order is what counts).

        ``state`` and ``result`` are plain JSON values, exactly as a read gives them back (lists,
        never tuples; text keys only: what ``Engine.to_json`` returns, checked by the conformance
        suite), and nobody changes them afterwards: a storage may remember them as given.

        ``prompt_kind`` and ``secret`` are stored with the action (see :class:`ActionRow`): the
        kind of decision it answered and whether a running game's export withholds it."""
    @abstractmethod
    async def undo_actions(self, game_id: int, *, expected_version: int, keep: int,
                           state: dict[str, Any], events: Sequence[dict[str, Any]],
                           opened: Mapping[int, int], answered: Mapping[int, int],
                           deadlines: Sequence[DeadlineRow], now: float) -> int:
        """Take back every action after the first ``keep`` of the log: remove them and the events
        they made (earlier undo notices, kind ``"undo"``, stay), store the rebuilt state, the
        undo's own ``events``, a new version and prompt instances, replace the deadlines — all or
        nothing. The version goes up, never back, so a ticket drawn before the undo never matches
        a decision opened by it. Raises VersionConflict if the game is no longer active at
        ``expected_version`` or is paused (as ``commit_action``); returns the new version."""
    @abstractmethod
    async def actions(self, game_id: int) -> list[tuple[int, dict[str, Any], str]]:
        """The game's log in order, each action an :class:`ActionRow` (declared as the plain
        triple its older readers take, which it is)."""
    @abstractmethod
    async def events(self, game_id: int, *, viewer_seat: int | None,
                     limit: int = 20) -> list[EventRow]: ...

    # deadlines
    @abstractmethod
    async def deadlines(self, game_id: int) -> list[DeadlineRow]: ...
    @abstractmethod
    async def next_deadline_time(self, owner: str | None = None) -> float | None:
        """When the next reminder or deadline falls due. With ``owner``, a deadline another owner
        holds a claim on counts from when that claim expires (``claim_deadlines``): a process
        sleeps past what another is handling instead of waking for it again and again."""
    @abstractmethod
    async def due_deadlines(self, now: float) -> list[DeadlineRow]:
        """Every deadline or reminder due at ``now``, claimed or not (a plain read)."""

    async def claim_deadlines(self, now: float, owner: str, lease_s: float,
                              limit: int = 100) -> list[DeadlineRow]:
        """Take up to ``limit`` due deadlines for ``owner`` (one process's scheduler) for
        ``lease_s`` seconds, in due order: no other owner gets them until the lease expires, so
        of several processes exactly one handles each, and a claim of a process that died comes
        back when its lease runs out. The owner's own unexpired claims are returned again (its
        retries). Handling a deadline ends the claim: the timeout's action replaces the row, a
        reminder's ``mark_reminded`` releases it.

        This default claims nothing (a backend serving one process): it is ``due_deadlines``."""
        return (await self.due_deadlines(now))[:limit]

    @abstractmethod
    async def mark_reminded(self, game_id: int, seat: int, kind: str,
                            opened: int | None = None) -> bool:
        """Mark the reminder of a deadline (of prompt instance ``opened``, if given) as sent and
        release its claim; True only for the call that changed it, so that of several processes
        exactly one sends the reminder."""
    @abstractmethod
    async def clear_deadlines(self, game_id: int) -> None: ...
    @abstractmethod
    async def replace_deadlines(self, game_id: int, deadlines: Sequence[DeadlineRow]) -> None: ...

    # ratings
    @abstractmethod
    async def note_departure(self, d: Departure) -> None:
        """Remember that a member left a running game's seat (once per member and game)."""
    @abstractmethod
    async def departures(self, game_id: int) -> list[Departure]: ...
    @abstractmethod
    async def settle_game(self, game: RatedGame, rate: Rater, now: float) -> bool:
        """Record a finished game's places and update its players' ratings, games and wins, in one
        transaction that holds off every other settlement of the same server and game while it
        reads and writes the ratings (``rate`` computes the new ones from those it reads). False,
        changing nothing, if the game was settled before: a game counts exactly once."""
    @abstractmethod
    async def unsettled_games(self, limit: int = 100) -> list[int]:
        """Finished games of a server that were never settled (a crash or a failure between the
        game's last move and its settlement), oldest first."""
    @abstractmethod
    async def leaderboard(self, guild_id: int, game_key: str, *, limit: int = 10,
                          offset: int = 0) -> tuple[list[RatingRow], int]:
        """A page of a server's members rated in a game, best first (the conservative rating
        mu − 3σ), and how many there are; computer players left out."""
    @abstractmethod
    async def ratings_of(self, guild_id: int, user_id: int) -> list[RatingRow]:
        """A member's ratings in a server, one per game they played there."""
    @abstractmethod
    async def longest_game(self, guild_id: int, user_id: int) -> LongestGame | None:
        """The member's settled game in a server that ran longest (opening to last move)."""

    # player preferences, time away and paused games
    @abstractmethod
    async def player_prefs(self, user_ids: Sequence[int]) -> dict[int, PlayerPrefs]:
        """The preferences of each of ``user_ids``: defaults for a member who never set any. One
        statement however many members (a step reads those of the seats it asks to decide)."""
    @abstractmethod
    async def save_player_prefs(self, prefs: PlayerPrefs) -> None: ...
    @abstractmethod
    async def pause_game(self, game_id: int, *, by: int | None, now: float) -> GamePause | None:
        """Pause a running game in one transaction: its deadlines are taken out (kept in the
        pause, so no reminder or timeout falls due) and no action commits until it resumes
        (``commit_action`` raises ``VersionConflict``). None, changing nothing, if it is paused
        already or not running."""
    @abstractmethod
    async def resume_game(self, game_id: int, *, now: float) -> GamePause | None:
        """End a game's pause in one transaction: its frozen deadlines come back shifted by the
        time it was paused (what was left of each is left again) and that time is added to
        ``used``. Returns the pause as it was (None if the game was not paused: of two processes
        resuming at once exactly one gets it). A game no longer running gets no deadlines back."""
    @abstractmethod
    async def game_pause(self, game_id: int) -> GamePause | None:
        """The game's pause (``paused_at`` None when it is not paused; None: no such game)."""
    @abstractmethod
    async def paused_games(self) -> list[GamePause]:
        """Every running game paused now, the earliest paused first."""

    # settings and DMs
    @abstractmethod
    async def guild_settings(self, guild_id: int) -> GuildSettings: ...
    @abstractmethod
    async def save_guild_settings(self, s: GuildSettings) -> None: ...
    @abstractmethod
    async def set_dm_reachable(self, user_id: int, reachable: bool, now: float) -> None: ...
    @abstractmethod
    async def dm_reachable(self, user_id: int) -> bool | None: ...
    @abstractmethod
    async def note_dm_notice(self, game_id: int, user_id: int) -> bool:
        """Record that the thread was told this user cannot be DMed; False if already recorded."""
    @abstractmethod
    async def dm_channel(self, user_id: int) -> int | None:
        """The id of the DM channel Discord opened with this user (None: none is known)."""
    @abstractmethod
    async def log_posted(self, game_id: int) -> int | None:
        """The game version up to which its log lines are posted in its thread (None: not told)."""
    @abstractmethod
    async def set_log_posted(self, game_id: int, version: int) -> None: ...
    @abstractmethod
    async def set_dm_channel(self, user_id: int, channel_id: int | None) -> None:
        """Remember the user's DM channel (None: forget it, Discord no longer knows it), so a
        DM is one request, with no look-up of the user, across restarts and processes."""

    # web pages (``bot.web``)
    @abstractmethod
    async def web_link(self, game_id: int, token: str, now: float) -> str:
        """The game's web token: the one stored, else ``token``, stored now (of two processes
        asking at once, both get the one stored first)."""
    @abstractmethod
    async def web_links(self, game_ids: Sequence[int]) -> dict[int, str]:
        """The stored web tokens of these games (games without one are left out)."""
    @abstractmethod
    async def game_of_link(self, token: str) -> int | None:
        """The game whose web token is ``token``, else None. Found by the token's digest (an
        index look-up tells nothing of the token) and compared in constant time."""

    @abstractmethod
    async def web_secret(self, candidate: str) -> str:
        """The secret player links are signed with: the one stored, else ``candidate``, stored now
        (every process signs and checks with the same one)."""
    @abstractmethod
    async def seat_link_generation(self, game_id: int, seat: int) -> int:
        """The generation of the seat's player link (0: never renewed); a link signed for an
        older generation is revoked."""
    @abstractmethod
    async def renew_seat_link(self, game_id: int, seat: int) -> int:
        """Revoke the seat's player links: its generation goes up by one; returns the new one."""

    async def announce_update(self, game_id: int, version: int) -> None:
        """Tell the other processes that the game reached ``version`` (their web pages update at
        once). A single-process backend has nobody to tell."""
        return None

    def listen_updates(self, on_update: Callable[[int, int], None] | None) -> bool:
        """Call ``on_update(game_id, version)`` when another process announces an update; False
        when this backend cannot hear other processes (a single process has none)."""
        return False

    _on_settings: Callable[[int], None] | None = None

    def listen_settings(self, on_change: Callable[[int], None] | None) -> None:
        """Call ``on_change(guild_id)`` when a server's settings changed (the web server closes
        the open pages of a server that turned them off at once): for each change the saving
        process reports (:meth:`settings_changed`), and over PostgreSQL for every process's
        change as its notice is heard."""
        self._on_settings = on_change

    def settings_changed(self, guild_id: int) -> None:
        """A server's settings changed and are stored: tell this process's listener."""
        if self._on_settings is not None:
            self._on_settings(guild_id)

    # saved decks
    @abstractmethod
    async def decks(self, user_id: int, game_key: str | None = None) -> list[DeckRow]:
        """A player's saved decks (of one game, if given), by name."""
    @abstractmethod
    async def deck(self, deck_id: int) -> DeckRow | None:
        """One saved deck, whoever owns it (the caller checks the owner)."""
    @abstractmethod
    async def create_deck(self, user_id: int, game_key: str, name: str, data: dict[str, Any], *,
                          now: float, limit: int) -> int | None:
        """Save a new deck and return its id — or None, storing nothing, when the player already
        has ``limit`` saved decks (of every game) or a deck of this game with the same name
        (:func:`deck_name_key`). Checked and written in one statement, so two commands at once
        cannot pass the limit together."""
    @abstractmethod
    async def update_deck(self, deck_id: int, user_id: int, data: dict[str, Any], *,
                          now: float) -> bool:
        """Replace the deck's data; False (nothing changed) if it is not this player's deck."""
    @abstractmethod
    async def delete_deck(self, deck_id: int, user_id: int) -> bool:
        """Delete the deck; False if it is not this player's deck (or is gone already)."""


# ------------------------------------------------------------------ rows, as both backends keep them
# (the same columns, the same JSON text and the same rows read back: a database written by one
# backend reads the same through the other, and a copy from SQLite to PostgreSQL moves text as is)


def from_json(text: str | None) -> Any:
    """A JSON column's value (None for NULL or an empty text)."""
    # (the standard library: orjson would read an integer past 64 bits as a float; reads of a
    # live game are rare, its row is kept in memory as written)
    return json.loads(text) if text else None


_SORTED = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS


def to_json(data: Any) -> str:
    """The JSON text a column stores: keys sorted, no spaces, so equal values store equal text
    (text as UTF-8 itself, not escaped). A move stores the whole state each time, so this is
    orjson; what it refuses (an integer past 64 bits) is written by the standard library. A
    float that is not a number has no JSON form: states never hold one (the conformance suite
    checks that every state reads back equal to itself, which such a float never does)."""
    return _dumps(data).decode()


def _dumps(data: Any) -> bytes:
    try:  # (keys that are all text, as in every state: orjson's quicker way)
        return orjson.dumps(data, option=orjson.OPT_SORT_KEYS)
    except TypeError:  # (orjson.JSONEncodeError is one)
        pass
    try:  # (a number as a key: written as text)
        return orjson.dumps(data, option=_SORTED)
    except TypeError:
        return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def to_json_utf8(data: Any) -> bytes:
    """:func:`to_json`'s text as UTF-8 bytes, for a driver that stores them as text as they are
    (SQLite's ``CAST(? AS TEXT)``): a state with any non-ASCII character (a name, a dash) would
    otherwise be decoded into a Python string only for the driver to encode it back."""
    return _dumps(data)


def link_digest(token: str) -> str:
    """What the storage indexes a game's web token by: its SHA-256, so that looking a token up
    takes no time that depends on how much of it is right."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def seat_map_json(seats: Mapping[int, int]) -> str:
    """A seat → number map (``opened``, ``answered``) as stored: JSON keys are text (orjson
    writes an integer key as text, and sorts keys as written, as ``to_json`` does)."""
    return orjson.dumps({int(k): int(v) for k, v in seats.items()}, option=_SORTED).decode()


def seat_map(text: str | None) -> dict[int, int]:
    """The seat → number map :func:`seat_map_json` stored."""
    return {int(k): int(v) for k, v in (from_json(text) or {}).items()}


GAME_COLUMNS = ("id, guild_id, channel_id, thread_id, game_key, status, version, seed, options, "
                "state, host_id, deadline, board_message_id, lobby_message_id, result, "
                "created_at, updated_at, opened, answered")
G_COLUMNS = ", ".join(f"g.{c.strip()}" for c in GAME_COLUMNS.split(","))
"""The game columns, qualified for queries that join or filter on other tables."""
DEADLINE_COLUMNS = "game_id, seat, kind, due_at, remind_at, reminded, opened"
RECENT_FIRST = "ORDER BY g.updated_at DESC, g.id DESC"
PREFS_COLUMNS = "user_id, pings, dms, quiet_start, quiet_end, zone, away_until, away_mode"
PAUSE_COLUMNS = "id, paused_at, paused_by, pause_used, pause_frozen"
UPDATABLE = {"channel_id", "thread_id", "status", "host_id", "deadline", "board_message_id",
             "lobby_message_id", "options", "result", "updated_at", "seed"}
"""The game columns ``update_game`` may set (any other name is a bug, refused)."""


def like_pattern(text: str) -> str:
    """A LIKE (or ILIKE) pattern matching ``text`` anywhere, its wildcards taken literally (the
    escape character is the backslash: PostgreSQL's default, SQLite's with ``ESCAPE '\\'``)."""
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def deadline_row(r: Sequence[Any]) -> DeadlineRow:
    """A deadline read with :data:`DEADLINE_COLUMNS`."""
    return DeadlineRow(r[0], r[1], r[2], r[3], r[4], bool(r[5]), int(r[6]))


def prefs_row(r: Sequence[Any]) -> PlayerPrefs:
    """A player's preferences read with :data:`PREFS_COLUMNS`."""
    return PlayerPrefs(r[0], bool(r[1]), r[2], r[3], r[4], r[5], r[6], r[7])


def pause_row(r: Sequence[Any]) -> GamePause:
    """A game's pause read with :data:`PAUSE_COLUMNS`."""
    return GamePause(r[0], r[1], r[2], float(r[3]), frozen_rows(r[4]))


def event_values(e: Mapping[str, Any]) -> tuple[str, str | None, str, str]:
    """An engine event as the ``events`` table stores it: text, recipients (NULL: public), kind
    and data."""
    data = e.get("data")
    return (e["text"], to_json(e["to"]) if e.get("to") is not None else None, e.get("kind", "log"),
            to_json(data) if data else "{}")
