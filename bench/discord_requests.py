"""The Discord request budget: what every decision costs in requests to Discord.

A whole game of each game, every seat a human player, on simcord (the offline Discord the
``tests/discord`` tier uses) with the real bot: real cogs, real delivery, real SQLite file, real
boards. The players answer as the computer player would. A decision with enumerated choices is made
as a player makes it — **Decide** on the board, then the choice in the private panel (group menu,
page, button) — so its interaction responses are counted too; a decision made in one of the games'
own forms (a flick, a card pick) is submitted through the session, as the form's last click does,
and its interaction responses (one callback, at most one edit) are left out; a form for a decision
in the open (a flick) is first opened by **Decide** on the board (counted), a secret one (a card
pick) is the player's DM already. Cult Wars targets and orders are clicked in the form the player
was sent (``tests.discord.helpers.cult_wars_answer``): a form sent as the follow-up of their last
click is where they find it, and those clicks' responses are counted.
**Decide** answers with the choice form when the choices fit one menu (then the choice and
Submit: the board is redrawn as the answer), else with the private panel.

simcord records every request the bot makes. Per game, per decision:

* requests by kind: interaction responses (callbacks and webhook edits/followups: they do not
  count against the bot's global rate limit), thread messages, board edits (and board posts),
  DMs posted, DMs edited, user look-ups (``GET /users/{id}``), DM channels opened
  (``POST /users/@me/channels``), anything else (channel fetches, thread edits…);
* the share that counts against the global limit (everything but interaction responses), and the
  decisions per second one bot token can carry at Discord's 50 requests a second;
* bytes uploaded (files attached), median and mean per decision.

    python bench/discord_requests.py                      # every game, one seed each
    python bench/discord_requests.py --games petition:3 --seeds 1 2 3
    python bench/discord_requests.py --sketch             # tiny images (counts only, faster)
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import argparse  # noqa: E402
import asyncio  # noqa: E402
import logging  # noqa: E402
import random  # noqa: E402
import statistics  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from collections import Counter  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402
from typing import Any  # noqa: E402

import simcord  # noqa: E402
from simcord.http import router  # noqa: E402

from bot.app import HeraldBot  # noqa: E402
from bot.config import Config  # noqa: E402
from bot.gameui import get_ui  # noqa: E402
from bot.views import group_key  # noqa: E402
from tests.discord.helpers import board_of, cult_wars_answer, form_answer  # noqa: E402

GAMES = {"hegemony_of_faith": 4, "flick_of_faith": 2, "cult_wars": 3, "petition": 3, "alternate_histories": 2}
NAMES = ["ann", "bob", "cal", "dee", "eve", "fay", "gus", "hal"]
KINDS = ("interaction", "thread message", "board edit", "board post", "DM", "DM edit", "user lookup",
         "DM channel", "other")
GLOBAL = tuple(k for k in KINDS if k != "interaction")
GLOBAL_LIMIT = 50.0
"""Requests a second one bot token may make (interaction responses aside)."""


@dataclass
class Tally:
    game: str
    players: int
    seed: int
    decisions: int = 0
    clicked: int = 0
    kinds: Counter[str] = field(default_factory=Counter)
    uploads: list[int] = field(default_factory=list)
    """Bytes uploaded while each decision was handled."""
    seconds: float = 0.0

    def per(self, n: float) -> float:
        return n / max(1, self.decisions)


class Uploads:
    """Counts the bytes of the files of each request (simcord's request log keeps no files)."""

    def __init__(self) -> None:
        self.total = 0
        self._real = router.dispatch

    def __enter__(self) -> Uploads:
        def dispatch(backend: Any, method: str, path: str, **kwargs: Any) -> Any:
            for f in kwargs.get("files") or []:
                fp = getattr(f, "fp", None)
                if fp is not None and hasattr(fp, "getbuffer"):
                    self.total += len(fp.getbuffer())
            return self._real(backend, method, path, **kwargs)

        router.dispatch = dispatch  # (looked up on the module at each request)
        return self

    def __exit__(self, *exc: Any) -> None:
        router.dispatch = self._real


def classify(method: str, path: str, body: Any, home: int, dms: set[int]) -> str:
    parts = path.split("?")[0].strip("/").split("/")
    if parts[0] in ("interactions", "webhooks"):
        return "interaction"
    if parts[0] == "users":
        return "DM channel" if method == "POST" and parts[1:2] == ["@me"] else "user lookup"
    if parts[0] == "channels" and len(parts) >= 3 and parts[2] == "messages":
        cid = int(parts[1])
        if cid in dms:
            return "DM" if method == "POST" else "DM edit"
        if cid == home:
            if method == "PATCH":
                return "board edit"
            if method == "POST":
                embeds = (body or {}).get("embeds") or [] if isinstance(body, dict) else []
                board = any("game #" in str(e.get("title") or "") and "Final" not in str(e.get("title"))
                            for e in embeds)
                return "board post" if board else "thread message"
    return "other"


def sketch(keys: list[str]) -> None:
    """Tiny images: the requests are the same, the bench runs in a fraction of the time."""
    from PIL import Image

    for key in keys:
        ui = get_ui(key)
        ui.board_image = lambda *a, **k: Image.new("RGB", (8, 8))  # type: ignore[method-assign]
        ui.hand_image = lambda *a, **k: Image.new("RGB", (8, 8))  # type: ignore[method-assign]


def comps(message: Any) -> list[Any]:
    return [c for row in message.components for c in getattr(row, "children", [row])]


async def click_choice(member: Any, message: Any, prompt: Any, idx: int) -> bool:
    """Through the choice panel to ``prompt.choices[idx]`` (buttons; group menu → paged menu)."""
    keys = list(dict.fromkeys(group_key(c) for c in prompt.choices))
    for _ in range(8):
        cs = comps(message)
        button = next((c for c in cs if str(c.custom_id or "").startswith("herald:btn:")
                       and str(c.custom_id).endswith(f":{idx}")), None)
        if button is not None:
            await member.click(message, custom_id=button.custom_id)
            return True
        select = next((c for c in cs if str(getattr(c, "custom_id", "") or "").startswith(
            ("herald:grp:", "herald:pick:"))), None)
        if select is None:
            return False
        values = [o.value for o in select.options]
        if select.custom_id.startswith("herald:grp:"):
            alone, group = f"c:{idx}", f"g:{keys.index(group_key(prompt.choices[idx]))}"
            value = alone if alone in values else group
            r = await member.select(message, [value], custom_id=select.custom_id)
            if value == alone:
                return True
            message = r.response.message
            continue
        if str(idx) in values:
            await member.select(message, [str(idx)], custom_id=select.custom_id)
            return True
        shown = [int(v) for v in values if v.isdigit()]
        pages = [v for v in values if v.startswith("page:")]
        r = await member.select(message, [pages[-1] if idx > max(shown) else pages[0]], custom_id=select.custom_id)
        message = r.response.message
    return False


async def play(game: str, players: int, seed: int, limit: int) -> Tally:
    tally = Tally(game, players, seed)
    with tempfile.TemporaryDirectory() as folder:
        config = Config(token=None, db_path=str(Path(folder) / "herald.db"), dev_guild=None, log_level="ERROR",
                        default_deadline=86400, reminder_lead=3600, docs_url="")
        bot = HeraldBot(config)
        bot.heartbeat_every = 6 * 3600
        try:
            async with simcord.run(bot) as env:
                await _play(env, bot, tally, limit)
        finally:
            await bot.close_storage()
    return tally


async def _play(env: Any, bot: HeraldBot, tally: Tally, limit: int) -> None:
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    members = [guild.add_member(env.create_user(NAMES[i])) for i in range(tally.players)]
    await members[0].slash(channel, "play", game=tally.game)
    lobby = channel.last_message
    for m in members[1:]:
        await m.click(lobby, label="Join")
    game_id = (await bot.storage.list_games(guild_id=guild.id))[0].id
    await bot.storage.update_game(game_id, seed=tally.seed)
    by_user = {m.id: m for m in members}
    with Uploads() as up:
        start = len(env.http_requests)
        await members[0].click(lobby, label="Start")
        thread = channel.threads[0]
        engine = bot.sessions.engine(await bot.sessions.get(game_id))
        began = time.perf_counter()
        for _ in range(limit):
            snap = await bot.sessions.snapshot(game_id)
            if snap.game.status != "active":
                break
            o = snap.open[0]
            uid = snap.game.seats[o.seat].user_id
            assert uid is not None
            rng = random.Random(f"human/{snap.game.version}/{o.seat}")
            action = await bot.sessions.cpu(engine.bot_action, snap.view(o.seat), o.prompt, rng)
            before = up.total
            idx = next((i for i, c in enumerate(o.prompt.choices) if dict(c.action) == dict(action)), None)
            done = False
            board = board_of(thread)
            if idx is not None and o.prompt.free_form is None and board is not None:
                panel = await by_user[uid].click(board, label="Decide")
                message = panel.response.message if panel.response is not None else None
                if panel.modal is not None:  # the choice form: the choice, then Submit
                    await by_user[uid].submit_modal(panel, form_answer(panel, str(idx)))
                    done = True
                elif message is not None and message.components:
                    done = await click_choice(by_user[uid], message, o.prompt, idx)
                after = await bot.sessions.snapshot(game_id)
                done = done and after.game.version > snap.game.version
            elif o.prompt.secret and tally.game == "cult_wars":
                done = await cult_wars_answer(env, by_user[uid], game_id, o.opened, action)
                after = await bot.sessions.snapshot(game_id)
                done = done and after.game.version > snap.game.version
            elif o.prompt.free_form is not None and not o.prompt.secret and board is not None:
                # a game's own form for a decision in the open (a flick) is opened by Decide on
                # the board; a secret one (orders, a card pick) is the player's DM already
                await by_user[uid].click(board, label="Decide")
            if done:
                tally.clicked += 1
            else:
                await bot.sessions.act(game_id, o.seat, action, user_id=uid, answers=o.ticket)
            tally.decisions += 1
            tally.uploads.append(up.total - before)
        else:
            raise SystemExit(f"{tally.game} did not end within {limit} decisions")
        await env.settle()
        tally.seconds = time.perf_counter() - began
        home = thread.id
        dms = {m.user.dm_channel.id for m in members if m.user.dm_channel is not None}
        for entry in env.http_requests[start:]:
            tally.kinds[classify(entry.method, entry.path, entry.json, home, dms)] += 1


def report(tallies: list[Tally]) -> str:
    head = ["game (players)", "decisions", "clicked", "requests", "global", "decisions/s",
            *[k for k in KINDS], "bytes median", "bytes mean"]
    rows = []
    for t in tallies:
        total = sum(t.kinds.values())
        glob = sum(t.kinds[k] for k in GLOBAL)
        rows.append([f"{t.game} ({t.players}) s{t.seed}", str(t.decisions), str(t.clicked),
                     f"{t.per(total):.2f}", f"{t.per(glob):.2f}",
                     f"{GLOBAL_LIMIT / max(t.per(glob), 1e-9):.0f}",
                     *[f"{t.per(t.kinds[k]):.2f}" for k in KINDS],
                     f"{statistics.median(t.uploads or [0]):,.0f}", f"{statistics.fmean(t.uploads or [0]):,.0f}"])
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="*", default=[f"{k}:{n}" for k, n in GAMES.items()],
                        help="game:players, e.g. petition:3 (default: every game)")
    parser.add_argument("--seeds", nargs="*", type=int, default=[1])
    parser.add_argument("--limit", type=int, default=4000, help="decisions at most per game")
    parser.add_argument("--sketch", action="store_true", help="tiny images: counts only, faster")
    args = parser.parse_args()
    logging.disable(logging.WARNING)
    games = [(g.split(":")[0], int(g.split(":")[1]) if ":" in g else GAMES[g]) for g in args.games]
    if args.sketch:
        sketch([g for g, _ in games])
    tallies = []
    for game, players in games:
        for seed in args.seeds:
            t = asyncio.run(play(game, players, seed, args.limit))
            print(f"{game} seed {seed}: {t.decisions} decisions in {t.seconds:.1f} s", file=sys.stderr, flush=True)
            tallies.append(t)
    print(report(tallies))


if __name__ == "__main__":
    main()
