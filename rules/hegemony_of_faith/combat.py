"""Attacks and confrontations (rulebook 7-2.1, 7-2.2, 7-3.2, Q&A on defence and wars).

An attack is one frame on the stack that walks through stages:

``defence``   a reaction window (``reactions``): every member of a targeted sect holding any action
              card is asked at once, in secret, whether to play the matching defence card (Firm
              Faith against mental, Great Mercy against physical attacks); those without one can
              only pass. A sect defended by one or more of its members drops out of the attack,
              spending one card (the first such member from the Leader on). Defence is only ever
              decided here, before any believer is shown.
``effect``    Spread Rumors and Witch Hunt resolve at once; confrontations go on.
``designate`` the Leader of each sect with two or more members holding believers names the member
              who confronts for the sect.
``karma``     a reaction window: every member of a sect taking part who might use Karma Reversed is
              asked at once, in secret; each use reverses every comparison of this confrontation
              (two cancel out).
``pick``      the confronting players choose in secret and at once: one believer (Martyrdom,
              Conspiracy) or a whole line-up (Faith War, Faith Debate, the tie-break war).
``resolve``   believers are revealed and compared.

One-against-many (Herald's derivation, see the rules page): the attacker's believer X meets one
believer Y of every other sect. Martyrdom (physical): X always dies; each Y that loses or draws
dies; a Y that wins survives. Conspiracy (mental): the attacker takes each Y that X beats; a draw
returns both; if any Y beats X, X is taken by the first such defender clockwise from the attacker.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rules.engine import ECHO, Choice, IllegalAction, Prompt, fields, seat_name, shown
from rules.text import count

from . import reactions
from .cards import (
    ACTION_CARDS,
    ATTACK_KEY,
    ATTACK_NAME,
    DEFENCE_FOR,
    KARMA_REVERSED,
    ZOMBIE_ARMY,
    beats_reason,
    believers_text,
    blabel,
    bname,
    btype,
    check_table,
    compare,
    is_bonus,
    with_article,
)
from .frames import AttackFrame, SnatchFrame
from .reactions import may_react_with_cards, skill_eligible
from .sects import (
    can_use,
    kill,
    mark_used,
    members,
    sect_count,
    take_random,
    take_type,
    types_held,
)
from .state import Ctx, State


def new_attack(s: State, card: str, mode: str, by: int, side: int, targets: list[int],
               believer: int | None = None) -> AttackFrame:
    """Build the frame of an attack card played by ``by`` for sect ``side`` against ``targets``."""
    # asked from public information only: anybody holding a card might hold the shield
    defq = [[t, m] for t in targets for m in members(s, t) if may_react_with_cards(s, m)]
    f: AttackFrame = {"k": "attack", "card": card, "mode": mode, "by": by, "side": side,
                "targets": list(targets), "stage": "defence", "wait": [], "defq": defq,
                "fighters": {}, "karmaq": [], "flips": 0, "picks": {}, "showdown": False}
    if believer is not None:  # Witch Hunt: the type hunted
        f["believer"] = believer
    return f


def new_showdown(key: str, by: int, others: list[int]) -> AttackFrame:
    """A tie-break confrontation (the showdown ``key``) between candidates (no defence, no
    skills)."""
    fighters = {str(k): k for k in [by, *others]}
    return {"k": "attack", "card": ATTACK_NAME[key], "mode": "physical", "by": by, "side": by,
            "targets": list(others), "stage": "pick", "wait": sorted(fighters.values()),
            "defq": [], "fighters": fighters, "karmaq": [], "flips": 0, "picks": {},
            "showdown": True}


def is_lineup(f: AttackFrame) -> bool:
    """Whether the fighters of ``f`` send a line-up rather than one believer."""
    return rules_of(f).lineup


# ----------------------------------------------------------------------------------- prompts

def attack_prompts(s: State, f: AttackFrame) -> list[Prompt]:
    stage = f["stage"]
    out: list[Prompt] = []
    what = f"{seat_name(f['by'])}'s {f['card']}"
    for seat in f["wait"]:
        if stage == "defence":
            shield = DEFENCE_FOR[f["mode"]]
            if any(ACTION_CARDS[c] == shield for c in s.hands[seat]):
                out.append(reactions.prompt(
                    s, seat, "defend", f"{what} targets your sect. Play {shield} to cancel it? (Defence "
                    "can only be decided now, before any believer is shown.)",
                    [Choice(f"Play {shield}", {"type": "defend", "use": True})]))
            else:
                out.append(reactions.prompt(s, seat, "defend", f"{what} targets your sect. You hold no "
                                            f"{shield}, {reactions.NOTHING}.", []))
        elif stage == "designate":
            sect = seat
            ch = tuple(Choice(f"{seat_name(m)} confronts ({believers_text(len(s.believers[m]))})",
                              {"type": "designate", "member": m})
                       for m in members(s, sect) if s.believers[m])
            out.append(Prompt(seat, "designate", f"{what}: choose which member of your sect confronts.",
                              ch, timeout_note="the member with the most believers confronts"))
        elif stage == "karma":
            if can_use(s, seat, KARMA_REVERSED):
                out.append(reactions.prompt(
                    s, seat, "karma", f"{what} is about to compare believers. Use Karma Reversed to "
                    "reverse every comparison of this confrontation? (Answers stay secret until "
                    "everyone asked is in; two uses cancel out.)",
                    [Choice("Reverse the outcomes", {"type": "karma", "use": True})]))
            else:
                out.append(reactions.prompt(s, seat, "karma", f"{what} is about to compare believers. "
                                            f"You cannot reverse it, {reactions.NOTHING}.", []))
        elif stage == "pick":
            if str(seat) in f["picks"]:
                continue
            if is_lineup(f):
                out.append(lineup_prompt(s, f, seat))
            else:
                ch = tuple(Choice(f"Send {with_article(blabel(t))}", {"type": "pick", "believer": t})
                           for t in types_held(s, seat))
                out.append(Prompt(seat, "pick", f"{what}: choose in secret the believer you send.",
                                  ch, secret=True, timeout_note="the first believer listed is sent"))
    return out


def _fighter_side(f: AttackFrame, seat: int) -> str:
    return "att" if f["fighters"].get(str(f["side"])) == seat else "def"


def _opponent_count(s: State, f: AttackFrame, seat: int) -> int:
    if _fighter_side(f, seat) == "att":
        return max(len(s.believers[f["fighters"][str(t)]]) for t in f["targets"])
    return len(s.believers[f["fighters"][str(f["side"])]])


def lineup_bounds(s: State, f: AttackFrame, seat: int) -> tuple[int, int, bool]:
    """(min length, max length of own believers, zombies allowed) for ``seat``'s line-up."""
    own = len(s.believers[seat])
    if rules_of(f).war:
        zombies = (not f["showdown"] and _fighter_side(f, seat) == "att"
                   and can_use(s, seat, ZOMBIE_ARMY) and bool(s.graveyard))
        return own, own, zombies
    if _fighter_side(f, seat) == "att":
        return 1, min(5, own, _opponent_count(s, f, seat)), False
    n = min(5, own)
    return n, n, False


