"""``/help``: what Herald can do, by task, in a server and in a DM — and never a command left out."""

from __future__ import annotations

import simcord

from bot.app import HeraldBot
from cogs.help import TASKS, command_lines


def help_text(result: simcord.InteractionResult) -> tuple[str, int]:
    assert result.response is not None
    message = result.response.message
    embed = message.embeds[0]
    text = " ".join([embed.title or "", embed.description or ""]
                    + [f"{f.name}\n{f.value}" for f in embed.fields])
    return text, len(embed)


async def test_help_lists_every_command_by_task_in_a_server_and_in_a_dm(
        simcord_env: simcord.Env, simcord_bot: HeraldBot) -> None:
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("games")
    ann = guild.add_member(simcord_env.create_user("ann"))
    in_server = await ann.slash(channel, "help")
    assert in_server.ephemeral
    text, size = help_text(in_server)
    assert size <= 6000  # Discord's limit for one embed
    for title, _, _ in TASKS:
        assert title in text
    registered = command_lines(simcord_bot.tree)
    assert {"play", "game status", "herald settings", "mygames", "rules"} <= set(registered)
    for name in registered:
        if name != "help":
            assert f"`/{name}`" in text, f"/help does not mention /{name}"
    for _, _, names in TASKS:  # a task naming a command Herald lacks would drop it silently
        assert set(names) <= set(registered), set(names) - set(registered)
    assert "…and" not in text  # every task's commands fit in its field
    in_dm = await ann.user.slash("help")
    assert help_text(in_dm)[0] == text

