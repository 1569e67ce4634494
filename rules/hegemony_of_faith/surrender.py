"""Surrender, Followers and the end of a turn (rulebook 4-2 end of turn, 6-1, 6-2, 6-2.1, 6-3).

``surrender`` frame: every Leader holding a believer declares at once whether they would take the
failed player in; the failed player then picks one of the willing Leaders (or becomes a Wanderer if
nobody is willing) and that Leader gives them one believer of their choice. After a reversal of
stance the frame starts at ``offer``: the new Leader alone decides whether to take the old Leader
in, and only a refusal sends the old Leader to the other Leaders.
``keep`` frame: a Follower who ends a turn with no believers — their Leader reconsiders, and either
gives a believer or releases them to surrender elsewhere.
``housekeeping`` runs between actions: Holy Rebirth offers (a reaction window, before anything
else), reversal of sect stance (a Leader with Followers and no believers), Unification.
"""

from __future__ import annotations

from typing import Any

from rules.engine import Choice, Prompt, seat_name

from .cards import believers_text, blabel, btype, with_article
from .frames import EndTurnFrame, KeepFrame, SurrenderFrame
from .sects import (
    break_impermanence,
    followers,
    hand_limit,
    leaders,
    make_follower,
    make_independent,
    make_wanderer,
    sect_count,
    take_type,
    types_held,
    unification,
)
from .state import FOLLOWER, LEADER, WANDERER, Ctx, State
from .turn import new_rebirth


def new_surrender(s: State, seat: int, exclude: list[int],
                  offer: int | None = None) -> SurrenderFrame:
    """A surrender of ``seat``. ``offer``: after a reversal of stance (6-2.1) the new Leader of
    the old Leader's sect decides first, alone, whether to take the old Leader in; only if they
    decline do the other Leaders declare."""
    return {"k": "surrender", "seat": seat, "exclude": list(exclude),
            "stage": "ask" if offer is None else "offer", "offer": offer,
            "wait": [] if offer is None else [offer], "willing": [], "asked": False, "joined": None}


def _eligible(s: State, f: SurrenderFrame) -> list[int]:
    return [k for k in leaders(s) if k != f["seat"] and k not in f["exclude"] and s.believers[k]]


def surrender_prompts(s: State, f: SurrenderFrame) -> list[Prompt]:
    seat = f["seat"]
    out = []
    if f["stage"] == "offer":
        new = f["offer"]
        assert new is not None
        out.append(Prompt(new, "accept", f"You now lead {seat_name(seat)}'s former sect. Will you take "
                          f"{seat_name(seat)} in as your Follower (you must then give them one believer)?",
                          (Choice(f"Accept {seat_name(seat)}", {"type": "accept", "use": True},
                                  description="They join your sect; you give them one believer."),
                           Choice("Decline", {"type": "accept", "use": False},
                                  description="They must surrender to another sect, or wander.")),
                          timeout_note="you decline"))
    elif f["stage"] == "ask":
        for k in f["wait"]:
            out.append(Prompt(k, "accept", f"{seat_name(seat)} has no believers left and must surrender. Would you "
                              "take them in as a Follower (you must then give them one believer)?",
                              (Choice(f"Accept {seat_name(seat)}", {"type": "accept", "use": True}),
                               Choice("Decline", {"type": "accept", "use": False})),
                              timeout_note="you decline"))
    elif f["stage"] == "choose":
        ch = tuple(Choice(f"Join {seat_name(k)}'s sect ({believers_text(sect_count(s, k))})",
                          {"type": "join", "leader": k})
                   for k in sorted(f["willing"], key=lambda k: (-sect_count(s, k), k)))
        out.append(Prompt(seat, "surrender", "Choose the sect you surrender to as a Follower.", ch,
                          timeout_note="you join the largest willing sect"))
    elif f["stage"] == "gift":
        lead = f["joined"]
        assert lead is not None
        ch = tuple(Choice(f"Give {with_article(blabel(t))}", {"type": "gift", "believer": t})
                   for t in types_held(s, lead))
        out.append(Prompt(lead, "gift", f"{seat_name(seat)} joins your sect: give them one believer.", ch,
                          secret=True, timeout_note="the first believer listed is given"))
    return out


