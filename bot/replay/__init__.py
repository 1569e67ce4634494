"""What a game leaves behind once it is played (or while it is), one topic to a module:

* :mod:`~bot.replay.steps`: a stored game replayed from its seed, step by step (what the others
  read, and the web's history too);
* :mod:`~bot.replay.export`: ``/game export``'s JSON log (public only while the game runs);
* :mod:`~bot.replay.animation`: the animated replay, one GIF of every board and animation within
  a frame and byte budget;
* :mod:`~bot.replay.files`: ``python -m bot replay GAME --render DIR``, the boards and the GIF
  written into a folder;
* :mod:`~bot.replay.commands`: ``/game export`` and ``/game replay`` on Discord;
* :mod:`~bot.replay.rematch`: the Rematch button and the rematch lobby.

Every public name stays importable from ``bot.replay``.
"""

from __future__ import annotations

from .animation import (
    ANIMATION_MS,
    BOARD_MS,
    CLIP_FRAMES,
    LAST_MS,
    MAX_FRAMES,
    WIDTHS,
    Frame,
    Reel,
    animated_replay,
    encode_gif,
    replay_frames,
    replay_gif,
    step_boards,
)
from .commands import (
    RECENT_REPLAYS,
    Lookups,
    check_replayable,
    replay_file,
    send_export,
    send_replay,
)
from .export import (
    ALL_EVENTS,
    EXPORT_FORMAT,
    EXPORT_VERSION,
    all_events,
    export_bytes,
    export_data,
    export_file,
)
from .files import OUTPUT_FILE, ReplayError, prepare_out, render, render_main
from .rematch import awaited, invited, lobby_text, rematch_click, rematch_order
from .steps import MAX_FILE_BYTES, Step, replay_steps

__all__ = [
    "ALL_EVENTS", "ANIMATION_MS", "BOARD_MS", "CLIP_FRAMES", "EXPORT_FORMAT", "EXPORT_VERSION",
    "LAST_MS", "MAX_FILE_BYTES", "MAX_FRAMES", "OUTPUT_FILE", "RECENT_REPLAYS", "WIDTHS", "Frame",
    "Lookups", "Reel", "ReplayError", "Step", "all_events", "animated_replay", "awaited",
    "check_replayable", "encode_gif", "export_bytes", "export_data", "export_file", "invited",
    "lobby_text", "prepare_out", "rematch_click", "rematch_order", "render", "render_main",
    "replay_file", "replay_frames", "replay_gif", "replay_steps", "send_export", "send_replay",
    "step_boards",
]
