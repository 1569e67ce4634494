"""The sub-decisions of Alternate Histories: one TypedDict per kind, tagged by ``k``.

A frame is an open sub-decision on ``State.stack`` (the top one is answered first). Frames are
plain JSON dicts in the stored state; these declarations only let the type checker follow each
kind's keys, so the stored JSON is the same as before they existed. ``seat`` is always the seat
that answers.

Annotations are evaluated here, not postponed, so that each class's ``__required_keys__`` reads
as declared (the tests read them).
"""

from typing import Any, Literal, TypeAlias, TypedDict


class PayFrame(TypedDict):
    """Discard cards (or Reserves) to pay a card's cost."""

    k: Literal["pay"]
    seat: int
    card: str
    """The card being played (its id)."""
    n: int
    """How many cards to discard."""
    step: str
    """The step the card is played in (``events`` or ``build``)."""


class TokenizeFrame(TypedDict):
    """Place up to ``n`` cards from the hand face down, as units or Reserves."""

    k: Literal["tokenize"]
    seat: int
    card: str
    n: int
    make: str
    """``unit`` or ``reserve``."""
    power: int
    mobility: int


class ReorderFrame(TypedDict):
    """Look at the top ``n`` cards of seat ``of``'s deck and put them back in any order."""

    k: Literal["reorder"]
    seat: int
    of: int
    n: int


class BurnFrame(TypedDict):
    """Burn ``n`` graveyard cards before the graveyard is shuffled back into the deck."""

    k: Literal["burn"]
    seat: int
    n: int


class TargetFrame(TypedDict):
    """Choose the enemy a strike destroys."""

    k: Literal["target"]
    seat: int
    card: str
    max: int
    """The most power the target may have."""
    scope: str


class StationFrame(TypedDict):
    """Station a unit just built on one of its owner's infrastructures, or not."""

    k: Literal["station"]
    seat: int
    uid: int


class ReactFrame(TypedDict):
    """The defender reacts to an attack: flee, intercept, or let it go ahead."""

    k: Literal["react"]
    seat: int
    att: int
    """The attacking unit's uid."""
    target: int | str
    """The attacked permanent's uid, or ``"player"`` for the defending player."""


Frame: TypeAlias = (
    PayFrame | TokenizeFrame | ReorderFrame | BurnFrame | TargetFrame | StationFrame | ReactFrame
)
"""Any open sub-decision on the stack."""

FRAME_KINDS: dict[str, type[Any]] = {
    "pay": PayFrame,
    "tokenize": TokenizeFrame,
    "reorder": ReorderFrame,
    "burn": BurnFrame,
    "target": TargetFrame,
    "station": StationFrame,
    "react": ReactFrame,
}
"""Each frame kind's tag and its declaration (the tests check frames of played games against
them)."""
