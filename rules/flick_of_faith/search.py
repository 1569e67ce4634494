"""The searching computer players of Flick of Faith (:mod:`rules.search`): the game's hooks.

Flick of Faith hides little. Everything on the map is public, and so is every Worship, vote
result and flick. What a seat cannot know is only what is chosen in secret and not yet revealed
(another seat's side of its god card, its Council vote, its setup or tie-break flick), the order
of the law deck and the dice still to be rolled: above all the finger's wobble on every flick.
That wobble is what the search is for. The heuristic player (:mod:`.bot`) aims as if the finger
were steady; the search plays each of a handful of aims many times, each time with another
wobble, judges where each throw leaves the game, and keeps the aim that does best on average.
An aim that lands on a city only when it is perfect, next to one that still scores when it is a
little off, loses to the safer one.

* :func:`determinize`: a full state from the seat's own view (secret choices of others drawn
  at random, the law deck shuffled from the laws left in it, a fresh rng for the dice);
* :func:`search_candidates`: for a Mission flick, the heuristic's three best aims ranked on a
  steady finger, with two players the best one a little softer and harder too, and leaving a
  disc in the corner when that is allowed; for Anubis's offer, and from three players on for the
  god card's two sides (the horizon counts what each god is worth, :data:`GOD_WORTH`), both
  buttons; ``None`` (the heuristic decides) for the temple, the god with two players, the vote,
  the setup and tie-break flicks and the temple to move. A temple was once searched among the
  prompt's shortcut places and stopping: the horizon values a prophet left on a city about as a
  temple built from it (its owner may still build from it on a later turn), so the search
  stopped instead of building in some 30% of its build decisions, and again on the next turn,
  and the temple was never built;
* :func:`evaluate`: the engine's horizon is 0, so a candidate is judged where it leaves the game
  (no playout follows it), scored from victory points, what the board would score at Worship,
  each god's worth for the rest of the game and the prophets each seat has left to flick; from
  three players on, Worship is counted as it is likely to stand when
  the Generation ends (:func:`expected_worship`, with chances measured in games of the computer
  players and a prophet's exposure read from where it lies) rather than as the board lies. The
  rivals' next turns were once played before a throw was judged; that was dear, and worse (see
  :data:`LOOK_AHEAD`).
"""

from __future__ import annotations

import math
import random
from typing import Any

from rules.engine import Action, IllegalAction, Prompt, Rng, copy_plain

from . import bot, flick, geometry, gods, laws, physics, powers, scoring
from . import map as board
from .discs import KINDS, PROPHET_KINDS
from .engine import FlickOfFaith
from .state import FlickState

JSON = dict[str, Any]

