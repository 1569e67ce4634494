"""Flick of Faith: gods flick prophets onto islands (rulebook: shared/rulebooks/flick_of_faith.md).

Modules: ``map`` (layout), ``geometry`` (inside-or-touching tests), ``discs`` (sizes and masses),
``physics`` (pymunk sliding), ``flick`` (actions to physics input, wobble), ``scoring``,
``gods`` and ``laws`` (their JSON data and a rule per key), ``powers`` (the hooks those rules
name), ``state``, ``engine``, ``aim`` (preview), ``bot``.
"""

from .engine import FlickOfFaith

ENGINE = FlickOfFaith()

__all__ = ["ENGINE", "FlickOfFaith"]
