"""A game is registered once: its key in ``rules.registry.GAMES``; its engine and its
presentation are found from that key, and no other module keeps a list of the games."""

from __future__ import annotations

from pathlib import Path

import pytest

import bot
from bot import gameui
from bot.gameui import GameUI, get_ui
from rules import registry
from rules.engine import InvalidOptions
from tests.support import duel


@pytest.mark.parametrize("key", registry.GAMES)
def test_a_builtin_game_is_found_from_its_key_alone(key: str) -> None:
    engine = registry.get(key)
    assert engine.key == key
    ui = get_ui(key)
    assert ui.key == key
    assert type(ui) is not GameUI, "the game's own presentation, not the default board"
    assert type(ui).__module__ == f"cogs.{key}.ui"


def test_no_platform_module_registers_a_game_by_module_name() -> None:
    """The platform finds a game's modules from its key: no module of ``bot/`` names one."""
    root = Path(bot.__file__).parent
    for path in sorted(root.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        named = [key for key in registry.GAMES
                 if f"cogs.{key}" in text or f"rules.{key}" in text]
        assert not named, f"{path.relative_to(root.parent)} names the modules of {named}"


def test_an_engine_under_the_wrong_key_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.BUILTIN, "not_a_duel", "tests.support.duel:ENGINE")
    monkeypatch.setattr(registry, "load_errors", {})
    assert "not_a_duel" not in registry.all_engines()
    assert "is the engine of 'duel', not 'not_a_duel'" in registry.load_errors["not_a_duel"]
    with pytest.raises(InvalidOptions, match="unknown game 'not_a_duel'"):
        registry.get("not_a_duel")


def test_a_game_registered_at_run_time_has_its_engine_and_presentation() -> None:
    """The tests' duel is not built in: the test session registers its engine and its UI."""
    assert "duel" not in registry.GAMES
    assert registry.get("duel") is duel.ENGINE
    assert get_ui("duel") is duel.UI
    assert "duel" not in gameui.UI_MODULES


def test_a_key_without_a_presentation_gets_the_default_board() -> None:
    assert type(get_ui("no_such_game")) is GameUI
