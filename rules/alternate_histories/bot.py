"""The computer player, from its own view only.

It treats the deck as its life: it spends cards when they buy something (a unit worth fielding,
an event with a target), pays costs with the cards it cannot use in this era, attacks only when
the odds are good (never into Nuclear retaliation), flees when it would lose a fight and
intercepts with a stronger unit, reorders the opponent's deck weakest first, and burns obsolete
cards when it reshuffles. :func:`random_action` is the random player it is measured against.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rules.engine import Action, Prompt

from .board import RESHUFFLE_BURN
from .content import CARDS, HAND_SIZE, NATIONS, Ability, Card
from .state import LEGACY_RULES, State

# P(X - Y > k) for X, Y uniform on 1..100 (both sides add a 1-100 card value to their power).
_GT: dict[int, float] = {}
for _k in range(-200, 201):
    _GT[_k] = sum(100 - abs(j) for j in range(max(_k + 1, -99), 100)) / 10000


def p_win(diff: int, their_roll: int | None = None) -> float:
    """Chance that a side ``diff`` stronger (power against power) wins, counting a tie as a loss;
    with ``their_roll`` known (Reorder), only our own roll is uncertain."""
    if their_roll is not None:
        need = their_roll - diff  # our roll must exceed this
        return max(0.0, min(1.0, (100 - max(need, 0)) / 100))
    if diff >= 100:
        return 1.0
    if diff <= -100:
        return 0.0
    return _GT[-diff]


def _era(view: dict[str, Any]) -> int:
    return int(view["global_era_index"])


def worth(card: str, era: int) -> float:
    """How much a card in hand is worth keeping (the lowest are paid and discarded first)."""
    c = CARDS[card]
    if c.era_index > era:
        return c.era_index - era  # unusable this era: fuel
    base = 20.0 + c.power / 5 + c.mobility * 2
    if c.kind == "event":
        base = 45.0
    if c.kind in ("infrastructure", "resource"):
        base = 40.0
    return base


def _mine(view: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    return [p for p in view["battlefield"] if p["owner"] == seat]


def _theirs(view: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    return [p for p in view["battlefield"] if p["owner"] != seat]


def _perm(view: dict[str, Any], uid: Any) -> dict[str, Any] | None:
    for p in view["battlefield"]:
        if p["uid"] == uid:
            return dict(p)
    return None


def _their_roll(view: dict[str, Any]) -> int | None:
    known = view["private"]["known_top"]
    return CARDS[known[0]].value if known else None


def _cards_left(view: dict[str, Any], seat: int) -> int:
    sd = view["sides"][seat]
    return int(sd["deck"]) + len(sd["graveyard"]) + int(sd["hand"])


def _deck_and_graveyard(view: dict[str, Any], seat: int) -> int:
    sd = view["sides"][seat]
    return int(sd["deck"]) + len(sd["graveyard"])


def _legacy(view: dict[str, Any]) -> bool:
    return bool(view.get("rules") == LEGACY_RULES)


def _can_hit(view: dict[str, Any], a: dict[str, Any], t: dict[str, Any]) -> bool:
    """A rough copy of the targeting rule for guessing interceptors."""
    ak, tk = a["keywords"], t["keywords"]
    if "espionage" in ak:
        return "espionage" in tk
    if "espionage" in tk:
        return False
    if "naval" in ak and ("air" not in ak or not _legacy(view)) and "naval" not in tk:
        return False
    return not ("naval" in tk and not ("naval" in ak or "air" in ak))


def _interceptors(view: dict[str, Any], a: dict[str, Any], target: Any) -> list[dict[str, Any]]:
    out = []
    for u in _theirs(view, a["owner"]):
        if u["kind"] != "unit" or u["tapped"] or u["uid"] == target or not _can_hit(view, a, u):
            continue
        if (target != "player" and u["station"] == target) or u["intercept_speed"] > a["speed"]:
            out.append(u)
    return out


def _attack_score(view: dict[str, Any], seat: int, action: dict[str, Any]) -> float:
    a = _perm(view, action["uid"])
    assert a is not None
    target = action["target"]
    roll = _their_roll(view)
    nukes = [p for p in _theirs(view, seat) if "nuclear" in p["keywords"]]
    spy = "espionage" in a["keywords"]
    blockers = _interceptors(view, a, target)
    if target == "player":
        if nukes and not spy:
            return -1e9
        milled = a["attack"] // 100
        gain = 12.0 * (max(1, milled) if _legacy(view) else milled) + 8 * a["reorder"]
        if "nuclear" in a["keywords"]:
            gain += 36
        if not blockers:
            return float(gain)
        best = max(blockers, key=lambda u: u["defend"])
        if p_win(best["defend"] - a["attack"] + 1) < 0.5:
            # a defender intercepts only with a unit likely to win (:func:`_react`): against
            # weaker blockers the hit lands, and its mill is what the attack is worth
            return float(gain)
        pw = p_win(a["attack"] - best["defend"], roll)
        return float(pw * (best["defend"] / 4) - (1 - pw) * (a["attack"] / 4))
    t = _perm(view, target)
    assert t is not None
    if "nuclear" in t["keywords"] and not spy:
        can_flee = t["kind"] == "unit" and not t["tapped"] and t["speed"] >= a["speed"]
        if can_flee or blockers or a["attack"] - t["defend"] < 100:
            return -1e9
    if t["kind"] == "unit" and not t["tapped"] and t["speed"] >= a["speed"] \
            and "submarine" not in t["keywords"]:
        pw = p_win(a["attack"] - t["defend"], roll)
        if pw < 0.5:
            return 1.0  # it would flee anyway: tapping it costs little
    pw = p_win(a["attack"] - t["defend"], roll)
    if blockers:
        best = max(blockers, key=lambda u: u["defend"])
        pw = min(pw, p_win(a["attack"] - best["defend"], roll))
    # what destroying the target is worth: rated at a quarter of its defence (and 15 more for
    # infrastructure) the player preferred raids on units to direct hits and lost 92% of games
    # to a player who always hits directly; a twelfth (and 2) gives that player 44.5% (n=200)
    value_t = t["defend"] / 12 + (2 if t["kind"] == "infrastructure" else 0)
    return float(pw * value_t - (1 - pw) * (a["attack"] / 4))


def _play_score(view: dict[str, Any], seat: int, card_id: str, step: str) -> float:
    """What playing ``card_id`` in phase ``step`` is worth, less what its ✋ cost takes."""
    c = CARDS[card_id]
    mine = _mine(view, seat)
    units = [p for p in mine if p["kind"] == "unit" and p["token"] is None]
    cost = int(view["private"]["playable"].get(card_id, c.cost.discard))
    effects = {ab.effect: ab for ab in c.abilities}
    if "end_game" in effects:
        return _end_game_score(view, seat, effects["end_game"])
    if c.kind == "unit" and len(units) >= 7:
        return -1
    play = _Play(view, seat, c, step, mine, units, effects)
    score = _KIND_SCORES.get(c.kind, _event_score)(play)
    # Under the rulebook's draw phase the cards left in hand go to the graveyard anyway, so a ✋
    # spent costs only what else it could have paid for this turn.
    return score - (5.0 if _legacy(view) else 1.5) * cost


@dataclass(frozen=True)
class _Play:
    """A card the player may play, and what its worth is judged from."""

    view: dict[str, Any]
    seat: int
    card: Card
    step: str
    mine: list[dict[str, Any]]
    units: list[dict[str, Any]]
    """The player's own units in play (not tokens)."""
    effects: dict[str, Ability]
    """The card's abilities by effect."""


