"""Building Alternate Histories positions directly, for rule-by-rule tests."""

from __future__ import annotations

from typing import Any

from rules.alternate_histories import ENGINE
from rules.alternate_histories.board import new_perm
from rules.alternate_histories.content import CARDS
from rules.alternate_histories.state import LEGACY_RULES, RULES, Perm, State

__all__ = ["LEGACY_RULES", "RULES", "act", "actions", "perm", "prompt", "put", "result", "table",
           "texts"]
from rules.engine import Event, Prompt, Result

FILLER = "rifle_infantry"


def table(nations: tuple[str, str] = ("usa", "russia"),
          governances: tuple[str, str] = ("capitalism", "capitalism"),
          hands: tuple[list[str], list[str]] | None = None,
          decks: tuple[list[str], list[str]] | None = None,
          step: str = "combat", current: int = 0, era: tuple[int, int] = (0, 0),
          seed: int = 1, rules: int = RULES, **options: Any) -> State:
    """A game in progress: both sides set, ``current`` to play in ``step``, under the rules
    revision ``rules`` (a game stored before the revision existed plays :data:`LEGACY_RULES`)."""
    s = ENGINE.setup(2, seed, options or None)
    s.rules = rules
    for k in (0, 1):
        sd = s.sides[k]
        sd.nation, sd.governance = nations[k], governances[k]
        sd.deck = list(decks[k]) if decks else [FILLER] * 20
        sd.hand = list(hands[k]) if hands else [FILLER] * 7
        sd.chosen = sd.opened = True
        sd.deck_name = "test"
        sd.era = era[k]
    s.phase = "turn"
    s.step = step
    s.current = current
    s.turn = 2  # past the first turn, which has no draw phase
    return s


def put(s: State, seat: int, card: str, **kw: Any) -> Perm:
    """Put ``card`` into play for ``seat`` (face up unless ``face_down``)."""
    c = CARDS[card]
    p = new_perm(s, seat, card, c.kind, c.power, c.mobility)
    for k, v in kw.items():
        setattr(p, k, v)
    return p


def act(s: State, seat: int, action: dict[str, Any]) -> tuple[State, list[Event]]:
    return ENGINE.apply(s, seat, action)


def texts(events: list[Event], seat: int | None = None) -> str:
    return "\n".join(e.text for e in events if e.visible_to(seat))


def perm(s: State, uid: int) -> Perm:
    """The permanent ``uid``, which the test expects still in play."""
    p = s.perm(uid)
    assert p is not None, uid
    return p


def result(s: State) -> Result:
    """The result of a game the test expects over."""
    r = ENGINE.result(s)
    assert r is not None
    return r


def prompt(s: State) -> Prompt:
    ps = ENGINE.prompts(s)
    assert len(ps) == 1, ps
    return ps[0]


def actions(s: State) -> list[dict[str, Any]]:
    return [c.action for c in prompt(s).choices]
