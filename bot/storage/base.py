"""The storage's rows: what the bot reads and writes, the errors a backend raises, and how both
backends store the rows (the same columns, the same JSON text)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

import orjson

from ..settings import GuildSettings


class StorageError(Exception):
    """A database failure, its message one sentence for the admin (players read the one
    :func:`bot.refusals.sentence_for` picks). ``stored``: what is known of the failed write
    (False: nothing stored; None: it may have been, the database failed while committing and
    could not be asked), so nobody is told "not saved" about something that was."""

    def __init__(self, message: str = "", *, stored: bool | None = False) -> None:
        super().__init__(message)
        self.stored = stored


class VersionConflict(StorageError):
    """The game changed since it was read (another action won the race)."""


class StorageOpenError(StorageError):
    """The database cannot be used (missing tables, damaged, empty, another program's, newer,
    read-only, out of reach); raised by ``open`` after closing what it opened, nothing changed."""


class StorageUnavailable(StorageError):
    """A failure that may pass if tried again later: the scheduler retries, a player is asked to."""


class StorageBusy(StorageUnavailable):
    """Another process held the database's write lock for longer than the busy timeout."""


class StorageFull(StorageUnavailable):
    """The disk, a quota or a file-size limit is full (or the disk is failing)."""


class StorageReadOnly(StorageUnavailable):
    """The database file, its folder or its file system became read-only."""


class StorageCorrupt(StorageError):
    """The database file is damaged: restoring a backup helps, trying again does not."""


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
    """The time of last activity: exact when a game starts or ends, otherwise to about a minute
    (SQLite keeps a stamp less than ``ACTIVITY_STEP`` old, sparing an index rewrite per move)."""
    seats: list[SeatRow] = field(default_factory=list)
    opened: dict[int, int] = field(default_factory=dict)
    """Seat → the game version at which the seat's open prompt opened: the prompt's *instance*.
    A seat asked again after answering (next turn, next round) gets a new instance."""
    answered: dict[int, int] = field(default_factory=dict)
    """Seat → the instance of the prompt it answered last (which a game may let it revise, e.g.
    Cult Wars orders until the last cult submits)."""

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
    """One member's notification preferences and time away, the same in every server. Quiet
    hours are minutes after local midnight (crossing midnight when the start is later than the
    end) in ``zone``: a fixed UTC offset ("+02:00") or an IANA zone ("Europe/Berlin")."""

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
    """A game's pause: while ``paused_at`` is set nobody moves and its deadlines wait in
    ``frozen``. ``used``: the seconds its earlier pauses took (for the game's limit)."""

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


def frozen_rows(text: str | None) -> list[DeadlineRow]:
    """The deadlines :func:`frozen_text` stored (the game's id is filled in by :class:`GamePause`)."""
    return [DeadlineRow(0, int(r[0]), str(r[1]), float(r[2]),
                        None if r[3] is None else float(r[3]), bool(r[4]), int(r[5]))
            for r in json.loads(text or "[]")]


def thawed(pause: GamePause, now: float) -> list[DeadlineRow]:
    """A paused game's deadlines at its resumption, each moved on by the time paused."""
    shift = max(0.0, now - (pause.paused_at if pause.paused_at is not None else now))
    return [DeadlineRow(pause.game_id, d.seat, d.kind, d.due_at + shift,
                        None if d.remind_at is None else d.remind_at + shift, d.reminded, d.opened)
            for d in pause.frozen]


class ActionRow(tuple[int, dict[str, Any], str]):
    """One stored action, a plain ``(seat, action, origin)`` triple, with what it answered as
    judged at commit: ``prompt_kind`` (None: none matched) and ``secret``, whether a running
    game's export withholds it (both None before schema 14)."""

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


@dataclass(frozen=True)
class TableCounts:
    """What counts against the limits, for one server and one member (a lobby idle since before
    the count's cutoff counts nowhere: it is closing)."""

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
    """A player's saved deck for a card game; ``data`` is the game's own."""

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
"""The ``user_id`` the computer players are rated under, one entity per game (no Discord
account has id 0; leaderboards and ``/stats`` leave it out)."""


@dataclass(frozen=True)
class Departure:
    """A member who left a running game's seat (resigned, removed, replaced): ranked last."""

    game_id: int
    seat: int
    user_id: int
    name: str


@dataclass(frozen=True)
class RatedPlayer:
    """One entity's place in a settled game: ``rank`` 1 is first, equal ranks a tie."""

    user_id: int
    name: str
    rank: int
    won: bool
    abandoned: bool = False


@dataclass(frozen=True)
class RatedGame:
    """A finished game as ratings see it; with no players it counts for nobody (ended early, in a
    DM) but is settled all the same."""

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
"""The players' new (mu, sigma) from their ratings so far (run inside ``settle_game``)."""


# --------------------------------------------- rows, as both backends keep them (the same text)


def from_json(text: str | None) -> Any:
    """A JSON column's value (None for NULL or ''); the standard library, as orjson reads an
    integer past 64 bits as a float (reads are rare: live games are kept as written)."""
    return json.loads(text) if text else None


_SORTED = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS


