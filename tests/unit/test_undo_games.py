"""Each built-in game's undo policy, with the platform's rules around it (``bot.undo.plan_undo``):
what may be taken back (a secret choice while others still choose, a step of one's own turn
that shows nothing and leaves nothing to chance) and what may not (a flick, a draw, a shuffle, a
closed secret round, a turn handed on), each refusal one sentence."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from bot.storage import GameRow, SeatRow
from bot.undo import UndoRefused, plan_undo
from rules import registry
from rules.engine import Action, Engine

Log = list[tuple[int, Action, str]]


def _row(engine: Engine[Any], players: int, seed: int, options: dict[str, Any],
         log_: Log) -> GameRow:
    seats = [SeatRow(k, 100 + k, False, f"Player{k + 1}") for k in range(players)]
    state = engine.replay(players, seed, options, [(s, a) for s, a, _ in log_])
    return GameRow(id=1, guild_id=5, channel_id=6, thread_id=None, game_key=engine.key,
                   status="active", version=len(log_) + 1, seed=seed, options=options,
                   state=engine.to_json(state), host_id=100, deadline=None, seats=seats)


def _drive(engine: Engine[Any], players: int, seed: int, options: dict[str, Any],
           until: Callable[[Any], bool], limit: int = 400) -> tuple[Any, Log]:
    """Computer players answer the first open prompt until ``until(state)``."""
    state = engine.setup(players, seed, options)
    log_: Log = []
    rng = random.Random(seed)
    for _ in range(limit):
        if until(state):
            return state, log_
        p = engine.prompts(state)[0]
        action = engine.bot_action(engine.view(state, p.seat), p, rng)
        state, _ = engine.apply(state, p.seat, action)
        log_.append((p.seat, action, "player"))
    raise AssertionError("the position was not reached")


def _take(engine: Engine[Any], state: Any, log_: Log, seat: int, action: Action) -> tuple[Any, Log]:
    after, _ = engine.apply(state, seat, action)
    return after, [*log_, (seat, action, "player")]


def _plan(engine: Engine[Any], players: int, seed: int, options: dict[str, Any], log_: Log) -> Any:
    return plan_undo(engine, _row(engine, players, seed, options, log_), log_[-1][0], log_)


def _prompt(engine: Engine[Any], state: Any, kind: str) -> Any:
    return next(p for p in engine.prompts(state) if p.kind == kind)


# ------------------------------------------------------------------------ Hegemony of Faith

HEGEMONY = "hegemony_of_faith"


def test_hegemony_a_secret_skill_may_be_taken_back_until_the_last_prophet_chooses() -> None:
    engine = registry.get(HEGEMONY)
    state = engine.setup(4, 5, {})
    log_: Log = []
    for k in range(4):
        prompt = _prompt(engine, state, "choose_skill")
        state, log_ = _take(engine, state, log_, prompt.seat, prompt.choices[1].action)
        if k < 3:
            plan = _plan(engine, 4, 5, {}, log_)
            assert plan.note.text == f"↩️ P{prompt.seat + 1} took back their last move: " \
                                     f"P{prompt.seat + 1} has chosen a skill."
            assert engine.to_json(plan.before) == engine.to_json(
                engine.replay(4, 5, {}, [(s, a) for s, a, _ in log_[:-1]]))
    with pytest.raises(UndoRefused):  # the last choice starts the game
        _plan(engine, 4, 5, {}, log_)


def test_hegemony_opening_the_discard_step_may_be_taken_back_but_ending_the_turn_not() -> None:
    engine = registry.get(HEGEMONY)

    def on_turn(s: Any) -> bool:
        return any(p.kind == "turn" and any(c.action["type"] == "discard" for c in p.choices)
                   for p in engine.prompts(s))

    state, log_ = _drive(engine, 4, 8, {}, on_turn)
    seat = _prompt(engine, state, "turn").seat
    after, taken = _take(engine, state, log_, seat, {"type": "discard"})
    assert _plan(engine, 4, 8, {}, taken).seat == seat
    _, ended = _take(engine, state, log_, seat, {"type": "end"})
    with pytest.raises(UndoRefused, match="passed the decision to"):
        _plan(engine, 4, 8, {}, ended)


def test_hegemony_refuses_chance_draws_reveals_and_shown_cards() -> None:
    engine = registry.get(HEGEMONY)
    before = engine.setup(4, 5, {})
    keep = {"type": "keep_skill", "skill": "x"}
    after = engine.clone(before)
    after.rng.position += 1
    assert engine.undoable(before, 0, keep, after, []) == \
        "something was left to chance since (a shuffle or a random pick)"
    after = engine.clone(before)
    after.action_deck.pop()
    assert engine.undoable(before, 0, keep, after, []) == "a card was drawn since"
    after = engine.clone(before)
    after.revealed[0] = True
    assert engine.undoable(before, 0, keep, after, []) == "a skill was revealed since"
    assert engine.undoable(before, 0, {"type": "play", "card": "x"}, engine.clone(before), []) == \
        "that kind of move is final in Hegemony of Faith"


# ------------------------------------------------------------------------------- Cult Wars

CULT_WARS = "cult_wars"


@pytest.mark.parametrize("insignia, kind", [("two_step", "target"), ("single", "orders")])
def test_cult_wars_a_secret_answer_may_be_taken_back_while_others_still_choose(
        insignia: str, kind: str) -> None:
    engine = registry.get(CULT_WARS)
    options = {"insignia": insignia}
    state = engine.setup(3, 4, options)
    log_: Log = []
    rng = random.Random(1)
    for k in range(3):
        prompt = _prompt(engine, state, kind)
        action = engine.bot_action(engine.view(state, prompt.seat), prompt, rng)
        state, log_ = _take(engine, state, log_, prompt.seat, action)
        if k < 2:
            assert _plan(engine, 3, 4, options, log_).seat == prompt.seat
    with pytest.raises(UndoRefused):  # the last answer reveals every cult's
        _plan(engine, 3, 4, options, log_)


def test_cult_wars_refuses_chance_and_splits() -> None:
    engine = registry.get(CULT_WARS)
    before = engine.setup(3, 4, {"insignia": "single"})
    after = engine.clone(before)
    after.rng.position += 1
    assert engine.undoable(before, 0, {"type": "orders"}, after, []) == \
        "something was left to chance since"
    assert engine.undoable(before, 0, {"type": "split"}, engine.clone(before), []) == \
        "a split of losses is final once chosen"
    after = engine.clone(before)
    after.turn += 1
    assert engine.undoable(before, 0, {"type": "orders"}, after, []) == \
        "every cult has submitted, so the orders are revealed"


# --------------------------------------------------------------------------- Flick of Faith

FLICK = "flick_of_faith"


def test_flick_a_secret_god_may_be_taken_back_until_the_last_one_is_chosen() -> None:
    engine = registry.get(FLICK)
    state = engine.setup(3, 7, {})
    log_: Log = []
    for k in range(3):
        prompt = _prompt(engine, state, "god")
        state, log_ = _take(engine, state, log_, prompt.seat, prompt.choices[0].action)
        if k < 2:  # (the pick is told to its own seat only: that is no reason to refuse)
            assert _plan(engine, 3, 7, {}, log_).seat == prompt.seat
    with pytest.raises(UndoRefused):
        _plan(engine, 3, 7, {}, log_)


def test_flick_a_flick_is_never_taken_back_but_a_temple_placed_after_it_may_be() -> None:
    """Seed 9: the computer players' first Missions, where a temple placed leaves its player
    another one to build (a temple that ends the turn hands it on, and is refused for that)."""
    engine = registry.get(FLICK)
    state = engine.setup(2, 9, {})
    log_: Log = []
    rng = random.Random(9)
    kept, handed_on, wobbles = 0, 0, 0
    for _ in range(40):
        p = engine.prompts(state)[0]
        action = engine.bot_action(engine.view(state, p.seat), p, rng)
        before = state
        state, log_ = _take(engine, state, log_, p.seat, action)
        if "angle" in action:
            with pytest.raises(UndoRefused) as refused:
                _plan(engine, 2, 9, {}, log_)
            wobbles += "a flick is never taken back" in str(refused.value)
        elif action["type"] == "build":
            try:
                plan = _plan(engine, 2, 9, {}, log_)
            except UndoRefused as refused:
                assert "passed the decision to" in str(refused)
                handed_on += 1
                continue
            assert engine.to_json(plan.before) == engine.to_json(before)
            assert plan.note.text.startswith(f"↩️ P{p.seat + 1} took back their last move: ")
            kept += 1
    assert kept and handed_on and wobbles


def test_flick_refuses_chance_and_law_draws() -> None:
    engine = registry.get(FLICK)
    before = engine.setup(3, 7, {})
    after = engine.clone(before)
    after.rng.position += 1
    assert engine.undoable(before, 0, {"type": "build"}, after, []) == \
        "something was left to chance since"
    after = engine.clone(before)
    after.law_deck.pop()
    assert engine.undoable(before, 0, {"type": "leave"}, after, []) == "a law card was drawn since"
    assert engine.undoable(before, 0, {"type": "flick", "angle": 0, "power": 5},
                           engine.clone(before), []) == \
        "a flick is never taken back, its wobble is left to chance"


# --------------------------------------------------------------------------------- Petition

PETITION = "petition"


def test_petition_taking_beads_may_be_taken_back_but_a_draw_not() -> None:
    engine = registry.get(PETITION)

    def on_turn(s: Any) -> bool:
        return any(p.kind == "turn" and {"type": "beads"} in [c.action for c in p.choices]
                   and {"type": "draw"} in [c.action for c in p.choices] for p in engine.prompts(s))

    state, log_ = _drive(engine, 3, 4, {}, on_turn)
    seat = _prompt(engine, state, "turn").seat
    _, took = _take(engine, state, log_, seat, {"type": "beads"})
    plan = _plan(engine, 3, 4, {}, took)
    assert engine.to_json(plan.before) == engine.to_json(state)
    _, drew = _take(engine, state, log_, seat, {"type": "draw"})
    with pytest.raises(UndoRefused, match="a card was drawn since"):
        _plan(engine, 3, 4, {}, drew)


# --------------------------------------------------------------------- Alternate Histories

ALTERNATE_HISTORIES = "alternate_histories"


def test_alternate_histories_a_secret_deck_may_be_taken_back_until_both_have_chosen() -> None:
    engine = registry.get(ALTERNATE_HISTORIES)
    state = engine.setup(2, 6, {})
    log_: Log = []
    rng = random.Random(2)
    for k in range(2):
        prompt = _prompt(engine, state, "deck")
        action = engine.bot_action(engine.view(state, prompt.seat), prompt, rng)
        state, log_ = _take(engine, state, log_, prompt.seat, action)
        if k == 0:
            assert _plan(engine, 2, 6, {}, log_).seat == prompt.seat
    with pytest.raises(UndoRefused):
        _plan(engine, 2, 6, {}, log_)
