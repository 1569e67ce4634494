"""The engines' fast state copies (issue 12) make exactly what the slow generic ones made.

``to_json``, ``from_json`` and ``clone`` run on every step, so Hegemony of Faith and Cult Wars
use direct walks and pickle round trips instead of ``dataclasses.asdict`` and
``copy.deepcopy``, and Cult Wars reuses its ready-made orders. These tests compare the fast
paths with the generic ones over whole seeded games, and check that no copy shares anything
with what it was made from.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator
from dataclasses import asdict, fields
from typing import Any

import pytest

from rules import registry
from rules.cult_wars import plan
from rules.cult_wars.state import CultWarsState
from rules.engine import Engine, NotYourTurn, Prompt
from rules.hegemony_of_faith.state import State


def _canonical(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def _game(engine: Engine[Any], players: int, seed: int) -> Iterator[Any]:
    """Every state of one seeded game played by the computer player, setup included."""
    rng = random.Random(seed)
    state = engine.setup(players, seed)
    yield state
    while engine.result(state) is None:
        p = rng.choice(engine.prompts(state))
        state, _ = engine.apply(state, p.seat, engine.bot_action(engine.view(state, p.seat), p, rng))
        yield state


def _old_hegemony_to_json(s: State, schema_version: int) -> dict[str, Any]:
    """What Hegemony of Faith's ``to_json`` was: ``dataclasses.asdict`` then the RNG."""
    d = asdict(s)
    d.pop("rng")
    d["rng"] = s.rng.to_json()
    d["schema_version"] = schema_version
    return d


HOF = registry.get("hegemony_of_faith")
CW = registry.get("cult_wars")


@pytest.mark.parametrize(("players", "seed"), [(4, 3), (6, 11)])
def test_hegemony_to_json_is_what_asdict_made_at_every_step(players: int, seed: int) -> None:
    for s in _game(HOF, players, seed):
        new, old = HOF.to_json(s), _old_hegemony_to_json(s, HOF.schema_version)
        assert new == old
        assert list(new) == list(old)  # same key order, so the same text even unsorted
        assert json.dumps(new) == json.dumps(old)
        again = HOF.from_json(json.loads(json.dumps(new)))
        assert _canonical(HOF.to_json(again)) == _canonical(new)


def _deep_mutations(s: Any) -> None:
    """Change every kind of nested value a Hegemony of Faith state holds."""
    s.hands[0].append(999)
    s.believers[1].clear()
    s.log.append("changed")
    s.stack.append({"kind": "changed", "seats": [1, 2]})
    for frame in s.stack[:-1]:
        frame["changed"] = True
    s.intel[0] = {"changed": [1]}
    s.rng.position += 5


def test_hegemony_copies_share_nothing_with_their_source() -> None:
    states = list(_game(HOF, 4, 7))
    for s in states[::25] + [next(st for st in states if st.stack)]:
        before = _canonical(HOF.to_json(s))
        twin = HOF.clone(s)
        assert _canonical(HOF.to_json(twin)) == before
        _deep_mutations(twin)
        assert _canonical(HOF.to_json(s)) == before

        data = HOF.to_json(s)
        data["hands"][0].append(999)
        data["log"].clear()
        for frame in data["stack"]:
            frame["changed"] = True
        assert _canonical(HOF.to_json(s)) == before

        stored = json.loads(before)
        loaded = HOF.from_json(stored)
        _deep_mutations(loaded)
        assert _canonical(stored) == before


def test_a_deep_copy_of_something_holding_a_state_keeps_it_shared() -> None:
    """``copy.deepcopy`` of a structure naming one state twice copies it once (the memo)."""
    for s in (HOF.setup(4, 1), CW.setup(4, 1)):
        a, b = copy.deepcopy([s, s])
        assert a is b and a is not s


