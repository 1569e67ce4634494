"""Alternate Histories presentation without Discord: the deck list image, the pick forms' options
and drafts, and the board and hand images and texts drawn from views through a whole game."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import discord
from PIL import Image

from bot.render import MIN_TEXT_SHARE, measure
from cogs.alternate_histories import forms
from cogs.alternate_histories.deckbuilder import pool
from cogs.alternate_histories.render import deck_alt, deck_image
from rules.alternate_histories import content
from rules.alternate_histories.views import read_view

POOL = pool(content)


def _readable(draw: Callable[[], Image.Image | None], what: str) -> None:
    with measure() as sizes:
        image = draw()
    assert image is not None and sizes, what
    assert min(sizes) >= image.width * MIN_TEXT_SHARE, f"{what}: {min(sizes)} px text"
    assert image.width <= 900


def test_the_deck_list_is_readable_and_described() -> None:
    data = POOL.from_ready("britain-communism")
    _readable(partial(deck_image, POOL, "Rule Britannia", data, []), "deck list")
    alt = deck_alt(POOL, "Rule Britannia", data, [])
    assert "Deck list of Rule Britannia" in alt and "40 of 40 cards" in alt and "Ready to play" in alt
    assert "Chemical:" in alt
    empty = POOL.new("usa", "capitalism")
    errors = POOL.errors(empty)
    _readable(partial(deck_image, POOL, "Nothing yet", empty, errors), "empty deck list")
    assert "Not ready" in deck_alt(POOL, "Nothing yet", empty, errors)


def test_the_opening_form_offers_each_copy_up_to_what_can_be_picked() -> None:
    params = {"cards": [{"id": "rifle_infantry", "name": "Rifle Infantry", "count": 3},
                        {"id": "landship", "name": "Landship", "count": 9},
                        {"id": "university", "name": "University", "count": 1}], "pick": 7}
    options = forms.entries("opening", params)
    assert [e.label for e in options[:3]] == ["Rifle Infantry (1 of 3)", "Rifle Infantry (2 of 3)",
                                             "Rifle Infantry (3 of 3)"]
    assert sum(1 for e in options if e.card == "landship") == 7  # never more than 7 to pick from
    assert options[-1].label == "University"
    picked = forms.choose([], 0, ["e0", "e1", "e3", "e99", "x"], len(options))
    assert picked == [0, 1, 3]
    embed = forms.pick_embed("opening", params, options, picked)
    assert "Chosen **3 of 7**" in (embed.description or "") and "2× Rifle Infantry" in (embed.description or "")
    # the draft lives in the message: read back as written, out-of-range numbers dropped
    message: Any = type("M", (), {"embeds": [embed]})()
    assert forms.picked_from(message, len(options)) == [0, 1, 3]
    assert forms.picked_from(message, 2) == [0, 1]
    # a second menu's choice leaves the first menu's picks alone
    many = {"cards": [{"id": f"c{k}", "name": f"Card {k}"} for k in range(30)], "count": 5,
            "purpose": "Burn 5 graveyard cards"}
    options = forms.entries("pick", many)
    picked = forms.choose([1, 2], 1, ["e26", "e27"], len(options))
    assert picked == [1, 2, 26, 27]
    assert forms.choose(picked, 0, [], len(options)) == [26, 27]
    items = forms.pick_items(7, 12, "pick", many, options, picked)
    menus = [i for i in items if isinstance(i, discord.ui.Select)]
    assert len(menus) == 2 and all(m.max_values <= 5 for m in menus)
    ids = [str(getattr(i, "custom_id", "")) for i in items]
    assert all(c.startswith("herald:ah") and ":7:12:" in c for c in ids)
    assert not any("c1" in c for c in ids)  # no card in a custom_id


def test_a_pick_of_repeated_cards_counts_copies_by_id() -> None:
    params = {"cards": [{"id": "gas_attack", "name": "Gas Attack"}, {"id": "doughboys", "name": "Doughboys"},
                        {"id": "gas_attack", "name": "Gas Attack"}], "count": 2, "purpose": "Burn"}
    labels = [e.label for e in forms.entries("pick", params)]
    assert labels == ["Gas Attack (1 of 2)", "Doughboys", "Gas Attack (2 of 2)"]


NAMES = ["Ann", "**Bob** <@123456789>"]


def _game(seed: int) -> list[Any]:
    """The states of a whole game between computer players, every 80th move and the last."""
    import random

    from rules.alternate_histories import ENGINE

    rng = random.Random(seed)
    s = ENGINE.setup(2, seed, {})
    states = [ENGINE.clone(s)]
    n = 0
    while ENGINE.result(s) is None:
        p = ENGINE.prompts(s)[0]
        s, _ = ENGINE.apply(s, p.seat, ENGINE.bot_action(ENGINE.view(s, p.seat), p, rng))
        n += 1
        if n % 80 == 0:
            states.append(ENGINE.clone(s))
    return [*states, s]


def test_boards_and_hands_through_a_whole_game_are_readable_named_and_keep_hands_secret() -> None:
    from cogs.alternate_histories.ui import UI
    from rules.alternate_histories import ENGINE

    states = _game(4)
    seen_combat = seen_tapped = False
    for k, state in enumerate(states):
        public = ENGINE.view(state, None)
        _readable(partial(UI.board_image, public, [], names=NAMES), f"board {k}")
        alt = UI.board_alt(public, names=NAMES)
        assert "Ann" in alt and "Bob" in alt and "<@" not in alt and "**" not in alt
        status = UI.status_text(public)
        assert status
        seen_combat |= "Last combat" in status
        seen_tapped |= any(p["tapped"] for p in public["battlefield"])
        known = {p["name"] for p in public["battlefield"]}
        for sd in public["sides"]:
            known |= {content.CARDS[c].name for c in sd["graveyard"] + sd["burned"]}
        if public["last_combat"]:
            for side in ("attacker", "defender"):
                if public["last_combat"].get(side) and public["last_combat"][side].get("roll_card"):
                    known.add(content.CARDS[public["last_combat"][side]["roll_card"]].name)
        for seat in (0, 1):
            mine = ENGINE.view(state, seat)
            hand = UI.hand_image(mine, names=NAMES)
            if public["phase"] == "deck":
                assert hand is None
                continue
            _readable(partial(UI.hand_image, mine, names=NAMES), f"hand {seat} at {k}")
            text = UI.hand_text(mine)
            for cid in mine["private"]["hand"]:
                card = content.CARDS[cid]
                assert card.name in text and card.text in text and f"value {card.value}" in text
                if card.name not in known:  # a hand's card never shows in public
                    assert card.name not in alt and card.name not in status
    end = ENGINE.view(states[-1], None)
    final = UI.board_alt(end, names=NAMES)
    assert "game over" in final and "Final ranking" in final and "P1" not in final and "P2" not in final
    assert "Game over" in UI.status_text(end)
    assert seen_combat and seen_tapped


def test_the_last_combat_takes_each_total_apart_as_the_tile_power_and_the_top_card() -> None:
    """A combat total is the power its tile shows (every modifier in: 130 printed, 182 - 52 here)
    plus the value of the card on top of the deck, named as such; a side with no card to reveal
    adds 0 and says why."""
    from cogs.alternate_histories.render import _combat_lines

    view: dict[str, Any] = {"last_combat": {
        "attacker": {"uid": 1, "owner": 0, "name": "Spitfire", "power": 100, "total": 182,
                     "roll_card": "gas_attack", "roll": 52},
        "defender": {"uid": 2, "owner": 1, "name": "Dreadnought", "power": 210, "total": 250,
                     "roll_card": None, "roll": None},
        "outcome": "defender"}}
    lines = _combat_lines(read_view(view), ["Ann", "Bob"])
    assert lines[0] == ("Ann's Spitfire: 130 power + 52, the value of Gas Attack on top of the "
                        "deck = 182")
    assert lines[1] == ("against Bob's Dreadnought: 250 power + 0 (no card left on top of the deck) "
                        "= 250: the defender won.")
    view["last_combat"]["outcome"] = "fled"
    assert "fled" in " ".join(_combat_lines(read_view(view), ["Ann", "Bob"]))


def test_a_direct_hit_shows_the_power_the_attackers_tile_shows() -> None:
    """Without a roll (a direct hit), the attacker's power is the one its tile shows now, not
    the printed one ("80 power beside a tile showing 130")."""
    from cogs.alternate_histories.render import _combat_lines

    view: dict[str, Any] = {
        "battlefield": [{"uid": 1, "owner": 0, "kind": "unit", "power": 80, "attack": 130}],
            "last_combat": {"attacker": {"uid": 1, "owner": 0, "name": "Tank", "power": 80,
                                         "total": None, "roll_card": None, "roll": None},
                            "defender": None, "outcome": "hit"}}
    line = _combat_lines(read_view(view), ["Ann", "Bob"])[0]
    assert line.startswith("Ann's Tank (130 power) hit Bob directly")
    assert "80" not in line


def test_a_reorder_is_picked_one_card_at_a_time_top_first() -> None:
    params = {"cards": [{"id": "gas_attack", "name": "Gas Attack"}, {"id": "doughboys", "name": "Doughboys"},
                        {"id": "landship", "name": "Landship Mk IV"}], "count": 3, "min": 3,
              "purpose": "the new order"}
    prompt: Any = type("P", (), {"kind": "reorder"})()
    assert forms.ordered(prompt)
    options = forms.entries("pick", params)
    picked = forms.append([], ["e2"], len(options))
    picked = forms.append(picked, ["e0"], len(options))
    assert picked == [2, 0]
    items = forms.pick_items(1, 5, "pick", params, options, picked, ordered=True)
    menu = next(i for i in items if isinstance(i, discord.ui.Select))
    assert [o.label for o in menu.options] == ["Doughboys"] and menu.max_values == 1
    embed = forms.pick_embed("pick", params, options, picked, ordered=True)
    assert "From the top: 1. Landship Mk IV, 2. Gas Attack." in (embed.description or "")
    message: Any = type("M", (), {"embeds": [embed]})()
    assert forms.picked_from(message, len(options)) == [2, 0]  # the order survives the message
    assert forms.bounds("pick", {"count": 3, "min": 0}) == (0, 3)