def to_json(data: Any) -> str:
    """The JSON text a column stores: keys sorted, no spaces, UTF-8 unescaped, so equal values
    store equal text. orjson (a move stores the whole state), the standard library for what it
    refuses (an integer past 64 bits). States hold no NaN (the conformance suite checks)."""
    return to_json_utf8(data).decode()


def to_json_utf8(data: Any) -> bytes:
    """:func:`to_json`'s text as UTF-8 bytes, for SQLite's ``CAST(? AS TEXT)`` (no decoding to
    a string only for the driver to encode it back)."""
    try:  # (keys that are all text, as in every state: orjson's quicker way)
        return orjson.dumps(data, option=orjson.OPT_SORT_KEYS)
    except TypeError:  # (orjson.JSONEncodeError is one)
        pass
    try:  # (a number as a key: written as text)
        return orjson.dumps(data, option=_SORTED)
    except TypeError:
        return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def link_digest(token: str) -> str:
    """A web token's SHA-256, what it is indexed by (a look-up's time tells nothing of it)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def seat_map_json(seats: Mapping[int, int]) -> str:
    """A seat → number map (``opened``, ``answered``) as stored (keys as text, sorted)."""
    return orjson.dumps({int(k): int(v) for k, v in seats.items()}, option=_SORTED).decode()


def seat_map(text: str | None) -> dict[int, int]:
    """The seat → number map :func:`seat_map_json` stored."""
    return {int(k): int(v) for k, v in (from_json(text) or {}).items()}


GAME_COLUMNS = ("id, guild_id, channel_id, thread_id, game_key, status, version, seed, options, "
                "state, host_id, deadline, board_message_id, lobby_message_id, result, "
                "created_at, updated_at, opened, answered")
G_COLUMNS = ", ".join(f"g.{c.strip()}" for c in GAME_COLUMNS.split(","))
"""The game columns, qualified for queries that join or filter on other tables."""
SEAT_COLUMNS = "seat, user_id, is_bot, name"
DEADLINE_COLUMNS = "game_id, seat, kind, due_at, remind_at, reminded, opened"
RECENT_FIRST = "ORDER BY g.updated_at DESC, g.id DESC"
PREFS_COLUMNS = "user_id, pings, dms, quiet_start, quiet_end, zone, away_until, away_mode"
PAUSE_COLUMNS = "id, paused_at, paused_by, pause_used, pause_frozen"
UPDATABLE = {"channel_id", "thread_id", "status", "host_id", "deadline", "board_message_id",
             "lobby_message_id", "options", "result", "updated_at", "seed"}
"""The game columns ``update_game`` may set (any other name is a bug, refused)."""


def like_pattern(text: str) -> str:
    """A LIKE pattern matching ``text`` anywhere, its wildcards escaped with a backslash."""
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def seat_row(r: Sequence[Any]) -> SeatRow:
    """A seat read with :data:`SEAT_COLUMNS`."""
    return SeatRow(r[0], r[1], bool(r[2]), r[3])


def deadline_row(r: Sequence[Any]) -> DeadlineRow:
    """A deadline read with :data:`DEADLINE_COLUMNS`."""
    return DeadlineRow(r[0], r[1], r[2], r[3], r[4], bool(r[5]), int(r[6]))


def prefs_row(r: Sequence[Any]) -> PlayerPrefs:
    """A player's preferences read with :data:`PREFS_COLUMNS`."""
    return PlayerPrefs(r[0], bool(r[1]), r[2], r[3], r[4], r[5], r[6], r[7])


def pause_row(r: Sequence[Any]) -> GamePause:
    """A game's pause read with :data:`PAUSE_COLUMNS`."""
    return GamePause(r[0], r[1], r[2], float(r[3]), frozen_rows(r[4]))


SETTINGS_COLUMNS = tuple(f.name for f in fields(GuildSettings) if f.name != "guild_id")
"""The columns of ``guild_settings`` after its key: the :class:`GuildSettings` fields."""
_UNSET = GuildSettings(0)


def settings_row(guild_id: int, r: Sequence[Any]) -> GuildSettings:
    """A server's settings read with :data:`SETTINGS_COLUMNS` (a list stored as JSON text, a
    NULL true/false column the field's default)."""
    values = {}
    for name, v in zip(SETTINGS_COLUMNS, r, strict=True):
        unset = getattr(_UNSET, name)
        if isinstance(unset, list):
            v = list(from_json(v) or [])
        elif isinstance(unset, bool):
            v = unset if v is None else bool(v)
        values[name] = v
    return GuildSettings(guild_id, **values)


def settings_values(s: GuildSettings) -> list[Any]:
    """A server's settings as stored: its id, then :data:`SETTINGS_COLUMNS`."""
    values = [getattr(s, name) for name in SETTINGS_COLUMNS]
    return [s.guild_id, *(to_json(v) if isinstance(v, list) else v for v in values)]


def event_values(e: Mapping[str, Any]) -> tuple[str, str | None, str, str]:
    """An engine event as the ``events`` table stores it: text, recipients (NULL: public), kind
    and data."""
    data = e.get("data")
    return (e["text"], to_json(e["to"]) if e.get("to") is not None else None, e.get("kind", "log"),
            to_json(data) if data else "{}")
