"""The Petition computer player: it sees only its own view and the prompt.

Its plan, in words: gather (two cards while its hand is small — an empty hand cannot defend —
else a card and a bead) until one pillar of its hand, with a god's +3, would pass the weakest
rival defence of that pillar it expects; then petition that god if it holds a citizen who serves
it (a challenge costs nothing to walk away from, and without one it could not meet it), or turn
heathen when no such god is free and the hand is strong enough without a bonus; a hand that
cannot grow any more settles for less, and swaps its least useful card. It attacks the pillar it can beat by the widest margin, opening with just enough and
keeping the rest for the battle; challenges a petition only when its bid would likely win;
defends when everything it could bring (citizens, powerups, the fortification's +1, the pillar's
stand, a favour) can hold what the attacker laid, laying enough and keeping the rest, and
surrenders when it cannot (a surrender costs no citizens); in a battle adds just enough to get
ahead. It sets aside a captured pillar whose owner still stands (fortifying with it would hand
it back when the fortified pillar falls), and discards its least useful cards over the limit. The solo player attacks with its weakest card
against a pillar to win the god's favour.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from ..engine import Action, Prompt
from .content import PILLARS
from .views import CampaignView, GodView, PetitionView, SoloBattleView, View

Card = Mapping[str, Any]

FAVOUR_BONUS = 3
"""The favour an unchallenged petition brings."""

LICENCE_MARGIN = -2.5
"""It petitions (or turns heathen) when its hand plus the favour already passes the weakest rival
defence of that pillar it expects: a licence it cannot use lapses."""

HEATHEN_CAUTION = 3.0
"""A heathen's attack has no bonus to absorb a bad guess: it wants this much more."""

ATTACK_MARGIN = -3.0
"""It attacks when its strength is at least this close to the defence it expects (the licence
lapses at the end of the turn, and the estimate of an unseen hand is rough)."""

AVG_POINTS_PER_CARD = 0.6
"""Roughly what an unseen card is worth in one pillar (the deck's points spread over 60 cards)."""

ATTACK_CARD_WORTH = 2.2
"""What each face-down attacking card is likely worth: attackers lay their best for the pillar."""

OPENING_MARGIN = 2.0
"""An attacker opens with enough to pass its estimate of the defence by this much."""

BEAD_RESERVE = 2
"""Below this many beads it gathers a bead with its card; otherwise it draws two cards (a full
hand is also a defence)."""

SMALL_HAND = 5
"""Below this many cards it draws two whatever its beads: an empty hand cannot defend."""

STUCK_SLACK = 3.0
"""How much worse a prospect it accepts when its hand cannot grow (full, or no card left to draw):
waiting would not make it stronger."""

HOLD_SLACK = 2.0
"""A defence this close to the attack it expects is still worth making (the estimate is rough)."""


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


def choose(view: View, prompt: Prompt, rng: random.Random) -> Action:
    kind = prompt.kind
    handler = _HANDLERS.get(kind)
    if handler is not None:
        return handler(view, prompt, rng)
    if prompt.free_form == "cards":
        return {"type": "cards", "cards": [c["id"] for c in prompt.params["cards"]][:prompt.params["max"]]}
    return dict(prompt.choices[0].action)


# ------------------------------------------------------------------------------ helpers

def _me(view: View) -> int:
    return int(view["private"]["seat"])


def _hand(view: View) -> Sequence[Card]:
    return list(view["private"]["hand"])


def _petition(view: View) -> PetitionView:
    """The petition a petition prompt is about (such a prompt is open only while one is)."""
    pet = view["petition"]
    if pet is None:
        raise ValueError("no petition under way")
    return pet


def _campaign(view: View) -> CampaignView:
    """The campaign a campaign prompt is about (such a prompt is open only while one is)."""
    c = view["campaign"]
    if c is None:
        raise ValueError("no campaign under way")
    return c


