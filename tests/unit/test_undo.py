"""Undo through the session layer on a real SQLite file: the policy rules the platform enforces for
every game (only your own last move, nobody has played since, no turn handed over, nothing shown
to anyone else), the engine's own reasons, the rebuilt state and log, new tickets (a button drawn
before the undo is stale after it), deadlines, and an undo racing another player's move."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from bot.errors import Contention, StaleAction, TableError
from bot.session import Sessions, Ticket
from bot.storage import GameRow, SeatRow, SqliteStorage, VersionConflict
from bot.undo import UndoRefused, plan_undo, undo
from rules import registry
from rules.engine import Action, Event, Prompt
from tests.support.duel import DuelEngine, DuelState
from tests.support.sessions import CONFIG, GUEST, HOST, THIRD, Env, Recorder, session_env


class UndoDuel(DuelEngine):
    """High Card Duel letting a secret bid be taken back while the round's bids are not all in."""

    key = "undo_duel"
    name = "Undo Duel"

    def undoable(self, before: DuelState, seat: int, action: Action, after: DuelState,
                 events: Sequence[Event]) -> str | None:
        if action["type"] != "bid":
            return "a prize is final once claimed"
        if after.phase == "bid" and after.round == before.round:
            return None
        return "every bid is in, so the bids are revealed"


class TellingDuel(UndoDuel):
    """Each bid whispers to the next seat (a private event for another seat)."""

    key = "telling_duel"

    def play(self, state: DuelState, seat: int, action: Action,
             prompt: Prompt) -> tuple[DuelState, list[Event]]:
        s, events = super().play(state, seat, action, prompt)
        return s, [*events, Event("Someone bid high.", to=((seat + 1) % s.players,))]


class PeekingDuel(UndoDuel):
    """Each seat's private view counts the bids in (another seat's bid changes it)."""

    key = "peeking_duel"

    def view(self, s: DuelState, seat: int | None) -> dict[str, Any]:
        v = super().view(s, seat)
        if seat is not None:
            v["private"]["bids_in"] = len(s.bids)
        return v


@pytest.fixture(autouse=True)
def _engines() -> Iterator[None]:
    engines = [UndoDuel(), TellingDuel(), PeekingDuel()]
    for e in engines:
        registry.register(e)
    try:
        yield
    finally:
        for e in engines:
            registry.unregister(e.key)


@pytest.fixture
async def env(tmp_path: Path) -> AsyncIterator[Env]:
    async with session_env(tmp_path) as e:
        yield e


async def _game(env: Env, *, players: int = 3, key: str = "undo_duel", bots: int = 0,
                seed: int = 11) -> int:
    table = await env.sessions.open_table(guild_id=5, channel_id=6, host_id=HOST, host_name="Ada",
                                          game_key=key, bots=bots, seed=seed)
    for user in (GUEST, THIRD)[:players - 1 - bots]:
        await env.sessions.join(table.id, user, {GUEST: "Bo", THIRD: "Cy"}[user])
    await env.sessions.start(table.id, HOST)
    return table.id


async def _hand(env: Env, gid: int, seat: int) -> list[int]:
    hand: list[int] = (await env.sessions.snapshot(gid)).view(seat)["private"]["hand"]
    return hand


async def _bid(env: Env, gid: int, seat: int, card: int | None = None, *,
               origin: str = "player") -> None:
    card = card if card is not None else (await _hand(env, gid, seat))[0]
    await env.sessions.act(gid, seat, {"type": "bid", "card": card}, origin=origin,
                           user_id=(HOST, GUEST, THIRD)[seat])


async def _ticket(env: Env, gid: int, seat: int) -> Ticket:
    mine = (await env.sessions.snapshot(gid)).prompt_of(seat)
    assert mine is not None
    return mine.ticket


# ------------------------------------------------------------------------------ taking back

