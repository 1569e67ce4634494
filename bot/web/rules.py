"""The rules pages on the web: ``/rules/`` lists the games, ``/rules/<game>/`` shows a game's
rules page as HTML.

The pages are the ones ``/rules`` shows in Discord (``docs/rules/<game>.md``, named by each
engine's ``rules_page``), read by :func:`bot.rulebook.page_text` — the copy shipped in the
package, else the checkout's — and turned into HTML by ``markdown-it-py`` with raw HTML off: a
page's ``<script>`` or ``<img onerror=…>`` is shown as text, never as markup. On top of what the
library writes, each heading gets an ``id`` and a link to itself, the ``##`` and ``###`` headings
a table of contents, and each table a box that scrolls sideways on a phone.

**Pictures and links.** A picture the page names beside the pages (``../images/x.png``) is
served at ``/rules/<game>/images/x.png`` — only the pictures that game's page names (read by
:func:`bot.rulebook.picture`, so never a path of a request's choosing) and only when they are
there; a picture that is not there, or lies on another site (the pages send no request away),
leaves its caption as text. Links to other sites and within the page are kept; a link to another
file of the repository keeps only its words.

Routes (:func:`add_routes`; the game key is checked against the registry, anything else gets the
server's one 404 page):

| route | what |
|---|---|
| ``GET /rules/`` | every game with its player count and a link to its rules |
| ``GET /rules/<game>/`` | the game's rules page |
| ``GET /rules/<game>/images/<name>.png`` | a picture that page names |
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

from aiohttp import web
from markdown_it import MarkdownIt
from markdown_it.token import Token

from rules import registry
from rules.engine import Engine
from rules.text import count_range

from ..rulebook import page_text, picture
from .pages import esc, head_html

PICTURE_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,80}\.png")
"""What a served picture's name looks like (the name is also looked up in the page's own list)."""
TOC_LEVELS = (2, 3)
"""Heading levels listed in the table of contents."""
ANCHORED = ("h2", "h3", "h4")
"""Headings that carry a link to themselves."""
_EXTERNAL = ("https://", "http://", "mailto:")


@dataclass(frozen=True)
class Heading:
    level: int
    text: str
    slug: str


@dataclass(frozen=True)
class RulesHtml:
    """A rules page turned into HTML."""

    title: str
    """The page's first ``#`` heading as text ("" when it has none)."""
    body: str
    """The page as HTML (its ``#`` title included)."""
    toc: tuple[Heading, ...]
    pictures: dict[str, str]
    """Served name → the picture's path as the page names it (what :func:`picture` reads)."""


