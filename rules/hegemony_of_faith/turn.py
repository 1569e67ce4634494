"""A player's turn (rulebook 4-2): draw phase, action phase, end of turn; the action cards' and the
skills' effects (7-2, 7-4); a Wanderer's turn (6-3.1, 6-3.2).

Action kinds: strategy, physical attack, mental attack, discard — at most two actions a turn and
never the same kind twice (Praise of Life adds one unrestricted action; Everyone is Equal uses up
both). Defence cards are never played on one's own turn; they answer attacks (``combat``).

What each action card and each skill does on its holder's turn is a row of :data:`CARD_RULES` and
:data:`SKILL_RULES` (end of this module), keyed by its key in ``cards.json``: how to list its
options, and how it takes effect. The prompt and the answer only look the row up.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rules.engine import Choice, Prompt, seat_name
from rules.text import count

from . import reactions
from .cards import (
    ACTION_CARDS,
    ACTION_KEY,
    ACTION_KEYS,
    ACTION_KIND,
    ACTION_NAME,
    ASCEND_WITH_ME,
    BELIEVER_NAMES,
    BREAKING_FAITH,
    CARD_KEYS,
    DISCARD,
    DIVINE_INSPIRATION,
    HOLY_REBIRTH,
    MENTAL,
    PHYSICAL,
    SKILL_KEY,
    SKILL_KEYS,
    SKILL_NAME,
    STRATEGY,
    THE_PROPHET,
    believers_text,
    blabel,
    btype,
    check_table,
    with_article,
)
from .combat import new_attack
from .frames import (
    AllianceFrame,
    BreakingFaithFrame,
    DiscardFrame,
    ProphetFrame,
    RebirthFrame,
    TrimFrame,
)
from .reactions import may_react_with_cards, skill_eligible
from .sects import (
    action_names,
    can_use,
    draw_actions,
    draw_with_ascend,
    followers,
    hand_limit,
    kill,
    leaders,
    make_follower,
    make_independent,
    mark_used,
    members,
    sect_count,
    sect_immune,
    sect_of,
    skill_key,
    take_action_card,
    take_random,
    take_type,
    types_held,
)
from .state import FOLLOWER, LEADER, WANDERER, Ctx, State

Option = tuple[str, dict[str, Any]]
"""(label, action): one legal way to play a card."""
SkillOption = tuple[str, str, dict[str, Any]]
"""(skill name, label, action): one legal use of a skill."""


# -------------------------------------------------------------------------------- turn start

def begin_turn(ctx: Ctx, seat: int) -> None:
    s = ctx.s
    s.current = seat
    s.turn_no += 1
    if seat == s.first:
        s.round_no += 1
    s.used_kinds = []
    s.extra = 0
    s.no_attack = False
    s.round_uses[seat] = 0
    s.imm_mental[seat] = False
    s.imm_physical[seat] = False
    s.gate[seat] = None
    ctx.say(f"— {seat_name(seat)}'s turn (round {s.round_no}) —", kind="turn")
    if s.hermit[seat]:
        s.hermit[seat] = False
        lead = s.leader[seat]
        if s.role[seat] == FOLLOWER and lead is not None:
            got = take_random(s, lead, len(s.believers[lead]) // 2)
            s.believers[seat].extend(got)
            make_independent(ctx, seat)
            ctx.say(f"Purple Hermit: {seat_name(seat)} takes {count(len(got), 'more believer')} from {seat_name(lead)} "
                    "and leaves the sect as an independent Leader.")
    if s.skip[seat]:
        s.skip[seat] = False
        ctx.say(f"{seat_name(seat)}'s soul is cut: they lose this turn.")
        s.stack.append({"k": "endturn", "stage": "check", "seat": seat, "wait": []})
        return
    if s.role[seat] == WANDERER:
        return
    need = hand_limit(s, seat) - len(s.hands[seat])
    if need > 0:
        if len(s.hands[seat]) + need > 6:
            mark_used(ctx, seat, ASCEND_WITH_ME)
        draw_with_ascend(ctx, seat, need)


# ------------------------------------------------------------------------------- the prompt

def _may(s: State, kind: str) -> bool:
    if kind in (PHYSICAL, MENTAL) and s.no_attack:
        return False
    return (len(s.used_kinds) < 2 and kind not in s.used_kinds) or s.extra > 0


def _use_kind(s: State, kind: str) -> None:
    if len(s.used_kinds) < 2 and kind not in s.used_kinds:
        s.used_kinds.append(kind)
    else:
        s.extra -= 1


def _others(s: State, seat: int) -> list[int]:
    return [k for k in range(s.players) if k != seat and s.role[k] != WANDERER]


def _other_sects(s: State, seat: int) -> list[int]:
    mine = sect_of(s, seat)
    return [lead for lead in leaders(s) if lead != mine]


def card_options(s: State, seat: int, name: str) -> list[Option]:
    """(label, action) for every legal way to play the action card ``name`` now."""
    options = CARD_RULES[ACTION_KEY[name]].options
    if options is None:  # a defence card: it only answers attacks
        return []
    mine = sect_of(s, seat)
    assert mine is not None
    offer = _Offer(s, seat, name, mine, sect_count(s, mine), {"type": "play", "card": name})
    options(offer)
    return offer.out


def skill_options(s: State, seat: int) -> list[SkillOption]:
    """(skill, label, action) for every skill use open to ``seat`` on its own turn."""
    out: list[SkillOption] = []
    own = types_held(s, seat)
    for key in TURN_SKILLS:
        options = SKILL_RULES[key].options
        assert options is not None
        if not can_use(s, seat, key):
            continue
        offer = _SkillOffer(s, seat, key, SKILL_NAME[key], own, out)
        options(offer)
    return out


def turn_prompt(s: State) -> Prompt:
    seat = s.current
    if s.role[seat] == WANDERER:
        ch = [Choice(f"Steal from {seat_name(k)} ({believers_text(len(s.believers[k]))})",
                     {"type": "steal", "target": k})
              for k in _others(s, seat) if s.believers[k]]
        # stealing is the Wanderer's option (6-3.1 "can"), never an obligation
        ch.append(Choice("Don't steal this turn" if ch else "Nobody to steal from: pass", {"type": "pass"}))
        return Prompt(seat, "wander", "You are a Wanderer: you may steal one believer, unseen, from a player.",
                      tuple(ch), timeout_note="you steal from the first player listed")
    choices: list[Choice] = []
    for name in action_names(s, seat):
        kind = ACTION_KIND[name]
        if kind not in (STRATEGY, PHYSICAL, MENTAL) or not _may(s, kind):
            continue
        for label, action in card_options(s, seat, name):
            choices.append(Choice(label[:80], action, group=name))
    for name, label, action in skill_options(s, seat):
        choices.append(Choice(label[:80], action, group=f"Skill: {name}"))
    if s.hands[seat] and _may(s, DISCARD):
        choices.append(Choice("Discard action cards…", {"type": "discard"}, group="Discard"))
    choices.append(Choice("End my turn", {"type": "end"}, group="End turn"))
    used = ", ".join(s.used_kinds) or "none"
    return Prompt(seat, "turn", f"Your turn: up to two actions of different kinds (used: {used}).",
                  tuple(choices), secret=True, timeout_note="your turn ends")


# ------------------------------------------------------------------------------ the answers

def turn_answer(ctx: Ctx, seat: int, action: dict[str, Any]) -> None:
    s = ctx.s
    t = action["type"]
    if t == "end":
        ctx.say(f"{seat_name(seat)} ends their turn.")
        s.stack.append({"k": "endturn", "stage": "trim", "seat": seat, "wait": []})
    elif t == "steal":
        k = action["target"]
        got = take_random(s, k, 1)
        s.believers[seat].extend(got)
        s.steals[seat] += 1
        ctx.say(f"Wanderer {seat_name(seat)} steals a believer from {seat_name(k)} ({s.steals[seat]}/3).")
        ctx.tell(seat, f"You steal {with_article(blabel(btype(got[0])))}.")
        ctx.tell(k, f"Wanderer {seat_name(seat)} steals your {blabel(btype(got[0]))}.")
        if s.steals[seat] >= 3:
            make_independent(ctx, seat)
            s.steals[seat] = 0
            draw_actions(ctx, seat, 6 - len(s.hands[seat]))
            ctx.say(f"{seat_name(seat)} re-establishes a sect: Leader again, six action cards, skill unsealed.")
        s.stack.append({"k": "endturn", "stage": "check", "seat": seat, "wait": []})
    elif t == "pass":
        s.stack.append({"k": "endturn", "stage": "check", "seat": seat, "wait": []})
    elif t == "discard":
        _use_kind(s, DISCARD)
        s.stack.append({"k": "discard", "wait": [seat], "seat": seat, "purpose": "discard", "n": 0})
    elif t == "play":
        _play(ctx, seat, action)
    elif t == "skill":
        _skill(ctx, seat, action)


def _play(ctx: Ctx, seat: int, action: dict[str, Any]) -> None:
    s = ctx.s
    name = action["card"]
    target = action.get("target")
    kind = ACTION_KIND[name]
    _use_kind(s, kind)
    s.action_discard.append(take_action_card(s, seat, name))
    on = f" on {seat_name(target)}" if isinstance(target, int) else ""
    ctx.say(f"{seat_name(seat)} plays {name}{on}.")
    side = sect_of(s, seat)
    assert side is not None
    apply = CARD_RULES[ACTION_KEY[name]].apply
    if apply is not None:
        apply(_Played(ctx, seat, action, name, kind, side))


def _sacrifice(ctx: Ctx, seat: int, t: int) -> None:
    s = ctx.s
    kill(s, seat, [take_type(s, seat, t)])
    ctx.say(f"{seat_name(seat)} sacrifices {with_article(blabel(t))}.")


def _deal_round(s: State, seat: int, cards: list[int], into: list[list[int]]) -> None:
    order = [k for k in [(seat + i) % s.players for i in range(s.players)] if s.role[k] != WANDERER]
    for k in order:
        into[k] = []
    for i, c in enumerate(cards):
        into[order[i % len(order)]].append(c)


def _skill(ctx: Ctx, seat: int, action: dict[str, Any]) -> None:
    name = action["skill"]
    key = SKILL_KEY[name]
    mark_used(ctx, seat, key)
    apply = SKILL_RULES[key].apply
    if apply is not None:
        apply(_Used(ctx, seat, action, name))


# ------------------------------------------------------------------------- recruiting (Prophet)

def prophets(s: State, drawer: int) -> list[int]:
    """The seats asked before ``drawer`` recruits: every other seat that might, as far as the
    table knows, use The Prophet (a reaction window, see ``reactions``)."""
    return skill_eligible(s, [k for k in range(s.players) if k != drawer], THE_PROPHET)


def push_recruit(s: State, seat: int, n: int, why: str) -> None:
    """Recruit ``n`` believers from the deck; The Prophet may first name a type."""
    s.stack.append({"k": "prophet", "wait": prophets(s, seat), "drawer": seat, "n": n,
                    "why": why, "preds": {}})


def prophet_prompts(s: State, f: ProphetFrame) -> list[Prompt]:
    out = []
    for k in f["wait"]:
        what = f"{seat_name(f['drawer'])} recruits {believers_text(f['n'])} ({f['why']})."
        if can_use(s, k, THE_PROPHET):
            which = "first" if skill_key(s, k) == THE_PROPHET else "second"
            ch = [Choice(f"Predict {blabel(t)}", {"type": "predict", "believer": t}) for t in range(1, 6)]
            out.append(reactions.prompt(s, k, "prophet", f"{what} The Prophet: name the type of the "
                                        f"{which} one to take it if you are right.", ch))
        else:
            out.append(reactions.prompt(s, k, "prophet", f"{what} You cannot prophesy, {reactions.NOTHING}.", []))
    return out


def prophet_answer(ctx: Ctx, f: ProphetFrame, seat: int, action: dict[str, Any]) -> None:
    # the prediction stays secret until every seat asked has answered (``prophet_step``)
    f["wait"].remove(seat)
    if action["believer"]:
        f["preds"][str(seat)] = action["believer"]


def prophet_step(ctx: Ctx, f: ProphetFrame) -> None:
    s = ctx.s
    d = f["drawer"]
    for k_str, t in sorted(f["preds"].items(), key=lambda kv: int(kv[0])):
        if can_use(s, int(k_str), THE_PROPHET):
            mark_used(ctx, int(k_str), THE_PROPHET)
            ctx.say(f"{seat_name(int(k_str))} prophesies: {with_article(blabel(t))}.")
        else:
            del f["preds"][k_str]
    drawn = [s.believer_deck.pop() for _ in range(min(f["n"], len(s.believer_deck)))]
    for k_str, t in f["preds"].items():
        k = int(k_str)
        idx = 0 if skill_key(s, k) == THE_PROPHET else 1
        if idx < len(drawn) and drawn[idx] >= 0 and btype(drawn[idx]) == t:
            s.believers[k].append(drawn[idx])
            ctx.say(f"The prophecy comes true: {seat_name(k)} takes the {blabel(t)} {seat_name(d)} recruited.")
            drawn[idx] = -1
        else:
            ctx.say(f"{seat_name(k)}'s prophecy fails.")
    kept = [c for c in drawn if c >= 0]
    s.believers[d].extend(kept)
    ctx.say(f"{seat_name(d)} recruits {believers_text(len(kept))}.")
    if kept:
        ctx.tell(d, f"You recruit: {', '.join(blabel(btype(c)) for c in kept)}.")


# ------------------------------------------------------------------ discarding and trimming

def discard_prompts(s: State, f: TrimFrame | DiscardFrame) -> list[Prompt]:
    seat = f["seat"]
    names = action_names(s, seat)
    if f["k"] == "trim":
        lim = hand_limit(s, seat)
        ch = tuple(Choice(f"Discard {n}", {"type": "discard_card", "card": n}) for n in names)
        return [Prompt(seat, "trim", f"Your hand is over its limit of {lim}: discard a card.",
                       ch, secret=True, timeout_note="the first card listed is discarded")]
    inspire = f["purpose"] == "inspire"
    gain = " (recruit one believer each)" if inspire else ""
    ch2 = [Choice(f"Discard {n}{gain}"[:80], {"type": "discard_card", "card": n}) for n in names]
    if names:
        ch2.append(Choice("Discard all of them", {"type": "discard_all"}))
    ch2.append(Choice(f"Done ({f['n']} discarded)", {"type": "done"}))
    what = "Divine Inspiration: discard" if inspire else "Discard"
    return [Prompt(seat, "discard", f"{what} any number of action cards, one at a time, then Done.",
                   tuple(ch2), secret=True, timeout_note="you stop discarding")]


def discard_answer(ctx: Ctx, f: TrimFrame | DiscardFrame, seat: int,
                   action: dict[str, Any]) -> None:
    s = ctx.s
    t = action["type"]
    if t == "discard_card":
        s.action_discard.append(take_action_card(s, seat, action["card"]))
        f["n"] += 1
    elif t == "discard_all":
        f["n"] += len(s.hands[seat])
        s.action_discard.extend(s.hands[seat])
        s.hands[seat] = []
    if f["k"] == "trim":
        if len(s.hands[seat]) <= hand_limit(s, seat):
            f["wait"] = []
        return
    if t != "discard_card" or not s.hands[seat]:
        f["wait"] = []


def discard_step(ctx: Ctx, f: TrimFrame | DiscardFrame) -> None:
    s = ctx.s
    seat = f["seat"]
    if f["k"] == "trim":
        ctx.say(f"{seat_name(seat)} discards down to the hand limit.")
        return
    ctx.say(f"{seat_name(seat)} discards {count(f['n'], 'action card')}.")
    if f["purpose"] == "inspire" and f["n"]:
        push_recruit(s, seat, f["n"], ACTION_NAME[DIVINE_INSPIRATION])


# ---------------------------------------------------------------------- Secret Alliance

def alliance_prompts(s: State, f: AllianceFrame) -> list[Prompt]:
    out = []
    for k in f["wait"]:
        other = f["t"] if k == f["a"] else f["a"]
        ch = tuple(Choice(f"Give {n}", {"type": "give", "card": n}) for n in action_names(s, k))
        out.append(Prompt(k, "alliance", f"Secret Alliance with {seat_name(other)}: choose the action card you give.",
                          ch, secret=True, timeout_note="the first card listed is given"))
    return out


def alliance_answer(ctx: Ctx, f: AllianceFrame, seat: int, action: dict[str, Any]) -> None:
    f["give"][str(seat)] = action["card"]
    f["wait"].remove(seat)


def alliance_step(ctx: Ctx, f: AllianceFrame) -> None:
    s = ctx.s
    a, t = f["a"], f["t"]
    ca = take_action_card(s, a, f["give"][str(a)])
    ct = take_action_card(s, t, f["give"][str(t)])
    s.hands[a].append(ct)
    s.hands[t].append(ca)
    ctx.say(f"{seat_name(a)} and {seat_name(t)} exchange one action card in secret.")
    ctx.tell(a, f"You give {ACTION_CARDS[ca]} and receive {ACTION_CARDS[ct]}.")
    ctx.tell(t, f"You give {ACTION_CARDS[ct]} and receive {ACTION_CARDS[ca]}.")


# ------------------------------------------------------------------------- Breaking Faith

def bf_prompts(s: State, f: BreakingFaithFrame) -> list[Prompt]:
    t = f["t"]
    what = f"{seat_name(f['by'])} plays Breaking Faith to {'cast you out' if f['mode'] == 'expel' else 'break away'}."
    if any(CARD_KEYS[c] == BREAKING_FAITH for c in s.hands[t]):
        return [reactions.prompt(s, t, "counter", f"{what} Answer with your own Breaking Faith so they "
                                 "take only one believer?",
                                 [Choice("Counter with Breaking Faith", {"type": "counter", "use": True})])]
    return [reactions.prompt(s, t, "counter", f"{what} You hold no Breaking Faith, {reactions.NOTHING}.", [])]


def bf_answer(ctx: Ctx, f: BreakingFaithFrame, seat: int, action: dict[str, Any]) -> None:
    s = ctx.s
    f["wait"] = []
    if action["use"]:
        s.action_discard.append(take_action_card(s, seat, ACTION_NAME[BREAKING_FAITH]))
        f["countered"] = True
        ctx.say(f"{seat_name(seat)} answers with their own Breaking Faith.")


def bf_step(ctx: Ctx, f: BreakingFaithFrame) -> None:
    s = ctx.s
    by, t = f["by"], f["t"]
    if f["mode"] == "expel":
        follower, victim = t, t
    else:
        follower, victim = by, t
    hermit = f["mode"] == "expel" and s.hermit[t]
    make_independent(ctx, follower)
    if hermit:
        ctx.say(f"Purple Hermit: {seat_name(t)} leaves untouched and becomes an independent Leader.")
        return
    n = 1 if f["countered"] else len(s.believers[victim]) // 2
    got = take_random(s, victim, n)
    s.believers[by].extend(got)
    ctx.say(f"{seat_name(follower)} is now an independent Leader; {seat_name(by)} snatches {believers_text(len(got))} "
            f"from {seat_name(victim)}.")


# ---------------------------------------------------------------------------- Holy Rebirth

def new_rebirth(s: State, dead: dict[int, int]) -> RebirthFrame | None:
    """The Holy Rebirth window after one action: ``dead`` counts each seat's believers that died
    in it (public). Asked: every seat that lost three or more and might use Holy Rebirth (see
    ``reactions``); None when nobody is (or the graveyard is empty)."""
    if not s.graveyard:
        return None
    asked = skill_eligible(s, [k for k, n in dead.items() if n >= 3], HOLY_REBIRTH)
    if not asked:
        return None
    return {"k": "rebirth", "wait": asked, "dead": {str(k): dead[k] for k in asked}, "use": []}


def rebirth_prompts(s: State, f: RebirthFrame) -> list[Prompt]:
    out = []
    for seat in f["wait"]:
        dead = f["dead"][str(seat)] if isinstance(f["dead"], dict) else f["dead"]
        what = f"{dead} of your believers died at once."
        if can_use(s, seat, HOLY_REBIRTH):
            out.append(reactions.prompt(s, seat, "rebirth", f"{what} Use Holy Rebirth to revive the top "
                                        "three believers of the graveyard?",
                                        [Choice("Use Holy Rebirth", {"type": "rebirth", "use": True})]))
        else:
            out.append(reactions.prompt(s, seat, "rebirth", f"{what} You cannot revive them, "
                                        f"{reactions.NOTHING}.", []))
    return out


def rebirth_answer(ctx: Ctx, f: RebirthFrame, seat: int, action: dict[str, Any]) -> None:
    """Answers stay secret until the last one is in; then each seat that chose Holy Rebirth
    (clockwise from the current player) takes the top three of the graveyard."""
    s = ctx.s
    f["wait"].remove(seat)
    if action["use"]:
        f.setdefault("use", []).append(seat)
    if f["wait"]:
        return
    for k in sorted(f.get("use", []), key=lambda k: (k - s.current) % s.players):
        if not can_use(s, k, HOLY_REBIRTH) or not s.graveyard:
            continue
        mark_used(ctx, k, HOLY_REBIRTH)
        got = [s.graveyard.pop() for _ in range(min(3, len(s.graveyard)))]
        s.believers[k].extend(got)
        ctx.say(f"Holy Rebirth: {seat_name(k)} revives {', '.join(blabel(btype(c)) for c in got)}.")


# ------------------------------------------------------------- the action cards' rules

@dataclass
class _Offer:
    """An action card's options being listed for ``seat``, whose sect is led by ``mine``."""

    s: State
    seat: int
    name: str
    mine: int
    my_count: int
    """The believers of the seat's sect."""
    base: dict[str, Any]
    out: list[Option] = field(default_factory=list)

    def plain(self, label: str) -> None:
        self.out.append((label, self.base))

    def target(self, label: str, target: int, **more: Any) -> None:
        self.out.append((label, {**self.base, "target": target, **more}))


