"""Flick of Faith on Discord: ``/flick``, ``/aim`` and the flick form behind **Decide**.

Thin: find the game and the player's seat → build the engine action → ``Sessions.act`` → answer.
The engine checks every rule (ranges, pieces, whose turn); its RulesError text is shown as is.
Enumerated prompts (god, vote, build, Anubis, temple reuse) go through the generic Decide panel;
the free-form flick prompts (``flick`` in turn order, secret ``contest_flick``) get the form here.

Angle convention (rulebook "Flicking on Discord", drawn at every corner of the board image):
0 = from your disc straight at the navel, positive = clockwise on the board picture, −180..180;
power 1..10. Decimals are allowed everywhere.
"""

from __future__ import annotations

import io
import math
import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.controller import refusals, reply
from bot.render import to_png
from bot.session import TableError
from bot.storage import GameRow
from bot.text import NO_PINGS, clip, humanise, seat_label
from rules.engine import Prompt
from rules.flick_of_faith import map as board

from .ui import UI

if TYPE_CHECKING:
    from bot.app import HeraldBot

KEY = "flick_of_faith"
ANGLE_RANGE = (-180.0, 180.0)
POWER_RANGE = (1.0, 10.0)
CONVENTION = ("**Angle** in degrees, −180 to 180: **0 = from your disc straight at the navel**, "
              "positive turns **clockwise** on the board picture, negative anticlockwise (your corner "
              "shows the 0° arrow and the ±30°/±60° lines). **Power** 1 to 10 (≈5 reaches a near city, "
              "≈6 the navel, 10 slides off the far side). Decimals are fine, e.g. `-28.5` and `5.2`.")
PIECES = [app_commands.Choice(name=k, value=k) for k in ("prophet", "templar", "sphinx", "heart")]
HANDS = [app_commands.Choice(name=k, value=k) for k in board.HAND_TARGETS]


def parse_number(raw: str, name: str, lo: float, hi: float) -> float:
    """A modal field → float; an unreadable value is refused with the allowed range."""
    text = raw.strip().replace(",", ".").replace("−", "-").rstrip("°")
    try:
        value = float(text)
    except ValueError:
        raise TableError(f"{name} `{clip(raw, 30)}` is not a number; give a number from "
                         f"{lo:g} to {hi:g}.") from None
    if not math.isfinite(value):
        raise TableError(f"{name} must be a number from {lo:g} to {hi:g}.")
    return value


def corner_name(view: dict[str, Any], seat: int) -> str:
    return board.CORNER_NAMES[int(view["corners"][seat])]


