"""The computer player's fixes of issue 29: Chaos Coming is not spent again once a deal has
evened the hands out, and what Info-Spy revealed this turn steers the attack that follows."""

from __future__ import annotations

import random

from rules.engine import Action
from rules.hegemony_of_faith import ENGINE
from rules.hegemony_of_faith import bot as player
from rules.hegemony_of_faith.cards import ACTION_CARDS
from rules.hegemony_of_faith.state import State

from .helpers import do, flock, hand, prompt, table


def _score(s: State, seat: int, action: Action) -> float:
    return player._score(player._Me(ENGINE.view(s, seat)), action)


def test_chaos_coming_is_worth_a_deal_only_while_the_hand_is_short() -> None:
    """With two cards against rivals' five, a deal of every hand pays; holding the share a deal
    would give, it is worth less than ending the turn (the player once spent all three charges
    in one turn)."""
    s = table(skills={0: "Chaos Coming"})
    flock(s, 0, 1, 2)
    hand(s, 0, "Info-Spy", "Secret Alliance")
    for k in (1, 2, 3):
        hand(s, k, "Have a Charity", "Faith War", "Martyrdom", "Conspiracy", "Spread Rumors")
    use = {"type": "skill", "skill": "Chaos Coming"}
    end = {"type": "end"}
    assert _score(s, 0, use) > _score(s, 0, end)
    s2 = table(skills={0: "Chaos Coming"})
    flock(s2, 0, 1, 2)
    for k in range(4):
        hand(s2, k, "Have a Charity", "Faith War", "Martyrdom", "Conspiracy")
    assert _score(s2, 0, use) < _score(s2, 0, end)


def test_chaos_coming_is_used_at_most_twice_a_turn_in_computer_games() -> None:
    """Seeded four-player games of computer players: no turn spends three charges."""
    most = 0
    for seed in range(40):
        s = ENGINE.setup(4, seed, {})
        rng = random.Random(seed)
        per: dict[tuple[int, int], int] = {}
        while ENGINE.result(s) is None:
            p = ENGINE.prompts(s)[0]
            a = ENGINE.bot_action(ENGINE.view(s, p.seat), p, rng)
            if a.get("skill") == "Chaos Coming":
                key = (s.turn_no, p.seat)
                per[key] = per.get(key, 0) + 1
            s, _ = ENGINE.apply(s, p.seat, a)
        most = max([most, *per.values()])
    assert most <= 2


def test_info_spy_steers_the_attack_away_from_a_defence_it_saw() -> None:
    """After Info-Spy shows the target holds Great Mercy, a physical attack on it scores below the
    same attack on a rival it did not see; after it shows no defence, above."""
    s = table()
    flock(s, 0, 1, 2, 3)
    for k in (1, 2):
        flock(s, k, 4, 5)
    hand(s, 0, "Info-Spy", "Faith War")
    hand(s, 1, "Great Mercy")
    hand(s, 2, "Have a Charity")
    war = {"type": "play", "card": "Faith War"}
    before = _score(s, 0, {**war, "target": 1}) - _score(s, 0, {**war, "target": 2})
    spied = do(s, (0, {"type": "play", "card": "Info-Spy", "target": 1}))
    assert "Great Mercy" in [ACTION_CARDS[c] for c in spied.hands[1]]
    assert prompt(spied, 0).kind == "turn"
    after = _score(spied, 0, {**war, "target": 1}) - _score(spied, 0, {**war, "target": 2})
    assert after <= before - 4.0
    clean = do(s, (0, {"type": "play", "card": "Info-Spy", "target": 2}))
    assert _score(clean, 0, {**war, "target": 2}) > _score(s, 0, {**war, "target": 2})
