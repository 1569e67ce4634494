"""The HTML of a game's public page, written from public data only.

Every function here takes what :mod:`bot.web.server` gathered from the public view
(``engine.view(state, None)``), the public events and the seats' names, and returns text: names,
log lines and status are HTML text (escaped, any script, ``<bdi>`` so a right-to-left name does
not turn the line around), only the board is an image, with its alt text. Addresses inside a page
are relative to the page (``board/…``, ``at/…``, ``../../static/…``), so a page holds neither its
own token nor the base address it is served under, and two games that differ only in a secret
get byte-identical pages.
"""

from __future__ import annotations

import datetime as _dt
import html
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.text import count

from .timeline import Moment

_PNUM = re.compile(r"\bP([1-8])\b")
_BOLD = re.compile(r"\*\*(.+?)\*\*")

SCORE_FIELDS = (("vp", "VP"), ("beads", "beads"), ("believers", "believers"),
                ("deck", "cards in deck"))
"""Per-seat numbers a public view may hold, in the order of preference, with their words."""
SEAT_LISTS = ("seats", "cults", "sides", "players")
"""Public view fields that hold one record per seat (each with its ``seat``)."""


def head_html(title: str, up: str, *, game_key: str | None = None, script: str | None = None,
              noindex: bool = False) -> str:
    """The start of every page up to ``<body>``: the document's settings, its title, Herald's
    stylesheet (and the game's seat colours), its script; ``up`` is the relative way back to the
    site's root ("../../"), so the pages work under any base address."""
    lines = ['<!doctype html>', '<html lang="en">', '<head>', '<meta charset="utf-8">',
             '<meta name="viewport" content="width=device-width, initial-scale=1">',
             '<meta name="referrer" content="no-referrer">']
    if noindex:
        lines.append('<meta name="robots" content="noindex">')
    lines += ['<meta name="color-scheme" content="light dark">', f"<title>{esc(title)}</title>",
              f'<link rel="stylesheet" href="{up}static/herald.css">']
    if game_key is not None:
        lines.append(f'<link rel="stylesheet" href="{up}static/seats-{esc(game_key)}.css">')
    if script is not None:
        lines.append(f'<script src="{up}static/{script}" defer></script>')
    lines.append("</head>")
    return "\n".join(lines)


def esc(text: str) -> str:
    return html.escape(text, quote=True)


def name_html(seat: int, names: Sequence[str]) -> str:
    name = names[seat] if 0 <= seat < len(names) else f"seat {seat + 1}"
    return f'<bdi class="name seat-{seat % 8}">{esc(name)}</bdi>'


def humanised(text: str, names: Sequence[str]) -> str:
    """Engine text as HTML: escaped, each P-number replaced by the seat's name, ``**bold**``
    kept as bold and line breaks kept (engines write P-numbers, never names)."""
    out = _BOLD.sub(r"<strong>\1</strong>", esc(text).replace("`", ""))

    def named(m: re.Match[str]) -> str:
        seat = int(m.group(1)) - 1
        return name_html(seat, names) if seat < len(names) else m.group(0)

    return _PNUM.sub(named, out).replace("\n", "<br>")


def kind_words(kind: str | None) -> str:
    return (kind or "").replace("_", " ")


def seat_scores(view: Mapping[str, Any], players: int) -> list[str]:
    """Each seat's score in words, from the public view (empty where it shows none): a top-level
    per-seat list (``vp``), else the first score-like field of its per-seat records."""
    for key, word in SCORE_FIELDS:
        top = view.get(key)
        if isinstance(top, list) and len(top) == players and all(isinstance(v, int | float) for v in top):
            return [f"{v:g} {word}" for v in top]
    for listed in SEAT_LISTS:
        rows = view.get(listed)
        if not (isinstance(rows, list) and rows and all(isinstance(r, dict) for r in rows)):
            continue
        for key, word in SCORE_FIELDS:
            found = {r.get("seat"): r.get(key) for r in rows if isinstance(r.get(key), int | float)
                     and not isinstance(r.get(key), bool)}
            if found:
                return [f"{found[s]:g} {word}" if s in found else "" for s in range(players)]
    return [""] * players


def when_html(ts: float) -> str:
    """A moment as ``<time>``: in UTC here, in the reader's own zone once the page's script runs."""
    moment = _dt.datetime.fromtimestamp(ts, _dt.UTC)
    return (f'<time datetime="{moment.strftime("%Y-%m-%dT%H:%M:%SZ")}" data-ts="{int(ts)}">'
            f'{moment.strftime("%Y-%m-%d %H:%M")} UTC</time>')


@dataclass(frozen=True)
class SeatLine:
    seat: int
    name: str
    bot: bool
    score: str
    deciding: str
    """The kind of decision the seat must make now, in words ("" when none)."""
    deadline: float | None
    winner: bool


@dataclass(frozen=True)
class Frame:
    """One step of a game as its page shows it: everything public, nothing drawn yet."""

    game_name: str
    game_key: str
    n: int
    last: int
    live: bool
    chain: str
    finished: bool
    summary: str
    alt: str
    turn: str
    seats: list[SeatLine]
    result: str = ""
    names: list[str] = field(default_factory=list)

    @property
    def board(self) -> str:
        return f"board/{self.n}-{self.chain}.png"


