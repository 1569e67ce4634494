"""Alternate Histories state: two sides (deck, hand, graveyard, burned cards, era tracker), the
permanents on the battlefield, the stack of open sub-decisions and the public record of the last
combat. Plain dataclasses that round-trip exactly through JSON.

Decks are lists of card ids with the top card first; graveyards have their top card last.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from ..engine import Rng, copy_plain
from .content import CARDS, ERAS
from .frames import Frame
from .views import CombatView

ACADEMIC = "academic"
"""The card field of an Academic token (a 0/0 espionage unit that is not a card)."""

RULES = 2
"""The rules revision a new game is set up under (see :attr:`State.rules`)."""
LEGACY_RULES = 1
"""The rules Herald played before it followed the rulebook's draw phase, direct hits, Naval
keyword and Mutually Assured Destruction text; a game stored under them keeps them."""


@dataclass
class Perm:
    """A permanent in play: a unit, infrastructure or resource (or an Academic token)."""

    uid: int
    owner: int
    card: str
    """Card id; for a face-down card the real card (only its owner may see it)."""
    kind: str
    power: int
    mobility: int
    face_down: bool = False
    tapped: bool = False
    rapid: bool = False
    """Deployed by Rapid Deployment this turn (it may still attack)."""
    station: int | None = None
    """uid of the infrastructure this unit is stationed on."""

    @property
    def keywords(self) -> tuple[str, ...]:
        if self.card == ACADEMIC:
            return ("espionage",)
        if self.face_down:
            return ()
        return CARDS[self.card].keywords

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Side:
    """One player's side of the table."""

    nation: str = ""
    governance: str = ""
    deck_name: str = ""
    """The ready-made deck key, or ``"code"`` for a deck brought as a code (private until play)."""
    deck: list[str] = field(default_factory=list)
    hand: list[str] = field(default_factory=list)
    graveyard: list[str] = field(default_factory=list)
    burned: list[str] = field(default_factory=list)
    era: int = 0
    """The era tracker: how many times this side has reshuffled."""
    compute: int = 0
    switched: bool = False
    """Governance switched this turn (once per turn)."""
    units_built: int = 0
    """Units played this turn (the Mechanical era's discount applies to the first)."""
    chosen: bool = False
    opened: bool = False

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class State:
    rng: Rng
    reaction_window: int
    max_turns: int
    rules: int = RULES
    """The rules revision the game was set up under, kept for its whole life so that a game
    begun under older rules ends under them and replays exactly. ``2``: the rulebook's (the draw
    phase shuffles and draws to 7, every turn; a reshuffle only when a card must be drawn; direct
    hits mill one card per full 100 power; Naval binds a carrier too; Mutually Assured
    Destruction counts deck and graveyard). ``1`` (:data:`LEGACY_RULES`): Herald's earlier
    rules, read for games stored before the revision existed."""
    phase: str = "deck"
    """``deck`` (choosing decks), ``opening`` (choosing opening hands), ``turn``, ``over``."""
    step: str = ""
    """Within a turn: ``events``, ``combat``, ``build``, ``decommission``, ``draw``."""
    current: int = 0
    turn: int = 0
    first: int = 0
    sides: list[Side] = field(default_factory=list)
    perms: list[Perm] = field(default_factory=list)
    next_uid: int = 1
    stack: list[Frame] = field(default_factory=list)
    """Open sub-decisions, the top one last (``k`` names the kind, declared in ``frames``)."""
    known: list[list[str]] = field(default_factory=lambda: [[], []])
    """``known[s]``: the top cards of the other side's deck that seat ``s`` knows, in order."""
    rally: int = 0
    """Bonus power of the current player's units this turn (Blitz Orders)."""
    spy_hunt: bool = False
    """The current player's Precision Strike units may attack espionage units this turn."""
    hits: int = 0
    """Direct hits the current player has landed this turn (Autocracy's extra card: the first)."""
    last_combat: CombatView | None = None
    winner: int | None = None
    draw: bool = False
    reason: str = ""

    @property
    def global_era(self) -> int:
        """Set by whoever has reshuffled most, capped at the last era."""
        return min(max((sd.era for sd in self.sides), default=0), len(ERAS) - 1)

    def perm(self, uid: int) -> Perm | None:
        for p in self.perms:
            if p.uid == uid:
                return p
        return None

    def of(self, seat: int, kind: str | None = None) -> list[Perm]:
        return [p for p in self.perms if p.owner == seat and (kind is None or p.kind == kind)]


def state_to_json(s: State, schema_version: int) -> dict[str, Any]:
    return {
        "schema_version": schema_version,
        "rng": s.rng.to_json(),
        "reaction_window": s.reaction_window,
        "max_turns": s.max_turns,
        "rules": s.rules,
        "phase": s.phase, "step": s.step, "current": s.current, "turn": s.turn, "first": s.first,
        "sides": [sd.to_json() for sd in s.sides],
        "perms": [p.to_json() for p in s.perms],
        "next_uid": s.next_uid,
        "stack": [dict(f) for f in s.stack],
        "known": [list(k) for k in s.known],
        "rally": s.rally, "spy_hunt": s.spy_hunt, "hits": s.hits,
        "last_combat": s.last_combat,
        "winner": s.winner, "draw": s.draw, "reason": s.reason,
    }


def upgrade(d: dict[str, Any]) -> dict[str, Any]:
    """A state stored in layout 1 (before the rules revision existed) in layout 2.

    A game already under way keeps the rules it began with (:data:`LEGACY_RULES`). A game still choosing decks or opening hands has
    played nothing the revisions treat differently, so it goes on under the rulebook's: exactly
    the state a new game in the same place would have, which is also what replaying its log
    gives."""
    return {**d, "rules": LEGACY_RULES if d["phase"] in ("turn", "over") else RULES}


def state_from_json(d: dict[str, Any]) -> State:
    return State(
        rng=Rng.from_json(d["rng"]), reaction_window=int(d["reaction_window"]),
        max_turns=int(d["max_turns"]), rules=int(d["rules"]), phase=d["phase"], step=d["step"], current=d["current"],
        turn=d["turn"], first=d["first"],
        sides=[Side(**{**sd, "deck": list(sd["deck"]), "hand": list(sd["hand"]),
                       "graveyard": list(sd["graveyard"]), "burned": list(sd["burned"])})
               for sd in d["sides"]],
        perms=[Perm(**p) for p in d["perms"]], next_uid=d["next_uid"],
        stack=[copy_plain(f) for f in d["stack"]], known=[list(k) for k in d["known"]],
        rally=d["rally"], spy_hunt=d["spy_hunt"], hits=d["hits"], last_combat=copy_plain(d["last_combat"]),
        winner=d["winner"], draw=d["draw"], reason=d["reason"],
    )
