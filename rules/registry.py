"""The one place games are registered: a built-in game is its key in :data:`GAMES`.

A game ``g`` lives in ``rules/g/`` (its engine exported as ``ENGINE`` from the package) and, for
Discord and the web, ``cogs/g/ui.py`` (its presentation exported as ``UI``, found from the key by
:mod:`bot.gameui`). Tests register their own small games at run time with :func:`register`.
"""

from __future__ import annotations

import importlib
from typing import Any

from .engine import Engine, InvalidOptions

GAMES: tuple[str, ...] = (
    "hegemony_of_faith",
    "flick_of_faith",
    "cult_wars",
    "alternate_histories",
    "petition",
)
"""The built-in games' keys (each is its engine's ``key`` and its folders' name)."""

BUILTIN: dict[str, str] = {key: f"rules.{key}:ENGINE" for key in GAMES}
"""Key → "module:attribute" of each built-in engine instance. Imported lazily so a broken game
cannot stop the others from loading."""

_engines: dict[str, Engine[Any]] = {}
load_errors: dict[str, str] = {}
"""Built-in games that failed to load, with the reason (a test asserts this stays empty)."""


def register(engine: Engine[Any]) -> Engine[Any]:
    """Register an engine instance under its key (tests register their own small games)."""
    _engines[engine.key] = engine
    return engine


def unregister(key: str) -> None:
    _engines.pop(key, None)


def _load_builtin() -> None:
    for key, target in BUILTIN.items():
        if key in _engines:
            continue
        module_name, attr = target.split(":")
        try:
            module = importlib.import_module(module_name)
            engine = getattr(module, attr)
        except Exception as exc:  # a broken game must not take the others down
            load_errors[key] = f"{type(exc).__name__}: {exc}"
            continue
        if getattr(engine, "key", None) != key:
            load_errors[key] = f"{target} is the engine of {getattr(engine, 'key', None)!r}, not {key!r}"
            continue
        load_errors.pop(key, None)
        _engines[key] = engine


def all_engines() -> dict[str, Engine[Any]]:
    _load_builtin()
    return dict(sorted(_engines.items()))


def get(key: str) -> Engine[Any]:
    engines = all_engines()
    if key not in engines:
        known = ", ".join(engines) or "none"
        raise InvalidOptions(f"unknown game {key!r}; available games: {known}.")
    return engines[key]
