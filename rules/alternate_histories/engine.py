"""The Hegemony: Alternate Histories engine: setup (decks, opening hands, the roll), the turn's
phases, the stack of sub-decisions, views, secrets and JSON.

Open decisions: while choosing decks and opening hands both seats are asked at once, in secret;
then the current player's phase prompt, unless a sub-decision is open on the stack (paying a
cost, a target, a station, a face-down pick, a Reorder, the defender's reaction, the burn of a
reshuffle), which is asked first.

Prompt ``params`` (see :class:`rules.engine.Prompt`), per prompt kind:

* ``"deck"`` (secret, free-form ``"deck"``): ``ready``, the ready-made deck keys. Answer
  ``{"type": "deck", "ready": key}`` or ``{"type": "deck", "code": deck code}``.
* ``"opening"`` (secret, free-form ``"opening"``): ``cards``, the chosen deck as
  ``{"id", "name", "count"}``; ``pick``, 7. Answer ``{"type": "opening", "cards": [ids]}`` with
  repeats.
* ``"pay"``, ``"tokenize"``, ``"reorder"``, ``"burn"`` (free-form ``"pick"``): ``cards``, the
  options as ``{"id", "name"}`` (one entry per copy; ``"reserve"`` is a face-down Reserve that
  pays one ✋), ``count`` (how many to pick; for ``reorder`` all of them, in the new order, top
  first), ``min`` (the fewest allowed: equal to ``count`` except for ``tokenize``) and
  ``purpose`` (what the pick is for, in words). Answer ``{"type": "pick", "cards": [ids]}``.

Every other prompt (``events``, ``combat``, ``build``, ``decommission``, ``target``,
``station``, ``react``) is enumerated; ``react`` is the defender's out-of-turn flee/intercept
window with the ``reaction_window`` deadline.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from dataclasses import fields as dataclass_fields
from typing import Any, cast

from rules.engine import (
    REVISION_OPTION,
    Action,
    Choice,
    Engine,
    Event,
    IllegalAction,
    Option,
    Prompt,
    Result,
    Rng,
    copy_plain,
    fields,
    seat_name,
    shown,
)

from ..search import STRENGTH
from ..text import count
from . import board, bot, combat, effects
from .board import Ctx
from .content import (
    CARDS,
    ERA_NAMES,
    ERAS,
    GOVERNANCES,
    HAND_SIZE,
    NATIONS,
    READY_DECKS,
    SWITCH_BURN,
    decode_deck,
    validate_deck,
)
from .frames import Frame
from .state import (
    ACADEMIC,
    LEGACY_RULES,
    RULES,
    Perm,
    Side,
    State,
    state_from_json,
    state_to_json,
    upgrade,
)
from .views import PendingView, PermView, PrivateView, SideView, View

SUMMARY = """\
Two nations fight through five eras, from the trenches to the singularity. Your 40-card deck is \
your life: you lose when you cannot draw back up to 7 cards. Costs are paid by discarding cards \
from hand (✋) and milling your own deck, so your hand is ammunition, not treasure.

