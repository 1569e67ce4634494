"""Helpers for simcord conversations."""

from __future__ import annotations

import asyncio
from functools import partial
from typing import Any

import discord
import simcord

from bot.app import HeraldBot
from bot.delivery import DiscordDelivery
from bot.session import STALLED_REPLY
from bot.storage import GameRow
from bot.views import group_key
from rules.engine import Prompt


def components(message: discord.Message) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for row in message.components:
        for c in getattr(row, "children", [row]):
            out.append({"custom_id": getattr(c, "custom_id", None), "label": getattr(c, "label", None),
                        "type": type(c).__name__, "options": getattr(c, "options", None)})
    return out


def custom_ids(message: discord.Message) -> list[str]:
    return [c["custom_id"] for c in components(message) if c["custom_id"]]


def board_of(thread: Any) -> discord.Message | None:
    """The thread's living board message (the one with the Decide button), or None yet."""
    messages: list[discord.Message] = thread.history()
    for m in reversed(messages):
        if any(cid.startswith("herald:act:") for cid in custom_ids(m)):
            return m
    return None


def last_message(channel: simcord.ChannelHandle) -> discord.Message:
    """The channel's newest message, which the test has just made the bot post (a lobby, say)."""
    message = channel.last_message
    assert message is not None, f"no message in {channel!r}"
    return message


async def stored_game(bot: HeraldBot, game_id: int) -> GameRow:
    """The game's row as stored now (a game the test knows exists)."""
    game = await bot.storage.get_game(game_id)
    assert game is not None, f"no game #{game_id}"
    return game


def state_json(game: GameRow) -> dict[str, Any]:
    """The stored engine state of a game that has started (what an engine's ``from_json`` reads)."""
    assert game.state is not None, f"game #{game.id} has not started"
    return game.state


def discord_delivery(bot: HeraldBot) -> DiscordDelivery:
    """The bot's delivery, which on (simulated) Discord is the Discord one."""
    delivery = bot.sessions.delivery
    assert isinstance(delivery, DiscordDelivery), delivery
    return delivery


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
    embeds (title, description, footer, fields), custom_ids and attachment names. The lines a
    board carries (its "Latest" field) come once, after the messages: those no message holds
    yet (``unposted``)."""
    out: list[str] = []
    for where in [channel, *getattr(channel, "threads", [])]:
        messages = where.history()
        newest = next((m for m in reversed(messages) if latest_lines(m)), None)
        for m in messages:
            out.append(m.content)
            for e in m.embeds:
                out += [e.title or "", e.description or "", (e.footer.text or "") if e.footer else ""]
                out += [f"{f.name} {f.value}" for f in e.fields if f.name != "Latest" or m is not newest]
            out += custom_ids(m)
            out += [a.filename for a in m.attachments]
        out += unposted(messages)
    return "\n".join(out)


def latest_lines(message: discord.Message) -> list[str]:
    """The latest log lines a board message shows (its "Latest" field): the lines not yet in the
    thread live there until their round's message (``bot.threadlog``)."""
    return [line for e in message.embeds for f in e.fields if f.name == "Latest"
            for line in (f.value or "").splitlines()]


def unposted(messages: list[discord.Message]) -> list[str]:
    """The lines the newest board of these messages (the one whose embed has a "Latest" field)
    shows that no message holds yet: its first lines may be the thread's last ones."""
    boards = [m for m in messages if latest_lines(m)]
    if not boards:
        return []
    lines = [line for m in messages for line in told(m).splitlines() if line.startswith("• ")]
    shown = latest_lines(boards[-1])
    known = max(k for k in range(min(len(shown), len(lines)) + 1)
                if shown[:k] == lines[len(lines) - k:])
    return shown[known:]


def told(message: discord.Message) -> str:
    """What a thread message tells, in the order it reads: the lines in its boxes (the untitled
    embeds a long stretch of the story goes in, ``bot.delivery.thread_messages``), then its text."""
    boxes = [e.description or "" for e in message.embeds if not e.title and e.description]
    return "\n".join(x for x in [*boxes, message.content] if x)


def story(where: Any) -> str:
    """The game's story as a reader finds it in its thread (or the channel it plays in): every
    message's lines, then the lines its board carries that no message holds yet."""
    messages = where.history()
    return "\n".join([*(told(m) for m in messages if told(m)), *unposted(messages)])