def ready_lineups(s: State, f: AttackFrame, seat: int) -> list[tuple[str, list[int]]]:
    _, hi, _ = lineup_bounds(s, f, seat)
    held = sorted(btype(c) for c in s.believers[seat])
    options: list[tuple[str, list[int]]] = [
        ("Ascending IDs", held[:hi]), ("Descending IDs", sorted(held, reverse=True)[:hi])]
    # alternate types: one of each in turn, so no type is spent in a row
    pools = Counter(held)
    mixed: list[int] = []
    while len(mixed) < hi:
        for t in sorted(pools):
            if pools[t] and len(mixed) < hi:
                mixed.append(t)
                pools[t] -= 1
    options.append(("Mixed types", mixed))
    for t in sorted(set(held)):
        rest = held.copy()
        rest.remove(t)
        options.append((f"Lead with {with_article(bname(t))}", [t, *rest][:hi]))
    seen: set[tuple[int, ...]] = set()
    out = []
    for label, order in options:
        if tuple(order) not in seen and order:
            seen.add(tuple(order))
            out.append((label, order))
    return out


def lineup_prompt(s: State, f: AttackFrame, seat: int) -> Prompt:
    lo, hi, zombies = lineup_bounds(s, f, seat)
    size = f"{lo}" if lo == hi else f"{lo} to {hi}"
    extra = (" Zombie Army: you may add graveyard believers as \"z<ID>\" entries." if zombies else "")
    text = (f"{seat_name(f['by'])}'s {f['card']}: give your line-up in secret, in the order your believers will "
            f"confront ({size} of your believers, by ID 1–5).{extra}")
    ch = tuple(Choice(f"{label}: {'-'.join(str(t) for t in order)}",
                      {"type": "lineup", "order": order})
               for label, order in ready_lineups(s, f, seat))
    return Prompt(seat, "lineup", text, ch, secret=True, free_form="lineup",
                  timeout_note="the first ready-made line-up is used",
                  params={"min": lo, "max": hi, "zombies": zombies})


