"""The one place games are registered. Adding a game = ``rules/<game>/`` + a line in ``BUILTIN``."""

from __future__ import annotations

import importlib
from typing import Any

from .engine import Engine, InvalidOptions

# "module:attribute" of each built-in engine instance. Imported lazily so a broken game cannot
# stop the others from loading.
BUILTIN: dict[str, str] = {
    "hegemony_of_faith": "rules.hegemony_of_faith:ENGINE",
    "flick_of_faith": "rules.flick_of_faith:ENGINE",
    "cult_wars": "rules.cult_wars:ENGINE",
    "alternate_histories": "rules.alternate_histories:ENGINE",
    "petition": "rules.petition:ENGINE",
}

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
