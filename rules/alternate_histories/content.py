"""Herald's authored Alternate Histories content, loaded from ``cards.json`` and ``decks.json``.

The rulebook names the eras, keywords, nations and governances but publishes no card list, so
Herald authors the whole pool (see "Herald's own content" in the rules page). Cards are data: a
handful of numbers, keywords, a cost and a list of abilities, each ability a ``trigger`` plus an
``effect`` from the small library the engine interprets (``EFFECTS``). Nothing here knows a card
by name, so a new card is a line of JSON, not new code.

This module is also the deck builder's API: :func:`validate_deck` reports every broken rule at
once, :func:`encode_deck` / :func:`decode_deck` turn a deck into a short text code and back, and
:func:`search_cards` filters the pool.
"""

from __future__ import annotations

import base64
import json
import zlib
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

ERAS: tuple[str, ...] = ("chemical", "mechanical", "atomic", "digital", "singularity")
"""The five eras in order: a player's era tracker is the index into this tuple."""
ERA_NAMES: dict[str, str] = {e: e.capitalize() for e in ERAS}
KINDS: tuple[str, ...] = ("unit", "infrastructure", "resource", "event")
KIND_NAMES: dict[str, str] = {"unit": "Unit", "infrastructure": "Infrastructure",
                              "resource": "Resource", "event": "Event"}

KEYWORDS: dict[str, tuple[str, str]] = {
    "air": ("Air", "May attack naval units."),
    "espionage": ("Espionage", "Attacks and is attacked only by espionage units; never triggers "
                               "Nuclear retaliation."),
    "naval": ("Naval", "Attacks only naval units or the opponent; only naval or air units may "
                       "attack it."),
    "nuclear": ("Nuclear", "An attack on you or on this unit that it survives makes the attacker "
                           "lose; when it hits the opponent, they burn 3 cards."),
    "precision_strike": ("Precision Strike", "No effect of its own; other cards let it attack "
                                             "espionage units."),
    "rapid_deployment": ("Rapid Deployment", "May be deployed in the events phase and attack "
                                             "that turn."),
    "reorder": ("Reorder", "When it hits the opponent, instead of milling, look at the top X "
                           "cards of their deck and put them back in any order."),
    "submarine": ("Submarine", "Fleeing does not tap it."),
    "tokenize_hand": ("Tokenize-✋", "Places cards from your hand face down as units or "
                                    "resources (you may look at them, the opponent may not)."),
    "tokenize_deck": ("Tokenize-⚙️", "Places cards from the top of your deck face down as units "
                                     "or resources."),
    "station": ("Station", "Your units may be stationed on this infrastructure when built; a "
                           "stationed unit may always intercept attacks on it."),
}
"""Machine name → (printed name, reminder text) of every keyword a card may carry."""

TRIGGERS: frozenset[str] = frozenset({"play", "untap", "kill", "passive"})
"""When an ability acts: ``play`` (the card resolves or enters play), ``untap`` (the start of
each of its owner's turns), ``kill`` (the unit destroys an enemy unit in combat), ``passive``
(a standing rule while the permanent is in play)."""

EFFECTS: dict[str, frozenset[str]] = {
    "draw": frozenset({"play", "kill"}),
    "recover": frozenset({"play", "untap"}),
    "mill_opponent": frozenset({"play", "kill"}),
    "scout": frozenset({"play"}),
    "academic": frozenset({"play", "untap"}),
    "compute": frozenset({"play", "untap"}),
    "strike": frozenset({"play"}),
    "tokenize_hand": frozenset({"play"}),
    "tokenize_deck": frozenset({"play"}),
    "rally": frozenset({"play"}),
    "end_game": frozenset({"play"}),
    "spy_hunt": frozenset({"play", "passive"}),
    "boost": frozenset({"passive"}),
    "discount": frozenset({"passive"}),
    "salvage": frozenset({"passive"}),
    "radar": frozenset({"passive"}),
}
"""The effect library: effect name → the triggers it may be used with."""