def surrender_answer(ctx: Ctx, f: SurrenderFrame, seat: int, action: dict[str, Any]) -> None:
    s = ctx.s
    if f["stage"] == "offer":
        f["wait"] = []
        if action["use"]:
            ctx.say(f"{seat_name(seat)}, the new Leader, accepts {seat_name(f['seat'])}.")
            f["stage"] = "choose"
            surrender_answer(ctx, f, f["seat"], {"type": "join", "leader": seat})
        else:
            ctx.say(f"{seat_name(seat)}, the new Leader, will not take {seat_name(f['seat'])} in.")
            f["exclude"].append(seat)
            f["stage"] = "ask"
    elif f["stage"] == "ask":
        f["wait"].remove(seat)
        if action["use"]:
            f["willing"].append(seat)
        ctx.say(f"{seat_name(seat)} {'would accept' if action['use'] else 'declines'} {seat_name(f['seat'])}.")
    elif f["stage"] == "choose":
        lead = action["leader"]
        f["joined"] = lead
        f["wait"] = []
        make_follower(ctx, f["seat"], lead)
        ctx.say(f"{seat_name(f['seat'])} surrenders to {seat_name(lead)}, hands over the Leader token and becomes a Follower.")
        f["stage"] = "gift"
    elif f["stage"] == "gift":
        card = take_type(s, seat, action["believer"])
        s.believers[f["seat"]].append(card)
        f["wait"] = []
        f["stage"] = "done"
        ctx.say(f"{seat_name(seat)} gives {seat_name(f['seat'])} a believer to seal the alliance.")
        ctx.tell(f["seat"], f"Your Leader gives you {with_article(blabel(btype(card)))}.")


def surrender_step(ctx: Ctx, f: SurrenderFrame) -> bool:
    """Advance; False when the frame is finished."""
    s = ctx.s
    if f["stage"] == "ask":
        if not f["asked"]:
            f["asked"] = True
            f["wait"] = _eligible(s, f)
            if f["wait"]:
                return True
        willing = [k for k in f["willing"] if s.role[k] == LEADER and s.believers[k]]
        if not willing:
            make_wanderer(ctx, f["seat"])
            return False
        f["willing"] = willing
        f["stage"] = "choose"
        f["wait"] = [f["seat"]]
        return True
    if f["stage"] == "gift":
        lead = f["joined"]
        assert lead is not None
        if s.believers[lead]:
            f["wait"] = [lead]
            return True
        return False
    return False


# ------------------------------------------------------------------------------------ keep

def keep_prompts(s: State, f: KeepFrame) -> list[Prompt]:
    lead, fl = f["leader"], f["seat"]
    ch = [Choice(f"Keep {seat_name(fl)}: give {with_article(blabel(t))}", {"type": "keep", "believer": t})
          for t in types_held(s, lead)]
    ch.append(Choice(f"Release {seat_name(fl)}", {"type": "keep", "believer": 0}))
    return [Prompt(lead, "keep", f"Your Follower {seat_name(fl)} ended their turn with no believers. Keep them "
                   "(give one believer) or release them to find another sect?", tuple(ch),
                   secret=True, timeout_note="you keep them and give the first believer listed")]


def keep_answer(ctx: Ctx, f: KeepFrame, seat: int, action: dict[str, Any]) -> None:
    s = ctx.s
    f["wait"] = []
    fl = f["seat"]
    if action["believer"]:
        s.believers[fl].append(take_type(s, seat, action["believer"]))
        ctx.say(f"{seat_name(seat)} keeps their Follower {seat_name(fl)} and gives them a believer.")
        f["done"] = True
    else:
        ctx.say(f"{seat_name(seat)} releases their Follower {seat_name(fl)}.")
        make_independent(ctx, fl)
        s.stack.append(new_surrender(s, fl, [seat]))
        f["done"] = True


