"""Quiet, useful messages: what each player is sent, and when.

* A whole game of each game with two humans (and computer players), played through the session
  layer with the real delivery on simcord: DMs and pings are counted per decision a human makes.
  The goal: a DM only when the player must act or their private information changed for a reason
  other than their own click; at most one new DM per decision; the hand DM edited, not re-sent.
* Closed DMs are retried at each new game and after a back-off, and announced once per game.
* The end of a game reaches every human: one mention in the final message, one DM with a link.
* Choices say what they do; reminders link the board and show the deadline as a timestamp;
  public lines never say "you"; ``/play`` understands display names and near misses.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, TypedDict

import pytest
import simcord
from PIL import Image

from bot.app import HeraldBot
from bot.gameui import get_ui
from tests.discord.helpers import (
    choice_labels,
    choose_label,
    custom_ids,
    find_by_prefix,
    first_choice,
    form_text,
    last_message,
    open_seeded_table,
    private,
    reply_text,
)


@dataclass
class Tally:
    """DMs and pings per human, and the decisions each made."""

    names: dict[int, str]
    dm_posts: Counter[int] = field(default_factory=Counter)
    dm_edits: Counter[int] = field(default_factory=Counter)
    after_own_click: Counter[int] = field(default_factory=Counter)
    quiet_breaches: Counter[int] = field(default_factory=Counter)
    """New DMs right after the player's own click that carry no decision (should be none)."""
    with_decision: Counter[int] = field(default_factory=Counter)
    pings: Counter[int] = field(default_factory=Counter)
    decisions: Counter[int] = field(default_factory=Counter)

    def line(self, game: str) -> str:
        parts = []
        for uid, name in self.names.items():
            d = max(1, self.decisions[uid])
            parts.append(f"{name}: {self.decisions[uid]} decisions, {self.dm_posts[uid]} DMs "
                         f"({self.dm_posts[uid] / d:.2f}/decision; {self.with_decision[uid]} asking a decision; "
                         f"{self.after_own_click[uid]} right after their own click, "
                         f"{self.quiet_breaches[uid]} of them asking nothing), {self.dm_edits[uid]} DM edits, "
                         f"{self.pings[uid]} pings ({self.pings[uid] / d:.2f}/decision)")
        return f"{game}: " + "; ".join(parts)


Counts = tuple[Counter[int], Counter[int], Counter[int], Counter[int]]


def _count(env: simcord.Env, start: int, dm_of: dict[int, int], thread_id: int) -> Counts:
    """DM posts, DM posts with components (a decision: Decide or a form), DM edits and pings per
    user in the transcript since ``start``."""
    posts: Counter[int] = Counter()
    asking: Counter[int] = Counter()
    edits: Counter[int] = Counter()
    pings: Counter[int] = Counter()
    for kind, what, body in env.backend.transcript[start:]:
        if kind != "HTTP":
            continue
        method, _, path = str(what).partition(" ")
        parts = path.split("?")[0].strip("/").split("/")
        if len(parts) < 3 or parts[0] != "channels" or parts[2] != "messages":
            continue
        cid = int(parts[1])
        for uid, dm in dm_of.items():
            if cid == dm:
                if method == "POST":
                    posts[uid] += 1
                    content = str(body.get("content") or "") if isinstance(body, dict) else ""
                    # a decision (Decide or a form), or the final result: not noise
                    asking[uid] += bool(isinstance(body, dict) and body.get("components")) or content.startswith("🏁")
                elif method == "PATCH":
                    edits[uid] += 1
        if cid == thread_id and method == "POST" and isinstance(body, dict):
            allowed = (body.get("allowed_mentions") or {}).get("users") or []
            for uid in dm_of:
                if f"<@{uid}>" in str(body.get("content") or "") and str(uid) in [str(u) for u in allowed]:
                    pings[uid] += 1
    return posts, asking, edits, pings


