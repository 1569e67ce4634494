"""Rulebook "Turn", steps 1–2 as written: the insignia step (every target chosen in secret and
revealed together, before any card is laid), and step 5a: the defender shares out the
attackers' losses as it chooses, after the reveal. Also the ``insignia=single`` table option
(today's one secret order a turn), the old stored layout, and the computer player in each step."""

from __future__ import annotations

import json
import random

import pytest

from rules.cult_wars import ENGINE
from rules.cult_wars.combat import needs_split, possible_splits
from rules.engine import IllegalAction, InvalidOptions, NotYourTurn

from .helpers import all_cards, make, orders, play, play2, public_text


def test_a_default_table_starts_each_turn_with_the_secret_insignia_step() -> None:
    s = ENGINE.setup(3, 7)
    assert s.insignia == "two_step" and s.phase == "targets"
    prompts = ENGINE.prompts(s)
    assert [(p.seat, p.kind, p.secret) for p in prompts] == [(0, "target", True), (1, "target", True),
                                                             (2, "target", True)]
    assert [c.action for c in prompts[0].choices] == [{"type": "target", "target": 1},
                                                      {"type": "target", "target": 2}]
    assert prompts[0].params == {"turn": 1, "turns": 8, "targets": [1, 2]}
    # no card can be laid before the targets are revealed
    with pytest.raises(IllegalAction, match="insignia step"):
        ENGINE.apply(s, 0, orders(1, attack=[8]))


def test_targets_stay_secret_until_all_have_chosen_then_are_revealed_together() -> None:
    s = make([12, 12, 12], insignia="two_step")
    before = ENGINE.view(s, None)
    s, ev = ENGINE.apply(s, 0, {"type": "target", "target": 2})
    # only "P1 has chosen" is public; the choice is P1's alone
    assert public_text(ev) == "P1 has chosen their insignia for turn 1."
    assert [e.text for e in ev if e.to == (0,)] == ["Your insignia for turn 1: target P3."]
    pub = ENGINE.view(s, None)
    assert pub["waiting_for"] == [1, 2] and pub["submitted"] == [0]
    assert all(c["target"] is None for c in pub["cults"])
    assert {k for k in pub if pub[k] != before[k]} == {"cults", "submitted", "waiting_for"}
    assert ENGINE.view(s, 1)["private"]["target_choice"] is None
    assert ENGINE.view(s, 0)["private"]["target_choice"] == 2
    # the answer is final: one round trip
    with pytest.raises(NotYourTurn):
        ENGINE.apply(s, 0, {"type": "target", "target": 1})
    # no orders prompt opens before the last target is in
    s, _ = ENGINE.apply(s, 1, {"type": "target", "target": 2})
    assert [(p.seat, p.kind) for p in ENGINE.prompts(s)] == [(2, "target")]
    s, ev = ENGINE.apply(s, 2, {"type": "target", "target": 0})
    assert "Turn 1: the insignia are revealed: P1 → P3; P2 → P3; P3 → P1." in public_text(ev)
    assert s.phase == "orders"
    pub = ENGINE.view(s, None)
    assert [c["target"] for c in pub["cults"]] == [2, 2, 0]
    # every orders prompt now says whom the cult targets and who targets it
    by_seat = {p.seat: p for p in ENGINE.prompts(s)}
    assert by_seat[2].params["target"] == 0 and by_seat[2].params["targeted_by"] == [0, 1]
    assert by_seat[2].params["targets"] == [0]
    assert "Your target is P1; P1, P2 target you." in by_seat[2].text
    assert "nobody targets you" in by_seat[1].text
    for p in by_seat.values():  # every ready-made order aims at the revealed target
        for c in p.choices:
            ENGINE.apply(s, p.seat, c.action)


def test_orders_after_the_insignia_step_keep_the_revealed_target() -> None:
    s = make([12, 12, 12], insignia="two_step")
    for seat, target in ((0, 1), (1, 0), (2, 0)):
        s, _ = ENGINE.apply(s, seat, {"type": "target", "target": target})
    with pytest.raises(IllegalAction, match="your target is P2"):
        ENGINE.apply(s, 0, orders(2, attack=[8]))
    with pytest.raises(IllegalAction, match="revealed in the insignia step already"):
        ENGINE.apply(s, 0, orders(1, attack=[8], face_up=["target"]))
    with pytest.raises(IllegalAction, match="after the reveal"):
        ENGINE.apply(s, 0, orders(1, defend=[8], loss_order=[2]))
    s2, _ = ENGINE.apply(s, 0, {"type": "orders", "slots": {"attack": [8]}})  # the target may be left out
    assert s2.orders[0].target == 1
    s2, _ = ENGINE.apply(s, 0, orders(1, attack=[8]))  # or repeated
    assert s2.orders[0].target == 1
    assert "attackers' losses" not in ENGINE.view(s2, 0)["private"]["orders_text"]


