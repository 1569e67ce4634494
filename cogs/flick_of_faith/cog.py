"""Flick of Faith on Discord: ``/flick``, ``/aim``, ``/temple`` and their forms behind **Decide**.

Thin: find the game and the player's seat → build the engine action → ``Sessions.act`` → answer.
The engine checks every rule (ranges, pieces, whose turn); its RulesError text is shown as is.
Enumerated prompts (god, vote, Anubis, temple reuse) go through the generic Decide panel; the
free-form flick prompts (``flick`` in turn order, secret ``contest_flick``) and temple placement
(``build``, free-form ``temple``) get their panels here: the prompt's shortcut choices as buttons
("Leave it where it lies", a temple on a city, "Stop building") plus the forms.

A temple's place is given as an island, a clock direction (12 up, 3 right on the board picture)
and a distance from the city; the cog turns that into board coordinates for the engine, which
checks the place and says why when it is not allowed. ``/temple … preview:True`` (or **Preview
place…**) draws the island close up with the temple where it would stand, privately.

Angle convention (rulebook "Flicking on Discord", drawn at every corner of the board image):
0 = from your disc straight at the navel, positive = clockwise on the board picture, −180..180;
power 1..10. Decimals are allowed everywhere.
"""

from __future__ import annotations

import io
import math
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import NothingToDecide, TableError
from bot.forms import NO_DECISION, Payload
from bot.parsing import parse_id, shown
from bot.platform import Platform, platform_of
from bot.refusals import answering, refusals
from bot.session import Decision, Ticket
from bot.storage import GameRow
from bot.text import NO_PINGS, clip, humanise
from bot.views import Claims, checked_ticket, choice_view
from rules.flick_of_faith import gods, temples
from rules.flick_of_faith import map as board
from rules.flick_of_faith.views import View, read_view

from .placement import placement_image, problem_for
from .render import aim_alt, aim_image

KEY = "flick_of_faith"
ANGLE_RANGE = (-180.0, 180.0)
POWER_RANGE = (1.0, 10.0)
CONVENTION = ("**Angle** in degrees, −180 to 180: **0 = from your disc straight at the navel**, "
              "positive turns **clockwise** on the board picture, negative anticlockwise (your corner "
              "shows the 0° arrow and the ±30°/±60° lines). **Power** 1 to 10 (≈5 reaches a near city, "
              "≈6 the navel, 10 slides off the far side). Decimals are fine, e.g. `-28.5` and `5.2`.")
PIECES = [app_commands.Choice(name=k, value=k) for k in ("prophet", "templar", "sphinx", "heart")]
HANDS = [app_commands.Choice(name=k, value=k) for k in board.HAND_TARGETS]
ISLANDS = [app_commands.Choice(name=f"island {i.name}", value=i.name) for i in board.ISLANDS]
CLOCK_RANGE = (0.0, 12.0)
PLACE_HELP = (f"**Where:** an island, a **clock** direction as seen on the board picture (12 up, 3 right, "
              f"6 down, 9 left; decimals like `4.5` are fine) and a **distance** from the city "
              f"(0 = on the city, up to {temples.MAX_DISTANCE:g}: the whole temple stays on the island). "
              "It may not overlap another disc. Type `/temple island:II clock:4 distance:6` "
              "(add `preview:True` to see the spot privately first) or use the buttons below.")


def parse_number(raw: str, name: str, lo: float, hi: float) -> float:
    """A modal field → float; an unreadable value is refused with the allowed range."""
    text = raw.strip().replace(",", ".").replace("−", "-").rstrip("°")
    try:
        value = float(text)
    except ValueError:
        raise TableError(f"{name} `{shown(raw)}` is not a number; give a number from "
                         f"{lo:g} to {hi:g}.") from None
    if not math.isfinite(value):
        raise TableError(f"{name} must be a number from {lo:g} to {hi:g}.")
    return value


def corner_name(view: View, seat: int) -> str:
    return board.CORNER_NAMES[int(view["corners"][seat])]


