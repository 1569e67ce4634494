"""The table's mechanics shared by every phase: moving cards between deck, hand, graveyard and
the burned pile (keeping Reorder knowledge right), combat numbers with every modifier, card
costs and playability, and destroying permanents.

Modifiers in one place (the rules page lists them): passives of the owner's face-up permanents
(``boost``, ``discount``, ``radar``, ``spy_hunt``, ``salvage``), the nation's trait, the
governance's trait, Blitz Orders' rally and the global era's effects.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..engine import Story, seat_name
from ..text import count
from .content import CARDS, GOVERNANCES, NATIONS, Card
from .state import ACADEMIC, LEGACY_RULES, Perm, State

MECHANICAL, ATOMIC, DIGITAL, SINGULARITY = 1, 2, 3, 4
ESPIONAGE_ERA_BONUS = 50
"""From the Atomic era on, espionage units fight this much stronger ("Espionage rises")."""
RESHUFFLE_BURN = 5
NUCLEAR_BURN = 3


class Ctx(Story[State]):
    """One ``play`` call: the state being changed and the events it tells (the engine's
    :class:`~rules.engine.Story`)."""


def name_of(card: str) -> str:
    if card == ACADEMIC:
        return "Academic"
    return CARDS[card].name


def perm_name(p: Perm, seat: int | None) -> str:
    """How ``seat`` sees ``p`` named: a face-down card is "a face-down unit" to the opponent."""
    if p.card == ACADEMIC:
        return "Academic"
    if p.face_down:
        label = "Reserve" if p.kind == "resource" else "face-down unit"
        if seat == p.owner:
            return f"{label} ({CARDS[p.card].name})"
        return label
    return CARDS[p.card].name


def public_name(p: Perm) -> str:
    return perm_name(p, None)


# ------------------------------------------------------------------------------- deck moves


def take_top(s: State, seat: int, n: int) -> list[str]:
    """Remove up to ``n`` cards from the top of ``seat``'s deck (the opponent's knowledge of
    those positions goes with them)."""
    sd = s.sides[seat]
    out = sd.deck[:n]
    del sd.deck[:n]
    known = s.known[1 - seat]
    del known[:len(out)]
    return out


def draw(ctx: Ctx, seat: int, n: int) -> list[str]:
    cards = take_top(ctx.s, seat, n)
    ctx.s.sides[seat].hand.extend(cards)
    if cards:
        ctx.say(f"{seat_name(seat)} draws {count(len(cards), 'card')}.")
        ctx.tell(seat, "You draw " + ", ".join(name_of(c) for c in cards) + ".")
    return cards


def mill(ctx: Ctx, seat: int, n: int, why: str = "") -> list[str]:
    cards = take_top(ctx.s, seat, n)
    ctx.s.sides[seat].graveyard.extend(cards)
    if cards:
        ctx.say(f"{seat_name(seat)} mills {', '.join(name_of(c) for c in cards)}: off the top of "
                f"their deck into the graveyard{why}.",
                kind="mill", data={"seat": seat, "cards": cards})
    return cards


def burn_top(ctx: Ctx, seat: int, n: int, why: str = "") -> list[str]:
    cards = take_top(ctx.s, seat, n)
    ctx.s.sides[seat].burned.extend(cards)
    if cards:
        ctx.say(f"{seat_name(seat)} burns {', '.join(name_of(c) for c in cards)} from the deck{why}.",
                kind="burn", data={"seat": seat, "cards": cards})
    return cards


def roll(s: State, seat: int) -> tuple[int, str | None]:
    """The top card's combat value; the card goes to the bottom (0 from an empty deck)."""
    top = take_top(s, seat, 1)
    if not top:
        return 0, None
    s.sides[seat].deck.append(top[0])
    return CARDS[top[0]].value, top[0]


def recover(ctx: Ctx, seat: int, n: int) -> None:
    """Top ``n`` cards of the graveyard to the bottom of the deck."""
    sd = ctx.s.sides[seat]
    moved = [sd.graveyard.pop() for _ in range(min(n, len(sd.graveyard)))]
    sd.deck.extend(moved)
    if moved:
        ctx.say(f"{seat_name(seat)} puts {', '.join(name_of(c) for c in moved)} from the graveyard "
                "at the bottom of the deck.")


def shuffle_deck(s: State, seat: int) -> None:
    s.rng.shuffle(s.sides[seat].deck)
    s.known[1 - seat] = []


