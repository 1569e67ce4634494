"""The action cards' effects are data: each card names an effect key, the effect table holds its
rules, and no rule file tests a card by name."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path
from typing import Any

import pytest

from rules.cult_wars import effects
from rules.cult_wars.content import KINDS, ActionKind
from rules.cult_wars.effects import EFFECTS, CardPlay, Mods, Plan
from rules.cult_wars.resolve import Turn
from rules.engine import Story

from .helpers import make

RULE_FILES = sorted(Path(effects.__file__).parent.glob("*.py"))


def test_every_card_effect_has_rules_and_every_rule_a_card() -> None:
    used = {k.effect for k in KINDS}
    assert used == set(EFFECTS)


def test_the_effect_table_is_checked_on_import(monkeypatch: pytest.MonkeyPatch) -> None:
    stray = dataclasses.replace(KINDS[0], key="stray", effect="summon_demon")
    monkeypatch.setattr(effects, "KINDS", (*KINDS, stray))
    with pytest.raises(ValueError, match="summon_demon"):
        effects._check()
    unused = tuple(k for k in KINDS if k.effect != "steal_card")
    monkeypatch.setattr(effects, "KINDS", unused)
    with pytest.raises(ValueError, match="steal_card"):
        effects._check()


def _compared_strings(tree: ast.AST) -> set[str]:
    """String constants a condition compares with (``==``, ``!=``, ``in``, ``match`` cases)."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            for side in [node.left, *node.comparators]:
                for sub in ast.walk(side):
                    if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
                        out.add(sub.value)
        elif isinstance(node, ast.MatchValue):
            if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
                out.add(node.value.value)
    return out


@pytest.mark.parametrize("path", RULE_FILES, ids=lambda p: p.name)
def test_no_rule_file_tests_a_card_or_effect_by_name(path: Path) -> None:
    """Card names are display text; card and effect keys are read only through the table."""
    forbidden = {k.name for k in KINDS} | {k.key for k in KINDS} | set(EFFECTS)
    hits = _compared_strings(ast.parse(path.read_text(encoding="utf-8"))) & forbidden
    assert not hits, f"{path.name} compares with {sorted(hits)}"


def test_a_new_card_is_data_only() -> None:
    """A card that is not in the deck, written as data with an existing effect key, takes effect
    through the table with its own name and amount."""
    plague = ActionKind(key="plague", name="Great Plague", count=1, target="opponent",
                        effect="kill_followers", amount=3, priority=5, text="")
    s = make([10, 10])
    board = {0: {"attack": 0, "defend": 2, "sacrifice": 1, "breed": 1, "idle": 6},
             1: {"attack": 0, "defend": 2, "sacrifice": 1, "breed": 1, "idle": 6}}
    t = Turn(orders={}, board=board, mods={0: Mods(), 1: Mods()}, in_play=[])
    line = effects.apply(CardPlay(Story(s), t, plague, 0, 1))
    assert line == "P1's Great Plague kills 3 of P2's followers (1 sacrificial, 1 breeder, 1 defender)."
    assert board[1] == {"attack": 0, "defend": 1, "sacrifice": 0, "breed": 0, "idle": 6}


def test_an_uncancellable_effect_is_spared_by_cancel_cards() -> None:
    assert [key for key, e in EFFECTS.items() if not e.cancellable] == ["cancel_cards"]


PLAN = Plan(attack=0, sacrifice=0, breed=0, threat=0.0, turn=2, last_turn=False, vp=0,
            target_vp=0, target_hand=0)


@pytest.mark.parametrize(("effect", "change", "before", "after"), [
    ("attack_bonus", {"attack": 2}, False, True),
    ("shelter_sacrifices", {"sacrifice": 4}, False, True),
    ("sacrifice_bonus", {"sacrifice": 1}, False, True),
    ("breed_bonus", {"breed": 1}, False, True),
    ("defend_bonus", {"threat": 3.0}, False, True),
    ("weaken_attack", {"last_turn": True}, False, True),
    ("sacrifice_malus", {"target_vp": 1}, False, True),
    ("steal_card", {"target_hand": 1}, False, True),
    ("cancel_cards", {"target_hand": 2}, False, True),
    ("kill_followers", {}, True, True),
])
def test_the_computer_player_plays_a_card_when_its_effect_fits_the_orders(
        effect: str, change: dict[str, Any], before: bool, after: bool) -> None:
    assert EFFECTS[effect].wanted(PLAN) is before
    assert EFFECTS[effect].wanted(dataclasses.replace(PLAN, **change)) is after


def test_the_computer_player_keeps_fertility_for_a_later_turn() -> None:
    """No breeding bonus on the last turn: the game ends before the newborn count."""
    assert not EFFECTS["breed_bonus"].wanted(dataclasses.replace(PLAN, breed=3, last_turn=True))