ABILITY_KEYS: dict[str, frozenset[str]] = {
    "strike": frozenset({"scope"}),
    "tokenize_hand": frozenset({"make", "power", "mobility"}),
    "tokenize_deck": frozenset({"make", "power", "mobility"}),
    "end_game": frozenset({"mode"}),
    "boost": frozenset({"scope"}),
    "discount": frozenset({"scope"}),
}
"""Extra keys (beyond trigger, effect, amount) each effect reads; any other key is refused."""

SCOPES: dict[str, frozenset[str]] = {
    "strike": frozenset({"land", "any"}),
    "boost": frozenset({"any", "naval", "attack"}),
    "discount": frozenset({"unit", "economy"}),
}
"""The scopes an effect understands: ``strike`` hits land units only or units and
infrastructure; ``boost`` applies to every unit, naval units, or attackers; ``discount`` lowers
the ✋ of units, or of infrastructure, resources and events (``economy``)."""

NATION_EFFECTS: dict[str, frozenset[str]] = {
    "mobility": frozenset({"air", "naval"}),
    "burn": frozenset({""}),
    "power": frozenset({"naval", "rapid_attack", "defence"}),
    "tie": frozenset({"", "attack"}),
    "fortress": frozenset({""}),
    "arsenal": frozenset({"air", "naval"}),
}
"""The national traits the engine knows: kind → the scopes it reads (``mobility`` for units
with that keyword; ``burn``, the cards burned per reshuffle; ``power`` for naval units, Rapid
Deployment units attacking, or everything defending; ``tie``, ties won, plus attack power with
the ``attack`` scope; ``fortress``, defence power plus interception at equal mobility;
``arsenal``, +1 mobility and the amount in power for units with the scope's keyword)."""
GOVERNANCE_EFFECTS: dict[str, frozenset[str]] = {
    "discount": frozenset({"market"}),
    "power": frozenset({"small_units"}),
    "mill": frozenset({"first"}),
}
"""The governance traits the engine knows: kind → the scopes it reads (``discount`` of
infrastructure, resources and the first unit of each turn; ``power`` for units of 150 printed
power or less; ``mill``, an extra card milled by the first direct hit of each turn)."""

DECK_SIZE = 40
HAND_SIZE = 7
DEFAULT_COPIES = 4


@dataclass(frozen=True)
class Cost:
    """What playing a card costs: ✋ discards from hand, cards milled from the own deck, and
    Academic and Compute tokens spent."""

    discard: int = 0
    mill: int = 0
    academic: int = 0
    compute: int = 0

    def text(self) -> str:
        """The cost in short words, e.g. ``"✋✋ + mill 1"`` (``"free"`` when nothing)."""
        parts = []
        if self.discard:
            parts.append("✋" * self.discard)
        if self.mill:
            parts.append(f"mill {self.mill}")
        if self.academic:
            parts.append(f"{self.academic} Academic")
        if self.compute:
            parts.append(f"{self.compute} Compute")
        return " + ".join(parts) or "free"


@dataclass(frozen=True)
class Ability:
    """One ability of a card: when (``trigger``) it does what (``effect``, ``amount``)."""

    trigger: str
    effect: str
    amount: int = 0
    scope: str = ""
    """What a ``strike``, ``boost`` or ``discount`` applies to (see :data:`SCOPES`)."""
    make: str = ""
    """Tokenize effects: ``"unit"`` or ``"resource"`` (a Reserve)."""
    power: int = 0
    mobility: int = 0
    mode: str = ""
    """``end_game``: ``"win"`` (the player wins) or ``"count"`` (more cards left wins)."""


