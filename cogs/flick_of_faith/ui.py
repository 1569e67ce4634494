"""Flick of Faith's GameUI: board image, status, private text, flick GIF, aim preview."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image

from bot.gameui import GameUI
from rules.engine import Event, seat_name
from rules.flick_of_faith import gods
from rules.flick_of_faith.views import View, read_view

from .animate import flick_gif, flicks_alt
from .render import PHASES, aim_image, board_alt, board_image

JSON = dict[str, Any]


class FlickUI(GameUI):
    key = "flick_of_faith"
    cog_extension = "cogs.flick_of_faith.cog"

    def board_image(self, view: JSON, events: list[Event], *,
                    names: Sequence[str] | None = None) -> Image.Image:
        return board_image(read_view(view), names)

    def board_alt(self, view: JSON, *, names: Sequence[str] | None = None) -> str:
        return board_alt(read_view(view), names)

    def status_text(self, view: JSON) -> str:
        return status_text(read_view(view))

    def hand_text(self, view: JSON) -> str:
        return hand_text(read_view(view))

    def event_files(self, view: JSON, event: Event, *,
                    names: Sequence[str] | None = None) -> list[tuple[str, bytes, str]]:
        """Each flick's own animation, posted with that flick's line (the board message keeps
        the still board)."""
        if event.to is not None or event.kind != "flick" or not event.data.get("bodies"):
            return []
        return [("flick.gif", flick_gif(event.data, view["players"]), flicks_alt([event.data], read_view(view), names))]

    def aim_image(self, view: JSON, seat: int, angle: float, power: float, *, piece: str | None = None,
                  hand: str | None = None, names: Sequence[str] | None = None) -> Image.Image:
        """Private /aim preview for ``seat`` (pass that seat's own view)."""
        return aim_image(read_view(view), seat, angle, power, piece=piece, hand=hand, names=names)


def status_text(view: View) -> str:
    """The game in two lines: the Generation and phase (whose turn, to do what), the scores."""
    gen = f"Generation {view['generation']}/{view['generations']}" if view["generation"] else "Setup"
    line = f"{gen} · {PHASES.get(view['phase'], view['phase'])}"
    active = view.get("active")
    if view["phase"] == "mission" and active is not None:
        god = gods.name(view["gods"][active])
        line += f" — {seat_name(active)} ({god}) " + {"flick": "to flick: /flick angle power",
                                                   "build": "to build", "anubis": "decides",
                                                   "reuse": "to move a temple"}.get(view["stage"], "")
    scores = " · ".join(f"{seat_name(k)} {v} VP" for k, v in enumerate(view["vp"]))
    return f"{line}\n{scores}"


def hand_text(view: View) -> str:
    """A seat's own text: its god (or the card to choose from), its hand, its secret answers."""
    p = view["private"]
    k = p["seat"]
    parts = []
    god = view["gods"][k] or p.get("god_pick")
    if god:
        g = gods.BY_KEY[god]
        parts.append(f"You are {g.name} — {g.power}: {g.text}")
    else:
        a, b = gods.sides(view["dealt"][k])
        parts.append(f"Your card is {view['dealt'][k]}: choose {a.name} or {b.name}.")
    hand = ", ".join(f"{n} {kd}" for kd, n in view["supply"][k].items() if n) or "no prophets"
    parts.append(f"In hand: {hand}; temples in supply: {view['temples'][k]}.")
    if p.get("vote"):
        parts.append(f"Your secret vote: thumbs {p['vote']}.")
    f = p.get("contest_flick")
    if f:
        parts.append(f"Your secret flick: angle {f['angle']:g}, power {f['power']:g}.")
    parts.append("Aim: angle 0 = straight at the navel, + = clockwise on the board, power 1–10."
                 + ("" if view.get("aim_preview", True) else " Eyes Closed: no preview."))
    return "\n".join(parts)


UI = FlickUI()
