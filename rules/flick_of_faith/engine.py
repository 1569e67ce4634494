"""The Flick of Faith engine: setup, Council, Mission, Worship and the end (whole rulebook).

Flow: every seat secretly picks a side of its dealt god card; everyone submits a secret setup
flick and the disc closest to the navel wins the first player token. Each Generation then runs a
Council (two laws drawn, a secret thumbs-up/down vote), a Mission (turns in order: place a
prophet in your corner and flick it; flick again if you like while it has not left the corner;
build temples anywhere on the island;
the navel scores; fallen discs go to the reserve; stray temples go home) and Worship (Presence
and Domination; prophets come back; the first player token passes; expired laws leave). After
the last Generation the most VP wins, then the most temples, then a tie-break flick.

Prompt ``params`` (see :class:`rules.engine.Prompt`), per prompt kind:

* ``"contest_flick"`` and ``"flick"`` (free-form ``"flick"``): ``angle_min`` and ``angle_max``
  (degrees, -180 and 180) and ``power_min`` and ``power_max`` (1 and 10), the allowed ranges of
  the action's ``angle`` and ``power`` (JSON numbers, whole or not; a numeric string is refused).
  A contest flick holds nothing else; any other key is refused by name.
* ``"flick"`` (a Mission flick) also has: ``pieces``, the values the optional ``piece`` may take
  (empty when the flick re-flicks a disc already placed, so ``piece`` is ignored), and
  ``piece_default``, the piece flicked when none is named (None when ``pieces`` is empty);
  ``hand_targets``, the values of Dagda's optional ``hand`` (empty for any other god, who may
  not send one; null for ``piece`` or ``hand`` means none); ``in_corner``, True when the disc is
  still in the corner from a previous flick, ``attempt``, which flick of that disc this is, and
  ``max_attempts`` (``flick.REFLICK_LIMIT``), after which a disc still in the corner stays where
  it lies. While ``in_corner``, the prompt also has one choice, ``{"type": "leave"}``: leave the
  disc where it lies instead of flicking it again.
* ``"build"`` (free-form ``"temple"``): the action is ``{"type": "build", "x": .., "y": ..}``
  (board coordinates, numbers from 0 to 100, kept to ``grid``) with an optional ``"prophet"`` id,
  or ``{"type": "build_done"}``. ``prophets`` lists the seat's prophets touching a city: ``id``,
  ``kind``, ``city`` (island index) and ``islands`` (where its temple may go); ``max_distance``
  is how far a temple's centre may be from its island's centre, ``temple_radius`` its size, and
  ``islands`` every island's ``index``, ``name`` and centre. The choices are shortcuts (a temple
  on each reachable free city, stop building). See :mod:`.temples` for what is a legal place.

The other prompts (``god``, ``vote``, ``anubis``, ``reuse``) are enumerated: their choices say
everything and ``params`` is empty.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from typing import Any, cast

from rules.engine import (
    ECHO,
    JSON,
    Action,
    Choice,
    Engine,
    Event,
    IllegalAction,
    Prompt,
    Result,
    Rng,
    Story,
    fields,
    seat_name,
    shown,
)

from ..search import STRENGTH
from ..text import count, number
from . import flick, geometry, gods, laws, physics, powers, scoring, temples
from . import map as board
from .discs import KINDS, PROPHET_KINDS
from .state import DiscD, FlickState, copy_state, state_from_json, state_to_json
from .views import (
    ContestFlickView,
    ContestView,
    CouncilResultView,
    DiscView,
    LastFlickView,
    MapView,
    Phase,
    PrivateView,
    Stage,
    TurnNotesView,
    View,
    WorshipView,
)

SUMMARY = """\
Flick of Faith is a dexterity game of gods and prophets. Each player is a god flicking prophet
discs from a cloud in their corner of the map onto four islands. Presence on an island (a prophet
or temple inside or touching its border) and Domination (more pieces there than anyone else) win
Victory Points at the end of each Generation; a prophet that stops on the central navel scores at
once for every island you are present on, and a prophet touching a city can become a temple that
stays on the map for the rest of the game.

Every Generation starts with a Council: two laws are drawn and everyone votes in secret, thumbs
up for the upper law or down for the lower one. Laws bend the game: a King Ape, a Tornado, a
Kraken, flicking blind or two discs at once. Each god has a power of its own.

On Discord you flick with an angle and a power: angle 0 aims from your disc straight at the navel,
positive angles turn clockwise on the board picture, and power runs from 1 to 10 (decimals
allowed). A mid-power flick reaches a nearby city, a full-power one slides off the map. Fingers
wobble a little, more at high power. Four Generations (three with three players); most VP wins.
"""

PROMPT_ANGLE = ("angle 0 = from your disc straight at the navel, + = clockwise on the board image "
                "(-180..180); power 1..10")
ANGLE_MIN, ANGLE_MAX = -180.0, 180.0
"""The allowed range of a flick's angle, in degrees."""


def _flick_ranges() -> dict[str, Any]:
    """The ``params`` every flick prompt carries: the ranges of ``angle`` and ``power``."""
    return {"angle_min": ANGLE_MIN, "angle_max": ANGLE_MAX,
            "power_min": flick.MIN_POWER, "power_max": flick.MAX_POWER}


FLICK_USAGE = '{"type": "flick", "angle": -180..180, "power": 1..10}'
"""What a flick action looks like, for refusals."""
BUILD_USAGE = '{"type": "build", "x": 0..100, "y": 0..100, "prophet": id (optional)}'
"""What a temple placement looks like, for refusals."""


def _read_flick(action: Action, what: str, *, mission: bool) -> tuple[float, float, dict[str, Any]]:
    """A flick's angle and power, read exactly (numbers, never numeric strings or bools; whole
    numbers become floats, so ``40`` and ``40.0`` flick alike) and checked against their ranges,
    plus the keys it holds. Only a Mission flick may name a ``piece`` and Dagda's ``hand``
    (null means none); any other key is refused by name."""
    if action["type"] != "flick":
        raise IllegalAction(f"{shown(action)} is not allowed now; send a flick: {FLICK_USAGE}.")
    optional: dict[str, Any] = {"piece": (str, None), "hand": (str, None)} if mission else {}
    got = fields(action, what, {"type": str, "angle": float, "power": float}, optional,
                 usage=FLICK_USAGE)
    angle = _in_range(got["angle"], "angle", ANGLE_MIN, ANGLE_MAX, "angle in degrees")
    power = _in_range(got["power"], "power", flick.MIN_POWER, flick.MAX_POWER, "power")
    return angle, power, got


def _in_range(value: float, key: str, lo: float, hi: float, what: str) -> float:
    if not lo <= value <= hi:
        raise IllegalAction(f"{key} {value:g} is out of range: {what} must be from {lo:g} to {hi:g}.")
    return value


