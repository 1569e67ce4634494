"""Games stored before the rules revision (state layout 1): they load, replay from their seed and
log to their stored state, and carry on under the rules they began with; a game stored while
decks or opening hands were still being chosen goes on under the rulebook's rules.

``legacy_game.json`` is a game as the earlier Herald stored it: seed, options, action log, the
stored state after 12 turns and the state it stored after the third move."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from rules.alternate_histories import ENGINE
from rules.alternate_histories.state import LEGACY_RULES, RULES
from rules.engine import REVISION_OPTION

STORED: dict[str, Any] = json.loads((Path(__file__).parent / "legacy_game.json").read_text("utf-8"))
LOG = [(seat, action) for seat, action in STORED["log"]]


def test_a_game_stored_before_the_rules_revision_loads_under_its_own_rules() -> None:
    assert STORED["state"]["schema_version"] == 1 and "rules" not in STORED["state"]
    s = ENGINE.from_json(STORED["state"])
    assert s.rules == LEGACY_RULES and s.phase == "turn"
    assert ENGINE.view(s, None)["rules"] == LEGACY_RULES
    # What the earlier layout held is read unchanged.
    again = ENGINE.to_json(s)
    assert {k: v for k, v in again.items() if k not in ("rules", "schema_version")} == {
        k: v for k, v in STORED["state"].items() if k != "schema_version"}


def test_an_old_game_replays_from_its_seed_and_log_to_its_stored_state() -> None:
    replayed = ENGINE.replay(2, STORED["seed"], STORED["options"], LOG)
    assert replayed.rules == LEGACY_RULES
    assert ENGINE.to_json(replayed) == ENGINE.to_json(ENGINE.from_json(STORED["state"]))


def test_an_old_game_continues_to_its_end_and_the_whole_log_replays() -> None:
    s = ENGINE.from_json(STORED["state"])
    log = list(LOG)
    rng = random.Random(7)
    while ENGINE.result(s) is None:
        p = rng.choice(ENGINE.prompts(s))
        action = ENGINE.bot_action(ENGINE.view(s, p.seat), p, rng)
        s, _ = ENGINE.apply(s, p.seat, action)
        log.append((p.seat, action))
        assert s.rules == LEGACY_RULES
    assert len(log) > len(LOG) and ENGINE.result(s) is not None
    replayed = ENGINE.replay(2, STORED["seed"], STORED["options"], log)
    assert ENGINE.to_json(replayed) == ENGINE.to_json(s)


def test_an_old_game_still_choosing_its_opening_goes_on_under_the_rulebooks_rules() -> None:
    early = STORED["state_after_3_moves"]
    s = ENGINE.from_json(early)
    assert early["phase"] == "opening" and s.rules == RULES
    replayed = ENGINE.replay(2, STORED["seed"], STORED["options"], LOG[:3])
    assert ENGINE.to_json(replayed) == ENGINE.to_json(s)
    s, _ = ENGINE.apply(s, *LOG[3])
    assert s.phase == "turn" and s.rules == RULES


def test_a_new_game_is_set_up_under_the_rulebooks_rules_and_stores_them() -> None:
    s = ENGINE.setup(2, 5)
    data = ENGINE.to_json(s)
    assert s.rules == RULES and data["rules"] == RULES and data["schema_version"] == 2
    assert ENGINE.to_json(ENGINE.from_json(data)) == data


def stored_by_the_earlier_herald(state: Any) -> dict[str, Any]:
    """A state as the Herald before the revision stored it: layout 1, no rules field."""
    data = ENGINE.to_json(state)
    del data["rules"]
    return {**data, "schema_version": 1}


def test_an_old_game_stored_at_any_move_replays_exactly_with_the_revision_its_state_records() -> None:
    """Early in a game both revisions accept the same moves, so the log alone cannot tell which
    rules it was played by (replaying it under today's rules gives another deck order). The
    platform reads the revision from the stored state (``replay_options``) and replays under it."""
    exact_by_guess = 0
    checked = 0
    for k in range(4, len(LOG) + 1):
        old = ENGINE.replay(2, STORED["seed"], {**STORED["options"], REVISION_OPTION: LEGACY_RULES}, LOG[:k])
        stored = stored_by_the_earlier_herald(old)
        expected = ENGINE.to_json(ENGINE.from_json(stored))
        options = ENGINE.replay_options(STORED["options"], stored)
        assert options[REVISION_OPTION] == LEGACY_RULES
        assert ENGINE.to_json(ENGINE.replay(2, STORED["seed"], options, LOG[:k])) == expected, k
        guessed = ENGINE.replay(2, STORED["seed"], STORED["options"], LOG[:k])
        exact_by_guess += ENGINE.to_json(guessed) == expected
        checked += 1
    assert exact_by_guess < checked  # the log alone is not enough: the recorded revision is needed


def test_a_new_table_records_its_rules_revision_and_replays_under_it() -> None:
    s = ENGINE.setup(2, 5, {REVISION_OPTION: RULES})
    assert s.rules == RULES
    assert ENGINE.replay_options({REVISION_OPTION: RULES}, ENGINE.to_json(s)) == {REVISION_OPTION: RULES}
    assert ENGINE.setup(2, 5, {REVISION_OPTION: LEGACY_RULES}).rules == LEGACY_RULES
