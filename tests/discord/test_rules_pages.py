"""/rules shows each game's full rules inside Discord — a self-hosted Herald needs no website —
as ephemeral pages with Previous / Next and a section menu that keep working after a restart;
the link to the web is there only when ``HERALD_DOCS_URL`` is set."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
import simcord

from bot.app import HeraldBot
from bot.rulebook import page_text
from rules import registry
from tests.discord.conftest import make_config
from tests.discord.helpers import components, opened, private, reply_text

GAMES = sorted(registry.BUILTIN)
"""Every built-in game: a new game's rules page is checked the day it is registered."""


def _button(message: Any, start: str) -> dict[str, Any]:
    return next(c for c in components(message) if str(c["label"] or "").startswith(start))


def _embed(message: Any) -> Any:
    (embed,) = message.embeds
    return embed


def _plain(markdown: str) -> str:
    """What a rules page says, without Markdown marks: to find a page's words in an embed."""
    for mark in ("**", "__", "`", "*"):
        markdown = markdown.replace(mark, "")
    return " ".join(markdown.split())


def _member(env: simcord.Env) -> tuple[Any, Any]:
    guild = env.create_guild()
    return guild.create_text_channel("games"), guild.add_member(env.create_user("reader"))


@pytest.mark.parametrize("game", GAMES)
async def test_every_page_of_the_rules_can_be_read_in_discord(simcord_env: simcord.Env,
                                                              game: str) -> None:
    channel, reader = _member(simcord_env)
    shown_to = await reader.slash(channel, "rules", game=game)
    assert private(shown_to)
    message = opened(shown_to)
    engine = registry.get(game)
    first = _embed(message)
    assert engine.name in first.title and first.footer.text.startswith("Page 1 of ")
    total = int(first.footer.text.split(" of ")[1].split()[0])
    assert total >= 4
    assert _button(message, "◀")["custom_id"] and any(
        c["options"] for c in components(message))
    seen = [_plain(first.description)]
    for page in range(2, total + 1):
        r = await reader.click(message, label="Next ▶")
        assert not r.followups, reply_text(r)  # the page turned: no refusal, no new message
        message = opened(shown_to)  # the same message, as it reads now
        embed = _embed(message)
        assert embed.footer.text.startswith(f"Page {page} of {total}")
        assert 0 < len(embed.description) <= 4096 and len(embed) <= 6000
        assert "|---" not in embed.description  # tables were turned into lists
        seen.append(_plain(embed.description))
    next_button = _button(message, "Next")
    assert next_button["custom_id"] and message.components  # still there, disabled at the end
    assert [c for c in message.components[0].children if c.label == "Next ▶"][0].disabled
    with pytest.raises(simcord.SetupError, match="disabled"):  # a real user could not click it
        await reader.click(message, label="Next ▶")
    # every paragraph of the page on disk is somewhere in the pages shown
    text = page_text(engine.rules_page)
    assert text is not None
    shown = " ".join(seen)
    for paragraph in text.split("\n\n"):
        words = _plain(paragraph)
        if words and not words.startswith(("#", "|", "```", "-", "1.", "![")) and len(words) > 40:
            assert words[:40] in shown, f"missing from /rules {game}: {words[:60]!r}"
    # every table row (a long card list too) is there, whole, on one page
    lines = text.splitlines()
    for line, after in zip(lines, [*lines[1:], ""], strict=True):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        header = after.startswith("|") and set(after) <= set("|-: ")
        if line.startswith("|") and not header and not set(cells[0]) <= set("-: ") and cells[-1]:
            shown_cells = [c for c in cells if c not in ("—", "–", "-")]  # ("none": left out)
            first, last = _plain(cells[0]), _plain(shown_cells[-1])
            assert any(first in page and last in page for page in seen), \
                f"table row cut or missing in /rules {game}: {first!r}"
    await reader.click(message, label="◀ Previous")
    assert _embed(opened(shown_to)).footer.text.startswith(f"Page {total - 1} of {total}")


async def test_the_section_menu_jumps_and_pages_survive_a_restart(simcord_env: simcord.Env,
                                                                  simcord_bot: HeraldBot,
                                                                  db_path: Path) -> None:
    channel, reader = _member(simcord_env)
    shown_to = await reader.slash(channel, "rules", game="hegemony_of_faith")
    message = opened(shown_to)
    menu = next(c for c in components(message) if c["options"])
    skills = next(o for o in menu["options"] if "Skills" in o.label)
    await reader.select(message, [skills.value], custom_id=menu["custom_id"])
    message = opened(shown_to)
    assert "Skills" in _embed(message).title
    assert _embed(message).footer.text.startswith(f"Page {int(skills.value) + 1} of ")
    await simcord_env.restart_bot(HeraldBot(make_config(db_path)))
    r = await reader.click(message, label="◀ Previous")
    assert not r.followups, reply_text(r)
    assert _embed(opened(shown_to)).footer.text.startswith(f"Page {int(skills.value)} of ")


async def test_the_web_link_is_shown_only_when_configured(simcord_env: simcord.Env,
                                                          simcord_bot: HeraldBot,
                                                          db_path: Path) -> None:
    channel, reader = _member(simcord_env)
    r = await reader.slash(channel, "rules", game="cult_wars")
    assert "https://example.org/herald/docs/rules/cult_wars.md" in str(r.response.embeds[0].to_dict())
    no_link = dataclasses.replace(make_config(db_path), docs_url="")
    await simcord_env.restart_bot(HeraldBot(no_link))
    r = await reader.slash(channel, "rules", game="cult_wars")
    first = str(r.response.embeds[0].to_dict())
    assert "http" not in first and "Full rules" in first


async def test_an_unknown_game_is_one_sentence(simcord_env: simcord.Env) -> None:
    channel, reader = _member(simcord_env)
    r = await reader.slash(channel, "rules", game="no_such_game")
    assert private(r) and "unknown game" in reply_text(r).lower()
