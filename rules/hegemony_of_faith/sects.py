"""Sects, Followers and Wanderers (rulebook 6), skill availability (7-1), drawing cards (4-2).

Small helpers shared by every other module: who leads whom, sect totals, whether a seat may use a
skill right now (sealed skills, use limits, Gate of Truth copies), drawing from the two decks.
"""

from __future__ import annotations

from rules.engine import seat_name

from .cards import (
    ACTION_CARDS,
    ASCEND_WITH_ME,
    GATE_OF_TRUTH,
    IMPERMANENCE,
    SKILL_ACTIVATED,
    SKILL_COPYABLE,
    SKILL_HOLDER,
    SKILL_KEYS,
    SKILL_LIMIT,
    SKILL_NAME,
    SKILL_NAMES,
    btype,
)
from .state import FOLLOWER, LEADER, WANDERER, Ctx, State

HAND_LIMIT = 6


def sect_of(s: State, seat: int) -> int | None:
    """The Leader seat of the sect ``seat`` belongs to (None for a Wanderer)."""
    if s.role[seat] == WANDERER:
        return None
    if s.role[seat] == FOLLOWER:
        return s.leader[seat]
    return seat


# (followers, members and sect_count are asked dozens of times per step, by the prompts, the
# views and the rules: each looks the state's lists up once, not once per seat)

def followers(s: State, leader: int) -> list[int]:
    role, led_by = s.role, s.leader
    return [k for k in range(s.players) if led_by[k] == leader and role[k] == FOLLOWER]


def members(s: State, leader: int) -> list[int]:
    return [leader, *followers(s, leader)]


def leaders(s: State) -> list[int]:
    role = s.role
    return [k for k in range(s.players) if role[k] == LEADER]


def sect_count(s: State, leader: int) -> int:
    held = s.believers
    return len(held[leader]) + sum([len(held[k]) for k in followers(s, leader)])


def sect_immune(s: State, leader: int, mode: str) -> bool:
    flags = s.imm_mental if mode == "mental" else s.imm_physical
    return any(flags[m] for m in members(s, leader))


def skill_name(s: State, seat: int) -> str | None:
    sk = s.skill[seat]
    return None if sk is None else SKILL_NAMES[sk]


def skill_key(s: State, seat: int) -> str | None:
    """The key of the skill the seat holds (None without one)."""
    sk = s.skill[seat]
    return None if sk is None else SKILL_KEYS[sk]


def _limit_ok(s: State, seat: int, key: str) -> bool:
    lim = SKILL_LIMIT[SKILL_NAME[key]]
    if lim == "unlimited":
        return True
    if lim == "round":
        return s.round_uses[seat] < 1
    if lim == "game":
        return s.uses[seat] < 1
    return s.uses[seat] < int(lim)


def own_skill_usable(s: State, seat: int, key: str) -> bool:
    """The seat holds the skill ``key`` itself, it is not sealed (its holder has the role it
    needs), it is ever used at all, and a use is left."""
    if skill_key(s, seat) != key or s.role[seat] != SKILL_HOLDER[key]:
        return False
    if not SKILL_ACTIVATED[key]:
        return False
    return _limit_ok(s, seat, key)


def revealed_elsewhere(s: State, seat: int, key: str) -> bool:
    return any(k != seat and s.revealed[k] and skill_key(s, k) == key for k in range(s.players))


def gate_usable(s: State, seat: int, key: str) -> bool:
    """``seat`` may use the skill ``key`` by copying it with Gate of Truth (or through an active
    copy).

    Gate of Truth is a Leader's skill, sealed in a Follower, except for one copy: Purple Hermit
    works only for a Follower, so a Follower may open the Gate to copy it (its timing is the
    copied skill's, 7-4)."""
    if skill_key(s, seat) != GATE_OF_TRUTH:
        return False
    if s.role[seat] != SKILL_HOLDER[key]:
        return False
    name = SKILL_NAME[key]
    if s.gate[seat] == name and SKILL_LIMIT[name] == "unlimited":
        return True
    if not SKILL_COPYABLE[key] or name in s.gate_history[seat]:
        return False
    return revealed_elsewhere(s, seat, key) and _limit_ok(s, seat, GATE_OF_TRUTH)


def can_use(s: State, seat: int, key: str) -> bool:
    return own_skill_usable(s, seat, key) or gate_usable(s, seat, key)


def mark_used(ctx: Ctx, seat: int, key: str) -> None:
    """Record one activation of the skill ``key`` by ``seat`` (its own skill or a Gate of Truth
    copy)."""
    s = ctx.s
    name = SKILL_NAME[key]
    if own_skill_usable(s, seat, key):
        s.uses[seat] += 1
        s.round_uses[seat] += 1
        if not s.revealed[seat]:
            s.revealed[seat] = True
            ctx.say(f"{seat_name(seat)} reveals the skill {name}.")
        return
    if s.gate[seat] == name and SKILL_LIMIT[name] == "unlimited":
        return
    s.uses[seat] += 1
    s.round_uses[seat] += 1
    s.gate[seat] = name
    s.gate_history[seat].append(name)
    if not s.revealed[seat]:
        s.revealed[seat] = True
    ctx.say(f"{seat_name(seat)} opens the Gate of Truth and copies {name} until their next turn.")


