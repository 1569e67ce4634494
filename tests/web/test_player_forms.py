"""Decisions a player page answers with a form of its own (``bot.web.forms``): Alternate
Histories' deck, opening hand and card picks, Petition's card picks, Hegemony of Faith's line-ups,
Flick of Faith's flicks with their aim preview and temples, Cult Wars orders (each game's games' whole seeded games decide with
them in ``test_player_secrets.py``) — each read back into the
engine's action, applied once through the session, and refused when it is not an answer the form
offers (nothing applied)."""

from __future__ import annotations

import random
import re
from typing import Any

from bot.session import Ticket
from bot.web import WebServer
from bot.web.forms import form_action, web_form
from rules import registry
from rules.engine import Prompt
from tests.support.sessions import GUEST, HOST, Env
from tests.web.conftest import Client
from tests.web.test_player_pages import notice_of, player_path


def fields_for(key: str, prompt: Prompt, action: dict[str, Any],
               view: dict[str, Any] | None = None) -> dict[str, list[str]]:
    """The form fields a player would fill in to send ``action`` (the computer player's)."""
    form = web_form(key, prompt, view)
    assert form is not None
    if form.style == "orders":
        if action.get("type") != "orders" or action.get("loss_order") not in (None, "proportional"):
            raise ValueError("not orders the form can write")
        x = form.extra
        out: dict[str, list[str]] = {}
        if x["fixed"] is None:
            out["target"] = [str(action["target"])]
        free = list(enumerate(x["values"]))
        for slot, values in (action.get("slots") or {}).items():
            for v in values:
                i = next(i for i, value in free if value == v)
                free.remove((i, v))
                out[f"card-{i}"] = [slot]
        ids = [str(c["id"]) for c in x["hand"]]
        for play in action.get("actions") or []:
            j = ids.index(play["card"])
            out.setdefault("play", []).append(str(j))
            if play.get("target") is not None:
                out[f"aim-{j}"] = [str(play["target"])]
        face = action.get("face_up") or []
        if face == "all":
            raise ValueError("all face up")
        if face:
            out["face"] = [str(f) for f in face]
        return out
    if form.style == "temple":
        if action.get("type") != "build":
            raise ValueError("not a temple")
        out = {"x": [repr(float(action["x"]))], "y": [repr(float(action["y"]))]}
        if action.get("prophet") is not None:
            out["prophet"] = [str([item.note for item in form.items].index(str(action["prophet"])))]
        return out
    if form.style == "flick":
        if action.get("type") != "flick":
            raise ValueError("not a flick")
        out = {"angle": [repr(float(action["angle"]))], "power": [repr(float(action["power"]))]}
        for name in ("piece", "hand"):
            if action.get(name) is not None:
                out[name] = [str(action[name])]
        return out
    if form.style == "lineup":
        held = sorted({int(b["id"]) for b in (view or {})["private"]["believers"]})
        at = [str(held.index(t)) for t in action["order"]]
        return {"at": at + [""] * (form.most - len(at))}
    if form.style == "one":
        return {"pick": [str(list(prompt.params["ready"]).index(action["ready"]))]}
    ids = [str(c["id"]) for c in prompt.params["cards"]]
    if form.style == "counts":
        return {f"count-{i}": [str(action["cards"].count(c))] for i, c in enumerate(ids)}
    unpicked = list(range(len(ids)))
    picked = []
    for card in action["cards"]:
        i = next(i for i in unpicked if ids[i] == card)
        unpicked.remove(i)
        picked.append(str(i))
    return {"at" if form.style == "order" else "pick": picked}


def page_form(body: str) -> dict[str, str]:
    form = re.search(r'<form method="post" action="act" class="pick"><input type="hidden" name="form" '
                     r'value="([^"]+)"><input type="hidden" name="ticket" value="([^"]+)">', body)
    assert form, "the page has no form for this decision"
    return {"form": form[1], "ticket": form[2], "answer": "form"}


