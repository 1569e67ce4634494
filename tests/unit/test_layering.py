"""The layers import one way only: ``rules/`` knows nothing of the bot, the cogs or Discord, and
``bot/`` reaches games only through the registry (``rules``, ``rules.engine``, ``rules.registry``;
``rules.text`` is the text helper every game and the platform share, ``rules.search`` the
computer players' search)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
FORBIDDEN_IN_RULES = {"bot", "cogs", "discord"}
RULES_PLATFORM = {"engine", "registry", "text", "search"}
"""The rules modules the platform may use: the contract, the registry, the shared text helper and
the search every game's computer player may use (no game's own module)."""


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


def _bot_module(path: Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def bot_import_graph() -> dict[str, set[str]]:
    """bot module → the bot modules it imports (also under ``TYPE_CHECKING``: a cycle there is
    still a tangle a reader has to follow)."""
    modules = {_bot_module(p): p for p in BOT_FILES}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = _package_of(path) if not path.name == "__init__.py" else name.split(".")
        targets = set()
        for _, imported in imported_modules(path.read_text(encoding="utf-8"), package):
            while imported and imported not in modules:
                imported = imported.rpartition(".")[0]  # `from .storage import GameRow` → bot.storage
            if imported and imported != name:
                targets.add(imported)
        graph[name] = targets
    return graph


def test_nothing_in_the_bot_imports_the_module_that_assembles_it() -> None:
    graph = bot_import_graph()
    importers = sorted(m for m, targets in graph.items() if "bot.app" in targets and m != "bot.__main__")
    assert not importers, f"only the entry point may import bot.app; also: {importers}"


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of ``graph`` (``[a, b, a]``), or None."""
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> list[str] | None:
        if module in path:
            return path[path.index(module):] + [module]
        if module in done:
            return None
        for target in sorted(graph.get(module, ())):
            found = visit(target, [*path, module])
            if found:
                return found
        done.add(module)
        return None

    for module in sorted(graph):
        found = visit(module, [])
        if found:
            return found
    return None


def test_the_cycle_finder_finds_cycles_and_only_cycles() -> None:
    assert find_cycle({"bot.a": {"bot.b"}, "bot.b": {"bot.c"}, "bot.c": {"bot.a"}}) == [
        "bot.a", "bot.b", "bot.c", "bot.a"]
    assert find_cycle({"bot.a": {"bot.b", "bot.c"}, "bot.b": {"bot.c"}, "bot.c": set()}) is None


def test_the_bot_has_no_import_cycle() -> None:
    cycle = find_cycle(bot_import_graph())
    assert cycle is None, "import cycle in bot/: " + " → ".join(cycle or [])
