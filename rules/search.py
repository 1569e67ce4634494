"""Computer players that search: determinized Monte Carlo search with the engine as the simulator.

A searching player sees exactly what the heuristic player sees, one seat's view. To look ahead it
needs whole states, so each game that supports search offers a hook,
``determinize(view, seat, rng)``: a full state that the seat could be in, built from that view
alone (the public part and its own private part), with everything the seat cannot know (other
seats' hands, the order of hidden decks, choices made in secret and not yet revealed) drawn at
random, consistently with what is public (hand sizes, deck sizes, cards already seen). Because the
hook reads nothing but the view, the search cannot peek: two states that differ only in another
seat's secrets give the same view, so the same samples and the same decision
(``tests/rules/test_search.py`` checks it for every game that searches).

The search, for one decision:

* the candidates are the prompt's enumerated choices, or the game's own list for a free-form
  prompt (``search_candidates``: ready-made answers, the heuristic's answers under several rngs,
  and a few plans of its own);
* each iteration samples a fresh state (a new determinization), plays one candidate, then lets
  every seat play on with the game's heuristic ``bot_action`` (each from its own view of the
  sample) for a short horizon of decisions, and scores the outcome for the searching seat: a win
  1, a shared win its share, a loss 0, and at the horizon the game's estimate ``evaluate(state,
  seat)`` in the same 0..1 range; a game may play its samples with an engine of its own, made
  afresh for each search (``sampler()``: Flick of Faith's slides its flicks on a table kept for
  the search);
* candidates are picked by UCB1 (every candidate once, then the best upper bound), and the one
  tried most is played (ties: the better mean, then the earlier candidate); a game whose
  playouts are short for what they must judge sets ``search_margin``: the heuristic's own answer
  then stands unless the one tried most scores at least that much better on average, and a game
  whose playouts are noisy sets ``search_min_visits``: it also stands unless both were tried at
  least that many times (a search its time budget stopped early).

It stops after a number of iterations, which makes a decision depend only on the view, the prompt,
the rng's seed and the budget (replays and tests are stable), or earlier when a time budget runs
out (the platform passes a clock for that; nothing here reads one by itself).

Three strengths (:data:`STRENGTHS`), the table option :data:`STRENGTH_OPTION`:

* ``easy``: the heuristic player, with some noise (now and then a random enumerated choice);
* ``normal`` and ``hard``: the search, with budgets that grow (:data:`BUDGETS`, and an engine may
  scale them with ``search_scale`` when its playouts are dearer or cheaper than most).
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from .engine import JSON, Action, Engine, Option, Prompt, Result, RulesError

STRENGTH_OPTION = "computer"
"""The table option that sets how well the computer players play."""
STRENGTHS = ("easy", "normal", "hard")
"""Its values, weakest first."""
STRENGTH_HELP = ("how the computer players play: easy (the quick heuristic player, with some "
                 "noise), normal or hard (they search ahead, about 0.1 s and 0.5 s per decision); "
                 "unset, the heuristic player without noise")
"""What an engine that searches says about :data:`STRENGTH_OPTION` (its :data:`STRENGTH`)."""
STRENGTH = Option(STRENGTH_OPTION, "choice", STRENGTH_HELP, allowed=STRENGTHS)
"""The option, as an engine that searches declares it among its ``options``; the platform reads
it (:func:`seat_strength`), not ``setup``."""

SEATS_OPTION = "computer_seats"
"""The table option that sets a strength per computer seat (seat number as text → strength), set
by the platform when the host adds a computer player of a chosen strength; a seat without one
plays at the table's :data:`STRENGTH_OPTION`."""
HINTS_OPTION = "hints"
"""The table option that lets players ask the search for a hint (``/game hint``): off unless
set true; a table that allows hints is not rated."""
HINTS = Option(HINTS_OPTION, "bool", "players may ask for a hint (/game hint); the game is not "
               "rated", default=False, must="be on or off")
"""The hints option, as ``/play`` offers it."""
SEATS = Option(SEATS_OPTION, "seat_map", "each computer player's own strength, set when the host "
               "seats one", allowed=STRENGTHS, must="map seats to strengths")
TABLE_OPTIONS: tuple[Option, ...] = (HINTS, SEATS)
"""Options every game accepts besides its own, read by the platform, not by a game's ``setup``
(``Engine.validate_options`` checks them as it checks a game's own
:attr:`~rules.engine.Engine.options`, and never fills in their defaults)."""

EASY_NOISE = 0.2
"""How often the easy player takes a random enumerated choice instead of the heuristic's."""


@dataclass(frozen=True)
class Budget:
    """How long one decision may search."""

    iterations: int
    """Samples played out (the decision depends only on this, the view and the seed)."""
    horizon: int
    """Decisions played out after the candidate before the position is evaluated."""
    seconds: float | None = None
    """Stop earlier once this much time has passed (only with a clock, see :func:`search`)."""


