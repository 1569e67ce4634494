"""Herald's web server: a live public page for every game, in the bot's own process.

An ``aiohttp.web`` application on the bot's platform (its sessions, storage and drawing workers),
started when ``HERALD_WEB_URL`` is set and listening on ``HERALD_WEB_BIND``. Routes (``<token>``
is the game's unguessable web token, never its number):

| route | what |
|---|---|
| ``GET /g/<token>/`` | the game page as it stands now (the whole page, readable without script) |
| ``GET /g/<token>/at/<n>.json`` | step ``n`` (0: the start): status, players and board as they were, and the log entries after ``since`` |
| ``GET /g/<token>/board/<n>-<chain>.png`` | the public board at step ``n``, full resolution (the same PNG as Discord's) |
| ``GET /g/<token>/live`` | server-sent events: the latest step, each time a move is stored |
| ``GET /static/…`` | the page's stylesheet, script and seat colours (written here, nothing vendored) |
| ``GET /healthz`` | ``ok`` while the server runs (``python -m bot health``) |
| ``GET /rules/…`` | every game's rules page (:mod:`bot.web.rules`) |

**Public only.** A page is built from the public view (``engine.view(state, None)``), the public
events and the seats' names; the moves of the history are replayed from the seed and the log
(:mod:`bot.web.timeline`) and their states are never shown, only their public views. Refusals are
all alike — a wrong token, a lobby, a cancelled or deleted game, an unknown path: one 404 page. The
token is never logged (no access log; nothing here logs a path), and every response carries a
strict Content-Security-Policy (nothing but this server, no inline script or style) and
``Referrer-Policy: no-referrer`` (a link followed from a page does not carry its address away).
Each address may make :data:`RATE` requests a second on average (:data:`BURST` at once) and hold
:data:`STREAMS` live pages open; behind a reverse proxy on this machine the address is the last
of its ``X-Forwarded-For``.

**Live.** :meth:`WebServer.on_update` is one of the session's listeners: each committed update of a
game someone watches brings its history up to date once and wakes that game's open pages, whose
streams send them the new step (made once for all). An open page also checks the game every :data:`KEEPALIVE` seconds, which
brings it what no listener of this process saw (an undo, another process's move). A server that
turns its pages off (``/herald settings web_pages``) ends its games' open streams at once
(``Storage.listen_settings``: over PostgreSQL, in every process), and the pages reload to the one
404 page.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import functools
import hashlib
import json
import logging
import re
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from aiohttp import web

import bot.web.forms as web_forms
import bot.web.pages as pages  # (not `from . import`: the package imports this module)
import bot.web.players as players
import bot.web.rules as rules_pages
from rules import registry
from rules.engine import Event, RulesError, seat_name

from .. import views
from ..errors import NothingToDecide, StaleAction, TableError
from ..gameui import GameUI, get_ui
from ..render.pool import board_png, hand_png
from ..session import PAUSED, STALLED_REPLY, Sessions, Ticket, Update
from ..storage import GameRow, Storage
from ..storage.base import link_digest
from ..text import board_url
from .timeline import Timeline

log = logging.getLogger("herald.web")

SERVED = ("active", "finished")
"""Statuses whose games have a page: a lobby has nothing to show, and a cancelled game's link
stops working."""
TOKEN = re.compile(r"[A-Za-z0-9_-]{32}")
"""What a web token looks like (``secrets.token_urlsafe(24)``: 192 random bits)."""
KEEPALIVE = 15.0
"""Seconds between two looks at a watched game (and a comment that keeps proxies from closing
an idle stream)."""
SHUTDOWN = 2.0
"""Seconds a stopping server waits for its open pages to close (each is told to, at once)."""
KEPT_TIMELINES = 2048
"""Games whose replayed history is kept in memory (others are replayed again when asked for):
every live game of a big bot (about 150 KB each for a game of 40 moves, its kept states and
latest frames: ``bench/web.py``)."""
KEPT_FRAMES = 2048
KEPT_BOARDS = 64
"""Boards kept drawn (a few hundred KB each): the latest of every watched game, and recent steps."""
CSP = ("default-src 'none'; img-src 'self'; style-src 'self'; script-src 'self'; "
       "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
PLAYER_CSP = CSP.replace("form-action 'none'", "form-action 'self'")
"""A player page's policy: its decision forms post to Herald itself, nowhere else."""
HEADERS = {
    "Content-Security-Policy": CSP,
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
}
RATE = 10.0
"""Requests per second an address may make on average (a page and its steps need a handful)."""
BURST = 120
"""Requests an address may make at once (scrubbing a long history quickly, several tabs)."""
STREAMS = 16
"""Live pages one address may hold open at once."""
LOOPBACK = {"127.0.0.1", "::1"}
COMPRESSED = {"text/html", "application/json", "text/css", "text/javascript"}
"""Answers sent compressed: a long game's page is mostly its log, which compresses tenfold."""
STATIC_TYPES = {"css": "text/css; charset=utf-8", "js": "text/javascript; charset=utf-8"}
PLAYER_HEADERS = {**HEADERS, "Content-Security-Policy": PLAYER_CSP, "X-Robots-Tag": "noindex"}

class WebError(Exception):
    """The web server cannot start: one sentence for the admin."""


class _Gone(Exception):
    """A genuine player link that expired or was replaced: said to its holder (410)."""

    def response(self) -> web.Response:
        return web.Response(status=410, text=players.refused_html(str(self)), content_type="text/html",
                            headers={"Cache-Control": "no-store"})


