"""Rulebook "Setup" and "Turn", steps 1–3: secret orders, face-up cards, the reveal."""

from __future__ import annotations

import json

import pytest

from rules.cult_wars import ENGINE
from rules.cult_wars.content import DECK_IDS
from rules.engine import GameOver, IllegalAction, NotYourTurn

from .helpers import all_cards, card, make, orders, play, public_text


def test_setup_gives_twelve_followers_two_action_cards_and_a_shuffled_deck() -> None:
    for n in (3, 4):
        s = ENGINE.setup(n, 11)
        assert [c.followers for c in s.cults] == [12] * n
        assert [len(c.hand) for c in s.cults] == [2] * n
        assert [c.vp for c in s.cults] == [0] * n
        assert len(s.deck) == len(DECK_IDS) - 2 * n
        assert all_cards(s) == sorted(DECK_IDS)
        assert s.deck != sorted(s.deck)


def test_every_cult_is_prompted_at_once_in_secret_with_a_form_and_presets() -> None:
    s = ENGINE.setup(4, 1, {"insignia": "single"})
    prompts = ENGINE.prompts(s)
    assert [pr.seat for pr in prompts] == [0, 1, 2, 3]
    for pr in prompts:
        assert pr.kind == "orders" and pr.secret and pr.free_form == "orders"
        labels = [c.label for c in pr.choices]
        assert any(lbl.startswith("Balanced") for lbl in labels)
        assert any(lbl.startswith("Turtle") for lbl in labels)
        assert any(lbl.startswith("Sacrifice big") for lbl in labels)
        assert sum(lbl.startswith("All-out attack on") for lbl in labels) == 3
        for c in pr.choices:  # every ready-made order is legal
            ENGINE.apply(s, pr.seat, c.action)


def test_assigning_more_followers_than_the_cult_has_is_refused_with_the_limit() -> None:
    s = make([12, 12, 12])
    with pytest.raises(IllegalAction, match=r"assigned 13 followers .*only 12.*at most 12"):
        ENGINE.apply(s, 0, orders(1, attack=[8], defend=[5]))


def test_strategy_cards_are_the_six_and_each_is_laid_once() -> None:
    s = make([30, 12, 12])
    with pytest.raises(IllegalAction, match="strategy cards are 1, 1, 2, 3, 5, 8"):
        ENGINE.apply(s, 0, orders(1, attack=[8], defend=[8]))
    with pytest.raises(IllegalAction, match="strategy cards"):
        ENGINE.apply(s, 0, orders(1, attack=[4]))
    ENGINE.apply(s, 0, orders(1, attack=[1], defend=[1]))  # the two 1s


def test_the_target_must_be_another_cult() -> None:
    s = make([12, 12, 12])
    with pytest.raises(IllegalAction, match="not another cult"):
        ENGINE.apply(s, 0, orders(0))
    with pytest.raises(IllegalAction, match="not another cult"):
        ENGINE.apply(s, 0, orders(7))


def test_action_cards_must_be_in_hand_and_targets_make_sense() -> None:
    pest, frenzy = card("pestilence"), card("zealous_frenzy")
    s = make([12, 12, 12], hands=[[pest, frenzy], [], []])
    with pytest.raises(IllegalAction, match="do not hold"):
        ENGINE.apply(s, 0, orders(1, actions=[{"card": card("visions")}]))
    with pytest.raises(IllegalAction, match="own cult"):
        ENGINE.apply(s, 0, orders(1, actions=[{"card": frenzy, "target": 2}]))
    with pytest.raises(IllegalAction, match="needs another cult"):
        ENGINE.apply(s, 0, orders(1, actions=[{"card": pest, "target": 0}]))
    with pytest.raises(IllegalAction, match="played twice"):
        ENGINE.apply(s, 0, orders(1, actions=[{"card": pest}, {"card": pest}]))
    # An opponent card without a target goes where the insignia points.
    s2, _ = ENGINE.apply(s, 0, orders(2, actions=[{"card": pest}]))
    assert s2.orders[0].plays[0].target == 2
    # ... and may name another cult than the insignia.
    s3, _ = ENGINE.apply(s, 0, orders(2, actions=[{"card": pest, "target": 1}]))
    assert s3.orders[0].plays[0].target == 1


@pytest.mark.parametrize("junk", [
    {"type": "orders"}, {"type": "orders", "target": "P2"}, {"type": "orders", "target": True},
    {"type": "orders", "target": 1, "slots": [1, 2]}, {"type": "orders", "target": 1, "slots": {"pray": [1]}},
    {"type": "orders", "target": 1, "slots": {"attack": "8"}}, {"type": "orders", "target": 1, "actions": {}},
    {"type": "orders", "target": 1, "actions": ["AC01"]}, {"type": "orders", "target": 1, "face_up": "yes"},
    {"type": "orders", "target": 1, "face_up": ["attack", "hand"]},
    {"type": "orders", "target": 1, "loss_order": [0]}, {"type": "orders", "target": 1, "loss_order": "random"},
    {"type": "orders", "target": 1, "colour": "red"}, {"type": "orders", "target": 1, "replace": "yes"},
    {"type": "pass"}, {},
])
def test_malformed_orders_raise_illegal_action_repeating_the_input(junk: dict[str, object]) -> None:
    s = make([12, 12, 12])
    with pytest.raises(IllegalAction) as err:
        ENGINE.apply(s, 0, junk)
    assert str(err.value)