BUDGETS: Mapping[str, Budget] = {
    "normal": Budget(iterations=24, horizon=40, seconds=0.1),
    "hard": Budget(iterations=120, horizon=80, seconds=0.5),
}
"""The searching strengths' budgets for a game of average cost per playout; a game's
``search_scale`` multiplies the iterations (or its ``search_iterations`` replaces them) and its
``search_horizon`` replaces the horizon."""


class Searchable(Protocol):
    """The hooks a game's engine offers for search (on top of :class:`~rules.engine.Engine`)."""

    def determinize(self, view: JSON, seat: int, rng: random.Random) -> Any:
        """A full state consistent with ``view`` (seat ``seat``'s own view), hidden parts drawn
        from ``rng``; it reads nothing but the view."""


def searchable(engine: Engine[Any]) -> bool:
    """Whether the game offers the determinization hook the search needs."""
    return callable(getattr(engine, "determinize", None))


def budget_for(engine: Engine[Any], strength: str) -> Budget:
    """The budget of a searching strength for this game."""
    base = BUDGETS[strength]
    scale = float(getattr(engine, "search_scale", 1.0))
    horizon = int(getattr(engine, "search_horizon", {}).get(strength, base.horizon))
    iterations = getattr(engine, "search_iterations", {}).get(strength)
    if iterations is None:
        iterations = max(1, round(base.iterations * scale))
    # (a game whose candidates are dear to list may keep its searches shorter: ``search_seconds``)
    seconds = getattr(engine, "search_seconds", {}).get(strength, base.seconds)
    return Budget(int(iterations), horizon, seconds)


def check_strength(value: Any) -> str:
    """The strength named by a table option, or ValueError naming the allowed ones."""
    if value not in STRENGTHS:
        raise ValueError(f"{STRENGTH_OPTION} must be one of {', '.join(STRENGTHS)}, not {value!r}.")
    return str(value)


def seat_strength(options: Mapping[str, Any], seat: int) -> str | None:
    """The strength a computer player plays ``seat`` at: the seat's own (:data:`SEATS_OPTION`),
    else the table's (:data:`STRENGTH_OPTION`), else None (the plain heuristic)."""
    own = (options.get(SEATS_OPTION) or {}).get(str(seat))
    if own in STRENGTHS:
        return str(own)
    table = options.get(STRENGTH_OPTION)
    return str(table) if table in STRENGTHS else None


TIMEOUT_STRENGTH = "normal"
"""The strength that decides for a player whose deadline passed."""


def timeout_action(engine: Engine[Any], state: Any, prompt: Prompt,
                   clock: Callable[[], float] | None = None) -> Action:
    """The action for a player whose deadline passed. Where the game's own timeout rule
    (``Engine.timeout_action``) is its computer player, a game that searches decides with the
    :data:`TIMEOUT_STRENGTH` search instead, from the seat's view, its rng seeded from the state
    (without a clock: the same state and prompt give the same action). A rule of the game's own
    (a defender's losses shared in proportion, say) stands: it is told apart by answering
    otherwise than the computer player with the same rng."""
    rule = engine.timeout_action(state, prompt)
    if not searchable(engine):
        return rule
    seed = f"timeout/{engine.state_digest(state)}/{prompt.seat}/{prompt.kind}"
    view = engine.view(state, prompt.seat)
    if rule != engine.bot_action(view, prompt, random.Random(seed)):
        return rule
    return search(engine, view, prompt, random.Random(f"{seed}/{TIMEOUT_STRENGTH}"),
                  budget_for(engine, TIMEOUT_STRENGTH), clock)


def choose(engine: Engine[Any], view: JSON, prompt: Prompt, rng: random.Random,
           strength: str | None, clock: Callable[[], float] | None = None) -> Action:
    """The computer player of the given strength (None: the plain heuristic ``bot_action``)."""
    if strength is None:
        return engine.bot_action(view, prompt, rng)
    if strength == "easy":
        return noisy(engine, view, prompt, rng)
    check_strength(strength)
    if not searchable(engine):
        return engine.bot_action(view, prompt, rng)
    return search(engine, view, prompt, rng, budget_for(engine, strength), clock)


def noisy(engine: Engine[Any], view: JSON, prompt: Prompt, rng: random.Random) -> Action:
    """The easy player: the heuristic, except that now and then it takes a random one of the
    prompt's enumerated choices (a free-form prompt is always the heuristic's)."""
    if prompt.free_form is None and len(prompt.choices) > 1 and rng.random() < EASY_NOISE:
        return dict(rng.choice(prompt.choices).action)
    return engine.bot_action(view, prompt, rng)


def candidates(engine: Engine[Any], view: JSON, prompt: Prompt, rng: random.Random) -> list[Action]:
    """The answers the search compares: the game's own list (``search_candidates``; None there
    means "do not search this prompt") or the enumerated choices, without repeats. The heuristic's
    own answer always comes first, so that a search with no budget left plays it."""
    own = getattr(engine, "search_candidates", None)
    listed: list[Action] | None
    if own is not None:
        listed = own(view, prompt, rng)
    else:
        listed = [dict(c.action) for c in prompt.choices] if prompt.free_form is None else None
    first = engine.bot_action(view, prompt, random.Random(rng.random()))
    if not listed:
        return [first]
    out: list[Action] = []
    seen: set[str] = set()
    for a in [first, *listed]:
        key = json.dumps(a, sort_keys=True)
        if key not in seen:
            seen.add(key)
            out.append(a)
    return out


