"""One event context: every event of Alternate Histories' rules is told through its context (a Story),
never built by hand (the scan of every game: ``tests/rules/test_one_event_context.py``) in the engine."""

from __future__ import annotations

import rules.alternate_histories as game
from rules.alternate_histories.board import Ctx
from rules.engine import Story


def test_the_game_context_is_a_story() -> None:
    assert issubclass(Ctx, Story)
    ctx = Ctx(game.ENGINE.setup(2, 1))
    ctx.say("A public line.", kind="era", data={"era": 2})
    ctx.tell(1, "A line for one seat.")
    assert [(e.text, e.to, e.kind, e.data) for e in ctx.events] == [
        ("A public line.", None, "era", {"era": 2}), ("A line for one seat.", (1,), "log", {})]
