"""The computer player's temple places (issue 29: one build decision took half a second): the
candidates it keeps are exactly the places the rules allow, found without the engine's scan of
the whole island for every taken place."""

from __future__ import annotations

import random

from rules.flick_of_faith import ENGINE, temples
from rules.flick_of_faith import bot as player


def test_temple_candidates_are_the_free_places_the_rules_allow() -> None:
    checked = 0
    for seed in range(2):
        state = ENGINE.setup(2 + seed, 40 + seed, {})
        rng = random.Random(seed)
        while ENGINE.result(state) is None and checked < 6 * (seed + 1):
            p = ENGINE.prompts(state)[0]
            view = ENGINE.view(state, p.seat)
            if p.kind == "build":
                for o in p.params.get("prophets", []):
                    for island in o["islands"]:
                        if not temples.has_free_place(view["discs"], island, exclude=o["id"]):
                            continue
                        allowed = [q for q in player.place_candidates(island)
                                   if temples.problem(view["discs"], q[0], q[1], [island],
                                                      exclude=o["id"]) is None]
                        assert player._free_candidates(view["discs"], island, o["id"]) == allowed
                        checked += 1
            state, _ = ENGINE.apply(state, p.seat, ENGINE.bot_action(view, p, rng))
    assert checked >= 6