def reward(result: Result, seat: int) -> float:
    """A finished game's value for ``seat``: 1 for a win, its share of a shared win, 0 else."""
    if seat in result.winners:
        return 1.0 / len(result.winners)
    return 0.0


def playout(engine: Engine[Any], state: Any, seat: int, rng: random.Random, horizon: int) -> float:
    """Every seat plays on with the heuristic player for at most ``horizon`` decisions; the value
    of where that leaves ``seat`` (its reward if the game ended, else the game's estimate)."""
    # (a game whose heuristic is dear may offer a quicker one for playouts: ``playout_action``)
    act = getattr(engine, "playout_action", None) or engine.bot_action
    for _ in range(horizon):
        result = engine.result(state)
        if result is not None:
            return reward(result, seat)
        prompts = engine.prompts(state)
        if not prompts:
            break
        p = prompts[0]
        action = act(engine.view(state, p.seat), p, rng)
        # (the heuristic answers the prompt it was given: ``play`` without ``apply``'s checks,
        # which would build the same prompt again)
        try:
            state, _ = engine.play(state, p.seat, action, p)
        except RulesError:
            # a sampled state may refuse what the real one would not (a free-form answer made
            # for the heuristic's view): the prompt's first choice, else judge the position here
            if not p.choices:
                break
            state, _ = engine.play(state, p.seat, dict(p.choices[0].action), p)
    result = engine.result(state)
    if result is not None:
        return reward(result, seat)
    evaluate = getattr(engine, "evaluate", None)
    return float(evaluate(state, seat)) if evaluate is not None else 0.5


@dataclass
class Searched:
    """What one search found (for tests and the bench): the action and each candidate's tally."""

    action: Action
    candidates: list[Action]
    visits: list[int]
    values: list[float]
    iterations: int


def search(engine: Engine[Any], view: JSON, prompt: Prompt, rng: random.Random, budget: Budget,
           clock: Callable[[], float] | None = None) -> Action:
    """The searched answer to ``prompt`` (see the module's docstring)."""
    return run(engine, view, prompt, rng, budget, clock).action


UCB_C = 0.7
"""UCB1's exploration constant (rewards lie in 0..1)."""


def run(engine: Engine[Any], view: JSON, prompt: Prompt, rng: random.Random, budget: Budget,
        clock: Callable[[], float] | None = None) -> Searched:
    """The search itself, with its tallies."""
    seat = prompt.seat
    cands = candidates(engine, view, prompt, rng)
    n = len(cands)
    visits = [0] * n
    totals = [0.0] * n
    alive = [True] * n
    if n == 1:
        return Searched(cands[0], cands, visits, totals, 0)
    seed = rng.random()
    sampler = getattr(engine, "sampler", None)
    sim: Engine[Any] = sampler() if sampler is not None else engine
    start = clock() if clock is not None and budget.seconds is not None else 0.0
    done = 0
    for _ in range(budget.iterations):
        if clock is not None and budget.seconds is not None and clock() - start >= budget.seconds:
            break
        live = [i for i in range(n) if alive[i]]
        if not live:
            break
        fresh = [i for i in live if visits[i] == 0]
        if fresh:
            i = fresh[0]
        else:
            log_t = math.log(sum(visits[j] for j in live))
            i = max(live, key=lambda j: (totals[j] / visits[j]
                                         + UCB_C * math.sqrt(log_t / visits[j]), -j))
        # common random numbers: every candidate's k-th try meets the same sampled state and the
        # same dice, so candidates are compared on equal draws, not on luck
        r = random.Random(f"{seed}/{visits[i]}")
        state = engine.determinize(view, seat, r)  # type: ignore[attr-defined]
        try:
            state, _ = sim.apply(state, seat, cands[i])
        except RulesError:
            alive[i] = i == 0  # (the heuristic's own answer is legal in the real state)
            if i == 0:
                visits[i] += 1
            continue
        totals[i] += playout(sim, state, seat, r, budget.horizon)
        visits[i] += 1
        done += 1
    best = max(range(n), key=lambda j: (alive[j], visits[j],
                                        totals[j] / visits[j] if visits[j] else 0.0, -j))
    least = int(getattr(engine, "search_min_visits", 0))
    if best != 0 and least and min(visits[0], visits[best]) < least:
        # (too few samples to tell noisy playouts apart, a time budget cut short: the heuristic)
        best = 0
    margin = float(getattr(engine, "search_margin", 0.0))
    if margin and best != 0 and visits[0] and visits[best]:
        # the heuristic's own answer stands unless the samples say clearly better
        if totals[best] / visits[best] < totals[0] / visits[0] + margin:
            best = 0
    return Searched(cands[best], cands, visits, totals, done)
