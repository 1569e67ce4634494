"""Cards, skills and believers are data: each has a stable key in ``cards.json``, the rules of each
key sit in a table checked against the data on import, and a name is display text only — no rule
file decides anything by comparing with one."""

from __future__ import annotations

import ast
import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest

from rules.hegemony_of_faith import bot, cards, combat, turn

RULE_DIR = Path(cards.__file__).parent
RULE_FILES = sorted(RULE_DIR.glob("*.py"))
DATA: dict[str, Any] = json.loads((RULE_DIR / "cards.json").read_text("utf-8"))

ACTION_KEYS = [a["key"] for a in DATA["actions"]]
SKILL_KEYS = [s["key"] for s in DATA["skills"]]
ATTACK_KEYS = ([a["key"] for a in DATA["actions"] if a["kind"] in ("physical", "mental")]
               + [d["key"] for d in DATA["showdowns"]])
NAMES = ({a["name"] for a in DATA["actions"]} | {s["name"] for s in DATA["skills"]}
         | {b["name"] for b in DATA["believers"]} | {d["name"] for d in DATA["showdowns"]})

TABLES: list[tuple[str, Mapping[str, Any], list[str]]] = [
    ("action cards' options and effects", turn.CARD_RULES, ACTION_KEYS),
    ("skills' options and effects", turn.SKILL_RULES, SKILL_KEYS),
    ("attacks' resolutions", combat.ATTACKS, ATTACK_KEYS),
    ("the computer player's action cards", bot.CARD_PLAY, ACTION_KEYS),
    ("the computer player's skills", bot.SKILL_PLAY, SKILL_KEYS),
]


def test_every_card_skill_and_believer_has_a_distinct_stable_key() -> None:
    keys = [x["key"] for part in ("actions", "skills", "believers", "showdowns") for x in DATA[part]]
    assert len(keys) == len(set(keys))
    assert all(k.isidentifier() and k == k.lower() for k in keys)


@pytest.mark.parametrize(("what", "table", "keys"), TABLES, ids=[t[0] for t in TABLES])
def test_every_key_in_the_data_has_its_rules_and_every_rule_a_key(
        what: str, table: Mapping[str, Any], keys: list[str]) -> None:
    assert set(table) == set(keys), what


def test_a_played_card_has_options_and_an_effect_exactly_when_it_is_played_on_a_turn() -> None:
    """Defence cards answer attacks (``combat``); every other card is played on its own turn."""
    for a in DATA["actions"]:
        rules = turn.CARD_RULES[a["key"]]
        on_turn = not a["kind"].startswith("defence_")
        assert (rules.options is not None, rules.apply is not None) == (on_turn, on_turn), a["key"]


def test_a_skill_used_on_its_holders_turn_has_options_and_an_effect_and_the_others_none() -> None:
    on_turn = [k for k, r in turn.SKILL_RULES.items() if r.options is not None]
    assert on_turn == [k for k in SKILL_KEYS if turn.SKILL_RULES[k].apply is not None]
    assert {"the_prophet", "holy_rebirth", "karma_reversed", "zombie_army", "gate_of_truth",
            "impermanence_of_life"}.isdisjoint(on_turn)


@pytest.mark.parametrize("check", [
    lambda: cards.check_table("action cards", {k: 1 for k in ACTION_KEYS[1:]}, cards.ACTION_KEYS),
    lambda: cards.check_table("skills", {**{k: 1 for k in SKILL_KEYS}, "summon_demon": 1},
                              cards.SKILL_KEYS),
], ids=["a key without rules", "rules without a key"])
def test_a_table_that_disagrees_with_the_data_is_refused_on_import(check: Callable[[], None]) -> None:
    with pytest.raises(ValueError, match="have_a_charity|summon_demon"):
        check()


def _compared_strings(tree: ast.AST) -> set[str]:
    """String constants a condition compares with: either side of ``==``, ``!=``, ``in``,
    ``not in``, ``is`` (also inside a tuple, list or set written there) and ``match`` cases."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            for side in [node.left, *node.comparators]:
                for sub in ast.walk(side):
                    if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
                        out.add(sub.value)
        elif isinstance(node, ast.MatchValue):
            for sub in ast.walk(node.value):
                if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
                    out.add(sub.value)
    return out


@pytest.mark.parametrize("path", RULE_FILES, ids=lambda p: p.name)
def test_no_rule_file_compares_with_a_card_skill_or_believer_name(path: Path) -> None:
    hits = _compared_strings(ast.parse(path.read_text(encoding="utf-8"))) & NAMES
    assert not hits, f"{path.name} compares with {sorted(hits)}"


@pytest.mark.parametrize("path", RULE_FILES, ids=lambda p: p.name)
def test_no_rule_file_spells_a_name_as_a_whole_string(path: Path) -> None:
    """Not even in a tuple, a table or a call: rules name a card or skill by its key and read
    the name from the data (display text may still mention one inside a sentence)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    spelled = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)
               and isinstance(n.value, str)} & NAMES
    assert not spelled, f"{path.name} spells {sorted(spelled)}"