@dataclass(frozen=True)
class Card:
    """One card of the pool (a deck holds card ids, with repeats)."""

    id: str
    name: str
    era: str
    kind: str
    power: int
    mobility: int
    value: int
    """The 1–100 combat value printed at the bottom: what the card adds when it is the top card
    of a deck in a combat roll."""
    keywords: tuple[str, ...]
    cost: Cost
    text: str
    """The printed text: written from the keywords and abilities by :func:`card_text` (so it
    always says what the engine does), then the card's flavour line."""
    nations: tuple[str, ...]
    governances: tuple[str, ...]
    num: int = 0
    """Stable number used by deck codes (never reused)."""
    reorder: int = 0
    """X of Reorder X (0 without the keyword)."""
    station: int = 0
    """How many units may be stationed on this infrastructure (0 without the keyword)."""
    limit: int = DEFAULT_COPIES
    """Most copies of this card a deck may hold (the governance may lower it further)."""
    abilities: tuple[Ability, ...] = field(default=())

    @property
    def era_index(self) -> int:
        return ERAS.index(self.era)

    def keyword_labels(self) -> list[str]:
        """Printed keyword names, with X for Reorder and Station."""
        out = []
        for k in self.keywords:
            label = KEYWORDS[k][0]
            if k == "reorder":
                label += f" {self.reorder}"
            elif k == "station":
                label += f" {self.station}"
            out.append(label)
        return out


@dataclass(frozen=True)
class Nation:
    key: str
    name: str
    trait: str
    restriction: str = ""
    """The deck restriction, in words."""
    effect: Mapping[str, Any] = field(default_factory=dict, hash=False)
    rules: Mapping[str, Any] = field(default_factory=dict, hash=False)


@dataclass(frozen=True)
class Governance:
    key: str
    name: str
    text: str
    restriction: str = ""
    effect: Mapping[str, Any] = field(default_factory=dict, hash=False)
    rules: Mapping[str, Any] = field(default_factory=dict, hash=False)


SWITCH_BURN = 3
"""The price of switching governance mid-game: burn this many cards from the top of the deck."""

CARD_KEYS = frozenset({"num", "id", "name", "era", "kind", "power", "mobility", "value", "keywords",
                       "cost", "reorder", "station", "limit", "nations", "governances",
                       "abilities", "flavor"})
COST_KEYS = frozenset({"discard", "mill", "academic", "compute"})


def _read(name: str) -> Any:
    return json.loads(resources.files(__package__).joinpath(name).read_text(encoding="utf-8"))


def _cards(n: int, what: str = "card") -> str:
    return f"a {what}" if n == 1 else f"{n} {what}s"


def _top(n: int, where: str) -> str:
    return f"the top card of {where}" if n == 1 else f"the top {n} cards of {where}"


def ability_text(ab: Ability, kind: str) -> str:
    """The printed sentence of one ability, from its effect and parameters (the one source of a
    card's rules text: the engine reads the same parameters)."""
    n, e = ab.amount, ab.effect
    when = {"untap": "At the start of each of your turns, ", "kill": "When it destroys a unit, ",
            "play": "When it enters play, " if kind != "event" else ""}.get(ab.trigger, "")

    def say(rest: str) -> str:
        return when + (rest[0].lower() if when else rest[0].upper()) + rest[1:] + "."

    if e == "draw":
        return say(f"Draw {_cards(n)}")
    if e == "recover":
        return say(f"Put {_top(n, 'your graveyard')} at the bottom of your deck")
    if e == "mill_opponent":
        return say(f"The opponent mills {n}")
    if e == "scout":
        return say(f"Look at {_top(n, 'the opponent' + chr(39) + 's deck')} and put them back in "
                   "any order")
    if e == "academic":
        return say("Create an Academic" if n == 1 else f"Create {n} Academics")
    if e == "compute":
        extra = " (two from the Digital era on)" if ab.trigger == "untap" and n == 1 else ""
        return say(("Gain a Compute token" if n == 1 else f"Gain {n} Compute tokens") + extra)
    if e == "strike":
        what = ("unit (not naval, not espionage)" if ab.scope == "land"
                else "unit or infrastructure (not espionage)")
        return say(f"Destroy an enemy {what} of power {n} or less")
    if e in ("tokenize_hand", "tokenize_deck"):
        label = KEYWORDS[e][0]
        src = (f"up to {n} cards from your hand" if e == "tokenize_hand"
               else _top(n, "your deck"))
        if ab.make == "unit":
            return f"{label}: place {src} face down as {ab.power}-power, {ab.mobility}-mobility units."
        return (f"{label}: place {src} face down as Reserves (resources). A Reserve may be spent "
                "in place of one ✋.")
    if e == "rally":
        return say(f"Untap your units; they get +{n} power in combat this turn")
    if e == "end_game":
        if ab.mode == "win":
            return say("You win the game")
        return say("The game ends: whoever has more cards in deck and graveyard together wins; on "
                   "a tie, you lose")
    if e == "spy_hunt":
        start = "This turn your" if ab.trigger == "play" else "Your"
        return f"{start} Precision Strike units may attack espionage units."
    if e == "boost":
        whose = "naval units" if ab.scope == "naval" else "units"
        how = "when they attack" if ab.scope == "attack" else "in combat"
        return f"Your {whose} get +{n} power {how}."
    if e == "discount":
        what = "units" if ab.scope == "unit" else "infrastructure, resources and events"
        return f"Your {what} cost {'one' if n == 1 else n} ✋ less."
    if e == "salvage":
        return ("When one of your units is destroyed, put it at the bottom of your deck instead "
                "of your graveyard.")
    if e == "radar":
        return f"Your units intercept as if they had {n} more mobility."
    raise ValueError(f"no text for the effect {e!r}")