FLICK_CANDIDATES = 3
"""How many of the heuristic's ranked aims a Mission flick compares (with two players the best
one is also tried softer and harder). Four at three players, when each sample also played the
rivals' answers (about 90 samples): 44.5% of 110 games (seeds 1000-1029, 7000-7039, 2000-2039)
against 39.1%, paired margin over the rivals' mean +0.07 ± 0.62; five, 47.5% of seeds 7000-7039
against 37.5%, -0.11 ± 1.14: no better. At four players it compared two while the rivals'
answers made each sample dear (some 45-55 a decision, too few for three aims); judged where the
throw lands, with 96 samples, three (see :data:`LOOK_AHEAD`)."""
RANK_TARGETS = bot.CANDIDATES
"""How many targets are simulated to rank those aims: the heuristic's own ranking, made once."""
POWER_STEP = 0.6
"""How much softer and harder the best aim is also tried with two players (at three players too,
judged where the throw lands: 40.0% of 70 games, seeds 1000-1029 and 2000-2039, against 48.6%,
paired margin over the rivals' mean -1.06 ± 0.74; earlier, when each sample also played the
rivals' answers, the time allowed only some 60 samples there, too few for five aims)."""
PROPHET_VALUE = 1.2
"""What a prophet not yet flicked this Generation is worth at the horizon, in VP."""
CITY_VALUE = 1.0
"""What a prophet touching a city is worth at the horizon while its owner may still build."""
FUTURE_WORSHIP = 1.0
"""What a temple on the map is worth at each Worship still to come after this Generation's, in VP
(its island's Presence at least; a prophet on a city that may still become a temple too)."""
CONTEST = 0.12
"""How likely one flick still to come this Generation is to add a piece of its player's to a given
island (four islands, the navel and the misses share them; measured 0.09-0.15 in games of the
computer players)."""
KNOCK = 0.016
"""How likely one rival flick still to come is to knock a given prophet off its island, when it
lies on the island's far or middle part as seen from the navel..."""
KNOCK_EXPOSED = 0.045
"""... and when it lies on the part facing the navel, more than :data:`EXPOSED_DEPTH` nearer to
the navel than its island's centre: in the line of fire of the shots at the navel and of the
rivals' shots across the map (measured: 0.040-0.055 there, 0.011-0.021 elsewhere)."""
EXPOSED_DEPTH = 5.0
"""How much nearer to the navel than its island's centre a prophet lies exposed."""
LOOK_AHEAD = 3
"""From this many players on, the horizon scores Worship as it is likely to stand when it comes
(:func:`expected_worship`), not as the board lies.

It also used to let the rivals answer first: the seat's turn played to its end, then one whole
turn of each rival, every decision the playouts' quick player's (``replies``, now gone). Each
sample then cost a physics simulation per rival, and the time budget (0.42 s) ended the search
after some 90 samples at three players and 55 at four, with two aims at four. Judged where the
throw lands, with three aims at every table and the 96 samples done in a median of 140 ms at
three players and 175 ms at four, and the god side taken by its worth (:data:`GOD_WORTH`),
``hard`` won 37.5% of 160 four-player games (seeds 5000, 1000, 6000, 7000, 40 each: 42.5%,
40.0%, 30.0%, 37.5%) against 33.1% with the rivals' answers (30.6% before the god side), paired
margin over the rivals' mean +1.62 ± 0.70 (+2.06 ± 0.72 against 30.6%), and at three players
54.3% of seeds 1000-1029 and 7000-7039 against 38.6% (+0.48 ± 0.70), 47.0% of 230 games
(those, and 2000, 3000, 4000 and 5000, 40 each: 42.5%, 45.0%, 50.0%, 37.5%). Without the god side
(three aims at four players, at most 200 samples) it was even with the rivals' answers: 35.0%
of seeds 5000 and 1000 against 36.3%, +1.20 ± 0.94, 47.1% of the three-player seeds against
42.9%, +0.41 ± 0.87.

The rivals there played the plain player's first aim, unsimulated. Their best of 3 aims, or of
all 8 (the ``easy`` rivals' real flick 17%, 39% and always of the time), did no better at three
players (seeds 7000-7039: 42.5% and 42.5% against 37.5%, paired margin over the rivals' mean
+0.35 ± 1.23 and +0.23 ± 1.20), with 8 in a median of 22 samples a decision instead of about 90.

History: neither was used with two players: a playout's flick halved the samples there, and judging the flick where
it lands already won 60% of 100 games against ``easy``. At four players each alone did not help
(37.5% and 8.3% of 24 games, against 20.8% judging where the flick lands), both together won
50.0% of them, and 30.0% of 40 other games where judging where the flick lands won 20.0%. With
the seat's own turn played to its end, whole rival turns, the measured chances and the samples
shared by three aims, and temples left to the heuristic: 46.7% of 90 three-player games (37.8%
before, on the same seeds; the heuristic alone 35.6%), but 26.6% of those 64 four-player games
(26.6% before too): at four players it is no better than before (``bench/hard_vs_easy.py
--clock cpu``). The plain player's 43.8% of those 64 games was their luck: 26.8% of 400 others
(``easy`` differs from it only on buttons: votes, Anubis, the temple to move, and god sides, which
it picks at random too). On 40 other four-player games (seeds 5000-5039) ``hard`` won 35.0%, the
plain player 17.5%; with 1.3-1.8 times the samples late in a Mission (the look-ahead played in
place) 27.5%, and also the navel shot always among the aims 35.0%; judged where the flick lands
(no look-ahead, the best aim also softer and harder) 22.5%; with the rivals not building in the
look-ahead, 27.5%: none is clearly better than another (40 games tell apart some 20 points),
none near the goal of 37.5%. At three players, the look-ahead in place won 43.3% of the same 90
games.

Measured again with the final score's margin over the best rival and over the rivals' mean
(mean ± standard error; ``bench/hard_vs_easy.py --players 4 --games 40 --clock cpu``, seeds
5000-5039 and 1000-1039; one ``hard`` seat against three ``easy`` seats): with the three best
aims, 20.0% and 30.0% of the games, margins -5.17 ± 1.25 / +0.12 ± 0.94 and -4.70 ± 1.41 /
+1.46 ± 1.30 (the plain player on the first 40: 17.5%, -6.92 ± 1.50 / -0.77 ± 1.38): about a
point above an ``easy`` seat. It scores less on the navel than the ``easy`` seats (9.3 VP a
game against 11.8) and more at Worship (22.0 against 19.3, temples built early); the time
budget stops 96% of its searches, after about 45 samples (late in a Mission often fewer than the
24 that three aims need for 8 each, and the heuristic's aim stands), and in 10 of 28 positions
searched three times with other seeds its choice changed. On the same games, none clearly
better: a temple not yet built worth half a temple on the map (so that a prophet on a city is
worth less at once: more navel shots) 22.5%, -4.22 ± 1.41 / +0.78 ± 1.35 on the first 40; the
best aim at each of three targets (the navel, each island: 58% of the time two of the three
best aims are at one target) 35.0% and 35.0%, -3.70 ± 1.36 / +0.89 ± 1.30 and -5.47 ± 1.75 /
+0.40 ± 1.55, but at three players (``--players 3 --games 30 --seed 1000``) 43.3% against
46.7%, -1.87 ± 1.38 / +2.12 ± 1.38 against +0.40 ± 1.58 / +3.95 ± 1.62 (2 s.e. worse, paired);
both together 27.5%, -4.70 ± 1.72 / +0.15 ± 1.36; the rivals of the look-ahead shooting at the
navel when a prophet there would score them 3 VP or more (the plain player's first aim is a
city; its best aim is the navel 42-58% of the time then, never below) 30.0%, -4.08 ± 1.27 / +1.04 ±
1.22 on the first 40 (paired +1.1 and +0.9 ± 1.2, as much as every other change there: those 40
were unlucky for this player). Kept: the two best aims alone at four
players (:data:`FOUR_CANDIDATES`), 32.5% and 37.5%, -4.80 ± 1.70 / +1.02 ± 1.39 and -3.48 ±
1.45 / +1.58 ± 1.31: 35.0% of the 80 games against 25.0%, paired margins +0.8 and +0.5 VP
(± about 1.1), better on both sets and both margins but within the noise; on 40 more games
(seeds 6000-6039) 32.5% against 25.0%, -5.22 ± 1.62 / +1.30 ± 1.30 against -5.35 ± 1.29 /
+0.74 ± 1.15 (paired +0.1 ± 1.3 and +0.6 ± 1.1): 34.2% of the 120 games against 25.0%."""
GOD_WORTH: dict[int, dict[str, float]] = {
    3: {"dagda": 1.52, "ra": 0.77, "zeus": 0.14, "themis": -0.18, "morrigan": -0.37,
        "tyr": -0.48, "freja": -0.56, "anubis": -0.93},
    4: {"ra": 2.25, "themis": 0.37, "freja": 0.29, "dagda": 0.21, "tyr": -0.42, "anubis": -0.56,
        "zeus": -1.01, "morrigan": -1.11},
}
"""What each god is worth over a whole game, by table size: its final score's mean margin over
the rivals' mean in games of the plain player on every seat, gods dealt and sides picked at
random: ``python bench/balance_flick_of_faith.py --players 3 --games 1200 --seed 10000`` and
``--games 1000 --seed 30000`` (2,200 games), ``--players 4 --games 1200 --seed -10000`` and
``--games 800 --seed 10000`` (2,000), its "margin" column, pooled: some 800-1,000 games a god,
± 0.3 VP. The horizon counts it for the part of the game still to come, so from three players on
the searching player takes the side of its dealt card worth more (Dagda, Ra and Zeus at three,
where Tyr and Freja are about even and either may be taken; Dagda, Ra, Themis and Freja at
four), where the plain player picks at random, and judges the rivals' standings with their gods
too. In those games the side worth more won 34.9% of its games at three players (fair share
33.3%) and 27.8% at four (25%). With two players the side stays the plain player's (``hard``
meets its goal there)."""
TEMPERATURE = 3.0
"""VP differences become chances through a softmax of this temperature (3 VP ahead of a single
rival is about 73%).

Fitted to data (``scripts/fit_flick_eval.py``: 34,852 positions of 200 four-player and 17,454 of
150 three-player games of ``easy`` players, each seat's features against its final VP and who
won): the weights of :func:`standing` are about right (VP 1.04 and 1.00, Worship to come 0.83
and 0.76, a prophet to flick 1.22 and 1.31, the navel 1.27 and 1.20 times its score), except that
temples and cities count too much early at four players (a temple per Worship to come 0.57 ±
0.11, a prophet on a city 0.48 ± 0.23); the temperature that best names the winners falls from
about 9.75 in the first Generation to 2.5 in the last at four players (5.75 to 2.5 at three).
Neither helped ``hard``: with the fitted weights, 32.5% of 40 four-player games (seeds
7000-7039) against 37.5%, margin over the rivals' mean +1.57 ± 1.52 against +3.19 ± 1.44; with
a temperature of 2.5 + 1.1 per Generation to come, 42.5% there (+4.07 ± 1.36) but 25.0% of the
seeds 6000-6039 against 32.5% (-0.49 ± 1.19 against +1.30 ± 1.30) and at three players 43.3% of
the seeds 1000-1029 against 46.7% (+3.27 ± 1.61 against +3.95 ± 1.62). The evaluation predicts
who is ahead; what it misjudges is which aim gets there, after the rivals' replies."""