def _end_game_score(view: dict[str, Any], seat: int, ability: Ability) -> float:
    """A card that ends the game: always worth playing when it wins, and otherwise only when the
    player is clearly ahead on what it counts."""
    if ability.mode == "win":
        return 1e6
    count = _cards_left if _legacy(view) else _deck_and_graveyard
    return 1e5 if count(view, seat) > count(view, 1 - seat) + 4 else -1


def _unit_score(play: _Play) -> float:
    c = play.card
    score = c.power / 10 + c.mobility * 1.5 + (12 if "nuclear" in c.keywords else 0)
    if play.step == "events":
        score += 4
    return score


def _economy_score(play: _Play) -> float:
    """Infrastructure and resources: less for each copy already in play, more when it untaps."""
    same = sum(1 for p in play.mine if p["card"] == play.card.id)
    score = 14.0 - 6 * same
    if any(ab.trigger == "untap" for ab in play.card.abilities):
        score += 6
    return score


_KIND_SCORES: dict[str, Callable[[_Play], float]] = {
    "unit": _unit_score,
    "infrastructure": _economy_score,
    "resource": _economy_score,
}
"""What a card is worth by its kind; an event is worth what its effects are (:func:`_event_score`)."""


def _strike_score(score: float, play: _Play) -> float:
    best = max((p["power"] for p in _theirs(play.view, play.seat) if p["power"] <= play.effects["strike"].amount
                and "espionage" not in p["keywords"]), default=0)
    return best / 8


def _rally_score(score: float, play: _Play) -> float:
    return 6.0 * sum(1 for p in play.units if not p["tapped"]) - 6 if play.step == "events" else -1


def _recover_score(score: float, play: _Play) -> float:
    return max(score, 4.0 * play.effects["recover"].amount)


def _draw_score(score: float, play: _Play) -> float:
    return score if "spy_hunt" in play.effects else max(score, 8.0)


def _at_least(floor: float) -> Callable[[float, _Play], float]:
    def scored(score: float, play: _Play) -> float:
        return max(score, floor)
    return scored