def test_the_defender_splits_5_plus_3_losing_4_as_2_and_2() -> None:
    """Defence 12 against 5 + 3: four attackers die, and the defender may split them 2/2 — which
    neither "in proportion" (3/1) nor any priority list (4/0, 1/3) could do."""
    s = make([12, 12, 12], insignia="two_step")
    s, ev = play2(s, {0: 1, 1: 0, 2: 0}, {
        0: orders(1, defend=[8, 3, 1]),
        1: orders(0, attack=[5]),
        2: orders(0, attack=[3]),
    })
    assert "The defence holds by 4: P1 chooses how P2 and P3 share the 4 losses." in public_text(ev)
    assert s.phase == "split" and s.turn == 1
    prompts = ENGINE.prompts(s)
    assert [(p.seat, p.kind, p.secret) for p in prompts] == [(0, "split", False)]
    split = prompts[0]
    assert split.params == {"loss": 4, "attackers": [[1, 5], [2, 3]], "proportional": [[1, 3], [2, 1]]}
    assert [c.label for c in split.choices] == [
        "In proportion: P2 loses 3, P3 loses 1", "P2 loses 1, P3 loses 3", "P2 loses 2, P3 loses 2",
        "P2 loses 4, P3 loses 0"]
    # the paused turn is public: everybody sees the revealed orders and what waits
    pub = ENGINE.view(s, None)
    assert pub["waiting_for"] == [0]
    assert pub["reveal"]["splits"] == [{"defender": 0, "loss": 4, "attackers": [[1, 5], [2, 3]]}]
    assert pub["reveal"]["combats"][0]["split"] == "awaited"
    assert all_cards(s) == all_cards(make([12, 12, 12]))
    # nobody else can answer, and only a listed split is accepted
    with pytest.raises(NotYourTurn):
        ENGINE.apply(s, 1, {"type": "split", "losses": [[1, 0], [2, 4]]})
    with pytest.raises(IllegalAction):
        ENGINE.apply(s, 0, {"type": "split", "losses": [[1, 0], [2, 4]]})  # P3 sent only 3
    s, ev = ENGINE.apply(s, 0, {"type": "split", "losses": [[1, 2], [2, 2]]})
    assert "Combat at P1: P1 shares out the 4 losses: P2 loses 2, P3 loses 2." in public_text(ev)
    assert [c.followers for c in s.cults] == [12, 10, 10]
    assert s.turn == 2 and s.phase == "targets" and s.resolution is None
    assert s.last_turn is not None and s.last_turn["combats"][0]["attacker_losses"] == [[1, 2], [2, 2]]
    assert s.last_turn["combats"][0]["split"] == "chosen"


def test_the_deadline_shares_in_proportion_and_the_computer_player_punishes_the_leader() -> None:
    s = make([12, 12, 12], vp=[0, 1, 9], insignia="two_step")
    s, _ = play2(s, {0: 1, 1: 0, 2: 0}, {
        0: orders(1, defend=[8, 3, 1]), 1: orders(0, attack=[5]), 2: orders(0, attack=[3])})
    split = ENGINE.prompts(s)[0]
    assert split.timeout_note == "the losses are shared in proportion"
    assert ENGINE.timeout_action(s, split) == {"type": "split", "losses": [[1, 3], [2, 1]]}
    bot = ENGINE.bot_action(ENGINE.view(s, 0), split, random.Random(1))
    assert bot == {"type": "split", "losses": [[1, 1], [2, 3]]}  # P3 leads on VP: it loses all it sent


def test_no_split_is_asked_when_there_is_no_real_choice() -> None:
    assert not needs_split(3, {1: 5})  # one attacker
    assert not needs_split(8, {1: 5, 2: 3})  # every attacker dies
    assert not needs_split(0, {1: 5, 2: 3})
    assert needs_split(1, {1: 5, 2: 3})
    assert possible_splits(2, {1: 1, 2: 5}) == [{1: 0, 2: 2}, {1: 1, 2: 1}]
    # one attacker: the defence holds and the turn goes on without a question
    s = make([12, 12, 12], insignia="two_step")
    s, _ = play2(s, {0: 1, 1: 0, 2: 0}, {0: orders(1, defend=[8]), 1: orders(0, attack=[5]), 2: orders(0)})
    assert s.phase == "targets" and s.turn == 2 and s.cults[1].followers == 9
    # two attackers wiped out: no choice either
    s = make([20, 12, 12], insignia="two_step")
    s, _ = play2(s, {0: 1, 1: 0, 2: 0}, {
        0: orders(1, defend=[8, 5, 3, 2, 1, 1]), 1: orders(0, attack=[3]), 2: orders(0, attack=[2])})
    assert s.phase == "targets" and [c.followers for c in s.cults] == [20, 9, 10]


