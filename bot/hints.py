"""Hints: what the computer player would do in a player's place (``/game hint``, practice tips).

A hint is the ``normal`` searching computer player's answer (:mod:`rules.search`, the strength
that also decides for a player whose deadline passed) to the player's open decision, described in
words with the labels of the Decide menu. It is computed from that seat's own view and nothing
else, so it cannot tell the player anything they could not see; in a worker process when the bot
has them, else on a thread, never on the event loop; and without a clock, so the same position
gives the same hint however busy the machine is.

For other parts of Herald:

* :func:`hint_for` — ``await hint_for(sessions, game_id, seat)`` is the hint for ``seat``'s open
  decision in game ``game_id``, as one or two sentences of Markdown for that player alone
  (post it ephemerally or in their DMs, never in a channel). It does not ask whether the table
  allows hints: a practice game's tips call it as they like; ``/game hint`` first calls
  :func:`check_allowed`. It raises :class:`~bot.errors.TableError` when the game is not running
  or the seat has no open decision.
* :func:`check_allowed` — the refusal of ``/game hint`` at a table that does not allow hints: a
  server's game counts in its ratings unless its table was opened with ``hints=on``
  (:data:`rules.search.HINTS_OPTION`; such a table is settled without counting for anybody),
  and a table without that option gives no hints even where nothing is rated (a DM game).
* :func:`describe` — an action in words, for a prompt.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rules.engine import Prompt, seat_name
from rules.search import HINTS_OPTION, TIMEOUT_STRENGTH

from .errors import TableError
from .render.pool import hint_choice
from .storage import GameRow

if TYPE_CHECKING:  # (the session imports the pool that imports this module's helpers)
    from .session import Sessions


def allows_hints(options: Mapping[str, Any]) -> bool:
    """Whether a table's options allow hints (``hints=on``)."""
    return options.get(HINTS_OPTION) is True


def rated(game: GameRow) -> bool:
    """Whether the game counts in its server's ratings: a server's game whose table did not
    allow hints (a DM game counts for nobody)."""
    return game.guild_id is not None and not allows_hints(game.options)


def check_allowed(game: GameRow) -> None:
    """Refuse a hint (TableError) at a table that does not allow them, saying why."""
    if rated(game):
        raise TableError(f"game #{game.id} counts in this server's ratings, so it gives no hints. "
                         "A table opened with `options:hints=on` allows them (and is not rated).")
    if not allows_hints(game.options):
        raise TableError(f"the table of game #{game.id} does not allow hints; a table opened with "
                         "`options:hints=on` does.")


async def hint_for(sessions: Sessions, game_id: int, seat: int) -> str:
    """The hint for ``seat``'s open decision in game ``game_id`` (see the module's docstring)."""
    snap = await sessions.snapshot(game_id)
    game = snap.game
    if game.status != "active" or game.state is None:
        raise TableError(f"game #{game_id} is not running.")
    mine = snap.prompt_of(seat)
    if mine is None:
        raise TableError(f"you have no decision open in game #{game_id}: nothing to hint at.")
    prompt = mine.prompt
    seed = f"{game.seed}/hint/{game.version}/{seat}"
    pool = sessions.searches
    if pool is not None and pool.enabled:
        action = await pool.search(hint_choice, game.game_key, game.state, prompt, seed)
    else:
        action = await sessions.cpu(hint_choice, game.game_key, game.state, prompt, seed)
    names = [s.name for s in game.seats]
    return (f"In your place the computer player ({TIMEOUT_STRENGTH}) would choose: "
            f"{describe(prompt, action, names)}. It knows only what you can see; the choice is "
            "yours.")


def describe(prompt: Prompt, action: Mapping[str, Any], names: Sequence[str] = ()) -> str:
    """``action``, an answer to ``prompt``, in words: the Decide menu's label of the choice it is
    (with the choice's note), else what a free-form answer says, key by key."""
    for choice in prompt.choices:
        if dict(choice.action) == dict(action):
            note = f" ({choice.description})" if choice.description else ""
            return f"**{choice.label}**{note}"
    kind = action.get("type")
    if kind in ("flick", "contest_flick") and "angle" in action:
        bits = [f"angle {float(action['angle']):g}", f"power {float(action['power']):g}"]
        if action.get("piece"):
            bits.append(f"flicking the {str(action['piece']).replace('_', ' ')}")
        if action.get("hand"):
            bits.append(f"the Hand of God beyond {action['hand']}")
        return "**a flick**: " + ", ".join(bits)
    if kind == "build" and "x" in action:
        where = _island(prompt, float(action["x"]), float(action["y"]))
        return f"**a temple** at x {float(action['x']):g}, y {float(action['y']):g}{where}"
    return "**" + str(kind).replace("_", " ") + "**" + _fields(action, names)


def _island(prompt: Prompt, x: float, y: float) -> str:
    islands = prompt.params.get("islands") or []
    if not islands:
        return ""
    near = min(islands, key=lambda i: (float(i["x"]) - x) ** 2 + (float(i["y"]) - y) ** 2)
    return f" (island {near['name']})"


def _fields(action: Mapping[str, Any], names: Sequence[str]) -> str:
    """The rest of a free-form answer, key by key (a seat named by its player)."""
    parts = []
    for key, value in action.items():
        if key == "type":
            continue
        if key in ("target", "seat") and type(value) is int and 0 <= value < len(names):
            shown = f"{names[value]} ({seat_name(value)})"
        elif isinstance(value, Mapping):
            shown = "; ".join(f"{k.replace('_', ' ')} {_plain(v)}" for k, v in value.items()
                              if v not in ([], None, ""))
        else:
            shown = _plain(value)
        if shown:
            parts.append(f"{key.replace('_', ' ')}: {shown}")
    return (" — " + ", ".join(parts)) if parts else ""


def _plain(value: Any) -> str:
    if isinstance(value, list):
        return " + ".join(_plain(v) for v in value) or "none"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)
