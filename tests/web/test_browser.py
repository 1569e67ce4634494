"""A real browser on a game's page: headless Chromium (Debian's package, driven by Selenium with
the packaged chromedriver) opens the page a board message links to, reads the names in their
scripts, sees moves made through Discord (simcord) arrive without a reload, and steps back
through the history with the keyboard and back to now.

``.ci/run`` installs the browser; without it these tests fail under CI and skip elsewhere."""

from __future__ import annotations

import asyncio
import dataclasses
import os
import shutil
import socket
import tempfile
import time
from collections.abc import AsyncIterator, Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
import simcord

from bot.app import HeraldBot
from tests.discord.conftest import make_config
from tests.discord.helpers import (
    choice_labels,
    find_by_prefix,
    first_choice,
)

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--window-size=1100,900")
NAMES = ("Алиса", "李雷")
"""The two members' names: Cyrillic and Chinese."""
LIVE_WITHIN = 1.0
"""A move made through Discord shows on the open page within this many seconds."""


def _no_browser() -> None:
    why = "headless Chromium and its driver are not installed (apt-get install chromium chromium-driver)"
    if os.environ.get("CI"):
        pytest.fail(why + "; .ci/run installs them")
    pytest.skip(why)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not (CHROMIUM and DRIVER):
        _no_browser()
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="herald-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (*FLAGS, f"--user-data-dir={profile}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(options=options, service=Service(executable_path=DRIVER))
    driver.set_page_load_timeout(20)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest_asyncio.fixture
async def simcord_bot(tmp_path: Path) -> AsyncIterator[HeraldBot]:
    """The bot with its web pages on: the simcord_env fixture runs it on a simulated Discord."""
    port = _free_port()
    config = dataclasses.replace(make_config(tmp_path / "herald.db"), web_url=f"http://127.0.0.1:{port}",
                                 web_bind=("127.0.0.1", port))
    bot = HeraldBot(config)
    bot.heartbeat_every = 6 * 3600
    # (started here, outside the bot's work that simcord settles: an open page is not bot work)
    await bot.open_storage()
    await bot.start_web()
    yield bot
    if bot.web is not None:
        await bot.web.stop()
    await bot.close_storage()


async def on_page(driver: Any, script: str, *args: Any) -> Any:
    """Run ``script`` in the page (off the event loop, which keeps serving the page meanwhile)."""
    return await asyncio.to_thread(driver.execute_script, script, *args)


async def until(check: Callable[[], Any], timeout: float, what: str) -> Any:
    began = time.perf_counter()
    while True:
        value = await check()
        if value:
            return value
        if time.perf_counter() - began > timeout:
            raise AssertionError(f"{what}: not within {timeout} s")
        await asyncio.sleep(0.05)


async def shown(driver: Any) -> dict[str, Any]:
    page: dict[str, Any] = await on_page(driver, """
        const m = document.getElementById('game');
        return {n: Number(m.dataset.n), last: Number(m.dataset.last), same: window.heraldSame === 1,
                board: document.getElementById('board').getAttribute('src'),
                where: document.querySelector('#panel .where').textContent,
                later: Array.from(document.querySelectorAll('#log li.move.later')).map(li => Number(li.dataset.n)),
                moves: document.querySelectorAll('#log li.move').length};""")
    return page


async def _table(env: simcord.Env, bot: HeraldBot) -> tuple[Any, list[Any], int]:
    """Hegemony of Faith: Алиса and 李雷 with two computer players, seeded, started."""
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    players = [guild.add_member(env.create_user(name)) for name in NAMES]
    await players[0].slash(channel, "play", game="hegemony_of_faith", deadline="1h")
    lobby = channel.last_message
    assert lobby is not None
    await players[1].click(lobby, label="Join")
    for _ in range(2):
        await players[0].click(lobby, label="Add computer player")
    game_id = (await bot.storage.list_games(guild_id=guild.id))[0].id
    await bot.storage.update_game(game_id, seed=56)
    await players[0].click(lobby, label="Start")
    return channel.threads[0], players, game_id


async def _move(thread: Any, players: list[Any]) -> None:
    """One decision through Discord: the first member with something to decide takes its first choice."""
    for player in players:
        panel = await player.click(find_by_prefix(thread.history(), "herald:hand:"), label="Decide")
        if not choice_labels(panel):
            continue
        _, choose = await first_choice(player, panel)
        await choose()
        return
    raise AssertionError("nobody had anything to decide")


