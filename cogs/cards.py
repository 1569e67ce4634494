"""``/cards``: every game's card list, browsable in Discord — search by name or keyword, a page
at a time, only for the member who asked.

The card list of Alternate Histories (90 cards) used to fill half of its rules page; it lives
here now, read from the game's own data (``rules/<game>/…``), so the list shown is the list the
engine plays. Cult Wars' action cards, Flick of Faith's gods and laws, Hegemony of Faith's action
cards and skills and Petition's citizens and powerups are listed the same way.

Previous / Next are persistent components (``DynamicItem``): the custom_id carries the game, the
page and the search (``herald:cards:<game>:<page>:<search>``), so the buttons keep working after
a restart and need nothing stored. The page number is read by :func:`bot.parsing.parse_id` (the
``Claims`` pattern of :mod:`bot.views`): a forged or out-of-range page gets one sentence.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import TableError
from bot.parsing import parse_id
from bot.refusals import answering, refusals
from bot.text import clip
from bot.views import Claims
from rules import registry
from rules.text import count

PER_PAGE = 8
"""Cards per page: eight of the longest (an Alternate Histories unit with three keywords and a
line of text) fill about a phone screen."""
SEARCH_MAX = 40
"""The longest search kept (it travels in the buttons' custom_id, 100 characters at most)."""
COLOUR = 0xF2BA48


@dataclass(frozen=True)
class CardEntry:
    """One card of a game's list: what a search reads, and its lines on the page."""

    name: str
    summary: str
    """One line of numbers and kind, e.g. "Mechanical unit · 120 power, 6 mobility · cost ✋"."""
    text: str
    """What the card does, in the game's own words (its data)."""
    keywords: tuple[str, ...] = ()
    """Keyword names a search also finds the card by (Air, Rapid Deployment, a Cult Wars aim…)."""

    def matches(self, needle: str) -> bool:
        hay = " ".join((self.name, self.summary, self.text, *self.keywords)).casefold()
        return all(word in hay for word in needle.casefold().split())

    def shown(self) -> str:
        return f"**{self.name}** — {self.summary}\n{self.text}"


def _alternate_histories() -> list[CardEntry]:
    from rules.alternate_histories import content as ah

    out = []
    for c in sorted(ah.CARDS.values(), key=lambda c: (c.era_index, ah.KINDS.index(c.kind), c.name)):
        bits = [f"{ah.ERA_NAMES[c.era]} {ah.KIND_NAMES[c.kind].lower()}"]
        if c.kind == "unit":
            bits.append(f"{c.power} power, {c.mobility} mobility")
        elif c.kind == "infrastructure":
            bits.append(f"{c.power} power")
        bits.append(f"cost {c.cost.text()}")
        bits.append(f"combat value {c.value}")
        only = [ah.NATIONS[n].name for n in c.nations] + [ah.GOVERNANCES[g].name for g in c.governances]
        if only:
            bits.append("only for " + " or ".join(only))
        labels = tuple(c.keyword_labels())
        text = (f"*{', '.join(labels)}.* " if labels and not c.text.startswith(labels[0]) else "") + c.text
        out.append(CardEntry(c.name, " · ".join(bits), text,
                             labels + tuple(ah.KEYWORDS[k][0] for k in c.keywords)))
    return out


def _cult_wars() -> list[CardEntry]:
    from rules.cult_wars import content as cw

    aims = {"self": "on your own cult", "opponent": "aimed at a rival"}
    return [CardEntry(k.name, f"action card · {count(k.count, 'copy', 'copies')} · {aims[k.target]}",
                      k.text, (aims[k.target],)) for k in cw.KINDS]


def _hegemony_of_faith() -> list[CardEntry]:
    from rules.hegemony_of_faith import cards as hf

    actions = [CardEntry(name, f"{hf.ACTION_KIND[name]} action card · "
                               f"{count(hf.ACTION_COUNT[name], 'copy', 'copies')}",
                         hf.ACTION_TEXT[name], (hf.ACTION_KIND[name], "action"))
               for name in hf.ACTION_NAMES]
    skills = [CardEntry(name, f"skill · {hf.skill_limit_text(name)} · {hf.SKILL_TIMING[name]}",
                        hf.SKILL_TEXT[name], ("skill",)) for name in hf.SKILL_NAMES]
    return actions + skills


def _flick_of_faith() -> list[CardEntry]:
    from rules.flick_of_faith import gods, laws

    lasting = {"game": "for the rest of the game", "generation": "for this Generation",
               "instant": "at once"}
    out = [CardEntry(g.name, f"god · {g.card} god card · {g.power}", g.text, ("god", g.card, g.power))
           for g in gods.GODS]
    out += [CardEntry(x.name, f"law · {lasting.get(x.duration, x.duration)}", x.text, ("law",))
            for x in laws.LAWS]
    return out


def _petition() -> list[CardEntry]:
    from rules.petition import content as pt

    seen: dict[str, int] = {}
    first: dict[str, pt.Card] = {}
    for c in pt.CARDS.values():
        key = c.key or c.name
        seen[key] = seen.get(key, 0) + 1
        first.setdefault(key, c)
    out = []
    for key, c in first.items():
        copies = count(seen[key], "copy", "copies")
        if c.is_citizen:
            god = pt.GODS[c.god or ""]
            out.append(CardEntry(c.name, f"citizen of {god.name} · {copies}", c.text,
                                 ("citizen", god.name, *(pt.PILLAR_NAMES[p] for p, v in c.points.items() if v))))
        else:
            side = {"any": "either side", "attack": "the attacking side", "defend": "the defending side"}[c.role]
            out.append(CardEntry(c.name, f"powerup · {copies} · played by {side}", c.text, ("powerup",)))
    return out


def _alternate_histories_keywords() -> dict[str, str]:
    from rules.alternate_histories import content as ah

    return {name: reminder for name, reminder in ah.KEYWORDS.values()}


GLOSSARIES: dict[str, Callable[[], dict[str, str]]] = {
    "alternate_histories": _alternate_histories_keywords,
}
"""Game key → its keywords and what each does: a search for a keyword says it above the cards."""


def glossary_line(game: str, search: str) -> str:
    """What the keyword a search names does (``"Air — May attack naval units."``), or nothing."""
    if game not in GLOSSARIES or not search:
        return ""
    wanted = search.casefold()
    for name, reminder in GLOSSARIES[game]().items():
        if name.casefold() == wanted or name.casefold().rstrip("-✋⚙️") == wanted.rstrip("-✋⚙️"):
            return f"*{name} — {reminder}*"
    return ""


CATALOGUES: dict[str, Callable[[], list[CardEntry]]] = {
    "alternate_histories": _alternate_histories,
    "cult_wars": _cult_wars,
    "flick_of_faith": _flick_of_faith,
    "hegemony_of_faith": _hegemony_of_faith,
    "petition": _petition,
}
"""Game key → its card list (read once, then kept)."""
_KEPT: dict[str, tuple[CardEntry, ...]] = {}


def card_list(game: str) -> tuple[CardEntry, ...]:
    """The game's cards, or a refusal naming the games that have a list."""
    if game not in CATALOGUES or game not in registry.all_engines():
        names = ", ".join(f"{registry.get(k).name} (`{k}`)" for k in CATALOGUES if k in registry.all_engines())
        raise TableError(f"there is no card list for that game; games with cards: {names}.")
    if game not in _KEPT:
        _KEPT[game] = tuple(CATALOGUES[game]())
    return _KEPT[game]


def clean_search(text: str | None) -> str:
    """A search as kept in the buttons: one line, spaces squeezed, at most :data:`SEARCH_MAX`."""
    return " ".join((text or "").split())[:SEARCH_MAX]


def found(game: str, search: str) -> list[CardEntry]:
    return [c for c in card_list(game) if c.matches(search)] if search else list(card_list(game))


def pages_of(n: int) -> int:
    return max(1, -(-n // PER_PAGE))


def cards_embed(game: str, search: str, page: int) -> discord.Embed:
    """Page ``page`` (from 0) of the game's cards that match ``search``."""
    engine = registry.get(game)
    cards = found(game, search)
    total = pages_of(len(cards))
    if page >= total:
        raise TableError(f"there is no page #{page + 1}.")
    title = f"{engine.name} — cards" + (f" matching “{search}”" if search else "")
    if not cards:
        every = len(card_list(game))
        description = (f"No card of the {every} matches “{search}”. Search finds a card by its "
                       "name, a keyword or a word of its text; try a shorter word.")
    else:
        shown = cards[page * PER_PAGE:(page + 1) * PER_PAGE]
        glossary = glossary_line(game, search)
        description = "\n\n".join(([glossary] if glossary else []) + [c.shown() for c in shown])
    embed = discord.Embed(title=clip(title, 256), colour=COLOUR, description=clip(description, 4000))
    embed.set_footer(text=f"Page {page + 1} of {total} · {count(len(cards), 'card')}"
                          + (" found" if search else "") + " · /cards search: finds a name or keyword")
    return embed


class CardsPageButton(Claims, discord.ui.DynamicItem[discord.ui.Button[Any]],
                      template=r"herald:cards:(?P<game>[a-z0-9_]{1,24}):(?P<page>\d{1,19}):(?P<search>.{0,40})"):
    """Previous / Next: page ``page`` of the list, with the same search, in the same message."""

    def __init__(self, game: str, page: int, search: str, *, label: str = "Next ▶",
                 disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.secondary,
                                           disabled=disabled,
                                           custom_id=f"herald:cards:{game}:{page}:{search}"))
        self.game, self.page, self.search = game, page, search

    @classmethod
    def claim(cls, item: Any, match: re.Match[str]) -> CardsPageButton:
        return cls(match["game"], parse_id(match["page"], what="page", lo=0), clean_search(match["search"]),
                   label=str(getattr(item, "label", None) or "Next ▶"))

    async def callback(self, interaction: discord.Interaction) -> None:
        async with answering(interaction):
            embed = cards_embed(self.game, self.search, self.page)
            await interaction.response.edit_message(embed=embed, view=cards_view(self.game, self.search, self.page))


def cards_view(game: str, search: str, page: int) -> discord.ui.View | None:
    """Previous / Next for ``page``; None when everything fits on one page."""
    total = pages_of(len(found(game, search)))
    if total == 1:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(CardsPageButton(game, max(page - 1, 0), search, label="◀ Previous", disabled=page == 0))
    view.add_item(CardsPageButton(game, min(page + 1, total - 1), search, label="Next ▶",
                                  disabled=page == total - 1))
    return view


async def card_game_autocomplete(interaction: discord.Interaction,
                                 current: str) -> list[app_commands.Choice[str]]:
    """The games that have a card list, filtered by what was typed."""
    typed = "".join(ch for ch in current.casefold() if ch.isalnum())
    engines = registry.all_engines()
    return [app_commands.Choice(name=f"{engines[k].name} ({k})", value=k) for k in CATALOGUES
            if k in engines and (typed in k.replace("_", "") or typed in
                                 "".join(ch for ch in engines[k].name.casefold() if ch.isalnum()))]


def search_names(game: str, typed: str) -> list[str]:
    """Card names and keywords of ``game`` that contain ``typed`` (the search's suggestions)."""
    words: dict[str, None] = {}
    for c in card_list(game):
        for w in (c.name, *c.keywords):
            if typed.casefold() in w.casefold():
                words.setdefault(w, None)
    return list(words)


async def search_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    game = str(getattr(interaction.namespace, "game", "") or "")
    if game not in CATALOGUES:
        return []
    return [app_commands.Choice(name=clip(w, 100), value=clip(w, SEARCH_MAX))
            for w in search_names(game, current)[:25]]


class Cards(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="cards")
    @app_commands.autocomplete(game=card_game_autocomplete, search=search_autocomplete)
    @app_commands.describe(game="whose cards", search="a card's name, a keyword or a word of its text",
                           page="which page of the list")
    @refusals
    async def cards(self, interaction: discord.Interaction, game: str, search: str | None = None,
                    page: app_commands.Range[int, 1, 1000] = 1) -> None:
        """Browse a game's cards: search by name or keyword, a page at a time (only you see it)."""
        from cogs.tables import find_game

        key = find_game(game)
        wanted = clean_search(search)
        total = pages_of(len(found(key, wanted)))
        shown = min(page, total) - 1
        embed = cards_embed(key, wanted, shown)
        view = cards_view(key, wanted, shown)
        if view is None:
            await interaction.response.send_message(embed=embed, ephemeral=True)
        else:
            await interaction.response.send_message(embed=embed, view=view, ephemeral=True)


CARDS_ITEMS: Sequence[type[discord.ui.DynamicItem[Any]]] = (CardsPageButton,)


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(*CARDS_ITEMS)
    await bot.add_cog(Cards(bot))


async def teardown(bot: commands.Bot) -> None:
    bot.remove_dynamic_items(*CARDS_ITEMS)
