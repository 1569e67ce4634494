"""The turn: untap (and untap triggers), events, combat, build, decommission, draw to 7; deck-out
reshuffles with burning and the era trackers; losing by the deck; costs; governance switching;
cards that end the game; the turn limit."""

from __future__ import annotations

import pytest

from rules.alternate_histories import ENGINE
from rules.alternate_histories.board import new_perm
from rules.alternate_histories.state import ACADEMIC, State
from rules.engine import IllegalAction

from .helpers import LEGACY_RULES, act, actions, perm, prompt, put, result, table, texts

NEXT = {"type": "next"}


def _to_next_turn(s: State, seat: int) -> State:
    """From ``seat``'s combat step, end the turn without doing anything."""
    while s.current == seat and s.phase == "turn":
        p = prompt(s)
        assert p.seat == seat, p
        s, _ = act(s, seat, NEXT)
    return s


def test_untap_phase_untaps_and_fires_untap_triggers() -> None:
    s = table(step="decommission", current=1)
    u = put(s, 0, "rifle_infantry", tapped=True)
    put(s, 0, "university")
    put(s, 0, "data_center")
    put(s, 0, "collective_farms")
    s.sides[0].graveyard = ["landship"]
    s, ev = act(s, 1, NEXT)
    assert s.current == 0 and s.step == "events"
    assert not perm(s, u.uid).tapped
    assert sum(1 for p in s.perms if p.card == ACADEMIC and p.owner == 0) == 1
    assert s.sides[0].compute == 1
    assert s.sides[0].deck[-1] == "landship" and s.sides[0].graveyard == []
    # From the Digital era on, a Data Center makes two Compute tokens.
    s = table(step="decommission", current=1, era=(3, 0))
    put(s, 0, "data_center")
    s, _ = act(s, 1, NEXT)
    assert s.sides[0].compute == 2


def test_events_phase_offers_only_events_and_rapid_deployment() -> None:
    s = table(step="events", hands=(["gas_attack", "cavalry_scouts", "landship", "university",
                                     "rifle_infantry", "rifle_infantry", "rifle_infantry"], []))
    put(s, 1, "rifle_infantry")
    offered = {a.get("card") for a in actions(s)}
    assert offered == {"gas_attack", "cavalry_scouts", None}
    s, _ = act(s, 0, {"type": "play", "card": "cavalry_scouts"})
    scouts = next(p for p in s.perms if p.card == "cavalry_scouts")
    assert scouts.rapid
    s, _ = act(s, 0, NEXT)
    assert prompt(s).kind == "combat"
    # The Rapid Deployment unit attacks on the turn it arrived.
    assert {"type": "attack", "uid": scouts.uid, "target": "player"} in actions(s)


def test_build_phase_units_arrive_after_combat() -> None:
    s = table(step="build", hands=(["rifle_infantry"] * 7, []))
    s, _ = act(s, 0, {"type": "play", "card": "rifle_infantry"})
    assert len(s.of(0, "unit")) == 1 and len(s.sides[0].hand) == 6
    assert {a["type"] for a in actions(s)} >= {"play", "switch", "next"}


def test_later_era_cards_wait_for_the_global_era() -> None:
    hand = ["m4_sherman", "rifle_infantry", "rifle_infantry", "rifle_infantry"]
    s = table(step="build", hands=(hand, []))
    assert {"type": "play", "card": "m4_sherman"} not in actions(s)
    with pytest.raises(IllegalAction):
        act(s, 0, {"type": "play", "card": "m4_sherman"})
    # The opponent's tracker sets the global era for both.
    s = table(step="build", hands=(hand, []), era=(0, 1))
    assert s.global_era == 1
    assert {"type": "play", "card": "m4_sherman"} in actions(s)


