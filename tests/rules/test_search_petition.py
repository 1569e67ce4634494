"""Petition's searching computer players (rules.search, rules.petition.search): the
determinization hook reads only the seat's view, keeps every card in one place, and the search is
reproducible. Budgets are tiny: these tests check what the search may read, not how well it plays
(``bench/strength.py --game petition`` measures that)."""

from __future__ import annotations

import functools
import random
from collections import Counter
from typing import Any

import pytest

from rules import registry, search
from rules.engine import InvalidOptions, Prompt
from rules.petition import PetitionEngine
from rules.petition.content import DECK_IDS
from rules.petition.state import PetitionState


def _registered() -> PetitionEngine:
    """Petition's engine as the registry hands it out."""
    engine = registry.get("petition")
    assert isinstance(engine, PetitionEngine)
    return engine


ENGINE = _registered()
TINY = search.Budget(iterations=6, horizon=8)


def reach(players: int, seed: int, steps: int, want: str) -> tuple[PetitionState, Prompt]:
    """A state after at least ``steps`` heuristic decisions where a prompt of kind ``want`` is
    open and searched (more than one candidate), with that prompt; a defence is looked for once
    the attacker's cards are down (the other side's face-down pick)."""
    state = ENGINE.setup(players, seed, {})
    rng = random.Random(seed)
    n = 0
    while ENGINE.result(state) is None:
        prompts = ENGINE.prompts(state)
        down = state.campaign is None or state.campaign.attack_ready
        if n >= steps and (want != "defend" or down):
            for p in prompts:
                if p.kind == want and search.candidates(
                        ENGINE, ENGINE.view(state, p.seat), p, random.Random(0))[1:]:
                    return state, p
        p = prompts[0]
        state, _ = ENGINE.apply(state, p.seat, ENGINE.bot_action(ENGINE.view(state, p.seat), p, rng))
        n += 1
    raise AssertionError(f"no searched {want} prompt in game {seed}")


def first_of(want: str, players: int = 4, steps: int = 0) -> tuple[PetitionState, Prompt]:
    for seed in range(40):
        try:
            return reach(players, seed, steps, want)
        except AssertionError:
            continue
    raise AssertionError(f"no searched {want} prompt in 40 games")


@functools.cache
def positions() -> list[tuple[PetitionState, Prompt]]:
    """A turn, a challenge, a face-down defence (the attacker's cards already down), a battle's
    reinforcement and a captured pillar to place, at two, four and six players."""
    return [first_of("turn", 2, 10), first_of("challenge", 4), first_of("defend", 4),
            first_of("reinforce", 6), first_of("place", 4), first_of("bid", 4)]


def places(state: PetitionState) -> Counter[str]:
    """Every card id wherever it lies (a tallied campaign's cards lie in the discard pile)."""
    s = state
    out: Counter[str] = Counter(s.deck + s.discard)
    for p in s.seats:
        out.update(p.hand)
    for g in s.gods.values():
        out.update(g.lock or [])
    if s.petition is not None:
        for b in (s.petition.holder, s.petition.challenger):
            if b is not None:
                out.update(b.bid_cards())
    if s.campaign is not None and s.campaign.stage != "done":
        out.update(s.campaign.attack + s.campaign.defend)
    return out


def test_determinized_state_shows_the_seat_the_same_view() -> None:
    """A sampled state, seen by the seat it was sampled for, is the position it was sampled from."""
    for state, prompt in positions():
        view = ENGINE.view(state, prompt.seat)
        for r in range(3):
            sample = ENGINE.determinize(view, prompt.seat, random.Random(r))
            assert ENGINE.view(sample, prompt.seat) == view
            assert ENGINE.prompt_for(sample, prompt.seat).kind == prompt.kind


def test_determinize_conserves_every_card_and_count() -> None:
    """Each of the deck's cards lies in exactly one place in a sample, and every public count
    (hands, deck, discard pile, face-down picks) is the real state's."""
    for state, prompt in positions():
        assert places(state) == Counter(DECK_IDS)
        view = ENGINE.view(state, prompt.seat)
        sample = ENGINE.determinize(view, prompt.seat, random.Random(7))
        assert places(sample) == Counter(DECK_IDS)
        assert [len(p.hand) for p in sample.seats] == [len(p.hand) for p in state.seats]
        assert (len(sample.deck), len(sample.discard)) == (len(state.deck), len(state.discard))
        assert sample.seats[prompt.seat].hand == state.seats[prompt.seat].hand


def test_a_face_down_pick_is_dealt_cards_it_could_hold() -> None:
    """The attacker's face-down opening cards, unknown to the defender, are drawn from the cards
    an attack on that pillar may lay."""
    from rules.petition.battle import can_play
    from rules.petition.content import CARDS

    state, prompt = first_of("defend", 4)
    c = state.campaign
    assert c is not None and c.attack_ready and not c.attack_locked
    view = ENGINE.view(state, prompt.seat)
    for r in range(5):
        sample = ENGINE.determinize(view, prompt.seat, random.Random(r))
        sc = sample.campaign
        assert sc is not None and len(sc.attack) == len(c.attack)
        assert all(can_play(CARDS[x], "attack", c.pillar, favour=c.attack_bonus > 0, locked=False)
                   for x in sc.attack)


