"""Parsing, checking and describing a cult's secret orders (rulebook "Turn", steps 1–2).

One action carries everything a cult decides in a turn: the insignia it reveals (its target),
the strategy cards on each of the four slots, the action cards it lays down with their targets,
what it lays face up, and how its defence shares out attackers' losses if it wins.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from ..engine import IllegalAction, seat_name
from .content import CARD_KIND, SLOT_NAMES, SLOTS, STRATEGY_VALUES, card_name, kind_of
from .state import Orders, Play

ORDER_KEYS = frozenset({"type", "target", "slots", "actions", "face_up", "loss_order", "replace"})


def _show(x: Any) -> str:
    try:
        return json.dumps(x, sort_keys=True)
    except (TypeError, ValueError):
        return repr(x)


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def parse_orders(raw: Any, *, seat: int, players: int, followers: int, hand: list[str]) -> Orders:
    """Check a raw ``{"type": "orders", …}`` action and return the :class:`Orders` it gives.

    Raises :class:`IllegalAction` naming the bad part and what is allowed.
    """
    if not isinstance(raw, dict):
        raise IllegalAction(f"orders must be a JSON object, not {_show(raw)}.")
    unknown = sorted(str(k) for k in raw if k not in ORDER_KEYS)
    if unknown:
        raise IllegalAction(
            f"unknown key(s) {', '.join(unknown)} in orders; allowed: {', '.join(sorted(ORDER_KEYS))}.")
    others = [k for k in range(players) if k != seat]
    others_txt = ", ".join(f"{k} ({seat_name(k)})" for k in others)

    target = raw.get("target")
    if not _is_int(target) or target not in others:
        raise IllegalAction(
            f"target {_show(target)} is not another cult; reveal the insignia of one of seats {others_txt}.")

    slots_raw = raw.get("slots", {})
    if slots_raw is None:
        slots_raw = {}
    if not isinstance(slots_raw, dict):
        raise IllegalAction(
            f"slots {_show(slots_raw)} must map slot names ({', '.join(SLOTS)}) to lists of strategy-card values.")
    slots: dict[str, list[int]] = {}
    for name in slots_raw:
        if name not in SLOTS:
            raise IllegalAction(f"unknown slot {_show(name)}; the slots are {', '.join(SLOTS)}.")
    for name in SLOTS:
        vals = slots_raw.get(name, [])
        if vals is None:
            vals = []
        if not isinstance(vals, list) or not all(_is_int(v) for v in vals):
            raise IllegalAction(
                f"slot {name}: {_show(vals)} must be a list of strategy-card values such as [5, 1].")
        slots[name] = sorted((int(v) for v in vals), reverse=True)
    used = Counter(v for name in SLOTS for v in slots[name])
    have = Counter(STRATEGY_VALUES)
    over = {v: n for v, n in used.items() if n > have.get(v, 0)}
    if over:
        laid = ", ".join(f"{n}× {v}" for v, n in sorted(over.items()))
        raise IllegalAction(
            f"you laid {laid} but your strategy cards are {', '.join(map(str, STRATEGY_VALUES))} "
            f"(each card goes on one slot at most).")
    total = sum(used.elements())
    if total > followers:
        parts = ", ".join(f"{SLOT_NAMES[s]} {sum(slots[s])}" for s in SLOTS if slots[s])
        raise IllegalAction(
            f"you assigned {total} followers ({parts}) but your cult has only {followers}; "
            f"the four slots together may hold at most {followers}.")

    plays_raw = raw.get("actions", [])
    if plays_raw is None:
        plays_raw = []
    if not isinstance(plays_raw, list):
        raise IllegalAction(f"actions {_show(plays_raw)} must be a list of {{\"card\": id, \"target\": seat}}.")
    plays: list[Play] = []
    seen: set[str] = set()
    hand_txt = ", ".join(f"{c} ({card_name(c)})" for c in hand) or "no action cards"
    for entry in plays_raw:
        if not isinstance(entry, dict) or set(entry) - {"card", "target"}:
            raise IllegalAction(
                f"action {_show(entry)} must look like {{\"card\": \"AC07\", \"target\": 2}}.")
        cid = entry.get("card")
        if not isinstance(cid, str) or cid not in hand or cid not in CARD_KIND:
            raise IllegalAction(f"you do not hold action card {_show(cid)}; you hold {hand_txt}.")
        if cid in seen:
            raise IllegalAction(f"action card {cid} is played twice; each card can be played once.")
        seen.add(cid)
        kind = kind_of(cid)
        tgt = entry.get("target")
        if kind.target == "self":
            if tgt is not None and tgt != seat:
                raise IllegalAction(
                    f"{kind.name} ({cid}) affects your own cult; leave its target empty, not {_show(tgt)}.")
            plays.append(Play(cid, None))
        else:
            if tgt is None:
                tgt = target
            if not _is_int(tgt) or tgt not in others:
                raise IllegalAction(
                    f"{kind.name} ({cid}) needs another cult as target, not {_show(tgt)}; "
                    f"choose one of seats {others_txt}.")
            plays.append(Play(cid, int(tgt)))

    fu_raw = raw.get("face_up", [])
    if fu_raw is None:
        fu_raw = []
    allowed = ["target", *SLOTS, *(pl.card for pl in plays)]
    if fu_raw == "all":
        fu_raw = list(allowed)
    if not isinstance(fu_raw, list) or not all(isinstance(x, str) for x in fu_raw):
        raise IllegalAction(
            f"face_up {_show(fu_raw)} must be \"all\" or a list drawn from {', '.join(allowed)}.")
    for item in fu_raw:
        if item not in allowed:
            raise IllegalAction(
                f"cannot lay {_show(item)} face up; you can lay face up: {', '.join(allowed)}.")
    face_up = [x for x in allowed if x in fu_raw]

    lo_raw = raw.get("loss_order", "proportional")
    loss_order: str | list[int]
    if lo_raw is None or lo_raw == "proportional":
        loss_order = "proportional"
    elif isinstance(lo_raw, list) and all(_is_int(x) for x in lo_raw):
        if len(set(lo_raw)) != len(lo_raw) or any(x not in others for x in lo_raw):
            raise IllegalAction(
                f"loss_order {_show(lo_raw)} must list distinct other seats ({others_txt}) in priority order.")
        loss_order = [int(x) for x in lo_raw]
    else:
        raise IllegalAction(
            f"loss_order {_show(lo_raw)} must be \"proportional\" or a priority list of seats from {others_txt}.")

    if "replace" in raw and not isinstance(raw["replace"], bool):
        raise IllegalAction(f"replace {_show(raw['replace'])} must be true or false.")

    return Orders(target=int(target), slots=slots, plays=plays, face_up=face_up, loss_order=loss_order)


def check_face_up_kept(old: Orders, new: Orders) -> None:
    """A card laid face up is on the table for all to see: a replacement must keep it as it was."""
    for item in old.face_up:
        if item not in new.face_up:
            raise IllegalAction(
                f"{_item_label(item)} was laid face up and is binding; keep it face up in the new orders.")
        if item == "target" and old.target != new.target:
            raise IllegalAction(
                f"your target {seat_name(old.target)} was laid face up and is binding; it cannot become {seat_name(new.target)}.")
        if item in SLOTS and old.slots[item] != new.slots[item]:
            raise IllegalAction(
                f"your {SLOT_NAMES[item]} slot ({_cards(old.slots[item])}) was laid face up and is binding; "
                f"it cannot become {_cards(new.slots[item])}.")
        if item in CARD_KIND:
            before = next(pl for pl in old.plays if pl.card == item)
            after = next((pl for pl in new.plays if pl.card == item), None)
            if after is None or after.target != before.target:
                raise IllegalAction(
                    f"{card_name(item)} ({item}) was laid face up aimed at "
                    f"{'your own cult' if before.target is None else seat_name(before.target)} and is binding.")


def _item_label(item: str) -> str:
    if item == "target":
        return "your target"
    if item in SLOTS:
        return f"your {SLOT_NAMES[item]} slot"
    return f"{card_name(item)} ({item})"


def _cards(vals: list[int]) -> str:
    return "+".join(str(v) for v in vals) if vals else "empty"


def slot_text(slot: str, vals: list[int]) -> str:
    if not vals:
        return f"{SLOT_NAMES[slot]} 0"
    if len(vals) == 1:
        return f"{SLOT_NAMES[slot]} {vals[0]}"
    return f"{SLOT_NAMES[slot]} {sum(vals)} ({_cards(vals)})"


def play_text(pl: Play) -> str:
    name = card_name(pl.card)
    return name if pl.target is None else f"{name} → {seat_name(pl.target)}"


def loss_order_text(lo: str | list[int]) -> str:
    if isinstance(lo, str):
        return "attackers' losses shared in proportion"
    return "attackers' losses go first to " + ", ".join(seat_name(k) for k in lo)


def describe(o: Orders, followers: int) -> str:
    """The whole orders in words, for the seat's own eyes."""
    parts = [f"target {seat_name(o.target)}"] + [slot_text(s, o.slots[s]) for s in SLOTS]
    parts.append(f"idle {max(0, followers - o.total())}")
    cards = ", ".join(play_text(pl) for pl in o.plays) or "no action cards"
    fu = ", ".join(_item_label(x) for x in o.face_up) or "nothing"
    return f"{' · '.join(parts)}; {cards}; face up: {fu}; {loss_order_text(o.loss_order)}."


def declaration(o: Orders) -> dict[str, Any]:
    """The public part of the orders: only what was laid face up (card names, never ids)."""
    out: dict[str, Any] = {}
    if "target" in o.face_up:
        out["target"] = o.target
    slots = {s: list(o.slots[s]) for s in SLOTS if s in o.face_up}
    if slots:
        out["slots"] = slots
    plays = [{"name": card_name(pl.card), "target": pl.target} for pl in o.plays if pl.card in o.face_up]
    if plays:
        out["plays"] = plays
    return out


def declaration_text(decl: dict[str, Any]) -> str:
    bits: list[str] = []
    if "target" in decl:
        bits.append(f"target {seat_name(decl['target'])}")
    for s, vals in decl.get("slots", {}).items():
        bits.append(slot_text(s, vals))
    for pl in decl.get("plays", []):
        bits.append(pl["name"] if pl["target"] is None else f"{pl['name']} → {seat_name(pl['target'])}")
    return "; ".join(bits)
