"""The engines' fast paths (issue 12) give exactly what their plain definitions give.

The platform asks for every seat's private view, the state's JSON and a fresh copy on every step,
so Hegemony of Faith and Cult Wars take shortcuts there: copies made field by field from the
declared types (or a marshal round trip) rather than a pickle round trip or a generic walk, one
pass over the seats for the sects of the public view, and a search over distinct card sums for
Cult Wars' computer player. Each is compared here with the slow, obvious way over whole seeded
games (or many random inputs), exactly: same JSON text, same types, nothing shared.
"""

from __future__ import annotations

import json
import pickle
import random
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from rules import registry
from rules.cult_wars import plan
from rules.cult_wars import state as cw_state
from rules.cult_wars.content import SLOTS, STRATEGY_VALUES
from rules.engine import Engine
from rules.hegemony_of_faith import engine as hof_engine
from rules.hegemony_of_faith import sects
from rules.hegemony_of_faith import state as hof_state

HOF = registry.get("hegemony_of_faith")
CW = registry.get("cult_wars")


def _text(data: Any) -> str:
    """JSON text that tells ``true`` from ``1`` and keeps key order (so the same text is the same
    value, the same types and the same layout)."""
    return json.dumps(data)


def _game(engine: Engine[Any], players: int, seed: int, options: Mapping[str, Any] | None = None) -> Iterator[Any]:
    rng = random.Random(seed)
    state = engine.setup(players, seed, options)
    yield state
    while engine.result(state) is None:
        p = rng.choice(engine.prompts(state))
        state, _ = engine.apply(state, p.seat, engine.bot_action(engine.view(state, p.seat), p, rng))
        yield state


def _same_as_pickled(twin: Any, s: Any) -> bool:
    """``twin`` equals the pickle round trip of ``s``: every attribute, the RNG by its fields."""
    old = pickle.loads(pickle.dumps(s, pickle.HIGHEST_PROTOCOL))
    fields = [k for k in vars(old) if k != "rng"]
    return bool(list(vars(twin)) == list(vars(old)) and all(getattr(twin, k) == getattr(old, k) for k in fields)
                and twin.rng.to_json() == old.rng.to_json())


@pytest.mark.parametrize(("players", "seed"), [(4, 21), (5, 8)])
def test_hegemony_copies_are_the_generic_copies(players: int, seed: int) -> None:
    """Every field copied by its declared shape equals the generic walk's copy, and a clone
    equals what the pickle round trip made."""
    assert {shape for _, shape in hof_state._SHAPES} == {hof_state._SCALAR, hof_state._FLAT,
                                                        hof_state._NESTED, hof_state._ANY}
    for s in _game(HOF, players, seed):
        fast = hof_state._copied(s.__dict__)
        slow = {name: hof_state._plain(getattr(s, name)) for name in hof_state._FIELD_NAMES}
        assert list(fast) == list(slow) and _text(fast) == _text(slow)
        twin = HOF.clone(s)
        assert _same_as_pickled(twin, s) and _text(HOF.to_json(twin)) == _text(HOF.to_json(s))
        assert twin.rng is not s.rng and twin.stack is not s.stack


def test_hegemony_field_shapes_follow_the_declared_types() -> None:
    shape = hof_state._shape
    assert shape("int") == shape("str | None") == shape("bool") == hof_state._SCALAR
    assert shape("list[int]") == shape("list[int | None]") == shape("list[str]") == hof_state._FLAT
    assert shape("list[list[int]]") == shape("list[list[str]]") == hof_state._NESTED
    for other in ("list[dict[str, Any]]", "list[Frame]", "Rng", "dict[str, int]", "list[tuple[int, int]]",
                  "list[list[dict[str, Any]]]", "Any"):
        assert shape(other) == hof_state._ANY, other


def test_hegemony_public_sects_are_what_the_sect_helpers_say() -> None:
    """The public view finds every seat's Followers in one pass; it must list what ``followers``,
    ``members`` and ``sect_count`` say, in their order."""
    seen_followers = False
    for players, seed in ((4, 2), (6, 5)):
        for s in _game(HOF, players, seed):
            v = hof_engine.public_view(s)
            for seat in v["seats"]:
                assert seat["followers"] == sects.followers(s, seat["seat"])
                seen_followers |= bool(seat["followers"])
            assert v["sects"] == [{"leader": lead, "members": sects.members(s, lead),
                                   "believers": sects.sect_count(s, lead)} for lead in sects.leaders(s)]
    assert seen_followers, "these seeds should form a sect with Followers"


def _assign_by_every_subset(wish: Mapping[str, float], budget: int,
                            values: tuple[int, ...]) -> dict[str, list[int]]:
    """What ``plan.assign`` computes, the obvious way: every subset of the cards left, each time."""
    left = list(values)
    room = max(0, budget)
    out: dict[str, list[int]] = {s: [] for s in SLOTS}
    for slot in sorted(SLOTS, key=lambda s: (-wish.get(s, 0.0), SLOTS.index(s))):
        want = wish.get(slot, 0.0)
        if want <= 0 or not left:
            continue
        best: tuple[float, int, tuple[int, ...]] | None = None
        for mask in range(1 << len(left)):
            idx = tuple(i for i in range(len(left)) if mask >> i & 1)
            total = sum(left[i] for i in idx)
            if total <= room and (best is None or (abs(total - want), len(idx), idx) < best):
                best = (abs(total - want), len(idx), idx)
        if best is None or not best[2]:
            continue
        chosen = [left[i] for i in best[2]]
        for v in chosen:
            left.remove(v)
        out[slot] = sorted(chosen, reverse=True)
        room -= sum(chosen)
    return out


def test_cult_wars_assign_is_the_every_subset_search() -> None:
    rng = random.Random(12)
    for _ in range(3000):
        wish = {s: rng.choice([0.0, rng.uniform(0, 24), float(rng.randint(0, 20)), rng.randint(0, 20) + 0.5])
                for s in SLOTS if rng.random() < 0.85}
        budget = rng.randint(-1, 30)
        values = STRATEGY_VALUES if rng.random() < 0.6 else tuple(
            rng.choice((1, 1, 2, 3, 4, 5, 8)) for _ in range(rng.randint(0, 7)))
        assert plan.assign(wish, budget, values) == _assign_by_every_subset(wish, budget, values), (
            wish, budget, values)


@pytest.mark.parametrize("insignia", ["two_step", "single"])
def test_cult_wars_clone_is_what_the_pickle_round_trip_made(insignia: str) -> None:
    for s in _game(CW, 4, 9, {"insignia": insignia}):
        twin = CW.clone(s)
        assert _same_as_pickled(twin, s) and _text(CW.to_json(twin)) == _text(CW.to_json(s))
        for name in ("cults", "deck", "discard", "targets", "orders", "history"):
            assert getattr(twin, name) is not getattr(s, name), name
        # (a turn's record is replaced whole, never changed in place: shared; the history's list
        # is copied, its entries shared for the same reason)
        assert twin.last_turn is s.last_turn
        assert all(a is b for a, b in zip(twin.history, s.history, strict=True))


def test_cult_wars_clone_deep_copies_what_marshal_does_not_take() -> None:
    class Note(str):
        """A str subclass: marshal refuses it, so the copy falls back to deepcopy."""

    s = CW.setup(3, 4)
    s.resolution = {"note": [Note("kept")]}
    twin = CW.clone(s)
    assert twin.resolution == s.resolution and type(twin.resolution["note"][0]) is Note
    assert twin.resolution["note"] is not s.resolution["note"]
    assert cw_state._data_copy((1, [2.5, True, None])) == (1, [2.5, True, None])
