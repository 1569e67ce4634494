"""Ratings: each server's multi-player rating of its members in each game, and what a finished
game changes in them.

A finished game is *settled* exactly once (``Storage.settle_game`` records it under its game id in
the same transaction that updates the ratings, so a retry, a second process or a resume after a
crash finds it settled and changes nothing). The session layer calls :func:`settle` at the one
place a game finishes; games a crash left unsettled are settled when Herald next starts
(:func:`settle_pending`).

The model is openskill's Bradley–Terry with full pairing: every game is a free-for-all of
one-player teams, ranked by the engine's result — the winners share first place, the others
follow by score, equal scores tie — and counts as a duel between every two of its players (a place
above someone is a win over them, the same place a draw). So a better place never earns less, and
tied players move alike; openskill's Plackett–Luce model, tried first, gives a shared winner less
than the runner-up. A member who left a running game (resigned, removed, replaced) is ranked
last, below every seat that finished, together with any other who left. No game has teams yet; a
game that gets them would pass each team as one entry of several ratings to ``MODEL.rate``.

Computer players are rated as one entity per server and game (``COMPUTER_ID``): beating them is
worth something, and their rating tells members how strong they are — but they never appear on a
leaderboard or in ``/stats``. A seat a computer took over from a member who left is not the
computer's (it inherited a position it did not make); only seats computer players held from the
start count for it. A game ended early by its host, or where everyone but the computer players
left, has no standings: it is settled without counting for anybody.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence

from openskill.models import BradleyTerryFull
from PIL import Image

from rules.text import count

from .render import PALETTE, Canvas, alt_text, clean_name
from .storage import Storage
from .storage.base import (
    COMPUTER_ID,
    Departure,
    GameRow,
    RatedGame,
    RatedPlayer,
    RatingRow,
)

log = logging.getLogger("herald.ratings")

MODEL = BradleyTerryFull()
"""The rating model. A newcomer starts at mu 25, sigma 25/3 (a shown rating of 0)."""
COMPUTER_NAME = "Computer"


def shown(mu: float, sigma: float) -> float:
    """The rating players see: the conservative estimate mu − 3σ (0 for a newcomer), which only
    rises as Herald grows sure of a player's skill — a lucky first win does not top the board."""
    return mu - 3 * sigma


def standings(game: GameRow, departed: Sequence[Departure]) -> tuple[RatedPlayer, ...]:
    """Who counts in a finished game, and their places (rank 1 first, equal ranks tied).

    Nothing (the game counts for nobody) for a game in a DM, one without an engine result (ended
    early), or with fewer than two entities to compare."""
    result = game.result or {}
    winners = {int(w) for w in result.get("winners") or ()}
    scores = {int(k): float(v) for k, v in (result.get("scores") or {}).items()}
    if game.guild_id is None or game.status != "finished" or not (winners or scores):
        return ()
    seated = {s.user_id for s in game.seats if not s.is_bot and s.user_id is not None}
    taken_over = {d.seat for d in departed}

    def key(seat: int) -> tuple[int, float]:
        """Winners first, all tied (a shared win is shared whatever the scores); then the
        others by score, higher first."""
        return (0, 0.0) if seat in winners else (1, -scores.get(seat, 0.0))

    entries: list[tuple[int, str, tuple[int, float], bool]] = []  # (user, name, key, won)
    computer: list[tuple[int, float]] = []
    for s in game.seats:
        if s.is_bot:
            if s.seat not in taken_over:
                computer.append(key(s.seat))
            continue
        if s.user_id is not None:
            entries.append((s.user_id, s.name, key(s.seat), s.seat in winners))
    if computer:  # the computer players' best seat is the computer's place
        best = min(computer)
        entries.append((COMPUTER_ID, COMPUTER_NAME, best, best[0] == 0))
    keys = sorted({k for _, _, k, _ in entries})
    players = [RatedPlayer(user, name, keys.index(k) + 1, won) for user, name, k, won in entries]
    last = len(keys) + 1
    gone = {d.user_id: d for d in departed if d.user_id not in seated}
    players += [RatedPlayer(d.user_id, d.name, last, False, abandoned=True)
                for d in sorted(gone.values(), key=lambda d: (d.seat, d.user_id))]
    return tuple(players) if len(players) >= 2 else ()


def new_ratings(players: Sequence[RatedPlayer],
                current: Mapping[int, RatingRow]) -> dict[int, tuple[float, float]]:
    """Every player's (mu, sigma) after the game, from their ratings before it (a player without
    one starts as a newcomer). One team per player, ranked by ``rank`` (ties share a rank)."""
    before = [MODEL.rating(*((current[p.user_id].mu, current[p.user_id].sigma)
                             if p.user_id in current else (None, None)))
              for p in players]
    after = MODEL.rate([[r] for r in before], ranks=[float(p.rank) for p in players])
    return {p.user_id: (float(team[0].mu), float(team[0].sigma))
            for p, team in zip(players, after, strict=True)}


