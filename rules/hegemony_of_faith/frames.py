"""The decision frames of Hegemony of Faith: one TypedDict per kind, tagged by ``k``.

A frame is a pending decision on ``State.stack`` (the top one is being resolved). Frames are plain
JSON dicts in the stored state; these declarations only let the type checker follow each kind's
keys, so the stored JSON is the same as before they existed. ``wait`` always lists the seats the
frame waits for. Keys marked ``NotRequired`` are added while the frame is being resolved.

Annotations are evaluated here, not postponed, so that the ``NotRequired`` keys show in each
class's ``__optional_keys__`` (the tests read them).
"""

from typing import Any, Literal, NotRequired, TypeAlias, TypedDict


class SkillsFrame(TypedDict):
    """Everyone keeps one of their two skill cards in secret (setup)."""

    k: Literal["skills"]
    wait: list[int]
    opts: dict[str, list[int]]
    """Per seat (as a string), the two skill cards offered."""


class AttackFrame(TypedDict):
    """An attack card (or a showdown confrontation) walking through its stages: ``defence``,
    ``effect``, ``designate``, ``karma``, ``pick``, then its resolution."""

    k: Literal["attack"]
    card: str
    mode: str
    """"physical" or "mental"."""
    by: int
    side: int
    """The sect (its Leader's seat) the attack is made for."""
    targets: list[int]
    stage: str
    wait: list[int]
    defq: list[list[int]]
    """[sect, member] pairs that may still be asked for a defence card."""
    fighters: dict[str, int]
    """Per sect (as a string), the member who fights for it."""
    karmaq: list[int]
    flips: int
    """Karma Reversed uses: an odd count reverses every comparison."""
    picks: dict[str, list[Any]]
    """Per fighter (as a string), the believer type picked or the line-up (``"z<ID>"`` entries
    are graveyard believers sent with Zombie Army)."""
    showdown: bool
    asked: NotRequired[bool]
    believer: NotRequired[int]
    """Witch Hunt: the believer type hunted."""
    defenders: NotRequired[list[int]]
    reversers: NotRequired[list[int]]


class TrimFrame(TypedDict):
    """A seat discards down to its hand limit at the end of its turn."""

    k: Literal["trim"]
    wait: list[int]
    seat: int
    n: int


class DiscardFrame(TypedDict):
    """A seat discards any number of action cards (the discard action or Divine Inspiration)."""

    k: Literal["discard"]
    wait: list[int]
    seat: int
    purpose: str
    """"discard" or "inspire"."""
    n: int


class ProphetFrame(TypedDict):
    """A recruit from the believer deck, which The Prophet may first predict."""

    k: Literal["prophet"]
    wait: list[int]
    drawer: int
    n: int
    why: str
    preds: dict[str, int]
    """Per predicting seat (as a string), the believer type named."""


class AllianceFrame(TypedDict):
    """Alliance: both seats give each other an action card."""

    k: Literal["alliance"]
    wait: list[int]
    a: int
    t: int
    give: dict[str, str]
    """Per seat (as a string), the name of the card given."""


class BreakingFaithFrame(TypedDict):
    """Breaking Faith, with the target's counter window."""

    k: Literal["bf"]
    wait: list[int]
    by: int
    t: int
    mode: str
    """"expel" (played by a Leader) or "leave" (by a Follower)."""
    countered: bool


class RebirthFrame(TypedDict):
    """The Holy Rebirth window after an action that killed three believers or more of a seat."""

    k: Literal["rebirth"]
    wait: list[int]
    dead: dict[str, int] | int
    """Per asked seat (as a string), its believers that died (a single count in older states)."""
    use: list[int]


class SurrenderFrame(TypedDict):
    """A seat with no believers surrenders to a Leader or becomes a Wanderer: ``offer``, ``ask``,
    ``choose``, ``gift`` and ``done`` stages."""

    k: Literal["surrender"]
    seat: int
    exclude: list[int]
    stage: str
    offer: int | None
    wait: list[int]
    willing: list[int]
    asked: bool
    joined: int | None


class KeepFrame(TypedDict):
    """A Leader decides whether to keep a Follower left without believers."""

    k: Literal["keep"]
    wait: list[int]
    leader: int
    seat: int
    done: NotRequired[bool]


class SnatchFrame(TypedDict):
    """Winners of a confrontation take their opponents' beaten believers."""

    k: Literal["snatch"]
    wait: list[int]
    wins: dict[str, list[list[int]]]


class EndTurnFrame(TypedDict):
    """The end of a seat's turn: ``trim``, ``check``, ``surrender`` and ``advance`` stages."""

    k: Literal["endturn"]
    stage: str
    seat: int
    wait: list[int]


class SettleFrame(TypedDict):
    """The end of the game: scoring, then showdowns between tied candidates."""

    k: Literal["settle"]
    stage: str
    wait: list[int]
    last: int
    """The seat whose turn came last."""
    cands: NotRequired[list[int]]
    rounds: NotRequired[int]
    next: NotRequired[int]


Frame: TypeAlias = (
    SkillsFrame
    | AttackFrame
    | TrimFrame
    | DiscardFrame
    | ProphetFrame
    | AllianceFrame
    | BreakingFaithFrame
    | RebirthFrame
    | SurrenderFrame
    | KeepFrame
    | SnatchFrame
    | EndTurnFrame
    | SettleFrame
)
"""Any pending decision on the stack."""

FRAME_KINDS: dict[str, type[Any]] = {
    "skills": SkillsFrame,
    "attack": AttackFrame,
    "trim": TrimFrame,
    "discard": DiscardFrame,
    "prophet": ProphetFrame,
    "alliance": AllianceFrame,
    "bf": BreakingFaithFrame,
    "rebirth": RebirthFrame,
    "surrender": SurrenderFrame,
    "keep": KeepFrame,
    "snatch": SnatchFrame,
    "endturn": EndTurnFrame,
    "settle": SettleFrame,
}
"""Each frame kind's tag and its declaration (the tests check frames of played games against
them)."""
