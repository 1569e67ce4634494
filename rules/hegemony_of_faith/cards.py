"""Card tables (rulebook 7-1 skills, 7-2 action cards, 7-3 believers, 7-4 card list).

The data lives in ``cards.json`` beside this module. Every physical card has a small integer id:
action cards 0..77, believer cards 0..59, skill cards 0..15. A believer's type (its ID 1..5 on
the card: Fool=1, Prayer=2, Missionary=3, Elder=4, Fanatic=5) is ``card // 12 + 1``.

Every kind of action card, every skill, believer type and tie-break showdown has a stable ``key``
in the data; its name is display text only. The rules of each key sit in tables (the cards' and
skills' options and effects in ``turn``, the attacks' resolutions in ``combat``, the computer
player's in ``bot``), each checked against the data by :func:`check_table` when its module is
imported. The state, the actions and the views keep holding names (stored games still load):
``ACTION_KEY``, ``SKILL_KEY`` and ``ATTACK_KEY`` map a name to its key at those edges. The few
places where a rule hooks on one skill or card (The Prophet before a recruit, say) name it by a
key constant below, checked against the data too.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
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

# ------------------------------------------------------------------------------------- keys

BELIEVER_KEYS: list[str] = [str(b["key"]) for b in _DATA["believers"]]
ACTION_KEYS: list[str] = [str(a["key"]) for a in _DATA["actions"]]
ACTION_KEY: dict[str, str] = {str(a["name"]): str(a["key"]) for a in _DATA["actions"]}
"""Action card name → key."""
ACTION_NAME: dict[str, str] = {key: name for name, key in ACTION_KEY.items()}
"""Action card key → name."""
CARD_KEYS: list[str] = [ACTION_KEY[name] for name in ACTION_CARDS]
"""Key of each action card id."""
SKILL_KEYS: list[str] = [str(s["key"]) for s in _DATA["skills"]]
SKILL_KEY: dict[str, str] = {str(s["name"]): str(s["key"]) for s in _DATA["skills"]}
"""Skill name → key."""
SKILL_NAME: dict[str, str] = {key: name for name, key in SKILL_KEY.items()}
"""Skill key → name."""
SKILL_HOLDER: dict[str, str] = {str(s["key"]): str(s.get("holder", "leader")) for s in _DATA["skills"]}
"""The role a seat must have to use the skill (its own or a Gate of Truth copy): Leaders' skills
are sealed in a Follower, except Purple Hermit, which works only for one."""
SKILL_ACTIVATED: dict[str, bool] = {str(s["key"]): bool(s.get("activated", True)) for s in _DATA["skills"]}
"""False for a skill that is a standing condition, never used (Impermanence of Life)."""
SKILL_COPYABLE: dict[str, bool] = {str(s["key"]): bool(s.get("copyable", True)) for s in _DATA["skills"]}
"""Whether Gate of Truth may copy the skill (Gate of Truth itself needs no entry: the game has one
card of each skill, so nobody else can ever show one to copy)."""
SHOWDOWN_KEYS: list[str] = [str(d["key"]) for d in _DATA["showdowns"]]
ATTACK_KEY: dict[str, str] = {
    **{str(a["name"]): str(a["key"]) for a in _DATA["actions"] if a["kind"] in ("physical", "mental")},
    **{str(d["name"]): str(d["key"]) for d in _DATA["showdowns"]}}
"""Name of an attack frame's ``card`` (an attack card or a showdown) → key."""
ATTACK_NAME: dict[str, str] = {key: name for name, key in ATTACK_KEY.items()}


def _key(key: str, keys: Iterable[str]) -> str:
    """``key``, after checking the data holds it (a rule hooked on a card that is not there
    would never fire)."""
    if key not in set(keys):
        raise ValueError(f"cards.json holds no {key!r}")
    return key


def check_table(what: str, table: Mapping[str, Any], keys: Iterable[str]) -> None:
    """Refuse (ValueError) a rule table whose keys are not exactly ``keys``: a key of the data
    without rules, or rules for a key the data does not hold."""
    want = list(keys)
    missing = [k for k in want if k not in table]
    stray = [k for k in table if k not in set(want)]
    if missing:
        raise ValueError(f"{what}: no rules for {missing} of cards.json")
    if stray:
        raise ValueError(f"{what}: rules for {stray}, which cards.json does not hold")


BREAKING_FAITH = _key("breaking_faith", ACTION_KEYS)
"""Answers a Breaking Faith played on its holder (``turn``)."""
DIVINE_INSPIRATION = _key("divine_inspiration", ACTION_KEYS)
"""Recruits once its discards are made (``turn``)."""
IMPERMANENCE = _key("impermanence_of_life", SKILL_KEYS)
"""Wins at the end (``settle``); broken when its holder stops being independent (``sects``)."""
GATE_OF_TRUTH = _key("gate_of_truth", SKILL_KEYS)
"""Copies another player's revealed skill (``sects``, ``reactions``)."""
PURPLE_HERMIT = _key("purple_hermit", SKILL_KEYS)
"""Unseals a Follower's skill (the views' ``sealed``)."""
ASCEND_WITH_ME = _key("ascend_with_me", SKILL_KEYS)
"""Raises the hand limit and draws after the Followers (``sects``, ``turn``)."""
THE_PROPHET = _key("the_prophet", SKILL_KEYS)
"""Predicts a recruit (``turn``)."""
HOLY_REBIRTH = _key("holy_rebirth", SKILL_KEYS)
"""Revives after three deaths at once (``turn``)."""
KARMA_REVERSED = _key("karma_reversed", SKILL_KEYS)
"""Reverses a confrontation (``combat``)."""
ZOMBIE_ARMY = _key("zombie_army", SKILL_KEYS)
"""Adds graveyard believers to a war's line-up (``combat``)."""
KABOOM = _key("kaboom", SKILL_KEYS)
"""Forbids attacks for the rest of the turn (``search`` reads it from the view)."""
SHOWDOWN_WAR = _key("showdown_war", SHOWDOWN_KEYS)
SHOWDOWN_MARTYRDOM = _key("showdown_martyrdom", SHOWDOWN_KEYS)

N_ACTIONS = len(ACTION_CARDS)
N_BELIEVERS = BELIEVER_COPIES * len(BELIEVER_NAMES)
N_SKILLS = len(SKILL_NAMES)

# kinds of action for the "never the same kind twice" rule
STRATEGY, PHYSICAL, MENTAL, DISCARD = "strategy", "physical", "mental", "discard"
DEFENCE_FOR: dict[str, str] = {kind.removeprefix("defence_"): name for name, kind in ACTION_KIND.items()
                               if kind.startswith("defence_")}
"""The name of the defence card that cancels each kind of attack."""


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
