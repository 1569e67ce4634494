"""The effect library: every ability of every card is one of these, with its amount and
parameters read from the card data (no card has code of its own).

``PLAY_EFFECTS`` run when their trigger fires (``play``, ``untap`` or ``kill``); the ones that
need a decision push a sub-decision on the stack (a target, a pick, an order). ``PASSIVE_EFFECTS``
are standing rules read where they apply (:mod:`rules.alternate_histories.board`).
"""

from __future__ import annotations

from collections.abc import Callable

from ..engine import seat_name
from ..text import count
from . import board
from .board import Ctx
from .content import CARDS, Ability
from .state import ACADEMIC, LEGACY_RULES, Perm, State

Handler = Callable[[Ctx, int, Ability, str], None]


def _draw(ctx: Ctx, seat: int, ab: Ability, card: str) -> None:
    board.draw(ctx, seat, ab.amount)


def _recover(ctx: Ctx, seat: int, ab: Ability, card: str) -> None:
    board.recover(ctx, seat, ab.amount)


def _mill_opponent(ctx: Ctx, seat: int, ab: Ability, card: str) -> None:
    board.mill(ctx, 1 - seat, ab.amount, f" ({CARDS[card].name})")


def _scout(ctx: Ctx, seat: int, ab: Ability, card: str) -> None:
    n = min(ab.amount, len(ctx.s.sides[1 - seat].deck))
    if n:
        ctx.s.stack.append({"k": "reorder", "seat": seat, "of": 1 - seat, "n": n})


def _academic(ctx: Ctx, seat: int, ab: Ability, card: str) -> None:
    for _ in range(ab.amount):
        board.new_perm(ctx.s, seat, ACADEMIC, "unit", 0, 0)
    ctx.say(f"{CARDS[card].name} creates {count(ab.amount, 'Academic token')} for "
            f"{seat_name(seat)}.")


def _compute(ctx: Ctx, seat: int, ab: Ability, card: str) -> None:
    n = ab.amount
    if ab.trigger == "untap" and ctx.s.global_era >= board.DIGITAL:
        n += 1
    ctx.s.sides[seat].compute += n
    ctx.say(f"{CARDS[card].name} gives {seat_name(seat)} {count(n, 'Compute token')}.")


def strike_targets(s: State, seat: int, ab: Ability) -> list[Perm]:
    """Enemy permanents a ``strike`` may destroy: never espionage; ``land`` = units that are not
    naval, ``any`` = units and infrastructure; power (printed) at most the amount."""
    out = []
    for p in s.perms:
        if p.owner == seat or "espionage" in p.keywords or p.power > ab.amount:
            continue
        if ab.scope == "land" and (p.kind != "unit" or "naval" in p.keywords):
            continue
        if ab.scope == "any" and p.kind not in ("unit", "infrastructure"):
            continue
        out.append(p)
    return out


def _strike(ctx: Ctx, seat: int, ab: Ability, card: str) -> None:
    if strike_targets(ctx.s, seat, ab):
        ctx.s.stack.append({"k": "target", "seat": seat, "card": card, "max": ab.amount,
                            "scope": ab.scope})


def _tokenize_hand(ctx: Ctx, seat: int, ab: Ability, card: str) -> None:
    if ctx.s.sides[seat].hand:
        ctx.s.stack.append({"k": "tokenize", "seat": seat, "card": card, "n": ab.amount,
                            "make": ab.make, "power": ab.power, "mobility": ab.mobility})


def place_face_down(ctx: Ctx, seat: int, cards: list[str], make: str, power: int, mobility: int,
                    where: str) -> None:
    for c in cards:
        board.new_perm(ctx.s, seat, c, "unit" if make == "unit" else "resource",
                       power if make == "unit" else 0, mobility if make == "unit" else 0,
                       face_down=True)
    what = f"{power}/{mobility} units" if make == "unit" else "Reserves"
    if cards:
        ctx.say(f"{seat_name(seat)} places {count(len(cards), 'card')} from "
                f"the {where} face down as {what}.")
        ctx.tell(seat, "Face down: " + ", ".join(board.name_of(c) for c in cards) + ".")


