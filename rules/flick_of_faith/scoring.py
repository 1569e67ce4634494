"""Presence, Domination, navel scoring and Worship (rulebook: Glossary, Mission b, Worship a–b).

Counts use the geometry tests: a prophet (of any kind) or a temple is on an island when it is
inside or touching the island's border. What the laws and gods in play change about scoring
is read from their rules (:data:`.laws.RULES`, :data:`.gods.RULES`): a disc on the navel whose
islands score nothing (the King Ape), smaller islands (Flood), Domination's value (Divine Right),
a bonus for Presence on many islands (Grand Tour), the navel's bonus (Pilgrimage), enemy
prophets won by a token (Freja's Heart) and a point for a tie (Themis's Scales).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from . import geometry, laws
from . import gods as pantheon
from .discs import HEART_REACH, KINDS, PROPHET_KINDS

DiscD = dict[str, Any]
THEMIS_MIN_TIE = 2
"""Themis's Scales pay only for a tie of at least this many pieces each."""


def ape_islands(discs: Sequence[DiscD]) -> set[int]:
    """Islands touched by a disc that a law stands on the navel (the King Ape): they score
    nothing while that law is in force."""
    out: set[int] = set()
    for d in discs:
        if d["kind"] in laws.GUARDIANS:
            i = geometry.island_at(d["x"], d["y"], KINDS[d["kind"]].radius)
            if i is not None:
                out.add(i)
    return out


def dead_islands(discs: Sequence[DiscD], law_keys: Sequence[str]) -> set[int]:
    """Islands that score nothing with these laws in force."""
    return ape_islands(discs) if laws.guardians(law_keys) else set()


def heart_converts(discs: Sequence[DiscD], gods: Sequence[str | None]) -> set[int]:
    """Ids of enemy prophets won by Freja's Heart (if it is on the map)."""
    freja = pantheon.seat_with(gods, lambda r: r.heart)
    if freja is None:
        return set()
    won: set[int] = set()
    for h in discs:
        if h["kind"] != "heart":
            continue
        for d in discs:
            if d["kind"] in PROPHET_KINDS and d["owner"] != freja:
                gap = math.hypot(d["x"] - h["x"], d["y"] - h["y"]) - KINDS[d["kind"]].radius
                if gap <= HEART_REACH:
                    won.add(d["id"])
    return won


def island_counts(discs: Sequence[DiscD], players: int, law_keys: Sequence[str],
                  gods: Sequence[str | None], *, heart: bool) -> list[list[int]]:
    """``counts[island][seat]`` = prophets + temples there (Heart conversions if ``heart``)."""
    shrink = laws.island_shrink(law_keys)
    won = heart_converts(discs, gods) if heart else set()
    freja = pantheon.seat_with(gods, lambda r: r.heart)
    counts = [[0] * players for _ in range(4)]
    for d in discs:
        if d["owner"] is None or (d["kind"] not in PROPHET_KINDS and d["kind"] != "temple"):
            continue
        i = geometry.island_at(d["x"], d["y"], KINDS[d["kind"]].radius, shrink)
        if i is None:
            continue
        owner = freja if d["id"] in won and freja is not None else d["owner"]
        counts[i][owner] += 1
    return counts


def presence(discs: Sequence[DiscD], players: int, law_keys: Sequence[str],
             gods: Sequence[str | None], seat: int) -> list[int]:
    """Islands where ``seat`` has Presence right now (no Heart; King Ape islands excluded)."""
    counts = island_counts(discs, players, law_keys, gods, heart=False)
    dead = dead_islands(discs, law_keys)
    return [i for i in range(4) if counts[i][seat] > 0 and i not in dead]


def navel_value(discs: Sequence[DiscD], players: int, law_keys: Sequence[str],
                gods: Sequence[str | None], seat: int) -> int:
    """VP for one of ``seat``'s prophets removed from the navel."""
    return len(presence(discs, players, law_keys, gods, seat)) + 1 + laws.navel_bonus(law_keys)


def scales_apply(seat: int, players: int, vp: Sequence[int] | None) -> bool:
    """Whether Themis's Scales can pay at this Worship: with two players only while she trails
    on VP (``vp`` = the scores before this Worship; unknown counts as trailing). Ties between two
    players are common, so without this the Scales paid at about half of all Worships."""
    if players != 2 or vp is None:
        return True
    return vp[seat] < max(vp[k] for k in range(players) if k != seat)


def worship(discs: Sequence[DiscD], players: int, law_keys: Sequence[str],
            gods: Sequence[str | None], vp: Sequence[int] | None = None) -> list[dict[str, Any]]:
    """Worship scoring for every seat: islands with Presence, islands dominated, VP gained.
    ``vp`` (the scores before this Worship) matters only for Themis in a two-player game."""
    counts = island_counts(discs, players, law_keys, gods, heart=True)
    dead = dead_islands(discs, law_keys)
    dom_vp = laws.domination_value(law_keys)
    out: list[dict[str, Any]] = [{"presence": [], "domination": [], "bonus": 0, "vp": 0}
                                 for _ in range(players)]
    for i in range(4):
        if i in dead:
            continue
        row = counts[i]
        for seat in range(players):
            if row[seat] > 0:
                out[seat]["presence"].append(i)
        top = max(row)
        if top == 0:
            continue
        leaders = [seat for seat in range(players) if row[seat] == top]
        if len(leaders) == 1:
            out[leaders[0]]["domination"].append(i)
        else:
            for seat in leaders:
                if (pantheon.rule(gods[seat]).scales and top >= THEMIS_MIN_TIE
                        and scales_apply(seat, players, vp)):
                    out[seat]["bonus"] = max(out[seat]["bonus"], 1)
    for seat in range(players):
        o = out[seat]
        for r in laws.rules(law_keys):
            if r.tour is not None and len(o["presence"]) >= r.tour[0]:
                o["bonus"] += r.tour[1]
        o["vp"] = len(o["presence"]) + dom_vp * len(o["domination"]) + o["bonus"]
    return out
