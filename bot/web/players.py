"""A seated player's own page: their links, signed and checked, and the page's HTML.

**Links.** ``/p/<token>/<seat>-<generation>-<expires>-<mac>/``: the game's web token (which the
public page shows anyway), the seat, the seat's link generation, an expiry (Unix seconds) and an
HMAC-SHA256 over all of them *and the seat's member*, keyed with the one secret every process
shares (``Storage.web_secret``). A link is good while its expiry is ahead, its generation is the
seat's current one (renewing moves it on: every older link stops at once) and the seat is still
that member's (a seat handed over invalidates the old player's links). Macs and page tokens are
compared in constant time; nothing here logs a link.

**The page** is written from that seat's own view only (``engine.view(state, seat)``: the
redaction Discord's hand shows), the seat's open prompt (the choices Decide offers, grouped as
:mod:`bot.views` groups them) and the public frame the game page shows. Addresses inside it are
relative, so a page holds neither the base address nor the link it is served under; its form
token is derived from the link (one per page), so two games that differ only in another seat's
secrets give this seat byte-identical pages.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.engine import Choice

from .. import views
from .pages import Frame, esc, head_html, humanised, panel_html, when_html

LINK_LIFE = 14 * 86400
"""Seconds a player link works (each hand message carries a fresh one)."""
LINK_STEP = 3600
"""Expiries are rounded up to the hour: links made within the same hour are the same link."""
LINK = re.compile(r"(?P<seat>[0-7])-(?P<generation>\d{1,9})-(?P<expires>\d{1,11})-(?P<mac>[A-Za-z0-9_-]{24})")
"""What the seat part of a player link looks like."""
LISTED_IN_FULL = {("cult_wars", "target")}
"""Free-form decisions whose listed choices are every answer (the game's form only offers them in
one click): the page offers them all and sends nobody to Discord."""


def _mac(secret: str, *parts: object) -> str:
    body = "|".join(str(p) for p in parts).encode()
    digest = hmac.new(secret.encode(), body, hashlib.sha256).digest()[:18]
    return base64.urlsafe_b64encode(digest).decode()


def link_mac(secret: str, token: str, seat: int, user_id: int, generation: int, expires: int) -> str:
    """The signature of a player link (24 characters, 144 bits)."""
    return _mac(secret, "herald-seat-link", token, seat, user_id, generation, expires)


def expiry(now: float) -> int:
    """When a link made now expires: :data:`LINK_LIFE` ahead, rounded up to the hour."""
    return (int(now) // LINK_STEP + 1) * LINK_STEP + LINK_LIFE


def seat_part(secret: str, token: str, seat: int, user_id: int, generation: int, expires: int) -> str:
    return f"{seat}-{generation}-{expires}-{link_mac(secret, token, seat, user_id, generation, expires)}"


def form_token(secret: str, token: str, part: str) -> str:
    """The page's token its forms carry (a cross-site form cannot know it)."""
    return _mac(secret, "herald-page-form", token, part)


def same(a: str, b: str) -> bool:
    return hmac.compare_digest(a.encode(), b.encode())


# ------------------------------------------------------------------------ page


def card_texts(private: Any, shown: str) -> list[tuple[str, str]]:
    """Every card of the seat's own view that has a name and a text (``{"name", "text"}``
    anywhere in its private part), once each, where the hand in words does not already give its
    text: the page gives every card's text even where the hand message names cards only."""
    out: list[tuple[str, str]] = []
    stack = [private]
    while stack:
        item = stack.pop(0)
        if isinstance(item, dict):
            name, text = item.get("name"), item.get("text")
            if isinstance(name, str) and isinstance(text, str) and text and text not in shown \
                    and (name, text) not in out:
                out.append((name, text))
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return out


@dataclass(frozen=True)
class Option:
    index: int
    label: str
    description: str


@dataclass(frozen=True)
class Group:
    """Choices under one heading (``title`` empty: choices standing alone)."""

    title: str
    options: tuple[Option, ...]


def grouped(choices: Sequence[Choice]) -> list[Group]:
    """The prompt's choices as Decide shows them: by group (the card or skill they play) where
    the choices have groups, a choice alone in its group standing by itself; in their order."""
    if not any(c.group for c in choices):
        return [Group("", tuple(Option(i, views.shown_label(c), c.description or "") for i, c in enumerate(choices)))]
    keys = list(dict.fromkeys(views.group_key(c) for c in choices))
    out: list[Group] = []
    for key in keys:
        members = [(i, c) for i, c in enumerate(choices) if views.group_key(c) == key]
        title = key if len(members) > 1 else ""
        opts = tuple(Option(i, c.label if title else views.shown_label(c), c.description or "")
                     for i, c in members)
        if not title and out and not out[-1].title:
            out[-1] = Group("", out[-1].options + opts)
        else:
            out.append(Group(title, opts))
    return out


@dataclass(frozen=True)
class Asked:
    """The seat's open decision as its page offers it."""

    kind: str
    text: str
    ticket: str
    deadline: float | None
    timeout_note: str
    groups: list[Group]
    on_discord: bool
    """The decision has its own form on Discord (orders, a flick, a line-up, a pick): the page
    offers what it can enumerate and says where the rest is."""
    form: str = ""
    """The page's own form for a free-form decision (:mod:`bot.web.forms`), as HTML."""
    revising: bool = False
    """The seat answered already and may still change its answer (the form replaces it)."""


