"""Screenshots of a game's web page for the README (``docs/images/web_page*.png``).

A Hegemony of Faith table of four members named in four scripts plays some turns (each member's
moves chosen by the computer player, seeded), its page is served on this machine, and headless
Chromium takes the page as a wide screen and as a phone show it:

    python scripts/web_screenshots.py docs/images

Needs Debian's ``chromium`` (``apt-get install chromium``)."""

from __future__ import annotations

import asyncio
import random
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.config import Config  # noqa: E402
from bot.session import Sessions, Ticket  # noqa: E402
from bot.storage import SqliteStorage  # noqa: E402
from bot.web import WebServer  # noqa: E402

NAMES = ["Алиса", "李雷", "محمد", "Zoë"]
MOVES = 40
SEED = 56
SHOTS = {"web_page.png": "1280,1400", "web_page_phone.png": "420,1300"}
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars"]


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
        table = await sessions.open_table(guild_id=1, channel_id=2, host_id=501, host_name=NAMES[0],
                                          game_key="hegemony_of_faith", seed=SEED)
        for i, name in enumerate(NAMES[1:], start=2):
            await sessions.join(table.id, 500 + i, name)
        await sessions.start(table.id, 501)
        rng = random.Random(SEED)
        for _ in range(MOVES):
            snap = await sessions.snapshot(table.id)
            if not snap.open:
                break
            mine = snap.open[0]
            action = sessions.engine(snap.game).bot_action(snap.view(mine.seat), mine.prompt, rng)
            await sessions.act(table.id, mine.seat, action, answers=Ticket(mine.opened))
        web = WebServer(sessions, storage, "", ("127.0.0.1", 0))
        await web.start()
        try:
            url = f"{web.url}/g/{(await web.ensure_link(table.id)).split('/g/')[1]}"
            for name, size in SHOTS.items():
                with tempfile.TemporaryDirectory() as profile:
                    proc = await asyncio.create_subprocess_exec(
                        chromium, *FLAGS, f"--user-data-dir={profile}", f"--window-size={size}",
                        f"--screenshot={out / name}", url,
                        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL)
                    await asyncio.wait_for(proc.wait(), 60)
                print(f"wrote {out / name}")
        finally:
            await web.stop()
            await storage.close()


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/images")))