async def test_a_secret_bid_is_taken_back_and_asked_again(env: Env) -> None:
    gid = await _game(env)
    hand = await _hand(env, gid, 0)
    await _bid(env, gid, 0, hand[2])
    before = await env.sessions.get(gid)
    deadline_of_bo = next(d for d in await env.storage.deadlines(gid) if d.seat == 1)
    env.clock.t += 100
    env.delivery.updates.clear()

    update = await undo(env.sessions, gid, HOST)

    game = await env.sessions.get(gid)
    assert game.version == before.version + 1  # forward, never back
    assert game.opened[0] == game.version and game.opened[1] == before.opened[1]
    assert await _hand(env, gid, 0) == hand
    assert await env.storage.actions(gid) == []
    assert await env.sessions.verify_replay(gid)
    texts = [e.text for e in await env.storage.events(gid, viewer_seat=0, limit=50)]
    assert texts == ["↩️ P1 took back their last move: P1 has bid."]  # the bid's lines are gone
    # the re-opened decision is new (its seat is asked again, privately); the others' stay
    assert [o.seat for o in update.new_prompts] == [0]
    assert update.changed_private == {0} and update.kind == "undo"
    assert env.delivery.updates == [update]
    deadlines = {d.seat: d for d in await env.storage.deadlines(gid)}
    assert deadlines[1] == deadline_of_bo
    # (the round's common deadline: taking a bid back buys no time)
    assert deadlines[0].opened == game.version and deadlines[0].due_at == deadline_of_bo.due_at
    # the game goes on from the rebuilt state
    await _bid(env, gid, 0, hand[0])
    assert (await env.sessions.snapshot(gid)).view(0)["private"]["my_bid"] == hand[0]
    assert await env.sessions.verify_replay(gid)


async def test_a_button_drawn_before_the_undo_is_stale_after_it(env: Env) -> None:
    gid = await _game(env)
    old = await _ticket(env, gid, 0)
    hand = await _hand(env, gid, 0)
    await env.sessions.act(gid, 0, {"type": "bid", "card": hand[0]}, user_id=HOST, answers=old)
    await undo(env.sessions, gid, HOST)
    # the very request retried, and a menu drawn before the undo: neither applies
    for ticket in (old, Ticket(old.opened)):
        with pytest.raises(StaleAction):
            await env.sessions.act(gid, 0, {"type": "bid", "card": hand[0]}, user_id=HOST,
                                   answers=ticket)
        with pytest.raises(StaleAction):
            await env.sessions.decision(gid, HOST, ticket)
    assert await env.storage.actions(gid) == []
    fresh = await _ticket(env, gid, 0)
    assert fresh.opened > old.opened
    await env.sessions.act(gid, 0, {"type": "bid", "card": hand[1]}, user_id=HOST, answers=fresh)
    assert len(await env.storage.actions(gid)) == 1


async def test_the_move_before_an_undone_one_is_judged_by_the_same_rules(env: Env) -> None:
    gid = await _game(env, players=2)
    await _bid(env, gid, 0, 5)
    await _bid(env, gid, 1, 1)  # P1 wins the round: the claim is theirs
    await env.sessions.act(gid, 0, {"type": "gold"}, user_id=HOST)  # round 2
    hand = await _hand(env, gid, 0)
    await _bid(env, gid, 0, hand[0])
    await undo(env.sessions, gid, HOST)
    with pytest.raises(UndoRefused, match="passed the decision to Bo"):
        await undo(env.sessions, gid, HOST)  # (the last move is now Ada's claim: round 2 began)
    assert [s for s, _, _ in await env.storage.actions(gid)] == [0, 1, 0]
    texts = [e.text for e in await env.storage.events(gid, viewer_seat=None, limit=50)]
    assert texts[-1] == "↩️ P1 took back their last move: P1 has bid."
    assert "P1 takes gold (+2)." in texts
    assert await env.sessions.verify_replay(gid)


# ------------------------------------------------------------------------------ the refusals

async def test_nothing_to_take_back_before_a_first_move(env: Env) -> None:
    gid = await _game(env)
    with pytest.raises(UndoRefused, match="not made a move"):
        await undo(env.sessions, gid, HOST)
    with pytest.raises(TableError, match="not playing in this game"):
        await undo(env.sessions, gid, 4242)


async def test_someone_who_played_since_blocks_the_undo(env: Env) -> None:
    gid = await _game(env)
    await _bid(env, gid, 0)
    await _bid(env, gid, 1)
    with pytest.raises(UndoRefused, match=r"^Bo has played since your last move"):
        await undo(env.sessions, gid, HOST)
    assert len(await env.storage.actions(gid)) == 2