def card_text(keywords: Sequence[str], reorder: int, station: int, kind: str, limit: int,
              abilities: Sequence[Ability], flavor: str) -> str:
    """A card's printed text: its keywords (those that Tokenize abilities do not spell out), a
    sentence per ability, "One copy per deck." when limited to one, then the flavour."""
    labels = []
    for k in keywords:
        if k in ("tokenize_hand", "tokenize_deck"):
            continue
        label = KEYWORDS[k][0]
        if k == "reorder":
            label += f" {reorder}"
        elif k == "station":
            label += f" {station}"
        labels.append(label)
    parts = [", ".join(labels) + "."] if labels else []
    parts += [ability_text(ab, kind) for ab in abilities]
    if limit == 1:
        parts.append("One copy per deck.")
    if flavor:
        parts.append(flavor)
    return " ".join(parts)


def _card(c: Mapping[str, Any]) -> Card:
    abilities = tuple(
        Ability(trigger=str(a["trigger"]), effect=str(a["effect"]), amount=int(a["amount"]),
                scope=str(a.get("scope", "")), make=str(a.get("make", "")),
                power=int(a.get("power", 0)), mobility=int(a.get("mobility", 0)),
                mode=str(a.get("mode", "")))
        for a in c["abilities"])
    cost = c["cost"]
    return Card(id=str(c["id"]), name=str(c["name"]), era=str(c["era"]), kind=str(c["kind"]),
                power=int(c["power"]), mobility=int(c["mobility"]), value=int(c["value"]),
                keywords=tuple(str(k) for k in c["keywords"]),
                cost=Cost(int(cost["discard"]), int(cost["mill"]), int(cost["academic"]),
                          int(cost["compute"])),
                text=card_text(tuple(str(k) for k in c["keywords"]), int(c["reorder"]),
                               int(c["station"]), str(c["kind"]), int(c["limit"]), abilities,
                               str(c["flavor"])),
                nations=tuple(c["nations"]), governances=tuple(c["governances"]),
                num=int(c["num"]), reorder=int(c["reorder"]), station=int(c["station"]),
                limit=int(c["limit"]), abilities=abilities)


RAW: dict[str, Any] = _read("cards.json")
"""The data file as read (the schema test checks it key by key)."""
RAW_DECKS: dict[str, Any] = _read("decks.json")

CARDS: dict[str, Card] = {c["id"]: _card(c) for c in RAW["cards"]}
CARDS_BY_NUM: dict[int, Card] = {c.num: c for c in CARDS.values()}
NATIONS: dict[str, Nation] = {
    n["key"]: Nation(n["key"], n["name"], n["trait"], n["restriction"], n["effect"], n["rules"])
    for n in RAW["nations"]}
