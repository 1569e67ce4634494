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
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import discord

from .refusals import answering
from .session import Decision, Ticket

Payload = dict[str, Any]
"""Message keyword arguments: ``content``, ``embed``, ``view``…"""
PanelBuilder = Callable[[Decision], Awaitable[Payload]]
ModalHandler = Callable[[discord.Interaction, int, Ticket, dict[str, str]], Awaitable[None]]

MODAL_ID = re.compile(r"herald:form:(?P<name>[a-z_]+):(?P<game>\d+):(?P<ticket>\d+(?:-[0-9a-f]+)?)$")
NO_DECISION = Ticket(0)
"""The ticket of a form that answers no decision (e.g. a private aim preview)."""


def modal_values(data: Any) -> dict[str, str]:
    """custom_id → typed value of every text input in a modal submission (classic action rows or
    label-wrapped inputs)."""
    out: dict[str, str] = {}
    stack = list((data or {}).get("components", []))
    while stack:
        c = stack.pop(0)
        if c.get("custom_id") and "value" in c:
            out[str(c["custom_id"])] = str(c.get("value") or "")
        stack += c.get("components", [])
        if isinstance(c.get("component"), dict):
            stack.append(c["component"])
    return out


class FormModal(discord.ui.Modal):
    """A modal whose submission is handled by :meth:`Forms.on_interaction` (restart-proof)."""

    def __init__(self, custom_id: str, title: str, inputs: Sequence[discord.ui.TextInput[Any]]) -> None:
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

    # -- panels
    def add_panel(self, game_key: str, free_form: str, builder: PanelBuilder) -> None:
        self._panels[(game_key, free_form)] = builder

    def panel_for(self, game_key: str, free_form: str | None) -> PanelBuilder | None:
        return self._panels.get((game_key, free_form)) if free_form else None

    # -- modals
    def add_modal(self, name: str, handler: ModalHandler) -> None:
        self._modals[name] = handler

    def remove(self, game_key: str) -> None:
        """Forget a game's panels (its cog unloaded); its modal names are removed by the cog."""
        for key in [k for k in self._panels if k[0] == game_key]:
            del self._panels[key]

    def remove_modal(self, name: str) -> None:
        self._modals.pop(name, None)

    @staticmethod
    def modal(name: str, game_id: int, ticket: Ticket, title: str,
              inputs: Sequence[discord.ui.TextInput[Any]]) -> FormModal:
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
            await handler(interaction, int(m["game"]), Ticket.parse(m["ticket"]), modal_values(data))
