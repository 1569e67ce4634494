"""Cult Wars on Discord: the insignia choice, the secret order form (by DM, or ephemeral via
Decide) and ``/orders``.

At a ``two_step`` table (the default) a turn opens with the insignia step: every human leader
gets a DM with one button per rival cult, and one click is the secret choice (the buttons carry
only the game, the decision and the seat aimed at, so they work after a restart). When every
target is in, they are revealed together and the order form follows. Each turn every human
leader gets the form by DM (a second DM after the hand); **Decide** on the board and ``/orders``
open the same form ephemerally. The form edits a draft kept in the form
message (see :mod:`cogs.cult_wars.form`), so a restart loses nothing; **Confirm** sends the whole
orders as one engine action (``"replace": true`` when orders are already in), and the engine
judges them: its refusal is shown to the player as is. Until the last cult's orders are in, a
leader can change them (the sent form offers **Change orders**).

Every form answers one decision (its custom_ids carry the seat's prompt instance): a double tap on
**Confirm**, or an older form of the same player, is refused under the game's lock — it never
becomes orders for the next turn.
"""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import StaleAction, TableError
from bot.forms import Payload, form_items
from bot.platform import Platform, platform_of
from bot.refusals import answering, refusals
from bot.session import Decision, Ticket
from bot.storage import GameRow
from rules.cult_wars.plan import preset_orders
from rules.cult_wars.views import View, read_view
from rules.engine import NotYourTurn, seat_name

from . import form
from .form import SLOTS, Draft

TURN = re.compile(r"\bturn (\d+)\b", re.IGNORECASE)
"""The turn an order form or its sent orders name (their first mention of a turn)."""

KEY = "cult_wars"
JSON = dict[str, Any]

WRONG_STEP = {
    "target": "this turn starts with the insignia step: choose your target first (the buttons are "
              "in your DMs, or use **Decide** or `/orders`); the order form follows once every "
              "target is revealed.",
    "orders": "the insignia step is over: every target is revealed and the decision now is your "
              "orders; open the form with **Decide** or `/orders`.",
    "split": "the orders are revealed: your decision now is how the attackers' losses fall; press "
             "**Decide** on the board.",
}
"""Refusal for a form of one step used while the seat's decision is another (by prompt kind)."""


def _cog(interaction: discord.Interaction) -> CultWarsCog:
    cog = interaction.client.get_cog("CultWarsCog")  # type: ignore[attr-defined]
    assert isinstance(cog, CultWarsCog)
    return cog


FORMS = form_items("herald:cw", "herald:cwb", _cog)
"""The order and insignia forms' menus and buttons (custom_id prefixes fixed: forms sent earlier
keep working)."""


