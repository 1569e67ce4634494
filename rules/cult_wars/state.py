"""Cult Wars state: cults, the action deck, secret targets and orders, the public record of the
last reveal, and a resolution paused for the defenders' splits.

Plain dataclasses that round-trip exactly through JSON (rulebook "Setup" and "In-game
Resources": followers, victory points, hands of action cards).

Layout versions: 1 had one secret order per cult and turn (target and cards together), with the
defender's split chosen in advance. 2 adds the ``insignia`` table option (``"two_step"``: targets
first, then cards; ``"single"``: version 1's flow), the secret ``targets`` of the insignia step and
the paused ``resolution``. A version-1 state reads as a ``"single"`` game (see :func:`upgrade`).
"""

from __future__ import annotations

import copy
import marshal
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from ..engine import Rng
from .content import SLOTS
from .views import OrdersPlayView, OrdersView, StandingView, TurnRecordView

TURNS = 8
START_FOLLOWERS = 12
START_HAND = 2


@dataclass
class Play:
    """One action card laid down with the orders."""

    card: str
    """Instance id of the card, e.g. ``"AC07"``."""
    target: int | None
    """Seat it is aimed at (opponent cards), or None for a card that affects its own cult."""

    def to_json(self) -> OrdersPlayView:
        return {"card": self.card, "target": self.target}


@dataclass
class Orders:
    """A cult's secret orders for one turn (rulebook "Turn", steps 1–2)."""

    target: int
    """Seat of the cult insignia revealed: where the attackers go."""
    slots: dict[str, list[int]]
    """Slot name → strategy-card values laid on it (every slot present, possibly empty)."""
    plays: list[Play]
    """Action cards laid down, in the order given."""
    face_up: list[str]
    """Items laid face up: ``"target"``, slot names and action-card ids."""
    loss_order: str | list[int]
    """How a winning defence shares out the attackers' losses: ``"proportional"`` or seats in
    priority order (those not named follow in seat order). Only the ``"single"`` table option
    uses it; with ``"two_step"`` the defender chooses the split after the reveal."""

    def slot_total(self, slot: str) -> int:
        return sum(self.slots[slot])

    def total(self) -> int:
        return sum(self.slot_total(s) for s in SLOTS)

    def to_json(self) -> OrdersView:
        return {
            "target": self.target,
            "slots": {s: list(self.slots[s]) for s in SLOTS},
            "plays": [p.to_json() for p in self.plays],
            "face_up": list(self.face_up),
            "loss_order": self.loss_order if isinstance(self.loss_order, str) else list(self.loss_order),
        }

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Orders:
        lo = d["loss_order"]
        return cls(
            target=int(d["target"]),
            slots={s: [int(v) for v in d["slots"][s]] for s in SLOTS},
            plays=[Play(str(p["card"]), None if p["target"] is None else int(p["target"]))
                   for p in d["plays"]],
            face_up=[str(x) for x in d["face_up"]],
            loss_order=lo if isinstance(lo, str) else [int(x) for x in lo],
        )


@dataclass
class Cult:
    """One player's cult."""

    followers: int = START_FOLLOWERS
    vp: int = 0
    hand: list[str] = field(default_factory=list)
    """Action-card ids held (secret)."""


