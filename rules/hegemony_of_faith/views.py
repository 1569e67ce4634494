"""What Hegemony of Faith shows: the public view and a seat's private part, declared.

``HegemonyEngine.view`` returns plain JSON dicts (the engine contract); these TypedDicts declare
their keys so the renderers and texts reading them are checked against what the engine makes.
:func:`read_view` is the one place a view coming back from the platform is taken as declared.

Annotations are evaluated here, not postponed, so that each class's ``__required_keys__`` and
``__optional_keys__`` read as declared (the tests read them).
"""

from collections.abc import Mapping
from typing import Any, Literal, NotRequired, TypedDict, cast

PendingKind = Literal[
    "turn",
    "skills",
    "attack",
    "trim",
    "discard",
    "prophet",
    "alliance",
    "bf",
    "rebirth",
    "surrender",
    "keep",
    "snatch",
    "endturn",
    "settle",
]
"""``turn`` when the current player is to act, else the kind of the frame being resolved."""


class SeatView(TypedDict):
    """One seat, as everyone sees it (what derives from a hidden skill only once revealed)."""

    seat: int
    name: str
    role: str
    """``leader``, ``follower`` or ``wanderer``."""
    leader: int | None
    followers: list[int]
    believers: int
    hand: int
    hand_limit: int | None
    skill: str | None
    skill_uses: str | None
    sealed: bool
    steals: int
    immune_mental: bool
    immune_physical: bool
    skips_next_turn: bool
    gate_copy: str | None
    hermit: bool


class SectView(TypedDict):
    leader: int
    members: list[int]
    believers: int


class ResultView(TypedDict):
    winner: int
    reason: str


# "for" is a Python keyword: this one is declared in the functional form
PendingView = TypedDict(
    "PendingView",
    {
        "kind": PendingKind,
        "waiting": list[int],
        "seat": NotRequired[int],
        "card": NotRequired[str],
        "by": NotRequired[int],
        "targets": NotRequired[list[int]],
        "stage": NotRequired[str],
        "chosen": NotRequired[list[int]],
        "reversed": NotRequired[bool],
        "fighters": NotRequired[dict[str, int]],
        "for": NotRequired[int],
        "drawer": NotRequired[int],
        "target": NotRequired[int],
        "mode": NotRequired[str],
        "winners": NotRequired[list[int]],
        "window": NotRequired[int],
    },
)
"""What is awaited: ``kind`` and the seats ``waiting``, with the facts of that kind (an attack's
card, sides and stage; who surrenders, ``for``; a reaction window's length in seconds)."""


class SkillView(TypedDict):
    uid: str
    name: str
    text: str
    timing: str
    limit: str
    uses_left: str
    revealed: bool


class SkillOptionView(TypedDict):
    uid: str
    name: str
    text: str
    limit: str


class ActionCardView(TypedDict):
    uid: str
    name: str
    kind: str
    text: str


class BelieverView(TypedDict):
    uid: str
    id: int
    """The believer type, 1 to 5."""
    name: str
    beats: list[int]
    bonus_against: int


class IntelView(TypedDict):
    """What the seat last saw with Info-Spy."""

    of: int
    turn: int
    actions: list[str]
    believers: list[int]


class PrivateView(TypedDict):
    """One seat's own part: its skill, hand, believers and secret answers."""

    seat: int
    skill: SkillView | None
    skill_options: list[SkillOptionView]
    actions: list[ActionCardView]
    believers: list[BelieverView]
    intel: IntelView | None
    my_pick: list[Any] | None
    hand_limit: int
    sealed: bool


class View(TypedDict):
    """The public view, with ``private`` when it is a seat's own."""

    game: Literal["hegemony_of_faith"]
    players: int
    phase: str
    """``setup``, ``play`` or ``over``."""
    round: int
    turn: int
    current: int
    first: int
    max_rounds: int
    actions_used: list[str]
    extra_actions: int
    seats: list[SeatView]
    sects: list[SectView]
    action_deck: int
    action_discard: int
    believer_deck: int
    graveyard: list[int]
    removed: int
    skill_deck: int
    pending: PendingView
    log: list[str]
    result: ResultView | None
    private: NotRequired[PrivateView]


def read_view(view: Mapping[str, Any]) -> View:
    """A view the platform hands back (plain JSON, as ``HegemonyEngine.view`` made it), read as
    declared."""
    return cast(View, view)
