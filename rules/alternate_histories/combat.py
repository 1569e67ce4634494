"""Combat: who may attack what, the defender's flee and intercept, the rolls, direct hits and
Nuclear retaliation.

Targeting (rulebook keywords, with Herald's readings noted in the rules page):

* only untapped units of the current player attack, in the combat phase; units deployed in the
  events phase by Rapid Deployment may attack that turn; an attack taps the attacker;
* targets are an enemy unit, enemy infrastructure or the opponent (never a resource);
* **Espionage** units attack and are attacked only by espionage units (Precision Strike units
  too when an effect allows it); they never attack infrastructure or the player;
* **Naval** units attack only naval units or the opponent, also when they are **Air** too (a
  carrier): Air only adds the permission to attack naval units, which a naval unit already has.
  Only naval or air units attack naval units. (Under the legacy rules a carrier attacked like an
  air unit.)

The defender may answer (a reaction window): **flee** with the target unit when its mobility is
at least the attacker's (it taps; a **Submarine** does not), or **intercept** with an untapped
unit of higher mobility that the attacker could target (it taps and becomes the target); a
unit stationed on the targeted infrastructure may always intercept.
"""

from __future__ import annotations

from typing import Any

from ..engine import seat_name
from . import board, effects
from .board import Ctx
from .content import CARDS
from .frames import ReactFrame
from .state import LEGACY_RULES, Perm, State
from .views import CombatSideView

PLAYER = "player"


def can_target(s: State, a: Perm, t: Perm) -> bool:
    """Whether attacker ``a`` may aim at (or be intercepted by) the enemy permanent ``t``."""
    if t.owner == a.owner or t.kind == "resource":
        return False
    ak, tk = a.keywords, t.keywords
    if "espionage" in ak:
        return t.kind == "unit" and "espionage" in tk
    if "espionage" in tk:
        return "precision_strike" in ak and board.may_hunt_spies(s, a.owner)
    naval_only = "naval" in ak and ("air" not in ak or s.rules != LEGACY_RULES)
    if naval_only and "naval" not in tk:
        return False
    if "naval" in tk and not ("naval" in ak or "air" in ak):
        return False
    return True


def can_target_player(a: Perm) -> bool:
    return "espionage" not in a.keywords


def attackers(s: State, seat: int) -> list[Perm]:
    return [p for p in s.perms if p.owner == seat and p.kind == "unit" and not p.tapped]


def attack_options(s: State, seat: int) -> list[tuple[Perm, str | int]]:
    """Every legal (attacker, target) of ``seat`` now: ``"player"`` or an enemy uid."""
    out: list[tuple[Perm, str | int]] = []
    enemies = [p for p in s.perms if p.owner != seat and p.kind in ("unit", "infrastructure")]
    for a in attackers(s, seat):
        if can_target_player(a):
            out.append((a, PLAYER))
        for t in enemies:
            if can_target(s, a, t):
                out.append((a, t.uid))
    return out


def may_flee(s: State, a: Perm, t: Perm) -> bool:
    return t.kind == "unit" and not t.tapped and board.mobility(s, t) >= board.mobility(s, a)


def interceptors(s: State, a: Perm, target: str | int) -> list[Perm]:
    """The defender's units that may intercept ``a``'s attack on ``target``."""
    out = []
    for u in s.perms:
        if u.owner == a.owner or u.kind != "unit" or u.tapped or u.uid == target:
            continue
        if not can_target(s, a, u):
            continue
        stationed = target != PLAYER and u.station == target
        if stationed or board.mobility(s, u, intercepting=True) > board.mobility(s, a):
            out.append(u)
    return out


def nuclear_units(s: State, seat: int) -> list[Perm]:
    return [p for p in s.perms if p.owner == seat and "nuclear" in p.keywords]


def declare(ctx: Ctx, uid: int, target: str | int) -> None:
    """The current player's attack: tap the attacker, then open the defender's reaction window
    when the defender has a flee or an intercept to choose, else resolve at once."""
    s = ctx.s
    a = s.perm(uid)
    assert a is not None
    a.tapped = True
    defender = 1 - a.owner
    if target == PLAYER:
        what = seat_name(defender)
    else:
        t = s.perm(int(target))
        assert t is not None
        what = f"{seat_name(defender)}'s {board.public_name(t)}"
    ctx.say(f"{seat_name(a.owner)}'s {board.public_name(a)} attacks {what}.", kind="attack",
            data={"attacker": uid, "target": target})
    if reaction_options(s, a, target):
        s.stack.append({"k": "react", "seat": defender, "att": uid, "target": target})
        return
    resolve(ctx, uid, target, target)


def reaction_options(s: State, a: Perm, target: str | int) -> list[dict[str, Any]]:
    """The defender's reactions as actions (without "No reaction")."""
    out: list[dict[str, Any]] = []
    if target != PLAYER:
        t = s.perm(int(target))
        if t is not None and may_flee(s, a, t):
            out.append({"type": "flee"})
    for u in interceptors(s, a, target):
        out.append({"type": "intercept", "uid": u.uid})
    return out


