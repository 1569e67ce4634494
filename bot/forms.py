"""Game forms, one mechanism for every game: panels for free-form prompts and restart-proof modals.

* A **panel** is a game's own message for one of its free-form prompts (the flick form, the order
  form, the line-up form). It is built from a :class:`~bot.session.Decision`, shown ephemerally
  by **Decide** and DMed when a secret prompt of that kind opens. Register with :meth:`Forms.panel`.
* A **modal** (a pop-up form) is sent with :meth:`Forms.modal`. Its custom_id is
  ``herald:form:<name>:<game id>:<ticket>`` — the decision it answers, never a secret — and its
  submission is handled here, by one listener on every interaction, not by the modal object that
  discord.py forgets after a restart or 15 minutes. The handler registered under ``name`` gets the
  game id, the ticket and the typed values; it acts with that ticket, so a form sent twice, or
  sent after the decision was answered, is refused under the game lock instead of applied again.
* A game's **form components** (:func:`form_items`) are a menu and a button class whose
  custom_ids carry the game, the prompt instance and which control it is, so a panel DMed before a
  restart still answers; every click is passed to the game's cog.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, Self

import discord

from .parsing import parse_id
from .refusals import answering
from .session import Decision, OpenPrompt, Ticket
from .text import clip
from .views import Claims, shown_label

Payload = dict[str, Any]
"""Message keyword arguments: ``content``, ``embed``, ``view``…"""
PanelBuilder = Callable[[Decision], Awaitable[Payload]]
ModalHandler = Callable[[discord.Interaction, int, Ticket, dict[str, str]], Awaitable[None]]

MODAL_ID = re.compile(r"herald:form:(?P<name>[a-z_]+):(?P<game>\d+):(?P<ticket>\d+(?:-[0-9a-f]+)?)$")
NO_DECISION = Ticket(0)
"""The ticket of a form that answers no decision (e.g. a private aim preview)."""


def modal_values(data: Any) -> dict[str, str]:
    """custom_id → value of every control in a modal submission (classic action rows or
    label-wrapped controls): a text input's text, a radio group's option, a menu's first option."""
    out: dict[str, str] = {}
    stack = list((data or {}).get("components", []))
    while stack:
        c = stack.pop(0)
        if c.get("custom_id") and "value" in c:
            out[str(c["custom_id"])] = str(c.get("value") or "")
        elif c.get("custom_id") and isinstance(c.get("values"), list):
            out[str(c["custom_id"])] = str(c["values"][0]) if c["values"] else ""
        stack += c.get("components", [])
        if isinstance(c.get("component"), dict):
            stack.append(c["component"])
    return out


class FormModal(discord.ui.Modal):
    """A modal whose submission is handled by :meth:`Forms.on_interaction` (restart-proof)."""

    def __init__(self, custom_id: str, title: str, inputs: Sequence[discord.ui.Item[Any]]) -> None:
        # discord.py keeps the modal object for 15 minutes at most; the listener does not need it
        super().__init__(title=title[:45], timeout=900, custom_id=custom_id)
        for item in inputs:
            self.add_item(item)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        return None  # the listener answers, also after a restart or a long think


class Forms:
    """The registry of game panels and modal handlers (one per bot, assembled in ``bot.app``)."""

    def __init__(self) -> None:
        self._panels: dict[tuple[str, str], PanelBuilder] = {}
        self._modals: dict[str, ModalHandler] = {}
        self._echoes: dict[str, set[str]] = {}

    # -- panels
    def add_panel(self, game_key: str, free_form: str, builder: PanelBuilder, *,
                  echoes: Sequence[str] = ()) -> None:
        """Register the panel of the game's free-form prompts of kind ``free_form``. ``echoes``:
        the kinds of private events the panel's answer shows its player already (the orders just
        sent, read back in the form's reply), which delivery then does not repeat in a DM."""
        self._panels[(game_key, free_form)] = builder
        self._echoes.setdefault(game_key, set()).update(echoes)

    def echoes(self, game_key: str) -> set[str]:
        """The kinds of a game's private events that the answer to its player's own click shows
        them (:meth:`add_panel`): a line of one of these kinds, caused by that click, is no news."""
        return self._echoes.get(game_key, set())

    def panel_for(self, game_key: str, free_form: str | None) -> PanelBuilder | None:
        return self._panels.get((game_key, free_form)) if free_form else None

    # -- modals
    def add_modal(self, name: str, handler: ModalHandler) -> None:
        self._modals[name] = handler

    def remove(self, game_key: str) -> None:
        """Forget a game's panels (its cog unloaded); its modal names are removed by the cog."""
        for key in [k for k in self._panels if k[0] == game_key]:
            del self._panels[key]
        self._echoes.pop(game_key, None)

    def remove_modal(self, name: str) -> None:
        self._modals.pop(name, None)

    @staticmethod
    def modal(name: str, game_id: int, ticket: Ticket, title: str,
              inputs: Sequence[discord.ui.Item[Any]]) -> FormModal:
        """A modal for ``name``'s handler, answering ``ticket`` of game ``game_id``."""
        return FormModal(f"herald:form:{name}:{game_id}:{ticket}", title, inputs)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """The one listener for every form submission (registered by ``bot.app``)."""
        if interaction.type != discord.InteractionType.modal_submit:
            return
        data: Any = interaction.data or {}
        m = MODAL_ID.match(str(data.get("custom_id", "")))
        if m is None:
            return
        handler = self._modals.get(m["name"])
        async with answering(interaction):
            if handler is None:
                raise LookupError(f"no handler for the form {m['name']!r}")
            await handler(interaction, parse_id(m["game"]), Ticket.parse(m["ticket"]), modal_values(data))