def validate_lineup(s: State, f: AttackFrame, seat: int, action: dict[str, Any]) -> None:
    """Refuse (IllegalAction) anything but an exact line-up for ``seat``: ``{"type": "lineup",
    "order": [...]}`` and nothing more, the order holding whole-number IDs 1–5 of believers the
    seat holds (``3.0``, ``true`` or ``"3"`` are not IDs) and, with Zombie Army, ``"z<ID>"``
    entries for graveyard believers; as many of its own believers as the confrontation needs."""
    lo, hi, zombies = lineup_bounds(s, f, seat)
    usage = (f'{{"type": "lineup", "order": [IDs]}} with {lo}' + ("" if lo == hi else f"–{hi}")
             + " of your believers")
    if action["type"] != "lineup":
        raise IllegalAction(f"{shown(action)} is not a line-up; send {usage}.")
    order: list[Any] = fields(action, "a line-up", {"type": str, "order": list}, usage=usage)["order"]
    listed = shown(order, 60)
    own: list[int] = []
    dead: list[int] = []
    for e in order:
        if type(e) is int and 1 <= e <= 5:
            own.append(e)
        elif zombies and type(e) is str and len(e) == 2 and e[0] == "z" and e[1] in "12345":
            dead.append(int(e[1]))
        else:
            raise IllegalAction(f"line-up {listed}: {shown(e, 20)} is not a believer ID 1–5"
                                + (" or a graveyard entry z1–z5" if zombies else "") + ".")
    have = Counter(btype(c) for c in s.believers[seat])
    if any(Counter(own)[t] > have[t] for t in range(1, 6)):
        raise IllegalAction(f"line-up {listed} uses believers you do not hold; you hold "
                            f"{sorted(have.elements())}.")
    grave = Counter(btype(c) for c in s.graveyard)
    if any(Counter(dead)[t] > grave[t] for t in range(1, 6)):
        raise IllegalAction(f"line-up {listed} raises graveyard believers that are not there.")
    if not lo <= len(own) <= hi:
        raise IllegalAction(f"line-up {listed} has {len(own)} of your believers; it needs {lo}"
                            + ("" if lo == hi else f" to {hi}") + ".")


# ----------------------------------------------------------------------------------- answers