# ---------------------------------------------------------------------------- modifiers


def passives(s: State, seat: int, effect: str) -> list[Any]:
    """The ``effect`` passive abilities of ``seat``'s face-up permanents."""
    out = []
    for p in s.perms:
        if p.owner != seat or p.face_down or p.card == ACADEMIC:
            continue
        for ab in CARDS[p.card].abilities:
            if ab.trigger == "passive" and ab.effect == effect:
                out.append(ab)
    return out


def power(s: State, p: Perm, role: str) -> int:
    """``p``'s combat power when it ``"attack"``s or ``"defend"``s, with every modifier."""
    total = p.power + _boost_power(s, p, role)
    total += _nation_power(NATIONS[s.sides[p.owner].nation].effect, p, role)
    total += _governance_power(GOVERNANCES[s.sides[p.owner].governance].effect, p)
    if s.rally and p.owner == s.current and p.kind == "unit":
        total += s.rally
    if s.global_era >= ATOMIC and "espionage" in p.keywords:
        total += ESPIONAGE_ERA_BONUS
    return total


_BOOST_SCOPES: dict[str, Callable[[Perm, str], bool]] = {
    "any": lambda p, role: True,
    "naval": lambda p, role: "naval" in p.keywords,
    "attack": lambda p, role: role == "attack",
}
"""Which units a ``boost`` passive strengthens, by its scope."""


def _boost_power(s: State, p: Perm, role: str) -> int:
    """What the ``boost`` passives of the owner's face-up permanents add to unit ``p``."""
    if p.kind != "unit":
        return 0
    return sum(ab.amount for ab in passives(s, p.owner, "boost")
               if ab.scope in _BOOST_SCOPES and _BOOST_SCOPES[ab.scope](p, role))


_NATION_POWER_SCOPES: dict[str, Callable[[Perm, str], bool]] = {
    "naval": lambda p, role: "naval" in p.keywords,
    "rapid_attack": lambda p, role: "rapid_deployment" in p.keywords and role == "attack",
    "defence": lambda p, role: role == "defend",
}
"""Which permanents a nation's ``power`` trait strengthens, by its scope."""

_NATION_POWER: dict[str, Callable[[Mapping[str, Any], Perm, str], bool]] = {
    "power": lambda e, p, role: (e["scope"] in _NATION_POWER_SCOPES
                                 and _NATION_POWER_SCOPES[e["scope"]](p, role)),
    "arsenal": lambda e, p, role: e["scope"] in p.keywords and p.kind == "unit",
    "fortress": lambda e, p, role: role == "defend",
    "tie": lambda e, p, role: e["scope"] == "attack" and role == "attack" and p.kind == "unit",
}
"""Whether a nation's trait adds its amount to ``p``'s power, by the trait's kind (a kind not
here never changes power)."""


def _nation_power(effect: Mapping[str, Any], p: Perm, role: str) -> int:
    applies = _NATION_POWER.get(effect["kind"])
    return int(effect["amount"]) if applies is not None and applies(effect, p, role) else 0


def _governance_power(effect: Mapping[str, Any], p: Perm) -> int:
    """Communism's strength for small units (the only governance trait that changes power)."""
    if effect["kind"] == "power" and effect["scope"] == "small_units" and p.kind == "unit" \
            and p.power <= 150:
        return int(effect["amount"])
    return 0


def mobility(s: State, p: Perm, intercepting: bool = False) -> int:
    total = p.mobility
    effect = NATIONS[s.sides[p.owner].nation].effect
    if effect["kind"] == "mobility" and effect["scope"] in p.keywords:
        total += int(effect["amount"])
    if effect["kind"] == "arsenal" and effect["scope"] in p.keywords:
        total += 1
    if intercepting:
        total += sum(ab.amount for ab in passives(s, p.owner, "radar"))
        if effect["kind"] == "fortress":
            total += 1  # intercepts an attacker of equal mobility
    return total


def wins_ties(s: State, seat: int) -> bool:
    return bool(NATIONS[s.sides[seat].nation].effect["kind"] == "tie")


def may_hunt_spies(s: State, seat: int) -> bool:
    """Whether ``seat``'s Precision Strike units may attack espionage units now."""
    return bool(passives(s, seat, "spy_hunt")) or (s.spy_hunt and s.current == seat)


