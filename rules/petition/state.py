"""Petition state: players with their pillars, hands and beads; the gods in the temple or held;
the petition, challenge duel or campaign under way; the solo game's pillar stacks.

Plain dataclasses that round-trip exactly through JSON. What is secret: every hand, the draw
deck's order, face-down bids (``Bid.cards`` until the reveal), face-down campaign cards
(``Campaign.attack`` / ``Campaign.defend`` while ``Campaign.stage == "gather"`` and the side is not
locked) and the solo game's fortification stacks. Everything else is public.

Turn numbers: ``PetitionState.turn`` counts turns from 1 for the whole table; a favour or a
heathen's licence won during turn ``t`` lasts until the end of its holder's next turn after ``t``.
"""

from __future__ import annotations

import pickle
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..engine import Rng
from .content import PILLARS
from .views import RevealView


@dataclass(frozen=True)
class PillarRef:
    """One pillar card, named by its owner (whose culture it is) and its kind."""

    owner: int
    kind: str
    """``"art"``, ``"economy"``, ``"magic"`` or ``"war"``."""

    def to_json(self) -> list[Any]:
        return [self.owner, self.kind]

    @classmethod
    def from_json(cls, d: Any) -> PillarRef:
        return cls(int(d[0]), str(d[1]))


@dataclass
class Pillar:
    """One of a player's own four pillar cards."""

    kind: str
    captured_by: int | None = None
    """None while active (standing in front of its owner); the captor's seat once captured."""
    fortification: PillarRef | None = None
    """A captured pillar card placed under this one (at most one): +1 in its defence, and citizens
    with points in the fortification's kind may defend it. Only an active pillar has one; when
    this pillar is captured its fortification goes with it."""

    @property
    def active(self) -> bool:
        return self.captured_by is None

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "captured_by": self.captured_by,
                "fortification": None if self.fortification is None else self.fortification.to_json()}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Pillar:
        f = d["fortification"]
        return cls(str(d["kind"]), None if d["captured_by"] is None else int(d["captured_by"]),
                   None if f is None else PillarRef.from_json(f))


@dataclass
class Player:
    """One seat: hand (secret), beads, four own pillars, captured pillars set aside."""

    hand: list[str] = field(default_factory=list)
    """Card ids held (secret to everyone else)."""
    beads: int = 0
    pillars: dict[str, Pillar] = field(default_factory=lambda: {k: Pillar(k) for k in PILLARS})
    """The player's own pillar cards, keyed by kind, in :data:`PILLARS` order."""
    stash: list[PillarRef] = field(default_factory=list)
    """Captured pillar cards set aside: no benefit, but never captured again."""
    heathen_since: int | None = None
    """The turn in which the player became a godless heathen (None: not a heathen)."""

    def active_pillars(self) -> list[str]:
        return [k for k, p in self.pillars.items() if p.active]

    def captured(self) -> list[PillarRef]:
        """Every captured pillar card this player holds: stashed ones and fortifications."""
        out = list(self.stash)
        out.extend(p.fortification for p in self.pillars.values() if p.fortification is not None)
        return out

    def to_json(self) -> dict[str, Any]:
        return {"hand": list(self.hand), "beads": self.beads,
                "pillars": [p.to_json() for p in self.pillars.values()],
                "stash": [r.to_json() for r in self.stash], "heathen_since": self.heathen_since}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Player:
        pillars = [Pillar.from_json(p) for p in d["pillars"]]
        return cls([str(x) for x in d["hand"]], int(d["beads"]), {p.kind: p for p in pillars},
                   [PillarRef.from_json(r) for r in d["stash"]],
                   None if d["heathen_since"] is None else int(d["heathen_since"]))


@dataclass
class GodState:
    """A god card: in the temple (``holder is None``) or held by a seat with its favour."""

    key: str
    """The god's pillar (see :data:`rules.petition.content.GODS`)."""
    holder: int | None = None
    bonus: int = 0
    """3 (full side up) or 1 (mono-colour side up) while held; 0 in the temple."""
    lock: list[str] | None = None
    """A card lock from the Challenger chart: the citizens the holder bid (public since the reveal,
    set aside with the god); in its battle the holder may use only these, plus powerups. None: no
    lock."""
    since: int = 0
    """The turn in which the favour was won; it lasts until the end of the holder's next turn."""

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "holder": self.holder, "bonus": self.bonus,
                "lock": None if self.lock is None else list(self.lock), "since": self.since}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> GodState:
        return cls(str(d["key"]), None if d["holder"] is None else int(d["holder"]), int(d["bonus"]),
                   None if d["lock"] is None else [str(x) for x in d["lock"]], int(d["since"]))


