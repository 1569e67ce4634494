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
and its refusal is shown privately as is. The modal's custom_id carries only the game id and the
digest of the prompt (never a believer), and its submission is handled by a listener, so a
line-up typed while Herald restarts is not lost.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.controller import refusals
from bot.session import StaleAction, TableError
from bot.storage import GameRow
from bot.views import choice_view, choices_digest
from rules.engine import Prompt

from .render import BELIEVER_NAMES

if TYPE_CHECKING:
    from bot.app import HeraldBot

KEY = "hegemony_of_faith"
JSON = dict[str, Any]
NAME_IDS = {name.lower(): t for t, name in BELIEVER_NAMES.items()}
MODAL_ID = re.compile(r"herald:hof:lineup:(?P<game>\d+):(?P<digest>[0-9a-f]+)$")
_SIZE = re.compile(r"\((?P<lo>\d+)(?: to (?P<hi>\d+))? of your believers")


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
    """How many believers the prompt wants, in words (read from its text)."""
    m = _SIZE.search(prompt.text)
    if m is None:
        return "your believers"
    lo, hi = int(m["lo"]), int(m["hi"] or m["lo"])
    return f"exactly {lo}" if lo == hi else f"{lo} to {hi}"


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


def _modal_value(data: Any) -> str:
    """The typed order from a modal submission (classic rows or label-wrapped inputs)."""
    stack = list((data or {}).get("components", []))
    while stack:
        c = stack.pop(0)
        if c.get("custom_id") == "order" and "value" in c:
            return str(c.get("value") or "")
        stack += c.get("components", [])
        if isinstance(c.get("component"), dict):
            stack.append(c["component"])
    return ""


# ----------------------------------------------------------------------------- components


class OwnOrderButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                     template=r"herald:hof:own:(?P<game>\d+):(?P<version>\d+):(?P<digest>[0-9a-f]+)"):
    """Opens the typed line-up modal; carries the game, its version and the prompt's digest."""

    def __init__(self, game_id: int, version: int, digest: str) -> None:
        super().__init__(discord.ui.Button(label="Type my own order…", style=discord.ButtonStyle.secondary,
                                           emoji="✍️", custom_id=f"herald:hof:own:{game_id}:{version}:{digest}"))
        self.game_id, self.version, self.digest = game_id, version, digest

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: Any,
                             match: re.Match[str]) -> OwnOrderButton:
        return cls(int(match["game"]), int(match["version"]), match["digest"])

    async def callback(self, interaction: discord.Interaction) -> None:
        cog = _cog(interaction)
        await cog.bot.controller.guard(interaction, cog.show_modal(interaction, self.game_id, self.digest))


class LineupModal(discord.ui.Modal):
    """One text input. Submissions are handled by :meth:`HegemonyCog.on_interaction` (restart-safe)."""

    def __init__(self, game_id: int, digest: str, size: str, example: str, zombies: bool) -> None:
        super().__init__(title="Your secret line-up", timeout=900,
                         custom_id=f"herald:hof:lineup:{game_id}:{digest}")
        hint = f"{size} believers, first to fight first" + ("; z<ID> from the graveyard" if zombies else "")
        self.order: discord.ui.TextInput[Any] = discord.ui.TextInput(
            label="Believer IDs in order (1–5)", placeholder=f"e.g. {example} — {hint}"[:100],
            custom_id="order", max_length=200)
        self.add_item(self.order)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        return None  # handled by the cog's listener, which also works after a restart


def _cog(interaction: discord.Interaction) -> HegemonyCog:
    cog = interaction.client.get_cog("HegemonyCog")  # type: ignore[attr-defined]
    assert isinstance(cog, HegemonyCog)
    return cog


# ------------------------------------------------------------------------------------ cog


