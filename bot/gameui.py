"""How a game presents itself: the pure, Discord-free half of a game's cog.

Each built-in game provides a :class:`GameUI` in ``cogs/<game>/ui.py``, exported as ``UI`` from
that module and found from the game's key (:data:`UI_MODULES`); a game registered at run time
(the tests' duel) registers its own with :func:`register_ui`. Everything here takes *redacted* views from the engine (``engine.view``), so nothing
drawn or written here can leak another seat's secrets. Discord-specific commands a game needs
(``/flick``, an order form) live in ``cogs/<game>/cog.py``.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Sequence
from typing import Any, Protocol

from PIL import Image

from rules import registry
from rules.engine import Event

from .render import PALETTE, Canvas, seat_colour

JSON = dict[str, Any]


class GameUI:
    """Default presentation; games override what they draw better themselves."""

    key: str = ""
    cog_extension: str | None = None
    """Dotted module of a discord.py extension with the game's own commands, if any."""

    def board_image(self, view: JSON, events: list[Event], *,
                    names: Sequence[str] | None = None) -> Image.Image:
        """The public board, drawn from the public view (``engine.view(state, None)``);
        ``names`` are the seats' display names (raw: the renderer cleans and clips them)."""
        c = Canvas(800, 500)
        c.header(self.key.replace("_", " ").title(), "")
        c.text_block((20, 80), json.dumps(view, sort_keys=True)[:600], 760, 20)
        return c.image

    def hand_image(self, view: JSON, *, names: Sequence[str] | None = None) -> Image.Image | None:
        """The seat's private hand as an image (``engine.view(state, seat)``), or None."""
        return None

    def board_alt(self, view: JSON, *, names: Sequence[str] | None = None) -> str:
        """The board image's alt text: who leads, whose turn, the scores, in words (public)."""
        return f"The {self.key.replace('_', ' ')} board."

    def hand_alt(self, view: JSON, *, names: Sequence[str] | None = None) -> str:
        """The hand image's alt text (it goes only to the seat whose view this is)."""
        return "Your hand."

    def attachment_alt(self, filename: str, view: JSON, events: list[Event], *,
                       names: Sequence[str] | None = None) -> str:
        """Alt text for an extra public file of :meth:`attachments` (public events only)."""
        return "An animation of the last move."

    def hand_text(self, view: JSON) -> str:
        """The seat's private hand as text."""
        return "You hold nothing secret in this game."

    def status_text(self, view: JSON) -> str:
        """One or two lines under the board (public)."""
        return ""

    def sealed(self, view: JSON) -> JSON | None:
        """The public view as the channel's board shows it during a *sealed step* — every player
        answering the same question in secret at once — or None when no such step is open (the
        board shows ``view``). A sealed board leaves out who has answered and anything an answer
        made public, so it does not change between the answers and is not redrawn for each one
        (each redraw is a message edit against Discord's global rate limit): only the step's end,
        the reveal, changes it. Who has answered stays on ``/game status`` and the web page, which
        read the public view itself."""
        return None

    def attachments(self, view: JSON, events: list[Event]) -> list[tuple[str, bytes]]:
        """Extra public files for the board message of this update. Public events only."""
        return []

    def event_files(self, view: JSON, event: Event, *,
                    names: Sequence[str] | None = None) -> list[tuple[str, bytes, str]]:
        """Public files that go with one public event's log line in the thread, as (file name,
        bytes, alt text): a flick's animation is posted with the line of that flick, so a player
        scrolling the thread sees each shot where it happened. ``view`` is the public view after
        the update. Drawn off the event loop; a failure costs the files, never the line."""
        return []

    def seat_badge(self, seat: int) -> tuple[int, int, int]:
        return seat_colour(seat)


class Drawings(Protocol):
    """A game's render module as :class:`DrawnUI` uses it (module functions, no ``self``)."""

    def board_image(self, view: JSON, names: Sequence[str] | None = None) -> Image.Image: ...

    def hand_image(self, view: JSON, names: Sequence[str] | None = None) -> Image.Image | None: ...

    def board_alt(self, view: JSON, names: Sequence[str] | None = None) -> str: ...

    def hand_alt(self, view: JSON, names: Sequence[str] | None = None) -> str: ...


class DrawnUI(GameUI):
    """A game whose render module draws the board and the hand, as images and in words, from the
    redacted view and the seats' names: the four methods only pass them on, so the game's UI
    says which module draws (``drawings = render``) and writes only its texts."""

    drawings: Drawings

    def board_image(self, view: JSON, events: list[Event], *,
                    names: Sequence[str] | None = None) -> Image.Image:
        return self.drawings.board_image(view, names)

    def hand_image(self, view: JSON, *, names: Sequence[str] | None = None) -> Image.Image | None:
        return self.drawings.hand_image(view, names)

    def board_alt(self, view: JSON, *, names: Sequence[str] | None = None) -> str:
        return self.drawings.board_alt(view, names)

    def hand_alt(self, view: JSON, *, names: Sequence[str] | None = None) -> str:
        return self.drawings.hand_alt(view, names)


_DEFAULT = GameUI()

UI_MODULES: dict[str, str] = {key: f"cogs.{key}.ui:UI" for key in registry.GAMES}
"""Key → "module:attribute" of each built-in game's presentation, found from the key alone (the
games are registered once, in :data:`rules.registry.GAMES`)."""
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


__all__ = ["DrawnUI", "Drawings", "GameUI", "get_ui", "register_ui", "PALETTE"]
