"""Every choice says what it does: the card's name with its target, and the engine's description."""

from __future__ import annotations

from bot.session import OpenPrompt
from bot.views import (
    ChoiceButton,
    ChoiceSelect,
    GroupSelect,
    choice_notes,
    choice_view,
    shown_label,
)
from rules.engine import Choice, Prompt


def _open(choices: list[Choice]) -> OpenPrompt:
    return OpenPrompt(Prompt(0, "turn", "Your turn", tuple(choices)), 3)


def test_a_label_without_its_card_gets_the_card_name() -> None:
    assert shown_label(Choice("Against every other sect", {"type": "x"}, group="Faith War")) == \
        "Faith War — Against every other sect"
    assert shown_label(Choice("→ P2", {"type": "x"}, group="Kowtow")) == "Kowtow — → P2"
    # labels that name their group already stay as they are
    assert shown_label(Choice("End my turn", {"type": "end"}, group="End turn")) == "End my turn"
    assert shown_label(Choice("Discard action cards…", {"type": "d"}, group="Discard")) == "Discard action cards…"
    assert shown_label(Choice("Use Prophet (name a type)", {"type": "s"}, group="Skill: Prophet")) == \
        "Use Prophet (name a type)"
    assert shown_label(Choice("Reveal", {"type": "s"}, group="Skill: Prophet")) == "Prophet — Reveal"
    assert shown_label(Choice("Zeus", {"type": "god"})) == "Zeus"


def test_grouped_choices_on_buttons_and_in_menus_name_their_card() -> None:
    few = _open([Choice("Against every other sect", {"type": "a"}, group="Faith War"),
                 Choice("End my turn", {"type": "end"}, group="End turn")])
    labels = [i.item.label for i in choice_view(1, few).children if isinstance(i, ChoiceButton)]
    assert labels == ["Faith War — Against every other sect", "End my turn"]
    many = _open([Choice(f"→ P{t}", {"type": "p", "card": c, "t": t}, group=c)
                  for c in ("Kowtow", "Faith War") for t in (2, 3, 4)])
    (first,) = choice_view(1, many).children
    assert isinstance(first, GroupSelect)
    (second,) = choice_view(1, many, group=1).children
    assert isinstance(second, ChoiceSelect)
    assert [o.label for o in second.item.options] == ["Faith War — → P2", "Faith War — → P3", "Faith War — → P4"]


def test_descriptions_are_said_in_the_text_for_buttons_and_in_the_options_for_menus() -> None:
    gods = _open([Choice("Zeus", {"g": "z"}, description="Thunder Temples: build anywhere"),
                  Choice("Themis", {"g": "t"}, description="Scales: vote twice")])
    notes = choice_notes(gods)
    assert "**Zeus** — Thunder Temples: build anywhere" in notes and "**Themis** — Scales: vote twice" in notes
    many = _open([Choice(f"Option {i}", {"i": i}, description=f"does {i}") for i in range(8)])
    assert choice_notes(many) == ""  # a select shows each description itself
    (menu,) = choice_view(1, many).children
    assert isinstance(menu, ChoiceSelect)
    assert [o.description for o in menu.item.options][:2] == ["does 0", "does 1"]
    assert choice_notes(_open([Choice("Bid 1", {"b": 1})])) == ""  # nothing to add