def test_paying_discards_with_a_pick_and_mill_costs() -> None:
    hand = ["dreadnought", "gas_attack", "rifle_infantry", "cavalry_scouts", "war_bonds"]
    s = table(step="build", governances=("communism", "communism"), hands=(hand, []))
    deck_before = len(s.sides[0].deck)
    s, _ = act(s, 0, {"type": "play", "card": "dreadnought"})
    p = prompt(s)
    assert (p.kind, p.free_form, p.secret) == ("pay", "pick", True)
    assert p.params["count"] == 2 and p.params["min"] == 2
    assert sorted(o["id"] for o in p.params["cards"]) == sorted(hand[1:])
    with pytest.raises(IllegalAction, match="pick 2"):
        act(s, 0, {"type": "pick", "cards": ["gas_attack"]})
    with pytest.raises(IllegalAction, match="not among"):
        act(s, 0, {"type": "pick", "cards": ["gas_attack", "tiger"]})
    s, ev = act(s, 0, {"type": "pick", "cards": ["gas_attack", "war_bonds"]})
    assert "pays ✋✋: Gas Attack, War Bonds" in texts(ev)
    assert sorted(s.sides[0].hand) == ["cavalry_scouts", "rifle_infantry"]
    assert len(s.sides[0].deck) == deck_before - 1  # the mill cost
    assert s.sides[0].graveyard == ["gas_attack", "war_bonds", "rifle_infantry"]
    assert any(p.card == "dreadnought" for p in s.perms)


def test_exact_payment_is_automatic_and_unaffordable_cards_are_not_offered() -> None:
    gov = ("communism", "communism")
    s = table(step="build", governances=gov, hands=(["landship", "rifle_infantry", "gas_attack"], []))
    s, _ = act(s, 0, {"type": "play", "card": "landship"})
    assert s.sides[0].hand == [] and prompt(s).kind == "build"
    s = table(step="build", governances=gov, hands=(["landship", "rifle_infantry"], []))
    assert {"type": "play", "card": "landship"} not in actions(s)


def test_discounts_assembly_line_capitalism_and_the_mechanical_era() -> None:
    from rules.alternate_histories import board
    from rules.alternate_histories.content import CARDS

    s = table(governances=("communism", "capitalism"))
    assert board.discard_cost(s, 0, CARDS["landship"]) == 2
    assert board.discard_cost(s, 1, CARDS["trench_network"]) == 0  # Capitalism: infrastructure
    assert board.discard_cost(s, 1, CARDS["landship"]) == 1  # …and the first unit of the turn
    assert board.discard_cost(s, 0, CARDS["trench_network"]) == 1
    s.sides[1].units_built = 1
    assert board.discard_cost(s, 1, CARDS["landship"]) == 2
    put(s, 0, "assembly_line")
    assert board.discard_cost(s, 0, CARDS["landship"]) == 1
    s = table(era=(1, 0), governances=("communism", "communism"))
    assert board.discard_cost(s, 0, CARDS["landship"]) == 1  # Mechanical: the first unit of the turn
    s.sides[0].units_built = 1
    assert board.discard_cost(s, 0, CARDS["landship"]) == 2


def test_academic_and_compute_costs() -> None:
    s = table(step="build", era=(2, 3), hands=(["missile_silo", "rifle_infantry", "stealth_bomber",
                                                "landship", "cavalry_scouts"], []))
    assert {"type": "play", "card": "missile_silo"} not in actions(s)  # needs an Academic
    assert {"type": "play", "card": "stealth_bomber"} not in actions(s)  # needs Compute
    put(s, 0, "university")
    s.perms.append(type(s.perms[0])(uid=99, owner=0, card=ACADEMIC, kind="unit", power=0, mobility=0))
    s.sides[0].compute = 1
    assert {"type": "play", "card": "missile_silo"} in actions(s)
    s, _ = act(s, 0, {"type": "play", "card": "missile_silo"})  # ✋ waived: first unit, Mechanical+
    assert not any(p.card == ACADEMIC for p in s.perms)
    s, _ = act(s, 0, {"type": "play", "card": "stealth_bomber"})
    s, _ = act(s, 0, {"type": "pick", "cards": ["cavalry_scouts", "rifle_infantry"]})
    assert s.sides[0].compute == 0 and s.sides[0].hand == ["landship"]