@dataclass
class Bid:
    """One side of a petition duel: the beads it offered and the citizens it bids face down."""

    seat: int
    beads: int
    cards: list[str] | None = None
    """Citizens of the petitioned god bid face down (secret until both sides have bid); None until
    sent."""
    standing: list[str] = field(default_factory=list)
    """A holder's citizens from the duels it has won in this petition (revealed, still on the
    table): they stand against the next challenger, together with any it adds face down."""

    def bid_cards(self) -> list[str]:
        """Every citizen in this side's bid: the standing ones and the new face-down ones."""
        return self.standing + (self.cards or [])

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "beads": self.beads,
                "cards": None if self.cards is None else list(self.cards),
                "standing": list(self.standing)}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Bid:
        c = d["cards"]
        return cls(int(d["seat"]), int(d["beads"]), None if c is None else [str(x) for x in c],
                   [str(x) for x in d["standing"]])


@dataclass
class Petition:
    """A petition under way, from the offer to the last challenger resolved."""

    petitioner: int
    god: str
    stage: str = "offer"
    """``"offer"`` (the petitioner chooses how many beads), ``"challenge"`` (every other seat
    decides at once whether to counter-offer), ``"respond"`` (the holder withdraws or meets the
    next challenger), ``"bid"`` (both sides bid citizens face down at the same time)."""
    answers: dict[int, int] = field(default_factory=dict)
    """``"challenge"``: seats that have answered → their counter-offer (0: no challenge)."""
    challengers: list[int] = field(default_factory=list)
    """Challengers still to face, in seat order after the petitioner (the first is the current one)."""
    holder: Bid | None = None
    """The side holding the petition now: the petitioner, then each duel's winner."""
    challenger: Bid | None = None
    """The side challenging it now (stages ``"respond"`` and ``"bid"``)."""
    refundable: bool = True
    """True while the holder's beads still sit on the god card (no duel revealed yet): withdrawing
    gets them back. After a reveal the god has taken them."""
    duels: int = 0
    """Duels revealed so far in this petition."""
    result_bonus: int = 0
    """The bonus the holder has won so far (the last duel's chart result; 0 before any)."""
    result_lock: list[str] | None = None
    """The card lock the holder has won so far (the last duel's: its standing citizens), or None."""

    def to_json(self) -> dict[str, Any]:
        return {"petitioner": self.petitioner, "god": self.god, "stage": self.stage,
                "answers": {str(k): v for k, v in sorted(self.answers.items())},
                "challengers": list(self.challengers),
                "holder": None if self.holder is None else self.holder.to_json(),
                "challenger": None if self.challenger is None else self.challenger.to_json(),
                "refundable": self.refundable, "duels": self.duels,
                "result_bonus": self.result_bonus,
                "result_lock": None if self.result_lock is None else list(self.result_lock)}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Petition:
        return cls(int(d["petitioner"]), str(d["god"]), str(d["stage"]),
                   {int(k): int(v) for k, v in d["answers"].items()},
                   [int(x) for x in d["challengers"]],
                   None if d["holder"] is None else Bid.from_json(d["holder"]),
                   None if d["challenger"] is None else Bid.from_json(d["challenger"]),
                   bool(d["refundable"]), int(d["duels"]), int(d["result_bonus"]),
                   None if d["result_lock"] is None else [str(x) for x in d["result_lock"]])