@dataclass
class _Played:
    """An action card being played: ``side`` is the player's sect."""

    ctx: Ctx
    seat: int
    action: dict[str, Any]
    name: str
    kind: str
    side: int

    @property
    def target(self) -> int:
        target = self.action.get("target")
        assert isinstance(target, int)
        return target


def _charity_options(o: _Offer) -> None:
    if o.s.believer_deck:
        o.plain("Recruit two believers")


def _charity(p: _Played) -> None:
    push_recruit(p.ctx.s, p.seat, 2, p.name)


def _spy_options(o: _Offer) -> None:
    for k in _others(o.s, o.seat):
        o.target(f"Spy on {seat_name(k)}", k)


def _spy(p: _Played) -> None:
    s, target = p.ctx.s, p.target
    acts = sorted(ACTION_CARDS[c] for c in s.hands[target])
    bels = sorted(btype(c) for c in s.believers[target])
    s.intel[p.seat] = {"of": target, "turn": s.turn_no, "actions": acts, "believers": bels}
    p.ctx.tell(p.seat, f"{seat_name(target)} holds actions: {', '.join(acts) or 'none'}; believers: "
               f"{', '.join(blabel(b) for b in bels) or 'none'}.")


def _miracle_options(o: _Offer) -> None:
    if o.s.graveyard:
        o.plain("Revive the top three of the graveyard")


