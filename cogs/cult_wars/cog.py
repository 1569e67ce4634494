"""Cult Wars on Discord: the secret order form (by DM, or ephemeral via Decide) and ``/orders``.

Each turn every human leader gets the form by DM (a second DM after the hand); **Decide** on the
board and ``/orders`` open the same form ephemerally. The form edits a draft kept in the form
message (see :mod:`cogs.cult_wars.form`), so a restart loses nothing; **Confirm** sends the whole
orders as one engine action (``"replace": true`` when orders are already in), and the engine
judges them: its refusal is shown to the player as is. Until the last cult's orders are in, a
leader can change them (the sent form offers **Change orders**).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.controller import refusals
from bot.session import TableError
from bot.storage import GameRow
from rules.cult_wars.plan import preset_orders
from rules.engine import Prompt

from . import form
from .form import SLOTS, Draft

if TYPE_CHECKING:
    from bot.app import HeraldBot

KEY = "cult_wars"
JSON = dict[str, Any]


def _cog(interaction: discord.Interaction) -> CultWarsCog:
    cog = interaction.client.get_cog("CultWarsCog")  # type: ignore[attr-defined]
    assert isinstance(cog, CultWarsCog)
    return cog


class FormSelect(discord.ui.DynamicItem[discord.ui.Select[Any]],
                 template=r"herald:cw:(?P<game>\d+):(?P<turn>\d+):(?P<kind>[a-z_]+)"):
    def __init__(self, item: discord.ui.Select[Any]) -> None:
        super().__init__(item, row=item.row)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: Any,
                             match: re.Match[str]) -> FormSelect:
        return cls(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        m = self.template.match(self.custom_id)
        assert m is not None
        data: Any = interaction.data or {}
        values = [str(v) for v in data.get("values", [])]
        await _cog(interaction).on_select(interaction, int(m["game"]), int(m["turn"]), m["kind"], values)


class FormButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                 template=r"herald:cwb:(?P<game>\d+):(?P<turn>\d+):(?P<kind>[a-z_]+)"):
    def __init__(self, item: discord.ui.Button[Any]) -> None:
        super().__init__(item, row=item.row)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: Any,
                             match: re.Match[str]) -> FormButton:
        return cls(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        m = self.template.match(self.custom_id)
        assert m is not None
        await _cog(interaction).on_button(interaction, int(m["game"]), int(m["turn"]), m["kind"])


def as_view(items: list[discord.ui.Item[Any]]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for it in items:
        view.add_item(FormSelect(it) if isinstance(it, discord.ui.Select) else FormButton(it))  # type: ignore[arg-type]
    return view


class CultWarsCog(commands.Cog):
    def __init__(self, bot: HeraldBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.controller.forms[(KEY, "orders")] = self.open_from_decide
        dm_forms = getattr(self.bot.delivery, "dm_forms", None)
        if dm_forms is not None:
            dm_forms[(KEY, "orders")] = self.dm_form
        self.bot.add_dynamic_items(FormSelect, FormButton)

    async def cog_unload(self) -> None:
        self.bot.controller.forms.pop((KEY, "orders"), None)
        getattr(self.bot.delivery, "dm_forms", {}).pop((KEY, "orders"), None)
        self.bot.remove_dynamic_items(FormSelect, FormButton)

    @property
    def sessions(self) -> Any:
        return self.bot.sessions

    # ------------------------------------------------------------------ helpers

    @staticmethod
    def who(game: GameRow) -> dict[int, str]:
        return {s.seat: f"P{s.seat + 1} {discord.utils.escape_mentions(s.name)}"[:60] for s in game.seats}

    @staticmethod
    def presets(view: JSON) -> list[tuple[str, str, JSON]]:
        cults = view["cults"]
        return preset_orders(view["private"]["seat"], len(cults), [c["followers"] for c in cults],
                             [c["vp"] for c in cults])

    def initial(self, view: JSON) -> Draft:
        """The orders already sent, else the first ready-made orders (balanced) to start from."""
        orders = view["private"]["orders"]
        if orders:
            return Draft.from_orders(orders)
        return Draft.from_orders(self.presets(view)[0][2])

    async def context(self, interaction: discord.Interaction, game_id: int,
                      turn: int | None = None) -> tuple[GameRow, int, JSON]:
        game = await self.sessions.get(game_id)
        if game.game_key != KEY:
            raise TableError(f"game #{game_id} is not a Cult Wars game.")
        if game.status != "active":
            raise TableError("this game is over." if game.status == "finished" else "this game is not running.")
        seat = await self.bot.controller.seat_for(interaction, game)
        view = self.sessions.view(game, seat)
        if view["phase"] != "orders":
            raise TableError("the game is over; no more orders are accepted.")
        if turn is not None and view["turn"] != turn:
            raise TableError(f"this order form was for turn {turn}; the game is now at turn {view['turn']}. "
                             f"Open a fresh form with **Decide** or `/orders`.")
        return game, seat, view

    async def payload(self, game: GameRow, seat: int, view: JSON, draft: Draft, page: str,
                      notes: list[str] | None = None) -> dict[str, Any]:
        who = self.who(game)
        sent = view["private"]["orders"] is not None
        due = next((d for d in await self.sessions.storage.deadlines(game.id)
                    if d.seat == seat and d.kind == "orders"), None)
        lines = [f"**Cult Wars — game #{game.id}, turn {view['turn']} of {view['turns']}**: your secret "
                 f"orders (only you see this form)."]
        if due is not None:
            lines.append(f"Due <t:{int(due.due_at)}:R>; after that the computer player writes them.")
        if sent:
            lines.append("Your orders are in; **Confirm** again to replace them (until the last cult's "
                         "orders are in).")
        if page == "quick":
            items = form.quick_items(game.id, view["turn"], self.presets(view))
            lines.append("Pick ready-made orders to load into the form; you can still adjust them.")
        elif page == "slots":
            items = form.slot_items(game.id, draft, view)
            lines.append("Lay strategy cards on each slot (a card picked for another slot moves).")
        else:
            items = form.main_items(game.id, draft, view, who)
        embed = form.summary_embed(draft, view, who, notes=notes or [])
        return {"content": "\n".join(lines), "embed": embed, "view": as_view(items)}

    # ------------------------------------------------------------- entry points

    async def open_from_decide(self, interaction: discord.Interaction, game: GameRow, seat: int,
                               prompt: Prompt) -> None:
        """Decide (board or DM) → the form, ephemerally."""
        view = self.sessions.view(game, seat)
        payload = await self.payload(game, seat, view, self.initial(view), "main")
        await interaction.response.send_message(ephemeral=True, **payload)

    async def dm_form(self, game: GameRow, seat: int, prompt: Prompt) -> dict[str, Any]:
        """The form pushed by DM at the start of each turn."""
        view = self.sessions.view(game, seat)
        return await self.payload(game, seat, view, self.initial(view), "main")

    @app_commands.command(name="orders")
    @app_commands.describe(game="the game number (default: the game of this thread, or your only one)")
    @refusals
    async def orders(self, interaction: discord.Interaction, game: int | None = None) -> None:
        """Cult Wars: open your secret order form (to write or change this turn's orders)."""
        tables = self.bot.get_cog("Tables")
        g = await tables.resolve(interaction, game)  # type: ignore[union-attr]
        g2, seat, view = await self.context(interaction, g.id)
        payload = await self.payload(g2, seat, view, self.initial(view), "main")
        await interaction.response.send_message(ephemeral=True, **payload)

    # ------------------------------------------------------------------- clicks

    async def on_select(self, interaction: discord.Interaction, game_id: int, turn: int, kind: str,
                        values: list[str]) -> None:
        await self.bot.controller.guard(interaction, self._select(interaction, game_id, turn, kind, values))

    async def _select(self, interaction: discord.Interaction, game_id: int, turn: int, kind: str,
                      values: list[str]) -> None:
        game, seat, view = await self.context(interaction, game_id, turn)
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
                draft.target, draft.slots = loaded.target, loaded.slots
                notes.append(f"Loaded “{presets[idx][0]}”: check the slots, then confirm.")
            page = "slots"
        payload = await self.payload(game, seat, view, draft, page, notes)
        await interaction.response.edit_message(**payload)

    async def on_button(self, interaction: discord.Interaction, game_id: int, turn: int, kind: str) -> None:
        await self.bot.controller.guard(interaction, self._button(interaction, game_id, turn, kind))

    async def _button(self, interaction: discord.Interaction, game_id: int, turn: int, kind: str) -> None:
        game, seat, view = await self.context(interaction, game_id, turn)
        if kind == "ok":
            await self.confirm(interaction, game, seat, view)
            return
        if kind == "edit":
            draft = self.initial(view)
            page = "main"
        else:
            draft = Draft.from_message(interaction.message) or self.initial(view)
            page = kind if kind in ("slots", "quick") else "main"
        await interaction.response.edit_message(**await self.payload(game, seat, view, draft, page))

    async def confirm(self, interaction: discord.Interaction, game: GameRow, seat: int, view: JSON) -> None:
        draft = Draft.from_message(interaction.message) or self.initial(view)
        replace = view["private"]["orders"] is not None
        await interaction.response.defer()
        update = await self.sessions.act(game.id, seat, draft.action(replace=replace),
                                         user_id=interaction.user.id)
        who = self.who(update.game)
        turn = view["turn"]
        after = self.sessions.view(update.game, seat) if update.game.state is not None else view
        revealed = after["turn"] != turn or after["phase"] != "orders"
        embed = form.summary_embed(draft, view, who, title=f"Your orders for turn {turn} (sent)")
        if revealed:
            text = (f"✅ **Orders {'changed' if replace else 'sent'}** for turn {turn} of game #{game.id}. "
                    f"Every cult's orders are in: the reveal is in the game's thread.")
            await interaction.edit_original_response(content=text, embed=embed, view=None)
            return
        waiting = ", ".join(who.get(k, f"P{k + 1}") for k in after["waiting_for"]) or "nobody"
        text = (f"✅ **Orders {'changed' if replace else 'sent'}** for turn {turn} of game #{game.id}. "
                f"You can change them until the last cult's orders are in (waiting for {waiting}).")
        await interaction.edit_original_response(content=text, embed=embed,
                                                 view=as_view(form.edit_items(game.id, turn)))


async def setup(bot: HeraldBot) -> None:
    await bot.add_cog(CultWarsCog(bot))
