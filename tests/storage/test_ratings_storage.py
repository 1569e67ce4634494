"""Ratings (schema 5) on both backends: a game is settled once however often it is tried, the
leaderboard leaves the computer players out and orders by the shown rating, departures are kept
once, unsettled finished games are found, and the server's leaderboards switch is stored."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping

import pytest

from bot.storage import SeatRow, Storage
from bot.storage.base import (
    COMPUTER_ID,
    Departure,
    RatedGame,
    RatedPlayer,
    Rater,
    RatingRow,
)

GUILD = 10
ANN, BO, CY = 501, 502, 503


def _game(game_id: int, *players: RatedPlayer, key: str = "duel", started: float = 0.0,
          finished: float = 100.0, moves: int = 5) -> RatedGame:
    return RatedGame(game_id, GUILD, key, started, finished, moves, tuple(players))


def _plus(step: float) -> Rater:
    """A rater that adds ``step`` to every mu (newcomers start at 25, sigma 8): shows what it read."""
    def rate(current: Mapping[int, RatingRow]) -> dict[int, tuple[float, float]]:
        return {u: ((current[u].mu if u in current else 25.0) + step, 8.0) for u in (ANN, BO, CY, COMPUTER_ID)}
    return rate


async def _finished_game(store: Storage, guild_id: int | None = GUILD) -> int:
    seats = [SeatRow(0, ANN, False, "Ann"), SeatRow(1, BO, False, "Bo")]
    gid = await store.create_game(guild_id=guild_id, channel_id=20, game_key="duel", seed=1, options={},
                                  host_id=ANN, deadline=None, now=1.0, seats=seats)
    await store.update_game(gid, status="finished", result={"winners": [0], "scores": {}, "reason": "x"},
                            updated_at=50.0)
    return gid


async def test_a_game_is_settled_once_and_updates_ratings(store: Storage) -> None:
    gid = await _finished_game(store)
    game = _game(gid, RatedPlayer(ANN, "Ann", 1, True), RatedPlayer(BO, "Bo", 2, False))
    assert await store.settle_game(game, _plus(1.0), 60.0)
    assert not await store.settle_game(game, _plus(1.0), 61.0)
    rows, total = await store.leaderboard(GUILD, "duel")
    assert total == 2
    assert [(r.user_id, r.mu, r.games, r.wins, r.name) for r in rows] == [
        (ANN, 26.0, 1, 1, "Ann"), (BO, 26.0, 1, 0, "Bo")]
    assert await store.unsettled_games() == []


async def test_the_rater_reads_the_ratings_before_and_names_follow(store: Storage) -> None:
    for gid, step in ((1001, 1.0), (1002, 2.0)):
        await store.settle_game(_game(gid, RatedPlayer(ANN, f"Ann{gid}", 1, True),
                                      RatedPlayer(BO, "Bo", 1, False)), _plus(step), 60.0)
    (ann,) = [r for r in await store.ratings_of(GUILD, ANN)]
    assert (ann.mu, ann.games, ann.wins, ann.name) == (28.0, 2, 2, "Ann1002")
    assert await store.ratings_of(GUILD + 1, ANN) == []


async def test_settlements_of_one_game_at_once_count_once(store: Storage) -> None:
    game = _game(2001, RatedPlayer(ANN, "Ann", 1, True), RatedPlayer(BO, "Bo", 2, False))
    results = await asyncio.gather(*(store.settle_game(game, _plus(1.0), 60.0)
                                     for _ in range(4)))
    assert sorted(results) == [False, False, False, True]
    assert [r.games for r in (await store.leaderboard(GUILD, "duel"))[0]] == [1, 1]


async def test_settlements_of_different_games_at_once_lose_no_update(store: Storage) -> None:
    games = [_game(3000 + i, RatedPlayer(ANN, "Ann", 1, True), RatedPlayer(BO, "Bo", 2, False))
             for i in range(5)]
    await asyncio.gather(*(store.settle_game(g, _plus(1.0), 60.0) for g in games))
    ann = (await store.ratings_of(GUILD, ANN))[0]
    assert (ann.mu, ann.games, ann.wins) == (30.0, 5, 5)


async def test_the_leaderboard_orders_by_shown_rating_and_hides_the_computer(store: Storage) -> None:
    def rate(current: Mapping[int, RatingRow]) -> dict[int, tuple[float, float]]:
        # Bo: higher mu but less sure (shown 30-24=6); Cy: shown 20-3=17; Ann: 25-6=19
        return {ANN: (25.0, 2.0), BO: (30.0, 8.0), CY: (20.0, 1.0), COMPUTER_ID: (40.0, 1.0)}

    await store.settle_game(_game(4001, RatedPlayer(ANN, "Ann", 1, True), RatedPlayer(BO, "Bo", 2, False),
                                  RatedPlayer(CY, "Cy", 2, False),
                                  RatedPlayer(COMPUTER_ID, "Computer", 3, False)), rate, 60.0)
    rows, total = await store.leaderboard(GUILD, "duel")
    assert total == 3 and [r.user_id for r in rows] == [ANN, CY, BO]
    page, _ = await store.leaderboard(GUILD, "duel", limit=1, offset=1)
    assert [r.user_id for r in page] == [CY]
    assert (await store.leaderboard(GUILD, "other"))[1] == 0


async def test_an_unrated_settlement_marks_the_game_only(store: Storage) -> None:
    gid = await _finished_game(store)
    assert await store.unsettled_games() == [gid]
    assert await store.settle_game(_game(gid), _plus(1.0), 60.0)
    assert await store.unsettled_games() == []
    assert (await store.leaderboard(GUILD, "duel"))[1] == 0


async def test_games_in_dms_are_never_unsettled(store: Storage) -> None:
    await _finished_game(store, guild_id=None)
    assert await store.unsettled_games() == []


async def test_the_longest_game_of_a_member(store: Storage) -> None:
    assert await store.longest_game(GUILD, ANN) is None
    two = (RatedPlayer(ANN, "Ann", 1, True), RatedPlayer(BO, "Bo", 2, False))
    await store.settle_game(_game(5001, *two, finished=100.0, moves=40), _plus(0.0), 1.0)
    await store.settle_game(_game(5002, *two, key="other", finished=9000.0, moves=12), _plus(0.0), 1.0)
    await store.settle_game(_game(5003, RatedPlayer(BO, "Bo", 1, True), RatedPlayer(CY, "Cy", 2, False),
                                  finished=99999.0), _plus(0.0), 1.0)
    longest = await store.longest_game(GUILD, ANN)
    assert longest is not None
    assert (longest.game_id, longest.game_key, longest.seconds, longest.moves) == (5002, "other", 9000.0, 12)


async def test_departures_are_kept_once(store: Storage) -> None:
    gid = await _finished_game(store)
    await store.note_departure(Departure(gid, 1, BO, "Bo"))
    await store.note_departure(Departure(gid, 1, BO, "Bo again"))
    await store.note_departure(Departure(gid, 0, ANN, "Ann"))
    assert await store.departures(gid) == [Departure(gid, 0, ANN, "Ann"), Departure(gid, 1, BO, "Bo")]
    assert await store.departures(gid + 1) == []


async def test_the_leaderboards_switch_is_stored(store: Storage) -> None:
    s = await store.guild_settings(GUILD)
    assert s.leaderboards is True
    s.leaderboards = False
    await store.save_guild_settings(s)
    store.forget()
    assert (await store.guild_settings(GUILD)).leaderboards is False
    assert (await store.guild_settings(GUILD + 1)).leaderboards is True


async def test_a_failed_settlement_leaves_the_game_unsettled(store: Storage) -> None:
    gid = await _finished_game(store)

    def broken(current: Mapping[int, RatingRow]) -> dict[int, tuple[float, float]]:
        raise ValueError("the rating could not be computed")

    game = _game(gid, RatedPlayer(ANN, "Ann", 1, True), RatedPlayer(BO, "Bo", 2, False))
    with pytest.raises(ValueError):
        await store.settle_game(game, broken, 60.0)
    assert await store.unsettled_games() == [gid]  # the mark was rolled back with the rest
    assert await store.settle_game(game, _plus(1.0), 61.0)
    assert (await store.leaderboard(GUILD, "duel"))[1] == 2
