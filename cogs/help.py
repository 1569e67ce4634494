"""``/help``: what Herald can do, by task — start a game, play it, keep up with your games, learn the
rules, look back, run a table, set up a server — with each command and one line on what it does.

The lines are read from the commands themselves (their descriptions), grouped by :data:`TASKS`;
a command no task names is listed under "More", so the page never forgets a command. Answered
only to the member who asked, in a server or in a DM.
"""

from __future__ import annotations

from collections.abc import Iterable

import discord
from discord import app_commands
from discord.ext import commands

from bot.refusals import refusals, reply

TASKS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("🎲 Start a game", "Open a table in a channel; people press **Join**, the host presses **Start** "
     "and the game gets its own thread.",
     ("play", "games")),
    ("📖 Learn a game", "Each game's rules open with your first turn on Discord; a practice game "
     "against computer players gives a tip at each of your decisions and is never rated.",
     ("rules", "cards", "practice")),
    ("🎯 Play", "Herald tells you by DM when a decision waits for you (on your turn or out of "
     "it); press **Decide** on the board or in the DM.",
     ("hand", "game hand", "game status", "game log", "game undo", "game resign")),
    ("🧩 Game by game", "Shortcuts for the decisions of one game:",
     ("orders", "pick", "lineup", "flick", "aim", "temple")),
    ("📬 Your games and notifications", "Across every server you play in:",
     ("mygames", "notify", "away")),
    ("🃏 Decks (Alternate Histories)", "Build and share your own decks:",
     ("deck create", "deck copy", "deck add", "deck remove", "deck view", "deck validate",
      "deck list", "deck export", "deck import", "deck delete")),
    ("📜 After a game", "Press **Rematch** under the result to play again with the same table.",
     ("game export", "game replay", "leaderboard", "stats")),
    ("🛡️ Hosts", "The host of a table (or a member with Manage Server):",
     ("game pause", "game resume", "game kick", "game replace", "game end")),
    ("⚙️ Server settings", "Members with Manage Server:", ("herald settings",)),
)
"""The tasks, in the order a newcomer meets them: title, a sentence, the commands (qualified names)."""


def command_lines(tree: app_commands.CommandTree) -> dict[str, str]:
    """Every slash command Herald registered (qualified name → its description)."""
    out: dict[str, str] = {}
    for command in tree.walk_commands():
        if isinstance(command, app_commands.Command):
            out[command.qualified_name] = command.description
    return out


def _lines(names: list[str], commands_: dict[str, str]) -> list[str]:
    """A line per description: commands that do the same (``/hand``, ``/game hand``) share one."""
    same: dict[str, list[str]] = {}
    for name in names:
        same.setdefault(commands_[name], []).append(name)
    return [f"{', '.join(f'`/{n}`' for n in group)} — {description}"
            for description, group in same.items()]


def help_embed(commands_: dict[str, str], *, skip: Iterable[str] = ("help",)) -> discord.Embed:
    """The help page: each task with its commands (only those registered), then any other."""
    embed = discord.Embed(
        title="Herald — what you can do",
        colour=0x56B4E9,
        description=("Herald runs board games in your server, at your pace: a game can last days, "
                     "and every decision has a deadline after which the computer player decides. "
                     "Secret cards and choices reach you by DM."))
    listed = set(skip)
    for title, sentence, names in TASKS:
        lines = _lines([n for n in names if n in commands_], commands_)
        listed.update(names)
        if lines:
            embed.add_field(name=title, value=_fit(sentence, lines), inline=False)
    rest = sorted(n for n in commands_ if n not in listed)
    if rest:
        embed.add_field(name="More", value=_fit("", _lines(rest, commands_)), inline=False)
    embed.set_footer(text="Every answer to a command here is shown only to you.")
    return embed


def _fit(sentence: str, lines: list[str], limit: int = 1024) -> str:
    """A field's text within Discord's 1,024 characters: whole lines, then "…and more"."""
    text = sentence
    for i, line in enumerate(lines):
        candidate = f"{text}\n{line}" if text else line
        if len(candidate) > limit - 14:
            return f"{text}\n…and {len(lines) - i} more"
        text = candidate
    return text


class Help(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="help")
    @refusals
    async def help(self, interaction: discord.Interaction) -> None:
        """What Herald can do, by task, with the commands for each."""
        await reply(interaction, "", embed=help_embed(command_lines(self.bot.tree)))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Help(bot))
