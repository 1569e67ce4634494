"""Parsing, checking and describing a cult's secret orders (rulebook "Turn", steps 1–2).

With the ``"single"`` table option one action carries everything a cult decides in a turn: the
insignia it reveals (its target), the strategy cards on each of the four slots, the action cards
it lays down with their targets, what it lays face up, and how its defence shares out attackers'
losses if it wins. With ``"two_step"`` (the rulebook) the target was chosen and revealed in the
insignia step before (:func:`parse_target`), so the orders may omit it (or repeat it), cannot lay
it face up, and carry no loss order: the defender shares out losses after the reveal.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..engine import FieldSpec, IllegalAction, fields, seat_name, shown
from .content import CARD_KIND, SLOT_NAMES, SLOTS, STRATEGY_VALUES, card_name, kind_of
from .state import Orders, Play
from .views import FaceUpPlayView, FaceUpView

ORDERS_USAGE = ('{"type": "orders", "target": seat, "slots": {...}, "actions": [...], '
                '"face_up": [...], "loss_order": ...}')
"""What an orders action looks like, for refusals (``"single"`` games)."""
ORDERS_USAGE_TWO_STEP = '{"type": "orders", "slots": {...}, "actions": [...], "face_up": [...]}'
"""What an orders action looks like after the insignia step (``"two_step"`` games)."""
TARGET_USAGE = '{"type": "target", "target": seat}'
"""What an insignia choice looks like."""
PLAY_USAGE = '{"card": "AC07", "target": 2}'
"""What one action-card play inside the orders looks like."""
ORDER_FIELDS: dict[str, FieldSpec] = {
    "slots": (dict, None), "actions": (list, None), "face_up": (list, str, None),
    "loss_order": (str, list, None), "replace": bool,
}
"""The optional keys of an orders action and their JSON types (null: the default)."""
ORDER_KEYS = frozenset({"type", "target", *ORDER_FIELDS})


def _is_int(x: Any) -> bool:
    return type(x) is int


def _seats_text(seats: list[int]) -> str:
    """The seats a refusal offers, "1 (P2), 2 (P3)" (written only when refusing: orders are read
    on every turn of every cult)."""
    return ", ".join(f"{k} ({seat_name(k)})" for k in seats)


def _hand_text(hand: list[str]) -> str:
    """The action cards a refusal lists, "AC03 (Hidden Altar), …" (written only when refusing)."""
    return ", ".join(f"{c} ({card_name(c)})" for c in hand) or "no action cards"


def parse_orders(raw: Any, *, seat: int, players: int, followers: int, hand: list[str],
                 fixed_target: int | None = None) -> Orders:
    """Check a raw ``{"type": "orders", …}`` action and return the :class:`Orders` it gives.

    Read exactly (:func:`rules.engine.fields`): only the keys of :data:`ORDER_KEYS`; seats and
    strategy-card values are whole numbers (never ``true`` or ``3.0``), card ids and face-up items
    strings. ``fixed_target`` is the insignia revealed in a ``"two_step"`` game's insignia step
    (None in a ``"single"`` game, whose orders name the target). Raises :class:`IllegalAction`
    naming the bad part and what is allowed.
    """
    two_step = fixed_target is not None
    usage = ORDERS_USAGE_TWO_STEP if two_step else ORDERS_USAGE
    if two_step:
        got = fields(raw, "orders", {"type": str}, {"target": int, **ORDER_FIELDS}, usage=usage)
    else:
        got = fields(raw, "orders", {"type": str, "target": int}, ORDER_FIELDS, usage=usage)
    others = [k for k in range(players) if k != seat]
    target = _target(got.get("target", fixed_target), fixed_target, others)
    slots = _slots(got.get("slots") or {}, followers)
    plays = _plays(got.get("actions") or [], seat, target, others, hand)
    face_up = _face_up(got.get("face_up") or [], plays, two_step)
    loss_order = _loss_order(got.get("loss_order"), others, two_step)
    return Orders(target=target, slots=slots, plays=plays, face_up=face_up, loss_order=loss_order)


def _target(target: int | None, fixed_target: int | None, others: list[int]) -> int:
    """The insignia the orders reveal: the one revealed in the insignia step, if any."""
    if fixed_target is not None and target != fixed_target:
        raise IllegalAction(
            f"your insignia was revealed this turn: your target is {seat_name(fixed_target)} (seat "
            f"{fixed_target}), not {shown(target)}; leave \"target\" out or repeat {fixed_target}.")
    if target is None or target not in others:
        raise IllegalAction(
            f"target {shown(target)} is not another cult; reveal the insignia of one of seats {_seats_text(others)}.")
    return target


def _slots(raw: Any, followers: int) -> dict[str, list[int]]:
    """The strategy cards on each slot: values the cult holds, each card once, within its
    followers."""
    slots_raw = fields(raw, "slots", {}, {name: (list, None) for name in SLOTS},
                       usage='{"attack": [5, 1], "defend": [3], …}')
    slots: dict[str, list[int]] = {}
    for name in SLOTS:
        vals: list[Any] = slots_raw.get(name) or []
        if not all(_is_int(v) for v in vals):
            raise IllegalAction(
                f"slot {name}: {shown(vals, 60)} must be a list of strategy-card values such as [5, 1].")
        slots[name] = sorted(vals, reverse=True)
    used = Counter(v for name in SLOTS for v in slots[name])
    have = Counter(STRATEGY_VALUES)
    over = sorted((v, n) for v, n in used.items() if n > have.get(v, 0))
    if over:
        laid = ", ".join(f"{n}× {shown(v)}" for v, n in over[:6]) + (", …" if len(over) > 6 else "")
        raise IllegalAction(
            f"you laid {laid} but your strategy cards are {', '.join(map(str, STRATEGY_VALUES))} "
            f"(each card goes on one slot at most).")
    total = sum(used.elements())
    if total > followers:
        parts = ", ".join(f"{SLOT_NAMES[s]} {sum(slots[s])}" for s in SLOTS if slots[s])
        raise IllegalAction(
            f"you assigned {total} followers ({parts}) but your cult has only {followers}; "
            f"the four slots together may hold at most {followers}.")
    return slots


def _plays(raw: Any, seat: int, target: int, others: list[int], hand: list[str]) -> list[Play]:
    """The action cards played: held, each once, aimed as the card says (a card aimed at a rival
    without a target of its own goes to the orders' target)."""
    plays: list[Play] = []
    seen: set[str] = set()
    for entry in raw:
        play = fields(entry, "an action card play", {"card": str}, {"target": (int, None)},
                      usage=PLAY_USAGE)
        cid: str = play["card"]
        if cid not in hand or cid not in CARD_KIND:
            raise IllegalAction(f"you do not hold action card {shown(cid, 40)}; you hold {_hand_text(hand)}.")
        if cid in seen:
            raise IllegalAction(f"action card {cid} is played twice; each card can be played once.")
        seen.add(cid)
        kind = kind_of(cid)
        tgt: int | None = play.get("target")
        if kind.target == "self":
            if tgt is not None and tgt != seat:
                raise IllegalAction(
                    f"{kind.name} ({cid}) affects your own cult; leave its target empty, not {shown(tgt)}.")
            plays.append(Play(cid, None))
        else:
            if tgt is None:
                tgt = target
            if tgt not in others:
                raise IllegalAction(
                    f"{kind.name} ({cid}) needs another cult as target, not {shown(tgt)}; "
                    f"choose one of seats {_seats_text(others)}.")
            plays.append(Play(cid, tgt))
    return plays


def _face_up(fu_raw: Any, plays: list[Play], two_step: bool) -> list[str]:
    """What the cult lays face up, in the order of :data:`SLOTS` and its plays (``"all"``: every
    part it may; the target only in a ``"single"`` game)."""
    allowed = [*([] if two_step else ["target"]), *SLOTS, *(pl.card for pl in plays)]
    if two_step and type(fu_raw) is list and "target" in fu_raw:
        raise IllegalAction("your target was revealed in the insignia step already; lay face up only "
                            f"slots and action cards: {', '.join(allowed)}.")
    if fu_raw == "all":
        fu_raw = list(allowed)
    if type(fu_raw) is not list or not all(type(x) is str for x in fu_raw):
        raise IllegalAction(
            f"face_up {shown(fu_raw, 60)} must be \"all\" or a list drawn from {', '.join(allowed)}.")
    for item in fu_raw:
        if item not in allowed:
            raise IllegalAction(
                f"cannot lay {shown(item, 40)} face up; you can lay face up: {', '.join(allowed)}.")
    return [x for x in allowed if x in fu_raw]


def _loss_order(lo_raw: Any, others: list[int], two_step: bool) -> str | list[int]:
    """How a winning defence shares out attackers' losses (``"single"`` games only)."""
    if two_step and lo_raw is not None:
        raise IllegalAction(
            f"loss_order {shown(lo_raw, 60)} is not part of the orders at this table: if your defence "
            "wins against several attackers, you share out their losses after the reveal.")
    if lo_raw is None or lo_raw == "proportional":
        return "proportional"
    if type(lo_raw) is list and all(_is_int(x) for x in lo_raw):
        if len(set(lo_raw)) != len(lo_raw) or any(x not in others for x in lo_raw):
            raise IllegalAction(
                f"loss_order {shown(lo_raw, 60)} must list distinct other seats ({_seats_text(others)}) in priority order.")
        return list(lo_raw)
    raise IllegalAction(
        f"loss_order {shown(lo_raw, 60)} must be \"proportional\" or a priority list of seats from {_seats_text(others)}.")


def parse_target(raw: Any, *, seat: int, players: int) -> int:
    """Check a raw ``{"type": "target", "target": seat}`` action (the insignia step) and return
    the target seat."""
    got = fields(raw, "an insignia choice", {"type": str, "target": int}, usage=TARGET_USAGE)
    others = [k for k in range(players) if k != seat]
    target: int = got["target"]
    if target not in others:
        txt = ", ".join(f"{k} ({seat_name(k)})" for k in others)
        raise IllegalAction(f"target {shown(target)} is not another cult; choose one of seats {txt}.")
    return target


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


def describe(o: Orders, followers: int, *, split_after: bool = False) -> str:
    """The whole orders in words, for the seat's own eyes (``split_after``: a ``"two_step"``
    game, where a winning defence shares out losses after the reveal)."""
    parts = [f"target {seat_name(o.target)}"] + [slot_text(s, o.slots[s]) for s in SLOTS]
    parts.append(f"idle {max(0, followers - o.total())}")
    cards = ", ".join(play_text(pl) for pl in o.plays) or "no action cards"
    fu = ", ".join(_item_label(x) for x in o.face_up) or "nothing"
    if split_after:
        return f"{' · '.join(parts)}; {cards}; face up: {fu}."
    return f"{' · '.join(parts)}; {cards}; face up: {fu}; {loss_order_text(o.loss_order)}."


def declaration(o: Orders) -> FaceUpView:
    """The public part of the orders: only what was laid face up (card names, never ids)."""
    out: FaceUpView = {}
    if "target" in o.face_up:
        out["target"] = o.target
    slots = {s: list(o.slots[s]) for s in SLOTS if s in o.face_up}
    if slots:
        out["slots"] = slots
    plays: list[FaceUpPlayView] = [{"name": card_name(pl.card), "target": pl.target}
                                   for pl in o.plays if pl.card in o.face_up]
    if plays:
        out["plays"] = plays
    return out


def declaration_text(decl: FaceUpView) -> str:
    bits: list[str] = []
    if "target" in decl:
        bits.append(f"target {seat_name(decl['target'])}")
    for s, vals in decl.get("slots", {}).items():
        bits.append(slot_text(s, vals))
    for pl in decl.get("plays", []):
        bits.append(pl["name"] if pl["target"] is None else f"{pl['name']} → {seat_name(pl['target'])}")
    return "; ".join(bits)