def determinize(view: JSON, seat: int, rng: random.Random) -> FlickState:
    """A full state consistent with ``view``, seat ``seat``'s own view, built from it alone.

    Public, copied: the map, the discs, every count (VP, supply, pool, temples, reserve), the
    laws in force and on the Council, the order and the turn's public notes, what has been
    revealed. The seat's own: its god pick, vote or contest flick. Drawn at random: the other
    seats' secret choices that are made and not yet revealed (a side of their dealt card, a
    thumb, a contest flick near the heuristic's), the order of the laws left in the deck, the
    rng of what is left to chance (the wobble)."""
    players = int(view["players"])
    priv = view.get("private") or {}
    picks: dict[str, str] = {}
    for k in view["god_chosen"]:
        if k == seat and priv.get("god_pick") is not None:
            picks[str(k)] = str(priv["god_pick"])
        else:
            picks[str(k)] = rng.choice([g.key for g in gods.sides(view["dealt"][k])])
    votes: dict[str, str] = {}
    for k in view["voted"]:
        if k == seat and priv.get("vote") is not None:
            votes[str(k)] = str(priv["vote"])
        else:
            votes[str(k)] = rng.choice(("up", "down"))
    orders: dict[str, dict[str, float]] = {}
    for k in view["flicked"]:
        if k == seat and priv.get("contest_flick") is not None:
            orders[str(k)] = dict(priv["contest_flick"])
        else:
            aim = bot.choose(view, Prompt(k, "contest_flick", ""), rng)
            orders[str(k)] = {"angle": round(rng.uniform(-3.0, 3.0), 2),
                              "power": round(max(1.0, min(10.0, aim["power"] + rng.uniform(-0.5, 0.5))), 2)}
    deck = list(view["law_deck_left"])
    rng.shuffle(deck)
    turn: dict[str, Any] = {k: copy_plain(v) for k, v in view["turn_notes"].items()}
    if view["phase"] == "mission" and view["active"] is not None:
        turn.setdefault("anubis_used", False)
        turn.setdefault("struck", [])
        if view.get("turn_extra") is not None:
            turn["extra"] = view["turn_extra"]
    if view["stage"] == "reuse":
        raise IllegalAction("a temple waiting for the temple to move is not searched.")
    return FlickState(
        players=players, rng=Rng(rng.randrange(2**31)), phase=str(view["phase"]),
        generation=int(view["generation"]), generations=int(view["generations"]),
        dealt=list(view["dealt"]), gods=list(view["gods"]), picks=picks, vp=list(view["vp"]),
        pool=[dict(x) for x in view["pool"]], supply=[dict(x) for x in view["supply"]],
        temples=list(view["temples"]), reserve=list(view["reserve"]),
        heart_ready=bool(view["heart_ready"]), first_player=int(view["first_player"]),
        discs=[dict(d) for d in view["discs"]], next_id=int(view["next_disc_id"]),
        law_deck=deck, laws=[x["key"] for x in view["laws"]],
        council=[x["key"] for x in view["council"]], votes=votes,
        last_council=copy_plain(view["last_council"]), order=list(view["order"]),
        turn_index=int(view["turn_index"]), active=view["active"], stage=str(view["stage"]),
        in_corner=list(view["in_corner"]), attempts=int(view["attempts"]), turn=turn,
        lost_sheep=list(view["lost_sheep"]), flickers=list(view["flickers"]),
        flick_orders=orders, last_flick=copy_plain(view["last_flick"]),
        last_worship=copy_plain(view["last_worship"]), last_contest=copy_plain(view["last_contest"]),
        winners=None if view["winners"] is None else list(view["winners"]),
        end_reason=str(view["end_reason"]))


