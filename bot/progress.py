"""The command line's progress line: what a long command has done so far, redrawn in place on a
terminal (``\\r``), and nothing at all when the stream is not one (a log, a pipe, CI), so the
result that follows on stdout is all a script sees."""

from __future__ import annotations

from typing import TextIO

from rules.text import count

BAR = 20
"""Cells of the bar drawn when the total is known."""


class Progress:
    """Call it with the work done so far (and the total, when known): a bar and the count when the
    total is known, a spinner and the count otherwise; :meth:`done` clears the line."""

    SPIN = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"

    def __init__(self, stream: TextIO, what: str, unit: str, doing: str) -> None:
        self.stream = stream
        self.what = what
        self.unit = unit
        self.doing = doing
        self.shown = False
        self.live = bool(getattr(stream, "isatty", lambda: False)())

    def line(self, done: int, total: int | None = None) -> str:
        """The text drawn for ``done`` of ``total`` (also what the tests read)."""
        if total:
            filled = min(BAR, BAR * done // total)
            bar = "█" * filled + "░" * (BAR - filled)
            return f"{self.what}: {bar} {done}/{count(total, self.unit)} {self.doing}"
        spin = self.SPIN[done % len(self.SPIN)]
        return f"{spin} {self.what}: {count(done, self.unit)} {self.doing}…"

    def __call__(self, done: int, total: int | None = None) -> None:
        if not self.live:
            return
        self.stream.write("\r" + self.line(done, total))
        self.stream.flush()
        self.shown = True

    def done(self) -> None:
        if self.shown:
            self.stream.write("\r\033[K")  # the line cleared: the result follows on stdout
            self.stream.flush()
            self.shown = False


__all__ = ["Progress"]
