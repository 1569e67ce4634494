"""Persistent components. Every custom_id is ``herald:<what>:<game id>[:…]`` — parsed on click by a
``DynamicItem`` template, so buttons keep working after a restart. No custom_id ever carries a
secret: choice menus carry the decision they answer (a :class:`~bot.session.Ticket`: the seat's
prompt instance and a digest of its options) and an index into the clicking player's own options,
so a menu drawn for an answered or changed decision is recognised and refused under the game lock.

Components reach their handlers through the small :class:`Handlers` protocol (the client exposes
``handlers``); nothing here knows how the bot is assembled. The game id in a custom_id is only a
claim of whoever sent the click: handlers find the game through ``Controller.game_for``, which
knows only the games of the interaction's server (in a DM, the clicking user's own).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Protocol, cast

import discord

from rules.engine import Choice

from .errors import TableError
from .parsing import parse_id
from .refusals import answering
from .session import OpenPrompt, Ticket
from .storage import GameRow

log = logging.getLogger("herald.views")

TICKET = r"(?P<ticket>\d+-[0-9a-f]+)"


class Handlers(Protocol):
    """What the platform's components call (implemented by :class:`bot.controller.Controller`)."""

    async def lobby_click(self, interaction: discord.Interaction, game_id: int, op: str) -> None: ...
    async def decide_click(self, interaction: discord.Interaction, game_id: int) -> None: ...
    async def hand_click(self, interaction: discord.Interaction, game_id: int) -> None: ...
    async def group_chosen(self, interaction: discord.Interaction, game_id: int, ticket: str,
                           value: str) -> None: ...
    async def choice_made(self, interaction: discord.Interaction, game_id: int, ticket: str,
                          value: str) -> None: ...
    async def rematch_click(self, interaction: discord.Interaction, game_id: int, op: str,
                            table_id: int | None) -> None: ...


class _HasHandlers(Protocol):
    handlers: Handlers


def handlers(interaction: discord.Interaction) -> Handlers:
    return cast(_HasHandlers, interaction.client).handlers


def first_value(interaction: discord.Interaction) -> str:
    data: Any = interaction.data or {}
    values = data.get("values") or ["0"]
    return str(values[0])


# ----------------------------------------------------------------- claimed ids

class Claims:
    """A mixin for :class:`discord.ui.DynamicItem` components whose custom_id carries numbers (a
    game, a version, a page). Each class reads its custom_id in ``claim``, where the numbers are
    checked (:func:`parse_id`); a number out of range (a forged ``herald:act:99…9:1``) does not
    reach the storage: the click gets the same sentence as a game number nobody has, and nothing
    is logged as a failure (an exception in ``from_custom_id`` would only be logged by
    discord.py, the member left with "interaction failed")."""

    refusal: TableError | None = None

    @classmethod
    def claim(cls, item: Any, match: re.Match[str]) -> Any:
        """The component for a clicked custom_id, its numbers checked: each class has its own."""
        raise TypeError(f"{cls.__name__} reads no custom_id: define claim()")

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: Any,
                             match: re.Match[str], /) -> Any:
        try:
            return cls.claim(item, match)
        except TableError as exc:
            refused = cls.__new__(cls)
            discord.ui.DynamicItem.__init__(cast(Any, refused), item)
            refused.refusal = exc
            return refused

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        if self.refusal is None:
            return True
        async with answering(interaction):
            raise self.refusal
        return False


def checked_ticket(text: str) -> str:
    """A ticket from a custom_id, its prompt instance range-checked (:meth:`Ticket.parse`)."""
    Ticket.parse(text)
    return text


# ----------------------------------------------------------------------- lobby

LOBBY_OPS = {
    "join": ("Join", discord.ButtonStyle.success),
    "leave": ("Leave", discord.ButtonStyle.secondary),
    "bot": ("Add computer player", discord.ButtonStyle.secondary),
    "start": ("Start", discord.ButtonStyle.primary),
    "cancel": ("Cancel", discord.ButtonStyle.danger),
}


