"""Rulebook "Turn", steps 6–7: sacrifices and breeding."""

from __future__ import annotations

from .helpers import make, orders, play, public_text


def test_sacrifice_scores_one_vp_per_follower_and_kills_them() -> None:
    s = make([12, 12, 12])
    s, _ = play(s, {0: orders(1, sacrifice=[5]), 1: orders(2), 2: orders(0)})
    assert s.cults[0].vp == 5
    assert s.cults[0].followers == 7


def test_every_cult_that_kept_a_sacrifice_draws_a_card_and_a_lone_biggest_draws_another() -> None:
    s = make([12, 12, 12])
    s, ev = play(s, {
        0: orders(1, sacrifice=[5]),
        1: orders(2, sacrifice=[2]),
        2: orders(0, breed=[3]),
    })
    assert len(s.cults[0].hand) == 2   # one for sacrificing, one for the largest sacrifice
    assert len(s.cults[1].hand) == 1
    assert len(s.cults[2].hand) == 0   # did not sacrifice
    assert "P1 made the largest sacrifice (5) and draws an extra card." in public_text(ev)


def test_no_extra_card_when_the_largest_sacrifice_is_shared() -> None:
    s = make([12, 12, 12])
    s, ev = play(s, {
        0: orders(1, sacrifice=[5]),
        1: orders(2, sacrifice=[3, 2]),
        2: orders(0, sacrifice=[1]),
    })
    assert [len(c.hand) for c in s.cults] == [1, 1, 1]
    assert "P1, P2 tie for the largest sacrifice (5): no extra card." in public_text(ev)


def test_largest_sacrifice_counts_what_survived_combat() -> None:
    # P1 lays 8 on the altar but loses 5 of them; P2's untouched 5 is the lone largest.
    s = make([12, 12, 12])
    s, _ = play(s, {
        0: orders(1, sacrifice=[8]),
        1: orders(2, sacrifice=[5]),
        2: orders(0, attack=[5]),
    })
    assert s.cults[0].vp == 3 and s.cults[2].vp == 5
    assert len(s.cults[1].hand) == 2 and len(s.cults[0].hand) == 1


def test_losing_every_sacrifice_gives_no_vp_and_no_card() -> None:
    s = make([12, 12, 12])
    s, ev = play(s, {
        0: orders(1, sacrifice=[3]),
        1: orders(0, attack=[5]),
        2: orders(0),
    })
    assert s.cults[0].vp == 0 and s.cults[0].hand == []
    assert s.cults[1].vp == 3
    assert "P1 lost all 3 sacrificial followers: no VP, no card" in public_text(ev)


def test_breeders_each_bring_one_new_follower_minus_those_killed() -> None:
    s = make([12, 12, 12])
    s, _ = play(s, {
        0: orders(1, breed=[8], sacrifice=[1]),
        1: orders(0, attack=[3]),
        2: orders(0),
    })
    # 3 losses: the sacrifice, then 2 breeders; 6 breeders survive and breed 6.
    assert s.cults[0].followers == 12 - 3 + 6
    assert s.cults[0].vp == 0 and s.cults[1].vp == 1


def test_followers_and_vp_never_go_negative() -> None:
    s = make([1, 20, 20])
    s, _ = play(s, {
        0: orders(1, sacrifice=[1]),
        1: orders(0, attack=[8, 5, 3, 2, 1, 1]),
        2: orders(0, attack=[8, 5, 3, 2, 1, 1]),
    })
    assert s.cults[0].followers == 0 and s.cults[0].vp == 0
    assert min(c.followers for c in s.cults) >= 0
