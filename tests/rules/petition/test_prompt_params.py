"""The prompt contract the presentation relies on: card picks, their params, and refusals."""

from __future__ import annotations

import random

import pytest

from rules.engine import Action, IllegalAction
from rules.petition import ENGINE

from .helpers import act, cid, make, pick, prompt

CARD_KEYS = {"id", "name", "kind", "god", "points", "text"}
PURPOSES = {"bid", "attack", "defend", "reinforce", "solo_attack", "solo_add", "tithe"}


def test_every_card_pick_in_bot_games_has_the_agreed_params() -> None:
    seen: set[str] = set()
    for players, seed in ((1, 3), (3, 4), (5, 6)):
        rng = random.Random(seed)
        s = ENGINE.setup(players, seed)
        while ENGINE.result(s) is None:
            for p in ENGINE.prompts(s):
                if p.free_form is None:
                    assert p.choices and all(len(c.label) <= 80 for c in p.choices)
                    continue
                assert p.free_form == "cards" and not p.choices
                par = p.params
                assert set(par) == {"purpose", "pillar", "cards", "min", "max", "confirm", "can_pass"}
                assert par["purpose"] in PURPOSES and par["pillar"] in (None, "art", "economy", "magic", "war")
                assert all(set(c) - {"value"} == CARD_KEYS for c in par["cards"])
                if par["purpose"] in ("solo_attack", "solo_add"):
                    assert all("value" in c for c in par["cards"])
                assert 0 <= par["min"] <= par["max"] <= len(par["cards"])
                assert par["can_pass"] == (par["min"] == 0) and len(par["confirm"]) <= 30
                seen.add(par["purpose"])
            p = rng.choice(ENGINE.prompts(s))
            s, _ = ENGINE.apply(s, p.seat, ENGINE.bot_action(ENGINE.view(s, p.seat), p, rng))
    assert {"attack", "defend", "reinforce", "solo_attack"} <= seen


def test_bad_picks_are_refused_with_one_sentence() -> None:
    warlord, shield, poet = cid("Warlord"), cid("Shieldmaiden"), cid("Court Poet")
    s = make(2, hands=[[warlord, shield, poet], []], beads=[0, 0])
    s.seats[0].heathen_since = 0
    s, _ = act(s, 0, {"type": "attack", "seat": 1, "pillar": "war"})
    cases: list[tuple[Action, str]] = [
        ({"type": "cards", "cards": [warlord, warlord]}, "twice"),
        ({"type": "cards", "cards": [poet]}, "cannot be picked now"),
        ({"type": "cards", "cards": []}, "pick 1–2 cards"),
        ({"type": "cards", "cards": [7]}, "not a card id"),
        ({"type": "cards", "cards": warlord}, "must be a list"),
        ({"type": "cards"}, "needs \"cards\""),
        ({"type": "cards", "cards": [warlord], "extra": 1}, "unknown key"),
        ({"type": "pick", "cards": [warlord]}, "is not allowed now"),
    ]
    for action, words in cases:
        with pytest.raises(IllegalAction, match=words) as err:
            ENGINE.apply(s, 0, action)
        assert "\n" not in err.value.message and "Traceback" not in err.value.message
    s, _ = pick(s, 0, [warlord, shield])
    assert prompt(s, 1).kind == "defend"


def test_solo_picks_carry_each_cards_value_in_the_pillar() -> None:
    """Solo: a powerup counts its solo power, a citizen its points in the attacked pillar; the
    form adds up ``value`` rather than guessing."""
    wrath, rally, poet = cid("Wrath of Heaven"), cid("Rally the Militia"), cid("Court Poet")
    s = ENGINE.setup(1, 3)
    s.seats[0].hand = [wrath, rally, poet]
    s, _ = act(s, 0, {"type": "attack", "pillar": "art"})
    cards = {c["id"]: c for c in prompt(s, 0).params["cards"]}
    assert cards[wrath]["value"] == 2 and cards[rally]["value"] == 1 and cards[poet]["value"] == 3


def test_a_fortified_defender_sees_each_citizens_better_kind_as_its_value() -> None:
    """Magic fortified with Economy: the Grand Treasurer (4 Economy) is worth 4 in its defence."""
    from rules.petition.state import PillarRef

    treasurer, archmage = cid("Grand Treasurer"), cid("Archmage of the Spire")
    s = make(2, hands=[[archmage], [treasurer]], beads=[0, 0])
    s.seats[1].pillars["magic"].fortification = PillarRef(0, "economy")
    s.seats[0].pillars["economy"].captured_by = 1
    s.seats[0].heathen_since = 0
    s, _ = act(s, 0, {"type": "attack", "seat": 1, "pillar": "magic"})
    defend = prompt(s, 1).params["cards"]
    assert [(c["id"], c["value"]) for c in defend] == [(treasurer, 4)]
    attack = prompt(s, 0).params["cards"]
    assert all("value" not in c for c in attack)
