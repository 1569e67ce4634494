"""Ratings: places from a result (winners, scores, ties, members who left, computer players),
openskill updates for 2–8 players with ties, and a finished game counted exactly once — through
the session, after a double settlement, a passing failure and a crash before settling."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from bot import ratings
from bot.session import Sessions
from bot.storage import GameRow, SeatRow, StorageBusy
from bot.storage.base import COMPUTER_ID, Departure, RatedPlayer, RatingRow
from tests.support.sessions import CONFIG, GUEST, HOST, THIRD, Env, session_env

GUILD = 5


def _row(seats: Sequence[tuple[int | None, str]], result: dict[str, Any] | None, *,
         guild_id: int | None = GUILD, status: str = "finished") -> GameRow:
    return GameRow(id=7, guild_id=guild_id, channel_id=1, thread_id=None, game_key="duel",
                   status=status, version=30, seed=1, options={}, state=None, host_id=seats[0][0],
                   deadline=None, result=result, created_at=100.0, updated_at=400.0,
                   seats=[SeatRow(i, u, u is None, n) for i, (u, n) in enumerate(seats)])


def _result(winners: Sequence[int], scores: dict[int, float]) -> dict[str, Any]:
    return {"winners": list(winners), "scores": {str(k): v for k, v in scores.items()}, "reason": "r"}


def _places(players: Sequence[RatedPlayer]) -> dict[int, tuple[int, bool, bool]]:
    return {p.user_id: (p.rank, p.won, p.abandoned) for p in players}


# ------------------------------------------------------------------ places


def test_winners_first_then_by_score_with_ties_sharing_a_rank() -> None:
    seats = [(11, "A"), (12, "B"), (13, "C"), (14, "D"), (15, "E")]
    game = _row(seats, _result([1, 3], {0: 4, 1: 9, 2: 4, 3: 7, 4: 6}))
    assert _places(ratings.standings(game, [])) == {
        12: (1, True, False), 14: (1, True, False),  # a shared win is a tie, whatever the scores
        15: (2, False, False), 11: (3, False, False), 13: (3, False, False)}


def test_members_who_left_rank_last_together() -> None:
    # seat 1's member resigned (a computer took over and then won); seat 3 went to another member
    seats = [(11, "A"), (None, "A computer"), (13, "C"), (16, "F")]
    game = _row(seats, _result([1], {0: 5, 1: 9, 2: 3, 3: 1}))
    departed = [Departure(7, 1, 12, "B"), Departure(7, 3, 14, "D")]
    places = _places(ratings.standings(game, departed))
    # the computer that inherited seat 1 is not rated: the seat was not its own from the start
    assert places == {11: (1, False, False), 13: (2, False, False), 16: (3, False, False),
                      12: (4, False, True), 14: (4, False, True)}


def test_a_member_who_left_and_came_back_is_ranked_by_the_seat_held_at_the_end() -> None:
    game = _row([(11, "A"), (12, "B")], _result([1], {}))
    assert _places(ratings.standings(game, [Departure(7, 0, 12, "B")])) == {
        12: (1, True, False), 11: (2, False, False)}


def test_computer_players_are_one_entity_at_their_best_seat() -> None:
    game = _row([(11, "A"), (None, "Computer 2"), (None, "Computer 3")], _result([2], {0: 3, 1: 1, 2: 8}))
    players = ratings.standings(game, [])
    assert _places(players) == {COMPUTER_ID: (1, True, False), 11: (2, False, False)}
    assert [p.name for p in players if p.user_id == COMPUTER_ID] == ["Computer"]


@pytest.mark.parametrize(("result", "kw"), [
    ({"winners": [], "scores": {}, "reason": "ended by the host"}, {}),
    (None, {}),
    (_result([0], {}), {"guild_id": None}),
    (_result([0], {}), {"status": "active"}),
])
def test_games_without_standings_count_for_nobody(result: dict[str, Any] | None, kw: dict[str, Any]) -> None:
    game = _row([(11, "A"), (12, "B")], result, **kw)
    assert ratings.standings(game, [Departure(7, 1, 13, "C")]) == ()


# ------------------------------------------------------------------ updates


@pytest.mark.parametrize("n", range(2, 9))
def test_updates_for_two_to_eight_players_with_ties(n: int) -> None:
    # ranks 1, 2, 2, 3, 4, … : the second and third tie; the last left the game
    ranks = [1] + [2, 2][: n - 1] + list(range(3, n))
    players = [RatedPlayer(100 + i, f"P{i}", r, i == 0, abandoned=(i == n - 1 and n > 3))
               for i, r in enumerate(ranks)]
    assert len(players) == n
    new = ratings.new_ratings(players, {})
    mus = [new[p.user_id][0] for p in players]
    assert mus[0] > 25.0 > mus[-1]  # the winner gains, the last loses
    assert all(a >= b for a, b in zip(mus, mus[1:], strict=False))  # better place, better rating
    if n >= 3:
        assert mus[1] == pytest.approx(mus[2])  # a tie moves both alike
    assert all(new[p.user_id][1] < 25 / 3 for p in players)  # everyone is better known now


def test_a_shared_win_never_earns_less_than_the_place_below() -> None:
    players = [RatedPlayer(i, f"P{i}", r, r == 1) for i, r in enumerate([1, 1, 2, 3, 4, 4])]
    new = ratings.new_ratings(players, {})
    mus = [new[i][0] for i in range(6)]
    assert mus[0] == mus[1] > mus[2] > mus[3] > mus[4] == mus[5]


def test_a_draw_between_equals_moves_no_mu_and_an_upset_moves_more() -> None:
    a, b = RatedPlayer(1, "A", 1, True), RatedPlayer(2, "B", 1, True)
    draw = ratings.new_ratings([a, b], {})
    assert draw[1][0] == pytest.approx(25.0) == pytest.approx(draw[2][0])
    strong = RatingRow(GUILD, "duel", 2, "B", 35.0, 3.0)
    weak = RatingRow(GUILD, "duel", 1, "A", 20.0, 3.0)
    upset = ratings.new_ratings([RatedPlayer(1, "A", 1, True), RatedPlayer(2, "B", 2, False)],
                                {1: weak, 2: strong})
    expected = ratings.new_ratings([RatedPlayer(1, "A", 2, False), RatedPlayer(2, "B", 1, True)],
                                   {1: weak, 2: strong})
    assert upset[1][0] - 20.0 > expected[2][0] - 35.0 > 0  # beating the stronger is worth more


def test_the_shown_rating_is_conservative() -> None:
    assert ratings.shown(25.0, 25 / 3) == pytest.approx(0.0)
    rows = [RatingRow(1, "a", 1, "x", 30, 2, games=3), RatingRow(1, "b", 1, "x", 40, 2, games=5)]
    fav = ratings.favourite(rows)
    assert fav is not None and fav.game_key == "b"
    assert ratings.favourite([]) is None


# ------------------------------------------------------------------ exactly once, end to end


@pytest.fixture
async def env(tmp_path: Path) -> AsyncIterator[Env]:
    async with session_env(tmp_path, deliver=False) as e:
        yield e


async def _started(env: Env, *, guests: int = 1, bots: int = 0) -> int:
    table = await env.sessions.open_table(guild_id=GUILD, channel_id=6, host_id=HOST, host_name="Ada",
                                          game_key="duel", bots=bots, seed=11, options={"fast": True})
    for user in (GUEST, THIRD)[:guests]:
        await env.sessions.join(table.id, user, f"user{user}")
    await env.sessions.start(table.id, HOST)
    return table.id


async def _play_out(env: Env, gid: int) -> GameRow:
    """Each seat picks its own choice by seat number: seat 1 bids 2 over seat 0's 1, and wins."""
    for _ in range(50):
        snap = await env.sessions.snapshot(gid)
        if snap.game.status != "active":
            return snap.game
        o = snap.open[0]
        env.clock.t += 600
        await env.sessions.act(gid, o.seat, o.prompt.choices[min(o.seat, len(o.prompt.choices) - 1)].action)
    raise AssertionError("the game did not finish")


