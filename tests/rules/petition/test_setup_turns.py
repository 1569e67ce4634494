"""Setup, options and the ordinary turn: gather, swap or buy, the hand limit, the bead supply."""

from __future__ import annotations

import pytest

from rules.engine import IllegalAction, InvalidOptions
from rules.petition import ENGINE
from rules.petition.content import BEADS_DEFAULT, CARDS, DECK_IDS, GODS, PILLARS

from .helpers import act, cid, labels, make, prompt


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_setup_deals_five_cards_one_bead_and_four_pillars(players: int) -> None:
    s = ENGINE.setup(players, 3)
    for p in s.seats:
        assert len(p.hand) == 5 and p.beads == 1
        assert [q.kind for q in p.pillars.values()] == list(PILLARS)
        assert all(q.active and q.fortification is None for q in p.pillars.values())
    assert s.temple == BEADS_DEFAULT - players
    assert all(g.holder is None for g in s.gods.values()) and list(s.gods) == list(GODS)
    held = [c for p in s.seats for c in p.hand]
    assert sorted(held + s.deck) == sorted(DECK_IDS)


def test_four_gods_one_per_pillar_and_a_sixty_card_deck() -> None:
    assert list(GODS) == list(PILLARS)
    assert len(DECK_IDS) == 60
    citizens = [c for c in CARDS.values() if c.is_citizen]
    powerups = [c for c in CARDS.values() if not c.is_citizen]
    assert len(citizens) == 48 and len(powerups) == 12
    assert sum(c.needs_favour for c in powerups) > len(powerups) / 2  # "most, but not all"
    assert all(c.god in GODS for c in citizens)


def test_options_are_checked() -> None:
    with pytest.raises(InvalidOptions, match="beads"):
        ENGINE.setup(3, 1, {"beads": 5})
    with pytest.raises(InvalidOptions, match="challenge_window"):
        ENGINE.setup(3, 1, {"challenge_window": 0})
    with pytest.raises(InvalidOptions, match="winner_takes_all"):
        ENGINE.setup(3, 1, {"winner_takes_all": "yes"})
    with pytest.raises(InvalidOptions):
        ENGINE.setup(7, 1)
    s = ENGINE.setup(3, 1, {"beads": 18, "challenge_window": 5, "winner_takes_all": True,
                            "last_man_standing": True})
    assert s.temple == 15 and s.challenge_window == 300 and s.winner_takes_all and s.last_man_standing


def test_gathering_choices_and_the_hand_limit() -> None:
    s = make(2, hands=[list(DECK_IDS[:8]), []], beads=[0, 0])
    assert labels(prompt(s, 0))[:3] == ["Draw 2 cards", "Take 2 beads", "Draw 1 card and take 1 bead"]
    s.seats[0].hand = list(DECK_IDS[:9])
    assert "Draw 2 cards" not in labels(prompt(s, 0))
    assert "Draw 1 card and take 1 bead" in labels(prompt(s, 0))
    s.seats[0].hand = list(DECK_IDS[:10])
    assert labels(prompt(s, 0)) == ["Take 2 beads"]
    with pytest.raises(IllegalAction):
        act(s, 0, {"type": "draw"})


def test_draw_two_then_the_turn_passes_without_beads() -> None:
    s = make(2, hands=[[], []], beads=[0, 0])
    top = s.deck[:2]
    s, events = act(s, 0, {"type": "draw"})
    assert s.seats[0].hand == top
    assert s.turn_seat == 1 and s.phase == "turn"  # no bead: no swap or buy
    assert all(c not in e.text for e in events if e.to is None for c in (CARDS[top[0]].name,))


def test_take_beads_from_a_finite_supply() -> None:
    s = make(2, hands=[[], []], beads=[0, 0])
    s.temple = 1
    assert "Take 1 bead" in labels(prompt(s, 0))
    s, _ = act(s, 0, {"type": "beads"})
    assert s.seats[0].beads == 1 and s.temple == 0
    s, _ = act(s, 0, {"type": "end"})
    assert not any("bead" in lab.lower() and "Take" in lab for lab in labels(prompt(s, 1)))


def test_swap_and_buy_need_a_bead_and_buy_costs_one() -> None:
    card = cid("Court Poet")
    s = make(2, hands=[[card], []], beads=[1, 0])
    s, _ = act(s, 0, {"type": "beads"})
    p = prompt(s, 0)
    assert p.kind == "extra"
    assert {"End turn", "Buy a card (1 bead)", "Swap Court Poet"} <= set(labels(p))
    top = s.deck[0]
    s2, _ = act(s, 0, {"type": "buy"})
    assert s2.seats[0].beads == 2 and top in s2.seats[0].hand and s2.turn_seat == 1
    s3, events = act(s, 0, {"type": "swap", "card": card})
    assert card in s3.discard and card not in s3.seats[0].hand and top in s3.seats[0].hand
    assert s3.seats[0].beads == 3  # a swap costs nothing


def test_rounds_advance_after_the_last_seat() -> None:
    s = make(3, hands=[[], [], []], beads=[0, 0, 0])
    for k in range(3):
        assert s.turn_seat == k and s.round == 1
        s, _ = act(s, k, {"type": "beads"})
        s, _ = act(s, k, {"type": "end"})
    assert s.turn_seat == 0 and s.round == 2 and s.turn == 4


def test_round_limit_ends_the_game_with_tie_breaks() -> None:
    s = make(2, hands=[[], []], beads=[0, 0], round_limit=5)
    for _ in range(5):
        for k in range(2):
            s, _ = act(s, k, {"type": "beads"})
            s, _ = act(s, k, {"type": "end"})
    r = ENGINE.result(s)
    assert r is not None and "round limit" in r.reason
    assert r.winners == (0, 1)  # equal pillars and beads
