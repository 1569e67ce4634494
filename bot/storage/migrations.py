"""The numbered schema steps, one list for both backends: a schema number means the same tables in
each. A step is written once with its column types in braces (``{big}``: SQLite's INTEGER,
PostgreSQL's BIGINT; ``{real}``, ``{bool}``, ``{true}``/``{false}``, ``{id}`` the key a table
numbers itself, ``{rowid}`` SQLite's WITHOUT ROWID), read through a backend's
:class:`~bot.storage.dialect.Dialect`. A step whose SQL truly differs is a :class:`PerDialect`
(says why). Braces that are SQL, such as the empty JSON object ``'{{}}'``, are doubled."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .dialect import Dialect


@dataclass(frozen=True)
class PerDialect:
    """A step written for each backend, where the SQL itself differs (not only its types)."""

    sqlite: str
    postgres: str


STEPS: list[str | PerDialect] = [
    # 1: initial schema
    """
    CREATE TABLE games (
        id {id},
        guild_id {big}, channel_id {big}, thread_id {big},
        game_key TEXT NOT NULL, status TEXT NOT NULL, version {big} NOT NULL DEFAULT 0,
        seed {big} NOT NULL, options TEXT NOT NULL DEFAULT '{{}}', state TEXT,
        host_id {big}, deadline {big},
        board_message_id {big}, lobby_message_id {big}, result TEXT,
        created_at {real} NOT NULL, updated_at {real} NOT NULL
    );
    CREATE INDEX games_guild ON games(guild_id, status);
    CREATE TABLE seats (
        game_id {big} NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seat INTEGER NOT NULL, user_id {big}, is_bot {bool} NOT NULL DEFAULT {false},
        name TEXT NOT NULL,
        PRIMARY KEY (game_id, seat)
    );
    CREATE INDEX seats_user ON seats(user_id);
    CREATE TABLE actions (
        game_id {big} NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        n INTEGER NOT NULL, seat INTEGER NOT NULL, action TEXT NOT NULL,
        origin TEXT NOT NULL, user_id {big}, created_at {real} NOT NULL,
        PRIMARY KEY (game_id, n)
    );
    CREATE TABLE events (
        game_id {big} NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        n INTEGER NOT NULL, version {big} NOT NULL, text TEXT NOT NULL,
        recipients TEXT, kind TEXT NOT NULL, data TEXT NOT NULL DEFAULT '{{}}',
        created_at {real} NOT NULL,
        PRIMARY KEY (game_id, n)
    );
    CREATE TABLE deadlines (
        game_id {big} NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seat INTEGER NOT NULL, kind TEXT NOT NULL,
        due_at {real} NOT NULL, remind_at {real}, reminded {bool} NOT NULL DEFAULT {false},
        PRIMARY KEY (game_id, seat, kind)
    );
    CREATE INDEX deadlines_due ON deadlines(due_at);
    CREATE TABLE guild_settings (
        guild_id {big} PRIMARY KEY,
        default_deadline {big}, reminder_lead {big}, opener_role_id {big},
        channels TEXT NOT NULL DEFAULT '[]'
    );
    CREATE TABLE dm_status (
        user_id {big} PRIMARY KEY, reachable {bool} NOT NULL, checked_at {real} NOT NULL
    );
    CREATE TABLE dm_notices (
        game_id {big} NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        user_id {big} NOT NULL,
        PRIMARY KEY (game_id, user_id)
    );
    """,
    # 2: prompt instances (an action names the decision it answers; a deadline belongs to one)
    """
    ALTER TABLE games ADD COLUMN opened TEXT NOT NULL DEFAULT '{{}}';
    ALTER TABLE games ADD COLUMN answered TEXT NOT NULL DEFAULT '{{}}';
    ALTER TABLE deadlines ADD COLUMN opened {big} NOT NULL DEFAULT 0;
    """,
    # 3: limits on open tables per server and per member (NULL: the defaults); listings ordered
    # by last activity, and a member's seats found by member
    """
    ALTER TABLE guild_settings ADD COLUMN table_limit INTEGER;
    ALTER TABLE guild_settings ADD COLUMN member_lobby_limit INTEGER;
    ALTER TABLE guild_settings ADD COLUMN member_table_limit INTEGER;
    CREATE INDEX games_guild_activity ON games(guild_id, status, updated_at);
    DROP INDEX seats_user;
    CREATE INDEX seats_user ON seats(user_id, game_id);
    """,
    # 4: claims on deadlines (several processes: each deadline is handled by the one that
    # claimed it, until its lease runs out)
    """
    ALTER TABLE deadlines ADD COLUMN claimed_by TEXT;
    ALTER TABLE deadlines ADD COLUMN claimed_until {real};
    """,
    # 5: ratings: each server's rating of its members (and of its computer players, user 0) in
    # each game; every settled game once (``rated`` false: it counted for nobody), with its
    # places; the members who left a running game's seat (ranked last); a server may turn
    # leaderboards off. Games finished before this step are settled unrated: ratings start here.
    """
    CREATE TABLE ratings (
        guild_id {big} NOT NULL, game_key TEXT NOT NULL, user_id {big} NOT NULL,
        name TEXT NOT NULL, mu {real} NOT NULL, sigma {real} NOT NULL,
        games INTEGER NOT NULL DEFAULT 0, wins INTEGER NOT NULL DEFAULT 0,
        updated_at {real} NOT NULL,
        PRIMARY KEY (guild_id, game_key, user_id)
    );
    CREATE INDEX ratings_member ON ratings(guild_id, user_id);
    CREATE TABLE settled_games (
        game_id {big} PRIMARY KEY, guild_id {big} NOT NULL, game_key TEXT NOT NULL,
        started_at {real} NOT NULL, finished_at {real} NOT NULL, moves {big} NOT NULL,
        rated {bool} NOT NULL, settled_at {real} NOT NULL
    );
    CREATE TABLE settled_places (
        game_id {big} NOT NULL REFERENCES settled_games(game_id) ON DELETE CASCADE,
        user_id {big} NOT NULL, guild_id {big} NOT NULL, name TEXT NOT NULL,
        rank INTEGER NOT NULL, won {bool} NOT NULL, abandoned {bool} NOT NULL,
        mu {real} NOT NULL, sigma {real} NOT NULL,
        PRIMARY KEY (game_id, user_id)
    );
    CREATE INDEX settled_places_member ON settled_places(guild_id, user_id);
    CREATE TABLE departures (
        game_id {big} NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        user_id {big} NOT NULL, seat INTEGER NOT NULL, name TEXT NOT NULL,
        PRIMARY KEY (game_id, user_id)
    );
    ALTER TABLE guild_settings ADD COLUMN leaderboards {bool} NOT NULL DEFAULT {true};
    INSERT INTO settled_games (game_id, guild_id, game_key, started_at, finished_at, moves, rated,
        settled_at)
        SELECT id, guild_id, game_key, created_at, updated_at, version, {false}, updated_at FROM games
        WHERE status='finished' AND guild_id IS NOT NULL;
    """,
    # 6: player preferences, time away and paused games (a paused game's deadlines wait in
    # ``pause_frozen``; ``pause_used`` keeps the time its earlier pauses used)
    """
    CREATE TABLE player_prefs (
        user_id {big} PRIMARY KEY,
        pings {bool} NOT NULL DEFAULT {true}, dms TEXT NOT NULL DEFAULT 'every',
        quiet_start INTEGER, quiet_end INTEGER, zone TEXT,
        away_until {real}, away_mode TEXT
    );
    ALTER TABLE games ADD COLUMN paused_at {real};
    ALTER TABLE games ADD COLUMN paused_by {big};
    ALTER TABLE games ADD COLUMN pause_used {real} NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN pause_frozen TEXT;
    """,
    # 7: saved decks (a player's own decks for card games, by game; one name once per player
    # and game, compared without case)
    """
    CREATE TABLE decks (
        id {id},
        user_id {big} NOT NULL, game_key TEXT NOT NULL,
        name TEXT NOT NULL, name_key TEXT NOT NULL, data TEXT NOT NULL DEFAULT '{{}}',
        created_at {real} NOT NULL, updated_at {real} NOT NULL,
        UNIQUE (user_id, game_key, name_key)
    );
    """,
    # 8: actions and events kept in the order of their key (SQLite's WITHOUT ROWID): a move's new
    # action and events are then written to one page each, where a table with a separate key
    # index wrote two (its rows, and the index over them); the rows are copied over as they are.
    # Per dialect because it is a rebuild of SQLite's tables; PostgreSQL's tables and their key
    # indexes stay as they are (the step does nothing there, so that the numbers stay paired).
    PerDialect(sqlite="""
    CREATE TABLE actions_by_key (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        n INTEGER NOT NULL, seat INTEGER NOT NULL, action TEXT NOT NULL,
        origin TEXT NOT NULL, user_id INTEGER, created_at REAL NOT NULL,
        PRIMARY KEY (game_id, n)
    ) WITHOUT ROWID;
    INSERT INTO actions_by_key (game_id, n, seat, action, origin, user_id, created_at)
        SELECT game_id, n, seat, action, origin, user_id, created_at FROM actions;
    DROP TABLE actions;
    ALTER TABLE actions_by_key RENAME TO actions;
    CREATE TABLE events_by_key (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        n INTEGER NOT NULL, version INTEGER NOT NULL, text TEXT NOT NULL,
        recipients TEXT, kind TEXT NOT NULL, data TEXT NOT NULL DEFAULT '{}',
        created_at REAL NOT NULL,
        PRIMARY KEY (game_id, n)
    ) WITHOUT ROWID;
    INSERT INTO events_by_key (game_id, n, version, text, recipients, kind, data, created_at)
        SELECT game_id, n, version, text, recipients, kind, data, created_at FROM events;
    DROP TABLE events;
    ALTER TABLE events_by_key RENAME TO events;
    """, postgres="SELECT 1"),
    # 9: each member's DM channel, once Discord has opened it: a DM is then sent to it at once,
    # without looking the member up nor asking Discord for the channel again
    """
    CREATE TABLE dm_channels (
        user_id {big} PRIMARY KEY, channel_id {big} NOT NULL
    ){rowid};
    """,
    # 10: a server's own limit on lobbies, and how long an idle lobby stays open
    """
    ALTER TABLE guild_settings ADD COLUMN lobby_limit INTEGER;
    ALTER TABLE guild_settings ADD COLUMN lobby_expiry INTEGER;
    """,
    # 11: each game's web token (the unguessable part of its public page's address), with the
    # digest it is looked up by (``bot.storage.base.link_digest``)
    """
    CREATE TABLE web_links (
        game_id {big} PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
        token TEXT NOT NULL, digest TEXT NOT NULL UNIQUE, created_at {real} NOT NULL
    );
    """,
    # 12: each game's version up to which its log lines are posted in its thread (the lines after
    # it wait on the board for the end of the round, and are read back from ``events`` after a
    # restart: ``bot.threadlog``)
    """
    CREATE TABLE thread_logs (
        game_id {big} PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
        version {big} NOT NULL
    );
    """,
    # 13: the web's player pages and a server's switch for its game pages: the secret their links
    # are signed with (one row, made by the first process that needs it), each seat's link
    # generation (renewing a link revokes the older ones), and the server's choice (NULL: on)
    """
    CREATE TABLE web_secret (
        id INTEGER PRIMARY KEY CHECK (id = 1), secret TEXT NOT NULL
    );
    CREATE TABLE web_seat_links (
        game_id {big} NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seat INTEGER NOT NULL, generation {big} NOT NULL,
        PRIMARY KEY (game_id, seat)
    ){rowid};
    ALTER TABLE guild_settings ADD COLUMN web_pages {bool};
    """,
    # 14: what each action answered, as judged when it was committed: the prompt's kind and
    # whether the action is withheld from a running game's export (a secret decision, or one
    # that names something a seat then held in secret); NULL on rows stored before this step,
    # whose export replays the log to judge them (``bot.replay.export``)
    """
    ALTER TABLE actions ADD COLUMN prompt_kind TEXT;
    ALTER TABLE actions ADD COLUMN secret {bool};
    """,
]


def scripts(dialect: Dialect) -> list[str]:
    """Every step as ``dialect``'s SQL: step ``n`` is item ``n - 1``."""
    return [(getattr(step, dialect.name) if isinstance(step, PerDialect) else dialect.schema(step))
            for step in STEPS]


def tables(scripts: list[str]) -> set[str]:
    """The tables the steps leave behind (statement by statement: a table may be made, dropped,
    renamed)."""
    made: set[str] = set()
    for script in scripts:
        for verb, name, new_name in re.findall(
                r"(CREATE TABLE|DROP TABLE|ALTER TABLE) (\w+)(?: RENAME TO (\w+))?", script):
            if verb == "CREATE TABLE":
                made.add(name)
            elif verb == "DROP TABLE":
                made.discard(name)
            elif new_name:
                made.discard(name)
                made.add(new_name)
    return made
