"""Saved decks (schema 7) on both backends: per player and game, one name once (case aside), a
limit per player that two creations at once cannot pass, and nobody changing or deleting another
player's deck."""

from __future__ import annotations

import asyncio

from bot.storage import Storage
from bot.storage.base import deck_name_key

ANN, BO = 501, 502
GAME = "alternate_histories"


def test_names_compare_without_case_or_extra_spaces() -> None:
    assert deck_name_key("  Red   Tide ") == deck_name_key("red tide") == "red tide"
    assert deck_name_key("Straße") == deck_name_key("STRASSE")


async def test_decks_are_kept_per_player_and_game(store: Storage) -> None:
    data = {"nation": "usa", "governance": "capitalism", "cards": {"rifle": 3}}
    first = await store.create_deck(ANN, GAME, "Red Tide", data, now=10.0, limit=50)
    assert first is not None
    assert await store.create_deck(ANN, GAME, "red  TIDE", {}, now=11.0, limit=50) is None
    other = await store.create_deck(BO, GAME, "Red Tide", {"cards": {}}, now=12.0, limit=50)
    assert other is not None and other != first
    second = await store.create_deck(ANN, GAME, "Atlantic", {"cards": {}}, now=13.0, limit=50)
    assert second is not None
    elsewhere = await store.create_deck(ANN, "another_game", "Red Tide", {}, now=13.5, limit=50)
    assert elsewhere is not None  # the same name is free in another game

    mine = await store.decks(ANN, GAME)
    assert [d.name for d in mine] == ["Atlantic", "Red Tide"]  # by name
    assert mine[1].data == data and mine[1].user_id == ANN and mine[1].game_key == GAME
    assert mine[1].created_at == 10.0 == mine[1].updated_at
    assert len(await store.decks(ANN)) == 3
    got = await store.deck(first)
    assert got is not None and got.name == "Red Tide" and got.data == data
    assert await store.deck(999_999) is None

    # only the owner changes or deletes a deck
    changed = {**data, "cards": {"rifle": 2, "tank": 1}}
    assert not await store.update_deck(first, BO, {"cards": {}}, now=20.0)
    assert await store.update_deck(first, ANN, changed, now=21.0)
    got = await store.deck(first)
    assert got is not None and got.data == changed and got.updated_at == 21.0
    assert not await store.delete_deck(first, BO)
    assert await store.deck(first) is not None
    assert await store.delete_deck(first, ANN)
    assert not await store.delete_deck(first, ANN)
    assert await store.deck(first) is None
    assert [d.name for d in await store.decks(ANN, GAME)] == ["Atlantic"]
    # the name is free again once the deck is gone
    assert await store.create_deck(ANN, GAME, "RED TIDE", {}, now=30.0, limit=50) is not None


async def test_the_limit_holds_even_for_creations_at_the_same_moment(store: Storage) -> None:
    for k in range(3):
        assert await store.create_deck(ANN, GAME, f"deck {k}", {}, now=1.0, limit=5) is not None
    made = await asyncio.gather(*(store.create_deck(ANN, GAME, f"rush {k}", {}, now=2.0, limit=5)
                                  for k in range(6)))
    assert sum(1 for m in made if m is not None) == 2
    assert len(await store.decks(ANN)) == 5
    assert await store.create_deck(ANN, "another_game", "more", {}, now=3.0, limit=5) is None
    assert await store.create_deck(BO, GAME, "deck 0", {}, now=3.0, limit=5) is not None
