"""Players' saved decks, for any card game: names, the limit per player, owners and look-ups.

A saved deck is a row of the storage (:class:`~bot.storage.base.DeckRow`) holding the game's own
``data``; what a deck may hold and whether it is legal is the game's business (its cog and its
rules), never this module's. What is the same for every card game lives here: a deck is its
player's (a command naming another player's deck is refused, never shown), a name is taken once
per player and game (case aside), and one player keeps at most :data:`DECK_LIMIT` decks, because
each costs a row forever.

A command names a deck by its name (case and spacing aside), or by ``#<number>``: what
autocomplete fills in, so the deck picked from the list is the deck found.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from difflib import get_close_matches
from typing import Any

from .errors import TableError
from .parsing import parse_id
from .storage import Storage
from .storage.base import DeckRow, deck_name_key

DECK_LIMIT = 50
"""Saved decks one player may keep (of every game together)."""
NAME_LIMIT = 40
"""Characters of a deck's name."""
AUTOCOMPLETE = 25
"""Discord shows at most this many autocomplete suggestions."""

_MARKUP = re.compile(r"<(?:@[!&]?|#)\d+>|@(?:everyone|here)\b|[*_~`|>\\\[\]()]")
_REF = re.compile(r"^#(\d{1,18})\b")


def clean_name(raw: str) -> str:
    """A deck name as it is stored and shown: mentions and markdown removed, spaces collapsed.
    Refuses an empty name, a name over :data:`NAME_LIMIT` characters, or one starting with ``#``
    (that is how commands name a deck by number)."""
    name = " ".join(_MARKUP.sub("", raw).split())
    if not name:
        raise TableError("a deck needs a name (letters, digits or words, without formatting).")
    if len(name) > NAME_LIMIT:
        raise TableError(f"a deck's name has at most {NAME_LIMIT} characters; "
                         f"“{name[:NAME_LIMIT]}…” has {len(name)}.")
    if name.startswith("#"):
        raise TableError("a deck's name cannot start with # (commands use #<number> to name a deck).")
    return name


def label(deck: DeckRow) -> str:
    """How a deck is named in messages and menus: its name and number."""
    return f"{deck.name} (#{deck.id})"


class Decks:
    """The saved decks of one game (``game_key``), for the commands and forms of that game."""

    def __init__(self, storage: Storage, game_key: str, *,
                 now: Callable[[], float] = time.time, limit: int = DECK_LIMIT) -> None:
        self.storage = storage
        self.game_key = game_key
        self.now = now
        self.limit = limit

    async def mine(self, user_id: int) -> list[DeckRow]:
        """The player's decks of this game, by name."""
        return await self.storage.decks(user_id, self.game_key)

    async def find(self, user_id: int, ref: str) -> DeckRow:
        """The player's deck named ``ref`` (a name, or ``#<number>`` as autocomplete gives it).
        Refuses, in one sentence, a deck that is not there (suggesting close names) and another
        player's deck (without saying anything of it)."""
        ref = ref.strip()
        m = _REF.match(ref)
        if m:
            deck = await self.storage.deck(parse_id(m[1], what="saved deck"))
            if deck is None or deck.game_key != self.game_key:
                raise TableError(f"there is no saved deck #{m[1]}; `/deck list` shows yours.")
            if deck.user_id != user_id:
                raise TableError(f"deck #{deck.id} belongs to another player: only its owner can "
                                 "see or change it. Ask them for its code (`/deck export`) and "
                                 "`/deck import` it as your own.")
            return deck
        mine = await self.mine(user_id)
        key = deck_name_key(ref)
        for deck in mine:
            if deck_name_key(deck.name) == key:
                return deck
        if not mine:
            raise TableError("you have no saved decks yet: make one with `/deck create` or "
                             "`/deck copy`.")
        close = get_close_matches(key, [deck_name_key(d.name) for d in mine], n=3, cutoff=0.5)
        names = [d.name for d in mine if deck_name_key(d.name) in close]
        hint = (" Did you mean " + " or ".join(f"“{n}”" for n in names) + "?") if names else \
            " `/deck list` shows yours."
        shown = " ".join(_MARKUP.sub("", ref).split())[:NAME_LIMIT]
        raise TableError(f"you have no deck named “{shown}”.{hint}")

    async def create(self, user_id: int, raw_name: str, data: dict[str, Any]) -> DeckRow:
        """A new deck of the player's. Refuses a name the player uses already and a player at the
        limit (checked again by the storage in the same statement that writes)."""
        name = clean_name(raw_name)
        mine = await self.storage.decks(user_id)
        if any(d.game_key == self.game_key and deck_name_key(d.name) == deck_name_key(name)
               for d in mine):
            raise TableError(f"you have a deck named “{name}” already: choose another name, or "
                             "`/deck delete` the old one first.")
        if len(mine) >= self.limit:
            raise TableError(self._full())
        now = self.now()
        deck_id = await self.storage.create_deck(user_id, self.game_key, name, data,
                                                 now=now, limit=self.limit)
        if deck_id is None:  # another command of the player's got there first
            raise TableError(self._full() if len(await self.storage.decks(user_id)) >= self.limit
                             else f"you have a deck named “{name}” already: choose another name.")
        return DeckRow(deck_id, user_id, self.game_key, name, data, now, now)

    def _full(self) -> str:
        return (f"you have {self.limit} saved decks, the most one player may keep: "
                "`/deck delete` one you no longer play first.")

    async def save(self, deck: DeckRow, data: dict[str, Any]) -> DeckRow:
        """Store the deck's new ``data`` (the deck was found with :meth:`find`, so it is the
        player's; deleted since, the change is refused)."""
        now = self.now()
        if not await self.storage.update_deck(deck.id, deck.user_id, data, now=now):
            raise TableError(f"deck “{deck.name}” was deleted meanwhile; nothing was changed.")
        return DeckRow(deck.id, deck.user_id, deck.game_key, deck.name, data, deck.created_at, now)

    async def delete(self, deck: DeckRow) -> None:
        if not await self.storage.delete_deck(deck.id, deck.user_id):
            raise TableError(f"deck “{deck.name}” is already gone.")

    async def suggestions(self, user_id: int, typed: str) -> list[tuple[str, str]]:
        """Autocomplete for a deck option: (shown name, value) of the player's decks whose name
        contains what was typed, the value naming the deck by number."""
        key = deck_name_key(typed)
        out = [(label(d), f"#{d.id}") for d in await self.mine(user_id)
               if key in deck_name_key(d.name) or typed.strip() == f"#{d.id}"]
        return out[:AUTOCOMPLETE]


__all__ = ["AUTOCOMPLETE", "DECK_LIMIT", "NAME_LIMIT", "Decks", "clean_name", "label"]