async def play_through(env: simcord.Env, bot: HeraldBot, game_key: str, seed: int, computers: int,
                       limit: int = 3000) -> Tally:
    """Open a seeded table (alice, bob and ``computers``), then let both humans answer every decision
    as the computer player would, through the session (as a click does), until the game ends."""
    channel, thread, (alice, bob) = await open_seeded_table(env, bot, game_key, seed, computers=computers)
    humans = {alice.id: alice, bob.id: bob}
    dm_of = {uid: m.user.dm_channel.id for uid, m in humans.items()}
    tally = Tally({alice.id: "alice", bob.id: "bob"})
    posts, asking, edits, pings = _count(env, 0, dm_of, thread.id)
    tally.dm_posts += posts
    tally.with_decision += asking
    tally.dm_edits += edits
    tally.pings += pings
    game_id = (await bot.storage.list_games())[-1].id
    engine = bot.sessions.engine(await bot.sessions.get(game_id))
    for _ in range(limit):
        snap = await bot.sessions.snapshot(game_id)
        game = snap.game
        if game.status != "active":
            break
        mine = next((o for o in snap.open if game.seats[o.seat].user_id in humans), None)
        assert mine is not None, "nobody human is asked, yet the game goes on"
        uid = game.seats[mine.seat].user_id
        assert uid is not None
        rng = random.Random(f"human/{game.version}/{mine.seat}")
        action = await bot.sessions.cpu(engine.bot_action, snap.view(mine.seat), mine.prompt, rng)
        start = len(env.backend.transcript)
        await bot.sessions.act(game_id, mine.seat, action, user_id=uid, answers=mine.ticket)
        tally.decisions[uid] += 1
        posts, asking, edits, pings = _count(env, start, dm_of, thread.id)
        tally.after_own_click[uid] += posts[uid]
        tally.quiet_breaches[uid] += posts[uid] - asking[uid]
        tally.dm_posts += posts
        tally.with_decision += asking
        tally.dm_edits += edits
        tally.pings += pings
    else:
        raise AssertionError(f"{game_key} did not end within {limit} human decisions")
    return tally


def assert_quiet(tally: Tally) -> None:
    """The goal: no new DM right after a player's own click unless it asks a decision (or says
    the game is over); at most one new DM per decision, plus the first hand and the result."""
    for uid, name in tally.names.items():
        assert tally.quiet_breaches[uid] == 0, (name, tally.line("?"))
        assert tally.with_decision[uid] <= tally.decisions[uid] + 1, (name, tally.line("?"))
        assert tally.dm_posts[uid] <= tally.decisions[uid] + 2, (name, tally.line("?"))