def search_candidates(view: JSON, prompt: Prompt, rng: random.Random) -> list[Action] | None:
    """What the search compares for ``prompt`` (see the module's docstring); None: the heuristic
    decides alone."""
    if prompt.kind == "flick":
        ranked = bot.ranked_flicks(view, prompt.seat, RANK_TARGETS)
        out = [dict(a) for _, a in ranked[:FLICK_CANDIDATES]]
        top = ranked[0][1]
        for step in (-POWER_STEP, POWER_STEP) if view["players"] < LOOK_AHEAD else ():
            power = round(min(10.0, max(1.0, float(top["power"]) + step)), 2)
            if power != top["power"]:
                out.append({**top, "power": power})
        out.extend(dict(c.action) for c in prompt.choices)  # (leaving the disc in the corner)
        return out
    if prompt.kind == powers.SECOND_CHANCE or (prompt.kind == "god" and view["players"] in GOD_WORTH):
        return [dict(c.action) for c in prompt.choices]
    return None


def _beats(lead: float, spread: float) -> float:
    """The chance that a count ``lead`` ahead on average, with variance ``spread``, ends strictly
    ahead (counts are whole: half a piece is the line)."""
    return 0.5 * (1.0 + math.erf((lead - 0.5) / math.sqrt(2.0 * spread + 1e-6)))


