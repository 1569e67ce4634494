"""Cult Wars presentation: the board and hand images and texts (no discord import)."""

from __future__ import annotations

from typing import Any

from bot.gameui import DrawnUI
from rules.cult_wars.views import RevealView, TurnRecordView, View, read_view
from rules.engine import seat_name
from rules.text import count

from . import render

JSON = dict[str, Any]


class CultWarsUI(DrawnUI):
    key = "cult_wars"
    cog_extension = "cogs.cult_wars.cog"

    drawings = render

    def hand_text(self, view: JSON) -> str:
        return _hand_text(read_view(view))

    def status_text(self, view: JSON) -> str:
        return _status_text(read_view(view))

    def sealed(self, view: JSON) -> JSON | None:
        """Both steps of a turn are secret and answered by every cult at once: the targets, then
        the orders. While one is open, the channel's board does not show which cults have
        answered; who has is on ``/game status`` and the web page. What a leader lays **face up**
        is still shown at once — the rulebook has them lay it so to tell the others their
        intentions while those still choose theirs — so orders with face-up parts redraw it."""
        v = read_view(view)
        if v["phase"] not in ("targets", "orders") or "private" in v:
            return None
        cults = [{**c, "submitted": False} for c in v["cults"]]
        return {**view, "cults": cults, "submitted": [], "waiting_for": [], "sealed": True}


def _hand_text(view: View) -> str:
    priv = view["private"]
    me = view["cults"][priv["seat"]]
    lines = [f"**{seat_name(priv['seat'])}** — {count(me['followers'], 'follower')}, {me['vp']} VP."]
    if priv["hand"]:
        lines.append("Action cards:")
        for h in priv["hand"]:
            aim = "aim at a rival" if h["target"] == "opponent" else "your own cult"
            lines.append(f"• **{h['name']}** ({aim}): {h['text']}")
    else:
        lines.append("No action cards in hand.")
    lines.append("Strategy cards: " + ", ".join(map(str, view["strategy_cards"])) + ".")
    chosen = priv["target_choice"]
    if chosen is not None:
        lines.append(f"Your insignia for turn {view['turn']}: target {seat_name(chosen)} "
                     "(revealed when every cult has chosen).")
    elif view["phase"] == "targets":
        lines.append(f"No target chosen yet for turn {view['turn']}.")
    elif me["target"] is not None:
        lines.append(f"Your target this turn: {seat_name(me['target'])}.")
    if priv["orders_text"]:
        lines.append(f"Your orders for turn {view['turn']}: {priv['orders_text']}")
    elif view["phase"] == "orders":
        lines.append(f"No orders sent yet for turn {view['turn']}.")
    return "\n".join(lines)


def _status_text(view: View) -> str:
    if view["phase"] == "over":
        r = view.get("result")
        won = r["winners"] if r else []
        winners = ", ".join(seat_name(k) for k in won)
        verb = "wins" if len(won) == 1 else "share the win"
        return f"Game over — {winners} {verb} ({r['reason'] if r else ''})."
    standing = " · ".join(f"{seat_name(c['seat'])} {c['vp']} VP, {count(c['followers'], 'follower')}"
                           for c in view["cults"])
    waiting = ", ".join(seat_name(k) for k in view["waiting_for"]) or "nobody"
    done = ", ".join(seat_name(k) for k in view["submitted"]) or "nobody yet"
    head = f"Turn {view['turn']} of {view['turns']}"
    if view.get("sealed"):
        step = ("insignia step — every cult chooses its target in secret" if view["phase"] == "targets"
                else "every cult writes its orders in secret")
        text = (f"{head}, {step}; all are revealed together (`/game status` shows whom the table "
                f"still waits for).\n{standing}")
    elif view["phase"] == "targets":
        text = f"{head}, insignia step — targets chosen: {done}; waiting for {waiting}.\n{standing}"
    elif view["phase"] == "split":
        text = (f"{head}: orders revealed; waiting for {waiting} to share out attackers' losses.\n"
                f"{standing}")
    else:
        text = f"{head} — orders in: {done}; waiting for {waiting}.\n{standing}"
    aims = [f"{seat_name(c['seat'])} → {seat_name(c['target'])}" for c in view["cults"] if c["target"] is not None]
    if view["phase"] == "orders" and aims:
        text += "\nInsignia: " + ", ".join(aims)
    account = reveal_account(view["reveal"] or view["last_turn"], paused=view["reveal"] is not None)
    return f"{text}\n\n{account}" if account else text


def reveal_account(last: RevealView | TurnRecordView | None, *, paused: bool = False) -> str:
    """A reveal step by step (public): every cult's orders, then each resolution step — the last
    turn's, or (``paused``) this turn's so far, while defenders share out losses."""
    if not last:
        return ""
    lines = [f"**Turn {last['turn']} revealed**" + (" (resolution paused in combat)" if paused else "")]
    for c in last["cults"]:
        slots = ", ".join(f"{name} {sum(c['slots'][s])}" for s, name in
                          (("attack", "Attack"), ("defend", "Defend"), ("sacrifice", "Sacrifice"),
                           ("breed", "Breed")))
        plays = ", ".join(pl["name"] + (f" → {seat_name(pl['target'])}" if pl["target"] is not None else "")
                          + (" (cancelled)" if pl["cancelled"] else "") for pl in c["plays"])
        lines.append(f"{seat_name(c['seat'])} → {seat_name(c['target'])}: {slots}, idle {c['idle']}"
                     + (f"; {plays}" if plays else ""))
    lines += [f"• {ln}" for ln in last["lines"]]
    text = "\n".join(lines)
    return text if len(text) <= 3000 else text[:2999] + "…"


UI = CultWarsUI()