def test_two_defenders_split_at_the_same_time_and_the_turn_waits_for_both() -> None:
    s = make([12, 12, 12, 12], insignia="two_step")
    s, _ = play2(s, {0: 1, 1: 0, 2: 0, 3: 1}, {
        0: orders(1, defend=[8, 3], attack=[1]),
        1: orders(0, defend=[8, 3], attack=[1]),
        2: orders(0, attack=[5]),
        3: orders(1, attack=[5]),
    })
    assert [(p.seat, p.kind) for p in ENGINE.prompts(s)] == [(0, "split"), (1, "split")]
    s, _ = ENGINE.apply(s, 1, {"type": "split", "losses": [[0, 1], [3, 4]]})
    assert s.phase == "split" and [(p.seat, p.kind) for p in ENGINE.prompts(s)] == [(0, "split")]
    data = json.loads(json.dumps(ENGINE.to_json(s)))
    assert ENGINE.to_json(ENGINE.from_json(data)) == data  # a paused turn survives a restart
    s, _ = ENGINE.apply(s, 0, {"type": "split", "losses": [[1, 0], [2, 5]]})
    assert s.turn == 2 and [c.followers for c in s.cults] == [11, 12, 7, 8]


def test_the_single_option_keeps_one_secret_order_and_the_split_chosen_in_advance() -> None:
    s = ENGINE.setup(3, 7, {"insignia": "single"})
    assert s.phase == "orders" and {p.kind for p in ENGINE.prompts(s)} == {"orders"}
    assert ENGINE.prompts(s)[0].params["target"] is None
    s = make([12, 12, 12])
    s, ev = play(s, {
        0: orders(1, defend=[8, 3, 1], loss_order=[2, 1]),
        1: orders(0, attack=[5]),
        2: orders(0, attack=[3]),
    })
    assert s.turn == 2 and s.phase == "orders"  # no split prompt: the loss order decided
    assert [c.followers for c in s.cults] == [12, 11, 9]
    with pytest.raises(InvalidOptions, match="two_step or single"):
        ENGINE.setup(3, 1, {"insignia": "both"})


def test_a_game_stored_before_the_option_reads_and_replays_as_single_orders() -> None:
    s = ENGINE.setup(3, 5, {"insignia": "single"})
    log = [(0, orders(1, attack=[5], defend=[3]))]
    s, _ = ENGINE.apply(s, *log[0])
    old = ENGINE.to_json(s)
    for key in ("insignia", "targets", "resolution"):
        del old[key]
    old["schema_version"] = 1
    loaded = ENGINE.from_json(old)
    assert loaded.insignia == "single" and loaded.phase == "orders"
    assert ENGINE.to_json(loaded) == ENGINE.to_json(s)
    assert ENGINE.to_json(ENGINE.replay(3, 5, {}, log)) == ENGINE.to_json(s)
    loaded, _ = ENGINE.apply(loaded, 1, orders(0, attack=[8]))
    loaded, _ = ENGINE.apply(loaded, 2, orders(0))
    assert loaded.turn == 2 and loaded.phase == "orders"


def test_the_computer_player_plays_every_step_and_keeps_no_defence_when_nobody_targets_it() -> None:
    s = make([12, 12, 12], insignia="two_step")
    rng = random.Random(3)
    for seat, target in ((0, 1), (1, 2), (2, 1)):
        s, _ = ENGINE.apply(s, seat, {"type": "target", "target": target})
    p0 = ENGINE.prompts(s)[0]
    action = ENGINE.bot_action(ENGINE.view(s, 0), p0, rng)
    assert "target" not in action and "loss_order" not in action
    assert action["slots"]["defend"] == []  # only P3 targets P2: P1 cannot be attacked
    s, _ = ENGINE.apply(s, 0, action)
    choice = ENGINE.bot_action(ENGINE.view(make([12, 12, 12], insignia="two_step"), 0),
                               ENGINE.prompts(make([12, 12, 12], insignia="two_step"))[0], rng)
    assert choice["type"] == "target" and choice["target"] in (1, 2)