class LobbyButton(Claims, discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=r"herald:lobby:(?P<game>\d+):(?P<op>join|leave|bot|start|cancel)"):
    def __init__(self, game_id: int, op: str, disabled: bool = False) -> None:
        label, style = LOBBY_OPS[op]
        super().__init__(discord.ui.Button(label=label, style=style, disabled=disabled,
                                           custom_id=f"herald:lobby:{game_id}:{op}"))
        self.game_id, self.op = game_id, op

    @classmethod
    def claim(cls, item: Any, match: re.Match[str]) -> Any:
        return cls(parse_id(match["game"]), match["op"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await handlers(interaction).lobby_click(interaction, self.game_id, self.op)


STRENGTH_LABELS = {
    "easy": "Add an easy computer player",
    "normal": "Add a normal computer player",
    "hard": "Add a hard computer player",
}
STRENGTH_NOTES = {
    "easy": "The quick heuristic player, with some noise",
    "normal": "Searches ahead, about a tenth of a second a decision",
    "hard": "Searches ahead, about half a second a decision",
}

add_computer: Callable[[discord.Interaction, int, str], Awaitable[None]] | None = None
"""Seat a computer player of a chosen strength at a lobby and show the lobby again (set by
``cogs.tables``); without it the strength menu adds one as the button does."""


class LobbyStrengthSelect(Claims, discord.ui.DynamicItem[discord.ui.Select[Any]],
                          template=r"herald:lobbybot:(?P<game>\d+)"):
    """The host's menu to seat a computer player of a chosen strength (``rules.search``)."""

    def __init__(self, game_id: int, disabled: bool = False) -> None:
        super().__init__(discord.ui.Select(
            placeholder="Add a computer player of a chosen strength…", disabled=disabled,
            options=[discord.SelectOption(label=label, value=key, description=STRENGTH_NOTES[key])
                     for key, label in STRENGTH_LABELS.items()],
            custom_id=f"herald:lobbybot:{game_id}"))
        self.game_id = game_id

    @classmethod
    def claim(cls, item: Any, match: re.Match[str]) -> Any:
        return cls(parse_id(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        strength = first_value(interaction)
        if add_computer is None or strength not in STRENGTH_LABELS:
            await handlers(interaction).lobby_click(interaction, self.game_id, "bot")
            return
        await add_computer(interaction, self.game_id, strength)


def lobby_view(game_id: int, *, closed: bool = False) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for op in LOBBY_OPS:
        view.add_item(LobbyButton(game_id, op, disabled=closed))
    view.add_item(LobbyStrengthSelect(game_id, disabled=closed))
    return view


# ----------------------------------------------------------------------- board


class DecideButton(Claims, discord.ui.DynamicItem[discord.ui.Button[Any]],
                   template=r"herald:act:(?P<game>\d+):(?P<version>\d+)"):
    def __init__(self, game_id: int, version: int, label: str = "Decide") -> None:
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.primary,
                                           custom_id=f"herald:act:{game_id}:{version}"))
        self.game_id, self.version = game_id, version

    @classmethod
    def claim(cls, item: Any, match: re.Match[str]) -> Any:
        return cls(parse_id(match["game"]), parse_id(match["version"], what="board version", lo=0))

    async def callback(self, interaction: discord.Interaction) -> None:
        await handlers(interaction).decide_click(interaction, self.game_id)


class HandButton(Claims, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"herald:hand:(?P<game>\d+)"):
    def __init__(self, game_id: int) -> None:
        super().__init__(discord.ui.Button(label="My hand", style=discord.ButtonStyle.secondary,
                                           custom_id=f"herald:hand:{game_id}"))
        self.game_id = game_id

    @classmethod
    def claim(cls, item: Any, match: re.Match[str]) -> Any:
        return cls(parse_id(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await handlers(interaction).hand_click(interaction, self.game_id)


web_links: Callable[[int], str | None] | None = None
"""A game's public web page, when Herald serves them (set by ``bot.web.WebServer.start``)."""


def board_view(game_id: int, version: int, *, active: bool, has_prompts: bool) -> discord.ui.View | None:
    if not active:
        return None
    view = discord.ui.View(timeout=None)
    if has_prompts:
        view.add_item(DecideButton(game_id, version))
    view.add_item(HandButton(game_id))
    link = web_links(game_id) if web_links is not None else None
    if link:
        view.add_item(discord.ui.Button(label="Open in browser", url=link))
    return view


# ------------------------------------------------------------- player pages

player_links: Callable[[GameRow, int], Awaitable[str | None]] | None = None
"""A fresh link to a seat's own web page, when Herald serves them (set by ``bot.web``)."""
renew_player_link: Callable[[int, int], Awaitable[str]] | None = None
"""Revoke a member's links to their page of a game and give a new one (set by ``bot.web``)."""


async def with_player_link(view: discord.ui.View | None, game: GameRow, seat: int,
                           *, renew: bool = False) -> discord.ui.View | None:
    """``view`` with a "Your page" link button for the seat (and, with ``renew``, "New link"),
    when Herald serves player pages for this game; else ``view`` as it was."""
    try:
        link = await player_links(game, seat) if player_links is not None else None
    except Exception:  # (a failed look-up costs the button, never the message it rides on)
        log.exception("making a player page link failed", extra={"game_id": game.id})
        link = None
    if not link:
        return view
    view = view if view is not None else discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="Your page", url=link))
    if renew:
        view.add_item(NewLinkButton(game.id))
    return view


class NewLinkButton(Claims, discord.ui.DynamicItem[discord.ui.Button[Any]],
                    template=r"herald:newlink:(?P<game>\d+)"):
    """Revokes every link to the clicking member's page of the game and answers a new one."""

    def __init__(self, game_id: int) -> None:
        super().__init__(discord.ui.Button(label="New link", style=discord.ButtonStyle.secondary,
                                           custom_id=f"herald:newlink:{game_id}"))
        self.game_id = game_id

    @classmethod
    def claim(cls, item: Any, match: re.Match[str]) -> Any:
        return cls(parse_id(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async with answering(interaction):
            if renew_player_link is None:
                raise TableError("Herald serves no web pages now.")
            link = await renew_player_link(self.game_id, interaction.user.id)
            view = discord.ui.View(timeout=None)
            view.add_item(discord.ui.Button(label="Your page", url=link))
            await interaction.response.send_message(
                "Done: every older link to your page stopped working. Here is the new one.",
                view=view, ephemeral=True)


# ------------------------------------------------------------------ choices

PAGE = 23  # options per page, leaving room for "previous" / "more"
BUTTONS = 5
"""Up to this many choices are buttons; more make a select."""


class GroupSelect(Claims, discord.ui.DynamicItem[discord.ui.Select[Any]],
                  template=rf"herald:grp:(?P<game>\d+):{TICKET}"):
    """First level of a two-level menu: a group (``g:<n>``) or a choice standing alone (``c:<i>``)."""

    def __init__(self, game_id: int, ticket: str, options: Sequence[discord.SelectOption] = ()) -> None:
        super().__init__(discord.ui.Select(
            placeholder="Choose…", options=list(options)[:25] or [discord.SelectOption(label="-", value="g:0")],
            custom_id=f"herald:grp:{game_id}:{ticket}"))
        self.game_id, self.ticket = game_id, ticket

    @classmethod
    def claim(cls, item: Any, match: re.Match[str]) -> Any:
        return cls(parse_id(match["game"]), checked_ticket(match["ticket"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await handlers(interaction).group_chosen(interaction, self.game_id, self.ticket,
                                                 first_value(interaction))


class ChoiceSelect(Claims, discord.ui.DynamicItem[discord.ui.Select[Any]],
                   template=rf"herald:pick:(?P<game>\d+):{TICKET}:(?P<page>\d+)"):
    def __init__(self, game_id: int, ticket: str, page: int = 0,
                 options: Sequence[discord.SelectOption] = (), placeholder: str = "Choose…") -> None:
        super().__init__(discord.ui.Select(
            placeholder=placeholder[:150],
            options=list(options) or [discord.SelectOption(label="-", value="0")],
            custom_id=f"herald:pick:{game_id}:{ticket}:{page}"))
        self.game_id, self.ticket, self.page = game_id, ticket, page

    @classmethod
    def claim(cls, item: Any, match: re.Match[str]) -> Any:
        return cls(parse_id(match["game"]), checked_ticket(match["ticket"]), parse_id(match["page"], what="page", lo=0))

    async def callback(self, interaction: discord.Interaction) -> None:
        await handlers(interaction).choice_made(interaction, self.game_id, self.ticket,
                                                first_value(interaction))


class ChoiceButton(Claims, discord.ui.DynamicItem[discord.ui.Button[Any]],
                   template=rf"herald:btn:(?P<game>\d+):{TICKET}:(?P<idx>\d+)"):
    def __init__(self, game_id: int, ticket: str, idx: int, label: str = "?") -> None:
        super().__init__(discord.ui.Button(label=label[:80], style=discord.ButtonStyle.primary,
                                           custom_id=f"herald:btn:{game_id}:{ticket}:{idx}"))
        self.game_id, self.ticket, self.idx = game_id, ticket, idx

    @classmethod
    def claim(cls, item: Any, match: re.Match[str]) -> Any:
        return cls(parse_id(match["game"]), checked_ticket(match["ticket"]), parse_id(match["idx"], what="choice", lo=0))

    async def callback(self, interaction: discord.Interaction) -> None:
        await handlers(interaction).choice_made(interaction, self.game_id, self.ticket, str(self.idx))


_WORD = re.compile(r"[A-Za-z0-9']{3,}")


def shown_label(c: Choice) -> str:
    """What a choice is called on a button or in a menu: its label, preceded by its group (the
    card played) when the label alone does not name it — "Faith War — Against every other sect",
    but "End my turn" (group "End turn") and "Discard action cards…" stay as they are."""
    if not c.group:
        return c.label
    group_words = {w.lower() for w in _WORD.findall(c.group)} - {"skill"}
    label_words = {w.lower() for w in _WORD.findall(c.label)}
    if not group_words or group_words & label_words:
        return c.label
    return f"{c.group.removeprefix('Skill: ')} — {c.label}"


def choice_notes(open_: OpenPrompt, *, long_only: bool = False) -> str:
    """What each choice does, for the message above buttons (buttons show only a label; select
    options carry their description themselves). Empty when the choices have no descriptions or
    are shown in a select. ``long_only``: for the choice form, whose options carry the first 100
    characters of their description — only the choices whose description is longer, whole."""
    prompt = open_.prompt
    if long_only:
        return "\n".join(f"• **{shown_label(c)}** — {c.description}" for c in prompt.choices
                         if len(c.description or "") > 100)
    if len(prompt.choices) > BUTTONS or not any(c.description for c in prompt.choices):
        return ""
    return "\n".join(f"• **{shown_label(c)}** — {c.description}" if c.description else f"• **{shown_label(c)}**"
                     for c in prompt.choices)


def _option(c: Choice, value: str) -> discord.SelectOption:
    return discord.SelectOption(label=shown_label(c)[:100], value=value,
                                description=(c.description or None) and c.description[:100])


def group_key(c: Choice) -> str:
    """Choices without a group stand alone in the first menu, under their own label."""
    return c.group or c.label


def choice_view(game_id: int, open_: OpenPrompt, *, group: int | None = None,
                page: int = 0) -> discord.ui.View:
    """Buttons for a few choices; a select (paged) for more; group → choice when grouped. Every
    component carries the decision it answers."""
    prompt = open_.prompt
    ticket = str(open_.ticket)
    view = discord.ui.View(timeout=None)
    indexed = list(enumerate(prompt.choices))
    keys = list(dict.fromkeys(group_key(c) for c in prompt.choices))
    grouped = any(c.group for c in prompt.choices)
    if group is None and grouped and len(indexed) > BUTTONS and 1 < len(keys) <= 25:
        options = []
        for gi, key in enumerate(keys):
            members = [(i, c) for i, c in indexed if group_key(c) == key]
            if len(members) == 1:
                options.append(_option(members[0][1], f"c:{members[0][0]}"))
            else:
                options.append(discord.SelectOption(label=f"{key[:90]} ({len(members)})", value=f"g:{gi}"))
        view.add_item(GroupSelect(game_id, ticket, options))
        return view
    if group is not None and 0 <= group < len(keys):
        indexed = [(i, c) for i, c in indexed if group_key(c) == keys[group]]
    if len(indexed) <= BUTTONS and group is None:
        for i, c in indexed:
            view.add_item(ChoiceButton(game_id, ticket, i, shown_label(c)))
        return view
    start = page * PAGE
    chunk = indexed[start:start + PAGE]
    options = [_option(c, str(i)) for i, c in chunk]
    g = group if group is not None else -1
    if page > 0:
        options.insert(0, discord.SelectOption(label="◀ Previous options", value=f"page:{g}:{page - 1}"))
    if start + PAGE < len(indexed):
        options.append(discord.SelectOption(label="More options ▶", value=f"page:{g}:{page + 1}"))
    view.add_item(ChoiceSelect(game_id, ticket, page, options))
    return view


# ----------------------------------------------------------------------- rematch

REMATCH_OPS = {
    "new": ("Rematch", discord.ButtonStyle.success),
    "confirm": ("Confirm", discord.ButtonStyle.success),
    "start": ("Start now", discord.ButtonStyle.primary),
    "cancel": ("Cancel", discord.ButtonStyle.danger),
}


class RematchButton(Claims, discord.ui.DynamicItem[discord.ui.Button[Any]],
                    template=r"herald:rematch:(?P<game>\d+)(?::(?P<table>\d+):(?P<op>confirm|start|cancel))?"):
    """The final result's Rematch (``herald:rematch:<game>``) and the rematch lobby's buttons
    (``herald:rematch:<game>:<table>:<op>``): the old game and the new table are both claims,
    checked by the handler (the old game's result names its rematch)."""

    def __init__(self, game_id: int, op: str = "new", table_id: int | None = None,
                 disabled: bool = False) -> None:
        label, style = REMATCH_OPS[op]
        custom_id = f"herald:rematch:{game_id}" if table_id is None else f"herald:rematch:{game_id}:{table_id}:{op}"
        super().__init__(discord.ui.Button(label=label, style=style, disabled=disabled, custom_id=custom_id))
        self.game_id, self.op, self.table_id = game_id, op, table_id

    @classmethod
    def claim(cls, item: Any, match: re.Match[str]) -> Any:
        table = match["table"]
        return cls(parse_id(match["game"]), match["op"] or "new", parse_id(table, what="table") if table else None)

    async def callback(self, interaction: discord.Interaction) -> None:
        await handlers(interaction).rematch_click(interaction, self.game_id, self.op, self.table_id)


def rematch_view(game_id: int) -> discord.ui.View:
    """The Rematch button under a final result."""
    view = discord.ui.View(timeout=None)
    view.add_item(RematchButton(game_id))
    return view


def rematch_lobby_view(game_id: int, table_id: int, *, closed: bool = False) -> discord.ui.View:
    """Confirm / Start now / Cancel under a rematch lobby (``game_id``: the game it replays)."""
    view = discord.ui.View(timeout=None)
    for op in ("confirm", "start", "cancel"):
        view.add_item(RematchButton(game_id, op, table_id, disabled=closed))
    return view


ALL_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    LobbyButton, DecideButton, HandButton, GroupSelect, ChoiceSelect, ChoiceButton, RematchButton,
    NewLinkButton, LobbyStrengthSelect,
)