def attack_answer(ctx: Ctx, f: AttackFrame, seat: int, action: dict[str, Any]) -> None:
    stage = f["stage"]
    if stage in ("defence", "karma"):
        # a reaction window: the answer stays secret (in the frame) until the window resolves
        f["wait"].remove(seat)
        f["asked"] = True
        if action["use"]:
            if stage == "defence":
                f.setdefault("defenders", []).append(seat)
            else:
                f.setdefault("reversers", []).append(seat)
    elif stage == "designate":
        f["fighters"][str(seat)] = action["member"]
        f["wait"].remove(seat)
        if action["member"] != seat:
            ctx.say(f"{seat_name(seat)} sends their Follower {seat_name(action['member'])} to confront.")
    elif stage == "pick":
        if is_lineup(f):
            f["picks"][str(seat)] = list(action["order"])
        else:
            f["picks"][str(seat)] = [action["believer"]]
        f["wait"].remove(seat)
        ctx.tell(seat, "Your choice is locked in.", kind=ECHO)
        ctx.say(f"{seat_name(seat)} has chosen in secret.")


# ------------------------------------------------------------------------------------- steps

def attack_step(ctx: Ctx, f: AttackFrame) -> bool:
    """Advance an attack whose current stage needs nobody. Returns False when the frame is done."""
    s = ctx.s
    stage = f["stage"]
    if stage == "defence":
        if f["defq"] and not f.get("asked"):
            f["asked"] = True
            f["wait"] = sorted({m for _, m in f["defq"]})
            return True
        _defend(ctx, f)
        f["stage"] = "effect"
        return True
    if stage == "effect":
        return _effect(ctx, f)
    if stage == "designate":
        taking_part = [m for sect in [f["side"], *f["targets"]] for m in members(s, sect)]
        f["karmaq"] = skill_eligible(s, taking_part, KARMA_REVERSED)
        f["wait"] = list(f["karmaq"])
        f["stage"] = "karma"
        return True
    if stage == "karma":
        _reverse(ctx, f)
        return True
    if stage == "pick":
        rules_of(f).resolve(ctx, f)
        return False
    raise AssertionError(stage)


def _effect(ctx: Ctx, f: AttackFrame) -> bool:
    """After the defence: an attack on nobody ends, one that strikes at once takes effect, and a
    confrontation asks each sect with several members holding believers who confronts for it
    (False when the frame is done)."""
    s = ctx.s
    rules = rules_of(f)
    f["targets"] = [t for t in f["targets"] if sect_count(s, t) > 0 or rules.strikes_empty]
    if not f["targets"]:
        ctx.say(f"{f['card']} finds nobody to strike.")
        return False
    if rules.at_once:
        rules.resolve(ctx, f)
        return False
    waiting = []
    for sect in [f["side"], *f["targets"]]:
        able = [m for m in members(s, sect) if s.believers[m]]
        if len(able) == 1:
            f["fighters"][str(sect)] = able[0]
        elif len(able) > 1:
            waiting.append(sect)
    f["wait"] = waiting
    f["stage"] = "designate"
    return True


def _reverse(ctx: Ctx, f: AttackFrame) -> None:
    """Close the Karma Reversed window (each use, in seat order, flips every comparison) and
    ask the fighters for their picks."""
    s = ctx.s
    for seat in sorted(f.get("reversers", [])):
        if can_use(s, seat, KARMA_REVERSED):
            mark_used(ctx, seat, KARMA_REVERSED)
            f["flips"] += 1
            ctx.say(f"{seat_name(seat)} uses Karma Reversed: every comparison of this {f['card']} is reversed.")
    f["reversers"] = []
    f["stage"] = "pick"
    f["wait"] = sorted(set(f["fighters"].values()))


def _defend(ctx: Ctx, f: AttackFrame) -> None:
    """Resolve the defence window: each sect with a member who chose to defend (and still holds
    the card) is safe; one card per sect is spent, the first such member's from the Leader on."""
    s = ctx.s
    shield = DEFENCE_FOR[f["mode"]]
    chose = f.get("defenders", [])
    for sect, member in f["defq"]:
        if member not in chose or sect not in f["targets"]:
            continue
        cards = [c for c in s.hands[member] if ACTION_CARDS[c] == shield]
        if not cards:
            continue
        card = min(cards)
        s.hands[member].remove(card)
        s.action_discard.append(card)
        f["targets"].remove(sect)
        ctx.say(f"{seat_name(member)} plays {shield}: {seat_name(sect)}'s sect is safe from {f['card']}.")
    f["defq"] = []
    f["defenders"] = []


