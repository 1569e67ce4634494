"""The Cult Wars engine: setup, the secret orders of each turn, views, result.

Rulebook sections: "Setup" (12 followers, six strategy cards, two action cards each), "Turn"
(orders collected in secret from every cult at once, revealed and resolved together; see
:mod:`rules.cult_wars.resolve`) and "Victory Condition" (after turn 8: most VP, then most
followers, then most action cards in hand, else a shared win).

Prompt ``params`` (see :class:`rules.engine.Prompt`) of the one prompt kind, ``"orders"``
(free-form ``"orders"``; its choices are ready-made orders):

* ``turn`` and ``turns``: this turn's number and the last turn's;
* ``followers``: the cult's followers; ``max_assign``: how many of them the strategy cards can
  hold this turn (at most the followers, at most the sum of the strategy cards);
* ``strategy_cards``: the strategy-card values, each laid on at most one slot;
* ``slots``: the slot names, in order (``attack``, ``defend``, ``sacrifice``, ``breed``);
* ``targets``: the seats the cult may target (every other seat);
* ``action_cards``: how many action cards the cult holds (their ids are in the seat's view);
* ``replace``: True on the prompt ``revisable`` gives a cult that has already sent its orders
  this turn (a replacement must carry ``"replace": true``); False on an open prompt.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ..engine import (
    Action,
    Choice,
    Engine,
    Event,
    IllegalAction,
    NotYourTurn,
    Prompt,
    Result,
    Rng,
    seat_name,
    shown,
)
from .bot import choose_orders
from .content import DECK_IDS, MAX_DEPLOY, SLOTS, STRATEGY_VALUES, kind_of
from .orders import (
    ORDERS_USAGE,
    check_face_up_kept,
    declaration,
    declaration_text,
    describe,
    parse_orders,
)
from .plan import preset_orders
from .resolve import resolve_turn
from .state import START_FOLLOWERS, START_HAND, TURNS, Cult, CultWarsState

SUMMARY = """\
Three or four cult leaders compete for the favour of their gods over eight turns. Every turn \
each leader secretly picks a rival cult as the target and spreads followers over four tasks by \
laying strategy cards (values 1, 1, 2, 3, 5 and 8) on the Attack, Defend, Sacrifice and Breed \
slots, and may add action cards from hand. Nothing happens until every leader has sent orders.

Then all orders are revealed and resolved in a fixed order: action cards, combat at every \
targeted cult (the bigger side kills the difference; a beaten defender loses sacrificial \
followers first and the biggest attacker scores them), sacrifices (one VP per follower and an \
action card; a lone biggest sacrifice draws one more), then breeding (one newborn per breeder).