def _solo_battle(view: View) -> SoloBattleView:
    """The solo game's battle a battle prompt is about."""
    solo = view["solo"]
    b = solo["battle"] if solo else None
    if b is None:
        raise ValueError("no solo battle under way")
    return b


def _strength(hand: Sequence[Card], pillar: str) -> int:
    return sum(c["points"][pillar] for c in hand if c["kind"] == "citizen")


def _god_of(view: View, seat: int, pillar: str) -> GodView | None:
    for g in view["gods"]:
        if g["key"] == pillar and g["holder"] == seat:
            return g.copy()
    return None


def _defence_estimate(view: View, seat: int, pillar: str) -> float:
    """What ``seat`` can likely bring to defend ``pillar``: its hand (unseen, so an average per
    card, more when a fortification lets a second kind defend), the fortification's +1, the
    pillar's own stand (a defender with cards fights) and a favour of the pillar's god."""
    who = view["seats"][seat]
    p = next(q for q in who["pillars"] if q["kind"] == pillar)
    god = _god_of(view, seat, pillar)
    fort = 1 if p["fortification"] else 0
    bonus = int(god["bonus"]) if god else 0
    hand = int(who["hand_size"])
    stand = _stand(view) if hand else 0
    return hand * AVG_POINTS_PER_CARD * (1.5 if fort else 1.0) + fort + bonus + stand


def _stand(view: View) -> int:
    """What a pillar card adds to a defence that lays a card (the table's ``pillar_stand``)."""
    return int(view["options"]["pillar_stand"])


def _lock(view: View, seat: int) -> Sequence[Card] | None:
    """The citizens ``seat``'s card lock allows it in a battle (None: not locked there). From
    rules revision 2 a lock binds every battle; before, only one over its god's pillar."""
    if view["options"]["rules"] < 2:
        return None
    for g in view["gods"]:
        if g["holder"] == seat and g["lock"] is not None:
            return list(g["lock"])
    return None


def _attack_strength(view: View, hand: Sequence[Card], pillar: str) -> float:
    """What it can bring against ``pillar``: its citizens there, half its powerups (they may
    not apply), and a favour of that pillar's god (a locked favour: just the locked citizens)."""
    me = _me(view)
    god = _god_of(view, me, pillar)
    mine = float(_strength(hand, pillar))
    bonus = int(god["bonus"]) if god is not None else 0
    lock = _lock(view, me)
    if lock is not None:
        mine = float(sum(c["points"][pillar] for c in lock))
    elif god is not None and god["lock"]:
        mine = float(sum(c["points"][pillar] for c in god["lock"]))
    people = len(lock) if lock is not None else _citizens(hand, pillar)
    return mine + bonus + sum(_value(c, pillar, None, people) for c in hand
                              if c["kind"] == "powerup") * 0.5


# ------------------------------------------------------------------------------ turns

def _turn(view: View, prompt: Prompt, rng: random.Random) -> Action:
    me = _me(view)
    hand = _hand(view)
    beads = view["seats"][me]["beads"]
    attacks = [c.action for c in prompt.choices if c.action["type"] == "attack"]
    if attacks:
        best: tuple[float, Action] | None = None
        for a in attacks:
            margin = (_attack_strength(view, hand, a["pillar"])
                      - _defence_estimate(view, a["seat"], a["pillar"]) + rng.random() * 0.1)
            if best is None or margin > best[0]:
                best = (margin, dict(a))
        assert best is not None
        # the licence lapses at the end of this turn: attack unless the defence looks stronger
        if best[0] > ATTACK_MARGIN:
            return best[1]
    # a hand that cannot grow (full, or nothing left to draw) gains nothing by waiting
    stuck = STUCK_SLACK if _first(prompt, type="draw") is None and _first(prompt, type="both") is None else 0.0
    petitions = {c.action["god"]: dict(c.action) for c in prompt.choices if c.action["type"] == "petition"}
    if view["options"]["rules"] >= 2:
        # a petitioner holding no citizen of the god cannot meet a challenge: any rival holding
        # one takes the favour from it for a bead, turn after turn
        petitions = {g: a for g, a in petitions.items() if _own(hand, g)}
    if petitions and beads >= 2:
        # the god whose pillar, with the +3, it could best take from someone next turn; a
        # challenge costs nothing to walk away from (a withdrawal returns the beads)
        scored = sorted(((_prospect(view, hand, g, FAVOUR_BONUS), _own(hand, g), rng.random(), g)
                         for g in petitions), reverse=True)
        top, own, _, god = scored[0]
        if top > LICENCE_MARGIN - stuck:
            return petitions[god]
    heathen = _first(prompt, type="heathen")
    if heathen is not None and beads >= 1:
        if max(_prospect(view, hand, k, 0) for k in PILLARS) > LICENCE_MARGIN + HEATHEN_CAUTION - stuck:
            return heathen
    if beads < BEAD_RESERVE and len(hand) >= SMALL_HAND:
        pick = _first(prompt, type="both") or _first(prompt, type="beads")
        if pick is not None:
            return pick
    for t in ("draw", "both", "beads", "pass"):
        pick = _first(prompt, type=t)
        if pick is not None:
            return pick
    return dict(prompt.choices[0].action)


