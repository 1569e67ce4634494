"""``/game export``: a game's log as a JSON file.

While the game runs it holds only what every spectator may know: the header (game, seats by
name, options), the public events, the actions of public decisions, and for an answer to a secret
decision only who answered and what kind of decision it was — never the answer, a hand, an event
addressed to one seat or the seed. Each action's kind of decision and whether it is withheld were
judged when it was committed and stored with it (``bot.secrecy``: a secret decision, or one that
names something a seat then held in secret, such as a card passed face down); an action that
names something still held in secret now is withheld too. A game stored before they were (its
actions without them) is replayed from the setup (in a worker) and each action judged the same
way, by the prompt it answered. Once the game is over everything is in it: the seed, every action
and event, the final state and each seat's hand.
"""

from __future__ import annotations

import io
import json
import logging
import zipfile
from collections.abc import Sequence
from typing import Any

from rules import registry
from rules.engine import RulesError, StateSchemaError, seat_name

from ..errors import TableError
from ..secrecy import markers, names_held, strings
from ..session import Sessions
from ..storage import ActionRow, GameRow
from ..text import humanise
from .steps import MAX_FILE_BYTES, replay_steps

log = logging.getLogger("herald.replay")

EXPORT_FORMAT = "herald-game-export"
EXPORT_VERSION = 1
ALL_EVENTS = 10**9
"""The ``limit`` that reads a game's whole event log."""


def export_data(game: GameRow, actions: Sequence[tuple[int, dict[str, Any], str]],
                events: Sequence[Any], *, replay: bool = False) -> dict[str, Any]:
    """The export of ``game`` (see the module docstring). ``events`` are the stored event rows:
    only the public ones are read while the game runs. ``actions`` as the storage reads them
    (:class:`~bot.storage.ActionRow`): those judged at commit are not replayed, unless
    ``replay`` (the path of a game stored before they were). CPU work."""
    engine = registry.get(game.game_key)
    over = game.status == "finished"
    players = len(game.seats)
    out: dict[str, Any] = {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "complete": over,
        "game": {"id": game.id, "key": game.game_key, "name": engine.name, "status": game.status,
                 "options": game.options, "deadline_seconds": game.deadline,
                 "created_at": game.created_at, "updated_at": game.updated_at},
        "seats": [{"seat": s.seat, "label": seat_name(s.seat), "name": s.name, "computer": s.is_bot}
                  for s in game.seats],
    }
    if over:
        out["seed"] = game.seed
        out["result"] = game.result
    current = engine.from_json(game.state) if game.state is not None else None
    still_secret = markers(engine, current, players) if current is not None and not over else set()

    def row(n: int, seat: int, origin: str, kind: str | None, action: dict[str, Any],
            secret: bool) -> dict[str, Any]:
        out: dict[str, Any] = {"step": n, "seat": seat, "origin": origin, "kind": kind}
        if not over and (secret or bool(set(strings(action)) & still_secret)):
            out["secret"] = True
        else:
            out["action"] = action
        return out

    steps: list[dict[str, Any]] = []
    state: Any = None
    try:
        judged = [a for a in actions if isinstance(a, ActionRow) and a.judged]
        if not replay and len(judged) == len(actions):
            steps = [row(n, a[0], a[2], a.prompt_kind, a[1], bool(a.secret))
                     for n, a in enumerate(judged, start=1)]
        else:
            for step in replay_steps(engine, game, actions):
                state = step.state
                if step.n == 0:
                    continue
                assert step.seat is not None and step.origin is not None and step.action is not None
                steps.append(row(step.n, step.seat, step.origin, step.kind, step.action, step.secret
                                 or names_held(engine, step.action, state, players)))
    except (RulesError, StateSchemaError) as exc:  # a log this Herald cannot replay
        log.warning("the log of the game does not replay (%s); the export says only who acted",
                    type(exc).__name__, extra={"game_id": game.id})
        steps = [{"step": n, "seat": seat, "origin": origin, **({"action": action} if over else {"secret": True})}
                 for n, (seat, action, origin) in enumerate(actions, start=1)]
        state = None
    out["actions"] = steps
    # (numbered afresh while the game runs: gaps in the stored numbers would count the private lines)
    shown = [e for e in events if over or e.to is None]
    out["events"] = [_event_row(e, game, k, private=over) for k, e in enumerate(shown, start=1)]
    final = engine.from_json(game.state) if game.state is not None else state
    if final is not None:
        out["board"] = engine.view(final, None)
        if over:
            out["state"] = engine.to_json(final)
            out["hands"] = {seat_name(k): engine.view(final, k).get("private") for k in range(players)}
    return out


def _event_row(e: Any, game: GameRow, n: int, *, private: bool) -> dict[str, Any]:
    row: dict[str, Any] = {"n": n, "version": e.version, "kind": e.kind, "text": e.text,
                           "said": humanise(e.text, game).replace("**", ""), "data": e.data}
    if private:
        row["to"] = e.to
    return row


async def all_events(sessions: Sessions, game: GameRow, *, private: bool) -> list[Any]:
    """The game's whole event log in order: the public events, and with ``private`` those
    addressed to any seat too (each once)."""
    storage = sessions.storage
    rows = {e.n: e for e in await storage.events(game.id, viewer_seat=None, limit=ALL_EVENTS)}
    if private:
        for seat in range(len(game.seats)):
            for e in await storage.events(game.id, viewer_seat=seat, limit=ALL_EVENTS):
                rows.setdefault(e.n, e)
    return [rows[n] for n in sorted(rows)]


async def export_file(sessions: Sessions, game: GameRow) -> tuple[str, bytes]:
    """(file name, bytes) of the game's export: JSON, zipped should it be over the file budget."""
    if game.state is None:
        raise TableError(f"game #{game.id} never started, so it has no log to export.")
    actions = await sessions.storage.actions(game.id)
    events = await all_events(sessions, game, private=game.status == "finished")
    name, data = await sessions.game_work(export_bytes, game.game_key, game, actions, events)
    if len(data) > MAX_FILE_BYTES:
        raise TableError(f"the log of game #{game.id} is too large to send as a file.")
    return name, data


def export_bytes(key: str, game: GameRow, actions: Sequence[tuple[int, dict[str, Any], str]],
                 events: Sequence[Any]) -> tuple[str, bytes]:
    """(file name, bytes) of the export of ``game`` (a game of ``key``): its JSON, zipped when
    over the file budget (the caller refuses what is over it even so). CPU work, all of it: the
    replay of the log, the JSON text and the compression (in a worker process when the bot has
    them: see ``Sessions.game_work``)."""
    data = export_data(game, actions, events)
    raw = json.dumps(data, ensure_ascii=False, indent=1, sort_keys=False).encode()
    name = f"herald-game-{game.id}{'' if game.status == 'finished' else '-public'}.json"
    if len(raw) <= MAX_FILE_BYTES:
        return name, raw
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as z:
        z.writestr(name, raw)
    return name + ".zip", buf.getvalue()