def test_decommission_destroys_untapped_units_and_discards() -> None:
    s = table(step="decommission", hands=(["gas_attack", "rifle_infantry"], []))
    a = put(s, 0, "landship")
    b = put(s, 0, "cavalry_scouts", tapped=True)
    put(s, 0, "trench_network")
    acts = actions(s)
    assert {"type": "destroy", "uid": a.uid} in acts
    assert {"type": "destroy", "uid": b.uid} not in acts  # tapped
    assert not any(x.get("type") == "destroy" and x["uid"] not in (a.uid,) for x in acts)
    s, _ = act(s, 0, {"type": "destroy", "uid": a.uid})
    s, _ = act(s, 0, {"type": "discard", "card": "gas_attack"})
    assert s.sides[0].graveyard == ["landship", "gas_attack"]


def test_draw_phase_shuffles_the_deck() -> None:
    """Rulebook, turn structure: the draw phase is "Shuffle deck and draw to hand limit"."""
    deck = [f"{c}" for c in ("tiger", "t34", "landship", "doughboys", "gas_attack", "university",
                             "cavalry_scouts", "war_bonds", "trench_mortar", "dreadnought")] * 2
    s = table(step="decommission", hands=(["gas_attack"], []), decks=(deck, []))
    s.known[1] = deck[:3]  # a Reorder told the opponent the top three cards
    before = s.rng.position
    s, ev = act(s, 0, NEXT)
    assert "P1 shuffles their deck." in texts(ev, None)
    assert s.rng.position > before  # the shuffle drew on the game's random numbers
    assert s.known[1] == []  # what a Reorder showed is gone with the order
    drawn = s.sides[0].hand
    assert len(drawn) == 7 and sorted(drawn + s.sides[0].deck) == sorted(deck)
    assert drawn != deck[:7]  # with this seed the top seven are not the old top seven


def test_draw_phase_draws_to_the_hand_limit() -> None:
    s = table(step="decommission", hands=(["gas_attack"], []))
    s, ev = act(s, 0, NEXT)
    assert len(s.sides[0].hand) == 7 and len(s.sides[0].deck) == 13
    assert "You draw" in texts(ev, 0) and "You draw" not in texts(ev, 1)
    assert s.current == 1 and s.turn == 3


def test_the_hand_refreshes_completely_each_turn() -> None:
    """Herald reads "your 7-card hand refreshes completely each turn" with "draw to hand limit":
    the cards still in hand go to the graveyard, then the player draws 7. A full hand is
    refreshed like any other, and nothing is milled from the deck."""
    s = table(step="decommission", hands=(["gas_attack"] * 7, []),
              decks=(["tiger"] * 7 + ["t34"] * 3, []))
    s, ev = act(s, 0, NEXT)
    sd = s.sides[0]
    assert sd.graveyard == ["gas_attack"] * 7
    assert len(sd.hand) == 7 and "gas_attack" not in sd.hand and len(sd.deck) == 3
    assert "P1's hand refreshes: Gas Attack, Gas Attack" in texts(ev, None)
    assert "mills" not in texts(ev, None)  # the legacy rules' mill for a full hand is gone
    assert prompt(table(step="decommission")).choices[-1].description == (
        "The cards left in your hand go to the graveyard; shuffle your deck and draw 7.")


def test_every_turn_ends_with_the_draw_phase_the_first_players_first_turn_too() -> None:
    s = table(step="decommission", hands=(["gas_attack"], []))
    s.turn = 1
    s, ev = act(s, 0, NEXT)
    assert len(s.sides[0].hand) == 7 and len(s.sides[0].deck) == 13
    assert "skips" not in texts(ev, None)
    assert s.current == 1 and s.turn == 2 and s.step == "events"


