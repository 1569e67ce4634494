"""The computer player: sensible single decisions, every ready-made deck played to a real end,
and a wide margin over random play."""

from __future__ import annotations

import random
from collections.abc import Callable

from rules.alternate_histories import ENGINE
from rules.alternate_histories.bot import p_win, random_action
from rules.alternate_histories.content import CARDS, READY_DECKS
from rules.alternate_histories.state import State
from rules.engine import JSON, Action, Prompt

from .helpers import act, prompt, put, table

RNG = random.Random(0)
Player = Callable[[JSON, Prompt, random.Random], Action]


def bot(s: State) -> Action:
    p = prompt(s)
    return ENGINE.bot_action(ENGINE.view(s, p.seat), p, RNG)


def test_win_chances() -> None:
    assert p_win(0) < 0.5 < p_win(1)
    assert p_win(100) == 1.0 and p_win(-100) == 0.0
    assert p_win(50) > 0.85
    assert p_win(0, their_roll=100) == 0.0 and p_win(50, their_roll=10) == 1.0


def test_never_attacks_into_nuclear_retaliation() -> None:
    s = table(era=(2, 0))
    put(s, 0, "battleship")
    put(s, 0, "landship")
    put(s, 1, "missile_silo")
    assert bot(s) == {"type": "next"}  # the silo beats or survives anything here


def test_attacks_a_good_fight_and_the_undefended_player() -> None:
    s = table()
    tank = put(s, 0, "landship")
    put(s, 1, "cavalry_scouts", tapped=True)
    a = bot(s)
    assert a["type"] == "attack" and a["uid"] == tank.uid


def test_defends_well() -> None:
    # A Nuclear unit under attack flees: surviving is the whole point.
    s = table(era=(2, 0), current=1)
    att = put(s, 1, "landship")
    bomber = put(s, 0, "strategic_bomber")
    s, _ = act(s, 1, {"type": "attack", "uid": att.uid, "target": bomber.uid})
    assert bot(s) == {"type": "flee"}
    # A weak target flees a strong attacker; a strong interceptor steps in for the player.
    s = table(current=1, nations=("germany", "russia"))
    att = put(s, 1, "landship")
    weak = put(s, 0, "cavalry_scouts")
    s2, _ = act(s, 1, {"type": "attack", "uid": att.uid, "target": weak.uid})
    assert bot(s2) == {"type": "flee"}
    s = table(current=1, nations=("germany", "russia"))
    att = put(s, 1, "rifle_infantry")
    guard = put(s, 0, "landship", mobility=3)
    s, _ = act(s, 1, {"type": "attack", "uid": att.uid, "target": "player"})
    assert bot(s) == {"type": "intercept", "uid": guard.uid}


def test_pays_burns_and_reorders_sensibly() -> None:
    s = table(step="build", governances=("autocracy", "autocracy"),
              hands=(["landship", "stealth_bomber", "rifle_infantry", "gas_attack",
                      "ascension_protocol"], []))
    s, _ = act(s, 0, {"type": "play", "card": "landship"})
    # Cards of eras not yet reached are the fuel.
    assert sorted(bot(s)["cards"]) == ["ascension_protocol", "stealth_bomber"]
    s = table(step="decommission", hands=([], []), decks=([], []), era=(2, 0))
    s.sides[0].graveyard = ["stealth_bomber", "rifle_infantry", "tiger", "cavalry_scouts",
                            "landship", "missile_silo", "gas_attack", "battleship"]
    s, _ = act(s, 0, {"type": "next"})
    burned = bot(s)["cards"]
    assert len(burned) == 5 and "stealth_bomber" not in burned and "missile_silo" not in burned
    s = table(decks=(["rifle_infantry"] * 5, ["ascension_protocol", "trench_informant", "landship"]))
    z = put(s, 0, "zeppelin_raider")
    s, _ = act(s, 0, {"type": "attack", "uid": z.uid, "target": "player"})
    assert bot(s)["cards"] == ["trench_informant", "ascension_protocol"]  # weakest roll on top


def _game(seed: int, decks: tuple[str, str], players: tuple[Player, Player]) -> State:
    rng = random.Random(seed)
    s = ENGINE.setup(2, seed)
    while ENGINE.result(s) is None:
        p = rng.choice(ENGINE.prompts(s))
        if p.kind == "deck":
            a = {"type": "deck", "ready": decks[p.seat]}
        else:
            a = players[p.seat](ENGINE.view(s, p.seat), p, rng)
        s, _ = ENGINE.apply(s, p.seat, a)
    return s



def test_every_event_effect_is_one_the_computer_player_scores() -> None:
    """An event card is worth what its effects are to the computer player: every effect an event
    may carry has a score (ending the game is judged before any other)."""
    from rules.alternate_histories.bot import _EVENT_SCORES

    scored = [effect for effect, _ in _EVENT_SCORES]
    assert len(scored) == len(set(scored))
    events = {ab.effect for c in CARDS.values() if c.kind == "event" for ab in c.abilities}
    assert events - {"end_game"} <= set(scored)

def test_every_ready_deck_is_played_to_a_real_end() -> None:
    keys = sorted(READY_DECKS)
    played_out = 0
    half = len(keys) // 2
    for i in range(half):  # each game plays two of the decks
        decks = (keys[i], keys[i + half])
        s = _game(100 + i, decks, (ENGINE.bot_action, ENGINE.bot_action))
        for seat in (0, 1):
            mine = s.sides[seat].graveyard + s.sides[seat].burned + [p.card for p in s.perms
                                                                     if p.owner == seat]
            assert any(c in CARDS and CARDS[c].kind == "unit" for c in mine), decks[seat]
        # Computer players never walk into Nuclear retaliation.
        assert "Nuclear retaliation" not in s.reason, s.reason
        played_out += "turn limit" not in s.reason
        assert s.global_era >= 2, (decks, s.global_era)  # the eras move on
    assert played_out >= half - 1


def test_beats_random_play_by_a_wide_margin() -> None:
    keys = sorted(READY_DECKS)
    won = 0
    games = 12
    for i in range(games):
        decks = (keys[i % 18], keys[(i * 7 + 3) % 18])
        if i % 2:
            s = _game(i, decks, (random_action, ENGINE.bot_action))
            won += s.winner == 1
        else:
            s = _game(i, decks, (ENGINE.bot_action, random_action))
            won += s.winner == 0
    assert won >= 11, won
