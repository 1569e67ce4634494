"""``bot.turns.Turns``: a free place is taken at once, even while a waiter woken for its turn has
not run yet (the fair asyncio lock's queue that never drained), and nobody's turn is lost."""

from __future__ import annotations

import asyncio

import pytest

from bot.turns import Turns


def _taken_without_waiting(turns: Turns) -> bool:
    """Whether entering ``turns`` completes without giving the event loop a turn."""
    entering = turns.__aenter__()
    try:
        entering.send(None)
    except StopIteration:
        return True
    entering.close()
    return False


async def test_a_free_place_is_taken_at_once_while_a_woken_waiter_has_not_run() -> None:
    turns = Turns()
    order: list[str] = []
    await turns.__aenter__()  # (A holds it, then goes to a thread, say)

    async def waiter() -> None:
        async with turns:
            order.append("B")

    b = asyncio.create_task(waiter())
    await asyncio.sleep(0)  # B waits
    await turns.__aexit__()  # A lets go: B is woken, but has not run yet
    assert _taken_without_waiting(turns)  # C, inline, does not queue behind B ...
    order.append("C")
    await turns.__aexit__()
    await b  # ... and B still gets its turn
    assert order == ["C", "B"] and not turns.locked()



async def test_no_more_than_its_places_are_held_at_once() -> None:
    turns = Turns(2)
    held, most = 0, 0

    async def work() -> None:
        nonlocal held, most
        async with turns:
            held += 1
            most = max(most, held)
            await asyncio.sleep(0.01)
            held -= 1

    await asyncio.gather(*(work() for _ in range(7)))
    assert most == 2 and held == 0 and not turns.locked()


async def test_a_waiter_cancelled_after_it_was_woken_passes_the_turn_on() -> None:
    turns = Turns()
    await turns.__aenter__()
    got: list[str] = []

    async def waiter(name: str) -> None:
        async with turns:
            got.append(name)

    first = asyncio.create_task(waiter("first"))
    second = asyncio.create_task(waiter("second"))
    await asyncio.sleep(0)
    await turns.__aexit__()  # wakes "first" ...
    first.cancel()  # ... which is cancelled before it runs
    with pytest.raises(asyncio.CancelledError):
        await first
    await asyncio.wait_for(second, 1)
    assert got == ["second"] and not turns.locked()


def test_a_turns_needs_a_place() -> None:
    with pytest.raises(ValueError):
        Turns(0)


async def test_take_gets_a_free_place_without_a_coroutine_and_release_wakes_a_waiter() -> None:
    turns = Turns()
    assert turns.take() and turns.locked()
    assert not turns.take()  # (none free: the caller waits with ``acquire``)
    got: list[str] = []

    async def waiter() -> None:
        await turns.acquire()
        got.append("B")
        turns.release()

    b = asyncio.create_task(waiter())
    await asyncio.sleep(0)
    assert got == []
    turns.release()
    await b
    assert got == ["B"] and not turns.locked()
