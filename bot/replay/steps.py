"""A stored game replayed from its seed and options, one step per accepted action: what the
export, the animated replay and the web's history read (:func:`replay_steps`)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.engine import Engine, Event, Prompt

from ..storage import GameRow

MAX_FILE_BYTES = 8_000_000
"""The largest file Herald sends: well within Discord's upload limit (25 MB for bots in a boosted
server, less elsewhere), and what a phone still downloads without a second thought."""


@dataclass
class Step:
    """One step of a replayed game: the start (``n`` 0, no action) or the ``n``-th action."""

    n: int
    state: Any
    events: list[Event] = field(default_factory=list)
    seat: int | None = None
    origin: str | None = None
    action: dict[str, Any] | None = None
    kind: str | None = None
    """The kind of decision the action answered (None: no open or revisable prompt matched)."""
    secret: bool = False
    """The action answered a secret decision (or its prompt could not be found: withheld)."""


def replay_steps(engine: Engine[Any], game: GameRow,
                 actions: Sequence[tuple[int, dict[str, Any], str]]) -> Iterator[Step]:
    """The game's start and each action applied in turn, from its seed and options (the way the
    stored state was reached). A log this Herald cannot replay raises ``RulesError`` or
    ``StateSchemaError``; CPU work, for a worker thread."""
    state = engine.setup(len(game.seats), game.seed, engine.replay_options(game.options, game.state))
    yield Step(0, state)
    for n, (seat, action, origin) in enumerate(actions, start=1):
        prompt = _answered(engine, state, seat)
        state, events = engine.apply(state, seat, action)
        yield Step(n, state, list(events), seat, origin, action,
                   prompt.kind if prompt else None, prompt is None or prompt.secret)


def _answered(engine: Engine[Any], state: Any, seat: int) -> Prompt | None:
    """The prompt an action of ``seat`` answers: its open one, else the one it may revise."""
    for p in engine.prompts(state):
        if p.seat == seat:
            return p
    return engine.revisable(state, seat)
