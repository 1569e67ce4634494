"""Screenshots of the web pages for the README (``docs/images/web_*.png``).

For each game a table of members named in several scripts plays some moves (each chosen by the
computer player, seeded) until a member has a decision to make (in Flick of Faith, a flick, shown
with its aim preview); its pages are served on this machine and headless Chromium takes the game's
page and that member's own page
(``web_<game>.png``, ``web_<game>_player.png``), and — for Hegemony of Faith — the game's page as
a wide screen and a phone show it (``web_page.png``, ``web_page_phone.png``):

    python scripts/web_screenshots.py docs/images

Needs Debian's ``chromium`` (``apt-get install chromium``)."""

from __future__ import annotations

import asyncio
import io
import random
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from PIL import Image  # noqa: E402

from bot.config import Config  # noqa: E402
from bot.session import Sessions, Ticket  # noqa: E402
from bot.storage import SqliteStorage  # noqa: E402
from bot.web import WebServer  # noqa: E402

NAMES = ["Алиса", "李雷", "محمد", "Zoë", "Ngozi"]
PLAYERS = {"hegemony_of_faith": 4, "cult_wars": 3, "petition": 3, "alternate_histories": 2,
           "flick_of_faith": 3}
MOVES = {"hegemony_of_faith": 40, "cult_wars": 12, "petition": 12, "alternate_histories": 30,
         "flick_of_faith": 10}
"""Moves played before the shots (then on until a member may decide from their page)."""
SEED = 56
SHOTS = {"web_page.png": "1280,1400", "web_page_phone.png": "420,1300"}
GAME_SHOT = "1280,1300"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars"]


async def _shoot(chromium: str, url: str, size: str, path: Path) -> None:
    with tempfile.TemporaryDirectory() as profile:
        proc = await asyncio.create_subprocess_exec(
            chromium, *FLAGS, f"--user-data-dir={profile}", f"--window-size={size}",
            f"--screenshot={path}", url,
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL)
        await asyncio.wait_for(proc.wait(), 60)
    # a palette of 256 colours: a page is flat colours and text, a fifth of the bytes
    with Image.open(path) as shot:
        small = shot.convert("RGB").quantize(256, dither=Image.Dither.NONE)
    out = io.BytesIO()
    small.save(out, "PNG", optimize=True)
    path.write_bytes(out.getvalue())
    print(f"wrote {path}")


async def _game(sessions: Sessions, key: str) -> tuple[int, int]:
    """A seeded game of ``key`` between members, moved on; returns it and the seat to show."""
    table = await sessions.open_table(guild_id=1, channel_id=2, host_id=501, host_name=NAMES[0],
                                      game_key=key, seed=SEED)
    for i, name in enumerate(NAMES[1:PLAYERS[key]], start=2):
        await sessions.join(table.id, 500 + i, name)
    await sessions.start(table.id, 501)
    rng = random.Random(SEED)
    for n in range(MOVES[key] + 200):
        snap = await sessions.snapshot(table.id)
        if not snap.open:
            break
        offered = [o for o in snap.open if (o.prompt.free_form == "flick" if key == "flick_of_faith"
                                            else o.prompt.choices or o.prompt.free_form)]
        if n >= MOVES[key] and offered:
            return table.id, offered[0].seat
        mine = snap.open[0]
        action = sessions.engine(snap.game).bot_action(snap.view(mine.seat), mine.prompt, rng)
        await sessions.act(table.id, mine.seat, action, answers=Ticket(mine.opened))
    snap = await sessions.snapshot(table.id)
    return table.id, (snap.open[0].seat if snap.open else 0)


async def main(out: Path) -> None:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        raise SystemExit("error: chromium is not installed (apt-get install chromium).")
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        storage = SqliteStorage(str(Path(folder) / "herald.db"))
        await storage.open()
        config = Config(token=None, db_path="", dev_guild=None, log_level="WARNING",
                        default_deadline=86400, reminder_lead=3600, docs_url="")
        sessions = Sessions(storage, config)
        games = {key: await _game(sessions, key) for key in PLAYERS}
        web = WebServer(sessions, storage, "", ("127.0.0.1", 0))
        await web.start()
        web.base_url = web.url
        try:
            for key, (game_id, seat) in games.items():
                page = await web.ensure_link(game_id)
                player = await web.player_link(await sessions.get(game_id), seat)
                assert player is not None
                if key == "hegemony_of_faith":
                    for name, size in SHOTS.items():
                        await _shoot(chromium, page, size, out / name)
                await _shoot(chromium, page, GAME_SHOT, out / f"web_{key}.png")
                if key == "flick_of_faith":  # (a flick, with its private aim preview)
                    player += "?angle=-12&power=6&aim=1"
                await _shoot(chromium, player, GAME_SHOT, out / f"web_{key}_player.png")
        finally:
            await web.stop()
            await storage.close()


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/images")))