def _miracle(p: _Played) -> None:
    s = p.ctx.s
    got = [s.graveyard.pop() for _ in range(min(3, len(s.graveyard)))]
    s.believers[p.seat].extend(got)
    p.ctx.say(f"{seat_name(p.seat)} revives {believers_text(len(got))}: "
              f"{', '.join(blabel(btype(c)) for c in got)}.")


def _inspiration_options(o: _Offer) -> None:
    if len(o.s.hands[o.seat]) >= 2 and o.s.believer_deck:
        o.plain("Trade action cards for believers")


def _inspiration(p: _Played) -> None:
    p.ctx.s.stack.append({"k": "discard", "wait": [p.seat], "seat": p.seat, "purpose": "inspire",
                          "n": 0})


def _alliance_options(o: _Offer) -> None:
    if len(o.s.hands[o.seat]) >= 2:
        for k in _others(o.s, o.seat):
            if o.s.hands[k]:
                o.target(f"Exchange a card with {seat_name(k)}", k)


def _alliance(p: _Played) -> None:
    target = p.target
    p.ctx.s.stack.append({"k": "alliance", "wait": [p.seat, target], "a": p.seat, "t": target,
                          "give": {}})


def _breaking_options(o: _Offer) -> None:
    s, seat = o.s, o.seat
    if s.role[seat] == LEADER:
        for fl in followers(s, seat):
            o.target(f"Cast out {seat_name(fl)}", fl)
    elif s.role[seat] == FOLLOWER and s.leader[seat] is not None:
        o.target(f"Break away from {seat_name(o.mine)}", o.mine)


