"""The Discord half of the typed duel (:mod:`tests.support.typed_duel`): the smallest cog a
free-form prompt needs.

* a **panel** for the ``"bid"`` free-form prompts: what **Decide** shows and what the bot DMs when
  a secret bid opens; here it says how to answer;
* a **command**, ``/bid card:N``, that finds the member's decision and sends the answer through
  ``controller.act``: the engine checks it, and a bid sent twice counts once.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.forms import Payload
from bot.platform import Platform, platform_of
from bot.refusals import refusals
from bot.session import Decision
from bot.text import humanise

from .typed_duel import KEY


class TypedDuelCog(commands.Cog):
    def __init__(self, herald: Platform) -> None:
        self.herald = herald
        self.controller = herald.controller

    async def cog_load(self) -> None:
        self.herald.forms.add_panel(KEY, "bid", self.panel)

    async def cog_unload(self) -> None:
        self.herald.forms.remove(KEY)

    async def panel(self, d: Decision) -> Payload:
        cards = ", ".join(str(c) for c in d.prompt.params["cards"])
        return {"content": f"{humanise(d.prompt.text, d.game)}\n"
                           f"Your cards: {cards}. Type `/bid card:` and one of them."}

    @app_commands.command(name="bid")
    @app_commands.describe(card="the card you bid", game="the game number (default: this thread's)")
    @refusals
    async def bid(self, interaction: discord.Interaction, card: int, game: int | None = None) -> None:
        """Typed High Card Duel: bid one of your cards in secret."""
        row = await self.controller.resolve(interaction, game)
        d = await self.controller.decision(interaction, row, None, game_key=KEY)
        await self.controller.act(interaction, d, {"type": "bid", "card": card})
        await interaction.followup.send(f"You bid {card} in game #{row.id}.", ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(TypedDuelCog(platform_of(bot)))
