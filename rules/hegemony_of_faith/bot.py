"""The computer player: picks an answer for any prompt from the seat's own view only.

Turn play scores every legal choice with simple, readable heuristics (grow the flock, strike the
largest rival sect, keep defence cards, spend skills when they pay) plus a little noise; believer
picks in confrontations are mixed uniformly, since the rock-paper-scissors circle has no best pick.
How it weighs each action card and skill is a row of :data:`CARD_PLAY` and :data:`SKILL_PLAY`,
keyed by its key in ``cards.json``; :data:`_ANSWERS` picks the answer by prompt kind.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rules.engine import Action, Prompt

from .cards import (
    ACTION_KEY,
    ACTION_KEYS,
    ACTION_KIND,
    DEFENCE_FOR,
    IMPERMANENCE,
    SKILL_KEY,
    SKILL_KEYS,
    SKILL_NAME,
    check_table,
)


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


Answer = Callable[["_Me", Prompt, list[Action], random.Random], Action]


def choose(view: dict[str, Any], prompt: Prompt, rng: random.Random) -> Action:
    me = _Me(view)
    ch = [c.action for c in prompt.choices]
    answer = _ANSWERS.get(prompt.kind)
    if answer is None:
        return dict(ch[0])
    return answer(me, prompt, ch, rng)


def _keep_skill(me: _Me, prompt: Prompt, ch: list[Action], rng: random.Random) -> Action:
    return dict(min(ch, key=lambda a: SKILL_PLAY[SKILL_KEY[a["skill"]]].rank))


def _wander(me: _Me, prompt: Prompt, ch: list[Action], rng: random.Random) -> Action:
    def loot(a: Action) -> int:
        k = a.get("target")
        return int(me.seats[k]["believers"]) if isinstance(k, int) else 0
    richest: Action = max(ch, key=loot)
    return dict(richest)


def _snatch(me: _Me, prompt: Prompt, ch: list[Action], rng: random.Random) -> Action:
    return {"type": "snatch", "take": True, "rest": True}


def _react(me: _Me, prompt: Prompt, ch: list[Action], rng: random.Random) -> Action:
    # a reaction window asks seats without the card too: their only choice is "No reaction"
    return dict(next((a for a in ch if a.get("use")), ch[-1]))


def _karma(me: _Me, prompt: Prompt, ch: list[Action], rng: random.Random) -> Action:
    use = rng.random() < 0.2  # drawn by every asked seat, holder or not
    return dict(next((a for a in ch if a.get("use") == use), ch[-1]))


def _designate(me: _Me, prompt: Prompt, ch: list[Action], rng: random.Random) -> Action:
    return dict(max(ch, key=lambda a: me.seats[a["member"]]["believers"]))


def _pick(me: _Me, prompt: Prompt, ch: list[Action], rng: random.Random) -> Action:
    return dict(rng.choice(ch))


def _predict(me: _Me, prompt: Prompt, ch: list[Action], rng: random.Random) -> Action:
    return _prophecy(me) if len(ch) > 1 else dict(ch[0])


def _accept(me: _Me, prompt: Prompt, ch: list[Action], rng: random.Random) -> Action:
    # Impermanence of Life's holder never takes anyone in (its condition would break)
    want = me.mine >= 5 and (me.priv["skill"] or {}).get("name") != SKILL_NAME[IMPERMANENCE]
    return dict(next(a for a in ch if a["use"] == want))


def _give(me: _Me, prompt: Prompt, ch: list[Action], rng: random.Random) -> Action:
    held = Counter(b["id"] for b in me.priv["believers"])
    if prompt.kind == "keep" and me.mine < 4:
        return {"type": "keep", "believer": 0}
    gifts = [a for a in ch if a.get("believer")]
    if gifts:
        return dict(max(gifts, key=lambda a: held[a["believer"]]))
    return dict(ch[0])


def _part_with(me: _Me, prompt: Prompt, ch: list[Action], rng: random.Random) -> Action:
    return dict(min(ch, key=lambda a: card_value(a["card"]) + rng.random() * 0.1))


def card_value(name: str) -> float:
    """What the computer player thinks an action card in hand is worth."""
    return CARD_PLAY[ACTION_KEY[name]].value


def _prophecy(me: _Me) -> Action:
    per_type = {4: 6, 5: 9, 6: 9, 7: 12, 8: 12}.get(int(me.v["players"]), 12)
    seen = Counter(me.v["graveyard"]) + Counter(b["id"] for b in me.priv["believers"])
    guess = max(range(1, 6), key=lambda t: (per_type - seen[t], -t))
    return {"type": "predict", "believer": guess}


def _discard(me: _Me, prompt: Prompt, ch: list[Action], rng: random.Random) -> Action:
    inspire = "Inspiration" in prompt.text
    limit = 4 if inspire else 2
    junk = [c.action for c in prompt.choices if c.action["type"] == "discard_card"
            and card_value(c.action["card"]) < limit]
    if junk:
        return dict(junk[0])
    return {"type": "done"}


def _lineup(me: _Me, prompt: Prompt, ch: list[Action], rng: random.Random) -> Action:
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


def _turn(me: _Me, prompt: Prompt, ch: list[Action], rng: random.Random) -> Action:
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
    if not _hits(a):
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
    weak = sum(1 for n in me.hand_names() if card_value(n) < 4)
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
    if t == "end":
        return 1.0
    if t == "discard":
        low = sum(1 for n in me.hand_names() if card_value(n) < 2)
        return 1.2 if low >= 2 else -1
    aim = _Aim(me, a)
    if t == "play":
        card = CARD_PLAY[ACTION_KEY[a["card"]]].score
        return 0.0 if card is None else card(aim)
    if t == "skill":
        skill = SKILL_PLAY[SKILL_KEY[a["skill"]]].score
        return 0.0 if skill is None else skill(aim)
    return 0.0


def _hits(a: Action) -> bool:
    """Whether the card or skill of ``a`` weakens its target (see ``hits_target``)."""
    if a["type"] == "play":
        return CARD_PLAY[ACTION_KEY[a["card"]]].hits_target
    return SKILL_PLAY[SKILL_KEY[a["skill"]]].hits_target


class _Aim:
    """A turn choice being scored: the chooser, its target and the sizes the scores weigh."""

    def __init__(self, me: _Me, a: Action) -> None:
        self.me = me
        self.a = a
        self.mine = me.mine
        target = a.get("target")
        self.target: int | None = target if isinstance(target, int) else None
        self.tsect = me.sect_total(target) if isinstance(target, int) else 0
        """Believers of the target's sect."""
        self.lead = me.rival_best()
        """Believers of the largest rival sect."""

    def rivals_with_believers(self) -> int:
        me = self.me
        return sum(1 for k in me.sects if k != me.sect_leader and me.sect_total(k) > 0)

    def target_believers(self) -> int:
        return int(self.me.seats[self.target]["believers"]) if self.target is not None else 0

    def average(self) -> float:
        seats = self.me.seats
        return sum(int(s["believers"]) for s in seats) / max(1, len(seats))


