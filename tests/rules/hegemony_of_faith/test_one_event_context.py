"""One event context: every event of Hegemony of Faith's rules is told through its own context (a Story that also keeps the state's last log lines),
never built by hand (the scan of every game: ``tests/rules/test_one_event_context.py``) in the engine."""

from __future__ import annotations

import rules.hegemony_of_faith as game
from rules.engine import Story
from rules.hegemony_of_faith.state import Ctx


def test_the_game_context_is_a_story() -> None:
    assert issubclass(Ctx, Story)
    s = game.ENGINE.setup(4, 1)
    ctx = Ctx(s)
    ctx.say("A public line.")
    ctx.tell(2, "A line for one seat.", kind="echo")
    assert [(e.text, e.to, e.kind) for e in ctx.events] == [
        ("A public line.", None, "log"), ("A line for one seat.", (2,), "echo")]
    # the public line is kept in the state's last lines too; the private one never is
    assert s.log[-1] == "A public line."
    assert "A line for one seat." not in s.log
