"""The computer player: picks an answer for any prompt from the seat's own view only.

Turn play scores every legal choice with simple, readable heuristics (grow the flock, strike the
largest rival sect, keep defence cards, spend skills when they pay) plus a little noise; believer
picks in confrontations are mixed uniformly, since the rock-paper-scissors circle has no best pick.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from rules.engine import Action, Prompt

from .cards import ACTION_KIND, DEFENCE_FOR

CARD_VALUE = {
    "Have a Charity": 6, "Kowtow to Me": 6, "Faith Debate": 5, "Conspiracy": 5, "Spread Rumors": 5,
    "It's a Miracle": 4, "Firm Faith": 4, "Great Mercy": 4, "Faith War": 3, "Martyrdom": 3,
    "Witch Hunt": 3, "Divine Inspiration": 3, "Breaking Faith": 3, "Info-Spy": 1, "Secret Alliance": 1,
}
SKILL_RANK = [
    "Everyone is Equal", "KABOOM!", "Headstronger", "Chaos Coming", "Praise of Life", "The Prophet",
    "World Peace", "Eternal Truth", "Holy Rebirth", "Soul-Cutting Sword", "Zombie Army",
    "Gate of Truth", "Ascend with Me", "Karma Reversed", "Purple Hermit", "Impermanence of Life",
]


class _Me:
    """Facts the bot reads from its view."""

    def __init__(self, view: dict[str, Any]) -> None:
        self.v = view
        self.priv: dict[str, Any] = view["private"]
        self.seat: int = self.priv["seat"]
        self.seats: list[dict[str, Any]] = view["seats"]
        self.me = self.seats[self.seat]
        self.mine = len(self.priv["believers"])
        self.sect_leader = self.seat if self.me["role"] == "leader" else self.me["leader"]
        self.sects: dict[int, dict[str, Any]] = {s["leader"]: s for s in view["sects"]}

    def sect_total(self, leader: int) -> int:
        sect = self.sects.get(leader)
        if sect is not None:
            return int(sect["believers"])
        return int(self.seats[leader]["believers"])

    def rival_best(self) -> int:
        return max((self.sect_total(k) for k in self.sects if k != self.sect_leader), default=0)

    def hand_names(self) -> list[str]:
        return [a["name"] for a in self.priv["actions"]]


def choose(view: dict[str, Any], prompt: Prompt, rng: random.Random) -> Action:
    me = _Me(view)
    kind = prompt.kind
    ch = [c.action for c in prompt.choices]
    if kind == "choose_skill":
        return dict(min(ch, key=lambda a: SKILL_RANK.index(a["skill"])))
    if kind == "turn":
        return _turn(me, prompt, rng)
    if kind == "wander":
        def loot(a: Action) -> int:
            k = a.get("target")
            return int(me.seats[k]["believers"]) if isinstance(k, int) else 0
        richest: Action = max(ch, key=loot)
        return dict(richest)
    if kind == "snatch":
        return {"type": "snatch", "take": True, "rest": True}
    if kind in ("defend", "counter", "rebirth"):
        # a reaction window asks seats without the card too: their only choice is "No reaction"
        return dict(next((a for a in ch if a.get("use")), ch[-1]))
    if kind == "karma":
        use = rng.random() < 0.2  # drawn by every asked seat, holder or not
        return dict(next((a for a in ch if a.get("use") == use), ch[-1]))
    if kind == "designate":
        return dict(max(ch, key=lambda a: me.seats[a["member"]]["believers"]))
    if kind == "pick":
        return dict(rng.choice(ch))
    if kind == "lineup":
        return _lineup(me, prompt, rng)
    if kind == "prophet":
        return _prophecy(me) if len(ch) > 1 else dict(ch[0])
    if kind == "accept":
        want = me.mine >= 5 and (me.priv["skill"] or {}).get("name") != "Impermanence of Life"
        return dict(next(a for a in ch if a["use"] == want))
    if kind in ("gift", "keep"):
        held = Counter(b["id"] for b in me.priv["believers"])
        if kind == "keep" and me.mine < 4:
            return {"type": "keep", "believer": 0}
        gifts = [a for a in ch if a.get("believer")]
        if gifts:
            return dict(max(gifts, key=lambda a: held[a["believer"]]))
        return dict(ch[0])
    if kind in ("trim", "alliance"):
        return dict(min(ch, key=lambda a: CARD_VALUE.get(a["card"], 2) + rng.random() * 0.1))
    if kind == "discard":
        return _discard(me, prompt)
    return dict(ch[0])


def _prophecy(me: _Me) -> Action:
    per_type = {4: 6, 5: 9, 6: 9, 7: 12, 8: 12}.get(int(me.v["players"]), 12)
    seen = Counter(me.v["graveyard"]) + Counter(b["id"] for b in me.priv["believers"])
    guess = max(range(1, 6), key=lambda t: (per_type - seen[t], -t))
    return {"type": "predict", "believer": guess}


def _discard(me: _Me, prompt: Prompt) -> Action:
    inspire = "Inspiration" in prompt.text
    limit = 4 if inspire else 2
    junk = [c.action for c in prompt.choices if c.action["type"] == "discard_card"
            and CARD_VALUE.get(c.action["card"], 2) < limit]
    if junk:
        return dict(junk[0])
    return {"type": "done"}


def _lineup(me: _Me, prompt: Prompt, rng: random.Random) -> Action:
    options = [c.action["order"] for c in prompt.choices]
    longest = max(len(o) for o in options)
    base = list(next(o for o in options if len(o) == longest))
    rng.shuffle(base)
    order: list[Any] = list(base)
    if prompt.params.get("zombies"):
        pending = me.v["pending"] or {}
        fighters = pending.get("fighters", {})
        targets = pending.get("targets", [])
        if targets:
            foe = fighters.get(str(targets[0]), targets[0])
            extra = int(me.seats[foe]["believers"]) - len(order)
            grave = list(me.v["graveyard"])
            rng.shuffle(grave)
            order += [f"z{t}" for t in grave[:max(0, extra)]]
    return {"type": "lineup", "order": order}


def _turn(me: _Me, prompt: Prompt, rng: random.Random) -> Action:
    best: tuple[float, Action] | None = None
    for c in prompt.choices:
        score = _score(me, c.action) + rng.random() * 0.8
        if best is None or score > best[0]:
            best = (score, c.action)
    assert best is not None
    return dict(best[1])


def _score(me: _Me, a: Action) -> float:
    return _base_score(me, a) + _impermanence_watch(me, a) + _spied(me, a)


def _impermanence_watch(me: _Me, a: Action) -> float:
    """Near the end, hit a lone hidden-skill Leader holding more than five believers: they may win
    outright with Impermanence of Life (public information only)."""
    target = a.get("target")
    if a["type"] not in ("play", "skill") or not isinstance(target, int) or int(me.v["believer_deck"]) > 8:
        return 0.0
    if a.get("card") in ("Info-Spy", "Secret Alliance", "Kowtow to Me") or a.get("skill") == "Soul-Cutting Sword":
        return 0.0
    seat = me.seats[target]
    if seat["role"] == "leader" and not seat["followers"] and seat["skill"] is None and seat["believers"] > 5:
        return 2.0
    return 0.0


def _chaos_value(me: _Me) -> float:
    """Chaos Coming deals every held action card out again, starting with the user: worth it when
    the user holds fewer cards than the share a deal gives, or many weak ones. A deal leaves the
    user with about that share, so a second one in the same turn gains nothing (the player once
    spent all three charges in one turn)."""
    dealt = [s for s in me.seats if s["role"] != "wanderer"]
    total = sum(int(s["hand"]) for s in dealt)
    share = -(-total // max(1, len(dealt)))  # the first of the deal gets the rounded-up share
    held = len(me.priv["actions"])
    weak = sum(1 for n in me.hand_names() if CARD_VALUE.get(n, 2) < 4)
    return (share - held) * 1.2 + 0.3 * weak - 0.5


def _spied(me: _Me, a: Action) -> float:
    """What this turn's Info-Spy on the target says about attacking it with a card: an attack its
    defence card would cancel is wasted; one it cannot cancel is safe (the player once spied and
    then ignored what it saw)."""
    card, target = a.get("card"), a.get("target")
    if a["type"] != "play" or not isinstance(target, int) or not isinstance(card, str):
        return 0.0
    kind = ACTION_KIND.get(card, "")
    if kind not in DEFENCE_FOR:
        return 0.0
    intel = me.priv.get("intel")
    if not intel or intel.get("of") != target or intel.get("turn") != me.v["turn"]:
        return 0.0
    defence = DEFENCE_FOR[kind]
    return -4.0 if defence in intel.get("actions", []) else 1.0


def _base_score(me: _Me, a: Action) -> float:
    t = a["type"]
    mine = me.mine
    if t == "end":
        return 1.0
    if t == "discard":
        low = sum(1 for n in me.hand_names() if CARD_VALUE.get(n, 2) < 2)
        return 1.2 if low >= 2 else -1
    target = a.get("target")
    tsect = me.sect_total(target) if isinstance(target, int) else 0
    lead = me.rival_best()
    if t == "play":
        card = a["card"]
        if card == "Have a Charity":
            return 6 + (2 if mine < 3 else 0)
        if card == "It's a Miracle":
            return 4 + min(3, len(me.v["graveyard"])) * 0.5
        if card == "Divine Inspiration":
            junk = sum(1 for n in me.hand_names() if CARD_VALUE.get(n, 2) < 4) - 1
            return 2 + junk
        if card == "Kowtow to Me":
            return 7 + tsect * 0.3
        if card == "Spread Rumors":
            size = len(me.sects[target]["members"]) if isinstance(target, int) and target in me.sects else 1
            return 3 + size * 1.5 + (tsect == lead)
        if card == "Faith Debate":
            return 3 + min(5, mine, tsect) * 0.6 + (tsect == lead)
        if card == "Conspiracy":
            n = sum(1 for k in me.sects if k != me.sect_leader and me.sect_total(k) > 0)
            return 2.5 + n * 0.9 if mine else -1
        if card == "Faith War":
            return 1.5 + (mine - tsect) * 0.4 + (tsect == lead) * 1.5 if mine else -1
        if card == "Martyrdom":
            n = sum(1 for k in me.sects if k != me.sect_leader and me.sect_total(k) > 0)
            return 1 + n * 0.8 - (2 if mine < 3 else 0)
        if card == "Witch Hunt":
            return 1.5 + tsect * 0.35 + (tsect == lead)
        if card == "Breaking Faith":
            victim = me.seats[target]["believers"] if isinstance(target, int) else 0
            return 2 + victim * 0.5
        if card == "Info-Spy":
            return 0.5
        if card == "Secret Alliance":
            return 0.3
        return 0.0
    if t == "skill":
        name = a["skill"]
        avg = sum(int(s["believers"]) for s in me.seats) / max(1, len(me.seats))
        if name == "Everyone is Equal":
            return 3 + (avg - mine) * 1.5
        if name == "KABOOM!":
            victim = int(me.seats[target]["believers"]) if isinstance(target, int) else 0
            return 2 + victim * 0.6 + float(isinstance(target, int) and me.sect_total(target) == lead)
        if name == "Headstronger":
            return 2.0 + sum(int(me.seats[f]["believers"]) // 2 for f in me.me["followers"])
        if name == "Purple Hermit":
            leader = me.me["leader"]
            return 2 + (me.seats[leader]["believers"] // 2 if isinstance(leader, int) else 0)
        if name == "Praise of Life":
            return 2.5 if mine >= 5 else -1
        if name in ("Eternal Truth", "World Peace"):
            return 1.5 if mine >= 6 else -1
        if name == "Soul-Cutting Sword":
            victim = me.sect_total(target) if isinstance(target, int) else 0
            return 1.2 + float(victim == lead)
        if name == "Ascend with Me":
            return 3.0  # free cards: take them before ending the turn
        if name == "Chaos Coming":
            return _chaos_value(me)
    return 0.0
