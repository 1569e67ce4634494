"""What Flick of Faith shows: the public view and a seat's private part, declared.

``FlickOfFaith.view`` returns plain JSON dicts (the engine contract); these TypedDicts declare
their keys so the renderers, texts and forms reading them are checked against what the engine
makes. :func:`read_view` is the one place a view coming back from the platform is taken as
declared. A number declared ``float`` may be written whole in JSON (a board coordinate of 50).

Annotations are evaluated here, not postponed, so that each class's ``__required_keys__`` and
``__optional_keys__`` read as declared (the tests read them).
"""

from collections.abc import Mapping
from typing import Any, Literal, NotRequired, TypedDict, cast

Phase = Literal["gods", "setup_flick", "council", "mission", "tiebreak", "over"]
Stage = Literal["", "flick", "anubis", "build", "reuse"]
"""What the active seat does in the Mission: flick, take Anubis's offer to flick a fallen
prophet again, build, or choose a built temple to move (empty outside a turn)."""


class IslandView(TypedDict):
    name: str
    x: float
    y: float
    radius: float
    city_radius: float


class NavelView(TypedDict):
    x: float
    y: float
    radius: float


class MapView(TypedDict):
    """The map's fixed layout (:func:`.map.describe`)."""

    size: float
    islands: list[IslandView]
    navel: NavelView
    corner_radius: float


class DiscView(TypedDict):
    """A disc on the map: a prophet, templar, sphinx, temple (owned), the King Ape (neutral),
    Freja's Heart."""

    id: int
    kind: str
    owner: int | None
    x: float
    y: float


class LawView(TypedDict):
    """A law in force: its key, display name, how long it lasts and its text."""

    key: str
    name: str
    duration: str
    """``generation``, ``game`` or ``instant``."""
    text: str


class CouncilLawView(TypedDict):
    """A law drawn for the Council's vote."""

    key: str
    name: str
    text: str


class CouncilResultView(TypedDict):
    """The last Council: the two laws, the one that entered, every seat's thumb."""

    upper: str
    lower: str
    chosen: str
    votes: dict[str, str]
    """``up`` or ``down`` by seat."""


class LastFlickView(TypedDict):
    """The last Mission flick: aimed, as the wobble sent it, and where every disc came to rest
    (``result`` by disc id; ``fell``: the ids that left the map)."""

    seat: int
    flicked: int
    angle: float
    power: float
    wobble_angle: float
    resolved_power: float
    velocity: list[float]
    origin: list[float]
    hand: list[float] | None
    result: dict[str, list[float]]
    fell: list[int]


class WorshipView(TypedDict):
    """A seat's last Worship: islands with Presence, islands dominated, bonus and VP gained."""

    presence: list[int]
    domination: list[int]
    bonus: int
    vp: int


class ContestView(TypedDict):
    """The last setup or tie-break flick: each seat's distance to the navel (None: off the map)
    and where its disc came to rest."""

    kind: str
    """``setup_flick`` or ``tiebreak``."""
    distances: dict[str, float | None]
    final: dict[str, list[float] | None]


class TurnNotesView(TypedDict, total=False):
    """The public notes of the Mission turn in progress (:data:`.engine.TURN_NOTES`)."""

    anubis_used: bool
    anubis_saved: bool
    struck: list[int]
    """Ids of the discs the turn's flicked disc struck."""
    fell_log: list[list[Any]]
    """``[id, kind, owner, where it went]`` of every disc that left the map this turn."""
    fallen_kind: str


class ContestFlickView(TypedDict):
    angle: float
    power: float


class PrivateView(TypedDict):
    """One seat's own part: its secret answers not yet revealed."""

    seat: int
    god_pick: str | None
    vote: str | None
    """``up`` or ``down`` once the seat has voted, until the votes are revealed."""
    contest_flick: ContestFlickView | None


class View(TypedDict):
    """The public view, with ``private`` when it is a seat's own."""

    game: Literal["flick_of_faith"]
    players: int
    phase: Phase
    generation: int
    generations: int
    map: MapView
    corners: list[int]
    dealt: list[str]
    """The god card's colour dealt to each seat."""
    gods: list[str | None]
    """Each seat's god (its key), None until every god is chosen."""
    god_chosen: list[int]
    vp: list[int]
    supply: list[dict[str, int]]
    temples: list[int]
    reserve: list[int]
    heart_ready: bool
    first_player: int
    discs: list[DiscView]
    next_disc_id: int
    laws: list[LawView]
    council: list[CouncilLawView]
    voted: list[int]
    last_council: CouncilResultView | None
    order: list[int]
    active: int | None
    stage: Stage
    in_corner: list[int]
    attempts: int
    turn_extra: str | None
    aim_preview: bool
    wobble_factor: float
    decel: float
    flickers: list[int]
    flicked: list[int]
    last_flick: LastFlickView | None
    last_worship: list[WorshipView] | None
    last_contest: ContestView | None
    winners: list[int] | None
    end_reason: str
    pool: list[dict[str, int]]
    lost_sheep: list[bool]
    turn_index: int
    turn_notes: TurnNotesView
    law_deck_left: list[str]
    private: NotRequired[PrivateView]


def read_view(view: Mapping[str, Any]) -> View:
    """A view the platform hands back (plain JSON, as ``FlickOfFaith.view`` made it), read as
    declared."""
    return cast(View, view)
