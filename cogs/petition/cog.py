"""Petition on Discord: the card form for every decision that picks several cards.

A face-down bid to a god, the campaign's face-down cards on both sides, reinforcements in the
battle, the solo game's attack and additions and a tithe are all one free-form prompt
(``"cards"``): the form of :mod:`cogs.petition.form` is DMed when such a secret decision opens
and shown ephemerally by **Decide** and ``/pick`` (``/cards`` lists the game's cards, see
:mod:`cogs.cards`). Picking in the menu redraws the form with the running total;
**Confirm** sends the pick as one engine action, **Pass** sends no card where the rules allow it.
Small choices (draw or take beads, petition, challenge, withdraw or meet) are enumerated choices:
the platform shows them with no code here.

Every form answers one decision (its custom_ids carry the seat's prompt instance), so a double tap
on **Confirm**, or an old form, is refused under the game's lock instead of counted twice.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import TableError
from bot.forms import Payload, form_items
from bot.platform import Platform, platform_of
from bot.refusals import answering, refusals
from bot.session import Decision, Ticket
from bot.text import humanise
from rules.petition.views import read_view

from . import form

KEY = "petition"
FREE_FORM = "cards"
JSON = dict[str, Any]


def _cog(interaction: discord.Interaction) -> PetitionCog:
    cog = interaction.client.get_cog("PetitionCog")  # type: ignore[attr-defined]
    assert isinstance(cog, PetitionCog)
    return cog


FORMS = form_items("herald:pt", "herald:ptb", _cog)
"""The card form's menu and buttons (custom_id prefixes fixed: forms sent earlier keep working)."""


def answer(ids: list[str]) -> JSON:
    """The engine action for a pick (the prompt contract: ``{"type": "cards", "cards": [...]}``;
    no card is a pass, a surrender or a bid of beads alone, as the prompt says)."""
    return {"type": "cards", "cards": list(ids)}


class PetitionCog(commands.Cog):
    def __init__(self, herald: Platform) -> None:
        self.herald = herald
        self.controller = herald.controller

    async def cog_load(self) -> None:
        # (the form's answer reads back the cards laid: their "face-down cards" line is no news)
        self.herald.forms.add_panel(KEY, FREE_FORM, self.panel, echoes=("own_cards",))

    async def cog_unload(self) -> None:
        self.herald.forms.remove(KEY)

    async def context(self, interaction: discord.Interaction, game_id: int, opened: int) -> Decision:
        """The clicking player's card decision this form answers, or a refusal saying why not."""
        d = await self.controller.decision(
            interaction, game_id, Ticket(opened), game_key=KEY,
            stale="this card form is out of date: you answered it already, or the game has moved on. "
                  "Press **Decide** on the board for your current decision.")
        if d.prompt.free_form != FREE_FORM:
            raise TableError("your decision now is not a pick of cards; press **Decide** on the board.")
        return d

    @staticmethod
    def known(d: Decision) -> dict[str, Any]:
        """What the form's summary needs from the seat's own view: the gods' names and, for a
        bid, the beads this seat offered (the god weighs them with the citizens)."""
        view = read_view(d.view())
        gods = {g["key"]: g["name"] for g in view["gods"]}
        beads = None
        pet = view["petition"]
        if d.prompt.params.get("purpose") == "bid" and pet:
            side = next((b for b in (pet["holder"], pet["challenger"]) if b and b["seat"] == d.seat), None)
            beads = side["beads"] if side else None
        return {"gods": gods, "beads": beads}

    def payload(self, d: Decision, ids: list[str], notes: list[str] | None = None) -> Payload:
        params = d.prompt.params
        lines = [humanise(d.prompt.text, d.game)]
        if d.prompt.secret:
            lines.append("Only you see this form; your pick stays face down until the reveal.")
        if d.deadline is not None:
            lines.append(f"Due <t:{int(d.deadline.due_at)}:R>; after that {d.prompt.timeout_note}.")
        if not params.get("cards"):
            lines.append("You have no card you could pick here.")
        embed = form.summary_embed(params, ids, notes=notes or [], **self.known(d),
                                   heading=f"{form.title(params)} — game #{d.game.id}")
        return {"content": "\n".join(lines)[:2000], "embed": embed,
                "view": FORMS.view(form.items(d.game.id, d.open.opened, params, ids))}

    # ------------------------------------------------------------- entry points

    async def panel(self, d: Decision) -> Payload:
        """The card form: DMed when a secret pick opens, ephemeral from **Decide**."""
        return self.payload(d, [])

    @app_commands.command(name="pick")
    @app_commands.describe(game="the game number (default: the game of this thread, or your only one)")
    @refusals
    async def pick(self, interaction: discord.Interaction, game: int | None = None) -> None:
        """Petition: open your card form (a bid, campaign cards, reinforcements), only for you."""
        g = await self.controller.resolve(interaction, game)
        d = await self.controller.decision(interaction, g, None, game_key=KEY)
        if d.prompt.free_form != FREE_FORM:
            raise TableError("your decision now is not a pick of cards: press **Decide** on the board "
                             "for it.")
        await interaction.response.send_message(ephemeral=True, **self.payload(d, []))

    async def on_select(self, interaction: discord.Interaction, game_id: int, opened: int, kind: str,
                        values: list[str]) -> None:
        # the form has one menu (``kind`` is always "pick")
        async with answering(interaction):
            d = await self.context(interaction, game_id, opened)
            offered = {str(c["id"]) for c in d.prompt.params.get("cards", [])}
            ids = [v for v in values if v in offered]
            await interaction.response.edit_message(**self.payload(d, ids))

    async def on_button(self, interaction: discord.Interaction, game_id: int, opened: int,
                        kind: str) -> None:
        async with answering(interaction):
            d = await self.context(interaction, game_id, opened)
            if kind == "clear":
                await interaction.response.edit_message(**self.payload(d, []))
                return
            if kind == "pass":
                if not d.prompt.params.get("can_pass"):
                    raise TableError("you cannot pass here: pick your cards and confirm.")
                await self.send(interaction, d, [])
                return
            if kind == "ok":
                ids = form.picked_from_message(interaction.message) or []
                why = form.problem(d.prompt.params, ids)
                if why is not None:
                    raise TableError(why)
                await self.send(interaction, d, ids)
                return
            raise TableError("that button is not on this form any more; press **Decide** on the board.")

    async def send(self, interaction: discord.Interaction, d: Decision, ids: list[str]) -> None:
        """Send the pick as the answer to this form's decision — once: a second tap, or an older
        form, is refused under the game's lock (the ticket no longer matches)."""
        params = d.prompt.params
        await interaction.response.defer()
        await self.controller.act(interaction, d, answer(ids))
        chosen = form.picked_cards(params, ids)
        if chosen:
            names = ", ".join(str(c["name"]) for c in chosen)
            what = str(params.get("confirm") or "Confirmed")
            text = f"✅ **{what}** — game #{d.game.id}: {names}."
            if d.prompt.secret:
                text += " They stay face down until the reveal in the game's thread."
        else:
            what = form.PASS_LABELS.get(str(params.get("purpose")), "Passed")
            text = f"✅ **{what}** — game #{d.game.id}: no cards."
        embed = form.summary_embed(params, ids, heading=f"{form.title(params)} — game #{d.game.id} (sent)",
                                   **self.known(d))
        await interaction.edit_original_response(content=text, embed=embed, view=None)


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(*FORMS.classes)
    await bot.add_cog(PetitionCog(platform_of(bot)))


async def teardown(bot: commands.Bot) -> None:
    bot.remove_dynamic_items(*FORMS.classes)
