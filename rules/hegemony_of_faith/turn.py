"""A player's turn (rulebook 4-2): draw phase, action phase, end of turn; the action cards' and the
skills' effects (7-2, 7-4); a Wanderer's turn (6-3.1, 6-3.2).

Action kinds: strategy, physical attack, mental attack, discard — at most two actions a turn and
never the same kind twice (Praise of Life adds one unrestricted action; Everyone is Equal uses up
both). Defence cards are never played on one's own turn; they answer attacks (``combat``).
"""

from __future__ import annotations

from typing import Any

from rules.engine import Choice, Prompt, seat_name
from rules.text import count

from . import reactions
from .cards import (
    ACTION_CARDS,
    ACTION_KIND,
    BELIEVER_NAMES,
    DISCARD,
    MENTAL,
    PHYSICAL,
    STRATEGY,
    believers_text,
    blabel,
    btype,
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
    skill_name,
    take_action_card,
    take_random,
    take_type,
    types_held,
)
from .state import FOLLOWER, LEADER, WANDERER, Ctx, State

TURN_SKILLS = ("Everyone is Equal", "Purple Hermit", "Headstronger", "KABOOM!", "Praise of Life",
               "Eternal Truth", "World Peace", "Soul-Cutting Sword", "Chaos Coming", "Ascend with Me")


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
            mark_used(ctx, seat, "Ascend with Me")
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


def card_options(s: State, seat: int, name: str) -> list[tuple[str, dict[str, Any]]]:
    """(label, action) for every legal way to play the action card ``name`` now."""
    base: dict[str, Any] = {"type": "play", "card": name}
    mine = sect_of(s, seat)
    assert mine is not None
    my_count = sect_count(s, mine)
    out: list[tuple[str, dict[str, Any]]] = []

    def tgt(label: str, target: int, **more: Any) -> None:
        out.append((label, {**base, "target": target, **more}))

    if name == "Have a Charity":
        if s.believer_deck:
            out.append(("Recruit two believers", base))
    elif name == "Info-Spy":
        for k in _others(s, seat):
            tgt(f"Spy on {seat_name(k)}", k)
    elif name == "It's a Miracle":
        if s.graveyard:
            out.append(("Revive the top three of the graveyard", base))
    elif name == "Divine Inspiration":
        if len(s.hands[seat]) >= 2 and s.believer_deck:
            out.append(("Trade action cards for believers", base))
    elif name == "Secret Alliance":
        if len(s.hands[seat]) >= 2:
            for k in _others(s, seat):
                if s.hands[k]:
                    tgt(f"Exchange a card with {seat_name(k)}", k)
    elif name == "Breaking Faith":
        if s.role[seat] == LEADER:
            for fl in followers(s, seat):
                tgt(f"Cast out {seat_name(fl)}", fl)
        elif s.role[seat] == FOLLOWER and s.leader[seat] is not None:
            tgt(f"Break away from {seat_name(mine)}", mine)
    elif name == "Kowtow to Me":
        for lead in _other_sects(s, seat):
            if sect_count(s, lead) <= my_count // 2:
                tgt(f"Absorb {seat_name(lead)}'s sect ({believers_text(sect_count(s, lead))})", lead)
    elif name in ("Spread Rumors", "Faith Debate", "Witch Hunt", "Faith War"):
        mode = ACTION_KIND[name]
        if name in ("Faith Debate", "Faith War") and my_count == 0:
            return out
        for lead in _other_sects(s, seat):
            if sect_immune(s, lead, mode) or sect_count(s, lead) == 0:
                continue
            if name == "Witch Hunt":
                for t in range(1, 6):
                    tgt(f"{seat_name(lead)}'s sect: {BELIEVER_NAMES[t]}s", lead, believer=t)
            else:
                tgt(f"{seat_name(lead)}'s sect ({believers_text(sect_count(s, lead))})", lead)
    elif name in ("Conspiracy", "Martyrdom"):
        mode = ACTION_KIND[name]
        if my_count and any(not sect_immune(s, lead, mode) and sect_count(s, lead)
                            for lead in _other_sects(s, seat)):
            out.append(("Against every other sect", base))
    return out