def _markdown() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False}).enable("table")

    def heading_close(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
        token = tokens[idx]
        slug = token.meta.get("slug")
        if slug and token.tag in ANCHORED:
            return (f' <a class="anchor" href="#{esc(slug)}" aria-label="Link to this section">#</a>'
                    f"</{token.tag}>\n")
        return f"</{token.tag}>\n"

    md.add_render_rule("heading_close", heading_close)
    md.add_render_rule("table_open", lambda *_: '<div class="table-wrap"><table>\n')
    md.add_render_rule("table_close", lambda *_: "</table></div>\n")
    return md


_MD = _markdown()


def _plain(inline: Token) -> str:
    """An inline token's words, without their markup."""
    return "".join(c.content for c in inline.children or () if c.type in ("text", "code_inline"))


def slug_of(text: str, taken: set[str]) -> str:
    """A heading's anchor: its words in lower case joined by dashes (any script kept), made
    unique on the page by a number."""
    base = "-".join(re.findall(r"\w+", text.casefold())) or "section"
    slug, n = base, 2
    while slug in taken:
        slug, n = f"{base}-{n}", n + 1
    taken.add(slug)
    return slug


def _as_text(token: Token, content: str) -> None:
    token.type, token.tag, token.nesting, token.content = "text", "", 0, content
    token.attrs, token.children = {}, None


def _inline(inline: Token, pictures: dict[str, str], there: Callable[[str], bool]) -> None:
    """Pictures served from here or left as their caption; links kept or left as their words."""
    opened: list[bool] = []  # per link_open: whether it was kept
    for child in inline.children or ():
        if child.type == "image":
            src = str(child.attrGet("src") or "")
            name = PurePosixPath(src).name
            local = not src.startswith(("//", *_EXTERNAL)) and ":" not in src
            if local and PICTURE_NAME.fullmatch(name) and there(src):
                pictures[name] = src
                child.attrSet("src", f"images/{name}")
                child.attrSet("loading", "lazy")
            else:
                _as_text(child, child.content)
        elif child.type == "link_open":
            href = str(child.attrGet("href") or "")
            keep = href.startswith(("#", *_EXTERNAL))
            opened.append(keep)
            if not keep:
                _as_text(child, "")
        elif child.type == "link_close":
            if opened and not opened.pop():
                _as_text(child, "")


def render(markdown: str, there: Callable[[str], bool] = lambda src: False) -> RulesHtml:
    """A rules page as HTML; ``there(src)`` says whether the picture ``src`` can be served."""
    tokens = _MD.parse(markdown)
    taken: set[str] = set()
    toc: list[Heading] = []
    pictures: dict[str, str] = {}
    title = ""
    for i, token in enumerate(tokens):
        if token.type == "heading_open":
            text = _plain(tokens[i + 1])
            level = int(token.tag[1])
            slug = slug_of(text, taken)
            token.attrSet("id", slug)
            tokens[i + 2].meta["slug"] = slug  # (its heading_close)
            if level == 1 and not title:
                title = text
            if level in TOC_LEVELS:
                toc.append(Heading(level, text, slug))
        elif token.type == "inline":
            _inline(token, pictures, there)
    body = _MD.renderer.render(tokens, _MD.options, {})
    return RulesHtml(title, body, tuple(toc), pictures)


def toc_html(toc: Sequence[Heading]) -> str:
    """The table of contents: the ``##`` headings, each with its ``###`` under it."""
    if not toc:
        return ""
    out = ['<nav class="toc" aria-labelledby="toc-h"><h2 id="toc-h">Contents</h2><ol>']
    open_sub = False
    for i, h in enumerate(toc):
        if h.level == TOC_LEVELS[1] and i and not open_sub:
            out[-1] = out[-1].removesuffix("</li>")
            out.append("<ol>")
            open_sub = True
        elif h.level == TOC_LEVELS[0] and open_sub:
            out.append("</ol></li>")
            open_sub = False
        out.append(f'<li><a href="#{esc(h.slug)}">{esc(h.text)}</a></li>')
    if open_sub:
        out.append("</ol></li>")
    out.append("</ol></nav>")
    return "".join(out)


def _shell(title: str, up: str, body: str) -> str:
    """A page of the site: ``up`` leads from the page's folder to the site's root."""
    return f"""{head_html(title, up)}
<body class="rules">
<a class="skip" href="#rules">Skip to the rules</a>
{body}
</body>
</html>
"""


def players_words(engine: Engine[Any]) -> str:
    return count_range(engine.min_players, engine.max_players, "player")


def index_html(engines: Sequence[Engine[Any]]) -> str:
    """``/rules/``: every game with a rules page, its player count and a link to its rules."""
    rows = "".join(
        f'<li><a href="{esc(e.key)}/"><b>{esc(e.name)}</b></a> · {esc(players_words(e))}</li>'
        for e in engines)
    body = (f'<header><h1>Rules</h1><p class="sub">every game as Herald plays it</p></header>'
            f'<main id="rules" class="rules-page"><ul class="games">{rows}</ul></main>')
    return _shell("Rules — Herald", "../", body)


def game_html(engine: Engine[Any], page: RulesHtml) -> str:
    """``/rules/<game>/``: the game's rules page with its table of contents."""
    header = (f'<header><p class="sub"><a href="../">All rules</a> · {esc(players_words(engine))}'
              "</p></header>")
    body = (f'{header}<main id="rules" class="rules-page">{toc_html(page.toc)}'
            f'<article class="rules-text">{page.body}</article></main>')
    return _shell(f"{page.title or engine.name} — Herald", "../../", body)


@functools.lru_cache(maxsize=16)
def page_of(game: str) -> RulesHtml | None:
    """The game's rules page as HTML (made once), None when its page is not there."""
    engine = registry.get(game)
    text = page_text(engine.rules_page)
    if text is None:
        return None
    return render(text, lambda src: picture(engine.rules_page, src) is not None)


def _engine(request: web.Request) -> Engine[Any]:
    game = request.match_info["game"]
    engines = registry.all_engines()
    if game not in engines:
        raise web.HTTPNotFound()
    return engines[game]


_CACHED = {"Cache-Control": "public, max-age=300"}


async def index(request: web.Request) -> web.Response:
    engines = sorted((e for k, e in registry.all_engines().items() if page_of(k) is not None),
                     key=lambda e: e.name)
    return web.Response(text=index_html(engines), content_type="text/html", headers=_CACHED)


async def game_page(request: web.Request) -> web.Response:
    engine = _engine(request)
    page = page_of(engine.key)
    if page is None:
        raise web.HTTPNotFound()
    return web.Response(text=game_html(engine, page), content_type="text/html", headers=_CACHED)


async def image(request: web.Request) -> web.Response:
    engine = _engine(request)
    page = page_of(engine.key)
    src = page.pictures.get(request.match_info["name"]) if page is not None else None
    data = picture(engine.rules_page, src) if src is not None else None
    if data is None:
        raise web.HTTPNotFound()
    return web.Response(body=data, content_type="image/png", headers=_CACHED)


async def slash(request: web.Request) -> web.Response:
    if "game" in request.match_info:
        _engine(request)
    raise web.HTTPPermanentRedirect(location=f"{request.path.rsplit('/', 1)[1]}/")


def add_routes(router: web.UrlDispatcher) -> None:
    router.add_get("/rules", slash)
    router.add_get("/rules/", index)
    router.add_get("/rules/{game:[a-z_]{1,40}}", slash)
    router.add_get("/rules/{game:[a-z_]{1,40}}/", game_page)
    router.add_get(r"/rules/{game:[a-z_]{1,40}}/images/{name:[a-z0-9_.-]{1,90}}", image)


__all__ = ["Heading", "RulesHtml", "add_routes", "game_html", "index_html", "page_of", "render",
           "slug_of", "toc_html"]