def knock_chance(x: float, y: float, island: int) -> float:
    """How likely one rival flick is to knock a prophet at (x, y) off ``island``: more on the part
    of the island facing the navel (:data:`KNOCK_EXPOSED`) than elsewhere (:data:`KNOCK`)."""
    isl = board.ISLANDS[island]
    nearer = geometry.navel_distance(isl.x, isl.y) - geometry.navel_distance(x, y)
    return KNOCK_EXPOSED if nearer > EXPOSED_DEPTH else KNOCK


def _loose(state: FlickState) -> list[list[list[float]]]:
    """``out[island][seat]``: the knock chance (:func:`knock_chance`) of each prophet counted for
    that seat on that island (as Worship counts them: the Flood's smaller islands, Freja's Heart)."""
    s = state
    shrink = laws.island_shrink(s.laws)
    won = scoring.heart_converts(s.discs, s.gods)
    freja = gods.seat_with(s.gods, lambda r: r.heart)
    out: list[list[list[float]]] = [[[] for _ in range(s.players)] for _ in range(4)]
    for d in s.discs:
        if d["owner"] is None or d["kind"] not in PROPHET_KINDS:
            continue
        i = geometry.island_at(d["x"], d["y"], KINDS[d["kind"]].radius, shrink)
        if i is None:
            continue
        owner = freja if d["id"] in won and freja is not None else d["owner"]
        out[i][owner].append(knock_chance(d["x"], d["y"], i))
    return out


