"""The running bot writes the heartbeat ``python -m bot health`` reads: only while its gateway
connection is alive, every ``HEARTBEAT_EVERY`` seconds, and a clean stop removes it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import simcord

from bot.app import HeraldBot
from bot.health import HEARTBEAT_EVERY, check, heartbeat_path

pytestmark = pytest.mark.heartbeat


async def test_the_bot_beats_while_connected_and_stops_when_the_gateway_is_lost(
        simcord_env: simcord.Env, simcord_bot: HeraldBot, db_path: Path) -> None:
    beat = heartbeat_path(db_path)
    await simcord_env.advance_time(1)
    assert beat.exists(), "no heartbeat once the bot is ready"
    assert check(str(db_path)).ok
    first = json.loads(beat.read_text())
    assert first["latency_ms"] == 0  # simcord's gateway answers at once

    beat.unlink()
    await simcord_env.advance_time(HEARTBEAT_EVERY + 1)
    assert beat.exists(), "the heartbeat is not written again"

    beat.unlink()
    # the gateway socket closed (a reconnect would open another); simcord's socket has a plain
    # "open" attribute where discord.py's declares a read-only property
    simcord_bot.ws.open = False  # type: ignore[misc]
    await simcord_env.advance_time(3 * HEARTBEAT_EVERY)
    assert not beat.exists(), "a bot without a gateway connection still reports itself alive"
    simcord_bot.ws.open = True  # type: ignore[misc]  # (simcord's socket, as above)
    await simcord_env.advance_time(HEARTBEAT_EVERY + 1)
    assert beat.exists()

    await simcord_bot.close()
    assert not beat.exists(), "a cleanly stopped bot leaves its heartbeat behind"
