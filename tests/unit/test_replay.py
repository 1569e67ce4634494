"""Export, replays and the rematch's seating (``bot.replay``).

The export of a running game holds public information only — for every game, at several points
of a seeded game played by computer players, no secret answer, no event for one seat's eyes, no
seed, no hand and nothing any seat holds in secret appears in it — and two games that differ only
in a secret answer export the very same bytes. Once the game is over, everything is in it.
Replays draw one board per step and one bounded GIF; the command line writes them from the
database."""

from __future__ import annotations

import asyncio
import io
import json
import random
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from PIL.GifImagePlugin import GifImageFile

from bot import replay
from bot.__main__ import main as cli
from bot.config import Config
from bot.replay import (
    Frame,
    animated_replay,
    encode_gif,
    export_data,
    export_file,
    rematch_order,
    render,
    replay_frames,
)
from bot.session import Sessions
from bot.storage import EventRow, GameRow, SeatRow, open_storage
from rules import registry
from rules.engine import Engine, Event

Actions = list[tuple[int, dict[str, Any], str]]


def played(key: str, steps: int, seed: int = 918273645, players: int | None = None,
           answers: dict[int, dict[str, Any]] | None = None) -> tuple[GameRow, Actions, list[EventRow]]:
    """A game of ``key`` after ``steps`` actions of computer players (``answers``: the action to
    take instead at a given step), as the storage would hold it."""
    engine: Engine[Any] = registry.get(key)
    n = players or engine.min_players
    state = engine.setup(n, seed, {})
    rng = random.Random(seed)
    actions: Actions = []
    events: list[EventRow] = []
    for step in range(1, steps + 1):
        prompts = engine.prompts(state)
        if not prompts:
            break
        p = prompts[0]
        action = (answers or {}).get(step) or engine.bot_action(engine.view(state, p.seat), p, rng)
        state, told = engine.apply(state, p.seat, action)
        actions.append((p.seat, action, "bot"))
        events += [_row(len(events) + 1, step + 1, e) for e in told]
    over = engine.result(state)
    game = GameRow(id=3, guild_id=1, channel_id=2, thread_id=None, game_key=key,
                   status="finished" if over else "active", version=len(actions) + 1, seed=seed,
                   options={}, state=engine.to_json(state), host_id=None, deadline=None,
                   result=over.to_json() if over else None,
                   seats=[SeatRow(k, 100 + k, False, f"Player{k}") for k in range(n)])
    return game, actions, events


def _row(n: int, version: int, e: Event) -> EventRow:
    return EventRow(n, version, e.text, list(e.to) if e.to is not None else None, e.kind, e.data, 0.0)


def tokens(data: Any) -> set[str]:
    out: set[str] = set()

    def walk(v: Any) -> None:
        if isinstance(v, str):
            out.add(v)
        elif isinstance(v, dict):
            for k, x in v.items():
                out.add(k)
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)

    walk(data)
    return out


def secret_steps(key: str, game: GameRow, actions: Actions) -> set[int]:
    """Steps (1-based) that answered a secret decision, found independently of the export."""
    engine: Engine[Any] = registry.get(key)
    state = engine.setup(len(game.seats), game.seed, {})
    out = set()
    for n, (seat, action, _) in enumerate(actions, start=1):
        p = next((p for p in engine.prompts(state) if p.seat == seat), None) or engine.revisable(state, seat)
        if p is None or p.secret:
            out.add(n)
        state, _ = engine.apply(state, seat, action)
    return out


GAMES = sorted(registry.all_engines())


@pytest.mark.parametrize("key", GAMES)
def test_a_running_game_exports_only_public_information(key: str) -> None:
    engine: Engine[Any] = registry.get(key)
    checked = 0
    for steps in (1, 4, 11, 23):
        game, actions, events = played(key, steps)
        if game.status != "active":
            continue
        checked += 1
        out = export_data(game, actions, events)
        text = json.dumps(out)
        assert out["complete"] is False
        assert not {"seed", "state", "hands", "result"} & set(out), "secrets of a running game exported"
        assert str(game.seed) not in text
        state = engine.from_json(game.state or {})
        held = {m for k in range(len(game.seats)) for m in engine.secret_markers(state, k)}
        assert not held & tokens(out), f"{key}: a card held in secret is in the export"
        assert all(e["text"] for e in out["events"]) and all("to" not in e for e in out["events"])
        assert len(out["events"]) == sum(1 for e in events if e.to is None)
        assert [e["n"] for e in out["events"]] == list(range(1, len(out["events"]) + 1))  # no gaps
        assert out["board"] == engine.view(state, None) and "private" not in out["board"]
        secret = secret_steps(key, game, actions)
        for row in out["actions"]:
            if row["step"] in secret:
                assert row["secret"] is True and "action" not in row, f"{key}: a secret answer exported"
        assert [r["step"] for r in out["actions"]] == list(range(1, len(actions) + 1))
        assert [s["name"] for s in out["seats"]] == [s.name for s in game.seats]
    assert checked, f"{key}: no running game was checked"