def expected_worship(state: FlickState) -> list[float]:
    """Each seat's Worship VP for this Generation as it is likely to stand when the Generation
    ends, not as the board lies: the flicks still to come may add pieces to an island (each of
    them :data:`CONTEST` likely to land on any one island) or knock a prophet off (each rival
    flick :func:`knock_chance` likely per prophet, more where it faces the navel), so a
    Domination by one piece early in the Mission is worth less than one by three, or one made
    with the last flick; a Presence held by exposed prophets alone is worth a little less while
    rivals have flicks left. Temples are too heavy to knock away. With no flick left it is
    Worship exactly."""
    s = state
    res = scoring.worship(s.discs, s.players, s.laws, s.gods, s.vp)
    if s.phase != "mission":
        return [float(r["vp"]) for r in res]
    players = s.players
    left = [sum(s.supply[k].values()) for k in range(players)]
    total = sum(left)
    if total == 0:
        return [float(r["vp"]) for r in res]
    counts = scoring.island_counts(s.discs, players, s.laws, s.gods, heart=True)
    loose = _loose(s)
    dead = scoring.dead_islands(s.discs, s.laws)
    dom = laws.domination_value(s.laws)
    out = [float(r["bonus"]) for r in res]
    for i in range(4):
        if i in dead:
            continue
        row = counts[i]
        mean = []
        spread = []
        for k in range(players):
            rivals = total - left[k]
            gone = [1.0 - (1.0 - q) ** rivals for q in loose[i][k]]  # (each prophet's chance to go)
            mean.append(row[k] + CONTEST * left[k] - sum(gone))
            spread.append(CONTEST * (1 - CONTEST) * left[k] + sum(g * (1.0 - g) for g in gone))
            if row[k] > 0:
                held = row[k] - len(gone)  # (temples, and prophets the Heart counts twice)
                out[k] += 1.0 if held > 0 else 1.0 - math.prod(gone)
        if max(row) == 0:
            continue
        for k in range(players):
            p = 1.0
            for j in range(players):
                if j != k:
                    p *= _beats(mean[k] - mean[j], spread[k] + spread[j])
            out[k] += dom * p
    return out