def test_a_card_drawn_from_an_empty_deck_burns_five_reshuffles_and_advances_the_era() -> None:
    grave = ["rifle_infantry", "landship", "gas_attack", "cavalry_scouts", "university",
             "trench_mortar", "war_bonds", "biplane_squadron"]
    s = table(step="decommission", hands=(["gas_attack"] * 3, []),
              decks=(["doughboys", "doughboys"], ["rifle_infantry"] * 20))
    s.sides[0].graveyard = list(grave)
    s, _ = act(s, 0, NEXT)
    p = prompt(s)
    assert (p.kind, p.free_form, p.seat, p.params["count"]) == ("burn", "pick", 0, 5)
    assert s.sides[0].hand == ["doughboys", "doughboys"]  # drawn before the deck ran out
    assert [o["id"] for o in p.params["cards"]] == grave + ["gas_attack"] * 3
    burn = grave[:5]
    s, ev = act(s, 0, {"type": "pick", "cards": burn})
    assert s.sides[0].burned == burn
    assert s.sides[0].era == 1 and s.global_era == 1
    assert len(s.sides[0].hand) == 7 and s.sides[0].graveyard == []
    assert sorted(s.sides[0].hand + s.sides[0].deck) == sorted(["gas_attack"] * 3 + ["doughboys"] * 2
                                                                 + grave[5:])
    kinds = [e.kind for e in ev]
    assert "reshuffle" in kinds and "era" in kinds
    assert "The world enters the Mechanical era." in texts(ev)
    assert s.current == 1


def test_the_deck_is_reshuffled_only_when_a_card_must_be_drawn() -> None:
    # Drawing the last seven cards empties the deck: nothing more must be drawn, so no reshuffle.
    s = table(step="decommission", hands=(["gas_attack"] * 7, []), decks=(["tiger"] * 7, []))
    s.sides[0].graveyard = ["rifle_infantry"] * 8
    s, _ = act(s, 0, NEXT)
    assert s.sides[0].deck == [] and s.sides[0].era == 0 and s.sides[0].burned == []
    assert s.current == 1 and s.phase == "turn"
    # A mill or a draw from an empty deck mid-turn finds nothing; it never reshuffles.
    s = table(step="build", hands=(["cipher_office"], []), decks=([], []), era=(2, 2))
    s.sides[0].graveyard = ["rifle_infantry"] * 8
    s.sides[0].hand = ["breakthrough", "rifle_infantry"]
    for _ in range(2):
        new_perm(s, 0, ACADEMIC, "unit", 0, 0)
    s, _ = act(s, 0, {"type": "play", "card": "breakthrough"})
    assert s.sides[0].era == 2 and s.sides[0].burned == [] and not s.stack
    assert s.sides[0].hand == ["rifle_infantry"]  # the draw found nothing (then 2 recovered)


def test_russia_burns_four() -> None:
    s = table(nations=("russia", "usa"), step="decommission", hands=([], []), decks=([], []))
    s.sides[0].graveyard = ["rifle_infantry"] * 12
    s, _ = act(s, 0, NEXT)
    assert prompt(s).params["count"] == 4


def test_the_global_era_follows_whoever_reshuffled_most() -> None:
    s = table(era=(1, 3))
    assert s.global_era == 3
    assert ENGINE.view(s, None)["global_era"] == "digital"
    s = table(era=(7, 2))
    assert s.global_era == 4  # Singularity is the last


def test_you_lose_when_a_card_must_be_drawn_and_cannot_be() -> None:
    # One card in the deck, a graveyard of five with the refreshed hand: burning five leaves
    # nothing to shuffle back.
    s = table(step="decommission", hands=(["gas_attack"], []), decks=(["doughboys"], []))
    s.sides[0].graveyard = ["rifle_infantry"] * 4
    s, ev = act(s, 0, NEXT)
    assert s.phase == "over" and s.winner == 1
    assert "cannot draw back to 7" in result(s).reason
    assert s.sides[0].hand == ["doughboys"] and s.sides[0].burned == []
    # A graveyard of six reshuffles one card back: drawn, the deck is empty again, and the
    # player still must draw, so they lose then.
    s = table(step="decommission", hands=(["gas_attack"], []), decks=([], []))
    s.sides[0].graveyard = ["rifle_infantry"] * 5
    s, _ = act(s, 0, NEXT)
    s, _ = act(s, 0, {"type": "pick", "cards": ["rifle_infantry"] * 5})
    assert s.phase == "over" and s.winner == 1 and len(s.sides[0].hand) == 1


