"""The Hegemony of Faith engine: setup (rulebook 4-1), the decision stack, views and JSON.

Open decisions live on a stack of frames (see ``state``); ``prompts`` asks the seats the top frame
waits for, or the current player's turn when the stack is empty. ``play`` answers the top frame,
then ``_run`` advances every frame that needs nobody until a decision is needed again.

Prompt ``params`` (see :class:`rules.engine.Prompt`), per prompt kind:

* ``"lineup"`` (free-form ``"lineup"``: the order of believers sent to a Faith War or a Faith
  Debate): ``min`` and ``max``, how many of the seat's own believers the line-up holds (equal
  when the size is fixed); ``zombies``, True when the seat may also add graveyard believers as
  ``"z<ID>"`` entries (Zombie Army).

The other prompts are enumerated: their choices say everything and ``params`` is empty.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, cast

from rules.engine import (
    ECHO,
    Action,
    Choice,
    Engine,
    Event,
    IllegalAction,
    Option,
    Prompt,
    Result,
    Rng,
    option_seat,
    seat_name,
)

from ..search import STRENGTH
from . import bot, combat, reactions, settle, surrender, turn
from . import search as search_rules
from .cards import (
    ACTION_CARDS,
    ACTION_KIND,
    ACTION_TEXT,
    BELIEVER_COPIES,
    DECK_SIZE,
    N_ACTIONS,
    N_BELIEVERS,
    N_SKILLS,
    PURPLE_HERMIT,
    SKILL_LIMIT,
    SKILL_NAMES,
    SKILL_TEXT,
    SKILL_TIMING,
    action_uid,
    beats,
    believer_uid,
    bname,
    btype,
    skill_limit_text,
    skill_uid,
)
from .frames import AttackFrame, Frame, SkillsFrame
from .sects import (
    gate_usable,
    hand_limit,
    skill_key,
    skill_name,
    unification,
)
from .state import FOLLOWER, LEADER, WANDERER, Ctx, State, state_from_json, state_to_json
from .views import (
    ActionCardView,
    BelieverView,
    PendingView,
    PrivateView,
    ResultView,
    SeatView,
    SectView,
    SkillOptionView,
    SkillView,
    View,
)

SUMMARY = """\
Four to eight prophets compete for a limited flock. Each player leads a sect with one secret skill, \
a hand of action cards and a handful of believers: Fool (1), Prayer (2), Missionary (3), Elder (4) \
and Fanatic (5). Believers stand in a circle: each beats the two IDs just below it, and beating the \
one directly below in a Faith War earns a bonus believer.

On your turn you draw up to six action cards and take up to two actions of different kinds: a \
strategy card (recruit, spy, revive, absorb a weak sect…), a physical attack (believers die), a \
mental attack (believers change sides), or a discard. Attacked sects may answer with a defence \
card before any believer is shown; confrontations are fought with believers picked in secret.