def test_a_replacement_identical_to_the_orders_in_is_refused_and_changes_nothing() -> None:
    """A doubled or retried replacement must not count twice (nor tell everyone "changed")."""
    s = make([12, 12, 12])
    s, _ = ENGINE.apply(s, 0, orders(1, attack=[8]))
    s, _ = ENGINE.apply(s, 0, orders(2, breed=[8], replace=True))
    before = ENGINE.to_json(s)
    with pytest.raises(IllegalAction, match="nothing was changed"):
        ENGINE.apply(s, 0, orders(2, breed=[8], replace=True))
    assert ENGINE.to_json(s) == before


def test_a_submitted_seat_may_replace_its_orders_until_the_last_seat_submits() -> None:
    s = make([12, 12, 12])
    s, _ = ENGINE.apply(s, 0, orders(1, attack=[8]))
    with pytest.raises(NotYourTurn, match="replace"):
        ENGINE.apply(s, 0, orders(2, breed=[8]))
    s, ev = ENGINE.apply(s, 0, orders(2, breed=[8], replace=True))
    assert "P1 has changed their orders" in public_text(ev)
    assert [pr.seat for pr in ENGINE.prompts(s)] == [1, 2]
    s, _ = play(s, {1: orders(0), 2: orders(0)})
    assert s.cults[0].followers == 20  # the replacement bred 8; nobody was attacked
    assert s.turn == 2


def test_face_down_orders_stay_secret_until_the_reveal() -> None:
    pest = card("pestilence")
    s = make([12, 12, 12], hands=[[pest], [], []])
    before = ENGINE.view(s, None)
    s, ev = ENGINE.apply(s, 0, orders(1, attack=[8], actions=[{"card": pest}]))
    after = ENGINE.view(s, None)
    assert after["submitted"] == [0] and after["waiting_for"] == [1, 2]
    assert after["cults"][0]["submitted"] is True and after["cults"][0]["face_up"] == {}
    changed = {k for k in after if after[k] != before[k]}
    assert changed == {"cults", "submitted", "waiting_for"}
    assert "Pestilence" not in public_text(ev) and "Attack" not in public_text(ev)
    for seat in (1, 2):
        assert "Pestilence" not in json.dumps(ENGINE.view(s, seat))
    mine = ENGINE.view(s, 0)["private"]
    assert mine["orders"]["slots"]["attack"] == [8]
    assert "Pestilence → P2" in mine["orders_text"]
    assert pest in [c["id"] for c in mine["hand"]]  # still in hand until the reveal


def test_face_up_cards_are_public_at_once_and_binding() -> None:
    pest = card("pestilence")
    s = make([12, 12, 12], hands=[[pest], [], []])
    s, ev = ENGINE.apply(s, 0, orders(1, attack=[8], defend=[3], actions=[{"card": pest}],
                                      face_up=["target", "attack", pest]))
    pub = ENGINE.view(s, None)
    assert pub["cults"][0]["face_up"] == {
        "target": 1, "slots": {"attack": [8]}, "plays": [{"name": "Pestilence", "target": 1}]}
    text = public_text(ev)
    assert "P1 lays face up: target P2; Attack 8; Pestilence → P2." in text
    assert "Defend" not in text and pest not in text
    with pytest.raises(IllegalAction, match="face up and is binding"):
        ENGINE.apply(s, 0, orders(2, attack=[8], actions=[{"card": pest}], face_up="all", replace=True))
    with pytest.raises(IllegalAction, match="Attack slot .* binding"):
        ENGINE.apply(s, 0, orders(1, attack=[5], actions=[{"card": pest}],
                                  face_up=["target", "attack", pest], replace=True))
    with pytest.raises(IllegalAction, match="Pestilence .* binding"):
        ENGINE.apply(s, 0, orders(1, attack=[8], face_up=["target", "attack"], replace=True))
    # Face-down parts may still change, and more may be laid face up.
    s, ev = ENGINE.apply(s, 0, orders(1, attack=[8], breed=[3], actions=[{"card": pest}],
                                      face_up="all", replace=True))
    assert "Breed 3" in public_text(ev)


def test_reveal_moves_played_cards_to_the_discard_pile_and_tells_everything() -> None:
    pest, ward = card("pestilence"), card("warding_chant")
    s = make([12, 12, 12], hands=[[pest], [ward], []])
    s, ev = play(s, {
        0: orders(1, attack=[5], actions=[{"card": pest}]),
        1: orders(0, defend=[3], actions=[{"card": ward}]),
        2: orders(0, breed=[2]),
    })
    text = public_text(ev)
    assert "Turn 1: all orders are revealed." in text
    assert "P1 (12 followers) targets P2: Attack 5, Defend 0, Sacrifice 0, Breed 0, idle 7; plays Pestilence → P2." in text
    assert pest in s.discard and ward in s.discard
    assert s.cults[0].hand == [] and s.cults[1].hand == []
    assert s.last_turn is not None and s.last_turn["turn"] == 1
    assert all_cards(s) == sorted(DECK_IDS)


def test_orders_after_the_game_are_refused() -> None:
    s = make([12, 12, 12], turn=8)
    s, _ = play(s, {0: orders(1), 1: orders(2), 2: orders(0)})
    assert s.phase == "over" and ENGINE.prompts(s) == []
    with pytest.raises(GameOver):
        ENGINE.apply(s, 0, orders(1))
