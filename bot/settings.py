"""A server's settings, registered once (as Red's Config registers them): the
:class:`GuildSettings` a server has (the storage keeps each field in the ``guild_settings``
column of its name) and, for each, one :class:`Setting` — the options of ``/herald settings``
that change it with their descriptions and how they are applied, and the line that shows it.
:mod:`cogs.admin` builds the command from :data:`SETTINGS`.

Adding a setting: a field of ``GuildSettings`` and one entry in :data:`SETTINGS`, both here, and a
migration step adding its column (no Discord type is named here: an option's ``kind`` says what
the command asks for)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from .errors import TableError
from .parsing import (
    duration_words,
    format_duration,
    parse_deadline,
    parse_duration,
    parse_reminder_lead,
)

# a server's limits unless it sets its own (lobbies, tables waiting to start, have their own: a
# server full of idle lobbies never stops a game from starting)
DEFAULT_TABLE_LIMIT = 50
"""Running games in one server."""
DEFAULT_LOBBY_LIMIT = 25
"""Lobbies in one server."""
DEFAULT_LOBBY_EXPIRY = 3 * 86400
"""Seconds a lobby may stay idle (nobody joins, leaves or starts it) before it closes itself."""
MIN_LOBBY_EXPIRY = 3600
MAX_LOBBY_EXPIRY = 30 * 86400
DEFAULT_MEMBER_LOBBY_LIMIT = 5
"""Lobbies one member may sit at in one server."""
DEFAULT_MEMBER_TABLE_LIMIT = 10
"""Open tables (lobbies and running games) one member may sit at in one server."""


@dataclass
class GuildSettings:
    guild_id: int
    default_deadline: int | None = None
    reminder_lead: int | None = None
    opener_role_id: int | None = None
    channels: list[int] = field(default_factory=list)
    table_limit: int | None = None
    """The server's own limits (None: the defaults above): they bound what one server, and one
    member, can make Herald store (a table is a row, forever)."""
    member_lobby_limit: int | None = None
    member_table_limit: int | None = None
    leaderboards: bool = True
    """False: the server turned ``/leaderboard`` off (ratings are still kept)."""
    lobby_limit: int | None = None
    """Lobbies the server may have at once (None: :data:`DEFAULT_LOBBY_LIMIT`)."""
    lobby_expiry: int | None = None
    """Seconds an idle lobby stays open (None: :data:`DEFAULT_LOBBY_EXPIRY`)."""
    web_pages: bool = True
    """False: the server turned its games' web pages off (links answer "not found")."""

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


MAX_TABLE_LIMIT = 1000
"""The most open tables a server may allow itself (each is stored, listed and scheduled)."""
MAX_MEMBER_LIMIT = 100


class Defaults(Protocol):
    """What the bot's configuration gives a server that set nothing (``bot.config.Config``)."""

    @property
    def default_deadline(self) -> int: ...
    @property
    def reminder_lead(self) -> int: ...
    @property
    def web_url(self) -> str | None: ...


@dataclass(frozen=True)
class Option:
    """One option of ``/herald settings``."""

    name: str
    kind: Literal["text", "flag", "role", "channel", "count"]
    """What it asks for: a text, true/false, a role, a text channel, a whole number (``lo``–``hi``)."""
    description: str
    lo: int = 0
    hi: int = 0


Given = Mapping[str, Any]
"""The options given to one call of the command, by name (a role or channel as its ``id``; a
role that is the server's @everyone as None)."""


def _same(value: Any) -> Any:
    return value


@dataclass(frozen=True)
class Setting:
    name: str
    options: tuple[Option, ...] = ()
    parse: Callable[[Any], Any] = _same
    """The setting's value from its one option's (raising ``TableError`` for a bad one)."""
    apply: Callable[[GuildSettings, Given], bool] | None = None
    """For a setting of several options: change ``settings`` from those given (at least one);
    whether that changed anything."""
    line: Callable[[GuildSettings, Defaults], str] | None = None
    """The line ``/herald settings`` shows (None: shown on another setting's line)."""

    def change(self, settings: GuildSettings, given: Given) -> bool:
        if self.apply is not None:
            return self.apply(settings, given)
        [value] = given.values()
        setattr(settings, self.name, self.parse(value))
        return True


def _count(name: str, description: str, hi: int) -> Option:
    return Option(name, "count", description, 1, hi)


def _deadline(s: GuildSettings, d: Defaults) -> int:
    return s.default_deadline or d.default_deadline


def _reminder_line(s: GuildSettings, d: Defaults) -> str:
    lead = s.reminder_lead if s.reminder_lead is not None else d.reminder_lead
    return (f"• Reminder: **{format_duration(lead)}** before a deadline"
            + (" (longer than the deadline: reminders come at half time)"
               if lead >= _deadline(s, d) else ""))


def _opener(s: GuildSettings, given: Given) -> bool:
    role, everyone = given.get("opener_role"), given.get("everyone_opens")
    if role is not None and everyone:
        raise TableError("choose either `opener_role` or `everyone_opens`, not both.")
    if role is not None:
        s.opener_role_id = role or None  # (0: the @everyone role, so anyone)
    if everyone:
        s.opener_role_id = None
    return role is not None or bool(everyone)


