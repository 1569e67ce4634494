"""How a game presents itself: the pure, Discord-free half of a game's cog.

Each game provides a :class:`GameUI` in ``cogs/<game>/ui.py`` (exported as ``UI`` from the
package). Everything here takes *redacted* views from the engine (``engine.view``), so nothing
drawn or written here can leak another seat's secrets. Discord-specific commands a game needs
(``/flick``, an order form) live in ``cogs/<game>/cog.py``.
"""

from __future__ import annotations

import importlib
import json
from typing import Any

from PIL import Image

from rules.engine import Event

from .render import PALETTE, Canvas, seat_colour

JSON = dict[str, Any]


class GameUI:
    """Default presentation; games override what they draw better themselves."""

    key: str = ""
    cog_extension: str | None = None
    """Dotted module of a discord.py extension with the game's own commands, if any."""

    def board_image(self, view: JSON, events: list[Event]) -> Image.Image:
        """The public board, drawn from the public view (``engine.view(state, None)``)."""
        c = Canvas(900, 500)
        c.header(self.key.replace("_", " ").title(), "")
        c.text_block((20, 80), json.dumps(view, sort_keys=True)[:1500], 860, 14)
        return c.image

    def hand_image(self, view: JSON) -> Image.Image | None:
        """The seat's private hand as an image (``engine.view(state, seat)``), or None."""
        return None

    def hand_text(self, view: JSON) -> str:
        """The seat's private hand as text."""
        return "You hold nothing secret in this game."

    def status_text(self, view: JSON) -> str:
        """One or two lines under the board (public)."""
        return ""

    def attachments(self, view: JSON, events: list[Event]) -> list[tuple[str, bytes]]:
        """Extra public files for this update (e.g. a flick animation). Public events only."""
        return []

    def seat_badge(self, seat: int) -> tuple[int, int, int]:
        return seat_colour(seat)


_DEFAULT = GameUI()

UI_MODULES: dict[str, str] = {
    "hegemony_of_faith": "cogs.hegemony_of_faith.ui:UI",
    "flick_of_faith": "cogs.flick_of_faith.ui:UI",
    "cult_wars": "cogs.cult_wars.ui:UI",
}
_uis: dict[str, GameUI] = {}


def register_ui(ui: GameUI) -> GameUI:
    _uis[ui.key] = ui
    return ui


def get_ui(key: str) -> GameUI:
    if key in _uis:
        return _uis[key]
    target = UI_MODULES.get(key)
    if target is not None:
        module_name, attr = target.split(":")
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name not in (module_name, module_name.rsplit(".", 1)[0]):
                raise
        else:
            return register_ui(getattr(module, attr))
    return _DEFAULT


__all__ = ["GameUI", "get_ui", "register_ui", "PALETTE"]
