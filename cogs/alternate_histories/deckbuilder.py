"""The deck builder's rules of thumb, without Discord: a saved deck's data, adding and removing
cards, the errors of a deck, its code, and its list by era.

A saved deck's ``data`` is ``{"nation": key, "governance": key, "cards": {card id: copies}}``.
Whether a deck is legal is the card pool's business (``validate_deck`` reports every error at
once); the builder only refuses what can never make sense — an unknown card, a count below 1, and
going past the deck's size — so a deck being built may be illegal for a while, and ``/deck
validate`` says why. Everything is read from the content module given (the game's
``rules.alternate_histories.content``, or a small stand-in in tests).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from functools import cached_property
from types import ModuleType
from typing import Any

from bot.errors import TableError
from rules.text import count

JSON = dict[str, Any]

ERAS = ("Chemical", "Mechanical", "Atomic", "Digital", "Singularity")
DECK_SIZE = 40
MAX_ADD = 10
"""Copies added or removed by one command (a typo of 100 is refused, not half-applied)."""


def _attr(obj: Any, name: str, default: Any = None) -> Any:
    if isinstance(obj, Mapping):
        return obj.get(name, default)
    return getattr(obj, name, default)


def era_name(era: Any) -> str:
    """An era as a word, whether the content gives its index or its name."""
    if isinstance(era, int) and not isinstance(era, bool) and 0 <= era < len(ERAS):
        return ERAS[era]
    text = str(era or "").strip()
    return text[:1].upper() + text[1:] if text else "Unknown"


def era_index(era: Any) -> int:
    name = era_name(era)
    return ERAS.index(name) if name in ERAS else len(ERAS)


class Pool:
    """The content a builder works with, indexed once."""

    def __init__(self, content: Any) -> None:
        self.content = content

    @cached_property
    def cards(self) -> dict[str, Any]:
        raw = self.content.CARDS
        return dict(raw) if isinstance(raw, Mapping) else {c.id: c for c in raw}

    def _keyed(self, raw: Any) -> dict[str, Any]:
        if isinstance(raw, Mapping):
            return dict(raw)
        return {str(_attr(x, "key", _attr(x, "id"))): x for x in raw}

    @cached_property
    def nations(self) -> dict[str, Any]:
        return self._keyed(self.content.NATIONS)

    @cached_property
    def governances(self) -> dict[str, Any]:
        return self._keyed(self.content.GOVERNANCES)

    @cached_property
    def ready(self) -> dict[str, tuple[str, str, list[str]]]:
        return {k: (str(v[0]), str(v[1]), list(v[2])) for k, v in self.content.READY_DECKS.items()}

    @property
    def deck_size(self) -> int:
        return int(getattr(self.content, "DECK_SIZE", DECK_SIZE))

    def name_of(self, table: Mapping[str, Any], key: str) -> str:
        item = table.get(key)
        return str(_attr(item, "name", key)) if item is not None else key

    def nation_name(self, key: str) -> str:
        return self.name_of(self.nations, key)

    def governance_name(self, key: str) -> str:
        return self.name_of(self.governances, key)

    def ready_label(self, key: str) -> str:
        nation, governance, _ = self.ready[key]
        return f"{self.nation_name(nation)} · {self.governance_name(governance)}"

    # ----------------------------------------------------------------- lookups

    @staticmethod
    def _find(table: Mapping[str, Any], raw: str, what: str, command: str) -> str:
        text = " ".join(raw.casefold().split())
        for key, item in table.items():
            if text in (key.casefold(), str(_attr(item, "name", key)).casefold()):
                return key
        names = ", ".join(str(_attr(v, "name", k)) for k, v in table.items())
        raise TableError(f"there is no {what} “{raw.strip()[:40]}”; choose one of {names}"
                         f"{command}.")

    def nation(self, raw: str) -> str:
        return self._find(self.nations, raw, "nation", "")

    def governance(self, raw: str) -> str:
        return self._find(self.governances, raw, "governance", "")

    def card(self, raw: str) -> str:
        """A card id from its id or its name (case aside); a refusal suggesting close names."""
        cards = self.cards
        text = raw.strip()
        if text in cards:
            return text
        folded = " ".join(text.casefold().split())
        for cid, c in cards.items():
            if folded in (cid.casefold(), str(c.name).casefold()):
                return cid
        near = [str(c.name) for c in cards.values() if folded and folded in str(c.name).casefold()][:3]
        hint = (" Did you mean " + " or ".join(f"“{n}”" for n in near) + "?") if near else \
            " Type part of its name and pick it from the list."
        raise TableError(f"there is no card “{text[:40]}”.{hint}")

    def ready_key(self, raw: str) -> str:
        ready = self.ready
        text = " ".join(raw.casefold().split())
        for key in ready:
            if text in (key.casefold(), self.ready_label(key).casefold()):
                return key
        raise TableError(f"there is no ready-made deck “{raw.strip()[:40]}”; pick one from the list "
                         "(a nation and a governance, such as "
                         f"{self.ready_label(next(iter(ready)))})." if ready else
                         "there are no ready-made decks.")

    def search(self, typed: str, era: str | None = None, kind: str | None = None,
               limit: int = 25) -> list[Any]:
        """Cards whose name contains ``typed``, of the era and kind if given, by era and name."""
        folded = " ".join(typed.casefold().split())
        out = [c for c in self.cards.values()
               if (not folded or folded in str(c.name).casefold() or folded == c.id.casefold())
               and (era is None or era_name(c.era).casefold() == era.casefold())
               and (kind is None or str(c.kind).casefold() == kind.casefold())]
        out.sort(key=lambda c: (era_index(c.era), str(c.name)))
        return out[:limit]

    # ----------------------------------------------------------------- decks

    def new(self, nation: str, governance: str, cards: Iterable[str] = ()) -> JSON:
        return {"nation": nation, "governance": governance, "cards": dict(sorted(Counter(cards).items()))}

    @staticmethod
    def card_list(data: Mapping[str, Any]) -> list[str]:
        """The deck's cards, one id per copy (the form the content's functions take)."""
        return [cid for cid, n in sorted(dict(data.get("cards", {})).items()) for _ in range(int(n))]

    def size(self, data: Mapping[str, Any]) -> int:
        return sum(int(n) for n in dict(data.get("cards", {})).values())

    def add(self, data: Mapping[str, Any], card_id: str, copies: int = 1) -> tuple[JSON, str]:
        """The deck with ``copies`` more of the card, and what was done in words."""
        if not 1 <= copies <= MAX_ADD:
            raise TableError(f"add between 1 and {MAX_ADD} copies at a time (not {copies}).")
        size = self.size(data)
        room = self.deck_size - size
        name = str(self.cards[card_id].name)
        if room <= 0:
            raise TableError(f"the deck is full ({self.deck_size} cards): remove a card before "
                             f"adding {name}.")
        if copies > room:
            raise TableError(f"the deck has room for {count(room, 'more card', 'more cards')} "
                             f"({size} of {self.deck_size}): add {room} or fewer copies of {name}.")
        cards = dict(data.get("cards", {}))
        cards[card_id] = int(cards.get(card_id, 0)) + copies
        new = {**data, "cards": dict(sorted(cards.items()))}
        return new, (f"added {copies} × {name} ({cards[card_id]} in the deck; "
                     f"{size + copies} of {self.deck_size} cards).")

    def remove(self, data: Mapping[str, Any], card_id: str, copies: int = 1) -> tuple[JSON, str]:
        if not 1 <= copies <= MAX_ADD:
            raise TableError(f"remove between 1 and {MAX_ADD} copies at a time (not {copies}).")
        cards = dict(data.get("cards", {}))
        have = int(cards.get(card_id, 0))
        name = str(self.cards[card_id].name) if card_id in self.cards else card_id
        if have == 0:
            raise TableError(f"the deck holds no {name} to remove.")
        if copies > have:
            raise TableError(f"the deck holds only {have} × {name}: remove {have} or fewer.")
        left = have - copies
        if left:
            cards[card_id] = left
        else:
            del cards[card_id]
        new = {**data, "cards": dict(sorted(cards.items()))}
        return new, (f"removed {copies} × {name} ({left} left; {self.size(new)} of "
                     f"{self.deck_size} cards).")

    def errors(self, data: Mapping[str, Any]) -> list[str]:
        """Every rule the deck breaks (the card pool's own sentences); empty: ready to play."""
        unknown = sorted(c for c in dict(data.get("cards", {})) if c not in self.cards)
        if unknown:  # (a card taken out of the pool since the deck was saved)
            return [f"Cards no longer in the pool: {', '.join(unknown)}; remove them."]
        return list(self.content.validate_deck(data["nation"], data["governance"], self.card_list(data)))

    def code(self, data: Mapping[str, Any]) -> str:
        return str(self.content.encode_deck(data["nation"], data["governance"], self.card_list(data)))

    def decode(self, code: str) -> JSON:
        """A deck's data from its code; a refusal with the pool's sentence for a bad code."""
        try:
            nation, governance, cards = self.content.decode_deck(code.strip())
        except ValueError as exc:  # (the pool's own sentence says what is wrong with it)
            raise TableError(str(exc).strip() or "that is not a deck code.") from None
        return self.new(str(nation), str(governance), [str(c) for c in cards])

    def from_ready(self, key: str) -> JSON:
        nation, governance, cards = self.ready[key]
        return self.new(nation, governance, cards)

    # ----------------------------------------------------------------- texts

    def by_era(self, data: Mapping[str, Any]) -> list[tuple[str, list[tuple[Any, int]]]]:
        """(era, [(card, copies)]) in era order, cards by name; unknown ids last."""
        cards = self.cards
        groups: dict[int, list[tuple[Any, int]]] = {}
        for cid, n in dict(data.get("cards", {})).items():
            card = cards.get(cid)
            idx = era_index(card.era) if card is not None else len(ERAS) + 1
            groups.setdefault(idx, []).append((card if card is not None else cid, int(n)))
        out = []
        for idx in sorted(groups):
            rows = sorted(groups[idx], key=lambda r: str(_attr(r[0], "name", r[0])))
            out.append((ERAS[idx] if idx < len(ERAS) else "Not in the pool", rows))
        return out

    def summary(self, name: str, data: Mapping[str, Any], errors: Sequence[str] | None = None) -> str:
        """The deck in text: nation, governance, size, each era's cards with counts, its state."""
        errs = self.errors(data) if errors is None else list(errors)
        lines = [f"**{name}** — {self.nation_name(data['nation'])}, "
                 f"{self.governance_name(data['governance'])}: {self.size(data)} of "
                 f"{self.deck_size} cards."]
        for era, rows in self.by_era(data):
            total = sum(n for _, n in rows)
            items = ", ".join(f"{n}× {_attr(c, 'name', c)}" for c, n in rows)
            lines.append(f"**{era}** ({total}): {items}")
        if errs:
            lines.append(f"⚠️ Not ready to play ({count(len(errs), 'problem')}; "
                         "`/deck validate` lists them).")
        else:
            lines.append("✅ Ready to play.")
        return "\n".join(lines)


def pool(content: ModuleType | Any | None = None) -> Pool:
    """The builder over ``content`` (default: the game's own card pool)."""
    if content is None:
        from rules.alternate_histories import content as real

        content = real
    return Pool(content)