CHOICE_FORM = "choice"
"""The modal of a decision whose choices fit one menu (:func:`choice_modal`)."""
RADIO_MAX = 10
"""Choices shown as a radio group (every one visible at once); more go in a menu of up to 25."""
MODAL_CHOICES = 25


def fits_modal(open_: OpenPrompt) -> bool:
    """Whether a decision's choices fit the choice modal: one menu of at most 25."""
    return 0 < len(open_.prompt.choices) <= MODAL_CHOICES


def choice_modal(game_id: int, open_: OpenPrompt, title: str, text: str) -> FormModal:
    """**Decide**'s pop-up form for a decision whose choices fit one menu: what is asked (and by
    when, and what each choice does) above, the choices as a radio group (two to ten) or a menu,
    each with its description. Submitting it answers the decision ``open_`` (its ticket is in the
    custom_id); the listener (:meth:`Forms.on_interaction`) hands it to the controller."""
    choices = open_.prompt.choices
    options = [(shown_label(c)[:100], str(i), (c.description or "")[:100] or None)
               for i, c in enumerate(choices)]
    control: discord.ui.Item[Any]
    if 2 <= len(options) <= RADIO_MAX:
        control = discord.ui.RadioGroup(custom_id="choice", options=[
            discord.RadioGroupOption(label=label, value=value, description=about)
            for label, value, about in options])
    else:
        control = discord.ui.Select(custom_id="choice", placeholder="Choose…", options=[
            discord.SelectOption(label=label, value=value, description=about)
            for label, value, about in options])
    items: list[discord.ui.Item[Any]] = [discord.ui.TextDisplay(clip(text, 4000)),
                                         discord.ui.Label(text="Your choice", component=control)]
    return Forms.modal(CHOICE_FORM, game_id, open_.ticket, title, items)


class FormHandler(Protocol):
    """What a game's form components call: the game's cog, found again on every click."""

    async def on_select(self, interaction: discord.Interaction, game_id: int, opened: int, kind: str,
                        values: list[str]) -> None: ...

    async def on_button(self, interaction: discord.Interaction, game_id: int, opened: int,
                        kind: str) -> None: ...


@dataclass(frozen=True)
class FormItems:
    """A game's pair of restart-proof form components: a menu and a button whose custom_ids are
    ``<prefix>:<game id>:<prompt instance>:<kind>``. Both are registered with
    ``bot.add_dynamic_items(*items.classes)`` when the game's cog loads; the components carry
    everything a click needs, so a form DMed before a restart still answers."""

    select: type[discord.ui.DynamicItem[Any]]
    button: type[discord.ui.DynamicItem[Any]]

    @property
    def classes(self) -> tuple[type[discord.ui.DynamicItem[Any]], ...]:
        return (self.select, self.button)

    def view(self, items: Sequence[discord.ui.Item[Any]]) -> discord.ui.View:
        """A view (no timeout) of the form's menus and buttons, each wrapped in its dynamic item."""
        view = discord.ui.View(timeout=None)
        for it in items:
            view.add_item((self.select if isinstance(it, discord.ui.Select) else self.button)(it))
        return view


def form_items(select_prefix: str, button_prefix: str, handler: Callable[[discord.Interaction], FormHandler],
               *, kind: str = "[a-z_]+") -> FormItems:
    """The menu and button classes of one game's forms. The prefixes are part of every custom_id
    already sent (stored in DMs and ephemeral messages), so a game keeps its own forever;
    ``kind`` is the pattern of the last field (which menu or button); ``handler`` finds the cog
    that answers a click (looked up per click: the cog may have been reloaded)."""

    def component(prefix: str) -> type[discord.ui.DynamicItem[Any]]:
        class FormComponent(Claims, discord.ui.DynamicItem[Any],
                            template=rf"{prefix}:(?P<game>\d+):(?P<opened>\d+):(?P<kind>{kind})"):
            def __init__(self, item: discord.ui.Item[Any]) -> None:
                super().__init__(item, row=item.row)

            @staticmethod
            def numbers(match: re.Match[str]) -> tuple[int, int]:
                return parse_id(match["game"]), parse_id(match["opened"], what="decision", lo=0)

            @classmethod
            def claim(cls, item: Any, match: re.Match[str]) -> Self:
                cls.numbers(match)  # checked here, where the click's custom_id is parsed
                return cls(item)

            async def callback(self, interaction: discord.Interaction) -> None:
                m = self.template.match(self.custom_id)
                assert m is not None
                cog, (game, opened) = handler(interaction), self.numbers(m)
                if isinstance(self.item, discord.ui.Select):
                    data: Any = interaction.data or {}
                    values = [str(v) for v in data.get("values", [])]
                    await cog.on_select(interaction, game, opened, m["kind"], values)
                else:
                    await cog.on_button(interaction, game, opened, m["kind"])

        return FormComponent

    return FormItems(component(select_prefix), component(button_prefix))
