"""Hand-made Petition situations for the scenario tests."""

from __future__ import annotations

from typing import Any

from rules.engine import Event, Prompt
from rules.petition import ENGINE
from rules.petition.content import CARDS, DECK_IDS
from rules.petition.engine import RULES
from rules.petition.state import PetitionState, Player


def cid(name: str, nth: int = 0) -> str:
    """The id of the ``nth`` card named ``name`` (citizens are unique; powerups come in pairs)."""
    ids = [c for c, card in CARDS.items() if card.name == name]
    assert ids, f"no card named {name!r}"
    return ids[nth]


def citizens(god: str, pillar: str | None = None, n: int = 99) -> list[str]:
    """Citizens serving ``god`` (optionally only those with points in ``pillar``), strongest first."""
    out = [c for c, card in CARDS.items() if card.is_citizen and card.god == god
           and (pillar is None or card.power(pillar) > 0)]
    out.sort(key=lambda c: -CARDS[c].power(pillar or god))
    return out[:n]


def make(players: int = 3, *, hands: list[list[str]] | None = None, beads: list[int] | None = None,
         seed: int = 7, rules: int = RULES, **options: Any) -> PetitionState:
    """A fresh game whose seats hold exactly ``hands`` and ``beads``; every other card is in the
    deck (in id order, so draws are predictable), beads not held are in the temple. ``rules``: the
    rules revision (1: how games stored before revision 2 go on)."""
    s = ENGINE._setup(players, seed, options, rules)
    if hands is not None:
        held = {c for h in hands for c in h}
        for k, p in enumerate(s.seats):
            p.hand = list(hands[k])
        s.deck = [c for c in DECK_IDS if c not in held]
        s.discard = []
    if beads is not None:
        total = s.temple + sum(p.beads for p in s.seats)
        for k, p in enumerate(s.seats):
            p.beads = beads[k]
        s.temple = total - sum(beads)
        assert s.temple >= 0
    return s


def act(s: PetitionState, seat: int, action: dict[str, Any]) -> tuple[PetitionState, list[Event]]:
    return ENGINE.apply(s, seat, action)


def pick(s: PetitionState, seat: int, cards: list[str]) -> tuple[PetitionState, list[Event]]:
    return ENGINE.apply(s, seat, {"type": "cards", "cards": list(cards)})


def prompt(s: PetitionState, seat: int) -> Prompt:
    return ENGINE.prompt_for(s, seat)


def labels(p: Prompt) -> list[str]:
    return [c.label for c in p.choices]


def everyone_passes(s: PetitionState, seats: list[int]) -> PetitionState:
    for k in seats:
        s, _ = act(s, k, {"type": "challenge", "beads": 0})
    return s


def unchallenged_favour(s: PetitionState, seat: int, god: str, offer: int = 2) -> PetitionState:
    """``seat`` (whose turn it is) petitions ``god`` and nobody challenges."""
    s, _ = act(s, seat, {"type": "petition", "god": god})
    s, _ = act(s, seat, {"type": "offer", "beads": offer})
    return everyone_passes(s, [k for k in range(s.players) if k != seat])


def pass_turn(s: PetitionState) -> PetitionState:
    """The seat whose turn it is takes beads (or ends its turn) and ends it."""
    seat = s.turn_seat
    p = prompt(s, seat)
    a = next((c.action for c in p.choices if c.action["type"] == "beads"),
             next(c.action for c in p.choices if c.action["type"] in ("pass", "draw", "both")))
    s, _ = act(s, seat, dict(a))
    if s.phase == "extra":
        s, _ = act(s, seat, {"type": "end"})
    return s


def public_text(events: list[Event]) -> str:
    return " ".join(e.text + repr(e.data) for e in events if e.to is None)


__all__ = ["Player", "act", "cid", "citizens", "make", "pick", "prompt"]