def _prospect(view: View, hand: Sequence[Card], pillar: str, bonus: int) -> float:
    """How far its hand (plus ``bonus``) would pass the weakest rival defence of ``pillar``."""
    me = _me(view)
    rivals = [p["seat"] for p in view["seats"] if p["seat"] != me and p["active_count"]
              and any(q["kind"] == pillar and q["active"] for q in p["pillars"])]
    if not rivals:
        return -99.0
    weakest = min(_defence_estimate(view, k, pillar) for k in rivals)
    return _strength(hand, pillar) + bonus - weakest


def _own(hand: Sequence[Card], god: str) -> int:
    """Citizens serving ``god`` (what it could bid if challenged)."""
    return sum(1 for c in hand if c["kind"] == "citizen" and c["god"] == god)


def _extra(view: View, prompt: Prompt, rng: random.Random) -> Action:
    me = _me(view)
    beads = view["seats"][me]["beads"]
    buy = _first(prompt, type="buy")
    if buy is not None and beads >= 4 and len(_hand(view)) <= 7:
        return buy
    hand = _hand(view)
    if hand and len(hand) >= 8:
        # the card worth least against the pillars it could still attack
        targets = [q["kind"] for p in view["seats"] if p["seat"] != me and p["active_count"]
                   for q in p["pillars"] if q["active"]] or list(PILLARS)

        def worth(c: Card) -> float:
            if c["kind"] != "citizen":
                return 1.5
            return float(max(c["points"][k] for k in targets))

        worst = min(hand, key=lambda c: (worth(c), c["id"]))
        if worth(worst) <= 1:
            swap = _first(prompt, type="swap", card=worst["id"])
            if swap is not None:
                return swap
    return {"type": "end"}


def _offer(view: View, prompt: Prompt, rng: random.Random) -> Action:
    top = int(prompt.params["max"])
    want = min(top, 3 if top >= 5 else 2)
    return _first(prompt, type="offer", beads=want) or dict(prompt.choices[0].action)


def _challenge(view: View, prompt: Prompt, rng: random.Random) -> Action:
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


def _respond(view: View, prompt: Prompt, rng: random.Random) -> Action:
    pet = _petition(view)
    own = [c for c in _hand(view) if c["kind"] == "citizen" and c["god"] == pet["god"]]
    holder, challenger = pet["holder"], pet["challenger"]
    if holder is None or challenger is None:
        raise ValueError("no challenge to respond to")
    mine = holder["beads"] + len(own)
    theirs = challenger["beads"] + 1.5
    return {"type": "meet"} if own and mine >= theirs else {"type": "withdraw"}


def _bid(view: View, prompt: Prompt, rng: random.Random) -> Action:
    cards = prompt.params["cards"]
    ranked = sorted(cards, key=lambda c: -_value(c, prompt.params["pillar"]))
    return {"type": "cards", "cards": [c["id"] for c in ranked[:prompt.params["max"]]]}


