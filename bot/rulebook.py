"""``/rules``: every game's full rules page, read from the installed package and shown in Discord
as ephemeral embed pages with Previous / Next buttons and a section menu.

A self-hosted Herald must not depend on a website for its rules: the pages players read
(``docs/rules/<game>.md`` in the repository, named by each engine's ``rules_page``) are shipped
inside the package as ``bot/rulepages/<game>.md`` when Herald is built (see ``setup.py``), and
read from the repository itself when Herald runs from a checkout. ``HERALD_DOCS_URL``, when set,
only adds a link to the page on the web.

The Markdown is rewritten for Discord, which renders neither tables nor hard-wrapped
paragraphs well on a phone: paragraphs and list items are unwrapped into single lines, headings
become bold lines, each table row becomes one bullet, and relative links keep only their text.
Pages are cut at section boundaries where possible and kept short (:data:`PAGE_CHARS`), so one
page fits a phone screen or two.

The buttons carry only the game key and the page number (a ``DynamicItem``), so they keep
working after a restart and need no stored state.

A paragraph that is only a picture (``![what it shows](../images/x.png)``, such as the board
and hand of "Your first turn on Discord" each page opens with) becomes the embed image of the page
it falls on, attached to the message (read from ``bot/rulepages/images/`` when a build ships it,
else from the checkout's ``docs/images/``); its description is the image's caption line. A picture
that is not there leaves the caption alone.
"""

from __future__ import annotations

import functools
import io
import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import discord

from rules import registry
from rules.engine import Engine
from rules.search import HINTS
from rules.text import count_range

from .platform import platform_of
from .refusals import answering
from .text import clip

PAGE_CHARS = 1800
"""Longest page body: about two phone screens of text."""
MENU_MAX = 25
"""Discord's limit on the options of one select menu."""
COLOUR = 0xF2BA48
REPO_ROOT = Path(__file__).resolve().parents[1]
PACKAGED = "rulepages"
"""The folder inside the ``bot`` package where the build puts the rules pages."""


@dataclass(frozen=True)
class Page:
    section: str
    body: str
    image: str = ""
    """The picture shown with this page (its path as the Markdown names it), or none."""


# ------------------------------------------------------------------ finding the page


def page_text(rules_page: str) -> str | None:
    """The Markdown of a rules page named by its repository path (``docs/rules/x.md``): the copy
    shipped in the package, else the checkout's file; None when neither is there."""
    if not rules_page:
        return None
    name = Path(rules_page).name
    shipped = resources.files(__package__ or "bot").joinpath(PACKAGED, name)
    try:
        return shipped.read_text(encoding="utf-8")
    except (FileNotFoundError, NotADirectoryError, OSError):
        pass
    local = (REPO_ROOT / rules_page).resolve()
    if REPO_ROOT in local.parents and local.suffix == ".md" and local.is_file():
        return local.read_text(encoding="utf-8")
    return None


# ------------------------------------------------------------------ Markdown → Discord

_LIST = re.compile(r"^(\s*)([-*+]|\d{1,3}[.)])\s+(.*)$")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_TABLE_RULE = re.compile(r"^\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?$")
_IMAGE = re.compile(r"!\[([^\]]*)\]\([^)]*\)")
_PICTURE = re.compile(r"^!\[([^\]]*)\]\(([^)\s]+)\)$")
"""A paragraph that is only a picture."""
_LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")


def _links(text: str) -> str:
    text = _IMAGE.sub(r"\1", text)
    return _LINK.sub(lambda m: f"[{m[1]}]({m[2]})" if m[2].startswith(("https://", "http://"))
                     else m[1], text)


