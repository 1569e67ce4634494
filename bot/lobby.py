"""The lobby's lifecycle: opening a table, seating and unseating players and computer players
(and their strengths), the server's limits, a lobby's expiry, and the start that turns a lobby
into a running game.

:class:`Lobbies` is a mixin of :class:`bot.session.Sessions`: every method here is called as
``sessions.<method>`` (``open_table``, ``join``, ``leave``, ``add_bot``, ``cancel``, ``start``,
``check_start``, ``lobby_closes_at``, ``expire_lobbies``). It uses the session's storage, locks and
engine work, declared below for the type checker, and hands the started game to the session's
``_first_moves`` (the first update, with the computer players' answers), whose update type it
takes as a parameter, so this module needs nothing of ``bot.session``.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import random
from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from rules import registry
from rules.engine import REVISION_OPTION, Engine, InvalidOptions, Prompt
from rules.search import HINTS_OPTION, SEATS_OPTION, check_strength
from rules.text import count

from .errors import TableError
from .parsing import format_duration, parse_deadline
from .storage import DeadlineRow, GameRow, SeatRow, Storage

log = logging.getLogger("herald.session")  # (the lobby's log lines read as they did in the session)
_U = TypeVar("_U")
"""The session's update (``bot.session.Update``)."""


def _check_strength(value: str) -> None:
    try:
        check_strength(value)
    except ValueError as exc:
        raise TableError(str(exc)) from None


def computer_name(n: int, strength: str | None) -> str:
    """The name of a table's ``n``-th computer player, with its strength when the host chose one."""
    return f"Computer {n}" + (f" ({strength})" if strength is not None else "")