GOVERNANCES: dict[str, Governance] = {
    g["key"]: Governance(g["key"], g["name"], g["text"], g["restriction"], g["effect"], g["rules"])
    for g in RAW["governances"]}
READY_DECKS: dict[str, tuple[str, str, tuple[str, ...]]] = {
    key: (d["nation"], d["governance"], tuple(d["cards"])) for key, d in RAW_DECKS["decks"].items()}
"""Ready-made decks, e.g. ``"usa-capitalism"`` → (nation, governance, 40 card ids)."""


def ready_deck_name(key: str) -> str:
    """``"usa-capitalism"`` → ``"United States · Capitalism"``."""
    nation, governance, _ = READY_DECKS[key]
    return f"{NATIONS[nation].name} · {GOVERNANCES[governance].name}"


def keyword_count(cards: Sequence[str], keyword: str) -> int:
    return sum(1 for c in cards if c in CARDS and keyword in CARDS[c].keywords)


def kind_count(cards: Sequence[str], kinds: str) -> int:
    """Cards of the kinds ``kinds`` (``"infrastructure+resource"`` counts both)."""
    wanted = kinds.split("+")
    return sum(1 for c in cards if c in CARDS and CARDS[c].kind in wanted)


def _kinds_words(kinds: str) -> str:
    words = {"unit": "units", "infrastructure": "infrastructure", "resource": "resource",
             "event": "events"}
    parts = kinds.split("+")
    if len(parts) > 1:
        return " and ".join(words[p] for p in parts) + " cards"
    return words[parts[0]] + (" cards" if parts[0] in ("infrastructure", "resource") else "")


def copies_allowed(card: Card, governance: str) -> int:
    """The most copies of ``card`` a deck of ``governance`` may hold."""
    g = GOVERNANCES.get(governance)
    per_gov = int(g.rules.get("copies", DEFAULT_COPIES)) if g else DEFAULT_COPIES
    return min(card.limit, per_gov)


def validate_deck(nation: str, governance: str, cards: Sequence[str]) -> list[str]:
    """Every rule the deck breaks, one sentence each naming the rule; ``[]`` when it is valid."""
    n = NATIONS.get(nation)
    g = GOVERNANCES.get(governance)
    errors = _identity_errors(nation, governance)
    if len(cards) != DECK_SIZE:
        errors.append(f"A deck holds exactly {DECK_SIZE} cards; this one has {len(cards)}.")
    counts = Counter(cards)
    for cid in sorted(c for c in counts if c not in CARDS):
        errors.append(f"{cid!r} is not a card of the pool.")
    for cid, k in sorted(counts.items()):
        card = CARDS.get(cid)
        if card is not None:
            errors += _card_errors(card, k, n, g)
    if n is not None:
        errors += _shape_errors(n.name, n.rules, _NATION_SHAPE_RULES, "a national deck rule", cards)
    if g is not None:
        errors += _shape_errors(g.name, g.rules, _GOVERNANCE_SHAPE_RULES, "a governance deck rule",
                                cards)
    return errors


def _identity_errors(nation: str, governance: str) -> list[str]:
    """An unknown nation or governance, each named with the choices there are."""
    errors: list[str] = []
    if nation not in NATIONS:
        errors.append(f"Unknown nation {nation!r}: choose one of "
                      f"{', '.join(NATIONS)}.")
    if governance not in GOVERNANCES:
        errors.append(f"Unknown governance {governance!r}: choose one of "
                      f"{', '.join(GOVERNANCES)}.")
    return errors


def _card_errors(card: Card, k: int, n: Nation | None, g: Governance | None) -> list[str]:
    """What ``k`` copies of ``card`` break: the copy limit, a national card of another nation, a
    card of another governance (a rule is checked only when its nation or governance is known)."""
    errors: list[str] = []
    if g is not None:
        errors += _copies_errors(card, k, g)
    if n is not None and card.nations and n.key not in card.nations:
        owners = " or ".join(NATIONS[x].name for x in card.nations if x in NATIONS)
        errors.append(f"{card.name} is a card of {owners}; national cards stay with their nation, "
                      f"so a {n.name} deck cannot hold it.")
    if g is not None and card.governances and g.key not in card.governances:
        allowed = " or ".join(GOVERNANCES[x].name for x in card.governances if x in GOVERNANCES)
        errors.append(f"{card.name} needs {allowed}; a {g.name} deck cannot hold it.")
    return errors