@dataclass
class CultWarsState:
    players: int
    rng: Rng
    cults: list[Cult]
    deck: list[str]
    """Action-card ids, top of the deck first."""
    discard: list[str] = field(default_factory=list)
    turn: int = 1
    phase: str = "orders"
    """``"targets"`` while the insignia are chosen (``"two_step"`` only), ``"orders"`` while orders
    are collected, ``"split"`` while defenders share out attackers' losses, ``"over"`` after turn 8."""
    insignia: str = "single"
    """The table option: ``"two_step"`` (the rulebook: targets chosen and revealed together, then
    cards) or ``"single"`` (target and cards in one secret order). ``setup`` sets it."""
    targets: dict[int, int] = field(default_factory=dict)
    """``"two_step"``: insignia chosen this turn (secret while ``phase == "targets"``, public after)."""
    orders: dict[int, Orders] = field(default_factory=dict)
    """Orders submitted this turn (secret until the reveal, except the face-up parts)."""
    resolution: dict[str, Any] | None = None
    """While ``phase == "split"``: the turn's resolution, paused in step 5 (public: everything in
    it was revealed). See :class:`rules.cult_wars.resolve.Turn`."""
    reshuffles: int = 0
    """How many times the discard pile has been shuffled back into the deck."""
    last_turn: TurnRecordView | None = None
    """Public record of the last reveal and its resolution (what the board image draws)."""
    history: list[StandingView] = field(default_factory=list)
    """Public per-turn standings: ``{"turn", "followers": [...], "vp": [...]}``."""

    def __deepcopy__(self, memo: dict[int, Any]) -> CultWarsState:
        # ``Engine.clone`` deep-copies the state before every action: copying each field by what
        # it holds (``_COPY``) makes the same independent copy as a pickle round trip or
        # copy.deepcopy's generic walk over the nested dataclasses, several times faster
        twin: CultWarsState = CultWarsState.__new__(CultWarsState)
        memo[id(self)] = twin
        d = self.__dict__
        twin.__dict__.update({name: copy(d[name]) for name, copy in _COPY.items()})
        return twin

    def to_json(self, schema_version: int) -> dict[str, Any]:
        return {
            "schema_version": schema_version,
            "players": self.players,
            "rng": self.rng.to_json(),
            "cults": [{"followers": c.followers, "vp": c.vp, "hand": list(c.hand)} for c in self.cults],
            "deck": list(self.deck),
            "discard": list(self.discard),
            "turn": self.turn,
            "phase": self.phase,
            "insignia": self.insignia,
            "targets": {str(k): t for k, t in sorted(self.targets.items())},
            "orders": {str(k): o.to_json() for k, o in sorted(self.orders.items())},
            "resolution": self.resolution,
            "reshuffles": self.reshuffles,
            "last_turn": self.last_turn,
            "history": list(self.history),
        }

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> CultWarsState:
        return cls(
            players=int(d["players"]),
            rng=Rng.from_json(d["rng"]),
            cults=[Cult(int(c["followers"]), int(c["vp"]), [str(x) for x in c["hand"]])
                   for c in d["cults"]],
            deck=[str(x) for x in d["deck"]],
            discard=[str(x) for x in d["discard"]],
            turn=int(d["turn"]),
            phase=str(d["phase"]),
            insignia=str(d["insignia"]),
            targets={int(k): int(t) for k, t in d["targets"].items()},
            orders={int(k): Orders.from_json(o) for k, o in d["orders"].items()},
            resolution=d["resolution"],
            reshuffles=int(d["reshuffles"]),
            last_turn=d["last_turn"],
            history=list(d["history"]),
        )


def _same(v: Any) -> Any:
    return v


def _data_copy(v: Any) -> Any:
    """A fresh copy of plain data (the public records: dicts, lists, strings, numbers): a marshal
    round trip walks it in C, keeps every type as it is and shared references shared, as pickle
    does; anything marshal does not take is deep-copied instead."""
    try:
        return marshal.loads(marshal.dumps(v))
    except ValueError:
        return copy.deepcopy(v)


def _copy_orders(orders: dict[int, Orders]) -> dict[int, Orders]:
    return {k: Orders(o.target, {s: v[:] for s, v in o.slots.items()},
                      [Play(p.card, p.target) for p in o.plays], o.face_up[:],
                      o.loss_order if isinstance(o.loss_order, str) else o.loss_order[:])
            for k, o in orders.items()}


_COPY: dict[str, Callable[[Any], Any]] = {
    "players": _same,
    "rng": lambda r: Rng(r.seed, r.position),
    "cults": lambda cults: [Cult(c.followers, c.vp, c.hand[:]) for c in cults],
    "deck": list.copy,
    "discard": list.copy,
    "turn": _same,
    "phase": _same,
    "insignia": _same,
    "targets": dict.copy,
    "orders": _copy_orders,
    "resolution": _data_copy,
    "reshuffles": _same,
    # the public records of past turns grow with the game (copying them whole made a late step
    # several times dearer than an early one): a turn's record is replaced whole and the
    # history only appended to, never changed in place, so the clone shares the record and
    # copies the history's list, not its entries
    "last_turn": _same,
    "history": list.copy,
}
"""How ``CultWarsState.__deepcopy__`` copies each field (a field it does not know, or a new
field of a nested dataclass, stops the import: see the check below)."""

if (list(_COPY) != [f.name for f in fields(CultWarsState)]
        or [f.name for f in fields(Cult)] != ["followers", "vp", "hand"]
        or [f.name for f in fields(Orders)] != ["target", "slots", "plays", "face_up", "loss_order"]
        or [f.name for f in fields(Play)] != ["card", "target"]):
    raise TypeError("CultWarsState's copy (_COPY) does not match its fields: update it")


def upgrade(d: Mapping[str, Any]) -> dict[str, Any]:
    """A stored version-1 state in the version-2 layout: a ``"single"`` game (its turn was one
    secret order, its split chosen in advance), nothing chosen in an insignia step, nothing paused."""
    out = dict(d)
    out.setdefault("insignia", "single")
    out.setdefault("targets", {})
    out.setdefault("resolution", None)
    return out