Draw = Callable[..., Awaitable[Any]]
"""``draw(fn, game_key, *args)``: run a drawing function off the event loop (``RenderPool.draw``)."""


def _static(name: str) -> bytes:
    return resources.files("bot.web").joinpath("static", name).read_bytes()


class _Lru(collections.OrderedDict[Any, Any]):
    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size

    def get_fresh(self, key: Any) -> Any:
        if key in self:
            self.move_to_end(key)
            return self[key]
        return None

    def put(self, key: Any, value: Any) -> None:
        self[key] = value
        self.move_to_end(key)
        while len(self) > self.size:
            self.popitem(last=False)


class _Limiter:
    """A token bucket per address (the most recent ``size`` addresses kept)."""

    def __init__(self, rate: float, burst: int, size: int = 10000) -> None:
        self.rate, self.burst = rate, burst
        self._buckets = _Lru(size)

    def allow(self, who: str, now: float) -> bool:
        tokens, at = self._buckets.get_fresh(who) or (float(self.burst), now)
        tokens = min(float(self.burst), tokens + (now - at) * self.rate)
        if tokens < 1.0:
            self._buckets.put(who, (tokens, now))
            return False
        self._buckets.put(who, (tokens - 1.0, now))
        return True


def client_of(request: web.Request) -> str | None:
    """Who is asking, for the rate limit: the peer's address, or — from a reverse proxy on this
    machine — the last address of its ``X-Forwarded-For``. None for a request from this machine
    without one (``serve``, a health probe), which is not limited."""
    peer = request.remote or ""
    if peer in LOOPBACK:
        forwarded = request.headers.get("X-Forwarded-For", "")
        last = forwarded.rsplit(",", 1)[-1].strip()
        return last[:64] or None
    return peer


@dataclass
class _Watched:
    """The open pages of one game: each waits on its own event, woken by each new step."""

    pages: set[asyncio.Event] = field(default_factory=set)
    head: tuple[int, str, bool] | None = None
    """(last step, its chain, finished) as last published."""
    version: int = -1
    """The game's version that head was read at."""
    looked: float = 0.0
    """When one of the pages last looked at the game itself (one look serves them all)."""
    guild_id: int | None = None
    """The game's server (its pages close at once when the server turns them off)."""


