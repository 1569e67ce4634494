"""What Petition shows: the public view and a seat's private part, declared.

``PetitionEngine.view`` returns plain JSON dicts (the engine contract); these TypedDicts declare
their keys so the computer player, the renderers and the texts reading them are checked against
what the engine makes. :func:`read_view` is the one place a view coming back from the platform is
taken as declared, and :func:`read_reveal` the same for a reveal event's data (the record the
view shows as ``last_reveal``).

A card shown publicly that may come back to a hand shows its face only (no instance id): a card
lock, the citizens standing from a petition duel, a revealed battle's cards. A card the seat holds,
and the solo game's cards, carry their id.

Annotations are evaluated here, not postponed, so that each class's ``__required_keys__`` and
``__optional_keys__`` read as declared (the tests read them).
"""

from collections.abc import Mapping
from typing import Any, Literal, NotRequired, TypedDict, cast

Phase = Literal[
    "turn", "extra", "petition", "campaign", "place", "claim", "over",
    "solo_turn", "solo_attack", "solo_add", "tithe",
]
"""See ``PetitionState.phase``."""
PetitionStage = Literal["offer", "challenge", "respond", "bid"]
CampaignStage = Literal["gather", "battle", "done"]


class CardFaceView(TypedDict):
    """A card as everyone may see it: a citizen (the god it serves, its points per pillar) or a
    powerup (its effect)."""

    name: str
    kind: Literal["citizen", "powerup"]
    god: str | None
    points: dict[str, int]
    text: str


class CardView(CardFaceView):
    """A card with its instance id (one the seat holds or picks)."""

    id: str


class PillarRefView(TypedDict):
    """A pillar card named by its owner (whose culture it is) and its kind."""

    owner: int
    kind: str


class PillarView(TypedDict):
    """One of a seat's own four pillars."""

    kind: str
    active: bool
    captured_by: int | None
    fortification: PillarRefView | None


class SeatView(TypedDict):
    """One seat, as everyone sees it."""

    seat: int
    beads: int
    hand_size: int
    heathen: bool
    active_count: int
    captured_count: int
    pillars: list[PillarView]
    stash: list[PillarRefView]


class GodView(TypedDict):
    """A god card: in the temple (``holder`` None) or held, with its favour and card lock."""

    key: str
    name: str
    title: str
    pillar: str
    holder: int | None
    bonus: int
    lock: list[CardFaceView] | None
    since: int


class OptionsView(TypedDict):
    """The table options the game was set up with."""

    winner_takes_all: bool
    last_man_standing: bool
    challenge_window: int
    rules: int
    pillar_stand: int


class BidView(TypedDict):
    """One side of a petition duel: its beads, whether its face-down bid is in and how many cards
    it holds, and its citizens standing from duels won."""

    seat: int
    beads: int
    ready: bool
    count: int | None
    standing: list[CardFaceView]


class PetitionView(TypedDict):
    """The petition under way."""

    petitioner: int
    god: str
    stage: PetitionStage
    challenges: dict[str, int]
    """Seat (as a string) -> its counter-offer (0: no challenge), for the seats that answered."""
    challengers: list[int]
    holder: BidView | None
    challenger: BidView | None
    duels: int
    bonus: int
    lock: list[CardFaceView] | None
    beads_on_god: int


class CampaignView(TypedDict):
    """The campaign under way (a side's cards are None while they lie face down)."""

    attacker: int
    defender: int
    pillar: str
    stage: CampaignStage
    attack: list[CardFaceView] | None
    defend: list[CardFaceView] | None
    attack_count: int | None
    defend_count: int | None
    attack_ready: bool
    defend_ready: bool
    attack_locked: bool
    defend_locked: bool
    to_act: int | None
    passes: int
    attack_bonus: int
    defend_bonus: int
    attack_total: int | None
    defend_total: int | None
    surrendered: bool
    attack_now: int | None
    defend_now: int | None
    licence: str | None


class RevealSideView(TypedDict):
    """One side of a revealed petition duel."""

    seat: int
    beads: int
    cards: list[CardFaceView]


class BidsRevealView(TypedDict):
    """A petition duel's bids, revealed, and the chart's verdict."""

    type: Literal["bids"]
    god: str
    duel: int
    holder: RevealSideView
    challenger: RevealSideView
    winner: int
    bonus: int
    lock: bool
    why: str


class CampaignRevealView(TypedDict):
    """A campaign's cards, revealed (and, once the battle is over, its outcome)."""

    type: Literal["campaign"]
    attacker: int
    defender: int
    pillar: str
    attack: list[CardFaceView]
    defend: list[CardFaceView]
    attack_total: int
    defend_total: int
    captured: NotRequired[bool]
    surrendered: NotRequired[bool]


RevealView = BidsRevealView | CampaignRevealView
"""The last reveal (``type`` tells which)."""


class SoloBattleView(TypedDict):
    """The solo game's battle against one pillar: the cards played and revealed, the favour."""

    pillar: str
    played: list[CardView]
    revealed: list[CardView]
    favoured: str | None
    mine: int
    theirs: int


class SoloView(TypedDict):
    """The solo game's opponent: the stacks' sizes, the pillars taken, the battle, the tithe."""

    stacks: dict[str, int]
    captured: list[str]
    battle: SoloBattleView | None
    tithe_card: CardView | None
    tithe_god: str | None


class ResultView(TypedDict):
    """The result (``scores``: captured pillars per seat, keyed by the seat as a string)."""

    winners: list[int]
    scores: dict[str, float]
    reason: str


class PrivateView(TypedDict):
    """One seat's own part: its hand, its face-down bid and its face-down campaign cards."""

    seat: int
    hand: list[CardView]
    bid: list[CardView] | None
    campaign_cards: list[CardView] | None


class View(TypedDict):
    """The public view, with ``private`` when it is a seat's own."""

    game: Literal["petition"]
    players: int
    turn: int
    round: int
    round_limit: int
    turn_seat: int
    phase: Phase
    waiting_for: list[int]
    options: OptionsView
    temple: int
    deck_size: int
    discard_size: int
    gods: list[GodView]
    seats: list[SeatView]
    petition: PetitionView | None
    campaign: CampaignView | None
    placing: list[PillarRefView]
    placer: int | None
    discarding: list[int]
    """Seats over the hand limit, discarding down to it."""
    last_reveal: RevealView | None
    solo: SoloView | None
    over_reason: str
    result: NotRequired[ResultView]
    private: NotRequired[PrivateView]


def read_view(view: Mapping[str, Any]) -> View:
    """A view the platform hands back (plain JSON, as ``PetitionEngine.view`` made it), read as
    declared."""
    return cast(View, view)


def read_reveal(data: Mapping[str, Any]) -> RevealView:
    """A reveal event's data (the record ``last_reveal`` shows), read as declared."""
    return cast(RevealView, data)
