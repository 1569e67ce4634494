"""What the searching computer players (:mod:`rules.search`) need from Petition: a full state drawn
from one seat's view, the answers worth comparing, and a value for a game cut short.

``determinize(view, seat, rng)`` reads the view and nothing else. Public there: beads, hand sizes,
pillars and their fortifications, set-aside pillars, the gods and their card locks, the temple,
the deck and discard sizes, the petition and the campaign under way (a face-down bid or campaign
pick shows only how many cards it holds), the last reveal. The seat's own: its hand, its own
face-down bid or campaign cards. Everything else (the other hands, the other side's face-down
cards, the order of the deck and what lies in the discard pile) is dealt at random from the cards
the seat cannot see, to the public counts; a face-down pick is dealt only cards that pick could
hold (citizens of the god for a bid, playable cards for a campaign).

Public cards are shown by their face (a card lock, the citizens standing from a petition duel,
the cards of a revealed battle), without the instance id, since cards of one name are the same
card: each is given an id of that name from the cards still unplaced.
"""

from __future__ import annotations

import math
import random
from typing import Any

from ..engine import Action, IllegalAction, Prompt, Rng
from .battle import can_play
from .bot import choose
from .cards import card_face
from .content import CARDS, DECK_IDS, PILLARS
from .state import Bid, Campaign, GodState, Petition, PetitionState, Pillar, PillarRef, Player
from .views import BidView, CampaignView, CardFaceView, CardView, PetitionView, View, read_view

JSON = dict[str, Any]


class _Pool:
    """The cards the seat cannot place, to be dealt: public faces take a card of their name."""

    def __init__(self, unseen: list[str]) -> None:
        self.cards = unseen

    def face(self, face: CardFaceView) -> str:
        name = face["name"]
        for i, cid in enumerate(self.cards):
            if CARDS[cid].name == name and card_face(cid) == face:
                return self.cards.pop(i)
        raise IllegalAction(f"no unplaced card matches the public card {name}")

    def faces(self, faces: list[CardFaceView] | None) -> list[str]:
        return [self.face(f) for f in faces or []]

    def deal(self, n: int, fits: Any = None) -> list[str]:
        """``n`` cards from the (shuffled) pool, those ``fits`` accepts first."""
        if fits is not None:
            good = [c for c in self.cards if fits(CARDS[c])]
            rest = [c for c in self.cards if not fits(CARDS[c])]
            self.cards = good + rest
        got, self.cards = self.cards[:n], self.cards[n:]
        return got


def determinize(view: JSON, seat: int, rng: random.Random) -> PetitionState:
    """A full state consistent with ``view`` (seat ``seat``'s own view); see the module's
    docstring. The solo game is not searched. What is dealt is dealt in one order (the gods'
    locks, the petition's sides, the campaign's, the hands, the deck, the discard pile), so one
    rng gives one state."""
    v = read_view(view)
    if v.get("solo") is not None:
        raise IllegalAction("the solo game is not searched")
    priv = v["private"]
    mine = [c["id"] for c in priv["hand"]]
    own_bid = [c["id"] for c in priv["bid"] or []]
    own_camp = [c["id"] for c in priv["campaign_cards"] or []]
    known = set(mine) | set(own_bid) | set(own_camp)
    unseen = [c for c in DECK_IDS if c not in known]
    rng.shuffle(unseen)
    pool = _Pool(unseen)

    gods: dict[str, GodState] = {}
    for g in v["gods"]:
        lock = None if g["lock"] is None else pool.faces(g["lock"])
        gods[g["key"]] = GodState(g["key"], g["holder"], g["bonus"], lock, g["since"])
    pv = v["petition"]
    pet = None if pv is None else _petition(pv, seat, own_bid, pool)
    cv = v["campaign"]
    camp, spent = (None, []) if cv is None else _campaign(cv, v, seat, own_camp, pool)
    seats = _seats(v, seat, mine, pool)
    deck = pool.deal(v["deck_size"])
    discard = pool.deal(v["discard_size"] - len(spent)) + spent
    if pool.cards:
        raise IllegalAction("the view's card counts do not add up")
    opts = v["options"]
    return PetitionState(
        players=v["players"], rng=Rng(rng.randrange(2**31)), seats=seats, deck=deck,
        discard=discard, temple=v["temple"], gods={k: gods[k] for k in PILLARS},
        turn_seat=v["turn_seat"], turn=v["turn"], round=v["round"],
        phase=v["phase"], petition=pet, campaign=camp,
        placing=[PillarRef(r["owner"], r["kind"]) for r in v["placing"]],
        placer=v["placer"], winner_takes_all=opts["winner_takes_all"],
        last_man_standing=opts["last_man_standing"],
        challenge_window=opts["challenge_window"], round_limit=v["round_limit"],
        last_reveal=v["last_reveal"], over_reason=v["over_reason"],
        rules=opts["rules"], stand=opts["pillar_stand"])


