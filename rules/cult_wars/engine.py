"""The Cult Wars engine: setup, the secret steps of each turn, the defenders' splits, views, result.

Rulebook sections: "Setup" (12 followers, six strategy cards, two action cards each), "Turn"
and "Victory Condition" (after turn 8: most VP, then most followers, then most action cards in
hand, else a shared win). A turn, with the default ``insignia=two_step`` table option:

1. the insignia step: every cult chooses its target in secret; when all have chosen, the
   targets are revealed together (prompt kind ``"target"``);
2. the orders: every cult lays strategy and action cards in secret, knowing who targets whom
   (prompt kind ``"orders"``); when all are in they are revealed and resolved
   (:mod:`rules.cult_wars.resolve`);
3. in step 5, a defender whose defence beats two or more attackers, with a real choice of how
   their losses fall, shares them out (prompt kind ``"split"``, open to that defender only,
   which the revealed numbers make public); then the resolution goes on.

With ``insignia=single`` (faster: one wait per turn) the target is part of one secret order and
a winning defence shares losses out as its orders said in advance (``loss_order``).

Prompt ``params`` (see :class:`rules.engine.Prompt`), per kind:

``"target"`` (secret; free-form ``"target"``, its choices are the legal answers): ``turn`` and
``turns``; ``targets``: the seats the cult may target (every other seat).

``"orders"`` (free-form ``"orders"``; its choices are ready-made orders):

* ``turn`` and ``turns``: this turn's number and the last turn's;
* ``followers``: the cult's followers; ``max_assign``: how many of them the strategy cards can
  hold this turn (at most the followers, at most the sum of the strategy cards);
* ``strategy_cards``: the strategy-card values, each laid on at most one slot;
* ``slots``: the slot names, in order (``attack``, ``defend``, ``sacrifice``, ``breed``);
* ``targets``: the seats the cult may target (every other seat; only the revealed one in a
  ``two_step`` game);
* ``target``: the target revealed in the insignia step (None in a ``single`` game);
  ``targeted_by``: the seats whose revealed insignia name this cult (empty in a ``single`` game);
* ``action_cards``: how many action cards the cult holds (their ids are in the seat's view);
* ``replace``: True on the prompt ``revisable`` gives a cult that has already sent its orders
  this turn (a replacement must carry ``"replace": true``); False on an open prompt.

``"split"`` (enumerated, public): ``loss``: attackers that die; ``attackers``: ``[seat,
followers attacking]`` pairs; ``proportional``: the split in proportion (``[seat, loss]`` pairs),
the first choice and what the deadline picks.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, cast

from ..engine import (
    JSON,
    Action,
    Choice,
    Engine,
    Event,
    GameOver,
    IllegalAction,
    NotYourTurn,
    Option,
    Prompt,
    Result,
    Rng,
    Story,
    seat_name,
    shown,
)
from ..search import STRENGTH
from ..text import count
from .bot import choose_orders, choose_split, choose_target, evaluate, search_candidates
from .combat import possible_splits, share_attacker_losses
from .content import DECK_IDS, MAX_DEPLOY, SLOTS, STRATEGY_VALUES, kind_of
from .orders import (
    ORDERS_USAGE,
    ORDERS_USAGE_TWO_STEP,
    TARGET_USAGE,
    check_face_up_kept,
    declaration,
    declaration_text,
    describe,
    parse_orders,
    parse_target,
)
from .plan import preset_orders
from .resolve import Split, answer_split, pending, resolve_turn, reveal_record
from .state import START_FOLLOWERS, START_HAND, TURNS, Cult, CultWarsState, Orders, upgrade
from .views import CardAim, CultView, Insignia, Phase, PrivateView, ResultView, View, read_view

SUMMARY = """\
Three or four cult leaders compete for the favour of their gods over eight turns. Every turn \
each leader first picks a rival cult as the target in secret; all targets are revealed together. \
Then, knowing who targets whom, each leader secretly spreads followers over four tasks by laying \
strategy cards (values 1, 1, 2, 3, 5 and 8) on the Attack, Defend, Sacrifice and Breed slots, \
and may add action cards from hand.