def _spy_hunt_score(score: float, play: _Play) -> float:
    spies = [p for p in _theirs(play.view, play.seat) if "espionage" in p["keywords"]]
    return 8.0 if spies else 2.0


_EVENT_SCORES: tuple[tuple[str, Callable[[float, _Play], float]], ...] = (
    ("strike", _strike_score),
    ("rally", _rally_score),
    ("recover", _recover_score),
    ("draw", _draw_score),
    ("compute", _at_least(9.0)),
    ("tokenize_hand", _at_least(10.0)),
    ("tokenize_deck", _at_least(6.0)),  # the units come out of the deck: out of the player's life
    ("scout", _at_least(3.0)),
    ("spy_hunt", _spy_hunt_score),
)
"""An event's worth, effect by effect in this order: each of its effects rescores it from the
score so far (most keep the best; ``strike``, ``rally`` and ``spy_hunt`` set it)."""


def _event_score(play: _Play) -> float:
    score = 0.0
    for effect, rescore in _EVENT_SCORES:
        if effect in play.effects:
            score = rescore(score, play)
    return score


def _pick(view: dict[str, Any], prompt: Prompt) -> list[str]:
    params = prompt.params
    ids = [o["id"] for o in params["cards"]]
    era = _era(view)
    n = int(params["count"])
    if prompt.kind == "reorder":
        return sorted(ids, key=lambda c: CARDS[c].value)
    if prompt.kind == "burn":
        def burn_key(c: str) -> float:
            card = CARDS[c]
            obsolete = card.era_index < era
            return (0 if obsolete else 1000) + card.era_index * 100 + card.power / 5 + card.value / 10
        return sorted(ids, key=burn_key)[:n]
    if prompt.kind == "tokenize":
        fuel = sorted((c for c in ids if c != "reserve"), key=lambda c: worth(c, era))
        return [c for c in fuel if worth(c, era) < 40][:n]
    # pay: Reserves first, then the least useful cards
    def pay_key(c: str) -> float:
        return 5.0 if c == "reserve" else worth(c, era)
    return sorted(ids, key=pay_key)[:n]


def _opening(params: dict[str, Any]) -> list[str]:
    pool: list[str] = []
    for o in params["cards"]:
        pool += [o["id"]] * int(o["count"])
    now = [c for c in pool if CARDS[c].era_index == 0]
    units = sorted((c for c in now if CARDS[c].kind == "unit"),
                   key=lambda c: -(CARDS[c].power - 40 * CARDS[c].cost.discard))
    picked = units[:4]
    rest = Counter(pool) - Counter(picked)
    later = sorted(rest.elements(), key=lambda c: (-CARDS[c].era_index, CARDS[c].value))
    picked += later[:HAND_SIZE - len(picked)]
    return picked


def choose(view: dict[str, Any], prompt: Prompt, rng: random.Random) -> Action:
    kind = prompt.kind
    seat = prompt.seat
    if kind == "deck":
        return {"type": "deck", "ready": rng.choice(list(prompt.params["ready"]))}
    if kind == "opening":
        return {"type": "opening", "cards": _opening(dict(prompt.params))}
    if prompt.free_form == "pick":
        return {"type": "pick", "cards": _pick(view, prompt)}
    actions = [c.action for c in prompt.choices]
    if kind == "react":
        return _react(view, seat, actions)
    if kind == "combat":
        best, score = None, 2.0
        for act in actions:
            if act["type"] == "attack":
                sc = _attack_score(view, seat, act)
                if sc > score:
                    best, score = act, sc
        return best or {"type": "next"}
    if kind in ("events", "build"):
        best, score = None, 0.0
        for act in actions:
            if act["type"] == "play":
                sc = _play_score(view, seat, act["card"], kind)
                if sc > score:
                    best, score = act, sc
        return best or {"type": "next"}
    if kind == "target":
        return max(actions, key=lambda a: (_perm(view, a["uid"]) or {"power": 0})["power"])
    if kind == "station":
        return actions[0]
    if kind == "decommission":
        hand = view["private"]["hand"]
        era = _era(view)
        # keep the hand lean: a card that will never be playable this game is better in the
        # graveyard (it comes back with the reshuffle) than blocking a draw.
        stale = [c for c in hand if CARDS[c].era_index > era + 2]
        if stale and len(hand) >= HAND_SIZE - 1 and _legacy(view):  # else the hand refreshes
            return {"type": "discard", "card": stale[0]}
        return {"type": "next"}
    return actions[-1]