def flick_inputs(*, mission: bool, dagda: bool) -> list[discord.ui.TextInput[Any]]:
    """Angle and power, plus piece and Hand of God where they apply."""
    inputs: list[discord.ui.TextInput[Any]] = [
        discord.ui.TextInput(label="Angle (0 = at the navel, + = clockwise)", custom_id="angle",
                             placeholder="-180 to 180, e.g. -28.5", max_length=12),
        discord.ui.TextInput(label="Power (1 to 10)", custom_id="power", max_length=12,
                             placeholder="e.g. 5.2 (5 ≈ a near city, 6 ≈ the navel)")]
    if mission:
        inputs.append(discord.ui.TextInput(label="Piece (optional)", required=False, max_length=10,
                                           placeholder="prophet, templar, sphinx or heart", custom_id="piece"))
    if mission and dagda:
        inputs.append(discord.ui.TextInput(label="Hand of God (optional, Dagda)", required=False, max_length=6,
                                           placeholder="I, II, III, IV or navel", custom_id="hand"))
    return inputs


def island_index(raw: str) -> int:
    """``II``, ``ii``, ``island II`` or ``2`` → 1; a clear refusal otherwise."""
    text = raw.strip().upper().removeprefix("ISLAND").strip()
    names = [i.name for i in board.ISLANDS]
    if text in names:
        return names.index(text)
    if text in ("1", "2", "3", "4"):
        return int(text) - 1
    raise TableError(f"island `{shown(raw)}` is not on the map; give I, II, III or IV.")


def place_inputs(default_island: str) -> list[discord.ui.TextInput[Any]]:
    """Island, clock and distance: where a temple goes."""
    return [
        discord.ui.TextInput(label="Island (I, II, III or IV)", custom_id="island", max_length=10,
                             default=default_island or None, placeholder="e.g. II"),
        discord.ui.TextInput(label="Clock direction (12 = up, 3 = right)", custom_id="clock", max_length=8,
                             placeholder="0 to 12, e.g. 4.5"),
        discord.ui.TextInput(label=f"Distance from the city (0 to {temples.MAX_DISTANCE:g})",
                             custom_id="distance", max_length=8, placeholder="e.g. 6")]


def read_place(values: dict[str, str]) -> tuple[int, float, float]:
    """A submitted place form → island index, clock, distance (refusing unreadable numbers)."""
    island = island_index(values.get("island", ""))
    clock = parse_number(values.get("clock", ""), "clock", *CLOCK_RANGE)
    distance = parse_number(values.get("distance", ""), "distance", 0.0, temples.MAX_DISTANCE)
    return island, clock, distance


def place_point(island: int, clock: float, distance: float) -> tuple[float, float]:
    """Board coordinates of a place, after checking the clock and distance ranges (the engine
    checks the rest and says why a place is refused)."""
    if not CLOCK_RANGE[0] <= clock <= CLOCK_RANGE[1]:
        raise TableError(f"clock {clock:g} is out of range: give a direction from 0 to 12 (12 = up).")
    if distance < 0:
        raise TableError(f"distance {distance:g} is out of range: give a distance from 0 (the city) "
                         f"to {temples.MAX_DISTANCE:g}.")
    return temples.from_clock(island, clock, distance)


def read_inputs(values: dict[str, str]) -> tuple[float, float, str | None, str | None]:
    """A submitted flick or aim form → angle, power, piece, hand (refusing unreadable numbers)."""
    angle = parse_number(values.get("angle", ""), "angle", *ANGLE_RANGE)
    power = parse_number(values.get("power", ""), "power", *POWER_RANGE)
    piece = values.get("piece", "").strip().lower() or None
    hand = values.get("hand", "").strip() or None
    if hand is not None:
        hand = "navel" if hand.lower() == "navel" else hand.upper()
    return angle, power, piece, hand


