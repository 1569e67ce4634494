"""``/cards``: a game's card list in Discord — out of the rules pages — searched by name or keyword
and read a page at a time with Previous / Next that keep working after a restart; a forged page
is refused in one sentence. Petition's card form moved to ``/pick``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import simcord

from bot.app import HeraldBot
from cogs.cards import PER_PAGE, card_list
from rules.alternate_histories.content import CARDS
from tests.discord.conftest import make_config
from tests.discord.helpers import choose_label, components, opened, private, reply_text
from tests.discord.test_boundaries import button, forge


def _member(env: simcord.Env) -> tuple[Any, Any]:
    guild = env.create_guild()
    return guild.create_text_channel("games"), guild.add_member(env.create_user("reader"))


def _embed(message: Any) -> Any:
    (embed,) = message.embeds
    return embed


async def test_cards_pages_through_every_alternate_histories_card(simcord_env: simcord.Env) -> None:
    channel, reader = _member(simcord_env)
    shown_to = await reader.slash(channel, "cards", game="alternate_histories")
    assert private(shown_to)
    message = opened(shown_to)
    pages = -(-len(CARDS) // PER_PAGE)
    assert _embed(message).footer.text.startswith(f"Page 1 of {pages} · 90 cards")
    seen = [_embed(message).description]
    for page in range(2, pages + 1):
        r = await reader.click(message, label="Next ▶")
        assert not r.followups, reply_text(r)
        message = opened(shown_to)
        embed = _embed(message)
        assert embed.footer.text.startswith(f"Page {page} of {pages}")
        assert len(embed) <= 6000
        seen.append(embed.description)
    text = "\n".join(seen)
    for card in CARDS.values():  # every card, with its numbers and its text, exactly once
        assert text.count(f"**{card.name}** —") == 1, card.name
        assert card.text in text, card.name
    await reader.click(message, label="◀ Previous")
    assert _embed(opened(shown_to)).footer.text.startswith(f"Page {pages - 1} of {pages}")


async def test_cards_search_finds_a_card_by_name_and_by_keyword(simcord_env: simcord.Env) -> None:
    channel, reader = _member(simcord_env)
    by_name = await reader.slash(channel, "cards", game="Alternate Histories", search="spitfire")
    embed = _embed(opened(by_name))
    assert "**Spitfire** — Mechanical unit · 130 power, 7 mobility" in embed.description
    assert "only for Britain" in embed.description and "Page 1 of 1 · 1 card found" in embed.footer.text
    assert not opened(by_name).components  # one page: no buttons
    by_keyword = await reader.slash(channel, "cards", game="alternate_histories", search="Submarine")
    names = {c.name for c in CARDS.values() if "submarine" in c.keywords}
    assert len(names) >= 4
    description = _embed(opened(by_keyword)).description
    assert all(f"**{n}**" in description for n in names)
    assert description.startswith("*Submarine — Fleeing does not tap it.*")  # what the keyword does
    assert "Biplane Squadron" not in description
    # a search longer than a page keeps its words on Next
    air = await reader.slash(channel, "cards", game="alternate_histories", search="air")
    first = _embed(opened(air))
    assert "matching “air”" in first.title and first.footer.text.startswith("Page 1 of ")
    await choose_label(reader, air, "Next ▶")
    second = _embed(opened(air))
    assert "matching “air”" in second.title and second.footer.text.startswith("Page 2 of ")
    assert second.description != first.description
    nothing = await reader.slash(channel, "cards", game="alternate_histories", search="zzz")
    assert "No card of the 90 matches “zzz”" in _embed(opened(nothing)).description
    # autocomplete: the games with cards, then names and keywords of the game chosen
    games = await reader.autocomplete(channel, "cards", "game", "hist")
    assert [c["value"] for c in games] == ["alternate_histories"]


@pytest.mark.parametrize("game", ["cult_wars", "flick_of_faith", "hegemony_of_faith", "petition"])
async def test_cards_lists_the_other_games_cards_too(simcord_env: simcord.Env, game: str) -> None:
    channel, reader = _member(simcord_env)
    r = await reader.slash(channel, "cards", game=game)
    message = opened(r)
    text = _embed(message).description
    first = card_list(game)[0]
    assert f"**{first.name}**" in text and first.text in text
    if len(card_list(game)) > PER_PAGE:
        await reader.click(message, label="Next ▶")
        assert f"**{card_list(game)[PER_PAGE].name}**" in _embed(opened(r)).description


async def test_cards_of_a_game_without_cards_is_one_sentence(simcord_env: simcord.Env) -> None:
    channel, reader = _member(simcord_env)
    r = await reader.slash(channel, "cards", game="duel")  # (the tests' own game has no list)
    text = reply_text(r)
    assert private(r) and "no card list for that game" in text and "Alternate Histories" in text


async def test_cards_buttons_survive_a_restart_and_a_forged_page_is_refused(
        simcord_env: simcord.Env, simcord_bot: HeraldBot, db_path: Path) -> None:
    channel, reader = _member(simcord_env)
    shown_to = await reader.slash(channel, "cards", game="alternate_histories", search="unit")
    message = opened(shown_to)
    await reader.click(message, label="Next ▶")
    await simcord_env.restart_bot(HeraldBot(make_config(db_path)))
    r = await choose_label(reader, shown_to, "Next ▶")
    assert not r.followups, reply_text(r)
    assert _embed(opened(shown_to)).footer.text.startswith("Page 3 of ")
    assert "matching “unit”" in _embed(opened(shown_to)).title
    ids = [c["custom_id"] for c in components(opened(shown_to))]
    assert all(cid.startswith("herald:cards:alternate_histories:") and cid.endswith(":unit") for cid in ids)
    for forged, sentence in (("herald:cards:alternate_histories:" + "9" * 19 + ":", "there is no page #"),
                             ("herald:cards:alternate_histories:999:", "there is no page #1000"),
                             ("herald:cards:duel:0:", "no card list for that game")):
        answer = reply_text(await forge(reader, opened(shown_to), button(forged)))
        assert sentence in answer.lower(), answer
    # the list shown is untouched by the refused clicks
    assert _embed(opened(shown_to)).footer.text.startswith("Page 3 of ")