# ------------------------------------------------------------------ the action cards' scores

def _charity(x: _Aim) -> float:
    return 6 + (2 if x.mine < 3 else 0)


def _miracle(x: _Aim) -> float:
    return 4 + min(3, len(x.me.v["graveyard"])) * 0.5


def _inspiration(x: _Aim) -> float:
    junk = sum(1 for n in x.me.hand_names() if card_value(n) < 4) - 1
    return 2 + junk


def _kowtow(x: _Aim) -> float:
    return 7 + x.tsect * 0.3


def _rumors(x: _Aim) -> float:
    target = x.target
    size = len(x.me.sects[target]["members"]) if target is not None and target in x.me.sects else 1
    return 3 + size * 1.5 + (x.tsect == x.lead)


def _debate(x: _Aim) -> float:
    return 3 + min(5, x.mine, x.tsect) * 0.6 + (x.tsect == x.lead)


def _conspiracy(x: _Aim) -> float:
    return 2.5 + x.rivals_with_believers() * 0.9 if x.mine else -1


def _war(x: _Aim) -> float:
    return 1.5 + (x.mine - x.tsect) * 0.4 + (x.tsect == x.lead) * 1.5 if x.mine else -1


def _martyrdom(x: _Aim) -> float:
    return 1 + x.rivals_with_believers() * 0.8 - (2 if x.mine < 3 else 0)


def _witch_hunt(x: _Aim) -> float:
    return 1.5 + x.tsect * 0.35 + (x.tsect == x.lead)


def _breaking(x: _Aim) -> float:
    return 2 + x.target_believers() * 0.5


@dataclass(frozen=True)
class CardPlay:
    """How the computer player weighs one action card key."""

    value: float
    """Its worth in hand (what it discards, gives away or trades first: the lowest)."""
    score: Callable[[_Aim], float] | None
    """Its score as a turn's choice (None: a defence card, never a turn's choice)."""
    hits_target: bool = True
    """Played on a target, it weakens it: worth aiming at a Leader who may win with a hidden
    Impermanence of Life (spying, trading or absorbing them is not)."""


