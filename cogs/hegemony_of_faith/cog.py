"""Hegemony of Faith on Discord: the secret line-up form for Faith Wars and Faith Debates.

Every other prompt of the game has enumerated choices and goes through the generic **Decide**
panel (card → target). The line-up (prompt kind ``lineup``, free form ``"lineup"``) asks for a
whole ordered list of believers at once, so it gets its own form — by DM as soon as the war or
debate asks for it, and ephemerally from **Decide**:

* the ready-made orders as buttons (or a select) — they go through the generic choice path;
* **Type my own order…** opens a modal where the player writes the order (``5 3 4 1``; names such
  as ``fanatic`` work too; ``z3`` raises a Missionary from the graveyard with Zombie Army);
* ``/lineup order:5 3 4 1`` does the same from the game's thread.

The typed order becomes one ``{"type": "lineup", "order": [...]}`` action; the engine judges it
and its refusal is shown privately as is. The modal is a shared form (:mod:`bot.forms`): its
custom_id carries only the game id and the decision it answers (never a believer), so a line-up
typed while Herald restarts is not lost, and a form sent twice is applied once.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import TableError
from bot.forms import Payload
from bot.parsing import parse_id
from bot.platform import Platform, platform_of
from bot.refusals import answering, refusals
from bot.session import Decision, Ticket
from bot.views import TICKET, Claims, checked_ticket, choice_view
from rules.engine import Prompt
from rules.text import count

from .render import BELIEVER_NAMES

KEY = "hegemony_of_faith"
FORM = "hof_lineup"
JSON = dict[str, Any]
NAME_IDS = {name.lower(): t for t, name in BELIEVER_NAMES.items()}


# ------------------------------------------------------------------------------ parsing


def parse_order(text: str, *, zombies: bool = True) -> list[int | str]:
    """A typed line-up → the engine's order list.

    >>> parse_order("5 3, 4-1")
    [5, 3, 4, 1]
    >>> parse_order("5341 z2 Fanatic")
    [5, 3, 4, 1, 'z2', 5]
    """
    tokens = [t for t in re.split(r"[\s,;>/→–—-]+", text.strip().lower()) if t]
    if not tokens:
        raise TableError("write your line-up as believer IDs in order, e.g. `5 3 4 1`.")
    order: list[int | str] = []
    for tok in tokens:
        if tok.isdigit() and all(ch in "12345" for ch in tok):
            order += [int(ch) for ch in tok]
        elif re.fullmatch(r"z[1-5]", tok):
            order.append(tok)
        elif tok in NAME_IDS:
            order.append(NAME_IDS[tok])
        elif tok.startswith("z") and tok[1:] in NAME_IDS:
            order.append(f"z{NAME_IDS[tok[1:]]}")
        else:
            extra = ", or `z1`–`z5` for graveyard believers (Zombie Army)" if zombies else ""
            raise TableError(f"`{tok[:20]}` in your line-up is not a believer: use IDs 1–5 "
                             f"(Fool 1, Prayer 2, Missionary 3, Elder 4, Fanatic 5){extra}.")
    return order


def size_text(prompt: Prompt) -> str:
    """How many believers the prompt wants, in words (from its parameters): "exactly 1 believer",
    "2 to 4 believers"."""
    lo, hi = prompt.params.get("min"), prompt.params.get("max")
    if lo is None or hi is None:
        return "your believers"
    return f"exactly {count(lo, 'believer')}" if lo == hi else f"{lo} to {hi} believers"


def zombies(prompt: Prompt) -> bool:
    """May the player raise graveyard believers (Zombie Army) in this line-up?"""
    return bool(prompt.params.get("zombies"))


def describe_order(order: list[Any]) -> str:
    parts = []
    for e in order:
        if isinstance(e, str):
            parts.append(f"{BELIEVER_NAMES[int(e[1])]} {e[1]} (graveyard)")
        else:
            parts.append(f"{BELIEVER_NAMES[e]} {e}")
    return " → ".join(parts)


def believers_text(view: JSON) -> str:
    bels = view["private"]["believers"]
    if not bels:
        return "You hold no believers."
    counts = Counter(b["id"] for b in bels)
    parts = [f"{BELIEVER_NAMES[t]} {t}{f' ×{n}' if n > 1 else ''} (beats {', '.join(map(str, _beats(bels, t)))})"
             for t, n in sorted(counts.items())]
    return "Your believers: " + ", ".join(parts) + "."


def _beats(bels: list[JSON], t: int) -> list[int]:
    return next(list(b["beats"]) for b in bels if b["id"] == t)


def _example(prompt: Prompt) -> str:
    """An order the player could type: their first ready-made one, written with spaces."""
    if prompt.choices:
        return " ".join(str(x) for x in prompt.choices[0].action["order"])
    return "5 3 4 1"


# ----------------------------------------------------------------------------- components


class OwnOrderButton(Claims, discord.ui.DynamicItem[discord.ui.Button[Any]],
                     template=rf"herald:hof:own:(?P<game>\d+):{TICKET}"):
    """Opens the typed line-up form; carries the game and the decision it answers."""

    def __init__(self, game_id: int, ticket: str) -> None:
        super().__init__(discord.ui.Button(label="Type my own order…", style=discord.ButtonStyle.secondary,
                                           emoji="✍️", custom_id=f"herald:hof:own:{game_id}:{ticket}"))
        self.game_id, self.ticket = game_id, ticket

    @classmethod
    def claim(cls, item: Any, match: re.Match[str]) -> Any:
        return cls(parse_id(match["game"]), checked_ticket(match["ticket"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        cog = interaction.client.get_cog("HegemonyCog")  # type: ignore[attr-defined]
        assert isinstance(cog, HegemonyCog)
        async with answering(interaction):
            await cog.show_modal(interaction, self.game_id, Ticket.parse(self.ticket))


# ------------------------------------------------------------------------------------ cog


class HegemonyCog(commands.Cog):
    def __init__(self, herald: Platform) -> None:
        self.herald = herald
        self.controller = herald.controller

    async def cog_load(self) -> None:
        self.herald.forms.add_panel(KEY, "lineup", self.panel)
        self.herald.forms.add_modal(FORM, self.submitted)

    async def cog_unload(self) -> None:
        self.herald.forms.remove(KEY)
        self.herald.forms.remove_modal(FORM)

    # ---------------------------------------------------------------- the form

    async def panel(self, d: Decision) -> Payload:
        """The line-up form (Decide, and by DM when a war or debate asks for it): the prompt, the
        player's believers, ready-made orders, and the typed order."""
        view = d.view()
        prompt = d.prompt
        lines = [f"**Hegemony of Faith — game #{d.game.id}: your secret line-up** (only you see this).",
                 prompt.text, believers_text(view)]
        if zombies(prompt) and view.get("graveyard"):
            grave = ", ".join(f"z{t}" for t in sorted(view["graveyard"]))
            lines.append(f"Graveyard believers you may raise: {grave}.")
        example = _example(prompt)
        lines.append(f"Pick a ready-made order below, or **Type my own order…** (or `/lineup order:{example}`) "
                     "to send the whole line-up at once, first to fight first.")
        if d.deadline is not None:
            lines.append(f"Due <t:{int(d.deadline.due_at)}:R>; then {prompt.timeout_note}.")
        panel = choice_view(d.game.id, d.open)
        panel.add_item(OwnOrderButton(d.game.id, str(d.ticket)))
        return {"content": "\n".join(lines)[:2000], "view": panel}

    async def lineup(self, interaction: discord.Interaction, game: Any, ticket: Ticket | None = None) -> Decision:
        """The clicking player's open line-up decision, or a clear refusal."""
        d = await self.controller.decision(interaction, game, ticket, game_key=KEY)
        if d.prompt.kind != "lineup":
            raise TableError("no Faith War or Faith Debate is waiting for your line-up right now.")
        return d

    async def show_modal(self, interaction: discord.Interaction, game_id: int, ticket: Ticket) -> None:
        d = await self.lineup(interaction, game_id, ticket)
        hint = f"{size_text(d.prompt)}, first to fight first" + \
            ("; z<ID> from the graveyard" if zombies(d.prompt) else "")
        field: discord.ui.TextInput[Any] = discord.ui.TextInput(label="Believer IDs in order (1–5)", custom_id="order", max_length=200,
                                     placeholder=f"e.g. {_example(d.prompt)} — {hint}"[:100])
        await interaction.response.send_modal(
            self.herald.forms.modal(FORM, d.game.id, d.ticket, "Your secret line-up", [field]))

    async def submit(self, interaction: discord.Interaction, d: Decision, text: str,
                     answers: Ticket) -> None:
        """Typed order → one lineup action answering ``answers``; the engine judges it."""
        order = parse_order(text, zombies=zombies(d.prompt))
        await self.controller.act(interaction, d, {"type": "lineup", "order": order}, answers)
        await interaction.followup.send(
            f"✅ Line-up locked in (secret until the reveal): {describe_order(order)}.", ephemeral=True)

    async def submitted(self, interaction: discord.Interaction, game_id: int, ticket: Ticket,
                        values: dict[str, str]) -> None:
        """The line-up modal, sent — also after a restart or a long think."""
        d = await self.lineup(interaction, game_id, ticket)
        await self.submit(interaction, d, values.get("order", ""), ticket)

    # ------------------------------------------------------------------- entry points

    @app_commands.command(name="lineup")
    @app_commands.describe(order="believer IDs in the order they fight, e.g. 5 3 4 1 (z3 = graveyard, Zombie Army)",
                           game="the game number (default: the game of this thread, or your only one)")
    @refusals
    async def lineup_command(self, interaction: discord.Interaction, order: str, game: int | None = None) -> None:
        """Hegemony of Faith: send your whole secret line-up for a Faith War or Faith Debate."""
        g = await self.controller.resolve(interaction, game)
        d = await self.lineup(interaction, g)
        await self.submit(interaction, d, order, Ticket(d.open.opened))


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(OwnOrderButton)
    await bot.add_cog(HegemonyCog(platform_of(bot)))


async def teardown(bot: commands.Bot) -> None:
    bot.remove_dynamic_items(OwnOrderButton)