@pytest.fixture
def sketchy_images(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tiny images instead of boards, hands and flick animations: these tests count messages,
    and drawing a whole game's pictures would take most of their time."""
    for key in ("hegemony_of_faith", "flick_of_faith", "cult_wars"):
        ui = get_ui(key)
        monkeypatch.setattr(ui, "board_image", lambda *a, **k: Image.new("RGB", (8, 8)))
        monkeypatch.setattr(ui, "hand_image", lambda *a, **k: Image.new("RGB", (8, 8)))
        monkeypatch.setattr(ui, "attachments", lambda *a, **k: [])


@pytest.mark.usefixtures("sketchy_images")
@pytest.mark.parametrize(("game", "seed", "computers"), [
    ("hegemony_of_faith", 56, 2), ("flick_of_faith", 7, 1), ("cult_wars", 7, 1),
])
async def test_a_whole_game_sends_at_most_one_dm_per_decision(simcord_env: simcord.Env, simcord_bot: HeraldBot,
                                                               game: str, seed: int, computers: int) -> None:
    tally = await play_through(simcord_env, simcord_bot, game, seed, computers=computers)
    print(tally.line(game))
    assert_quiet(tally)


# ------------------------------------------------------------------ faults, one test each

class InjectedError(TypedDict):
    """The keywords of ``Env.inject_error`` after its method and path."""

    status: int
    code: int
    message: str
    times: int | None


CLOSED: InjectedError = {"status": 403, "code": 50007, "message": "Cannot send messages to this user", "times": None}
NOTICE = "can't send you direct messages"


async def open_duel(env: simcord.Env, guild: Any, channel: Any, host: Any, guest: Any, *,
                    options: str | None = None, deadline: str | None = None) -> Any:
    """/play duel by ``host``, joined by ``guest``, started; returns the game's thread."""
    opts = {"game": "duel"}
    if options:
        opts["options"] = options
    if deadline:
        opts["deadline"] = deadline
    before = len(channel.threads)
    await host.slash(channel, "play", **opts)
    lobby = channel.last_message
    await guest.click(lobby, label="Join")
    await host.click(lobby, label="Start")
    assert len(channel.threads) == before + 1
    return channel.threads[-1]


def board_of(thread: Any) -> Any:
    return find_by_prefix(thread.history(), "herald:act:")


async def answer(player: Any, thread: Any) -> str | None:
    """The player answers their open decision with its first choice; None if they have none."""
    panel = await player.click(board_of(thread), label="Decide")
    if not choice_labels(panel):
        return None
    label, choose = await first_choice(player, panel)
    await choose()
    return label


async def play_round(thread: Any, players: list[Any]) -> None:
    """Both bid their lowest card, then the round's winner claims gold (if a claim is asked)."""
    for p in players:
        assert await answer(p, thread) is not None
    for p in players:
        if not any("herald:act:" in cid for m in thread.history() for cid in custom_ids(m)):
            return  # the game is over
        panel = await p.click(board_of(thread), label="Decide")
        if "Gold (+2)" in choice_labels(panel):
            await choose_label(p, panel, "Gold (+2)")


def two_players(env: simcord.Env) -> tuple[Any, Any, Any, Any]:
    """A server with a games channel and two members, alice and bob."""
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    return (guild, channel, guild.add_member(env.create_user("alice")),
            guild.add_member(env.create_user("bob")))


def notices(thread: Any) -> list[Any]:
    return [m for m in thread.history() if NOTICE in m.content]


async def test_closed_dms_are_tried_again_in_each_new_game_and_after_a_back_off(simcord_env: simcord.Env) -> None:
    env = simcord_env
    guild, channel, alice, bob = two_players(env)
    env.inject_error("POST", f"/channels/{bob.user.dm_channel.id}/messages", **CLOSED)
    first = await open_duel(env, guild, channel, alice, bob, options="fast=yes")
    assert len(notices(first)) == 1 and str(bob.id) in notices(first)[0].content
    # a new game: Herald tries again, and the thread of that game is told too
    second = await open_duel(env, guild, channel, alice, bob)
    assert len(notices(second)) == 1 and len(notices(first)) == 1
    # bob opens his DMs; within the back-off Herald does not try yet (the next round asks him)
    env.backend.faults.clear()
    await play_round(second, [alice, bob])
    assert not bob.user.dm_channel.history()
    # after the back-off (an hour, doubled by the second refusal), the next decision reaches him
    await env.advance_time(2 * 3600 + 60)
    await play_round(second, [alice, bob])
    dms = bob.user.dm_channel.history()
    assert dms and "game #2" in dms[-1].content and "Your decision" in dms[-1].content
    assert len(notices(second)) == 1  # still announced once per game


async def test_the_end_of_a_game_reaches_every_human_once(simcord_env: simcord.Env, simcord_bot: HeraldBot) -> None:
    env = simcord_env
    guild, channel, alice, bob = two_players(env)
    carol = guild.add_member(env.create_user("carol"))
    thread = await open_duel(env, guild, channel, alice, bob, options="fast=yes")
    env.inject_error("POST", f"/channels/{carol.user.dm_channel.id}/messages", **CLOSED)  # (unrelated)
    start = len(env.backend.transcript)
    await play_round(thread, [alice, bob])
    game = await simcord_bot.storage.get_game(1)
    assert game is not None and game.status == "finished"
    # one message in the thread mentions both players, and may ping them
    pinging = [body for kind, what, body in env.backend.transcript[start:]
               if kind == "HTTP" and what == f"POST /channels/{thread.id}/messages" and isinstance(body, dict)
               and (body.get("allowed_mentions") or {}).get("users")]
    finals = [b for b in pinging if "game #1 is over" in str(b.get("content"))]
    assert len(finals) == 1
    assert str(alice.id) in finals[0]["content"] and str(bob.id) in finals[0]["content"]
    assert {str(u) for u in finals[0]["allowed_mentions"]["users"]} == {str(alice.id), str(bob.id)}
    # one DM each, with the standing and a link
    for player in (alice, bob):
        ends = [m for m in player.user.dm_channel.history() if m.content.startswith("🏁")]
        assert len(ends) == 1, [m.content for m in player.user.dm_channel.history()]
        text = ends[0].content
        assert "game #1" in text and "https://discord.com/channels/" in text
        assert ("You won" in text or "You share the win" in text or "You finished 2nd of 2" in text), text
        assert ".0" not in text  # scores as integers


async def test_a_player_with_closed_dms_still_learns_the_result_in_the_thread(simcord_env: simcord.Env) -> None:
    env = simcord_env
    guild, channel, alice, bob = two_players(env)
    env.inject_error("POST", f"/channels/{bob.user.dm_channel.id}/messages", **CLOSED)
    thread = await open_duel(env, guild, channel, alice, bob, options="fast=yes")
    await play_round(thread, [alice, bob])
    final = [m for m in thread.history() if "game #1 is over" in m.content]
    assert len(final) == 1 and str(bob.id) in final[0].content and final[0].embeds
    assert len(notices(thread)) == 1
    assert [m for m in alice.user.dm_channel.history() if m.content.startswith("🏁")]


async def test_choices_on_buttons_say_what_they_do(simcord_env: simcord.Env, simcord_bot: HeraldBot) -> None:
    """Flick of Faith's first decision: two gods on buttons, each god's power in the text."""
    channel, thread, (alice, bob) = await open_seeded_table(simcord_env, simcord_bot, "flick_of_faith", 7)
    game = (await simcord_bot.storage.list_games())[0]
    snap = await simcord_bot.sessions.snapshot(game)
    mine = snap.prompt_of(0)
    assert mine is not None and mine.prompt.kind == "god" and len(mine.prompt.choices) == 2
    panel = await alice.click(find_by_prefix(thread.history(), "herald:act:"), label="Decide")
    said = form_text(panel)
    for c in mine.prompt.choices:
        assert c.description and c.description[:100] in said, said
    assert choice_labels(panel) == [c.label for c in mine.prompt.choices]


async def test_reminders_link_the_board_and_show_the_deadline_as_a_timestamp(simcord_env: simcord.Env) -> None:
    env = simcord_env
    guild, channel, alice, bob = two_players(env)
    thread = await open_duel(env, guild, channel, alice, bob, options="fast=yes", deadline="2h")
    await answer(alice, thread)
    await env.advance_time(3600 + 60)
    reminder = [m for m in thread.history() if "reminder" in m.content][-1].content
    board = board_of(thread)
    assert re.search(r"<t:\d+:R>", reminder) and board.jump_url in reminder, reminder
    dm = [m for m in bob.user.dm_channel.history() if "reminder" in m.content][-1].content
    assert board.jump_url in dm and re.search(r"<t:\d+:R>", dm)


async def test_a_timeout_is_told_about_the_player_not_to_them(simcord_env: simcord.Env) -> None:
    env = simcord_env
    guild, channel, alice, bob = two_players(env)
    thread = await open_duel(env, guild, channel, alice, bob, options="fast=yes", deadline="2h")
    await answer(alice, thread)
    await env.advance_time(2 * 3600 + 60)
    line = next(m.content for m in thread.history() if "ran out of time" in m.content)
    assert "**P2 bob**'s lowest card is bid" in line, line
    assert not re.search(r"\byou(r)?\b", line, re.IGNORECASE), line


@pytest.mark.parametrize("typed", ["High Card Duel", "high card duel", "DUEL", "card duel"])
async def test_play_accepts_display_names_and_near_misses(simcord_env: simcord.Env, typed: str) -> None:
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("games")
    alice = guild.add_member(simcord_env.create_user("alice"))
    r = await alice.slash(channel, "play", game=typed)
    assert not private(r), reply_text(r)
    assert "High Card Duel" in (last_message(channel).embeds[0].title or "")


async def test_play_suggests_the_closest_game(simcord_env: simcord.Env) -> None:
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("games")
    alice = guild.add_member(simcord_env.create_user("alice"))
    r = await alice.slash(channel, "play", game="hegemoni of fate")
    assert private(r) and "did you mean Hegemony of Faith" in reply_text(r), reply_text(r)
    r = await alice.slash(channel, "play", game="faith")
    assert private(r) and "Flick of Faith" in reply_text(r) and "Hegemony of Faith" in reply_text(r)
    assert channel.last_message is None
    offered = await alice.autocomplete(channel, "play", "game", "cult w")
    assert [c["value"] for c in offered] == ["cult_wars"]
    offered = await alice.autocomplete(channel, "play", "game", "flik")
    assert "flick_of_faith" in [c["value"] for c in offered]
