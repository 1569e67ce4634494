"""Rematch, export and replays: what a game leaves behind once it is played (or while it is).

**Export.** ``/game export`` sends a game's log as a JSON file. While the game runs it holds only
what every spectator may know: the header (game, seats by name, options), the public events, the
actions of public decisions, and for an answer to a secret decision only who answered and what
kind of decision it was — never the answer, a hand, an event addressed to one seat or the seed.
Which decisions were secret is not stored, so the action log is replayed from the setup (in a
worker thread) and each action is judged by the prompt it answered; an action of a public
decision that names something still held in secret (a card passed face down) is withheld too.
Once the game is over everything is in it: the seed, every action and event, the final state and
each seat's hand.

**Replays.** ``python -m bot replay GAME --render DIR`` and ``/game replay`` replay the log from
the seed and draw the public board of every step. The animated replay (``replay.gif``) strings
the boards together and, for a game whose log lines carry animations of their own (each flick of
Flick of Faith), plays those too: one GIF within a frame and byte budget, since Discord refuses
large files and a phone should still play it.

**Rematch.** The final result message carries a Rematch button. A seated player's press opens a
new lobby in the game's channel with the same options and computer players, the presser seated
as its host; the other human players are asked to confirm. The game starts once all have (seats
in the same order as before), or when the host starts it with those who did. The old game's
result remembers its rematch, so a double press — or a press after a restart — finds the lobby
already open instead of opening a second one.
"""

from __future__ import annotations

import asyncio
import collections
import io
import json
import logging
import os
import re
import sys
import zipfile
import zlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import discord
from PIL import Image

from rules import registry
from rules.engine import Engine, Event, Prompt, RulesError, StateSchemaError, seat_name

from .cli import missing_database, prepare_folder, started_game
from .errors import TableError
from .gameui import GameUI, get_ui
from .progress import Progress
from .refusals import answering, is_manager, reply
from .render import PALETTE, SEAT_COLOURS, to_png
from .session import Sessions
from .storage import GameRow, SeatRow, StorageError
from .text import NO_PINGS, clip, humanise, pings
from .views import rematch_lobby_view

log = logging.getLogger("herald.replay")

EXPORT_FORMAT = "herald-game-export"
EXPORT_VERSION = 1
ALL_EVENTS = 10**9
"""The ``limit`` that reads a game's whole event log."""
MAX_FILE_BYTES = 8_000_000
"""The largest file Herald sends: well within Discord's upload limit (25 MB for bots in a boosted
server, less elsewhere), and what a phone still downloads without a second thought."""
MAX_FRAMES = 360
"""Frames of one animated replay at most: a board per step, and animations thinned to fit."""
CLIP_FRAMES = 8
"""Frames kept of one log line's animation (a flick) before the replay thins them to its budget:
a whole game's animations in full would not fit in memory, let alone in one GIF."""
BOARD_MS = 700
"""How long each board stays up in the animated replay (the last one: :data:`LAST_MS`)."""
LAST_MS = 3000
ANIMATION_MS = 50
WIDTHS = (400, 320, 240)
"""Widths tried in turn while the animated replay is over :data:`MAX_FILE_BYTES`."""
OUTPUT_FILE = re.compile(r"board_[0-9]{4,}\.png|replay\.gif")
"""What ``replay --render`` writes: a folder holding only these is a previous output."""


# ------------------------------------------------------------------------------ replaying


@dataclass
class Step:
    """One step of a replayed game: the start (``n`` 0, no action) or the ``n``-th action."""

    n: int
    state: Any
    events: list[Event] = field(default_factory=list)
    seat: int | None = None
    origin: str | None = None
    action: dict[str, Any] | None = None
    kind: str | None = None
    """The kind of decision the action answered (None: no open or revisable prompt matched)."""
    secret: bool = False
    """The action answered a secret decision (or its prompt could not be found: withheld)."""


def replay_steps(engine: Engine[Any], game: GameRow,
                 actions: Sequence[tuple[int, dict[str, Any], str]]) -> Iterator[Step]:
    """The game's start and each action applied in turn, from its seed and options (the way the
    stored state was reached). A log this Herald cannot replay raises ``RulesError`` or
    ``StateSchemaError``; CPU work, for a worker thread."""
    state = engine.setup(len(game.seats), game.seed, engine.replay_options(game.options, game.state))
    yield Step(0, state)
    for n, (seat, action, origin) in enumerate(actions, start=1):
        prompt = _answered(engine, state, seat)
        state, events = engine.apply(state, seat, action)
        yield Step(n, state, list(events), seat, origin, action,
                   prompt.kind if prompt else None, prompt is None or prompt.secret)