def hit_mill(s: State, p: Perm) -> int:
    """Cards a direct hit by ``p`` mills: one per full 100 power (none under 100; at least one
    under the legacy rules), plus Autocracy's extra card on the turn's first hit and the
    Singularity era's extra card."""
    n = power(s, p, "attack") // 100
    if s.rules == LEGACY_RULES:
        n = max(1, n)
    geffect = GOVERNANCES[s.sides[p.owner].governance].effect
    if geffect["kind"] == "mill" and geffect["scope"] == "first" and s.hits == 0:
        n += int(geffect["amount"])
    if s.global_era >= SINGULARITY:
        n += 1
    return n


def discard_cost(s: State, seat: int, card: Card) -> int:
    """The ✋ ``card`` costs ``seat`` now, after discounts."""
    n = card.cost.discard
    sd = s.sides[seat]
    for ab in passives(s, seat, "discount"):
        if (ab.scope == "unit" and card.kind == "unit") or (
                ab.scope == "economy" and card.kind in ("infrastructure", "resource", "event")):
            n -= ab.amount
    geffect = GOVERNANCES[sd.governance].effect
    if geffect["kind"] == "discount" and geffect["scope"] == "market" and (
            card.kind in ("infrastructure", "resource")
            or (card.kind == "unit" and sd.units_built == 0)):
        n -= int(geffect["amount"])
    if card.kind == "unit" and s.global_era >= MECHANICAL and sd.units_built == 0:
        n -= 1
    return max(0, n)


def reserves(s: State, seat: int) -> list[Perm]:
    return [p for p in s.perms if p.owner == seat and p.face_down and p.kind == "resource"]


def academics(s: State, seat: int) -> list[Perm]:
    return [p for p in s.perms if p.owner == seat and p.card == ACADEMIC]


# ------------------------------------------------------------------------------- destroying


def destroy(ctx: Ctx, p: Perm, why: str = "") -> None:
    """Remove ``p`` from play: a card goes to its owner's graveyard (a Field Hospital sends a
    unit to the bottom of the deck instead), an Academic token simply vanishes. Units stationed
    on destroyed infrastructure stay in play, no longer stationed."""
    s = ctx.s
    if p not in s.perms:
        return
    s.perms.remove(p)
    for q in s.perms:
        if q.station == p.uid:
            q.station = None
    shown_name = CARDS[p.card].name if p.card != ACADEMIC else "Academic"
    if p.card == ACADEMIC:
        ctx.say(f"{seat_name(p.owner)}'s Academic is destroyed{why}.")
        return
    if p.kind == "unit" and passives(s, p.owner, "salvage"):
        s.sides[p.owner].deck.append(p.card)
        # A face-down unit never reaches the graveyard, so it is never turned face up: the
        # opponent learns only that a face-down card went under the deck.
        told = public_name(p)
        ctx.say(f"{seat_name(p.owner)}'s {told} is destroyed{why}; a Field Hospital puts it at "
                "the bottom of the deck.")
        if p.face_down:
            ctx.tell(p.owner, f"Your face-down {shown_name} goes to the bottom of your deck.")
        return
    s.sides[p.owner].graveyard.append(p.card)
    ctx.say(f"{seat_name(p.owner)}'s {shown_name} is destroyed{why}.")


def new_perm(s: State, seat: int, card: str, kind: str, power_: int, mobility_: int,
             face_down: bool = False) -> Perm:
    p = Perm(uid=s.next_uid, owner=seat, card=card, kind=kind, power=power_, mobility=mobility_,
             face_down=face_down)
    s.next_uid += 1
    s.perms.append(p)
    return p


def deck_and_graveyard(s: State, seat: int) -> int:
    """Deck and graveyard together (what Mutually Assured Destruction counts)."""
    sd = s.sides[seat]
    return len(sd.deck) + len(sd.graveyard)


def cards_left(s: State, seat: int) -> int:
    """Deck, graveyard and hand together: what a player still has to live on."""
    sd = s.sides[seat]
    return len(sd.deck) + len(sd.graveyard) + len(sd.hand)


def end_game(ctx: Ctx, winner: int | None, reason: str) -> None:
    s = ctx.s
    s.phase = "over"
    s.winner = winner
    s.draw = winner is None
    s.reason = reason
    s.stack.clear()
    ctx.say(reason, kind="game_over")
