"""Hegemony: Alternate Histories on Discord: the ``/deck`` builder and the game's own forms.

``/deck`` (in servers and in DMs; every answer is the player's alone) keeps a player's decks
(:mod:`bot.decks` stores them, :mod:`.deckbuilder` knows the cards): create, add, remove, view,
validate, copy a ready-made deck, export and import a deck code, list and delete.

At the table, three free-form prompts get a form, by DM when they open and from **Decide**:
the deck choice (a saved deck, a ready-made one, or a pasted code), the opening hand (7 cards of
the deck) and other picks of several cards (the 5 graveyard cards to burn at a reshuffle). Every
form answers one decision: its custom_ids carry the game and the prompt instance, each click
re-reads the decision, and the answer goes through ``controller.act`` with that ticket, so a
double submit or an old form counts at most once. Every other decision is a plain choice the
platform shows as buttons or menus.
"""

from __future__ import annotations

import io
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.decks import DECK_LIMIT, Decks
from bot.decks import label as deck_label
from bot.errors import TableError
from bot.forms import Payload, form_items
from bot.platform import Platform, platform_of
from bot.refusals import answering, refusals, reply
from bot.render import to_png
from bot.session import Decision, Ticket
from bot.storage.base import DeckRow
from bot.text import clip
from rules.text import count

from . import forms, render
from .deckbuilder import ERAS, MAX_ADD, Pool, era_name, pool

KEY = "alternate_histories"
JSON = dict[str, Any]
CODE_FORM = "ah_code"
EVERYWHERE = app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True)
KINDS = ("unit", "infrastructure", "resource", "event")


def _cog(interaction: discord.Interaction) -> AlternateHistoriesCog:
    cog = interaction.client.get_cog("AlternateHistoriesCog")  # type: ignore[attr-defined]
    assert isinstance(cog, AlternateHistoriesCog)
    return cog


FORMS = form_items("herald:ah", "herald:ahb", _cog, kind="[a-z0-9_]+")
"""The deck, opening-hand and pick forms' menus and buttons (custom_id prefixes fixed: forms sent
earlier keep working)."""


# ------------------------------------------------------------------------ autocomplete

def _pool_of(interaction: discord.Interaction) -> Pool:
    return _cog(interaction).pool


async def deck_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    cog = _cog(interaction)
    found = await cog.decks.suggestions(interaction.user.id, current)
    return [app_commands.Choice(name=clip(name, 100), value=value) for name, value in found]


async def card_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Cards whose name contains what was typed, of the era and kind filled in (if any); when
    removing, only the deck's own cards."""
    p = _pool_of(interaction)
    ns = interaction.namespace
    era = getattr(ns, "era", None)
    kind = getattr(ns, "kind", None)
    found = p.search(current, era=era or None, kind=kind or None, limit=200)
    command = interaction.command.name if interaction.command else ""
    if command == "remove" and getattr(ns, "deck", None):
        try:
            deck = await _cog(interaction).decks.find(interaction.user.id, str(ns.deck))
        except TableError:
            deck = None
        if deck is not None:
            held = dict(deck.data.get("cards", {}))
            found = [c for c in found if c.id in held]
    return [app_commands.Choice(name=clip(f"{c.name} — {era_name(c.era)} "
                                          f"{str(c.kind).lower()}", 100), value=str(c.id))
            for c in found[:25]]


async def nation_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    p = _pool_of(interaction)
    typed = current.casefold().strip()
    return [app_commands.Choice(name=p.nation_name(k), value=k) for k in p.nations
            if typed in k.casefold() or typed in p.nation_name(k).casefold()][:25]


async def governance_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    p = _pool_of(interaction)
    typed = current.casefold().strip()
    return [app_commands.Choice(name=p.governance_name(k), value=k) for k in p.governances
            if typed in k.casefold() or typed in p.governance_name(k).casefold()][:25]


async def ready_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    p = _pool_of(interaction)
    typed = current.casefold().strip()
    return [app_commands.Choice(name=p.ready_label(k), value=k) for k in p.ready
            if typed in k.casefold() or typed in p.ready_label(k).casefold()][:25]


ERA_CHOICES = [app_commands.Choice(name=e, value=e) for e in ERAS]
KIND_CHOICES = [app_commands.Choice(name=k.capitalize(), value=k) for k in KINDS]


