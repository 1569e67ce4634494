"""``/practice GAME``: a game against computer players, started by one command, with a tip at each
of the player's decisions — and never counted in the ratings.

Where it is played: in the player's DMs with Herald, wherever the command was typed. The table
allows hints (``hints=on``), so ``/game hint`` answers there too. A game in DMs
belongs to no server, so the ratings count it for nobody (``bot.ratings.standings``: a game
without a server has no standings) and no server's table limits are spent on it; the board, the
Decide button, the hand and the thread's lines all arrive in that one DM conversation.

The tip (:func:`tip_text`) comes as a message of its own right when a decision opens for the
player: the question, what each choice does in one line, and the choice the computer player would
make in their place. It is worked out from the player's own view and their own prompt only
(``Snapshot.view(seat)``, the engine's ``bot_action``), so it can know nothing the player could not.
When the computer players' hint module (``bot.hints.hint_for``) is there, its sentence is used
for that last line instead. The tip is sent once the update is delivered (``Sessions.after_delivery``),
so it follows the board and the line of what just happened.
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import random
import re
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import TableError
from bot.platform import Platform, platform_of
from bot.refusals import refusals
from bot.session import Sessions, Snapshot, Update
from bot.storage import GameRow
from bot.text import NO_PINGS, clip, humanise, seat_label
from bot.views import shown_label
from rules import registry
from rules.engine import Choice, Engine, Prompt
from rules.search import HINTS_OPTION
from rules.text import count, count_range

from .tables import find_game, game_autocomplete

log = logging.getLogger("herald.practice")

PRACTICE_LIMIT = 3
"""Running practice games one player may have at once."""
TIP_CHOICES = 8
"""Choices a tip describes one by one; the rest are counted."""
FORM_TIPS: Mapping[str, str] = {
    "orders": "Press **Decide**: the order form lays your strategy cards on your followers' tasks "
              "and picks the action cards to play; nobody sees your orders before the reveal.",
    "cards": "Press **Decide**: pick cards in the form's menu (it keeps the running total), then "
             "**Confirm**; face-down cards stay secret until the reveal.",
    "flick": "Press **Decide**: the form asks where to aim and how hard to flick.",
    "temple": "Press **Decide**: the form asks where on the island your temple stands.",
    "lineup": "Press **Decide**: the form asks the order of your believers, face down.",
    "target": "Press **Decide** (or a button of the DM): one button per rival cult; your choice "
              "stays secret until every cult has chosen.",
    "deck": "Press **Decide**: choose a ready-made deck (or one of your own) in the form.",
    "opening": "Press **Decide**: the form asks which cards you keep in your opening hand.",
    "pick": "Press **Decide**: pick the cards the question asks for in the form, then **Confirm**.",
}
"""What to press for a game's own form (a decision with no list of choices)."""


def practice_seats(engine: Engine[Any], players: int | None) -> int:
    """Seats at a practice table: the caller and computer players, at least two in all."""
    least = max(engine.min_players, 2)
    if players is None:
        return least
    if not least <= players <= engine.max_players:
        raise TableError(f"a practice game of {engine.name} seats "
                         f"{count_range(least, engine.max_players, 'player')} (you and the computer "
                         f"players); `players:{players}` does not fit.")
    return players


def is_practice(game: GameRow) -> bool:
    """A game played in a player's DMs: only ``/practice`` opens one (``/play`` needs a server)."""
    return game.guild_id is None and game.channel_id is not None


def _ids_named(value: Any, named: Mapping[str, str]) -> list[str]:
    """Names of the ids ``value`` holds (an id or a list of ids)."""
    values = value if isinstance(value, list) else [value]
    return [named[str(v)] for v in values if isinstance(v, str | int) and str(v) in named]


def pick_words(prompt: Prompt, action: Mapping[str, Any]) -> str | None:
    """The computer player's answer in words: the label of the choice it is, or the names of the
    cards a form's answer picks (from the prompt's own list); None when neither says it."""
    for c in prompt.choices:
        if dict(c.action) == dict(action):
            return shown_label(c)
    named: dict[str, str] = {}
    for listed in prompt.params.values():
        if isinstance(listed, list):
            for item in listed:
                if isinstance(item, Mapping) and "id" in item and "name" in item:
                    named[str(item["id"])] = str(item["name"])
    names = [n for key, v in action.items() if key != "type" for n in _ids_named(v, named)]
    if names:
        return ", ".join(names)
    if any(v == [] for v in action.values()):
        return "no card"
    return None


