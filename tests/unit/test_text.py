"""The text helper every game and the platform share (``rules/text.py``)."""

from __future__ import annotations

import pytest

from rules.text import about, article, count, listing, number, ordinal, plural, third_person


@pytest.mark.parametrize(("word", "many"), [
    ("believer", "believers"), ("Missionary", "Missionaries"), ("Church", "Churches"),
    ("Holy Relic", "Holy Relics"), ("day", "days"), ("person", "people"), ("Die", "Dice"),
    ("box", "boxes"),
])
def test_plurals(word: str, many: str) -> None:
    assert plural(word) == many


def test_counts_never_say_s_in_brackets_and_keep_whole_numbers_whole() -> None:
    assert count(1, "believer") == "1 believer"
    assert count(0, "believer") == "0 believers"
    assert count(3, "Missionary") == "3 Missionaries"
    assert count(2.0, "point") == "2 points"
    assert count(1.0, "point") == "1 point"
    assert count(2, "sheep") == "2 sheep"
    assert count(2, "Prophet of Doom", "Prophets of Doom") == "2 Prophets of Doom"


@pytest.mark.parametrize(("word", "said"), [
    ("Elder", "an Elder"), ("Fool", "a Fool"), ("hour", "an hour"), ("unit", "a unit"),
    ("Oracle", "an Oracle"), ("Fanatic", "a Fanatic"), ("Indulgence", "an Indulgence"),
])
def test_articles(word: str, said: str) -> None:
    assert article(word) == said


def test_numbers_ordinals_and_lists() -> None:
    assert [number(x) for x in (12.0, 3.5, 1 / 3, 7, -2.0)] == ["12", "3.5", "0.33", "7", "-2"]
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st"]
    assert listing([]) == "" and listing(["A"]) == "A" and listing(["A", "B", "C"]) == "A, B and C"


def test_text_to_a_player_is_retold_about_them() -> None:
    assert about("your turn ends", "P3") == "P3's turn ends"
    assert about("you steal from the first player listed", "P2") == "P2 steals from the first player listed"
    assert about("a computer flick at the navel is made for you", "P1") == \
        "a computer flick at the navel is made for P1"
    assert about("Breaking Faith is countered if you hold one", "P4") == \
        "Breaking Faith is countered if P4 holds one"
    assert about("the computer player writes your orders", "P2") == "the computer player writes P2's orders"
    assert about("no defence card is played", "P2") == "no defence card is played"
    assert third_person("pass") == "passes" and third_person("carry") == "carries"


def test_a_player_count_range_of_one_number_says_it_once() -> None:
    """"2 players", never "2–2 players" (Alternate Histories is for two exactly)."""
    from rules.text import count_range

    assert count_range(2, 2, "player") == "2 players"
    assert count_range(2, 6, "player") == "2–6 players"
    assert count_range(1, 1, "player") == "1 player"
