"""End of the game and final scoring (rulebook 5, 5-1, 5-2; Impermanence of Life).

Order of settlement: Impermanence of Life (its holder, still hidden and independent, with more than
five believers wins outright); then the largest sect by believer cards, a tie between sects going
to the sect with more players; then the internal comparison inside the winning sect. Players still
tied go to a showdown: two players fight a Faith War without bonus cards; three or more take turns
performing Martyrdom against all the others, starting with the player who took the last turn,
until one of them has no believer left. Most believers remaining wins. If the showdown cannot
separate them (nobody has believers left), the tied player nearest clockwise from the player who
took the last turn (that player first) wins.
"""

from __future__ import annotations

from rules.engine import seat_name

from .cards import IMPERMANENCE, SHOWDOWN_MARTYRDOM, SHOWDOWN_WAR, SKILL_NAME, believers_text
from .combat import new_showdown
from .frames import SettleFrame
from .sects import leaders, members, skill_key
from .state import LEADER, WANDERER, Ctx, State


def _groups(s: State) -> list[list[int]]:
    groups = [members(s, lead) for lead in leaders(s)]
    groups += [[k] for k in range(s.players) if s.role[k] == WANDERER]
    return groups


def _finish(ctx: Ctx, winner: int, reason: str) -> None:
    s = ctx.s
    s.winner = winner
    s.reason = reason
    s.phase = "over"
    ctx.say(f"{seat_name(winner)} wins: {reason}.", kind="end")


def _clockwise(s: State, last: int, seats: list[int]) -> list[int]:
    return sorted(seats, key=lambda k: (k - last) % s.players)


def settle_step(ctx: Ctx, f: SettleFrame) -> bool:
    """Advance the settlement; pushes showdown confrontations. False when finished."""
    last = int(f["last"])
    if f["stage"] == "score":
        return _score(ctx, f, last)
    if f["stage"] == "martyr" and _martyr_again(ctx, f):
        return True
    if f["stage"] == "after":
        return _after_showdown(ctx, f, last)
    return False


def _impermanence_wins(ctx: Ctx) -> bool:
    """Impermanence of Life's holder, still hidden and independent with more than five
    believers, reveals it and wins outright (True)."""
    s = ctx.s
    for k in range(s.players):
        if (skill_key(s, k) == IMPERMANENCE and s.role[k] == LEADER
                and not s.revealed[k] and len(s.believers[k]) > 5):
            s.revealed[k] = True
            name = SKILL_NAME[IMPERMANENCE]
            ctx.say(f"{seat_name(k)} reveals {name} with {len(s.believers[k])} believers.")
            _finish(ctx, k, f"{name}: hidden and unbowed to the end with more "
                    "than five believers")
            return True
    return False


def _score(ctx: Ctx, f: SettleFrame, last: int) -> bool:
    """The largest sect, then its member with the most believers; a tie goes to a showdown."""
    s = ctx.s
    if _impermanence_wins(ctx):
        return False
    groups = _groups(s)
    totals = [(sum(len(s.believers[m]) for m in g), len(g)) for g in groups]
    for g, (n, _) in zip(groups, totals, strict=True):
        ctx.say(f"Sect of {', '.join(seat_name(m) for m in g)}: {believers_text(n)}.")
    best_total = max(totals)
    tied = [g for g, t in zip(groups, totals, strict=True) if t == best_total]
    pool = [m for g in tied for m in g]
    top = max(len(s.believers[m]) for m in pool)
    cands = [m for m in pool if len(s.believers[m]) == top]
    if len(cands) == 1:
        _finish(ctx, cands[0], f"the largest sect, and the most believers in it ({top})")
        return False
    f["cands"] = cands
    f["rounds"] = 0
    return _start_showdown(ctx, f, cands, last)


def _martyr_again(ctx: Ctx, f: SettleFrame) -> bool:
    """The next Martyrdom of the cycle (True), or on to the count once a candidate has no
    believer left (False, the stage then ``after``)."""
    s = ctx.s
    cands = [int(c) for c in f["cands"]]
    if all(s.believers[c] for c in cands) and f["rounds"] < 60:
        _next_martyr(ctx, f, cands)
        return True
    f["stage"] = "after"
    return False


def _after_showdown(ctx: Ctx, f: SettleFrame, last: int) -> bool:
    """Most believers left wins; still tied, another showdown, or the one nearest the last
    turn when it cannot separate them."""
    s = ctx.s
    cands = [int(c) for c in f["cands"]]
    top = max(len(s.believers[c]) for c in cands)
    best = [c for c in cands if len(s.believers[c]) == top]
    if len(best) == 1:
        _finish(ctx, best[0], f"the showdown ({believers_text(top)} left)")
        return False
    if top > 0 and f["rounds"] < 60:
        f["cands"] = best
        return _start_showdown(ctx, f, best, last)
    winner = _clockwise(s, last, best)[0]
    _finish(ctx, winner, "the showdown could not separate the tied players; the one nearest "
            "the last turn wins")
    return False


def _start_showdown(ctx: Ctx, f: SettleFrame, cands: list[int], last: int) -> bool:
    s = ctx.s
    order = _clockwise(s, last, cands)
    if len(order) == 2:
        ctx.say(f"Tie between {seat_name(order[0])} and {seat_name(order[1])}: a Faith War without bonus decides.")
        f["stage"] = "after"
        f["rounds"] += 1
        if all(s.believers[c] for c in order):
            s.stack.append(new_showdown(SHOWDOWN_WAR, order[0], [order[1]]))
        return True
    ctx.say(f"Tie between {', '.join(seat_name(c) for c in order)}: a cycle of Martyrdom decides.")
    f["cands"] = order
    f["stage"] = "martyr"
    f["next"] = 0
    return True


def _next_martyr(ctx: Ctx, f: SettleFrame, cands: list[int]) -> None:
    s = ctx.s
    by = cands[f["next"] % len(cands)]
    f["next"] += 1
    f["rounds"] += 1
    others = [c for c in cands if c != by and s.believers[c]]
    ctx.say(f"Showdown: {seat_name(by)} performs Martyrdom against {', '.join(seat_name(c) for c in others)}.")
    s.stack.append(new_showdown(SHOWDOWN_MARTYRDOM, by, others))
