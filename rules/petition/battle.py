"""Battle arithmetic and the Challenger chart: pure functions over card ids and numbers.

Kept apart from the engine so the rules page, the computer player and the tests share one
definition of "what a card is worth here" and "who the god favours".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .content import (
    CARDS,
    FAVOUR_STRONG,
    FAVOUR_WEAK,
    Card,
)

PER_CITIZEN_CAP = 4
"""Zealots' Hymn adds at most this much."""


def citizen_value(card: Card, pillar: str, fortification: str | None = None) -> int:
    """What a citizen is worth in a battle over ``pillar``; a defender whose pillar is fortified
    with another kind may count the citizen's points in that kind instead (the greater)."""
    if not card.is_citizen:
        return 0
    value = card.power(pillar)
    if fortification is not None:
        value = max(value, card.power(fortification))
    return value


def can_play(card: Card, role: str, pillar: str, *, favour: bool, locked: bool,
             fortification: str | None = None) -> bool:
    """May a side play ``card`` in a battle over ``pillar`` now?

    A citizen only if it is worth something here and the side is not locked (a locked side's
    citizens are the ones it bid to the god); a powerup if it suits the side's role and, when it
    needs a god's favour, the side has the favour in this battle (powerups work even when locked)."""
    if card.is_citizen:
        return not locked and citizen_value(card, pillar, fortification) > 0
    if card.role not in ("any", role):
        return False
    return favour or not card.needs_favour


@dataclass(frozen=True)
class Tally:
    attack: int
    defend: int

    @property
    def attacker_wins(self) -> bool:
        """The attacker must beat the defence; a tie holds the pillar."""
        return self.attack > self.defend


def _raw(cards: Sequence[str], pillar: str, fortification: str | None) -> tuple[int, int, int]:
    """(points + additions, weakening aimed at the other side, citizens) of one side's cards."""
    points = 0
    weaken = 0
    citizens = [CARDS[c] for c in cards if CARDS[c].is_citizen]
    for c in cards:
        card = CARDS[c]
        if card.is_citizen:
            points += citizen_value(card, pillar, fortification)
        elif card.effect == "add":
            points += card.amount
        elif card.effect == "per_citizen":
            points += min(PER_CITIZEN_CAP, card.amount * len(citizens))
        elif card.effect == "weaken":
            weaken += card.amount
    return points, weaken, len(citizens)


def tally(attack: Sequence[str], defend: Sequence[str], pillar: str, *, attack_bonus: int,
          defend_bonus: int, fortification: str | None, stand: int = 0) -> Tally:
    """Both sides' totals: citizens' points in the contested pillar (the defender may use its
    fortification's kind), powerups, the god bonus, +1 for a fortified defence, the pillar's own
    ``stand`` once the defender has laid anything (the table option ``pillar_stand``: 0 by
    default, :data:`~rules.petition.content.PILLAR_STAND` with it and in games of rules revision
    1); then each side's
    weakening powerups take from the other's total (never below 0)."""
    a_points, a_weaken, _ = _raw(attack, pillar, None)
    d_points, d_weaken, _ = _raw(defend, pillar, fortification)
    a = a_points + attack_bonus
    d = d_points + defend_bonus + (1 if fortification is not None else 0) + (stand if defend else 0)
    return Tally(max(0, a - d_weaken), max(0, d - a_weaken))


@dataclass(frozen=True)
class Verdict:
    """The Challenger chart's answer for one duel."""

    holder_wins: bool
    bonus: int
    """3 or 1: the side the winner's god card shows."""
    lock: bool
    """The winner is card-locked (its bid citizens are set aside for its battle)."""
    why: str


def judge(holder: tuple[int, int], challenger: tuple[int, int]) -> Verdict:
    """Herald's Challenger chart. Each side is (beads offered, citizens bid).

    Devotion is beads + citizens; the higher devotion wins, a tie goes to the side that bid more
    citizens (action), then to the holder. The winner gets +3 when it led (or matched) the loser in
    both beads and citizens, +1 otherwise; it is card-locked when it offered fewer beads than the
    loser (it won on action rather than faith)."""
    hb, hc = holder
    cb, cc = challenger
    hd, cd = hb + hc, cb + cc
    if hd != cd:
        holder_wins = hd > cd
        why = "more devotion (beads + citizens)"
    elif hc != cc:
        holder_wins = hc > cc
        why = "equal devotion; more citizens"
    else:
        holder_wins = True
        why = "equal devotion and citizens; the holder keeps the favour"
    wb, wc, lb, lc = (hb, hc, cb, cc) if holder_wins else (cb, cc, hb, hc)
    bonus = FAVOUR_STRONG if wb >= lb and wc >= lc else FAVOUR_WEAK
    return Verdict(holder_wins, bonus, wb < lb, why)