def _tokenize_deck(ctx: Ctx, seat: int, ab: Ability, card: str) -> None:
    cards = board.take_top(ctx.s, seat, ab.amount)
    place_face_down(ctx, seat, cards, ab.make, ab.power, ab.mobility, "top of the deck")


def _rally(ctx: Ctx, seat: int, ab: Ability, card: str) -> None:
    ctx.s.rally += ab.amount
    for p in ctx.s.perms:
        if p.owner == seat and p.kind == "unit":
            p.tapped = False
    ctx.say(f"{seat_name(seat)}'s units untap and fight {ab.amount} stronger this turn.")


def _spy_hunt(ctx: Ctx, seat: int, ab: Ability, card: str) -> None:
    ctx.s.spy_hunt = True
    ctx.say(f"This turn {seat_name(seat)}'s Precision Strike units may attack espionage units.")


def _end_game(ctx: Ctx, seat: int, ab: Ability, card: str) -> None:
    s = ctx.s
    name = CARDS[card].name
    if ab.mode == "win":
        board.end_game(ctx, seat, f"{name}: {seat_name(seat)} wins the game.")
        return
    if s.rules == LEGACY_RULES:  # counted the hand too, unlike the card's text
        mine, theirs = board.cards_left(s, seat), board.cards_left(s, 1 - seat)
        what = "cards left"
    else:
        mine, theirs = board.deck_and_graveyard(s, seat), board.deck_and_graveyard(s, 1 - seat)
        what = "cards in deck and graveyard"
    winner = seat if mine > theirs else 1 - seat
    board.end_game(ctx, winner, f"{name} ends the game: {seat_name(seat)} has {mine} {what}, "
                                f"{seat_name(1 - seat)} {theirs}; {seat_name(winner)} wins.")


PLAY_EFFECTS: dict[str, Handler] = {
    "draw": _draw,
    "recover": _recover,
    "mill_opponent": _mill_opponent,
    "scout": _scout,
    "academic": _academic,
    "compute": _compute,
    "strike": _strike,
    "tokenize_hand": _tokenize_hand,
    "tokenize_deck": _tokenize_deck,
    "rally": _rally,
    "end_game": _end_game,
    "spy_hunt": _spy_hunt,
}
"""Effects that act when their trigger fires."""

PASSIVE_EFFECTS: dict[str, str] = {
    "boost": "more combat power for the owner's units (all, naval, or attacking)",
    "discount": "one ✋ less for the owner's units, or infrastructure, resources and events",
    "salvage": "the owner's destroyed units go to the bottom of the deck, not the graveyard",
    "radar": "the owner's units intercept as if they had more mobility",
    "spy_hunt": "the owner's Precision Strike units may attack espionage units",
}
"""Standing rules of permanents in play (``spy_hunt`` also exists as a one-turn play effect)."""


def run_simple(ctx: Ctx, seat: int, ab: Ability, card: str = "") -> None:
    """Fire one triggered ability."""
    PLAY_EFFECTS[ab.effect](ctx, seat, ab, card)


def fire(ctx: Ctx, seat: int, card: str, trigger: str) -> None:
    """Fire every ``trigger`` ability of ``card`` for ``seat``: the ones that need no decision
    first, then those that open one (so a card's decisions come after its plain effects)."""
    later = []
    for ab in CARDS[card].abilities:
        if ab.trigger != trigger:
            continue
        if ab.effect in ("strike", "tokenize_hand", "scout"):
            later.append(ab)
        else:
            run_simple(ctx, seat, ab, card)
        if ctx.s.phase == "over":
            return
    for ab in reversed(later):  # the stack answers the last pushed first
        run_simple(ctx, seat, ab, card)
