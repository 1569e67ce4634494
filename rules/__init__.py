"""Pure game engines: no Discord, no I/O, no clock, no global random."""

from .engine import (
    Action,
    Choice,
    Engine,
    Event,
    GameOver,
    IllegalAction,
    InvalidOptions,
    NotYourTurn,
    Prompt,
    Result,
    Rng,
    RulesError,
    check_choice,
)

__all__ = [
    "Action", "Choice", "Engine", "Event", "GameOver", "IllegalAction", "InvalidOptions",
    "NotYourTurn", "Prompt", "Result", "Rng", "RulesError", "check_choice",
]