def hand_limit(s: State, seat: int) -> int:
    """Six, plus one per Follower with Ascend with Me: the seat's own, or a Gate of Truth copy
    made this round (a copy that could still be made raises nothing)."""
    extra = 0
    if s.role[seat] == LEADER and (own_skill_usable(s, seat, ASCEND_WITH_ME)
                                   or s.gate[seat] == SKILL_NAME[ASCEND_WITH_ME]):
        extra = len(followers(s, seat))
    return HAND_LIMIT + extra


# ------------------------------------------------------------------------------------ drawing

def draw_actions(ctx: Ctx, seat: int, n: int) -> int:
    """Draw up to ``n`` action cards, reshuffling the discards into the deck when it runs out."""
    s = ctx.s
    got = 0
    for _ in range(n):
        if not s.action_deck:
            if not s.action_discard:
                break
            s.action_deck = s.action_discard
            s.action_discard = []
            s.rng.shuffle(s.action_deck)
            ctx.say("The action deck is empty: the discards are shuffled into a new deck.")
        s.hands[seat].append(s.action_deck.pop())
        got += 1
    return got


def draw_with_ascend(ctx: Ctx, seat: int, n: int) -> None:
    """Draw ``n`` action cards. What a Follower draws is counted for their Leader, who with
    Ascend with Me may draw as many on their own turn (``turn``): "you may" makes it a choice, and
    asking the Leader right now would tell the table who holds the skill."""
    s = ctx.s
    got = draw_actions(ctx, seat, n)
    lead = s.leader[seat]
    if got and s.role[seat] == FOLLOWER and lead is not None:
        s.follower_draws[lead] += got


def take_random(s: State, frm: int, n: int) -> list[int]:
    """Remove ``n`` random believer cards (unseen) from seat ``frm``."""
    out: list[int] = []
    for _ in range(min(n, len(s.believers[frm]))):
        card = s.rng.choice(s.believers[frm])
        s.believers[frm].remove(card)
        out.append(card)
    return out


def take_type(s: State, seat: int, t: int) -> int:
    """Remove one believer of type ``t`` from the seat (the lowest card id)."""
    card = min(c for c in s.believers[seat] if btype(c) == t)
    s.believers[seat].remove(card)
    return card


def kill(s: State, seat: int | None, cards: list[int]) -> None:
    """Send believer cards to the graveyard; count them for Holy Rebirth."""
    s.graveyard.extend(cards)
    if seat is not None:
        s.deaths[seat] += len(cards)


def types_held(s: State, seat: int) -> list[int]:
    return sorted({btype(c) for c in s.believers[seat]})


def action_names(s: State, seat: int) -> list[str]:
    return sorted({ACTION_CARDS[c] for c in s.hands[seat]})


def take_action_card(s: State, seat: int, name: str) -> int:
    card = min(c for c in s.hands[seat] if ACTION_CARDS[c] == name)
    s.hands[seat].remove(card)
    return card


# ----------------------------------------------------------------------- roles and the skill

def break_impermanence(ctx: Ctx, seat: int) -> None:
    """Impermanence of Life is revealed, discarded and replaced when its holder breaks a condition."""
    s = ctx.s
    if skill_key(s, seat) != IMPERMANENCE:
        return
    old = s.skill[seat]
    assert old is not None
    s.skill_discard.append(old)
    ctx.say(f"{seat_name(seat)} reveals and discards {SKILL_NAME[IMPERMANENCE]}: its condition is broken.")
    s.uses[seat] = 0
    s.round_uses[seat] = 0
    s.revealed[seat] = False
    if s.skill_deck:
        s.skill[seat] = s.skill_deck.pop()
        ctx.tell(seat, f"Your new skill is {SKILL_NAMES[s.skill[seat] or 0]}.")
        ctx.say(f"{seat_name(seat)} draws a new secret skill.")
    else:
        s.skill[seat] = None


def make_independent(ctx: Ctx, seat: int) -> None:
    s = ctx.s
    s.role[seat] = LEADER
    s.leader[seat] = None
    s.hermit[seat] = False


def make_follower(ctx: Ctx, seat: int, leader: int) -> None:
    s = ctx.s
    for f in followers(s, seat):
        s.leader[f] = leader
    s.role[seat] = FOLLOWER
    s.leader[seat] = leader
    s.imm_mental[seat] = False
    s.imm_physical[seat] = False
    s.gate[seat] = None
    break_impermanence(ctx, seat)
    break_impermanence(ctx, leader)


def make_wanderer(ctx: Ctx, seat: int) -> None:
    s = ctx.s
    for f in followers(s, seat):
        make_independent(ctx, f)
    s.action_discard.extend(s.hands[seat])
    s.hands[seat] = []
    s.role[seat] = WANDERER
    s.leader[seat] = None
    s.steals[seat] = 0
    s.hermit[seat] = False
    s.imm_mental[seat] = False
    s.imm_physical[seat] = False
    s.gate[seat] = None
    break_impermanence(ctx, seat)
    ctx.say(f"{seat_name(seat)} becomes a Wanderer: their action cards are discarded and their skill sealed.")


def unification(s: State) -> int | None:
    for lead in leaders(s):
        if len(followers(s, lead)) == s.players - 1:
            return lead
    return None
