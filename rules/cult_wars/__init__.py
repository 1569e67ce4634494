"""Cult Wars: every turn all cults give secret orders at once; they are revealed and resolved together.

Modules: ``content`` (Herald's authored cards, from ``cards.json``), ``state``, ``orders``
(checking one cult's orders), ``combat`` (combat arithmetic), ``resolve`` (the reveal and steps
4–8), ``plan`` (strategy cards for wished-for counts), ``bot`` (computer player), ``engine``.
"""

from .engine import CultWarsEngine

ENGINE = CultWarsEngine()

__all__ = ["ENGINE", "CultWarsEngine"]
