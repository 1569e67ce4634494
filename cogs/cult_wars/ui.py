"""Cult Wars presentation: the board and hand images and texts (no discord import)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image

from bot.gameui import GameUI
from rules.engine import Event, seat_name
from rules.text import count

from . import render

JSON = dict[str, Any]


def _pn(seat: int) -> str:
    return seat_name(seat)


class CultWarsUI(GameUI):
    key = "cult_wars"
    cog_extension = "cogs.cult_wars.cog"

    def board_image(self, view: JSON, events: list[Event], *,
                    names: Sequence[str] | None = None) -> Image.Image:
        return render.board_image(view, names)

    def hand_image(self, view: JSON, *, names: Sequence[str] | None = None) -> Image.Image | None:
        return render.hand_image(view, names)

    def board_alt(self, view: JSON, *, names: Sequence[str] | None = None) -> str:
        return render.board_alt(view, names)

    def hand_alt(self, view: JSON, *, names: Sequence[str] | None = None) -> str:
        return render.hand_alt(view, names)

    def hand_text(self, view: JSON) -> str:
        priv = view["private"]
        me = view["cults"][priv["seat"]]
        lines = [f"**{_pn(priv['seat'])}** — {count(me['followers'], 'follower')}, {me['vp']} VP."]
        if priv["hand"]:
            lines.append("Action cards:")
            for h in priv["hand"]:
                aim = "aim at a rival" if h["target"] == "opponent" else "your own cult"
                lines.append(f"• **{h['name']}** (`{h['id']}`, {aim}): {h['text']}")
        else:
            lines.append("No action cards in hand.")
        lines.append("Strategy cards: " + ", ".join(map(str, view["strategy_cards"])) + ".")
        if priv.get("target_choice") is not None:
            lines.append(f"Your insignia for turn {view['turn']}: target {_pn(priv['target_choice'])} "
                         "(revealed when every cult has chosen).")
        elif view["phase"] == "targets":
            lines.append(f"No target chosen yet for turn {view['turn']}.")
        elif me.get("target") is not None:
            lines.append(f"Your target this turn: {_pn(me['target'])}.")
        if priv.get("orders_text"):
            lines.append(f"Your orders for turn {view['turn']}: {priv['orders_text']}")
        elif view["phase"] == "orders":
            lines.append(f"No orders sent yet for turn {view['turn']}.")
        return "\n".join(lines)

    def status_text(self, view: JSON) -> str:
        if view["phase"] == "over":
            r = view.get("result") or {}
            winners = ", ".join(_pn(k) for k in r.get("winners", []))
            return f"Game over — {winners} win{'s' if len(r.get('winners', [])) == 1 else ''} ({r.get('reason', '')})."
        standing = " · ".join(f"{_pn(c['seat'])} {c['vp']} VP/{c['followers']}f" for c in view["cults"])
        waiting = ", ".join(_pn(k) for k in view["waiting_for"]) or "nobody"
        done = ", ".join(_pn(k) for k in view["submitted"]) or "nobody yet"
        head = f"Turn {view['turn']} of {view['turns']}"
        if view["phase"] == "targets":
            text = f"{head}, insignia step — targets chosen: {done}; waiting for {waiting}.\n{standing}"
        elif view["phase"] == "split":
            text = (f"{head}: orders revealed; waiting for {waiting} to share out attackers' losses.\n"
                    f"{standing}")
        else:
            text = f"{head} — orders in: {done}; waiting for {waiting}.\n{standing}"
            aims = [f"{_pn(c['seat'])} → {_pn(c['target'])}" for c in view["cults"] if c.get("target") is not None]
            if aims:
                text += "\nInsignia: " + ", ".join(aims)
        account = reveal_account(view.get("reveal") or view.get("last_turn"),
                                 paused=view.get("reveal") is not None)
        return f"{text}\n\n{account}" if account else text


def reveal_account(last: JSON | None, *, paused: bool = False) -> str:
    """A reveal step by step (public): every cult's orders, then each resolution step — the last
    turn's, or (``paused``) this turn's so far, while defenders share out losses."""
    if not last:
        return ""
    lines = [f"**Turn {last['turn']} revealed**" + (" (resolution paused in combat)" if paused else "")]
    for c in last["cults"]:
        slots = ", ".join(f"{name} {sum(c['slots'][s])}" for s, name in
                          (("attack", "Attack"), ("defend", "Defend"), ("sacrifice", "Sacrifice"),
                           ("breed", "Breed")))
        plays = ", ".join(pl["name"] + (f" → {_pn(pl['target'])}" if pl["target"] is not None else "")
                          + (" (cancelled)" if pl.get("cancelled") else "") for pl in c["plays"])
        lines.append(f"{_pn(c['seat'])} → {_pn(c['target'])}: {slots}, idle {c['idle']}"
                     + (f"; {plays}" if plays else ""))
    lines += [f"• {ln}" for ln in last.get("lines", [])]
    text = "\n".join(lines)
    return text if len(text) <= 3000 else text[:2999] + "…"


UI = CultWarsUI()
