"""The computer player: it aims by simulating candidate flicks on its own view's board.

For a flick it lists targets (each city, the navel, enemy discs worth knocking away), computes
the angle and power that would carry its disc there on a clear path, simulates at most
``CANDIDATES`` of them with the real physics (no wobble: the engine adds wobble to the bot's
flick exactly as to a person's) and keeps the one whose resulting board scores best for it.
Everything comes from the seat's view; nothing peeks at the state.

A move must stay cheap (about 5 ms of search), since it runs inside the session step that other
games wait behind: see :func:`best_flick` for how the search keeps to that.
"""

from __future__ import annotations

import dataclasses
import math
import random
from typing import Any

from rules.engine import Action, Prompt

from . import aim, flick, geometry, gods, laws, physics, powers, scoring, temples
from . import map as board
from .discs import KINDS, PROPHET_KINDS
from .physics import DECEL, power_for_distance

JSON = dict[str, Any]
CANDIDATES = 8
"""How many candidate flicks the computer player simulates (raise it for a stronger bot)."""


def choose(view: JSON, prompt: Prompt, rng: random.Random, candidates: int | None = None) -> Action:
    seat = prompt.seat
    if prompt.kind == "flick":
        return best_flick(view, seat, CANDIDATES if candidates is None else candidates)
    if prompt.kind == "contest_flick":
        x, y = board.launch_spot(view["corners"][seat])
        d = geometry.navel_distance(x, y)
        return {"type": "flick", "angle": 0.0, "power": round(min(10.0, power_for_distance(d)), 2)}
    if prompt.kind == "vote":
        return _vote(view, seat, rng)
    if prompt.kind == powers.SECOND_CHANCE:
        return {"type": "anubis", "reflick": True}
    if prompt.kind == "build":
        return _build(view, seat, prompt)
    return dict(rng.choice(prompt.choices).action)


def _vote(view: JSON, seat: int, rng: random.Random) -> Action:
    up, low = (c["key"] for c in view["council"])
    leader = view["vp"][seat] == max(view["vp"]) and max(view["vp"]) > 0

    def taste(k: str) -> float:  # (each law's taste, while leading or not: ``LawRule.taste``)
        t = laws.rule(k).taste[0 if leader else 1]
        return t + rng.uniform(-0.4, 0.4)

    return {"type": "vote", "thumb": "up" if taste(up) >= taste(low) else "down"}


CHECKED_PLACES = 6
"""How many of its best temple places the computer player checks with the engine's own rule
before falling back to a shortcut."""

PLACE_RINGS = (0.0, 3.0, 6.0, 8.5, temples.MAX_DISTANCE)
"""Distances from an island's centre at which the computer player considers a temple, each at
the twelve clock hours (the centre once)."""


def place_candidates(island: int) -> list[tuple[float, float]]:
    """Where the computer player considers a temple on ``island``."""
    out = []
    for r in PLACE_RINGS:
        for hour in ([12.0] if r == 0 else [float(h) for h in range(1, 13)]):
            out.append(temples.from_clock(island, hour, r))
    return out


def _free_candidates(discs: list[JSON], island: int, leaving: int) -> list[tuple[float, float]]:
    """The candidate places (:func:`place_candidates`) where a temple stands on free ground of
    ``island`` once the prophet ``leaving`` has become it. The engine's own check
    (:func:`temples.problem`) also looks for any free place on the island whenever a place is
    taken, a scan of the whole island each time; here only the discs near the island are tried,
    once each (a build decision took half a second on a crowded board)."""
    isl = board.ISLANDS[island]
    near = [d for d in discs if d["id"] != leaving
            and math.hypot(d["x"] - isl.x, d["y"] - isl.y) < board.ISLAND_RADIUS + 6.0]
    out = []
    for x, y in place_candidates(island):
        at, dist = temples.nearest_island(x, y)
        if at == island and dist <= temples.MAX_DISTANCE + 1e-6 and not temples.blockers(near, x, y):
            out.append((x, y))
    return out