Each turn: untap; play events (and Rapid Deployment units); attack with units (the defender may \
flee or intercept; both sides add the top card of their deck's 1–100 value to their power, the \
higher total wins and a tie destroys both; a hit on the player mills a card per 100 power); build \
units, infrastructure and resources; decommission; draw: your hand refreshes (what is left goes to \
the graveyard), you shuffle and draw 7. A card to draw from an empty deck means burning 5 graveyard \
cards forever, shuffling the rest back and advancing your era tracker; whoever has reshuffled most \
sets the era for both, and later-era cards only become playable then.

Beware Nuclear units: attacking a nuclear power and leaving its bomb standing loses the game.
"""

PHASES = ("events", "combat", "build", "decommission", "draw")
WINDOW_MINUTES = (1, 1440)
DEFAULT_WINDOW_MINUTES = 30
DEFAULT_MAX_TURNS = 120
PICK_KINDS = ("pay", "tokenize", "reorder", "burn")
PROTECTED_TOP = 12
"""Secret variants never move the top cards of a deck: rolls, mills, burns and Reorder reveal
them to the table, whoever holds what."""


class AlternateHistoriesEngine(Engine[State]):
    key = "alternate_histories"
    name = "Hegemony: Alternate Histories"
    min_players = 2
    max_players = 2
    summary = SUMMARY
    rules_page = "docs/rules/alternate_histories.md"
    schema_version = 2
    options = (
        Option("reaction_window", "int", "minutes the defender has to flee or intercept",
               default=DEFAULT_WINDOW_MINUTES, lo=WINDOW_MINUTES[0], hi=WINDOW_MINUTES[1],
               unit="minutes"),
        Option("max_turns", "int", "safety limit: after this many turns the player with more "
               "cards left wins", default=DEFAULT_MAX_TURNS, lo=10, hi=1000),
        STRENGTH,
    )

    # ------------------------------------------------------------------------------ setup
    rules_revision = RULES

    def setup(self, players: int, seed: int, options: Mapping[str, Any] | None = None) -> State:
        """A new game, under the rules revision its options record (the platform records the
        current one when a table opens), else the current one."""
        opts = self.validate_options(players, options or {})
        return self._setup(players, seed, opts, int(opts.get(REVISION_OPTION, RULES)))

    def revision_of(self, state: State) -> int:
        return state.rules

    def _setup(self, players: int, seed: int, opts: Mapping[str, Any], rules: int) -> State:
        """A new game from checked options."""
        from .state import Side

        s = State(rng=Rng(seed),
                  reaction_window=self.option_value(opts, "reaction_window") * 60,
                  max_turns=self.option_value(opts, "max_turns"), rules=rules,
                  sides=[Side(), Side()])
        return s


    # ---------------------------------------------------------------------------- prompts
    def prompts(self, state: State) -> list[Prompt]:
        s = state
        if s.phase == "over":
            return []
        if s.phase == "deck":
            return [_deck_prompt(s, k) for k in (0, 1) if not s.sides[k].chosen]
        if s.phase == "opening":
            return [_opening_prompt(s, k) for k in (0, 1) if not s.sides[k].opened]
        if s.stack:
            return [_frame_prompt(s, s.stack[-1])]
        return [_step_prompt(s)]

    # ------------------------------------------------------------------------------- play
    def undoable(self, before: State, seat: int, action: Action, after: State,
                 events: Sequence[Event]) -> str | None:
        """The secret deck and opening hand may be taken back while the other side is still
        choosing; the last choice reveals the decks and starts the game. Moves in play are final
        (the roll, draws and reshuffles are chance, and a card played is shown)."""
        if action["type"] in ("deck", "opening") and before.phase in ("deck", "opening"):
            # Checked before the "card drawn" rule below: an opening pick takes cards out of the
            # deck too, but by choice, not by chance, so it is no draw.
            if after.phase == before.phase and before.rng.position == after.rng.position:
                return None
            return "both sides have chosen, so the choices are out"
        if before.rng.position != after.rng.position:
            return "something was left to chance since"
        if any(len(a.deck) < len(b.deck) for a, b in zip(after.sides, before.sides, strict=True)):
            return "a card was drawn since"
        return "that kind of move is final in Alternate Histories"

    def play(self, state: State, seat: int, action: Action, prompt: Prompt) -> tuple[State, list[Event]]:
        checked = _check_free_form(state, seat, action, prompt)
        s = self.clone(state)
        ctx = Ctx(s)
        if prompt.kind == "deck":
            _answer_deck(ctx, seat, checked)
        elif prompt.kind == "opening":
            _answer_opening(ctx, seat, checked)
        elif s.stack:
            _answer_frame(ctx, s.stack[-1], action, checked)
        else:
            _answer_step(ctx, action)
        _run(ctx)
        return s, ctx.events

    # ------------------------------------------------------------------------------- view
    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        v = public_view(state)
        if seat is not None:
            v["private"] = private_view(state, seat)
        return cast(dict[str, Any], v)  # the engine contract's plain JSON (declared in ``views``)

    def private_view(self, state: State, seat: int) -> dict[str, Any]:
        """The seat's part of :meth:`view` alone (the platform asks every seat's after each step)."""
        return cast(dict[str, Any], private_view(state, seat))

    def secret_variants(self, state: State, seat: int, rng: random.Random) -> list[State]:
        return _variants(self, state, seat, rng)

    def result(self, state: State) -> Result | None:
        s = state
        if s.phase != "over":
            return None
        scores = {k: float(board.cards_left(s, k)) for k in (0, 1)}
        winners = () if s.winner is None else (s.winner,)
        return Result(winners=winners, scores=scores, reason=s.reason)

    def bot_action(self, view: dict[str, Any], prompt: Prompt, rng: random.Random) -> Action:
        return bot.choose(view, prompt, rng)

    def timeout_action(self, state: State, prompt: Prompt) -> Action:
        rng = random.Random(f"timeout/{self.state_digest(state)}/{prompt.seat}/{prompt.kind}")
        return bot.choose(self.view(state, prompt.seat), prompt, rng)

    def clone(self, state: State) -> State:
        """A deep, independent copy, field by field (what ``play`` starts from; the search plays
        thousands of steps a decision, and ``copy.deepcopy``'s generic walk was most of each)."""
        return _clone(state)

    # ------------------------------------------------------------------------------- search
    search_horizon = {"normal": 8, "hard": 12}
    """Decisions a playout goes on for (rules.search): about a turn (normal), a turn and a half
    (hard)."""
    search_iterations = {"normal": 12, "hard": 36}
    """A step costs about a millisecond (views and prompts with every permanent's power): fewer
    iterations than the common budget keep a decision near its time."""
    search_margin = 0.03
    """A few turns of playout judge a game decided by burns many turns later only roughly: the
    heuristic's answer stands unless another scores 3 points in a hundred better."""

    def determinize(self, view: dict[str, Any], seat: int, rng: random.Random) -> State:
        """A full state consistent with ``view``, seat ``seat``'s own view (see
        :func:`determinize`)."""
        return determinize(view, seat, rng)

    def search_candidates(self, view: dict[str, Any], prompt: Prompt,
                          rng: random.Random) -> list[Action] | None:
        """Searched: the defender's reaction (every choice) and each attack of the combat phase
        (:func:`rules.alternate_histories.bot.combat_candidates`). The rest follows the heuristic:
        a playout of a few turns cannot tell what a card played now is worth later, and the
        heuristic's measured card values can."""
        return bot.search_candidates(view, prompt)

    def evaluate(self, state: State, seat: int) -> float:
        """A game cut short by the search's horizon: the seat's chances, guessed from the cards
        each side has left (its life) and the power each has in play."""
        return bot.evaluate(state, seat)

    # ------------------------------------------------------------------------------- json
    def to_json(self, state: State) -> dict[str, Any]:
        return state_to_json(state, self.schema_version)

    def from_json(self, data: Mapping[str, Any]) -> State:
        """Reads this layout, and a layout-1 state (stored before the rules revision) as the
        game it was: see :func:`rules.alternate_histories.state.upgrade`."""
        if data.get("schema_version") == 1:
            data = {**upgrade(dict(data)), "schema_version": self.schema_version}
        self.check_schema(data)
        return state_from_json(dict(data))


# ================================================================================== setup


def _deck_prompt(s: State, seat: int) -> Prompt:
    return Prompt(seat, "deck", "Choose your deck in secret: a ready-made deck or a deck code.",
                  secret=True, free_form="deck", params={"ready": sorted(READY_DECKS)},
                  timeout_note="a ready-made deck is chosen for you")


def _opening_prompt(s: State, seat: int) -> Prompt:
    counts = Counter(s.sides[seat].deck)
    cards = [{"id": c, "name": CARDS[c].name, "count": counts[c]}
             for c in sorted(counts, key=lambda c: (CARDS[c].era_index, CARDS[c].name))]
    return Prompt(seat, "opening", f"Choose your {HAND_SIZE}-card opening hand from your deck.",
                  secret=True, free_form="opening", params={"cards": cards, "pick": HAND_SIZE},
                  timeout_note="an opening hand is picked for you")


def _answer_deck(ctx: Ctx, seat: int, checked: dict[str, Any]) -> None:
    s = ctx.s
    sd = s.sides[seat]
    sd.nation, sd.governance, sd.deck = checked["nation"], checked["governance"], list(checked["cards"])
    sd.deck_name = checked["name"]
    sd.chosen = True
    ctx.say(f"{seat_name(seat)} has chosen a deck.")
    if all(x.chosen for x in s.sides):
        s.phase = "opening"
        for k in (0, 1):
            x = s.sides[k]
            ctx.say(f"{seat_name(k)} leads {NATIONS[x.nation].name} under {GOVERNANCES[x.governance].name}.",
                    kind="setup", data={"seat": k, "nation": x.nation, "governance": x.governance})


def _answer_opening(ctx: Ctx, seat: int, checked: dict[str, Any]) -> None:
    s = ctx.s
    sd = s.sides[seat]
    for c in checked["cards"]:
        sd.deck.remove(c)
    sd.hand = list(checked["cards"])
    sd.opened = True
    ctx.say(f"{seat_name(seat)} has chosen an opening hand.")
    if all(x.opened for x in s.sides):
        for k in (0, 1):
            board.shuffle_deck(s, k)
        while True:
            a, b = s.rng.randint(1, 100), s.rng.randint(1, 100)
            if a != b:
                break
        s.first = 0 if a > b else 1
        ctx.say(f"The roll for the first turn: {seat_name(0)} {a}, {seat_name(1)} {b}; "
                f"{seat_name(s.first)} goes first. Both nations begin in the Chemical era.",
                kind="roll", data={"rolls": [a, b], "first": s.first})
        s.phase = "turn"
        _start_turn(ctx, s.first)


# ================================================================================== turns


def _start_turn(ctx: Ctx, seat: int) -> None:
    s = ctx.s
    s.turn += 1
    if s.turn > s.max_turns:
        a, b = board.cards_left(s, 0), board.cards_left(s, 1)
        winner = None if a == b else (0 if a > b else 1)
        text = (f"The turn limit is reached: {seat_name(0)} has {a} cards left, {seat_name(1)} {b}; "
                + ("a draw." if winner is None else f"{seat_name(winner)} wins."))
        board.end_game(ctx, winner, text)
        return
    s.current = seat
    s.rally = 0
    s.spy_hunt = False
    s.hits = 0
    sd = s.sides[seat]
    sd.switched = False
    sd.units_built = 0
    for p in s.perms:
        if p.owner == seat:
            p.tapped = False
            p.rapid = False
    ctx.say(f"Turn {s.turn}: {seat_name(seat)}'s turn; their tapped cards are ready again "
            "(untapped).", kind="turn", data={"seat": seat, "turn": s.turn})
    for p in list(s.perms):
        if p.owner == seat and not p.face_down and p.card != ACADEMIC:
            effects.fire(ctx, seat, p.card, "untap")
    s.step = "events"


def _step_prompt(s: State) -> Prompt:
    seat = s.current
    step = s.step
    era = ERA_NAMES[ERAS[s.global_era]]
    if step == "events":
        choices = _play_choices(s, seat, "events")
        choices.append(Choice("Go to combat", {"type": "next"}, description="End the events phase."))
        return Prompt(seat, "events", f"Events phase ({era} era): play events or deploy Rapid "
                                      "Deployment units, or go to combat.", tuple(choices))
    if step == "combat":
        choices = []
        for a, t in combat.attack_options(s, seat):
            if t == combat.PLAYER:
                label = f"{board.perm_name(a, seat)} → {seat_name(1 - seat)}"
            else:
                tp = s.perm(int(t))
                assert tp is not None
                label = f"{board.perm_name(a, seat)} → {board.public_name(tp)}"
            choices.append(Choice(label[:80], {"type": "attack", "uid": a.uid, "target": t},
                                  group=board.perm_name(a, seat)[:80],
                                  description=f"{board.power(s, a, 'attack')} power, "
                                              f"{board.mobility(s, a)} mobility"))
        choices.append(Choice("End combat", {"type": "next"}, description="Go to the build phase."))
        return Prompt(seat, "combat", "Combat phase: attack with an untapped unit, or end combat.",
                      tuple(choices))
    if step == "build":
        choices = _play_choices(s, seat, "build")
        sd = s.sides[seat]
        if not sd.switched and len(sd.deck) >= SWITCH_BURN:
            for g in GOVERNANCES.values():
                if g.key != sd.governance:
                    choices.append(Choice(f"Switch to {g.name}", {"type": "switch", "governance": g.key},
                                          description=f"Burn the top {SWITCH_BURN} cards of your deck."))
        choices.append(Choice("To decommission", {"type": "next"}, description="End the build phase."))
        return Prompt(seat, "build", "Build phase: play units, infrastructure, resources and events.",
                      tuple(choices))
    # decommission
    choices = []
    sd = s.sides[seat]
    for c in sorted(set(sd.hand), key=lambda c: (CARDS[c].era_index, CARDS[c].name)):
        choices.append(Choice(f"Discard {CARDS[c].name}"[:80], {"type": "discard", "card": c},
                              group="Discard"))
    for p in s.perms:
        if p.owner == seat and not p.tapped and p.kind in ("unit", "resource"):
            choices.append(Choice(f"Destroy {board.perm_name(p, seat)}"[:80],
                                  {"type": "destroy", "uid": p.uid}, group="Destroy"))
    if s.turn == 1 and s.rules == LEGACY_RULES:
        draws = "You go first: no draw this turn."
    elif s.rules == LEGACY_RULES:
        draws = f"Draw back to {HAND_SIZE} cards."
    else:
        draws = (f"The cards left in your hand go to the graveyard; shuffle your deck and draw "
                 f"{HAND_SIZE}.")
    choices.append(Choice("End turn", {"type": "next"}, description=draws))
    return Prompt(seat, "decommission", "Decommission: destroy your untapped units or resources, "
                                        "discard unwanted cards, or end the turn.", tuple(choices))


def playable(s: State, seat: int, cid: str, step: str) -> bool:
    """Whether ``seat`` may play ``cid`` from hand in ``step`` now, costs included."""
    card = CARDS[cid]
    sd = s.sides[seat]
    if card.era_index > s.global_era:
        return False
    if card.governances and sd.governance not in card.governances:
        return False
    if step == "events" and not (card.kind == "event" or "rapid_deployment" in card.keywords):
        return False
    need = board.discard_cost(s, seat, card)
    if len(sd.hand) - 1 + len(board.reserves(s, seat)) < need:
        return False
    if len(sd.deck) < card.cost.mill or sd.compute < card.cost.compute \
            or len(board.academics(s, seat)) < card.cost.academic:
        return False
    for ab in card.abilities:
        if ab.trigger == "play" and ab.effect == "strike" and not effects.strike_targets(s, seat, ab):
            return False
    return True


def _play_choices(s: State, seat: int, step: str) -> list[Choice]:
    sd = s.sides[seat]
    out = []
    for cid in sorted(set(sd.hand), key=lambda c: (CARDS[c].era_index, CARDS[c].name)):
        if playable(s, seat, cid, step):
            card = CARDS[cid]
            verb = "Deploy" if step == "events" and card.kind == "unit" else "Play"
            need = board.discard_cost(s, seat, card)
            cost = card.cost
            bits = []
            if need:
                bits.append("✋" * need)
            if cost.mill:
                bits.append(f"mill {cost.mill}")
            if cost.academic:
                bits.append(f"{cost.academic} Academic")
            if cost.compute:
                bits.append(f"{cost.compute} Compute")
            out.append(Choice(f"{verb} {card.name}"[:80], {"type": "play", "card": cid},
                              group=card.kind, description=("cost " + (" + ".join(bits) or "free"))[:100]))
    return out


def _answer_step(ctx: Ctx, action: Action) -> None:
    s = ctx.s
    seat = s.current
    t = action["type"]
    if t == "next":
        i = PHASES.index(s.step)
        s.step = PHASES[i + 1]
        if s.step == "draw":
            if s.turn == 1 and s.rules == LEGACY_RULES:
                # The legacy rules' handicap for going first: the very first turn of the game
                # ends without a draw phase.
                ctx.say(f"{seat_name(seat)} went first and skips this draw phase.")
                _start_turn(ctx, 1 - seat)
            elif s.rules == LEGACY_RULES:
                _legacy_draw_up(ctx)
            else:
                _draw_phase(ctx)
        return
    if t == "play":
        _start_play(ctx, seat, action["card"])
    elif t == "attack":
        combat.declare(ctx, int(action["uid"]), action["target"])
    elif t == "switch":
        sd = s.sides[seat]
        old = GOVERNANCES[sd.governance].name
        sd.governance = action["governance"]
        sd.switched = True
        ctx.say(f"{seat_name(seat)} switches from {old} to {GOVERNANCES[sd.governance].name}.",
                kind="governance", data={"seat": seat, "governance": sd.governance})
        board.burn_top(ctx, seat, SWITCH_BURN, " (the price of switching governance)")
    elif t == "discard":
        sd = s.sides[seat]
        sd.hand.remove(action["card"])
        sd.graveyard.append(action["card"])
        ctx.say(f"{seat_name(seat)} discards {CARDS[action['card']].name}.")
    elif t == "destroy":
        p = s.perm(int(action["uid"]))
        assert p is not None
        board.destroy(ctx, p, " (decommissioned)")


def _start_play(ctx: Ctx, seat: int, cid: str) -> None:
    s = ctx.s
    sd = s.sides[seat]
    card = CARDS[cid]
    sd.hand.remove(cid)
    need = board.discard_cost(s, seat, card)
    ctx.say(f"{seat_name(seat)} plays {card.name}.", kind="play", data={"seat": seat, "card": cid})
    if card.kind == "unit":
        sd.units_built += 1
    options = len(sd.hand) + len(board.reserves(s, seat))
    if need and options > need:
        s.stack.append({"k": "pay", "seat": seat, "card": cid, "n": need, "step": s.step})
        return
    if need:
        _pay(ctx, seat, list(sd.hand) + ["reserve"] * len(board.reserves(s, seat)))
    _finish_play(ctx, seat, cid, s.step)


def _pay(ctx: Ctx, seat: int, picked: list[str]) -> None:
    s = ctx.s
    sd = s.sides[seat]
    names = []
    for c in picked:
        if c == "reserve":
            r = board.reserves(s, seat)[0]
            s.perms.remove(r)
            sd.graveyard.append(r.card)
            names.append(f"a Reserve ({CARDS[r.card].name})")
        else:
            sd.hand.remove(c)
            sd.graveyard.append(c)
            names.append(CARDS[c].name)
    if names:
        ctx.say(f"{seat_name(seat)} pays {'✋' * len(names)}: {', '.join(names)}.")


def _finish_play(ctx: Ctx, seat: int, cid: str, step: str) -> None:
    s = ctx.s
    sd = s.sides[seat]
    card = CARDS[cid]
    cost = card.cost
    if cost.mill:
        board.mill(ctx, seat, cost.mill, f" (the cost of {card.name})")
    for p in board.academics(s, seat)[:cost.academic]:
        s.perms.remove(p)
    sd.compute -= cost.compute
    if card.kind == "event":
        # resolved first, then to the graveyard: a recovering event does not recover itself
        effects.fire(ctx, seat, cid, "play")
        sd.graveyard.append(cid)
        return
    p = board.new_perm(s, seat, cid, card.kind, card.power, card.mobility)
    if card.kind == "unit" and step == "events":
        p.rapid = True
    effects.fire(ctx, seat, cid, "play")
    if card.kind == "unit" and s.phase != "over" and _station_room(s, seat):
        s.stack.append({"k": "station", "seat": seat, "uid": p.uid})


def _station_room(s: State, seat: int) -> list[Perm]:
    out = []
    for infra in s.of(seat, "infrastructure"):
        cap = CARDS[infra.card].station
        if cap and sum(1 for q in s.perms if q.station == infra.uid) < cap:
            out.append(infra)
    return out


def _draw_phase(ctx: Ctx) -> None:
    """The draw phase (the rulebook's sixth phase). The hand refreshes completely: the cards
    still in it go to the graveyard; then the deck is shuffled and the player draws to the hand
    limit (:func:`_draw_up`)."""
    s = ctx.s
    seat = s.current
    sd = s.sides[seat]
    if sd.hand:
        kept = list(sd.hand)
        sd.graveyard.extend(kept)
        sd.hand.clear()
        ctx.say(f"{seat_name(seat)}'s hand refreshes: {', '.join(board.name_of(c) for c in kept)} "
                f"{'goes' if len(kept) == 1 else 'go'} to the graveyard.", kind="discard",
                data={"seat": seat, "cards": kept})
    if sd.deck:
        board.shuffle_deck(s, seat)
        ctx.say(f"{seat_name(seat)} shuffles their deck.", kind="shuffle", data={"seat": seat})
    _draw_up(ctx)


def _draw_up(ctx: Ctx) -> None:
    """Draw to :data:`HAND_SIZE` (a hand already that full draws nothing). Only a card that must
    be drawn from an empty deck reshuffles (a burn decision first, then drawing goes on); a
    player who must draw and cannot, because burning would leave nothing to shuffle back, loses.
    Then the other player's turn begins."""
    s = ctx.s
    seat = s.current
    sd = s.sides[seat]
    need = HAND_SIZE - len(sd.hand)
    if need > 0:
        board.draw(ctx, seat, need)
    if len(sd.hand) < HAND_SIZE:  # the deck ran out: a card must be drawn from an empty deck
        burn = _burn_count(s, seat)
        if len(sd.graveyard) > burn:
            s.stack.append({"k": "burn", "seat": seat, "n": burn})
            return
        board.end_game(ctx, 1 - seat, f"{seat_name(seat)}'s deck is spent: {seat_name(seat)} must "
                                      f"draw from an empty deck, and a graveyard of "
                                      f"{len(sd.graveyard)} cards leaves nothing to shuffle back "
                                      f"once {burn} are burned, so {seat_name(seat)} cannot draw "
                                      f"back to {HAND_SIZE} cards; {seat_name(1 - seat)} wins.")
        return
    _start_turn(ctx, 1 - seat)


def _legacy_draw_up(ctx: Ctx, first: bool = True) -> None:
    """The draw phase under :data:`LEGACY_RULES`: draw to 7 without shuffling, reshuffling
    (burn, shuffle, era tracker) when the deck runs out; a player who cannot reshuffle then
    loses. A draw phase that starts with a full hand mills the top card of the deck instead of
    drawing, and an empty deck is reshuffled even with a full hand."""
    s = ctx.s
    seat = s.current
    sd = s.sides[seat]
    need = HAND_SIZE - len(sd.hand)
    if need > 0:
        board.draw(ctx, seat, need)
    elif first:
        board.mill(ctx, seat, 1, " (a full hand draws nothing: time marches on)")
    if len(sd.hand) < HAND_SIZE or not sd.deck:
        burn = _burn_count(s, seat)
        if len(sd.graveyard) > burn:
            s.stack.append({"k": "burn", "seat": seat, "n": burn})
            return
        if sd.graveyard:
            gone = list(sd.graveyard)
            sd.burned.extend(gone)
            sd.graveyard.clear()
            ctx.say(f"{seat_name(seat)} must burn {burn} cards but has only {len(gone)} in the "
                    "graveyard; they burn.", kind="burn", data={"seat": seat, "cards": gone})
        board.end_game(ctx, 1 - seat, f"{seat_name(seat)}'s deck is spent: {seat_name(seat)} cannot "
                                      f"draw back to {HAND_SIZE} cards; {seat_name(1 - seat)} wins.")
        return
    _start_turn(ctx, 1 - seat)


def _burn_count(s: State, seat: int) -> int:
    effect = NATIONS[s.sides[seat].nation].effect
    return int(effect["amount"]) if effect["kind"] == "burn" else board.RESHUFFLE_BURN


def _reshuffle(ctx: Ctx, seat: int, burned: list[str]) -> None:
    s = ctx.s
    sd = s.sides[seat]
    for c in burned:
        sd.graveyard.remove(c)
    sd.burned.extend(burned)
    before = s.global_era
    sd.deck.extend(sd.graveyard)
    sd.graveyard.clear()
    board.shuffle_deck(s, seat)
    sd.era += 1
    ctx.say(f"{seat_name(seat)}'s deck is empty: {seat_name(seat)} burns "
            f"{', '.join(CARDS[c].name for c in burned)} forever, shuffles the graveyard back in "
            f"({len(sd.deck)} cards) and advances the era tracker to {sd.era}.",
            kind="reshuffle", data={"seat": seat, "burned": burned, "era": sd.era})
    if s.global_era != before:
        ctx.say(f"The world enters the {ERA_NAMES[ERAS[s.global_era]]} era.", kind="era",
                data={"era": ERAS[s.global_era]})


# ================================================================================== frames


def _frame_prompt(s: State, f: Frame) -> Prompt:
    seat = int(f["seat"])
    sd = s.sides[seat]
    if f["k"] == "pay":
        opts = [{"id": c, "name": CARDS[c].name} for c in sd.hand]
        opts += [{"id": "reserve", "name": "Reserve (face-down card)"}] * len(board.reserves(s, seat))
        purpose = f"pay {'✋' * f['n']} for {CARDS[f['card']].name}"
        return Prompt(seat, "pay", f"Choose {count(f['n'], 'card')} to discard to "
                                   f"{purpose}.", free_form="pick", secret=True,
                      params={"cards": opts, "count": f["n"], "min": f["n"], "purpose": purpose},
                      timeout_note="the least useful cards are discarded")
    if f["k"] == "tokenize":
        opts = [{"id": c, "name": CARDS[c].name} for c in sd.hand]
        n = min(int(f["n"]), len(sd.hand))
        what = f"{f['power']}/{f['mobility']} units" if f["make"] == "unit" else "Reserves"
        purpose = f"place face down as {what} ({CARDS[f['card']].name})"
        return Prompt(seat, "tokenize", f"Choose up to {n} cards from your hand to {purpose}.",
                      free_form="pick", secret=True,
                      params={"cards": opts, "count": n, "min": 0, "purpose": purpose},
                      timeout_note="the least useful cards are placed")
    if f["k"] == "reorder":
        of = int(f["of"])
        top = s.sides[of].deck[:int(f["n"])]
        opts = [{"id": c, "name": CARDS[c].name} for c in top]
        purpose = f"the new order of the top of {seat_name(of)}'s deck, top card first"
        return Prompt(seat, "reorder", f"The top {len(top)} cards of {seat_name(of)}'s deck: "
                                       f"{', '.join(CARDS[c].name for c in top)}. Put them back in any "
                                       "order, top card first.", free_form="pick", secret=True,
                      params={"cards": opts, "count": len(top), "min": len(top), "purpose": purpose},
                      timeout_note="the cards are put back with the weakest on top")
    if f["k"] == "burn":
        opts = [{"id": c, "name": CARDS[c].name} for c in sd.graveyard]
        purpose = "burn forever before reshuffling your graveyard into your deck"
        return Prompt(seat, "burn", f"Your deck is empty: choose {f['n']} graveyard cards to burn "
                                    "forever; the rest are shuffled back in.", free_form="pick",
                      params={"cards": opts, "count": f["n"], "min": f["n"], "purpose": purpose},
                      timeout_note="the least useful cards are burned")
    if f["k"] == "target":
        ab = next(a for a in CARDS[f["card"]].abilities if a.effect == "strike")
        targets = tuple(Choice(f"Destroy {board.public_name(p)}"[:80], {"type": "target", "uid": p.uid},
                               description=f"{p.power} power")
                        for p in effects.strike_targets(s, seat, ab))
        return Prompt(seat, "target", f"{CARDS[f['card']].name}: choose the enemy to destroy.", targets)
    if f["k"] == "station":
        p = s.perm(int(f["uid"]))
        assert p is not None
        spots = [Choice(f"Station on {CARDS[i.card].name}"[:80], {"type": "station", "on": i.uid})
                 for i in _station_room(s, seat)]
        spots.append(Choice("Not stationed", {"type": "station", "on": 0}))
        return Prompt(seat, "station", f"Station {board.perm_name(p, seat)} on your infrastructure? "
                                       "A stationed unit may always intercept attacks on it.",
                      tuple(spots))
    # react
    a = s.perm(int(f["att"]))
    assert a is not None
    target = f["target"]
    if target == combat.PLAYER:
        what = "you"
    else:
        t = s.perm(int(target))
        assert t is not None
        what = f"your {board.perm_name(t, seat)}"
    choices: list[Choice] = []
    for act in combat.reaction_options(s, a, target):
        if act["type"] == "flee":
            choices.append(Choice("Flee", act, description="Tap the target to escape the attack "
                                                           "(a submarine does not tap)."))
        else:
            u = s.perm(int(act["uid"]))
            assert u is not None
            choices.append(Choice(f"Intercept with {board.perm_name(u, seat)}"[:80], act,
                                  description=f"{board.power(s, u, 'defend')} power; it taps and "
                                              "becomes the target."))
    choices.append(Choice("No reaction", {"type": "hold"}, description="Let the attack go ahead."))
    return Prompt(seat, "react", f"{seat_name(a.owner)}'s {board.public_name(a)} "
                                 f"({board.power(s, a, 'attack')} power, {board.mobility(s, a)} "
                                 f"mobility) attacks {what}.", tuple(choices),
                  timeout_note="the computer player decides", deadline=s.reaction_window)


def _answer_frame(ctx: Ctx, f: Frame, action: Action, checked: dict[str, Any]) -> None:
    s = ctx.s
    seat = int(f["seat"])
    s.stack.pop()
    if f["k"] == "pay":
        _pay(ctx, seat, checked["cards"])
        _finish_play(ctx, seat, f["card"], f["step"])
    elif f["k"] == "tokenize":
        picked = checked["cards"]
        for c in picked:
            s.sides[seat].hand.remove(c)
        effects.place_face_down(ctx, seat, picked, f["make"], int(f["power"]), int(f["mobility"]), "hand")
        if not picked:
            ctx.say(f"{seat_name(seat)} places nothing face down.")
    elif f["k"] == "reorder":
        of = int(f["of"])
        n = int(f["n"])
        deck = s.sides[of].deck
        deck[:n] = checked["cards"]
        s.known[seat] = list(checked["cards"]) + s.known[seat][n:]
        ctx.say(f"{seat_name(seat)} looks at the top {n} cards of {seat_name(of)}'s deck and puts "
                "them back in a new order.", kind="reorder", data={"seat": seat, "of": of, "n": n})
        ctx.tell(seat, "Top of the deck now: "
                 + ", ".join(CARDS[c].name for c in checked["cards"]) + ".")
    elif f["k"] == "burn":
        _reshuffle(ctx, seat, checked["cards"])
        if s.rules == LEGACY_RULES:
            _legacy_draw_up(ctx, first=False)
        else:
            _draw_up(ctx)
    elif f["k"] == "target":
        p = s.perm(int(action["uid"]))
        assert p is not None
        board.destroy(ctx, p, f" by {CARDS[f['card']].name}")
    elif f["k"] == "station":
        p = s.perm(int(f["uid"]))
        on = int(action["on"])
        if p is not None and on:
            p.station = on
            infra = s.perm(on)
            assert infra is not None
            ctx.say(f"{seat_name(seat)} stations {board.perm_name(p, None)} on {CARDS[infra.card].name}.")
    elif f["k"] == "react":
        combat.react(ctx, f, action)


def _run(ctx: Ctx) -> None:
    """Nothing waits without a decision: a finished game clears the stack."""
    if ctx.s.phase == "over":
        ctx.s.stack.clear()


# ============================================================================ free-form answers


def _check_free_form(s: State, seat: int, action: Action, prompt: Prompt) -> dict[str, Any]:
    """Validate a free-form answer exactly (before the state is copied); return what it means."""
    if prompt.free_form is None:
        return {}
    if prompt.kind == "deck":
        got = fields(action, "a deck choice", {"type": str}, {"ready": str, "code": str},
                     usage='{"type": "deck", "ready": "usa-capitalism"} or {"type": "deck", "code": "AH…"}')
        if action["type"] != "deck" or ("ready" in got) == ("code" in got):
            raise IllegalAction(f"{shown(action)} is not a deck choice: send either a ready-made deck "
                                "(\"ready\") or a deck code (\"code\"), not both.")
        if "ready" in got:
            key = got["ready"]
            if key not in READY_DECKS:
                raise IllegalAction(f"{shown(key)} is not a ready-made deck; choose one of "
                                    f"{', '.join(sorted(READY_DECKS))}.")
            n, g, ready = READY_DECKS[key]
            return {"nation": n, "governance": g, "cards": list(ready), "name": key}
        try:
            n, g, cards = decode_deck(got["code"])
        except ValueError as exc:
            raise IllegalAction(str(exc)) from None
        errors = validate_deck(n, g, cards)
        if errors:
            raise IllegalAction("That deck cannot be played: " + " ".join(errors))
        return {"nation": n, "governance": g, "cards": cards, "name": "code"}
    got = fields(action, "a pick" if prompt.kind != "opening" else "an opening hand",
                 {"type": str, "cards": list}, usage='{"type": "pick", "cards": ["card_id", …]}')
    want_type = "opening" if prompt.kind == "opening" else "pick"
    if action["type"] != want_type:
        raise IllegalAction(f"{shown(action['type'])} does not answer this; send "
                            f"{{\"type\": \"{want_type}\", \"cards\": [...]}}.")
    cards = got["cards"]
    if any(type(c) is not str for c in cards):
        raise IllegalAction(f"{shown(cards)} must list card ids as strings.")
    if prompt.kind == "opening":
        pool = Counter(s.sides[seat].deck)
        lo = hi = HAND_SIZE
        what = "your deck"
    else:
        pool = Counter(o["id"] for o in prompt.params["cards"])
        lo, hi = int(prompt.params["min"]), int(prompt.params["count"])
        what = "the cards offered"
    if not lo <= len(cards) <= hi:
        size = str(hi) if lo == hi else f"{lo}–{hi}"
        raise IllegalAction(f"pick {size} cards, not {len(cards)} ({shown(cards)}).")
    extra = Counter(cards) - pool
    if extra:
        bad = sorted(extra)[0]
        raise IllegalAction(f"{shown(bad)} is not among {what} (or not that many times); "
                            f"pick only from {what}.")
    return {"cards": list(cards)}


# ==================================================================================== views


def _perm_public(s: State, p: Perm) -> PermView:
    card = None if p.face_down else p.card
    return {
        "uid": p.uid, "owner": p.owner, "card": card if card != ACADEMIC else None,
        "token": "academic" if p.card == ACADEMIC else None,
        "name": board.public_name(p), "kind": p.kind, "face_down": p.face_down,
        "power": p.power, "mobility": p.mobility,
        "attack": board.power(s, p, "attack") if p.kind == "unit" else 0,
        "defend": board.power(s, p, "defend") if p.kind != "resource" else 0,
        "speed": board.mobility(s, p), "intercept_speed": board.mobility(s, p, intercepting=True),
        "keywords": list(p.keywords), "tapped": p.tapped, "rapid": p.rapid, "station": p.station,
        "reorder": CARDS[p.card].reorder if card and card in CARDS else 0,
    }


def _frame_public(f: Frame) -> PendingView:
    out: PendingView = {"kind": f["k"], "seat": f["seat"]}
    if f["k"] == "react":
        out.update({"attacker": f["att"], "target": f["target"]})
    if f["k"] == "pay" or f["k"] == "target" or f["k"] == "tokenize":
        out["card"] = f["card"]
    if f["k"] == "reorder" or f["k"] == "burn" or f["k"] == "pay" or f["k"] == "tokenize":
        out["count"] = f["n"]
    return out


def public_view(s: State) -> View:
    revealed = s.phase not in ("deck",)
    sides: list[SideView] = []
    for k, sd in enumerate(s.sides):
        sides.append({
            "seat": k,
            "nation": sd.nation if revealed else None,
            "governance": sd.governance if revealed else None,
            "era": sd.era, "era_name": ERA_NAMES[ERAS[min(sd.era, len(ERAS) - 1)]],
            "deck": len(sd.deck), "hand": len(sd.hand),
            "graveyard": list(sd.graveyard), "burned": list(sd.burned),
            "compute": sd.compute, "chosen": sd.chosen, "opened": sd.opened,
            "burn_on_reshuffle": _burn_count(s, k) if revealed else None,
        })
    return {
        "game": "alternate_histories", "phase": s.phase, "step": s.step, "turn": s.turn,
        "current": s.current, "first": s.first,
        "global_era": ERAS[s.global_era], "global_era_index": s.global_era,
        "sides": sides,
        "battlefield": [_perm_public(s, p) for p in s.perms] if s.phase != "deck" else [],
        "pending": _frame_public(s.stack[-1]) if s.stack else None,
        "last_combat": s.last_combat, "rally": s.rally, "spy_hunt": s.spy_hunt,
        "winner": s.winner, "reason": s.reason, "max_turns": s.max_turns,
        "reaction_window": s.reaction_window,
        "rules": s.rules,
    }


def private_view(s: State, seat: int) -> PrivateView:
    sd = s.sides[seat]
    out: PrivateView = {
        "seat": seat,
        "hand": list(sd.hand),
        "deck_cards": sorted(sd.deck),
        "face_down": {str(p.uid): p.card for p in s.perms if p.owner == seat and p.face_down},
        "known_top": list(s.known[seat]),
        "deck_name": sd.deck_name,
        "nation": sd.nation, "governance": sd.governance,
        "playable": {},
    }
    if s.phase == "turn" and s.current == seat and s.step in ("events", "build"):
        out["playable"] = {c: board.discard_cost(s, seat, CARDS[c]) for c in sorted(set(sd.hand))
                           if playable(s, seat, c, s.step)}
    if s.stack and s.stack[-1]["k"] == "reorder" and s.stack[-1]["seat"] == seat:
        f = s.stack[-1]
        out["reorder"] = list(s.sides[int(f["of"])].deck[:int(f["n"])])
    return out


# ================================================================================== copies


def _clone(s: State) -> State:
    twin = copy.copy(s)
    twin.rng = Rng(s.rng.seed, s.rng.position)
    twin.sides = []
    for sd in s.sides:
        c = copy.copy(sd)
        c.deck, c.hand, c.graveyard, c.burned = sd.deck[:], sd.hand[:], sd.graveyard[:], sd.burned[:]
        twin.sides.append(c)
    twin.perms = [copy.copy(p) for p in s.perms]  # (a permanent's fields are plain values)
    twin.stack = [copy_plain(f) for f in s.stack]
    twin.known = [k[:] for k in s.known]
    twin.last_combat = copy_plain(s.last_combat)
    return twin


if ([f.name for f in dataclass_fields(State)] != [
        "rng", "reaction_window", "max_turns", "rules", "phase", "step", "current", "turn", "first",
        "sides", "perms", "next_uid", "stack", "known", "rally", "spy_hunt", "hits", "last_combat",
        "winner", "draw", "reason"]
        or [f.name for f in dataclass_fields(Side)] != [
        "nation", "governance", "deck_name", "deck", "hand", "graveyard", "burned", "era",
        "compute", "switched", "units_built", "chosen", "opened"]
        or [f.name for f in dataclass_fields(Perm)] != [
        "uid", "owner", "card", "kind", "power", "mobility", "face_down", "tapped", "rapid",
        "station"]):
    raise TypeError("the Alternate Histories state's copy (_clone) does not match its fields: update it")


# ================================================================================== search


def determinize(view: dict[str, Any], seat: int, rng: random.Random) -> State:
    """A full state consistent with seat ``seat``'s own view, read from nothing else.

    Public: both sides' nations, governances, eras, compute, hand and deck sizes, graveyards and
    burned cards, the battlefield (a face-down card's power and mobility, not what it is), the
    turn and its step. The seat's own: its hand, which cards its deck holds, what lies under its
    own face-down cards, and the top cards of the other deck it has seen. Drawn at random: the
    order of both decks (below the cards the seat has seen), and what the other side holds in
    hand, deck and face down: the ready-made deck of its nation and governance, less every card
    of it already seen in the open (its graveyard, burned cards and face-up cards in play), dealt
    out to the public counts; the rng of what is left to chance. Searched only between
    sub-decisions, and in the defender's reaction window (its frame is public)."""
    pending = view["pending"]
    if view["phase"] != "turn" or (pending is not None and pending["kind"] != "react"):
        raise IllegalAction("only a turn's phase prompts and the defender's reaction are searched.")
    priv = view["private"]
    deal = _deal_other_side(view, 1 - seat, [str(c) for c in priv["known_top"]], rng)
    my_deck = list(priv["deck_cards"])
    rng.shuffle(my_deck)
    sides = [_side_of(sd, str(priv["deck_name"]), my_deck, list(priv["hand"])) if k == seat
             else _side_of(sd, deal.deck_name, deal.deck, deal.hand)
             for k, sd in enumerate(view["sides"])]
    perms = [_perm_of(p, seat, priv, deal.face_down) for p in view["battlefield"]]
    known_by: list[list[str]] = [[], []]
    known_by[seat] = list(deal.known)
    return State(
        rng=Rng(rng.randrange(2**31)), reaction_window=DEFAULT_WINDOW_MINUTES * 60,
        max_turns=int(view["max_turns"]), rules=int(view["rules"]), phase="turn",
        step=str(view["step"]), current=int(view["current"]), turn=int(view["turn"]),
        first=int(view["first"]), sides=sides, perms=perms,
        next_uid=max((p.uid for p in perms), default=0) + 1, known=known_by,
        stack=[] if pending is None else [{"k": "react", "seat": int(pending["seat"]),
                                           "att": pending["attacker"], "target": pending["target"]}],
        rally=int(view["rally"]), spy_hunt=bool(view["spy_hunt"]), hits=0,
        last_combat=view["last_combat"])


@dataclass(frozen=True)
class _Deal:
    """What the searching seat imagines the other side holds."""

    deck_name: str
    hand: list[str]
    deck: list[str]
    face_down: dict[str, str]
    """The card under each face-down permanent of the other side, by uid (as text)."""
    known: list[str]
    """The top cards of the other deck the searching seat has seen, top first."""


def _ready_deck_of(opp: Mapping[str, Any]) -> str:
    """The ready-made deck the other side is taken to play: its nation and governance's, else its
    nation's, else the first there is."""
    decks = [k for k, (n, g, _) in READY_DECKS.items() if n == opp["nation"] and g == opp["governance"]]
    decks = decks or [k for k, (n, _, _) in READY_DECKS.items() if n == opp["nation"]] or list(READY_DECKS)
    return decks[0]


def _seen_cards(view: Mapping[str, Any], other: int) -> Counter[str]:
    """The other side's cards seen in the open: graveyard, burned, face up in play."""
    opp = view["sides"][other]
    seen = Counter(opp["graveyard"]) + Counter(opp["burned"])
    seen += Counter(p["card"] for p in view["battlefield"]
                    if p["owner"] == other and p["card"] is not None)
    return seen


def _deal_other_side(view: Mapping[str, Any], other: int, known: list[str],
                     rng: random.Random) -> _Deal:
    """Deal the other side's unseen cards (its ready-made deck less what was seen) out to its
    public counts: face-down cards, hand, then deck below the ``known`` top cards."""
    opp = view["sides"][other]
    deck_name = _ready_deck_of(opp)
    pool = list((Counter(READY_DECKS[deck_name][2]) - _seen_cards(view, other)).elements())
    rng.shuffle(pool)
    face_down = [p for p in view["battlefield"] if p["owner"] == other and p["face_down"]]
    need = int(opp["hand"]) + int(opp["deck"]) + len(face_down)
    filler = [c for c in READY_DECKS[deck_name][2]]
    while len(pool) < need:  # (a deck brought as a code, or cards that changed hands)
        pool.append(rng.choice(filler))
    for c in known:  # the seen top cards come out of the pool, and go back on top
        if c in pool:
            pool.remove(c)
    hidden_cards = {str(p["uid"]): pool.pop() for p in face_down}
    their_hand = [pool.pop() for _ in range(int(opp["hand"]))]
    their_deck = known + pool[:int(opp["deck"]) - len(known)]
    return _Deal(deck_name, their_hand, their_deck, hidden_cards, known)


def _side_of(sd: Mapping[str, Any], deck_name: str, deck: list[str], hand: list[str]) -> Side:
    """A side from its public view, with the deck and hand given."""
    return Side(
        nation=str(sd["nation"]), governance=str(sd["governance"]), deck_name=deck_name,
        deck=deck, hand=hand, graveyard=list(sd["graveyard"]), burned=list(sd["burned"]),
        era=int(sd["era"]), compute=int(sd["compute"]), chosen=True, opened=True)


def _perm_of(p: Mapping[str, Any], seat: int, priv: Mapping[str, Any],
             dealt: Mapping[str, str]) -> Perm:
    """A permanent from the battlefield view: a face-down card is what ``seat`` knows lies under
    its own, or what was ``dealt`` under the other side's."""
    if p["token"] == "academic":
        card = ACADEMIC
    elif p["face_down"]:
        card = str(priv["face_down"][str(p["uid"])]) if p["owner"] == seat else dealt[str(p["uid"])]
    else:
        card = str(p["card"])
    return Perm(uid=int(p["uid"]), owner=int(p["owner"]), card=card, kind=str(p["kind"]),
                power=int(p["power"]), mobility=int(p["mobility"]), face_down=bool(p["face_down"]),
                tapped=bool(p["tapped"]), rapid=bool(p["rapid"]), station=p["station"])


# ================================================================================= variants


def _variants(engine: AlternateHistoriesEngine, s: State, seat: int, rng: random.Random) -> list[State]:
    """Copies differing only in what ``seat`` holds in secret: its deck choice while decks are
    chosen, its opening pick, its hand swapped with hidden deck cards (below the top
    :data:`PROTECTED_TOP`, which rolls and mills may reveal), the cards under its Reserves."""
    out: list[State] = []
    sd = s.sides[seat]
    if s.phase == "deck":
        if sd.chosen:
            others = [k for k in READY_DECKS if k != sd.deck_name]
            key = rng.choice(others)
            v = engine.clone(s)
            n, g, cards = READY_DECKS[key]
            v.sides[seat].nation, v.sides[seat].governance = n, g
            v.sides[seat].deck, v.sides[seat].deck_name = list(cards), key
            out.append(v)
        return out
    if s.phase == "opening":
        if sd.opened:
            v = engine.clone(s)
            vs = v.sides[seat]
            pool = vs.deck + vs.hand
            rng.shuffle(pool)
            vs.hand, vs.deck = pool[:HAND_SIZE], sorted(pool[HAND_SIZE:])
            if Counter(vs.hand) != Counter(sd.hand):
                out.append(v)
        return out
    if s.phase != "turn":
        return out
    hidden = list(range(PROTECTED_TOP, len(sd.deck)))
    if sd.hand and hidden:
        v = engine.clone(s)
        vs = v.sides[seat]
        k = min(len(vs.hand), len(hidden), 1 + rng.randrange(3))
        for i, j in zip(rng.sample(range(len(vs.hand)), k), rng.sample(hidden, k), strict=True):
            vs.hand[i], vs.deck[j] = vs.deck[j], vs.hand[i]
        if Counter(vs.hand) != Counter(sd.hand):
            out.append(v)
    res = [p.uid for p in board.reserves(s, seat)]
    if res and hidden:
        v = engine.clone(s)
        vs = v.sides[seat]
        p = v.perm(rng.choice(res))
        assert p is not None
        j = rng.choice(hidden)
        if vs.deck[j] != p.card:
            p.card, vs.deck[j] = vs.deck[j], p.card
            out.append(v)
    return out
