"""The Cult Wars computer player. It sees only its own seat's view.

Plan of a turn: aim at the cult whose altar looks richest and least guarded (the insignia
step, or the target inside single orders); grow the cult early (breed), turn followers into VP
late (sacrifice), keep enough defenders for the threat it reads — in a ``two_step`` game from the
revealed insignia (nobody targeting it: no defence needed), otherwise from the last reveal and
face-up declarations — and send a raiding party at its target. Action cards are played when they
fit the plan. A winning defence puts the attackers' losses on the best-scoring attacker first.
"""

from __future__ import annotations

import math
import random
from typing import Any

from ..engine import Action, Prompt, same_json
from .combat import share_attacker_losses
from .content import KIND_BY_KEY, MAX_DEPLOY
from .effects import EFFECTS, Plan
from .plan import assign
from .state import CultWarsState
from .views import CultView, HandCardView, RecordCultView, TurnRecordView, View


def _phase_shares(turn: int, turns: int) -> tuple[float, float]:
    """(breed, sacrifice) shares of the cult for this point of the game."""
    remaining = turns - turn
    if remaining >= 5:
        return 0.6, 0.12
    if remaining >= 3:
        return 0.4, 0.3
    if remaining >= 1:
        return 0.15, 0.55
    return 0.0, 0.75


def _last(view: View) -> tuple[TurnRecordView | None, dict[int, RecordCultView]]:
    last = view["last_turn"]
    return last, {c["seat"]: c for c in last["cults"]} if last else {}


def _last_slot(view: View, k: int, slot: str) -> int:
    c = _last(view)[1].get(k)
    return sum(c["slots"][slot]) if c else 0


def _guard(view: View, k: int) -> int:
    """How many defenders cult ``k`` probably keeps: face up now, else as at the last reveal."""
    slots = view["cults"][k]["face_up"].get("slots", {})
    if "defend" in slots:
        return int(sum(slots["defend"]))
    return _last_slot(view, k, "defend")


def choose_target(view: View, rng: random.Random) -> Action:
    """The insignia step: a rich, badly guarded altar; the VP leader is a good victim too."""
    return {"type": "target", "target": _pick_target(view, rng)}


def _pick_target(view: View, rng: random.Random) -> int:
    me = view["private"]["seat"]
    cults = view["cults"]
    others = [k for k in range(len(cults)) if k != me]

    def appeal(k: int) -> float:
        return float(0.5 * cults[k]["vp"] + _last_slot(view, k, "sacrifice") + 0.5 * _last_slot(view, k, "breed")
                     - 0.8 * _guard(view, k) + 0.15 * cults[k]["followers"] + rng.uniform(0, 3))

    return max(others, key=appeal)


def choose_orders(view: View, rng: random.Random) -> Action:
    priv = view["private"]
    me = priv["seat"]
    cults = view["cults"]
    n = len(cults)
    turn = view["turn"]
    turns = view["turns"]
    followers = cults[me]["followers"]
    others = [k for k in range(n) if k != me]
    last, _ = _last(view)
    two_step = view["insignia"] == "two_step" and cults[me]["target"] is not None

    avg_other = sum(cults[k]["followers"] for k in others) / max(1, len(others))
    if two_step:
        # The insignia are revealed: only the cults aiming here can attack.
        aimed = [k for k in others if cults[k]["target"] == me]
        threat = sum(max(float(_last_slot(view, k, "attack")), 0.3 * cults[k]["followers"])
                     for k in aimed)
    else:
        # Threat: last turn's attackers on me, and face-up attacks declared at me this turn.
        incoming = 0.0
        for combat in last["combats"] if last else []:
            if combat["defender"] == me:
                incoming = float(combat["attack"])
        declared = 0
        for k in others:
            fu = cults[k]["face_up"]
            slots_up = fu.get("slots", {})
            if fu.get("target") == me and "attack" in slots_up:
                declared += sum(slots_up["attack"])
        threat = max(incoming * 0.8, float(declared), avg_other * 0.18)

    mine = cults[me]["target"]
    target = mine if two_step and mine is not None else _pick_target(view, rng)
    guard = _guard(view, target)

    breed_share, sac_share = _phase_shares(turn, turns)

    def jitter() -> float:
        return rng.uniform(0.85, 1.15)

    usable = min(followers, MAX_DEPLOY)
    defend = min(threat + 1.0, 0.45 * usable) * jitter() if threat > 0 else 0.0
    attack = 0.0
    if followers >= 4 and guard + 2 <= 0.4 * usable:
        attack = (guard + rng.uniform(1.5, 4.0)) if rng.random() < 0.8 else 0.0
    sacrifice = max(1.0, sac_share * usable * jitter()) if followers > 0 else 0.0
    breed = breed_share * usable * jitter()
    if turn == turns:
        # Last turn: everything spare goes on the altar.
        sacrifice = max(sacrifice, usable - defend - attack)
    wish = {"attack": attack, "defend": defend, "sacrifice": sacrifice, "breed": breed}
    # Scale down if the wishes overrun what the cult can deploy.
    total = sum(wish.values())
    if total > usable > 0:
        wish = {k: v * usable / total for k, v in wish.items()}
    slots = assign(wish, followers)

    plays = _choose_plays(priv["hand"], slots, target, cults, me, turn, turns, threat, rng)
    face_up: list[str] = []
    if sum(slots["defend"]) >= 5 and rng.random() < 0.25:
        face_up.append("defend")
    if two_step:
        return {"type": "orders", "slots": slots, "actions": plays, "face_up": face_up}
    return {"type": "orders", "target": target, "slots": slots, "actions": plays,
            "face_up": face_up, "loss_order": _priority(view, others)}