def skill_options(s: State, seat: int) -> list[tuple[str, str, dict[str, Any]]]:
    """(skill, label, action) for every skill use open to ``seat`` on its own turn."""
    out: list[tuple[str, str, dict[str, Any]]] = []
    own = types_held(s, seat)
    for name in TURN_SKILLS:
        if not can_use(s, seat, name):
            continue
        base: dict[str, Any] = {"type": "skill", "skill": name}
        if name == "Everyone is Equal":
            if not s.used_kinds and s.extra == 0:
                out.append((name, "Redistribute every believer", base))
        elif name == "Purple Hermit":
            # copied with Gate of Truth it is only this: no second half, no leaving the sect
            copy = "" if skill_name(s, seat) == name else " (Gate of Truth copy: once, you stay)"
            out.append((name, "Take half of your Leader's believers" + copy, base))
        elif name == "Ascend with Me":
            n = s.follower_draws[seat]
            if n:
                out.append((name, f"Draw {count(n, 'action card')}, as many as your Followers drew",
                            base))
        elif name == "Headstronger":
            if followers(s, seat):
                out.append((name, "Take half from every Follower and cast them out", base))
        elif name == "KABOOM!":
            if not s.no_attack and not ({PHYSICAL, MENTAL} & set(s.used_kinds)):
                for k in _others(s, seat):
                    if s.believers[k]:
                        for t in own:
                            out.append((name, f"Destroy 3 of {seat_name(k)}'s (sacrifice {with_article(BELIEVER_NAMES[t])})",
                                        {**base, "target": k, "sacrifice": t}))
        elif name in ("Praise of Life", "Eternal Truth", "World Peace"):
            if name == "Eternal Truth" and s.imm_mental[seat]:
                continue
            if name == "World Peace" and s.imm_physical[seat]:
                continue
            what = {"Praise of Life": "one extra action", "Eternal Truth": "mental immunity",
                    "World Peace": "physical immunity"}[name]
            for t in own:
                out.append((name, f"{what.capitalize()} (sacrifice {with_article(BELIEVER_NAMES[t])})",
                            {**base, "sacrifice": t}))
        elif name == "Soul-Cutting Sword":
            for k in _others(s, seat):
                if not s.skip[k]:
                    out.append((name, f"{seat_name(k)} loses their next turn", {**base, "target": k}))
        elif name == "Chaos Coming":
            out.append((name, "Redistribute every action card", base))
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
    if name == "Have a Charity":
        push_recruit(s, seat, 2, "Have a Charity")
    elif name == "Info-Spy":
        assert isinstance(target, int)
        acts = sorted(ACTION_CARDS[c] for c in s.hands[target])
        bels = sorted(btype(c) for c in s.believers[target])
        s.intel[seat] = {"of": target, "turn": s.turn_no, "actions": acts, "believers": bels}
        ctx.tell(seat, f"{seat_name(target)} holds actions: {', '.join(acts) or 'none'}; believers: "
                 f"{', '.join(blabel(b) for b in bels) or 'none'}.")
    elif name == "It's a Miracle":
        got = [s.graveyard.pop() for _ in range(min(3, len(s.graveyard)))]
        s.believers[seat].extend(got)
        ctx.say(f"{seat_name(seat)} revives {believers_text(len(got))}: "
                f"{', '.join(blabel(btype(c)) for c in got)}.")
    elif name == "Divine Inspiration":
        s.stack.append({"k": "discard", "wait": [seat], "seat": seat, "purpose": "inspire", "n": 0})
    elif name == "Secret Alliance":
        assert isinstance(target, int)
        s.stack.append({"k": "alliance", "wait": [seat, target], "a": seat, "t": target, "give": {}})
    elif name == "Breaking Faith":
        assert isinstance(target, int)
        mode = "expel" if s.role[seat] == LEADER else "leave"
        # a reaction window: asked whenever they hold a card at all (public), not only a Breaking Faith
        s.stack.append({"k": "bf", "wait": [target] if may_react_with_cards(s, target) else [],
                        "by": seat, "t": target, "mode": mode, "countered": False})
    elif name == "Kowtow to Me":
        assert isinstance(target, int)
        absorbed = members(s, target)
        for m in absorbed:
            make_follower(ctx, m, side)
        ctx.say(f"{', '.join(seat_name(m) for m in absorbed)} {'bows' if len(absorbed) == 1 else 'bow'} to {seat_name(side)} and "
                f"{'joins' if len(absorbed) == 1 else 'join'} the sect as {'a Follower' if len(absorbed) == 1 else 'Followers'}.")
    elif name in ("Spread Rumors", "Faith Debate", "Witch Hunt", "Faith War"):
        assert isinstance(target, int)
        hunted: int | None = None
        if name == "Witch Hunt":
            hunted = action["believer"]
            ctx.say(f"The hunt is for {BELIEVER_NAMES[action['believer']]}s.")
        s.stack.append(new_attack(s, name, kind, seat, side, [target], believer=hunted))
    elif name in ("Conspiracy", "Martyrdom"):
        targets = [lead for lead in _other_sects(s, seat)
                   if not sect_immune(s, lead, kind) and sect_count(s, lead)]
        s.stack.append(new_attack(s, name, kind, seat, side, targets))


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
    s = ctx.s
    name = action["skill"]
    mark_used(ctx, seat, name)
    target = action.get("target")
    if name == "Everyone is Equal":
        s.used_kinds = ["skill", "skill*"]
        pool = [c for k in range(s.players) if s.role[k] != WANDERER for c in s.believers[k]]
        s.rng.shuffle(pool)
        _deal_round(s, seat, pool, s.believers)
        ctx.say(f"Everyone is Equal: {seat_name(seat)} gathers all {len(pool)} believers and deals them out.")
    elif name == "Chaos Coming":
        pool = [c for k in range(s.players) if s.role[k] != WANDERER for c in s.hands[k]]
        s.rng.shuffle(pool)
        _deal_round(s, seat, pool, s.hands)
        ctx.say(f"Chaos Coming: {seat_name(seat)} gathers all {len(pool)} action cards and deals them out.")
    elif name == "Purple Hermit":
        lead = s.leader[seat]
        assert lead is not None
        got = take_random(s, lead, len(s.believers[lead]) // 2)
        s.believers[seat].extend(got)
        # the second half and the Breaking Faith-like exit are not copied by Gate of Truth (7-4)
        s.hermit[seat] = skill_name(s, seat) == name
        ctx.say(f"Purple Hermit: {seat_name(seat)} takes {believers_text(len(got))} from their Leader {seat_name(lead)}.")
    elif name == "Ascend with Me":
        n = s.follower_draws[seat]
        s.follower_draws[seat] = 0
        drawn = draw_actions(ctx, seat, n)
        ctx.say(f"Ascend with Me: {seat_name(seat)} draws {count(drawn, 'action card')}, as many as their Followers drew.")
    elif name == "Headstronger":
        for fl in followers(s, seat):
            got = take_random(s, fl, len(s.believers[fl]) // 2)
            s.believers[seat].extend(got)
            make_independent(ctx, fl)
            ctx.say(f"Headstronger: {seat_name(seat)} takes {believers_text(len(got))} from {seat_name(fl)} and casts them out.")
    elif name == "KABOOM!":
        assert isinstance(target, int)
        _sacrifice(ctx, seat, action["sacrifice"])
        dead = take_random(s, target, 3)
        kill(s, target, dead)
        s.no_attack = True
        ctx.say(f"KABOOM! {len(dead)} of {seat_name(target)}'s believers are destroyed.")
    elif name == "Praise of Life":
        _sacrifice(ctx, seat, action["sacrifice"])
        s.extra += 1
        ctx.say(f"Praise of Life: {seat_name(seat)} gains one extra action this turn.")
    elif name == "Eternal Truth":
        _sacrifice(ctx, seat, action["sacrifice"])
        s.imm_mental[seat] = True
        ctx.say(f"Eternal Truth: {seat_name(seat)}'s sect ignores mental attacks until their next turn.")
    elif name == "World Peace":
        _sacrifice(ctx, seat, action["sacrifice"])
        s.imm_physical[seat] = True
        ctx.say(f"World Peace: {seat_name(seat)}'s sect ignores physical attacks until their next turn.")
    elif name == "Soul-Cutting Sword":
        assert isinstance(target, int)
        s.skip[target] = True
        ctx.say(f"Soul-Cutting Sword: {seat_name(target)} will lose their next turn.")


# ------------------------------------------------------------------------- recruiting (Prophet)

def prophets(s: State, drawer: int) -> list[int]:
    """The seats asked before ``drawer`` recruits: every other seat that might, as far as the
    table knows, use The Prophet (a reaction window, see ``reactions``)."""
    return skill_eligible(s, [k for k in range(s.players) if k != drawer], "The Prophet")


def push_recruit(s: State, seat: int, n: int, why: str) -> None:
    """Recruit ``n`` believers from the deck; The Prophet may first name a type."""
    s.stack.append({"k": "prophet", "wait": prophets(s, seat), "drawer": seat, "n": n,
                    "why": why, "preds": {}})


def prophet_prompts(s: State, f: ProphetFrame) -> list[Prompt]:
    out = []
    for k in f["wait"]:
        what = f"{seat_name(f['drawer'])} recruits {believers_text(f['n'])} ({f['why']})."
        if can_use(s, k, "The Prophet"):
            which = "first" if skill_name(s, k) == "The Prophet" else "second"
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
        if can_use(s, int(k_str), "The Prophet"):
            mark_used(ctx, int(k_str), "The Prophet")
            ctx.say(f"{seat_name(int(k_str))} prophesies: {with_article(blabel(t))}.")
        else:
            del f["preds"][k_str]
    drawn = [s.believer_deck.pop() for _ in range(min(f["n"], len(s.believer_deck)))]
    for k_str, t in f["preds"].items():
        k = int(k_str)
        idx = 0 if skill_name(s, k) == "The Prophet" else 1
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
        push_recruit(s, seat, f["n"], "Divine Inspiration")


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
    if any(ACTION_CARDS[c] == "Breaking Faith" for c in s.hands[t]):
        return [reactions.prompt(s, t, "counter", f"{what} Answer with your own Breaking Faith so they "
                                 "take only one believer?",
                                 [Choice("Counter with Breaking Faith", {"type": "counter", "use": True})])]
    return [reactions.prompt(s, t, "counter", f"{what} You hold no Breaking Faith, {reactions.NOTHING}.", [])]


def bf_answer(ctx: Ctx, f: BreakingFaithFrame, seat: int, action: dict[str, Any]) -> None:
    s = ctx.s
    f["wait"] = []
    if action["use"]:
        s.action_discard.append(take_action_card(s, seat, "Breaking Faith"))
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
    asked = skill_eligible(s, [k for k, n in dead.items() if n >= 3], "Holy Rebirth")
    if not asked:
        return None
    return {"k": "rebirth", "wait": asked, "dead": {str(k): dead[k] for k in asked}, "use": []}


def rebirth_prompts(s: State, f: RebirthFrame) -> list[Prompt]:
    out = []
    for seat in f["wait"]:
        dead = f["dead"][str(seat)] if isinstance(f["dead"], dict) else f["dead"]
        what = f"{dead} of your believers died at once."
        if can_use(s, seat, "Holy Rebirth"):
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
        if not can_use(s, k, "Holy Rebirth") or not s.graveyard:
            continue
        mark_used(ctx, k, "Holy Rebirth")
        got = [s.graveyard.pop() for _ in range(min(3, len(s.graveyard)))]
        s.believers[k].extend(got)
        ctx.say(f"Holy Rebirth: {seat_name(k)} revives {', '.join(blabel(btype(c)) for c in got)}.")
