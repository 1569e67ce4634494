"""Card tables (rulebook 7-1 skills, 7-2 action cards, 7-3 believers, 7-4 card list).

The data lives in ``cards.json`` beside this module. Every physical card has a small integer id:
action cards 0..77, believer cards 0..59, skill cards 0..15. A believer's type (its ID 1..5 on
the card: Fool=1, Prayer=2, Missionary=3, Elder=4, Fanatic=5) is ``card // 12 + 1``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rules.text import article, count

_DATA: dict[str, Any] = json.loads((Path(__file__).with_name("cards.json")).read_text("utf-8"))

BELIEVER_NAMES: dict[int, str] = {int(b["id"]): str(b["name"]) for b in _DATA["believers"]}
BELIEVER_COPIES: int = int(_DATA["believer_copies"])
DECK_SIZE: dict[int, int] = {int(k): int(v) for k, v in _DATA["believer_deck_size"].items()}

ACTION_NAMES: list[str] = [str(a["name"]) for a in _DATA["actions"]]
ACTION_KIND: dict[str, str] = {str(a["name"]): str(a["kind"]) for a in _DATA["actions"]}
ACTION_TEXT: dict[str, str] = {str(a["name"]): str(a["text"]) for a in _DATA["actions"]}
ACTION_COUNT: dict[str, int] = {str(a["name"]): int(a["count"]) for a in _DATA["actions"]}

ACTION_CARDS: list[str] = [name for name in ACTION_NAMES for _ in range(ACTION_COUNT[name])]
"""Name of each action card id."""

SKILL_NAMES: list[str] = [str(s["name"]) for s in _DATA["skills"]]
SKILL_LIMIT: dict[str, int | str] = {str(s["name"]): s["limit"] for s in _DATA["skills"]}
SKILL_TIMING: dict[str, str] = {str(s["name"]): str(s["timing"]) for s in _DATA["skills"]}
SKILL_TEXT: dict[str, str] = {str(s["name"]): str(s["text"]) for s in _DATA["skills"]}

N_ACTIONS = len(ACTION_CARDS)
N_BELIEVERS = BELIEVER_COPIES * len(BELIEVER_NAMES)
N_SKILLS = len(SKILL_NAMES)

# kinds of action for the "never the same kind twice" rule
STRATEGY, PHYSICAL, MENTAL, DISCARD = "strategy", "physical", "mental", "discard"
DEFENCE_FOR = {PHYSICAL: "Great Mercy", MENTAL: "Firm Faith"}


def btype(card: int) -> int:
    """The believer type (1..5) of believer card ``card``."""
    return card // BELIEVER_COPIES + 1


def bname(t: int) -> str:
    return BELIEVER_NAMES[t]


def believers_text(n: int) -> str:
    """'1 believer', '3 believers'."""
    return count(n, "believer", "believers")


def with_article(word: str) -> str:
    """'a Fool', 'an Elder'."""
    return article(word)


def blabel(t: int) -> str:
    return f"{BELIEVER_NAMES[t]} ({t})"


def beats(t: int) -> tuple[int, int]:
    """The two types ``t`` defeats: the one just below it (Faith War bonus) and the one below that."""
    return ((t - 2) % 5 + 1, (t - 3) % 5 + 1)


def compare(a: int, b: int, reverse: bool = False) -> int:
    """+1 if type ``a`` beats type ``b``, -1 if it loses, 0 on a draw. ``reverse``: Karma Reversed."""
    if a == b:
        return 0
    r = 1 if b in beats(a) else -1
    return -r if reverse else r


def beats_reason(winner: int, loser: int, reverse: bool = False) -> str:
    """Why believer type ``winner`` beat ``loser``, from the circle: "a Fool defeats a Fanatic
    and an Elder" (each type defeats the two below it, round the circle), or under Karma Reversed
    "Karma Reversed: a Fool loses to an Elder on the circle"."""
    if reverse:
        return (f"Karma Reversed: {article(BELIEVER_NAMES[winner])} loses to "
                f"{article(BELIEVER_NAMES[loser])} on the circle")
    low, lower = beats(winner)
    return (f"{article(BELIEVER_NAMES[winner])} defeats {article(BELIEVER_NAMES[low])} and "
            f"{article(BELIEVER_NAMES[lower])}")


def is_bonus(winner: int, loser: int) -> bool:
    """True if the winner's type is exactly one above the loser's (the Faith War bonus arrow)."""
    return beats(winner)[0] == loser


def action_uid(card: int) -> str:
    return f"act#{card:02d}"


def believer_uid(card: int) -> str:
    return f"bel#{card:02d}"


def skill_uid(card: int) -> str:
    return f"sk#{card:02d}"


def skill_limit_text(name: str) -> str:
    lim = SKILL_LIMIT[name]
    return {"game": "once per game", "round": "once per round", "unlimited": "unlimited"}.get(
        str(lim), f"{lim} times per game")