def _copies_errors(card: Card, k: int, g: Governance) -> list[str]:
    """Too many copies of ``card``, naming the limit that binds: the card's own, the
    governance's, or the rule for every deck."""
    most = copies_allowed(card, g.key)
    if k <= most:
        return []
    per_gov = int(g.rules.get("copies", DEFAULT_COPIES))
    if card.limit < per_gov:
        why = f"{card.name} is limited to {card.limit} per deck"
    elif per_gov < DEFAULT_COPIES:
        why = f"a {g.name} deck may hold at most {most} copies of a card"
    else:
        why = f"a deck may hold at most {most} copies of a card"
    return [f"{card.name} appears {k} times, but {why}."]


@dataclass(frozen=True)
class _ShapeRule:
    """One kind of deck-shape rule a nation or governance sets (``min_kind``: at least so many
    cards of these kinds): how the deck is counted, which way the bound goes, and the words."""

    count: Callable[[Sequence[str], str], int]
    least: bool
    """True: a lower bound ("needs at least"); False: an upper one ("holds at most")."""
    words: Callable[[str], str]


def _keyword_words(kw: str) -> str:
    return f"{KEYWORDS[kw][0].lower()} cards"


_SHAPE_RULES: dict[str, _ShapeRule] = {
    "min_keyword": _ShapeRule(keyword_count, True, _keyword_words),
    "max_keyword": _ShapeRule(keyword_count, False, _keyword_words),
    "min_kind": _ShapeRule(kind_count, True, _kinds_words),
    "max_kind": _ShapeRule(kind_count, False, _kinds_words),
}
_NATION_SHAPE_RULES = ("min_keyword", "max_keyword", "min_kind")
_GOVERNANCE_SHAPE_RULES = ("min_kind", "max_kind")
"""The shape rules each side of a deck may set, in the order they are reported."""


def _shape_errors(owner: str, rules: Mapping[str, Any], keys: Sequence[str], rule: str,
                  cards: Sequence[str]) -> list[str]:
    """The deck-shape rules of ``owner`` (a nation or governance) the deck breaks."""
    errors: list[str] = []
    for key in keys:
        shape = _SHAPE_RULES[key]
        for what, bound in rules.get(key, {}).items():
            have = shape.count(cards, what)
            if shape.least and have < bound:
                errors.append(f"A {owner} deck needs at least {bound} {shape.words(what)} "
                              f"({rule}); this one has {have}.")
            elif not shape.least and have > bound:
                errors.append(f"A {owner} deck holds at most {bound} {shape.words(what)} "
                              f"({rule}); this one has {have}.")
    return errors


# ------------------------------------------------------------------------------- deck codes

CODE_PREFIX = "AH"
_CODE_VERSION = 1


def encode_deck(nation: str, governance: str, cards: Sequence[str]) -> str:
    """A short text code for a deck: ``AH`` + base32 of (version, nation, governance, then for
    each number of copies: that count, how many cards have it, their numbers) + a 16-bit
    checksum. Case and dashes do not matter when decoding.
    Raises ValueError for an unknown nation, governance or card (nothing to encode)."""
    nations = list(NATIONS)
    governances = list(GOVERNANCES)
    if nation not in NATIONS or governance not in GOVERNANCES:
        raise ValueError("Only a deck with a known nation and governance can be turned into a code.")
    unknown = sorted({c for c in cards if c not in CARDS})
    if unknown:
        raise ValueError(f"{unknown[0]!r} is not a card of the pool, so the deck has no code.")
    counts = Counter(cards)
    body = bytearray([_CODE_VERSION, nations.index(nation), governances.index(governance)])
    by_count: dict[int, list[int]] = {}
    for cid, k in counts.items():
        by_count.setdefault(k, []).append(CARDS[cid].num)
    for k, nums in sorted(by_count.items()):
        if k > 255 or len(nums) > 255 or max(nums) > 255:
            raise ValueError("That deck is far too large to turn into a code.")
        body += bytes([k, len(nums), *sorted(nums)])
    crc = zlib.crc32(bytes(body)) & 0xFFFF
    body += bytes([crc >> 8, crc & 0xFF])
    return CODE_PREFIX + base64.b32encode(bytes(body)).decode("ascii").rstrip("=")