class FlickCog(commands.Cog):
    def __init__(self, bot: HeraldBot) -> None:
        self.bot = bot

    @property
    def sessions(self) -> Any:
        return self.bot.sessions

    async def cog_load(self) -> None:
        self.bot.controller.forms[(KEY, "flick")] = self.open_form
        self.bot.add_dynamic_items(FlickFormButton)

    async def cog_unload(self) -> None:
        self.bot.controller.forms.pop((KEY, "flick"), None)
        self.bot.remove_dynamic_items(FlickFormButton)

    # ------------------------------------------------------------- finding the player

    async def find_game(self, interaction: discord.Interaction, game_id: int | None) -> GameRow:
        """The Flick of Faith game of this thread (or the one named); clear refusals otherwise."""
        tables: Any = self.bot.get_cog("Tables")
        try:
            game: GameRow = await tables.resolve(interaction, game_id)
        except TableError as first:
            try:
                over: GameRow = await tables.resolve(interaction, game_id, ("finished", "cancelled"))
            except TableError:
                raise first from None
            if over.game_key == KEY:
                raise TableError(f"game #{over.id} is over — no more flicks.") from None
            raise
        if game.game_key != KEY:
            raise TableError(f"game #{game.id} is not a Flick of Faith game; `/flick` and `/aim` "
                             "only work there.")
        return game

    @staticmethod
    def seat_of(interaction: discord.Interaction, game: GameRow) -> int:
        seat = game.seat_of(interaction.user.id)
        if seat is None:
            raise TableError("you are not playing in this game — only seated players can flick.")
        return seat

    def flick_prompt(self, game: GameRow, seat: int) -> Prompt:
        """The seat's open flick prompt, or a refusal saying who is awaited and for what."""
        if game.status == "finished":
            raise TableError(f"game #{game.id} is over — no more flicks.")
        if game.status != "active":
            raise TableError("this game is not running.")
        prompts: list[Prompt] = self.sessions.prompts(game)
        mine = next((p for p in prompts if p.seat == seat), None)
        if mine is None:
            waiting = "; ".join(dict.fromkeys(f"{seat_label(game, p.seat)} ({p.kind.replace('_', ' ')})"
                                              for p in prompts)) or "nobody"
            raise TableError(f"it is not your turn to flick — waiting for {waiting}.")
        if mine.free_form != "flick":
            raise TableError(f"there is no flick to make now: your decision is a "
                             f"{mine.kind.replace('_', ' ')}. Use **Decide** on the board.")
        return mine

    # ------------------------------------------------------------- the one flick path

    async def flick_for(self, interaction: discord.Interaction, game_id: int, angle: float,
                        power: float, piece: str | None = None, hand: str | None = None) -> None:
        """/flick and the modal both end here: defer, check the prompt, act, answer privately."""
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)
        game = await self.sessions.get(game_id)
        seat = self.seat_of(interaction, game)
        prompt = self.flick_prompt(game, seat)
        action: dict[str, Any] = {"type": "flick", "angle": angle, "power": power}
        secret = prompt.kind == "contest_flick"
        note = ""
        if secret and (piece or hand):
            note = "\n(`piece` and `hand` only apply to Mission flicks; this flick uses a prophet.)"
        else:
            if piece:
                action["piece"] = piece
            if hand:
                action["hand"] = hand
        update = await self.sessions.act(game.id, seat, action, user_id=interaction.user.id)
        if secret:
            text = (f"🔒 Your secret flick is locked in: angle {angle:g}, power {power:g}. "
                    "Nobody sees it until everyone has flicked; then all flicks slide together.")
            if any(e.kind == "flick" for e in update.events):
                text += "\nEveryone has flicked — the result is on the board."
        else:
            mine = next((e for e in update.events if e.kind == "flick" and e.to is None), None)
            text = "✅ " + (humanise(mine.text, update.game) if mine else f"Flicked: angle {angle:g}, power {power:g}.")
            nxt = next((p for p in self.sessions.prompts(update.game) if p.seat == seat), None)
            if nxt is not None:
                text += f"\n➡️ Next for you: {nxt.kind.replace('_', ' ')} — "
                text += ("flick again with `/flick`." if nxt.free_form == "flick" else "press **Decide** on the board.")
        await interaction.followup.send(clip(text + note), ephemeral=True, allowed_mentions=NO_PINGS)

    async def aim_for(self, interaction: discord.Interaction, game_id: int, angle: float, power: float,
                      piece: str | None = None, hand: str | None = None) -> None:
        """The private aim preview (an ephemeral image); refused under Eyes Closed."""
        game = await self.sessions.get(game_id)
        if game.status != "active":
            raise TableError(f"game #{game.id} is over." if game.status == "finished" else "this game is not running.")
        seat = self.seat_of(interaction, game)
        view = self.sessions.view(game, seat)
        if not view.get("aim_preview", True):
            raise TableError("Eyes Closed is in force: no aim preview this Generation. Trust your fingers!")
        for name, value, (lo, hi) in (("angle", angle, ANGLE_RANGE), ("power", power, POWER_RANGE)):
            if not math.isfinite(value) or not lo <= value <= hi:
                raise TableError(f"{name} {value:g} is out of range: {name} must be from {lo:g} to {hi:g}.")
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)

        def draw() -> bytes:
            return to_png(UI.aim_image(view, seat, angle, power, piece=piece, hand=hand))

        png = await self.sessions.cpu(draw)
        await interaction.followup.send(
            f"🎯 Aim preview (only you see this), from your {corner_name(view, seat)} corner: angle "
            f"{angle:g}, power {power:g}. Real flicks wobble a little. Flick with "
            f"`/flick angle:{angle:g} power:{power:g}`.",
            file=discord.File(io.BytesIO(png), filename="aim.png"),
            ephemeral=True, allowed_mentions=NO_PINGS)

    # ------------------------------------------------------------- slash commands

    @app_commands.command(name="flick")
    @app_commands.describe(angle="degrees, -180 to 180: 0 = straight at the navel, + = clockwise on the board",
                           power="1 to 10 (5 ≈ a near city, 6 ≈ the navel); decimals allowed",
                           piece="which disc to flick (default: a prophet); heart = Freja's Heart",
                           hand="Dagda only: stand the Hand of God beyond island I–IV or the navel",
                           game="game number, if you play several here")
    @app_commands.choices(piece=PIECES, hand=HANDS)
    @refusals
    async def flick(self, interaction: discord.Interaction, angle: float, power: float,
                    piece: str | None = None, hand: str | None = None, game: int | None = None) -> None:
        """Flick your disc: angle 0 points at the navel, + is clockwise; power 1–10."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        g = await self.find_game(interaction, game)
        await self.flick_for(interaction, g.id, angle, power, piece, hand)

    @app_commands.command(name="aim")
    @app_commands.describe(angle="degrees, -180 to 180: 0 = straight at the navel, + = clockwise on the board",
                           power="1 to 10; decimals allowed", piece="which disc you would flick",
                           hand="Dagda only: where the Hand of God would stand",
                           game="game number, if you play several here")
    @app_commands.choices(piece=PIECES, hand=HANDS)
    @refusals
    async def aim(self, interaction: discord.Interaction, angle: float, power: float,
                  piece: str | None = None, hand: str | None = None, game: int | None = None) -> None:
        """Privately preview where a flick would go (no wobble) before you commit."""
        g = await self.find_game(interaction, game)
        await self.aim_for(interaction, g.id, angle, power, piece, hand)

    # ------------------------------------------------------------- Decide → the flick form

    async def open_form(self, interaction: discord.Interaction, game: GameRow, seat: int,
                        prompt: Prompt) -> None:
        """What Decide shows for a flick prompt: how to flick, and buttons for a small form."""
        view = self.sessions.view(game, seat)
        secret = "🔒 This flick is secret: it is revealed when everyone has flicked.\n" \
            if prompt.kind == "contest_flick" else ""
        aim_ok = view.get("aim_preview", True)
        text = (f"**{prompt.text}**\n{secret}You flick from the **{corner_name(view, seat)}** corner.\n"
                f"{CONVENTION}\nType `/flick angle:<degrees> power:<1–10>` or use the form below."
                + (" `/aim` (or **Preview aim…**) shows privately where a flick would go." if aim_ok
                   else " Eyes Closed is in force: no aim preview."))
        await reply(interaction, text, view=form_view(game.id, game.version, aim=aim_ok))

    async def show_modal(self, interaction: discord.Interaction, game_id: int, op: str) -> None:
        game = await self.sessions.get(game_id)
        seat = self.seat_of(interaction, game)
        if op == "flick":
            prompt = self.flick_prompt(game, seat)
            mission = prompt.kind == "flick"
        else:
            if game.status != "active":
                raise TableError("this game is over." if game.status == "finished" else "this game is not running.")
            mission = True
        god = (self.sessions.view(game, seat)["gods"][seat] or "")
        await interaction.response.send_modal(FlickModal(self, game.id, op, mission=mission,
                                                         dagda=god == "dagda"))


def form_view(game_id: int, version: int, *, aim: bool) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(FlickFormButton(game_id, version, "flick"))
    if aim:
        view.add_item(FlickFormButton(game_id, version, "aim"))
    return view


class FlickFormButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                      template=r"herald:fof:(?P<op>flick|aim):(?P<game>\d+):(?P<version>\d+)"):
    """Opens the angle/power form; the custom_id carries only the game, its version and the op."""

    def __init__(self, game_id: int, version: int, op: str) -> None:
        label, style = (("Flick…", discord.ButtonStyle.primary) if op == "flick"
                        else ("Preview aim…", discord.ButtonStyle.secondary))
        super().__init__(discord.ui.Button(label=label, style=style,
                                           custom_id=f"herald:fof:{op}:{game_id}:{version}"))
        self.game_id, self.version, self.op = game_id, version, op

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: Any,
                             match: re.Match[str]) -> FlickFormButton:
        return cls(int(match["game"]), int(match["version"]), match["op"])

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: Any = interaction.client
        cog: FlickCog = bot.get_cog("FlickCog")
        await bot.controller.guard(interaction, cog.show_modal(interaction, self.game_id, self.op))


class FlickModal(discord.ui.Modal):
    """Angle and power (plus piece / hand where they apply); submitted through ``flick_for``."""

    def __init__(self, cog: FlickCog, game_id: int, op: str, *, mission: bool, dagda: bool) -> None:
        super().__init__(title="Flick" if op == "flick" else "Preview aim (private)", timeout=900,
                         custom_id=f"herald:fof:modal:{op}:{game_id}")
        self.cog, self.game_id, self.op = cog, game_id, op
        self.angle: discord.ui.TextInput[Any] = discord.ui.TextInput(
            label="Angle (0 = at the navel, + = clockwise)", placeholder="-180 to 180, e.g. -28.5",
            custom_id="angle", max_length=12)
        self.power: discord.ui.TextInput[Any] = discord.ui.TextInput(
            label="Power (1 to 10)", placeholder="e.g. 5.2 (5 ≈ a near city, 6 ≈ the navel)",
            custom_id="power", max_length=12)
        self.add_item(self.angle)
        self.add_item(self.power)
        self.piece: discord.ui.TextInput[Any] | None = None
        self.hand: discord.ui.TextInput[Any] | None = None
        if mission:
            self.piece = discord.ui.TextInput(label="Piece (optional)", required=False, max_length=10,
                                              placeholder="prophet, templar, sphinx or heart", custom_id="piece")
            self.add_item(self.piece)
        if mission and dagda:
            self.hand = discord.ui.TextInput(label="Hand of God (optional, Dagda)", required=False,
                                             max_length=6, placeholder="I, II, III, IV or navel", custom_id="hand")
            self.add_item(self.hand)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        bot: Any = interaction.client

        async def run() -> None:
            angle = parse_number(self.angle.value, "angle", *ANGLE_RANGE)
            power = parse_number(self.power.value, "power", *POWER_RANGE)
            piece = (self.piece.value.strip().lower() or None) if self.piece is not None else None
            hand = (self.hand.value.strip() or None) if self.hand is not None else None
            if hand is not None and hand.lower() == "navel":
                hand = "navel"
            elif hand is not None:
                hand = hand.upper()
            if self.op == "flick":
                await self.cog.flick_for(interaction, self.game_id, angle, power, piece, hand)
            else:
                await self.cog.aim_for(interaction, self.game_id, angle, power, piece, hand)

        await bot.controller.guard(interaction, run())


async def setup(bot: HeraldBot) -> None:
    await bot.add_cog(FlickCog(bot))