async def test_a_computer_player_who_played_since_blocks_the_undo(env: Env) -> None:
    gid = await _game(env, players=3, bots=1)  # Ada, Computer 2, Bo: the computer bids at once
    with pytest.raises(UndoRefused, match="not made a move"):
        await undo(env.sessions, gid, HOST)
    await _bid(env, gid, 0)
    await undo(env.sessions, gid, HOST)  # the computer bid before Ada: hers is still the last
    assert [o for _, _, o in await env.storage.actions(gid)] == ["bot"]

    gid = await _game(env, players=2, bots=1)
    await _bid(env, gid, 0, 1)  # the computer wins and claims, or nobody does and it bids again
    assert [o for _, _, o in await env.storage.actions(gid)][-1] == "bot"
    with pytest.raises(UndoRefused, match="^Computer 2 has played since your last move"):
        await undo(env.sessions, gid, HOST)


async def test_a_move_made_when_time_ran_out_cannot_be_taken_back(env: Env) -> None:
    gid = await _game(env)
    deadline = next(d for d in await env.storage.deadlines(gid) if d.seat == 0)
    env.clock.t = deadline.due_at + 1
    await env.sessions.timeout(deadline)
    with pytest.raises(UndoRefused, match="when your time ran out"):
        await undo(env.sessions, gid, HOST)


async def test_a_game_that_does_not_opt_in_takes_nothing_back(env: Env) -> None:
    gid = await _game(env, key="duel")
    await _bid(env, gid, 0)
    with pytest.raises(UndoRefused, match="moves cannot be taken back in this game"):
        await undo(env.sessions, gid, HOST)


async def test_a_move_that_hands_the_turn_over_cannot_be_taken_back(env: Env) -> None:
    gid = await _game(env, players=2)
    await _bid(env, gid, 0, 5)
    await _bid(env, gid, 1, 1)  # the bids are revealed and Ada must claim her prize
    with pytest.raises(UndoRefused, match="passed the decision to Ada, and taking it back would "
                                          "change whose turn it is"):
        await undo(env.sessions, gid, GUEST)


async def test_a_closed_secret_round_is_the_engines_reason(env: Env) -> None:
    gid = await _game(env, players=2)
    await _bid(env, gid, 0, 1)
    await _bid(env, gid, 1, 5)  # Bo wins: only his own decision opens, nobody else's changes
    with pytest.raises(UndoRefused, match="cannot be taken back: every bid is in, so the bids are "
                                          "revealed"):
        await undo(env.sessions, gid, GUEST)
    await env.sessions.act(gid, 1, {"type": "gold"}, user_id=GUEST)
    with pytest.raises(UndoRefused, match="passed the decision"):
        await undo(env.sessions, gid, GUEST)


async def test_a_finished_game_takes_nothing_back(env: Env) -> None:
    gid = await _game(env)
    await env.sessions.end(gid, "the host ended it")
    with pytest.raises(TableError, match="is over"):
        await undo(env.sessions, gid, HOST)


def _row(engine: DuelEngine, players: int = 3, seed: int = 3) -> GameRow:
    seats = [SeatRow(k, 100 + k, False, n) for k, n in enumerate(("Ada", "Bo", "Cy")[:players])]
    return GameRow(id=1, guild_id=5, channel_id=6, thread_id=None, game_key=engine.key,
                   status="active", version=1, seed=seed, options={}, state=None, host_id=100,
                   deadline=None, seats=seats)


def _played(engine: DuelEngine, row: GameRow, log_: list[tuple[int, Action, str]]) -> GameRow:
    state = engine.replay(len(row.seats), row.seed, row.options, [(s, a) for s, a, _ in log_])
    row.state = engine.to_json(state)
    return row


def test_a_move_that_told_another_seat_a_secret_cannot_be_taken_back() -> None:
    engine = TellingDuel()
    row = _row(engine)
    hand = engine.setup(3, row.seed).hands[0]
    log_: list[tuple[int, Action, str]] = [(0, {"type": "bid", "card": hand[0]}, "player")]
    with pytest.raises(UndoRefused, match="Bo was shown something in secret by your move"):
        plan_undo(engine, _played(engine, row, log_), 0, log_)
    plain = UndoDuel()
    assert plan_undo(plain, _played(plain, _row(plain), log_), 0, log_).seat == 0


