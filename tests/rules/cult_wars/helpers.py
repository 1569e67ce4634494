"""Hand-made Cult Wars situations for the scenario tests."""

from __future__ import annotations

from typing import Any

from rules.cult_wars import ENGINE
from rules.cult_wars.content import CARD_KIND, DECK_IDS
from rules.cult_wars.state import Cult, CultWarsState
from rules.engine import Event, Rng


def card(key: str, nth: int = 0) -> str:
    """The id of the ``nth`` copy of action card ``key``."""
    ids = [cid for cid, kind in CARD_KIND.items() if kind.key == key]
    return ids[nth]


def make(followers: list[int], *, hands: list[list[str]] | None = None, vp: list[int] | None = None,
         turn: int = 1, deck: list[str] | None = None, discard: list[str] | None = None,
         seed: int = 5, insignia: str = "single") -> CultWarsState:
    """A state at the start of ``turn`` with the given cults. Cards not placed in a hand or in
    the discard pile make up the deck (in id order) unless ``deck`` is given.

    By default the table plays the ``single`` option (one secret order a turn), so a scenario
    about cards or combat needs one action per cult; ``insignia="two_step"`` starts in the
    insignia step (see :func:`play2`)."""
    n = len(followers)
    hands = hands or [[] for _ in range(n)]
    vp = vp or [0] * n
    discard = list(discard or [])
    held = {c for h in hands for c in h} | set(discard)
    if deck is None:
        deck = [c for c in DECK_IDS if c not in held]
    return CultWarsState(
        players=n, rng=Rng(seed),
        cults=[Cult(followers[k], vp[k], list(hands[k])) for k in range(n)],
        deck=list(deck), discard=discard, turn=turn, insignia=insignia,
        phase="targets" if insignia == "two_step" else "orders")


def orders(target: int, attack: list[int] | None = None, defend: list[int] | None = None,
           sacrifice: list[int] | None = None, breed: list[int] | None = None,
           actions: list[dict[str, Any]] | None = None, **extra: Any) -> dict[str, Any]:
    return {"type": "orders", "target": target,
            "slots": {"attack": attack or [], "defend": defend or [],
                      "sacrifice": sacrifice or [], "breed": breed or []},
            "actions": actions or [], **extra}


def play(s: CultWarsState, by_seat: dict[int, dict[str, Any]]) -> tuple[CultWarsState, list[Event]]:
    """Submit every seat's orders in seat order; return the state after the reveal and all events."""
    events: list[Event] = []
    for seat in sorted(by_seat):
        s, ev = ENGINE.apply(s, seat, by_seat[seat])
        events.extend(ev)
    return s, events


def play2(s: CultWarsState, targets: dict[int, int],
          by_seat: dict[int, dict[str, Any]]) -> tuple[CultWarsState, list[Event]]:
    """A ``two_step`` turn: every seat chooses its target, then sends its orders (in seat order);
    returns the state (the next turn, or paused for splits) and all events."""
    events: list[Event] = []
    for seat in sorted(targets):
        s, ev = ENGINE.apply(s, seat, {"type": "target", "target": targets[seat]})
        events.extend(ev)
    for seat in sorted(by_seat):
        s, ev = ENGINE.apply(s, seat, by_seat[seat])
        events.extend(ev)
    return s, events


def public_text(events: list[Event]) -> str:
    return "\n".join(e.text for e in events if e.to is None)


def all_cards(s: CultWarsState) -> list[str]:
    """Every action card: hands, deck, discard pile, and the cards on the table of a turn paused
    for the defenders' splits."""
    table = [str(c) for _k, c, _t in s.resolution["in_play"]] if s.resolution else []
    return sorted([c for cult in s.cults for c in cult.hand] + s.deck + s.discard + table)