def _petition(pv: PetitionView, seat: int, own_bid: list[str], pool: _Pool) -> Petition:
    """The petition under way: a face-down bid of another seat is dealt citizens of the god."""
    pet = Petition(pv["petitioner"], pv["god"], pv["stage"],
                   {int(k): v for k, v in pv["challenges"].items()},
                   list(pv["challengers"]), None, None,
                   refundable=bool(pv["beads_on_god"]), duels=pv["duels"],
                   result_bonus=pv["bonus"])
    god = pet.god

    def side(b: BidView | None) -> Bid | None:
        if b is None:
            return None
        standing = pool.faces(b["standing"])
        cards: list[str] | None = None
        if b["ready"]:
            if b["seat"] == seat:
                cards = list(own_bid)
            else:
                cards = pool.deal(b["count"] or 0, lambda c: c.is_citizen and c.god == god)
        return Bid(b["seat"], b["beads"], cards, standing)

    pet.holder = side(pv["holder"])
    pet.challenger = side(pv["challenger"])
    if pv["lock"] is not None:
        # the lock won so far is the holder's standing citizens
        pet.result_lock = list(pet.holder.standing) if pet.holder is not None else []
    return pet


def _campaign(cv: CampaignView, v: View, seat: int, own_camp: list[str],
              pool: _Pool) -> tuple[Campaign, list[str]]:
    """The campaign under way, and its cards already in the discard pile once it is tallied (and
    still shown with it): a face-down side of another seat is dealt cards it could play."""
    camp = Campaign(cv["attacker"], cv["defender"], cv["pillar"], cv["stage"],
                    attack_ready=cv["attack_ready"], defend_ready=cv["defend_ready"],
                    attack_locked=cv["attack_locked"], defend_locked=cv["defend_locked"],
                    to_act=cv["to_act"] if cv["to_act"] is not None else 0,
                    passes=cv["passes"], attack_bonus=cv["attack_bonus"],
                    defend_bonus=cv["defend_bonus"], surrendered=cv["surrendered"],
                    attack_total=cv["attack_total"], defend_total=cv["defend_total"],
                    licence=cv["licence"])
    fort_kind = None
    for q in v["seats"][camp.defender]["pillars"]:
        fort = q["fortification"]
        if q["kind"] == camp.pillar and fort is not None:
            fort_kind = fort["kind"]
    spent: list[str] = []
    sides = (("attack", camp.attacker, cv["attack"], cv["attack_count"], camp.attack_bonus, None),
             ("defend", camp.defender, cv["defend"], cv["defend_count"], camp.defend_bonus, fort_kind))
    for role, who, faces, n, bonus, ft in sides:
        if faces is not None:
            cards = pool.faces(faces)
        elif who == seat:
            cards = list(own_camp)
        elif n is not None:
            cards = pool.deal(n, lambda c, r=role, p=camp.pillar, f=bonus > 0, ft=ft: can_play(
                c, r, p, favour=f, locked=False, fortification=ft))
        else:
            cards = []
        setattr(camp, role, cards)
        if camp.stage == "done":
            spent += cards
    return camp, spent


def _seats(v: View, seat: int, mine: list[str], pool: _Pool) -> list[Player]:
    """The seats: the other hands dealt from the pool, in seat order, then the public rest."""
    hands = [list(mine) if k == seat else pool.deal(sv["hand_size"]) for k, sv in enumerate(v["seats"])]
    out: list[Player] = []
    for k, sv in enumerate(v["seats"]):
        pillars = {}
        for q in sv["pillars"]:
            f = q["fortification"]
            pillars[q["kind"]] = Pillar(q["kind"], q["captured_by"],
                                        None if f is None else PillarRef(f["owner"], f["kind"]))
        out.append(Player(hands[k], sv["beads"], {p: pillars[p] for p in PILLARS},
                          [PillarRef(r["owner"], r["kind"]) for r in sv["stash"]],
                          v["turn"] - 1 if sv["heathen"] else None))
    return out