def _breaking(p: _Played) -> None:
    s, target = p.ctx.s, p.target
    mode = "expel" if s.role[p.seat] == LEADER else "leave"
    # a reaction window: asked whenever they hold a card at all (public), not only a Breaking Faith
    s.stack.append({"k": "bf", "wait": [target] if may_react_with_cards(s, target) else [],
                    "by": p.seat, "t": target, "mode": mode, "countered": False})


def _kowtow_options(o: _Offer) -> None:
    for lead in _other_sects(o.s, o.seat):
        if sect_count(o.s, lead) <= o.my_count // 2:
            o.target(f"Absorb {seat_name(lead)}'s sect ({believers_text(sect_count(o.s, lead))})", lead)


def _kowtow(p: _Played) -> None:
    absorbed = members(p.ctx.s, p.target)
    for m in absorbed:
        make_follower(p.ctx, m, p.side)
    one = len(absorbed) == 1
    p.ctx.say(f"{', '.join(seat_name(m) for m in absorbed)} {'bows' if one else 'bow'} to "
              f"{seat_name(p.side)} and {'joins' if one else 'join'} the sect as "
              f"{'a Follower' if one else 'Followers'}.")


def _one_sect(*, needs_own: bool = False, by_type: bool = False) -> Callable[[_Offer], None]:
    """The options of an attack on one opposing sect: each sect neither immune to its kind nor
    without believers (``needs_own``: only while the player's sect has believers to send;
    ``by_type``: once per believer type to name)."""
    def options(o: _Offer) -> None:
        mode = ACTION_KIND[o.name]
        if needs_own and o.my_count == 0:
            return
        for lead in _other_sects(o.s, o.seat):
            if sect_immune(o.s, lead, mode) or sect_count(o.s, lead) == 0:
                continue
            if by_type:
                for t in range(1, 6):
                    o.target(f"{seat_name(lead)}'s sect: {BELIEVER_NAMES[t]}s", lead, believer=t)
            else:
                o.target(f"{seat_name(lead)}'s sect ({believers_text(sect_count(o.s, lead))})", lead)
    return options


