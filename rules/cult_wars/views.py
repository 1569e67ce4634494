"""What Cult Wars shows: the public view and a seat's private part, declared.

``CultWarsEngine.view`` returns plain JSON dicts (the engine contract); these TypedDicts declare
their keys so the computer player, the renderers and the texts reading them are checked against
what the engine makes. :func:`read_view` is the one place a view coming back from the platform is
taken as declared.

Annotations are evaluated here, not postponed, so that each class's ``__required_keys__`` and
``__optional_keys__`` read as declared (the tests read them).
"""

from collections.abc import Mapping
from typing import Any, Literal, NotRequired, TypedDict, cast

Phase = Literal["targets", "orders", "split", "over"]
Insignia = Literal["two_step", "single"]
CardAim = Literal["self", "opponent"]
"""Whom an action card is aimed at: a rival cult, or the cult that plays it."""


class FaceUpPlayView(TypedDict):
    """An action card laid face up with the orders: its name (never its id) and its target."""

    name: str
    target: int | None


class FaceUpView(TypedDict):
    """What a cult laid face up this turn (an empty dict when nothing)."""

    target: NotRequired[int]
    slots: NotRequired[dict[str, list[int]]]
    """Slot name -> the strategy-card values laid on it, for the slots laid face up."""
    plays: NotRequired[list[FaceUpPlayView]]


class CultView(TypedDict):
    """One cult, as everyone sees it."""

    seat: int
    followers: int
    vp: int
    hand_size: int
    submitted: bool
    face_up: FaceUpView
    target: int | None
    """The revealed insignia (a ``two_step`` game's orders and split steps), else None."""


class PlayRecordView(TypedDict):
    """An action card revealed with the orders."""

    name: str
    target: int | None
    cancelled: bool


class RevealCultView(TypedDict):
    """A cult's revealed orders: target, slots, idle followers and the cards it played."""

    seat: int
    target: int
    slots: dict[str, list[int]]
    idle: int
    plays: list[PlayRecordView]


class RecordCultView(RevealCultView):
    """A cult in the record of a resolved turn: its orders and what the turn did to it."""

    followers_before: int
    followers_after: int
    vp_before: int
    vp_after: int
    born: int
    cards_drawn: int
    loss_order: str | list[int]
    """``proportional`` or the seats in the order a ``single`` game's defence chose in advance."""


class CombatView(TypedDict):
    """One combat at a targeted cult (the pairs are ``[seat, n]``; attackers are ``[seat,
    followers, strength]``)."""

    defender: int
    attackers: list[list[int]]
    attack: int
    defence: int
    outcome: Literal["defence", "even", "attack"]
    attacker_losses: list[list[int]]
    defender_losses: dict[str, int]
    """Slot -> followers the defender lost (a broken defence only)."""
    vp: list[list[int]]
    split: NotRequired[Literal["awaited", "chosen"]]
    """A ``two_step`` game's winning defence: its defender's split is awaited, or was chosen."""


class SplitView(TypedDict):
    """A defender's split still awaited: ``loss`` among ``attackers`` (``[seat, followers]``)."""

    defender: int
    loss: int
    attackers: list[list[int]]


class RevealView(TypedDict):
    """This turn's resolution, paused for the defenders' splits."""

    turn: int
    cults: list[RevealCultView]
    combats: list[CombatView]
    lines: list[str]
    splits: list[SplitView]


class TurnRecordView(TypedDict):
    """The last resolved turn."""

    turn: int
    cults: list[RecordCultView]
    combats: list[CombatView]
    lines: list[str]


class StandingView(TypedDict):
    """The standings after one turn, in seat order."""

    turn: int
    followers: list[int]
    vp: list[int]


class ResultView(TypedDict):
    """The result (``scores``: VP per seat, keyed by the seat as a string)."""

    winners: list[int]
    scores: dict[str, float]
    reason: str


class HandCardView(TypedDict):
    """An action card in the seat's hand."""

    id: str
    key: str
    name: str
    text: str
    target: CardAim


class OrdersPlayView(TypedDict):
    card: str
    target: int | None


class OrdersView(TypedDict):
    """The seat's own orders for this turn, as sent."""

    target: int
    slots: dict[str, list[int]]
    plays: list[OrdersPlayView]
    face_up: list[str]
    loss_order: str | list[int]


class PrivateView(TypedDict):
    """One seat's own part: its hand, its secret target and orders of this turn."""

    seat: int
    hand: list[HandCardView]
    target_choice: int | None
    orders: OrdersView | None
    orders_text: str | None


class View(TypedDict):
    """The public view, with ``private`` when it is a seat's own."""

    game: Literal["cult_wars"]
    players: int
    turn: int
    turns: int
    phase: Phase
    insignia: Insignia
    strategy_cards: list[int]
    cults: list[CultView]
    submitted: list[int]
    waiting_for: list[int]
    deck_size: int
    discard_size: int
    reshuffles: int
    reveal: RevealView | None
    last_turn: TurnRecordView | None
    history: list[StandingView]
    result: NotRequired[ResultView]
    private: NotRequired[PrivateView]
    sealed: NotRequired[bool]
    """Set by the presentation only (``cogs.cult_wars.ui``): the view as the channel's board shows
    a secret step, where who has answered is left out (never made by the engine)."""


def read_view(view: Mapping[str, Any]) -> View:
    """A view the platform hands back (plain JSON, as ``CultWarsEngine.view`` made it), read as
    declared."""
    return cast(View, view)