# ------------------------------------------------------------------------------ candidates

def search_candidates(view: JSON, prompt: Prompt, rng: random.Random) -> list[Action] | None:
    """:func:`_candidates` of the seat's view, read as declared (:mod:`rules.petition.views`)."""
    return _candidates(read_view(view), prompt, rng)


def _candidates(view: View, prompt: Prompt, rng: random.Random) -> list[Action] | None:
    """The answers worth comparing (None: the heuristic decides alone). The turn: every way to
    gather, turning heathen, ending, the two petitions with the best prospects and the three
    attacks the heuristic rates best; a swap of the two cards worth least; a challenge of 0 to 3 beads; for a pick of cards,
    the heuristic's own, nothing (a pass, a surrender), everything it may lay, and more or fewer
    than the heuristic's. The solo game and a discard down to the limit follow the heuristic."""
    if view.get("solo") is not None or prompt.kind in ("discard",):
        return None
    if prompt.free_form == "cards":
        return _card_candidates(view, prompt, rng)
    acts = [dict(c.action) for c in prompt.choices]
    if prompt.kind == "turn":
        attacks = [a for a in acts if a["type"] == "attack"]
        petitions = [a for a in acts if a["type"] == "petition"]
        rest = [a for a in acts if a["type"] not in ("attack", "petition")]
        hand = list(view["private"]["hand"])
        petitions.sort(key=lambda a: -_petition_prospect(view, hand, a["god"]))
        ranked = sorted(attacks, key=lambda a: -_attack_margin(view, a))
        return rest + petitions[:2] + ranked[:3]
    if prompt.kind == "extra":
        swaps = [a for a in acts if a["type"] == "swap"]
        rest = [a for a in acts if a["type"] != "swap"]
        targets = _targets(view)
        held = {c["id"]: c for c in view["private"]["hand"]}
        swaps.sort(key=lambda a: (_worth(held[a["card"]], targets), a["card"]))
        return rest + swaps[:2]
    if prompt.kind == "challenge":
        return [a for a in acts if int(a["beads"]) <= 3]
    if prompt.kind == "offer":
        return [a for a in acts if int(a["beads"]) <= 5]
    return acts


def _targets(view: View) -> list[str]:
    me = view["private"]["seat"]
    return [q["kind"] for p in view["seats"] if p["seat"] != me and p["active_count"]
            for q in p["pillars"] if q["active"]] or list(PILLARS)


def _worth(card: CardView, targets: list[str]) -> float:
    if card["kind"] != "citizen":
        return 1.5
    return float(max(card["points"][k] for k in targets))


def _petition_prospect(view: View, hand: list[CardView], god: str) -> float:
    from .bot import FAVOUR_BONUS, _own, _prospect

    return _prospect(view, hand, god, FAVOUR_BONUS) + 0.5 * _own(hand, god)


def _attack_margin(view: View, a: Action) -> float:
    from .bot import _attack_strength, _defence_estimate

    hand = list(view["private"]["hand"])
    return (_attack_strength(view, hand, a["pillar"])
            - _defence_estimate(view, a["seat"], a["pillar"]))


def _card_candidates(view: View, prompt: Prompt, rng: random.Random) -> list[Action]:
    cards = list(prompt.params["cards"])
    lo, hi = int(prompt.params["min"]), int(prompt.params["max"])
    pillar = prompt.params["pillar"]
    own = choose(view, prompt, random.Random(rng.random()))["cards"]

    def value(c: JSON) -> int:
        if "value" in c:
            return int(c["value"])
        if c["kind"] == "citizen" and pillar in c["points"]:
            return int(c["points"][pillar])
        return 2

    ranked = [c["id"] for c in sorted(cards, key=lambda c: (-value(c), c["id"]))]
    picks: list[list[str]] = [list(own), [], ranked[:hi]]
    # one more than the heuristic's (its strongest unpicked card), and one fewer (its weakest)
    extra = [x for x in ranked if x not in own]
    if extra:
        picks.append(list(own) + extra[:1])
    if len(own) > 1:
        weakest = min(own, key=lambda x: (value(next(c for c in cards if c["id"] == x)), x))
        picks.append([x for x in own if x != weakest])
    for n in (1, 2, 3):
        picks.append(ranked[:n])
    out: list[Action] = []
    for p in picks:
        if lo <= len(p) <= hi:
            out.append({"type": "cards", "cards": p})
    return out