TURN_NOTES = ("anubis_used", "anubis_saved", "struck", "fell_log", "fallen_kind")
"""The public notes of a Mission turn that its view carries (a chosen temple place waiting for
the temple to move, ``pending``, is not one: it is told when the temple stands)."""


def _turn_notes(turn: Mapping[str, Any]) -> dict[str, Any]:
    return {k: turn[k] for k in TURN_NOTES if k in turn}


def _worship_parts(r: Mapping[str, Any], dom_vp: int) -> str:
    """A seat's Worship points taken apart, the parts adding up to the points: " (3 for
    presence on 3 islands + 4 for dominating 2 islands + 1 bonus)" (nothing when it scored none)."""
    parts = []
    if r["presence"]:
        parts.append(f"{len(r['presence'])} for presence on {count(len(r['presence']), 'island')}")
    if r["domination"]:
        parts.append(f"{dom_vp * len(r['domination'])} for dominating "
                     f"{count(len(r['domination']), 'island')}")
    if r["bonus"]:
        parts.append(f"{r['bonus']} bonus")
    return f" ({' + '.join(parts)})" if parts else ""


class FlickOfFaith(Engine[FlickState]):
    key = "flick_of_faith"
    name = "Flick of Faith"
    min_players = 2
    max_players = 4
    summary = SUMMARY
    rules_page = "docs/rules/flick_of_faith.md"
    schema_version = 1
    heavy_bot = True
    """The computer player simulates its candidate flicks (milliseconds per move): searched in a
    worker process when the bot has one (``Engine.heavy_bot``)."""
    heavy_steps = True
    """Each flick is a physics simulation: steps run on a thread (``Engine.heavy_steps``)."""
    options = (STRENGTH,)

    # ------------------------------------------------------------------------------ setup
    def setup(self, players: int, seed: int, options: Mapping[str, Any] | None = None) -> FlickState:
        self.validate_options(players, options or {})
        rng = Rng(seed)
        cards = list(gods.CARDS)
        rng.shuffle(cards)
        deck = [x.key for x in laws.LAWS]
        rng.shuffle(deck)
        return FlickState(
            players=players, rng=rng, generations=3 if players == 3 else 4,
            dealt=cards[:players], gods=[None] * players, vp=[0] * players,
            pool=[{} for _ in range(players)], supply=[{} for _ in range(players)],
            temples=[4] * players, reserve=[0] * players, law_deck=deck,
            lost_sheep=[False] * players,
        )

    # ---------------------------------------------------------------------------- prompts
    def prompts(self, s: FlickState) -> list[Prompt]:
        if s.phase == "gods":
            out = []
            for seat in range(s.players):
                if str(seat) in s.picks:
                    continue
                a, b = gods.sides(s.dealt[seat])
                out.append(Prompt(seat, "god", f"Choose your god from the {s.dealt[seat]} card.", tuple(
                    Choice(g.name, {"type": "god", "god": g.key}, description=f"{g.power}: {g.text}"[:100])
                    for g in (a, b)), secret=True, timeout_note="the computer player chooses a side"))
            return out
        if s.phase in ("setup_flick", "tiebreak"):
            what = "first player" if s.phase == "setup_flick" else "tie-break"
            return [Prompt(seat, "contest_flick",
                           f"{what.capitalize()} flick: all flicks are revealed together and the "
                           f"prophet closest to the navel wins. {PROMPT_ANGLE}.",
                           secret=True, free_form="flick",
                           timeout_note="a computer flick at the navel is made for you",
                           params=_flick_ranges())
                    for seat in s.flickers if str(seat) not in s.flick_orders]
        if s.phase == "council":
            up, low = (laws.BY_KEY[k] for k in s.council)
            return [Prompt(seat, "vote",
                           f"Council of Generation {s.generation}: thumbs up for {up.name} (upper), "
                           f"thumbs down for {low.name} (lower). Votes are secret until all are in.",
                           (Choice(f"👍 {up.name}", {"type": "vote", "thumb": "up"}, description=up.text[:100]),
                            Choice(f"👎 {low.name}", {"type": "vote", "thumb": "down"}, description=low.text[:100])),
                           secret=True, timeout_note="the computer player votes")
                    for seat in range(s.players) if str(seat) not in s.votes]
        if s.phase == "mission" and s.active is not None:
            return [self._mission_prompt(s, s.active)]
        return []

    def _mission_prompt(self, s: FlickState, seat: int) -> Prompt:
        own = gods.rule(s.gods[seat])
        if s.stage == "flick":
            bits = []
            if s.in_corner:
                bits.append(f"Your disc has not left your corner: you may flick it again (flick "
                            f"{s.attempts + 1}, at most {flick.REFLICK_LIMIT} this turn) or leave it "
                            "where it lies.")
            elif s.turn.get("extra"):
                bits.append("Anubis returns your fallen prophet to your corner: flick it again.")
            else:
                have = ", ".join(f"{n} {k}" for k, n in s.supply[seat].items() if n) or "nothing"
                bits.append(f"Flick a prophet from your corner (you have {have}).")
                kinds = [k for k in PROPHET_KINDS if s.supply[seat].get(k, 0)]
                if len(kinds) > 1:
                    bits.append(f"Optional \"piece\": {', '.join(kinds)} (default {kinds[0]}).")
                if own.heart and s.heart_ready:
                    bits.append(f"{gods.name(s.gods[seat])}: \"piece\": \"heart\" flicks your Heart "
                                "instead (once per Generation).")
                if laws.twin(s.laws):
                    bits.append("Twin Flight: two of your prophets are placed in a line; you flick the rear one.")
            if own.hand:
                bits.append("Dagda: optional \"hand\": I, II, III, IV or navel stands the Hand of God beyond it.")
            bits.append(PROMPT_ANGLE + ".")
            pieces = self._piece_options(s, seat) if not s.in_corner and not s.turn.get("extra") else []
            params = {
                **_flick_ranges(), "pieces": pieces,
                "piece_default": flick.default_piece(s.supply[seat]) if pieces else None,
                "hand_targets": list(board.HAND_TARGETS) if own.hand else [],
                "in_corner": bool(s.in_corner), "attempt": s.attempts + 1,
                "max_attempts": flick.REFLICK_LIMIT,
            }
            # a disc still in the corner may be flicked again or left where it lies (rulebook:
            # "may flick again"); the free-form flick is the one answer otherwise
            leave = (Choice("Leave it where it lies", {"type": "leave"},
                            description="Do not flick this disc again; it stays in your corner (sea)."),) \
                if s.in_corner else ()
            return Prompt(seat, "flick", " ".join(bits), leave, free_form="flick",
                          timeout_note="the computer player flicks for you", params=params)
        if s.stage == powers.SECOND_CHANCE:
            kind = s.turn.get("fallen_kind", "prophet")
            return Prompt(seat, powers.SECOND_CHANCE,
                          f"{gods.name(s.gods[seat])}: your {kind} left the map. Return it to your "
                          "corner and flick it again?",
                          (Choice("Flick it again", {"type": powers.SECOND_CHANCE, "reflick": True}),
                           Choice("Leave it in the reserve",
                                  {"type": powers.SECOND_CHANCE, "reflick": False})),
                          timeout_note="the fallen prophet is flicked again by the computer player")
        if s.stage == "build":
            return self._build_prompt(s, seat)
        # reuse
        return Prompt(seat, "reuse", "You have no temple left in your supply: choose one of your built temples to move.",
                      tuple(Choice(f"Temple on {self._where(d)}", {"type": "reuse", "temple": d["id"]})
                            for d in s.discs if d["kind"] == "temple" and d["owner"] == seat),
                      timeout_note="the computer player chooses")

    @staticmethod
    def _piece_options(s: FlickState, seat: int) -> list[str]:
        """What a fresh Mission flick's ``piece`` may name: a prophet kind in supply, or Freja's
        Heart while it is ready."""
        out = [k for k in PROPHET_KINDS if s.supply[seat].get(k, 0) > 0]
        if gods.rule(s.gods[seat]).heart and s.heart_ready:
            out.append("heart")
        return out

    @staticmethod
    def _where(d: DiscD) -> str:
        i = geometry.island_at(d["x"], d["y"], KINDS[d["kind"]].radius)
        return f"island {board.ISLANDS[i].name}" if i is not None else "the sea"

    def _build_prompt(self, s: FlickState, seat: int) -> Prompt:
        """Building is free-form: the player gives a position (see :mod:`temples`). The choices
        are shortcuts: a temple on each reachable city, where that is free, and stopping."""
        options = self._build_options(s, seat)
        quick: list[Choice] = []
        seen: set[int] = set()
        for o in options:
            for i in o["islands"]:
                isl = board.ISLANDS[i]
                if i not in seen and temples.problem(s.discs, isl.x, isl.y, [i], exclude=o["id"]) is None:
                    seen.add(i)
                    quick.append(Choice(f"Temple on the city of island {isl.name}",
                                        {"type": "build", "x": isl.x, "y": isl.y, "prophet": o["id"]}))
        cities = ", ".join(sorted({board.ISLANDS[o["city"]].name for o in options}))
        where = "any island" if gods.rule(s.gods[seat]).builds_anywhere else f"island {cities}"
        text = (f"Build a temple: your prophet touches the city of island {cities}. Place the temple "
                f"anywhere on {where} (wholly on the island, on free ground), or stop building.")
        params = {"prophets": options, "max_distance": temples.MAX_DISTANCE,
                  "temple_radius": temples.RADIUS, "grid": temples.GRID,
                  "islands": [{"index": i.index, "name": i.name, "x": i.x, "y": i.y} for i in board.ISLANDS]}
        return Prompt(seat, "build", text, (*quick[:4], Choice("Stop building", {"type": "build_done"})),
                      free_form="temple", timeout_note="the computer player places the temple",
                      params=params)

    def _build_options(self, s: FlickState, seat: int) -> list[dict[str, Any]]:
        """Each of the seat's prophets touching a city: its id, kind, city and the islands its
        temple may go to (that island; any island for Zeus)."""
        out: list[dict[str, Any]] = []
        anywhere = gods.rule(s.gods[seat]).builds_anywhere
        for d in self._city_prophets(s, seat):
            city = geometry.city_at(d["x"], d["y"], KINDS[d["kind"]].radius)
            assert city is not None
            out.append({"id": d["id"], "kind": d["kind"], "city": city,
                        "islands": list(range(4)) if anywhere else [city]})
        return out

    def _city_prophets(self, s: FlickState, seat: int) -> list[DiscD]:
        return [d for d in s.discs if d["owner"] == seat and d["kind"] in PROPHET_KINDS
                and geometry.city_at(d["x"], d["y"], KINDS[d["kind"]].radius) is not None]

    # ------------------------------------------------------------------------------- play
    def play(self, state: FlickState, seat: int, action: Action,
             prompt: Prompt) -> tuple[FlickState, list[Event]]:
        # "god", "vote", "anubis", "build" and "reuse" are enumerated: ``apply`` has checked the
        # choice; the two flick kinds are free-form and checked here
        s = self.clone(state)
        story = Story(s)
        kind = prompt.kind
        if kind == "god":
            self._pick_god(story, seat, action["god"])
        elif kind == "contest_flick":
            self._submit_contest(story, seat, action)
        elif kind == "vote":
            self._vote(story, seat, action["thumb"])
        elif kind == "flick":
            self._mission_flick(story, seat, action)
        elif kind == powers.SECOND_CHANCE:
            self._anubis(story, seat, bool(action["reflick"]))
        elif kind == "build":
            if action["type"] == "build_done":
                fields(action, "stopping", {"type": str})
                left = s.temples[seat]
                story.say(f"{seat_name(seat)} chooses to build no more temples this turn "
                          f"({count(left, 'temple')} left to build)." if left else
                          f"{seat_name(seat)} builds no more temples: none is left to build.")
                self._finish_turn(story)
            elif action["type"] == "build":
                self._build(story, seat, action)
            else:
                raise IllegalAction(f"{shown(action)} is not allowed now; send {BUILD_USAGE} or "
                                    '{"type": "build_done"}.')
        elif kind == "reuse":
            self._reuse(story, seat, int(action["temple"]))
        else:  # pragma: no cover - prompts() only produces the kinds above
            raise IllegalAction(f"unexpected prompt {kind!r}.")
        return s, story.events

    def undoable(self, before: FlickState, seat: int, action: Action, after: FlickState,
                 events: Sequence[Event]) -> str | None:
        """A flick is never taken back: its wobble is chance. The choices around it may be, while
        nothing else was left to chance and the turn stays the seat's: leaving a disc in the
        corner, a temple's place, Anubis's offer, the temple to move. A secret god or vote may be
        taken back while others are still choosing; the last one reveals them all."""
        kind = action["type"]
        if kind in ("flick", "contest_flick") or "angle" in action:
            return "a flick is never taken back, its wobble is left to chance"
        if before.rng.position != after.rng.position:
            return "something was left to chance since"
        if len(after.law_deck) < len(before.law_deck):
            return "a law card was drawn since"
        if kind == "god":
            return None if after.phase == "gods" else "every god has been chosen, so they are revealed"
        if kind == "vote":
            if after.phase == before.phase and after.council == before.council:
                return None
            return "everyone has voted, so the votes are out"
        if kind in ("leave", "build", powers.SECOND_CHANCE, "reuse"):
            return None
        return "that kind of move is final in Flick of Faith"

    # ---------------------------------------------------------------------------- gods
    def _pick_god(self, story: Story[FlickState], seat: int, key: str) -> None:
        s = story.s
        s.picks[str(seat)] = key
        story.tell(seat, f"You chose {gods.name(key)}.", kind=ECHO)
        story.say(f"{seat_name(seat)} has chosen a god.")
        if len(s.picks) < s.players:
            return
        per = 6 if s.players == 3 else 5
        for k in range(s.players):
            g = s.picks[str(k)]
            s.gods[k] = g
            swap = gods.rule(g).swap
            s.pool[k] = {"prophet": per - 1, swap: 1} if swap is not None else {"prophet": per}
            s.supply[k] = dict(s.pool[k])
        s.picks = {}
        story.say("The gods are revealed: " + ", ".join(
            f"{seat_name(k)} is {gods.name(s.gods[k])}" for k in range(s.players)) + ".", kind="reveal")
        s.phase = "setup_flick"
        s.flickers = list(range(s.players))
        s.flick_orders = {}

    # ------------------------------------------------------------------- contest flicks
    def _submit_contest(self, story: Story[FlickState], seat: int, action: Action) -> None:
        s = story.s
        angle, power, _ = _read_flick(action, "a secret flick", mission=False)
        s.flick_orders[str(seat)] = {"angle": angle, "power": power}
        story.tell(seat, f"Your flick (angle {angle:g}, power {power:g}) is locked in.")
        story.say(f"{seat_name(seat)} has flicked in secret.")
        if all(str(k) in s.flick_orders for k in s.flickers):
            self._resolve_contest(story)

    def _resolve_contest(self, story: Story[FlickState]) -> None:
        """All submitted contest flicks slide together on a clear map; closest to the navel wins."""
        s = story.s
        discs: list[DiscD] = []
        launches: dict[int, tuple[float, float]] = {}
        shown = []
        for k, seat in enumerate(sorted(s.flickers)):
            o = s.flick_orders[str(seat)]
            corner = board.corner_of(s.players, seat)
            x, y = board.launch_spot(corner)
            d: DiscD = {"id": k + 1, "kind": "prophet", "owner": seat, "x": x, "y": y}
            discs.append(d)
            a_sd, p_sd = flick.wobble_sd(o["power"], [])
            da = s.rng.gauss(0.0, a_sd)
            dp = s.rng.gauss(0.0, p_sd)
            power = max(0.5, o["power"] * (1.0 + dp))
            launches[d["id"]] = physics.launch_velocity(board.heading((x, y), o["angle"] + da), power)
            shown.append(f"{seat_name(seat)} angle {o['angle']:g} power {o['power']:g}")
        bodies = flick.bodies_of(discs, s.gods)
        out = physics.simulate(bodies, launches)
        dist: dict[int, float] = {}
        for d in discs:
            pos = out.positions.get(d["id"])
            dist[d["owner"]] = geometry.navel_distance(*pos) if pos else math.inf
        best = min(dist.values())
        tied = [seat for seat in sorted(dist) if dist[seat] == best]
        data = {"seat": None, "bodies": [{**d, "mass_scale": 1.0} for d in discs],
                "launches": {str(k): list(v) for k, v in launches.items()},
                "decel": physics.DECEL, "flicked": [d["id"] for d in discs]}
        what = "first-player" if s.phase == "setup_flick" else "tie-break"
        story.say(f"The {what} flicks are revealed: " + "; ".join(shown) + ". Distances to the navel: " +
                  ", ".join(f"{seat_name(k)} {'off the map' if math.isinf(v) else f'{v:.1f}'}" for k, v in sorted(dist.items())) + ".",
                  kind="flick", data=data)
        s.last_contest = {"kind": s.phase, "distances": {str(k): (None if math.isinf(v) else round(v, 4))
                                                          for k, v in dist.items()},
                          "final": {str(d["owner"]): list(out.positions[d["id"]]) if d["id"] in out.positions else None
                                    for d in discs}}
        s.flick_orders = {}
        if len(tied) > 1:
            s.flickers = tied
            story.say("A tie: " + ", ".join(seat_name(k) for k in tied) + " flick again.")
            return
        winner = tied[0]
        s.flickers = []
        if s.phase == "setup_flick":
            s.first_player = winner
            story.say(f"{seat_name(winner)} is closest to the navel and takes the first player token.")
            self._start_generation(story)
        else:
            s.winners = [winner]
            s.end_reason = f"tie-break flick won by {seat_name(winner)}"
            s.phase = "over"
            story.say(f"{seat_name(winner)} wins the tie-break flick and the game!", kind="end")

    # ---------------------------------------------------------------------------- council
    def _start_generation(self, story: Story[FlickState]) -> None:
        s = story.s
        s.generation += 1
        if len(s.law_deck) < 2:
            s.law_deck = [x.key for x in laws.LAWS if x.key not in s.laws]
            s.rng.shuffle(s.law_deck)
        s.council = [s.law_deck.pop(0), s.law_deck.pop(0)]
        s.votes = {}
        s.phase = "council"
        up, low = (laws.BY_KEY[k] for k in s.council)
        story.say(f"Generation {s.generation} of {s.generations}. The Council draws {up.name} (upper) "
                  f"and {low.name} (lower).", kind="council")

    def _vote(self, story: Story[FlickState], seat: int, thumb: str) -> None:
        s = story.s
        s.votes[str(seat)] = thumb
        story.tell(seat, f"You voted thumbs {thumb}.", kind=ECHO)
        story.say(f"{seat_name(seat)} has voted.")
        if len(s.votes) < s.players:
            return
        ups = sum(1 for v in s.votes.values() if v == "up")
        downs = s.players - ups
        upper, lower = s.council
        if ups > downs:
            chosen, how = upper, "more thumbs up"
        elif downs > ups:
            chosen, how = lower, "more thumbs down"
        elif (caster := gods.seat_with(s.gods, lambda r: r.casting_vote)) is not None and s.players > 2:
            chosen = upper if s.votes[str(caster)] == "up" else lower
            how = f"a tie, settled by {gods.name(s.gods[caster])}'s vote"
        else:
            pair = [upper, lower]
            s.rng.shuffle(pair)
            chosen, how = pair[0], "a tie, decided at random"
        s.last_council = {"upper": upper, "lower": lower, "chosen": chosen,
                          "votes": {k: v for k, v in sorted(s.votes.items())}}
        story.say("Votes: " + ", ".join(f"{seat_name(int(k))} {'👍' if v == 'up' else '👎'}" for k, v in sorted(s.votes.items()))
                  + f" — {how}: {laws.name(chosen)} enters the game.", kind="reveal")
        s.votes = {}
        s.council = []
        s.laws.append(chosen)
        self._law_enters(story, chosen)
        self._start_mission(story)

    def _law_enters(self, story: Story[FlickState], key: str) -> None:
        s = story.s
        hook = laws.rule(key).enters
        if hook is not None:
            hook(story, s.active if s.active is not None else 0)

    # ---------------------------------------------------------------------------- mission
    def _start_mission(self, story: Story[FlickState]) -> None:
        s = story.s
        s.phase = "mission"
        for kind in laws.guardians(s.laws):  # (the King Ape) back on the navel
            s.discs = [d for d in s.discs if d["kind"] != kind]
            self._add_disc(s, kind, None, board.CENTRE[0], board.CENTRE[1])
        in_force = laws.rules(s.laws)
        step = -1 if any(r.reverse for r in in_force) else 1
        start = s.first_player
        if any(r.fewest_first for r in in_force):
            base = [(s.first_player + step * i) % s.players for i in range(s.players)]
            low = min(s.vp)
            start = next(k for k in base if s.vp[k] == low)
        s.order = [(start + step * i) % s.players for i in range(s.players)]
        s.turn_index = -1
        story.say("Mission: turn order " + " → ".join(seat_name(k) for k in s.order) + ".")
        self._next_turn(story)

    def _has_flick(self, s: FlickState, seat: int) -> bool:
        return any(n > 0 for n in s.supply[seat].values())

    def _next_turn(self, story: Story[FlickState]) -> None:
        s = story.s
        for i in range(1, s.players + 1):
            idx = (s.turn_index + i) % s.players
            seat = s.order[idx]
            if self._has_flick(s, seat):
                s.turn_index = idx
                s.active = seat
                s.stage = "flick"
                s.in_corner = []
                s.attempts = 0
                s.turn = {"anubis_used": False, "struck": []}
                return
        s.active = None
        s.stage = ""
        self._worship(story)

    def _add_disc(self, s: FlickState, kind: str, owner: int | None, x: float, y: float) -> DiscD:
        d = {"id": s.next_id, "kind": kind, "owner": owner, "x": x, "y": y}
        s.next_id += 1
        s.discs.append(d)
        return d

    def _mission_flick(self, story: Story[FlickState], seat: int, action: Action) -> None:
        """A Mission flick, or leaving the disc in the corner: the pieces it places, the finger's
        wobble, the physics, what is told, and whether the disc is still in the corner."""
        s = story.s
        if action["type"] == "leave":
            self._leave(story, seat, action)
            return
        angle, power, got = _read_flick(action, "a flick", mission=True)
        hand: str | None = got.get("hand")
        self._check_hand(s, seat, hand)
        pieces = self._take_pieces(s, seat, got.get("piece")) if not s.in_corner else []
        a_sd, p_sd = flick.wobble_sd(power, s.laws)
        da = s.rng.gauss(0.0, a_sd)
        dp = s.rng.gauss(0.0, p_sd)
        real_power = min(flick.MAX_POWER * 1.05, max(0.5, power * (1.0 + dp)))
        corner = board.corner_of(s.players, seat)
        before = [dict(d) for d in s.discs]
        plan = flick.plan(s.discs, seat=seat, corner=corner, gods=s.gods, law_keys=s.laws,
                          angle=angle + da, power=real_power, pieces=pieces, next_id=s.next_id,
                          in_corner=s.in_corner, hand_target=hand, aim_angle=angle)
        s.next_id += len(plan.placed)
        s.discs.extend(dict(d) for d in plan.placed)
        out = self._slide(plan)
        s.turn["struck"] = s.turn.get("struck", []) + [i for i in out.struck.get(plan.flicked, []) if i > 0]
        fallen = self._apply_outcome(s, out)
        s.attempts += 1
        self._tell_flick(story, seat, plan, out, before, pieces, hand, (angle, power, da, real_power))
        if fallen:
            story.say("Off the map: " + ", ".join(fallen) + ".")
        # the discs this flick put in the corner, or the one flicked again from it
        ids = [d["id"] for d in plan.placed] if pieces else list(s.in_corner)
        self._still_in_corner(story, seat, ids, corner)

    def _slide(self, plan: flick.Plan) -> physics.Outcome:
        """A Mission flick's physics (the search's samples slide on a table they keep:
        :class:`.search.Sampler`)."""
        return physics.simulate(plan.bodies, plan.launches, decel=plan.decel, track=[plan.flicked])

    def _leave(self, story: Story[FlickState], seat: int, action: Action) -> None:
        """The disc still in the corner is left where it lies."""
        s = story.s
        fields(action, "leaving a disc", {"type": str})
        if not s.in_corner:
            raise IllegalAction("there is no disc in your corner to leave: send a flick: "
                                f"{FLICK_USAGE}.")
        story.say(f"{seat_name(seat)} leaves the disc where it lies in the corner.")
        self._done_flicking(story, seat)

    @staticmethod
    def _check_hand(s: FlickState, seat: int, hand: str | None) -> None:
        """A flick's ``hand`` names one of the Hand of God's places, and only for a god who has
        it (Dagda)."""
        may = gods.rule(s.gods[seat]).hand
        if hand is not None and (not may or hand not in board.HAND_TARGETS):
            allowed = ", ".join(board.HAND_TARGETS) if may else "only Dagda may use it"
            raise IllegalAction(f"hand {hand[:20]!r} is not allowed: {allowed}.")

    def _take_pieces(self, s: FlickState, seat: int, piece: str | None) -> list[str]:
        """The discs a fresh flick puts in the corner, taken from the seat's supply (the Heart:
        no longer ready; a prophet Anubis returned: from nowhere). ``piece`` is checked."""
        extra = s.turn.get("extra")
        if piece is not None and extra is None:
            allowed = self._piece_options(s, seat)
            if piece not in allowed:
                raise IllegalAction(f"piece {piece[:20]!r} is not available; choose one of: "
                                    f"{', '.join(allowed)}.")
        pieces = flick.pieces_for_flick(s.supply[seat], piece, laws.twin(s.laws), extra)
        if extra is not None:
            s.turn["extra"] = None
        for k in pieces:
            if k == "heart":
                s.heart_ready = False
            elif extra is None:
                s.supply[seat][k] -= 1
        return pieces

    def _tell_flick(self, story: Story[FlickState], seat: int, plan: flick.Plan, out: physics.Outcome,
                    before: list[DiscD], pieces: list[str], hand: str | None,
                    wobble: tuple[float, float, float, float]) -> None:
        """The flick as everyone sees it: ``last_flick`` and the flick's line with what an
        animation needs. ``wobble``: the angle and power aimed, the angle's wobble and the power
        that resulted."""
        s = story.s
        angle, power, da, real_power = wobble
        vx, vy = plan.launches[plan.flicked]
        origin = next([b.x, b.y] for b in plan.bodies if b.id == plan.flicked)
        data = flick.event_data(plan, before, seat)
        data.update({"angle": angle, "power": power, "wobble_angle": round(da, 4),
                     "resolved_power": round(real_power, 4), "hand": list(plan.hand) if plan.hand else None,
                     "fell": out.fell})
        s.last_flick = {"seat": seat, "flicked": plan.flicked, "angle": angle, "power": power,
                        "wobble_angle": round(da, 4), "resolved_power": round(real_power, 4),
                        "velocity": [vx, vy], "origin": origin,
                        "hand": list(plan.hand) if plan.hand else None,
                        "result": {str(k): list(v) for k, v in sorted(out.positions.items()) if k > 0},
                        "fell": [i for i in out.fell]}
        what = "the Heart" if pieces == ["heart"] else ("two prophets" if len(pieces) > 1 else "a prophet")
        if not pieces:
            what = "again"
        where = self._landing_text(s, plan.flicked)
        hand_txt = f" with the Hand of God beyond {hand}" if hand else ""
        aimed = f"aimed at {round(angle)}°, power {number(round(power, 1))}"
        flew = f"the wobble sent it at {round(angle + da)}°, power {number(round(real_power, 1))}"
        story.say(f"{seat_name(seat)} flicks {what}{hand_txt} ({aimed}; {flew}): {where}.",
                  kind="flick", data=data)

    def _still_in_corner(self, story: Story[FlickState], seat: int, ids: list[int],
                         corner: int) -> None:
        """After a flick: a disc of ``ids`` still in the corner may be flicked again, up to the
        limit; otherwise the seat is done flicking."""
        s = story.s
        on = {d["id"]: d for d in s.discs}
        still = [i for i in ids if i in on and geometry.in_corner(on[i]["x"], on[i]["y"], KINDS[on[i]["kind"]].radius, corner)]
        if still and s.attempts < flick.REFLICK_LIMIT:
            s.in_corner = still
            s.stage = "flick"
            return
        if still:
            story.say(f"{seat_name(seat)}'s disc is still in the corner after {s.attempts} "
                      "flicks: it stays where it lies.")
        self._done_flicking(story, seat)

    def _done_flicking(self, story: Story[FlickState], seat: int) -> None:
        """The active player has finished flicking (the disc left the corner, or they leave it
        there, or the re-flick limit is reached): Anubis's second chance, then building."""
        s = story.s
        s.in_corner = []
        s.attempts = 0
        # Anubis: the first of his prophets to leave the map this turn may be flicked again
        if gods.rule(s.gods[seat]).second_chance and not s.turn.get("anubis_used"):
            mine = [k for (i, k, o, to) in s.turn.get("fell_log", []) if o == seat and k in PROPHET_KINDS and to == "reserve"]
            if mine:
                s.turn["anubis_used"] = True
                s.turn["fallen_kind"] = mine[0]
                s.stage = powers.SECOND_CHANCE
                return
        self._after_flicks(story)

    def _landing_text(self, s: FlickState, i: int) -> str:
        d = next((x for x in s.discs if x["id"] == i), None)
        if d is None:
            return "it flies off the map"
        r = KINDS[d["kind"]].radius
        if geometry.on_navel(d["x"], d["y"], r):
            return "it stops on the navel"
        city = geometry.city_at(d["x"], d["y"], r)
        if city is not None:
            return f"it touches the city of island {board.ISLANDS[city].name}"
        isl = geometry.island_at(d["x"], d["y"], r)
        if isl is not None:
            return f"it lands on island {board.ISLANDS[isl].name}"
        return "it stops in the sea"

    def _to_reserve(self, s: FlickState, d: DiscD) -> str:
        """A prophet-kind disc leaves the map: to the reserve (or back to hand: Lost Sheep)."""
        owner = d["owner"]
        if d["kind"] in PROPHET_KINDS and owner is not None:
            if any(r.first_fall_returns for r in laws.rules(s.laws)) and not s.lost_sheep[owner]:
                s.lost_sheep[owner] = True
                s.supply[owner][d["kind"]] = s.supply[owner].get(d["kind"], 0) + 1
                return "hand"
            if (gods.rule(s.gods[owner]).second_chance and s.phase == "mission" and owner != s.active
                    and (s.players == 2 or not s.turn.get("anubis_saved"))):
                # Anubis on another player's turn: the first of his prophets knocked off the
                # map (with two players, every one) goes back to his hand, to be flicked again
                # on a later turn.
                s.turn["anubis_saved"] = True
                s.supply[owner][d["kind"]] = s.supply[owner].get(d["kind"], 0) + 1
                return powers.SECOND_CHANCE
            s.reserve[owner] += 1
            return "reserve"
        if d["kind"] == "temple" and owner is not None:
            s.temples[owner] += 1
            return "supply"
        return "gone"

    def _apply_outcome(self, s: FlickState, out: physics.Outcome) -> list[str]:
        """Write resting positions into the state; take fallen discs off the map."""
        fallen: list[str] = []
        keep: list[DiscD] = []
        byid = {d["id"]: d for d in s.discs}
        for i in out.fell:
            d = byid.get(i)
            if d is None:
                continue
            to = self._to_reserve(s, d)
            s.turn.setdefault("fell_log", []).append([i, d["kind"], d["owner"], to])
            who = seat_name(d["owner"]) + "'s " if d["owner"] is not None else "the "
            note = {"hand": " (back to hand: Lost Sheep)",
                    powers.SECOND_CHANCE: " (back to hand: Anubis)"}.get(to, "")
            fallen.append(who + d["kind"].replace("_", " ") + note)
        fell = set(out.fell)
        for d in s.discs:
            if d["id"] in fell:
                continue
            if d["id"] in out.positions:
                d["x"], d["y"] = out.positions[d["id"]]
            keep.append(d)
        s.discs = sorted(keep, key=lambda d: d["id"])
        return fallen

    def _anubis(self, story: Story[FlickState], seat: int, again: bool) -> None:
        s = story.s
        kind = s.turn.get("fallen_kind", "prophet")
        if again:
            s.reserve[seat] -= 1
            s.turn["extra"] = kind
            s.stage = "flick"
            story.say(f"Anubis returns {seat_name(seat)}'s {kind} to the corner for another flick.")
        else:
            story.say(f"{seat_name(seat)} leaves the fallen {kind} in the reserve.")
            self._after_flicks(story)

    def _after_flicks(self, story: Story[FlickState]) -> None:
        s = story.s
        if laws.builds_allowed(s.laws) and self._city_prophets(s, s.active if s.active is not None else 0):
            s.stage = "build"
            return
        self._finish_turn(story)

    # ---------------------------------------------------------------------------- temples
    def _build(self, story: Story[FlickState], seat: int, action: Action) -> None:
        s = story.s
        got = fields(action, "a temple", {"type": str, "x": float, "y": float}, {"prophet": int},
                     usage=BUILD_USAGE)
        x = _in_range(got["x"], "x", 0.0, board.SIZE, "a board coordinate")
        y = _in_range(got["y"], "y", 0.0, board.SIZE, "a board coordinate")
        x, y = temples.snap(x), temples.snap(y)
        options = self._build_options(s, seat)
        island, _ = temples.nearest_island(x, y)
        if "prophet" in got:
            chosen = next((o for o in options if o["id"] == got["prophet"]), None)
            if chosen is None:
                ids = ", ".join(f"#{o['id']} (city {board.ISLANDS[o['city']].name})" for o in options)
                raise IllegalAction(f"prophet #{got['prophet']} is not one of yours touching a city; "
                                    f"choose {ids}.")
        else:
            chosen = temples.choose_prophet(options, island)
        why = temples.problem(s.discs, x, y, chosen["islands"], exclude=chosen["id"])
        if why is not None:
            raise IllegalAction(why)
        d = next(t for t in s.discs if t["id"] == chosen["id"])
        s.discs.remove(d)
        s.reserve[seat] += 1
        if s.temples[seat] > 0:
            s.temples[seat] -= 1
            self._place_temple(story, seat, x, y, None)
        else:
            s.turn["pending"] = {"x": x, "y": y}
            s.stage = "reuse"

    def _reuse(self, story: Story[FlickState], seat: int, temple: int) -> None:
        s = story.s
        p = s.turn.pop("pending")
        self._place_temple(story, seat, float(p["x"]), float(p["y"]), temple)

    def _place_temple(self, story: Story[FlickState], seat: int, x: float, y: float,
                      moved: int | None) -> None:
        s = story.s
        if moved is None:
            d = self._add_disc(s, "temple", seat, x, y)
        else:
            d = next(t for t in s.discs if t["id"] == moved)
            d["x"], d["y"] = x, y
        s.discs.sort(key=lambda t: t["id"])
        r = KINDS["temple"].radius
        if any(geometry.overlaps(x, y, r, o["x"], o["y"], KINDS[o["kind"]].radius) for o in s.discs if o is not d):
            # only when the island had no free ground left: the new temple shoves what is there
            out = physics.simulate(flick.bodies_of(s.discs, s.gods), {}, decel=laws.decel(s.laws), min_steps=60)
            fallen = self._apply_outcome(s, out)
            if fallen:
                story.say("Pushed off the map by the new temple: " + ", ".join(fallen) + ".")
        island, _ = temples.nearest_island(x, y)
        verb = "moves a temple to" if moved is not None else "builds a temple on"
        story.say(f"{seat_name(seat)} {verb} {temples.describe(island, x, y)}.")
        for key in s.laws:
            vp = laws.rule(key).temple_vp
            if vp:
                s.vp[seat] += vp
                story.say(f"{laws.name(key)}: {seat_name(seat)} gains {vp} VP.")
        s.stage = "build" if self._city_prophets(s, seat) else ""
        if not s.stage:
            self._finish_turn(story)

    # ------------------------------------------------------------------------ end of turn
    def _finish_turn(self, story: Story[FlickState]) -> None:
        s = story.s
        seat = s.active if s.active is not None else 0
        # b) the navel scores
        scored = [d for d in s.discs if d["kind"] in PROPHET_KINDS and d["owner"] is not None
                  and geometry.on_navel(d["x"], d["y"], KINDS[d["kind"]].radius)]
        values = {d["id"]: scoring.navel_value(s.discs, s.players, s.laws, s.gods, d["owner"]) for d in scored}
        for d in scored:
            s.discs.remove(d)
            s.reserve[d["owner"]] += 1
            s.vp[d["owner"]] += values[d["id"]]
            story.say(f"Navel: {seat_name(d['owner'])}'s {d['kind']} scores {values[d['id']]} VP.", kind="score")
        # d) temples outside every island go home
        for d in [t for t in s.discs if t["kind"] == "temple"]:
            if geometry.island_at(d["x"], d["y"], KINDS["temple"].radius) is None:
                s.discs.remove(d)
                s.temples[d["owner"]] += 1
                story.say(f"{seat_name(d['owner'])}'s temple was pushed into the sea and returns to supply.")
        # the active god's power at the end of its turn (Morrigan's crows), then the laws' (the
        # Kraken)
        own = gods.rule(s.gods[seat]).turn_end
        for hook in [own, *(r.turn_end for r in laws.rules(s.laws))]:
            if hook is not None:
                hook(story, seat)
        self._next_turn(story)

    # ---------------------------------------------------------------------------- worship
    def _worship(self, story: Story[FlickState]) -> None:
        s = story.s
        for law in laws.rules(s.laws):  # (the Tornado)
            if law.before_worship is not None:
                law.before_worship(story, s.active if s.active is not None else 0)
        res = scoring.worship(s.discs, s.players, s.laws, s.gods, s.vp)
        lines = []
        for k in range(s.players):
            r = res[k]
            s.vp[k] += r["vp"]
            lines.append(f"{seat_name(k)} +{r['vp']}{_worship_parts(r, laws.domination_value(s.laws))}")
        s.last_worship = res
        story.say(f"Worship of Generation {s.generation}: " + "; ".join(lines) + ".", kind="score")
        # prophets come home, temples stay, the token passes, expired laws leave
        s.discs = [d for d in s.discs if d["kind"] not in PROPHET_KINDS and d["kind"] != "heart"]
        for k in range(s.players):
            s.supply[k] = dict(s.pool[k])
            s.reserve[k] = 0
            s.lost_sheep[k] = False
        s.heart_ready = True
        s.first_player = (s.first_player + 1) % s.players
        gone = [k for k in s.laws if laws.BY_KEY[k].duration != "game"]
        s.laws = [k for k in s.laws if laws.BY_KEY[k].duration == "game"]
        if gone:
            story.say("Laws leaving the game: " + ", ".join(laws.name(k) for k in gone) + ".")
        if s.generation >= s.generations:
            self._end(story)
        else:
            story.say(f"The first player token passes to {seat_name(s.first_player)}.")
            self._start_generation(story)

    def _end(self, story: Story[FlickState]) -> None:
        s = story.s
        top = max(s.vp)
        tied = [k for k in range(s.players) if s.vp[k] == top]
        if len(tied) > 1:
            t = {k: sum(1 for d in s.discs if d["kind"] == "temple" and d["owner"] == k) for k in tied}
            most = max(t.values())
            tied = [k for k in tied if t[k] == most]
            if len(tied) > 1:
                s.phase = "tiebreak"
                s.flickers = tied
                s.flick_orders = {}
                story.say("Tied on VP and temples: " + ", ".join(seat_name(k) for k in tied) +
                          " flick for the navel to decide the winner.")
                return
            s.end_reason = f"most VP ({top}), tie broken by most temples on the map"
        else:
            s.end_reason = f"most VP ({top}) after the last Generation"
        s.winners = tied
        s.phase = "over"
        story.say(f"The game is over: {seat_name(tied[0])} wins with {top} VP.", kind="end")

    # ------------------------------------------------------------------------------- view
    def view(self, s: FlickState, seat: int | None) -> dict[str, Any]:
        v = public_view(s)
        if seat is not None:
            v["private"] = private_view(s, seat)
        return cast(dict[str, Any], v)  # the engine contract's plain JSON (declared in ``views``)

    def private_view(self, s: FlickState, seat: int) -> dict[str, Any]:
        """The seat's part of :meth:`view` alone (the platform asks every seat's after each step)."""
        return cast(dict[str, Any], private_view(s, seat))

    def secret_variants(self, s: FlickState, seat: int, rng: random.Random) -> list[FlickState]:
        """Flick of Faith has no hand: a seat's secrets are its pending choices, each replaced by
        another legal one: the other side of its god card, the other thumb, another contest
        flick (angle and power within their ranges)."""
        out: list[FlickState] = []
        key = str(seat)
        if key in s.picks:
            other = [g.key for g in gods.sides(s.dealt[seat]) if g.key != s.picks[key]]
            if other:
                v = self.clone(s)
                v.picks[key] = other[0]
                out.append(v)
        if key in s.votes:
            v = self.clone(s)
            v.votes[key] = "down" if s.votes[key] == "up" else "up"
            out.append(v)
        if key in s.flick_orders:
            v = self.clone(s)
            v.flick_orders[key] = {"angle": round(rng.uniform(ANGLE_MIN, ANGLE_MAX), 2),
                                   "power": round(rng.uniform(flick.MIN_POWER, flick.MAX_POWER), 2)}
            out.append(v)
        return out

    def result(self, s: FlickState) -> Result | None:
        if s.phase != "over" or s.winners is None:
            return None
        return Result(tuple(s.winners), {k: s.vp[k] for k in range(s.players)}, s.end_reason)

    # ------------------------------------------------------------------------ bots & json
    def bot_action(self, view: dict[str, Any], prompt: Prompt, rng: random.Random) -> Action:
        from .bot import choose

        return choose(view, prompt, rng)

    # ------------------------------------------------------------ search (rules.search)
    search_iterations = {"normal": 24, "hard": 96}
    """Samples per searched decision at most: each plays a candidate flick with its wobble (a
    slide of 1-4 ms) and, from three players on, a turn of each rival. ``hard`` at two players
    stops here, after about 0.1 s; at four players its time budget stops it first (a median of
    55 samples), at three players either (a median of about 90). A cap of 200 let it play more
    at two and three players but no better: at two players 66.7% of 60 games (seeds 1000-1059)
    against 78.3%, paired margin -0.57 ± 0.83, decisions twice as long."""
    search_horizon = {"normal": 0, "hard": 0}
    """Decisions a playout goes on for after the candidate: none, what the wobble did is judged
    right away (a playout's next flick costs another simulation, and halved the samples)."""
    search_seconds = {"normal": 0.08, "hard": 0.42}
    """The time budgets, less what listing the candidates costs (the heuristic's ranking of its
    aims, 10-30 ms), so that a decision keeps to about 0.1 s and 0.5 s in all."""
    search_margin = 0.01
    """The heuristic's aim stands unless another does better by this much on average..."""
    search_min_visits = 8
    """... over at least this many wobbles each (a search the time budget stopped early keeps the
    heuristic's aim rather than trust a few lucky or unlucky flicks)."""

    def sampler(self) -> FlickOfFaith:
        """The engine a search plays its samples with (:class:`.search.Sampler`: its flicks
        slide on a table kept for the search, twice as quick as a fresh space)."""
        from .search import Sampler

        return Sampler()

    def determinize(self, view: JSON, seat: int, rng: random.Random) -> FlickState:
        """A full state consistent with seat ``seat``'s own view, read from nothing else
        (:func:`.search.determinize`)."""
        from .search import determinize

        return determinize(view, seat, rng)

    def search_candidates(self, view: JSON, prompt: Prompt,
                          rng: random.Random) -> list[Action] | None:
        """The aims or places the search compares (:func:`.search.search_candidates`)."""
        from .search import search_candidates

        return search_candidates(view, prompt, rng)

    def evaluate(self, state: FlickState, seat: int) -> float:
        """A game cut short by the search's horizon: the seat's chances (:func:`.search.evaluate`)."""
        from .search import evaluate

        return evaluate(state, seat)

    def clone(self, state: FlickState) -> FlickState:
        """A deep, independent copy (:func:`.state.copy_state`)."""
        return copy_state(state)

    def to_json(self, s: FlickState) -> dict[str, Any]:
        return state_to_json(s, self.schema_version)

    def from_json(self, data: Mapping[str, Any]) -> FlickState:
        self.check_schema(data)
        return state_from_json(dict(data))


