"""Herald's action cards (rulebook "Turn", step 4 and step 8) and the deck running out."""

from __future__ import annotations

from rules.cult_wars import ENGINE
from rules.cult_wars.content import DECK_IDS, KINDS

from .helpers import all_cards, card, make, orders, play, public_text


def test_the_deck_holds_every_authored_card_once() -> None:
    assert len(DECK_IDS) == sum(k.count for k in KINDS) == 31
    assert len({k.name for k in KINDS}) == len(KINDS)


def test_card_values_are_the_tuned_ones() -> None:
    amounts = {k.key: k.amount for k in KINDS}
    assert amounts["zealous_frenzy"] == 2 and amounts["fertility_rite"] == 2
    assert amounts["sow_discord"] == 4 and amounts["warding_chant"] == 3


def test_zealous_frenzy_makes_the_attack_stronger() -> None:
    s = make([12, 12, 12], hands=[[card("zealous_frenzy")], [], []])
    s, ev = play(s, {
        0: orders(1, attack=[2], actions=[{"card": card("zealous_frenzy")}]),
        1: orders(2, defend=[3]),
        2: orders(0, defend=[1]),
    })
    # 2 attackers fight as 4 against 3: the defence loses 1 (of its 9 idle followers).
    assert s.cults[1].followers == 11 and s.cults[0].followers == 12
    assert "attack P1 4 (2 followers) = 4 against defence 3" in public_text(ev)


def test_zealous_frenzy_needs_at_least_one_attacker() -> None:
    s = make([12, 12, 12], hands=[[card("zealous_frenzy")], [], []])
    s, _ = play(s, {
        0: orders(1, actions=[{"card": card("zealous_frenzy")}]),
        1: orders(2),
        2: orders(0),
    })
    assert s.cults[1].followers == 12


def test_warding_chant_strengthens_the_defence() -> None:
    s = make([12, 12, 12], hands=[[], [card("warding_chant")], []])
    s, ev = play(s, {
        0: orders(1, attack=[5]),
        1: orders(2, defend=[3], actions=[{"card": card("warding_chant")}]),
        2: orders(0),
    })
    # 5 against 3 + 3: the defence holds by 1.
    assert s.cults[0].followers == 11 and s.cults[1].followers == 12
    assert "The defence holds by 1" in public_text(ev)


def test_sow_discord_weakens_the_target_attack_without_killing() -> None:
    s = make([12, 12, 12], hands=[[], [card("sow_discord")], []])
    s, _ = play(s, {
        0: orders(1, attack=[5]),
        1: orders(0, defend=[2], actions=[{"card": card("sow_discord")}]),
        2: orders(0),
    })
    # 5 − 4 = 1 against 2: the defence holds by 1; no follower died of the card itself.
    assert s.cults[0].followers == 11 and s.cults[1].followers == 12


def test_hidden_altar_shelters_sacrifices_from_combat_and_cards() -> None:
    altar, pest = card("hidden_altar"), card("pestilence")
    s = make([12, 12, 12], hands=[[altar], [pest], []])
    s, _ = play(s, {
        0: orders(1, sacrifice=[5], breed=[3], actions=[{"card": altar}]),
        1: orders(0, attack=[2], actions=[{"card": pest}]),
        2: orders(0),
    })
    # Pestilence kills 2 breeders; the attack (2) kills the last breeder and 1 idle.
    assert s.cults[0].vp == 5
    assert s.cults[0].followers == 12 - 5 - 4
    assert s.cults[1].vp == 0


def test_fertility_rite_adds_two_births_if_a_breeder_survives() -> None:
    rite = card("fertility_rite")
    s = make([12, 12, 12], hands=[[rite], [], []])
    s, ev = play(s, {0: orders(1, breed=[2], actions=[{"card": rite}]), 1: orders(2), 2: orders(0)})
    assert s.cults[0].followers == 12 + 2 + 2
    assert "P1 +4 followers (2 + 2 Fertility Rite)" in public_text(ev)
    s = make([12, 12, 12], hands=[[rite], [], []])
    s, _ = play(s, {0: orders(1, breed=[2], actions=[{"card": rite}]), 1: orders(0, attack=[3]),
                    2: orders(0)})
    assert s.cults[0].followers == 12 - 3  # both breeders died: no birth at all


def test_blood_moon_and_desecration_change_sacrifice_vp() -> None:
    moon, desecration = card("blood_moon"), card("desecration")
    s = make([12, 12, 12], hands=[[moon], [desecration], []])
    s, _ = play(s, {
        0: orders(1, sacrifice=[3], actions=[{"card": moon}]),
        1: orders(0, actions=[{"card": desecration}]),
        2: orders(0, sacrifice=[1]),
    })
    assert s.cults[0].vp == 3 + 2 - 3
    s = make([12, 12, 12], hands=[[], [desecration], []])
    s, _ = play(s, {0: orders(1, sacrifice=[2]), 1: orders(0, actions=[{"card": desecration}]),
                    2: orders(0)})
    assert s.cults[0].vp == 0 and len(s.cults[0].hand) == 2  # still draws its cards


