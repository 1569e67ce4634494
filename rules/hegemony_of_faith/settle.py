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

from .cards import believers_text
from .combat import new_showdown
from .frames import SettleFrame
from .sects import leaders, members, skill_name
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
    s = ctx.s
    last = int(f["last"])
    if f["stage"] == "score":
        for k in range(s.players):
            if (skill_name(s, k) == "Impermanence of Life" and s.role[k] == LEADER
                    and not s.revealed[k] and len(s.believers[k]) > 5):
                s.revealed[k] = True
                ctx.say(f"{seat_name(k)} reveals Impermanence of Life with {len(s.believers[k])} believers.")
                _finish(ctx, k, "Impermanence of Life: hidden and unbowed to the end with more "
                        "than five believers")
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
    if f["stage"] == "martyr":
        cands = [int(c) for c in f["cands"]]
        if all(s.believers[c] for c in cands) and f["rounds"] < 60:
            _next_martyr(ctx, f, cands)
            return True
        f["stage"] = "after"
    if f["stage"] == "after":
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
    return False


def _start_showdown(ctx: Ctx, f: SettleFrame, cands: list[int], last: int) -> bool:
    s = ctx.s
    order = _clockwise(s, last, cands)
    if len(order) == 2:
        ctx.say(f"Tie between {seat_name(order[0])} and {seat_name(order[1])}: a Faith War without bonus decides.")
        f["stage"] = "after"
        f["rounds"] += 1
        if all(s.believers[c] for c in order):
            s.stack.append(new_showdown("Showdown War", order[0], [order[1]]))
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
    s.stack.append(new_showdown("Showdown Martyrdom", by, others))