# ------------------------------------------------------------------------------- end of turn

def endturn_step(ctx: Ctx, f: EndTurnFrame) -> bool:
    """Advance the end of a turn; False when the next turn may begin."""
    s = ctx.s
    seat = f["seat"]
    if f["stage"] == "trim":
        f["stage"] = "check"
        if s.role[seat] != WANDERER and len(s.hands[seat]) > hand_limit(s, seat):
            s.stack.append({"k": "trim", "wait": [seat], "seat": seat, "n": 0})
        return True
    if f["stage"] == "check":
        f["stage"] = "surrender"
        s.follower_draws[seat] = 0  # Ascend with Me's draw lapses with the turn it was offered in
        if not s.believer_deck or (s.max_rounds and s.round_no >= s.max_rounds
                                   and (seat + 1) % s.players == s.first):
            why = ("the believer deck is exhausted" if not s.believer_deck
                   else f"the {s.max_rounds}-round limit is reached")
            ctx.say(f"The game ends: {why}.", kind="end")
            s.stack.append({"k": "settle", "stage": "score", "wait": [], "last": seat})
            return True
        return True
    if f["stage"] == "surrender":
        f["stage"] = "advance"
        if s.role[seat] != WANDERER and not s.believers[seat]:
            lead = s.leader[seat]
            if s.role[seat] == FOLLOWER and lead is not None:
                if s.believers[lead]:
                    s.stack.append({"k": "keep", "wait": [lead], "leader": lead, "seat": seat})
                else:
                    make_independent(ctx, seat)
                    s.stack.append(new_surrender(s, seat, [lead]))
            elif s.role[seat] == LEADER and not followers(s, seat):
                ctx.say(f"{seat_name(seat)} ends the turn without believers and must surrender.")
                s.stack.append(new_surrender(s, seat, []))
        return True
    return False


# ----------------------------------------------------------------------------- housekeeping

def housekeeping(ctx: Ctx) -> None:
    """Between actions: Holy Rebirth, reversals of stance, Unification (may push frames)."""
    s = ctx.s
    # Holy Rebirth first: the deaths that offer it may also leave a Leader without believers, and
    # the reversal must not make them a Follower (sealing the skill) before it was offered; it is
    # resolved afterwards, on the next pass, if it still applies
    window = new_rebirth(s, {k: n for k, n in enumerate(s.deaths) if n})
    s.deaths = [0] * s.players
    if window is not None:
        s.stack.append(window)
        return
    for lead in leaders(s):
        fls = followers(s, lead)
        if not fls or s.believers[lead]:
            continue
        best = max(len(s.believers[k]) for k in fls)
        top = [k for k in fls if len(s.believers[k]) == best]
        offer: int | None = None
        if len(top) == 1:
            new = top[0]
            make_independent(ctx, new)
            for k in fls:
                if k != new:
                    s.leader[k] = new
            break_impermanence(ctx, new)
            ctx.say(f"{seat_name(lead)} has no believers left: {seat_name(new)} takes over the sect and the Leader token.")
            # 6-2.1: the new Leader decides whether to accept the old one (they must hold a
            # believer to give, as in any surrender)
            offer = new if s.believers[new] else None
        else:
            for k in fls:
                make_independent(ctx, k)
            ctx.say(f"{seat_name(lead)} has no believers left and the Followers are tied: the sect dissolves.")
        s.stack.append(new_surrender(s, lead, [], offer=offer))
        return
    win = unification(s)
    if win is not None:
        s.winner = win
        s.reason = f"{seat_name(win)} unified every player under one faith"
        s.phase = "over"
        ctx.say(f"Unification! Every other player follows {seat_name(win)}: {seat_name(win)} wins.", kind="end")
