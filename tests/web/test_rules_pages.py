"""The rules pages on the web (``/rules/``): the index of the games, each game's rules page as
HTML (headings with anchors, a table of contents, tables as tables), the pictures a page names
and nothing else, no raw HTML from a page, and the "Rules" link of the game and player pages."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from bot.rulebook import page_text, picture
from bot.web import WebServer
from bot.web import rules as web_rules
from bot.web.pages import NOT_FOUND
from bot.web.server import CSP
from rules import registry
from tests.support.sessions import HOST, Env
from tests.web.conftest import BASE, Client, page_path, played

GAMES = sorted(k for k, e in registry.all_engines().items() if page_text(e.rules_page) is not None)
"""The games with a rules page (the five; a test's own game has none)."""


class _Tags(HTMLParser):
    """Every start tag of a page with its attributes."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def _tags(body: str) -> list[tuple[str, dict[str, str | None]]]:
    parser = _Tags()
    parser.feed(body)
    return parser.tags


async def test_the_rules_index_lists_every_game_with_its_player_count(client: Client) -> None:
    r = await client.get("/rules/")
    assert r.status == 200 and r.content_type == "text/html"
    assert r.headers["Content-Security-Policy"] == CSP
    body = await r.text()
    for key in GAMES:
        engine = registry.get(key)
        assert f'href="{key}/"' in body and engine.name in body
        assert web_rules.players_words(engine) in body
    assert "<script" not in body  # (works without script)
    bare = await client.get("/rules", allow_redirects=False)
    assert bare.status == 308 and bare.headers["Location"] == "rules/"


@pytest.mark.parametrize("game", GAMES)
async def test_each_games_rules_page_is_served_as_html_with_its_contents(client: Client,
                                                                        game: str) -> None:
    r = await client.get(f"/rules/{game}/")
    assert r.status == 200 and r.content_type == "text/html"
    assert r.headers["Content-Security-Policy"] == CSP
    body = await r.text()
    tags = _tags(body)
    ids = {a["id"] for t, a in tags if a.get("id")}
    sections = [line[3:].strip() for line in (page_text(registry.get(game).rules_page) or "").splitlines()
                if line.startswith("## ")]
    assert sections and body.count('class="anchor"') >= len(sections)
    toc = [a["href"] or "" for t, a in tags if t == "a" and (a.get("href") or "").startswith("#")
           and a.get("class") != "anchor" and a.get("class") != "skip"]
    assert len(toc) >= len(sections)
    assert all(href[1:] in ids for href in toc)  # (every entry leads to its heading)
    assert ("link", {"rel": "stylesheet", "href": "../../static/herald.css"}) in tags
    assert "<script" not in body and "<img" in body
    if "|---" in (page_text(registry.get(game).rules_page) or "").replace(" ", ""):
        assert "<table>" in body and "<th>" in body
    assert (await client.get(f"/rules/{game}", allow_redirects=False)).headers["Location"] == f"{game}/"


@pytest.mark.parametrize("game", GAMES)
async def test_the_first_turn_picture_a_page_names_is_served(client: Client, game: str) -> None:
    body = await (await client.get(f"/rules/{game}/")).text()
    sources = [a["src"] for t, a in _tags(body) if t == "img"]
    assert sources == [f"images/first-turn-{game}.png"]
    r = await client.get(f"/rules/{game}/{sources[0]}")
    assert r.status == 200 and r.content_type == "image/png"
    assert await r.read() == picture(registry.get(game).rules_page, f"../images/first-turn-{game}.png")


@pytest.mark.parametrize("path", [
    "/rules/chess/",  # not a game of the registry
    "/rules/chess",
    "/rules/petition/images/first-turn-cult_wars.png",  # another page's picture
    "/rules/petition/images/petition.png",  # a picture beside it that the page does not name
    "/rules/petition/images/..%2F..%2Fpyproject.toml",
    "/rules/petition/images/../../../pyproject.toml",
    "/rules/petition/images/web_page.png",
    "/rules/petition/cards.md",
    "/rules/petition/../../static/herald.css.map",
])
async def test_a_path_outside_the_rules_and_their_pictures_gets_the_one_404_page(
        client: Client, path: str) -> None:
    r = await client.get(path, allow_redirects=False)
    assert r.status == 404 and await r.text() == NOT_FOUND, path


def test_a_rules_page_cannot_inject_markup() -> None:
    """Raw HTML is off: a page's script, an image's handler and a javascript: link stay text."""
    page = web_rules.render(
        "# Title\n\n<script>alert(1)</script>\n\nSome <img src=x onerror=alert(2)> text and a "
        "[link](javascript:alert(3)).\n\n## A <b>bold</b> heading\n\n| a | b |\n|---|---|\n"
        "| <i>x</i> | 2 |\n")
    tags = [t for t, _ in _tags(page.body)]
    assert "script" not in tags and "img" not in tags and "i" not in tags and "b" not in tags
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page.body
    assert "javascript:" not in page.body.replace("[link](javascript:alert(3))", "")
    assert page.toc[0].text == "A <b>bold</b> heading"
    assert "&lt;b&gt;bold&lt;/b&gt;" in web_rules.toc_html(page.toc)
    assert "<table>" in page.body and "&lt;i&gt;x&lt;/i&gt;" in page.body


def test_a_picture_that_is_not_there_or_lies_elsewhere_leaves_its_caption() -> None:
    page = web_rules.render(
        "![the board](../images/first-turn-petition.png)\n\n![far away](https://example.org/x.png)\n\n"
        "![a path](../../secret.png)\n", there=lambda src: src == "../images/first-turn-petition.png")
    assert [a["src"] for t, a in _tags(page.body) if t == "img"] == ["images/first-turn-petition.png"]
    assert "far away" in page.body and "example.org" not in page.body
    assert page.pictures == {"first-turn-petition.png": "../images/first-turn-petition.png"}
    assert "a path" in page.body  # (served by name only if the page's own list holds it)
    none_there = web_rules.render("![the board](../images/first-turn-petition.png)\n")
    assert "<img" not in none_there.body and "the board" in none_there.body


def test_headings_get_unique_anchors_in_any_script() -> None:
    page = web_rules.render("# T\n\n## Setup\n\n### Setup\n\n## Ход игры\n\n## Setup\n")
    assert [h.slug for h in page.toc] == ["setup", "setup-2", "ход-игры", "setup-3"]
    assert [h.level for h in page.toc] == [2, 3, 2, 2]
    assert '<h2 id="setup">Setup <a class="anchor" href="#setup"' in page.body
    toc = web_rules.toc_html(page.toc)
    assert toc.count("<ol>") == 2 and toc.count("</ol>") == 2  # (the ### nested under its ##)


def test_links_to_other_sites_are_kept_and_links_to_repository_files_keep_their_words() -> None:
    page = web_rules.render("[site](https://example.org/) · [file](../cards/petition.md) · "
                            "[here](#setup)\n")
    hrefs = [a["href"] for t, a in _tags(page.body) if t == "a"]
    assert hrefs == ["https://example.org/", "#setup"]
    assert "file" in page.body and ".md" not in page.body


async def test_the_game_and_player_pages_link_to_their_games_rules(env: Env, web: WebServer,
                                                                    client: Client) -> None:
    game = await played(env, "petition", players=2)
    body = await (await client.get(await page_path(web, game.id))).text()
    assert '<a href="../../rules/petition/">Rules</a>' in body
    s = env.sessions
    table = await s.open_table(guild_id=1, channel_id=2, host_id=HOST, host_name="Ann",
                               game_key="cult_wars", seed=9, bots=2)
    await s.start(table.id, HOST)
    link = await web.player_link(await s.get(table.id), 0)
    assert link is not None
    path = link.removeprefix(BASE)
    mine = await (await client.get(path)).text()
    assert re.search(r'<a href="\.\./\.\./\.\./rules/cult_wars/">Rules</a>', mine)
    # both lead to the rules page from where they are served
    assert (await client.get(f"{path}../../../rules/cult_wars/")).status == 200
