"""Hegemony: Alternate Histories: a two-player card battle through five eras, where the deck is
each player's life.

Modules: ``content`` (Herald's authored cards, nations, governances and ready-made decks, from
``cards.json`` and ``decks.json``; the deck builder's API), ``state``, ``board`` (card moves,
combat numbers, costs), ``effects`` (the effect library every card ability uses), ``combat``
(targets, flee, intercept, rolls, Nuclear retaliation), ``bot`` (computer player), ``engine``.
"""

from .engine import AlternateHistoriesEngine

ENGINE = AlternateHistoriesEngine()

__all__ = ["ENGINE", "AlternateHistoriesEngine"]