def _cells(row: str) -> list[str]:
    row = row.strip()
    row = row[1:] if row.startswith("|") else row
    row = row[:-1] if row.endswith("|") and not row.endswith("\\|") else row
    return [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", row)]


_NONE = ("—", "–", "-")
"""What a rules table's cell holds for "none"."""


def _table(rows: list[str]) -> list[str]:
    """A Markdown table as one bullet per row: the first cell in bold, the others after it with
    their column names (a table does not fit a phone; a list does); a cell that only marks
    "none" (a dash) is left out, name and all."""
    head = _cells(rows[0])
    body = [_cells(r) for r in rows[1:] if not _TABLE_RULE.match(r.strip())]
    out = []
    for cells in body:
        first = cells[0] if cells else ""
        rest = [f"{head[i]}: {c}" if i < len(head) and head[i] else c
                for i, c in enumerate(cells[1:], start=1) if c and c not in _NONE]
        first_shown = first if first.startswith("**") else f"**{first}**"
        out.append(f"• {first_shown}" + (f" — {'; '.join(rest)}" if rest else ""))
    return out


@dataclass(frozen=True)
class Block:
    section: str
    """The ``##`` heading the block is under."""
    text: str
    """Already in Discord's Markdown."""
    kind: str
    """``para``, ``item`` (a list item or a table row), ``heading``, ``section``, ``code`` or
    ``image`` (a picture: ``text`` is its caption)."""
    image: str = ""
    """For an ``image`` block, the picture's path as the Markdown names it."""


def blocks(markdown: str) -> list[Block]:
    """The page as blocks: paragraphs, list items, headings, table rows and code blocks."""
    out: list[Block] = []
    section = ""
    para: list[str] = []
    item: list[str] | None = None
    table: list[str] = []
    lines = re.sub(r"<!--.*?-->", "", markdown, flags=re.S).splitlines()

    def flush() -> None:
        nonlocal item
        picture = _PICTURE.match(" ".join(para)) if para else None
        if picture is not None:
            out.append(Block(section, f"*🖼️ {picture[1]}*", "image", picture[2]))
            para.clear()
        if para:
            out.append(Block(section, _links(" ".join(para)), "para"))
            para.clear()
        if item is not None:
            out.append(Block(section, _links(" ".join(item)), "item"))
            item = None
        if table:
            out.extend(Block(section, _links(r), "item") for r in _table(table))
            table.clear()

    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if stripped.startswith("```"):
            flush()
            fence = [line]
            i += 1
            while i < len(lines) and not lines[i].strip().startswith("```"):
                fence.append(lines[i])
                i += 1
            fence.append("```")
            out.append(Block(section, "\n".join(fence), "code"))
            i += 1
            continue
        heading = _HEADING.match(stripped)
        if heading:
            flush()
            level, title = len(heading[1]), _links(heading[2])
            if level == 1:
                pass  # the page title: the embed says it
            elif level == 2:
                section = title
                out.append(Block(section, f"__**{title}**__", "section"))
            else:
                out.append(Block(section, f"**{title}**", "heading"))
        elif not stripped:
            flush()
        elif stripped.startswith("|"):
            if para or item is not None:
                flush()
            table.append(stripped)
        elif (listed := _LIST.match(line)) is not None:
            flush()
            marker = "•" if listed[2] in "-*+" else listed[2]
            indent = "  " if len(listed[1]) >= 2 else ""
            item = [f"{indent}{marker} {listed[3].strip()}"]
        elif item is not None:
            item.append(stripped)
        else:
            if table:
                flush()
            para.append(stripped)
        i += 1
    flush()
    return out


def _split_long(text: str, limit: int) -> list[str]:
    """A block longer than a page, cut at line, then sentence, then word boundaries."""
    if len(text) <= limit:
        return [text]
    pieces: list[str] = []
    current = ""
    for unit in re.split(r"(?<=\n)|(?<=[.;:!?] )|(?<= )", text):
        while len(unit) > limit:  # a single word longer than a page
            pieces.append(current + unit[: limit - len(current)])
            unit, current = unit[limit - len(current):], ""
        if len(current) + len(unit) > limit:
            pieces.append(current.rstrip())
            current = ""
        current += unit
    if current.strip():
        pieces.append(current.rstrip())
    return [p for p in pieces if p.strip()]


def paginate(markdown: str, limit: int = PAGE_CHARS) -> list[Page]:
    """The page's blocks packed into pages of at most ``limit`` characters; a ``##`` section
    starts a new page when the current one is already half full, or when it has a picture and
    the page holds another section (the words under the title may lead into it). List items follow each other
    and a heading its text line by line; other blocks are a blank line apart."""
    pages: list[Page] = []
    body = ""
    section = ""
    previous = ""
    image = ""

    def close() -> None:
        nonlocal body, image
        if body:
            pages.append(Page(section, body, image))
            body, image = "", ""

    every = blocks(markdown)
    pictured = {b.section for b in every if b.kind == "image"}
    for block in every:
        starts_section = block.kind == "section"
        for piece in _split_long(block.text, limit):
            tight = previous in ("heading", "section") or (previous == block.kind == "item")
            joined = body + ("\n" if tight else "\n\n") + piece if body else piece
            fresh = starts_section and (len(body) > limit // 2 or (block.section in pictured and section))
            if body and (len(joined) > limit or fresh):
                close()
                joined = piece
            if not body or not section:  # (a page opening with the title's words: its first section)
                section = block.section
            if block.kind == "image" and image:  # one picture a page: a second starts a page
                close()
                section, joined = block.section, piece
            body = joined
            previous = block.kind
            starts_section = False
            if block.kind == "image":
                image = block.image
    close()
    return pages


@functools.lru_cache(maxsize=32)
def _pages_of(rules_page: str) -> tuple[Page, ...] | None:
    text = page_text(rules_page)
    return None if text is None else tuple(paginate(text))


@functools.lru_cache(maxsize=16)
def picture(rules_page: str, src: str) -> bytes | None:
    """The picture ``src`` a rules page names (a PNG beside the pages): the copy shipped in the
    package, else the checkout's file; None when neither is there."""
    name = Path(src).name
    if not name.endswith(".png") or not rules_page:
        return None
    shipped = resources.files(__package__ or "bot").joinpath(PACKAGED, "images", name)
    try:
        return shipped.read_bytes()
    except (FileNotFoundError, NotADirectoryError, OSError):
        pass
    local = ((REPO_ROOT / rules_page).parent / src).resolve()
    if REPO_ROOT in local.parents and local.is_file():
        return local.read_bytes()
    return None


def _page_picture(engine: Engine[Any], page: int) -> tuple[str, bytes] | None:
    """(file name, bytes) of the picture on ``page`` of the rules, if it has one that is there."""
    full = _pages_of(engine.rules_page) or ()
    if not 1 <= page <= len(full) or not full[page - 1].image:
        return None
    data = picture(engine.rules_page, full[page - 1].image)
    return None if data is None else (Path(full[page - 1].image).name, data)


def rules_files(engine: Engine[Any], page: int) -> list[discord.File]:
    """The files to attach to ``page`` of the rules: its picture, or nothing."""
    shown = _page_picture(engine, page)
    return [] if shown is None else [discord.File(io.BytesIO(shown[1]), filename=shown[0])]


# ------------------------------------------------------------------ embeds and components


def _online(engine: Engine[Any], docs_url: str) -> str | None:
    return f"{docs_url}{engine.rules_page}" if docs_url and engine.rules_page else None


def page_count(engine: Engine[Any]) -> int:
    """The summary page plus the full rules' pages."""
    return 1 + len(_pages_of(engine.rules_page) or ())


def option_lines(engine: Engine[Any]) -> list[str]:
    """The options ``/rules`` lists: the game's own, from its engine's table (each with what it
    does, its default and range), then the hints option every game takes."""
    return [f"`{o.key}` — {o.describe()}" for o in (*engine.options, HINTS)]


def rules_embed(engine: Engine[Any], page: int, docs_url: str = "") -> discord.Embed:
    """Page ``page`` (0 = the summary, then the full rules) of ``engine``'s rules."""
    full = _pages_of(engine.rules_page) or ()
    total = 1 + len(full)
    page = max(0, min(page, total - 1))
    link = _online(engine, docs_url)
    if page == 0:
        embed = discord.Embed(title=f"{engine.name} — rules", colour=COLOUR,
                              description=clip(engine.summary or "No summary yet.", 3500))
        embed.add_field(name="Players", value=count_range(engine.min_players, engine.max_players, "player"))
        embed.add_field(name="Options (`/play options:`)", inline=False,
                        value=clip("\n".join(option_lines(engine)), 1000))
        if full and full[0].section.startswith("Your first turn"):
            embed.add_field(name="New here?", inline=False,
                            value=f"Press **Next**: **{full[0].section}** — what you see and what "
                                  "to press, with a picture.")
        if full:
            embed.add_field(name="Full rules", inline=False,
                            value=f"{len(full)} page{'s' if len(full) != 1 else ''}: press "
                                  "**Next** or pick a section below."
                                  + (f"\nOn the web: {link}" if link else ""))
        elif link:
            embed.add_field(name="Full rules", value=link, inline=False)
    else:
        shown = full[page - 1]
        title = f"{engine.name} — {shown.section}" if shown.section else f"{engine.name} — rules"
        embed = discord.Embed(title=clip(title, 256), colour=COLOUR, description=shown.body)
        pictured = _page_picture(engine, page)
        if pictured is not None:
            embed.set_image(url=f"attachment://{pictured[0]}")
    footer = f"Page {page + 1} of {total}"
    if page and link:
        footer += " · the same rules are on the web: see the first page"
    embed.set_footer(text=footer)
    return embed


class RulesPageButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                      template=r"herald:rules:(?P<game>[a-z0-9_]{1,40}):(?P<page>[0-9]{1,4})"):
    """Previous / Next: shows page ``page`` of the game's rules in the same ephemeral message."""

    def __init__(self, game: str, page: int, *, label: str = "Next", disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.secondary,
                                           disabled=disabled,
                                           custom_id=f"herald:rules:{game}:{page}"))
        self.game, self.page = game, page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: Any,
                             match: re.Match[str], /) -> RulesPageButton:
        return cls(match["game"], int(match["page"]), label=str(item.label or "Next"))

    async def callback(self, interaction: discord.Interaction) -> None:
        await show_page(interaction, self.game, self.page)


