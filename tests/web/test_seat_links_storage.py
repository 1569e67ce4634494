"""What the web's player pages keep (schema 13) on both backends: one signing secret for every
process, each seat's link generation (renewing revokes), a server's switch for its pages, and
updates announced to the other processes over PostgreSQL."""

from __future__ import annotations

import asyncio

from bot.storage import Storage, open_storage
from tests.support.storage import opened


async def _game(store: Storage) -> int:
    return await store.create_game(guild_id=1, channel_id=2, game_key="petition", seed=3,
                                    options={}, host_id=100, deadline=None, now=1.0)


async def test_every_process_signs_with_the_first_secret_stored(store: Storage) -> None:
    got = await asyncio.gather(*(store.web_secret(f"secret-{i:040d}") for i in range(4)))
    assert len(set(got)) == 1 and got[0].startswith("secret-")
    assert await store.web_secret("another") == got[0]


async def test_renewing_a_seats_link_moves_its_generation_alone(store: Storage) -> None:
    one, two = await _game(store), await _game(store)
    assert await store.seat_link_generation(one, 0) == 0
    assert await store.renew_seat_link(one, 0) == 1
    assert await store.renew_seat_link(one, 0) == 2
    assert await store.seat_link_generation(one, 0) == 2
    assert await store.seat_link_generation(one, 1) == 0
    assert await store.seat_link_generation(two, 0) == 0


async def test_renewals_at_once_each_count(store: Storage) -> None:
    game = await _game(store)
    got = await asyncio.gather(*(store.renew_seat_link(game, 1) for _ in range(5)))
    assert sorted(got) == [1, 2, 3, 4, 5]


async def test_a_server_turns_its_web_pages_off_and_on(store: Storage) -> None:
    s = await store.guild_settings(77)
    assert s.web_pages is True
    s.web_pages = False
    await store.save_guild_settings(s)
    assert (await store.guild_settings(77)).web_pages is False
    s.web_pages = True
    await store.save_guild_settings(s)
    assert (await store.guild_settings(77)).web_pages is True


async def test_an_update_announced_by_one_process_is_heard_by_another(location: str) -> None:
    if not location.startswith("postgres"):
        async with opened(open_storage(location)) as only:
            assert only.listen_updates(lambda g, v: None) is False
            await only.announce_update(1, 2)  # (nobody to tell: nothing happens)
        return
    heard: list[tuple[int, int]] = []
    got = asyncio.Event()

    def on_update(game: int, version: int) -> None:
        heard.append((game, version))
        got.set()

    async with opened(open_storage(location)) as first, opened(open_storage(location)) as second:
        assert second.listen_updates(on_update) is True
        await second.listen(lambda: None)
        mine: list[tuple[int, int]] = []
        first.listen_updates(lambda g, v: mine.append((g, v)))
        await first.listen(lambda: None)
        await first.announce_update(41, 7)
        await asyncio.wait_for(got.wait(), timeout=10)
        await asyncio.sleep(0.2)
    assert heard == [(41, 7)]
    assert mine == []  # (a process does not hear its own announcement)
