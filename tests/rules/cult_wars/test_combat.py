"""Rulebook "Turn", step 5: combat damage."""

from __future__ import annotations

from rules.cult_wars.combat import home_losses, share_attacker_losses, split_sacrifice_vp

from .helpers import make, orders, play, public_text


def test_defence_greater_than_attack_kills_the_difference_among_attackers() -> None:
    # P1 defends with 8; P2 attacks with 3, P3 with 2: the attackers lose 3 in total.
    s = make([12, 12, 12])
    s, ev = play(s, {
        0: orders(1, defend=[8]),
        1: orders(0, attack=[3]),
        2: orders(0, attack=[2]),
    })
    lost = (12 - s.cults[1].followers) + (12 - s.cults[2].followers)
    assert lost == 3
    assert s.cults[0].followers == 12
    assert "The defence holds by 3" in public_text(ev)


def test_three_attackers_on_one_defender_share_losses_in_proportion() -> None:
    # 4 players: P2, P3 and P4 attack P1 with 5, 3 and 2 (10) against a defence of 8+5 = 13.
    s = make([14, 12, 12, 12])
    s, _ = play(s, {
        0: orders(1, defend=[8, 5]),
        1: orders(0, attack=[5]),
        2: orders(0, attack=[3]),
        3: orders(0, attack=[2]),
    })
    # Defence 13 beats 10 by 3: shares 5/10·3=1.5, 3/10·3=0.9, 2/10·3=0.6 → largest remainders.
    assert [12 - s.cults[k].followers for k in (1, 2, 3)] == [1, 1, 1]
    assert s.cults[0].followers == 14


def test_defender_may_put_all_losses_on_one_attacker_first() -> None:
    s = make([14, 12, 12, 12])
    s, _ = play(s, {
        0: orders(1, defend=[8, 5], loss_order=[3, 1]),
        1: orders(0, attack=[5]),
        2: orders(0, attack=[3]),
        3: orders(0, attack=[2]),
    })
    # 3 losses: P4 (seat 3) loses all its 2 attackers, then P2 (seat 1) loses 1; P3 untouched.
    assert [12 - s.cults[k].followers for k in (1, 2, 3)] == [1, 0, 2]


def test_attackers_never_lose_more_than_they_sent() -> None:
    assert share_attacker_losses(10, {1: 2, 2: 1}, "proportional") == {1: 2, 2: 1}
    assert share_attacker_losses(10, {1: 2, 2: 1}, [2]) == {1: 2, 2: 1}


def test_proportional_shares_round_by_largest_remainder() -> None:
    assert share_attacker_losses(3, {1: 5, 2: 3, 3: 2}, "proportional") == {1: 1, 2: 1, 3: 1}
    assert share_attacker_losses(5, {1: 5, 2: 3, 3: 2}, "proportional") == {1: 3, 2: 1, 3: 1}
    assert share_attacker_losses(1, {1: 2, 2: 2}, "proportional") == {1: 1, 2: 0}


def test_equal_attack_and_defence_deal_no_damage() -> None:
    s = make([12, 12, 12])
    s, ev = play(s, {
        0: orders(1, defend=[5], sacrifice=[2], breed=[3]),
        1: orders(0, attack=[3]),
        2: orders(0, attack=[2]),
    })
    assert "An even fight: nobody dies" in public_text(ev)
    # P1: 12 − 2 sacrificed + 3 born; attackers intact.
    assert s.cults[0].followers == 13
    assert s.cults[1].followers == 12 and s.cults[2].followers == 12
    assert s.cults[0].vp == 2


def test_beaten_defender_loses_sacrifices_then_breeders_then_defenders_then_idle() -> None:
    assert home_losses(7, {"sacrifice": 2, "breed": 3, "defend": 1, "idle": 5}) == {
        "sacrifice": 2, "breed": 3, "defend": 1, "idle": 1}
    assert home_losses(2, {"sacrifice": 2, "breed": 3, "defend": 1, "idle": 5}) == {
        "sacrifice": 2, "breed": 0, "defend": 0, "idle": 0}