def _build(view: JSON, seat: int, prompt: Prompt) -> Action:
    """Build where the board afterwards scores best (Worship now, without the prophet that
    becomes the temple); among equals on the side of the island away from the navel (out of the
    line of long shots) and away from the bot's own temples. Only legal places are tried; with
    no free ground left, the city itself."""
    if view["temples"][seat] == 0:
        return {"type": "build_done"}
    law_keys = [x["key"] for x in view["laws"]]
    best: tuple[float, Action] | None = None
    tried: list[tuple[float, int, Action, list[int]]] = []
    for o in prompt.params.get("prophets", []):
        for island in o["islands"]:
            after = [d for d in view["discs"] if d["id"] != o["id"]]
            isl = board.ISLANDS[island]
            after.append({"id": -1, "kind": "temple", "owner": seat, "x": isl.x, "y": isl.y})
            res = scoring.worship(after, view["players"], law_keys, view["gods"], view["vp"])
            rival = max((res[k]["vp"] for k in range(view["players"]) if k != seat), default=0)
            value = 10.0 * (float(res[seat]["vp"]) - 0.6 * float(rival))
            mine = [d for d in view["discs"] if d["owner"] == seat and d["kind"] == "temple"
                    and geometry.island_at(d["x"], d["y"], KINDS["temple"].radius) == island]
            value -= 0.5 * len(mine)
            if best is not None and value + 1.0 < best[0]:
                continue
            spots = _free_candidates(view["discs"], island, o["id"])
            if not spots:  # crowded: any free ground, else (no free ground at all) the city
                spots = temples.free_points(view["discs"], island, exclude=o["id"], step=1.0) or [(isl.x, isl.y)]
            for x, y in spots:
                score = value + 0.01 * geometry.navel_distance(x, y) - 0.002 * sum(
                    1 for d in mine if math.hypot(d["x"] - x, d["y"] - y) < 10)
                action: Action = {"type": "build", "x": x, "y": y, "prophet": o["id"]}
                tried.append((score, len(tried), action, list(o["islands"])))
                if best is None or score > best[0]:
                    best = (score, action)
    # the best place that the engine's own check allows (on a crowded island the quick check
    # above may pass a place the whole-island check refuses): a few are checked, best first;
    # then the prompt's shortcuts (free by construction), then stopping
    for _, _, action, islands in sorted(tried, key=lambda t: (-t[0], t[1]))[:CHECKED_PLACES]:
        if temples.problem(view["discs"], action["x"], action["y"], islands,
                           exclude=action["prophet"]) is None:
            return action
    quick = [dict(c.action) for c in prompt.choices if c.action.get("type") == "build"]
    return quick[0] if quick else {"type": "build_done"}


def evaluate(view: JSON, seat: int, discs: list[JSON]) -> float:
    """How good a board is for ``seat``: Worship points now, minus the best rival's, plus navel
    and city chances."""
    law_keys = [x["key"] for x in view["laws"]]
    players = view["players"]
    res = scoring.worship(discs, players, law_keys, view["gods"], view["vp"])
    mine = res[seat]["vp"]
    rival = max((res[k]["vp"] for k in range(players) if k != seat), default=0)
    u = float(mine) - 0.6 * float(rival)
    can_build = laws.builds_allowed(law_keys) and view["temples"][seat] > 0
    for d in discs:
        if d["owner"] != seat or d["kind"] not in PROPHET_KINDS:
            continue
        r = KINDS[d["kind"]].radius
        if geometry.on_navel(d["x"], d["y"], r):
            u += scoring.navel_value(discs, players, law_keys, view["gods"], seat)
        elif can_build and geometry.city_at(d["x"], d["y"], r) is not None:
            u += 1.5
    return u


def _targets(view: JSON, seat: int) -> list[tuple[float, float, float]]:
    """(x, y, extra distance) aim points, most promising first. Shots at enemy discs aim the
    god's ``hit_reach`` beyond them (Anubis loses little when his disc flies off after a hard hit,
    he may flick it again, so his are harder)."""
    out: list[tuple[float, float, float]] = []
    presence = {geometry.island_at(d["x"], d["y"], KINDS[d["kind"]].radius)
                for d in view["discs"] if d["owner"] == seat}
    cities = sorted(board.ISLANDS, key=lambda i: (i.index in presence, i.index))
    reach = gods.rule(view["gods"][seat]).hit_reach
    hits: list[tuple[float, float, float]] = []
    for d in view["discs"]:
        if d["owner"] not in (None, seat) and d["kind"] in PROPHET_KINDS + ("temple",):
            if geometry.island_at(d["x"], d["y"], KINDS[d["kind"]].radius) is not None:
                extra = 0.0 if d["kind"] == "temple" else reach
                hits.append((d["x"], d["y"], extra))
    for isl in cities:
        out.append((isl.x, isl.y, 0.0))
    out.append((board.CENTRE[0], board.CENTRE[1], 0.0))
    out.extend(hits)
    for isl in board.ISLANDS:
        out.append((isl.x + (board.CENTRE[0] - isl.x) * 0.3, isl.y + (board.CENTRE[1] - isl.y) * 0.3, 0.0))
    return out


def _plan(view: JSON, seat: int, opt: JSON, bases: dict[str | None, flick.Plan]) -> flick.Plan:
    """The physics input of candidate ``opt``, as ``aim.plan_from_view`` builds it, but without
    looking again for a free launch spot in the corner for every candidate (a sixth of the
    search's time): one plan per piece, turned to each candidate's angle and power. Twin Flight
    (the front disc lines up with the aim) and Dagda's hand take the full way."""
    piece = opt.get("piece")
    base = bases.get(piece)
    if base is None:
        base = bases[piece] = aim.plan_from_view(view, seat, 0.0, 5.0, piece=piece)
    if len(base.placed) > 1 or opt.get("hand") is not None:
        return aim.plan_from_view(view, seat, opt["angle"], opt["power"], piece=piece, hand=opt.get("hand"))
    origin = next((b.x, b.y) for b in base.bodies if b.id == base.flicked)
    head = board.heading(origin, opt["angle"])
    return dataclasses.replace(base, bodies=list(base.bodies), heading=head,
                               launches={base.flicked: physics.launch_velocity(head, opt["power"])})


