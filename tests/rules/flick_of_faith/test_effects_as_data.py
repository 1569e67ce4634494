"""Gods and laws are data: each keyed in its JSON file, each with one rule in its module's table,
and no rule file branches on a god's or a law's key or name."""

from __future__ import annotations

import ast
import json
from importlib import resources
from pathlib import Path

import pytest

from rules.flick_of_faith import gods, laws, powers

PACKAGE = Path(gods.__file__).parent
NOT_MINE = {"search.py"}
"""The searching player's module is kept by its own work; its literals are listed, not judged."""


def _data(name: str) -> list[dict[str, object]]:
    raw = json.loads(resources.files("rules.flick_of_faith").joinpath(name).read_text("utf-8"))
    assert isinstance(raw, list)
    return raw


def _words() -> set[str]:
    """Every god's and law's key and display name."""
    out: set[str] = set()
    for item in _data("gods.json") + _data("laws.json"):
        out.update({str(item["key"]), str(item["name"])})
    return out


def _literals(node: ast.AST) -> list[str]:
    """The string constants a compared operand is made of (itself, or the items of a literal
    tuple, list or set a membership test looks in)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return [x for e in node.elts for x in _literals(e)]
    return []


def name_tests(source: str) -> list[tuple[int, str]]:
    """(line, word) of every comparison, membership test or ``case`` pattern in ``source``
    against a god's or a law's key or name."""
    words = _words()
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        operands: list[ast.AST] = []
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
        elif isinstance(node, ast.MatchValue):
            operands = [node.value]
        for op in operands:
            found += [(getattr(node, "lineno", 0), w) for w in _literals(op) if w in words]
    return found


def rule_files() -> list[Path]:
    return sorted(p for p in PACKAGE.glob("*.py") if p.name not in NOT_MINE)


def test_the_scan_finds_a_comparison_with_a_god_or_a_law() -> None:
    # the scan itself: these would be branches on names, and are found
    src = ('if gods[k] == "freja": pass\n'
           'x = "twin_flight" in laws\n'
           'y = key in ("tithe", "other")\n'
           'match key:\n    case "The Kraken": pass\n')
    assert [w for _, w in name_tests(src)] == ["freja", "twin_flight", "tithe", "The Kraken"]
    assert name_tests('label = "freja"\nn = {"tyr": 1}\n') == []


@pytest.mark.parametrize("path", rule_files(), ids=lambda p: p.name)
def test_no_rule_file_branches_on_a_god_or_law_name(path: Path) -> None:
    found = name_tests(path.read_text("utf-8"))
    assert not found, f"{path.name} compares with god or law names: {found}"


def test_every_god_in_the_data_has_exactly_one_rule_and_back() -> None:
    keys = [str(g["key"]) for g in _data("gods.json")]
    assert len(keys) == len(set(keys)), "god keys must be unique"
    assert set(keys) == set(gods.RULES) == set(gods.BY_KEY)
    for g in gods.GODS:
        assert gods.rule(g.key) is gods.RULES[g.key]
    assert gods.rule(None) == gods.GodRule(), "a god not yet revealed has no power"


def test_every_law_in_the_data_has_exactly_one_rule_and_back() -> None:
    keys = [str(x["key"]) for x in _data("laws.json")]
    assert len(keys) == len(set(keys)), "law keys must be unique"
    assert set(keys) == set(laws.RULES) == set(laws.BY_KEY)
    for law in laws.LAWS:
        assert law.duration in laws.DURATIONS
        assert laws.rule(law.key) is laws.RULES[law.key]


def test_every_power_hook_is_used_by_some_rule() -> None:
    used = {h for r in laws.RULES.values() for h in (r.enters, r.before_worship, r.turn_end) if h}
    used |= {r.turn_end for r in gods.RULES.values() if r.turn_end}
    declared = {getattr(powers, n) for n in powers.__all__}
    assert used == declared, "a power no god or law uses is dead code"


def test_every_rule_changes_something() -> None:
    for key, g in gods.RULES.items():
        assert g != gods.GodRule(), f"god {key} has a rule that changes nothing"
    for key, x in laws.RULES.items():
        assert x != laws.LawRule(), f"law {key} has a rule that changes nothing"


def test_a_rule_table_that_disagrees_with_the_data_is_refused_at_import() -> None:
    with pytest.raises(ValueError, match="no rule"):
        gods.check_rules(gods.GODS, {k: v for k, v in gods.RULES.items() if k != "tyr"})
    with pytest.raises(ValueError, match="no such god"):
        gods.check_rules(gods.GODS, {**gods.RULES, "loki": gods.GodRule(heart=True)})
    with pytest.raises(ValueError, match="no rule"):
        laws.check_rules(laws.LAWS, {k: v for k, v in laws.RULES.items() if k != "flood"})
    with pytest.raises(ValueError, match="no such law"):
        laws.check_rules(laws.LAWS, {**laws.RULES, "drought": laws.LawRule(friction=2.0)})
    bad = [laws.Law("x", "X", "forever", "text", True)]
    with pytest.raises(ValueError, match="duration"):
        laws.check_rules(bad, {"x": laws.LawRule(friction=2.0)})