def decode_deck(code: str) -> tuple[str, str, list[str]]:
    """The (nation, governance, cards) of a deck code; ValueError with a friendly sentence when
    the code is not one (the deck itself may still break rules: see :func:`validate_deck`)."""
    if not isinstance(code, str):
        raise ValueError("A deck code is a line of text starting with AH.")
    text = "".join(code.split()).replace("-", "").upper()
    if not text.startswith(CODE_PREFIX) or len(text) > 600:
        raise ValueError("That is not a deck code: deck codes start with AH.")
    body = text[len(CODE_PREFIX):]
    try:
        raw = base64.b32decode(body + "=" * (-len(body) % 8))
    except (ValueError, TypeError):
        raise ValueError("That deck code has characters a deck code never holds; "
                         "copy it again in full.") from None
    if len(raw) < 5:
        raise ValueError("That deck code is cut short; copy it again in full.")
    data, check = raw[:-2], raw[-2:]
    if (zlib.crc32(data) & 0xFFFF) != (check[0] << 8 | check[1]):
        raise ValueError("That deck code is damaged or mistyped (its checksum does not match); "
                         "copy it again in full.")
    if data[0] != _CODE_VERSION:
        raise ValueError("That deck code was made by another version of Herald's deck builder.")
    nations = list(NATIONS)
    governances = list(GOVERNANCES)
    if data[1] >= len(nations) or data[2] >= len(governances):
        raise ValueError("That deck code names a nation or governance this Herald does not know.")
    cards: list[str] = []
    i = 3
    while i < len(data):
        if i + 2 > len(data) or i + 2 + data[i + 1] > len(data):
            raise ValueError("That deck code is cut short or too long; copy it again in full.")
        k, n = data[i], data[i + 1]
        for num in data[i + 2:i + 2 + n]:
            card = CARDS_BY_NUM.get(num)
            if card is None:
                raise ValueError(f"That deck code names card number {num}, which this Herald "
                                 "does not know.")
            cards.extend([card.id] * k)
        i += 2 + n
    return nations[data[1]], governances[data[2]], cards


# --------------------------------------------------------------------------------- searching


def search_cards(text: str = "", era: str | None = None, kind: str | None = None) -> list[Card]:
    """Cards whose name, text or keywords contain ``text`` (any case), of ``era`` and ``kind``
    when given; sorted by era, then name."""
    needle = text.strip().lower()
    out = []
    for c in CARDS.values():
        if era is not None and c.era != era:
            continue
        if kind is not None and c.kind != kind:
            continue
        if needle:
            hay = " ".join([c.name, c.text, c.id, *c.keyword_labels()]).lower()
            if needle not in hay:
                continue
        out.append(c)
    out.sort(key=lambda c: (c.era_index, c.name))
    return out


def card_line(card: Card) -> str:
    """One line describing a card for lists: name, era, kind, numbers, keywords, cost."""
    bits = [f"{card.name} ({ERA_NAMES[card.era]} {KIND_NAMES[card.kind].lower()})"]
    if card.kind == "unit":
        bits.append(f"{card.power} power, {card.mobility} mobility")
    elif card.kind == "infrastructure":
        bits.append(f"{card.power} power")
    kws = card.keyword_labels()
    if kws:
        bits.append(", ".join(kws))
    bits.append(f"cost {card.cost.text()}")
    bits.append(f"value {card.value}")
    return " · ".join(bits)
