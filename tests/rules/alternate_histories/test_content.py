"""The authored card pool: a schema check of the data files (every key is one the engine reads),
the pool's coverage of the rulebook, ready-made decks, deck validation, codes and search."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import pytest

from rules.alternate_histories import content as C

ABILITY_BASE = {"trigger", "effect", "amount"}


def test_every_card_key_is_known_and_typed() -> None:
    nums: set[int] = set()
    for raw in C.RAW["cards"]:
        assert set(raw) == C.CARD_KEYS, raw["id"]
        assert set(raw["cost"]) == C.COST_KEYS, raw["id"]
        assert all(type(v) is int and v >= 0 for v in raw["cost"].values()), raw["id"]
        assert raw["era"] in C.ERAS and raw["kind"] in C.KINDS, raw["id"]
        assert 1 <= raw["value"] <= 100, raw["id"]
        assert 0 <= raw["power"] <= 500 and 0 <= raw["mobility"] <= 10, raw["id"]
        if raw["kind"] in ("event", "resource"):
            assert raw["power"] == 0 and raw["mobility"] == 0, raw["id"]
        if raw["kind"] == "infrastructure":
            assert raw["mobility"] == 0, raw["id"]
        assert set(raw["keywords"]) <= set(C.KEYWORDS), raw["id"]
        assert set(raw["nations"]) <= set(C.NATIONS), raw["id"]
        assert set(raw["governances"]) <= set(C.GOVERNANCES), raw["id"]
        assert 1 <= raw["limit"] <= C.DEFAULT_COPIES, raw["id"]
        assert C.CARDS[raw["id"]].text.strip(), raw["id"]
        assert raw["num"] not in nums
        nums.add(raw["num"])
        # Reorder X and Station X carry their X exactly when they carry the keyword.
        assert (raw["reorder"] > 0) == ("reorder" in raw["keywords"]), raw["id"]
        assert (raw["station"] > 0) == ("station" in raw["keywords"]), raw["id"]
        if raw["station"]:
            assert raw["kind"] == "infrastructure", raw["id"]
        for ab in raw["abilities"]:
            effect = ab["effect"]
            assert effect in C.EFFECTS, (raw["id"], effect)
            assert ab["trigger"] in C.EFFECTS[effect], (raw["id"], ab)
            assert set(ab) <= ABILITY_BASE | C.ABILITY_KEYS.get(effect, frozenset()), (raw["id"], ab)
            assert ABILITY_BASE <= set(ab), (raw["id"], ab)
            if effect in C.SCOPES:
                assert ab["scope"] in C.SCOPES[effect], (raw["id"], ab)
            if effect.startswith("tokenize"):
                assert ab["make"] in ("unit", "resource"), raw["id"]
                assert effect in raw["keywords"], raw["id"]
            if effect == "end_game":
                assert ab["mode"] in ("win", "count") and raw["limit"] == 1, raw["id"]
            if ab["trigger"] == "kill":
                assert raw["kind"] == "unit", raw["id"]
            if ab["trigger"] in ("untap", "passive"):
                assert raw["kind"] != "event", raw["id"]
        for kw in ("tokenize_hand", "tokenize_deck"):
            if kw in raw["keywords"]:
                assert any(ab["effect"] == kw for ab in raw["abilities"]), raw["id"]
    assert len(C.CARDS) == len(C.RAW["cards"]), "card ids must be unique"


def test_every_effect_is_one_the_engine_reads() -> None:
    from rules.alternate_histories import effects

    assert set(C.EFFECTS) == set(effects.PLAY_EFFECTS) | set(effects.PASSIVE_EFFECTS)
    used = {ab.effect for c in C.CARDS.values() for ab in c.abilities}
    assert used == set(C.EFFECTS), "an effect of the library no card uses is dead code"


def test_nations_and_governances() -> None:
    assert {"usa", "russia", "germany", "britain"} <= set(C.NATIONS)
    assert len(C.NATIONS) >= 6
    assert set(C.GOVERNANCES) == {"capitalism", "communism", "autocracy"}
    for x in [*C.RAW["nations"], *C.RAW["governances"]]:
        assert x["restriction"] and x["effect"]["kind"]
    for x in C.RAW["nations"]:
        assert set(x) == {"key", "name", "trait", "effect", "rules", "restriction"}
        assert set(x["effect"]) == {"kind", "scope", "amount"}
        assert x["effect"]["scope"] in C.NATION_EFFECTS[x["effect"]["kind"]], x["key"]
    for x in C.RAW["governances"]:
        assert set(x) == {"key", "name", "text", "effect", "rules", "restriction"}
        assert set(x["effect"]) == {"kind", "scope", "amount"}
        assert x["effect"]["scope"] in C.GOVERNANCE_EFFECTS[x["effect"]["kind"]], x["key"]
    for n in C.NATIONS.values():
        assert set(n.rules) == {"min_kind", "max_keyword", "min_keyword"}
        assert set(n.rules["min_keyword"]) | set(n.rules["max_keyword"]) <= set(C.KEYWORDS)
    for g in C.GOVERNANCES.values():
        assert set(g.rules) == {"copies", "min_kind", "max_kind"}



def test_every_deck_rule_the_data_sets_is_one_validate_checks() -> None:
    """A nation's or governance's deck restriction in the data is checked by validate_deck: each
    shape rule it sets has a check, and a nation or governance reports only its own kinds."""
    for n in C.NATIONS.values():
        assert set(n.rules) <= set(C._NATION_SHAPE_RULES), n.key
    for g in C.GOVERNANCES.values():
        assert set(g.rules) - {"copies"} <= set(C._GOVERNANCE_SHAPE_RULES), g.key
    assert {*C._NATION_SHAPE_RULES, *C._GOVERNANCE_SHAPE_RULES} <= set(C._SHAPE_RULES)

def test_the_pool_covers_the_rulebook() -> None:
    for kw in C.KEYWORDS:
        users = [c.id for c in C.CARDS.values() if kw in c.keywords]
        assert len(users) >= 3, f"keyword {kw} is used by {users}"
    for era in C.ERAS:
        for kind in ("unit", "event"):
            assert C.search_cards(era=era, kind=kind), (era, kind)
    makers = {ab.effect for c in C.CARDS.values() for ab in c.abilities if ab.trigger == "untap"}
    assert {"academic", "compute"} <= makers
    assert any(ab.effect == "end_game" for c in C.CARDS.values() for ab in c.abilities)
    powers = [c.power for c in C.CARDS.values() if c.kind == "unit"]
    assert min(powers) <= 60 and max(powers) >= 400
    for n in C.NATIONS:
        assert any(n in c.nations for c in C.CARDS.values()), n
    for g in C.GOVERNANCES:
        assert any(g in c.governances for c in C.CARDS.values()), g


def test_ready_decks_cover_every_pair_and_are_valid() -> None:
    pairs = {(n, g) for n in C.NATIONS for g in C.GOVERNANCES}
    assert {(n, g) for n, g, _ in C.READY_DECKS.values()} == pairs
    for key, (n, g, cards) in C.READY_DECKS.items():
        assert key == f"{n}-{g}"
        assert len(cards) == C.DECK_SIZE
        assert C.validate_deck(n, g, cards) == [], key
        assert C.ready_deck_name(key)


def _valid() -> tuple[str, str, list[str]]:
    n, g, cards = C.READY_DECKS["usa-communism"]
    return n, g, list(cards)


def test_validate_reports_every_error_at_once() -> None:
    errors = C.validate_deck("usa", "communism", ["tiger"] * 5 + ["stock_exchange", "no_such_card"])
    text = " ".join(errors)
    assert "exactly 40" in text
    assert "'no_such_card' is not a card" in text
    assert "Tiger I appears 5 times" in text
    assert "Tiger I is a card of Germany" in text
    assert "Stock Exchange needs Capitalism" in text
    assert "at least 4 air cards (a national deck rule)" in text
    assert "at least 18 units (a governance deck rule)" in text
    assert len(errors) == 7


def test_validate_copies_follow_governance_and_card_limits() -> None:
    cards: Sequence[str]
    n, g, cards = C.READY_DECKS["usa-capitalism"]
    # Capitalism allows 3 copies: a fourth Rifle Infantry is one too many.
    rest = [c for c in cards if c != "rifle_infantry"]
    deck = rest[:36] + ["rifle_infantry"] * 4
    errs = C.validate_deck(n, g, deck)
    assert any("Rifle Infantry appears 4 times" in e and "at most 3 copies" in e for e in errs), errs
    assert C.validate_deck(n, "communism", deck) == [] or not any("appears" in e for e in
                                                                   C.validate_deck(n, "communism", deck))
    n, g, cards = _valid()
    deck = [c for c in cards if c != "mad_doctrine"][:38] + ["mad_doctrine"] * 2
    assert any("limited to 1" in e for e in C.validate_deck(n, g, deck))


def test_validate_nation_and_governance_restrictions() -> None:
    n, g, cards = C.READY_DECKS["britain-autocracy"]
    no_naval = [c for c in cards if "naval" not in C.CARDS[c].keywords]
    deck = no_naval + ["rifle_infantry"] * (40 - len(no_naval))
    errs = C.validate_deck("britain", "autocracy", deck)
    assert any("at least 6 naval" in e for e in errs), errs
    russia = [c for c in C.READY_DECKS["russia-autocracy"][2]]
    deck = russia[:35] + ["destroyer_flotilla"] * 4 + ["battleship"]
    assert any("at most 4 naval" in e for e in C.validate_deck("russia", "autocracy", deck))
    deck = russia[:30] + ["gas_attack"] * 4 + ["cipher_office"] * 4 + ["blitz_orders"] * 2
    assert any("at most 8 events" in e for e in C.validate_deck("russia", "autocracy", deck))
    assert C.validate_deck("atlantis", "anarchy", russia)[:2] == [
        "Unknown nation 'atlantis': choose one of usa, russia, germany, britain, france, japan.",
        "Unknown governance 'anarchy': choose one of capitalism, communism, autocracy.",
    ]


def test_deck_codes_round_trip_and_refuse_garbage() -> None:
    for n, g, cards in C.READY_DECKS.values():
        code = C.encode_deck(n, g, cards)
        assert code.startswith("AH") and len(code) < 80
        n2, g2, back = C.decode_deck(code)
        assert (n2, g2, Counter(back)) == (n, g, Counter(cards))
        assert C.decode_deck(" " + code.lower() + "\n")[:2] == (n, g)
    code = C.encode_deck(*C.READY_DECKS["japan-communism"])
    flipped = code[:-4] + ("B" if code[-4] != "B" else "C") + code[-3:]
    for bad, words in [("hello", "start with AH"), ("AH", "cut short"), (flipped, "checksum"),
                       ("AH!!!!", "characters"), (code[:20], "code")]:
        with pytest.raises(ValueError, match=words):
            C.decode_deck(bad)
    # An invalid deck still has a code (the builder exports work in progress).
    code = C.encode_deck("usa", "communism", ["tiger"] * 7)
    assert C.decode_deck(code) == ("usa", "communism", ["tiger"] * 7)
    with pytest.raises(ValueError):
        C.encode_deck("usa", "communism", ["nope"])


def test_search_cards() -> None:
    names = [c.name for c in C.search_cards("submarine")]
    assert "Coastal U-Boat" in names and "Hunter-Killer Submarine" in names
    assert all(c.era == "atomic" for c in C.search_cards(era="atomic"))
    assert all(c.kind == "event" and c.era == "chemical" for c in C.search_cards("", "chemical", "event"))
    assert C.search_cards("reorder 3")[0].name in {"Cipher Office", "Long-Range Recon"}
    assert len(C.search_cards()) == len(C.CARDS)
    assert C.search_cards("no card is called this") == []