async def simultaneously(env: Any, *calls: Any) -> list[Any]:
    """Deliver several interactions to the bot at the same moment; one result per call, in order.

    ``calls`` are un-awaited actor operations — ``alice.click(...)``, ``bob.select(...)``,
    ``alice.slash(...)``, ``alice.submit_modal(...)``, from the same or different users. Each
    builds its interaction and emits ``INTERACTION_CREATE`` as usual, but instead of settling on
    its own it waits at a barrier; once every call has emitted, the bot is settled ONCE, so
    discord.py runs all the handlers concurrently (each interaction is its own task), like two
    players pressing at the same moment. The results read like ordinary ones (``reply_text``).

    Uses simcord's private plumbing (simcord 3.x): ``Env._begin_operation``/``_end_operation``
    (the guard that forbids overlapping operations: here this helper holds the one operation for
    all its calls) and ``Env._settle_internal`` (the settle each operation ends with), shadowed on
    the ``env`` instance for the duration of the call only.
    """
    ours: set[asyncio.Task[Any]] = set()
    arrived: set[asyncio.Task[Any]] = set()
    release = asyncio.Event()
    real_begin, real_end, real_settle = env._begin_operation, env._end_operation, env._settle_internal

    def begin(label: str) -> None:
        if asyncio.current_task() not in ours:
            real_begin(label)

    def end() -> None:
        if asyncio.current_task() not in ours:
            real_end()

    async def settle_later(**kwargs: Any) -> None:
        task = asyncio.current_task()
        if task not in ours:
            await real_settle(**kwargs)
            return
        arrived.add(task)  # this call's interaction has been emitted: wait for the shared settle
        await release.wait()

    real_begin("simultaneously")
    env._begin_operation, env._end_operation, env._settle_internal = begin, end, settle_later
    tasks = [asyncio.ensure_future(call) for call in calls]
    ours.update(tasks)
    try:
        while not all(t in arrived or t.done() for t in tasks):
            await asyncio.sleep(0)
        await real_settle(dispatch="INTERACTION_CREATE")
        release.set()
        return list(await asyncio.gather(*tasks))
    finally:
        release.set()
        for t in tasks:
            if not t.done():
                t.cancel()
        for name in ("_begin_operation", "_end_operation", "_settle_internal"):
            env.__dict__.pop(name, None)
        real_end()


def answer_text(env: Any, result: Any) -> str:
    """What the bot wrote in answer to this one interaction: its callback message, the edits of
    its original response and its followups, in order (read from simcord's transcript). Unlike
    ``reply_text`` this tells apart two clicks on the same message (a deferred update edits the
    clicked message, which both results would show). Uses simcord's private
    ``InteractionResult._interaction`` (its token names the bot's answers in the transcript)."""
    token = result._interaction.token
    out: list[str] = []
    for kind, what, body in env.backend.transcript:
        if kind != "HTTP" or token not in str(what).split("?")[0].split("/") or not isinstance(body, dict):
            continue
        data = body.get("data") if str(what).endswith("/callback") else body
        if isinstance(data, dict) and data.get("content"):
            out.append(str(data["content"]))
    return "\n".join(out)


def _choice_control(shown: Any) -> dict[str, Any] | None:
    spec = getattr(shown, "modal", None)
    for node in (spec or {}).get("components") or []:
        control = node.get("component") if node.get("type") == 18 else None
        if control and control.get("custom_id") == "choice":
            return dict(control)
    return None


def modal_choices(shown: Any) -> list[tuple[str, str]] | None:
    """(label, value) of every choice of the choice form **Decide** answered with (a radio group
    or a menu), or None when it answered otherwise (a panel, a game's own form, a refusal)."""
    control = _choice_control(shown)
    if control is None:
        return None
    return [(str(o["label"]), str(o["value"])) for o in control.get("options") or []]


def form_answer(shown: Any, value: str) -> dict[str, Any]:
    """The values to submit the choice form with, choosing ``value`` (a radio group takes one
    value, a menu a list)."""
    control = _choice_control(shown)
    assert control is not None, "Decide did not answer with the choice form"
    return {"choice": value if control.get("type") == 21 else [value]}


def form_text(shown: Any) -> str:
    """What the choice form says (its text and its choices' labels and descriptions), else what
    the bot wrote in answer (``reply_text``)."""
    spec = getattr(shown, "modal", None)
    if not spec:
        return reply_text(shown)
    out = [str(spec.get("title") or "")]
    for node in spec.get("components") or []:
        if node.get("type") == 10:
            out.append(str(node.get("content") or ""))
        control = node.get("component") if node.get("type") == 18 else None
        if control:
            out += [f"{o['label']} — {o.get('description') or ''}" for o in control.get("options") or []]
    return "\n".join(out)