def test_determinized_hidden_cards_vary_with_the_draw() -> None:
    """What the seat cannot know is drawn at random, not copied from somewhere."""
    state, prompt = positions()[2]
    view = ENGINE.view(state, prompt.seat)
    other = (prompt.seat + 1) % state.players
    hands = {repr(ENGINE.determinize(view, prompt.seat, random.Random(r)).seats[other].hand)
             for r in range(8)}
    assert len(hands) > 1


def test_search_never_reads_another_seats_secrets() -> None:
    """Two states that differ only in what another seat holds in secret (the conformance suite's
    variants: hands, hidden deck order, face-down picks) give the same decision and the same
    tallies, with the same seed and budget."""
    checked = 0
    for state, prompt in positions():
        base = search.run(ENGINE, ENGINE.view(state, prompt.seat), prompt, random.Random(5), TINY)
        for other in range(state.players):
            if other == prompt.seat:
                continue
            for variant in ENGINE.secret_variants(state, other, random.Random(other)):
                got = search.run(ENGINE, ENGINE.view(variant, prompt.seat), prompt,
                                 random.Random(5), TINY)
                assert got.action == base.action
                assert got.visits == base.visits and got.values == base.values
                checked += 1
    assert checked


def test_search_is_reproducible_for_a_seed_and_an_iteration_budget() -> None:
    for state, prompt in positions()[:3]:
        view = ENGINE.view(state, prompt.seat)
        a = search.run(ENGINE, view, prompt, random.Random(9), TINY)
        b = search.run(ENGINE, view, prompt, random.Random(9), TINY)
        assert a.action == b.action and a.visits == b.visits and a.values == b.values
        assert a.iterations == TINY.iterations == sum(a.visits)


def test_the_solo_game_and_a_discard_follow_the_heuristic() -> None:
    """Nothing is searched in the solo game (its stacks are hidden from the player too) nor in a
    discard down to the hand limit: the only candidate is the heuristic's answer."""
    state = ENGINE.setup(1, 4, {})
    prompt = ENGINE.prompts(state)[0]
    view = ENGINE.view(state, prompt.seat)
    assert search.candidates(ENGINE, view, prompt, random.Random(1)) == [
        ENGINE.bot_action(view, prompt, random.Random(random.Random(1).random()))]


def test_searching_players_play_a_whole_game_legally() -> None:
    """Every strength answers every prompt with an action the engine accepts, to the end."""
    for players in (2, 5):
        state = ENGINE.setup(players, 3, {})
        rng = random.Random(3)
        while ENGINE.result(state) is None:
            p = ENGINE.prompts(state)[0]
            view = ENGINE.view(state, p.seat)
            if p.seat == 1:
                action = search.search(ENGINE, view, p, random.Random(rng.random()),
                                       search.Budget(iterations=3, horizon=4))
            else:
                action = search.choose(ENGINE, view, p, random.Random(rng.random()), "easy")
            state, _ = ENGINE.apply(state, p.seat, action)


def test_strength_is_a_table_option_with_three_values() -> None:
    for value in search.STRENGTHS:
        ENGINE.setup(3, 1, {search.STRENGTH_OPTION: value})
    with pytest.raises(InvalidOptions, match="easy, normal, hard"):
        ENGINE.setup(3, 1, {search.STRENGTH_OPTION: "expert"})
    assert search.STRENGTH_OPTION in ENGINE.option_help


def test_evaluation_prefers_captured_pillars() -> None:
    """The horizon's estimate lies in 0..1 and rises with the seat's captured pillars."""
    from rules.petition.search import evaluate
    from rules.petition.state import PillarRef

    state, _ = first_of("turn", 3, 6)
    before = evaluate(state, 0)
    assert 0.0 < before < 1.0
    won: Any = ENGINE.clone(state)
    won.seats[1].pillars["war"].captured_by = 0
    won.seats[0].stash.append(PillarRef(1, "war"))
    assert evaluate(won, 0) > before
    assert evaluate(won, 1) < evaluate(state, 1)


def test_the_fast_copy_is_the_generic_deep_copy() -> None:
    """``clone`` (a field-by-field copy, for the search's thousands of steps) makes the state the
    generic deep copy makes, over whole seeded games, and changing the copy leaves the original
    alone."""
    import copy

    for players in (1, 2, 5):
        state = ENGINE.setup(players, 8, {})
        rng = random.Random(8)
        while True:
            twin = ENGINE.clone(state)
            assert ENGINE.to_json(twin) == ENGINE.to_json(copy.deepcopy(state))
            before = ENGINE.to_json(state)
            for player in twin.seats:
                player.hand.append("PT01")
                player.stash.clear()
                for q in player.pillars.values():
                    q.captured_by = 9
            twin.deck.clear()
            for g in twin.gods.values():
                g.holder = 9
                if g.lock is not None:
                    g.lock.append("PT01")
            if twin.petition is not None:
                twin.petition.answers[9] = 1
                for b in (twin.petition.holder, twin.petition.challenger):
                    if b is not None:
                        b.standing.append("PT01")
            if twin.campaign is not None:
                twin.campaign.attack.append("PT01")
            assert ENGINE.to_json(state) == before
            if ENGINE.result(state) is not None:
                break
            p = ENGINE.prompts(state)[0]
            state, _ = ENGINE.apply(state, p.seat,
                                    ENGINE.bot_action(ENGINE.view(state, p.seat), p, rng))


def test_search_budgets_grow_with_the_strength() -> None:
    normal, hard = search.budget_for(ENGINE, "normal"), search.budget_for(ENGINE, "hard")
    assert hard.iterations > normal.iterations and hard.horizon >= normal.horizon
