"""Hand-made Flick of Faith situations for the tests."""

from __future__ import annotations

from rules.flick_of_faith import ENGINE
from rules.flick_of_faith import map as board
from rules.flick_of_faith.state import FlickState

E = ENGINE
NORTH = board.ISLANDS[0]
"""Island I, at the top of the map."""


def mission(players: int = 2, gods: tuple[str, ...] = ("anubis", "dagda"), *, laws: tuple[str, ...] = (),
            active: int = 0, seed: int = 1) -> FlickState:
    """A state in the Mission phase of Generation 1, empty map, ``active`` to flick."""
    s = E.setup(players, seed)
    per = 6 if players == 3 else 5
    s.gods = list(gods)
    for k, g in enumerate(gods):
        s.pool[k] = {"prophet": per - 1, "sphinx": 1} if g == "ra" else {"prophet": per}
        s.supply[k] = dict(s.pool[k])
    s.phase = "mission"
    s.generation = 1
    s.laws = list(laws)
    s.order = list(range(players))
    s.turn_index = s.order.index(active)
    s.active = active
    s.stage = "flick"
    s.turn = {"anubis_used": False, "struck": []}
    return s


def put(s: FlickState, kind: str, owner: int | None, x: float, y: float) -> int:
    i = s.next_id
    s.next_id += 1
    s.discs.append({"id": i, "kind": kind, "owner": owner, "x": x, "y": y})
    s.discs.sort(key=lambda t: t["id"])
    return i


def on_island(s: FlickState, island: int, owner: int, kind: str = "prophet", n: int = 1) -> list[int]:
    """Put ``n`` discs on an island, spread out around its city."""
    isl = board.ISLANDS[island]
    ids = []
    for _k in range(n):
        used = sum(1 for d in s.discs if abs(d["x"] - isl.x) < 14 and abs(d["y"] - isl.y) < 14)
        ring = 6.0 + 3.5 * (used // 8)
        import math
        a = math.radians(45 * (used % 8) + 10)
        ids.append(put(s, kind, owner, round(isl.x + ring * math.cos(a), 3), round(isl.y + ring * math.sin(a), 3)))
    return ids
