"""The duel with its bids typed instead of picked: the free-form example of
``docs/adding-a-game.md``.

Same rules as :mod:`tests.support.duel`; only the secret bid changes. It is a free-form prompt
(``free_form="bid"``) whose ``params`` list the cards the seat may bid, answered with
``{"type": "bid", "card": 3}``: the engine reads the answer exactly with :func:`rules.engine.fields`
and refuses a card the seat does not hold. Its Discord half is :mod:`tests.support.typed_duel_cog`
(a ``/bid`` command and the panel that **Decide** shows and the bot DMs).
"""

from __future__ import annotations

import random
from typing import Any

from rules.engine import Action, Event, IllegalAction, Prompt, fields, shown

from .duel import DuelEngine, DuelState, DuelUI

KEY = "typed_duel"
BID_USAGE = '{"type": "bid", "card": 3}'


class TypedDuelEngine(DuelEngine):
    key = KEY
    name = "Typed High Card Duel"
    rules_page = "tests/support/typed_duel.py"

    def prompts(self, s: DuelState) -> list[Prompt]:
        out = []
        for p in super().prompts(s):
            if p.kind == "bid":  # the same decision, answered by typing instead of a choice
                p = Prompt(p.seat, "bid", f"Round {s.round}: bid one of your cards in secret.",
                           secret=True, free_form="bid", timeout_note=p.timeout_note,
                           params={"cards": sorted(s.hands[p.seat])})
            out.append(p)
        return out

    def play(self, state: DuelState, seat: int, action: Action,
             prompt: Prompt) -> tuple[DuelState, list[Event]]:
        if prompt.kind == "bid":  # free-form: ``apply`` checked only its shape, the rest is here
            got = fields(action, "a bid", {"type": str, "card": int}, usage=BID_USAGE)
            hand = sorted(state.hands[seat])
            if got["type"] != "bid" or got["card"] not in hand:
                raise IllegalAction(f"you cannot bid {shown(got['card'])}; your cards are "
                                    f"{', '.join(map(str, hand))}.")
        return super().play(state, seat, action, prompt)

    def bot_action(self, view: dict[str, Any], prompt: Prompt, rng: random.Random) -> Action:
        if prompt.kind == "bid":
            return {"type": "bid", "card": rng.choice(prompt.params["cards"])}
        return super().bot_action(view, prompt, rng)


class TypedDuelUI(DuelUI):
    key = KEY
    cog_extension = "tests.support.typed_duel_cog"


ENGINE = TypedDuelEngine()
UI = TypedDuelUI()
