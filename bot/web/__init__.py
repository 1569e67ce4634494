"""Herald on the web: a live public page for every game, with its whole history to step through
(:mod:`bot.web.server`; the pages in :mod:`bot.web.pages`, the replayed history in
:mod:`bot.web.timeline`, the stylesheet and script in ``static/``, written here)."""

from __future__ import annotations

from .server import WebServer

__all__ = ["WebServer"]
