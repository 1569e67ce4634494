"""The layers import one way only: ``rules/`` knows nothing of the bot, the cogs or Discord, and
``bot/`` reaches games only through the registry (``rules``, ``rules.engine``, ``rules.registry``)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
FORBIDDEN_IN_RULES = {"bot", "cogs", "discord"}
RULES_PLATFORM = {"engine", "registry"}


def _python_files(folder: str) -> list[Path]:
    return sorted(p for p in (REPO / folder).rglob("*.py") if "__pycache__" not in p.parts)


def _package_of(path: Path) -> list[str]:
    return list(path.relative_to(REPO).with_suffix("").parts[:-1])


def imported_modules(source: str, package: list[str]) -> Iterator[tuple[int, str]]:
    """(line, absolute dotted name) of every import in ``source``, relative imports resolved
    against ``package`` (the dotted parts of the folder the file is in)."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                module = ".".join([*base, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            yield node.lineno, module
            for alias in node.names:  # `from rules import cult_wars` imports a submodule
                yield node.lineno, f"{module}.{alias.name}"
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id == "__import__" and node.args
              and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            yield node.lineno, node.args[0].value


def imports_of(path: Path) -> list[tuple[int, str]]:
    return list(imported_modules(path.read_text(encoding="utf-8"), _package_of(path)))


def test_the_import_walker_resolves_relative_imports() -> None:
    source = ("from ..engine import Engine\nfrom . import cards\nimport discord.ui\n"
              "from .physics import step\n")
    names = [m for _, m in imported_modules(source, ["rules", "some_game"])]
    assert {"rules.engine", "rules.some_game.cards", "discord.ui", "rules.some_game.physics"} <= set(names)


RULES_FILES = _python_files("rules")
BOT_FILES = _python_files("bot")


def test_there_are_files_to_check() -> None:
    assert RULES_FILES and BOT_FILES


@pytest.mark.parametrize("path", RULES_FILES, ids=lambda p: str(p.relative_to(REPO)))
def test_rules_import_nothing_from_the_bot_the_cogs_or_discord(path: Path) -> None:
    bad = [f"line {line}: {name}" for line, name in imports_of(path)
           if name.split(".")[0] in FORBIDDEN_IN_RULES]
    assert not bad, f"{path.relative_to(REPO)} imports outside the rules layer: {bad}"


@pytest.mark.parametrize("path", BOT_FILES, ids=lambda p: str(p.relative_to(REPO)))
def test_the_bot_reaches_games_only_through_the_registry(path: Path) -> None:
    bad = []
    for line, name in imports_of(path):
        parts = name.split(".")
        if parts[0] == "rules" and len(parts) > 1 and parts[1] not in RULES_PLATFORM:
            bad.append(f"line {line}: {name}")
    assert not bad, f"{path.relative_to(REPO)} imports a game package directly: {bad}"