class Lobbies(Generic[_U]):
    """Tables before their start (mixed into :class:`bot.session.Sessions`)."""

    if TYPE_CHECKING:  # what the session provides
        storage: Storage
        now: Callable[[], float]
        on_deadlines_changed: Callable[[], None]
        _guild_locks: dict[int, asyncio.Lock]

        def lock(self, game_id: int) -> asyncio.Lock: ...
        def track(self) -> AbstractAsyncContextManager[None]: ...
        async def get(self, game_id: int) -> GameRow: ...
        @staticmethod
        def engine(game: GameRow) -> Engine[Any]: ...
        async def _work(self, engine: Engine[Any], fn: Callable[..., Any], *args: Any) -> Any: ...
        async def _deadlines_for(self, game: GameRow, prompts: Sequence[Prompt],
                                 opened: dict[int, int],
                                 previous: Sequence[DeadlineRow]) -> list[DeadlineRow]: ...
        @staticmethod
        def _opened_after(before: dict[int, int], was_open: Sequence[Prompt],
                          now_open: Sequence[Prompt], actor: int | None,
                          version: int) -> dict[int, int]: ...
        def _keep_parsed(self, game: GameRow, state: Any) -> None: ...
        async def _first_moves(self, started: GameRow, deadlines: list[DeadlineRow]) -> _U: ...
        async def _deliver(self, update: _U) -> None: ...

    async def open_table(self, *, guild_id: int | None, channel_id: int | None, host_id: int | None,
                         host_name: str, game_key: str, options: dict[str, Any] | None = None,
                         deadline: str | int | None = None, bots: int = 0, seed: int | None = None,
                         host_plays: bool = True, strength: str | None = None) -> GameRow:
        """A new lobby; ``bots`` computer players seated now, at ``strength`` when given (their
        seats' own, :data:`rules.search.SEATS_OPTION`), else at the table's."""
        engine = registry.get(game_key)  # InvalidOptions names the known games
        opts = dict(options or {})
        opts.pop(REVISION_OPTION, None)  # (a rematch's old options: a new table plays today's rules)
        opts.pop(SEATS_OPTION, None)  # (and seats its computer players anew)
        unknown = sorted(set(opts) - set(engine.option_help) - {HINTS_OPTION})
        if unknown:
            raise InvalidOptions(f"unknown {'option' if len(unknown) == 1 else 'options'} "
                                 f"{', '.join(unknown)} for {engine.name}.")
        if engine.rules_revision > 1:  # the rules its log will be played by, for every replay
            opts[REVISION_OPTION] = engine.rules_revision
        seconds = parse_deadline(deadline)
        if bots < 0 or bots > engine.max_players - (1 if host_plays else 0):
            raise TableError(f"{engine.name} seats at most {engine.max_players} players; "
                             f"`bots:{bots}` does not fit.")
        if seed is None:
            seed = random.SystemRandom().randrange(1, 2**31)
        seats: list[SeatRow] = []
        if host_plays:
            seats.append(SeatRow(0, host_id, False, host_name))
        for _ in range(bots):
            seats.append(SeatRow(len(seats), None, True, computer_name(len(seats) + 1, strength)))
        if strength is not None and bots:
            _check_strength(strength)
            opts[SEATS_OPTION] = {str(x.seat): strength for x in seats if x.is_bot}
        async with self._guild_lock(guild_id):
            if guild_id is not None:
                await self._check_limits(guild_id, host_id if host_plays else None, opening=True)
            game_id = await self.storage.create_game(
                guild_id=guild_id, channel_id=channel_id, game_key=game_key, seed=seed, options=opts,
                host_id=host_id, deadline=seconds, now=self.now(), seats=seats)
        return await self.get(game_id)

    def _guild_lock(self, guild_id: int | None) -> asyncio.Lock:
        """Held from counting a server's tables to seating the new table or member: however many
        ``/play`` or Join arrive at once, each counts what the ones before it stored."""
        return self._guild_locks.setdefault(guild_id or 0, asyncio.Lock())

    async def _check_limits(self, guild_id: int, user_id: int | None, *, opening: bool = False,
                            starting: bool = False) -> None:
        """Refuse a new table (``opening``), a start (``starting``) or a seat that would exceed the
        server's limits. Lobbies and running games have limits of their own, and a lobby idle
        past the server's expiry counts for nothing (it is closing)."""
        settings = await self.storage.guild_settings(guild_id)
        limits = settings.limits
        counts = await self.storage.count_tables(guild_id, user_id or 0,
                                                 lobbies_since=self.now() - settings.lobby_ttl)
        if opening and counts.lobbies >= limits.lobbies:
            raise TableError(f"this server already has {count(limits.lobbies, 'table')} waiting to "
                             "start, its limit; start or cancel one first (idle tables close by "
                             "themselves; a server manager can change the limits with "
                             "`/herald settings`).")
        if starting and counts.games >= limits.tables:
            raise TableError(f"this server already runs {count(limits.tables, 'game')}, its limit; "
                             "this table can start once one of them ends (a server manager can "
                             "change the limit with `/herald settings`).")
        if user_id is None or starting:
            return
        if counts.member_lobbies >= limits.member_lobbies:
            raise TableError(f"you are already seated at {count(limits.member_lobbies, 'table')} "
                             "waiting to start here, the most one member may be; start, leave or "
                             "cancel one first (see `/games`).")
        if counts.member_tables >= limits.member_tables:
            raise TableError(f"you already play at {count(limits.member_tables, 'table')} open here, "
                             "the most one member may; finish or leave one first (see `/games`).")

    async def check_start(self, game: GameRow) -> None:
        """Refuse, before anything is opened for it (a thread), a start the server's limit on
        running games forbids; :meth:`start` checks again under the server's lock."""
        if game.guild_id is not None:
            await self._check_limits(game.guild_id, None, starting=True)

    async def lobby_closes_at(self, game: GameRow) -> float | None:
        """When the lobby ``game`` closes if nothing happens at it (None: not a lobby here)."""
        if game.status != "lobby" or game.guild_id is None:
            return None
        return game.updated_at + (await self.storage.guild_settings(game.guild_id)).lobby_ttl

    async def expire_lobbies(self) -> tuple[list[GameRow], float | None]:
        """Close every lobby idle past its server's expiry: (the lobbies closed now, when the
        next one is due). Each is judged again under its lock, so a Join that just arrived keeps
        the table open."""
        closed: list[GameRow] = []
        nxt: float | None = None
        now = self.now()
        for lobby in await self.storage.list_games(statuses=("lobby",)):
            due = await self.lobby_closes_at(lobby)
            if due is None:
                continue
            if due > now:
                nxt = due if nxt is None else min(nxt, due)
                continue
            async with self.lock(lobby.id):
                game = await self.storage.get_game(lobby.id)
                due = None if game is None else await self.lobby_closes_at(game)
                if game is None or due is None:
                    continue
                if due > self.now():
                    nxt = due if nxt is None else min(nxt, due)
                    continue
                await self.storage.update_game(game.id, status="cancelled", updated_at=self.now())
                log.info("lobby closed after %s idle", format_duration(due - game.updated_at),
                         extra={"game_id": game.id, "guild_id": game.guild_id})
                closed.append(await self.get(game.id))
        return closed, nxt

    async def _lobby(self, game_id: int) -> GameRow:
        game = await self.get(game_id)
        if game.status != "lobby":
            raise TableError("this table has already started or closed.")
        return game

    async def join(self, game_id: int, user_id: int, name: str) -> GameRow:
        async with self.lock(game_id):
            game = await self._lobby(game_id)
            engine = self.engine(game)
            if game.seat_of(user_id) is not None:
                raise TableError("you are already seated at this table.")
            if len(game.seats) >= engine.max_players:
                raise TableError(f"this table is full ({engine.max_players} seats).")
            seats = game.seats + [SeatRow(len(game.seats), user_id, False, name)]
            async with self._guild_lock(game.guild_id):
                if game.guild_id is not None:
                    await self._check_limits(game.guild_id, user_id, opening=False)
                await self.storage.set_seats(game_id, seats, now=self.now())
            return await self.get(game_id)

    async def leave(self, game_id: int, user_id: int) -> GameRow:
        async with self.lock(game_id):
            game = await self._lobby(game_id)
            if game.seat_of(user_id) is None:
                raise TableError("you are not seated at this table.")
            if user_id == game.host_id:
                raise TableError("the host cannot leave; cancel the table instead.")
            rest = [s for s in game.seats if s.user_id != user_id or s.is_bot]
            own = game.options.get(SEATS_OPTION)
            if own:  # the computer players' strengths follow their seats' new numbers
                moved = {str(i): own[str(x.seat)] for i, x in enumerate(rest) if str(x.seat) in own}
                await self.storage.update_game(game_id, options={**game.options, SEATS_OPTION: moved})
            await self.storage.set_seats(game_id, [SeatRow(i, s.user_id, s.is_bot, s.name)
                                                   for i, s in enumerate(rest)], now=self.now())
            return await self.get(game_id)

    async def add_bot(self, game_id: int, user_id: int, *, is_admin: bool = False,
                      strength: str | None = None) -> GameRow:
        """Seat a computer player (host or a manager): at ``strength`` when given (its seat's
        own, :data:`rules.search.SEATS_OPTION`), else at the table's."""
        async with self.lock(game_id):
            game = await self._lobby(game_id)
            if user_id != game.host_id and not is_admin:
                raise TableError("only the host can add computer players.")
            engine = self.engine(game)
            if len(game.seats) >= engine.max_players:
                raise TableError(f"this table is full ({engine.max_players} seats).")
            n = sum(1 for s in game.seats if s.is_bot) + 1
            seats = game.seats + [SeatRow(len(game.seats), None, True, computer_name(n, strength))]
            if strength is not None:
                _check_strength(strength)
                own = {**(game.options.get(SEATS_OPTION) or {}), str(len(game.seats)): strength}
                await self.storage.update_game(game_id, options={**game.options, SEATS_OPTION: own})
            await self.storage.set_seats(game_id, seats, now=self.now())
            return await self.get(game_id)

    async def cancel(self, game_id: int, user_id: int, *, is_admin: bool = False) -> GameRow:
        async with self.lock(game_id):
            game = await self._lobby(game_id)
            if user_id != game.host_id and not is_admin:
                raise TableError("only the host (or a server manager) can cancel this table.")
            await self.storage.update_game(game_id, status="cancelled", updated_at=self.now())
            return await self.get(game_id)

    async def start(self, game_id: int, user_id: int | None, *, is_admin: bool = False) -> _U:
        async with self.track(), self.lock(game_id):
            game = await self._lobby(game_id)
            if user_id is not None and user_id != game.host_id and not is_admin:
                raise TableError("only the host can start the game.")
            engine = self.engine(game)
            n = len(game.seats)
            if n < engine.min_players:
                raise TableError(f"{engine.name} needs at least {engine.min_players} players; "
                                 f"{n} seated. Invite more or add computer players.")
            state = await self._work(engine, engine.setup, n, game.seed, game.options)
            prompts = engine.prompts(state)
            opened = self._opened_after({}, [], prompts, None, 1)
            deadlines = await self._deadlines_for(game, prompts, opened, [])
            data = engine.to_json(state)
            async with self._guild_lock(game.guild_id):  # (counted and stored at once)
                if game.guild_id is not None:
                    await self._check_limits(game.guild_id, None, starting=True)
                await self.storage.start_game(game_id, seats=game.seats, state=data, opened=opened,
                                              deadlines=deadlines, now=self.now())
            log.info("game started", extra={"game_id": game_id, "guild_id": game.guild_id})
            started = dataclasses.replace(game, status="active", state=data, version=1, opened=opened,
                                          updated_at=self.now())
            self._keep_parsed(started, state)
            update = await self._first_moves(started, deadlines)
        self.on_deadlines_changed()
        await self._deliver(update)
        return update
