"""Combat arithmetic (rulebook "Turn", step 5): pure functions on follower counts.

* a winning defence kills ``defence − attack`` attackers, shared out by the defender (after the
  reveal, when there is a real choice: :func:`needs_split`, :func:`possible_splits`);
* an equal fight deals no damage;
* a winning attack kills ``attack − defence`` of the defender's followers at home, sacrifices
  first, then breeders, defenders and idle followers; the attacker with most attackers takes one
  VP per sacrificial follower killed (a tie splits them evenly, rounded down).
"""

from __future__ import annotations

from collections.abc import Mapping

HOME_LOSS_ORDER: tuple[str, ...] = ("sacrifice", "breed", "defend", "idle")
"""Where a beaten defender's losses fall, in order (attackers are away and are spared)."""

CARD_LOSS_ORDER: tuple[str, ...] = ("sacrifice", "breed", "defend", "idle", "attack")
"""Where losses from action cards fall, in order (Herald: the combat order, then attackers)."""


def share_attacker_losses(loss: int, attackers: Mapping[int, int],
                          order: str | list[int]) -> dict[int, int]:
    """Share ``loss`` dead among ``attackers`` (seat → followers attacking).

    ``order`` is ``"proportional"`` (largest remainder; ties go to the bigger attacker, then the
    lower seat) or a priority list of seats (each loses all it can before the next; seats not
    named follow in seat order). Nobody loses more than it sent; losses beyond that are void.
    """
    seats = sorted(k for k, n in attackers.items() if n > 0)
    total = sum(attackers[k] for k in seats)
    loss = max(0, min(loss, total))
    out = {k: 0 for k in seats}
    if loss == 0:
        return out
    if isinstance(order, str):
        remainders: list[tuple[int, int, int]] = []
        given = 0
        for k in seats:
            whole, rest = divmod(loss * attackers[k], total)
            out[k] = whole
            given += whole
            remainders.append((rest, attackers[k], -k))
        remainders.sort(reverse=True)
        for _rest, _n, negk in remainders[: loss - given]:
            out[-negk] += 1
        return out
    queue = [k for k in order if k in out] + [k for k in seats if k not in order]
    left = loss
    for k in queue:
        take = min(left, attackers[k])
        out[k] = take
        left -= take
    return out


def needs_split(loss: int, attackers: Mapping[int, int]) -> bool:
    """True when the defender has a real choice in sharing ``loss`` dead among ``attackers``: two
    or more of them sent followers and the losses neither miss nor wipe out them all (otherwise
    exactly one split is possible). Depends only on revealed numbers."""
    live = [n for n in attackers.values() if n > 0]
    return len(live) >= 2 and 0 < loss < sum(live)


def possible_splits(loss: int, attackers: Mapping[int, int]) -> list[dict[int, int]]:
    """Every way to share ``loss`` dead among ``attackers`` (seat → followers attacking), nobody
    losing more than it sent, in a stable order (the lowest seat's loss rising first, then the
    next's). Losses beyond what the attackers sent are void."""
    seats = sorted(k for k, n in attackers.items() if n > 0)
    loss = max(0, min(loss, sum(attackers[k] for k in seats)))
    out: list[dict[int, int]] = []

    def walk(i: int, left: int, acc: dict[int, int]) -> None:
        if i == len(seats) - 1:
            if left <= attackers[seats[i]]:
                out.append({**acc, seats[i]: left})
            return
        room_after = sum(attackers[k] for k in seats[i + 1:])
        for x in range(max(0, left - room_after), min(left, attackers[seats[i]]) + 1):
            walk(i + 1, left - x, {**acc, seats[i]: x})

    if seats:
        walk(0, loss, {})
    return out


def home_losses(loss: int, board: Mapping[str, int], *, shelter_sacrifices: bool = False,
                order: tuple[str, ...] = HOME_LOSS_ORDER) -> dict[str, int]:
    """How ``loss`` dead fall on a cult's slots (``board``: slot → followers), in ``order``.

    With ``shelter_sacrifices`` (Hidden Altar) the sacrifice slot is skipped. Losses beyond what
    the slots hold are void: followers never go below zero.
    """
    out = {slot: 0 for slot in order}
    left = max(0, loss)
    for slot in order:
        if slot == "sacrifice" and shelter_sacrifices:
            continue
        take = min(left, board.get(slot, 0))
        out[slot] = take
        left -= take
    return out


def split_sacrifice_vp(killed: int, attackers: Mapping[int, int]) -> dict[int, int]:
    """VP for ``killed`` sacrificial followers: all to the biggest attacker, a tie splits evenly
    rounded down (the odd points are lost)."""
    live = {k: n for k, n in attackers.items() if n > 0}
    if killed <= 0 or not live:
        return {}
    top = max(live.values())
    best = sorted(k for k, n in live.items() if n == top)
    each = killed // len(best)
    return {k: each for k in best}