Then all orders are revealed and resolved in a fixed order: action cards, combat at every \
targeted cult (the bigger side kills the difference; a defender who holds shares out the \
attackers' losses; a beaten defender loses sacrificial followers first and the biggest attacker \
scores them), sacrifices (one VP per follower and an action card; a lone biggest sacrifice draws \
one more), then breeding (one newborn per breeder). The table option `insignia=single` folds the \
target into the secret orders for faster play.

After turn 8 the most VP wins; ties go to more followers, then more action cards in hand.\
"""


INSIGNIA_MODES = ("two_step", "single")
"""Values of the ``insignia`` table option."""

_SWAP_CLEAR_OF_TOP = 6
"""Cards on top of the action deck (its start) a hand variant leaves alone, so other cults'
next draws stay the same (a different deck order is another, unrelated secret)."""


class CultWarsEngine(Engine[CultWarsState]):
    key = "cult_wars"
    name = "Cult Wars"
    min_players = 3
    max_players = 4
    summary = SUMMARY
    rules_page = "docs/rules/cult_wars.md"
    schema_version = 2
    options = (
        Option("insignia", "choice", "two_step (as the rulebook): every cult picks its target, all "
               "targets are revealed together, then cards are laid, and a defender who holds shares "
               "out the attackers' losses after the reveal; single: target and cards in one secret "
               "order with the split chosen in advance (faster: one wait per turn)",
               default="two_step", allowed=INSIGNIA_MODES),
        STRENGTH,
    )
    fill_option_defaults = True

    # ------------------------------------------------------------------ setup
    def setup(self, players: int, seed: int, options: Mapping[str, Any] | None = None) -> CultWarsState:
        opts = self.validate_options(players, options or {})
        rng = Rng(seed)
        deck = list(DECK_IDS)
        rng.shuffle(deck)
        cults = [Cult(START_FOLLOWERS, 0, []) for _ in range(players)]
        for _ in range(START_HAND):
            for c in cults:
                c.hand.append(deck.pop(0))
        mode = self.option_value(opts, "insignia")
        return CultWarsState(players=players, rng=rng, cults=cults, deck=deck, insignia=mode,
                             phase="targets" if mode == "two_step" else "orders")

    def replay(self, players: int, seed: int, options: Mapping[str, Any] | None,
               log: Sequence[tuple[int, Action]]) -> CultWarsState:
        """A game stored before the insignia option existed has no ``insignia`` among its options
        and played single orders: its first action is orders, where a two-step game's is a target.
        Such a log replays as the ``single`` game it was (as :meth:`from_json` reads its state)."""
        opts = dict(options or {})
        if "insignia" not in opts and log and log[0][1].get("type") == "orders":
            opts["insignia"] = "single"
        return super().replay(players, seed, opts, log)

    # ------------------------------------------------------------------ prompts
    _PROMPT_KIND = {"targets": "target", "orders": "orders", "split": "split"}
    """Phase → the kind of every prompt open in it."""

    def _open_seats(self, s: CultWarsState) -> list[int]:
        """The seats of :meth:`prompts`, in its order, without building the prompts (their
        ready-made orders are the costly part): what views and ``prompt_for`` need."""
        if s.phase == "targets":
            return [seat for seat in range(s.players) if seat not in s.targets]
        if s.phase == "orders":
            return [seat for seat in range(s.players) if seat not in s.orders]
        if s.phase == "split":
            t = pending(s)
            return [sp.defender for sp in (t.splits if t else [])]
        return []

    def prompt_for(self, state: CultWarsState, seat: int) -> Prompt:
        """As :meth:`Engine.prompt_for` (same prompt, same refusals), building only the seat's
        own prompt rather than every open one."""
        if self.result(state) is not None:
            raise GameOver("the game is over; no more moves are accepted.")
        seats = self._open_seats(state)
        if seat in seats:
            if state.phase == "targets":
                return self._target_prompt(state, seat)
            if state.phase == "orders":
                return self._orders_prompt(state, seat)
        return super().prompt_for(state, seat)

    def prompts(self, state: CultWarsState) -> list[Prompt]:
        s = state
        if s.phase == "targets":
            return [self._target_prompt(s, seat) for seat in range(s.players) if seat not in s.targets]
        if s.phase == "orders":
            return [self._orders_prompt(s, seat) for seat in range(s.players) if seat not in s.orders]
        if s.phase == "split":
            t = pending(s)
            return [self._split_prompt(s, sp) for sp in (t.splits if t else [])]
        return []

    def _target_prompt(self, s: CultWarsState, seat: int) -> Prompt:
        others = [k for k in range(s.players) if k != seat]
        choices = tuple(
            Choice(f"Target {seat_name(k)}", {"type": "target", "target": k},
                   description=f"{count(s.cults[k].followers, 'follower', 'followers')}, {s.cults[k].vp} VP")
            for k in others)
        text = (f"Turn {s.turn} of {TURNS}, the insignia step: choose the cult your attackers and "
                f"action cards will target. Every cult chooses in secret; all targets are revealed "
                f"together, and then you lay your cards knowing who targets whom.")
        params = {"turn": s.turn, "turns": TURNS, "targets": others}
        # free-form "target" (the choices are still listed): a game's own form answers it in one
        # click, and ``play`` reads the answer exactly
        return Prompt(seat, "target", text, choices, secret=True, free_form="target",
                      timeout_note="the computer player chooses your target", params=params)

    def _orders_prompt(self, s: CultWarsState, seat: int) -> Prompt:
        followers = [c.followers for c in s.cults]
        vp = [c.vp for c in s.cults]
        fixed = s.targets.get(seat) if s.insignia == "two_step" else None
        choices = tuple(
            Choice(label, action, description=desc)
            for label, desc, action in preset_orders(seat, s.players, followers, vp, fixed_target=fixed))
        cult = s.cults[seat]
        max_assign = min(cult.followers, MAX_DEPLOY)
        by = sorted(k for k, t in s.targets.items() if t == seat) if fixed is not None else []
        head = (f"Turn {s.turn} of {TURNS}: write your secret orders. Your cult has "
                f"{count(cult.followers, 'follower', 'followers')} (at most {max_assign} can be "
                f"assigned) and {count(len(cult.hand), 'action card', 'action cards')}.")
        if fixed is None:
            text = (f"{head} Choose a target cult, lay strategy cards "
                    f"{', '.join(map(str, STRATEGY_VALUES))} on Attack, Defend, Sacrifice and Breed, "
                    f"add action cards, and say what is face up.")
        else:
            aimed = (", ".join(seat_name(k) for k in by) + (" target" if len(by) > 1 else " targets")
                     + " you") if by else "nobody targets you"
            text = (f"{head} Your target is {seat_name(fixed)}; {aimed}. Lay strategy cards "
                    f"{', '.join(map(str, STRATEGY_VALUES))} on Attack, Defend, Sacrifice and Breed, "
                    f"add action cards, and say what is face up.")
        params = {
            "turn": s.turn, "turns": TURNS, "followers": cult.followers, "max_assign": max_assign,
            "strategy_cards": list(STRATEGY_VALUES), "slots": list(SLOTS),
            "targets": [fixed] if fixed is not None else [k for k in range(s.players) if k != seat],
            "target": fixed, "targeted_by": by,
            "action_cards": len(cult.hand), "replace": seat in s.orders,
        }
        return Prompt(seat, "orders", text, choices, secret=True, free_form="orders",
                      timeout_note="the computer player writes your orders", params=params)

    def _split_prompt(self, s: CultWarsState, sp: Split) -> Prompt:
        """The defender's split (rulebook step 5a). Asked only when the revealed numbers leave a
        real choice, so who is asked is public; the first choice, in proportion, is the default."""
        fair = share_attacker_losses(sp.loss, sp.attackers, "proportional")
        seats = sorted(sp.attackers)

        def action(share: dict[int, int]) -> dict[str, Any]:
            return {"type": "split", "losses": [[k, share.get(k, 0)] for k in seats]}

        def label(share: dict[int, int]) -> str:
            return ", ".join(f"{seat_name(k)} loses {share.get(k, 0)}" for k in seats)

        choices = [Choice(f"In proportion: {label(fair)}", action(fair),
                          description="the default if the deadline passes")]
        for share in possible_splits(sp.loss, sp.attackers):
            if share == fair:
                continue
            choices.append(Choice(label(share), action(share),
                                  group=f"{seat_name(seats[0])} loses {share[seats[0]]}"))
        who = ", ".join(f"{seat_name(k)} {sp.attackers[k]}" for k in seats)
        text = (f"Turn {s.turn}: your defence holds. The attackers ({who}) lose "
                f"{count(sp.loss, 'follower')} between them; choose how the losses fall.")
        params = {"loss": sp.loss, "attackers": [[k, sp.attackers[k]] for k in seats],
                  "proportional": [[k, fair[k]] for k in seats]}
        return Prompt(sp.defender, "split", text, tuple(choices),
                      timeout_note="the losses are shared in proportion", params=params)

    def revisable(self, state: CultWarsState, seat: int) -> Prompt | None:
        """A cult that has sent its orders may replace them until the last cult submits: its
        orders prompt, again (``play`` then insists on ``"replace": true``)."""
        if state.phase == "orders" and seat in state.orders:
            return self._orders_prompt(state, seat)
        return None

    def undoable(self, before: CultWarsState, seat: int, action: Action, after: CultWarsState,
                 events: Sequence[Event]) -> str | None:
        """A secret target or set of orders may be taken back while the other cults are still
        choosing (the step has not closed, nothing is revealed); a split is public and final, and
        the answer that closes a step reveals every cult's choice."""
        if before.rng.position != after.rng.position:
            return "something was left to chance since"
        kind = action["type"]
        if kind not in ("target", "orders"):
            return "a split of losses is final once chosen"
        if after.phase != before.phase or after.turn != before.turn:
            return ("every cult has chosen, so the targets are revealed" if kind == "target"
                    else "every cult has submitted, so the orders are revealed")
        return None

    # ------------------------------------------------------------------ play
    def play(self, state: CultWarsState, seat: int, action: Action,
             prompt: Prompt) -> tuple[CultWarsState, list[Event]]:
        if prompt.kind == "target":
            return self._play_target(state, seat, action)
        if prompt.kind == "split":
            return self._play_split(state, seat, action)
        return self._play_orders(state, seat, action)

    def _play_target(self, s0: CultWarsState, seat: int,
                     action: Action) -> tuple[CultWarsState, list[Event]]:
        if action["type"] != "target":
            raise IllegalAction(f"{shown(action)} is not allowed yet: this turn starts with the insignia "
                                f"step; choose your target with {TARGET_USAGE} (the orders follow once "
                                "every target is revealed).")
        target = parse_target(action, seat=seat, players=s0.players)
        story = Story(self.clone(s0))
        s = story.s
        s.targets[seat] = target
        story.tell(seat, f"Your insignia for turn {s.turn}: target {seat_name(target)}.", kind="orders")
        story.say(f"{seat_name(seat)} has chosen their insignia for turn {s.turn}.", kind="submitted")
        if len(s.targets) == s.players:
            s.phase = "orders"
            pairs = "; ".join(f"{seat_name(k)} → {seat_name(t)}" for k, t in sorted(s.targets.items()))
            story.say(f"Turn {s.turn}: the insignia are revealed: {pairs}. Now every cult lays its cards.",
                      kind="insignia", data={"targets": [[k, t] for k, t in sorted(s.targets.items())]})
        return s, story.events

    def _play_split(self, s0: CultWarsState, seat: int,
                    action: Action) -> tuple[CultWarsState, list[Event]]:
        # ``apply`` has checked the action is exactly one of the prompt's choices
        losses = {int(k): int(n) for k, n in action["losses"]}
        story = Story(self.clone(s0))
        answer_split(story, seat, losses)
        return story.s, story.events

    def _play_orders(self, s0: CultWarsState, seat: int,
                     action: Action) -> tuple[CultWarsState, list[Event]]:
        two_step = s0.insignia == "two_step"
        if action["type"] != "orders":
            usage = ORDERS_USAGE_TWO_STEP if two_step else ORDERS_USAGE
            raise IllegalAction(f"{shown(action)} is not allowed; the only action now is {usage}.")
        old = s0.orders.get(seat)
        if old is not None and action.get("replace") is not True:
            waiting = ", ".join(seat_name(k) for k in range(s0.players) if k not in s0.orders)
            raise NotYourTurn(
                f"{seat_name(seat)} has already sent orders for turn {s0.turn}; to change them send the "
                f"orders again with \"replace\": true (allowed until the last cult submits; "
                f"waiting for {waiting}).")
        cult = s0.cults[seat]
        orders = parse_orders(action, seat=seat, players=s0.players, followers=cult.followers,
                              hand=cult.hand, fixed_target=s0.targets.get(seat) if two_step else None)
        if old is not None:
            if orders == old:
                # a repeated replacement (a double tap, a retried request) changes nothing
                raise IllegalAction(f"those are already {seat_name(seat)}'s orders for turn {s0.turn}; "
                                    "nothing was changed.")
            check_face_up_kept(old, orders)
        story = Story(self.clone(s0))
        s = story.s
        s.orders[seat] = orders
        story.tell(seat, f"Your orders for turn {s.turn}: {describe(orders, cult.followers, split_after=two_step)}",
                   kind="orders")
        story.say(f"{seat_name(seat)} has {'changed their' if old else 'sent their'} orders for turn {s.turn}.",
                  kind="submitted")
        new_decl = declaration(orders)
        old_decl = declaration(old) if old else {}
        if new_decl != old_decl and new_decl:
            story.say(f"{seat_name(seat)} lays face up: {declaration_text(new_decl)}.",
                      kind="face_up", data={"seat": seat, "face_up": new_decl})
        if len(s.orders) == s.players:
            resolve_turn(story)
        return s, story.events

    # ------------------------------------------------------------------ views
    def view(self, state: CultWarsState, seat: int | None) -> dict[str, Any]:
        v = self._public_view(state)
        if seat is not None:
            v["private"] = self._own_view(state, seat)
        return cast(dict[str, Any], v)  # the engine contract's plain JSON (declared in ``views``)

    def private_view(self, state: CultWarsState, seat: int) -> dict[str, Any]:
        """The seat's part of :meth:`view` alone (the platform asks every seat's after each step)."""
        return cast(dict[str, Any], self._own_view(state, seat))

    def _public_view(self, s: CultWarsState) -> View:
        """What every seat sees, as declared in :mod:`rules.cult_wars.views`."""
        answered = set(s.targets) if s.phase == "targets" else set(s.orders)
        revealed = s.insignia == "two_step" and s.phase in ("orders", "split")
        cults: list[CultView] = []
        for k, c in enumerate(s.cults):
            o = s.orders.get(k)
            cults.append({
                "seat": k, "followers": c.followers, "vp": c.vp, "hand_size": len(c.hand),
                "submitted": k in answered, "face_up": declaration(o) if o else {},
                "target": s.targets.get(k) if revealed else None,
            })
        t = pending(s)
        v: View = {
            "game": "cult_wars",
            "players": s.players,
            "turn": s.turn,
            "turns": TURNS,
            "phase": cast(Phase, s.phase),
            "insignia": cast(Insignia, s.insignia),
            "strategy_cards": list(STRATEGY_VALUES),
            "cults": cults,
            "submitted": sorted(answered) if s.phase in ("targets", "orders") else [],
            "waiting_for": sorted(set(self._open_seats(s))),
            "deck_size": len(s.deck),
            "discard_size": len(s.discard),
            "reshuffles": s.reshuffles,
            "reveal": reveal_record(s, t) if t is not None else None,
            "last_turn": s.last_turn,
            "history": list(s.history),
        }
        r = self.result(s)
        if r is not None:
            v["result"] = cast(ResultView, r.to_json())
        return v

    def _own_view(self, s: CultWarsState, seat: int) -> PrivateView:
        """The seat's own part of its view, as declared in :mod:`rules.cult_wars.views`."""
        c = s.cults[seat]
        o = s.orders.get(seat)
        return {
            "seat": seat,
            "hand": [
                {"id": cid, "key": kind_of(cid).key, "name": kind_of(cid).name,
                 "text": kind_of(cid).text, "target": cast(CardAim, kind_of(cid).target)}
                for cid in c.hand
            ],
            "target_choice": s.targets.get(seat) if s.phase == "targets" else None,
            "orders": o.to_json() if o else None,
            "orders_text": (describe(o, c.followers, split_after=s.insignia == "two_step")
                            if o else None),
        }

    def secret_markers(self, state: CultWarsState, seat: int) -> list[str]:
        return list(state.cults[seat].hand)

    def secret_variants(self, state: CultWarsState, seat: int, rng: random.Random) -> list[CultWarsState]:
        """Three kinds of variant: the action cards in hand that the pending orders do not play,
        swapped with as many cards from the hidden deck (each swapped card takes the other's
        place, so counts and identities are conserved); in the insignia step, another target
        for a cult that has chosen; and, for a cult that has sent its orders, the same orders
        aimed at another target (a ``single`` game: there the target is part of the secret
        orders) or with two hidden slots exchanged (what is laid face up stays as it was)."""
        s = state
        out: list[CultWarsState] = []
        if s.phase == "targets" and seat in s.targets:
            others = [k for k in range(s.players) if k not in (seat, s.targets[seat])]
            if others:
                v = self.clone(s)
                v.targets[seat] = rng.choice(others)
                out.append(v)
        out += self._hand_variant(s, seat, rng)
        # the orders of a turn paused for splits are revealed: only pending orders are secret
        orders = s.orders.get(seat) if s.phase == "orders" else None
        if orders is not None:
            if s.insignia == "single" and "target" not in orders.face_up:
                others = [k for k in range(s.players) if k not in (seat, orders.target)]
                if others:
                    v = self.clone(s)
                    v.orders[seat].target = rng.choice(others)
                    out.append(v)
            hidden = [slot for slot in SLOTS if slot not in orders.face_up]
            pairs = [(a, b) for a in hidden for b in hidden if a < b and orders.slots[a] != orders.slots[b]]
            if pairs:
                a, b = rng.choice(pairs)
                v = self.clone(s)
                slots = v.orders[seat].slots
                slots[a], slots[b] = slots[b], slots[a]
                out.append(v)
        return out

    def _hand_variant(self, s: CultWarsState, seat: int, rng: random.Random) -> list[CultWarsState]:
        """The hand's cards not played by pending orders, swapped with cards of the hidden deck."""
        cult = s.cults[seat]
        orders = s.orders.get(seat) if s.phase == "orders" else None
        played = {pl.card for pl in orders.plays} if orders else set()
        free = [i for i, c in enumerate(cult.hand) if c not in played]
        below = range(_SWAP_CLEAR_OF_TOP, len(s.deck))  # leave the next draws as they are
        if not free or not below:
            return []
        v = self.clone(s)
        take = rng.sample(below, min(len(free), len(below)))
        for i, j in zip(free, take, strict=False):
            hand = v.cults[seat].hand
            hand[i], v.deck[j] = v.deck[j], hand[i]
        return [v]

    # ------------------------------------------------------------------ result
    def result(self, state: CultWarsState) -> Result | None:
        s = state
        if s.phase != "over":
            return None
        scores = {k: float(c.vp) for k, c in enumerate(s.cults)}
        keys = {k: (c.vp, c.followers, len(c.hand)) for k, c in enumerate(s.cults)}
        best = max(keys.values())
        winners = tuple(k for k in range(s.players) if keys[k] == best)
        top_vp = [k for k in range(s.players) if s.cults[k].vp == best[0]]
        if len(top_vp) == 1:
            reason = f"most victory points after turn {TURNS}"
        else:
            top_f = [k for k in top_vp if s.cults[k].followers == best[1]]
            if len(top_f) == 1:
                reason = f"tied on victory points after turn {TURNS}; most followers wins"
            elif len(winners) == 1:
                reason = (f"tied on victory points and followers after turn {TURNS}; most action "
                          f"cards in hand wins")
            else:
                reason = (f"tied on victory points, followers and action cards in hand after turn "
                          f"{TURNS}: a shared win")
        return Result(winners, scores, reason)

    # ------------------------------------------------------------------ computer player
    def bot_action(self, view: dict[str, Any], prompt: Prompt, rng: random.Random) -> Action:
        v = read_view(view)
        if prompt.kind == "target":
            return choose_target(v, rng)
        if prompt.kind == "split":
            return choose_split(v, prompt, rng)
        return choose_orders(v, rng)

    def timeout_action(self, state: CultWarsState, prompt: Prompt) -> Action:
        """A defender who lets the deadline pass shares the losses in proportion (the first
        choice); targets and orders are written by the computer player."""
        if prompt.kind == "split":
            return dict(prompt.choices[0].action)
        return super().timeout_action(state, prompt)

    # ------------------------------------------------------------------ search (rules.search)
    search_horizon = {"normal": 14, "hard": 24}
    """Decisions a playout goes on for: about two turns of three cults (normal), three to four
    (hard)."""
    search_scale = 0.8
    """A playout step costs about 0.15 ms: four fifths of the common iterations keep a decision
    within its time."""

    def determinize(self, view: JSON, seat: int, rng: random.Random) -> CultWarsState:
        """A full state consistent with ``view``, seat ``seat``'s own view, read from nothing
        else (:mod:`rules.search`). Public: followers, VP, hand and deck sizes, the turn and its
        step, revealed insignia, the records of past turns. The seat's own: its hand. Drawn at
        random: which action cards the other cults hold, the order of the deck and what lies in
        the discard pile (every card the seat does not hold, shuffled and dealt to those counts),
        and the rng of what is left to chance. A target or orders another cult has chosen in
        secret and not revealed are left unchosen: the playout chooses them again for that cult."""
        v = read_view(view)
        priv = v["private"]
        mine = [h["id"] for h in priv["hand"]]
        unknown = [cid for cid in DECK_IDS if cid not in set(mine)]
        rng.shuffle(unknown)
        cults = []
        for k, c in enumerate(v["cults"]):
            if k == seat:
                hand = list(mine)
            else:
                hand, unknown = unknown[:c["hand_size"]], unknown[c["hand_size"]:]
            cults.append(Cult(c["followers"], c["vp"], hand))
        deck, discard = unknown[:v["deck_size"]], unknown[v["deck_size"]:]
        phase = v["phase"]
        targets: dict[int, int] = {}
        if phase in ("orders", "split") and v["insignia"] == "two_step":
            targets = {c["seat"]: c["target"] for c in v["cults"] if c["target"] is not None}
        elif phase == "targets" and priv["target_choice"] is not None:
            targets = {seat: priv["target_choice"]}
        orders: dict[int, Orders] = {}
        if phase == "orders" and priv["orders"] is not None:
            orders = {seat: Orders.from_json(priv["orders"])}
        if phase == "split":
            raise IllegalAction("a turn paused for the defenders' splits is not searched.")
        return CultWarsState(
            players=v["players"], rng=Rng(rng.randrange(2**31)), cults=cults, deck=deck,
            discard=discard, turn=v["turn"], phase=phase, insignia=v["insignia"],
            targets=targets, orders=orders, resolution=None, reshuffles=v["reshuffles"],
            last_turn=v["last_turn"], history=list(v["history"]))

    def search_candidates(self, view: JSON, prompt: Prompt, rng: random.Random) -> list[Action] | None:
        """What the search compares: every target; for orders, the ready-made orders, the
        heuristic's under several draws and a few plans of the search's own; a split is not
        searched (the heuristic's rule)."""
        return search_candidates(read_view(view), prompt, rng)

    def evaluate(self, state: CultWarsState, seat: int) -> float:
        """A game cut short by the search's horizon: the seat's chances, guessed from VP and
        followers against the best rival's."""
        return evaluate(state, seat)

    # ------------------------------------------------------------------ serialisation
    def to_json(self, state: CultWarsState) -> dict[str, Any]:
        return state.to_json(self.schema_version)

    def from_json(self, data: Mapping[str, Any]) -> CultWarsState:
        """Reads this layout, and a version-1 state (stored before the insignia option) as the
        ``single`` game it was; any other version is refused."""
        if data.get("schema_version") == 1:
            data = {**upgrade(data), "schema_version": self.schema_version}
        self.check_schema(data)
        return CultWarsState.from_json(data)