class RulesSectionSelect(discord.ui.DynamicItem[discord.ui.Select[Any]],
                         template=r"herald:rulesmenu:(?P<game>[a-z0-9_]{1,40})"):
    """The section menu: jump straight to a page of the game's rules."""

    def __init__(self, game: str, options: list[discord.SelectOption] | None = None) -> None:
        super().__init__(discord.ui.Select(custom_id=f"herald:rulesmenu:{game}",
                                           placeholder="Go to a section…",
                                           options=options or [discord.SelectOption(label="…")]))
        self.game = game

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: Any,
                             match: re.Match[str], /) -> RulesSectionSelect:
        return cls(match["game"], list(item.options) or None)

    async def callback(self, interaction: discord.Interaction) -> None:
        data: dict[str, Any] = dict(interaction.data or {})
        values = data.get("values") or ["0"]
        chosen = str(values[0])
        await show_page(interaction, self.game, int(chosen) if chosen.isascii() and chosen.isdigit() and len(chosen) <= 4 else 0)


def rules_view(engine: Engine[Any], page: int) -> discord.ui.View | None:
    """Previous / Next and the section menu for ``page``; None when there is a single page."""
    full = _pages_of(engine.rules_page) or ()
    total = 1 + len(full)
    if total == 1:
        return None
    page = max(0, min(page, total - 1))
    view = discord.ui.View(timeout=None)
    view.add_item(RulesPageButton(engine.key, max(page - 1, 0), label="◀ Previous",
                                  disabled=page == 0))
    view.add_item(RulesPageButton(engine.key, min(page + 1, total - 1), label="Next ▶",
                                  disabled=page == total - 1))
    titles = ["Summary"] + [p.section or "Rules" for p in full]
    first = max(0, min(page - MENU_MAX // 2, total - MENU_MAX))
    options = []
    for number in range(first, min(total, first + MENU_MAX)):
        repeat = number > 0 and titles[number] == titles[number - 1]
        label = f"{number + 1}. {titles[number]}" + (" (continued)" if repeat else "")
        options.append(discord.SelectOption(label=clip(label, 100), value=str(number),
                                            default=number == page))
    view.add_item(RulesSectionSelect(engine.key, options))
    return view


async def send_rules(interaction: discord.Interaction, game: str) -> None:
    """The answer to ``/rules game``: the first page, ephemeral, with its buttons."""
    engine = registry.get(game)
    docs_url = platform_of(interaction.client).config.docs_url
    view = rules_view(engine, 0)
    if view is None:
        await interaction.response.send_message(embed=rules_embed(engine, 0, docs_url), ephemeral=True)
    else:
        await interaction.response.send_message(embed=rules_embed(engine, 0, docs_url),
                                                view=view, ephemeral=True)


async def show_page(interaction: discord.Interaction, game: str, page: int) -> None:
    """A button or the menu was used: the same message now shows ``page``."""
    async with answering(interaction):
        engine = registry.get(game)
        docs_url = platform_of(interaction.client).config.docs_url
        view = rules_view(engine, page)
        await interaction.response.edit_message(embed=rules_embed(engine, page, docs_url), view=view,
                                                attachments=rules_files(engine, page))


RULES_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (RulesPageButton, RulesSectionSelect)

__all__ = ["PAGE_CHARS", "RULES_ITEMS", "Block", "Page", "blocks", "page_count", "page_text", "paginate",
           "picture", "rules_embed", "rules_files", "rules_view", "send_rules", "show_page"]
