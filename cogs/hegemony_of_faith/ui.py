"""Presentation of Hegemony of Faith for the platform: board and hand images, texts."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image

from bot.gameui import GameUI
from rules.engine import Event, seat_name
from rules.hegemony_of_faith.views import read_view

from . import render

NAMES = render.BELIEVER_NAMES


class HegemonyUI(GameUI):
    key = "hegemony_of_faith"
    cog_extension = "cogs.hegemony_of_faith.cog"

    def board_image(self, view: dict[str, Any], events: list[Event], *,
                    names: Sequence[str] | None = None) -> Image.Image:
        return render.board(read_view(view), names)

    def hand_image(self, view: dict[str, Any], *, names: Sequence[str] | None = None) -> Image.Image | None:
        return render.hand(read_view(view), names)

    def board_alt(self, view: dict[str, Any], *, names: Sequence[str] | None = None) -> str:
        return render.board_alt(read_view(view), names)

    def hand_alt(self, view: dict[str, Any], *, names: Sequence[str] | None = None) -> str:
        return render.hand_alt(read_view(view), names)

    def hand_text(self, view: dict[str, Any]) -> str:
        priv = read_view(view)["private"]
        lines = []
        sk = priv["skill"]
        if sk:
            state = "revealed" if sk["revealed"] else "hidden"
            lines.append(f"**Skill:** {sk['name']} ({sk['limit']}, {sk['uses_left']}, {state}) — {sk['text']}")
        elif priv.get("skill_options"):
            opts = " / ".join(o["name"] for o in priv["skill_options"])
            lines.append(f"**Choose a skill:** {opts}")
        acts = priv["actions"]
        lines.append("**Action cards:** " + (", ".join(a["name"] for a in acts) or "none"))
        bels = priv["believers"]
        if bels:
            parts = [f"{b['name']} ({b['id']}, beats {b['beats'][0]} & {b['beats'][1]})" for b in bels]
            lines.append(f"**Believers ({len(bels)}):** " + ", ".join(parts))
        else:
            lines.append("**Believers:** none")
        intel = priv.get("intel")
        if intel:
            seen = ", ".join(NAMES[t] for t in intel["believers"]) or "no believers"
            lines.append(f"**Info-Spy on {seat_name(intel['of'])}:** {', '.join(intel['actions']) or 'no actions'}; {seen}")
        return "\n".join(lines)

    def status_text(self, view: dict[str, Any]) -> str:
        v = read_view(view)
        if v["result"]:
            r = v["result"]
            return f"Game over — {seat_name(r['winner'])} wins: {r['reason']}."
        if v["phase"] == "setup":
            return "Everyone is choosing a secret skill."
        return (f"Round {v['round']} · {seat_name(v['current'])}'s turn · believer deck "
                f"{v['believer_deck']} · {render._pending_text(v)}")


UI = HegemonyUI()