@dataclass
class Campaign:
    """An attack on one pillar, from the face-down cards to the placing of the captured card."""

    attacker: int
    defender: int
    pillar: str
    """The kind of the defender's pillar under attack."""
    stage: str = "gather"
    """``"gather"`` (both sides lay cards face down at the same time), ``"battle"`` (the sides take
    turns adding cards or passing), ``"done"`` (tallied; placing or claiming follows)."""
    attack: list[str] = field(default_factory=list)
    """The attacker's cards on the table (secret while gathering, unless locked)."""
    defend: list[str] = field(default_factory=list)
    attack_ready: bool = False
    """The attacker's face-down cards are down (always True for a locked attacker)."""
    defend_ready: bool = False
    attack_locked: bool = False
    """The attacker holds a card lock: its citizens are the locked ones, it adds only powerups."""
    defend_locked: bool = False
    to_act: int = 0
    """``"battle"``: the seat whose turn it is to add cards or pass (the attacker first)."""
    passes: int = 0
    """``"battle"``: passes in a row; two end the battle."""
    attack_bonus: int = 0
    """The attacker's god bonus in this battle (fixed when the campaign starts)."""
    defend_bonus: int = 0
    """The defender's god bonus in this battle (fixed when the campaign starts)."""
    surrendered: bool = False
    attack_total: int | None = None
    """Set by the tally (public)."""
    defend_total: int | None = None
    licence: str | None = None
    """The god whose favour let the attacker campaign (it returns to the temple after the battle);
    None for a heathen's attack."""

    def to_json(self) -> dict[str, Any]:
        return {"licence": self.licence, "attacker": self.attacker, "defender": self.defender, "pillar": self.pillar,
                "stage": self.stage, "attack": list(self.attack), "defend": list(self.defend),
                "attack_ready": self.attack_ready, "defend_ready": self.defend_ready,
                "attack_locked": self.attack_locked, "defend_locked": self.defend_locked,
                "to_act": self.to_act, "passes": self.passes, "attack_bonus": self.attack_bonus,
                "defend_bonus": self.defend_bonus, "surrendered": self.surrendered,
                "attack_total": self.attack_total, "defend_total": self.defend_total}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Campaign:
        return cls(int(d["attacker"]), int(d["defender"]), str(d["pillar"]), str(d["stage"]),
                   [str(x) for x in d["attack"]], [str(x) for x in d["defend"]],
                   bool(d["attack_ready"]), bool(d["defend_ready"]), bool(d["attack_locked"]),
                   bool(d["defend_locked"]), int(d["to_act"]), int(d["passes"]),
                   int(d["attack_bonus"]), int(d["defend_bonus"]), bool(d["surrendered"]),
                   None if d["attack_total"] is None else int(d["attack_total"]),
                   None if d["defend_total"] is None else int(d["defend_total"]),
                   None if d["licence"] is None else str(d["licence"]))


@dataclass
class SoloBattle:
    """The solo game's battle against one pillar."""

    pillar: str
    played: list[str] = field(default_factory=list)
    """The player's cards on the table (public once played)."""
    revealed: list[str] = field(default_factory=list)
    """Fortification cards turned up from the pillar's stack."""
    favoured: str | None = None
    """Who won the god's +3 favour by the lower power: ``"player"``, ``"pillar"`` or None (a tie)."""

    def to_json(self) -> dict[str, Any]:
        return {"pillar": self.pillar, "played": list(self.played), "revealed": list(self.revealed),
                "favoured": self.favoured}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> SoloBattle:
        return cls(str(d["pillar"]), [str(x) for x in d["played"]], [str(x) for x in d["revealed"]],
                   None if d["favoured"] is None else str(d["favoured"]))


@dataclass
class Solo:
    """The solo game's opponent: four pillars, each on a face-down fortification stack."""

    stacks: dict[str, list[str]] = field(default_factory=dict)
    """Pillar kind → its fortification stack (top first, face down: secret to the player too).
    A captured pillar's key is gone."""
    captured: list[str] = field(default_factory=list)
    """Pillar kinds the player has taken, in order."""
    battle: SoloBattle | None = None
    tithe_card: str | None = None
    """At a reset with a god's favour: the card the god drew (public), to be matched."""
    tithe_god: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"stacks": {k: list(v) for k, v in self.stacks.items()},
                "captured": list(self.captured),
                "battle": None if self.battle is None else self.battle.to_json(),
                "tithe_card": self.tithe_card, "tithe_god": self.tithe_god}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Solo:
        b = d["battle"]
        return cls({str(k): [str(x) for x in v] for k, v in d["stacks"].items()},
                   [str(x) for x in d["captured"]], None if b is None else SoloBattle.from_json(b),
                   None if d["tithe_card"] is None else str(d["tithe_card"]),
                   None if d["tithe_god"] is None else str(d["tithe_god"]))