class HegemonyCog(commands.Cog):
    def __init__(self, bot: HeraldBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.controller.forms[(KEY, "lineup")] = self.open_form
        dm_forms = getattr(self.bot.delivery, "dm_forms", None)
        if dm_forms is not None:
            dm_forms[(KEY, "lineup")] = self.dm_form
        self.bot.add_dynamic_items(OwnOrderButton)

    async def cog_unload(self) -> None:
        self.bot.controller.forms.pop((KEY, "lineup"), None)
        getattr(self.bot.delivery, "dm_forms", {}).pop((KEY, "lineup"), None)
        self.bot.remove_dynamic_items(OwnOrderButton)

    @property
    def sessions(self) -> Any:
        return self.bot.sessions

    # ---------------------------------------------------------------- the form

    async def payload(self, game: GameRow, seat: int, prompt: Prompt) -> dict[str, Any]:
        """The line-up form: the prompt, the player's believers, ready-made orders, typed order."""
        view = self.sessions.view(game, seat)
        due = next((d for d in await self.sessions.storage.deadlines(game.id)
                    if d.seat == seat and d.kind == prompt.kind), None)
        lines = [f"**Hegemony of Faith — game #{game.id}: your secret line-up** (only you see this).",
                 prompt.text, believers_text(view)]
        if "Zombie Army" in prompt.text and view.get("graveyard"):
            grave = ", ".join(f"z{t}" for t in sorted(view["graveyard"]))
            lines.append(f"Graveyard believers you may raise: {grave}.")
        example = _example(prompt)
        lines.append(f"Pick a ready-made order below, or **Type my own order…** (or `/lineup order:{example}`) "
                     "to send the whole line-up at once, first to fight first.")
        if due is not None:
            lines.append(f"Due <t:{int(due.due_at)}:R>; then {prompt.timeout_note}.")
        panel = choice_view(game.id, game.version, prompt)
        panel.add_item(OwnOrderButton(game.id, game.version, choices_digest(prompt)))
        return {"content": "\n".join(lines)[:2000], "view": panel}

    async def open_form(self, interaction: discord.Interaction, game: GameRow, seat: int,
                        prompt: Prompt) -> None:
        """Decide (board or DM) → the line-up form, ephemerally."""
        await interaction.response.send_message(ephemeral=True, **await self.payload(game, seat, prompt))

    async def dm_form(self, game: GameRow, seat: int, prompt: Prompt) -> dict[str, Any]:
        """The line-up form pushed by DM when a war or debate asks for it."""
        return await self.payload(game, seat, prompt)

    async def lineup_prompt(self, interaction: discord.Interaction, game: GameRow) -> tuple[int, Prompt]:
        if game.game_key != KEY:
            raise TableError(f"game #{game.id} is not a Hegemony of Faith game.")
        if game.status != "active":
            raise TableError("this game is over." if game.status == "finished" else "this game is not running.")
        seat = await self.bot.controller.seat_for(interaction, game)
        prompt = next((p for p in self.sessions.prompts(game) if p.seat == seat), None)
        if prompt is None or prompt.kind != "lineup":
            raise TableError("no Faith War or Faith Debate is waiting for your line-up right now.")
        return seat, prompt

    async def show_modal(self, interaction: discord.Interaction, game_id: int, digest: str) -> None:
        game = await self.sessions.get(game_id)
        seat, prompt = await self.lineup_prompt(interaction, game)
        if choices_digest(prompt) != digest:
            raise StaleAction("stale", game_id)
        await interaction.response.send_modal(LineupModal(game.id, digest, size_text(prompt), _example(prompt),
                                                          "Zombie Army" in prompt.text))

    async def submit(self, interaction: discord.Interaction, game: GameRow, text: str,
                     digest: str | None = None) -> None:
        """Typed order → one lineup action for the clicking player; the engine judges it."""
        seat, prompt = await self.lineup_prompt(interaction, game)
        if digest is not None and choices_digest(prompt) != digest:
            raise StaleAction("stale", game.id)
        order = parse_order(text, zombies="Zombie Army" in prompt.text)
        await self.bot.controller.act(
            interaction, game, seat, {"type": "lineup", "order": order},
            f"✅ Line-up locked in (secret until the reveal): {describe_order(order)}.")

    # ------------------------------------------------------------------- entry points

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type != discord.InteractionType.modal_submit:
            return
        data: Any = interaction.data or {}
        m = MODAL_ID.match(str(data.get("custom_id", "")))
        if m is None:
            return

        async def run() -> None:
            game = await self.sessions.get(int(m["game"]))
            await self.submit(interaction, game, _modal_value(interaction.data), m["digest"])

        await self.bot.controller.guard(interaction, run())

    @app_commands.command(name="lineup")
    @app_commands.describe(order="believer IDs in the order they fight, e.g. 5 3 4 1 (z3 = graveyard, Zombie Army)",
                           game="the game number (default: the game of this thread, or your only one)")
    @refusals
    async def lineup(self, interaction: discord.Interaction, order: str, game: int | None = None) -> None:
        """Hegemony of Faith: send your whole secret line-up for a Faith War or Faith Debate."""
        tables = self.bot.get_cog("Tables")
        g = await tables.resolve(interaction, game)  # type: ignore[union-attr]
        await self.submit(interaction, g, order)


async def setup(bot: HeraldBot) -> None:
    await bot.add_cog(HegemonyCog(bot))
