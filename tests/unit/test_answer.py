"""One answer per click (``bot.answer``): the response made once — the answer itself when the
work is quick, a deferral in time otherwise, and every click deferred at once when many are being
answered together."""

from __future__ import annotations

import asyncio
from typing import Any

import bot.answer
from bot.answer import BOARD_ANSWER, BUSY, Answer


class Response:
    """The part of ``discord.InteractionResponse`` an answer uses, recording each call."""

    def __init__(self, calls: list[str]) -> None:
        self.calls = calls
        self._done = False

    def is_done(self) -> bool:
        return self._done

    async def defer(self) -> None:
        await asyncio.sleep(0)  # (a request: the loop turns while it is made)
        self.calls.append("defer")
        self._done = True

    async def edit_message(self, **kwargs: Any) -> None:
        await asyncio.sleep(0)
        self.calls.append("edit_message")
        self._done = True

    async def send_message(self, content: str, **kwargs: Any) -> None:
        await asyncio.sleep(0)
        self.calls.append(f"send_message {content}")
        self._done = True


class Interaction:
    def __init__(self) -> None:
        self.calls: list[str] = []
        self.response = Response(self.calls)

    async def edit_original_response(self, **kwargs: Any) -> None:
        self.calls.append("edit_original_response")


def test_a_quick_answer_is_the_one_response() -> None:
    async def run() -> list[str]:
        click = Interaction()
        async with Answer(click, within=5.0) as answer:  # type: ignore[arg-type]
            await answer.edit(content="✅ Bid 3")
        await asyncio.sleep(0.01)
        return click.calls

    assert asyncio.run(run()) == ["edit_message"]


def test_a_slow_answer_is_deferred_in_time_then_edited() -> None:
    async def run() -> list[str]:
        click = Interaction()
        async with Answer(click, within=0.01) as answer:  # type: ignore[arg-type]
            await asyncio.sleep(0.05)  # (the move takes longer than the answer may wait)
            await answer.edit(content="✅ Bid 3")
        return click.calls

    assert asyncio.run(run()) == ["defer", "edit_original_response"]


def test_a_click_made_on_the_board_lends_its_answer_to_the_board_while_it_is_worked_on() -> None:
    async def run() -> tuple[bool, bool, Any]:
        click = Interaction()
        async with Answer(click, board=(7, 70), within=5.0) as answer:  # type: ignore[arg-type]
            held = BOARD_ANSWER.get() is answer
            fits = answer.fits(7, 70) and not answer.fits(7, 71) and not answer.fits(8, 70)
        return held, fits, BOARD_ANSWER.get()

    assert asyncio.run(run()) == (True, True, None)


def test_many_clicks_at_once_are_all_deferred_at_once() -> None:
    async def run() -> list[list[str]]:
        clicks = [Interaction() for _ in range(BUSY + 1)]
        entered = asyncio.Event()
        started: list[Answer] = []

        async def work(click: Interaction) -> None:
            async with Answer(click, within=60.0) as answer:  # type: ignore[arg-type]
                started.append(answer)
                if len(started) == len(clicks):
                    entered.set()
                await entered.wait()
                await asyncio.sleep(0.01)  # (every deferral made by now, long before 60 s)
                await answer.edit(content="✅")

        await asyncio.wait_for(asyncio.gather(*(work(c) for c in clicks)), timeout=5)
        return [c.calls for c in clicks]

    assert asyncio.run(run()) == [["defer", "edit_original_response"]] * (BUSY + 1)
    assert not bot.answer._live  # (every answer left the set of those being worked on)
