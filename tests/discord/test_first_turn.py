"""Every rules page opens with "Your first turn on Discord" — what you see, what to press, with a
picture of that game's board and hand — and keeps interpretations, geometry, leak-safety and
balance notes for the end, under "Details for the curious"; ``/rules`` shows the picture."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import simcord

from bot.rulebook import page_text
from rules import registry
from tests.discord.helpers import choose_label, components, opened

GAMES = [key for key in sorted(registry.BUILTIN) if registry.get(key).rules_page]
REPO = Path(__file__).resolve().parents[2]
FIRST = "Your first turn on Discord"
LATE = ("Interpretations", "Balance", "Hidden information", "What the table sees", "The map", "Discs",
        "Physics", "The computer player", "Computer player", "Prompts and their answers")
"""Sections a newcomer does not need before playing: they come after "Details for the curious"."""


def sections(markdown: str) -> list[str]:
    return re.findall(r"^## (.+)$", markdown, flags=re.M)


@pytest.mark.parametrize("game", GAMES)
def test_the_rules_page_opens_with_the_first_turn_and_ends_with_the_details(game: str) -> None:
    text = page_text(registry.get(game).rules_page)
    assert text is not None
    found = sections(text)
    assert found[0] == FIRST
    first = text.split(f"## {FIRST}", 1)[1].split("\n## ", 1)[0]
    for words in ("**Decide**", "**My hand**", "/practice", "by DM", "deadline"):
        assert words in " ".join(first.split()), (game, words)
    (picture,) = re.findall(r"!\[[^\]]+\]\((\.\./images/first-turn-[a-z_]+\.png)\)", first)
    assert (REPO / "docs" / "rules" / picture).resolve().is_file()
    curious = found.index("Details for the curious")
    late = [s for s in found if s in LATE]
    assert late and all(found.index(s) > curious for s in late), found


def test_the_alternate_histories_card_list_left_the_rules_page() -> None:
    rules = page_text(registry.get("alternate_histories").rules_page)
    assert rules is not None and "| Biplane Squadron |" not in rules and "/cards" in rules
    cards = (REPO / "docs" / "cards" / "alternate_histories.md").read_text(encoding="utf-8")
    assert "| Biplane Squadron | Unit |" in cards and "## Ready-made decks" in cards


@pytest.mark.parametrize("game", GAMES)
async def test_rules_in_discord_open_with_the_first_turn_and_its_picture(simcord_env: simcord.Env,
                                                                         game: str) -> None:
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("games")
    reader = guild.add_member(simcord_env.create_user("reader"))
    shown_to = await reader.slash(channel, "rules", game=game)
    summary = opened(shown_to).embeds[0]
    assert any(f.name == "New here?" and FIRST in f.value for f in summary.fields)
    menu = next(c for c in components(opened(shown_to)) if c["options"])
    assert menu["options"][1].label == f"2. {FIRST}"
    await choose_label(reader, shown_to, "Next ▶")
    message: Any = opened(shown_to)
    (embed,) = message.embeds
    assert embed.title.endswith(f"— {FIRST}") and "**Decide**" in embed.description
    (attached,) = message.attachments
    assert attached.filename == f"first-turn-{game}.png"
    assert embed.image.url == f"attachment://first-turn-{game}.png"
    await reader.click(message, label="Next ▶")  # the next page: the picture goes with its page
    await choose_label(reader, shown_to, "Next ▶")
    assert not opened(shown_to).attachments and not opened(shown_to).embeds[0].image
