"""Tables: ``/play`` lobbies, ``/games``, ``/mygames``, ``/game …`` (status, hand, hint, log,
resign, end, kick, replace), ``/hand`` and ``/rules``. Thin: parse → session → respond."""

from __future__ import annotations

import difflib
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot import views
from bot.away import TimeAway, pause_ends, post_line
from bot.controller import manages
from bot.errors import TableError
from bot.hints import check_allowed, hint_for
from bot.parsing import parse_options, suggest_options
from bot.platform import Platform, platform_of
from bot.refusals import answering, is_manager, refusals, reply
from bot.replay import send_export, send_replay
from bot.rulebook import RULES_ITEMS, send_rules
from bot.session import format_duration
from bot.storage import GameRow
from bot.text import NO_PINGS, clip, humanise, seat_label
from bot.undo import undo as take_back
from bot.views import lobby_view, with_player_link
from rules import registry
from rules.engine import InvalidOptions, seat_name
from rules.search import HINTS
from rules.text import count


def _squash(text: str) -> str:
    """'Cult Wars', 'cult_wars' and 'cult-wars ' all read 'cultwars'."""
    return "".join(ch for ch in text.lower() if ch.isalnum())


def find_game(text: str) -> str:
    """The registry key of the game a player typed: its key or display name in any case and
    spacing ("Cult Wars", "cult_wars"), or an unambiguous part of either ("hegemony"). An unknown
    name is refused with the closest game suggested, when one is close."""
    engines = registry.all_engines()
    typed = _squash(text)
    names = {key: (_squash(key), _squash(e.name)) for key, e in engines.items()}
    exact = [key for key, forms in names.items() if typed in forms]
    if len(exact) == 1:
        return exact[0]
    partial_ = [key for key, forms in names.items() if len(typed) >= 3 and any(typed in f for f in forms)]
    if len(partial_) == 1:
        return partial_[0]
    shown = ", ".join(f"{e.name} (`{key}`)" for key, e in engines.items())
    if len(partial_) > 1:
        raise InvalidOptions(f"'{clip(text, 40)}' could be several games: "
                             + ", ".join(f"{engines[k].name} (`{k}`)" for k in partial_) + "; pick one.")
    forms = {f: key for key, pair in names.items() for f in pair}
    close = difflib.get_close_matches(typed, list(forms), n=1, cutoff=0.6)
    if close:
        key = forms[close[0]]
        raise InvalidOptions(f"unknown game '{clip(text, 40)}' — did you mean {engines[key].name} "
                             f"(`{key}`)? Available games: {shown}.")
    raise InvalidOptions(f"unknown game '{clip(text, 40)}'; available games: {shown}.")


