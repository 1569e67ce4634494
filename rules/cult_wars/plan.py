"""Turning wished-for follower counts into strategy cards on slots.

Shared by the ready-made orders offered in each prompt and by the computer player. The six
strategy cards cannot make every split (rulebook "Turn", step 2: a slot holds the sum of its
cards), so this finds a close one greedily: the slot wanting most picks first.
"""

from __future__ import annotations

import marshal
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from ..engine import seat_name
from .content import SLOT_NAMES, SLOTS, STRATEGY_VALUES


@lru_cache(maxsize=256)
def _subsets(values: tuple[int, ...]) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """Every subset of ``values`` (by position) as (sum, positions)."""
    out: list[tuple[int, tuple[int, ...]]] = []
    for mask in range(1 << len(values)):
        idx = tuple(i for i in range(len(values)) if mask >> i & 1)
        out.append((sum(values[i] for i in idx), idx))
    return tuple(out)


@lru_cache(maxsize=256)
def _by_total(values: tuple[int, ...]) -> tuple[tuple[int, int, tuple[int, ...]], ...]:
    """(sum, size, positions) per distinct subset sum of ``values``, in increasing sum, keeping
    of the subsets with that sum only the one :func:`assign` prefers (fewest cards, then the
    first positions): the computer player writes orders on every turn, and the six cards have
    64 subsets but at most 21 sums."""
    best: dict[int, tuple[int, tuple[int, ...]]] = {}
    for total, idx in _subsets(values):
        pick = (len(idx), idx)
        if total not in best or pick < best[total]:
            best[total] = pick
    return tuple((total, size, idx) for total, (size, idx) in sorted(best.items()))


def assign(wish: Mapping[str, float], budget: int,
           values: Sequence[int] = STRATEGY_VALUES) -> dict[str, list[int]]:
    """Strategy cards per slot approximating ``wish`` (slot → followers) within ``budget``."""
    left = list(values)
    room = max(0, budget)
    out: dict[str, list[int]] = {s: [] for s in SLOTS}
    for slot in sorted(SLOTS, key=lambda s: (-wish.get(s, 0.0), SLOTS.index(s))):
        want = wish.get(slot, 0.0)
        if want <= 0 or not left:
            continue
        best: tuple[float, int, tuple[int, ...]] | None = None
        for total, size, idx in _by_total(tuple(left)):
            if total > room:
                break
            key = (abs(total - want), size, idx)
            if best is None or key < best:
                best = key
        if best is None or not best[2]:
            continue
        chosen = [left[i] for i in best[2]]
        for v in chosen:
            left.remove(v)
        out[slot] = sorted(chosen, reverse=True)
        room -= sum(chosen)
    return out


def preset_orders(seat: int, players: int, followers: list[int], vp: list[int], *,
                  fixed_target: int | None = None) -> list[tuple[str, str, dict[str, Any]]]:
    """Ready-made orders for a generic UI: (label, description, action). ``fixed_target`` is the
    target revealed in a ``two_step`` game's insignia step: every preset then aims there and
    carries no target or loss order of its own.

    Every view and prompt list asks for these, and :func:`assign` searches card subsets for each
    one: they depend only on the cult's followers and who leads, so they are computed once per
    such combination and handed out as fresh copies (a caller may change what it gets)."""
    me = followers[seat]
    others = [k for k in range(players) if k != seat]
    leader = max(others, key=lambda k: (vp[k], followers[k], -k))
    texts, actions = _packed(seat, players, me, leader, fixed_target)
    return [(label, desc, action) for (label, desc), action in zip(texts, marshal.loads(actions), strict=True)]


@lru_cache(maxsize=4096)
def _packed(seat: int, players: int, me: int, leader: int,
            fixed_target: int | None) -> tuple[tuple[tuple[str, str], ...], bytes]:
    """The presets of :func:`_presets` as their (label, description) pairs and their actions
    marshalled: every prompt asks for fresh copies of the actions, and one ``marshal.loads``
    rebuilds all of them (same keys in the same order, same types) faster than copying each."""
    presets = _presets(seat, players, me, leader, fixed_target)
    return (tuple((label, desc) for label, desc, _ in presets),
            marshal.dumps(tuple(action for _, _, action in presets)))


@lru_cache(maxsize=4096)
def _presets(seat: int, players: int, me: int, leader: int,
             fixed_target: int | None) -> tuple[tuple[str, str, dict[str, Any]], ...]:
    """The presets of :func:`preset_orders` for a cult of ``me`` followers with ``leader`` the
    leading rival (shared by every caller: handed out only as the fresh copies of :func:`_packed`)."""
    others = [k for k in range(players) if k != seat]
    out: list[tuple[str, str, dict[str, Any]]] = []

    def orders(wish: dict[str, float], target: int) -> dict[str, Any]:
        if fixed_target is not None:
            return {"type": "orders", "slots": assign(wish, me), "actions": [], "face_up": []}
        return {"type": "orders", "target": target, "slots": assign(wish, me),
                "actions": [], "face_up": [], "loss_order": "proportional"}

    def label(slots: dict[str, list[int]]) -> str:
        return ", ".join(f"{SLOT_NAMES[s]} {sum(v)}" for s, v in slots.items() if v) or "all idle"

    aim = leader if fixed_target is None else fixed_target
    at = "" if fixed_target is not None else f", target {seat_name(leader)}"
    q = me / 4
    o = orders({"attack": q, "defend": q, "sacrifice": q, "breed": q}, aim)
    out.append((f"Balanced{at}", label(o["slots"]), o))
    for k in (others if fixed_target is None else [fixed_target]):
        o = orders({"attack": me * 0.75, "defend": me * 0.25}, k)
        out.append((f"All-out attack on {seat_name(k)}", label(o["slots"]), o))
    o = orders({"defend": me}, aim)
    out.append((f"Turtle (all defend){at}", label(o["slots"]), o))
    o = orders({"sacrifice": me * 0.7, "defend": me * 0.3}, aim)
    out.append((f"Sacrifice big{at}", label(o["slots"]), o))
    o = orders({"breed": me * 0.7, "defend": me * 0.3}, aim)
    out.append((f"Breed big{at}", label(o["slots"]), o))
    return tuple(out)