def _priority(view: View, seats: list[int]) -> list[int]:
    """Attackers to punish first: the best-scoring, then the biggest cult."""
    cults = view["cults"]
    return sorted(seats, key=lambda k: (-cults[k]["vp"], -cults[k]["followers"], k))


def choose_split(view: View, prompt: Prompt, rng: random.Random) -> Action:
    """A winning defence: the losses fall on the best-scoring attacker first."""
    attackers = {int(k): int(n) for k, n in prompt.params["attackers"]}
    share = share_attacker_losses(int(prompt.params["loss"]), attackers, _priority(view, sorted(attackers)))
    want = {"type": "split", "losses": [[k, share[k]] for k in sorted(attackers)]}
    for c in prompt.choices:
        if same_json(c.action, want):
            return dict(c.action)
    return dict(prompt.choices[0].action)


def _choose_plays(hand: list[HandCardView], slots: dict[str, list[int]], target: int,
                  cults: list[CultView], me: int, turn: int, turns: int, threat: float,
                  rng: random.Random) -> list[dict[str, Any]]:
    plan = Plan(attack=sum(slots["attack"]), sacrifice=sum(slots["sacrifice"]),
                breed=sum(slots["breed"]), threat=threat, turn=turn, last_turn=turn == turns,
                vp=cults[me]["vp"], target_vp=cults[target]["vp"],
                target_hand=cults[target]["hand_size"])
    plays: list[dict[str, Any]] = []
    for card in hand:
        kind = KIND_BY_KEY[card["key"]]
        use = EFFECTS[kind.effect].wanted(plan)
        if use and (plan.last_turn or rng.random() < 0.9):
            plays.append({"card": card["id"], "target": target if kind.target == "opponent" else None})
    return plays


# ------------------------------------------------------------------------------ for the search


def _plan(view: View, wish: dict[str, float], target: int, rng: random.Random) -> Action:
    """Orders laying ``wish`` (slot → share of the deployable followers) at ``target``, with the
    action cards the heuristic would add to them."""
    priv = view["private"]
    me = priv["seat"]
    cults = view["cults"]
    followers = cults[me]["followers"]
    usable = min(followers, MAX_DEPLOY)
    slots = assign({k: v * usable for k, v in wish.items()}, followers)
    threat = 3.0 if wish.get("defend", 0.0) >= 0.3 else 0.0
    plays = _choose_plays(priv["hand"], slots, target, cults, me, view["turn"], view["turns"],
                          threat, rng)
    two_step = view["insignia"] == "two_step" and cults[me]["target"] is not None
    if two_step:
        return {"type": "orders", "slots": slots, "actions": plays, "face_up": []}
    others = [k for k in range(len(cults)) if k != me]
    return {"type": "orders", "target": target, "slots": slots, "actions": plays, "face_up": [],
            "loss_order": _priority(view, others)}


PLANS: tuple[dict[str, float], ...] = (
    {"defend": 0.5, "breed": 0.5},
    {"defend": 0.5, "sacrifice": 0.5},
    {"defend": 0.35, "sacrifice": 0.35, "breed": 0.3},
    {"attack": 0.5, "defend": 0.2, "sacrifice": 0.3},
    {"attack": 0.35, "defend": 0.35, "sacrifice": 0.3},
    {"sacrifice": 0.75, "defend": 0.25},
    {"sacrifice": 1.0},
)
"""Shares of the deployable followers the search tries beside the heuristic's own orders."""


def search_candidates(view: View, prompt: Prompt, rng: random.Random) -> list[Action] | None:
    """The answers :mod:`rules.search` compares (None: a split, decided by the heuristic's rule)."""
    if prompt.kind == "split":
        return None
    if prompt.kind == "target":
        return [dict(c.action) for c in prompt.choices]
    me = view["private"]["seat"]
    cults = view["cults"]
    fixed = cults[me]["target"] if view["insignia"] == "two_step" else None
    targets = [fixed] if fixed is not None else [k for k in range(len(cults)) if k != me]
    out: list[Action] = [choose_orders(view, random.Random(rng.random())) for _ in range(3)]
    for wish in PLANS:
        for t in targets if "attack" in wish else targets[:1]:
            out.append(_plan(view, wish, t, random.Random(rng.random())))
    return out


def evaluate(state: CultWarsState, seat: int) -> float:
    """A cut-short game's value for ``seat`` in 0..1: its VP (and followers, worth VP later) against
    the best rival's, through a logistic curve."""
    def score(k: int) -> float:
        c = state.cults[k]
        return float(c.vp + 0.4 * c.followers)

    best = max(score(k) for k in range(state.players) if k != seat)
    return 1.0 / (1.0 + math.exp(-(score(seat) - best) / 4.0))
