"""The state of a Flick of Faith game as plain data (round-trips through JSON exactly)."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from rules.engine import Rng, copy_plain

DiscD = dict[str, Any]


@dataclass
class FlickState:
    """Everything about a game in progress. Dict keys are strings so JSON round-trips exactly."""

    players: int
    rng: Rng
    phase: str = "gods"
    """gods | setup_flick | council | mission | tiebreak | over"""
    generation: int = 0
    generations: int = 4
    dealt: list[str] = field(default_factory=list)
    """God card colour dealt to each seat (public)."""
    gods: list[str | None] = field(default_factory=list)
    """Chosen god per seat; None until every seat has chosen (picks are secret until then)."""
    picks: dict[str, str] = field(default_factory=dict)
    vp: list[int] = field(default_factory=list)
    pool: list[dict[str, int]] = field(default_factory=list)
    """Every prophet-kind disc a seat owns (returned to the supply at Worship)."""
    supply: list[dict[str, int]] = field(default_factory=list)
    """Prophet-kind discs not yet flicked this Generation."""
    temples: list[int] = field(default_factory=list)
    """Temples not on the map."""
    reserve: list[int] = field(default_factory=list)
    """Prophets in the reserve pool this Generation."""
    heart_ready: bool = True
    first_player: int = 0
    discs: list[DiscD] = field(default_factory=list)
    """Discs on the map: id, kind, owner (seat or None), x, y. Kept sorted by id."""
    next_id: int = 1
    law_deck: list[str] = field(default_factory=list)
    laws: list[str] = field(default_factory=list)
    """Laws in force, in the order they entered."""
    council: list[str] = field(default_factory=list)
    """[upper, lower] while the Council votes."""
    votes: dict[str, str] = field(default_factory=dict)
    last_council: dict[str, Any] | None = None
    order: list[int] = field(default_factory=list)
    """Turn order of this Generation's Mission."""
    turn_index: int = 0
    active: int | None = None
    stage: str = ""
    """flick | anubis | build | reuse (during the Mission)."""
    in_corner: list[int] = field(default_factory=list)
    attempts: int = 0
    turn: dict[str, Any] = field(default_factory=dict)
    """Per-turn notes: anubis_used, extra (piece to re-flick), struck (ids), pending (build)."""
    lost_sheep: list[bool] = field(default_factory=list)
    flickers: list[int] = field(default_factory=list)
    """Seats that must submit a setup or tie-break flick."""
    flick_orders: dict[str, dict[str, float]] = field(default_factory=dict)
    """Submitted (secret) setup/tie-break flicks."""
    last_flick: dict[str, Any] | None = None
    last_worship: list[dict[str, Any]] | None = None
    last_contest: dict[str, Any] | None = None
    """Result of the last setup or tie-break flick."""
    winners: list[int] | None = None
    end_reason: str = ""


def state_to_json(s: FlickState, schema_version: int) -> dict[str, Any]:
    out: dict[str, Any] = {"schema_version": schema_version}
    for f in fields(s):
        v = getattr(s, f.name)
        out[f.name] = v.to_json() if isinstance(v, Rng) else _plain(v)
    return out


def _plain(v: Any) -> Any:
    if isinstance(v, dict):
        return {str(k): _plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    return v


def copy_state(s: FlickState) -> FlickState:
    """A deep, independent copy, field by field: what the engine's ``play`` starts from, and
    the search plays thousands of steps a decision (``copy.deepcopy``'s generic walk was a tenth
    of its time). The state holds only plain JSON values and the rng."""
    twin = FlickState(s.players, Rng(s.rng.seed, s.rng.position))
    for f in _COPIED:
        setattr(twin, f, copy_plain(getattr(s, f)))
    return twin


_COPIED = tuple(f.name for f in fields(FlickState) if f.name not in ("players", "rng"))


def state_from_json(d: dict[str, Any]) -> FlickState:
    kw = {f.name: _plain(d[f.name]) for f in fields(FlickState) if f.name != "rng"}
    return FlickState(rng=Rng.from_json(d["rng"]), **kw)