async def _post(client: Client, path: str, body: str, fields: dict[str, list[str]]) -> tuple[int, str]:
    data = [(k, v) for k, v in page_form(body).items()] + [(k, v) for k, vs in fields.items() for v in vs]
    r = await client.post(path + "act", data=data)
    return r.status, notice_of(await r.text())


async def _ah(env: Env) -> int:
    s = env.sessions
    table = await s.open_table(guild_id=1, channel_id=2, host_id=HOST, host_name="Ann",
                               game_key="alternate_histories", seed=4)
    await s.join(table.id, GUEST, "Bo")
    await s.start(table.id, HOST)
    return table.id


async def test_a_deck_and_an_opening_hand_are_chosen_from_the_page(env: Env, web: WebServer,
                                                                  client: Client) -> None:
    game_id = await _ah(env)
    path = await player_path(web, env, game_id, 0)
    body = await (await client.get(path)).text()
    assert 'type="radio" name="pick"' in body and "on-discord" not in body
    status, said = await _post(client, path, body, {"pick": ["99"]})
    assert status == 409 and said.startswith("Nothing was applied")
    mine = (await env.sessions.snapshot(game_id)).prompt_of(0)
    assert mine is not None and mine.prompt.kind == "deck"
    ready = list(mine.prompt.params["ready"])
    status, said = await _post(client, path, body, {"pick": ["3"]})
    assert (status, said) == (200, "Done: your answer was sent.")
    log = await env.storage.actions(game_id)
    assert log[-1][:2] == (0, {"type": "deck", "ready": ready[3]})
    # the same form sent again counts once
    status, said = await _post(client, path, body, {"pick": ["3"]})
    assert status == 409 and said.startswith("You already answered")
    assert len(await env.storage.actions(game_id)) == len(log)


async def test_an_opening_hand_of_the_wrong_size_is_refused_and_the_right_one_kept(
        env: Env, web: WebServer, client: Client) -> None:
    game_id = await _ah(env)
    s = env.sessions
    for seat in (0, 1):  # both choose their deck
        mine = (await s.snapshot(game_id)).prompt_of(seat)
        assert mine is not None and mine.prompt.kind == "deck"
        await s.act(game_id, seat, {"type": "deck", "ready": mine.prompt.params["ready"][seat]},
                    answers=Ticket(mine.opened))
    mine = (await s.snapshot(game_id)).prompt_of(0)
    assert mine is not None and mine.prompt.kind == "opening"
    path = await player_path(web, env, game_id, 0)
    body = await (await client.get(path)).text()
    assert 'type="number" name="count-0"' in body
    before = len(await env.storage.actions(game_id))
    status, said = await _post(client, path, body, {"count-0": ["1"]})
    assert status == 409 and "choose 7 cards in all, not 1" in said
    status, said = await _post(client, path, body, {"count-0": ["9"]})
    assert status == 409 and "you hold" in said
    action = registry.get("alternate_histories").bot_action(
        (await s.snapshot(game_id)).view(0), mine.prompt, random.Random(1))
    status, said = await _post(client, path, body, fields_for("alternate_histories", mine.prompt, action))
    assert status == 200
    log = await env.storage.actions(game_id)
    assert len(log) == before + 1 and sorted(log[-1][1]["cards"]) == sorted(action["cards"])


