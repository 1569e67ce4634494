"""The solo game: one seat against four pillars on fortification stacks."""

from __future__ import annotations

from rules.petition import ENGINE
from rules.petition.content import DECK_IDS, PILLARS
from rules.petition.engine import RULES
from rules.petition.state import PetitionState

from .helpers import act, cid, labels, pick, prompt

WARLORD, SHIELD, SCOUT = cid("Warlord"), cid("Shieldmaiden"), cid("Border Scout")
POET, TREASURER, MUMMER = cid("Court Poet"), cid("Grand Treasurer"), cid("Street Mummer")
RECRUIT = cid("Militia Recruit")  # 1 Magic, 1 War
RALLY = cid("Rally the Militia")


def solo(hand: list[str], stacks: dict[str, list[str]], beads: int = 5,
         rules: int = RULES) -> PetitionState:
    s = ENGINE._setup(1, 4, None, rules)
    assert s.solo is not None
    used = set(hand) | {c for v in stacks.values() for c in v}
    s.seats[0].hand = list(hand)
    s.solo.stacks = {k: list(stacks.get(k, [])) for k in PILLARS}
    s.deck = [c for c in DECK_IDS if c not in used]
    s.discard = []
    s.temple += s.seats[0].beads - beads
    s.seats[0].beads = beads
    return s


def test_solo_setup() -> None:
    s = ENGINE.setup(1, 9)
    assert s.solo is not None
    assert {k: len(v) for k, v in s.solo.stacks.items()} == dict.fromkeys(PILLARS, 3)
    assert len(s.seats[0].hand) == 5 and s.seats[0].beads == 5
    assert all(g.holder is None for g in s.gods.values()) and len(s.gods) == 4
    p = prompt(s, 0)
    assert labels(p) == ["Draw a card", "Attack the Art pillar", "Attack the Economy pillar",
                         "Attack the Magic pillar", "Attack the War pillar"]
    assert "stacks" in ENGINE.view(s, None)["solo"]
    assert s.solo.stacks["art"][0] not in str(ENGINE.view(s, 0))  # the stacks are face down


def test_drawing_feeds_every_pillar() -> None:
    s = solo([POET], {k: [] for k in PILLARS})
    top = s.deck[:5]
    s, _ = act(s, 0, {"type": "draw"})
    assert s.seats[0].hand == [POET, top[0]]
    assert s.solo is not None and [v for v in s.solo.stacks.values()] == [[c] for c in top[1:]]


def test_a_win_with_faith_takes_the_pillar() -> None:
    """Rulebook: the lower power wins the god's favour, with it the battle is "won with faith"
    even without overpowering the pillar, and "If you win, take the pillar" — then the reset."""
    s = solo([MUMMER, POET, TREASURER], {"war": [SHIELD, WARLORD], "art": [], "economy": [],
                                         "magic": []})
    s, _ = act(s, 0, {"type": "attack", "pillar": "war"})
    s, ev = pick(s, 0, [MUMMER])          # 0 War against Shieldmaiden's 3
    assert any(e.kind == "solo_faith" for e in ev) and any(e.kind == "solo_captured" for e in ev)
    assert s.seats[0].beads == 5 and s.solo is not None and s.solo.captured == ["war"]
    assert "war" not in s.solo.stacks
    # the unused fortification (Warlord) went to another pillar; the others drew one each
    assert sorted(len(v) for v in s.solo.stacks.values()) == [1, 1, 1]
    assert WARLORD in [c for v in s.solo.stacks.values() for c in v]
    # the reset with the god's favour: the god draws a card and asks a tithe
    assert s.phase == "tithe" and s.gods["war"].holder == 0
    assert prompt(s, 0).params["purpose"] == "tithe"


def test_revision_1_a_win_with_faith_leaves_the_pillar_standing() -> None:
    s = solo([MUMMER, POET, TREASURER], {"war": [SHIELD, WARLORD]}, rules=1)
    s, _ = act(s, 0, {"type": "attack", "pillar": "war"})
    s, ev = pick(s, 0, [MUMMER])          # 0 War against Shieldmaiden's 3
    assert any(e.kind == "solo_faith" for e in ev)
    assert s.seats[0].beads == 5 and s.solo is not None and "war" not in s.solo.captured
    assert s.solo.stacks["war"][0] == WARLORD  # one card was turned up and discarded
    # the reset: the god draws a card and asks a tithe
    assert s.phase == "tithe" and s.gods["war"].holder == 0
    p = prompt(s, 0)
    assert p.params["purpose"] == "tithe" and p.params["can_pass"]


