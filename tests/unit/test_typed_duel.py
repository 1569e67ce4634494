"""The free-form example of the docs (the typed duel), at the engine: the bid is a free-form
prompt whose answer ``play`` reads exactly; the rest of the duel is unchanged."""

from __future__ import annotations

import random

import pytest

from rules.engine import IllegalAction
from tests.support.typed_duel import ENGINE


def test_a_free_form_bid_lists_the_cards_in_its_params() -> None:
    s = ENGINE.setup(2, 7)
    p = ENGINE.prompt_for(s, 0)
    assert (p.kind, p.free_form, p.secret, p.choices) == ("bid", "bid", True, ())
    assert p.params == {"cards": [1, 2, 3, 4, 5]}


@pytest.mark.parametrize(("action", "why"), [
    ({"type": "bid", "card": 9}, "you cannot bid 9; your cards are 1, 2, 3, 4, 5."),
    ({"type": "bid", "card": True}, "\"card\" in a bid must be a whole number, not true"),
    ({"type": "bid", "card": 3, "extra": 1}, "a bid has unknown key \"extra\""),
    ({"type": "bid"}, "a bid needs \"card\""),
])
def test_a_bid_is_read_exactly_and_refused_in_one_sentence(action: dict[str, object],
                                                          why: str) -> None:
    s = ENGINE.setup(2, 7)
    with pytest.raises(IllegalAction) as err:
        ENGINE.apply(s, 0, action)
    assert why in str(err.value)


def test_a_typed_duel_plays_to_the_end_with_computer_players() -> None:
    s = ENGINE.setup(3, 11)
    rng = random.Random(3)
    moves = 0
    while ENGINE.result(s) is None:
        p = ENGINE.prompts(s)[0]
        s, _ = ENGINE.apply(s, p.seat, ENGINE.bot_action(ENGINE.view(s, p.seat), p, rng))
        moves += 1
    assert moves >= 9  # three rounds of three secret bids at least
    assert ENGINE.to_json(ENGINE.from_json(ENGINE.to_json(s))) == ENGINE.to_json(s)