def test_a_form_reads_back_only_what_it_offers() -> None:
    prompt = Prompt(0, "attack", "Lay cards.", free_form="cards", params={
        "cards": [{"id": "PT01", "name": "A", "text": "x"}, {"id": "PT02", "name": "B", "text": "y"}],
        "min": 1, "max": 1})
    assert form_action("petition", prompt, {"pick": ["1"]}) == {"type": "cards", "cards": ["PT02"]}
    refused: list[dict[str, list[str]]] = [
        {"pick": ["0", "1"]}, {"pick": []}, {"pick": ["2"]}, {"pick": ["-1"]}, {"pick": ["x"]},
        {"pick": ["1", "1"]}]
    for bad in refused:
        try:
            form_action("petition", prompt, bad)
        except Exception as exc:
            assert type(exc).__name__ == "FormRefused"
        else:
            raise AssertionError(f"{bad} was read as an answer")
    reorder = Prompt(0, "reorder", "Order.", free_form="pick", params={
        "cards": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}, {"id": "a", "name": "A"}],
        "count": 3, "min": 3})
    assert form_action("alternate_histories", reorder, {"at": ["2", "1", "0"]}) == \
        {"type": "pick", "cards": ["a", "b", "a"]}
    try:
        form_action("alternate_histories", reorder, {"at": ["1", "1", "0"]})
    except Exception as exc:
        assert "each card in one place" in str(exc)
    else:
        raise AssertionError("a card put in two places was read as an answer")



def test_every_form_a_page_offers_is_read_back_by_a_reader_of_its_style() -> None:
    """Each free-form decision with a form on the page belongs to a built-in game, and the form it
    gives (here from empty parameters) has a reader of its own style, not the fallback's."""
    from bot.web.forms import _ACTIONS, _FORMS

    for (key, free_form), build in _FORMS.items():
        assert key in registry.GAMES, key
        form = build(Prompt(0, "decide", "Decide.", free_form=free_form), None)
        assert form.style in _ACTIONS, (key, free_form, form.style)
        assert web_form(key, Prompt(0, "decide", "Decide.", free_form=free_form)) == form

async def test_a_flick_is_previewed_and_made_from_the_page(env: Env, web: WebServer, client: Client) -> None:
    s = env.sessions
    table = await s.open_table(guild_id=1, channel_id=2, host_id=HOST, host_name="Ann",
                               game_key="flick_of_faith", seed=3)
    await s.join(table.id, GUEST, "Bo")
    await s.start(table.id, HOST)
    engine = registry.get("flick_of_faith")
    rng = random.Random(3)
    for _ in range(60):  # on until a member is asked to flick
        snap = await s.snapshot(table.id)
        mine = next((o for o in snap.open if o.prompt.free_form == "flick"), None)
        if mine is not None:
            break
        o = snap.open[0]
        await s.act(table.id, o.seat, engine.bot_action(snap.view(o.seat), o.prompt, rng), answers=o.ticket)
    assert mine is not None
    game = await s.get(table.id)
    path = await player_path(web, env, table.id, mine.seat)
    body = await (await client.get(path)).text()
    assert 'name="angle"' in body and 'name="power"' in body and 'formmethod="get"' in body
    # a preview is a GET: nothing applied, the page shows the aim
    shown = await (await client.get(path + "?angle=12.5&power=6&aim=1")).text()
    aim = re.search(r'<img src="(aim/\d+\.png\?[^"]+)"', shown)
    assert aim and 'value="12.5"' in shown
    png = await client.get(path + aim[1].replace("&amp;", "&"))
    assert png.status == 200 and (await png.read()).startswith(b"\x89PNG")
    assert (await client.get(path + f"aim/{game.version}.png?angle=12.5&power=60")).status == 404
    before = len(await env.storage.actions(table.id))
    status, said = await _post(client, path, body, {"angle": ["12.5"], "power": ["60"]})
    assert status == 409 and "power must be a number from 1 to 10" in said
    status, said = await _post(client, path, body, {"angle": ["12.5"], "power": ["6"]})
    assert status == 200
    log = await env.storage.actions(table.id)
    assert log[before][:2][0] == mine.seat and log[before][1]["type"] == "flick"
    assert (log[before][1]["angle"], log[before][1]["power"]) == (12.5, 6.0)