def _react(view: dict[str, Any], seat: int, actions: list[dict[str, Any]]) -> Action:
    pending = view["pending"]
    a = _perm(view, pending["attacker"])
    target = pending["target"]
    hold = {"type": "hold"}
    if a is None:
        return hold
    mine_nukes = [p for p in _mine(view, seat) if "nuclear" in p["keywords"]]
    spy = "espionage" in a["keywords"]
    flee = next((x for x in actions if x["type"] == "flee"), None)
    intercepts = [x for x in actions if x["type"] == "intercept"]

    def win_with(uid: Any) -> float:
        u = _perm(view, uid)
        return 0.0 if u is None else p_win(u["defend"] - a["attack"] + 1)

    if target == "player":
        if mine_nukes and not spy:
            return hold  # the attacker loses to retaliation whatever happens
        if intercepts:
            best = max(intercepts, key=lambda x: win_with(x["uid"]))
            if win_with(best["uid"]) >= 0.5:
                return best
        return hold
    t = _perm(view, target)
    if t is None:
        return hold
    if "nuclear" in t["keywords"] and not spy:
        if flee:
            return flee
        if intercepts:
            return max(intercepts, key=lambda x: win_with(x["uid"]))
        return hold
    mine = p_win(t["defend"] - a["attack"] + 1)
    if intercepts:
        best = max(intercepts, key=lambda x: win_with(x["uid"]))
        if win_with(best["uid"]) > max(0.55, mine + 0.2):
            return best
    if flee and mine < 0.45:
        return flee
    return hold


def random_action(view: dict[str, Any], prompt: Prompt, rng: random.Random) -> Action:
    """A player who picks uniformly among the legal answers (any legal pick for free forms)."""
    if prompt.kind == "deck":
        return {"type": "deck", "ready": rng.choice(list(prompt.params["ready"]))}
    if prompt.kind == "opening":
        pool: list[str] = []
        for o in prompt.params["cards"]:
            pool += [o["id"]] * int(o["count"])
        return {"type": "opening", "cards": rng.sample(pool, HAND_SIZE)}
    if prompt.free_form == "pick":
        ids = [o["id"] for o in prompt.params["cards"]]
        n = rng.randint(int(prompt.params["min"]), int(prompt.params["count"]))
        if prompt.kind == "reorder":
            rng.shuffle(ids)
            return {"type": "pick", "cards": ids}
        return {"type": "pick", "cards": rng.sample(ids, n)}
    return dict(rng.choice(prompt.choices).action)



def search_candidates(view: dict[str, Any], prompt: Prompt) -> list[Action] | None:
    """What :mod:`rules.search` compares (None: the heuristic decides alone): every reaction of a
    defender; in combat, ending the attacks, the strongest direct attack, and the two attacks on
    units the heuristic rates best (the other attackers on the same targets are weaker copies)."""
    pending = view["pending"]
    if prompt.kind == "react" and pending is not None and pending["kind"] == "react":
        return [dict(c.action) for c in prompt.choices]
    if prompt.kind != "combat" or pending is not None:
        return None
    seat = prompt.seat
    attacks = [dict(c.action) for c in prompt.choices if c.action["type"] == "attack"]
    power = {p["uid"]: p["attack"] for p in view["battlefield"]}
    out: list[Action] = [{"type": "next"}]
    direct = [a for a in attacks if a["target"] == "player"]
    if direct:
        out.append(max(direct, key=lambda a: power.get(a["uid"], 0)))
    on_units = sorted((a for a in attacks if a["target"] != "player"),
                      key=lambda a: -_attack_score(view, seat, a))
    return out + on_units[:1]


def turns_left(deck: int, graveyard: int, hand: int, burn: int) -> float:
    """About how many more draw phases a side lasts if nothing else happens, counted in cards
    (so that every card counts): each turn draws 7 from the deck; an empty deck takes the
    graveyard back less ``burn`` burned cards, and the hand in play stays out of it. A card milled
    from the deck is no card lost (it comes back with the graveyard) but it shortens the present
    cycle: a seventh of a turn."""
    total = deck + graveyard + hand
    turns = deck / HAND_SIZE
    k = 1
    while k < 100:
        cycle = total - k * burn - HAND_SIZE
        if cycle <= 0:
            break
        turns += cycle / HAND_SIZE
        k += 1
    return turns


def evaluate(state: State, seat: int) -> float:
    """A game cut short by the search's horizon, for ``seat``, in 0..1: how many turns each side
    lasts before its burns run it out (:func:`turns_left`), and a little for the power each has in
    play, through a logistic curve."""
    def strength(k: int) -> float:
        sd = state.sides[k]
        effect = NATIONS[sd.nation].effect
        burn = int(effect["amount"]) if effect["kind"] == "burn" else RESHUFFLE_BURN
        power = sum(p.power for p in state.perms if p.owner == k and p.kind == "unit")
        return turns_left(len(sd.deck), len(sd.graveyard), len(sd.hand), burn) + power / 800

    return 1.0 / (1.0 + math.exp(-(strength(seat) - strength(1 - seat)) / 1.5))
