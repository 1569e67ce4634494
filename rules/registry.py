"""The one place games are registered. Adding a game = ``rules/<game>/`` + a line in ``BUILTIN``."""

from __future__ import annotations

import importlib

from .engine import Engine, InvalidOptions

# "module:attribute" of each built-in engine instance. Imported lazily so a broken game cannot
# stop the others from loading.
BUILTIN: dict[str, str] = {
    "hegemony_of_faith": "rules.hegemony_of_faith:ENGINE",
    "flick_of_faith": "rules.flick_of_faith:ENGINE",
    "cult_wars": "rules.cult_wars:ENGINE",
}

_engines: dict[str, Engine] = {}


def register(engine: Engine) -> Engine:
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
        except ModuleNotFoundError as exc:
            if exc.name == module_name:  # not written yet
                continue
            raise
        _engines[key] = getattr(module, attr)


def all_engines() -> dict[str, Engine]:
    _load_builtin()
    return dict(sorted(_engines.items()))


def get(key: str) -> Engine:
    engines = all_engines()
    if key not in engines:
        known = ", ".join(engines) or "none"
        raise InvalidOptions(f"unknown game {key!r}; available games: {known}.")
    return engines[key]
