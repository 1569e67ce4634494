"""Decisions a player page answers with a form of its own: the free-form decisions whose answers
the engines document (``params`` in, the action out), written as plain HTML forms.

Each form is read back here into the engine's action and nothing else: a field outside the
prompt's own list, a count outside its bounds, is refused before anything is applied, and the
action then goes the way every decision goes (``Sessions.act`` with the prompt's ticket, under the
game's lock, where the engine judges it). Every free-form decision of the five games has a form
here; a game added later without one shows the choices its prompt lists and links to Discord.

A flick's form also previews: its **Preview** button asks for the page again with the aim in the
address (a GET, nothing applied), and the page shows the seat's private aim preview
(:func:`aim_png`, the game's own drawing, off the event loop) unless Eyes Closed is in force.

| game | free form | the page's form | the action |
|---|---|---|---|
| Petition | ``cards`` | a box per pickable card, ``min``–``max`` of them | ``{"type": "cards", "cards": [id…]}`` |
| Alternate Histories | ``pick`` | a box per card, ``min``–``count`` of them (``reorder``: each place's card, top first) | ``{"type": "pick", "cards": [id…]}`` |
| Alternate Histories | ``opening`` | how many of each card, ``pick`` in all | ``{"type": "opening", "cards": [id…]}`` |
| Alternate Histories | ``deck`` | one of the ready-made decks, or a deck code | ``{"type": "deck", "ready": name}`` or ``{"type": "deck", "code": code}`` |
| Flick of Faith | ``flick`` | angle, power (and the piece, Dagda's hand), with a private aim preview | ``{"type": "flick", "angle": a, "power": p, …}`` |
| Cult Wars | ``orders`` | the target (when the insignia step did not fix it), a slot for each strategy card, the action cards played and their targets, what lies face up | ``{"type": "orders", …}`` |
| Flick of Faith | ``temple`` | a place (x, y from 0 to 100) and the prophet building there | ``{"type": "build", "x": x, "y": y, "prophet": id}`` |
| Hegemony of Faith | ``lineup`` | a believer of the seat's own (or, with Zombie Army, one from the graveyard) for each place, ``min``–``max`` of its own | ``{"type": "lineup", "order": [ID or "z<ID>"…]}`` |
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.engine import Prompt

from .pages import esc, humanised


class FormRefused(Exception):
    """What was sent is not an answer this form offers: one sentence for the player."""


@dataclass(frozen=True)
class Item:
    label: str
    note: str = ""
    most: int = 1
    """How many of it may be chosen (a number field when above 1)."""


@dataclass(frozen=True)
class WebForm:
    style: str
    """``boxes`` (pick some), ``counts`` (how many of each), ``order`` (a card for each place),
    ``one`` (one of a list), ``lineup`` (a believer, or none, for each of ``most`` places)."""
    items: tuple[Item, ...]
    least: int
    most: int
    submit: str
    hint: str
    extra: Mapping[str, Any] = field(default_factory=dict)
    """What a form of its own needs besides (a flick's ranges, pieces and hands)."""


def _cards(params: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    cards = params.get("cards")
    return [c for c in cards if isinstance(c, Mapping)] if isinstance(cards, list) else []


def _int(value: Any, default: int) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def _between(least: int, most: int, word: str) -> str:
    if least == most:
        return f"Choose {least} {word}."
    if least == 0:
        return f"Choose up to {most} {word}."
    return f"Choose {least} to {most} {word}."


def _believers(view: Mapping[str, Any] | None) -> list[Mapping[str, Any]]:
    private = (view or {}).get("private")
    held = private.get("believers") if isinstance(private, Mapping) else None
    return [b for b in held if isinstance(b, Mapping)] if isinstance(held, list) else []


def web_form(game_key: str, prompt: Prompt, view: Mapping[str, Any] | None = None) -> WebForm | None:
    """The page's form for a free-form decision (``view``: the seat's own), None where it has none."""
    build = _FORMS.get((game_key, prompt.free_form))
    return build(prompt, view) if build is not None else None


def _flick_form(prompt: Prompt, view: Mapping[str, Any] | None) -> WebForm:
    p = prompt.params
    pieces = [str(x) for x in p.get("pieces") or []]
    hands = [str(x) for x in p.get("hand_targets") or []]
    extra = {"angle": (float(p.get("angle_min", -180)), float(p.get("angle_max", 180))),
             "power": (float(p.get("power_min", 1)), float(p.get("power_max", 10))),
             "pieces": pieces, "piece": p.get("piece_default"), "hands": hands,
             "preview": bool((view or {}).get("aim_preview", True))}
    return WebForm("flick", (), 0, 0, "Flick", "Angle 0 aims straight at the navel, + turns "
                   "clockwise; power from 1 to 10. A real flick wobbles a little.", extra)


def _orders_form(prompt: Prompt, view: Mapping[str, Any] | None) -> WebForm:
    p = prompt.params
    private = (view or {}).get("private")
    hand = [c for c in (private.get("hand") if isinstance(private, Mapping) else None) or []
            if isinstance(c, Mapping)]
    players = _int((view or {}).get("players"), 0)
    others = [k for k in range(players) if k != prompt.seat]
    values = [_int(v, 0) for v in p.get("strategy_cards") or []]
    extra = {"values": values, "slots": [str(x) for x in p.get("slots") or []], "hand": hand,
             "others": others, "targets": [_int(t, -1) for t in p.get("targets") or []],
             "fixed": p.get("target"), "replace": bool(p.get("replace"))}
    hint = (f"Lay strategy cards on the slots: they hold at most {_int(p.get('max_assign'), 0)} "
            "followers in all. Cards left on no slot stay in your hand.")
    return WebForm("orders", (), 0, 0, "Send my orders", hint, extra)


def _temple_form(prompt: Prompt, view: Mapping[str, Any] | None) -> WebForm:
    p = prompt.params
    prophets = [q for q in p.get("prophets") or [] if isinstance(q, Mapping)]
    islands = {i.get("index"): i for i in p.get("islands") or [] if isinstance(i, Mapping)}
    builders: list[Item] = []
    for q in prophets:
        where = ", ".join(str(islands.get(i, {}).get("name", i)) for i in q.get("islands") or [])
        builders.append(Item(f"your {q.get('kind', 'prophet')} on {where or 'a city'}", str(q.get("id"))))
    centres = "; ".join(f"{i.get('name')} at {float(i.get('x', 0)):g}, {float(i.get('y', 0)):g}"
                        for i in islands.values() if "x" in i and "y" in i)
    hint = ("Or a place of your own: board coordinates from 0 to 100, within "
            f"{float(p.get('max_distance', 0)):g} of the island's centre"
            + (f" (centres: {centres})." if centres else "."))
    return WebForm("temple", tuple(builders), 0, 0, "Build here", hint)


def _lineup_form(prompt: Prompt, view: Mapping[str, Any] | None) -> WebForm:
    p = prompt.params
    grave = sorted({_int(t, 0) for t in (view or {}).get("graveyard") or []}) if p.get("zombies") else []
    kinds: dict[int, Item] = {}
    for b in _believers(view):
        beats = b.get("beats") or []
        note = f"beats {beats[0]} & {beats[1]}" if len(beats) == 2 else ""
        kinds.setdefault(_int(b.get("id"), 0), Item(f"{b.get('name', '?')} ({b.get('id')})", note))
    items = tuple(kinds[k] for k in sorted(kinds))
    least, most = _int(p.get("min"), 1), _int(p.get("max"), 1)
    raised = len((view or {}).get("graveyard") or []) if grave else 0
    hint = _between(least, most, "of your believers") + " They meet the other side's in this order."
    if grave:  # Zombie Army: graveyard believers may join the line-up too
        hint += " Zombie Army: believers from the graveyard may join them."
    return WebForm("lineup", items, least, most, "Send this line-up", hint,
                   {"grave": grave, "places": most + raised})


def _petition_cards_form(prompt: Prompt, view: Mapping[str, Any] | None) -> WebForm:
    p = prompt.params
    cards = _cards(p)
    least, most = _int(p.get("min"), 0), _int(p.get("max"), len(cards))
    if not cards and least == 0:
        return WebForm("boxes", (), 0, 0, str(p.get("confirm") or "Pass"), "You have no card to add.")
    items = tuple(Item(str(c.get("name", "?")), str(c.get("text", ""))) for c in cards)
    return WebForm("boxes", items, least, most, str(p.get("confirm") or "Send these cards"),
                   _between(least, most, "cards"))


def _pick_form(prompt: Prompt, view: Mapping[str, Any] | None) -> WebForm:
    p = prompt.params
    cards = _cards(p)
    items = tuple(Item(str(c.get("name", "?"))) for c in cards)
    least, most = _int(p.get("min"), 0), _int(p.get("count"), len(cards))
    if prompt.kind == "reorder":
        return WebForm("order", items, len(items), len(items), "Put them back",
                       "Choose the card for each place, the top card first.")
    return WebForm("boxes", items, least, most, "Send", _between(least, most, "cards"))


def _opening_form(prompt: Prompt, view: Mapping[str, Any] | None) -> WebForm:
    p = prompt.params
    items = tuple(Item(str(c.get("name", "?")), "", _int(c.get("count"), 1)) for c in _cards(p))
    pick = _int(p.get("pick"), 7)
    return WebForm("counts", items, pick, pick, "Keep this hand", f"Choose {pick} cards in all.")


def _deck_form(prompt: Prompt, view: Mapping[str, Any] | None) -> WebForm:
    ready = prompt.params.get("ready")
    names = [str(r) for r in ready] if isinstance(ready, list) else []
    items = tuple(Item(n.replace("-", " · ").title()) for n in names)
    return WebForm("one", items, 1, 1, "Play this deck", "Choose a ready-made deck, or paste the "
                   "code of a deck of your own (`/deck export` on Discord gives it).")


_FORMS: dict[tuple[str, str | None], Callable[[Prompt, Mapping[str, Any] | None], WebForm]] = {
    ("flick_of_faith", "flick"): _flick_form,
    ("cult_wars", "orders"): _orders_form,
    ("flick_of_faith", "temple"): _temple_form,
    ("hegemony_of_faith", "lineup"): _lineup_form,
    ("petition", "cards"): _petition_cards_form,
    ("alternate_histories", "pick"): _pick_form,
    ("alternate_histories", "opening"): _opening_form,
    ("alternate_histories", "deck"): _deck_form,
}
"""The form of each (game, free-form decision) the page answers itself (the table above)."""


def form_action(game_key: str, prompt: Prompt, fields: Mapping[str, Sequence[str]],
                view: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The engine's action for a posted form (``fields``: each name's values as sent)."""
    form = web_form(game_key, prompt, view)
    if form is None:
        raise FormRefused("this decision has no form on the page")
    read = _ACTIONS.get(form.style, _boxes_action)
    return read(_Posted(game_key, prompt, form, fields, view))


@dataclass(frozen=True)
class _Posted:
    """A posted form, with the form it answers."""

    game_key: str
    prompt: Prompt
    form: WebForm
    fields: Mapping[str, Sequence[str]]
    view: Mapping[str, Any] | None

    def index(self, raw: str) -> int:
        """The form's item ``raw`` names (its position, as sent)."""
        if not (raw.isascii() and raw.isdigit() and len(raw) < 5) or int(raw) >= len(self.form.items):
            raise FormRefused("that is not one of the choices on your page")
        return int(raw)

    def ids(self) -> list[str]:
        """The ids of the prompt's cards, in the form's order."""
        return [str(c.get("id")) for c in _cards(self.prompt.params)]


def _temple_action(posted: _Posted) -> dict[str, Any]:
    fields = posted.fields
    action: dict[str, Any] = {"type": "build", "x": _number(fields, "x", 0, 100),
                              "y": _number(fields, "y", 0, 100)}
    raw = (fields.get("prophet") or [""])[0]
    if raw:
        action["prophet"] = posted.form.items[posted.index(raw)].note
        if str(action["prophet"]).isdigit():
            action["prophet"] = int(action["prophet"])
    return action


def _lineup_action(posted: _Posted) -> dict[str, Any]:
    form = posted.form
    held = sorted({_int(b.get("id"), 0) for b in _believers(posted.view)})
    grave = form.extra.get("grave") or []
    order: list[int | str] = []
    for v in posted.fields.get("at", []):
        if v.startswith("z") and v[1:].isascii() and v[1:].isdigit() and int(v[1:]) in grave:
            order.append(v)  # (a graveyard believer: "z<ID>")
        elif v != "":
            order.append(held[posted.index(v)])
    own = sum(1 for e in order if isinstance(e, int))
    if not form.least <= own <= form.most:
        raise FormRefused(_between(form.least, form.most, "of your believers").lower().rstrip("."))
    return {"type": "lineup", "order": order}


def _deck_action(posted: _Posted) -> dict[str, Any]:
    code = (posted.fields.get("code") or [""])[0].strip()
    if code:  # (a deck of the player's own: the engine reads and checks the code)
        if len(code) > 4000:
            raise FormRefused("that deck code is too long")
        return {"type": "deck", "code": code}
    picked = [posted.index(v) for v in posted.fields.get("pick", [])]
    if len(picked) != 1:
        raise FormRefused("choose one deck, or paste a deck code")
    return {"type": "deck", "ready": str(posted.prompt.params["ready"][picked[0]])}


def _opening_action(posted: _Posted) -> dict[str, Any]:
    form, ids = posted.form, posted.ids()
    chosen: list[str] = []
    for i, item in enumerate(form.items):
        raw = (posted.fields.get(f"count-{i}") or ["0"])[0] or "0"
        if not (raw.isascii() and raw.isdigit() and len(raw) < 4) or int(raw) > item.most:
            raise FormRefused(f"you hold {item.most} of {item.label}")
        chosen += [ids[i]] * int(raw)
    if len(chosen) != form.least:
        raise FormRefused(f"choose {form.least} cards in all, not {len(chosen)}")
    return {"type": "opening", "cards": chosen}


def _order_action(posted: _Posted) -> dict[str, Any]:
    ids = posted.ids()
    picked = [posted.index(v) for v in posted.fields.get("at", [])]
    if sorted(picked) != list(range(len(posted.form.items))):
        raise FormRefused("put each card in one place")
    return {"type": "pick", "cards": [ids[i] for i in picked]}


def _boxes_action(posted: _Posted) -> dict[str, Any]:
    form, ids = posted.form, posted.ids()
    picked = [posted.index(v) for v in posted.fields.get("pick", [])]
    if len(set(picked)) != len(picked) or not form.least <= len(picked) <= form.most:
        raise FormRefused(_between(form.least, form.most, "cards").lower().rstrip("."))
    kind = "cards" if posted.game_key == "petition" else "pick"
    return {"type": kind, "cards": [ids[i] for i in sorted(picked)]}


_ACTIONS: dict[str, Callable[[_Posted], dict[str, Any]]] = {
    "flick": lambda posted: flick_action(posted.form, posted.fields),
    "orders": lambda posted: orders_action(posted.form, posted.fields),
    "temple": _temple_action,
    "lineup": _lineup_action,
    "one": _deck_action,
    "counts": _opening_action,
    "order": _order_action,
    "boxes": _boxes_action,
}
"""How each style of form is read back into the engine's action."""


def _number(fields: Mapping[str, Sequence[str]], name: str, lo: float, hi: float) -> float:
    raw = (fields.get(name) or [""])[0].strip()
    try:
        value = float(raw)
    except ValueError:
        raise FormRefused(f"{name} must be a number from {lo:g} to {hi:g}") from None
    if not math.isfinite(value) or not lo <= value <= hi:
        raise FormRefused(f"{name} must be a number from {lo:g} to {hi:g}")
    return value


def flick_aim(form: WebForm, fields: Mapping[str, Sequence[str]]) -> tuple[float, float, str | None, str | None]:
    """Angle, power, piece and hand of a flick form, each one of the form's own values."""
    x = form.extra
    angle = _number(fields, "angle", *x["angle"])
    power = _number(fields, "power", *x["power"])
    piece = (fields.get("piece") or [""])[0] or None
    hand = (fields.get("hand") or [""])[0] or None
    if piece is not None and piece not in x["pieces"]:
        raise FormRefused("that piece is not one you may flick")
    if hand is not None and hand not in x["hands"]:
        raise FormRefused("that is not a place your hand may go")
    return angle, power, piece, hand


def flick_action(form: WebForm, fields: Mapping[str, Sequence[str]]) -> dict[str, Any]:
    angle, power, piece, hand = flick_aim(form, fields)
    action: dict[str, Any] = {"type": "flick", "angle": angle, "power": power}
    if piece is not None:
        action["piece"] = piece
    if hand is not None:
        action["hand"] = hand
    return action


SLOT_WORDS = {"attack": "Attack", "defend": "Defend", "sacrifice": "Sacrifice", "breed": "Breed"}


def orders_action(form: WebForm, fields: Mapping[str, Sequence[str]]) -> dict[str, Any]:
    """Cult Wars orders from the page's form (each field one of the form's own values)."""
    x = form.extra
    one = {k: (v[0] if v else "") for k, v in fields.items()}

    def seat_of(raw: str, allowed: Sequence[int]) -> int:
        if not (raw.isascii() and raw.isdigit() and len(raw) < 3) or int(raw) not in allowed:
            raise FormRefused("that is not a cult you may target")
        return int(raw)

    action: dict[str, Any] = {"type": "orders"}
    if x["fixed"] is None:
        action["target"] = seat_of(one.get("target", ""), x["targets"])
    slots: dict[str, list[int]] = {slot: [] for slot in x["slots"]}
    for i, value in enumerate(x["values"]):
        slot = one.get(f"card-{i}", "")
        if slot and slot not in slots:
            raise FormRefused("that is not a slot")
        if slot:
            slots[slot].append(value)
    action["slots"] = slots
    plays: list[dict[str, Any]] = []
    played: list[str] = []
    for raw in fields.get("play", []):
        if not (raw.isascii() and raw.isdigit() and len(raw) < 3) or int(raw) >= len(x["hand"]):
            raise FormRefused("that is not an action card you hold")
        card = x["hand"][int(raw)]
        aim = one.get(f"aim-{raw}", "")
        target = seat_of(aim, x["others"]) if aim and card.get("target") != "self" else None
        plays.append({"card": str(card.get("id")), "target": target})
        played.append(str(card.get("id")))
    action["actions"] = plays
    allowed = {*x["slots"], *played, *([] if x["fixed"] is not None else ["target"])}
    face = [f for f in fields.get("face", []) if f in allowed]
    action["face_up"] = face
    if x["replace"]:
        action["replace"] = True
    return action


def _orders_html(form: WebForm, names: Sequence[str]) -> str:
    x = form.extra

    def name(k: int) -> str:
        return names[k] if 0 <= k < len(names) else f"seat {k + 1}"

    rows: list[str] = []
    if x["fixed"] is None:
        options = "".join(f'<option value="{k}">{esc(name(k))}</option>' for k in x["targets"])
        rows.append(f'<li><label>Target <select name="target">{options}</select></label></li>')
    slot_options = '<option value="">in my hand</option>' + "".join(
        f'<option value="{esc(s)}">{esc(SLOT_WORDS.get(s, s))}</option>' for s in x["slots"])
    cards = "".join(f'<li><label>Strategy card {v} <select name="card-{i}">{slot_options}</select></label></li>'
                    for i, v in enumerate(x["values"]))
    rows.append(f'<li><fieldset><legend>Strategy cards</legend><ul>{cards}</ul></fieldset></li>')
    if x["hand"]:
        plays = []
        aims = '<option value="">my target</option>' + "".join(
            f'<option value="{k}">{esc(name(k))}</option>' for k in x["others"])
        for j, card in enumerate(x["hand"]):
            aim = (f' <label>at <select name="aim-{j}">{aims}</select></label>'
                   if card.get("target") != "self" else "")
            plays.append(f'<li><label><input type="checkbox" name="play" value="{j}"> Play '
                         f'<b>{esc(str(card.get("name", "?")))}</b></label>{aim} '
                         f'<span class="desc">{esc(str(card.get("text", "")))}</span></li>')
        rows.append(f'<li><fieldset><legend>Action cards</legend><ul>{"".join(plays)}</ul></fieldset></li>')
    faces = [*([] if x["fixed"] is not None else [("target", "my target")]),
             *((s, SLOT_WORDS.get(s, s)) for s in x["slots"]),
             *((str(c.get("id")), str(c.get("name", "?"))) for c in x["hand"])]
    boxes = "".join(f'<label><input type="checkbox" name="face" value="{esc(v)}"> {esc(w)}</label> '
                    for v, w in faces)
    rows.append(f'<li><fieldset><legend>Face up (everyone sees them before the reveal)</legend>{boxes}'
                '</fieldset></li>')
    return f'<ul>{"".join(rows)}</ul>'


def aim_png(key: str, view: Mapping[str, Any], seat: int, angle: float, power: float,
            piece: str | None, hand: str | None, names: Sequence[str]) -> bytes:
    """The seat's private aim preview as PNG (drawn by the game's own UI, from its own view)."""
    from ..gameui import get_ui
    from ..render.kit import to_png

    ui: Any = get_ui(key)
    return bytes(to_png(ui.aim_image(dict(view), seat, angle, power, piece=piece, hand=hand, names=names)))


def _flick_html(form: WebForm, prefill: Mapping[str, str], version: int) -> str:
    x = form.extra
    (alo, ahi), (plo, phi) = x["angle"], x["power"]
    angle, power = prefill.get("angle", "0"), prefill.get("power", "5")
    rows = [f'<li><label>Angle <input type="number" name="angle" value="{esc(angle)}" min="{alo:g}" '
            f'max="{ahi:g}" step="any" required></label></li>',
            f'<li><label>Power <input type="number" name="power" value="{esc(power)}" min="{plo:g}" '
            f'max="{phi:g}" step="any" required></label></li>']
    for name, values, default, words in (("piece", x["pieces"], x["piece"], "Piece"),
                                         ("hand", x["hands"], None, "Your hand (Dagda)")):
        if not values:
            continue
        chosen = prefill.get(name, default or "")
        none = "" if name == "piece" else '<option value="">none</option>'
        options = none + "".join(f'<option value="{esc(v)}"{" selected" if v == chosen else ""}>{esc(v)}</option>'
                                 for v in values)
        rows.append(f'<li><label>{words} <select name="{name}">{options}</select></label></li>')
    preview = image = ""
    if x["preview"]:
        preview = ('<button type="submit" formmethod="get" formaction="./" name="aim" value="1">'
                   'Preview</button> ')
        try:
            aim = flick_aim(form, {k: [v] for k, v in prefill.items()}) if "angle" in prefill else None
        except FormRefused:
            aim = None
        if aim is not None:
            query = "&amp;".join(f"{k}={esc(str(v))}" for k, v in zip(("angle", "power", "piece", "hand"), aim, strict=True)
                                 if v is not None)
            image = (f'<p class="aim"><img src="aim/{version}.png?{query}" alt="Your aim preview at '
                     f'angle {aim[0]:g} and power {aim[1]:g}: the dashed line is the path without '
                     f'wobble, ringed discs show where discs would stop."></p>')
    else:
        preview = '<span class="hint">Eyes Closed: no aim preview this Generation.</span> '
    return f'<ul>{"".join(rows)}</ul><p>{preview}<button type="submit">{esc(form.submit)}</button></p>{image}'


def form_html(form: WebForm, token: str, ticket: str, names: Sequence[str],
              prefill: Mapping[str, str] | None = None, version: int = 0) -> str:
    """The form's HTML (posted to the page's ``act``, with the page's token and the ticket;
    ``prefill``: a flick's aim from a preview)."""
    head = (f'<form method="post" action="act" class="pick">'
            f'<input type="hidden" name="form" value="{esc(token)}">'
            f'<input type="hidden" name="ticket" value="{esc(ticket)}">'
            f'<input type="hidden" name="answer" value="form">'
            f'<p class="hint">{esc(form.hint)}</p>')
    if form.style == "flick":  # (its own buttons: Preview beside Flick, the preview under them)
        return f'{head}{_flick_html(form, prefill or {}, version)}</form>'
    draw = _BODIES.get(form.style)
    if draw is not None:
        body = draw(form, names)
    else:
        rows = _ROWS.get(form.style, _no_rows)(form, names)
        body = f'<ul>{"".join(rows)}</ul>' if rows else ""
    return f'{head}{body}<p><button type="submit">{esc(form.submit)}</button></p></form>'


def _temple_html(form: WebForm, names: Sequence[str]) -> str:
    who = "".join(f'<option value="{i}">{esc(item.label)}</option>' for i, item in enumerate(form.items))
    rows = ['<li><label>x <input type="number" name="x" min="0" max="100" step="any" required></label> '
            '<label>y <input type="number" name="y" min="0" max="100" step="any" required></label></li>']
    if len(form.items) > 1:
        rows.append(f'<li><label>Built by <select name="prophet">{who}</select></label></li>')
    return f'<ul>{"".join(rows)}</ul>'


_BODIES: dict[str, Callable[[WebForm, Sequence[str]], str]] = {
    "orders": _orders_html,
    "temple": _temple_html,
}
"""The forms drawn whole by a function of their own (above the submit button)."""


def _boxes_rows(form: WebForm, names: Sequence[str]) -> list[str]:
    rows: list[str] = []
    for i, item in enumerate(form.items):
        note = f' <span class="desc">{humanised(item.note, names)}</span>' if item.note else ""
        rows.append(f'<li><label><input type="checkbox" name="pick" value="{i}"> '
                    f'{humanised(item.label, names)}</label>{note}</li>')
    return rows


def _one_rows(form: WebForm, names: Sequence[str]) -> list[str]:
    rows = [f'<li><label><input type="radio" name="pick" value="{i}"> {humanised(item.label, names)}</label></li>'
            for i, item in enumerate(form.items)]
    rows.append('<li><label>Or a deck code <input type="text" name="code" maxlength="4000" '
                'autocomplete="off" spellcheck="false"></label></li>')
    return rows


def _counts_rows(form: WebForm, names: Sequence[str]) -> list[str]:
    return [f'<li><label><input type="number" name="count-{i}" value="0" min="0" '
            f'max="{item.most}" inputmode="numeric"> {humanised(item.label, names)}</label>'
            f' <span class="desc">(you have {item.most})</span></li>' for i, item in enumerate(form.items)]


def _order_rows(form: WebForm, names: Sequence[str]) -> list[str]:
    options = "".join(f'<option value="{i}">{humanised(item.label, names)}</option>'
                      for i, item in enumerate(form.items))
    rows: list[str] = []
    for place in range(len(form.items)):
        chosen = options.replace(f'<option value="{place}">', f'<option value="{place}" selected>', 1)
        rows.append(f'<li><label>Place {place + 1}{" (top)" if place == 0 else ""} '
                    f'<select name="at">{chosen}</select></label></li>')
    return rows


def _lineup_rows(form: WebForm, names: Sequence[str]) -> list[str]:
    options = '<option value="">—</option>' + "".join(
        f'<option value="{i}">{humanised(item.label, names)}'
        + (f" — {esc(item.note)}" if item.note else "") + "</option>"
        for i, item in enumerate(form.items)) + "".join(
        f'<option value="z{t}">believer {t} from the graveyard</option>' for t in form.extra.get("grave") or [])
    return [f'<li><label>{"First" if place == 0 else f"Then, {place + 1}."} '
            f'<select name="at">{options}</select></label></li>'
            for place in range(form.extra.get("places", form.most))]


def _no_rows(form: WebForm, names: Sequence[str]) -> list[str]:
    return []


_ROWS: dict[str, Callable[[WebForm, Sequence[str]], list[str]]] = {
    "boxes": _boxes_rows,
    "one": _one_rows,
    "counts": _counts_rows,
    "order": _order_rows,
    "lineup": _lineup_rows,
}
"""The forms drawn as a list of rows, one function per style."""


__all__ = ["FormRefused", "Item", "WebForm", "aim_png", "flick_aim", "form_action", "form_html",
           "web_form"]