def _spread_rumors(ctx: Ctx, f: AttackFrame) -> None:
    s = ctx.s
    by = f["by"]
    for t in f["targets"]:
        for m in members(s, t):
            got = take_random(s, m, 1)
            if got:
                s.believers[by].extend(got)
                ctx.say(f"{seat_name(by)} lures a believer away from {seat_name(m)}.")
                ctx.tell(by, f"You take {with_article(blabel(btype(got[0])))} from {seat_name(m)}.")
                ctx.tell(m, f"{seat_name(by)} takes your {blabel(btype(got[0]))}.")


def _witch_hunt(ctx: Ctx, f: AttackFrame) -> None:
    s = ctx.s
    t = f["believer"]
    for sect in f["targets"]:
        total = 0
        for m in members(s, sect):
            dead = [c for c in s.believers[m] if btype(c) == t]
            for c in dead:
                s.believers[m].remove(c)
            kill(s, m, dead)
            total += len(dead)
        ctx.say(f"Witch Hunt: {count(total, bname(t))} of {seat_name(sect)}'s sect {'dies' if total == 1 else 'die'}.")


def _war_or_debate_sides(f: AttackFrame) -> tuple[int, int]:
    att = int(f["fighters"][str(f["side"])])
    dfd = int(f["fighters"][str(f["targets"][0])])
    return att, dfd


def _war(ctx: Ctx, f: AttackFrame) -> None:
    s = ctx.s
    att, dfd = _war_or_debate_sides(f)
    a_order: list[Any] = f["picks"][str(att)]
    d_order: list[int] = f["picks"][str(dfd)]
    n = min(len(a_order), len(d_order))
    rev = f["flips"] % 2 == 1
    bonus_ok = rules_of(f).bonus
    ctx.say(f"{f['card']}: {seat_name(att)} and {seat_name(dfd)} send {count(n, 'pair')} of believers.")
    for i in range(n):
        a_e, d_t = a_order[i], d_order[i]
        zombie = isinstance(a_e, str)
        a_t = int(a_e[1]) if zombie else int(a_e)
        if zombie:
            a_card = min(c for c in s.graveyard if btype(c) == a_t)
            s.graveyard.remove(a_card)
        else:
            a_card = take_type(s, att, a_t)
        d_card = take_type(s, dfd, d_t)
        r = compare(a_t, d_t, rev)
        who = f"{seat_name(att)}'s {'zombie ' if zombie else ''}{blabel(a_t)} vs {seat_name(dfd)}'s {blabel(d_t)}"
        if r == 0:
            _bury(s, att, a_card, zombie)
            kill(s, dfd, [d_card])
            ctx.say(f"{who}: a draw, both die.")
            continue
        win_seat, win_card, lose_seat, lose_card = (
            (att, a_card, dfd, d_card) if r > 0 else (dfd, d_card, att, a_card))
        if win_seat == att and zombie:
            s.removed.append(a_card)
        else:
            s.believers[win_seat].append(win_card)
        if lose_seat == att and zombie:
            s.removed.append(a_card)
        else:
            kill(s, lose_seat, [lose_card])
        won_t, lost_t = (a_t, d_t) if r > 0 else (d_t, a_t)
        text = f"{who}: {seat_name(win_seat)} wins ({beats_reason(won_t, lost_t, rev)})"
        # an adjacent pair earns the bonus; with Karma Reversed it goes to the reversed winner
        bonus = is_bonus(a_t, d_t) or is_bonus(d_t, a_t)
        if bonus and bonus_ok:
            if s.believer_deck:
                s.believers[win_seat].append(s.believer_deck.pop())
                text += " and recruits a bonus believer"
            else:
                text += " (no bonus: the believer deck is empty)"
        ctx.say(text + ".")


def _bury(s: State, seat: int, card: int, zombie: bool) -> None:
    if zombie:
        s.removed.append(card)
    else:
        kill(s, seat, [card])