def test_beaten_defender_loses_in_rulebook_order_in_play() -> None:
    # P1: Defend 1, Sacrifice 2, Breed 3, idle 6 (12). P2 attacks with 8+1: 9 − 1 = 8 losses.
    s = make([12, 12, 12])
    s, ev = play(s, {
        0: orders(1, defend=[1], sacrifice=[2], breed=[3]),
        1: orders(0, attack=[8, 1]),
        2: orders(1, breed=[1]),
    })
    # 2 sacrifices, 3 breeders, 1 defender, 2 idle die: 4 idle left, nothing born, no VP.
    assert s.cults[0].followers == 4
    assert s.cults[0].vp == 0
    assert s.cults[1].vp == 2  # the two killed sacrificial followers
    assert "P1 loses 2 sacrificial, 3 breeders, 1 defender, 2 idle" in public_text(ev)


def test_defender_away_attacking_keeps_its_attackers() -> None:
    # P1 sends 8 to attack P3 and keeps 4 at home (idle); P2 attacks P1 with 5+3+2 = 10.
    s = make([12, 12, 12])
    s, _ = play(s, {
        0: orders(2, attack=[8]),
        1: orders(0, attack=[5, 3, 2]),
        2: orders(0, defend=[8, 1, 1]),
    })
    # At P1, 10 against no defence: only the 4 idle followers are at home and die, the excess is
    # void. At P3, defence 10 beats P1's 8 attackers by 2: P1 loses 2 attackers there.
    assert s.cults[0].followers == 12 - 4 - 2


def test_defender_who_loses_everything_drops_to_zero_and_excess_is_void() -> None:
    s = make([3, 20, 12])
    s, ev = play(s, {
        0: orders(1, sacrifice=[1], breed=[2]),
        1: orders(0, attack=[8, 5, 3, 2, 1, 1]),
        2: orders(0, defend=[1]),
    })
    assert s.cults[0].followers == 0
    assert s.cults[0].vp == 0
    assert s.cults[1].vp == 1
    assert "P1 loses 1 sacrificial, 2 breeders" in public_text(ev)


def test_cult_with_zero_followers_keeps_playing_with_empty_slots() -> None:
    from rules.cult_wars import ENGINE
    s = make([0, 12, 12])
    assert any(pr.seat == 0 for pr in ENGINE.prompts(s))
    s, _ = play(s, {
        0: orders(1),
        1: orders(0, attack=[5]),
        2: orders(0, attack=[3]),
    })
    assert s.cults[0].followers == 0
    assert s.turn == 2
    for pr in ENGINE.prompts(s):
        assert pr.choices  # ready-made orders still offered (all idle)


def test_killed_sacrifices_score_for_the_attacker_with_most_attackers() -> None:
    s = make([12, 12, 12, 12])
    s, _ = play(s, {
        0: orders(1, sacrifice=[5], defend=[1]),
        1: orders(0, attack=[3]),
        2: orders(0, attack=[2]),
        3: orders(0, attack=[1]),
    })
    # Attack 6 against defence 1: 5 losses, all on the 5 sacrificial followers; P2 (3) scores 5.
    assert [c.vp for c in s.cults] == [0, 5, 0, 0]


def test_tied_biggest_attackers_split_sacrifice_vp_rounded_down() -> None:
    s = make([12, 12, 12, 12])
    s, ev = play(s, {
        0: orders(1, sacrifice=[3]),
        1: orders(0, attack=[2]),
        2: orders(0, attack=[1, 1]),
        3: orders(1),
    })
    # Attack 4 against defence 0: 4 losses, 3 of them sacrificial; P2 and P3 tie with 2 each:
    # 3 // 2 = 1 VP each, the odd point is lost.
    assert [c.vp for c in s.cults] == [0, 1, 1, 0]
    assert "P2 +1 VP, P3 +1 VP" in public_text(ev)


def test_split_sacrifice_vp_rules() -> None:
    assert split_sacrifice_vp(5, {1: 4, 2: 4, 3: 4}) == {1: 1, 2: 1, 3: 1}
    assert split_sacrifice_vp(1, {1: 4, 2: 4}) == {1: 0, 2: 0}
    assert split_sacrifice_vp(3, {1: 5, 2: 4}) == {1: 3}
    assert split_sacrifice_vp(0, {1: 5}) == {}


def test_mutual_attacks_resolve_independently() -> None:
    s = make([12, 12, 12])
    s, _ = play(s, {
        0: orders(1, attack=[5], defend=[3]),
        1: orders(0, attack=[8], defend=[2]),
        2: orders(0),
    })
    # At P1: 8 v 3 → P1 loses 5 at home (3 defenders + 2 of its 4 idle). At P2: 5 v 2 → P2 loses 3
    # at home (2 defenders + 1 of its 2 idle). Attackers come home.
    assert s.cults[0].followers == 7
    assert s.cults[1].followers == 9