class WebServer:
    """The web pages of one process's games (see the module's docstring)."""

    def __init__(self, sessions: Sessions, storage: Storage, base_url: str,
                 bind: tuple[str, int] = ("127.0.0.1", 8080), draw: Draw | None = None) -> None:
        self.sessions = sessions
        self.storage = storage
        self.base_url = base_url.rstrip("/")
        self.bind = bind
        self.draw: Draw = draw or (lambda fn, key, *args: sessions.cpu(fn, key, *args))
        self._chain_key = secrets.token_bytes(32)
        self._tokens: dict[int, str] = {}
        self._found: _Lru = _Lru(4096)  # token digest → game id
        self._timelines: _Lru = _Lru(KEPT_TIMELINES)  # game id → Timeline
        self._frames: _Lru = _Lru(KEPT_FRAMES)
        self._boards: _Lru = _Lru(KEPT_BOARDS)
        self._steps: _Lru = _Lru(KEPT_FRAMES)  # the JSON of a step, as pages ask for it
        self._pending: dict[Any, asyncio.Future[Any]] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._watched: dict[int, _Watched] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._statics = {name: _static(name) for name in ("herald.css", "herald.js", "player.js")}
        self._secret: str | None = None
        self._hidden: set[int] = set()
        """Games of servers that turned their pages off (as last read): their boards show no link."""
        self.limiter = _Limiter(RATE, BURST)
        self._streams: collections.Counter[str] = collections.Counter()
        self.closing = False
        self.runner: web.AppRunner | None = None
        self.port: int | None = None
        self.app = self.make_app()

    # ------------------------------------------------------------------ links

    def link(self, game_id: int) -> str | None:
        """The public page of a game, if its token is known here (``views.board_view``)."""
        token = self._tokens.get(game_id)
        return f"{self.base_url}/g/{token}/" if token and game_id not in self._hidden else None

    async def ensure_link(self, game_id: int) -> str:
        """The game's page address, its token made and stored the first time it is asked for."""
        token = self._tokens.get(game_id)
        if token is None:
            token = await self.storage.web_link(game_id, secrets.token_urlsafe(24), time.time())
            self._tokens[game_id] = token
        return f"{self.base_url}/g/{token}/"

    async def load_links(self) -> None:
        """Tokens of every running game, made where missing, so each board shows its link."""
        games = await self.storage.list_games(statuses=("active",))
        self._tokens.update(await self.storage.web_links([g.id for g in games]))
        for g in games:
            if g.id not in self._tokens:
                await self.ensure_link(g.id)

    # ---------------------------------------------------------------- updates

    async def on_update(self, update: Update) -> None:
        """The session's listener: a game's token exists before its board is posted, and its open
        pages hear of the new step."""
        game = update.game
        if game.status in SERVED:
            await self.ensure_link(game.id)
            await self.pages_on(game)
        if game.id in self._watched:
            self._spawn(self._publish(game.id))
        self._spawn(self.storage.announce_update(game.id, game.version))

    def _heard_update(self, game_id: int, version: int) -> None:
        """Another process stored a new version of a game (PostgreSQL's NOTIFY): its open pages
        here hear of it at once."""
        if game_id in self._watched and not self.closing:
            self._spawn(self._publish(game_id))

    def _settings_heard(self, guild_id: int) -> None:
        """A server's settings changed (``Storage.listen_settings``: this process's change, or
        over PostgreSQL any process's): the open pages of its games look again at once, and
        those of a server that turned its pages off end (they reload to the one 404 page)."""
        if self.closing:
            return
        for watched in self._watched.values():
            if watched.guild_id == guild_id:
                watched.head = None
                for page in watched.pages:
                    page.set()

    def _spawn(self, work: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _publish(self, game_id: int) -> None:
        watched = self._watched.get(game_id)
        if watched is None:
            return
        try:
            game = await self.storage.get_game(game_id)
            if game is None or game.status not in SERVED:
                watched.head = None
            else:
                tl, game = await self.timeline(game)
                watched.head = (tl.last, tl.moments[-1].chain, game.status == "finished")
                watched.version = game.version
        except Exception:
            log.exception("bringing a watched game's page up to date failed", extra={"game_id": game_id})
            return
        for page in watched.pages:
            page.set()

    # ---------------------------------------------------------------- reading

    def lock(self, game_id: int) -> asyncio.Lock:
        return self._locks.setdefault(game_id, asyncio.Lock())

    async def game_of(self, token: str) -> GameRow | None:
        """The game a token opens, if its page is served; None for everything else."""
        if not TOKEN.fullmatch(token):
            return None
        digest = link_digest(token)
        game_id = self._found.get_fresh(digest)
        if game_id is None:
            game_id = await self.storage.game_of_link(token)
            if game_id is None:
                return None
            self._found.put(digest, game_id)
            self._tokens.setdefault(game_id, token)
        game = await self.storage.get_game(game_id)
        if game is None or game.status not in SERVED or game.state is None:
            return None
        return game if await self.pages_on(game) else None

    async def pages_on(self, game: GameRow) -> bool:
        """Whether the game's server serves its web pages (``/herald settings web_pages``)."""
        on = game.guild_id is None or (await self.storage.guild_settings(game.guild_id)).web_pages
        if on:
            self._hidden.discard(game.id)
        else:
            self._hidden.add(game.id)
        return on

    async def timeline(self, game: GameRow) -> tuple[Timeline, GameRow]:
        """The game's public history brought up to its stored log, and the game as stored at that
        log (read again should a move land while the log is read)."""
        async with self.lock(game.id):
            kept = self._timelines.get_fresh(game.id)
            if kept is not None and kept.version == game.version:
                return kept, game
            if kept is None:
                engine = registry.get(game.game_key)
                options = engine.replay_options(game.options, game.state)
                kept = Timeline(engine, len(game.seats), game.seed, options, self._chain_key)
            for _ in range(3):
                actions = await self.storage.actions(game.id)
                again = await self.storage.get_game(game.id)
                if again is None or again.version == game.version:
                    break
                game = again
            await self.sessions.cpu(kept.sync, actions)
            kept.version = game.version  # (-1 if it kept changing: see ``public_view``)
            if again is not None and again.version != game.version:
                kept.version = -1
            self._timelines.put(game.id, kept)
            return kept, game

    async def public_view(self, game: GameRow, tl: Timeline, n: int) -> dict[str, Any]:
        """The public view at step ``n``: the stored state's for the latest step (when the log
        was read at the game's stored version), else the replayed one."""
        engine = tl.engine
        if n == tl.last and tl.version == game.version:
            return engine.view(self.sessions.state_of(game), None)
        state = await self.sessions.cpu(tl.state_at, n)
        return engine.view(state, None)

    async def _once(self, cache: _Lru, key: Any, make: Callable[[], Awaitable[Any]]) -> Any:
        """``make()``'s value for ``key``, kept in ``cache``, made once however many requests
        ask for it at the same moment (a move wakes every open page of its game at once)."""
        value = cache.get_fresh(key)
        if value is not None:
            return value
        pending = self._pending.get(key)
        if pending is not None:
            return await asyncio.shield(pending)
        pending = asyncio.get_running_loop().create_future()
        self._pending[key] = pending
        try:
            value = await make()
            cache.put(key, value)
            pending.set_result(value)
        except BaseException as exc:
            pending.set_exception(exc)
            pending.exception()  # (retrieved: a request that gave up waiting leaves no warning)
            raise
        finally:
            self._pending.pop(key, None)
        return value

    def _frame_key(self, game: GameRow, tl: Timeline, n: int) -> tuple[Any, ...]:
        live = n == tl.last
        return ("frame", game.id, n, tl.moments[n].chain, game.version if live else None, game.status)

    async def frame(self, game: GameRow, tl: Timeline, n: int) -> pages.Frame:
        """Step ``n`` of the game as its page shows it."""
        frame: pages.Frame = await self._once(self._frames, self._frame_key(game, tl, n),
                                              lambda: self._make_frame(game, tl, n))
        return frame

    async def _make_frame(self, game: GameRow, tl: Timeline, n: int) -> pages.Frame:
        live = n == tl.last
        public = await self.public_view(game, tl, n)  # (not kept: a frame holds only what it shows)
        names = [s.name for s in game.seats]
        ui = get_ui(game.game_key)
        moment = tl.moments[n]
        deciding: dict[int, tuple[str, float | None]] = {}
        if live and game.status == "active":
            snap = await self.sessions.snapshot(game, touch=False)
            for o in snap.open:
                due = o.deadline.due_at if o.deadline is not None else None
                deciding.setdefault(o.seat, (pages.kind_words(o.prompt.kind), due))
        elif not live:
            for seat, kind in moment.waiting:
                deciding.setdefault(seat, (pages.kind_words(kind), None))
        result = game.result if live and game.status == "finished" else None
        winners = set(result.get("winners", [])) if result else set()
        scores = pages.seat_scores(public, len(game.seats))
        seats = [pages.SeatLine(s.seat, s.name, s.is_bot, scores[s.seat] if s.seat < len(scores) else "",
                                deciding.get(s.seat, ("", None))[0], deciding.get(s.seat, ("", None))[1],
                                s.seat in winners) for s in game.seats]
        result_line = ""
        if result:
            who = ", ".join(seat_name(w) for w in result.get("winners", [])) or "nobody"
            reason = str(result.get("reason", "")).strip()
            result_line = f"Game over — winner: {who}." + (f" {reason[:1].upper()}{reason[1:]}" if reason else "")
            result_line += "" if result_line.endswith(".") else "."
        made = pages.Frame(
            game_name=tl.engine.name, game_key=game.game_key, n=n, last=tl.last, live=live,
            chain=moment.chain, finished=game.status == "finished", summary=ui.status_text(public),
            alt=ui.board_alt(public, names=names), turn=moment.turn, seats=seats,
            result=result_line, names=names)
        return made

    async def board(self, game: GameRow, tl: Timeline, n: int) -> bytes:
        """The public board at step ``n`` as PNG, drawn once however many pages ask at once."""

        async def draw() -> bytes:
            public = await self.public_view(game, tl, n)
            events: list[Event] = list(tl.moments[n].events)
            names = [s.name for s in game.seats]
            png: bytes = await self.draw(board_png, game.game_key, public, events, names)
            return png

        png: bytes = await self._once(self._boards, ("board", game.id, n, tl.moments[n].chain), draw)
        return png

    # ----------------------------------------------------------------- routes

    def make_app(self) -> web.Application:
        app = web.Application(middlewares=[self._guard])
        app.router.add_get("/healthz", self.healthz)
        app.router.add_get("/static/herald.css", self.static)
        app.router.add_get("/static/herald.js", self.static)
        app.router.add_get("/static/seats-{key:[a-z_]{1,40}}.css", self.seats_css)
        app.router.add_get("/g/{token}", self.slash)
        app.router.add_get("/g/{token}/", self.page)
        app.router.add_get(r"/g/{token}/at/{n:\d{1,7}}.json", self.at)
        app.router.add_get(r"/g/{token}/board/{n:\d{1,7}}-{chain:[0-9a-f]{20}}.png", self.board_png)
        app.router.add_get("/g/{token}/live", self.live)
        app.router.add_get("/static/player.js", self.static)
        app.router.add_get("/p/{token}/{link}", self.player_slash)
        app.router.add_get("/p/{token}/{link}/", self.player_page)
        app.router.add_post("/p/{token}/{link}/act", self.player_act)
        app.router.add_get(r"/p/{token}/{link}/hand/{version:\d{1,9}}.png", self.player_hand)
        app.router.add_get("/p/{token}/{link}/live", self.player_live)
        app.router.add_get(r"/p/{token}/{link}/aim/{version:\d{1,9}}.png", self.player_aim)
        rules_pages.add_routes(app.router)
        return app

    @web.middleware
    async def _guard(self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
                     ) -> web.StreamResponse:
        """Security headers on every answer, one 404 page for every refusal, and the rate limit
        per address (429, with when to try again)."""
        who = client_of(request)
        if who is not None and not self.limiter.allow(who, time.monotonic()):
            return web.Response(status=429, text="Too many requests: try again in a moment.\n",
                                headers={"Retry-After": "2", "Cache-Control": "no-store", **HEADERS})
        try:
            response = await handler(request)
        except (web.HTTPNotFound, web.HTTPMethodNotAllowed):
            response = self.not_found()
        except _Gone as gone:
            response = gone.response()
        except web.HTTPException as exc:  # (a redirect)
            exc.headers.update(HEADERS)
            raise
        if not response.prepared:
            response.headers.update(PLAYER_HEADERS if request.path.startswith("/p/") else HEADERS)
            if isinstance(response, web.Response) and response.content_type in COMPRESSED:
                response.enable_compression()  # (gzip or deflate, when the browser takes it)
        return response

    @staticmethod
    def not_found() -> web.Response:
        return web.Response(status=404, text=pages.NOT_FOUND, content_type="text/html",
                            headers={"Cache-Control": "no-store", **HEADERS})

    async def _served(self, request: web.Request) -> GameRow:
        game = await self.game_of(request.match_info["token"])
        if game is None:
            raise web.HTTPNotFound()
        return game

    async def healthz(self, request: web.Request) -> web.Response:
        return web.json_response({"ok": True, "watched": sum(len(w.pages) for w in self._watched.values())})

    async def static(self, request: web.Request) -> web.Response:
        name = request.path.rsplit("/", 1)[1]
        body = self._statics[name]
        return web.Response(body=body, content_type=STATIC_TYPES[name.rsplit(".", 1)[1]].split(";")[0],
                            charset="utf-8", headers={"Cache-Control": "public, max-age=300",
                                                      "ETag": hashlib.sha256(body).hexdigest()[:16]})

    async def seats_css(self, request: web.Request) -> web.Response:
        key = request.match_info["key"]
        if key not in registry.all_engines():
            raise web.HTTPNotFound()
        ui = get_ui(key)
        return web.Response(text=pages.seats_css([ui.seat_badge(i) for i in range(8)]),
                            content_type="text/css", headers={"Cache-Control": "public, max-age=300"})

    async def slash(self, request: web.Request) -> web.Response:
        await self._served(request)
        raise web.HTTPPermanentRedirect(location=f"{request.match_info['token']}/")

    async def page(self, request: web.Request) -> web.Response:
        game = await self._served(request)
        tl, game = await self.timeline(game)
        frame = await self.frame(game, tl, tl.last)
        body = pages.page_html(frame, pages.log_html(tl.moments, frame.names, None))
        return web.Response(text=body, content_type="text/html", headers={"Cache-Control": "no-store"})

    async def at(self, request: web.Request) -> web.Response:
        game = await self._served(request)
        tl, game = await self.timeline(game)
        n = int(request.match_info["n"])
        if n > tl.last:
            raise web.HTTPNotFound()
        body = await self.step(game, tl, n, request.query.get("since", ""), request.query.get("chain", ""))
        return web.Response(body=body, content_type="application/json",
                            headers={"Cache-Control": "no-store"})

    async def step(self, game: GameRow, tl: Timeline, n: int, since_raw: str, chain: str) -> bytes:
        """Step ``n`` as JSON: its board's address and alt text, its panel, and the log entries
        after step ``since`` (when the page's history up to it, named by ``chain``, is still
        this game's; else ``reset``: the page reloads). Made once for all the pages asking."""
        moments = tl.moments
        since = -1  # (no log entries asked for)
        if since_raw.isascii() and since_raw.isdigit() and len(since_raw) < 8:
            since = int(since_raw)
            if since > len(moments) - 1 or moments[since].chain != chain:
                since = -2  # (the page shows a history this game no longer has: an undo)
        key = (*self._frame_key(game, tl, n), "step", since)

        async def make() -> bytes:
            frame = await self.frame(game, tl, n)
            entries = ""
            if 0 <= since < n:
                entries = pages.log_html(moments[since + 1:n + 1], frame.names, moments[since].turn)
            return json.dumps({
                "n": n, "last": len(moments) - 1, "chain": frame.chain, "head": moments[-1].chain,
                "live": frame.live, "finished": frame.finished, "board": frame.board,
                "alt": frame.alt, "panel": pages.panel_html(frame), "log": entries,
                "since": since, "reset": since == -2}).encode()

        body: bytes = await self._once(self._steps, key, make)
        return body

    async def board_png(self, request: web.Request) -> web.Response:
        game = await self._served(request)
        tl, game = await self.timeline(game)
        n = int(request.match_info["n"])
        if n > tl.last or tl.moments[n].chain != request.match_info["chain"]:
            raise web.HTTPNotFound()
        png = await self.board(game, tl, n)
        return web.Response(body=png, content_type="image/png",
                            headers={"Cache-Control": "private, max-age=86400, immutable"})

    async def live(self, request: web.Request) -> web.StreamResponse:
        game = await self._served(request)
        return await self._counted(request, lambda: self._live(request, game))

    async def _counted(self, request: web.Request,
                       stream: Callable[[], Awaitable[web.StreamResponse]]) -> web.StreamResponse:
        """A live stream, counted against its address's :data:`STREAMS`."""
        who = client_of(request)
        if who is not None and self._streams[who] >= STREAMS:
            return web.Response(status=429, text="Too many open pages from here.\n",
                                headers={"Retry-After": "30", "Cache-Control": "no-store"})
        if who is not None:
            self._streams[who] += 1
        try:
            return await stream()
        finally:
            if who is not None:
                self._streams[who] -= 1
                if self._streams[who] <= 0:
                    del self._streams[who]

    async def _stream(self, request: web.Request, game: GameRow, headers: Mapping[str, str],
                      serve: Callable[[_Watched, asyncio.Event, web.StreamResponse], Awaitable[None]]
                      ) -> web.StreamResponse:
        """An open page's event stream of ``game``, written by ``serve``: woken by the game's
        updates (``wake``), its headers and reconnection delay sent first, and forgotten when it
        ends (a closed connection or a cancelled request is how a page normally leaves)."""
        watched = self._watched.setdefault(game.id, _Watched())
        watched.guild_id = game.guild_id
        wake = asyncio.Event()
        watched.pages.add(wake)
        response = web.StreamResponse(headers={
            "Content-Type": "text/event-stream", "Cache-Control": "no-store",
            "X-Accel-Buffering": "no", **headers})
        try:
            await response.prepare(request)
            await response.write(b"retry: 2000\n\n")
            await serve(watched, wake, response)
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        finally:
            watched.pages.discard(wake)
            if not watched.pages:
                self._watched.pop(game.id, None)
        return response

    async def _live(self, request: web.Request, game: GameRow) -> web.StreamResponse:
        return await self._stream(request, game, HEADERS, functools.partial(self._public_stream, game))

    async def _public_stream(self, game: GameRow, watched: _Watched, wake: asyncio.Event,
                             response: web.StreamResponse) -> None:
        """The game page's stream: the head at once, then each new step with its log."""
        sent: tuple[int, str, bool] | None = None
        while not self.closing:
            if wake.is_set() or sent is None:
                wake.clear()
                head = watched.head
                if head is None:
                    current = await self.storage.get_game(game.id)
                    if current is None or current.status not in SERVED or not await self.pages_on(current):
                        await response.write(b"event: gone\ndata: {}\n\n")
                        break
                    tl, current = await self.timeline(current)
                    watched.version = current.version
                    head = watched.head = (tl.last, tl.moments[-1].chain, current.status == "finished")
                if head != sent:
                    if sent is None:  # (the page has its step already, or fetches it)
                        data = json.dumps({"last": head[0], "chain": head[1], "finished": head[2]})
                        await response.write(f"event: head\ndata: {data}\n\n".encode())
                    else:  # the new step itself, with the log since the last one sent
                        current = await self.storage.get_game(game.id)
                        if current is None or current.status not in SERVED:
                            continue
                        tl, current = await self.timeline(current)
                        body = await self.step(current, tl, tl.last, str(sent[0]), sent[1])
                        head = (tl.last, tl.moments[-1].chain, current.status == "finished")
                        await response.write(b"event: step\ndata: " + body + b"\n\n")
                    sent = head
                continue
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(wake.wait(), KEEPALIVE)
                continue
            await response.write(b": still here\n\n")
            now = time.monotonic()
            if now - watched.looked < KEEPALIVE / 2:
                continue  # (another page of this game has just looked)
            watched.looked = now
            current = await self.storage.get_game(game.id)
            if (current is None or current.status not in SERVED or current.version != watched.version
                    or not await self.pages_on(current)):
                watched.head = None  # (looked at again: an undo, another process's move, pages off)
                wake.set()

    # ----------------------------------------------------------- player pages

    async def secret(self) -> str:
        """The secret player links are signed with (one for every process: ``web_secret``)."""
        if self._secret is None:
            self._secret = await self.storage.web_secret(secrets.token_urlsafe(32))
        return self._secret

    async def player_link(self, game: GameRow, seat: int) -> str | None:
        """A fresh link to the seat's own page (``views.player_links``: the hand message's "Your
        page"), None where there is none: a computer player, a game without pages, a server
        that turned them off."""
        if game.status not in SERVED or not 0 <= seat < len(game.seats):
            return None
        user_id = game.seats[seat].user_id
        if game.seats[seat].is_bot or user_id is None or not await self.pages_on(game):
            return None
        token = (await self.ensure_link(game.id)).rstrip("/").rsplit("/", 1)[1]
        generation = await self.storage.seat_link_generation(game.id, seat)
        part = players.seat_part(await self.secret(), token, seat, user_id, generation,
                                 players.expiry(time.time()))
        return f"{self.base_url}/p/{token}/{part}/"

    async def renew_player_link(self, game_id: int, user_id: int) -> str:
        """Revoke the member's links to their page of the game and give a new one (the "New
        link" button); a game they do not play in is refused as one nobody has."""
        game = await self.storage.get_game(game_id)
        seat = game.seat_of(user_id) if game is not None else None
        if game is None or seat is None:
            raise TableError(f"you have no game #{game_id}.")
        if game.status not in SERVED:
            raise TableError(f"game #{game_id} has no page.")
        await self.storage.renew_seat_link(game_id, seat)
        link = await self.player_link(game, seat)
        if link is None:
            raise TableError("this server has turned its games' web pages off.")
        return link

    async def _seat(self, request: web.Request) -> tuple[GameRow, int, str]:
        """The game, seat and link part of a player link that is good now. A link nobody signed
        gets the one 404 page; a genuine link that expired or was replaced is told so (410)."""
        game = await self._served(request)
        token, part = request.match_info["token"], request.match_info["link"]
        m = players.LINK.fullmatch(part)
        if m is None:
            raise web.HTTPNotFound()
        seat = int(m["seat"])
        user_id = game.seats[seat].user_id if seat < len(game.seats) else None
        if user_id is None or game.seats[seat].is_bot:
            raise web.HTTPNotFound()
        generation, expires = int(m["generation"]), int(m["expires"])
        signed = players.link_mac(await self.secret(), token, seat, user_id, generation, expires)
        if not players.same(signed, m["mac"]):
            raise web.HTTPNotFound()
        if expires <= time.time():
            raise _Gone("This link to your page has expired.")
        if generation != await self.storage.seat_link_generation(game.id, seat):
            raise _Gone("This link to your page was replaced by a newer one.")
        return game, seat, part

    async def _player_frame(self, game: GameRow, seat: int, part: str, notice: str = "",
                            kind: str = "ok", prefill: Mapping[str, str] | None = None) -> str:
        tl, game = await self.timeline(game)
        frame = await self.frame(game, tl, tl.last)
        snap = await self.sessions.snapshot(game, touch=False)
        view = snap.view(seat)  # (this seat's own view: the redaction Discord's hand shows)
        ui = get_ui(game.game_key)
        names = [s.name for s in game.seats]
        mine = snap.prompt_of(seat) if game.status == "active" else None
        revising = mine is None and game.status == "active"
        if revising:  # (an answer the seat may still change: Cult Wars orders until all are in)
            mine = snap.revision_of(seat)
        asked = None
        token = (await self.ensure_link(game.id)).rstrip("/").rsplit("/", 1)[1]
        form_token = players.form_token(await self.secret(), token, part)
        if mine is not None:
            p = mine.prompt
            own = web_forms.web_form(game.game_key, p, view) if p.free_form else None
            if revising and own is None:
                mine = None  # (a revision is offered only where the page has the form)
        if mine is not None:
            asked = players.Asked(
                p.kind, p.text, str(mine.ticket), mine.deadline.due_at if mine.deadline else None,
                p.timeout_note, players.grouped(p.choices) if p.choices and not revising else [],
                bool(p.free_form) and own is None
                and (game.game_key, p.free_form) not in players.LISTED_IN_FULL,
                web_forms.form_html(own, form_token, str(mine.ticket), names, prefill, game.version)
                if own else "", revising)
        hand = ui.hand_text(view)
        page = players.PlayerPage(
            game_name=tl.engine.name, game_key=game.game_key, token=token, seat=seat,
            version=game.version, names=names,
            form=form_token, frame=frame,
            hand=hand, cards=players.card_texts(view.get("private"), hand),
            hand_alt=ui.hand_alt(view, names=names),
            has_hand_image=type(ui).hand_image is not GameUI.hand_image, asked=asked,
            waiting=", ".join(names[s] for s in snap.waiting() if s < len(names)) or "nobody",
            discord_url=board_url(game), notice=notice, notice_kind=kind,
            over=frame.result or ("This game is over." if game.status == "finished" else ""))
        return players.player_html(page)

    async def player_slash(self, request: web.Request) -> web.Response:
        await self._seat(request)
        raise web.HTTPPermanentRedirect(location=f"{request.match_info['link']}/")

    async def player_page(self, request: web.Request) -> web.Response:
        game, seat, part = await self._seat(request)
        aim = {k: request.query[k][:20] for k in ("angle", "power", "piece", "hand") if k in request.query}
        body = await self._player_frame(game, seat, part, prefill=aim)
        return web.Response(text=body, content_type="text/html", headers={"Cache-Control": "no-store"})

    async def player_act(self, request: web.Request) -> web.Response:
        """A decision from the page: the same path as a Discord click (``Sessions.act`` with the
        prompt's ticket, judged under the game's lock), then the seat's page as it now stands
        with what became of it. A double click, two tabs or a page and Discord at once count
        once: the later ones find their ticket answered."""
        game, seat, part = await self._seat(request)
        form = await request.post()
        token = request.match_info["token"]
        sent = str(form.get("form", ""))
        if (request.headers.get("Sec-Fetch-Site") == "cross-site"
                or not players.same(sent, players.form_token(await self.secret(), token, part))):
            return web.Response(status=403, text="This form was not sent from your page, so nothing "
                                "was applied. Open your page again and decide there.\n",
                                headers={"Cache-Control": "no-store"})
        notice, kind, status = await self._decide(game, seat, form)
        game = await self.storage.get_game(game.id) or game
        body = await self._player_frame(game, seat, part, notice, kind)
        return web.Response(status=status, text=body, content_type="text/html",
                            headers={"Cache-Control": "no-store"})

    async def _decide(self, game: GameRow, seat: int, form: Any) -> tuple[str, str, int]:
        """Apply the seat's choice (or its form's answer) if its ticket still names the seat's
        open decision: (what to say, its kind, the HTTP status)."""
        user_id = game.seats[seat].user_id
        ticket, choice = str(form.get("ticket", "")), str(form.get("choice", ""))
        try:
            answers = Ticket.parse(ticket)
            if game.status != "active":
                raise TableError("this game is over: there is nothing to decide any more.")
            if await self.sessions.paused(game.id):
                raise TableError(PAUSED.format(game_id=game.id).replace("`", ""))
            d = await self.sessions.decision(game.id, user_id or 0, answers)
            if d.seat != seat:
                raise StaleAction("that decision is not yours", answered=False)
            if form.get("answer") == "form":
                fields = {k: [str(v) for v in form.getall(k)] for k in set(form.keys())}
                action = web_forms.form_action(game.game_key, d.prompt, fields, d.view())
                label = "your answer was sent"
            else:
                idx = int(choice) if choice.isascii() and choice.isdigit() and len(choice) < 5 else -1
                if not 0 <= idx < len(d.prompt.choices):
                    raise StaleAction("that option is not on your page any more", answered=False)
                action = dict(d.prompt.choices[idx].action)
                label = f"**{views.shown_label(d.prompt.choices[idx])}**"
            update = await self.sessions.act(game.id, seat, action, user_id=user_id, answers=answers)
        except StaleAction as exc:
            said = ("You already answered that decision, so this was not applied again."
                    if exc.answered else "Your options changed since this page was drawn, so nothing "
                    "was applied: here they are as they stand now.")
            return said, "stale", 409
        except NothingToDecide:
            return "Nothing was applied: there is nothing for you to decide right now.", "stale", 409
        except (TableError, RulesError, web_forms.FormRefused) as exc:
            text = str(exc).replace("**", "").rstrip(".")
            return f"Nothing was applied: {text[:1].lower()}{text[1:]}.", "refused", 409
        said = f"Done: {label}."
        return said + (f" {STALLED_REPLY}" if update.stalled else ""), "ok", 200

    async def player_hand(self, request: web.Request) -> web.Response:
        game, seat, _ = await self._seat(request)
        version = int(request.match_info["version"])
        if version != game.version:
            raise web.HTTPNotFound()

        async def draw() -> bytes:
            snap = await self.sessions.snapshot(game, touch=False)
            png: bytes | None = await self.draw(hand_png, game.game_key, snap.view(seat),
                                                [s.name for s in game.seats])
            return png or b""

        png: bytes = await self._once(self._boards, ("hand", game.id, seat, version), draw)
        if not png:
            raise web.HTTPNotFound()
        return web.Response(body=png, content_type="image/png",
                            headers={"Cache-Control": "private, no-store"})

    async def player_aim(self, request: web.Request) -> web.Response:
        """The seat's private aim preview for a flick it is asked (a GET: nothing applied)."""
        game, seat, _ = await self._seat(request)
        if int(request.match_info["version"]) != game.version or game.status != "active":
            raise web.HTTPNotFound()
        snap = await self.sessions.snapshot(game, touch=False)
        mine = snap.prompt_of(seat)
        view = snap.view(seat)
        form = web_forms.web_form(game.game_key, mine.prompt, view) if mine and mine.prompt.free_form else None
        if form is None or form.style != "flick" or not form.extra["preview"]:
            raise web.HTTPNotFound()
        try:
            angle, power, piece, hand = web_forms.flick_aim(
                form, {k: [v] for k, v in request.query.items() if k in ("angle", "power", "piece", "hand")})
        except web_forms.FormRefused:
            raise web.HTTPNotFound() from None
        names = [s.name for s in game.seats]

        async def draw() -> bytes:
            png: bytes = await self.draw(web_forms.aim_png, game.game_key, view, seat, angle, power,
                                         piece, hand, names)
            return png

        key = ("aim", game.id, seat, game.version, angle, power, piece, hand)
        png: bytes = await self._once(self._boards, key, draw)
        return web.Response(body=png, content_type="image/png", headers={"Cache-Control": "private, no-store"})

    async def player_live(self, request: web.Request) -> web.StreamResponse:
        game, _, _ = await self._seat(request)
        raw = request.query.get("v", "")
        shown = int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 10 else -1
        return await self._counted(request, lambda: self._player_live(request, game, shown))

    async def _player_live(self, request: web.Request, game: GameRow, shown: int) -> web.StreamResponse:
        """The seat's page hears that the game moved on (``changed``: it reloads); nothing of
        the game is sent here."""
        return await self._stream(request, game, PLAYER_HEADERS,
                                  functools.partial(self._seat_stream, game, shown))

    async def _seat_stream(self, game: GameRow, shown: int, _watched: _Watched, wake: asyncio.Event,
                           response: web.StreamResponse) -> None:
        """A player page's stream: ``changed`` once the game is no longer at the version shown."""
        while not self.closing:
            current = await self.storage.get_game(game.id)
            if (current is None or current.status not in SERVED or current.version != shown
                    or not await self.pages_on(current)):
                version = current.version if current is not None else -1
                await response.write(f"event: changed\ndata: {{\"version\": {version}}}\n\n".encode())
                break
            try:
                await asyncio.wait_for(wake.wait(), KEEPALIVE)
                wake.clear()
            except TimeoutError:
                await response.write(b": still here\n\n")

    # -------------------------------------------------------------- lifecycle

    @property
    def url(self) -> str:
        """Where this server answers (its bound address, not the public one)."""
        host, port = self.bind
        shown = f"[{host}]" if ":" in host else host
        return f"http://{shown}:{self.port or port}"

    async def start(self) -> None:
        """Listen, and hear of every update (``Sessions.listeners``); boards link their page."""
        await self.load_links()
        self.closing = False
        self.runner = web.AppRunner(self.app, access_log=None, handle_signals=False,
                                    shutdown_timeout=SHUTDOWN)
        await self.runner.setup()
        site = web.TCPSite(self.runner, self.bind[0], self.bind[1])
        try:
            await site.start()
        except OSError as exc:
            await self.runner.cleanup()
            self.runner = None
            raise WebError(f"the web server cannot listen on {self.url} (HERALD_WEB_BIND): "
                           f"{exc.strerror or exc}.") from None
        addresses = self.runner.addresses
        if addresses:
            self.port = int(addresses[0][1])
        self.attach()
        log.info("web pages served at %s (listening on %s)", self.base_url, self.url)

    def attach(self) -> None:
        """Hear of every update (``Sessions.listeners``), and give boards their link."""
        self.closing = False
        if self.on_update not in self.sessions.listeners:
            self.sessions.listeners.append(self.on_update)
        views.web_links = self.link
        views.player_links = self.player_link
        views.renew_player_link = self.renew_player_link
        self.storage.listen_updates(self._heard_update)
        self.storage.listen_settings(self._settings_heard)

    async def stop(self) -> None:
        self.closing = True
        with contextlib.suppress(ValueError):
            self.sessions.listeners.remove(self.on_update)
        if views.web_links == self.link:
            views.web_links = None
        if views.player_links == self.player_link:
            views.player_links = None
            views.renew_player_link = None
        self.storage.listen_updates(None)
        self.storage.listen_settings(None)
        for watched in self._watched.values():
            for page in watched.pages:
                page.set()
        for task in list(self._tasks):
            task.cancel()
        if self.runner is not None:
            await self.runner.cleanup()
            self.runner = None


__all__ = ["KEEPALIVE", "SERVED", "WebError", "WebServer"]
