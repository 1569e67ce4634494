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
    pass


class VersionConflict(StorageError):
    """The game changed since it was read (another action won the race)."""


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


@dataclass
class GuildSettings:
    guild_id: int
    default_deadline: int | None = None
    reminder_lead: int | None = None
    opener_role_id: int | None = None
    channels: list[int] = field(default_factory=list)


class Storage(ABC):
    """What the bot needs from a database. One implementation per backend."""

    transient_errors: tuple[type[BaseException], ...] = ()
    """The backend's errors that may pass if tried again later (a locked database, a lost
    connection); callers back off and retry instead of giving up."""

    @abstractmethod
    async def open(self) -> None: ...
    @abstractmethod
    async def close(self) -> None: ...

    # games
    @abstractmethod
    async def create_game(self, *, guild_id: int | None, channel_id: int | None, game_key: str,
                          seed: int, options: dict[str, Any], host_id: int | None,
                          deadline: int | None, now: float) -> int: ...
    @abstractmethod
    async def get_game(self, game_id: int) -> GameRow | None: ...
    @abstractmethod
    async def list_games(self, *, guild_id: int | None = None,
                         statuses: Sequence[str] = ("lobby", "active")) -> list[GameRow]: ...
    @abstractmethod
    async def games_of_user(self, user_id: int, statuses: Sequence[str] = ("active",)) -> list[GameRow]: ...
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
    async def next_deadline_time(self) -> float | None: ...
    @abstractmethod
    async def due_deadlines(self, now: float) -> list[DeadlineRow]: ...
    @abstractmethod
    async def mark_reminded(self, game_id: int, seat: int, kind: str) -> None: ...
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