def test_holding_seven_cards_at_the_draw_phase_is_no_defeat_while_the_cards_can_be_drawn() -> None:
    """The legacy rules declared a player holding 7 lost when the graveyard was too small to
    burn; now the refreshed hand is in the graveyard, and the reshuffle goes on."""
    s = table(step="decommission", hands=(["gas_attack"] * 7, []), decks=([], []))
    s, _ = act(s, 0, NEXT)
    p = prompt(s)
    assert p.kind == "burn" and len(p.params["cards"]) == 7
    s, _ = act(s, 0, {"type": "pick", "cards": ["gas_attack"] * 5})
    assert s.phase == "over" and s.winner == 1  # two cards back: still not seven


def test_legacy_rules_the_first_player_skips_the_draw_of_the_first_turn() -> None:
    s = table(step="decommission", hands=(["gas_attack"], []), rules=LEGACY_RULES)
    s.turn = 1
    assert prompt(s).choices[-1].description == "You go first: no draw this turn."
    s, ev = act(s, 0, NEXT)
    assert s.sides[0].hand == ["gas_attack"] and len(s.sides[0].deck) == 20
    assert "P1 went first and skips this draw phase." in texts(ev, None)
    assert s.current == 1 and s.turn == 2 and s.step == "events"
    # the second player's first turn draws as usual
    s.step = "decommission"
    s, _ = act(s, 1, NEXT)
    assert len(s.sides[1].hand) == 7 and s.turn == 3


def test_legacy_rules_draw_without_shuffling_and_reshuffle_an_empty_deck_with_a_full_hand() -> None:
    s = table(step="decommission", hands=(["gas_attack"], []), rules=LEGACY_RULES)
    deck = list(s.sides[0].deck)
    s, ev = act(s, 0, NEXT)
    assert s.sides[0].hand == ["gas_attack"] + deck[:6] and "shuffles" not in texts(ev, None)
    s = table(step="decommission", hands=(["gas_attack"] * 7, []), decks=([], []),
              rules=LEGACY_RULES)
    s.sides[0].graveyard = ["rifle_infantry"] * 8
    s, _ = act(s, 0, NEXT)
    assert prompt(s).kind == "burn"
    s, _ = act(s, 0, {"type": "pick", "cards": ["rifle_infantry"] * 5})
    assert len(s.sides[0].deck) == 3 and s.sides[0].era == 1
    s = table(step="decommission", hands=(["gas_attack"] * 7, []), decks=([], []),
              rules=LEGACY_RULES)
    s, _ = act(s, 0, NEXT)
    assert s.winner == 1


def test_legacy_rules_a_full_hand_mills_one_instead_of_drawing() -> None:
    s = table(step="decommission", hands=(["gas_attack"] * 7, []), decks=(["tiger", "t34"], []),
              rules=LEGACY_RULES)
    s, ev = act(s, 0, NEXT)
    assert s.sides[0].deck == ["t34"] and s.sides[0].graveyard == ["tiger"]
    assert "time marches on" in texts(ev)
    # After a reshuffle with a full hand nothing more is milled.
    s = table(step="decommission", hands=(["gas_attack"] * 7, []), decks=(["tiger"], []),
              rules=LEGACY_RULES)
    s.sides[0].graveyard = ["rifle_infantry"] * 6
    s, _ = act(s, 0, NEXT)
    s, _ = act(s, 0, {"type": "pick", "cards": ["rifle_infantry"] * 5})
    assert len(s.sides[0].deck) == 2 and s.current == 1