class CultWarsCog(commands.Cog):
    def __init__(self, herald: Platform) -> None:
        self.herald = herald
        self.sessions = herald.sessions
        self.controller = herald.controller

    async def cog_load(self) -> None:
        # (the form's reply reads the orders or the insignia back: their private line is no news)
        self.herald.forms.add_panel(KEY, "orders", self.panel, echoes=("orders",))
        self.herald.forms.add_panel(KEY, "target", self.target_panel, echoes=("orders",))

    async def cog_unload(self) -> None:
        self.herald.forms.remove(KEY)

    # ------------------------------------------------------------------ helpers

    @staticmethod
    def who(game: GameRow) -> dict[int, str]:
        return {s.seat: f"{seat_name(s.seat)} {discord.utils.escape_mentions(s.name)}"[:60] for s in game.seats}

    @staticmethod
    def fixed_target(view: View) -> int | None:
        """The target revealed in this turn's insignia step (None at a ``single`` table)."""
        if not form.two_step(view):
            return None
        return view["cults"][view["private"]["seat"]]["target"]

    @classmethod
    def presets(cls, view: View) -> list[tuple[str, str, JSON]]:
        cults = view["cults"]
        return preset_orders(view["private"]["seat"], len(cults), [c["followers"] for c in cults],
                             [c["vp"] for c in cults], fixed_target=cls.fixed_target(view))

    def initial(self, view: View) -> Draft:
        """The orders already sent, else the first ready-made orders (balanced) to start from."""
        orders = view["private"]["orders"]
        draft = Draft.from_orders(orders) if orders else Draft.from_orders(self.presets(view)[0][2])
        fixed = self.fixed_target(view)
        if fixed is not None:
            draft.target = fixed
        return draft

    async def context(self, interaction: discord.Interaction, game: GameRow | int,
                      opened: int | None = None, *, kind: str = "orders") -> tuple[Decision, View]:
        """The clicking leader's decision of ``kind`` (the one this form answers, if given): the
        insignia choice, or the orders — open, or sent but still changeable until the last
        cult's orders are in."""
        ticket = Ticket(opened) if opened is not None else None
        what = ("this insignia choice is out of date: it was for a target you have chosen "
                "already, or for an earlier turn" if kind == "target" else
                "this order form is out of date: it was for orders you have sent or changed "
                "since, or for an earlier turn")
        d = await self.controller.decision(interaction, game, ticket, game_key=KEY, revise=True,
                                           stale=f"{what}. Open a fresh one with **Decide** or `/orders`.")
        view = read_view(d.view())
        if d.prompt.kind != kind:
            raise TableError(WRONG_STEP.get(d.prompt.kind, "the game is over; no more orders are accepted."))
        return d, view

    async def payload(self, d: Decision, view: View, draft: Draft, page: str,
                      notes: list[str] | None = None) -> Payload:
        game = d.game
        who = self.who(game)
        sent = view["private"]["orders"] is not None
        lines = [f"**Cult Wars — game #{game.id}, turn {view['turn']} of {view['turns']}**: your secret "
                 f"orders (only you see this form)."]
        if d.deadline is not None:
            lines.append(f"Due <t:{int(d.deadline.due_at)}:R>; after that the computer player writes them.")
        if sent:
            lines.append("Your orders are in; **Confirm** again to replace them (until the last cult's "
                         "orders are in).")
        opened = d.open.opened
        if page == "quick":
            items = form.quick_items(game.id, opened, self.presets(view))
            lines.append("Pick ready-made orders to load into the form; you can still adjust them.")
        elif page == "slots":
            items = form.slot_items(game.id, opened, draft, view)
            lines.append("Lay strategy cards on each slot (a card picked for another slot moves).")
        else:
            items = form.main_items(game.id, opened, draft, view, who)
        embed = form.summary_embed(draft, view, who, notes=notes or [])
        return {"content": "\n".join(lines), "embed": embed, "view": FORMS.view(items)}

    # ------------------------------------------------------------- entry points

    async def panel(self, d: Decision) -> Payload:
        """The order form: from Decide (ephemeral) and by DM at the start of each turn."""
        view = read_view(d.view())
        return await self.payload(d, view, self.initial(view), "main")

    async def target_panel(self, d: Decision) -> Payload:
        """The insignia step: by DM when it opens, and from Decide or ``/orders`` (ephemeral)."""
        view = read_view(d.view())
        game = d.game
        lines = [f"**Cult Wars — game #{game.id}, turn {view['turn']} of {view['turns']}**: the insignia "
                 "step. Choose the cult your attackers and action cards will target (only you see "
                 "this). Every cult chooses in secret; the targets are revealed together, and then "
                 "you lay your cards knowing who targets whom."]
        if d.deadline is not None:
            lines.append(f"Due <t:{int(d.deadline.due_at)}:R>; after that the computer player chooses.")
        items = form.target_items(game.id, d.open.opened, view, self.who(game))
        return {"content": "\n".join(lines), "view": FORMS.view(items)}

    @app_commands.command(name="orders")
    @app_commands.describe(game="the game number (default: the game of this thread, or your only one)")
    @refusals
    async def orders(self, interaction: discord.Interaction, game: int | None = None) -> None:
        """Cult Wars: choose your target, or open your secret order form (to write or change orders)."""
        g = await self.controller.resolve(interaction, game)
        d = await self.controller.decision(interaction, g, None, game_key=KEY, revise=True)
        if d.prompt.kind == "target":
            await interaction.response.send_message(ephemeral=True, **await self.target_panel(d))
            return
        d, view = await self.context(interaction, g)
        payload = await self.payload(d, view, self.initial(view), "main")
        await interaction.response.send_message(ephemeral=True, **payload)

    # ------------------------------------------------------------------- clicks

    async def on_select(self, interaction: discord.Interaction, game_id: int, opened: int, kind: str,
                        values: list[str]) -> None:
        async with answering(interaction):
            await self._select(interaction, game_id, opened, kind, values)

    async def _select(self, interaction: discord.Interaction, game_id: int, opened: int, kind: str,
                      values: list[str]) -> None:
        try:
            d, view = await self.context(interaction, game_id, opened)
        except StaleAction:
            story = await self.earlier_turn(interaction, game_id)
            if story is None:
                raise
            await interaction.response.edit_message(**story)
            return
        draft = Draft.from_message(interaction.message) or self.initial(view)
        notes: list[str] = []
        page = "main"
        hand = {h["id"]: h for h in view["private"]["hand"]}
        if kind == "tgt" and values:
            draft.target = int(values[0])
        elif kind.startswith("sl_") and kind[3:] in SLOTS:
            notes = draft.lay(kind[3:], values)
            page = "slots"
        elif kind == "cards":
            plays: dict[str, int | None] = {}
            for v in values:
                card, _, tgt = v.partition(">")
                if card not in hand:
                    continue
                if card in plays:
                    notes.append(f"{hand[card]['name']} can be played once: kept the first target.")
                    continue
                plays[card] = int(tgt) if tgt else None
            draft.plays = plays
            draft.face_up = [x for x in draft.face_up if x in ("target", *SLOTS) or x in plays]
        elif kind == "fu":
            draft.face_up = list(values)
            if values:
                notes.append("Face-up parts are shown to everybody as soon as you confirm, and bind you.")
        elif kind == "lo" and values:
            draft.loss = "proportional" if values[0] == "p" else [int(x) for x in values[0].split(".")]
        elif kind == "quick" and values:
            presets = self.presets(view)
            idx = int(values[0])
            if 0 <= idx < len(presets):
                loaded = Draft.from_orders(presets[idx][2])
                draft.slots = loaded.slots
                if loaded.target is not None:
                    draft.target = loaded.target
                notes.append(f"Loaded “{presets[idx][0]}”: check the slots, then confirm.")
            page = "slots"
        payload = await self.payload(d, view, draft, page, notes)
        await interaction.response.edit_message(**payload)

    async def on_button(self, interaction: discord.Interaction, game_id: int, opened: int, kind: str) -> None:
        async with answering(interaction):
            await self._button(interaction, game_id, opened, kind)

    async def _button(self, interaction: discord.Interaction, game_id: int, opened: int, kind: str) -> None:
        aim = form.target_of_kind(kind)
        if aim is not None:
            d, view = await self.context(interaction, game_id, opened, kind="target")
            await self.choose_target(interaction, d, view, aim)
            return
        try:
            d, view = await self.context(interaction, game_id, opened)
        except StaleAction:
            story = await self.late_story(interaction, game_id, opened) if kind in ("ok", "okr") else None
            if story is None:
                story = await self.earlier_turn(interaction, game_id)
            if story is None:
                raise
            await interaction.response.edit_message(**story)
            return
        if kind in ("ok", "okr"):
            await self.confirm(interaction, d, view, replace=kind == "okr")
            return
        if kind == "edit":
            draft = self.initial(view)
            page = "main"
        else:
            draft = Draft.from_message(interaction.message) or self.initial(view)
            page = kind if kind in ("slots", "quick") else "main"
        await interaction.response.edit_message(**await self.payload(d, view, draft, page))

    async def earlier_turn(self, interaction: discord.Interaction, game_id: int) -> Payload | None:
        """An order form (or the sent orders' "Change orders") from an earlier turn: the message
        it was drawn on says which turn it was for and which turn it is now, and loses its dead
        buttons (its orders, already revealed, stay shown). None when the form is of this turn."""
        message = interaction.message
        if message is None:
            return None
        texts = [message.content or ""] + [t for e in message.embeds for t in (e.title, e.description) if t]
        found = next((m for t in texts if (m := TURN.search(t)) is not None), None)
        game = await self.sessions.get(game_id)
        seat = game.seat_of(interaction.user.id)
        if found is None or seat is None or game.state is None:
            return None
        was = int(found.group(1))
        view = read_view((await self.sessions.snapshot(game)).view(seat))
        if game.status == "active" and view["turn"] <= was:
            return None
        now = (f"it is turn {view['turn']} now. Open a fresh one with **Decide** or `/orders`"
               if game.status == "active" else "the game is over")
        return {"content": f"⌛ **This order form is out of date**: it was for turn {was} of game "
                           f"#{game.id}, and {now}.", "view": None}

    async def late_story(self, interaction: discord.Interaction, game_id: int,
                         opened: int) -> Payload | None:
        """A Confirm that arrives after the deadline answered this form's decision: the computer
        player wrote the orders, not an earlier tap. The message that says so — with the orders
        it chose while they are still the player's secret (before the reveal; the answer goes to
        that player alone) and the button to change them — or None when the decision was not
        answered at its deadline."""
        game = await self.sessions.get(game_id)
        seat = game.seat_of(interaction.user.id)
        if seat is None or game.answered.get(seat) != opened:
            return None
        mine = [origin for s, _, origin in await self.sessions.storage.actions(game_id) if s == seat]
        if not mine or mine[-1] not in ("timeout", "away"):
            return None
        why = ("you were marked away" if mine[-1] == "away"
               else "its deadline had passed before this tap arrived")
        snap = await self.sessions.snapshot(game)
        view = read_view(snap.view(seat))
        head = f"⏰ **These orders were not applied**: {why}, so the computer player wrote your orders"
        orders = view["private"]["orders"]
        revision = snap.revision_of(seat)
        if orders and view["phase"] == "orders" and revision is not None and revision.opened == opened:
            embed = form.summary_embed(Draft.from_orders(orders), view, self.who(game),
                                       title=f"Your orders for turn {view['turn']}, as the computer player sent them")
            return {"content": f"{head} for turn {view['turn']} of game #{game.id} (below, still secret). "
                               "You can change them until the last cult's orders are in.",
                    "embed": embed, "view": FORMS.view(form.edit_items(game.id, revision.opened))}
        return {"content": f"{head} for that turn of game #{game.id}; every cult's orders are in and "
                           "were revealed in the game's thread.", "embed": None, "view": None}

    async def choose_target(self, interaction: discord.Interaction, d: Decision, view: View,
                            target: int) -> None:
        """Send the insignia choice answering this message's decision — once (a second click, or
        a click on an older message, is refused under the game's lock as out of date)."""
        game, seat = d.game, d.seat
        await interaction.response.defer()
        update = await self.controller.act(interaction, d, {"type": "target", "target": target})
        who = self.who(update.game)
        after = read_view(update.snap.view(seat))
        aim = who.get(target, seat_name(target))
        if after["phase"] == "targets" and after["turn"] == view["turn"]:
            waiting = ", ".join(who.get(k, seat_name(k)) for k in after["waiting_for"]) or "nobody"
            text = (f"🎯 **Target chosen** for turn {view['turn']} of game #{game.id}: {aim}. It stays "
                    f"secret until every cult has chosen (waiting for {waiting}); then the targets are "
                    "revealed together and your order form follows.")
        else:
            text = (f"🎯 **Target chosen** for turn {view['turn']} of game #{game.id}: {aim}. Every "
                    "target is in and revealed in the game's thread; your order form follows.")
        await interaction.edit_original_response(content=text, embed=None, view=None)

    async def confirm(self, interaction: discord.Interaction, d: Decision, view: View, *,
                      replace: bool) -> None:
        """Send the drafted orders as the answer to this form's decision — once. ``replace`` is
        what the form was drawn for (first orders or a replacement), never guessed from the
        current state, so a repeated first Confirm is refused instead of replacing."""
        game, seat = d.game, d.seat
        draft = Draft.from_message(interaction.message) or self.initial(view)
        await interaction.response.defer()
        try:
            update = await self.controller.act(interaction, d,
                                               draft.action(replace=replace, two_step=form.two_step(view)))
        except NotYourTurn:
            if replace:
                raise
            story = await self.late_story(interaction, game.id, d.open.opened)
            if story is not None:
                await interaction.edit_original_response(**story)
                return
            # the same form confirmed twice at once: the first tap sent these orders
            raise TableError(f"your orders for turn {view['turn']} were already sent by your first tap; "
                             "this one was not applied. To change them, use **Change orders**.") from None
        who = self.who(update.game)
        turn = view["turn"]
        after = read_view(update.snap.view(seat))
        revealed = after["turn"] != turn or after["phase"] != "orders"
        embed = form.summary_embed(draft, view, who, title=f"Your orders for turn {turn} (sent)")
        if revealed:
            text = (f"✅ **Orders {'changed' if replace else 'sent'}** for turn {turn} of game #{game.id}. "
                    f"Every cult's orders are in: the reveal is in the game's thread.")
            await interaction.edit_original_response(content=text, embed=embed, view=None)
            return
        waiting = ", ".join(who.get(k, seat_name(k)) for k in after["waiting_for"]) or "nobody"
        text = (f"✅ **Orders {'changed' if replace else 'sent'}** for turn {turn} of game #{game.id}. "
                f"You can change them until the last cult's orders are in (waiting for {waiting}).")
        mine = update.snap.prompt_of(seat) or update.snap.revision_of(seat)
        edit = FORMS.view(form.edit_items(game.id, mine.opened)) if mine is not None else None
        await interaction.edit_original_response(content=text, embed=embed, view=edit)


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(*FORMS.classes)
    await bot.add_cog(CultWarsCog(platform_of(bot)))


async def teardown(bot: commands.Bot) -> None:
    bot.remove_dynamic_items(*FORMS.classes)
