"""Petition: petition the gods with prayer beads, then send citizens against rival pillars.

Modules: ``content`` (Herald's authored gods, cards and chart, from ``content.json``), ``state``,
``battle`` (battle arithmetic and the Challenger chart), ``cards`` (card-picking prompts),
``solo`` (the one-seat game), ``variants`` (secret variants for the conformance suite), ``bot``
(computer player), ``engine``.
"""

from .engine import PetitionEngine

ENGINE = PetitionEngine()

__all__ = ["ENGINE", "PetitionEngine"]