_SEAT = re.compile(r"\bP([1-8])\b")


def named(text: str, game: GameRow) -> str:
    """'Target P2' → 'Target P2 Bea': seat numbers with their names, unbolded (for text that is
    set in bold as a whole, where :func:`humanise`'s own bold would break it)."""
    clean = discord.utils.escape_mentions(text)
    return _SEAT.sub(lambda m: seat_label(game, int(m[1]) - 1) if int(m[1]) <= len(game.seats) else m[0],
                     clean)


def choice_line(c: Choice, game: GameRow) -> str:
    label = named(shown_label(c), game)
    return f"• **{label}** — {humanise(c.description, game)}" if c.description else f"• **{label}**"


def tip_text(game: GameRow, prompt: Prompt, computer: str | None, hint: str | None = None) -> str:
    """The tip for one decision: the question, what each choice does (one line each) or what to
    press for the game's form, and the computer player's pick when it can be said (``hint``: the
    computer players' own sentence, ``bot.hints``, said instead)."""
    lines = [f"💡 **Tip — your decision:** {humanise(prompt.text, game)}"]
    if prompt.free_form and (prompt.free_form in FORM_TIPS or not prompt.choices):
        lines.append(FORM_TIPS.get(prompt.free_form, "Press **Decide**: the form for this decision "
                                                     "opens, only for you."))
    if prompt.choices:
        if not prompt.free_form:
            lines.append("Press **Decide** and choose:" if len(prompt.choices) > 1
                         else "Press **Decide**; there is one choice:")
        else:
            lines.append("Its choices:")
        lines += [choice_line(c, game) for c in prompt.choices[:TIP_CHOICES]]
        rest = len(prompt.choices) - TIP_CHOICES
        if rest > 0:
            lines.append(f"…and {count(rest, 'more choice')} in the menu.")
    if hint:
        lines.append(f"🤖 {named(hint, game)}")
    elif computer:
        lines.append(f"🤖 In your place the computer player would pick: **{named(computer, game)}**; "
                     "the choice is yours.")
    lines.append("A practice game is never rated.")
    return clip("\n".join(lines), 1900)


HintFn = Callable[[Sessions, int, int], Awaitable[str]]


def _hint_module() -> HintFn | None:
    """``bot.hints.hint_for`` when Herald has it (the computer players' suggestion in words)."""
    try:
        module = importlib.import_module("bot.hints")
    except ImportError:
        return None
    fn = getattr(module, "hint_for", None)
    return fn if callable(fn) else None


def computer_pick(snap: Snapshot, prompt: Prompt) -> str | None:
    """What the computer player would answer in the seat's place, from the seat's own view only
    (engine work: run off the event loop)."""
    view = snap.view(prompt.seat)
    rng = random.Random(f"{snap.game.seed}/tip/{snap.game.version}/{prompt.seat}")
    action = snap.engine.bot_action(view, prompt, rng)
    return pick_words(prompt, action)


