"""The games' form components made by one factory: the custom_ids already sent keep matching, and
a click reaches the game's cog with the game, the prompt instance, which control and the values."""

from __future__ import annotations

import asyncio
from typing import Any

import discord
import pytest

from bot.forms import FormItems, form_items
from cogs.alternate_histories.cog import FORMS as AH_FORMS
from cogs.cult_wars.cog import FORMS as CW_FORMS
from cogs.petition.cog import FORMS as PT_FORMS

# the templates of the forms sent before the components were shared: stored DMs must still answer
SENT = [
    (CW_FORMS, r"herald:cw:(?P<game>\d+):(?P<opened>\d+):(?P<kind>[a-z_]+)",
     r"herald:cwb:(?P<game>\d+):(?P<opened>\d+):(?P<kind>[a-z_]+)"),
    (PT_FORMS, r"herald:pt:(?P<game>\d+):(?P<opened>\d+):(?P<kind>[a-z_]+)",
     r"herald:ptb:(?P<game>\d+):(?P<opened>\d+):(?P<kind>[a-z_]+)"),
    (AH_FORMS, r"herald:ah:(?P<game>\d+):(?P<opened>\d+):(?P<kind>[a-z0-9_]+)",
     r"herald:ahb:(?P<game>\d+):(?P<opened>\d+):(?P<kind>[a-z0-9_]+)"),
]


@pytest.mark.parametrize(("items", "select", "button"), SENT)
def test_each_game_keeps_its_custom_ids(items: FormItems, select: str, button: str) -> None:
    assert items.select.__discord_ui_compiled_template__.pattern == select
    assert items.button.__discord_ui_compiled_template__.pattern == button
    assert items.classes == (items.select, items.button)


def test_no_two_games_share_a_template() -> None:
    patterns = [c.__discord_ui_compiled_template__.pattern for items, _, _ in SENT for c in items.classes]
    assert len(set(patterns)) == len(patterns)


class _Handler:
    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []

    async def on_select(self, interaction: discord.Interaction, game_id: int, opened: int, kind: str,
                        values: list[str]) -> None:
        self.calls.append(("select", game_id, opened, kind, values))

    async def on_button(self, interaction: discord.Interaction, game_id: int, opened: int, kind: str) -> None:
        self.calls.append(("button", game_id, opened, kind))


class _Click:
    """The little of an interaction the components read: the values picked."""

    def __init__(self, values: list[Any] | None = None) -> None:
        self.data = {"values": values} if values is not None else {}


def test_a_view_wraps_menus_and_buttons_and_passes_clicks_to_the_handler() -> None:
    handler = _Handler()
    items = form_items("test:fm", "test:fmb", lambda interaction: handler, kind="[a-z0-9_]+")
    view = items.view([
        discord.ui.Select(custom_id="test:fm:7:12:pick2", options=[discord.SelectOption(label="a")], row=1),
        discord.ui.Button(custom_id="test:fmb:7:12:ok", label="OK", row=2),
    ])
    select, button = view.children
    assert isinstance(select, items.select) and isinstance(button, items.button)
    assert view.timeout is None and (select.item.row, button.item.row) == (1, 2)

    async def click() -> None:
        await select.callback(_Click([3, "x"]))  # type: ignore[arg-type]
        await button.callback(_Click())  # type: ignore[arg-type]

    asyncio.run(click())
    assert handler.calls == [("select", 7, 12, "pick2", ["3", "x"]), ("button", 7, 12, "ok")]


def test_a_custom_id_of_another_form_is_refused() -> None:
    items = form_items("test:fx", "test:fxb", lambda interaction: _Handler())
    with pytest.raises(ValueError):
        items.view([discord.ui.Button(custom_id="test:other:1:2:ok", label="OK")])
