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
    check_plain_json,
    fields,
    same_json,
    seat_name,
    shown,
)

__all__ = [
    "Action", "Choice", "Engine", "Event", "GameOver", "IllegalAction", "InvalidOptions",
    "NotYourTurn", "Prompt", "Result", "Rng", "RulesError", "StateSchemaError", "check_choice",
    "check_plain_json", "fields", "same_json", "seat_name", "shown",
]
