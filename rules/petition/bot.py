"""The Petition computer player: it sees only its own view and the prompt.

Its plan, in words: gather until a pillar of its own hand is strong; petition that pillar's god
when it holds citizens to defend the bid, or turn heathen when the god is taken; attack the
pillar it can beat by the widest margin (its god's pillar first); challenge a petition only
when its bid would likely win; defend when the defence can hold and surrender when it cannot
(a surrender costs no citizens); in a battle add just enough to get ahead. The solo player
attacks with its weakest card against a pillar to win the god's favour.
"""

from __future__ import annotations

import random
from typing import Any

from ..engine import Action, Prompt
from .content import PILLARS

Card = dict[str, Any]

HEATHEN_STRENGTH = 5
"""A heathen's attack has no bonus: the hand's best pillar should hold this many points."""

AVG_POINTS_PER_CARD = 0.6
"""Roughly what an unseen card is worth in one pillar (the deck's points spread over 60 cards)."""


def _first(prompt: Prompt, **match: Any) -> Action | None:
    for c in prompt.choices:
        if all(c.action.get(k) == v for k, v in match.items()):
            return dict(c.action)
    return None


def _value(card: Card, pillar: str | None, fort: str | None = None, citizens: int = 3) -> int:
    """What a card adds for its holder in a battle over ``pillar`` (a rough figure for powerups)."""
    if card["kind"] == "citizen":
        points: dict[str, int] = card["points"]
        if pillar is None:
            return max(points.values())
        v = points[pillar]
        return max(v, points[fort]) if fort else v
    text = card["text"]
    if "+3" in text:
        return 3
    if "for each citizen" in text:
        return min(4, citizens)
    return 2


def choose(view: dict[str, Any], prompt: Prompt, rng: random.Random) -> Action:
    kind = prompt.kind
    handler = _HANDLERS.get(kind)
    if handler is not None:
        return handler(view, prompt, rng)
    if prompt.free_form == "cards":
        return {"type": "cards", "cards": [c["id"] for c in prompt.params["cards"]][:prompt.params["max"]]}
    return dict(prompt.choices[0].action)


# ------------------------------------------------------------------------------ helpers

def _me(view: dict[str, Any]) -> int:
    return int(view["private"]["seat"])


def _hand(view: dict[str, Any]) -> list[Card]:
    return list(view["private"]["hand"])


def _strength(hand: list[Card], pillar: str) -> int:
    return sum(c["points"][pillar] for c in hand if c["kind"] == "citizen")


def _god_of(view: dict[str, Any], seat: int, pillar: str) -> dict[str, Any] | None:
    for g in view["gods"]:
        if g["key"] == pillar and g["holder"] == seat:
            return dict(g)
    return None


def _defence_estimate(view: dict[str, Any], seat: int, pillar: str) -> float:
    who = view["seats"][seat]
    p = next(q for q in who["pillars"] if q["kind"] == pillar)
    god = _god_of(view, seat, pillar)
    fort = 1 if p["fortification"] else 0
    bonus = int(god["bonus"]) if god else 0
    return int(who["hand_size"]) * AVG_POINTS_PER_CARD * (1.5 if fort else 1.0) + fort + bonus


# ------------------------------------------------------------------------------ turns

def _turn(view: dict[str, Any], prompt: Prompt, rng: random.Random) -> Action:
    me = _me(view)
    hand = _hand(view)
    beads = view["seats"][me]["beads"]
    attacks = [c.action for c in prompt.choices if c.action["type"] == "attack"]
    if attacks:
        best: tuple[float, Action] | None = None
        for a in attacks:
            pillar = a["pillar"]
            god = _god_of(view, me, pillar)
            mine = float(_strength(hand, pillar))
            if god is not None:
                mine += god["bonus"]
                if god["lock"]:
                    mine = god["bonus"] + sum(c["points"][pillar] for c in god["lock"])
            mine += sum(_value(c, pillar) for c in hand if c["kind"] == "powerup") * 0.5
            margin = mine - _defence_estimate(view, a["seat"], pillar) + rng.random() * 0.1
            if best is None or margin > best[0]:
                best = (margin, dict(a))
        assert best is not None
        # the licence lapses at the end of this turn anyway, and a defender may not hold what it
        # could: attack unless the defence is clearly stronger
        if best[0] > -3.0:
            return best[1]
    petitions = [c.action for c in prompt.choices if c.action["type"] == "petition"]
    if petitions and beads >= 2:
        scored = []
        for a in petitions:
            g = a["god"]
            own = [c for c in hand if c["kind"] == "citizen" and c["god"] == g]
            scored.append((_strength(hand, g) + len(own), len(own), rng.random(), dict(a)))
        scored.sort(key=lambda x: (x[0], x[1], x[2]), reverse=True)
        top = scored[0]
        # every other player may challenge: at a big table a petition needs beads to spare
        rivals = sum(1 for p in view["seats"] if p["active_count"] and p["seat"] != me)
        if top[0] >= 6 and top[1] >= 1 and (rivals <= 2 or beads >= 3):
            return top[3]
    heathen = _first(prompt, type="heathen")
    if heathen is not None and beads >= 1:
        best_pillar = max(_strength(hand, k) for k in PILLARS) if hand else 0
        if best_pillar >= HEATHEN_STRENGTH:
            return heathen
    if beads < 3:
        pick = _first(prompt, type="both") or _first(prompt, type="beads")
        if pick is not None:
            return pick
    for t in ("draw", "both", "beads", "pass"):
        pick = _first(prompt, type=t)
        if pick is not None:
            return pick
    return dict(prompt.choices[0].action)


