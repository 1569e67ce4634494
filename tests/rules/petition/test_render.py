"""The Petition board, hand and reveal images and texts, drawn from views at every stage of
seeded games between computer players: readable on a phone, players named, nothing face down
shown before its reveal."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

from PIL import Image

from bot.render import MIN_TEXT_SHARE, kit, measure
from cogs.petition import render
from cogs.petition.ui import UI
from rules.engine import Event
from rules.petition import ENGINE
from rules.petition.views import read_reveal, read_view

NAMES = ["Ann", "**Bob** <@123456789>", "Zoë the Remarkably Long-Named Prophet", "Dee", "Eve", "Finn"]


def _game(players: int, seed: int, options: dict[str, Any] | None = None,
          limit: int = 3000) -> Iterator[tuple[Any, list[Event]]]:
    """Every state of a game between computer players, with the events that led to it."""
    s = ENGINE.setup(players, seed, options or {})
    rng = random.Random(seed)
    events: list[Event] = []
    yield s, events
    for _ in range(limit):
        if ENGINE.result(s) is not None:
            return
        pr = ENGINE.prompts(s)[0]
        s, events = ENGINE.apply(s, pr.seat, ENGINE.bot_action(ENGINE.view(s, pr.seat), pr, rng))
        yield s, events
    raise AssertionError("the game did not end")


def _readable(draw: Callable[[], Image.Image | None], what: str) -> Image.Image:
    """Drawn through the kit only, no text under 3% of the width, a phone-first width."""
    kit._LAYERS.clear()
    with measure() as sizes:
        image = draw()
    assert image is not None, what
    assert sizes, f"{what}: no text measured"
    assert min(sizes) >= image.width * MIN_TEXT_SHARE, f"{what}: {min(sizes)} px text"
    assert 400 <= image.width <= 900, what
    return image


def _stage(view: dict[str, Any]) -> str:
    pet, camp = view.get("petition"), view.get("campaign")
    if view["phase"] in ("place", "claim", "over"):
        return str(view["phase"])
    if pet:
        return f"petition:{pet['stage']}"
    if camp:
        return f"campaign:{camp['stage']}"
    return str(view["phase"])


def test_every_stage_of_a_three_player_game_draws_and_reads() -> None:
    """Each stage (turn, petition offer / challenge / respond / bid, campaign, placing, the end)
    drawn once: board, every hand, alt texts, status; each reveal's image with its line."""
    drawn: set[str] = set()
    reveals = 0
    for s, events in _game(3, 9):
        pub = ENGINE.view(s, None)
        for e in events:
            files = UI.event_files(pub, e, names=NAMES)
            if e.kind in ("reveal_bids", "reveal_campaign"):
                assert len(files) == 1 and files[0][0] == "reveal.png" and files[0][1][:4] == b"\x89PNG"
                alt = files[0][2]
                assert "Ann" in alt or "Bob" in alt or "Zoë" in alt, alt
                reveals += 1
            else:
                assert files == []
        stage = _stage(pub)
        if stage in drawn:
            continue
        drawn.add(stage)
        _readable(partial(UI.board_image, pub, events, names=NAMES), f"board at {stage}")
        alt = UI.board_alt(pub, names=NAMES)
        assert "Ann" in alt and "Bob" in alt and "<@" not in alt and "**" not in alt
        assert "Zoë" in alt  # alt text is read, not drawn: the name stays as written
        assert UI.status_text(pub)
        for seat in range(3):
            mine = ENGINE.view(s, seat)
            _readable(partial(UI.hand_image, mine, names=NAMES), f"hand of seat {seat} at {stage}")
            assert f"P{seat + 1}" in UI.hand_text(mine)
    assert {"turn", "petition:offer", "petition:challenge", "petition:bid", "campaign:gather",
            "campaign:battle", "place", "over"} <= drawn, drawn
    assert reveals >= 2


def test_the_solo_board_shows_the_stacks_and_the_battle() -> None:
    seen_battle = False
    final = None
    for s, events in _game(1, 3):
        pub = ENGINE.view(s, None)
        final = pub
        img = _readable(partial(UI.board_image, pub, events, names=NAMES), f"solo board at {pub['phase']}")
        assert img.height > 300
        if (pub["solo"] or {}).get("battle"):
            seen_battle = True
            alt = UI.board_alt(pub, names=NAMES)
            assert "Battle for the" in alt and "Ann" in alt
        _readable(partial(UI.hand_image, ENGINE.view(s, 0), names=NAMES), "solo hand")
    assert seen_battle and final is not None
    assert "game over" in UI.board_alt(final, names=NAMES)
    assert "Game over" in UI.status_text(final)


def test_the_final_board_ranks_by_captured_pillars_and_names_the_winner_first() -> None:
    *_, (s, events) = _game(4, 5)
    pub = ENGINE.view(s, None)
    result = ENGINE.result(s)
    assert result is not None
    _readable(lambda: UI.board_image(pub, events, names=NAMES), "final board")
    alt = UI.board_alt(pub, names=NAMES)
    assert alt.startswith("Petition, game over:") and "Final ranking" in alt
    winner = ["Ann", "Bob", "Zoë the Remarkably Long-Named Prophet", "Dee"][result.winners[0]]
    assert winner in alt.split("Final ranking")[0]
    ranks = render.ranking(read_view(pub))
    assert ranks[0]["seat"] in result.winners