def _debate(ctx: Ctx, f: AttackFrame) -> None:
    """Compare the debaters pair by pair. The rulebook's winner "can snatch" the loser's
    believer: nothing changes hands here; a ``snatch`` frame asks each winner what to take."""
    s = ctx.s
    att, dfd = _war_or_debate_sides(f)
    a_order: list[int] = f["picks"][str(att)]
    d_order: list[int] = f["picks"][str(dfd)]
    n = min(len(a_order), len(d_order))
    rev = f["flips"] % 2 == 1
    a_cards = _lineup_cards(s, att, a_order[:n])
    d_cards = _lineup_cards(s, dfd, d_order[:n])
    ctx.say(f"Faith Debate: {seat_name(att)} and {seat_name(dfd)} hold {count(n, 'debate')}.")
    wins: dict[str, list[list[int]]] = {}
    for i in range(n):
        a_t, d_t = a_order[i], d_order[i]
        r = compare(a_t, d_t, rev)
        who = f"{seat_name(att)}'s {blabel(a_t)} vs {seat_name(dfd)}'s {blabel(d_t)}"
        if r == 0:
            ctx.say(f"{who}: a draw, both go home.")
            continue
        win, lose, card = (att, dfd, d_cards[i]) if r > 0 else (dfd, att, a_cards[i])
        won_t, lost_t = (a_t, d_t) if r > 0 else (d_t, a_t)
        ctx.say(f"{who}: {seat_name(win)} wins the debate ({beats_reason(won_t, lost_t, rev)}).")
        wins.setdefault(str(win), []).append([lose, card])
    if wins:
        s.stack.append({"k": "snatch", "wait": sorted(int(k) for k in wins), "wins": wins})


def _lineup_cards(s: State, seat: int, order: list[int]) -> list[int]:
    """The seat's believer cards for a line-up of types, one distinct card per entry."""
    pool = sorted(s.believers[seat])
    out = []
    for t in order:
        card = next(c for c in pool if btype(c) == t)
        pool.remove(card)
        out.append(card)
    return out


# ---------------------------------------------------------------------- the debate's spoils

def snatch_prompts(s: State, f: SnatchFrame) -> list[Prompt]:
    """Each winner of a debate decides, win by win, whether to snatch the losing believer; the
    first choices settle the current win and every later one at once (one click, usually)."""
    out = []
    for seat in f["wait"]:
        todo = f["wins"][str(seat)]
        lose, card = todo[0]
        t = btype(card)
        more = len(todo) - 1
        text = f"Faith Debate: you beat {seat_name(lose)}'s {blabel(t)}. Snatch it into your flock?"
        ch: list[Choice] = []
        if more:
            text += f" You won {count(more, 'more debate')} after this one."
            ch += [Choice(f"Snatch all {more + 1}", {"type": "snatch", "take": True, "rest": True},
                          description="Take this believer and every one you won after it."),
                   Choice(f"Leave all {more + 1}", {"type": "snatch", "take": False, "rest": True},
                          description="The losers of all your debates stay where they are.")]
        ch += [Choice(f"Snatch the {bname(t)}", {"type": "snatch", "take": True, "rest": not more},
                      description=f"It joins your flock{'; then decide the next win' if more else ''}."),
               Choice(f"Leave the {bname(t)}", {"type": "snatch", "take": False, "rest": not more},
                      description=f"It stays with {seat_name(lose)}{'; then decide the next win' if more else ''}.")]
        out.append(Prompt(seat, "snatch", text, tuple(ch), timeout_note="you snatch every believer you won"))
    return out


def snatch_answer(ctx: Ctx, f: SnatchFrame, seat: int, action: dict[str, Any]) -> None:
    s = ctx.s
    todo: list[list[int]] = f["wins"][str(seat)]
    n = len(todo) if action["rest"] else 1
    for lose, card in todo[:n]:
        what = f"{seat_name(lose)}'s {blabel(btype(card))}"
        if action["take"] and card in s.believers[lose]:
            s.believers[lose].remove(card)
            s.believers[seat].append(card)
            ctx.say(f"{seat_name(seat)} snatches {what}.")
        else:
            ctx.say(f"{seat_name(seat)} leaves {what} where it is.")
    del todo[:n]
    if not todo:
        f["wait"].remove(seat)