def panel_html(f: Frame) -> str:
    """Status, players with their scores and decisions, the result: the part of the page that
    changes with each step."""
    parts: list[str] = []
    where = f"Move {f.n} of {f.last}" if not f.live else (
        "Final position" if f.finished else f"Now, after move {f.n}")
    if f.n == 0:
        where = "The start" + (f" (of {f.last} moves)" if not f.live else "")
    parts.append(f'<p class="where">{esc(where)}'
                 + (f' · <span class="turn">{esc(f.turn)}</span>' if f.turn else "") + "</p>")
    if not f.live:
        parts.append('<p class="past" role="note">You are looking at an earlier move. '
                     'Use <b>Back to now</b> to see the game as it stands.</p>')
    if f.result:
        parts.append(f'<p class="result">{humanised(f.result, f.names)}</p>')
    elif f.summary:  # (a finished game's summary says again what its result says)
        parts.append(f'<p class="summary">{humanised(f.summary, f.names)}</p>')
    rows = []
    for s in f.seats:
        who = name_html(s.seat, f.names) + (' <span class="tag">computer</span>' if s.bot else "")
        if s.winner:
            who += ' <span class="tag win">winner</span>'
        todo = ""
        if s.deciding:
            todo = esc(s.deciding)
            if s.deadline is not None:
                todo += f' <span class="due">by {when_html(s.deadline)}</span>'
        rows.append(f'<tr class="seat-{s.seat % 8}{" deciding" if s.deciding else ""}">'
                    f'<th scope="row"><span class="swatch" aria-hidden="true"></span>{who}</th>'
                    f"<td>{esc(s.score)}</td><td>{todo}</td></tr>")
    parts.append('<table class="players"><caption>Players</caption><thead><tr><th scope="col">'
                 'Player</th><th scope="col">Score</th><th scope="col">To decide</th></tr></thead>'
                 f'<tbody>{"".join(rows)}</tbody></table>')
    return "".join(parts)


def log_html(moments: Sequence[Moment], names: Sequence[str], previous_turn: str | None) -> str:
    """Log entries, one per move, headed by the turn each run of moves fell in (a heading
    whenever it changes from ``previous_turn``, the turn of the move before the first)."""
    out: list[str] = []
    turn = previous_turn
    for m in moments:
        if m.turn != turn and m.turn:
            out.append(f'<li class="turn-head" data-n="{m.n}"><h3>{esc(m.turn)}</h3></li>')
        turn = m.turn
        if m.n == 0:
            head = "The game began."
        else:
            who = name_html(m.seat, names) if m.seat is not None else "?"
            what = kind_words(m.kind)
            origin = {"timeout": " (time ran out)", "bot": "", "player": ""}.get(m.origin or "", "")
            head = (f'<span class="num">{m.n}.</span> {who}' + (f" · {esc(what)}" if what else "")
                    + esc(origin))
        lines = "".join(f"<li>{humanised(e.text, names)}</li>" for e in m.events)
        out.append(f'<li class="move" data-n="{m.n}"><p>{head}</p>'
                   + (f"<ul>{lines}</ul>" if lines else "") + "</li>")
    return "".join(out)


def moves_words(n: int) -> str:
    return count(n, "move")


def page_html(f: Frame, log: str) -> str:
    """The whole page of a game at step ``f.n``."""
    title = f"{f.game_name} — Herald"
    return f"""{head_html(title, "../../", game_key=f.game_key, script="herald.js")}
<body>
<a class="skip" href="#panel">Skip to the players</a>
<header><h1>{esc(f.game_name)}</h1><p class="sub">played on Herald · <span id="live-state" \
role="status">{"live" if not f.finished else "finished"}</span> · \
<a href="../../rules/{esc(f.game_key)}/">Rules</a></p></header>
<main id="game" data-n="{f.n}" data-last="{f.last}" data-chain="{f.chain}" \
data-finished="{int(f.finished)}">
<section class="board" aria-label="Board">
<div class="zoom" id="zoom" tabindex="0"><img id="board" src="{esc(f.board)}" alt="{esc(f.alt)}"></div>
<p class="tools"><button type="button" id="zoom-btn" aria-pressed="false" \
aria-controls="zoom">Zoom in</button></p>
</section>
<section class="panel" id="panel" aria-live="polite" tabindex="-1">{panel_html(f)}</section>
<nav class="history" aria-label="History">
<button type="button" id="prev" aria-label="Earlier move">◀</button>
<input type="range" id="scrub" min="0" max="{f.last}" value="{f.n}" step="1" \
aria-label="Move shown">
<button type="button" id="next" aria-label="Later move">▶</button>
<button type="button" id="now" disabled>Back to now</button>
<output id="where" for="scrub">{esc(moves_words(f.last))}</output>
</nav>
<section class="log" aria-label="Log"><h2>Log</h2><ol id="log">{log}</ol></section>
</main>
<footer><p>Arrow keys step through the moves; Home goes to the start, End back to now.</p></footer>
</body>
</html>
"""


def seats_css(colours: Sequence[tuple[int, int, int]]) -> str:
    """Each seat's colour as a class (``seat-<n>``): the swatch, and a name's underline."""
    rules = []
    for i, (r, g, b) in enumerate(colours):
        rules.append(f".seat-{i} .swatch,.seat-{i}.swatch{{background:#{r:02x}{g:02x}{b:02x}}}"
                     f".name.seat-{i}{{border-bottom-color:#{r:02x}{g:02x}{b:02x}}}")
    return "\n".join(rules) + "\n"


NOT_FOUND = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" \
content="width=device-width, initial-scale=1"><title>Not found — Herald</title></head>
<body><h1>Not found</h1><p>There is no page here.</p></body></html>
"""
"""The one answer to every address that is not a page: a wrong token, a game that ended its
pages, an unknown path — all alike, so a refusal tells nothing."""