def choice_labels(shown: Any) -> list[str]:
    """The labels of the choices **Decide** offered: the choice form's, or the panel's components."""
    form = modal_choices(shown)
    if form is not None:
        return [label for label, _ in form]
    message = panel_message(shown)
    return [str(c["label"]) for c in components(message)] if message is not None else []


def accepted(result: Any) -> bool:
    """Whether a choice was taken: answered by the board itself (sent from the board; with the
    notice that the move is stored when the computer players could not answer after it, and the
    lines it told only its player, ``bot.delivery.DiscordDelivery.whisper``), or with a private
    "✅" line (from a DM, or from the panel)."""
    text = reply_text(result) if result.response is None or result.response.ephemeral else \
        "\n".join(f.content for f in result.followups if f.content)
    kind = getattr(getattr(result, "_interaction", None), "response_kind", None)
    on_board = getattr(kind, "value", None) in ("update", "deferred_update")
    return text.startswith("✅") or (on_board and all(
        line.startswith("• ") or line == STALLED_REPLY for line in text.splitlines()))


async def choose_label(player: Any, shown: Any, label: str) -> Any:
    """Choose the choice called ``label`` in what **Decide** answered (``shown``): submit the
    choice form with it, or click it in the panel. Returns the submission's or click's result."""
    form = modal_choices(shown)
    if form is not None:
        value = next(v for text, v in form if text == label)
        return await player.submit_modal(shown, form_answer(shown, value))
    return await player.click(panel_message(shown), label=label)


def _deferred_update(result: Any) -> bool:
    kind = getattr(getattr(result, "_interaction", None), "response_kind", None)
    return getattr(kind, "value", None) == "deferred_update"


def opened(result: Any) -> Any:
    """The message a click opened for its player: the panel or form — a **Decide** on the board
    whose decision has a form of its own is deferred (the form's answer will redraw the board)
    and the form follows — else the message of the click's response (None: a pop-up form, or no
    message)."""
    if _deferred_update(result) and result.followups:
        return result.followups[-1].message
    return result.response.message if result.response is not None else None


def private(result: Any) -> bool:
    """Whether what a click opened is for the player's eyes only: the choice form (a pop-up), an
    ephemeral panel or answer, or a form following a deferred click on the board."""
    if result.modal is not None:
        return True
    if _deferred_update(result) and result.followups:
        return bool(result.followups[-1].ephemeral)
    return bool(result.ephemeral)


def panel_message(shown: Any) -> Any:
    """The message to click through: a Decide result's panel, or a message given as it is."""
    return opened(shown) if hasattr(shown, "modal") else shown


async def first_choice(player: Any, shown: Any) -> tuple[str, Any]:
    """Walk what **Decide** answered — the choice form, or a choice panel (group select → paged
    select, or buttons) — up to its first choice. ``shown``: the Decide click's result (or the
    panel message).

    Returns the choice's label and a function making the final submission/click/select — not made
    yet, so a test can make it ``simultaneously`` with someone else's."""
    form = modal_choices(shown)
    if form is not None:
        label, value = form[0]
        return label, partial(player.submit_modal, shown, form_answer(shown, value))
    message = panel_message(shown)
    for _ in range(6):
        comps = components(message)
        button = next((c for c in comps if (c["custom_id"] or "").startswith("herald:btn:")), None)
        if button is not None:
            return str(button["label"]), partial(player.click, message, custom_id=button["custom_id"])
        group = next((c for c in comps if (c["custom_id"] or "").startswith("herald:grp:")), None)
        if group is not None:
            first = group["options"][0]
            if first.value.startswith("c:"):  # a choice standing alone in the first menu
                return str(first.label), partial(player.select, message, [first.value], custom_id=group["custom_id"])
            opened = await player.select(message, [first.value], custom_id=group["custom_id"])
            message = opened.response.message
            continue
        pick = next(c for c in comps if (c["custom_id"] or "").startswith("herald:pick:"))
        option = next(o for o in pick["options"] if not o.value.startswith("page:"))
        return str(option.label), partial(player.select, message, [option.value], custom_id=pick["custom_id"])
    raise AssertionError("no choice reached in the panel")


