"""The platform's side of the computer players' strengths (issue 29): a strength per seat, the
``normal`` search deciding for a player whose deadline passed, hints, and tables that allow hints
not being rated."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.errors import TableError
from bot.hints import check_allowed, describe, hint_for
from bot.render.pool import hint_choice
from rules import registry, search
from rules.engine import Choice, InvalidOptions, Prompt
from tests.support.sessions import GUEST, HOST, THIRD, Env, session_env


@pytest.fixture
async def env(tmp_path: Path) -> AsyncIterator[Env]:
    async with session_env(tmp_path) as e:
        yield e


async def _cult_wars(env: Env, **kw: object) -> int:
    """A started three-cult game of Cult Wars (a game that searches): Ada, Bo and Cy."""
    table = await env.sessions.open_table(guild_id=5, channel_id=6, host_id=HOST, host_name="Ada",
                                          game_key="cult_wars", seed=21, **kw)  # type: ignore[arg-type]
    await env.sessions.join(table.id, GUEST, "Bo")
    await env.sessions.join(table.id, THIRD, "Cy")
    await env.sessions.start(table.id, HOST)
    return table.id


async def test_a_timeout_in_a_searching_game_is_decided_by_the_normal_search_and_replays(
        env: Env) -> None:
    gid = await _cult_wars(env)
    snap = await env.sessions.snapshot(gid)
    mine = snap.prompt_of(1)
    assert mine is not None and mine.prompt.kind == "target"
    engine = snap.engine
    seed = f"timeout/{engine.state_digest(snap.state)}/1/target"
    searched = search.run(engine, engine.view(snap.state, 1), mine.prompt,
                          random.Random(f"{seed}/normal"), search.budget_for(engine, "normal"))
    assert searched.iterations > 0 and len(searched.candidates) > 1  # (it did search)
    deadline = next(d for d in await env.storage.deadlines(gid) if d.seat == 1)
    update = await env.sessions.timeout(deadline)
    assert update is not None and update.kind == "timeout"
    assert update.actions == [(1, searched.action, "timeout")]
    assert await env.storage.actions(gid) == [(1, searched.action, "timeout")]
    # the same stored position gives the same action again, and the log replays to the state
    assert search.timeout_action(engine, snap.state, mine.prompt) == searched.action
    assert await env.sessions.verify_replay(gid)


def test_a_timeout_keeps_a_rule_of_the_games_own() -> None:
    """A Cult Wars defender who lets the deadline pass shares the losses in proportion (the
    game's rule), whatever a search would choose."""
    engine = registry.get("cult_wars")
    state = engine.setup(3, 5, {"insignia": "two_step"})
    rng = random.Random(5)
    while True:
        p = engine.prompts(state)[0]
        if p.kind == "split":
            break
        state, _ = engine.apply(state, p.seat, engine.bot_action(engine.view(state, p.seat), p, rng))
    assert search.timeout_action(engine, state, p) == engine.timeout_action(state, p)


async def test_a_computer_player_added_with_a_strength_plays_at_it(env: Env) -> None:
    table = await env.sessions.open_table(guild_id=5, channel_id=6, host_id=HOST, host_name="Ada",
                                          game_key="cult_wars", seed=3, bots=1, strength="easy",
                                          options={"computer": "normal"})
    await env.sessions.join(table.id, GUEST, "Bo")
    game = await env.sessions.add_bot(table.id, HOST, strength="hard")
    assert [s.name for s in game.seats][:3] == ["Ada", "Computer 2 (easy)", "Bo"]
    assert game.seats[3].name.endswith("(hard)") and game.seats[3].is_bot
    assert game.options[search.SEATS_OPTION] == {"1": "easy", "3": "hard"}
    # Bo leaves: the hard computer player's seat is now 2, and keeps its strength
    game = await env.sessions.leave(table.id, GUEST)
    assert game.options[search.SEATS_OPTION] == {"1": "easy", "2": "hard"}
    assert search.seat_strength(game.options, 2) == "hard"
    assert search.seat_strength(game.options, 1) == "easy"
    assert search.seat_strength(game.options, 0) == "normal"  # (the table's, for a seat taken over)
    with pytest.raises(TableError, match="easy, normal, hard"):
        await env.sessions.add_bot(table.id, HOST, strength="expert")
    with pytest.raises(TableError, match="only the host"):
        await env.sessions.add_bot(table.id, GUEST, strength="hard")


def test_seat_strengths_are_a_table_option_every_game_checks() -> None:
    for engine in registry.all_engines().values():
        players = engine.min_players
        engine.setup(players, 1, {search.SEATS_OPTION: {"0": "hard"}, search.HINTS_OPTION: True})
        with pytest.raises(InvalidOptions, match="not a seat"):
            engine.setup(players, 1, {search.SEATS_OPTION: {str(players): "hard"}})
        with pytest.raises(InvalidOptions, match="easy, normal, hard"):
            engine.setup(players, 1, {search.SEATS_OPTION: {"0": "expert"}})
        with pytest.raises(InvalidOptions, match="on or off"):
            engine.setup(players, 1, {search.HINTS_OPTION: "maybe"})


async def test_a_hint_is_the_normal_searchs_choice_in_the_decide_menus_words(env: Env) -> None:
    gid = await _cult_wars(env, options={"hints": True})
    snap = await env.sessions.snapshot(gid)
    mine = snap.prompt_of(0)
    assert mine is not None
    game = snap.game
    assert game.state is not None
    action = hint_choice(game.game_key, game.state, mine.prompt, f"{game.seed}/hint/{game.version}/0")
    expected = search.choose(snap.engine, snap.view(0), mine.prompt,
                             random.Random(f"{game.seed}/hint/{game.version}/0"), "normal")
    assert action == expected
    label = next(c.label for c in mine.prompt.choices if dict(c.action) == action)
    text = await hint_for(env.sessions, gid, 0)
    assert f"**{label}**" in text and "normal" in text
    check_allowed(game)  # (the table allows hints)


async def test_a_hint_reads_only_the_asking_seats_view(env: Env) -> None:
    """Positions that differ only in what another seat chose in secret give the same hint."""
    gid = await _cult_wars(env, options={"hints": True})
    snap = await env.sessions.snapshot(gid)
    other = snap.prompt_of(1)
    assert other is not None
    await env.sessions.act(gid, 1, dict(other.prompt.choices[0].action), answers=other.ticket)
    snap = await env.sessions.snapshot(gid)
    mine = snap.prompt_of(0)
    assert mine is not None
    engine, key = snap.engine, snap.game.game_key
    base = hint_choice(key, engine.to_json(snap.state), mine.prompt, "s")
    variants = engine.secret_variants(snap.state, 1, random.Random(1))
    assert variants
    for variant in variants:
        assert hint_choice(key, engine.to_json(variant), mine.prompt, "s") == base


async def test_hints_are_refused_in_a_rated_game_and_where_the_table_does_not_allow_them(
        env: Env) -> None:
    rated = await env.sessions.get(await _cult_wars(env))
    with pytest.raises(TableError, match="counts in this server's ratings"):
        check_allowed(rated)
    table = await env.sessions.open_table(guild_id=None, channel_id=9, host_id=HOST,
                                          host_name="Ada", game_key="cult_wars", bots=2, seed=4)
    with pytest.raises(TableError, match="does not allow hints"):
        check_allowed(table)


async def test_a_table_that_allowed_hints_counts_in_no_rating(env: Env) -> None:
    table = await env.sessions.open_table(guild_id=5, channel_id=6, host_id=HOST, host_name="Ada",
                                          game_key="duel", seed=11, options={"hints": True})
    await env.sessions.join(table.id, GUEST, "Bo")
    await env.sessions.start(table.id, HOST)
    game = await env.sessions.get(table.id)
    while game.status == "active":
        snap = await env.sessions.snapshot(game)
        prompt = snap.prompts[0]
        game = (await env.sessions.act(table.id, prompt.seat, dict(prompt.choices[-1].action),
                                       answers=snap.prompt_of(prompt.seat).ticket)).game  # type: ignore[union-attr]
    assert game.status == "finished"
    assert await env.storage.unsettled_games() == []
    assert await env.storage.ratings_of(5, HOST) == [] and await env.storage.ratings_of(5, GUEST) == []


def test_a_free_form_answer_is_described_in_words() -> None:
    flick = Prompt(0, "flick", "Flick.", (Choice("Leave it where it lies", {"type": "leave"}),),
                   free_form="flick")
    assert describe(flick, {"type": "leave"}) == "**Leave it where it lies**"
    assert describe(flick, {"type": "flick", "angle": -12.5, "power": 6.0}) == (
        "**a flick**: angle -12.5, power 6")
    build = Prompt(0, "build", "Build.", (), free_form="temple",
                   params={"islands": [{"index": 0, "name": "I", "x": 30, "y": 30},
                                       {"index": 1, "name": "II", "x": 70, "y": 30}]})
    assert describe(build, {"type": "build", "x": 68.0, "y": 33.0, "prophet": 4}) == (
        "**a temple** at x 68, y 33 (island II)")
