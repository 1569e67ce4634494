"""Web pages benchmark: server time of a game page and a history step, live updates to many open
pages, memory per open page, page weight.

``--games`` running games are made in a real SQLite file (Cult Wars, one member and two computer
players, the member's moves chosen by the computer player for ``--moves`` moves, so every game is
live with a history). The web server runs in this process on a real port and is asked over HTTP
(aiohttp's client, in the same process: the times include the client's share, an upper bound):

* **game page**: ``GET /g/<token>/`` of a random game — first view (its history replayed) and
  again (cached), median and p99;
* **history step**: ``GET /g/<token>/at/<n>.json`` of a random game at a random step, median and
  p99 (replay from the nearest kept state, frame cached after);
* **live**: ``--pages`` event streams open on one game, read by another process (as browsers
  would be: their work is not this process's); a move is stored through the session and
  the time until each page has the new step (the stream carries it: board address, panel and
  the log since the last step) is measured (``--rounds`` moves), p50/p99/max;
  memory per open page from the server process's RSS before and after opening them;
* **player page**: ``GET /p/<token>/<link>/`` of the member's own page in a random game (its
  hand, its decision and the board's frame), median and p99; and a decision made from it
  (``POST …/act``: the page's form, the prompt's ticket, ``Sessions.act`` with the computer
  players' answers, and the page drawn again), median and p99;
* **weight**: HTML + CSS + JS of a page (no board image), as sent (gzip) and uncompressed, for the
  longest page among the games and a whole finished game of each game; and of a member's page.

    python bench/web.py
    python bench/web.py --games 200 --pages 300 --rounds 3
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import argparse  # noqa: E402
import asyncio  # noqa: E402
import gzip  # noqa: E402
import json  # noqa: E402
import random  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

import aiohttp  # noqa: E402
from sessions_load import CONFIG, percentile, rss_mb  # noqa: E402

from bot.session import Sessions, Ticket  # noqa: E402
from bot.storage import SqliteStorage  # noqa: E402
from bot.web import WebServer  # noqa: E402

GAMES = {"cult_wars": 3, "petition": 2, "alternate_histories": 2, "hegemony_of_faith": 4,
         "flick_of_faith": 2}


def ms(values: list[float]) -> str:
    return f"median {percentile(values, 50) * 1000:.1f} ms, p99 {percentile(values, 99) * 1000:.1f} ms"


async def live_game(s: Sessions, seed: int, moves: int) -> int:
    table = await s.open_table(guild_id=seed, channel_id=2, host_id=1000 + seed, host_name=f"Member {seed}",
                               game_key="cult_wars", bots=2, seed=seed)
    await s.start(table.id, 1000 + seed)
    rng = random.Random(seed)
    for _ in range(moves):
        snap = await s.snapshot(table.id)
        mine = snap.prompt_of(0)
        if mine is None or snap.game.status != "active":
            break
        action = s.engine(snap.game).bot_action(snap.view(0), mine.prompt, rng)
        await s.act(table.id, 0, action, answers=Ticket(mine.opened))
    return table.id


async def move(s: Sessions, game_id: int, rng: random.Random) -> bool:
    snap = await s.snapshot(game_id)
    mine = snap.prompt_of(0)
    if mine is None:
        return False
    action = s.engine(snap.game).bot_action(snap.view(0), mine.prompt, rng)
    await s.act(game_id, 0, action, answers=Ticket(mine.opened))
    return True


async def weight(http: aiohttp.ClientSession, url: str) -> tuple[int, int]:
    """(bytes sent, bytes uncompressed) of a page's HTML, stylesheets and script."""
    sent = raw = 0
    async with http.get(url) as r:
        body = await r.read()
        html = body.decode()
    parts = [body]
    for ref in ("../../static/herald.css", "../../static/herald.js"):
        async with http.get(url + ref) as r:
            parts.append(await r.read())
    key = html.split("static/seats-")[1].split(".css")[0]
    async with http.get(url + f"../../static/seats-{key}.css") as r:
        parts.append(await r.read())
    for p in parts:
        raw += len(p)
        sent += len(gzip.compress(p, 6))
    return sent, raw