def record_of(game: GameRow, departed: Sequence[Departure]) -> RatedGame:
    """A finished game as ``Storage.settle_game`` stores it. Its length runs from the table's
    opening to its last move (``updated_at`` of a finished game)."""
    return RatedGame(game_id=game.id, guild_id=game.guild_id or 0, game_key=game.game_key,
                     started_at=game.created_at, finished_at=max(game.updated_at, game.created_at),
                     moves=game.version, players=standings(game, departed))


async def settle(storage: Storage, game: GameRow, now: float) -> bool:
    """Count a finished game in its server's ratings, once: False if it was settled before (or is
    no server's game). Safe to call again after any failure."""
    if game.guild_id is None or game.status != "finished":
        return False
    record = record_of(game, await storage.departures(game.id))
    settled = await storage.settle_game(
        record, lambda current: new_ratings(record.players, current), now)
    if settled:
        log.info("game settled: %d rated player(s)", len(record.players),
                 extra={"game_id": game.id, "guild_id": game.guild_id})
    return settled


async def settle_pending(storage: Storage, now: float, limit: int = 1000) -> int:
    """Settle finished games a crash or a failure left unsettled, oldest first (at start)."""
    done = 0
    for game_id in await storage.unsettled_games(limit):
        game = await storage.get_game(game_id)
        if game is not None and await settle(storage, game, now):
            done += 1
    return done


def favourite(rows: Sequence[RatingRow]) -> RatingRow | None:
    """The game a member played most in a server (the better rating breaks a tie)."""
    return max(rows, key=lambda r: (r.games, shown(r.mu, r.sigma), r.game_key), default=None)


def totals(rows: Sequence[RatingRow]) -> tuple[int, int]:
    """Games and wins over every game of a server."""
    return sum(r.games for r in rows), sum(r.wins for r in rows)


def length(seconds: float) -> str:
    """A game's length in words, to the two largest units: "3 days 4 hours", "25 minutes"."""
    minutes = max(0, int(seconds // 60))
    days, rest = divmod(minutes, 1440)
    hours, mins = divmod(rest, 60)
    parts = [count(n, unit) for n, unit in ((days, "day"), (hours, "hour"), (mins, "minute")) if n]
    return " ".join(parts[:2]) or "under a minute"


# ------------------------------------------------------------------ the leaderboard image

BOARD_WIDTH = 800
ROW_HEIGHT = 52
TEXT = 24
"""Row text size: 3% of the image's width (a phone shows it about 400 px wide)."""


def leaderboard_image(game_name: str, rows: Sequence[RatingRow], first_place: int,
                      subtitle: str) -> Image.Image:
    """One page of a leaderboard: place, name, shown rating, games and wins. Names are drawn
    cleaned (no mentions or markdown) and clipped to their column."""
    c = Canvas(BOARD_WIDTH, 64 + 56 + ROW_HEIGHT * max(1, len(rows)) + 16)
    top = c.header(f"{game_name}", subtitle)
    columns = ((24, "#", "la"), (92, "Player", "la"), (560, "Rating", "ra"),
               (670, "Games", "ra"), (776, "Wins", "ra"))
    for x, title, anchor in columns:
        c.text((x, top + 18), title, TEXT, PALETTE["muted"], anchor=anchor)
    y = top + 56
    for i, r in enumerate(rows):
        place = first_place + i
        if i % 2 == 0:
            c.rect((8, y, BOARD_WIDTH - 8, y + ROW_HEIGHT - 4), fill=PALETTE["panel"], radius=6)
        mid = y + (ROW_HEIGHT - 4) / 2
        medal = {1: PALETTE["accent"], 2: PALETTE["ink"], 3: PALETTE["land"]}.get(place, PALETTE["muted"])
        c.text((24, mid), str(place), TEXT, medal, anchor="lm")
        c.text((92, mid), clean_name(r.name, "a member"), TEXT, anchor="lm", width=360)
        c.text((560, mid), f"{shown(r.mu, r.sigma):.1f}", TEXT, PALETTE["accent"], anchor="rm")
        c.text((670, mid), str(r.games), TEXT, anchor="rm")
        c.text((776, mid), str(r.wins), TEXT, PALETTE["good"], anchor="rm")
        y += ROW_HEIGHT
    return c.image


def leaderboard_alt(game_name: str, rows: Sequence[RatingRow], first_place: int) -> str:
    """The image's alt text: every row in words."""
    return alt_text(f"{game_name} leaderboard", *(
        f"{first_place + i}. {clean_name(r.name, 'a member', drawn=False)}: rating "
        f"{shown(r.mu, r.sigma):.1f}, {count(r.games, 'game')}, {count(r.wins, 'win')}"
        for i, r in enumerate(rows)))
