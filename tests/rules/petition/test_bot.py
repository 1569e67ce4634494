"""The computer player: purposeful choices, and it beats random play by a wide margin."""

from __future__ import annotations

import json
import random

from rules.petition import ENGINE
from rules.petition.bot import random_action
from rules.petition.state import PillarRef

from .helpers import act, cid, citizens, make, pick, prompt


def play(players: int, seed: int, bot: int) -> float:
    """One game, one computer-player seat against random players; its share of the win."""
    rng = random.Random(seed)
    s = ENGINE.setup(players, seed)
    while ENGINE.result(s) is None:
        p = ENGINE.prompts(s)[0]
        if p.seat == bot:
            a = ENGINE.bot_action(ENGINE.view(s, p.seat), p, rng)
        else:
            a = random_action(p, rng)
        s, _ = ENGINE.apply(s, p.seat, a)
    r = ENGINE.result(s)
    assert r is not None
    return 1 / len(r.winners) if bot in r.winners else 0.0


def test_the_computer_player_beats_random_play_by_a_wide_margin() -> None:
    two = sum(play(2, 100 + g, g % 2) for g in range(24)) / 24
    four = sum(play(4, 200 + g, g % 4) for g in range(16)) / 16
    six = sum(play(6, 300 + g, g % 6) for g in range(12)) / 12
    assert two >= 0.75, two     # fair share 0.5
    assert four >= 0.4, four    # fair share 0.25
    assert six >= 0.22, six     # fair share 0.17


def test_it_attacks_the_pillar_its_favour_covers_when_it_can_win() -> None:
    war = citizens("war", "war", 3)
    s = make(3, hands=[war, [], []], beads=[0, 0, 0])
    g = s.gods["war"]
    g.holder, g.bonus, g.since = 0, 3, 0
    a = ENGINE.bot_action(ENGINE.view(s, 0), prompt(s, 0), random.Random(1))
    assert a["type"] == "attack" and a["pillar"] == "war"


def test_it_petitions_the_god_of_its_strongest_pillar() -> None:
    s = make(2, hands=[citizens("magic", "magic", 4), []], beads=[3, 0])
    a = ENGINE.bot_action(ENGINE.view(s, 0), prompt(s, 0), random.Random(1))
    assert a == {"type": "petition", "god": "magic"}


def test_it_surrenders_a_hopeless_defence_and_defends_one_that_can_hold() -> None:
    war = citizens("war", "war")
    s = make(2, hands=[war[:4], [cid("Court Poet"), war[4]]], beads=[0, 0])
    s.seats[0].heathen_since = 0
    s, _ = act(s, 0, {"type": "attack", "seat": 1, "pillar": "war"})
    s, _ = pick(s, 0, war[:4])
    a = ENGINE.bot_action(ENGINE.view(s, 1), prompt(s, 1), random.Random(1))
    assert a == {"type": "cards", "cards": []}
    s = make(2, hands=[war[4:5], war[:3]], beads=[0, 0])
    s.seats[0].heathen_since = 0
    s, _ = act(s, 0, {"type": "attack", "seat": 1, "pillar": "war"})
    s, _ = pick(s, 0, war[4:5])
    a = ENGINE.bot_action(ENGINE.view(s, 1), prompt(s, 1), random.Random(1))
    # one face-down card against it: its strongest citizen and the pillar's stand hold that,
    # and the rest stays in hand for the battle
    assert a["cards"] == [war[0]]


def test_a_defence_within_reach_is_made_with_the_fortification_and_the_stand() -> None:
    """Two face-down attacking cards (likely 4–5 points): a 2-point citizen alone looks weak,
    but with the fortification's +1 and the pillar's stand the defence can hold, so it defends."""
    war = citizens("war", "war")
    scout = cid("Border Scout")
    s = make(3, hands=[war[:2], [scout], []], beads=[0, 0, 0])
    s.seats[1].pillars["war"].fortification = PillarRef(2, "art")
    s.seats[2].pillars["art"].captured_by = 1
    s.seats[0].heathen_since = 0
    s, _ = act(s, 0, {"type": "attack", "seat": 1, "pillar": "war"})
    s, _ = pick(s, 0, war[:2])
    a = ENGINE.bot_action(ENGINE.view(s, 1), prompt(s, 1), random.Random(1))
    assert a == {"type": "cards", "cards": [scout]}


