"""Reaction windows: defence, Breaking Faith's counter, Karma Reversed, The Prophet, Holy Rebirth.

Who is asked in a window must not tell the table what anyone holds, so it is decided from public
information only: every seat that could, as far as the others know, hold a usable card or skill
is asked, at once and in secret. A seat that holds one sees its real options plus "No reaction";
any other sees "No reaction" alone. Kind, secrecy, deadline and timeout are the same for every
asked seat, and the answers stay secret until the window resolves (the last answer or the
deadline). The window's deadline is the table option ``reaction_window``: it does not depend on
anyone's hand, and at the deadline every seat that has not answered passes.

Public eligibility:

* **defence** — every member of a targeted sect holding at least one action card;
* **counter** — the target of Breaking Faith, when they hold at least one action card;
* **Karma Reversed, The Prophet, Holy Rebirth** — a Leader (Followers' and Wanderers' skills
  are sealed) whose skill is revealed and usable now (its own, or Gate of Truth copying it), or
  whose skill is not revealed and could still be that skill (nobody else has revealed it) or
  Gate of Truth copying it (the skill is revealed elsewhere, Gate of Truth is not). An
  unrevealed skill was never used, so no use limit can have run out.
"""

from __future__ import annotations

from typing import Any

from rules.engine import Choice, Prompt

from .cards import GATE_OF_TRUTH, SKILL_COPYABLE
from .sects import can_use, skill_key
from .state import LEADER, State

KINDS = ("defend", "counter", "karma", "prophet", "rebirth")
"""Prompt kinds of the reaction windows."""
PASS: dict[str, dict[str, Any]] = {
    "defend": {"type": "defend", "use": False},
    "counter": {"type": "counter", "use": False},
    "karma": {"type": "karma", "use": False},
    "prophet": {"type": "predict", "believer": 0},
    "rebirth": {"type": "rebirth", "use": False},
}
"""The "No reaction" answer of each window (also taken at the deadline)."""
NO_REACTION = "No reaction"
TIMEOUT_NOTE = "no reaction"
NOTHING = "so your only answer is No reaction"
"""Ends what an asked seat without a usable card or skill is told (its prompt is private)."""
WINDOW_MINUTES = (1, 1440)
"""The range of the ``reaction_window`` table option, in minutes."""
DEFAULT_WINDOW = 30 * 60


def may_react_with_cards(s: State, seat: int) -> bool:
    """Defence and counter: anybody holding an action card might hold the one needed."""
    return bool(s.hands[seat])


def may_use_skill(s: State, seat: int, key: str) -> bool:
    """Whether ``seat`` might, as far as the other seats know, use the skill ``key`` now."""
    if s.role[seat] != LEADER or s.skill[seat] is None:
        return False
    if s.revealed[seat]:
        return can_use(s, seat, key)

    def shown_elsewhere(skill: str) -> bool:
        return any(k != seat and s.revealed[k] and skill_key(s, k) == skill for k in range(s.players))

    if not shown_elsewhere(key):
        return True
    return SKILL_COPYABLE[key] and not shown_elsewhere(GATE_OF_TRUTH)


def skill_eligible(s: State, seats: list[int], key: str) -> list[int]:
    """The seats of ``seats`` asked in a window of the skill ``key`` (in seat order)."""
    return sorted(k for k in set(seats) if may_use_skill(s, k, key))


def prompt(s: State, seat: int, kind: str, text: str, options: list[Choice]) -> Prompt:
    """A window's prompt for ``seat``: ``options`` (empty for a seat that cannot react, whose
    ``text`` should then say so) plus "No reaction". Everything seen from outside — kind,
    secrecy, deadline, timeout — is the same for every asked seat."""
    choices = (*options, Choice(NO_REACTION, dict(PASS[kind])))
    return Prompt(seat, kind, text, choices, secret=True, timeout_note=TIMEOUT_NOTE,
                  deadline=s.reaction_window)


def window_option(value: Any) -> int:
    """The ``reaction_window`` option (whole minutes) in seconds; ValueError when out of range."""
    lo, hi = WINDOW_MINUTES
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise ValueError(f"reaction_window must be a whole number of minutes {lo}–{hi}")
    return value * 60