def _attack_one(p: _Played) -> None:
    s = p.ctx.s
    s.stack.append(new_attack(s, p.name, p.kind, p.seat, p.side, [p.target]))


def _hunt(p: _Played) -> None:
    s, target = p.ctx.s, p.target
    hunted: int = p.action["believer"]
    p.ctx.say(f"The hunt is for {BELIEVER_NAMES[hunted]}s.")
    s.stack.append(new_attack(s, p.name, p.kind, p.seat, p.side, [target], believer=hunted))


def _every_sect_options(o: _Offer) -> None:
    mode = ACTION_KIND[o.name]
    if o.my_count and any(not sect_immune(o.s, lead, mode) and sect_count(o.s, lead)
                          for lead in _other_sects(o.s, o.seat)):
        o.plain("Against every other sect")


def _attack_every(p: _Played) -> None:
    s = p.ctx.s
    targets = [lead for lead in _other_sects(s, p.seat)
               if not sect_immune(s, lead, p.kind) and sect_count(s, lead)]
    s.stack.append(new_attack(s, p.name, p.kind, p.seat, p.side, targets))


@dataclass(frozen=True)
class CardRules:
    """The rules of one action card key on its holder's turn."""

    options: Callable[[_Offer], None] | None
    """Lists every legal way to play it now (None: a defence card, which only answers
    attacks, in ``combat``)."""
    apply: Callable[[_Played], None] | None
    """Makes it take effect once played (it is already discarded and announced)."""


