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
    StateSchemaError,
    check_choice,
    seat_name,
)

__all__ = [
    "Action", "Choice", "Engine", "Event", "GameOver", "IllegalAction", "InvalidOptions",
    "NotYourTurn", "Prompt", "Result", "Rng", "RulesError", "StateSchemaError", "check_choice",
    "seat_name",
]