async def choose_in_panel(actor: Any, shown: Any, prompt: Prompt, idx: int) -> Any:
    """Choose ``prompt.choices[idx]`` in what **Decide** answered: submit the choice form, or click
    through a choice panel (buttons, or group menu → paged choice menu); returns the result of the
    submission or of the last click or pick."""
    if modal_choices(shown) is not None:
        return await actor.submit_modal(shown, form_answer(shown, str(idx)))
    message = panel_message(shown)
    keys = list(dict.fromkeys(group_key(c) for c in prompt.choices))
    for _ in range(8):
        comps = components(message)
        button = next((c for c in comps if (c["custom_id"] or "").startswith("herald:btn:")
                       and c["custom_id"].endswith(f":{idx}")), None)
        if button is not None:
            return await actor.click(message, custom_id=button["custom_id"])
        select = next(c for c in comps if (c["custom_id"] or "").startswith(("herald:grp:", "herald:pick:")))
        values = [o.value for o in select["options"]]
        if select["custom_id"].startswith("herald:grp:"):
            alone, group = f"c:{idx}", f"g:{keys.index(group_key(prompt.choices[idx]))}"
            value = alone if alone in values else group
            r = await actor.select(message, [value], custom_id=select["custom_id"])
            if value == alone:
                return r
            message = r.response.message
            continue
        elif str(idx) in values:
            value = str(idx)
        else:
            shown_values = [int(v) for v in values if v.isdigit()]
            pages = [v for v in values if v.startswith("page:")]
            value = pages[-1] if idx > max(shown_values) else pages[0]
        r = await actor.select(message, [value], custom_id=select["custom_id"])
        if str(idx) == value:
            return r
        message = r.response.message
    raise AssertionError(f"could not reach choice {idx} of {prompt.kind}")


async def open_seeded_table(env: Any, bot: Any, game: str, seed: int, *, computers: int = 0,
                            deadline: str | None = None,
                            options: str | None = None) -> tuple[Any, Any, list[Any]]:
    """/play ``game`` by alice, joined by bob (plus computer players), seeded, started.

    The seed is written on the lobby's row before Start (the test hook the Hegemony of Faith
    tests use; players cannot choose a seed). Returns the channel, the game's thread and
    ``[alice, bob]``."""
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    opts: dict[str, Any] = {"game": game}
    if deadline:
        opts["deadline"] = deadline
    if options:
        opts["options"] = options
    await alice.slash(channel, "play", **opts)
    lobby = channel.last_message
    await bob.click(lobby, label="Join")
    for _ in range(computers):
        await alice.click(lobby, label="Add computer player")
    game_id = (await bot.storage.list_games(guild_id=guild.id))[0].id
    await bot.storage.update_game(game_id, seed=seed)
    await alice.click(lobby, label="Start")
    return channel, channel.threads[0], [alice, bob]


async def open_humans_table(env: Any, bot: Any, game: str, names: tuple[str, ...],
                            seed: int) -> tuple[Any, Any, list[Any], int]:
    """/play ``game`` by the first of ``names``, joined by the others (every seat a human),
    seeded, started. Returns the channel, the game's thread, the members and the game's id."""
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    members = [guild.add_member(env.create_user(name)) for name in names]
    await members[0].slash(channel, "play", game=game)
    lobby = channel.last_message
    for m in members[1:]:
        await m.click(lobby, label="Join")
    game_id = (await bot.storage.list_games(guild_id=guild.id))[0].id
    await bot.storage.update_game(game_id, seed=seed)
    await members[0].click(lobby, label="Start")
    return channel, channel.threads[0], members, game_id


async def cult_wars_answer(env: Any, member: Any, game_id: int, opened: int, action: Any) -> bool:
    """A Cult Wars decision made in the form its player was sent (a DM, or the follow-up of their
    last click there), as the computer player's ``action`` would make it: the insignia button of
    the target; for orders, the draft that the player's clicks on the form's pages would lay (each
    answered by an interaction response) is written into the form, then **✅ Confirm orders** is
    clicked. False when no such form is in their DMs."""
    from cogs.cult_wars.form import Draft, cid, target_kind

    dm = member.user.dm_channel
    kind = target_kind(action["target"]) if action.get("type") == "target" else "ok"
    want = cid(game_id, opened, kind, button=True)
    message = next((m for m in reversed(dm.history()) if want in custom_ids(m)), None) if dm else None
    if message is None:
        return False
    if kind == "ok":
        stored = env.backend.get_message(dm.id, message.id)
        footer = stored.embeds[0].setdefault("footer", {})
        draft = Draft.from_orders(action)
        if draft.target is None:  # (revealed in the insignia step: the form holds it already)
            draft.target = (Draft.from_code(footer.get("text") or "") or Draft()).target
        footer["text"] = draft.code()
    await member.user.click(message, custom_id=want)
    return True
