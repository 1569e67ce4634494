"""Choice panels: buttons for a few choices, card → target menus for grouped ones, paging."""

from __future__ import annotations

from typing import Any, cast

from bot.session import OpenPrompt, choices_digest
from bot.views import ChoiceButton, ChoiceSelect, GroupSelect, choice_view
from rules.engine import Choice, Prompt


def _prompt(choices: list[Choice]) -> OpenPrompt:
    """The prompt as the seat's open decision, opened at version 9."""
    return OpenPrompt(Prompt(0, "turn", "Your turn", tuple(choices)), 9)


def _select_options(view: Any) -> list[str]:
    (item,) = view.children
    return [o.value for o in item.item.options]


def test_a_few_choices_are_buttons() -> None:
    view = choice_view(1, _prompt([Choice(f"c{i}", {"type": "x", "i": i}) for i in range(4)]))
    assert all(isinstance(i, ChoiceButton) for i in view.children) and len(view.children) == 4


def test_grouped_choices_ask_card_then_target_and_lone_choices_stay_reachable() -> None:
    choices = [Choice(f"→ P{t}", {"type": "play", "card": card, "target": t}, group=card)
               for card in ("Kowtow", "Spread Rumors", "Faith War") for t in (2, 3, 4)]
    choices.append(Choice("End turn", {"type": "end"}))
    prompt = _prompt(choices)
    first = choice_view(1, prompt)
    assert isinstance(first.children[0], GroupSelect)
    assert _select_options(first) == ["g:0", "g:1", "g:2", "c:9"]
    second = choice_view(1, prompt, group=1)
    assert isinstance(second.children[0], ChoiceSelect)
    assert _select_options(second) == ["3", "4", "5"]  # Spread Rumors' three targets


def test_many_ungrouped_choices_are_paged() -> None:
    prompt = _prompt([Choice(f"c{i}", {"type": "x", "i": i}) for i in range(50)])
    first = _select_options(choice_view(1, prompt))
    assert first[-1] == "page:-1:1" and first[0] == "0" and len(first) == 24
    second = _select_options(choice_view(1, prompt, page=1))
    assert second[0] == "page:-1:0" and "23" in second


def test_custom_ids_carry_no_choice_content() -> None:
    prompt = _prompt([Choice("Bid 5", {"type": "bid", "card": 5}), Choice("Bid 2", {"type": "bid", "card": 2})])
    view = choice_view(7, prompt)
    ids = [cast(ChoiceButton, i).item.custom_id for i in view.children]
    digest = choices_digest(prompt.prompt)
    assert ids == [f"herald:btn:7:9-{digest}:0", f"herald:btn:7:9-{digest}:1"]
