"""The lobby's lifecycle (``bot.lobby.Lobbies``) is mixed into the session: what it declares of its
host for the type checker only must really be there, since the type checker takes those
declarations on trust."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import bot.lobby
from bot.lobby import Lobbies
from bot.session import Sessions

from .test_layering import bot_import_graph


def declared_of_the_host() -> set[str]:
    """The names the mixin's ``if TYPE_CHECKING:`` block declares (attributes and methods)."""
    tree = ast.parse(Path(inspect.getfile(bot.lobby)).read_text(encoding="utf-8"))
    mixin = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Lobbies")
    block = next(n for n in mixin.body if isinstance(n, ast.If)
                 and isinstance(n.test, ast.Name) and n.test.id == "TYPE_CHECKING")
    names = set()
    for node in block.body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            names.add(node.name)
    return names


def test_everything_the_lobby_expects_of_the_session_is_provided_by_it() -> None:
    declared = declared_of_the_host()
    assert {"storage", "lock", "_first_moves", "_deliver"} <= declared
    methods = {n for n in declared if callable(getattr(Sessions, n, None))}
    for name in methods:  # the session's own, not the mixin's (which has none at run time)
        assert not hasattr(Lobbies, name), name
    source = inspect.getsource(Sessions.__init__)
    missing = [n for n in declared - methods if f"self.{n} =" not in source
               and f"self.{n}:" not in source]
    assert not missing, f"the session never sets {missing}, which the lobby uses"


def test_the_session_answers_every_lobby_call_through_the_mixin() -> None:
    for name in ("open_table", "join", "leave", "add_bot", "cancel", "start", "check_start",
                 "lobby_closes_at", "expire_lobbies"):
        assert getattr(Sessions, name) is getattr(Lobbies, name), name


def test_the_lobby_imports_nothing_of_the_session() -> None:
    assert "bot.session" not in bot_import_graph()["bot.lobby"]