async def player_weight(http: aiohttp.ClientSession, url: str) -> tuple[int, int]:
    """(bytes sent, bytes uncompressed) of a player page's HTML, stylesheets and script."""
    sent = raw = 0
    async with http.get(url) as r:
        body = await r.read()
    key = body.decode().split("static/seats-")[1].split(".css")[0]
    parts = [body]
    for ref in ("herald.css", "player.js", f"seats-{key}.css"):
        async with http.get(url + f"../../../static/{ref}") as r:
            parts.append(await r.read())
    for p in parts:
        raw += len(p)
        sent += len(gzip.compress(p, 6))
    return sent, raw


async def main(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as folder:
        storage = SqliteStorage(str(Path(folder) / "herald.db"))
        await storage.open()
        s = Sessions(storage, CONFIG)
        began = time.perf_counter()
        ids = [await live_game(s, seed, args.moves) for seed in range(1, args.games + 1)]
        print(f"{len(ids)} running games made in {time.perf_counter() - began:.0f} s; RSS {rss_mb():.0f} MB")
        web = WebServer(s, storage, "", ("127.0.0.1", 0))
        await web.start()
        web.base_url = web.url
        urls = {g: await web.ensure_link(g) for g in ids}
        rng = random.Random(7)
        conn = aiohttp.TCPConnector(limit=0)
        async with aiohttp.ClientSession(connector=conn, timeout=aiohttp.ClientTimeout(total=None)) as http:
            first, again, steps = [], [], []
            order = list(ids)
            rng.shuffle(order)
            lasts = {}
            for g in order:
                t = time.perf_counter()
                async with http.get(urls[g]) as r:
                    html = await r.text()
                first.append(time.perf_counter() - t)
                lasts[g] = int(html.split('data-last="')[1].split('"')[0])
            for g in order:
                t = time.perf_counter()
                async with http.get(urls[g]) as r:
                    await r.read()
                again.append(time.perf_counter() - t)
            for _ in range(args.steps):
                g = rng.choice(ids)
                n = rng.randint(0, lasts[g])
                t = time.perf_counter()
                async with http.get(urls[g] + f"at/{n}.json") as r:
                    await r.read()
                steps.append(time.perf_counter() - t)
            print(f"game page, first view ({len(first)}): {ms(first)}")
            print(f"RSS with every game's history kept: {rss_mb():.0f} MB")
            print(f"game page, again ({len(again)}): {ms(again)}")
            print(f"history step ({len(steps)}, random game and step): {ms(steps)}")
            moves = sorted(lasts.values())
            print(f"moves per game: median {moves[len(moves) // 2]}, max {moves[-1]}")

            # the member's own page, and decisions made from it
            links = {}
            for g in ids:
                link = await web.player_link(await s.get(g), 0)
                assert link is not None
                links[g] = link
            shown: list[float] = []
            decided: list[float] = []
            for g in order[1:]:
                t = time.perf_counter()
                async with http.get(links[g]) as r:
                    page = await r.text()
                shown.append(time.perf_counter() - t)
                if len(decided) >= args.decisions or 'name="ticket"' not in page:
                    continue
                form = page.split('name="form" value="')[1].split('"')[0]
                ticket = page.split('name="ticket" value="')[1].split('"')[0]
                t = time.perf_counter()
                async with http.post(links[g] + "act", data={"form": form, "ticket": ticket, "choice": "0"}) as r:
                    await r.read()
                    assert r.status == 200, r.status
                decided.append(time.perf_counter() - t)
            print(f"player page ({len(shown)}, the member's own, random game): {ms(shown)}")
            if decided:
                print(f"decision from the player page ({len(decided)}, POST to the page drawn again, "
                      f"the computer players' answers included): {ms(decided)}")

            # live: many open pages on one game, in another process (as browsers are), a move
            # stored through the session here; both read the same monotonic clock
            game = ids[0]
            before = rss_mb()
            client = await asyncio.create_subprocess_exec(
                sys.executable, __file__, "--client", urls[game], str(args.pages),
                stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
            assert client.stdout is not None and client.stdin is not None
            assert (await client.stdout.readline()).strip() == b"ready"
            opened = rss_mb()
            print(f"{args.pages} open pages: {(opened - before) * 1024 / args.pages:.1f} KB per page "
                  f"on the server (RSS {before:.0f} → {opened:.0f} MB)")
            moved: dict[int, float] = {}
            for _ in range(args.rounds):
                t0 = time.monotonic()
                if not await move(s, game, rng):
                    break
                moved[len(await storage.actions(game))] = t0
                await asyncio.sleep(2.0)
            client.stdin.close()
            heard = json.loads((await client.stdout.read()).decode())
            await client.wait()
            lags: list[float] = []
            for last, t0 in moved.items():
                arrivals = heard.get(str(last), [])
                round_lags = [t - t0 for t in arrivals]
                print(f"  move to step {last}: {len(arrivals)} pages had it within "
                      f"{max(round_lags, default=float('nan')) * 1000:.0f} ms")
                lags += round_lags
            if lags:
                print(f"a move reaches {args.pages} open pages ({len(lags)} deliveries): "
                      f"p50 {percentile(lags, 50) * 1000:.0f} ms, p99 {percentile(lags, 99) * 1000:.0f} ms, "
                      f"max {max(lags) * 1000:.0f} ms")

            longest = max(lasts, key=lambda g: lasts[g])
            sent, raw = await weight(http, urls[longest])
            print(f"page weight, the longest running game ({lasts[longest]} moves): {sent / 1024:.1f} KB "
                  f"sent (gzip), {raw / 1024:.1f} KB uncompressed")
            for key, players in GAMES.items():
                table = await s.open_table(guild_id=10**6, channel_id=2, host_id=None, host_name="-",
                                           game_key=key, bots=players, seed=5, host_plays=False)
                await s.start(table.id, None, is_admin=True)
                n = len(await storage.actions(table.id))
                sent, raw = await weight(http, await web.ensure_link(table.id))
                print(f"page weight, a whole {key} game ({n} moves): {sent / 1024:.1f} KB sent (gzip), "
                      f"{raw / 1024:.1f} KB uncompressed")
            for key, players in GAMES.items():  # a member's page in the middle of a game
                table = await s.open_table(guild_id=10**6, channel_id=2, host_id=77, host_name="Member",
                                           game_key=key, bots=players - 1, seed=5)
                await s.start(table.id, 77)
                for _ in range(20):
                    if not await move(s, table.id, rng):
                        break
                link = await web.player_link(await s.get(table.id), 0)
                assert link is not None
                sent, raw = await player_weight(http, link)
                print(f"player page weight, {key}: {sent / 1024:.1f} KB sent (gzip), {raw / 1024:.1f} KB uncompressed")
        await web.stop()
        await storage.close()


async def pages_client(url: str, count: int) -> None:
    """The open pages, in their own process: ``count`` event streams on ``url``; prints
    "ready" once each has its first head, then, when stdin closes, each step's arrival times."""
    heard: dict[int, list[float]] = {}
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0),
                                     timeout=aiohttp.ClientTimeout(total=None)) as http:
        streams = [await http.get(url + "live") for _ in range(count)]
        for r in streams:
            while not (await r.content.readline()).startswith(b"data: "):
                pass

        async def listen(r: aiohttp.ClientResponse) -> None:
            while True:
                line = await r.content.readline()
                if not line:
                    return
                if line.startswith(b"data: "):
                    at = time.monotonic()
                    step = json.loads(line[6:])
                    heard.setdefault(step["last"], []).append(at)

        tasks = [asyncio.create_task(listen(r)) for r in streams]
        print("ready", flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
        for t in tasks:
            t.cancel()
    print(json.dumps(heard), flush=True)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--client"]:
        asyncio.run(pages_client(sys.argv[2], int(sys.argv[3])))
        sys.exit(0)
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--moves", type=int, default=12, help="the member's moves in each game")
    p.add_argument("--steps", type=int, default=2000, help="history steps asked for")
    p.add_argument("--pages", type=int, default=1000, help="open live pages")
    p.add_argument("--rounds", type=int, default=5, help="moves made while the pages are open")
    p.add_argument("--decisions", type=int, default=200, help="decisions made from player pages")
    asyncio.run(main(p.parse_args()))