def _answered(engine: Engine[Any], state: Any, seat: int) -> Prompt | None:
    """The prompt an action of ``seat`` answers: its open one, else the one it may revise."""
    for p in engine.prompts(state):
        if p.seat == seat:
            return p
    return engine.revisable(state, seat)


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from _strings(v)


def _markers(engine: Engine[Any], state: Any, players: int) -> set[str]:
    return {m for seat in range(players) for m in engine.secret_markers(state, seat)}


# ------------------------------------------------------------------------------ export


def export_data(game: GameRow, actions: Sequence[tuple[int, dict[str, Any], str]],
                events: Sequence[Any]) -> dict[str, Any]:
    """The export of ``game`` (see the module docstring). ``events`` are the stored event rows:
    only the public ones are read while the game runs. CPU work (it replays the log)."""
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
    steps: list[dict[str, Any]] = []
    state: Any = None
    try:
        current = engine.from_json(game.state) if game.state is not None else None
        still_secret = _markers(engine, current, players) if current is not None and not over else set()
        for step in replay_steps(engine, game, actions):
            state = step.state
            if step.n == 0:
                continue
            row: dict[str, Any] = {"step": step.n, "seat": step.seat, "origin": step.origin,
                                   "kind": step.kind}
            named = set(_strings(step.action))
            hidden = not over and (step.secret or bool(named & still_secret)
                                   or bool(named and named & _markers(engine, state, players)))
            if hidden:
                row["secret"] = True
            else:
                row["action"] = step.action
            steps.append(row)
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


# ------------------------------------------------------------------------------ boards


@dataclass
class Frame:
    """One still of the animated replay, with how long it stays up."""

    image: Any
    """An image (or, inside a :class:`Reel`, one kept packed)."""
    ms: int


def step_boards(game: GameRow, actions: Sequence[tuple[int, dict[str, Any], str]],
                ) -> Iterator[tuple[Step, Image.Image, list[Image.Image]]]:
    """Each step with its public board and the frames of its log lines' animations (a flick),
    drawn from public views and public events only. CPU work."""
    engine = registry.get(game.game_key)
    ui = get_ui(game.game_key)
    names = [s.name for s in game.seats]
    animated = type(ui).event_files is not GameUI.event_files
    for step in replay_steps(engine, game, actions):
        public = engine.view(step.state, None)
        told = [e for e in step.events if e.to is None]
        board = ui.board_image(public, told, names=names)
        clips: list[Image.Image] = []
        if animated:
            for e in told:
                try:
                    files = ui.event_files(public, e, names=names)
                except Exception:  # a failure costs the animation, never the replay
                    log.exception("drawing a log line's animation failed", extra={"game_id": game.id})
                    continue
                clips += [f for name, data, _ in files if name.endswith(".gif")
                          for f in _gif_frames(data, CLIP_FRAMES)]
        yield step, board, clips


def _gif_frames(data: bytes, keep: int) -> list[Image.Image]:
    """At most ``keep`` frames of a GIF, evenly spread, its last one always among them."""
    frames: list[Image.Image] = []
    with Image.open(io.BytesIO(data)) as gif:
        for i in _spread(getattr(gif, "n_frames", 1), keep):
            gif.seek(i)
            frames.append(gif.convert("RGB"))
    return frames


def _thin(frames: list[Any], keep: int) -> list[Any]:
    """At most ``keep`` of ``frames``, evenly spread, the last one always kept (where it ends)."""
    if len(frames) <= keep:
        return frames
    if keep <= 1:
        return frames[-1:]
    return [frames[round(i * (len(frames) - 1) / (keep - 1))] for i in range(keep)]


