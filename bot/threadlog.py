"""What a game's thread shows of its log: the story of the game in as few messages as it reads well.

Discord lets one channel take 5 messages in 5 seconds, and every message counts against the bot's
global limit: a thread message per decision would make the thread, not Herald, the limit on how
fast a game goes, and bury the story under one-line messages. So:

* **the board carries the latest lines**: the living board message (edited for every decision
  anyway) shows what just happened, under the status — nobody needs a thread message to see it;
* **the thread gets one message per chapter** — a round, or a turn where a game has no rounds
  (:func:`chapter_of`) — holding every public line of it in order: the full story stays readable
  in the thread, a round at a time;
* a message goes out at once, whatever the chapter, when it must: a decision for someone whose
  only notice is a ping (their DMs are closed, or they asked for reminders only); lines whose
  files the board could not carry (a flick's animation goes with the board edit, under its image;
  only when a newer update draws the board, or Discord refuses the files there, do they go to the
  thread with their line); a stalled computer player; a host's or admin's change
  (a seat handed over, an undo); the end of the game; and when the waiting lines fill a message.

Players who get a DM for each decision (the default) are not pinged in the thread for it: the DM
is their notice. The lines waiting for their message are not only in memory: the storage keeps
the version up to which the thread is told (:meth:`~bot.storage.Storage.log_posted`), and after a
restart the lines since are read back from the game's events, so no line is ever lost from the
thread.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

CHAPTER_KEYS = ("round", "turn", "generation")
"""The public view's counters that name a chapter, the first found being used: Petition and
Hegemony of Faith count rounds, Cult Wars and Alternate Histories turns, Flick of Faith
generations."""

MESSAGE_CHARS = 1800
"""Waiting lines that fill this much of a message are posted without waiting for the chapter's end."""

BOARD_LINES = 8
"""The latest lines the board shows."""

RESTARTED = ("restarted", None)
"""The chapter of lines read back after a restart: the round they belong to is not stored, so
they are posted with the next update, whatever its chapter."""


def chapter_of(public: dict[str, Any]) -> tuple[str, Any] | None:
    """The chapter a game is in, from its public view (None: the game counts none)."""
    for key in CHAPTER_KEYS:
        if key in public and public[key] is not None:
            return key, public[key]
    return None


@dataclass
class Waiting:
    """A game's public lines posted on its board but not yet in its thread."""

    chapter: tuple[str, Any] | None
    posted: int
    """The game version up to which the thread is told."""
    lines: list[str] = field(default_factory=list)
    latest: list[str] = field(default_factory=list)
    """The latest public lines, for the board, whether or not the thread has them already."""

    def chars(self) -> int:
        return sum(len(line) + 1 for line in self.lines)

    def shown(self, lines: list[str]) -> list[str]:
        """The board's latest lines once these are told."""
        self.latest = [*self.latest, *lines][-BOARD_LINES:]
        return self.latest