async def test_cult_wars_orders_are_written_and_changed_from_the_page(env: Env, web: WebServer,
                                                                     client: Client) -> None:
    s = env.sessions
    table = await s.open_table(guild_id=1, channel_id=2, host_id=HOST, host_name="Ann",
                               game_key="cult_wars", seed=9)
    await s.join(table.id, GUEST, "Bo")
    await s.join(table.id, 1003, "Cy")
    await s.start(table.id, HOST)
    for seat in range(3):  # every cult chooses its target (the insignia step)
        mine = (await s.snapshot(table.id)).prompt_of(seat)
        assert mine is not None and mine.prompt.kind == "target"
        await s.act(table.id, seat, dict(mine.prompt.choices[0].action), answers=mine.ticket)
    path = await player_path(web, env, table.id, 0)
    body = await (await client.get(path)).text()
    assert 'name="card-0"' in body and "on-discord" not in body
    hand = registry.get("cult_wars").view(s.state_of(await s.get(table.id)), 0)["private"]["hand"]
    fields = {"card-4": ["attack"], "card-3": ["defend"], "card-0": ["breed"], "play": ["0"],
              "face": ["attack"]}
    status, said = await _post(client, path, body, {**fields, "card-5": ["sacrifice"]})
    assert status == 409 and "Nothing was applied" in said  # (5 + 3 + 1 + 8 followers: more than 12)
    status, said = await _post(client, path, body, fields)
    assert (status, said) == (200, "Done: your answer was sent.")
    sent = (await env.storage.actions(table.id))[-1]
    assert sent[0] == 0 and sent[1]["slots"] == {"attack": [5], "defend": [3], "sacrifice": [], "breed": [1]}
    assert sent[1]["actions"][0]["card"] == hand[0]["id"] and sent[1]["face_up"] == ["attack"]
    # until every cult has sent theirs, the page offers to change them
    again = await (await client.get(path)).text()
    assert "You may still change it" in again
    status, said = await _post(client, path, again, {"card-4": ["defend"]})
    assert status == 409 and "Nothing was applied" in said  # (an attack laid face up stays as it was)
    status, said = await _post(client, path, again, {**fields, "card-1": ["sacrifice"]})
    assert status == 200
    changed = (await env.storage.actions(table.id))[-1]
    assert changed[1]["replace"] is True and changed[1]["slots"]["sacrifice"] == [1]


def test_a_zombie_army_line_up_raises_graveyard_believers_from_the_page() -> None:
    prompt = Prompt(0, "lineup", "Line up.", free_form="lineup", params={"min": 2, "max": 2, "zombies": True})
    view = {"graveyard": [3, 3, 5], "private": {"believers": [
        {"id": 4, "name": "Elder", "beats": [3, 2]}, {"id": 1, "name": "Fool", "beats": [5, 4]}]}}
    form = web_form("hegemony_of_faith", prompt, view)
    assert form is not None and form.extra["places"] == 5
    assert form_action("hegemony_of_faith", prompt, {"at": ["1", "z3", "0", "", "z5"]}, view) == \
        {"type": "lineup", "order": [4, "z3", 1, "z5"]}
    for bad in ({"at": ["1", "z3"]}, {"at": ["0", "1", "z4"]}, {"at": ["0", "1", "1"]}):
        try:
            form_action("hegemony_of_faith", prompt, bad, view)
        except Exception as exc:
            assert type(exc).__name__ == "FormRefused", bad
        else:
            raise AssertionError(f"{bad} was read as a line-up")


def test_a_deck_of_ones_own_is_sent_by_its_code() -> None:
    prompt = Prompt(0, "deck", "Choose.", free_form="deck", params={"ready": ["france-capitalism", "usa-autocracy"]})
    assert form_action("alternate_histories", prompt, {"pick": ["1"]}) == {"type": "deck", "ready": "usa-autocracy"}
    assert form_action("alternate_histories", prompt, {"pick": [], "code": [" HAH1-abc "]}) == \
        {"type": "deck", "code": "HAH1-abc"}
    try:
        form_action("alternate_histories", prompt, {"pick": [], "code": [""]})
    except Exception as exc:
        assert "choose one deck, or paste a deck code" in str(exc)
    else:
        raise AssertionError("nothing chosen was read as a deck")