class FlickCog(commands.Cog):
    def __init__(self, herald: Platform) -> None:
        self.herald = herald
        self.sessions = herald.sessions
        self.controller = herald.controller

    async def cog_load(self) -> None:
        forms = self.herald.forms
        forms.add_panel(KEY, "flick", self.panel)
        forms.add_panel(KEY, "temple", self.temple_panel)
        forms.add_modal("fof_flick", self.flick_submitted)
        forms.add_modal("fof_aim", self.aim_submitted)
        forms.add_modal("fof_temple", self.temple_submitted)
        forms.add_modal("fof_where", self.where_submitted)

    async def cog_unload(self) -> None:
        forms = self.herald.forms
        forms.remove(KEY)
        for name in ("fof_flick", "fof_aim", "fof_temple", "fof_where"):
            forms.remove_modal(name)

    # ------------------------------------------------------------- finding the player

    async def find_game(self, interaction: discord.Interaction, game_id: int | None) -> GameRow:
        """The Flick of Faith game of this thread (or the one named); clear refusals otherwise."""
        try:
            game = await self.controller.resolve(interaction, game_id)
        except TableError as first:
            try:
                over = await self.controller.resolve(interaction, game_id, ("finished", "cancelled"))
            except TableError:
                raise first from None
            if over.game_key == KEY:
                raise TableError(f"game #{over.id} is over — no more flicks.") from None
            raise
        if game.game_key != KEY:
            raise TableError(f"game #{game.id} is not a Flick of Faith game; `/flick`, `/aim` and `/temple` "
                             "only work there.")
        return game

    async def flick_decision(self, interaction: discord.Interaction, game: GameRow | int,
                             ticket: Ticket | None = None) -> Decision:
        """The player's open flick, or a refusal saying who is awaited and for what."""
        try:
            d = await self.controller.decision(interaction, game, ticket, game_key=KEY)
        except NothingToDecide as exc:
            raise TableError(f"it is not your turn to flick — waiting for {exc.waiting}.") from None
        if d.prompt.free_form != "flick":
            raise TableError(f"there is no flick to make now: your decision is a "
                             f"{d.prompt.kind.replace('_', ' ')}. Use **Decide** on the board.")
        return d

    # ------------------------------------------------------------- the one flick path

    async def flick_for(self, interaction: discord.Interaction, d: Decision, answers: Ticket,
                        angle: float, power: float, piece: str | None = None,
                        hand: str | None = None) -> None:
        """/flick and the form both end here: act on the decision they answer, answer privately."""
        prompt = d.prompt
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
        update = await self.controller.act(interaction, d, action, answers)
        if secret:
            text = (f"🔒 Your secret flick is locked in: angle {angle:g}, power {power:g}. "
                    "Nobody sees it until everyone has flicked; then all flicks slide together.")
            if any(e.kind == "flick" for e in update.events):
                text += "\nEveryone has flicked — the result is on the board."
        else:
            mine = next((e for e in update.events if e.kind == "flick" and e.to is None), None)
            text = "✅ " + (humanise(mine.text, update.game) if mine else f"Flicked: angle {angle:g}, power {power:g}.")
            nxt = update.snap.prompt_of(d.seat)
            if nxt is not None:
                text += f"\n➡️ Next for you: {nxt.prompt.kind.replace('_', ' ')} — "
                text += ("flick again with `/flick`." if nxt.prompt.free_form == "flick"
                         else "press **Decide** on the board.")
        await interaction.followup.send(clip(text + note), ephemeral=True, allowed_mentions=NO_PINGS)

    async def aim_for(self, interaction: discord.Interaction, game: GameRow, angle: float, power: float,
                      piece: str | None = None, hand: str | None = None) -> None:
        """The private aim preview (an ephemeral image); refused under Eyes Closed. ``game`` is
        found by the controller (``resolve`` or ``game_for``), so it is one visible here."""
        snap = await self.sessions.snapshot(game)
        row = snap.game
        if row.status != "active":
            raise TableError(f"game #{row.id} is over." if row.status == "finished" else "this game is not running.")
        seat = row.seat_of(interaction.user.id)
        if seat is None:
            raise TableError("you are not playing in this game — only seated players can flick.")
        view = read_view(snap.view(seat))
        if not view.get("aim_preview", True):
            raise TableError("Eyes Closed is in force: no aim preview this Generation. Trust your fingers!")
        for name, value, (lo, hi) in (("angle", angle, ANGLE_RANGE), ("power", power, POWER_RANGE)):
            if not math.isfinite(value) or not lo <= value <= hi:
                raise TableError(f"{name} {value:g} is out of range: {name} must be from {lo:g} to {hi:g}.")
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)

        names = [s.name for s in row.seats]

        png = await self.sessions.picture(aim_image, view, seat, angle, power, piece=piece,
                                          hand=hand, names=names)
        await interaction.followup.send(
            f"🎯 Aim preview (only you see this), from your {corner_name(view, seat)} corner: angle "
            f"{angle:g}, power {power:g}. Real flicks wobble a little. Flick with "
            f"`/flick angle:{angle:g} power:{power:g}`.",
            file=discord.File(io.BytesIO(png), filename="aim.png",
                              description=aim_alt(view, seat, angle, power)),
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
        # the decision this command answers is the one open when it arrives: a second /flick sent
        # at the same moment answers the same decision and is refused under the game's lock
        g = await self.find_game(interaction, game)
        d = await self.flick_decision(interaction, g)
        await self.flick_for(interaction, d, Ticket(d.open.opened), angle, power, piece, hand)

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
        await self.aim_for(interaction, g, angle, power, piece, hand)

    @app_commands.command(name="temple")
    @app_commands.describe(island="the island the temple goes on",
                           clock="direction from the city as on the board picture: 12 up, 3 right (0–12)",
                           distance=f"from the city: 0 = on it, up to {temples.MAX_DISTANCE:g}",
                           preview="only show privately where it would stand (and whether it may)",
                           game="game number, if you play several here")
    @app_commands.choices(island=ISLANDS)
    @refusals
    async def temple(self, interaction: discord.Interaction, island: str, clock: float, distance: float,
                     preview: bool = False, game: int | None = None) -> None:
        """Place the temple you are building: an island, a clock direction and a distance."""
        g = await self.find_game(interaction, game)
        if preview:
            await self.where_for(interaction, g, island_index(island), clock, distance)
            return
        d = await self.build_decision(interaction, g)
        await self.temple_for(interaction, d, Ticket(d.open.opened), island_index(island), clock, distance)

    # ------------------------------------------------------------- Decide → the flick form

    async def panel(self, d: Decision) -> Payload:
        """What Decide shows for a flick prompt: how to flick, and buttons for the form."""
        view = read_view(d.view())
        prompt = d.prompt
        secret = "🔒 This flick is secret: it is revealed when everyone has flicked.\n" \
            if prompt.kind == "contest_flick" else ""
        aim_ok = view.get("aim_preview", True)
        text = (f"**{prompt.text}**\n{secret}You flick from the **{corner_name(view, d.seat)}** corner.\n"
                f"{CONVENTION}\nType `/flick angle:<degrees> power:<1–10>` or use the form below."
                + (" `/aim` (or **Preview aim…**) shows privately where a flick would go." if aim_ok
                   else " Eyes Closed is in force: no aim preview."))
        if prompt.choices:  # a disc still in the corner: "Leave it where it lies" as a button
            text += "\nOr leave the disc where it lies (it stays in your corner, in the sea)."
        base = choice_view(d.game.id, d.open) if prompt.choices else None
        return {"content": clip(text), "view": form_view(d.game.id, str(d.ticket), aim=aim_ok, base=base)}

    async def temple_panel(self, d: Decision) -> Payload:
        """What Decide shows for building: the shortcuts (a temple on a free city, stop) as
        buttons, and the place and preview forms."""
        text = f"**{d.prompt.text}**\n{PLACE_HELP}"
        view = choice_view(d.game.id, d.open)
        for op in ("temple", "where"):
            view.add_item(FlickFormButton(d.game.id, str(d.ticket), op))
        return {"content": clip(text), "view": view}

    async def build_decision(self, interaction: discord.Interaction, game: GameRow | int,
                             ticket: Ticket | None = None) -> Decision:
        """The player's open temple placement, or a refusal that says why not."""
        try:
            d = await self.controller.decision(interaction, game, ticket, game_key=KEY)
        except NothingToDecide as exc:
            raise TableError(f"you have no temple to place now — waiting for {exc.waiting}.") from None
        if d.prompt.free_form != "temple":
            raise TableError("you have no temple to place now: a temple is built right after your "
                             "flick, when one of your prophets touches a city.")
        return d

    async def temple_for(self, interaction: discord.Interaction, d: Decision, answers: Ticket,
                         island: int, clock: float, distance: float) -> None:
        """``/temple`` and the place form end here: build at that place, answer privately."""
        x, y = place_point(island, clock, distance)
        update = await self.controller.act(interaction, d, {"type": "build", "x": x, "y": y}, answers)
        built = next((e for e in update.events if e.to is None and "temple" in e.text
                      and ("builds" in e.text or "moves" in e.text)), None)
        text = "✅ " + (humanise(built.text, update.game) if built else "Your temple's place is chosen.")
        nxt = update.snap.prompt_of(d.seat)
        if nxt is not None and nxt.prompt.kind in ("build", "reuse"):
            text += ("\n➡️ Next for you: another temple — `/temple` or **Decide**."
                     if nxt.prompt.kind == "build" else
                     "\n➡️ Next for you: choose which built temple moves there — press **Decide** on the board.")
        await interaction.followup.send(clip(text), ephemeral=True, allowed_mentions=NO_PINGS)

    async def where_for(self, interaction: discord.Interaction, game: GameRow, island: int,
                        clock: float, distance: float) -> None:
        """The private placement preview: the island close up, the temple where it would stand,
        and what the engine would say about that place."""
        x, y = place_point(island, clock, distance)
        snap = await self.sessions.snapshot(game)
        row = snap.game
        if row.status != "active":
            raise TableError(f"game #{row.id} is over." if row.status == "finished" else "this game is not running.")
        seat = row.seat_of(interaction.user.id)
        if seat is None:
            raise TableError("you are not playing in this game — only seated players build temples.")
        view = read_view(snap.view(seat))
        mine = snap.prompt_of(seat)
        params = dict(mine.prompt.params) if mine is not None and mine.prompt.free_form == "temple" else None
        why = problem_for(view, params, island, x, y)
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)

        png = await self.sessions.picture(placement_image, view, seat, island, x, y, why)
        where = temples.describe(island, x, y)
        verdict = "a temple may stand there" if why is None else f"not there: {why}"
        await interaction.followup.send(
            clip(f"🏛️ Placement preview (only you see this): {where} — {verdict}"
                 + (f"\nBuild it with `/temple island:{board.ISLANDS[island].name} clock:{clock:g} "
                    f"distance:{distance:g}`." if why is None else "")),
            file=discord.File(io.BytesIO(png), filename="temple.png",
                              description=f"Island {board.ISLANDS[island].name} close up with the temple at {where}."),
            ephemeral=True, allowed_mentions=NO_PINGS)

    async def show_modal(self, interaction: discord.Interaction, game_id: int, op: str, ticket: Ticket) -> None:
        if op in ("temple", "where"):
            d = await self.build_decision(interaction, game_id, ticket)
            cities = {int(o["city"]) for o in d.prompt.params.get("prophets", [])}
            default = board.ISLANDS[min(cities)].name if len(cities) == 1 else ""
            title = "Place your temple" if op == "temple" else "Preview a temple's place (private)"
            await interaction.response.send_modal(self.herald.forms.modal(
                f"fof_{op}", game_id, d.ticket if op == "temple" else NO_DECISION, title,
                place_inputs(default)))
            return
        if op == "flick":
            d = await self.flick_decision(interaction, game_id, ticket)
            mission, seat, snap = d.prompt.kind == "flick", d.seat, d.snap
            answers = d.ticket
        else:
            snap = await self.sessions.snapshot(await self.controller.game_for(interaction, game_id))
            if snap.game.status != "active":
                raise TableError("this game is over." if snap.game.status == "finished" else "this game is not running.")
            found = snap.game.seat_of(interaction.user.id)
            if found is None:
                raise TableError("you are not playing in this game — only seated players can flick.")
            mission, seat, answers = True, found, NO_DECISION
        hand = gods.rule(read_view(snap.view(seat))["gods"][seat]).hand
        title = "Flick" if op == "flick" else "Preview aim (private)"
        await interaction.response.send_modal(self.herald.forms.modal(
            f"fof_{op}", game_id, answers, title, flick_inputs(mission=mission, dagda=hand)))

    async def flick_submitted(self, interaction: discord.Interaction, game_id: int, ticket: Ticket,
                              values: dict[str, str]) -> None:
        """The flick form, sent — also after a restart or a long think; applied once."""
        angle, power, piece, hand = read_inputs(values)
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)
        d = await self.flick_decision(interaction, game_id, ticket)
        await self.flick_for(interaction, d, ticket, angle, power, piece, hand)

    async def aim_submitted(self, interaction: discord.Interaction, game_id: int, ticket: Ticket,
                            values: dict[str, str]) -> None:
        angle, power, piece, hand = read_inputs(values)
        game = await self.controller.game_for(interaction, game_id)
        await self.aim_for(interaction, game, angle, power, piece, hand)


    async def temple_submitted(self, interaction: discord.Interaction, game_id: int, ticket: Ticket,
                               values: dict[str, str]) -> None:
        """The place form, sent: build there (once, under the game's lock)."""
        island, clock, distance = read_place(values)
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)
        d = await self.build_decision(interaction, game_id, ticket)
        await self.temple_for(interaction, d, ticket, island, clock, distance)

    async def where_submitted(self, interaction: discord.Interaction, game_id: int, ticket: Ticket,
                              values: dict[str, str]) -> None:
        island, clock, distance = read_place(values)
        game = await self.controller.game_for(interaction, game_id)
        await self.where_for(interaction, game, island, clock, distance)

