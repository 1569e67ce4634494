"""The assembled platform handed to game cogs: every part, typed, in one place (built by ``bot.app``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from .config import Config
from .controller import Controller
from .delivery import DiscordDelivery
from .forms import Forms
from .scheduler import Scheduler
from .session import Sessions
from .storage import Storage


@dataclass(frozen=True)
class Platform:
    config: Config
    storage: Storage
    sessions: Sessions
    delivery: DiscordDelivery
    forms: Forms
    controller: Controller
    scheduler: Scheduler


def platform_of(client: Any) -> Platform:
    """The platform of the bot a cog is loaded into (``HeraldBot.platform``)."""
    return cast(Platform, client.platform)