A player who ends a turn with no believers surrenders and follows another Leader — or wanders, \
stealing believers until they can found a sect again. When the believer deck runs out, the largest \
sect wins and its member with the most believers is the winner; uniting every player under one \
Leader wins at once.
"""


class HegemonyEngine(Engine[State]):
    key = "hegemony_of_faith"
    name = "Hegemony of Faith"
    min_players = 4
    max_players = 8
    summary = SUMMARY
    rules_page = "docs/rules/hegemony_of_faith.md"
    schema_version = 1
    options = (
        Option("first_player", "seat", "seat that starts (0-based seat number, or \"P3\" style); "
               "default: random"),
        Option("max_rounds", "int", "safety limit: the game also ends after this many rounds, "
               "0 = none", default=30, lo=0, hi=500),
        Option("reaction_window", "int", "minutes a reaction (defence, counter, Karma, Prophet, "
               "Rebirth) stays open at most, the same for everyone asked",
               default=reactions.DEFAULT_WINDOW // 60, lo=reactions.WINDOW_MINUTES[0],
               hi=reactions.WINDOW_MINUTES[1], unit="minutes"),
        STRENGTH,
    )

    # ------------------------------------------------------------------------------- setup
    def setup(self, players: int, seed: int, options: Mapping[str, Any] | None = None) -> State:
        opts = self.validate_options(players, options or {})
        rng = Rng(seed)
        first = option_seat(self.option_value(opts, "first_player"))
        max_rounds = self.option_value(opts, "max_rounds")
        per_type = DECK_SIZE[players] // 5
        used = [c for c in range(N_BELIEVERS) if c % BELIEVER_COPIES < per_type]
        box = [c for c in range(N_BELIEVERS) if c % BELIEVER_COPIES >= per_type]
        rng.shuffle(used)
        actions = list(range(N_ACTIONS))
        rng.shuffle(actions)
        skills = list(range(N_SKILLS))
        rng.shuffle(skills)
        if first is None:
            first = rng.randint(0, players - 1)
        n = players
        s = State(players=n, rng=rng, action_deck=actions, believer_deck=used, box=box,
                  skill_deck=skills, hands=[[] for _ in range(n)], believers=[[] for _ in range(n)],
                  skill=[None] * n, revealed=[False] * n, uses=[0] * n, round_uses=[0] * n,
                  role=[LEADER] * n, leader=[None] * n, steals=[0] * n, imm_mental=[False] * n,
                  imm_physical=[False] * n, skip=[False] * n, gate=[None] * n,
                  gate_history=[[] for _ in range(n)], hermit=[False] * n, intel=[None] * n,
                  deaths=[0] * n, first=first, current=first, max_rounds=max_rounds)
        s.reaction_window = reactions.window_option(self.option_value(opts, "reaction_window"))
        opts_frame: dict[str, list[int]] = {}
        for k in range(n):
            s.hands[k] = [s.action_deck.pop() for _ in range(6)]
            s.believers[k] = [s.believer_deck.pop() for _ in range(3)]
            opts_frame[str(k)] = [s.skill_deck.pop(), s.skill_deck.pop()]
        s.stack.append({"k": "skills", "wait": list(range(n)), "opts": opts_frame})
        s.log.append(f"A game for {n} players begins; {seat_name(first)} will start. Everyone chooses a skill.")
        return s

    # ----------------------------------------------------------------------------- prompts
    def prompts(self, state: State) -> list[Prompt]:
        s = state
        if s.phase == "over":
            return []
        if not s.stack:
            return [turn.turn_prompt(s)]
        f = s.stack[-1]
        return _frame_prompts(s, f)

    # -------------------------------------------------------------------------------- play
    def play(self, state: State, seat: int, action: Action, prompt: Prompt) -> tuple[State, list[Event]]:
        if prompt.free_form == "lineup":
            top = state.stack[-1]
            assert top["k"] == "attack", "a line-up answers an attack"
            combat.validate_lineup(state, top, seat, action)
        s = self.clone(state)
        ctx = Ctx(s)
        if not s.stack:
            turn.turn_answer(ctx, seat, action)
        else:
            f = s.stack[-1]
            _frame_answer(ctx, f, seat, action)
        _run(ctx)
        return s, ctx.events

    # -------------------------------------------------------------------------------- view
    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        s = state
        v = public_view(s)
        if seat is not None:
            v["private"] = private_view(s, seat)
        return cast(dict[str, Any], v)  # the engine contract's plain JSON (declared in ``views``)

    def private_view(self, state: State, seat: int) -> dict[str, Any]:
        """The seat's part of :meth:`view` alone (the platform asks every seat's after each step)."""
        return cast(dict[str, Any], private_view(state, seat))

    def secret_markers(self, state: State, seat: int) -> list[str]:
        s = state
        out = [action_uid(c) for c in s.hands[seat]] + [believer_uid(c) for c in s.believers[seat]]
        sk = s.skill[seat]
        if sk is not None and not s.revealed[seat]:
            out.append(skill_uid(sk))
        if s.stack and s.stack[0]["k"] == "skills":
            out += [skill_uid(c) for c in s.stack[0]["opts"][str(seat)]]
        return out

    def secret_variants(self, state: State, seat: int, rng: random.Random) -> list[State]:
        """The seat's skill choice while skills are chosen (the other option kept, or an unchosen
        option swapped with the skill deck); its pending secret pick or line-up (another legal
        one); and, between decisions (empty stack: somebody's turn), its action cards, believers
        and unrevealed, unused skill, each swapped with as many cards of the matching hidden deck.

        Hand, believers and skill are varied only on an empty stack: frames on the stack hold
        answers made with them (a defence chosen, a prediction, a line-up), so a variant there
        would not look reachable. The check still sees the reaction windows open, on the action
        that opens them (who is asked there depends on public information only)."""
        top = state.stack[-1] if state.stack else None
        out: list[State] = []
        if top is not None and top["k"] == "skills":
            out += self._skill_choice_variants(state, top, seat, rng)
        if top is not None and top["k"] == "attack" and top["stage"] == "pick" \
                and str(seat) in top["picks"]:
            out += self._pick_variants(state, top, seat, rng)
        if top is None and state.phase == "play":
            out += self._hidden_card_variants(state, seat, rng)
        return out

    def _skill_choice_variants(self, s: State, top: SkillsFrame, seat: int,
                               rng: random.Random) -> list[State]:
        """The other skill kept, or (still choosing) an option swapped with the skill deck."""
        opts: list[int] = top["opts"][str(seat)]
        if seat not in top["wait"]:
            v = self.clone(s)
            v.skill[seat] = next(c for c in opts if c != s.skill[seat])
            return [v]
        if not s.skill_deck:
            return []
        v = self.clone(s)
        j = rng.randrange(len(v.skill_deck))
        v_top = v.stack[-1]
        assert v_top["k"] == "skills"  # (a copy of ``top``)
        v_opts: list[int] = v_top["opts"][str(seat)]
        v_opts[0], v.skill_deck[j] = v.skill_deck[j], v_opts[0]
        return [v]

    def _pick_variants(self, s: State, top: AttackFrame, seat: int,
                       rng: random.Random) -> list[State]:
        """Another legal line-up (the same believers in another order) or believer pick."""
        pick: list[Any] = top["picks"][str(seat)]
        if combat.is_lineup(top):
            if len(set(map(str, pick))) <= 1:
                return []
            other = list(pick)
            while other == pick:
                rng.shuffle(other)
        else:
            held = sorted({btype(c) for c in s.believers[seat]} - {pick[0]})
            if not held:
                return []
            other = [rng.choice(held)]
        v = self.clone(s)
        v_attack = v.stack[-1]
        assert v_attack["k"] == "attack"  # (a copy of ``top``)
        v_attack["picks"][str(seat)] = other
        return [v]

    def _hidden_card_variants(self, s: State, seat: int, rng: random.Random) -> list[State]:
        """Between decisions: the seat's action cards, believers (when the types change) and
        unrevealed, unused skill, each swapped with cards of the matching hidden deck."""
        out: list[State] = []
        if s.hands[seat] and len(s.action_deck) > _SWAP_CLEAR_OF_TOP:
            v = self.clone(s)
            _swap_with_deck(v.hands[seat], v.action_deck, rng)
            out.append(v)
        if s.believers[seat] and len(s.believer_deck) > _SWAP_CLEAR_OF_TOP:
            v = self.clone(s)
            _swap_with_deck(v.believers[seat], v.believer_deck, rng)
            if sorted(map(btype, v.believers[seat])) != sorted(map(btype, s.believers[seat])):
                out.append(v)
        sk = s.skill[seat]
        if sk is not None and not s.revealed[seat] and not s.uses[seat] \
                and not s.round_uses[seat] and s.skill_deck:
            v = self.clone(s)
            j = 0  # the bottom of the skill deck: nobody's next skill changes
            v.skill[seat], v.skill_deck[j] = v.skill_deck[j], sk
            out.append(v)
        return out

    def undoable(self, before: State, seat: int, action: Action, after: State,
                 events: Sequence[Event]) -> str | None:
        """Only private steps may be taken back: the secret skill kept while others still choose,
        a secret pick or line-up while the other side still chooses, and opening the discard step
        before any card is discarded. Playing a card shows it, a draw or a random steal reveals a
        card, and a shuffle is chance: those moves are final (the rulebook's turn has no "take
        back")."""
        if before.rng.position != after.rng.position:
            return "something was left to chance since (a shuffle or a random pick)"
        if (len(after.action_deck) < len(before.action_deck)
                or len(after.believer_deck) < len(before.believer_deck)
                or len(after.skill_deck) < len(before.skill_deck)):
            return "a card was drawn since"
        if after.revealed != before.revealed:
            return "a skill was revealed since"
        kind = action["type"]
        top = after.stack[-1] if after.stack else None
        if kind == "keep_skill":
            if top is not None and top["k"] == "skills":
                return None
            return "every prophet has chosen a skill, so the choices are settled"
        if kind in ("pick", "lineup"):
            if top is not None and top["k"] == "attack" and top.get("stage") == "pick":
                return None
            return "both sides have chosen, so the believers are shown"
        if kind == "discard" and top is not None and top["k"] == "discard" and not top["n"]:
            return None
        return "that kind of move is final in Hegemony of Faith"

    def result(self, state: State) -> Result | None:
        s = state
        if s.phase != "over" or s.winner is None:
            return None
        return Result((s.winner,), {k: float(len(s.believers[k])) for k in range(s.players)}, s.reason)

    # ------------------------------------------------------------------ timeouts and bots
    def timeout_action(self, state: State, prompt: Prompt) -> Action:
        return timeout_default(state, prompt)

    def bot_action(self, view: dict[str, Any], prompt: Prompt, rng: random.Random) -> Action:
        return bot.choose(view, prompt, rng)

    # ----------------------------------------------------------------------------- search
    search_horizon = {"normal": 10, "hard": 16}
    """Decisions a playout goes on for: to about the end of the turn (normal) and the next
    player's (hard). Longer playouts drown the turn's effect in the other players' random picks."""
    search_iterations = {"normal": 16, "hard": 80}
    """A sample (a determinization, the candidate and its playout) costs about 2 ms of processor
    time: these keep a decision well within its time (hard: about 0.15 s median on an idle
    core)."""
    search_margin = 0.08
    """Playouts full of random believer picks judge an answer roughly: the heuristic's answer
    stands unless another scores 8 points in a hundred better (with 3, hard won 33% of 60 games
    against easy, no better than the heuristic; with 8, 45%)."""

    def determinize(self, view: dict[str, Any], seat: int, rng: random.Random) -> State:
        """A full state consistent with ``view``, seat ``seat``'s own view, read from nothing
        else (:func:`rules.hegemony_of_faith.search.determinize`)."""
        return search_rules.determinize(view, seat, rng)

    def search_candidates(self, view: dict[str, Any], prompt: Prompt,
                          rng: random.Random) -> list[Action] | None:
        """Searched: the seat's own turn; the rest follows the heuristic
        (:func:`rules.hegemony_of_faith.search.search_candidates`)."""
        return search_rules.search_candidates(view, prompt, rng)

    def evaluate(self, state: State, seat: int) -> float:
        """A game cut short by the search's horizon: the seat's chances from its sect's believers
        and its own against the best other seat's."""
        return search_rules.evaluate(state, seat)

    # ------------------------------------------------------------------------------- json
    def to_json(self, state: State) -> dict[str, Any]:
        return state_to_json(state, self.schema_version)

    def from_json(self, data: Mapping[str, Any]) -> State:
        self.check_schema(data)
        return state_from_json(dict(data))


_SWAP_CLEAR_OF_TOP = 8
"""Cards on top of a deck (its end: draws pop from there) a variant leaves alone, so the next
draws of other seats stay the same (a different deck order is another, unrelated secret)."""


def _swap_with_deck(held: list[int], deck: list[int], rng: random.Random) -> None:
    """Swap the cards of ``held`` with distinct random cards from below the top of ``deck``, in
    place: each takes the other's position, so both keep their sizes and together hold the same
    cards. As many are swapped as there are cards below the top."""
    below = range(max(0, len(deck) - _SWAP_CLEAR_OF_TOP))
    for i, j in enumerate(rng.sample(below, min(len(held), len(below)))):
        held[i], deck[j] = deck[j], held[i]


# ------------------------------------------------------------------------- frame dispatch

def _skills_prompts(s: State, f: SkillsFrame) -> list[Prompt]:
    out = []
    for k in f["wait"]:
        ch = tuple(Choice(SKILL_NAMES[c], {"type": "keep_skill", "skill": SKILL_NAMES[c]},
                          description=f"{skill_limit_text(SKILL_NAMES[c])}: {SKILL_TEXT[SKILL_NAMES[c]]}"[:100])
                   for c in f["opts"][str(k)])
        out.append(Prompt(k, "choose_skill", "Keep one of your two skill cards in secret; the other "
                          "goes back.", ch, secret=True, timeout_note="the first skill is kept"))
    return out


def _skills_answer(ctx: Ctx, f: SkillsFrame, seat: int, action: dict[str, Any]) -> None:
    s = ctx.s
    opts: list[int] = f["opts"][str(seat)]
    keep = next(c for c in opts if SKILL_NAMES[c] == action["skill"])
    s.skill[seat] = keep
    f["wait"].remove(seat)
    ctx.tell(seat, f"You keep the skill {SKILL_NAMES[keep]}.", kind=ECHO)
    ctx.say(f"{seat_name(seat)} has chosen a skill.")


def _skills_step(ctx: Ctx, f: SkillsFrame) -> None:
    s = ctx.s
    for k in range(s.players):
        for c in f["opts"][str(k)]:
            if c != s.skill[k]:
                s.skill_deck.append(c)
    s.rng.shuffle(s.skill_deck)
    s.phase = "play"
    ctx.say("Skills are chosen. The game begins.")


def _noop_answer(ctx: Ctx, f: Frame, seat: int, action: dict[str, Any]) -> None:
    raise IllegalAction(f"nothing to answer for seat {seat}")


def _none(s: State, f: Frame) -> list[Prompt]:
    return []


def _frame_prompts(s: State, f: Frame) -> list[Prompt]:
    """The prompts of frame ``f``, by its kind (an end of turn and the settlement ask nobody)."""
    if f["k"] == "skills":
        return _skills_prompts(s, f)
    if f["k"] == "attack":
        return combat.attack_prompts(s, f)
    if f["k"] == "trim" or f["k"] == "discard":
        return turn.discard_prompts(s, f)
    if f["k"] == "prophet":
        return turn.prophet_prompts(s, f)
    if f["k"] == "alliance":
        return turn.alliance_prompts(s, f)
    if f["k"] == "bf":
        return turn.bf_prompts(s, f)
    if f["k"] == "rebirth":
        return turn.rebirth_prompts(s, f)
    if f["k"] == "surrender":
        return surrender.surrender_prompts(s, f)
    if f["k"] == "keep":
        return surrender.keep_prompts(s, f)
    if f["k"] == "snatch":
        return combat.snatch_prompts(s, f)
    return _none(s, f)


def _frame_answer(ctx: Ctx, f: Frame, seat: int, action: dict[str, Any]) -> None:
    """Seat ``seat`` answers frame ``f``, by its kind."""
    if f["k"] == "skills":
        _skills_answer(ctx, f, seat, action)
    elif f["k"] == "attack":
        combat.attack_answer(ctx, f, seat, action)
    elif f["k"] == "trim" or f["k"] == "discard":
        turn.discard_answer(ctx, f, seat, action)
    elif f["k"] == "prophet":
        turn.prophet_answer(ctx, f, seat, action)
    elif f["k"] == "alliance":
        turn.alliance_answer(ctx, f, seat, action)
    elif f["k"] == "bf":
        turn.bf_answer(ctx, f, seat, action)
    elif f["k"] == "rebirth":
        turn.rebirth_answer(ctx, f, seat, action)
    elif f["k"] == "surrender":
        surrender.surrender_answer(ctx, f, seat, action)
    elif f["k"] == "keep":
        surrender.keep_answer(ctx, f, seat, action)
    elif f["k"] == "snatch":
        combat.snatch_answer(ctx, f, seat, action)
    else:
        _noop_answer(ctx, f, seat, action)


def _remove(s: State, f: Frame) -> None:
    for i in range(len(s.stack) - 1, -1, -1):
        if s.stack[i] is f:
            del s.stack[i]
            return


def _step(ctx: Ctx, f: Frame) -> bool:
    """Advance frame ``f`` (which waits for nobody). True while it stays on the stack."""
    s = ctx.s
    if f["k"] == "skills":
        _skills_step(ctx, f)
        _remove(s, f)
        turn.begin_turn(ctx, s.first)
        return True
    if f["k"] == "attack":
        return combat.attack_step(ctx, f)
    if f["k"] == "trim" or f["k"] == "discard":
        turn.discard_step(ctx, f)
    elif f["k"] == "prophet":
        turn.prophet_step(ctx, f)
    elif f["k"] == "alliance":
        turn.alliance_step(ctx, f)
    elif f["k"] == "bf":
        turn.bf_step(ctx, f)
    elif f["k"] == "surrender":
        return surrender.surrender_step(ctx, f)
    elif f["k"] == "settle":
        return settle.settle_step(ctx, f)
    elif f["k"] == "endturn":
        if surrender.endturn_step(ctx, f):
            return True
        _remove(s, f)
        win = unification(s)
        if win is not None:
            s.winner = win
            s.reason = f"{seat_name(win)} unified every player under one faith"
            s.phase = "over"
            ctx.say(f"Unification! Every other player follows {seat_name(win)}: {seat_name(win)} wins.", kind="end")
            return True
        turn.begin_turn(ctx, (f["seat"] + 1) % s.players)
        return True
    return False


def _run(ctx: Ctx) -> None:
    s = ctx.s
    for _ in range(10000):
        if s.phase == "over":
            s.stack = []
            return
        if not s.stack:
            if s.phase != "play":
                return
            surrender.housekeeping(ctx)
            if not s.stack:
                return
            continue
        f = s.stack[-1]
        if f["wait"]:
            return
        if not _step(ctx, f):
            _remove(s, f)
    raise AssertionError("the decision stack did not settle")


# ----------------------------------------------------------------------------------- views

def _uses_left(s: State, seat: int) -> str:
    name = skill_name(s, seat)
    if name is None:
        return ""
    lim = SKILL_LIMIT[name]
    if lim == "unlimited":
        return "unlimited"
    if lim == "round":
        return "used this round" if s.round_uses[seat] else "ready this round"
    if lim == "game":
        return "used" if s.uses[seat] else "once, unused"
    return f"{max(0, int(lim) - s.uses[seat])} of {lim} left"


def _pending(s: State) -> PendingView:
    if not s.stack:
        return {"kind": "turn", "seat": s.current, "waiting": [s.current]}
    f = s.stack[-1]
    d: PendingView = {"kind": f["k"], "waiting": list(f["wait"])}
    if f["k"] == "attack":
        d.update({"card": f["card"], "by": f["by"], "targets": list(f["targets"]),
                  "stage": f["stage"], "chosen": sorted(int(k) for k in f["picks"]),
                  "reversed": f["flips"] % 2 == 1,
                  "fighters": {k: v for k, v in f["fighters"].items()}})
    elif f["k"] == "surrender":
        d["for"] = f["seat"]
        d["stage"] = f["stage"]
    elif f["k"] == "keep":
        d["for"] = f["seat"]
    elif f["k"] == "prophet":
        d["drawer"] = f["drawer"]
    elif f["k"] == "bf":
        d.update({"by": f["by"], "target": f["t"], "mode": f["mode"]})
    elif f["k"] == "snatch":
        d["winners"] = sorted(int(k) for k in f["wins"])
    # a reaction window closes after the table's reaction_window seconds at most, so the board
    # can say how long it stays open (the engine keeps no clock of its own)
    if f["k"] in ("bf", "prophet", "rebirth") or (f["k"] == "attack" and f["stage"] in ("defence", "karma")):
        d["window"] = s.reaction_window
    return d


def _sealed(s: State, k: int, *, public: bool) -> bool:
    """A Wanderer's skill is sealed, and a Follower's unless it is Purple Hermit (or Gate of Truth
    while it can still copy Purple Hermit). Seen from outside an unrevealed skill is unknown, so
    every unrevealed Follower looks sealed."""
    if s.role[k] == WANDERER:
        return True
    if s.role[k] != FOLLOWER:
        return False
    known = s.revealed[k] or not public
    return not (known and (skill_key(s, k) == PURPLE_HERMIT or gate_usable(s, k, PURPLE_HERMIT)))


def public_view(s: State) -> View:
    # each seat's Followers, found in one pass (as ``followers`` lists them: in seat order),
    # rather than once per seat and twice more per sect
    led: list[list[int]] = [[] for _ in range(s.players)]
    for k in range(s.players):
        lead = s.leader[k]
        if s.role[k] == FOLLOWER and lead is not None:
            led[lead].append(k)
    seats: list[SeatView] = []
    for k in range(s.players):
        name = skill_name(s, k)
        seats.append({
            "seat": k, "name": seat_name(k), "role": s.role[k], "leader": s.leader[k],
            "followers": list(led[k]), "believers": len(s.believers[k]),
            # derived from a hidden skill (Ascend with Me, Purple Hermit): public only once revealed
            "hand": len(s.hands[k]), "hand_limit": hand_limit(s, k) if s.revealed[k] else None,
            "skill": name if s.revealed[k] else None,
            "skill_uses": _uses_left(s, k) if s.revealed[k] else None,
            "sealed": _sealed(s, k, public=True), "steals": s.steals[k],
            "immune_mental": s.imm_mental[k], "immune_physical": s.imm_physical[k],
            "skips_next_turn": s.skip[k], "gate_copy": s.gate[k], "hermit": s.hermit[k],
        })
    sects: list[SectView] = [{"leader": lead, "members": [lead, *led[lead]],
              "believers": len(s.believers[lead]) + sum(len(s.believers[m]) for m in led[lead])}
             for lead in range(s.players) if s.role[lead] == LEADER]
    result: ResultView | None = None
    if s.phase == "over" and s.winner is not None:
        result = {"winner": s.winner, "reason": s.reason}
    return {
        "game": "hegemony_of_faith", "players": s.players, "phase": s.phase,
        "round": s.round_no, "turn": s.turn_no, "current": s.current, "first": s.first,
        "max_rounds": s.max_rounds,
        "actions_used": list(s.used_kinds), "extra_actions": s.extra,
        "seats": seats, "sects": sects,
        "action_deck": len(s.action_deck), "action_discard": len(s.action_discard),
        "believer_deck": len(s.believer_deck), "graveyard": [btype(c) for c in s.graveyard],
        "removed": len(s.removed), "skill_deck": len(s.skill_deck),
        "pending": _pending(s), "log": list(s.log), "result": result,
    }


_BELIEVER_PARTS: dict[int, tuple[str, int, str, int, int]] = {}
"""Per believer card: its uid, type, name and the two types it beats (made on first use)."""
_ACTION_PARTS: dict[int, tuple[str, str, str, str]] = {}
"""Per action card: its uid, name, kind and text (made on first use)."""


def _believer_info(c: int) -> BelieverView:
    # every seat's private view lists its believers after every step: the card's parts are
    # looked up once, and each view still gets fresh dicts and lists of its own
    parts = _BELIEVER_PARTS.get(c)
    if parts is None:
        t = btype(c)
        parts = _BELIEVER_PARTS[c] = (believer_uid(c), t, bname(t), *beats(t))
    uid, t, name, first, second = parts
    return {"uid": uid, "id": t, "name": name, "beats": [first, second], "bonus_against": first}


def _action_info(c: int) -> ActionCardView:
    parts = _ACTION_PARTS.get(c)
    if parts is None:
        name = ACTION_CARDS[c]
        parts = _ACTION_PARTS[c] = (action_uid(c), name, ACTION_KIND[name], ACTION_TEXT[name])
    uid, name, kind, text = parts
    return {"uid": uid, "name": name, "kind": kind, "text": text}


def _by_type(c: int) -> tuple[int, int]:
    return btype(c), c


def _by_name(c: int) -> tuple[str, int]:
    return ACTION_CARDS[c], c


def private_view(s: State, seat: int) -> PrivateView:
    sk = s.skill[seat]
    skill: SkillView | None = None
    if sk is not None:
        name = SKILL_NAMES[sk]
        skill = {"uid": skill_uid(sk), "name": name, "text": SKILL_TEXT[name],
                 "timing": SKILL_TIMING[name], "limit": skill_limit_text(name),
                 "uses_left": _uses_left(s, seat), "revealed": s.revealed[seat]}
    options: list[SkillOptionView] = []
    if s.stack and s.stack[0]["k"] == "skills":
        for c in s.stack[0]["opts"][str(seat)]:
            options.append({"uid": skill_uid(c), "name": SKILL_NAMES[c], "text": SKILL_TEXT[SKILL_NAMES[c]],
                            "limit": skill_limit_text(SKILL_NAMES[c])})
    my_pick = None
    if s.stack and s.stack[-1]["k"] == "attack":
        my_pick = s.stack[-1]["picks"].get(str(seat))
    return {
        "seat": seat, "skill": skill, "skill_options": options,
        "actions": [_action_info(c) for c in sorted(s.hands[seat], key=_by_name)],
        "believers": [_believer_info(c) for c in sorted(s.believers[seat], key=_by_type)],
        "intel": s.intel[seat], "my_pick": my_pick,
        "hand_limit": hand_limit(s, seat), "sealed": _sealed(s, seat, public=False),
    }


# -------------------------------------------------------------------------------- timeouts

def timeout_default(s: State, prompt: Prompt) -> Action:
    """The passive, sensible answer when a seat lets its deadline pass. In a reaction window
    that is "No reaction" for every asked seat, holder or not (see ``reactions``)."""
    kind = prompt.kind
    if kind in reactions.PASS:
        return dict(reactions.PASS[kind])
    by_type: dict[str, dict[str, Any]] = {
        "turn": {"type": "end"}, "accept": {"type": "accept", "use": False},
        "discard": {"type": "done"}, "snatch": {"type": "snatch", "take": True, "rest": True},
    }
    if kind in by_type:
        return dict(by_type[kind])
    if kind == "designate":
        return dict(max(prompt.choices, key=lambda c: len(s.believers[c.action["member"]])).action)
    return dict(prompt.choices[0].action)


ENGINE = HegemonyEngine()