def _fort_kind(view: View, seat: int, pillar: str) -> str | None:
    p = next(q for q in view["seats"][seat]["pillars"] if q["kind"] == pillar)
    return p["fortification"]["kind"] if p["fortification"] else None


def _citizens(cards: Sequence[Card], pillar: str, fort: str | None = None) -> int:
    """How many of ``cards`` are citizens worth something in a battle over ``pillar``."""
    return sum(1 for x in cards if x["kind"] == "citizen" and _value(x, pillar, fort) > 0)


def _enough(cards: Sequence[Card], pillar: str, fort: str | None, start: float, target: float,
            side: int = 0) -> list[str]:
    """The strongest cards, in order, until ``start`` plus their worth reaches ``target`` (all of
    them when it never does): what is not needed stays in hand for the battle and for defence.
    ``side``: citizens already on its side of the battle (a hymn counts them)."""
    picked: list[str] = []
    got = start
    people = side + _citizens(cards, pillar, fort)
    for x in sorted(cards, key=lambda x: -_value(x, pillar, fort, people)):
        if got >= target:
            break
        worth = _value(x, pillar, fort, people)
        if worth <= 0:
            continue
        picked.append(x["id"])
        got += worth
    return picked


def _attack(view: View, prompt: Prompt, rng: random.Random) -> Action:
    """Open with enough to pass the defence it expects, keeping the rest in hand: reinforcements
    can follow in the battle, and an empty hand invites the next attacker."""
    c = _campaign(view)
    cards = list(prompt.params["cards"])
    if not cards:
        return {"type": "cards", "cards": []}
    guess = _defence_estimate(view, c["defender"], c["pillar"])
    picked = _enough(cards, c["pillar"], None, float(c["attack_bonus"]), guess + OPENING_MARGIN)
    return {"type": "cards", "cards": picked or [cards[0]["id"]]}


def _defend(view: View, prompt: Prompt, rng: random.Random) -> Action:
    """Defend when the defence can hold: everything it could bring (citizens of the pillar or of
    its fortification's kind, powerups, the fortification's +1, a favour of the pillar's god)
    against what the attacker's face-down cards are likely worth. Then lay enough to hold that,
    keeping the rest for the battle; surrender a hopeless defence (it costs no citizens)."""
    c = _campaign(view)
    me = _me(view)
    pillar = c["pillar"]
    fort = _fort_kind(view, me, pillar)
    cards = list(prompt.params["cards"])
    base = float((1 if fort else 0) + c["defend_bonus"] + _stand(view))
    if c["defend_locked"]:
        base += sum(_value(x, pillar, fort) for x in c["defend"] or [])
    people = _citizens(list(c["defend"] or []) + cards, pillar, fort)
    mine = base + sum(_value(x, pillar, fort, people) for x in cards)
    attacker = view["seats"][c["attacker"]]
    laid = c["attack_count"] if c["attack_count"] is not None else min(attacker["hand_size"], 3)
    expected = c["attack_bonus"] + ATTACK_CARD_WORTH * laid
    if not c["defend_locked"] and mine < expected - HOLD_SLACK:
        return {"type": "cards", "cards": []}
    return {"type": "cards", "cards": _enough(cards, pillar, fort, base, expected + 1)}


def _reinforce(view: View, prompt: Prompt, rng: random.Random) -> Action:
    c = _campaign(view)
    me = _me(view)
    attacking = me == c["attacker"]
    pillar = c["pillar"]
    fort = None if attacking else _fort_kind(view, me, pillar)
    attack_now, defend_now = c["attack_now"], c["defend_now"]
    if attack_now is None or defend_now is None:
        raise ValueError("no battle under way")
    mine, theirs = (attack_now, defend_now) if attacking else (defend_now, attack_now)
    need = theirs - mine + (1 if attacking else 0)
    if need <= 0:
        return {"type": "cards", "cards": []}
    laid = list((c["attack"] if attacking else c["defend"]) or [])
    people = _citizens(laid + list(prompt.params["cards"]), pillar, fort)
    cards = sorted(prompt.params["cards"], key=lambda x: -_value(x, pillar, fort, people))
    if sum(_value(x, pillar, fort, people) for x in cards) < need:
        return {"type": "cards", "cards": []}
    picked: list[str] = []
    got = 0
    for x in cards:
        if got >= need:
            break
        picked.append(x["id"])
        got += _value(x, pillar, fort, people)
    return {"type": "cards", "cards": picked}


