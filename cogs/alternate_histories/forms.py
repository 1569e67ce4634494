"""Alternate Histories' forms at the table, without the cog: the deck choice and the card picks.

* **Deck choice** (prompt ``free_form="deck"``, secret): one menu of the player's saved decks (a
  deck that is not ready shows why, and choosing it is refused with its errors), one of the
  ready-made decks, and a button to paste a deck code. One choice answers the prompt.
* **Card picks** (``free_form="opening"``: 7 cards of the deck for the opening hand;
  ``free_form="pick"``: n cards for a purpose, e.g. the 5 graveyard cards to burn): every copy
  of every card is one option, spread over up to four multi-select menus of 25, and **Confirm**
  sends the picks once exactly the number asked for are chosen.

Nothing lives in memory between clicks: the picks chosen so far are written in the form message
itself (the embed's footer, as option numbers), and the options are rebuilt from the prompt, so
a form survives a restart. custom_ids carry only the game, the decision the form answers and a
kind — never a card.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import discord

JSON = dict[str, Any]
MENU = 25
"""Options per menu (Discord's limit)."""
MENUS = 4
"""Menus of cards on one form (the fifth row holds the buttons)."""
PICKED_PREFIX = "picked "


def cid(game_id: int, opened: int, kind: str, *, button: bool = False) -> str:
    return f"herald:{'ahb' if button else 'ah'}:{game_id}:{opened}:{kind}"


@dataclass(frozen=True)
class Entry:
    """One option of a pick form: one copy of one card."""

    card: str
    name: str
    copy: int
    copies: int

    @property
    def label(self) -> str:
        return self.name if self.copies == 1 else f"{self.name} ({self.copy} of {self.copies})"


def need_of(kind: str, params: Mapping[str, Any]) -> int:
    """How many cards the prompt asks for (at most)."""
    return int(params.get("pick" if kind == "opening" else "count", 0))


def bounds(kind: str, params: Mapping[str, Any]) -> tuple[int, int]:
    """The fewest and the most cards the answer may hold (a face-down pick may take fewer)."""
    most = need_of(kind, params)
    return (most if kind == "opening" else int(params.get("min", most))), most


def ordered(prompt: Any) -> bool:
    """True for a pick whose order is the answer (a Reorder: the cards go back top first)."""
    return str(getattr(prompt, "kind", "")) == "reorder"


def entries(kind: str, params: Mapping[str, Any]) -> list[Entry]:
    """The options of a pick form, in the prompt's order: for the opening hand each card's copies
    (no more than can be picked), for other picks each card listed (copies counted by id)."""
    need = need_of(kind, params)
    out: list[Entry] = []
    if kind == "opening":
        for c in params.get("cards", []):
            copies = min(int(c.get("count", 1)), need)
            out += [Entry(str(c["id"]), str(c.get("name", c["id"])), k + 1, copies) for k in range(copies)]
    else:
        raw = list(params.get("cards", []))
        totals: dict[str, int] = {}
        for c in raw:
            totals[str(c["id"])] = totals.get(str(c["id"]), 0) + 1
        seen: dict[str, int] = {}
        for c in raw:
            cid_ = str(c["id"])
            seen[cid_] = seen.get(cid_, 0) + 1
            out.append(Entry(cid_, str(c.get("name", cid_)), seen[cid_], totals[cid_]))
    return out[:MENU * MENUS]


def picked_from(message: discord.Message | None, limit: int) -> list[int] | None:
    """The option numbers picked so far, read from the form message (None: not a pick form)."""
    if message is None:
        return None
    for embed in message.embeds:
        text = embed.footer.text if embed.footer else None
        if text and text.startswith(PICKED_PREFIX):
            try:
                got = [int(x) for x in text[len(PICKED_PREFIX):].split(".") if x]
            except ValueError:
                return None
            return list(dict.fromkeys(k for k in got if 0 <= k < limit))  # (order kept)
    return None


def choose(picked: Sequence[int], menu: int, values: Sequence[str], limit: int) -> list[int]:
    """The picks after menu ``menu`` was set to ``values``: that menu's options replaced."""
    lo, hi = menu * MENU, (menu + 1) * MENU
    kept = [k for k in picked if not lo <= k < hi]
    new = [int(v[1:]) for v in values if v.startswith("e") and v[1:].isdigit()]
    return sorted({*kept, *(k for k in new if lo <= k < min(hi, limit))})


def append(picked: Sequence[int], values: Sequence[str], limit: int) -> list[int]:
    """An ordered pick after a choice in its one-at-a-time menu: the option goes next."""
    new = [int(v[1:]) for v in values if v.startswith("e") and v[1:].isdigit()]
    return list(dict.fromkeys([*picked, *(k for k in new if 0 <= k < limit)]))


def pick_embed(kind: str, params: Mapping[str, Any], options: Sequence[Entry],
               picked: Sequence[int], notes: Sequence[str] = (), *,
               ordered: bool = False) -> discord.Embed:
    least, need = bounds(kind, params)
    title = ("Your opening hand" if kind == "opening"
             else str(params.get("purpose") or "Your choice").strip()[:200])
    if ordered:
        chosen = ", ".join(f"{i + 1}. {options[k].name}" for i, k in enumerate(picked)) or "nothing yet"
        lines = [f"From the top: {chosen}."]
    else:
        counts: dict[str, int] = {}
        for k in picked:
            counts[options[k].name] = counts.get(options[k].name, 0) + 1
        chosen = ", ".join(f"{n}× {name}" if n > 1 else name for name, n in counts.items()) or "nothing yet"
        lines = [f"Chosen **{len(picked)} of {need}**: {chosen}."]
    if len(picked) > need:
        lines.append(f"⚠️ That is {len(picked) - need} too many: take some off.")
    elif len(picked) < least:
        lines.append(f"Choose {least - len(picked)} more, then **Confirm**.")
    elif len(picked) < need:
        lines.append(f"You may choose up to {need - len(picked)} more, or **Confirm** now.")
    else:
        lines.append("Press **Confirm** to send them.")
    lines += list(notes)
    embed = discord.Embed(title=title, description="\n".join(lines), colour=0xE69F00)
    embed.set_footer(text=PICKED_PREFIX + ".".join(map(str, picked)))
    return embed


def pick_items(game_id: int, opened: int, kind: str, params: Mapping[str, Any],
               options: Sequence[Entry], picked: Sequence[int], *,
               ordered: bool = False) -> list[discord.ui.Item[Any]]:
    need = max(1, need_of(kind, params))
    chosen = set(picked)
    items: list[discord.ui.Item[Any]] = []
    left = [(k, e) for k, e in enumerate(options) if k not in chosen]
    if ordered and left:  # one card at a time, in the order they go back
        opts = [discord.SelectOption(label=e.label[:100], value=f"e{k}") for k, e in left[:MENU]]
        items.append(discord.ui.Select(custom_id=cid(game_id, opened, "p0"), options=opts,
                                       placeholder=f"Card number {len(picked) + 1} from the top",
                                       row=0))
    for menu in range(0 if ordered else min(MENUS, (len(options) + MENU - 1) // MENU)):
        part = list(enumerate(options))[menu * MENU:(menu + 1) * MENU]
        opts = [discord.SelectOption(label=e.label[:100], value=f"e{k}", default=k in chosen)
                for k, e in part]
        first, last = part[0][1].name, part[-1][1].name
        where = f" ({first[:30]} … {last[:30]})" if len(options) > MENU else ""
        items.append(discord.ui.Select(custom_id=cid(game_id, opened, f"p{menu}"), options=opts,
                                       placeholder=f"Cards{where}"[:150], min_values=0,
                                       max_values=min(need, len(opts)), row=menu))
    items.append(discord.ui.Button(custom_id=cid(game_id, opened, "ok", button=True),
                                   label="✅ Confirm", style=discord.ButtonStyle.success, row=4))
    items.append(discord.ui.Button(custom_id=cid(game_id, opened, "clear", button=True),
                                   label="Clear", style=discord.ButtonStyle.secondary, row=4))
    return items


def deck_items(game_id: int, opened: int, saved: Sequence[tuple[int, str, str]],
               ready: Sequence[tuple[str, str]]) -> list[discord.ui.Item[Any]]:
    """The deck choice: saved decks as (id, name, state in words), ready-made as (key, label)."""
    items: list[discord.ui.Item[Any]] = []
    if saved:
        opts = [discord.SelectOption(label=name[:100], value=f"s{deck_id}", description=state[:100])
                for deck_id, name, state in saved[:MENU]]
        items.append(discord.ui.Select(custom_id=cid(game_id, opened, "saved"), options=opts,
                                       placeholder="One of your saved decks", row=0))
    if ready:
        opts = [discord.SelectOption(label=label[:100], value=f"r{key}") for key, label in ready[:MENU]]
        items.append(discord.ui.Select(custom_id=cid(game_id, opened, "ready"), options=opts,
                                       placeholder="A ready-made deck", row=1))
    items.append(discord.ui.Button(custom_id=cid(game_id, opened, "code", button=True),
                                   label="Paste a deck code", style=discord.ButtonStyle.secondary, row=2))
    return items