@dataclass(frozen=True)
class PlayerPage:
    game_name: str
    game_key: str
    token: str
    seat: int
    version: int
    names: list[str]
    form: str
    frame: Frame
    hand: str
    """The hand in words (the game's hand text: every card with its text)."""
    hand_alt: str
    has_hand_image: bool
    asked: Asked | None
    waiting: str
    """Who is awaited, in words, when the seat has nothing to decide."""
    discord_url: str | None
    notice: str = ""
    notice_kind: str = "ok"
    over: str = ""
    cards: list[tuple[str, str]] = field(default_factory=list)
    """(name, text) of the cards whose text the hand in words leaves out."""


def _decision_html(p: PlayerPage) -> str:
    a = p.asked
    parts = ['<section class="decision" id="decision" aria-labelledby="decision-h">'
             '<h2 id="decision-h">Your decision</h2>']
    if a is None:
        if p.over:
            parts.append(f'<p class="result">{humanised(p.over, p.names)}</p>')
        else:
            parts.append(f"<p>Nothing for you to decide right now — waiting for {esc(p.waiting)}.</p>")
        return "".join(parts) + "</section>"
    if a.revising:
        parts.append('<p class="notice ok">Your answer is in. You may still change it until everyone '
                     "has answered: send the form again.</p>")
    parts.append(f'<p class="prompt">{humanised(a.text, p.names)}</p>')
    if a.deadline is not None:
        parts.append(f'<p class="due">Due by {when_html(a.deadline)}; then {esc(a.timeout_note)}.</p>')
    if a.groups and any(g.options for g in a.groups):
        parts.append(f'<form method="post" action="act" class="choices">'
                     f'<input type="hidden" name="form" value="{esc(p.form)}">'
                     f'<input type="hidden" name="ticket" value="{esc(a.ticket)}">')
        for g in a.groups:
            rows = "".join(
                f'<li><button type="submit" name="choice" value="{o.index}">{humanised(o.label, p.names)}'
                f'</button>' + (f' <span class="desc">{humanised(o.description, p.names)}</span>'
                                if o.description else "") + "</li>"
                for o in g.options)
            if g.title:
                parts.append(f'<fieldset><legend>{humanised(g.title, p.names)}</legend><ul>{rows}</ul></fieldset>')
            else:
                parts.append(f'<ul class="alone">{rows}</ul>')
        parts.append("</form>")
    parts.append(a.form)
    if a.on_discord:
        where = (f'<a href="{esc(p.discord_url)}">on Discord</a>' if p.discord_url else "on Discord")
        more = " The choices above are the ones a page can offer; for the rest, decide" \
            if a.groups and any(g.options for g in a.groups) else " Decide this one"
        parts.append(f'<p class="on-discord">This decision has its own form.{more} {where} '
                     "(the board's <b>Decide</b> button, or your direct messages).</p>")
    return "".join(parts) + "</section>"


def player_html(p: PlayerPage) -> str:
    """The whole page of one seat."""
    me = p.names[p.seat] if p.seat < len(p.names) else f"seat {p.seat + 1}"
    title = f"{me} — {p.game_name} — Herald"
    notice = ""
    if p.notice:
        notice = f'<p class="notice {esc(p.notice_kind)}" role="status">{humanised(p.notice, p.names)}</p>'
    image = (f'<img src="hand/{p.version}.png" alt="{esc(p.hand_alt)}">' if p.has_hand_image else "")
    cards = "".join(f"<dt>{humanised(name, p.names)}</dt><dd>{humanised(text, p.names)}</dd>"
                    for name, text in p.cards)
    if cards:
        cards = f'<dl class="cards">{cards}</dl>'
    return f"""{head_html(title, "../../../", game_key=p.game_key, script="player.js", noindex=True)}
<body>
<a class="skip" href="#decision">Skip to your decision</a>
<header><h1>{esc(p.game_name)}</h1><p class="sub">Your page, <bdi class="name seat-{p.seat % 8}">\
{esc(me)}</bdi> — only you see it · <a href="../../../g/{esc(p.token)}/">the game's page</a> · \
<a href="../../../rules/{esc(p.game_key)}/">Rules</a> · \
<span id="live-state" role="status">{"live" if not p.frame.finished else "finished"}</span></p></header>
<main id="player" class="player" data-version="{p.version}">
{notice}{_decision_html(p)}
<section class="hand" aria-labelledby="hand-h"><h2 id="hand-h">Your hand</h2>
<div class="hand-text">{humanised(p.hand, p.names)}{cards}</div>{image}</section>
<section class="board" aria-label="Board"><div class="zoom"><img id="board" \
src="../../../g/{esc(p.token)}/{esc(p.frame.board)}" alt="{esc(p.frame.alt)}"></div></section>
<section class="panel" id="panel">{panel_html(p.frame)}</section>
</main>
<footer><p>Keep this link to yourself: it shows your hand and decides for you. It works for 14 days; \
each hand message brings a fresh one, and <b>New link</b> under <code>/game hand</code> stops every \
older one at once.</p></footer>
</body>
</html>
"""


REFUSED = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" \
content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">\
<title>Link no longer works — Herald</title></head>
<body><h1>This link no longer works</h1><p>{why}</p><p>Your latest hand message on Discord has a \
fresh <b>Your page</b> link, and <code>/game hand</code> gives one at any time.</p></body></html>
"""
"""The answer to a link that was genuinely this seat's but expired or was replaced (a forged or
unknown link gets the one 404 page)."""


def refused_html(why: str) -> str:
    return REFUSED.format(why=esc(why))


__all__ = ["LINK", "LINK_LIFE", "Asked", "Group", "Option", "PlayerPage", "expiry", "form_token",
           "grouped", "link_mac", "player_html", "refused_html", "same", "seat_part"]
