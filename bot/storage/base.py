"""The storage interface: the rows the bot reads and writes, and what a backend must do.

Only storage backends speak SQL. Every accepted action is one transaction: append to the action
log, record its events, update the state, version and open-prompt instances (only if the version
is still the one that was read: an optimistic check) and replace the game's open deadlines.
:class:`Storage` is what the rest of the bot uses; :mod:`bot.storage.sqlite` is the SQLite backend
and a PostgreSQL backend implements the same methods.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


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
class EventRow:
    n: int
    version: int
    text: str
    to: list[int] | None
    kind: str
    data: dict[str, Any]
    created_at: float


DEFAULT_TABLE_LIMIT = 50
"""Open tables (lobbies and running games) one server may have at once, unless it sets its own."""
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

    @property
    def limits(self) -> TableLimits:
        """The limits in force: the server's own, else the defaults."""
        return TableLimits(
            tables=self.table_limit or DEFAULT_TABLE_LIMIT,
            member_lobbies=self.member_lobby_limit or DEFAULT_MEMBER_LOBBY_LIMIT,
            member_tables=self.member_table_limit or DEFAULT_MEMBER_TABLE_LIMIT)


@dataclass(frozen=True)
class TableLimits:
    tables: int
    member_lobbies: int
    member_tables: int


@dataclass(frozen=True)
class TableCounts:
    """What counts against the limits, for one server and one member (``Storage.count_tables``)."""

    tables: int
    """Open tables (lobbies and running games) in the server."""
    member_lobbies: int
    """Lobbies in the server the member is seated at."""
    member_tables: int
    """Open tables in the server the member is seated at (lobbies included)."""


@dataclass(frozen=True)
class GamePage:
    """One page of a listing (``Storage.page_games``): the games, and how many there are in all."""

    games: list[GameRow]
    total: int


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
    async def count_tables(self, guild_id: int, user_id: int) -> TableCounts:
        """Open tables in a server, and those of them the member is seated at (the limits)."""
    @abstractmethod
    async def update_game(self, game_id: int, **fields: Any) -> None: ...
    @abstractmethod
    async def set_seats(self, game_id: int, seats: Sequence[SeatRow]) -> None: ...
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
                            deadlines: Sequence[DeadlineRow], now: float) -> int:
        """Append the action and its events, store the new state, version and prompt instances,
        replace the deadlines — all or nothing. Raises VersionConflict if the game is no longer at
        ``expected_version`` (another process won the race); returns the new version."""
    @abstractmethod
    async def actions(self, game_id: int) -> list[tuple[int, dict[str, Any], str]]: ...
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