def _one_against_many(ctx: Ctx, f: AttackFrame) -> None:
    s = ctx.s
    att = int(f["fighters"][str(f["side"])])
    x_t = int(f["picks"][str(att)][0])
    rev = f["flips"] % 2 == 1
    physical = f["mode"] == "physical"
    x_card = take_type(s, att, x_t)
    ctx.say(f"{f['card']}: {seat_name(att)} sends {with_article(blabel(x_t))}.")
    # clockwise from the attacker
    order = sorted(f["targets"], key=lambda t: (int(f["fighters"][str(t)]) - att) % s.players)
    x_taker: int | None = None
    for sect in order:
        seat = int(f["fighters"][str(sect)])
        y_t = int(f["picks"][str(seat)][0])
        r = compare(x_t, y_t, rev)
        who = f"{seat_name(seat)}'s {blabel(y_t)}"
        if physical:
            if r >= 0:
                kill(s, seat, [take_type(s, seat, y_t)])
                ctx.say(f"{who} {'draws' if r == 0 else 'loses'} and dies.")
            else:
                ctx.say(f"{who} wins and survives.")
        else:
            if r > 0:
                s.believers[att].append(take_type(s, seat, y_t))
                ctx.say(f"{who} loses and is taken by {seat_name(att)}.")
            elif r == 0:
                ctx.say(f"{who} draws; both go home.")
            else:
                ctx.say(f"{who} wins.")
                if x_taker is None:
                    x_taker = seat
    if physical:
        kill(s, att, [x_card])
        ctx.say(f"{seat_name(att)}'s martyr dies.")
    elif x_taker is not None:
        s.believers[x_taker].append(x_card)
        ctx.say(f"{seat_name(x_taker)} takes {seat_name(att)}'s {blabel(x_t)}.")
    else:
        s.believers[att].append(x_card)


# ----------------------------------------------------------------------------- the table

@dataclass(frozen=True)
class Attack:
    """The rules of one attack key (an attack card's, or a tie-break showdown's)."""

    resolve: Callable[[Ctx, AttackFrame], None]
    """Makes the attack take effect: at once after the defence (``at_once``), or once the
    fighters have chosen their believers."""
    at_once: bool = False
    """It strikes the targeted sects directly, with no confrontation."""
    strikes_empty: bool = False
    """A targeted sect without believers stays targeted (the hunt is named all the same)."""
    lineup: bool = False
    """The fighters send a line-up, not one believer."""
    war: bool = False
    """A war's line-up: every believer of the fighter (Zombie Army may add to the attacker's)."""
    bonus: bool = False
    """Beating the type just below earns a bonus believer from the deck."""


ATTACKS: dict[str, Attack] = {
    "spread_rumors": Attack(_spread_rumors, at_once=True),
    "witch_hunt": Attack(_witch_hunt, at_once=True, strikes_empty=True),
    "faith_debate": Attack(_debate, lineup=True),
    "faith_war": Attack(_war, lineup=True, war=True, bonus=True),
    "showdown_war": Attack(_war, lineup=True, war=True),
    "conspiracy": Attack(_one_against_many),
    "martyrdom": Attack(_one_against_many),
    "showdown_martyrdom": Attack(_one_against_many),
}
"""Attack key (``cards.json``: the physical and mental action cards, and the showdowns) → its
rules. Whether a one-against-many confrontation kills or converts is the frame's ``mode``."""

check_table("attacks", ATTACKS, ATTACK_KEY.values())


def rules_of(f: AttackFrame) -> Attack:
    """The rules of the attack ``f`` (its ``card`` is the name of an attack card or showdown)."""
    return ATTACKS[ATTACK_KEY[f["card"]]]
