"""Cult Wars: every turn all cults choose a target in secret (revealed together), then give secret
orders at once; the orders are revealed and resolved together, pausing only for a defender's split.

Modules: ``content`` (Herald's authored cards, from ``cards.json``), ``state``, ``orders``
(checking one cult's orders), ``combat`` (combat arithmetic), ``effects`` (the action cards'
effects, one entry per effect key of ``cards.json``), ``resolve`` (the reveal and steps 4–8),
``plan`` (strategy cards for wished-for counts), ``bot`` (computer player), ``engine``.
"""

from .engine import CultWarsEngine

ENGINE = CultWarsEngine()

__all__ = ["ENGINE", "CultWarsEngine"]