def react(ctx: Ctx, frame: ReactFrame, action: dict[str, Any]) -> None:
    s = ctx.s
    uid, target = int(frame["att"]), frame["target"]
    a = s.perm(uid)
    assert a is not None
    if action["type"] == "flee":
        t = s.perm(int(target))
        assert t is not None
        sub = "submarine" in t.keywords
        if not sub:
            t.tapped = True
        ctx.say(f"{seat_name(t.owner)}'s {board.public_name(t)} flees"
                f"{' without tapping (Submarine)' if sub else ''}.", kind="flee",
                data={"uid": t.uid})
        s.last_combat = {"attacker": _side(s, a, None, None), "defender": _side(s, t, None, None),
                         "outcome": "fled"}
        retaliation(ctx, a, target)
        return
    if action["type"] == "intercept":
        u = s.perm(int(action["uid"]))
        assert u is not None
        u.tapped = True
        ctx.say(f"{seat_name(u.owner)}'s {board.public_name(u)} intercepts.", kind="intercept",
                data={"uid": u.uid})
        resolve(ctx, uid, u.uid, target)
        return
    resolve(ctx, uid, target, target)


def _side(s: State, p: Perm, total: int | None, card: str | None) -> CombatSideView:
    return {"uid": p.uid, "owner": p.owner, "name": board.public_name(p), "power": p.power,
            "total": total, "roll_card": card, "roll": CARDS[card].value if card else None}


def resolve(ctx: Ctx, uid: int, target: str | int, original: str | int) -> None:
    """Fight the attack on ``target`` (after any interception), then check Nuclear retaliation
    against the ``original`` target."""
    s = ctx.s
    a = s.perm(uid)
    assert a is not None
    attacker, defender = a.owner, 1 - a.owner
    if target == PLAYER:
        hit_player(ctx, a)
    else:
        t = s.perm(int(target))
        assert t is not None
        pa = board.power(s, a, "attack")
        pt = board.power(s, t, "defend")
        va, ca = board.roll(s, attacker)
        vt, ct = board.roll(s, defender)
        ta, tt = pa + va, pt + vt
        if ta > tt:
            outcome = "attacker"
        elif tt > ta:
            outcome = "defender"
        else:
            outcome = "tie"
        s.last_combat = {"attacker": _side(s, a, ta, ca), "defender": _side(s, t, tt, ct),
                         "outcome": outcome}
        rolled = (f"{board.public_name(a)} {pa} + {va} = {ta} against {board.public_name(t)} "
                  f"{pt} + {vt} = {tt}")
        ctx.say(f"Combat: {rolled}.", kind="combat", data=dict(s.last_combat))
        losers: list[Perm] = []
        if outcome == "attacker":
            losers = [t]
        elif outcome == "defender":
            losers = [a]
        else:
            a_tie, t_tie = board.wins_ties(s, attacker), board.wins_ties(s, defender)
            if a_tie and not t_tie:
                losers = [t]
                ctx.say("A tie: Bushido keeps the attacker alive.")
            elif t_tie and not a_tie:
                losers = [a]
                ctx.say("A tie: Bushido keeps the defender alive.")
            else:
                losers = [a, t]
                ctx.say("A tie destroys both.")
        for p in losers:
            board.destroy(ctx, p)
        for winner, loser in ((a, t), (t, a)):
            if loser in losers and winner not in losers and loser.kind == "unit" \
                    and winner.card in CARDS and not winner.face_down:
                effects.fire(ctx, winner.owner, winner.card, "kill")
    retaliation(ctx, a, original)


def hit_player(ctx: Ctx, a: Perm) -> None:
    s = ctx.s
    defender = 1 - a.owner
    card = CARDS.get(a.card)
    s.last_combat = {"attacker": _side(s, a, None, None), "defender": None, "outcome": "hit"}
    if card is not None and not a.face_down and card.reorder:
        n = min(card.reorder, len(s.sides[defender].deck))
        ctx.say(f"{seat_name(a.owner)}'s {board.public_name(a)} hits {seat_name(defender)}: "
                f"Reorder {card.reorder} instead of milling (putting cards from the top of the deck "
                "into the graveyard).", kind="hit")
        if n:
            s.stack.append({"k": "reorder", "seat": a.owner, "of": defender, "n": n})
    else:
        n = board.hit_mill(s, a)
        s.hits += 1
        ctx.say(f"{seat_name(a.owner)}'s {board.public_name(a)} hits {seat_name(defender)} directly"
                + ("" if n else ": under 100 power, no card goes from their deck to the graveyard")
                + ".", kind="hit")
        board.mill(ctx, defender, n, " (a direct hit)")
    if "nuclear" in a.keywords:
        board.burn_top(ctx, defender, board.NUCLEAR_BURN, " (a nuclear strike)")


def retaliation(ctx: Ctx, a: Perm, original: str | int) -> None:
    """Nuclear: an attack on the player, or on a Nuclear unit, that a Nuclear unit survives makes
    the attacker lose (an espionage attack never does)."""
    s = ctx.s
    if s.phase == "over" or "espionage" in a.keywords:
        return
    defender = 1 - a.owner
    if original == PLAYER:
        survivors = nuclear_units(s, defender)
    else:
        t = s.perm(int(original))
        survivors = [t] if t is not None and "nuclear" in t.keywords else []
    if survivors:
        board.end_game(ctx, defender, f"Nuclear retaliation: {seat_name(a.owner)} attacked and "
                                      f"{seat_name(defender)}'s {board.public_name(survivors[0])} "
                                      f"survived; {seat_name(defender)} wins.")