def test_governance_switch_costs_three_burned_cards_once_per_turn() -> None:
    s = table(step="build", governances=("capitalism", "communism"), era=(1, 0),
              hands=(["stock_exchange", "rifle_infantry", "rifle_infantry"], []))
    assert {"type": "play", "card": "stock_exchange"} in actions(s)
    top = s.sides[0].deck[:3]
    s, ev = act(s, 0, {"type": "switch", "governance": "autocracy"})
    assert s.sides[0].governance == "autocracy"
    assert s.sides[0].burned == top and len(s.sides[0].deck) == 17
    assert ENGINE.view(s, None)["sides"][0]["governance"] == "autocracy"
    acts = actions(s)
    assert not any(a["type"] == "switch" for a in acts)
    # Capitalism's cards wait for Capitalism again.
    assert {"type": "play", "card": "stock_exchange"} not in acts
    s = _to_next_turn(s, 0)
    s = _to_next_turn(s, 1)
    s, _ = act(s, 0, NEXT)
    s, _ = act(s, 0, NEXT)
    assert any(a["type"] == "switch" for a in actions(s))


def test_cards_that_end_the_game() -> None:
    s = table(step="build", era=(4, 0), hands=(["ascension_protocol", "rifle_infantry",
                                                "rifle_infantry"], []))
    s.sides[0].compute = 4
    s, ev = act(s, 0, {"type": "play", "card": "ascension_protocol"})
    assert s.phase == "over" and s.winner == 0
    assert ENGINE.prompts(s) == []
    s = table(step="events", era=(2, 0), hands=(["mad_doctrine"] + ["rifle_infantry"] * 3, []))
    s.sides[1].deck = s.sides[1].deck[:5]
    s, ev = act(s, 0, {"type": "play", "card": "mad_doctrine"})
    assert s.winner == 0 and "Mutually Assured Destruction ends the game" in texts(ev)
    s = table(step="events", era=(2, 0), hands=(["mad_doctrine"] + ["rifle_infantry"] * 3, []))
    s.sides[0].deck = s.sides[0].deck[:5]
    s, _ = act(s, 0, {"type": "play", "card": "mad_doctrine"})
    assert s.winner == 1


def test_turn_limit_ends_with_the_most_cards_left() -> None:
    s = table(step="decommission", max_turns=10)
    s.turn = 10
    s.sides[1].deck = s.sides[1].deck[:3]
    s, ev = act(s, 0, NEXT)
    assert s.phase == "over" and s.winner == 0 and "turn limit" in s.reason


def test_untap_effects_recover_and_salvage() -> None:
    from rules.alternate_histories.board import Ctx, destroy

    s = table()
    put(s, 0, "field_hospital")
    u = put(s, 0, "landship")
    destroy(Ctx(s), u)
    assert s.sides[0].deck[-1] == "landship" and "landship" not in s.sides[0].graveyard


def test_a_recovering_event_does_not_recover_itself() -> None:
    s = table(step="events", era=(2, 0), hands=(["marshall_plan", "rifle_infantry"], []),
              decks=(["tiger"], []))
    s.sides[0].graveyard = ["landship", "gas_attack"]
    s, _ = act(s, 0, {"type": "play", "card": "marshall_plan"})
    assert s.sides[0].deck == ["tiger", "rifle_infantry", "gas_attack", "landship"]
    assert s.sides[0].graveyard == ["marshall_plan"]


def test_a_face_down_unit_saved_by_a_field_hospital_stays_secret() -> None:
    from rules.alternate_histories.board import Ctx, destroy

    s = table()
    put(s, 0, "field_hospital")
    u = put(s, 0, "royal_flying_corps", face_down=True, power=70, mobility=2)
    ctx = Ctx(s)
    destroy(ctx, u)
    assert s.sides[0].deck[-1] == "royal_flying_corps"
    public = texts(ctx.events, None)
    assert "face-down unit is destroyed; a Field Hospital" in public
    assert "Royal Flying Corps" not in public and "Royal Flying Corps" not in texts(ctx.events, 1)
    assert "Royal Flying Corps" in texts(ctx.events, 0)