CARD_RULES: dict[str, CardRules] = {
    "have_a_charity": CardRules(_charity_options, _charity),
    "info_spy": CardRules(_spy_options, _spy),
    "its_a_miracle": CardRules(_miracle_options, _miracle),
    "divine_inspiration": CardRules(_inspiration_options, _inspiration),
    "secret_alliance": CardRules(_alliance_options, _alliance),
    "breaking_faith": CardRules(_breaking_options, _breaking),
    "kowtow_to_me": CardRules(_kowtow_options, _kowtow),
    "spread_rumors": CardRules(_one_sect(), _attack_one),
    "faith_debate": CardRules(_one_sect(needs_own=True), _attack_one),
    "conspiracy": CardRules(_every_sect_options, _attack_every),
    "witch_hunt": CardRules(_one_sect(by_type=True), _hunt),
    "faith_war": CardRules(_one_sect(needs_own=True), _attack_one),
    "martyrdom": CardRules(_every_sect_options, _attack_every),
    "firm_faith": CardRules(None, None),
    "great_mercy": CardRules(None, None),
}
"""Action card key (``cards.json``) → its rules on its holder's turn."""

check_table("action cards", CARD_RULES, ACTION_KEYS)


# ------------------------------------------------------------------------ the skills' rules

@dataclass
class _SkillOffer:
    """A skill's uses being listed for ``seat`` (who may use it now); ``own`` are the believer
    types the seat holds (what it may sacrifice)."""

    s: State
    seat: int
    key: str
    name: str
    own: list[int]
    out: list[SkillOption]

    @property
    def base(self) -> dict[str, Any]:
        return {"type": "skill", "skill": self.name}

    def add(self, label: str, **more: Any) -> None:
        self.out.append((self.name, label, {**self.base, **more}))