def public_view(s: FlickState) -> View:
    """What everyone sees (:class:`.views.View`). The state keeps its parts as plain JSON; they
    are read here as declared."""
    return {
        "game": "flick_of_faith", "players": s.players, "phase": cast(Phase, s.phase),
        "generation": s.generation, "generations": s.generations,
        "map": cast(MapView, board.describe()),
        "corners": [board.corner_of(s.players, k) for k in range(s.players)],
        "dealt": list(s.dealt), "gods": list(s.gods), "god_chosen": sorted(int(k) for k in s.picks),
        "vp": list(s.vp), "supply": [dict(x) for x in s.supply], "temples": list(s.temples),
        "reserve": list(s.reserve), "heart_ready": s.heart_ready, "first_player": s.first_player,
        "discs": [cast(DiscView, dict(d)) for d in s.discs], "next_disc_id": s.next_id,
        "laws": [{"key": k, "name": laws.BY_KEY[k].name, "duration": laws.BY_KEY[k].duration,
                  "text": laws.BY_KEY[k].text} for k in s.laws],
        "council": [{"key": k, "name": laws.BY_KEY[k].name, "text": laws.BY_KEY[k].text} for k in s.council],
        "voted": sorted(int(k) for k in s.votes),
        "last_council": cast("CouncilResultView | None", s.last_council),
        "order": list(s.order), "active": s.active, "stage": cast(Stage, s.stage),
        "in_corner": list(s.in_corner), "attempts": s.attempts,
        "turn_extra": s.turn.get("extra"),
        "aim_preview": laws.preview_allowed(s.laws), "wobble_factor": laws.wobble_factor(s.laws),
        "decel": laws.decel(s.laws),
        "flickers": list(s.flickers), "flicked": sorted(int(k) for k in s.flick_orders),
        "last_flick": cast("LastFlickView | None", s.last_flick),
        "last_worship": cast("list[WorshipView] | None", s.last_worship),
        "last_contest": cast("ContestView | None", s.last_contest),
        "winners": s.winners, "end_reason": s.end_reason,
        # public facts the board does not show, for the searching players' samples (every
        # one was told in the log): what each seat gets back at Worship, who has had their
        # Lost Sheep, whose turn of the order it is, what this turn has seen fall and
        # strike, and which laws are left in the deck (not their order)
        "pool": [dict(x) for x in s.pool], "lost_sheep": list(s.lost_sheep),
        "turn_index": s.turn_index, "turn_notes": cast(TurnNotesView, _turn_notes(s.turn)),
        "law_deck_left": sorted(s.law_deck),
    }


def private_view(s: FlickState, seat: int) -> PrivateView:
    """The seat's own part (:class:`.views.PrivateView`): its secret answers not yet revealed."""
    return {"seat": seat, "god_pick": s.picks.get(str(seat)), "vote": s.votes.get(str(seat)),
            "contest_flick": cast("ContestFlickView | None", s.flick_orders.get(str(seat)))}
