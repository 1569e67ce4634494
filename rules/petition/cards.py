"""Card-picking prompts (free-form ``"cards"``) and reading their answers.

Every pick of several cards at once — a face-down bid, the opening cards of a campaign,
reinforcements, the solo game's attack — is one prompt shape, so one form serves them all:
``Prompt.params`` lists exactly the cards the seat may pick now, with ``min``/``max``, a short
confirm label and whether an empty pick (a pass, a surrender) is allowed. The answer is
``{"type": "cards", "cards": [id, ...]}``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import cast

from ..engine import Action, IllegalAction, Prompt, fields, shown
from ..text import count
from .content import CARDS
from .views import CardFaceView, CardView

CARDS_USAGE = '{"type": "cards", "cards": ["PT07", ...]}'


def card_json(card_id: str) -> CardView:
    return cast(CardView, CARDS[card_id].prompt_json())


def card_face(card_id: str) -> CardFaceView:
    """A card shown publicly that may go back to a hand (a revealed bid, a card lock): everything
    but its instance id, so a later hand never matches it by id."""
    face = card_json(card_id)
    return {"name": face["name"], "kind": face["kind"], "god": face["god"], "points": face["points"],
            "text": face["text"]}


def cards_prompt(seat: int, kind: str, text: str, *, purpose: str, pillar: str | None,
                 cards: Sequence[str], min_: int, max_: int, confirm: str, secret: bool,
                 timeout_note: str, values: Mapping[str, int] | None = None) -> Prompt:
    """A card-picking prompt (see the module docstring); ``cards`` are the pickable ids.

    ``values`` (card id → what it adds to this pick's pillar total) is given where that is not
    simply the card's points in ``pillar`` — the solo game (powerups count their solo power), a
    defender counting its fortification's kind — so a form can add the total up without knowing
    the rules; each listed card then carries ``"value"``."""
    listed = []
    for c in cards:
        face = CARDS[c].prompt_json()
        if values is not None and c in values:
            face["value"] = int(values[c])
        listed.append(face)
    params = {"purpose": purpose, "pillar": pillar, "cards": listed,
              "min": min_, "max": max_, "confirm": confirm, "can_pass": min_ == 0}
    return Prompt(seat, kind, text, (), secret=secret, free_form="cards",
                  timeout_note=timeout_note, params=params)


def read_cards(action: Action, prompt: Prompt) -> list[str]:
    """The picked ids, checked against the prompt's list, range and uniqueness; IllegalAction
    with one sentence otherwise."""
    what = "a pick of cards"
    got = fields(action, what, required={"type": str, "cards": list}, usage=CARDS_USAGE)
    if got["type"] != "cards":
        raise IllegalAction(f"{shown(got['type'], 40)} is not allowed now; send {CARDS_USAGE}.")
    picked = got["cards"]
    allowed = {c["id"] for c in prompt.params["cards"]}
    seen: set[str] = set()
    for cid in picked:
        if type(cid) is not str:
            raise IllegalAction(f"card {shown(cid, 40)} is not a card id; ids are strings such as "
                                "\"PT07\".")
        if cid in seen:
            raise IllegalAction(f"card {shown(cid, 40)} is picked twice; pick each card once.")
        if cid not in allowed:
            raise IllegalAction(f"card {shown(cid, 40)} cannot be picked now; pick from the cards "
                                "listed with this decision.")
        seen.add(cid)
    lo, hi = int(prompt.params["min"]), int(prompt.params["max"])
    if not lo <= len(picked) <= hi:
        span = f"exactly {count(lo, 'card')}" if lo == hi else f"{lo}–{hi} cards"
        raise IllegalAction(f"{count(len(picked), 'card')} picked; pick {span} here.")
    return [str(c) for c in picked]
