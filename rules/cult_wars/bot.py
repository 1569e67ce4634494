"""The Cult Wars computer player. It sees only its own seat's view.

Plan of a turn: grow the cult early (breed), turn followers into VP late (sacrifice), keep
enough defenders for the threat it reads from the last reveal and from face-up declarations,
and send a raiding party at the cult whose altar looks richest and least guarded. Action cards
are played when they fit the plan.
"""

from __future__ import annotations

import random
from typing import Any

from .content import KIND_BY_KEY, MAX_DEPLOY
from .plan import assign


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


def choose_orders(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    priv = view["private"]
    me: int = priv["seat"]
    cults: list[dict[str, Any]] = view["cults"]
    n = len(cults)
    turn: int = view["turn"]
    turns: int = view["turns"]
    followers = cults[me]["followers"]
    others = [k for k in range(n) if k != me]
    last = view.get("last_turn") or {}
    last_cults = {c["seat"]: c for c in last.get("cults", [])}

    def last_slot(k: int, slot: str) -> int:
        c = last_cults.get(k)
        return sum(c["slots"][slot]) if c else 0

    # Threat: last turn's attackers on me, and face-up attacks declared at me this turn.
    incoming = 0.0
    for combat in last.get("combats", []):
        if combat["defender"] == me:
            incoming = float(combat["attack"])
    declared = 0
    for k in others:
        fu = cults[k].get("face_up") or {}
        if fu.get("target") == me and "attack" in fu.get("slots", {}):
            declared += sum(fu["slots"]["attack"])
    avg_other = sum(cults[k]["followers"] for k in others) / max(1, len(others))
    threat = max(incoming * 0.8, float(declared), avg_other * 0.18)

    # Target: a rich, badly guarded altar; the VP leader is a good victim too.
    def appeal(k: int) -> float:
        fu = cults[k].get("face_up") or {}
        guard = sum(fu["slots"]["defend"]) if "defend" in fu.get("slots", {}) else last_slot(k, "defend")
        return float(0.5 * cults[k]["vp"] + last_slot(k, "sacrifice") + 0.5 * last_slot(k, "breed")
                - 0.8 * guard + 0.15 * cults[k]["followers"] + rng.uniform(0, 3))

    target = max(others, key=appeal)
    fu_t = cults[target].get("face_up") or {}
    guard = (sum(fu_t["slots"]["defend"]) if "defend" in fu_t.get("slots", {})
             else last_slot(target, "defend"))

    breed_share, sac_share = _phase_shares(turn, turns)

    def jitter() -> float:
        return rng.uniform(0.85, 1.15)

    usable = min(followers, MAX_DEPLOY)
    defend = min(threat + 1.0, 0.45 * usable) * jitter()
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
    attackers_pref = sorted(others, key=lambda k: (-cults[k]["vp"], -cults[k]["followers"], k))
    face_up: list[str] = []
    if sum(slots["defend"]) >= 5 and rng.random() < 0.25:
        face_up.append("defend")
    return {"type": "orders", "target": target, "slots": slots, "actions": plays,
            "face_up": face_up, "loss_order": attackers_pref}


def _choose_plays(hand: list[dict[str, Any]], slots: dict[str, list[int]], target: int,
                  cults: list[dict[str, Any]], me: int, turn: int, turns: int, threat: float,
                  rng: random.Random) -> list[dict[str, Any]]:
    att = sum(slots["attack"])
    sac, brd = sum(slots["sacrifice"]), sum(slots["breed"])
    last_turn = turn == turns
    plays: list[dict[str, Any]] = []
    for card in hand:
        key = card["key"]
        kind = KIND_BY_KEY[key]
        use = False
        if key == "zealous_frenzy":
            use = att >= 2
        elif key == "warding_chant":
            use = threat >= 3 or last_turn
        elif key == "hidden_altar":
            use = sac >= 4
        elif key == "fertility_rite":
            use = brd >= 1 and not last_turn
        elif key == "blood_moon":
            use = sac >= 1
        elif key == "desecration":
            use = turn >= 3 or cults[target]["vp"] > cults[me]["vp"]
        elif key in ("pestilence", "silver_tongue", "call_to_the_faithful", "visions"):
            use = True
        elif key == "temple_thieves":
            use = cults[target]["hand_size"] > 0
        elif key == "anathema":
            use = cults[target]["hand_size"] >= 2 or last_turn
        elif key == "sow_discord":
            use = threat >= 3 or last_turn
        if use and (last_turn or rng.random() < 0.9):
            plays.append({"card": card["id"], "target": target if kind.target == "opponent" else None})
    return plays