@pytest.mark.parametrize("key", GAMES)
def test_a_finished_game_exports_everything(key: str) -> None:
    engine: Engine[Any] = registry.get(key)
    game, actions, events = played(key, 5000)
    assert game.status == "finished"
    out = export_data(game, actions, events)
    assert out["complete"] is True and out["seed"] == game.seed and out["result"] == game.result
    assert [r["action"] for r in out["actions"]] == [a for _, a, _ in actions]
    assert len(out["events"]) == len(events)  # private ones too, with whom they were for
    assert [e["to"] for e in out["events"]] == [e.to for e in events]
    state = engine.from_json(game.state or {})
    assert out["state"] == engine.to_json(state)
    assert out["hands"] == {f"P{k + 1}": engine.view(state, k).get("private") for k in range(len(game.seats))}


def test_two_games_differing_only_in_a_secret_answer_export_the_same_bytes() -> None:
    """High Card Duel: P1 bids 1 in one game and 5 in the other; P2 has not bid yet."""
    low = played("duel", 1, answers={1: {"type": "bid", "card": 1}})
    high = played("duel", 1, answers={1: {"type": "bid", "card": 5}})
    assert low[0].state != high[0].state
    a, b = (json.dumps(export_data(*g)) for g in (low, high))
    assert a == b
    assert '"secret": true' in a and "You bid" not in a
    # once the bids are revealed (the round is over) the same answer is public in the events
    after = played("duel", 3, answers={1: {"type": "bid", "card": 5}})
    assert "Bids revealed" in json.dumps(export_data(*after))


def test_a_public_answer_naming_a_card_still_held_in_secret_is_withheld() -> None:
    """An action of a public decision is exported, unless it names something some seat still
    holds in secret (a card passed face down): the markers of the state decide."""
    game, actions, events = played("duel", 3)
    engine = registry.get("duel")
    original = engine.secret_markers
    try:
        engine.secret_markers = lambda state, seat: ["gold"] if seat == 0 else []  # type: ignore[method-assign]
        out = export_data(game, actions, events)
    finally:
        engine.secret_markers = original  # type: ignore[method-assign]
    claim = [r for r in out["actions"] if r["kind"] == "claim"]
    assert claim
    for r in claim:
        assert ("action" in r) == (actions[r["step"] - 1][1]["type"] != "gold")


def test_a_log_that_does_not_replay_exports_only_who_acted() -> None:
    game, actions, events = played("duel", 3)
    broken = [(seat, {"type": "bid", "card": 99}, origin) for seat, _, origin in actions]
    out = export_data(game, broken, events)
    assert all(r["secret"] and "action" not in r for r in out["actions"])


def test_rematch_seats_keep_the_old_order() -> None:
    old = [SeatRow(0, 10, False, "Ann"), SeatRow(1, None, True, "Computer 2"), SeatRow(2, 20, False, "Bob"),
           SeatRow(3, 30, False, "Cy")]
    new = [SeatRow(0, 20, False, "Bob"), SeatRow(1, None, True, "Computer 2"), SeatRow(2, 10, False, "Ann")]
    assert [(s.seat, s.user_id, s.is_bot) for s in rematch_order(old, new)] == [
        (0, 10, False), (1, None, True), (2, 20, False)]  # Cy did not confirm: no gap


def test_replay_frames_stay_within_the_budget() -> None:
    board = Image.new("RGB", (40, 30), (200, 0, 0))
    clip = [Image.new("RGB", (30, 30), (0, v, 0)) for v in range(40)]
    frames = replay_frames([board] * 10, [[]] * 5 + [clip] * 5, budget=30)
    assert len(frames) <= 30 and frames[-1].ms == replay.LAST_MS
    assert sum(1 for f in frames if f.image is board) == 10  # every board shown
    assert clip[-1] in [f.image for f in frames]  # each animation ends where the move ended
    many = replay_frames([board] * 100, [[]] * 100, budget=30)
    assert len(many) == 30
    noise = [Frame(Image.frombytes("RGB", (330, 330), random.Random(i).randbytes(330 * 330 * 3)), 50)
             for i in range(3)]
    small = encode_gif(noise, max_bytes=130_000)  # narrower, then fewer frames, until it fits
    assert len(small) <= 130_000
    with Image.open(io.BytesIO(small)) as gif:
        assert isinstance(gif, GifImageFile)
        assert gif.width < 330 and gif.n_frames < 3
    tiny = encode_gif([Frame(board, 100), Frame(Image.new("RGB", (40, 30), (0, 0, 200)), 100)])  # narrow
    with Image.open(io.BytesIO(tiny)) as gif:
        assert isinstance(gif, GifImageFile)
        assert gif.size == board.size and gif.n_frames == 2