def form_view(game_id: int, ticket: str, *, aim: bool, base: discord.ui.View | None = None) -> discord.ui.View:
    view = base if base is not None else discord.ui.View(timeout=None)
    view.add_item(FlickFormButton(game_id, ticket, "flick"))
    if aim:
        view.add_item(FlickFormButton(game_id, ticket, "aim"))
    return view


class FlickFormButton(Claims, discord.ui.DynamicItem[discord.ui.Button[Any]],
                      template=r"herald:fof:(?P<op>flick|aim|temple|where):(?P<game>\d+):(?P<ticket>\d+-[0-9a-f]+)"):
    """Opens the angle/power form or the temple place form; the custom_id carries the game, the
    decision and the op."""

    LABELS = {"flick": ("Flick…", discord.ButtonStyle.primary),
              "aim": ("Preview aim…", discord.ButtonStyle.secondary),
              "temple": ("Place temple…", discord.ButtonStyle.primary),
              "where": ("Preview place…", discord.ButtonStyle.secondary)}

    def __init__(self, game_id: int, ticket: str, op: str) -> None:
        label, style = self.LABELS[op]
        super().__init__(discord.ui.Button(label=label, style=style,
                                           custom_id=f"herald:fof:{op}:{game_id}:{ticket}"))
        self.game_id, self.ticket, self.op = game_id, ticket, op

    @classmethod
    def claim(cls, item: Any, match: re.Match[str]) -> Any:
        return cls(parse_id(match["game"]), checked_ticket(match["ticket"]), match["op"])

    async def callback(self, interaction: discord.Interaction) -> None:
        cog = interaction.client.get_cog("FlickCog")  # type: ignore[attr-defined]
        assert isinstance(cog, FlickCog)
        async with answering(interaction):
            await cog.show_modal(interaction, self.game_id, self.op, Ticket.parse(self.ticket))


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(FlickFormButton)
    await bot.add_cog(FlickCog(platform_of(bot)))


async def teardown(bot: commands.Bot) -> None:
    bot.remove_dynamic_items(FlickFormButton)
