"""The platform's own refusals (not game rules): each is one type, translated once into one sentence
by :mod:`bot.refusals`. Game-rule refusals are the engines' ``RulesError``; a stored state another
Herald wrote is ``StateSchemaError``; storage failures are ``StorageError`` / ``VersionConflict``.
"""

from __future__ import annotations


class TableError(Exception):
    """A refusal about tables, seats and commands (not a game rule): shown to the user as is."""


class StaleAction(TableError):
    """The click or form answers a decision that is no longer the seat's open one.

    ``answered`` is True when that decision was already answered (a double tap, a second form, an
    old menu): the earlier answer stands. False when the decision is still open but its options
    changed since the menu was drawn."""

    def __init__(self, message: str, *, game_id: int | None = None, board_url: str | None = None,
                 answered: bool = True) -> None:
        super().__init__(message)
        self.game_id = game_id
        self.board_url = board_url
        self.answered = answered


class NothingToDecide(TableError):
    """The member is seated but has no open decision; ``waiting`` names who is awaited."""

    def __init__(self, waiting: str) -> None:
        super().__init__(f"nothing for you to decide right now — waiting for {waiting}.")
        self.waiting = waiting


class Contention(TableError):
    """Another process kept changing the game while this action tried to commit (after retries)."""
