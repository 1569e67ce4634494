"""Hand-made Hegemony of Faith tables for scenario tests."""

from __future__ import annotations

from typing import Any

from rules.engine import Event, Prompt
from rules.hegemony_of_faith import ENGINE
from rules.hegemony_of_faith.cards import (
    ACTION_CARDS,
    N_ACTIONS,
    N_BELIEVERS,
    SKILL_NAMES,
    btype,
)
from rules.hegemony_of_faith.frames import AttackFrame
from rules.hegemony_of_faith.state import State


def table(n: int = 4, skills: dict[int, str] | None = None, seed: int = 1) -> State:
    """A game in play at P1's turn start, with empty hands and flocks and the given skills."""
    s = ENGINE.setup(n, seed, {"first_player": 0})
    s.stack = []
    s.phase = "play"
    s.action_deck = list(range(N_ACTIONS))
    s.action_discard = []
    s.believer_deck = [c for c in range(N_BELIEVERS) if c not in s.box]
    s.hands = [[] for _ in range(n)]
    s.believers = [[] for _ in range(n)]
    s.skill = [None] * n
    s.skill_deck = [i for i in range(len(SKILL_NAMES))]
    for seat, name in (skills or {}).items():
        idx = SKILL_NAMES.index(name)
        s.skill[seat] = idx
        s.skill_deck.remove(idx)
    s.current = 0
    s.round_no = 1
    s.turn_no = 1
    return s


def hand(s: State, seat: int, *names: str) -> None:
    for name in names:
        for pile in (s.action_deck, s.action_discard):
            card = next((c for c in pile if ACTION_CARDS[c] == name), None)
            if card is not None:
                pile.remove(card)
                s.hands[seat].append(card)
                break
        else:
            raise AssertionError(f"no {name} left to deal")


def flock(s: State, seat: int, *types: int) -> None:
    for t in types:
        card = next((c for c in s.believer_deck if btype(c) == t), None)
        if card is None:
            card = next(c for c in s.box if btype(c) == t)
            s.box.remove(card)
        else:
            s.believer_deck.remove(card)
        s.believers[seat].append(card)


def graveyard(s: State, *types: int) -> None:
    for t in types:
        card = next(c for c in s.believer_deck if btype(c) == t)
        s.believer_deck.remove(card)
        s.graveyard.append(card)


def types(s: State, seat: int) -> list[int]:
    return sorted(btype(c) for c in s.believers[seat])


def names(s: State, seat: int) -> list[str]:
    return sorted(ACTION_CARDS[c] for c in s.hands[seat])


def attack_frame(s: State) -> AttackFrame:
    """The open attack (a card's or a showdown's) on top of the stack."""
    f = s.stack[-1]
    assert f["k"] == "attack", f
    return f


def prompts_of(s: State) -> list[Prompt]:
    return ENGINE.prompts(s)


def prompt(s: State, seat: int) -> Prompt:
    return ENGINE.prompt_for(s, seat)


def act(s: State, seat: int, action: dict[str, Any]) -> tuple[State, list[Event]]:
    return ENGINE.apply(s, seat, action)


def do(s: State, *steps: tuple[int, dict[str, Any]]) -> State:
    for seat, action in steps:
        s, _ = ENGINE.apply(s, seat, action)
    return s


def labels(p: Prompt) -> list[str]:
    return [c.label for c in p.choices]


def actions(p: Prompt) -> list[dict[str, Any]]:
    return [c.action for c in p.choices]


def conserved(s: State) -> None:
    """Every action card and believer card is in exactly one place."""
    acts = list(s.action_deck) + list(s.action_discard) + [c for h in s.hands for c in h]
    assert sorted(acts) == list(range(N_ACTIONS)), "action cards are lost or duplicated"
    bels = (list(s.believer_deck) + list(s.box) + list(s.graveyard) + list(s.removed)
            + [c for b in s.believers for c in b])
    assert sorted(bels) == list(range(N_BELIEVERS)), "believer cards are lost or duplicated"
