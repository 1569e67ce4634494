"""Secret variants for the non-interference check: states that differ only in one seat's secrets.

What a seat holds in secret in Petition: its hand, a face-down bid not yet revealed and face-down
opening campaign cards not yet revealed. A variant swaps hand cards with cards deeper in the
hidden deck (the next draws are left alone, so other seats' draws stay the same), or exchanges
one card of a pending face-down pick with another card of the hand the same pick could hold.
Counts never change and every card stays in exactly one place.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from .battle import can_play
from .content import CARDS
from .state import PetitionState

if TYPE_CHECKING:
    from .engine import PetitionEngine

CLEAR_OF_TOP = 6
"""Cards on top of the deck a hand variant leaves alone (the next draws of other seats)."""


def variants(engine: PetitionEngine, s: PetitionState, seat: int,
             rng: random.Random) -> list[PetitionState]:
    """The seat's secret variants of ``s``, in one order (its hand, its face-down bid, its
    face-down campaign cards), so one rng gives the same variants."""
    return (_hand_variant(engine, s, seat, rng) + _bid_variants(engine, s, seat, rng)
            + _campaign_variant(engine, s, seat, rng))


def _hand_variant(engine: PetitionEngine, s: PetitionState, seat: int,
                  rng: random.Random) -> list[PetitionState]:
    """The hand swapped card for card with cards of the hidden deck below its next draws."""
    hand = s.seats[seat].hand
    below = list(range(CLEAR_OF_TOP, len(s.deck)))
    if not hand or not below:
        return []
    v = engine.clone(s)
    take = rng.sample(below, min(len(hand), len(below)))
    for i, j in enumerate(take):
        h = v.seats[seat].hand
        h[i], v.deck[j] = v.deck[j], h[i]
    return [v]


def _bid_variants(engine: PetitionEngine, s: PetitionState, seat: int,
                  rng: random.Random) -> list[PetitionState]:
    """A face-down bid not yet revealed: one of its citizens exchanged with another citizen of
    the god in the hand."""
    pet = s.petition
    if pet is None or pet.stage != "bid":
        return []
    hand = s.seats[seat].hand
    out: list[PetitionState] = []
    for side_name in ("holder", "challenger"):
        side = getattr(pet, side_name)
        if side is None or side.seat != seat or not side.cards:
            continue
        spare = [c for c in hand if CARDS[c].is_citizen and CARDS[c].god == pet.god]
        if spare:
            v = engine.clone(s)
            vside = getattr(v.petition, side_name)
            i = rng.randrange(len(vside.cards))
            j = v.seats[seat].hand.index(rng.choice(spare))
            vh = v.seats[seat].hand
            vside.cards[i], vh[j] = vh[j], vside.cards[i]
            out.append(v)
    return out


def _campaign_variant(engine: PetitionEngine, s: PetitionState, seat: int,
                      rng: random.Random) -> list[PetitionState]:
    """Face-down opening campaign cards not yet revealed (and not locked): one of them exchanged
    with another card of the hand the same side could lay."""
    c = s.campaign
    if c is None or c.stage != "gather" or seat not in (c.attacker, c.defender):
        return []
    attacking = seat == c.attacker
    ready = c.attack_ready if attacking else c.defend_ready
    locked = c.attack_locked if attacking else c.defend_locked
    picked = c.attack if attacking else c.defend
    if not ready or locked or not picked:
        return []
    fort = None
    if not attacking:
        f = s.seats[c.defender].pillars[c.pillar].fortification
        fort = f.kind if f is not None else None
    favour = (c.attack_bonus if attacking else c.defend_bonus) > 0
    role = "attack" if attacking else "defend"
    spare = [x for x in s.seats[seat].hand if can_play(CARDS[x], role, c.pillar, favour=favour,
                                                        locked=False, fortification=fort)]
    if not spare:
        return []
    v = engine.clone(s)
    assert v.campaign is not None
    vpicked = v.campaign.attack if attacking else v.campaign.defend
    i = rng.randrange(len(vpicked))
    vh = v.seats[seat].hand
    j = vh.index(rng.choice(spare))
    vpicked[i], vh[j] = vh[j], vpicked[i]
    return [v]