async def _rating(env: Env, user: int) -> RatingRow | None:
    return next((r for r in await env.storage.ratings_of(GUILD, user)), None)


async def test_a_finished_game_is_rated_once_where_it_ends(env: Env) -> None:
    gid = await _started(env)
    game = await _play_out(env, gid)
    assert game.result and game.result["winners"] == [1]
    winner, loser = await _rating(env, GUEST), await _rating(env, HOST)
    assert winner is not None and loser is not None
    assert (winner.games, winner.wins, loser.games, loser.wins) == (1, 1, 1, 0)
    assert winner.mu > 25.0 > loser.mu
    # settling again (a retry, another process, the start scan) changes nothing
    assert not await ratings.settle(env.storage, game, env.clock())
    assert await env.sessions.resume() == 0
    assert await _rating(env, GUEST) == winner
    longest = await env.storage.longest_game(GUILD, HOST)
    assert longest is not None and longest.game_id == gid and longest.seconds > 0


async def test_a_passing_failure_while_settling_is_retried_once(env: Env, monkeypatch: pytest.MonkeyPatch) -> None:
    gid = await _started(env)
    real = env.storage.settle_game
    calls = 0

    async def busy_once(*args: Any, **kwargs: Any) -> bool:
        nonlocal calls
        calls += 1
        if calls == 1:
            raise StorageBusy("locked")
        settled: bool = await real(*args, **kwargs)
        return settled

    monkeypatch.setattr(env.storage, "settle_game", busy_once)
    game = await _play_out(env, gid)
    assert game.status == "finished"  # the end stands although its settlement failed
    assert gid in env.sessions.unsettled and gid in env.sessions.stalled
    assert await _rating(env, GUEST) is None
    await env.sessions.resume([gid])  # what the scheduler does with stalled games
    await env.sessions.resume([gid])
    assert gid not in env.sessions.unsettled
    rated = await _rating(env, GUEST)
    assert rated is not None and (rated.games, rated.wins) == (1, 1)