def _extra(view: dict[str, Any], prompt: Prompt, rng: random.Random) -> Action:
    me = _me(view)
    beads = view["seats"][me]["beads"]
    buy = _first(prompt, type="buy")
    if buy is not None and beads >= 4 and len(_hand(view)) <= 7:
        return buy
    hand = _hand(view)
    if hand and len(hand) >= 8:
        worst = min(hand, key=lambda c: _value(c, None))
        if worst["kind"] == "citizen" and _value(worst, None) <= 1:
            swap = _first(prompt, type="swap", card=worst["id"])
            if swap is not None:
                return swap
    return {"type": "end"}


def _offer(view: dict[str, Any], prompt: Prompt, rng: random.Random) -> Action:
    top = int(prompt.params["max"])
    want = min(top, 3 if top >= 5 else 2)
    return _first(prompt, type="offer", beads=want) or dict(prompt.choices[0].action)


def _challenge(view: dict[str, Any], prompt: Prompt, rng: random.Random) -> Action:
    god = prompt.params["god"]
    offer = int(prompt.params["offer"])
    me = _me(view)
    beads = view["seats"][me]["beads"]
    own = [c for c in _hand(view) if c["kind"] == "citizen" and c["god"] == god]
    expected = offer + 1.5
    if len(own) >= 2 and beads >= 1:
        for n in range(1, beads + 1):
            if n + len(own) > expected and n <= 3:
                pick = _first(prompt, type="challenge", beads=n)
                if pick is not None:
                    return pick
    return {"type": "challenge", "beads": 0}


def _respond(view: dict[str, Any], prompt: Prompt, rng: random.Random) -> Action:
    pet = view["petition"]
    own = [c for c in _hand(view) if c["kind"] == "citizen" and c["god"] == pet["god"]]
    mine = pet["holder"]["beads"] + len(own)
    theirs = pet["challenger"]["beads"] + 1.5
    return {"type": "meet"} if own and mine >= theirs else {"type": "withdraw"}


def _bid(view: dict[str, Any], prompt: Prompt, rng: random.Random) -> Action:
    cards = prompt.params["cards"]
    ranked = sorted(cards, key=lambda c: -_value(c, prompt.params["pillar"]))
    return {"type": "cards", "cards": [c["id"] for c in ranked[:prompt.params["max"]]]}


def _fort_kind(view: dict[str, Any], seat: int, pillar: str) -> str | None:
    p = next(q for q in view["seats"][seat]["pillars"] if q["kind"] == pillar)
    return p["fortification"]["kind"] if p["fortification"] else None


def _attack(view: dict[str, Any], prompt: Prompt, rng: random.Random) -> Action:
    cards = prompt.params["cards"]
    return {"type": "cards", "cards": [c["id"] for c in cards][:prompt.params["max"]]}


def _defend(view: dict[str, Any], prompt: Prompt, rng: random.Random) -> Action:
    c = view["campaign"]
    me = _me(view)
    pillar = c["pillar"]
    fort = _fort_kind(view, me, pillar)
    cards = prompt.params["cards"]
    mine = sum(_value(x, pillar, fort) for x in cards) + (1 if fort else 0) + c["defend_bonus"]
    if c["defend_locked"]:
        mine += sum(_value(x, pillar, fort) for x in c["defend"] or [])
    attacker = view["seats"][c["attacker"]]
    laid = c["attack_count"] if c["attack_count"] is not None else min(attacker["hand_size"], 3)
    expected = c["attack_bonus"] + 1.6 * laid
    if c["defend_locked"] or mine >= expected * 0.4:
        return {"type": "cards", "cards": [x["id"] for x in cards]}
    return {"type": "cards", "cards": []}


