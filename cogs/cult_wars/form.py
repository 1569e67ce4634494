"""The Cult Wars order form: the draft, its text, and the components that edit it.

A draft is everything a cult's orders hold (target, strategy cards per slot, action cards with
their targets, face-up items, loss order). It lives in the form message itself — the embed's
footer carries it as a short code — so a form survives a restart of the bot and nothing is kept
in memory between clicks. The form is only ever shown to its player (by DM or ephemerally), so
the draft never reaches a channel; custom_ids carry only the game id, the decision the form answers
(the seat's prompt instance: a form for orders already sent, or for an earlier turn, is refused)
and a kind.

Two pages share one message (Discord allows five component rows): "Target & cards" (target,
action cards, face up, loss order) and "Followers" (one multi-select per slot), plus a page of
ready-made orders. Legality is the engine's business: the form only builds the action.

At a ``two_step`` table (the default) the target was chosen and revealed in the turn's insignia
step (:func:`target_items`: one button per rival, so the choice is one click), so the order form
shows it and who targets the player, and has no target or loss-order menu: a defence that holds
shares out the attackers' losses after the reveal.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import permutations
from typing import Any

import discord

from rules.cult_wars.views import View
from rules.engine import seat_name
from rules.text import count

SLOTS = ("attack", "defend", "sacrifice", "breed")
SLOT_NAMES = {"attack": "Attack", "defend": "Defend", "sacrifice": "Sacrifice", "breed": "Breed"}
SLOT_EMOJI = {"attack": "⚔️", "defend": "🛡️", "sacrifice": "🔥", "breed": "🌱"}
# One token per strategy card: the two 1s need distinct option values.
TOKENS = ("1a", "1b", "2", "3", "5", "8")
CODE_PREFIX = "draft "

JSON = dict[str, Any]


def token_value(tok: str) -> int:
    return int(tok.rstrip("ab"))


def pn(seat: int) -> str:
    return seat_name(seat)


@dataclass
class Draft:
    """Orders being written. ``plays`` maps card id → target seat (None: own cult)."""

    target: int | None = None
    slots: dict[str, list[str]] = field(default_factory=lambda: {s: [] for s in SLOTS})
    plays: dict[str, int | None] = field(default_factory=dict)
    face_up: list[str] = field(default_factory=list)
    loss: str | list[int] = "proportional"

    # ------------------------------------------------------------ code ↔ draft
    def code(self) -> str:
        parts = [f"T={'' if self.target is None else self.target}"]
        parts += [f"{s[0].upper()}={'.'.join(self.slots[s])}" for s in SLOTS]
        parts.append("C=" + ".".join(c if t is None else f"{c}>{t}" for c, t in self.plays.items()))
        parts.append("F=" + ".".join(self.face_up))
        parts.append("L=" + ("p" if isinstance(self.loss, str) else ".".join(map(str, self.loss))))
        return CODE_PREFIX + ";".join(parts)

    @classmethod
    def from_code(cls, text: str) -> Draft | None:
        if not text.startswith(CODE_PREFIX):
            return None
        d = cls()
        try:
            fields: dict[str, str] = {}
            for part in text[len(CODE_PREFIX):].split(";"):
                key, _, val = part.partition("=")
                fields[key] = val
            d.target = int(fields["T"]) if fields.get("T") else None
            for s in SLOTS:
                d.slots[s] = [t for t in fields.get(s[0].upper(), "").split(".") if t in TOKENS]
            for item in filter(None, fields.get("C", "").split(".")):
                cid, _, tgt = item.partition(">")
                d.plays[cid] = int(tgt) if tgt else None
            d.face_up = [x for x in fields.get("F", "").split(".") if x]
            lo = fields.get("L", "p")
            d.loss = "proportional" if lo in ("p", "") else [int(x) for x in lo.split(".")]
        except (KeyError, ValueError):
            return None
        return d

    @classmethod
    def from_message(cls, message: discord.Message | None) -> Draft | None:
        if message is None:
            return None
        for embed in message.embeds:
            text = embed.footer.text if embed.footer else None
            if text:
                d = cls.from_code(text)
                if d is not None:
                    return d
        return None

    # ------------------------------------------------------------ orders ↔ draft
    @classmethod
    def from_orders(cls, orders: Mapping[str, Any]) -> Draft:
        """A draft holding orders already sent (the seat's private ``orders``) or a preset action."""
        d = cls(target=orders.get("target"))
        free = list(TOKENS)
        for s in SLOTS:
            for v in orders.get("slots", {}).get(s, []):
                tok = next((t for t in free if token_value(t) == v), None)
                if tok is not None:
                    free.remove(tok)
                    d.slots[s].append(tok)
        for pl in orders.get("plays") or orders.get("actions") or []:
            d.plays[pl["card"]] = pl["target"]
        d.face_up = list(orders.get("face_up", []))
        lo = orders.get("loss_order", "proportional")
        d.loss = lo if isinstance(lo, str) else list(lo)
        return d

    def action(self, *, replace: bool, two_step: bool = False) -> JSON:
        """The orders action. ``two_step``: the target was revealed in the insignia step (the
        draft repeats it), nothing else is laid face up about it, and there is no loss order."""
        a: JSON = {
            "type": "orders", "target": self.target,
            "slots": {s: sorted((token_value(t) for t in self.slots[s]), reverse=True) for s in SLOTS},
            "actions": [{"card": c, "target": t} for c, t in self.plays.items()],
            "face_up": [x for x in self.face_up if not (two_step and x == "target")],
        }
        if not two_step:
            a["loss_order"] = self.loss if isinstance(self.loss, str) else list(self.loss)
        if replace:
            a["replace"] = True
        return a

    def lay(self, slot: str, tokens: list[str]) -> list[str]:
        """Put exactly ``tokens`` on ``slot``; a card taken from another slot moves. Returns notes."""
        notes = []
        for other in SLOTS:
            if other == slot:
                continue
            moved = [t for t in self.slots[other] if t in tokens]
            if moved:
                self.slots[other] = [t for t in self.slots[other] if t not in tokens]
                notes.append(f"moved {'+'.join(str(token_value(t)) for t in moved)} from "
                             f"{SLOT_NAMES[other]} to {SLOT_NAMES[slot]}")
        self.slots[slot] = [t for t in TOKENS if t in tokens]
        return notes

    def total(self) -> int:
        return sum(token_value(t) for s in SLOTS for t in self.slots[s])


# ------------------------------------------------------------------------ texts

def slot_line(d: Draft, slot: str) -> str:
    vals = [token_value(t) for t in d.slots[slot]]
    cards = "+".join(map(str, sorted(vals, reverse=True)))
    return f"{SLOT_EMOJI[slot]} **{SLOT_NAMES[slot]} {sum(vals)}**" + (f" ({cards})" if len(vals) > 1 else "")


def names(view: View, seat_names: dict[int, str]) -> dict[int, str]:
    return {c["seat"]: seat_names.get(c["seat"], pn(c["seat"])) for c in view["cults"]}


def loss_text(loss: str | list[int], who: dict[int, str]) -> str:
    if isinstance(loss, str):
        return "in proportion to their numbers (default)"
    return "first " + ", then ".join(who.get(k, pn(k)) for k in loss)


def two_step(view: View) -> bool:
    """True at a table playing the rulebook's insignia step (the target is revealed already)."""
    return view["insignia"] == "two_step"


def targeted_by(view: View, seat: int) -> list[int]:
    return [c["seat"] for c in view["cults"] if c["target"] == seat and c["seat"] != seat]


def summary_embed(d: Draft, view: View, who: dict[int, str], *, notes: list[str] | None = None,
                  title: str | None = None) -> discord.Embed:
    priv = view["private"]
    me = priv["seat"]
    followers = view["cults"][me]["followers"]
    hand = {h["id"]: h for h in priv["hand"]}
    total = d.total()
    aim = who.get(d.target, pn(d.target)) if d.target is not None else "— choose one —"
    if two_step(view):
        by = targeted_by(view, me)
        lines = [f"🎯 Target: **{aim}** (revealed)",
                 "🗡️ Targeting you: " + (", ".join(who.get(k, pn(k)) for k in by) if by
                                         else "nobody (no attack can reach you this turn)")]
    else:
        lines = [f"🎯 Target: **{aim}**"]
    lines += [slot_line(d, s) for s in SLOTS]
    idle = followers - total
    lines.append(f"💤 Idle {max(0, idle)}  ·  assigned **{total}** of {count(followers, 'follower')}")
    if total > followers:
        lines.append(f"⚠️ That is {total - followers} more than your cult has: take cards off a slot.")
    cards = []
    for cid, tgt in d.plays.items():
        name = hand[cid]["name"] if cid in hand else cid
        cards.append(name + (f" → {who.get(tgt, pn(tgt))}" if tgt is not None else ""))
    lines.append("🃏 Action cards: " + (", ".join(cards) if cards else "none"))
    fu = [("target" if x == "target" else SLOT_NAMES.get(x) or (hand[x]["name"] if x in hand else x))
          for x in d.face_up]
    lines.append("👁️ Face up: " + (", ".join(fu) if fu else "nothing (all secret)"))
    if two_step(view):
        lines.append("🩸 If your defence holds against several attackers, you share out their "
                     "losses after the reveal.")
    else:
        lines.append("🩸 If your defence wins, attackers' losses: " + loss_text(d.loss, who))
    if notes:
        lines.append("\n" + "\n".join(f"↪ {n}" for n in notes))
    embed = discord.Embed(title=title or f"Your orders for turn {view['turn']} (draft)", colour=0x9B59B6,
                          description="\n".join(lines)[:4000])
    embed.set_footer(text=d.code())
    return embed


# ------------------------------------------------------------------ components

def cid(game_id: int, opened: int, kind: str, *, button: bool = False) -> str:
    return f"herald:{'cwb' if button else 'cw'}:{game_id}:{opened}:{kind}"


def select(game_id: int, opened: int, kind: str, options: list[discord.SelectOption], *,
           placeholder: str, min_values: int = 1, max_values: int = 1, row: int) -> discord.ui.Select[Any]:
    return discord.ui.Select(custom_id=cid(game_id, opened, kind), options=options[:25],
                             placeholder=placeholder[:150], min_values=min_values,
                             max_values=min(max_values, len(options[:25])), row=row)


def button(game_id: int, opened: int, kind: str, label: str, style: discord.ButtonStyle,
           row: int) -> discord.ui.Button[Any]:
    return discord.ui.Button(custom_id=cid(game_id, opened, kind, button=True), label=label,
                             style=style, row=row)


def main_items(game_id: int, opened: int, d: Draft, view: View,
               who: dict[int, str]) -> list[discord.ui.Item[Any]]:
    """Page "Target & cards": target, action cards, face up, loss order, buttons (at a
    ``two_step`` table: action cards and face up only; the target is revealed already)."""
    me = view["private"]["seat"]
    others = [c["seat"] for c in view["cults"] if c["seat"] != me]
    fixed = two_step(view)
    items: list[discord.ui.Item[Any]] = []
    if not fixed:
        items.append(select(game_id, opened, "tgt", [
            discord.SelectOption(label=f"Target {who[k]}"[:100], value=str(k), default=d.target == k,
                                 description=f"{count(view['cults'][k]['followers'], 'follower')}, {view['cults'][k]['vp']} VP")
            for k in others], placeholder="🎯 Choose the target cult", row=0))
    hand = view["private"]["hand"]
    if hand:
        opts: list[discord.SelectOption] = []
        per_target = sum(1 if h["target"] == "self" else len(others) for h in hand) <= 25
        for h in hand:
            if h["target"] == "self":
                opts.append(discord.SelectOption(label=f"Play {h['name']}"[:100], value=h["id"],
                                                 default=h["id"] in d.plays,
                                                 description=h["text"][:100]))
                continue
            aims = others if per_target else [d.target if d.target is not None else others[0]]
            for k in aims:
                opts.append(discord.SelectOption(
                    label=f"Play {h['name']} → {who[k]}"[:100], value=f"{h['id']}>{k}",
                    default=d.plays.get(h["id"], -1) == k, description=h["text"][:100]))
        items.append(select(game_id, opened, "cards", opts[:25], min_values=0, max_values=len(hand),
                            placeholder="🃏 Action cards to play (none)", row=1))
    fu_opts = [] if fixed else [discord.SelectOption(label="Target", value="target",
                                                     default="target" in d.face_up)]
    fu_opts += [discord.SelectOption(label=f"{SLOT_NAMES[s]} slot", value=s, default=s in d.face_up) for s in SLOTS]
    by_id = {h["id"]: h for h in hand}
    fu_opts += [discord.SelectOption(label=by_id[c]["name"][:100] if c in by_id else c, value=c,
                                     default=c in d.face_up) for c in d.plays]
    items.append(select(game_id, opened, "fu", fu_opts, min_values=0, max_values=len(fu_opts),
                        placeholder="👁️ Lay face up (shown to all now): nothing", row=2))
    if fixed:
        items += nav(game_id, opened, "main", replace=view["private"]["orders"] is not None)
        return items
    lo_opts = [discord.SelectOption(label="Attackers' losses in proportion (default)", value="p",
                                    default=isinstance(d.loss, str))]
    for perm in permutations(others):
        lo_opts.append(discord.SelectOption(
            label=("Losses first to " + ", then ".join(who[k] for k in perm))[:100],
            value=".".join(map(str, perm)), default=d.loss == list(perm)))
    items.append(select(game_id, opened, "lo", lo_opts,
                        placeholder="🩸 If your defence wins: who loses first", row=3))
    items += nav(game_id, opened, "main", replace=view["private"]["orders"] is not None)
    return items


def slot_items(game_id: int, opened: int, d: Draft, view: View) -> list[discord.ui.Item[Any]]:
    """Page "Followers": one multi-select of strategy cards per slot."""
    items: list[discord.ui.Item[Any]] = []
    for row, s in enumerate(SLOTS):
        opts = []
        for t in TOKENS:
            where = next((o for o in SLOTS if t in d.slots[o]), None)
            desc = "free" if where is None else ("here" if where == s else f"now on {SLOT_NAMES[where]}: moves here")
            opts.append(discord.SelectOption(label=f"Card {token_value(t)}", value=t, default=where == s,
                                             description=desc))
        items.append(select(game_id, opened, f"sl_{s}", opts, min_values=0, max_values=len(TOKENS),
                            placeholder=f"{SLOT_EMOJI[s]} {SLOT_NAMES[s]}: no cards", row=row))
    items += nav(game_id, opened, "slots", replace=view["private"]["orders"] is not None)
    return items


def quick_items(game_id: int, opened: int, presets: list[tuple[str, str, JSON]]) -> list[discord.ui.Item[Any]]:
    opts = [discord.SelectOption(label=label[:100], value=str(i), description=desc[:100] or None)
            for i, (label, desc, _a) in enumerate(presets[:25])]
    items: list[discord.ui.Item[Any]] = [select(game_id, opened, "quick", opts,
                                                placeholder="⚡ Ready-made orders (you confirm after)", row=0)]
    items.append(button(game_id, opened, "main", "◀ Back to the form", discord.ButtonStyle.secondary, 1))
    return items


def nav(game_id: int, opened: int, page: str, *, replace: bool = False) -> list[discord.ui.Item[Any]]:
    """Page buttons and Confirm. A form drawn after the orders went in confirms a *replacement*
    (kind ``okr``), one drawn before confirms the first orders (``ok``): a retried or doubled first
    Confirm can then never turn into a replacement."""
    out: list[discord.ui.Item[Any]] = []
    if page == "main":
        out.append(button(game_id, opened, "slots", "Followers on slots ▶", discord.ButtonStyle.primary, 4))
    else:
        out.append(button(game_id, opened, "main", "◀ Target & cards", discord.ButtonStyle.primary, 4))
    out.append(button(game_id, opened, "quick", "⚡ Ready-made", discord.ButtonStyle.secondary, 4))
    out.append(button(game_id, opened, "okr" if replace else "ok", "✅ Confirm orders",
                      discord.ButtonStyle.success, 4))
    return out


def target_kind(seat: int) -> str:
    """The button kind of "target this seat" (custom_id kinds are letters: seat 0 → ``aim_a``)."""
    return f"aim_{chr(ord('a') + seat)}"


def target_of_kind(kind: str) -> int | None:
    if len(kind) == 5 and kind.startswith("aim_") and "a" <= kind[4] <= "z":
        return ord(kind[4]) - ord("a")
    return None


def target_items(game_id: int, opened: int, view: View, who: dict[int, str]) -> list[discord.ui.Item[Any]]:
    """The insignia step: one button per rival cult; a click is the secret choice."""
    me = view["private"]["seat"]
    items: list[discord.ui.Item[Any]] = []
    for i, c in enumerate(k for k in view["cults"] if k["seat"] != me):
        label = f"🎯 {who.get(c['seat'], pn(c['seat']))} ({count(c['followers'], 'follower')}, {c['vp']} VP)"
        items.append(button(game_id, opened, target_kind(c["seat"]), label[:80],
                            discord.ButtonStyle.primary, i // 5))
    return items


def edit_items(game_id: int, opened: int) -> list[discord.ui.Item[Any]]:
    return [button(game_id, opened, "edit", "✏️ Change orders", discord.ButtonStyle.secondary, 0)]