CARD_PLAY: dict[str, CardPlay] = {
    "have_a_charity": CardPlay(6, _charity),
    "info_spy": CardPlay(1, lambda x: 0.5, hits_target=False),
    "its_a_miracle": CardPlay(4, _miracle),
    "divine_inspiration": CardPlay(3, _inspiration),
    "secret_alliance": CardPlay(1, lambda x: 0.3, hits_target=False),
    "breaking_faith": CardPlay(3, _breaking),
    "kowtow_to_me": CardPlay(6, _kowtow, hits_target=False),
    "spread_rumors": CardPlay(5, _rumors),
    "faith_debate": CardPlay(5, _debate),
    "conspiracy": CardPlay(5, _conspiracy),
    "witch_hunt": CardPlay(3, _witch_hunt),
    "faith_war": CardPlay(3, _war),
    "martyrdom": CardPlay(3, _martyrdom),
    "firm_faith": CardPlay(4, None),
    "great_mercy": CardPlay(4, None),
}
"""Action card key (``cards.json``) → how the computer player weighs it."""

check_table("the computer player's action cards", CARD_PLAY, ACTION_KEYS)


# ------------------------------------------------------------------------ the skills' scores

def _equal(x: _Aim) -> float:
    return 3 + (x.average() - x.mine) * 1.5


def _kaboom(x: _Aim) -> float:
    target = x.target
    return 2 + x.target_believers() * 0.6 + float(target is not None and x.me.sect_total(target) == x.lead)


def _headstronger(x: _Aim) -> float:
    return 2.0 + sum(int(x.me.seats[f]["believers"]) // 2 for f in x.me.me["followers"])


def _hermit(x: _Aim) -> float:
    leader = x.me.me["leader"]
    return 2 + (x.me.seats[leader]["believers"] // 2 if isinstance(leader, int) else 0)


def _praise(x: _Aim) -> float:
    return 2.5 if x.mine >= 5 else -1


def _immunity(x: _Aim) -> float:
    return 1.5 if x.mine >= 6 else -1


def _sword(x: _Aim) -> float:
    victim = x.tsect if x.target is not None else 0
    return 1.2 + float(victim == x.lead)


def _ascend(x: _Aim) -> float:
    return 3.0  # free cards: take them before ending the turn


def _chaos(x: _Aim) -> float:
    return _chaos_value(x.me)


@dataclass(frozen=True)
class SkillPlay:
    """How the computer player weighs one skill key."""

    rank: int
    """Its preference when keeping one of two skills (0 first)."""
    score: Callable[[_Aim], float] | None = None
    """Its score as a turn's choice (None: not used on its holder's turn)."""
    hits_target: bool = True
    """Used on a target, it weakens it (see :attr:`CardPlay.hits_target`)."""


SKILL_PLAY: dict[str, SkillPlay] = {
    "everyone_is_equal": SkillPlay(0, _equal),
    "kaboom": SkillPlay(1, _kaboom),
    "headstronger": SkillPlay(2, _headstronger),
    "chaos_coming": SkillPlay(3, _chaos),
    "praise_of_life": SkillPlay(4, _praise),
    "the_prophet": SkillPlay(5),
    "world_peace": SkillPlay(6, _immunity),
    "eternal_truth": SkillPlay(7, _immunity),
    "holy_rebirth": SkillPlay(8),
    "soul_cutting_sword": SkillPlay(9, _sword, hits_target=False),
    "zombie_army": SkillPlay(10),
    "gate_of_truth": SkillPlay(11),
    "ascend_with_me": SkillPlay(12, _ascend),
    "karma_reversed": SkillPlay(13),
    "purple_hermit": SkillPlay(14, _hermit),
    "impermanence_of_life": SkillPlay(15),
}
"""Skill key (``cards.json``) → how the computer player weighs it."""

check_table("the computer player's skills", SKILL_PLAY, SKILL_KEYS)

_ANSWERS: dict[str, Answer] = {
    "choose_skill": _keep_skill, "turn": _turn, "wander": _wander, "snatch": _snatch,
    "defend": _react, "counter": _react, "rebirth": _react, "karma": _karma,
    "designate": _designate, "pick": _pick, "lineup": _lineup, "prophet": _predict,
    "accept": _accept, "gift": _give, "keep": _give, "trim": _part_with, "alliance": _part_with,
    "discard": _discard,
}
"""Prompt kind → the computer player's answer (any other kind: the first choice)."""