@dataclass
class PetitionState:
    players: int
    rng: Rng
    seats: list[Player]
    deck: list[str]
    """Card ids, top first (secret order)."""
    discard: list[str] = field(default_factory=list)
    temple: int = 0
    """Prayer beads in the centre (the finite supply; beads paid to the gods return here)."""
    gods: dict[str, GodState] = field(default_factory=dict)
    """Keyed by pillar, in :data:`PILLARS` order."""
    turn_seat: int = 0
    """Whose turn it is."""
    turn: int = 1
    round: int = 1
    phase: str = "turn"
    """``"turn"`` (choose the turn's action), ``"extra"`` (after drawing: swap, buy or end),
    ``"petition"`` (see :attr:`petition`), ``"campaign"`` (see :attr:`campaign`), ``"place"``
    (fortify or stash a captured pillar), ``"claim"`` (winner takes all: the defender picks an
    attacker's pillar), ``"over"``. Solo: ``"solo_turn"``, ``"solo_attack"``, ``"solo_add"``,
    ``"tithe"``, ``"over"``."""
    petition: Petition | None = None
    campaign: Campaign | None = None
    placing: list[PillarRef] = field(default_factory=list)
    """``"place"``: captured pillar cards still to fortify or stash (the first is asked now)."""
    placer: int | None = None
    """``"place"``/``"claim"``: who decides."""
    winner_takes_all: bool = False
    """Table option: a victorious defender takes one of the attacker's pillars."""
    last_man_standing: bool = False
    """Table option: play on until only one player has active pillars."""
    challenge_window: int = 1800
    """Seconds a challenge window stays open at most (table option ``challenge_window``, minutes)."""
    round_limit: int = 40
    """Table option: the game ends after this many rounds (tie-breaks decide)."""
    last_reveal: RevealView | None = None
    """Public record of the last reveal (a petition duel or a campaign's cards), for the board."""
    over_reason: str = ""
    solo: Solo | None = None
    """The solo game (one seat), else None."""
    rules: int = 2
    """The rules revision the game was set up with (see :data:`rules.petition.engine.RULES`): 1,
    Herald's first reading (games stored before revision 2 keep it); 2, the rulebook's where it is
    explicit. Fixed at setup, so a game keeps the rules it started with."""
    stand: int = 0
    """What an active pillar card adds to its own defence when the defender lays a card (table
    option ``pillar_stand``; 0 by default, 3 in revision 1)."""

    def __deepcopy__(self, memo: dict[int, Any]) -> PetitionState:
        # a pickle round trip copies the nested dataclasses several times faster than deepcopy
        twin: PetitionState = pickle.loads(pickle.dumps(self, pickle.HIGHEST_PROTOCOL))
        memo[id(self)] = twin
        return twin

    def draw(self) -> str | None:
        """Take the top card of the deck, shuffling the discard pile in when the deck is empty;
        None when no card is left anywhere."""
        if not self.deck and self.discard:
            self.deck = list(self.discard)
            self.discard = []
            self.rng.shuffle(self.deck)
        if not self.deck:
            return None
        return self.deck.pop(0)

    def to_json(self, schema_version: int) -> dict[str, Any]:
        return {
            "schema_version": schema_version,
            "players": self.players,
            "rng": self.rng.to_json(),
            "seats": [p.to_json() for p in self.seats],
            "deck": list(self.deck),
            "discard": list(self.discard),
            "temple": self.temple,
            "gods": [g.to_json() for g in self.gods.values()],
            "turn_seat": self.turn_seat,
            "turn": self.turn,
            "round": self.round,
            "phase": self.phase,
            "petition": None if self.petition is None else self.petition.to_json(),
            "campaign": None if self.campaign is None else self.campaign.to_json(),
            "placing": [r.to_json() for r in self.placing],
            "placer": self.placer,
            "winner_takes_all": self.winner_takes_all,
            "last_man_standing": self.last_man_standing,
            "challenge_window": self.challenge_window,
            "round_limit": self.round_limit,
            "last_reveal": self.last_reveal,
            "over_reason": self.over_reason,
            "solo": None if self.solo is None else self.solo.to_json(),
            "rules": self.rules,
            "stand": self.stand,
        }

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> PetitionState:
        gods = [GodState.from_json(g) for g in d["gods"]]
        return cls(
            players=int(d["players"]),
            rng=Rng.from_json(d["rng"]),
            seats=[Player.from_json(p) for p in d["seats"]],
            deck=[str(x) for x in d["deck"]],
            discard=[str(x) for x in d["discard"]],
            temple=int(d["temple"]),
            gods={g.key: g for g in gods},
            turn_seat=int(d["turn_seat"]),
            turn=int(d["turn"]),
            round=int(d["round"]),
            phase=str(d["phase"]),
            petition=None if d["petition"] is None else Petition.from_json(d["petition"]),
            campaign=None if d["campaign"] is None else Campaign.from_json(d["campaign"]),
            placing=[PillarRef.from_json(r) for r in d["placing"]],
            placer=None if d["placer"] is None else int(d["placer"]),
            winner_takes_all=bool(d["winner_takes_all"]),
            last_man_standing=bool(d["last_man_standing"]),
            challenge_window=int(d["challenge_window"]),
            round_limit=int(d["round_limit"]),
            last_reveal=d["last_reveal"],
            over_reason=str(d["over_reason"]),
            solo=None if d["solo"] is None else Solo.from_json(d["solo"]),
            rules=int(d["rules"]),
            stand=int(d["stand"]),
        )


def upgrade(d: Mapping[str, Any]) -> dict[str, Any]:
    """A stored schema-1 state in the schema-2 layout: a game set up before rules revision 2 keeps
    Herald's first reading (revision 1) and its pillars' stand of 3."""
    out = dict(d)
    out.setdefault("rules", 1)
    out.setdefault("stand", 3)
    return out
