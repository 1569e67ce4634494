"""What an action answered and whether a running game's export may show it, judged once: when
the action is committed (the session stores both with it), or, for a game stored before they
were, while its log is replayed (``bot.replay.export``). The same judgement either way."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from rules.engine import Engine, Prompt


def strings(value: Any) -> Iterator[str]:
    """Every string within a JSON value (an action names cards, targets and options by them)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for v in value.values():
            yield from strings(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from strings(v)


def markers(engine: Engine[Any], state: Any, players: int) -> set[str]:
    """What any seat holds in secret in ``state`` (``Engine.secret_markers``)."""
    return {m for seat in range(players) for m in engine.secret_markers(state, seat)}


def answered(engine: Engine[Any], state: Any, seat: int, prompts: Iterable[Prompt]) -> Prompt | None:
    """The prompt an action of ``seat`` answers in ``state`` (whose open ``prompts`` are given):
    its open one, else the one it may revise."""
    for p in prompts:
        if p.seat == seat:
            return p
    return engine.revisable(state, seat)


def withheld(engine: Engine[Any], prompt: Prompt | None, action: dict[str, Any], after: Any,
             players: int) -> bool:
    """Whether a running game's export withholds the action: it answered a secret decision (or
    no prompt matched), or it names something a seat holds in secret once it is applied (a card
    passed face down). What is still secret at the time of the export is checked then."""
    return prompt is None or prompt.secret or names_held(engine, action, after, players)


def names_held(engine: Engine[Any], action: dict[str, Any], state: Any, players: int) -> bool:
    """Whether the action names something a seat holds in secret in ``state``."""
    named = set(strings(action))
    return bool(named) and bool(named & markers(engine, state, players))
