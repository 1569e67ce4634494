"""The public history a page steps through: replayed exactly as the stored game was played,
extended move by move, cut back by an undo, every step's state within a few moves of replay."""

from __future__ import annotations

import random
from typing import Any

from bot.web.timeline import CHECKPOINT, Timeline, turn_label
from rules import registry

KEY = b"k" * 32


def _log(key: str, players: int, seed: int, moves: int, prefix: list[Any] | None = None,
         rng_seed: int | None = None) -> list[tuple[int, dict[str, Any], str]]:
    """A seeded game's log of computer moves (continuing ``prefix`` with another rng, if given)."""
    engine = registry.get(key)
    state = engine.setup(players, seed, {})
    rng = random.Random(seed if rng_seed is None else rng_seed)
    log = list(prefix or [])
    for seat, action, _ in log:
        state, _ = engine.apply(state, seat, action)
    for _ in range(moves):
        prompts = engine.prompts(state)
        if not prompts:
            break
        p = prompts[0]
        action = engine.bot_action(engine.view(state, p.seat), p, rng)
        state, _ = engine.apply(state, p.seat, action)
        log.append((p.seat, action, "bot"))
    return log


def _fresh(log: list[tuple[int, dict[str, Any], str]]) -> Timeline:
    tl = Timeline(registry.get("cult_wars"), 3, 4, {}, KEY)
    tl.sync(log)
    return tl


def test_each_step_replays_to_the_state_the_moves_made() -> None:
    engine = registry.get("cult_wars")
    log = _log("cult_wars", 3, 4, 200)  # (the whole game: 49 moves)
    tl = _fresh(log)
    assert tl.last == len(log) > 2 * CHECKPOINT
    state = engine.setup(3, 4, {})
    for n, (seat, action, _) in enumerate(log, start=1):
        state, events = engine.apply(state, seat, action)
        assert engine.to_json(tl.state_at(n)) == engine.to_json(state)
        moment = tl.moments[n]
        assert moment.events == tuple(e for e in events if e.to is None)
        assert moment.waiting == tuple((p.seat, p.kind) for p in engine.prompts(state))
        assert moment.turn == turn_label(engine.view(state, None))
    assert sorted(tl._kept) == list(range(0, len(log) + 1, CHECKPOINT))


def test_moves_are_added_one_by_one_as_they_are_made() -> None:
    log = _log("cult_wars", 3, 4, 40)
    tl = Timeline(registry.get("cult_wars"), 3, 4, {}, KEY)
    for n in range(0, len(log), 7):
        tl.sync(log[:n])
    assert tl.sync(log) is True and tl.sync(log) is False
    assert [m.chain for m in tl.moments] == [m.chain for m in _fresh(log).moments]


def test_an_undo_cuts_the_history_back_to_the_last_shared_step() -> None:
    log = _log("cult_wars", 3, 4, 200)
    assert len(log) > 45
    tl = _fresh(log)
    kept = tl.moments[:38]
    assert tl.sync(log[:37]) is True
    assert tl.last == 37 and tl.moments == kept
    other = _log("cult_wars", 3, 4, 200, prefix=log[:37], rng_seed=99)
    assert other[:37] == log[:37] and other[37:] != log[37:]
    tl.sync(other)
    again = _fresh(other)
    assert [m.chain for m in tl.moments] == [m.chain for m in again.moments]
    assert registry.get("cult_wars").to_json(tl.state_at(45)) == registry.get("cult_wars").to_json(again.state_at(45))


def test_the_chain_names_the_history_without_telling_its_moves() -> None:
    """Two histories differing in one move differ in every chain from that move on; the chain is
    keyed, so another key (another process) gives other chains for the same history."""
    log = _log("cult_wars", 3, 4, 20)
    a = _fresh(log)
    other = Timeline(registry.get("cult_wars"), 3, 4, {}, b"x" * 32)
    other.sync(log)
    assert all(x.chain != y.chain for x, y in zip(a.moments, other.moments, strict=True))
    assert len({m.chain for m in a.moments}) == len(a.moments)