def test_cult_wars_clone_shares_nothing_with_its_source() -> None:
    for s in list(_game(CW, 4, 5))[::3]:
        assert isinstance(s, CultWarsState)
        before = _canonical(CW.to_json(s))
        twin = CW.clone(s)
        assert _canonical(CW.to_json(twin)) == before
        twin.cults[0].hand.append("AC99")
        twin.cults[1].followers += 3
        twin.deck.reverse()
        twin.targets[0] = 3
        for o in twin.orders.values():
            o.slots["attack"].append(8)
            o.face_up.append("defend")
        if twin.resolution is not None:
            twin.resolution["changed"] = True
        twin.history.append({"changed": True})
        twin.rng.position += 1
        assert _canonical(CW.to_json(s)) == before


def _seats_and_kinds(prompts: list[Prompt]) -> list[tuple[int, str]]:
    return [(p.seat, p.kind) for p in prompts]


@pytest.mark.parametrize("insignia", ["two_step", "single"])
def test_cult_wars_views_and_prompt_for_match_the_full_prompt_list(insignia: str) -> None:
    rng = random.Random(2)
    state = CW.setup(4, 2, {"insignia": insignia})
    checked_split = False
    while CW.result(state) is None:
        prompts = CW.prompts(state)
        assert CW.view(state, None)["waiting_for"] == sorted({p.seat for p in prompts})
        for seat in range(4):
            mine = [p for p in prompts if p.seat == seat]
            if mine:
                assert CW.prompt_for(state, seat) == mine[0]
            else:
                with pytest.raises(NotYourTurn) as ours:
                    CW.prompt_for(state, seat)
                with pytest.raises(NotYourTurn) as base:
                    Engine.prompt_for(CW, state, seat)
                assert str(ours.value) == str(base.value)
        checked_split |= state.phase == "split"
        p = rng.choice(prompts)
        state, _ = CW.apply(state, p.seat, CW.bot_action(CW.view(state, p.seat), p, rng))
    assert CW.view(state, None)["waiting_for"] == []
    if insignia == "two_step":
        assert checked_split, "this seed should reach a defender's split"


def test_cult_wars_presets_are_fresh_copies_of_the_uncached_ones() -> None:
    followers, vp = [12, 9, 15, 4], [3, 5, 5, 0]
    for fixed in (None, 2):
        first = plan.preset_orders(0, 4, followers, vp, fixed_target=fixed)
        for _, _, action in first:
            action["slots"]["defend"].append(99)
            action["face_up"].append("defend")
            action["type"] = "changed"
        again = plan.preset_orders(0, 4, followers, vp, fixed_target=fixed)
        leader = max((1, 2, 3), key=lambda k: (vp[k], followers[k], -k))
        uncached = plan._presets.__wrapped__(0, 4, followers[0], leader, fixed)
        assert again == list(uncached)
        assert all(a["type"] == "orders" and 99 not in a["slots"]["defend"] for _, _, a in again)


FOF = registry.get("flick_of_faith")


@pytest.mark.parametrize(("players", "seed"), [(2, 4), (4, 9)])
def test_flick_clone_is_what_deepcopy_made_and_shares_nothing(players: int, seed: int) -> None:
    for s in list(_game(FOF, players, seed))[::7]:
        before = _canonical(FOF.to_json(s))
        twin = FOF.clone(s)
        old = copy.deepcopy(s)
        assert [getattr(twin, f.name) for f in fields(s) if f.name != "rng"] == [
            getattr(old, f.name) for f in fields(s) if f.name != "rng"]
        assert twin.rng is not s.rng and twin.rng.to_json() == s.rng.to_json()
        assert _canonical(FOF.to_json(twin)) == before
        twin.discs.append({"id": 999, "kind": "prophet", "owner": 0, "x": 1.0, "y": 1.0})
        for d in twin.discs[:-1]:
            d["x"] += 1.0
        for x in twin.supply:
            x["changed"] = 1
        twin.vp[0] += 7
        twin.turn["changed"] = [1]
        twin.picks["0"] = "changed"
        if twin.last_flick is not None:
            twin.last_flick["changed"] = True
        twin.rng.position += 3
        assert _canonical(FOF.to_json(s)) == before
