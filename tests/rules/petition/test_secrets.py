"""Hidden information: hands, face-down bids and face-down campaign cards stay hidden.

The conformance suite walks the smallest and largest tables (solo and six players); this walks
three- and four-player games and probes every face-down moment (a bid or campaign cards laid by
one side while the other still decides) with the same non-interference check.
"""

from __future__ import annotations

import random

from rules.petition import ENGINE
from tests.conformance.test_non_interference import Report, _probe

from .helpers import act, citizens, make, pick, public_text


def test_face_down_moments_leak_nothing_at_three_and_four_players() -> None:
    report = Report()
    # the last face-down answer reveals both sides, by the rules
    report.rounds.update({"bid", "attack", "defend"})
    face_down = 0
    for players, seed in ((3, 5), (4, 8), (3, 13)):
        rng = random.Random(seed)
        s = ENGINE.setup(players, seed)
        step = 0
        while ENGINE.result(s) is None and step < 600:
            pet, camp = s.petition, s.campaign
            pending = (pet is not None and pet.stage == "bid"
                       and any(b is not None and b.cards is not None for b in (pet.holder, pet.challenger)))
            pending = pending or (camp is not None and camp.stage == "gather"
                                  and camp.attack_ready != camp.defend_ready)
            if pending or step % 9 == 0:
                face_down += pending
                _probe(ENGINE, s, players, step, random.Random(f"{seed}/{step}"), report)
            p = rng.choice(ENGINE.prompts(s))
            s, _ = ENGINE.apply(s, p.seat, ENGINE.bot_action(ENGINE.view(s, p.seat), p, rng))
            step += 1
    assert face_down >= 3 and report.variants > 0 and report.answers_compared > 0
    assert not report.leaks, report.summary(report.leaks)


def test_nothing_bid_face_down_appears_in_public_before_the_reveal() -> None:
    art = citizens("art")
    s = make(3, hands=[art[:3], art[3:6], []], beads=[3, 3, 0])
    s, _ = act(s, 0, {"type": "petition", "god": "art"})
    s, _ = act(s, 0, {"type": "offer", "beads": 2})
    s, _ = act(s, 1, {"type": "challenge", "beads": 2})
    s, _ = act(s, 2, {"type": "challenge", "beads": 0})
    s, _ = act(s, 0, {"type": "meet"})
    s, ev = pick(s, 1, art[3:5])
    seen = public_text(ev) + str(ENGINE.view(s, None)) + str(ENGINE.view(s, 0)) + str(ENGINE.view(s, 2))
    for c in art[3:5]:
        assert c not in seen
    from rules.petition.content import CARDS

    for c in art[3:5]:
        assert CARDS[c].name not in seen
    assert c in str(ENGINE.view(s, 1)["private"]["bid"])


def test_public_records_of_revealed_cards_carry_no_ids() -> None:
    """Revealed bids go back to hands, and discarded battle cards come back after a reshuffle:
    the lasting public records show card faces, never the ids a later hand would carry."""
    from rules.petition.content import CARDS

    war = citizens("war")
    s = make(2, hands=[war[:2], war[2:4]], beads=[0, 0])
    s.seats[0].heathen_since = 0
    s, _ = act(s, 0, {"type": "attack", "seat": 1, "pillar": "war"})
    s, _ = pick(s, 0, war[:2])
    s, _ = pick(s, 1, war[2:3])
    s, _ = pick(s, 0, [])
    s, _ = pick(s, 1, [])
    rec = ENGINE.view(s, None)["last_reveal"]
    assert rec["type"] == "campaign" and [c["name"] for c in rec["attack"]] == [CARDS[c].name for c in war[:2]]
    assert all("id" not in c for c in rec["attack"] + rec["defend"])
    for c in war:
        assert c not in str(ENGINE.view(s, None))


def test_a_swapped_card_is_named_in_public_without_its_id() -> None:
    """A swapped card goes to the discard pile, which is shuffled back into the deck when it runs
    out: its id in a public event could later point at a card in someone's hand (the name is
    enough to say what was swapped)."""
    art = citizens("art")
    s = make(2, hands=[art[:2], []], beads=[1, 0])
    s.deck, s.discard = [art[5]], []
    s.phase = "extra"
    s, ev = act(s, 0, {"type": "swap", "card": art[0]})
    assert art[0] not in public_text(ev)
    assert "swaps" in public_text(ev)