def _place(view: View, prompt: Prompt, rng: random.Random) -> Action:
    """Set aside a card whose owner still stands; fortify with any other (a fallen player's,
    with ``last_man_standing``) the pillar its hand defends worst, where the +1 and the extra
    citizens help most."""
    forts = [c.action for c in prompt.choices if c.action["type"] == "fortify"]
    owner = view["placing"][0]["owner"] if view["placing"] else None
    rivals = [p["seat"] for p in view["seats"] if p["active_count"] and p["seat"] != _me(view)]
    if not forts or owner in rivals:
        # a rival still standing takes its own pillar card back (standing again, and no longer
        # a trophy) by capturing the pillar it fortifies: keep such a card set aside, where it
        # counts for good
        return {"type": "stash"}
    hand = _hand(view)
    return dict(min(forts, key=lambda a: (_strength(hand, a["pillar"]), rng.random())))


# ------------------------------------------------------------------------------ solo

def _solo_turn(view: View, prompt: Prompt, rng: random.Random) -> Action:
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


def _solo_attack(view: View, prompt: Prompt, rng: random.Random) -> Action:
    pillar = prompt.params["pillar"]
    strongest = max(prompt.params["cards"], key=lambda c: _solo_power(c, pillar))
    return {"type": "cards", "cards": [strongest["id"]]}


def _solo_add(view: View, prompt: Prompt, rng: random.Random) -> Action:
    pillar = prompt.params["pillar"]
    b = _solo_battle(view)
    need = b["theirs"] - b["mine"] + 1
    cards = sorted(prompt.params["cards"], key=lambda c: -_solo_power(c, pillar))
    if not cards or _solo_power(cards[0], pillar) < 1 or sum(_solo_power(c, pillar) for c in cards) < need:
        return {"type": "cards", "cards": []}
    return {"type": "cards", "cards": [cards[0]["id"]]}


def _discard(view: View, prompt: Prompt, rng: random.Random) -> Action:
    """Down to the hand limit: let go of the cards worth least in any pillar."""
    n = int(prompt.params["min"])
    ranked = sorted(prompt.params["cards"], key=lambda c: (_value(c, None), c["id"]))
    return {"type": "cards", "cards": [c["id"] for c in ranked[:n]]}


def _tithe(view: View, prompt: Prompt, rng: random.Random) -> Action:
    cards = prompt.params["cards"]
    if not cards:
        return {"type": "cards", "cards": []}
    cheapest = min(cards, key=lambda c: _value(c, None))
    return {"type": "cards", "cards": [cheapest["id"]]}


_HANDLERS = {
    "turn": _turn, "extra": _extra, "offer": _offer, "challenge": _challenge, "respond": _respond,
    "bid": _bid, "attack": _attack, "defend": _defend, "reinforce": _reinforce, "place": _place,
    "solo_turn": _solo_turn, "solo_attack": _solo_attack, "solo_add": _solo_add, "tithe": _tithe,
    "discard": _discard,
}


def random_action(prompt: Prompt, rng: random.Random) -> Action:
    """A uniformly random legal answer: the baseline the computer player is measured against
    (tests and the balance bench)."""
    if prompt.free_form == "cards":
        ids = [c["id"] for c in prompt.params["cards"]]
        n = rng.randint(int(prompt.params["min"]), int(prompt.params["max"]))
        return {"type": "cards", "cards": rng.sample(ids, n)}
    return dict(rng.choice(prompt.choices).action)