def test_a_move_that_changed_another_seats_view_cannot_be_taken_back() -> None:
    engine = PeekingDuel()
    row = _row(engine)
    hand = engine.setup(3, row.seed).hands[0]
    log_: list[tuple[int, Action, str]] = [(0, {"type": "bid", "card": hand[0]}, "player")]
    with pytest.raises(UndoRefused, match="changed what Bo and Cy hold or knows"):
        plan_undo(engine, _played(engine, row, log_), 0, log_)


def test_a_log_that_does_not_replay_to_the_stored_state_takes_nothing_back() -> None:
    engine = UndoDuel()
    row = _row(engine)
    hand = engine.setup(3, row.seed).hands[0]
    log_: list[tuple[int, Action, str]] = [(0, {"type": "bid", "card": hand[0]}, "player")]
    row = _played(engine, row, log_)
    assert row.state is not None
    row.state = {**row.state, "points": [9, 0, 0]}
    with pytest.raises(UndoRefused, match="does not replay exactly"):
        plan_undo(engine, row, 0, log_)


# ------------------------------------------------------------------------------ races

@pytest.mark.parametrize("undo_first", [True, False])
async def test_an_undo_racing_the_closing_bid_leaves_one_consistent_game(
        env: Env, undo_first: bool) -> None:
    """Both wait on the game's lock: whichever comes second sees what the first did."""
    gid = await _game(env, players=2)
    await _bid(env, gid, 0, 5)
    bo = await _ticket(env, gid, 1)
    taking_back = undo(env.sessions, gid, HOST)
    bidding = env.sessions.act(gid, 1, {"type": "bid", "card": 1}, user_id=GUEST, answers=bo)
    first, second = (taking_back, bidding) if undo_first else (bidding, taking_back)
    results = await asyncio.gather(first, second, return_exceptions=True)
    actions = await env.storage.actions(gid)
    if undo_first:
        assert not any(isinstance(r, Exception) for r in results)
        assert [s for s, _, _ in actions] == [1]  # Bo's bid stands; Ada is asked again
        assert (await env.sessions.snapshot(gid)).waiting() == [0]
    else:
        assert isinstance(results[1], UndoRefused) and "Bo has played since" in str(results[1])
        assert [s for s, _, _ in actions] == [0, 1]
    assert await env.sessions.verify_replay(gid)


async def test_an_undo_losing_a_race_to_another_process_changes_nothing(
        env: Env, monkeypatch: pytest.MonkeyPatch) -> None:
    gid = await _game(env)
    await _bid(env, gid, 0)

    async def conflict(*args: Any, **kwargs: Any) -> int:
        raise VersionConflict("moved on")

    monkeypatch.setattr(env.storage, "undo_actions", conflict)
    with pytest.raises(Contention, match="nothing was taken back"):
        await undo(env.sessions, gid, HOST)
    assert len(await env.storage.actions(gid)) == 1


async def test_an_undo_in_a_process_that_read_the_game_before_reads_it_again(
        env: Env, tmp_path: Path) -> None:
    """Two processes on one database: the second one's copy of the game is older than the move
    the first one stored, so the log read fresh does not replay to it — it reads the game again
    instead of refusing."""
    gid = await _game(env)
    other = SqliteStorage(str(tmp_path / "herald.db"))
    await other.open()
    try:
        elsewhere = Sessions(other, CONFIG, Recorder(), now=env.clock)
        await elsewhere.snapshot(gid)  # (it has seen the game at the start)
        await _bid(env, gid, 0)
        await undo(elsewhere, gid, HOST)
        assert await elsewhere.verify_replay(gid)
        assert await other.actions(gid) == []
    finally:
        await other.close()


async def test_a_paused_game_takes_nothing_back_and_says_why(env: Env) -> None:
    gid = await _game(env)
    await _bid(env, gid, 0)
    await env.storage.pause_game(gid, by=HOST, now=env.clock.t)
    with pytest.raises(TableError, match="is paused by its host"):
        await undo(env.sessions, gid, HOST)
    assert len(await env.storage.actions(gid)) == 1