async def game_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Games whose key or display name contains what was typed (in any case and spacing); when
    nothing does, the closest ones."""
    typed = _squash(current)
    engines = registry.all_engines()
    hits = [key for key, e in engines.items() if typed in _squash(key) or typed in _squash(e.name)]
    if not hits:
        forms = {f: key for key, e in engines.items() for f in (_squash(key), _squash(e.name))}
        hits = list(dict.fromkeys(forms[f] for f in difflib.get_close_matches(typed, list(forms), n=5, cutoff=0.4)))
    return [app_commands.Choice(name=f"{engines[key].name} ({key})", value=key) for key in hits][:25]


async def options_autocomplete(interaction: discord.Interaction,
                               current: str) -> list[app_commands.Choice[str]]:
    """The chosen game's options, from its engine's table (and the hints option every game
    takes), as ``name=value`` to add to what was typed (:func:`bot.parsing.suggest_options`);
    nothing until a game is chosen."""
    try:
        engine = registry.get(find_game(str(getattr(interaction.namespace, "game", None) or "")))
    except InvalidOptions:
        return []
    return [app_commands.Choice(name=name, value=value)
            for name, value in suggest_options((*engine.options, HINTS), current)]


AUTOCOMPLETE_MAX = 25
"""Discord shows at most 25 suggestions: never load more."""
PAGE_SIZE = 15
"""Games per page of ``/games``."""


async def my_game_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
    """Running games visible here (this server's; in a DM, the user's own), filtered in the
    database by number, game name or player name: one query, at most 25 rows."""
    text = current.strip().lstrip("#").strip().lower()
    keys = [key for key, e in registry.all_engines().items() if text and (text in key or text in e.name.lower())]
    games = await platform_of(interaction.client).storage.search_games(
        guild_id=interaction.guild_id, user_id=interaction.user.id, statuses=("active",), text=text,
        game_keys=keys, limit=AUTOCOMPLETE_MAX)
    return [app_commands.Choice(name=clip(f"#{g.id} {registry.get(g.game_key).name} — "
                                          + ", ".join(s.name for s in g.seats), 100), value=g.id)
            for g in games]


async def played_game_autocomplete(interaction: discord.Interaction,
                                   current: str) -> list[app_commands.Choice[int]]:
    """As :func:`my_game_autocomplete`, finished games included (export, replay)."""
    text = current.strip().lstrip("#").strip().lower()
    keys = [key for key, e in registry.all_engines().items() if text and (text in key or text in e.name.lower())]
    games = await platform_of(interaction.client).storage.search_games(
        guild_id=interaction.guild_id, user_id=interaction.user.id, statuses=("active", "finished"),
        text=text, game_keys=keys, limit=AUTOCOMPLETE_MAX)
    return [app_commands.Choice(name=clip(f"#{g.id} {registry.get(g.game_key).name} ({g.status}) — "
                                          + ", ".join(s.name for s in g.seats), 100), value=g.id)
            for g in games]


class Tables(commands.Cog):
    def __init__(self, herald: Platform) -> None:
        self.herald = herald
        self.sessions = herald.sessions
        self.controller = herald.controller

    async def resolve(self, interaction: discord.Interaction, game_id: int | None,
                      statuses: tuple[str, ...] = ("active",)) -> GameRow:
        return await self.controller.resolve(interaction, game_id, statuses)

    # ------------------------------------------------------------------ /play

    @app_commands.command(name="play")
    @app_commands.guild_only()
    @app_commands.autocomplete(game=game_autocomplete, options=options_autocomplete)
    @app_commands.describe(game="which game", bots="computer players to seat now",
                           deadline="time per decision, e.g. 30m, 12h, 2d (default: the server's)",
                           options="the game's options as name=value: pick them from the list "
                                   "(all of them are in /rules)",
                           strength="how well the computer players seated now play (default: "
                                    "the table's computer option)")
    @refusals
    async def play(self, interaction: discord.Interaction, game: str,
                   bots: app_commands.Range[int, 0, 7] = 0, deadline: str | None = None,
                   options: str | None = None,
                   strength: Literal["easy", "normal", "hard"] | None = None) -> None:
        """Open a table for a game; players join with the buttons."""
        assert interaction.guild_id is not None
        settings = await self.sessions.storage.guild_settings(interaction.guild_id)
        if settings.channels and interaction.channel_id not in settings.channels:
            where = ", ".join(f"<#{c}>" for c in settings.channels)
            raise TableError(f"tables can't be opened in this channel; use {where}.")
        if settings.opener_role_id and not is_manager(interaction):
            roles = getattr(interaction.user, "roles", [])
            if not any(r.id == settings.opener_role_id for r in roles):
                raise TableError(f"only members with the <@&{settings.opener_role_id}> role can open tables here.")
        table = await self.sessions.open_table(
            guild_id=interaction.guild_id, channel_id=interaction.channel_id, host_id=interaction.user.id,
            host_name=interaction.user.display_name, game_key=find_game(game), options=parse_options(options),
            deadline=deadline, bots=bots, strength=strength)
        await interaction.response.send_message(embed=await self.controller.open_lobby_embed(table),
                                                view=lobby_view(table.id), allowed_mentions=NO_PINGS)
        msg = await interaction.original_response()
        await self.sessions.storage.update_game(table.id, lobby_message_id=msg.id)

    async def add_computer(self, interaction: discord.Interaction, game_id: int, strength: str) -> None:
        """The lobby's strength menu (``bot.views.LobbyStrengthSelect``): seat a computer player
        of that strength (the host or a manager) and show the lobby again."""
        async with answering(interaction):
            admin = manages(interaction, await self.controller.game_for(interaction, game_id))
            game = await self.sessions.add_bot(game_id, interaction.user.id, is_admin=admin,
                                               strength=strength)
            await interaction.response.edit_message(embed=await self.controller.open_lobby_embed(game),
                                                    view=lobby_view(game_id))

    # ----------------------------------------------------------------- /games

    @app_commands.command(name="games")
    @app_commands.guild_only()
    @app_commands.describe(page=f"which page ({PAGE_SIZE} tables and games each, most recently active first)")
    @refusals
    async def games(self, interaction: discord.Interaction,
                    page: app_commands.Range[int, 1, 10000] = 1) -> None:
        """List this server's open tables and running games, a page at a time."""
        assert interaction.guild_id is not None
        found = await self.sessions.storage.page_games(guild_id=interaction.guild_id, limit=PAGE_SIZE,
                                                       offset=(page - 1) * PAGE_SIZE)
        if not found.total:
            await reply(interaction, "No tables or games right now. Open one with `/play`.")
            return
        pages = -(-found.total // PAGE_SIZE)
        if not found.games:
            await reply(interaction, f"There {'is' if pages == 1 else 'are'} only {count(pages, 'page')} "
                                     f"of tables and games; try `/games page:{pages}`.")
            return
        lines = []
        for g in found.games:
            name = registry.get(g.game_key).name
            where = f"<#{g.thread_id}>" if g.thread_id else (f"<#{g.channel_id}>" if g.channel_id else "")
            who = clip(", ".join(discord.utils.escape_markdown(s.name) for s in g.seats), 60)
            lines.append(f"**#{g.id} {name}** — {g.status} — {where} — {who}")
        shown_to = (page - 1) * PAGE_SIZE + len(found.games)
        if shown_to < found.total:
            lines.append(f"…and {found.total - shown_to} more — use `/games page:{page + 1}` "
                         f"(page {page} of {pages}).")
        elif pages > 1:
            lines.append(f"(page {page} of {pages})")
        await reply(interaction, "\n".join(lines))

    # --------------------------------------------------------------- /mygames

    @app_commands.command(name="mygames")
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.describe(page="which page, when your games fill more than one")
    @refusals
    async def mygames(self, interaction: discord.Interaction,
                      page: app_commands.Range[int, 1, 1000] = 1) -> None:
        """Every game you are in, in every server: those waiting for you first (only you see it)."""
        await reply(interaction, await self.controller.my_games(interaction.client, interaction.user.id, page))

    # ------------------------------------------------------------------ /rules

    @app_commands.command(name="rules")
    @app_commands.autocomplete(game=game_autocomplete)
    @refusals
    async def rules(self, interaction: discord.Interaction, game: str) -> None:
        """Read a game's rules: a summary, then the full rules a page at a time (only you see it)."""
        await send_rules(interaction, game)

    # ------------------------------------------------------------------- /hand

    @app_commands.command(name="hand")
    @app_commands.autocomplete(game=my_game_autocomplete)
    @refusals
    async def hand(self, interaction: discord.Interaction, game: int | None = None) -> None:
        """Show your hand privately."""
        g = await self.resolve(interaction, game)
        await self.show_hand(interaction, g)

    async def show_hand(self, interaction: discord.Interaction, game: GameRow) -> None:
        """The member's hand, privately, with "Your page" and "New link" (their web page) when
        Herald serves pages for the game; the controller's answer otherwise."""
        snap = await self.sessions.snapshot(game)
        seat = snap.game.seat_of(interaction.user.id)
        if snap.game.state is None or seat is None:
            await self.controller.show_hand(interaction, game)  # (its refusals)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        text, files = await self.controller.delivery.hand_payload(snap, seat)
        view = await with_player_link(None, snap.game, seat, renew=True)
        content = clip(f"You are {seat_label(snap.game, seat)}.\n{text}")
        if view is None:
            await interaction.followup.send(content, files=files, ephemeral=True, allowed_mentions=NO_PINGS)
        else:
            await interaction.followup.send(content, files=files, ephemeral=True, allowed_mentions=NO_PINGS,
                                            view=view)

    # ------------------------------------------------------------------- /game

    group = app_commands.Group(name="game", description="Your game: status, hand, log, undo, export, replay, resign; hosts: end, kick, pause")

    @group.command(name="status")
    @app_commands.autocomplete(game=my_game_autocomplete)
    @refusals
    async def status(self, interaction: discord.Interaction, game: int | None = None) -> None:
        """Where the game stands and who is awaited."""
        g = await self.resolve(interaction, game, ("active", "finished"))
        engine = registry.get(g.game_key)
        lines = [f"**{engine.name} #{g.id}** — {g.status}, move {g.version}"]
        pause = await self.sessions.storage.game_pause(g.id) if g.status == "active" else None
        if pause is not None and pause.paused:
            lines.append(f"⏸️ Paused since <t:{int(pause.paused_at or 0)}:R>, deadlines frozen; it resumes "
                         f"with `/game resume`, or by itself <t:{int(pause_ends(pause) or 0)}:R>.")
        snap = await self.sessions.snapshot(g)
        for o in snap.open:
            due = f", due <t:{int(o.deadline.due_at)}:R>" if o.deadline else ""
            lines.append(f"• waiting for {seat_label(g, o.seat)}: {o.prompt.kind.replace('_', ' ')}{due}")
        if g.board_message_id and g.home_channel_id:
            lines.append(f"Board: https://discord.com/channels/{g.guild_id}/{g.home_channel_id}/{g.board_message_id}")
        deadline, lead = await self.sessions.deadline_settings(g)
        lines.append(f"Deadline per decision: {format_duration(deadline)}; reminder {format_duration(lead)} before.")
        await reply(interaction, "\n".join(lines))

    @group.command(name="hand")
    @app_commands.autocomplete(game=my_game_autocomplete)
    @refusals
    async def game_hand(self, interaction: discord.Interaction, game: int | None = None) -> None:
        """Show your hand privately."""
        g = await self.resolve(interaction, game)
        await self.show_hand(interaction, g)

    @group.command(name="hint")
    @app_commands.autocomplete(game=my_game_autocomplete)
    @refusals
    async def hint(self, interaction: discord.Interaction, game: int | None = None) -> None:
        """What the computer player would do in your place (only you see it; tables with hints=on)."""
        g = await self.resolve(interaction, game)
        seat = g.seat_of(interaction.user.id)
        if seat is None:
            raise TableError(f"you are not playing in game #{g.id}.")
        check_allowed(g)
        await interaction.response.defer(ephemeral=True, thinking=True)
        text = await hint_for(self.sessions, g.id, seat)
        await interaction.followup.send(clip(text), ephemeral=True, allowed_mentions=NO_PINGS)

    @group.command(name="log")
    @app_commands.autocomplete(game=my_game_autocomplete)
    @refusals
    async def game_log(self, interaction: discord.Interaction, game: int | None = None,
                       lines: app_commands.Range[int, 1, 60] = 20) -> None:
        """The recent turns (your private notes included, nobody else's)."""
        g = await self.resolve(interaction, game, ("active", "finished"))
        seat = g.seat_of(interaction.user.id)
        events = await self.sessions.storage.events(g.id, viewer_seat=seat, limit=lines)
        text = "\n".join(("🔒 " if e.to else "• ") + humanise(e.text, g) for e in events) or "Nothing yet."
        await reply(interaction, text)

    @group.command(name="export")
    @app_commands.autocomplete(game=played_game_autocomplete)
    @refusals
    async def export(self, interaction: discord.Interaction, game: int | None = None) -> None:
        """The game's log as a file: public while it runs, everything (hands too) once it is over."""
        await send_export(self.controller, interaction, game)

    @group.command(name="replay")
    @app_commands.autocomplete(game=played_game_autocomplete)
    @refusals
    async def replay(self, interaction: discord.Interaction, game: int | None = None) -> None:
        """A finished game from start to end, as an animated image (only you see it)."""
        await send_replay(self.controller, interaction, game)

    @group.command(name="undo")
    @app_commands.autocomplete(game=my_game_autocomplete)
    @refusals
    async def undo(self, interaction: discord.Interaction, game: int | None = None) -> None:
        """Take back your own last move, when nobody has played since and the game allows it."""
        g = await self.resolve(interaction, game)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await take_back(self.sessions, g.id, interaction.user.id)
        await interaction.followup.send("Your last move was taken back; the thread says so. Decide "
                                        "again with a fresh menu: older buttons no longer work.",
                                        ephemeral=True)

    @group.command(name="resign")
    @app_commands.autocomplete(game=my_game_autocomplete)
    @refusals
    async def resign(self, interaction: discord.Interaction, game: int | None = None) -> None:
        """Leave the game; a computer player takes over your seat."""
        g = await self.resolve(interaction, game)
        seat = g.seat_of(interaction.user.id)
        if seat is None:
            raise TableError("you are not playing in this game.")
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.sessions.replace_seat(g.id, seat, user_id=None, name=f"{g.seats[seat].name} (resigned, computer)",
                                         reason=f"{seat_name(seat)} resigned; a computer player takes the seat.")
        await interaction.followup.send("You resigned. A computer player plays your seat from now on.", ephemeral=True)

    def _require_admin(self, interaction: discord.Interaction, g: GameRow) -> None:
        if interaction.user.id != g.host_id and not manages(interaction, g):
            raise TableError("only the host or someone with Manage Server can do that.")

    @group.command(name="end")
    @app_commands.autocomplete(game=my_game_autocomplete)
    @refusals
    async def end(self, interaction: discord.Interaction, game: int | None = None) -> None:
        """End the game now (host or Manage Server)."""
        g = await self.resolve(interaction, game)
        self._require_admin(interaction, g)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.sessions.end(g.id, f"ended by {interaction.user.display_name}")
        await interaction.followup.send(f"Game #{g.id} ended.", ephemeral=True)

    async def _seat_of_member(self, g: GameRow, member: discord.abc.User) -> int:
        seat = g.seat_of(member.id)
        if seat is None:
            raise TableError(f"{member.display_name} has no seat in game #{g.id}.")
        return seat

    @group.command(name="kick")
    @app_commands.autocomplete(game=my_game_autocomplete)
    @refusals
    async def kick(self, interaction: discord.Interaction, player: discord.Member, game: int | None = None) -> None:
        """Remove a player; a computer player takes the seat (host or Manage Server)."""
        g = await self.resolve(interaction, game)
        self._require_admin(interaction, g)
        seat = await self._seat_of_member(g, player)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.sessions.replace_seat(g.id, seat, user_id=None, name=f"Computer (was {g.seats[seat].name})",
                                         reason=f"{seat_name(seat)} was removed by the host; a computer player takes the seat.")
        await interaction.followup.send(f"{player.display_name} was removed from game #{g.id}.", ephemeral=True)

    @group.command(name="replace")
    @app_commands.autocomplete(game=my_game_autocomplete)
    @app_commands.describe(player="the seated player", new_player="who takes the seat (empty: a computer player)")
    @refusals
    async def replace(self, interaction: discord.Interaction, player: discord.Member,
                      new_player: discord.Member | None = None, game: int | None = None) -> None:
        """Give a player's seat to a computer player or another member (host or Manage Server)."""
        g = await self.resolve(interaction, game)
        self._require_admin(interaction, g)
        seat = await self._seat_of_member(g, player)
        if new_player is not None and new_player.bot:
            raise TableError("a seat can go to a member or to Herald's computer player, not to another bot.")
        await interaction.response.defer(ephemeral=True, thinking=True)
        name = new_player.display_name if new_player else f"Computer (was {g.seats[seat].name})"
        await self.sessions.replace_seat(g.id, seat, user_id=new_player.id if new_player else None, name=name,
                                         reason=f"{seat_name(seat)}'s seat was handed over.")
        await interaction.followup.send("Done: the seat was handed over.", ephemeral=True)

    @group.command(name="pause")
    @app_commands.autocomplete(game=my_game_autocomplete)
    @refusals
    async def pause(self, interaction: discord.Interaction, game: int | None = None) -> None:
        """Pause the game: nobody moves, deadlines frozen; at most 7 days (host or Manage Server)."""
        g = await self.resolve(interaction, game)
        self._require_admin(interaction, g)
        await interaction.response.defer(ephemeral=True, thinking=True)
        pause = await TimeAway(self.sessions, post_line(self.herald.delivery)).pause(
            g.id, interaction.user.id, interaction.user.display_name)
        ends = int(pause_ends(pause) or 0)
        await interaction.followup.send(f"Game #{g.id} is paused; `/game resume` resumes it (it resumes "
                                        f"by itself <t:{ends}:R>).", ephemeral=True)

    @group.command(name="resume")
    @app_commands.autocomplete(game=my_game_autocomplete)
    @refusals
    async def resume(self, interaction: discord.Interaction, game: int | None = None) -> None:
        """Resume a paused game; its deadlines run on with what was left (host or Manage Server)."""
        g = await self.resolve(interaction, game)
        self._require_admin(interaction, g)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await TimeAway(self.sessions, post_line(self.herald.delivery)).resume(
            g.id, interaction.user.display_name)
        await interaction.followup.send(f"Game #{g.id} is running again.", ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(*RULES_ITEMS)  # /rules' page buttons, working across restarts
    cog = Tables(platform_of(bot))
    await bot.add_cog(cog)
    views.add_computer = cog.add_computer  # (the lobby's strength menu)
