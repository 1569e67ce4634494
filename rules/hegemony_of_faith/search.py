"""What the searching computer players (:mod:`rules.search`) need from Hegemony of Faith: a full
state drawn from one seat's view, the answers worth comparing, and a value for a game cut short.

Only a seat's own turn is searched (the turn's actions and skills, and a Wanderer's steal): the
decision stack is then empty, so nothing half-resolved hides in it. Reactions, picks and
line-ups follow the heuristic (a believer pick in the circle has no best answer to search for).

``determinize(view, seat, rng)`` reads the view and nothing else. Public there: roles, sects,
believer and hand counts, revealed skills and their uses, immunities, the graveyard's types in
order, the deck sizes, the actions used this turn, the latest log. The seat's own: its action
cards, believers and skill, and what its Info-Spy showed. Drawn at random, from the cards the seat
cannot see: the other hands (the hand its Info-Spy showed this turn, if still the same size, is
dealt as seen), the other believers (likewise), the unrevealed skills, and the order of every
deck; believers left out at this table size stay in the box. What only a log could tell (how many
cards the seat's Followers drew since its last turn, skills copied before with Gate of Truth) is
left at nothing.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

from ..engine import Action, IllegalAction, Prompt, Rng
from . import bot
from .cards import (
    ACTION_CARDS,
    ASCEND_WITH_ME,
    BELIEVER_COPIES,
    DECK_SIZE,
    IMPERMANENCE,
    KABOOM,
    N_ACTIONS,
    N_BELIEVERS,
    N_SKILLS,
    SKILL_KEYS,
    SKILL_LIMIT,
    SKILL_NAME,
    SKILL_NAMES,
    btype,
)
from .state import FOLLOWER, LEADER, WANDERER, State

JSON = dict[str, Any]

SEARCHED = ("turn", "wander")
"""The prompt kinds searched (a seat's own turn)."""


def _uid(text: str) -> int:
    return int(text.split("#", 1)[1])


def _take(pool: list[int], n: int, want: Callable[[int], bool] | None = None) -> list[int]:
    """``n`` cards from ``pool`` (in place), those ``want`` accepts first."""
    got: list[int] = []
    if want is not None:
        for c in list(pool):
            if len(got) == n:
                break
            if want(c):
                got.append(c)
                pool.remove(c)
    while len(got) < n and pool:
        got.append(pool.pop())
    if len(got) < n:
        raise IllegalAction("the view's card counts do not add up")
    return got


def _by_kinds(pool: list[int], kinds: list[Any], kind_of: Callable[[int], Any]) -> list[int] | None:
    """One card of each kind in ``kinds`` from ``pool`` (in place), or None (pool untouched) when
    the pool lacks one."""
    trial = list(pool)
    got: list[int] = []
    for k in kinds:
        c = next((c for c in trial if kind_of(c) == k), None)
        if c is None:
            return None
        trial.remove(c)
        got.append(c)
    pool[:] = trial
    return got


def _uses(text: str | None, name: str | None) -> tuple[int, int]:
    """(uses this game, uses this round) read from the public ``skill_uses`` wording."""
    if text is None or name is None:
        return 0, 0
    lim = SKILL_LIMIT[name]
    if text == "used this round":
        return 1, 1
    if text == "used":
        return 1, 0
    if text.endswith(" left") and " of " in text:
        left = int(text.split(" ", 1)[0])
        return int(lim) - left, 0
    return 0, 0


def _kaboom_this_turn(log: list[str]) -> bool:
    """Whether the public log shows KABOOM! used since the current turn began (no attack may
    follow it this turn): its line after the latest turn's opening line."""
    for line in reversed(log):
        if line.startswith(SKILL_NAME[KABOOM]):
            return True
        if line.startswith("— ") and "'s turn" in line:
            return False
    return False


def determinize(view: JSON, seat: int, rng: random.Random) -> State:
    """A full state consistent with ``view`` (seat ``seat``'s own view) between two decisions
    of a turn; see the module's docstring."""
    pending = view.get("pending") or {}
    if view["phase"] != "play" or pending.get("kind") != "turn":
        raise IllegalAction("only a seat's own turn is searched")
    n = int(view["players"])
    turn_no = int(view["turn"])
    intel = view["private"].get("intel")
    fresh = intel if intel is not None and intel.get("turn") == turn_no else None
    actions = _deal_actions(view, seat, fresh, rng)
    believers = _deal_believers(view, seat, fresh, rng)
    skills = _deal_skills(view, seat, rng)
    return State(
        players=n, rng=Rng(rng.randrange(2**31)), phase="play", **actions, **believers, **skills,
        **_public_seats(view), intel=[intel if k == seat else None for k in range(n)],
        deaths=[0] * n, follower_draws=[0] * n, current=int(view["current"]),
        first=int(view["first"]), turn_no=turn_no, round_no=int(view["round"]),
        used_kinds=list(view["actions_used"]), extra=int(view["extra_actions"]), stack=[],
        log=list(view["log"]), max_rounds=int(view["max_rounds"]))


def _public_seats(view: JSON) -> dict[str, Any]:
    """What the view shows of every seat: roles, Leaders, steals, immunities, lost turns, Gate of
    Truth copies (each the only one known made), Purple Hermit, and whether KABOOM! forbids
    attacks for the rest of the current turn."""
    seats = view["seats"]
    gate = [x["gate_copy"] for x in seats]
    no_attack = gate[int(view["current"])] == SKILL_NAME[KABOOM] or _kaboom_this_turn(view["log"])
    return {"role": [str(x["role"]) for x in seats], "leader": [x["leader"] for x in seats],
            "steals": [int(x["steals"]) for x in seats],
            "imm_mental": [bool(x["immune_mental"]) for x in seats],
            "imm_physical": [bool(x["immune_physical"]) for x in seats],
            "skip": [bool(x["skips_next_turn"]) for x in seats], "gate": gate,
            "gate_history": [[g] if g else [] for g in gate],
            "hermit": [bool(x["hermit"]) for x in seats], "no_attack": no_attack}


def _deal_actions(view: JSON, seat: int, fresh: JSON | None, rng: random.Random) -> dict[str, Any]:
    """The hands, the action deck and its discards: the seat's own hand as it is, the one its
    Info-Spy showed this turn as seen (if still the same size), the rest drawn at random."""
    n = int(view["players"])
    seats = view["seats"]
    mine_a = [_uid(a["uid"]) for a in view["private"]["actions"]]
    pool_a = [c for c in range(N_ACTIONS) if c not in set(mine_a)]
    rng.shuffle(pool_a)
    hands: list[list[int]] = [[] for _ in range(n)]
    hands[seat] = mine_a
    if fresh is not None and len(fresh["actions"]) == seats[fresh["of"]]["hand"]:
        got = _by_kinds(pool_a, list(fresh["actions"]), lambda c: ACTION_CARDS[c])
        if got is not None:
            hands[fresh["of"]] = got
    for k in range(n):
        if k != seat and not (fresh is not None and k == fresh["of"] and hands[k]):
            hands[k] = _take(pool_a, int(seats[k]["hand"]))
    action_deck = _take(pool_a, int(view["action_deck"]))
    action_discard = _take(pool_a, int(view["action_discard"]))
    if pool_a:
        raise IllegalAction("the view's action cards do not add up")
    return {"action_deck": action_deck, "action_discard": action_discard, "hands": hands}


def _deal_believers(view: JSON, seat: int, fresh: JSON | None,
                    rng: random.Random) -> dict[str, Any]:
    """The believers: the graveyard's types in order, the seat's own and (as seen this turn)
    its Info-Spy's target's, the rest drawn at random; the box is what this table size leaves
    out."""
    n = int(view["players"])
    seats = view["seats"]
    per_type = DECK_SIZE[n] // 5
    box = [c for c in range(N_BELIEVERS) if c % BELIEVER_COPIES >= per_type]
    mine_b = [_uid(b["uid"]) for b in view["private"]["believers"]]
    pool_b = [c for c in range(N_BELIEVERS)
              if c % BELIEVER_COPIES < per_type and c not in set(mine_b)]
    rng.shuffle(pool_b)
    graveyard = _by_kinds(pool_b, list(view["graveyard"]), btype)
    if graveyard is None:
        raise IllegalAction("the graveyard does not match the believers unseen")
    believers: list[list[int]] = [[] for _ in range(n)]
    believers[seat] = mine_b
    seen_b: int | None = None
    if fresh is not None and len(fresh["believers"]) == seats[fresh["of"]]["believers"]:
        got = _by_kinds(pool_b, list(fresh["believers"]), btype)
        if got is not None:
            believers[fresh["of"]] = got
            seen_b = int(fresh["of"])
    for k in range(n):
        if k != seat and k != seen_b:
            believers[k] = _take(pool_b, int(seats[k]["believers"]))
    removed = _take(pool_b, int(view["removed"]))
    believer_deck = _take(pool_b, int(view["believer_deck"]))
    if pool_b:
        raise IllegalAction("the view's believers do not add up")
    return {"believer_deck": believer_deck, "box": box, "graveyard": graveyard,
            "removed": removed, "believers": believers}


def _deal_skills(view: JSON, seat: int, rng: random.Random) -> dict[str, Any]:
    """The skills: the seat's own and the revealed ones with their uses, the rest drawn at
    random from those nobody shows."""
    n = int(view["players"])
    seats = view["seats"]
    own = view["private"]["skill"]
    skill: list[int | None] = [None] * n
    revealed = [False] * n
    uses = [0] * n
    round_uses = [0] * n
    placed: set[int] = set()
    if own is not None:
        skill[seat] = _uid(own["uid"])
        revealed[seat] = bool(own["revealed"])
        uses[seat], round_uses[seat] = _uses(own["uses_left"], own["name"])
        placed.add(skill[seat] or 0)
    for k in range(n):
        name = seats[k]["skill"]
        if k != seat and name is not None:
            skill[k] = SKILL_NAMES.index(name)
            revealed[k] = True
            uses[k], round_uses[k] = _uses(seats[k]["skill_uses"], name)
            placed.add(skill[k] or 0)
    gone = N_SKILLS - int(view["skill_deck"]) - n
    skill_discard: list[int] = []
    if gone > 0:
        # only Impermanence of Life is ever discarded (revealed as its condition breaks)
        skill_discard = [SKILL_KEYS.index(IMPERMANENCE)]
        placed |= set(skill_discard)
    pool_s = [c for c in range(N_SKILLS) if c not in placed]
    rng.shuffle(pool_s)
    for k in range(n):
        if skill[k] is None:
            skill[k] = pool_s.pop()
    return {"skill_deck": pool_s, "skill_discard": skill_discard, "skill": skill,
            "revealed": revealed, "uses": uses, "round_uses": round_uses}


# ------------------------------------------------------------------------------ candidates

TURN_CANDIDATES = 6
"""A turn offers up to dozens of choices (every card on every target, every skill with every
sacrifice): the search compares the ones the heuristic rates best, and ending the turn."""


def search_candidates(view: JSON, prompt: Prompt, rng: random.Random) -> list[Action] | None:
    """The seat's own turn: its choices, the six the heuristic rates best and ending the turn
    (None elsewhere: the heuristic decides). Ascend with Me is left to the heuristic: how many
    cards it draws is not in the view, so samples cannot replay it."""
    if prompt.kind not in SEARCHED:
        return None
    acts = [dict(c.action) for c in prompt.choices]
    if any(a.get("skill") == SKILL_NAME[ASCEND_WITH_ME] for a in acts):
        return None
    if prompt.kind != "turn" or len(acts) <= TURN_CANDIDATES:
        return acts
    me = bot._Me(view)
    ranked = sorted(acts, key=lambda a: -bot._score(me, a))
    out = ranked[:TURN_CANDIDATES]
    end = next((a for a in acts if a["type"] == "end"), None)
    if end is not None and end not in out:
        out.append(end)
    return out


# ------------------------------------------------------------------------------ evaluation

OWN_WEIGHT = 0.6
"""A believer of the seat's own, beyond what it adds to its sect (the win inside a sect)."""
CARD_WEIGHT = 0.2
"""An action card in hand."""
SCALE = 2.5
"""The logistic curve's width, in believers."""


def _sect(s: State, k: int) -> int | None:
    if s.role[k] == WANDERER:
        return None
    if s.role[k] == FOLLOWER:
        return s.leader[k]
    return k


def _score(s: State, k: int, totals: dict[int, int]) -> float:
    lead = _sect(s, k)
    sect = totals.get(lead, 0) if lead is not None else len(s.believers[k])
    return sect + OWN_WEIGHT * len(s.believers[k]) + CARD_WEIGHT * len(s.hands[k])


def evaluate(state: State, seat: int) -> float:
    """A game cut short by the search's horizon: the seat's chances in 0..1. The largest sect
    wins and its member with most believers, so a seat scores its sect's believers plus its own
    (and a little for its action cards), against the best other seat's, through a logistic
    curve; a rival in the same sect differs only by its own believers and cards."""
    s = state
    totals: dict[int, int] = {}
    for k in range(s.players):
        lead = _sect(s, k)
        if lead is not None:
            totals[lead] = totals.get(lead, 0) + len(s.believers[k])
    for k in range(s.players):
        if s.role[k] == LEADER:
            totals.setdefault(k, 0)
    mine = _score(s, seat, totals)
    best = max(_score(s, k, totals) for k in range(s.players) if k != seat)
    return 1.0 / (1.0 + math.exp(-(mine - best) / SCALE))