def test_the_tithe_is_a_matching_card_or_a_bead() -> None:
    s = solo([MUMMER, POET, TREASURER], {"war": [SHIELD]})
    s.deck.remove(cid("Caravan Master"))
    # the three other pillars, left with nothing from the taken pillar's stack, draw first; then
    # the god draws 3 Economy
    s.deck.insert(3, cid("Caravan Master"))
    s, _ = act(s, 0, {"type": "attack", "pillar": "war"})
    s, _ = pick(s, 0, [MUMMER])
    p = prompt(s, 0)
    assert [c["id"] for c in p.params["cards"]] == [TREASURER]  # 4 Economy matches 3 Economy
    s2, _ = pick(s, 0, [TREASURER])
    assert s2.seats[0].beads == 5 and TREASURER in s2.discard
    s3, _ = pick(s, 0, [])
    assert s3.seats[0].beads == 4
    for x in (s2, s3):
        assert x.gods["war"].holder is None and x.phase == "solo_turn"
        assert len(x.seats[0].hand) == 5 or not x.deck  # drawn back up to 5


def test_brute_force_against_a_favoured_pillar_takes_it() -> None:
    s = solo([WARLORD, SHIELD, SCOUT, POET], {"war": [RECRUIT, MUMMER, TREASURER]})
    s, _ = act(s, 0, {"type": "attack", "pillar": "war"})
    s, ev = pick(s, 0, [WARLORD])         # 4 against Militia Recruit's 1: the pillar wins the favour
    assert any(e.kind == "solo_godless" for e in ev)
    assert s.phase == "solo_add" and prompt(s, 0).params["purpose"] == "solo_add"
    s, ev = pick(s, 0, [SHIELD])          # 7 against 1 + 0 + 3
    assert s.solo is not None and s.solo.captured == ["war"] and "war" not in s.solo.stacks
    # the rest of its stack (Grand Treasurer) went to another pillar, and each got a card
    assert all(v for v in s.solo.stacks.values())
    assert s.seats[0].beads == 5


def test_a_lost_battle_costs_a_bead_and_does_not_reset() -> None:
    """Rulebook: only a win leads to the reset; "If you lose, pay a faith bead"."""
    s = solo([SCOUT, POET, MUMMER], {"war": [MUMMER, WARLORD], "art": [SHIELD]}, beads=3)
    s, _ = act(s, 0, {"type": "attack", "pillar": "war"})
    s, _ = pick(s, 0, [SCOUT])            # 2 against 0: the pillar is favoured, 2 against 3
    deck, stacks = list(s.deck), {k: list(v) for k, v in s.solo.stacks.items()} if s.solo else {}
    s, ev = pick(s, 0, [])                # give up
    assert any(e.kind == "solo_lost" for e in ev) and not any(e.kind == "solo_reset" for e in ev)
    assert s.seats[0].beads == 2 and s.phase == "solo_turn"
    assert sorted(s.seats[0].hand) == sorted([POET, MUMMER])  # no drawing back up to 5
    assert s.deck == deck and s.solo is not None and s.solo.stacks == stacks  # no pillar grew


def test_revision_1_a_lost_battle_is_followed_by_a_reset() -> None:
    s = solo([SCOUT, POET, MUMMER], {"war": [MUMMER, WARLORD]}, beads=3, rules=1)
    s, _ = act(s, 0, {"type": "attack", "pillar": "war"})
    s, _ = pick(s, 0, [SCOUT])
    s, ev = pick(s, 0, [])
    assert any(e.kind == "solo_reset" for e in ev) and len(s.seats[0].hand) == 5


def test_a_lost_battle_costs_a_bead_and_running_out_ends_the_game() -> None:
    s = solo([SCOUT, POET], {"war": [MUMMER, WARLORD]}, beads=1)
    s, _ = act(s, 0, {"type": "attack", "pillar": "war"})
    s, ev = pick(s, 0, [SCOUT])           # 2 against 0: the pillar is favoured, 2 against 3
    s, ev = pick(s, 0, [])                # give up
    r = ENGINE.result(s)
    assert s.seats[0].beads == 0 and r is not None and r.winners == () and "beads ran out" in r.reason


def test_powerups_count_as_citizens_in_the_solo_game() -> None:
    from rules.petition.solo import power

    assert power(RALLY, "art") == 1 and power(cid("Wrath of Heaven"), "war") == 2


def test_taking_all_four_pillars_wins() -> None:
    s = solo([WARLORD, SHIELD], {"war": [MUMMER]})
    assert s.solo is not None
    s.solo.captured = ["art", "economy", "magic"]
    s.solo.stacks = {"war": [MUMMER]}
    s, _ = act(s, 0, {"type": "attack", "pillar": "war"})
    s, _ = pick(s, 0, [WARLORD])          # 4 against 0 + 3
    r = ENGINE.result(s)
    assert r is not None and r.winners == (0,)
