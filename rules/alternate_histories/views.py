"""What Alternate Histories shows: the public view and a seat's private part, declared.

``AlternateHistoriesEngine.view`` returns plain JSON dicts (the engine contract); these
TypedDicts declare their keys so the renderers and texts reading them are checked against what
the engine makes. :func:`read_view` is the one place a view coming back from the platform is
taken as declared.

Annotations are evaluated here, not postponed, so that each class's ``__required_keys__`` and
``__optional_keys__`` read as declared (the tests read them).
"""

from collections.abc import Mapping
from typing import Any, Literal, NotRequired, TypedDict, cast


class SideView(TypedDict):
    """One side, as both see it (nation and governance once the decks are chosen)."""

    seat: int
    nation: str | None
    governance: str | None
    era: int
    era_name: str
    deck: int
    hand: int
    graveyard: list[str]
    burned: list[str]
    compute: int
    chosen: bool
    opened: bool
    burn_on_reshuffle: int | None


class PermView(TypedDict):
    """A permanent on the battlefield, as both see it (a face-down card shows no card)."""

    uid: int
    owner: int
    card: str | None
    token: str | None
    name: str
    kind: str
    face_down: bool
    power: int
    mobility: int
    attack: int
    defend: int
    speed: int
    intercept_speed: int
    keywords: list[str]
    tapped: bool
    rapid: bool
    station: int | None
    reorder: int


class PendingView(TypedDict):
    """The open sub-decision (see ``frames``): its kind, who answers, and its public facts."""

    kind: Literal["pay", "tokenize", "reorder", "burn", "target", "station", "react"]
    seat: int
    attacker: NotRequired[int]
    target: NotRequired[int | str]
    card: NotRequired[str]
    count: NotRequired[int]


class CombatSideView(TypedDict):
    """One side of the last combat: the unit, its power and what the top card added."""

    uid: int
    owner: int
    name: str
    power: int
    total: int | None
    roll_card: str | None
    roll: int | None


class CombatView(TypedDict):
    """The last combat (``defender`` None for a direct hit on the player)."""

    attacker: CombatSideView
    defender: CombatSideView | None
    outcome: str


class PrivateView(TypedDict):
    """One seat's own part: its hand, deck, face-down cards and what it knows."""

    seat: int
    hand: list[str]
    deck_cards: list[str]
    face_down: dict[str, str]
    """Per uid (as a string), the card of the seat's own face-down permanent."""
    known_top: list[str]
    deck_name: str
    nation: str
    governance: str
    playable: dict[str, int]
    """Cards the seat may play now, with the discard cost of each."""
    reorder: NotRequired[list[str]]
    """The cards the seat is putting back in order, top first."""


class View(TypedDict):
    """The public view, with ``private`` when it is a seat's own."""

    game: Literal["alternate_histories"]
    phase: str
    """``deck``, ``opening``, ``turn`` or ``over``."""
    step: str
    turn: int
    current: int
    first: int
    global_era: str
    global_era_index: int
    sides: list[SideView]
    battlefield: list[PermView]
    pending: PendingView | None
    last_combat: CombatView | None
    rally: int
    spy_hunt: bool
    winner: int | None
    reason: str
    max_turns: int
    reaction_window: int
    rules: int
    private: NotRequired[PrivateView]


def read_view(view: Mapping[str, Any]) -> View:
    """A view the platform hands back (plain JSON, as ``AlternateHistoriesEngine.view`` made it),
    read as declared."""
    return cast(View, view)