After turn 8 the most VP wins; ties go to more followers, then more action cards in hand.\
"""


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
    schema_version = 1

    # ------------------------------------------------------------------ setup
    def setup(self, players: int, seed: int, options: Mapping[str, Any] | None = None) -> CultWarsState:
        self.validate_options(players, options or {})
        rng = Rng(seed)
        deck = list(DECK_IDS)
        rng.shuffle(deck)
        cults = [Cult(START_FOLLOWERS, 0, []) for _ in range(players)]
        for _ in range(START_HAND):
            for c in cults:
                c.hand.append(deck.pop(0))
        return CultWarsState(players=players, rng=rng, cults=cults, deck=deck)

    # ------------------------------------------------------------------ prompts
    def prompts(self, state: CultWarsState) -> list[Prompt]:
        s = state
        if s.phase != "orders":
            return []
        return [self._orders_prompt(s, seat) for seat in range(s.players) if seat not in s.orders]

    def _orders_prompt(self, s: CultWarsState, seat: int) -> Prompt:
        followers = [c.followers for c in s.cults]
        vp = [c.vp for c in s.cults]
        choices = tuple(
            Choice(label, action, description=desc)
            for label, desc, action in preset_orders(seat, s.players, followers, vp))
        cult = s.cults[seat]
        max_assign = min(cult.followers, MAX_DEPLOY)
        text = (f"Turn {s.turn} of {TURNS}: write your secret orders. Your cult has "
                f"{cult.followers} followers (at most {max_assign} can be "
                f"assigned) and {len(cult.hand)} action card(s). Choose a target cult, lay "
                f"strategy cards {', '.join(map(str, STRATEGY_VALUES))} on Attack, Defend, "
                f"Sacrifice and Breed, add action cards, and say what is face up.")
        params = {
            "turn": s.turn, "turns": TURNS, "followers": cult.followers, "max_assign": max_assign,
            "strategy_cards": list(STRATEGY_VALUES), "slots": list(SLOTS),
            "targets": [k for k in range(s.players) if k != seat],
            "action_cards": len(cult.hand), "replace": seat in s.orders,
        }
        return Prompt(seat, "orders", text, choices, secret=True, free_form="orders",
                      timeout_note="the computer player writes your orders", params=params)

    def revisable(self, state: CultWarsState, seat: int) -> Prompt | None:
        """A cult that has sent its orders may replace them until the last cult submits: its
        orders prompt, again (``play`` then insists on ``"replace": true``)."""
        if state.phase == "orders" and seat in state.orders:
            return self._orders_prompt(state, seat)
        return None

    # ------------------------------------------------------------------ play
    def play(self, state: CultWarsState, seat: int, action: Action,
             prompt: Prompt) -> tuple[CultWarsState, list[Event]]:
        s0 = state
        if action["type"] != "orders":
            raise IllegalAction(f"{shown(action)} is not allowed; the only action is {ORDERS_USAGE}.")
        old = s0.orders.get(seat)
        if old is not None and action.get("replace") is not True:
            waiting = ", ".join(seat_name(k) for k in range(s0.players) if k not in s0.orders)
            raise NotYourTurn(
                f"{seat_name(seat)} has already sent orders for turn {s0.turn}; to change them send the "
                f"orders again with \"replace\": true (allowed until the last cult submits; "
                f"waiting for {waiting}).")
        cult = s0.cults[seat]
        orders = parse_orders(action, seat=seat, players=s0.players, followers=cult.followers,
                              hand=cult.hand)
        if old is not None:
            if orders == old:
                # a repeated replacement (a double tap, a retried request) changes nothing
                raise IllegalAction(f"those are already {seat_name(seat)}'s orders for turn {s0.turn}; "
                                    "nothing was changed.")
            check_face_up_kept(old, orders)
        s = self.clone(s0)
        s.orders[seat] = orders
        events: list[Event] = [
            Event(f"Your orders for turn {s.turn}: {describe(orders, cult.followers)}",
                  to=(seat,), kind="orders"),
            Event(f"{seat_name(seat)} has {'changed its' if old else 'sent its'} orders for turn {s.turn}.",
                  kind="submitted"),
        ]
        new_decl = declaration(orders)
        old_decl = declaration(old) if old else {}
        if new_decl != old_decl and new_decl:
            events.append(Event(f"{seat_name(seat)} lays face up: {declaration_text(new_decl)}.",
                                kind="face_up", data={"seat": seat, "face_up": new_decl}))
        if len(s.orders) == s.players:
            events.extend(resolve_turn(s))
        return s, events

    # ------------------------------------------------------------------ views
    def view(self, state: CultWarsState, seat: int | None) -> dict[str, Any]:
        s = state
        cults = []
        for k, c in enumerate(s.cults):
            o = s.orders.get(k)
            cults.append({
                "seat": k, "followers": c.followers, "vp": c.vp, "hand_size": len(c.hand),
                "submitted": o is not None, "face_up": declaration(o) if o else {},
            })
        v: dict[str, Any] = {
            "game": self.key,
            "players": s.players,
            "turn": s.turn,
            "turns": TURNS,
            "phase": s.phase,
            "strategy_cards": list(STRATEGY_VALUES),
            "cults": cults,
            "submitted": sorted(s.orders),
            "waiting_for": [k for k in range(s.players) if k not in s.orders] if s.phase == "orders" else [],
            "deck_size": len(s.deck),
            "discard_size": len(s.discard),
            "reshuffles": s.reshuffles,
            "last_turn": s.last_turn,
            "history": list(s.history),
        }
        r = self.result(s)
        if r is not None:
            v["result"] = r.to_json()
        if seat is not None:
            c = s.cults[seat]
            o = s.orders.get(seat)
            v["private"] = {
                "seat": seat,
                "hand": [
                    {"id": cid, "key": kind_of(cid).key, "name": kind_of(cid).name,
                     "text": kind_of(cid).text, "target": kind_of(cid).target}
                    for cid in c.hand
                ],
                "orders": o.to_json() if o else None,
                "orders_text": describe(o, c.followers) if o else None,
            }
        return v

    def secret_markers(self, state: CultWarsState, seat: int) -> list[str]:
        return list(state.cults[seat].hand)

    def secret_variants(self, state: CultWarsState, seat: int, rng: random.Random) -> list[CultWarsState]:
        """Two kinds of variant: the action cards in hand that the pending orders do not play,
        swapped with as many cards from the hidden deck (each swapped card takes the other's
        place, so counts and identities are conserved); and, for a cult that has sent its orders,
        the same orders aimed at another target or with two hidden slots exchanged (what is laid
        face up stays as it was)."""
        s = state
        out: list[CultWarsState] = []
        cult = s.cults[seat]
        orders = s.orders.get(seat)
        played = {pl.card for pl in orders.plays} if orders else set()
        free = [i for i, c in enumerate(cult.hand) if c not in played]
        below = range(_SWAP_CLEAR_OF_TOP, len(s.deck))  # leave the next draws as they are
        if free and below:
            v = self.clone(s)
            take = rng.sample(below, min(len(free), len(below)))
            for i, j in zip(free, take, strict=False):
                hand = v.cults[seat].hand
                hand[i], v.deck[j] = v.deck[j], hand[i]
            out.append(v)
        if orders is not None:
            if "target" not in orders.face_up:
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
        return choose_orders(view, rng)

    # ------------------------------------------------------------------ serialisation
    def to_json(self, state: CultWarsState) -> dict[str, Any]:
        return state.to_json(self.schema_version)

    def from_json(self, data: Mapping[str, Any]) -> CultWarsState:
        self.check_schema(data)
        return CultWarsState.from_json(data)
