"""The rulebook's worked examples, as tests."""

from __future__ import annotations

from rules.flick_of_faith import scoring
from rules.flick_of_faith.state import FlickState

from .helpers import NORTH, E, mission, on_island, put

ANUBIS, DAGDA, FREJA, THEMIS = 0, 1, 2, 3


def _worship_example_board() -> FlickState:
    s = mission(4, ("anubis", "dagda", "freja", "themis"))
    on_island(s, 0, ANUBIS, n=2)
    on_island(s, 0, DAGDA, n=2)
    on_island(s, 0, FREJA)
    on_island(s, 0, THEMIS)
    on_island(s, 1, ANUBIS)
    on_island(s, 2, FREJA)
    on_island(s, 3, DAGDA)
    on_island(s, 3, FREJA, n=2)
    return s


def test_worship_example_anubis_4_dagda_2_freja_7_themis_1() -> None:
    s = _worship_example_board()
    res = scoring.worship(s.discs, 4, [], s.gods)
    assert [r["vp"] for r in res] == [4, 2, 7, 1]
    assert res[ANUBIS]["presence"] == [0, 1] and res[ANUBIS]["domination"] == [1]
    assert res[FREJA]["domination"] == [2, 3]
    assert res[THEMIS]["domination"] == []


def test_worship_example_through_the_engine_returns_prophets_and_keeps_temples() -> None:
    s = _worship_example_board()
    temple = on_island(s, 1, ANUBIS, kind="temple")[0]
    s.supply = [{} for _ in range(4)]
    s.stage = "build"
    s, _ = E.apply(s, 0, {"type": "build_done"})
    # Anubis dominates II even more with his temple; scores 2 + 2
    assert s.vp == [4, 2, 7, 1]
    assert [d["id"] for d in s.discs] == [temple]
    assert all(sup == {"prophet": 5} for sup in s.supply)
    assert s.phase == "council" and s.generation == 2


def test_navel_example_presence_on_three_islands_scores_four() -> None:
    s = mission(2, ("themis", "zeus"))
    for i in (0, 1, 2):
        on_island(s, i, 0)
    navel = put(s, "prophet", 0, 50.0, 50.0)
    s.stage = "build"
    s, events = E.apply(s, 0, {"type": "build_done"})
    assert s.vp[0] == 4
    assert navel not in [d["id"] for d in s.discs]
    assert s.reserve[0] == 1
    assert any("scores 4 VP" in e.text for e in events)


def test_building_temples_example_temple_goes_anywhere_on_that_island() -> None:
    s = mission(2, ("anubis", "dagda"))
    p = put(s, "prophet", 0, NORTH.x + 1.0, NORTH.y)
    s.stage = "build"
    prompt = E.prompts(s)[0]
    assert prompt.free_form == "temple" and prompt.params["max_distance"] == 10.2
    # any free place wholly on the island, to the grid's hundredth of a unit, not one of nine spots
    s, ev = E.apply(s, 0, {"type": "build", "prophet": p, "x": NORTH.x - 3.371, "y": NORTH.y + 7.814})
    temples = [d for d in s.discs if d["kind"] == "temple"]
    assert len(temples) == 1 and (temples[0]["x"], temples[0]["y"]) == (NORTH.x - 3.37, NORTH.y + 7.81)
    assert any("builds a temple on island I, 6.8 o'clock, 8.5 from the city" in e.text for e in ev)
    assert s.temples[0] == 3 and s.reserve[0] == 1