def best_flick(view: JSON, seat: int, candidates: int = CANDIDATES, *, exact: bool = False) -> Action:
    """The candidate flick whose simulated board scores best for ``seat`` (the first of
    :func:`ranked_flicks`)."""
    ranked = ranked_flicks(view, seat, candidates, exact=exact)
    return ranked[0][1]


_last: tuple[JSON, int, int, list[tuple[float, Action]]] | None = None
"""The last ranking made without ``exact`` (its view itself, the seat, the count, the ranking):
the search asks for the heuristic's answer and for its ranking of the same view, one after the
other (a view is never changed once made)."""


def ranked_flicks(view: JSON, seat: int, candidates: int = CANDIDATES, *,
                  exact: bool = False) -> list[tuple[float, Action]]:
    """:func:`_ranked_flicks`, the last ranking of the very same view given again."""
    global _last
    last = _last
    if not exact and last is not None and last[0] is view and last[1:3] == (seat, candidates):
        return [(u, dict(a)) for u, a in last[3]]
    ranked = _ranked_flicks(view, seat, candidates, exact=exact)
    if not exact:
        _last = (view, seat, candidates, [(u, dict(a)) for u, a in ranked])
    return ranked


def _ranked_flicks(view: JSON, seat: int, candidates: int = CANDIDATES, *,
                   exact: bool = False) -> list[tuple[float, Action]]:
    """The candidate flicks with the score of each one's simulated board for ``seat``, best
    first (ties: in the order tried); never empty. The searching players
    (:mod:`.search`) take several of them to compare under the finger's wobble.

    The search simulates each candidate on one reusable :class:`physics.Table` (the board is
    built once, not once per candidate; fewer solver iterations) and plans the candidates from
    one launch spot: about a third of the former cost, which kept a Flick game's move at 8-17 ms
    and let it starve other games. ``exact=True`` runs the former search instead (a fresh
    engine-grade simulation per candidate): the balance bench pits one against the other to show
    the cheaper search plays as well.
    """
    law_keys = [x["key"] for x in view["laws"]]
    decel = float(view.get("decel", DECEL))
    base = aim.plan_from_view(view, seat, 0.0, 5.0)
    origin = next((b.x, b.y) for b in base.bodies if b.id == base.flicked)
    own = gods.rule(view["gods"][seat])
    heart = (own.heart and view["heart_ready"] and not view["in_corner"]
             and view.get("turn_extra") is None and sum(view["supply"][seat].values()) <= 1)
    piece = "heart" if heart else None
    dagda = own.hand
    options: list[JSON] = []
    for tx, ty, extra in _targets(view, seat):
        dist = math.hypot(tx - origin[0], ty - origin[1])
        angle = board.angle_towards(origin, (tx, ty))
        if abs(angle) > 95:
            continue
        power = power_for_distance((dist + extra) * decel / DECEL)
        opt: JSON = {"type": "flick", "angle": round(angle, 2), "power": round(min(10.0, max(1.0, power)), 2)}
        if piece:
            opt["piece"] = piece
        if dagda and extra == 0.0:
            for name in board.HAND_TARGETS:
                hx, hy = board.hand_spot(view["corners"][seat], name)
                if math.hypot(hx - tx, hy - ty) < 12:
                    opt["hand"] = name
                    opt["power"] = round(min(10.0, opt["power"] + 0.3), 2)
        options.append(opt)
        if len(options) >= max(1, candidates):
            break
    if not options:
        return [(0.0, {"type": "flick", "angle": 0.0, "power": 5.0})]
    if candidates <= 1:
        return [(0.0, options[0])]
    scored: list[tuple[float, JSON]] = []
    table: physics.Table | None = None  # the board, built once for all candidates
    bases: dict[str | None, flick.Plan] = {None: base}
    for opt in options:
        try:
            plan = _plan(view, seat, opt, bases) if not exact else aim.plan_from_view(
                view, seat, opt["angle"], opt["power"], piece=opt.get("piece"), hand=opt.get("hand"))
        except (KeyError, ValueError):
            continue
        if exact:
            positions = physics.simulate(plan.bodies, plan.launches, decel=plan.decel).positions
        else:
            if table is None:
                table = physics.Table(flick.bodies_of(view["discs"], view["gods"]), decel=plan.decel)
            positions = table.trial(plan.bodies, plan.launches)
        after = []
        for d in list(view["discs"]) + list(plan.placed):
            if d["id"] in positions:
                x, y = positions[d["id"]]
                after.append({**d, "x": x, "y": y})
        u = evaluate(view, seat, after)
        u -= 0.05 * opt["power"]  # a softer flick wobbles less
        scored.append((u, opt))
    _ = law_keys
    if not scored:
        return [(0.0, options[0])]
    order = sorted(range(len(scored)), key=lambda i: (-scored[i][0], i))
    return [scored[i] for i in order]
