"""Helpers for simcord conversations."""

from __future__ import annotations

from typing import Any

import discord


def components(message: discord.Message) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for row in message.components:
        for c in getattr(row, "children", [row]):
            out.append({"custom_id": getattr(c, "custom_id", None), "label": getattr(c, "label", None),
                        "type": type(c).__name__, "options": getattr(c, "options", None)})
    return out


def custom_ids(message: discord.Message) -> list[str]:
    return [c["custom_id"] for c in components(message) if c["custom_id"]]


def find_by_prefix(messages: list[discord.Message], prefix: str) -> discord.Message:
    for m in reversed(messages):
        if any(cid.startswith(prefix) for cid in custom_ids(m)):
            return m
    raise AssertionError(f"no message with a component {prefix}…")


def reply_text(result: Any) -> str:
    """What the invoking user read: the (possibly deferred, then filled) response and followups."""
    parts = []
    if result.response is not None and result.response.content:
        parts.append(result.response.content)
    parts += [f.content for f in result.followups if f.content]
    return "\n".join(parts)


def public_text(channel: Any) -> str:
    """Everything anybody in the server can read in a channel and its threads: message contents,
    embeds (title, description, footer, fields), custom_ids and attachment names."""
    out: list[str] = []
    for where in [channel, *getattr(channel, "threads", [])]:
        for m in where.history():
            out.append(m.content)
            for e in m.embeds:
                out += [e.title or "", e.description or "", (e.footer.text or "") if e.footer else ""]
                out += [f"{f.name} {f.value}" for f in e.fields]
            out += custom_ids(m)
            out += [a.filename for a in m.attachments]
    return "\n".join(out)