def _to_bid(seed: int) -> Any:
    """A 3-player game up to the moment one side of a petition duel has bid face down."""
    for s, _events in _game(3, seed):
        pet = s.petition
        if pet is not None and pet.stage == "bid" and pet.holder is not None and pet.challenger is not None \
                and (pet.holder.cards is None) != (pet.challenger.cards is None):
            return s
    raise AssertionError("no half-made bid in this game")


def test_a_face_down_bid_stays_out_of_the_public_board_and_texts_until_the_reveal() -> None:
    s = _to_bid(9)
    pet = s.petition
    side = pet.holder if pet.holder.cards is not None else pet.challenger
    from rules.petition.content import card_name

    secret = [card_name(c) for c in side.cards]
    assert secret
    pub = ENGINE.view(s, None)
    said = " ".join([UI.board_alt(pub, names=NAMES), UI.status_text(pub)])
    for name in secret:
        assert name not in said, name
    assert "bid citizens" in said and "face down" in said
    # the bidder's own hand text and image list it (privately)
    mine = ENGINE.view(s, side.seat)
    assert all(name in UI.hand_text(mine) for name in secret)
    assert "Your face-down bid" in UI.hand_text(mine)
    # the other seat's answer reveals both bids: the reveal event's image and alt text show them
    other = pet.challenger if side is pet.holder else pet.holder
    prompt = next(p for p in ENGINE.prompts(s) if p.seat == other.seat)
    after, events = ENGINE.apply(s, other.seat, ENGINE.bot_action(ENGINE.view(s, other.seat), prompt,
                                                                   random.Random(1)))
    reveal = next(e for e in events if e.kind == "reveal_bids")
    (name, png, alt), = UI.event_files(ENGINE.view(after, None), reveal, names=NAMES)
    assert name == "reveal.png" and png[:4] == b"\x89PNG"
    assert all(n in alt for n in secret) and "beads" in alt


def test_hand_text_gives_each_cards_god_points_and_powerup_text() -> None:
    for s, _events in _game(3, 3):
        mine = ENGINE.view(s, 0)
        hand = mine["private"]["hand"]
        if any(h["kind"] == "powerup" for h in hand) and any(h["kind"] == "citizen" for h in hand):
            break
    text = UI.hand_text(mine)
    for h in hand:
        assert h["name"] in text
        if h["kind"] == "powerup":
            assert h["text"] in text
        else:
            god = render.god_of(read_view(mine), h["god"])
            assert god is not None
            assert f"serves {god['name']}" in text
            assert render.points_text(h["points"]) in text
    assert render.hand_alt(mine, NAMES).startswith("Your Petition hand.")


def test_reveal_images_of_a_bid_duel_and_a_surrendered_campaign() -> None:
    view = ENGINE.view(ENGINE.setup(3, 1), None)
    pub = read_view(view)
    citizen = {"name": "Warlord", "kind": "citizen", "god": "war",
               "points": {"art": 0, "economy": 0, "magic": 0, "war": 4}, "text": ""}
    bids = {"type": "bids", "god": "war", "duel": 1, "holder": {"seat": 0, "beads": 2, "cards": [citizen]},
            "challenger": {"seat": 2, "beads": 3, "cards": []}, "winner": 2, "bonus": 1, "lock": False,
            "why": "P3 offered more beads"}
    img = _readable(lambda: render.reveal_image(read_reveal(bids), pub, NAMES), "bid reveal")
    assert img.height > 200
    summary = render.reveal_summary(read_reveal(bids), pub, ["Ann", "Bob", "Cy"])
    assert summary.startswith("Ann (2 beads, 1 citizen) against Cy (3 beads, 0 citizens) for Harth (War)")
    assert "Cy wins +1" in summary and "(Cy offered more beads)" in summary
    camp = {"type": "campaign", "attacker": 1, "defender": 0, "pillar": "war", "attack": [citizen],
            "defend": [], "attack_total": 7, "defend_total": 0}
    _readable(lambda: render.reveal_image(read_reveal(camp), pub, NAMES), "campaign reveal")
    assert render.reveal_summary(read_reveal(camp), pub, ["Ann", "Bob", "Cy"]) == \
        "Bob against Ann's War: Ann surrendered without a fight."
    fought = dict(camp, defend=[citizen], defend_total=5)
    assert render.reveal_summary(read_reveal(fought), pub, ["Ann", "Bob", "Cy"]) == \
        "Bob against Ann's War: 7 to 5 on the reveal; the battle follows."
    assert render.reveal_summary(read_reveal(dict(fought, captured=True, attack_total=9)), pub, ["Ann", "Bob", "Cy"]) == \
        "Bob against Ann's War: 9 to 5: Bob captures it."
    assert render.reveal_summary(read_reveal(dict(fought, captured=False)), pub, ["Ann", "Bob", "Cy"]).endswith(
        "the pillar holds.")
    # a private event is never drawn for the thread, whatever its kind
    assert UI.event_files(view, Event("x", to=(0,), kind="reveal_bids", data=bids)) == []