def problems(errors: list[str]) -> str:
    """Every broken deck rule at once, one per line ("3 problems:\n• …"): what ``/deck validate``
    says and what the table's refusals say, so a player fixes them all in one go."""
    return f"{count(len(errors), 'problem')}:\n" + "\n".join(f"• {e}" for e in errors)


class AlternateHistoriesCog(commands.Cog):
    deck = app_commands.Group(name="deck", description="Your Alternate Histories decks: build, check, share",
                              allowed_contexts=EVERYWHERE)

    def __init__(self, herald: Platform, content: Any = None) -> None:
        self.herald = herald
        self.controller = herald.controller
        self.pool = pool(content)
        self.decks = Decks(herald.storage, KEY, now=herald.sessions.now, limit=DECK_LIMIT)

    async def cog_load(self) -> None:
        self.herald.forms.add_panel(KEY, "deck", self.deck_panel)
        self.herald.forms.add_panel(KEY, "opening", self.pick_panel)
        self.herald.forms.add_panel(KEY, "pick", self.pick_panel)
        self.herald.forms.add_modal(CODE_FORM, self.code_submitted)

    async def cog_unload(self) -> None:
        self.herald.forms.remove(KEY)
        self.herald.forms.remove_modal(CODE_FORM)

    # ================================================================== /deck

    async def _say(self, interaction: discord.Interaction, text: str, *,
                   files: list[discord.File] | None = None) -> None:
        await reply(interaction, clip(text), **({"files": files} if files else {}))

    def _deck_file(self, deck: DeckRow, errors: list[str]) -> discord.File:
        image = render.deck_image(self.pool, deck.name, deck.data, errors)
        return discord.File(io.BytesIO(to_png(image)), filename="deck.png",
                            description=render.deck_alt(self.pool, deck.name, deck.data, errors))

    @deck.command(name="create")
    @app_commands.describe(name="a name for the deck (yours only)", nation="the nation it is for",
                           governance="the governance it is for")
    @app_commands.autocomplete(nation=nation_autocomplete, governance=governance_autocomplete)
    @refusals
    async def create(self, interaction: discord.Interaction, name: str, nation: str, governance: str) -> None:
        """Start a new, empty deck for a nation and a governance."""
        data = self.pool.new(self.pool.nation(nation), self.pool.governance(governance))
        deck = await self.decks.create(interaction.user.id, name, data)
        await self._say(interaction, f"🗂️ Deck **{deck_label(deck)}** created for "
                        f"{self.pool.nation_name(data['nation'])}, "
                        f"{self.pool.governance_name(data['governance'])}. Add cards with `/deck add` "
                        f"({self.pool.deck_size} in all), or start from a ready-made deck with "
                        "`/deck copy`.")

    @deck.command(name="add")
    @app_commands.describe(deck="your deck", card="the card (type part of its name)",
                           count=f"how many copies (1 to {MAX_ADD})", era="only list cards of this era",
                           kind="only list cards of this type")
    @app_commands.autocomplete(deck=deck_autocomplete, card=card_autocomplete)
    @app_commands.choices(era=ERA_CHOICES, kind=KIND_CHOICES)
    @refusals
    async def add(self, interaction: discord.Interaction, deck: str, card: str,
                  count: app_commands.Range[int, 1, MAX_ADD] = 1, era: str | None = None,
                  kind: str | None = None) -> None:
        """Add copies of a card to one of your decks."""
        row = await self.decks.find(interaction.user.id, deck)
        data, note = self.pool.add(row.data, self.pool.card(card), count)
        await self.decks.save(row, data)
        await self._say(interaction, f"➕ **{row.name}**: {note}")

    @deck.command(name="remove")
    @app_commands.describe(deck="your deck", card="the card (type part of its name)",
                           count=f"how many copies (1 to {MAX_ADD})")
    @app_commands.autocomplete(deck=deck_autocomplete, card=card_autocomplete)
    @refusals
    async def remove(self, interaction: discord.Interaction, deck: str, card: str,
                     count: app_commands.Range[int, 1, MAX_ADD] = 1) -> None:
        """Take copies of a card out of one of your decks."""
        row = await self.decks.find(interaction.user.id, deck)
        data, note = self.pool.remove(row.data, self.pool.card(card), count)
        await self.decks.save(row, data)
        await self._say(interaction, f"➖ **{row.name}**: {note}")

    @deck.command(name="view")
    @app_commands.describe(deck="your deck")
    @app_commands.autocomplete(deck=deck_autocomplete)
    @refusals
    async def view(self, interaction: discord.Interaction, deck: str) -> None:
        """See one of your decks: its list by era (an image) and a summary."""
        row = await self.decks.find(interaction.user.id, deck)
        errors = self.pool.errors(row.data)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await interaction.followup.send(clip(self.pool.summary(deck_label(row), row.data, errors)),
                                        file=self._deck_file(row, errors), ephemeral=True)

    @deck.command(name="validate")
    @app_commands.describe(deck="your deck")
    @app_commands.autocomplete(deck=deck_autocomplete)
    @refusals
    async def validate(self, interaction: discord.Interaction, deck: str) -> None:
        """Check one of your decks against every deck rule, and list every problem at once."""
        row = await self.decks.find(interaction.user.id, deck)
        errors = self.pool.errors(row.data)
        if not errors:
            await self._say(interaction, f"✅ **{row.name}** is ready to play: "
                            f"{self.pool.size(row.data)} cards, legal for "
                            f"{self.pool.nation_name(row.data['nation'])} and "
                            f"{self.pool.governance_name(row.data['governance'])}.")
            return
        await self._say(interaction, f"⚠️ **{row.name}** is not ready to play — {problems(errors)}")

    @deck.command(name="copy")
    @app_commands.describe(ready="the ready-made deck to start from", name="a name for your copy")
    @app_commands.autocomplete(ready=ready_autocomplete)
    @refusals
    async def copy(self, interaction: discord.Interaction, ready: str, name: str) -> None:
        """Copy a ready-made deck into a deck of your own, to change as you like."""
        key = self.pool.ready_key(ready)
        deck = await self.decks.create(interaction.user.id, name, self.pool.from_ready(key))
        await self._say(interaction, f"🗂️ Deck **{deck_label(deck)}** is a copy of the ready-made "
                        f"{self.pool.ready_label(key)} deck ({self.pool.size(deck.data)} cards). "
                        "Change it with `/deck add` and `/deck remove`.")

    @deck.command(name="export")
    @app_commands.describe(deck="your deck")
    @app_commands.autocomplete(deck=deck_autocomplete)
    @refusals
    async def export(self, interaction: discord.Interaction, deck: str) -> None:
        """The short code of one of your decks, to share it or play it elsewhere."""
        row = await self.decks.find(interaction.user.id, deck)
        code = self.pool.code(row.data)
        await self._say(interaction, f"📤 The code of **{row.name}** — anyone can `/deck import` it, "
                        f"or paste it when choosing a deck at a table:\n```\n{code}\n```")

    @deck.command(name="import")
    @app_commands.describe(code="a deck code (from /deck export)", name="a name for the deck")
    @refusals
    async def import_(self, interaction: discord.Interaction, code: str, name: str) -> None:
        """Save a deck from its code as a deck of your own."""
        data = self.pool.decode(code)
        deck = await self.decks.create(interaction.user.id, name, data)
        errors = self.pool.errors(data)
        state = "ready to play" if not errors else "not ready to play yet (`/deck validate` says why)"
        await self._say(interaction, f"📥 Deck **{deck_label(deck)}** imported: "
                        f"{self.pool.nation_name(data['nation'])}, "
                        f"{self.pool.governance_name(data['governance'])}, "
                        f"{self.pool.size(data)} cards, {state}.")

    @deck.command(name="list")
    @refusals
    async def list_(self, interaction: discord.Interaction) -> None:
        """Your saved decks, with whether each is ready to play."""
        mine = await self.decks.mine(interaction.user.id)
        if not mine:
            await self._say(interaction, "You have no saved decks yet: `/deck create` starts one, "
                            "`/deck copy` copies a ready-made one.")
            return
        lines = [f"Your decks ({len(mine)}; at most {self.decks.limit}):"]
        for d in mine:
            errors = self.pool.errors(d.data)
            state = "✅ ready" if not errors else f"⚠️ {count(len(errors), 'problem')}"
            lines.append(f"• **{deck_label(d)}** — {self.pool.nation_name(d.data['nation'])}, "
                         f"{self.pool.governance_name(d.data['governance'])}, "
                         f"{self.pool.size(d.data)} cards, {state}")
        await self._say(interaction, "\n".join(lines))

    @deck.command(name="delete")
    @app_commands.describe(deck="your deck")
    @app_commands.autocomplete(deck=deck_autocomplete)
    @refusals
    async def delete(self, interaction: discord.Interaction, deck: str) -> None:
        """Delete one of your decks for good (its code still works if you kept it)."""
        row = await self.decks.find(interaction.user.id, deck)
        await self.decks.delete(row)
        await self._say(interaction, f"🗑️ Deck **{row.name}** deleted.")

    # ================================================================== forms

    async def context(self, interaction: discord.Interaction, game_id: int, opened: int,
                      kinds: tuple[str, ...]) -> Decision:
        """The clicking player's decision this form answers (its prompt instance ``opened``)."""
        d = await self.controller.decision(
            interaction, game_id, Ticket(opened), game_key=KEY,
            stale="this form is out of date: that choice was made already, or the game has moved on. "
                  "Press **Decide** on the board for the current one.")
        if d.prompt.free_form not in kinds:
            raise TableError("this form is not for your current decision; press **Decide** on the board.")
        return d

    # ------------------------------------------------------------- deck choice

    async def deck_panel(self, d: Decision) -> Payload:
        """The deck choice: by DM when the prompt opens, and from Decide (ephemeral)."""
        seat = d.game.seats[d.seat]
        saved: list[tuple[int, str, str]] = []
        broken: list[str] = []
        if seat.user_id is not None:
            for row in await self.decks.mine(seat.user_id):
                errors = self.pool.errors(row.data)
                where = (f"{self.pool.nation_name(row.data['nation'])}, "
                         f"{self.pool.governance_name(row.data['governance'])}")
                saved.append((row.id, row.name, f"{where}: " + ("ready" if not errors else
                                                               f"not ready ({len(errors)} problems)")))
                if errors:
                    broken.append(f"• **{row.name}** is not ready: " + "; ".join(errors[:3])
                                  + (" …" if len(errors) > 3 else ""))
        saved.sort(key=lambda row: not row[2].endswith("ready"))  # playable decks first
        if len(saved) > forms.MENU:
            broken.append(f"(The menu shows {forms.MENU} of your {len(saved)} decks; for another, "
                          "paste its code from `/deck export`.)")
        keys = [str(k) for k in d.prompt.params.get("ready", self.pool.ready)]
        ready = [(k, self.pool.ready_label(k)) for k in keys if k in self.pool.ready]
        lines = [f"**Alternate Histories — game #{d.game.id}**: choose your deck (only you see this; "
                 "your opponent learns your nation and governance when the game starts, never your "
                 "cards)."]
        if d.deadline is not None:
            lines.append(f"Due <t:{int(d.deadline.due_at)}:R>; after that {d.prompt.timeout_note}.")
        if not saved:
            lines.append("You have no saved decks: pick a ready-made one, paste a code, or build your "
                         "own with `/deck` for the next game.")
        lines += broken
        items = forms.deck_items(d.game.id, d.open.opened, saved, ready)
        return {"content": clip("\n".join(lines)), "view": FORMS.view(items)}

    async def choose_deck(self, interaction: discord.Interaction, d: Decision, value: str) -> None:
        if value.startswith("s") and value[1:].isdigit():
            row = await self.decks.find(interaction.user.id, f"#{value[1:]}")
            errors = self.pool.errors(row.data)
            if errors:
                raise TableError(f"**{row.name}** is not ready to play — {problems(errors)}\n"
                                 "Fix it with `/deck`, or choose another deck.")
            action: JSON = {"type": "deck", "code": self.pool.code(row.data)}
            what = f"your deck **{row.name}**"
        elif value.startswith("r") and value[1:] in self.pool.ready:
            action = {"type": "deck", "ready": value[1:]}
            what = f"the ready-made {self.pool.ready_label(value[1:])} deck"
        else:
            raise TableError("that deck is not on this menu; press **Decide** for the current one.")
        await self.send_deck(interaction, d, action, what)

    async def send_deck(self, interaction: discord.Interaction, d: Decision, action: JSON, what: str) -> None:
        await interaction.response.defer()
        await self.controller.act(interaction, d, action)
        await interaction.edit_original_response(
            content=f"🗂️ You play {what} in game #{d.game.id}. Your opening hand form follows.",
            embed=None, view=None)

    async def code_submitted(self, interaction: discord.Interaction, game_id: int, ticket: Ticket,
                             values: dict[str, str]) -> None:
        d = await self.context(interaction, game_id, ticket.opened, ("deck",))
        code = values.get("code", "").strip()
        data = self.pool.decode(code)
        errors = self.pool.errors(data)
        if errors:
            raise TableError(f"that deck is not legal — {problems(errors)}")
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.controller.act(interaction, d, {"type": "deck", "code": code})
        await interaction.followup.send(
            f"🗂️ You play the pasted deck ({self.pool.nation_name(data['nation'])}, "
            f"{self.pool.governance_name(data['governance'])}) in game #{d.game.id}. Your opening "
            "hand form follows.", ephemeral=True)

    # --------------------------------------------------------------- card picks

    async def pick_panel(self, d: Decision, picked: list[int] | None = None,
                         notes: list[str] | None = None) -> Payload:
        kind = str(d.prompt.free_form)
        params = d.prompt.params
        options = forms.entries(kind, params)
        chosen = picked or []
        lines = [f"**Alternate Histories — game #{d.game.id}**: {d.prompt.text} (only you see this)"]
        if d.deadline is not None:
            lines.append(f"Due <t:{int(d.deadline.due_at)}:R>; after that {d.prompt.timeout_note}.")
        return {"content": clip("\n".join(lines)),
                "embed": forms.pick_embed(kind, params, options, chosen, notes or [],
                                          ordered=forms.ordered(d.prompt)),
                "view": FORMS.view(forms.pick_items(d.game.id, d.open.opened, kind, params, options, chosen,
                                                    ordered=forms.ordered(d.prompt)))}

    async def confirm_picks(self, interaction: discord.Interaction, d: Decision) -> None:
        kind = str(d.prompt.free_form)
        options = forms.entries(kind, d.prompt.params)
        picked = forms.picked_from(interaction.message, len(options)) or []
        least, most = forms.bounds(kind, d.prompt.params)
        if not least <= len(picked) <= most:
            wanted = f"exactly {most}" if least == most else f"between {least} and {most}"
            raise TableError(f"choose {wanted} cards (you have chosen {len(picked)}), then press "
                             "**Confirm**.")
        cards = [options[k].card for k in picked]
        await interaction.response.defer()
        await self.controller.act(interaction, d, {"type": "opening" if kind == "opening" else "pick",
                                                   "cards": cards})
        names: dict[str, int] = {}
        for k in picked:
            names[options[k].name] = names.get(options[k].name, 0) + 1
        chosen = ", ".join(f"{n}× {name}" if n > 1 else name for name, n in names.items())
        what = "Opening hand" if kind == "opening" else "Chosen"
        await interaction.edit_original_response(content=f"✅ {what} for game #{d.game.id}: {chosen}.",
                                                 embed=None, view=None)

    # ------------------------------------------------------------------ clicks

    async def on_select(self, interaction: discord.Interaction, game_id: int, opened: int, kind: str,
                        values: list[str]) -> None:
        async with answering(interaction):
            if kind in ("saved", "ready"):
                d = await self.context(interaction, game_id, opened, ("deck",))
                if values:
                    await self.choose_deck(interaction, d, values[0])
                return
            if not (kind.startswith("p") and kind[1:].isdigit()):
                raise TableError("this menu is not part of the current form; press **Decide**.")
            d = await self.context(interaction, game_id, opened, ("opening", "pick"))
            options = forms.entries(str(d.prompt.free_form), d.prompt.params)
            picked = forms.picked_from(interaction.message, len(options)) or []
            if forms.ordered(d.prompt):
                picked = forms.append(picked, values, len(options))
            else:
                picked = forms.choose(picked, int(kind[1:]), values, len(options))
            await interaction.response.edit_message(**await self.pick_panel(d, picked))

    async def on_button(self, interaction: discord.Interaction, game_id: int, opened: int, kind: str) -> None:
        async with answering(interaction):
            if kind == "code":
                d = await self.context(interaction, game_id, opened, ("deck",))
                field: discord.ui.TextInput[Any] = discord.ui.TextInput(
                    label="Deck code (from /deck export)", custom_id="code", max_length=400)
                await interaction.response.send_modal(self.herald.forms.modal(
                    CODE_FORM, d.game.id, d.ticket, "Play a deck from its code", [field]))
                return
            d = await self.context(interaction, game_id, opened, ("opening", "pick"))
            if kind == "ok":
                await self.confirm_picks(interaction, d)
            elif kind == "clear":
                await interaction.response.edit_message(**await self.pick_panel(d, []))
            else:
                raise TableError("this button is not part of the current form; press **Decide**.")


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(*FORMS.classes)
    await bot.add_cog(AlternateHistoriesCog(platform_of(bot)))


async def teardown(bot: commands.Bot) -> None:
    bot.remove_dynamic_items(*FORMS.classes)