def standing(state: FlickState) -> list[float]:
    """Each seat's expected VP at the end, roughly: VP now, what Worship would give for the
    board as it lies (from :data:`LOOK_AHEAD` players on, as it is likely to stand), prophets on the navel (they score when the turn ends), prophets left to
    flick this Generation, temples at the Worships still to come and prophets on a city that
    may still become temples."""
    s = state
    if s.players >= LOOK_AHEAD:
        now = expected_worship(s)
    else:
        now = [float(r["vp"]) for r in scoring.worship(s.discs, s.players, s.laws, s.gods, s.vp)]
    out = [float(s.vp[k]) + now[k] for k in range(s.players)]
    if s.phase in ("gods", "setup_flick", "council", "mission"):
        for k in range(s.players):
            out[k] += PROPHET_VALUE * sum(s.supply[k].values())
    worth = GOD_WORTH.get(s.players)
    if worth:
        left = (s.generations - s.generation + (0 if s.phase == "over" else 1)) / s.generations
        for k in range(s.players):
            god = s.gods[k] if s.gods[k] is not None else s.picks.get(str(k))
            out[k] += worth.get(god or "", 0.0) * min(1.0, max(0.0, left))
    can_build = laws.builds_allowed(s.laws)
    later = FUTURE_WORSHIP * max(0, s.generations - s.generation)
    for d in s.discs:
        k = d["owner"]
        if k is None:
            continue
        if d["kind"] == "temple":
            out[k] += later
            continue
        if d["kind"] not in PROPHET_KINDS:
            continue
        r = KINDS[d["kind"]].radius
        if geometry.on_navel(d["x"], d["y"], r):  # (it scores when the turn ends)
            out[k] += scoring.navel_value(s.discs, s.players, s.laws, s.gods, k)
        elif (can_build and s.temples[k] > 0
              and geometry.city_at(d["x"], d["y"], r) is not None):
            out[k] += CITY_VALUE + later
    return out


class Sampler(FlickOfFaith):
    """The engine a search plays its samples with (``FlickOfFaith.sampler``, one per search): a
    Mission flick slides on a :class:`~.physics.Table` kept for the whole search, one per
    friction, instead of a fresh pymunk space (with the engine's time step and solver
    iterations). Building the space was half of each flick's cost (about 2 of 4 ms with 30 discs
    on the map), and the flicks made most of the search's time (73% at four players). A table's
    slide can differ a little from a fresh space's (bodies join it in another order), far less
    than the finger's wobble that the samples are drawn for; nothing a sample computes is stored
    or shown. The same search replays the same slides in the same order, so a search stays
    deterministic for a seed and a budget in iterations.

    It plays about 1.4 times the samples in the time at four players and 1.5 at three, but wins
    no more (measured with at most 200 samples): 30.6% of 160 four-player games (seeds 5000,
    1000, 6000 and 7000, 40 each: 45.0%, 27.5%, 27.5%, 22.5%) against 35.0% before, paired margin
    over the rivals' mean -0.47 ± 0.45 (+1.24 ± 0.57, -0.27 ± 0.53, -1.41 ± 0.85, -1.47 ± 1.36),
    and at three players (at most 96) 43.3% of seeds 1000-1029 against 46.7% (-1.18 ± 0.62) and
    42.5% of 7000-7039 against 37.5% (+1.65 ± 1.08). At two players, where 96 samples end the
    search before its time, it plays the very same games (78.3% of seeds 1000-1059). Five times
    the time (2 s, 400 samples at most) was no better on 13 four-player games (+0.36 ± 1.17):
    more samples are not what ``hard`` lacks."""

    def __init__(self, tables: dict[float, physics.Table] | None = None) -> None:
        super().__init__()
        self.tables: dict[float, physics.Table] = {} if tables is None else tables

    def _slide(self, plan: flick.Plan) -> physics.Outcome:
        table = self.tables.get(plan.decel)
        if table is None:
            table = self.tables[plan.decel] = physics.Table(
                plan.bodies, decel=plan.decel, dt=physics.DT, iterations=physics.ITERATIONS)
        return table.slide(plan.bodies, plan.launches, track=[plan.flicked])


def evaluate(state: FlickState, seat: int) -> float:
    """A game cut short by the search's horizon, where the throw landed: the seat's
    :func:`chances` (from :data:`LOOK_AHEAD` players on with Worship as it is likely to stand)."""
    return chances(state, seat)


def chances(state: FlickState, seat: int) -> float:
    """The seat's chances in a position, a softmax of :func:`standing` (an even position is the
    fair share)."""
    values = standing(state)
    top = max(values)
    weights = [math.exp((v - top) / TEMPERATURE) for v in values]
    return weights[seat] / sum(weights)


__all__ = ["Sampler", "chances", "determinize", "evaluate", "expected_worship",
           "search_candidates", "standing"]