async def test_a_browser_follows_a_game_live_and_steps_back_through_it(
        simcord_env: simcord.Env, simcord_bot: HeraldBot, browser: Any) -> None:
    env, bot = simcord_env, simcord_bot
    assert bot.web is not None and bot.web.runner is not None
    thread, players, game_id = await _table(env, bot)

    # the board message links to the page
    board = find_by_prefix(thread.history(), "herald:hand:")
    links = [(c.label, c.url) for row in board.components for c in getattr(row, "children", [row])
             if getattr(c, "url", None)]
    assert links == [("Open in browser", bot.web.link(game_id))]
    url = links[0][1]

    await asyncio.to_thread(browser.get, url)
    await until(lambda: on_page(browser, "return document.getElementById('board').complete && "
                                         "document.getElementById('board').naturalWidth > 0"), 10, "the board")
    names = await on_page(browser, "return Array.from(document.querySelectorAll('#panel bdi.name'))"
                                   ".map(b => b.textContent)")
    assert names[:2] == list(NAMES)
    await on_page(browser, "window.heraldSame = 1;")  # (gone if the page reloads)
    await until(lambda: on_page(browser, "return document.getElementById('live-state').textContent === 'live'"),
                5, "the live stream")
    before = (await shown(browser))["last"]

    for _ in range(4):  # moves made through Discord appear without a reload, each within a second
        last = (await shown(browser))["last"]
        await _move(thread, players)
        began = time.perf_counter()
        now = await until(partial(_newer, browser, last), 5, "the move on the page")
        took = time.perf_counter() - began
        assert took < LIVE_WITHIN, f"the move took {took:.2f} s to show"
        assert now["same"] and now["n"] == now["last"] and f"board/{now['last']}-" in now["board"]
    end = await shown(browser)
    assert end["last"] >= before + 4 and end["moves"] == end["last"] + 1

    # three steps back with the arrow key: board, panel and log as they were
    await on_page(browser, "document.activeElement.blur();")
    for _ in range(3):
        await on_page(browser, "document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowLeft'}));")
    target = end["last"] - 3
    back = await until(lambda: _at(browser, target), 5, "three moves back")
    assert back["where"].startswith(f"Move {target} of {end['last']}")
    assert back["later"] == [target + 1, target + 2, target + 3] and back["same"]
    # and back to now
    await on_page(browser, "document.getElementById('now').click();")
    again = await until(lambda: _at(browser, end["last"]), 5, "back to now")
    assert again["later"] == [] and again["same"]


async def _newer(browser: Any, last: int) -> dict[str, Any] | None:
    now = await shown(browser)
    return now if now["last"] > last and now["n"] == now["last"] and f"board/{now['last']}-" in now["board"] else None


async def _at(browser: Any, n: int) -> dict[str, Any] | None:
    now = await shown(browser)
    return now if now["n"] == n and f"board/{n}-" in now["board"] and now["where"] else None


async def test_a_player_decides_from_their_page_and_a_double_click_counts_once(
        simcord_env: simcord.Env, simcord_bot: HeraldBot, browser: Any) -> None:
    """The "Your page" link of a member's hand DM opens their page in the browser; a choice
    double-clicked there is applied once (the second click finds its decision answered)."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    from tests.web.test_player_discord import _deciding, _dm_links

    env, bot = simcord_env, simcord_bot
    thread, players, game_id = await _table(env, bot)
    member, seat = await _deciding(thread, bot, players, game_id)
    link = _dm_links(env, member)[-1]
    before = [a for a in await bot.storage.actions(game_id) if a[0] == seat]
    await asyncio.to_thread(browser.get, link)
    await until(lambda: on_page(browser, "return document.querySelectorAll('form.choices button').length"),
                10, "the decision on the page")
    mine = await on_page(browser, "return document.querySelector('header bdi.name').textContent")
    assert mine == NAMES[players.index(member)]

    def double_click() -> None:
        button = browser.find_element(By.CSS_SELECTOR, "form.choices button")
        ActionChains(browser).double_click(button).perform()

    await asyncio.to_thread(double_click)
    notice = await until(lambda: on_page(browser, "const n = document.querySelector('.notice');"
                                                  "return n && n.textContent"), 10, "the answer on the page")
    assert notice.startswith(("Done:", "You already answered that decision"))
    await env.settle()
    after = [a for a in await bot.storage.actions(game_id) if a[0] == seat]
    assert len(after) == len(before) + 1
    # the page shows the seat's decision as it now stands: the one answered is gone
    assert await on_page(browser, "return document.getElementById('decision').textContent") != ""


async def test_a_browser_reads_a_games_rules_page_and_goes_to_a_section_with_the_keyboard(
        client: Any, browser: Any) -> None:
    """The rules page in the browser (one page load): its stylesheet and its first-turn picture
    load under the page's policy, and Enter on the contents' first entry goes to its section
    without loading a page."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    await asyncio.to_thread(browser.get, str(client.make_url("/rules/petition/")))
    await until(lambda: on_page(browser, "const i = document.querySelector('.rules-text img');"
                                         "return i && i.complete && i.naturalWidth > 0"), 10, "the picture")
    assert await on_page(browser, "return getComputedStyle(document.querySelector('.toc'))"
                                  ".borderTopStyle") == "solid"  # (the site's stylesheet applies)
    await on_page(browser, "window.heraldSame = 1;")  # (gone if a page loads)
    entry = await asyncio.to_thread(browser.find_element, By.CSS_SELECTOR, ".toc a")
    target = str(await asyncio.to_thread(entry.get_attribute, "href")).rsplit("#", 1)[1]
    await asyncio.to_thread(entry.send_keys, Keys.ENTER)
    await until(lambda: on_page(browser, "return location.hash"), 5, "the section")
    assert await on_page(browser, "return [location.hash, window.heraldSame]") == [f"#{target}", 1]
    assert await on_page(browser, "return document.getElementById(arguments[0]).tagName", target) == "H2"