def _reinforce(view: dict[str, Any], prompt: Prompt, rng: random.Random) -> Action:
    c = view["campaign"]
    me = _me(view)
    attacking = me == c["attacker"]
    pillar = c["pillar"]
    fort = None if attacking else _fort_kind(view, me, pillar)
    mine, theirs = (c["attack_now"], c["defend_now"]) if attacking else (c["defend_now"], c["attack_now"])
    need = theirs - mine + (1 if attacking else 0)
    if need <= 0:
        return {"type": "cards", "cards": []}
    cards = sorted(prompt.params["cards"], key=lambda x: -_value(x, pillar, fort))
    if sum(_value(x, pillar, fort) for x in cards) < need:
        return {"type": "cards", "cards": []}
    picked: list[str] = []
    got = 0
    for x in cards:
        if got >= need:
            break
        picked.append(x["id"])
        got += _value(x, pillar, fort)
    return {"type": "cards", "cards": picked}


def _place(view: dict[str, Any], prompt: Prompt, rng: random.Random) -> Action:
    """Fortify the pillar its hand defends worst (the +1 and the extra citizens help most there)."""
    forts = [c.action for c in prompt.choices if c.action["type"] == "fortify"]
    if not forts:
        return {"type": "stash"}
    hand = _hand(view)
    return dict(min(forts, key=lambda a: (_strength(hand, a["pillar"]), rng.random())))


# ------------------------------------------------------------------------------ solo

def _solo_turn(view: dict[str, Any], prompt: Prompt, rng: random.Random) -> Action:
    hand = _hand(view)
    attacks = [c.action for c in prompt.choices if c.action["type"] == "attack"]
    draw = _first(prompt, type="draw")
    if attacks and hand:
        def force(a: Action) -> int:
            powers = sorted((_solo_power(c, a["pillar"]) for c in hand), reverse=True)
            return sum(powers[:3])

        best = max(attacks, key=force)
        if force(best) >= 7 or draw is None or len(hand) >= 7:
            return dict(best)
    if draw is not None:
        return draw
    return dict(prompt.choices[0].action)


def _solo_power(card: Card, pillar: str) -> int:
    if card["kind"] == "citizen":
        return int(card["points"][pillar])
    return 1 if "+3" not in card["text"] else 2


def _solo_attack(view: dict[str, Any], prompt: Prompt, rng: random.Random) -> Action:
    pillar = prompt.params["pillar"]
    strongest = max(prompt.params["cards"], key=lambda c: _solo_power(c, pillar))
    return {"type": "cards", "cards": [strongest["id"]]}


def _solo_add(view: dict[str, Any], prompt: Prompt, rng: random.Random) -> Action:
    pillar = prompt.params["pillar"]
    b = view["solo"]["battle"]
    need = b["theirs"] - b["mine"] + 1
    cards = sorted(prompt.params["cards"], key=lambda c: -_solo_power(c, pillar))
    if not cards or _solo_power(cards[0], pillar) < 1 or sum(_solo_power(c, pillar) for c in cards) < need:
        return {"type": "cards", "cards": []}
    return {"type": "cards", "cards": [cards[0]["id"]]}


def _tithe(view: dict[str, Any], prompt: Prompt, rng: random.Random) -> Action:
    cards = prompt.params["cards"]
    if not cards:
        return {"type": "cards", "cards": []}
    cheapest = min(cards, key=lambda c: _value(c, None))
    return {"type": "cards", "cards": [cheapest["id"]]}


_HANDLERS = {
    "turn": _turn, "extra": _extra, "offer": _offer, "challenge": _challenge, "respond": _respond,
    "bid": _bid, "attack": _attack, "defend": _defend, "reinforce": _reinforce, "place": _place,
    "solo_turn": _solo_turn, "solo_attack": _solo_attack, "solo_add": _solo_add, "tithe": _tithe,
}


def random_action(prompt: Prompt, rng: random.Random) -> Action:
    """A uniformly random legal answer: the baseline the computer player is measured against
    (tests and the balance bench)."""
    if prompt.free_form == "cards":
        ids = [c["id"] for c in prompt.params["cards"]]
        n = rng.randint(int(prompt.params["min"]), int(prompt.params["max"]))
        return {"type": "cards", "cards": rng.sample(ids, n)}
    return dict(rng.choice(prompt.choices).action)
