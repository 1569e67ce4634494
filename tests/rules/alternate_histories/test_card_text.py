"""Card text and effect agree: every card's printed text is written from the same keywords and
ability parameters the engine reads, and every ability, card by card, does what its sentence
says. The rules page prints the same text."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rules.alternate_histories import board, effects
from rules.alternate_histories.board import Ctx
from rules.alternate_histories.content import CARDS, RAW, Ability, Card, ability_text, card_text
from rules.alternate_histories.state import ACADEMIC, State

from .helpers import LEGACY_RULES, act, put, result, table

CARD_LIST = Path(__file__).resolve().parents[3] / "docs" / "cards" / "alternate_histories.md"
"""The card list, a page of its own (``/cards`` in Discord), out of the rules page."""
FLAVOR = {c["id"]: c["flavor"] for c in RAW["cards"]}
DECK = ["rifle_infantry", "landship", "tiger", "t34", "doughboys", "gas_attack", "university",
        "cavalry_scouts", "war_bonds", "trench_mortar"] * 2


def _fire(s: State, card: Card, ab: Ability) -> State:
    effects.run_simple(Ctx(s), 0, ab, card.id)
    return s


def _check_draw(card: Card, ab: Ability) -> None:
    s = table(hands=([], []), decks=(list(DECK), []))
    _fire(s, card, ab)
    assert s.sides[0].hand == DECK[:ab.amount]


def _check_recover(card: Card, ab: Ability) -> None:
    s = table(decks=(["tiger"], []))
    grave = ["landship", "t34", "doughboys", "gas_attack", "university", "war_bonds"]
    s.sides[0].graveyard = list(grave)
    _fire(s, card, ab)
    moved = grave[::-1][:ab.amount]  # the top of the graveyard is its last card
    assert s.sides[0].deck == ["tiger", *moved] and s.sides[0].graveyard == grave[:-ab.amount]


def _check_mill_opponent(card: Card, ab: Ability) -> None:
    s = table(decks=([], list(DECK)))
    _fire(s, card, ab)
    assert s.sides[1].graveyard == DECK[:ab.amount]


def _check_scout(card: Card, ab: Ability) -> None:
    s = table(decks=([], list(DECK)))
    _fire(s, card, ab)
    assert s.stack[-1] == {"k": "reorder", "seat": 0, "of": 1, "n": ab.amount}


def _check_academic(card: Card, ab: Ability) -> None:
    s = _fire(table(), card, ab)
    assert len(board.academics(s, 0)) == ab.amount
    assert all(p.card == ACADEMIC and (p.power, p.mobility) == (0, 0) for p in s.perms)


def _check_compute(card: Card, ab: Ability) -> None:
    s = _fire(table(), card, ab)
    assert s.sides[0].compute == ab.amount
    if "two from the Digital era on" in card.text:
        s = _fire(table(era=(3, 0)), card, ab)
        assert s.sides[0].compute == 2


def _check_strike(card: Card, ab: Ability) -> None:
    s = table()
    n = ab.amount
    small = put(s, 1, "rifle_infantry", power=n)
    big = put(s, 1, "rifle_infantry", power=n + 1)
    ship = put(s, 1, "battleship", power=n)
    spy = put(s, 1, "secret_police", power=10)
    works = put(s, 1, "trench_network", power=n)
    hit = {p.uid for p in effects.strike_targets(s, 0, ab)}
    want = {small.uid}
    if "unit or infrastructure" in card.text:
        want |= {ship.uid, works.uid}
    else:
        assert "not naval" in card.text
    assert hit == want and big.uid not in hit and spy.uid not in hit


def _check_tokenize_hand(card: Card, ab: Ability) -> None:
    s = table(hands=(["tiger", "t34", "landship", "doughboys", "gas_attack"], []), step="build")
    _fire(s, card, ab)
    top = s.stack[-1]
    assert top["k"] == "tokenize" and top["n"] == ab.amount
    pick = s.sides[0].hand[:ab.amount]
    s, _ = act(s, 0, {"type": "pick", "cards": pick})
    _check_face_down(s, pick, ab)


def _check_tokenize_deck(card: Card, ab: Ability) -> None:
    s = table(decks=(list(DECK), []))
    _fire(s, card, ab)
    _check_face_down(s, DECK[:ab.amount], ab)


def _check_face_down(s: State, cards: list[str], ab: Ability) -> None:
    down = [p for p in s.perms if p.face_down]
    assert [p.card for p in down] == cards
    if ab.make == "unit":
        assert all((p.kind, p.power, p.mobility) == ("unit", ab.power, ab.mobility) for p in down)
    else:
        assert all(p.kind == "resource" for p in down) and len(board.reserves(s, 0)) == len(cards)


def _check_rally(card: Card, ab: Ability) -> None:
    s = table()
    u = put(s, 0, "landship", tapped=True)
    before = board.power(s, u, "attack")
    _fire(s, card, ab)
    assert not u.tapped and board.power(s, u, "attack") == before + ab.amount


def _check_end_game(card: Card, ab: Ability) -> None:
    if ab.mode == "win":
        s = _fire(table(), card, ab)
        assert s.winner == 0
        return
    # Deck and graveyard count, the hand does not: 10 against 11 loses even with 7 in hand.
    for rules, winner in ((2, 1), (LEGACY_RULES, 0)):
        s = table(hands=(["tiger"] * 7, []), decks=(["t34"] * 5, ["t34"] * 6), rules=rules)
        s.sides[0].graveyard = ["landship"] * 5
        s.sides[1].graveyard = ["landship"] * 5
        assert _fire(s, card, ab).winner == winner
    s = table(hands=([], []), decks=(["t34"] * 6, ["t34"] * 6))
    assert _fire(s, card, ab).winner == 1  # on a tie, you lose


def _check_spy_hunt(card: Card, ab: Ability) -> None:
    s = table()
    assert not board.may_hunt_spies(s, 0)
    if ab.trigger == "play":
        _fire(s, card, ab)
    else:
        put(s, 0, card.id)
    assert board.may_hunt_spies(s, 0)


def _check_boost(card: Card, ab: Ability) -> None:
    s = table()
    tank, ship = put(s, 0, "landship"), put(s, 0, "battleship")
    plain = {(p.uid, r): board.power(s, p, r) for p in (tank, ship) for r in ("attack", "defend")}
    put(s, 0, card.id)
    for (uid, role), was in plain.items():
        p = s.perm(uid)
        assert p is not None
        applies = (ab.scope == "any" or (ab.scope == "naval" and p is ship)
                   or (ab.scope == "attack" and role == "attack"))
        assert board.power(s, p, role) == was + (ab.amount if applies else 0), (p.card, role)


def _check_discount(card: Card, ab: Ability) -> None:
    s = table(era=(0, 0))
    s.sides[0].governance = "communism"  # no governance discount in the way
    s.sides[0].units_built = 1
    probe = {k: next(c for c in CARDS.values() if c.kind == k and c.cost.discard >= 2)
             for k in ("unit", "infrastructure", "resource", "event")}
    before = {k: board.discard_cost(s, 0, c) for k, c in probe.items()}
    put(s, 0, card.id)
    for k, c in probe.items():
        applies = (k == "unit") == (ab.scope == "unit")
        assert board.discard_cost(s, 0, c) == before[k] - (ab.amount if applies else 0), k


def _check_salvage(card: Card, ab: Ability) -> None:
    s = table(decks=(["tiger"], []))
    put(s, 0, card.id)
    u = put(s, 0, "landship")
    board.destroy(Ctx(s), u)
    assert s.sides[0].deck == ["tiger", "landship"] and "landship" not in s.sides[0].graveyard


def _check_radar(card: Card, ab: Ability) -> None:
    s = table()
    u = put(s, 0, "landship")
    before = board.mobility(s, u, intercepting=True)
    put(s, 0, card.id)
    assert board.mobility(s, u, intercepting=True) == before + ab.amount
    assert board.mobility(s, u) == u.mobility


CHECKS = {
    "draw": _check_draw, "recover": _check_recover, "mill_opponent": _check_mill_opponent,
    "scout": _check_scout, "academic": _check_academic, "compute": _check_compute,
    "strike": _check_strike, "tokenize_hand": _check_tokenize_hand,
    "tokenize_deck": _check_tokenize_deck, "rally": _check_rally, "end_game": _check_end_game,
    "spy_hunt": _check_spy_hunt, "boost": _check_boost, "discount": _check_discount,
    "salvage": _check_salvage, "radar": _check_radar,
}


@pytest.mark.parametrize("cid", sorted(CARDS))
def test_every_card_does_what_its_text_says(cid: str) -> None:
    card = CARDS[cid]
    # One source: the printed text is written from the data the engine reads, plus flavour.
    assert card.text == card_text(card.keywords, card.reorder, card.station, card.kind,
                                  card.limit, card.abilities, FLAVOR[cid])
    for ab in card.abilities:
        assert ability_text(ab, card.kind) in card.text
        CHECKS[ab.effect](card, ab)


def test_every_effect_of_the_library_has_its_check() -> None:
    assert set(CHECKS) == set(effects.PLAY_EFFECTS) | set(effects.PASSIVE_EFFECTS)


def test_the_card_list_page_prints_each_cards_text() -> None:
    rows = {}
    for line in CARD_LIST.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 8 and cells[0] not in ("Card", "---"):
            rows[cells[0]] = cells[7]
    for card in CARDS.values():
        assert rows.get(card.name) == re.sub(r"\s+", " ", card.text), card.name


def test_mutually_assured_destruction_counts_deck_and_graveyard_not_the_hand() -> None:
    """Its text: "whoever has more cards in deck and graveyard together wins"."""
    s = table(step="build", era=(2, 2), hands=(["mad_doctrine", "tiger", "tiger", "tiger"] + [
        "t34"] * 5, []), decks=(["t34"] * 2, ["t34"] * 6))
    s.sides[0].graveyard = ["landship"] * 5  # with the three cards paid: 2 + 8
    s.sides[1].graveyard = ["landship"] * 5
    s, _ = act(s, 0, {"type": "play", "card": "mad_doctrine"})
    s, ev = act(s, 0, {"type": "pick", "cards": ["tiger"] * 3})
    assert s.winner == 1  # 10 against 11: the 5 cards left in hand do not count
    assert "P1 has 10 cards in deck and graveyard, P2 11; P2 wins." in result(s).reason