# ------------------------------------------------------------------------------ evaluation

CAPTURE_WEIGHT = 1.0
"""A captured pillar: what wins the game."""
STANDING_WEIGHT = 0.3
"""An active pillar of one's own: a tie-break, and what the next attacker can take."""
HAND_WEIGHT = 0.06
"""A card's worth in hand, per point of its best pillar (what attacks and defends)."""
BEAD_WEIGHT = 0.05
"""A bead (petitions, challenges, swaps)."""
LICENCE_WEIGHT = 0.4
"""A favour or a heathen's licence held (an attack ready)."""
SCALE = 0.8
"""The logistic curve's width, in those units."""


def _score(s: PetitionState, k: int) -> float:
    p = s.seats[k]
    hand = sum(max(CARDS[c].points.values()) if CARDS[c].is_citizen else 2 for c in p.hand)
    licence = any(g.holder == k for g in s.gods.values()) or p.heathen_since is not None
    return (CAPTURE_WEIGHT * len(p.captured()) + STANDING_WEIGHT * len(p.active_pillars())
            + HAND_WEIGHT * hand + BEAD_WEIGHT * p.beads + LICENCE_WEIGHT * licence)


def evaluate(state: PetitionState, seat: int) -> float:
    """A game cut short by the search's horizon: the seat's chances in 0..1, guessed from its
    captured pillars (what wins), its standing pillars, hand, beads and licence, against the best
    rival's, through a logistic curve."""
    s = state
    mine = _score(s, seat)
    best = max(_score(s, k) for k in range(s.players) if k != seat)
    return 1.0 / (1.0 + math.exp(-(mine - best) / SCALE))



# ------------------------------------------------------------------------------ copies

def _bid(b: Bid | None) -> Bid | None:
    if b is None:
        return None
    return Bid(b.seat, b.beads, None if b.cards is None else list(b.cards), list(b.standing))


def copy_state(s: PetitionState) -> PetitionState:
    """A deep, independent copy of ``s``, field by field (what ``play`` starts from: the search
    plays thousands of steps a decision, and the pickle round trip was a third of each). Pillar
    references are frozen and the last reveal is only ever replaced, never changed in place, so
    those are shared; the solo game takes the generic copy."""
    if s.solo is not None:
        import pickle

        twin: PetitionState = pickle.loads(pickle.dumps(s, pickle.HIGHEST_PROTOCOL))
        return twin
    seats = [Player(list(p.hand), p.beads,
                    {k: Pillar(q.kind, q.captured_by, q.fortification) for k, q in p.pillars.items()},
                    list(p.stash), p.heathen_since) for p in s.seats]
    gods = {k: GodState(g.key, g.holder, g.bonus, None if g.lock is None else list(g.lock), g.since)
            for k, g in s.gods.items()}
    pet = s.petition
    if pet is not None:
        pet = Petition(pet.petitioner, pet.god, pet.stage, dict(pet.answers), list(pet.challengers),
                       _bid(pet.holder), _bid(pet.challenger), pet.refundable, pet.duels,
                       pet.result_bonus, None if pet.result_lock is None else list(pet.result_lock))
    c = s.campaign
    if c is not None:
        c = Campaign(c.attacker, c.defender, c.pillar, c.stage, list(c.attack), list(c.defend),
                     c.attack_ready, c.defend_ready, c.attack_locked, c.defend_locked, c.to_act,
                     c.passes, c.attack_bonus, c.defend_bonus, c.surrendered, c.attack_total,
                     c.defend_total, c.licence)
    return PetitionState(
        players=s.players, rng=Rng(s.rng.seed, s.rng.position), seats=seats, deck=list(s.deck),
        discard=list(s.discard), temple=s.temple, gods=gods, turn_seat=s.turn_seat, turn=s.turn,
        round=s.round, phase=s.phase, petition=pet, campaign=c, placing=list(s.placing),
        placer=s.placer, winner_takes_all=s.winner_takes_all,
        last_man_standing=s.last_man_standing, challenge_window=s.challenge_window,
        round_limit=s.round_limit, last_reveal=s.last_reveal, over_reason=s.over_reason,
        solo=None, rules=s.rules, stand=s.stand)