def _channels(s: GuildSettings, given: Given) -> bool:
    added, removed = given.get("add_channel"), given.get("remove_channel")
    changed = False
    if added is not None and added not in s.channels:
        s.channels.append(added)
        changed = True
    if removed is not None:
        if removed not in s.channels:
            raise TableError(f"<#{removed}> is not in the list of table channels.")
        s.channels.remove(removed)
        changed = True
    return changed


def _lobby_expiry(text: str) -> int:
    return parse_duration(text, what="lobby expiry", lo=MIN_LOBBY_EXPIRY, hi=MAX_LOBBY_EXPIRY)


SETTINGS: tuple[Setting, ...] = (
    Setting(
        "default_deadline",
        (Option("deadline", "text", "default time per decision, e.g. 12h (1 minute – 14 days)"),),
        parse_deadline,
        line=lambda s, d: f"• Default deadline: **{format_duration(_deadline(s, d))}**"),
    Setting(
        "reminder_lead",
        (Option("reminder", "text", "how long before a deadline to remind, e.g. 1h"),),
        parse_reminder_lead, line=_reminder_line),
    Setting(
        "opener_role_id",
        (Option("opener_role", "role", "only this role may open tables"),
         Option("everyone_opens", "flag", "let everyone open tables again")),
        apply=_opener,
        line=lambda s, d: "• Who may open tables: "
                     + (f"<@&{s.opener_role_id}>" if s.opener_role_id else "everyone")),
    Setting(
        "channels",
        (Option("add_channel", "channel",
                "allow tables in this channel (once any is set, only listed channels)"),
         Option("remove_channel", "channel", "stop allowing tables in this channel")),
        apply=_channels,
        line=lambda s, d: "• Table channels: "
                     + (", ".join(f"<#{c}>" for c in s.channels) if s.channels else "any channel")),
    Setting(
        "table_limit",
        (_count("table_limit", "running games this server may have at once "
                f"(default {DEFAULT_TABLE_LIMIT})", MAX_TABLE_LIMIT),),
        line=lambda s, d: (
            f"• Running games: at most **{s.limits.tables}** in this server; tables waiting to "
            f"start: at most **{s.limits.lobbies}**, each closing after "
            f"**{duration_words(s.lobby_ttl)}** with nobody joining, leaving or starting it")),
    Setting(
        "member_lobby_limit",
        (_count("member_lobby_limit", "tables waiting to start one member may sit at "
                f"(default {DEFAULT_MEMBER_LOBBY_LIMIT})", MAX_MEMBER_LIMIT),),
        line=lambda s, d: (
            f"• Each member: at most **{s.limits.member_lobbies}** tables waiting to start and "
            f"**{s.limits.member_tables}** tables in all")),
    Setting(
        "member_table_limit",
        (_count("member_table_limit", "open tables one member may sit at, lobbies included "
                f"(default {DEFAULT_MEMBER_TABLE_LIMIT})", MAX_MEMBER_LIMIT),)),
    Setting(
        "leaderboards",
        (Option("leaderboards", "flag",
                "show /leaderboard and ratings in /stats here (ratings are kept either way)"),),
        line=lambda s, d: ("• Leaderboards and ratings: "
                           f"**{'shown' if s.leaderboards else 'hidden'}**")),
    Setting(
        "lobby_limit",
        (_count("lobby_limit", "tables waiting to start this server may have at once "
                f"(default {DEFAULT_LOBBY_LIMIT})", MAX_TABLE_LIMIT),)),
    Setting(
        "lobby_expiry",
        (Option("lobby_expiry", "text",
                "how long a table nobody touches waits to start before it closes, e.g. 12h, 3d "
                f"(default {duration_words(DEFAULT_LOBBY_EXPIRY)})"),),
        _lobby_expiry),
    Setting(
        "web_pages",
        (Option("web_pages", "flag", "give this server's games their web pages and player links "
                "(when Herald has a web address)"),),
        line=lambda s, d: (f"• Web pages of this server's games: **{'on' if s.web_pages else 'off'}**"
                           + ("" if d.web_url else
                              " (Herald has no web address set, so there are none)"))),
)
"""Every setting a server stores, in the order of the ``GuildSettings`` fields and the command's
options."""

OPTIONS: tuple[Option, ...] = tuple(o for s in SETTINGS for o in s.options)


def apply_options(settings: GuildSettings, given: Given) -> bool:
    """Change ``settings`` from the options given (None values are options not given); whether
    anything changed."""
    changed = False
    for setting in SETTINGS:
        mine = {o.name: given[o.name] for o in setting.options
                if o.name in given and given[o.name] is not None}
        if mine:
            changed = setting.change(settings, mine) or changed
    return changed


def shown(settings: GuildSettings, defaults: Defaults) -> list[str]:
    """The lines that show a server's settings, in force (its own, else the defaults)."""
    return [s.line(settings, defaults) for s in SETTINGS if s.line is not None]