class Practice(commands.Cog):
    def __init__(self, herald: Platform) -> None:
        self.herald = herald
        self.sessions = herald.sessions

    async def cog_load(self) -> None:
        self.sessions.after_delivery.append(self.on_update)

    async def cog_unload(self) -> None:
        if self.on_update in self.sessions.after_delivery:
            self.sessions.after_delivery.remove(self.on_update)

    @app_commands.command(name="practice")
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.autocomplete(game=game_autocomplete)
    @app_commands.describe(game="which game",
                           players="seats in all, you included (default: the fewest the game allows)")
    @refusals
    async def practice(self, interaction: discord.Interaction, game: str,
                       players: app_commands.Range[int, 2, 8] | None = None) -> None:
        """Practise a game against computer players in your DMs, with a tip at each decision (never rated)."""
        key = find_game(game)
        engine = registry.get(key)
        seats = practice_seats(engine, players)
        user = interaction.user
        mine = await self.sessions.storage.search_games(guild_id=None, user_id=user.id,
                                                        statuses=("active",), limit=25)
        running = [g for g in mine if is_practice(g)]
        if len(running) >= PRACTICE_LIMIT:
            raise TableError(f"you already have {count(len(running), 'practice game')} running (at most "
                             f"{PRACTICE_LIMIT}): finish one, or end it with `/game end game:{running[0].id}` "
                             "in our DMs.")
        await interaction.response.defer(ephemeral=True, thinking=True)
        dm = await self._dm(user.id)
        if dm is None:
            await interaction.followup.send(
                "I can't send you direct messages, and a practice game is played there. Allow direct "
                "messages from this server's members (Privacy Settings), then try again.", ephemeral=True)
            return
        table = await self.sessions.open_table(
            guild_id=None, channel_id=dm.channel.id, host_id=user.id, host_name=user.display_name,
            game_key=key, bots=seats - 1, options={HINTS_OPTION: True})
        await dm.edit(content=self.welcome(table, engine))
        try:
            await self.sessions.start(table.id, user.id)
        except BaseException:  # no lobby is left behind in the DMs (nothing would ever close it)
            with contextlib.suppress(TableError):  # (unless it did start)
                await self.sessions.cancel(table.id, user.id)
            raise
        await interaction.followup.send(
            f"Your practice game of **{engine.name}** (#{table.id}) is in our DMs: "
            f"{dm.jump_url}\nA tip comes with each of your decisions; it is never rated.", ephemeral=True)

    async def _dm(self, user_id: int) -> discord.Message | None:
        """The first message of the practice game in the player's DMs (None: DMs are closed)."""
        delivery = self.herald.delivery
        try:
            channel = await delivery.dm_channel(user_id)
            return await channel.send("Setting up your practice game…", allowed_mentions=NO_PINGS)
        except discord.HTTPException:
            return None

    @staticmethod
    def welcome(table: GameRow, engine: Engine[Any]) -> str:
        bots = sum(1 for s in table.seats if s.is_bot)
        return (f"🎓 **Practice game of {engine.name}** (#{table.id}) against "
                f"{count(bots, 'computer player')}. It is never counted in the ratings.\n"
                "The board comes next, with a **Decide** button; your hand and each decision come "
                "as messages here too. Before each of your decisions a 💡 tip says what each choice "
                "does and what the computer player would pick (`/game hint` asks again at any time). "
                f"`/rules` explains the game, `/game end game:{table.id}` stops this one.")

    # ---------------------------------------------------------------- tips

    async def on_update(self, update: Update) -> None:
        """A decision opened for the player of a practice game: their tip, in their DMs."""
        game = update.game
        if not is_practice(game) or game.status != "active":
            return
        humans = {s.seat for s in game.seats if not s.is_bot and s.user_id is not None}
        for opened in update.new_prompts:
            if opened.seat not in humans:
                continue
            try:
                await self.send_tip(update.snap, opened.prompt)
            except Exception:  # a tip is a help: it never stands in the game's way
                log.exception("a practice tip failed", extra={"game_id": game.id})

    async def send_tip(self, snap: Snapshot, prompt: Prompt) -> None:
        game = snap.game
        hint_for, hint, computer = _hint_module(), None, None
        if hint_for is not None:
            try:
                hint = await hint_for(self.sessions, game.id, prompt.seat)
            except Exception:
                log.exception("the hint for a practice tip failed", extra={"game_id": game.id})
        if not hint:
            computer = await self.sessions.cpu(computer_pick, snap, prompt)
        user_id = game.seats[prompt.seat].user_id
        assert user_id is not None
        channel = await self.herald.delivery.dm_channel(user_id)
        await channel.send(tip_text(game, prompt, computer, hint), allowed_mentions=NO_PINGS)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Practice(platform_of(bot)))


__all__: Sequence[str] = ["FORM_TIPS", "PRACTICE_LIMIT", "Practice", "computer_pick", "is_practice",
                          "pick_words", "practice_seats", "tip_text"]