async def test_a_crash_before_settling_is_settled_at_the_next_start(env: Env, monkeypatch: pytest.MonkeyPatch) -> None:
    gid = await _started(env)

    async def crash(*args: Any, **kwargs: Any) -> bool:
        raise RuntimeError("the process died here")

    monkeypatch.setattr(env.storage, "settle_game", crash)
    await _play_out(env, gid)
    monkeypatch.undo()
    assert await env.storage.unsettled_games() == [gid]
    restarted = Sessions(env.storage, CONFIG, now=env.clock)
    await restarted.resume()  # the start scan
    await restarted.resume()
    assert await env.storage.unsettled_games() == []
    rated = await _rating(env, HOST)
    assert rated is not None and rated.games == 1


async def test_resigning_counts_as_last_place(env: Env) -> None:
    gid = await _started(env, guests=2)
    await env.sessions.replace_seat(gid, 2, user_id=None, name="user1003 (resigned, computer)",
                                    reason="P3 resigned; a computer player takes the seat.")
    await _play_out(env, gid)
    quitter, loser = await _rating(env, THIRD), await _rating(env, HOST)
    assert quitter is not None and loser is not None
    assert quitter.games == 1 and quitter.mu < loser.mu
    assert await _rating(env, COMPUTER_ID) is None  # the computer only stood in for them


async def test_computer_players_are_rated_but_not_listed(env: Env) -> None:
    gid = await _started(env, guests=0, bots=1)
    await _play_out(env, gid)
    assert await _rating(env, COMPUTER_ID) is not None
    rows, total = await env.storage.leaderboard(GUILD, "duel")
    assert total == 1 and [r.user_id for r in rows] == [HOST]


async def test_a_game_ended_by_its_host_counts_for_nobody(env: Env) -> None:
    gid = await _started(env)
    await env.sessions.end(gid, "ended by Ada")
    assert await env.storage.unsettled_games() == []
    assert await _rating(env, HOST) is None and await _rating(env, GUEST) is None


# ------------------------------------------------------------------ the image


def test_the_leaderboard_image_is_readable_on_a_phone() -> None:
    from bot.render import MIN_TEXT_SHARE, measure

    rows = [RatingRow(GUILD, "duel", i, name, 30.0 - i, 2.0, games=9 - i, wins=3)
            for i, name in enumerate(["Ann", "**Bob** <@123456789>", "Zoë the Remarkably Long-Named Prophet",
                                      "🎉", "Finn", "Gus", "Hal", "Ivy", "Jo", "Kit"])]
    with measure() as sizes:
        image = ratings.leaderboard_image("High Card Duel", rows, 11, "page 2 of 2 · 20 players")
    assert sizes and min(sizes) >= image.width * MIN_TEXT_SHARE
    assert image.width <= 900
    alt = ratings.leaderboard_alt("High Card Duel", rows, 11)
    assert alt.startswith("High Card Duel leaderboard. 11. Ann: rating 24.0, 9 games, 3 wins.")
    assert "<@" not in alt and "**" not in alt


def test_lengths_in_words() -> None:
    assert ratings.length(30) == "under a minute"
    assert ratings.length(25 * 60) == "25 minutes"
    assert ratings.length(3 * 86400 + 4 * 3600 + 59) == "3 days 4 hours"
    assert ratings.length(86400 + 60) == "1 day 1 minute"