def replay_frames(boards: Sequence[Any], clips: Sequence[Sequence[Any]],
                  budget: int = MAX_FRAMES) -> list[Frame]:
    """The animated replay's frames within ``budget``: each step's animations (thinned to fit),
    then its board. When the boards alone are over the budget, boards are spread evenly over it
    (the first and last always kept) and animations are left out."""
    n = len(boards)
    if n == 0:
        return []
    moving = [k for k in range(n) if clips[k]]
    if n >= budget or not moving:
        keep = sorted({round(i * (n - 1) / max(1, min(n, budget) - 1)) for i in range(min(n, budget))})
        out = [Frame(boards[k], BOARD_MS) for k in keep]
    else:
        room = budget - n
        per = room // len(moving)
        chosen = set(moving) if per >= 2 else set(moving[k] for k in _spread(len(moving), room // 2))
        per = max(2, room // max(1, len(chosen)))
        out = []
        for k in range(n):
            if k in chosen:
                out += [Frame(f, ANIMATION_MS) for f in _thin(list(clips[k]), per)]
            out.append(Frame(boards[k], BOARD_MS))
    out[-1].ms = LAST_MS
    return out


def _spread(total: int, keep: int) -> list[int]:
    if keep <= 0:
        return []
    if keep >= total:
        return list(range(total))
    return sorted({round(i * (total - 1) / max(1, keep - 1)) for i in range(keep)})


def encode_gif(frames: Sequence[Frame], max_bytes: int = MAX_FILE_BYTES,
               palette: Image.Image | None = None) -> bytes:
    """One GIF of ``frames`` (all fitted into the first frame's shape, mapped to ``palette`` or
    to one drawn from the first frame), drawn narrower — and then with fewer frames — while it
    is over ``max_bytes``."""
    if not frames:
        raise ValueError("no frames")
    shown = list(frames)
    widths = [w for w in WIDTHS if w <= frames[0].image.width] or [frames[0].image.width]
    while True:
        for width in widths:
            data = _encode(shown, width, palette)
            if len(data) <= max_bytes:
                return data
        if len(shown) <= 1:
            return data  # (the caller judges a single frame still too large)
        shown = [shown[k] for k in _spread(len(shown), len(shown) // 2)]
        shown[-1] = Frame(frames[-1].image, LAST_MS)


def _encode(frames: Sequence[Frame], width: int, palette: Image.Image | None) -> bytes:
    first = frames[0].image
    canvas = _shape(first, width)
    if palette is None:
        palette = _palette(_fit(first, canvas))
    images = [_mapped(f.image, canvas, palette) for f in frames]
    buf = io.BytesIO()
    images[0].save(buf, format="GIF", save_all=True, append_images=images[1:],
                   duration=[f.ms for f in frames], loop=0, optimize=False)
    return buf.getvalue()


def _palette(first: Image.Image) -> Image.Image:
    """The replay's colours: the drawing kit's own (the seats' among them, also those the first
    board does not show yet), then the first board's most telling ones."""
    kit = list(dict.fromkeys([*PALETTE.values(), *SEAT_COLOURS]))
    drawn = first.quantize(colors=256 - len(kit), method=Image.Quantize.MEDIANCUT)
    flat = [int(v) for colour in kit for v in colour] + list(drawn.getpalette() or [])
    out = Image.new("P", (1, 1))
    out.putpalette(flat[:768])
    return out


def _mapped(image: Image.Image, canvas: tuple[int, int], palette: Image.Image) -> Image.Image:
    """``image`` fitted to ``canvas`` in ``palette``'s colours (as it is, when it already is)."""
    if image.mode == "P" and image.size == canvas:
        return image
    return _fit(image, canvas).quantize(palette=palette, dither=Image.Dither.NONE)


def _fit(image: Image.Image, canvas: tuple[int, int]) -> Image.Image:
    """``image`` scaled to fit ``canvas`` and centred on a dark background."""
    rgb = image.convert("RGB")
    scale = min(canvas[0] / rgb.width, canvas[1] / rgb.height)
    size = (max(1, round(rgb.width * scale)), max(1, round(rgb.height * scale)))
    if size != rgb.size:
        rgb = rgb.resize(size, Image.Resampling.LANCZOS)
    if size == canvas:
        return rgb
    out = Image.new("RGB", canvas, (24, 26, 33))
    out.paste(rgb, ((canvas[0] - size[0]) // 2, (canvas[1] - size[1]) // 2))
    return out


def _shape(image: Image.Image, width: int) -> tuple[int, int]:
    return width, max(1, round(image.height * width / image.width))


class Reel:
    """The animated replay's pictures, kept small as they come (a whole game's boards and
    animations would not fit in memory as they are drawn): each fitted to the first board's
    shape at the widest width, mapped to that board's colours and packed (consecutive boards and
    animation frames differ little, so they pack to a small part of their size). Only the
    frames the replay shows are unpacked, when it is encoded."""

    def __init__(self) -> None:
        self.canvas: tuple[int, int] = (1, 1)
        self.palette: Image.Image | None = None
        self.boards: list[bytes] = []
        self.clips: list[list[bytes]] = []

    def add(self, board: Image.Image, clip: Sequence[Image.Image]) -> None:
        if self.palette is None:
            self.canvas = _shape(board, WIDTHS[0])
            self.palette = _palette(_fit(board, self.canvas))
        self.boards.append(self._pack(board))
        self.clips.append([self._pack(f) for f in clip])
        if sum(len(c) for c in self.clips) > 2 * MAX_FRAMES:  # more than any replay shows
            self.clips = [_thin(c, max(2, len(c) // 2)) for c in self.clips]

    def _pack(self, image: Image.Image) -> bytes:
        assert self.palette is not None
        return zlib.compress(_mapped(image, self.canvas, self.palette).tobytes(), 1)

    def _unpack(self, packed: bytes) -> Image.Image:
        assert self.palette is not None
        image = Image.frombytes("P", self.canvas, zlib.decompress(packed))
        image.putpalette(self.palette.getpalette() or [])
        return image

    def gif(self, budget: int = MAX_FRAMES) -> bytes:
        frames = [Frame(self._unpack(f.image), f.ms) for f in replay_frames(self.boards, self.clips, budget)]
        return encode_gif(frames, palette=self.palette)


def animated_replay(game: GameRow, actions: Sequence[tuple[int, dict[str, Any], str]],
                    budget: int = MAX_FRAMES) -> bytes:
    """The whole game as one GIF (see :func:`replay_frames`), within :data:`MAX_FILE_BYTES`.
    CPU work."""
    reel = Reel()
    for _, board, moving in step_boards(game, actions):
        reel.add(board, moving)
    return reel.gif(budget)


def replay_gif(key: str, game: GameRow,
               actions: Sequence[tuple[int, dict[str, Any], str]]) -> bytes:
    """:func:`animated_replay` of ``game`` (a game of ``key``), as ``Sessions.game_work`` runs it."""
    return animated_replay(game, actions)


def render(game: GameRow, actions: Sequence[tuple[int, dict[str, Any], str]], out: Path,
           budget: int = MAX_FRAMES,
           progress: Callable[[int, int], None] | None = None) -> list[str]:
    """Write ``board_NNNN.png`` for every step (0000: the start) and ``replay.gif`` into ``out``
    (ready, see :func:`prepare_out`); returns the names written. CPU work. ``progress`` is told
    the boards drawn so far and how many there will be (one per move and the start)."""
    written: list[str] = []
    reel = Reel()
    total = len(actions) + 1
    for step, board, moving in step_boards(game, actions):
        name = f"board_{step.n:04d}.png"
        (out / name).write_bytes(to_png(board))
        written.append(name)
        reel.add(board, moving)
        if progress is not None:
            progress(len(written), total)
    (out / "replay.gif").write_bytes(reel.gif(budget))
    written.append("replay.gif")
    return written


class ReplayError(Exception):
    """The replay cannot be written: one sentence for the command line."""


def prepare_out(out: Path) -> None:
    """Create ``out``, or empty a previous ``replay --render`` output in it; refuse a file or a
    folder holding anything else (nothing is deleted then)."""
    prepare_folder(out, OUTPUT_FILE, ReplayError,
                   is_file="{where} is a file, not a folder; give a new or empty folder.",
                   foreign="the folder {where} holds files a replay does not write (such as {name}); "
                           "give a new or empty folder.",
                   unwritable="cannot write into the folder {where}: {reason}.")


def render_main(game_id: int, out_dir: str, db: str) -> int:
    """``python -m bot replay GAME --render DIR``: read the game from the database ``db`` (never
    changing or creating it) and write its boards and animated replay. 0 when written; 2 and one
    line on stderr otherwise."""
    missing = missing_database(db)
    if missing:
        print(missing, file=sys.stderr)
        return 2

    async def load() -> tuple[GameRow, list[tuple[int, dict[str, Any], str]]]:
        async with started_game(db, game_id) as (storage, game):
            return game, await storage.actions(game_id)

    out = Path(out_dir)
    bar = Progress(sys.stderr, f"game #{game_id}", "board", "drawn")
    try:
        game, actions = asyncio.run(load())
        prepare_out(out)
        written = render(game, actions, out, progress=bar)
    except (TableError, RulesError, StateSchemaError, StorageError, ReplayError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"error: writing into {os.fspath(out)} failed: {exc.strerror or exc}.", file=sys.stderr)
        return 2
    finally:
        bar.done()
    boards = sum(1 for n in written if n.endswith(".png"))
    print(f"game #{game_id}: {boards} boards and replay.gif written to {os.fspath(out)}")
    return 0


def check_replayable(game: GameRow) -> None:
    """Refuse the replay of a game still being played (its boards would tell nothing the thread
    does not, but its end is the replay's point) or of one that never started."""
    if game.status != "finished":
        raise TableError(f"game #{game.id} is still being played; its replay is ready once it is over "
                         "(`/game export` gives its public log meanwhile).")
    if game.state is None:
        raise TableError(f"game #{game.id} never started, so there is nothing to replay.")


_REPLAYING = asyncio.Semaphore(1)
"""One animated replay drawn at a time per process: a long game's takes seconds of CPU and a few
hundred MB while drawn; other requests wait their turn (their answer is deferred meanwhile)."""
_RECENT: collections.OrderedDict[tuple[int, int], bytes] = collections.OrderedDict()
RECENT_REPLAYS = 3
"""Finished games never change: the last few replays drawn are sent again without redrawing."""


async def replay_file(sessions: Sessions, game: GameRow) -> tuple[str, bytes]:
    """(file name, bytes) of a finished game's animated replay, for ``/game replay``."""
    check_replayable(game)
    key = (game.id, game.version)
    async with _REPLAYING:
        data = _RECENT.get(key)
        if data is None:
            actions = await sessions.storage.actions(game.id)
            data = await sessions.game_work(replay_gif, game.game_key, game, actions)
            _RECENT[key] = data
            while len(_RECENT) > RECENT_REPLAYS:
                _RECENT.popitem(last=False)
    if len(data) > MAX_FILE_BYTES:
        raise TableError(f"the replay of game #{game.id} is too large to send.")
    return f"herald-game-{game.id}-replay.gif", data


# ------------------------------------------------------------------------------ commands


class Lookups(Protocol):
    """What the commands and buttons here need of the controller (``bot.controller.Controller``)."""

    sessions: Sessions

    async def game_for(self, interaction: discord.Interaction, game_id: int) -> GameRow: ...
    async def resolve(self, interaction: discord.Interaction, game_id: int | None,
                      statuses: tuple[str, ...] = ("active",)) -> GameRow: ...
    def lobby_embed(self, game: GameRow) -> discord.Embed: ...
    async def open_lobby_embed(self, game: GameRow) -> discord.Embed: ...
    async def note_channel_fallback(self, channel: discord.TextChannel) -> None: ...


async def send_export(c: Lookups, interaction: discord.Interaction, game_id: int | None) -> None:
    """``/game export``: the file, to the member only."""
    game = await c.resolve(interaction, game_id, ("active", "finished"))
    await interaction.response.defer(ephemeral=True, thinking=True)
    name, data = await export_file(c.sessions, game)
    over = game.status == "finished"
    text = (f"The whole log of game #{game.id}, every hand and secret included (the game is over)."
            if over else f"The public log of game #{game.id} so far: secret choices and hands stay "
                         "out of it until the game is over.")
    await interaction.followup.send(text, file=discord.File(io.BytesIO(data), filename=name),
                                    ephemeral=True, allowed_mentions=NO_PINGS)


async def send_replay(c: Lookups, interaction: discord.Interaction, game_id: int | None) -> None:
    """``/game replay``: the animated replay of a finished game, to the member only."""
    game = await c.resolve(interaction, game_id, ("active", "finished"))
    check_replayable(game)
    await interaction.response.defer(ephemeral=True, thinking=True)
    name, data = await replay_file(c.sessions, game)
    await interaction.followup.send(f"Game #{game.id} from start to end.",
                                    file=discord.File(io.BytesIO(data), filename=name,
                                                      description=f"An animated replay of game #{game.id}."),
                                    ephemeral=True, allowed_mentions=NO_PINGS)


# ------------------------------------------------------------------------------ rematch


def invited(old: GameRow) -> list[int]:
    """The human players of a game: whom its rematch asks to confirm."""
    return [s.user_id for s in old.seats if not s.is_bot and s.user_id is not None]


def rematch_order(old: Sequence[SeatRow], new: Sequence[SeatRow]) -> list[SeatRow]:
    """The rematch's seats in the old game's order: each player back in their seat, computer
    players in theirs; a player who did not confirm leaves no gap; anyone else comes last."""
    bots = [s for s in new if s.is_bot]
    humans = {s.user_id: s for s in new if not s.is_bot}
    out: list[SeatRow] = []
    for s in old:
        if s.is_bot or s.user_id is None:
            if bots:
                out.append(bots.pop(0))
        elif s.user_id in humans:
            out.append(humans.pop(s.user_id))
    out += bots + list(humans.values())
    return [SeatRow(i, s.user_id, s.is_bot, s.name) for i, s in enumerate(out)]


def awaited(old: GameRow, table: GameRow) -> list[int]:
    """The old game's players who have not confirmed the rematch yet."""
    return [uid for uid in invited(old) if table.seat_of(uid) is None]


def lobby_text(old: GameRow, table: GameRow) -> str:
    missing = awaited(old, table)
    if table.status != "lobby":
        return f"🔁 Rematch of game #{old.id}."
    if not missing:
        return f"🔁 Rematch of game #{old.id}: everyone has confirmed."
    return (f"🔁 Rematch of game #{old.id}: {' '.join(f'<@{u}>' for u in missing)} — press **Confirm** to "
            "take your seat again. The game starts once everyone has; the host may start sooner "
            "with those who did.")


async def rematch_click(c: Lookups, interaction: discord.Interaction, game_id: int,
                        op: str, table_id: int | None) -> None:
    """The Rematch button of a final result (``op`` "new") and the rematch lobby's buttons."""
    async with answering(interaction):
        old = await c.game_for(interaction, game_id)
        if op == "new" or table_id is None:
            await _open_rematch(c, interaction, old)
            return
        table = await c.game_for(interaction, table_id)
        if (old.result or {}).get("rematch") != table.id:
            raise TableError("this rematch table is no longer open.")
        if op == "confirm":
            await _confirm(c, interaction, old, table)
        elif op == "start":
            if interaction.user.id != table.host_id and not is_manager(interaction):
                raise TableError("only the host can start the rematch.")
            await _start(c, interaction, old, table)
        else:
            table = await c.sessions.cancel(table.id, interaction.user.id, is_admin=is_manager(interaction))
            await interaction.response.edit_message(content=f"🔁 Rematch of game #{old.id}: cancelled.",
                                                    embed=c.lobby_embed(table),
                                                    view=rematch_lobby_view(old.id, table.id, closed=True),
                                                    allowed_mentions=NO_PINGS)


async def _open_rematch(c: Lookups, interaction: discord.Interaction, old: GameRow) -> None:
    s = c.sessions
    user = interaction.user
    if old.guild_id is None or old.channel_id is None:
        raise TableError("a rematch can only be opened for a game played in a server.")
    channel_id = old.channel_id
    if old.status != "finished":
        raise TableError(f"game #{old.id} is not over yet; a rematch can be asked for once it ends.")
    if old.seat_of(user.id) is None:
        raise TableError(f"only the players of game #{old.id} can ask for its rematch.")
    async with s.lock(old.id):  # a double press (or two players at once) opens one lobby
        old = await s.get(old.id)
        earlier = (old.result or {}).get("rematch")
        table = await s.storage.get_game(earlier) if isinstance(earlier, int) else None
        if table is not None and table.status in ("lobby", "active"):
            where = _table_link(table)
            await reply(interaction, f"A rematch of game #{old.id} is open already: table #{table.id}"
                                     + (f" — {where}" if where else "") + ".")
            return
        channel = interaction.client.get_channel(channel_id)
        if channel is None or not hasattr(channel, "send"):
            raise TableError(f"I can't find the channel game #{old.id} was opened in any more, so no "
                             "rematch was opened; open a new table with `/play`.")
        bots = sum(1 for seat in old.seats if seat.is_bot or seat.user_id is None)
        table = await s.open_table(guild_id=old.guild_id, channel_id=channel_id, host_id=user.id,
                                   host_name=user.display_name, game_key=old.game_key,
                                   options=dict(old.options), deadline=old.deadline, bots=bots)
        await s.storage.update_game(old.id, result={**(old.result or {}), "rematch": table.id})
    others = [u for u in invited(old) if u != user.id]
    try:
        message = await channel.send(lobby_text(old, table), embed=await c.open_lobby_embed(table),
                                     view=rematch_lobby_view(old.id, table.id), allowed_mentions=pings(others))
    except discord.HTTPException:
        await s.storage.update_game(table.id, status="cancelled", updated_at=s.now())
        raise TableError(f"I can't post in <#{old.channel_id}>, so no rematch was opened.") from None
    await s.storage.update_game(table.id, lobby_message_id=message.id)
    if not others:  # nobody else to ask: everyone has confirmed
        await interaction.response.defer(ephemeral=True, thinking=True)
        await _begin(c, old, table.id, message)
        await interaction.followup.send(f"Rematch #{table.id} has started: {message.jump_url}", ephemeral=True)
        return
    await reply(interaction, f"Rematch table #{table.id} is open: {message.jump_url} — the other players "
                             "are asked to confirm.")


def _table_link(table: GameRow) -> str | None:
    if table.status == "active" and table.thread_id:
        return f"<#{table.thread_id}>"
    if table.guild_id and table.channel_id and table.lobby_message_id:
        return f"https://discord.com/channels/{table.guild_id}/{table.channel_id}/{table.lobby_message_id}"
    return None


async def _confirm(c: Lookups, interaction: discord.Interaction, old: GameRow, table: GameRow) -> None:
    user = interaction.user
    if table.status != "lobby":
        raise TableError("this rematch has already started or closed.")
    if user.id not in invited(old):
        raise TableError(f"this rematch is for the players of game #{old.id}; open your own table with `/play`.")
    if table.seat_of(user.id) is not None:
        missing = awaited(old, table)
        raise TableError("you have confirmed already" + (
            f"; waiting for {', '.join(f'<@{u}>' for u in missing)}." if missing else "."))
    table = await c.sessions.join(table.id, user.id, user.display_name)
    if awaited(old, table):
        await interaction.response.edit_message(content=lobby_text(old, table),
                                                embed=await c.open_lobby_embed(table),
                                                view=rematch_lobby_view(old.id, table.id),
                                                allowed_mentions=NO_PINGS)
        return
    await _start(c, interaction, old, table)


async def _start(c: Lookups, interaction: discord.Interaction, old: GameRow, table: GameRow) -> None:
    """Start the rematch on its lobby message (the one clicked), seats in the old game's order."""
    engine = registry.get(table.game_key)
    if table.status != "lobby":
        raise TableError("this rematch has already started or closed.")
    if len(table.seats) < engine.min_players:
        raise TableError(f"{engine.name} needs at least {engine.min_players} players; "
                         f"{len(table.seats)} confirmed so far.")
    await c.sessions.check_start(table)
    await interaction.response.defer()
    assert interaction.message is not None
    started = await _begin(c, old, table.id, interaction.message)
    await interaction.edit_original_response(content=lobby_text(old, started), embed=c.lobby_embed(started),
                                             view=rematch_lobby_view(old.id, table.id, closed=True),
                                             allowed_mentions=NO_PINGS)


async def _begin(c: Lookups, old: GameRow, table_id: int, message: Any) -> GameRow:
    """Seat the rematch in the old order, open its thread on ``message`` (the lobby) and start."""
    s = c.sessions
    # (two last confirmations at once: one opens the thread and starts, the other is told so)
    async with _starting.setdefault(table_id, asyncio.Lock()):
        async with s.lock(table_id):
            table = await s.get(table_id)
            if table.status != "lobby":
                raise TableError("this rematch has already started or closed.")
            await s.storage.set_seats(table_id, rematch_order(old.seats, table.seats))
        thread_id = await _open_thread(c, message, f"{registry.get(table.game_key).name} #{table_id}")
        await s.storage.update_game(table_id, thread_id=thread_id)
        update = await s.start(table_id, None)
    _starting.pop(table_id, None)
    return update.game


_starting: dict[int, asyncio.Lock] = {}
"""Rematch tables being started (held from the last look at the lobby to the start)."""


async def _open_thread(c: Lookups, message: Any, name: str) -> int | None:
    """A public thread on the lobby message; None (play in the channel) where that is refused."""
    channel = getattr(message, "channel", None)
    if not isinstance(channel, discord.TextChannel):
        return None
    me = channel.guild.me
    if me is not None and not channel.permissions_for(me).create_public_threads:
        await c.note_channel_fallback(channel)
        return None
    try:
        thread = await message.create_thread(name=clip(name, 90), auto_archive_duration=10080)
    except discord.HTTPException:
        await c.note_channel_fallback(channel)
        return None
    return int(thread.id)
