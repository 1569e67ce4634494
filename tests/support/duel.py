"""High Card Duel: a tiny game that exists only in the tests to prove the platform.

Rules: 2–4 players each hold cards 1..5 (secret). Each of three rounds, everyone secretly bids one
card at once (simultaneous secret prompts). The highest bid that nobody else matched wins the
round; the winner then takes a public turn: ``gold`` (+2 points) or ``raid`` (+1 point and the
current leader, if it is someone else, loses 1). If no bid is unique nobody wins the round.
Most points after three rounds wins; a tie is a shared win.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from PIL import Image

from bot.gameui import GameUI
from bot.render import Canvas, seat_colour
from rules.engine import (
    Action,
    Choice,
    Engine,
    Event,
    Option,
    Prompt,
    Result,
    Rng,
    Story,
    seat_name,
)

ROUNDS = 3


@dataclass
class DuelState:
    players: int
    rng: Rng
    hands: list[list[int]]
    points: list[int]
    bids: dict[int, int] = field(default_factory=dict)
    round: int = 1
    phase: str = "bid"  # bid | claim | over
    round_winner: int | None = None
    last_reveal: dict[int, int] = field(default_factory=dict)
    fast: bool = False


class DuelEngine(Engine[DuelState]):
    key = "duel"
    name = "High Card Duel"
    min_players = 2
    max_players = 4
    summary = "Bid a secret card each round; the highest unique bid wins and claims a prize."
    rules_page = "tests/support/duel.py"
    options: ClassVar[tuple[Option, ...]] = (
        Option("fast", "bool", "one round instead of three", default=False),)

    def setup(self, players: int, seed: int, options: Mapping[str, Any] | None = None) -> DuelState:
        opts = self.validate_options(players, options or {})
        rng = Rng(seed)
        hands = []
        for _ in range(players):
            hand = [1, 2, 3, 4, 5]
            rng.shuffle(hand)
            hands.append(hand)
        return DuelState(players, rng, hands, [0] * players, fast=self.option_value(opts, "fast"))

    def _rounds(self, s: DuelState) -> int:
        return 1 if s.fast else ROUNDS

    def prompts(self, s: DuelState) -> list[Prompt]:
        if s.phase == "bid":
            return [
                Prompt(seat, "bid", f"Round {s.round}: bid one of your cards in secret.",
                       tuple(Choice(f"Bid {c}", {"type": "bid", "card": c}) for c in sorted(s.hands[seat])),
                       secret=True, timeout_note="your lowest card is bid")
                for seat in range(s.players) if seat not in s.bids
            ]
        if s.phase == "claim":
            assert s.round_winner is not None
            return [Prompt(s.round_winner, "claim", "You won the round: claim a prize.",
                           (Choice("Gold (+2)", {"type": "gold"}),
                            Choice("Raid (+1, leader -1)", {"type": "raid"})),
                           timeout_note="gold is taken")]
        return []

    def play(self, state: DuelState, seat: int, action: Action,
             prompt: Prompt) -> tuple[DuelState, list[Event]]:
        # every prompt is enumerated: ``apply`` has already checked the choice
        story = Story(self.clone(state))  # (say: for everyone; tell: for some seats' eyes)
        s = story.s
        if prompt.kind == "bid":
            s.bids[seat] = action["card"]
            s.hands[seat].remove(action["card"])
            story.tell(seat, f"You bid {action['card']}.")
            story.say(f"{seat_name(seat)} has bid.")
            if len(s.bids) == s.players:
                s.last_reveal = dict(s.bids)
                shown = ", ".join(f"{seat_name(k)}: {v}" for k, v in sorted(s.bids.items()))
                story.say(f"Bids revealed: {shown}.", kind="reveal")
                counts: dict[int, int] = {}
                for v in s.bids.values():
                    counts[v] = counts.get(v, 0) + 1
                unique = [v for v, n in counts.items() if n == 1]
                s.bids = {}
                if unique:
                    best = max(unique)
                    s.round_winner = next(k for k, v in s.last_reveal.items() if v == best)
                    s.phase = "claim"
                    story.say(f"{seat_name(s.round_winner)} wins round {s.round}.")
                else:
                    story.say(f"No unique bid: nobody wins round {s.round}.")
                    self._next_round(story)
        else:
            w = s.round_winner
            assert w is not None
            if action["type"] == "gold":
                s.points[w] += 2
                story.say(f"{seat_name(w)} takes gold (+2).")
            else:
                s.points[w] += 1
                leader = max(range(s.players), key=lambda k: (s.points[k], -k))
                if leader != w and s.points[leader] > 0:
                    s.points[leader] -= 1
                    story.say(f"{seat_name(w)} raids {seat_name(leader)} (+1, -1).")
                else:
                    story.say(f"{seat_name(w)} raids but finds nobody richer (+1).")
            s.round_winner = None
            self._next_round(story)
        return s, story.events

    def _next_round(self, story: Story[DuelState]) -> None:
        s = story.s
        if s.round >= self._rounds(s):
            s.phase = "over"
            story.say("The duel is over.", kind="end")
        else:
            s.round += 1
            s.phase = "bid"

    def view(self, s: DuelState, seat: int | None) -> dict[str, Any]:
        v: dict[str, Any] = {
            "players": s.players, "round": s.round, "phase": s.phase,
            "points": list(s.points), "hand_sizes": [len(h) for h in s.hands],
            "bid_submitted": sorted(s.bids), "last_reveal": {str(k): b for k, b in s.last_reveal.items()},
            "round_winner": s.round_winner,
        }
        if seat is not None:
            v["private"] = {"seat": seat, "hand": sorted(s.hands[seat]), "my_bid": s.bids.get(seat)}
        return v

    def result(self, s: DuelState) -> Result | None:
        if s.phase != "over":
            return None
        top = max(s.points)
        return Result(tuple(k for k in range(s.players) if s.points[k] == top),
                      {k: s.points[k] for k in range(s.players)}, "most points after the last round")

    def timeout_action(self, s: DuelState, prompt: Prompt) -> Action:
        if prompt.kind == "bid":
            return {"type": "bid", "card": min(s.hands[prompt.seat])}
        return {"type": "gold"}

    def bot_action(self, view: dict[str, Any], prompt: Prompt, rng: random.Random) -> Action:
        return dict(rng.choice(prompt.choices).action)

    def to_json(self, s: DuelState) -> dict[str, Any]:
        return {
            "schema_version": self.schema_version, "players": s.players, "rng": s.rng.to_json(),
            "hands": s.hands, "points": s.points, "bids": {str(k): v for k, v in s.bids.items()},
            "round": s.round, "phase": s.phase, "round_winner": s.round_winner,
            "last_reveal": {str(k): v for k, v in s.last_reveal.items()}, "fast": s.fast,
        }

    def from_json(self, d: Mapping[str, Any]) -> DuelState:
        self.check_schema(d)
        return DuelState(
            d["players"], Rng.from_json(d["rng"]), [list(h) for h in d["hands"]], list(d["points"]),
            {int(k): v for k, v in d["bids"].items()}, d["round"], d["phase"], d["round_winner"],
            {int(k): v for k, v in d["last_reveal"].items()}, d["fast"],
        )


class DuelUI(GameUI):
    key = "duel"

    def board_image(self, view: dict[str, Any], events: list[Event], *,
                    names: Sequence[str] | None = None) -> Image.Image:
        c = Canvas(640, 240)
        c.header("High Card Duel", f"round {view['round']} · {view['phase']}")
        for seat, pts in enumerate(view["points"]):
            x = 20 + seat * 155
            c.rect((x, 80, x + 140, 220), fill=(44, 48, 58), outline=seat_colour(seat))
            c.text((x + 10, 90), f"Seat {seat}", 18, seat_colour(seat))
            c.text((x + 10, 120), f"{pts} points", 18)
            c.text((x + 10, 150), f"{view['hand_sizes'][seat]} cards", 16)
            if seat in view["bid_submitted"]:
                c.text((x + 10, 180), "bid in", 16)
        return c.image

    def hand_text(self, view: dict[str, Any]) -> str:
        return "Your cards: " + ", ".join(str(c) for c in view["private"]["hand"])

    def status_text(self, view: dict[str, Any]) -> str:
        return f"Round {view['round']} — {view['phase']}"


ENGINE = DuelEngine()
UI = DuelUI()