def test_temple_thieves_take_a_card_from_the_hand_but_not_one_being_played() -> None:
    thieves, pest, ward = card("temple_thieves"), card("pestilence"), card("warding_chant")
    s = make([12, 12, 12], hands=[[thieves], [pest, ward], []])
    s, ev = play(s, {
        0: orders(1, actions=[{"card": thieves}]),
        1: orders(0, actions=[{"card": pest}]),
        2: orders(0),
    })
    assert s.cults[0].hand == [ward] and s.cults[1].hand == []
    private = [e for e in ev if e.to == (1,)]
    assert any("took your Warding Chant" in e.text for e in private)
    assert "Warding Chant" not in public_text(ev)


def test_visions_draws_two_cards() -> None:
    vis = card("visions")
    s = make([12, 12, 12], hands=[[vis], [], []])
    s, _ = play(s, {0: orders(1, actions=[{"card": vis}]), 1: orders(2), 2: orders(0)})
    assert len(s.cults[0].hand) == 2 and vis in s.discard


def test_call_to_the_faithful_adds_two_defenders_who_stay() -> None:
    call = card("call_to_the_faithful")
    s = make([12, 12, 12], hands=[[call], [], []])
    s, _ = play(s, {0: orders(1, actions=[{"card": call}]), 1: orders(0, attack=[2]), 2: orders(0)})
    assert s.cults[0].followers == 14 and s.cults[1].followers == 12


def test_pestilence_kills_two_in_loss_order_then_attackers() -> None:
    pest = card("pestilence")
    s = make([3, 12, 12], hands=[[], [pest], []])
    s, ev = play(s, {0: orders(1, attack=[2], sacrifice=[1]), 1: orders(0, actions=[{"card": pest}]),
                     2: orders(0)})
    # 1 sacrificial follower, then (no breeders, no defenders, no idle) 1 attacker.
    assert "kills 2 of P1's followers (1 sacrificial, 1 attacker)" in public_text(ev)
    assert s.cults[0].followers == 1 and s.cults[0].vp == 0


def test_silver_tongue_converts_followers_to_the_player() -> None:
    tongue = card("silver_tongue")
    s = make([12, 12, 12], hands=[[tongue], [], []])
    s, _ = play(s, {0: orders(1, actions=[{"card": tongue}]), 1: orders(2, breed=[1]), 2: orders(0)})
    # P2 loses its only breeder and one idle follower to P1.
    assert s.cults[0].followers == 14 and s.cults[1].followers == 10


def test_anathema_cancels_the_target_cards_but_not_another_anathema() -> None:
    a1, a2 = card("anathema", 0), card("anathema", 1)
    ward, frenzy = card("warding_chant"), card("zealous_frenzy")
    s = make([12, 12, 12], hands=[[a1, frenzy], [a2, ward], []])
    s, ev = play(s, {
        0: orders(1, attack=[5], actions=[{"card": a1}, {"card": frenzy}]),
        1: orders(0, defend=[5], actions=[{"card": a2}, {"card": ward}]),
        2: orders(0),
    })
    text = public_text(ev)
    assert "P1's Anathema cancels P2's Warding Chant." in text
    assert "P2's Anathema cancels P1's Zealous Frenzy." in text
    assert "An even fight" in text
    assert s.last_turn is not None
    assert s.last_turn["cults"][0]["plays"][1] == {"name": "Zealous Frenzy", "target": None, "cancelled": True}
    assert {a1, a2, ward, frenzy} <= set(s.discard)


def test_an_empty_deck_is_refilled_from_the_discard_pile() -> None:
    others = [c for c in DECK_IDS]
    s = make([12, 12, 12], deck=[], discard=others)
    s, ev = play(s, {0: orders(1, sacrifice=[2]), 1: orders(2, sacrifice=[1]), 2: orders(0)})
    assert "The action deck ran out: the 31 discarded cards are shuffled into a new deck." in public_text(ev)
    assert len(s.cults[0].hand) == 2 and len(s.cults[1].hand) == 1
    assert s.reshuffles == 1 and len(s.deck) == 28 and s.discard == []
    assert all_cards(s) == sorted(DECK_IDS)


def test_when_deck_and_discard_are_empty_nothing_is_drawn() -> None:
    hands = [list(DECK_IDS[:10]), list(DECK_IDS[10:20]), list(DECK_IDS[20:])]
    s = make([12, 12, 12], hands=hands, deck=[])
    s, ev = play(s, {0: orders(1, sacrifice=[2]), 1: orders(2), 2: orders(0)})
    assert "No action card is left to draw for P1." in public_text(ev)
    assert len(s.cults[0].hand) == 10


def test_cards_played_this_turn_are_not_reshuffled_before_step_eight() -> None:
    vis = card("visions")
    hands = [[vis], [], []]
    s = make([12, 12, 12], hands=hands, deck=[card("pestilence")],
             discard=[c for c in DECK_IDS if c not in (vis, card("pestilence"))])
    s, _ = play(s, {0: orders(1, actions=[{"card": vis}]), 1: orders(2), 2: orders(0)})
    assert vis in s.discard and vis not in s.deck
    assert all_cards(s) == sorted(DECK_IDS)


def test_engine_view_lists_hand_cards_with_their_texts() -> None:
    vis = card("visions")
    s = make([12, 12, 12], hands=[[vis], [], []])
    v = ENGINE.view(s, 0)["private"]
    assert v["hand"] == [{"id": vis, "key": "visions", "name": "Visions",
                          "text": "Draw 2 action cards at once.", "target": "self"}]