def test_render_writes_a_board_per_step_and_one_gif(tmp_path: Path) -> None:
    game, actions, _ = played("duel", 5000)
    written = render(game, actions, tmp_path)
    boards = sorted(p.name for p in tmp_path.glob("board_*.png"))
    assert boards == [f"board_{n:04d}.png" for n in range(len(actions) + 1)] == written[:-1]
    with Image.open(tmp_path / "replay.gif") as gif:
        assert isinstance(gif, GifImageFile)
        assert gif.n_frames == len(actions) + 1


def test_flick_of_faith_replays_its_flicks_in_motion() -> None:
    game, actions, _ = played("flick_of_faith", 4)
    flicks = sum(1 for _, a, _ in actions if a["type"] == "flick")
    assert flicks
    data = animated_replay(game, actions)
    assert len(data) <= replay.MAX_FILE_BYTES
    with Image.open(io.BytesIO(data)) as gif:
        assert isinstance(gif, GifImageFile)
        assert gif.n_frames > len(actions) + 1 + 2 * flicks - 1  # boards and every flick moving


# ------------------------------------------------------------------------- storage and CLI


def config(db: Path) -> Config:
    return Config(token=None, db_path=str(db), dev_guild=None, log_level="WARNING",
                  default_deadline=86400, reminder_lead=3600, docs_url="https://example.org/")


async def stored_duel(db: Path, *, finish: bool) -> int:
    """A duel between two computer players stored in ``db`` (finished), or a human and a computer
    player after the computer has bid (running)."""
    storage = open_storage(str(db))
    await storage.open()
    try:
        sessions = Sessions(storage, config(db))
        table = await sessions.open_table(guild_id=1, channel_id=2, host_id=None if finish else 5,
                                          host_name="Ann", game_key="duel", bots=2 if finish else 1,
                                          seed=11, host_plays=not finish)
        await sessions.start(table.id, None)
        return table.id
    finally:
        await storage.close()


def test_export_file_reads_the_whole_log_from_the_storage(tmp_path: Path) -> None:
    db = tmp_path / "herald.db"

    async def run() -> tuple[dict[str, Any], dict[str, Any]]:
        running = await stored_duel(db, finish=False)
        done = await stored_duel(db, finish=True)
        storage = open_storage(str(db))
        await storage.open()
        try:
            sessions = Sessions(storage, config(db))
            out = []
            for game_id in (running, done):
                game = await storage.get_game(game_id)
                assert game is not None
                name, data = await export_file(sessions, game)
                assert name.endswith(".json")
                out.append(json.loads(data))
            return out[0], out[1]
        finally:
            await storage.close()

    running, done = asyncio.run(run())
    assert running["complete"] is False and "seed" not in running
    assert running["actions"] and all(r.get("secret") for r in running["actions"])  # the computer's bid
    assert done["complete"] is True and done["seed"] == 11
    assert any(e.get("to") for e in done["events"])  # the private "You bid…" lines, now
    assert len(done["actions"]) >= 4


def test_the_command_line_renders_a_stored_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "herald.db"
    game_id = asyncio.run(stored_duel(db, finish=True))
    monkeypatch.setenv("HERALD_DB", str(db))
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    out = tmp_path / "boards"
    assert cli(["replay", str(game_id), "--render", str(out)]) == 0
    boards = sorted(out.glob("board_*.png"))
    assert len(boards) >= 5 and (out / "replay.gif").is_file()
    assert f"{len(boards)} boards" in capsys.readouterr().out
    # again into its own output: replaced; into a folder of other files: refused, untouched
    assert cli(["replay", str(game_id), "--render", str(out)]) == 0
    other = tmp_path / "mine"
    other.mkdir()
    (other / "notes.txt").write_text("keep me")
    assert cli(["replay", str(game_id), "--render", str(other)]) == 2
    err = capsys.readouterr().err
    assert "notes.txt" in err and "Traceback" not in err and (other / "notes.txt").read_text() == "keep me"
    assert cli(["replay", "999", "--render", str(tmp_path / "x")]) == 2
    assert "no game #999" in capsys.readouterr().err
    assert not (tmp_path / "x").exists()
    assert cli(["replay", str(game_id)]) == 0  # without --render: the replay check, as before
    monkeypatch.setenv("HERALD_DB", str(tmp_path / "missing.db"))
    assert cli(["replay", str(game_id), "--render", str(tmp_path / "y")]) == 2
    assert not (tmp_path / "missing.db").exists()