@dataclass
class _Used:
    """A skill being used on its holder's turn (its use is already recorded)."""

    ctx: Ctx
    seat: int
    action: dict[str, Any]
    name: str

    @property
    def target(self) -> int:
        target = self.action.get("target")
        assert isinstance(target, int)
        return target


def _equal_options(o: _SkillOffer) -> None:
    if not o.s.used_kinds and o.s.extra == 0:
        o.add("Redistribute every believer")


def _equal(u: _Used) -> None:
    s, seat = u.ctx.s, u.seat
    s.used_kinds = ["skill", "skill*"]
    pool = [c for k in range(s.players) if s.role[k] != WANDERER for c in s.believers[k]]
    s.rng.shuffle(pool)
    _deal_round(s, seat, pool, s.believers)
    u.ctx.say(f"{u.name}: {seat_name(seat)} gathers all {len(pool)} believers and deals them out.")


def _hermit_options(o: _SkillOffer) -> None:
    # copied with Gate of Truth it is only this: no second half, no leaving the sect
    copy = "" if skill_key(o.s, o.seat) == o.key else " (Gate of Truth copy: once, you stay)"
    o.add("Take half of your Leader's believers" + copy)


def _hermit(u: _Used) -> None:
    s, seat = u.ctx.s, u.seat
    lead = s.leader[seat]
    assert lead is not None
    got = take_random(s, lead, len(s.believers[lead]) // 2)
    s.believers[seat].extend(got)
    # the second half and the Breaking Faith-like exit are not copied by Gate of Truth (7-4)
    s.hermit[seat] = skill_key(s, seat) == SKILL_KEY[u.name]
    u.ctx.say(f"{u.name}: {seat_name(seat)} takes {believers_text(len(got))} from their Leader "
              f"{seat_name(lead)}.")


def _headstronger_options(o: _SkillOffer) -> None:
    if followers(o.s, o.seat):
        o.add("Take half from every Follower and cast them out")


def _headstronger(u: _Used) -> None:
    s, seat = u.ctx.s, u.seat
    for fl in followers(s, seat):
        got = take_random(s, fl, len(s.believers[fl]) // 2)
        s.believers[seat].extend(got)
        make_independent(u.ctx, fl)
        u.ctx.say(f"{u.name}: {seat_name(seat)} takes {believers_text(len(got))} from "
                  f"{seat_name(fl)} and casts them out.")


def _kaboom_options(o: _SkillOffer) -> None:
    s = o.s
    if s.no_attack or ({PHYSICAL, MENTAL} & set(s.used_kinds)):
        return
    for k in _others(s, o.seat):
        if s.believers[k]:
            for t in o.own:
                o.add(f"Destroy 3 of {seat_name(k)}'s (sacrifice {with_article(BELIEVER_NAMES[t])})",
                      target=k, sacrifice=t)


def _kaboom(u: _Used) -> None:
    s, target = u.ctx.s, u.target
    _sacrifice(u.ctx, u.seat, u.action["sacrifice"])
    dead = take_random(s, target, 3)
    kill(s, target, dead)
    s.no_attack = True
    u.ctx.say(f"{u.name} {len(dead)} of {seat_name(target)}'s believers are destroyed.")


def _sacrifice_options(what: str, already: Callable[[State, int], bool] | None = None,
                       ) -> Callable[[_SkillOffer], None]:
    """The uses of a skill that costs a believer: one per type held, none while ``already``
    holds (the immunity it gives is already on)."""
    def options(o: _SkillOffer) -> None:
        if already is not None and already(o.s, o.seat):
            return
        for t in o.own:
            o.add(f"{what.capitalize()} (sacrifice {with_article(BELIEVER_NAMES[t])})", sacrifice=t)
    return options


def _praise(u: _Used) -> None:
    _sacrifice(u.ctx, u.seat, u.action["sacrifice"])
    u.ctx.s.extra += 1
    u.ctx.say(f"{u.name}: {seat_name(u.seat)} gains one extra action this turn.")


def _eternal_truth(u: _Used) -> None:
    _sacrifice(u.ctx, u.seat, u.action["sacrifice"])
    u.ctx.s.imm_mental[u.seat] = True
    u.ctx.say(f"{u.name}: {seat_name(u.seat)}'s sect ignores mental attacks until their next turn.")


def _world_peace(u: _Used) -> None:
    _sacrifice(u.ctx, u.seat, u.action["sacrifice"])
    u.ctx.s.imm_physical[u.seat] = True
    u.ctx.say(f"{u.name}: {seat_name(u.seat)}'s sect ignores physical attacks until their next turn.")


def _sword_options(o: _SkillOffer) -> None:
    for k in _others(o.s, o.seat):
        if not o.s.skip[k]:
            o.add(f"{seat_name(k)} loses their next turn", target=k)


def _sword(u: _Used) -> None:
    u.ctx.s.skip[u.target] = True
    u.ctx.say(f"{u.name}: {seat_name(u.target)} will lose their next turn.")


def _chaos_options(o: _SkillOffer) -> None:
    o.add("Redistribute every action card")


def _chaos(u: _Used) -> None:
    s, seat = u.ctx.s, u.seat
    pool = [c for k in range(s.players) if s.role[k] != WANDERER for c in s.hands[k]]
    s.rng.shuffle(pool)
    _deal_round(s, seat, pool, s.hands)
    u.ctx.say(f"{u.name}: {seat_name(seat)} gathers all {len(pool)} action cards and deals them out.")


def _ascend_options(o: _SkillOffer) -> None:
    n = o.s.follower_draws[o.seat]
    if n:
        o.add(f"Draw {count(n, 'action card')}, as many as your Followers drew")


def _ascend(u: _Used) -> None:
    s, seat = u.ctx.s, u.seat
    n = s.follower_draws[seat]
    s.follower_draws[seat] = 0
    drawn = draw_actions(u.ctx, seat, n)
    u.ctx.say(f"{u.name}: {seat_name(seat)} draws {count(drawn, 'action card')}, as many as their "
              "Followers drew.")


@dataclass(frozen=True)
class SkillRules:
    """The rules of one skill key on its holder's own turn."""

    options: Callable[[_SkillOffer], None] | None
    """Lists its uses open now, once :func:`~.sects.can_use` allows it (None: a skill used at
    another moment — a reaction window, a war, the end — or never used)."""
    apply: Callable[[_Used], None] | None
    """Makes a use take effect (the use is already recorded)."""


_OFF_TURN = SkillRules(None, None)

SKILL_RULES: dict[str, SkillRules] = {
    "impermanence_of_life": _OFF_TURN,  # a condition checked at the end (``settle``)
    "everyone_is_equal": SkillRules(_equal_options, _equal),
    "purple_hermit": SkillRules(_hermit_options, _hermit),
    "headstronger": SkillRules(_headstronger_options, _headstronger),
    "holy_rebirth": _OFF_TURN,  # a reaction window after deaths (``new_rebirth``)
    "kaboom": SkillRules(_kaboom_options, _kaboom),
    "praise_of_life": SkillRules(_sacrifice_options("one extra action"), _praise),
    "gate_of_truth": _OFF_TURN,  # copies another skill where that one is used (``sects``)
    "eternal_truth": SkillRules(
        _sacrifice_options("mental immunity", lambda s, seat: s.imm_mental[seat]), _eternal_truth),
    "world_peace": SkillRules(
        _sacrifice_options("physical immunity", lambda s, seat: s.imm_physical[seat]), _world_peace),
    "soul_cutting_sword": SkillRules(_sword_options, _sword),
    "chaos_coming": SkillRules(_chaos_options, _chaos),
    "zombie_army": _OFF_TURN,  # a war's line-up (``combat``)
    "the_prophet": _OFF_TURN,  # a reaction window before a recruit (``push_recruit``)
    "karma_reversed": _OFF_TURN,  # a reaction window before a confrontation (``combat``)
    "ascend_with_me": SkillRules(_ascend_options, _ascend),
}
"""Skill key (``cards.json``) → its rules on its holder's own turn."""

check_table("skills", SKILL_RULES, SKILL_KEYS)

TURN_SKILLS = [key for key in SKILL_KEYS if SKILL_RULES[key].options is not None]
"""The skills used on their holder's own turn, offered in the data's order."""
