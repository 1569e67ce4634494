"""Games stored before rules revision 2 (state layout 1): they load, replay from their seed and
log to their stored state, and carry on under the rules they began with (revision 1).

``legacy_games.json`` holds two games as the earlier Herald stored them — one of three players
part-way through, one solo game — each with its seed, options, action log and stored state."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from rules.engine import REVISION_OPTION
from rules.petition import ENGINE
from rules.petition.content import PILLAR_STAND
from rules.petition.engine import RULES

STORED: list[dict[str, Any]] = json.loads(
    (Path(__file__).parent / "legacy_games.json").read_text("utf-8"))["games"]
IDS = [f"{g['players']}-players" for g in STORED]


def _log(game: dict[str, Any]) -> list[tuple[int, dict[str, Any]]]:
    return [(seat, action) for seat, action in game["log"]]


@pytest.mark.parametrize("game", STORED, ids=IDS)
def test_a_game_stored_before_rules_revision_2_loads_under_its_own_rules(game: dict[str, Any]) -> None:
    assert game["state"]["schema_version"] == 1 and "rules" not in game["state"]
    s = ENGINE.from_json(game["state"])
    assert s.rules == 1 and s.stand == PILLAR_STAND  # its pillars still stand 3
    assert ENGINE.view(s, None)["options"]["rules"] == 1
    again = ENGINE.to_json(s)
    assert {k: v for k, v in again.items() if k not in ("rules", "stand", "schema_version")} == {
        k: v for k, v in game["state"].items() if k != "schema_version"}


@pytest.mark.parametrize("game", STORED, ids=IDS)
def test_an_old_game_replays_from_its_seed_and_log_to_its_stored_state(game: dict[str, Any]) -> None:
    replayed = ENGINE.replay(game["players"], game["seed"], game["options"], _log(game))
    assert replayed.rules == 1
    assert ENGINE.to_json(replayed) == ENGINE.to_json(ENGINE.from_json(game["state"]))


@pytest.mark.parametrize("game", STORED, ids=IDS)
def test_an_old_game_continues_to_its_end_and_the_whole_log_replays(game: dict[str, Any]) -> None:
    s = ENGINE.from_json(game["state"])
    log = _log(game)
    rng = random.Random(7)
    while ENGINE.result(s) is None:
        p = ENGINE.prompts(s)[0]
        action = ENGINE.bot_action(ENGINE.view(s, p.seat), p, rng)
        s, _ = ENGINE.apply(s, p.seat, action)
        log.append((p.seat, action))
        assert s.rules == 1
    assert len(log) > len(game["log"])
    replayed = ENGINE.replay(game["players"], game["seed"], game["options"], log)
    assert ENGINE.to_json(replayed) == ENGINE.to_json(s)


@pytest.mark.parametrize("game", STORED, ids=IDS)
def test_an_old_game_replays_exactly_under_the_revision_read_from_its_stored_state(
        game: dict[str, Any]) -> None:
    """The platform reads the revision from the stored state (``replay_options``) and replays
    under it alone: no trial of the current rules first."""
    opts = ENGINE.replay_options(game["options"], game["state"])
    assert opts[REVISION_OPTION] == 1
    replayed = ENGINE.replay(game["players"], game["seed"], opts, _log(game))
    assert ENGINE.to_json(replayed) == ENGINE.to_json(ENGINE.from_json(game["state"]))
    assert ENGINE.setup(game["players"], game["seed"], opts).rules == 1


def test_a_table_that_records_revision_2_is_set_up_and_replayed_under_it() -> None:
    opts = {REVISION_OPTION: 2}
    s = ENGINE.setup(3, 5, opts)
    assert s.rules == 2 and ENGINE.revision_of(s) == 2 and ENGINE.rules_revision == 2
    rng = random.Random(3)
    log = []
    for _ in range(40):
        p = ENGINE.prompts(s)[0]
        action = ENGINE.bot_action(ENGINE.view(s, p.seat), p, rng)
        s, _ = ENGINE.apply(s, p.seat, action)
        log.append((p.seat, action))
    assert ENGINE.to_json(ENGINE.replay(3, 5, opts, log)) == ENGINE.to_json(s)


def test_a_new_game_is_set_up_under_rules_revision_2_and_stores_it() -> None:
    for players in (1, 3):
        s = ENGINE.setup(players, 5)
        data = ENGINE.to_json(s)
        assert s.rules == RULES == 2 and data["rules"] == 2 and data["schema_version"] == 2
        assert data["stand"] == 0
        assert ENGINE.to_json(ENGINE.from_json(data)) == data