def test_it_opens_an_attack_with_enough_and_keeps_the_rest() -> None:
    """Against a defender with an empty hand it lays one strong card, not its whole hand."""
    war = citizens("war", "war", 4)
    s = make(2, hands=[war, []], beads=[0, 0])
    s.seats[0].heathen_since = 0
    s, _ = act(s, 0, {"type": "attack", "seat": 1, "pillar": "war"})
    a = ENGINE.bot_action(ENGINE.view(s, 0), prompt(s, 0), random.Random(1))
    assert a == {"type": "cards", "cards": [war[0]]}


def test_it_prefers_a_petition_to_the_heathen_shortcut() -> None:
    """With beads for an offer and a strong pillar, it asks the god (+3) rather than turning
    heathen (nothing); with one bead only, it turns heathen when its hand is strong enough alone."""
    war = citizens("war", "war", 4)
    s = make(4, hands=[war, [], [], []], beads=[2, 0, 0, 0])
    a = ENGINE.bot_action(ENGINE.view(s, 0), prompt(s, 0), random.Random(1))
    assert a == {"type": "petition", "god": "war"}
    s = make(4, hands=[war, [], [], []], beads=[1, 0, 0, 0])
    a = ENGINE.bot_action(ENGINE.view(s, 0), prompt(s, 0), random.Random(1))
    assert a == {"type": "heathen"}


def test_every_table_size_plays_to_the_end_and_round_trips() -> None:
    for players in range(1, 7):
        rng = random.Random(players)
        s = ENGINE.setup(players, 31 + players)
        steps = 0
        while ENGINE.result(s) is None:
            p = ENGINE.prompts(s)[0]
            s, _ = ENGINE.apply(s, p.seat, ENGINE.bot_action(ENGINE.view(s, p.seat), p, rng))
            steps += 1
            if steps % 25 == 0:
                data = json.loads(json.dumps(ENGINE.to_json(s)))
                assert ENGINE.to_json(ENGINE.from_json(data)) == ENGINE.to_json(s)
        assert steps < 3000


def test_it_fortifies_with_a_fallen_players_pillar_where_its_hand_defends_worst() -> None:
    """Not simply the first pillar listed (which made the Art god look stronger in the bench).
    Last man standing: the card's owner has fallen, so nobody can take it back."""
    strong_art = citizens("art", "art", 3) + citizens("economy", "economy", 2) + citizens("magic", "magic", 2)
    s = make(3, hands=[[citizens("war", "war", 1)[0], *strong_art], [], []], beads=[0, 0, 0],
             last_man_standing=True)
    for kind in ("art", "economy", "magic"):
        s.seats[1].pillars[kind].captured_by = 2
    s.seats[0].heathen_since = 0
    war = s.seats[0].hand[0]
    s, _ = act(s, 0, {"type": "attack", "seat": 1, "pillar": "war"})
    s, _ = pick(s, 0, [war])
    s, _ = pick(s, 1, [])
    a = ENGINE.bot_action(ENGINE.view(s, 0), prompt(s, 0), random.Random(1))
    assert a == {"type": "fortify", "pillar": "war"}


def test_it_sets_aside_a_pillar_whose_owner_still_stands() -> None:
    """A rival still standing would take its own pillar card back (no longer a trophy) by
    capturing the pillar it fortifies."""
    s = make(3, hands=[[citizens("war", "war", 1)[0]], [], []], beads=[0, 0, 0])
    s.seats[0].heathen_since = 0
    s, _ = act(s, 0, {"type": "attack", "seat": 1, "pillar": "war"})
    s, _ = pick(s, 0, list(s.seats[0].hand))
    s, _ = pick(s, 1, [])
    assert ENGINE.bot_action(ENGINE.view(s, 0), prompt(s, 0), random.Random(1)) == {"type": "stash"}


def test_against_a_lone_rival_it_sets_the_captured_pillar_aside() -> None:
    """At two players every fortification is the rival's own pillar, which the rival would take
    back by capturing the pillar it fortifies: the computer player keeps its trophy aside."""
    war = citizens("war", "war", 1)
    s = make(2, hands=[war, []], beads=[0, 0])
    s.seats[0].heathen_since = 0
    s, _ = act(s, 0, {"type": "attack", "seat": 1, "pillar": "war"})
    s, _ = pick(s, 0, war)
    s, _ = pick(s, 1, [])
    a = ENGINE.bot_action(ENGINE.view(s, 0), prompt(s, 0), random.Random(1))
    assert a == {"type": "stash"}
