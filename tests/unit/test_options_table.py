"""Game options are declared once, as a table per engine (``Engine.options``): the base class
checks them (one sentence per refusal), ``setup`` reads exactly them, and ``/rules`` and ``/play``
show the same table."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any, ClassVar, cast

import discord
import pytest

from bot.parsing import suggest_options
from bot.rulebook import option_lines, rules_embed
from cogs.tables import options_autocomplete
from rules import registry
from rules.engine import (
    REVISION_OPTION,
    Engine,
    InvalidOptions,
    Option,
    option_seat,
    seat_name,
)
from rules.search import HINTS, SEATS, STRENGTH, STRENGTH_OPTION, TABLE_OPTIONS, seat_strength
from tests.support.duel import DuelEngine

REPO = Path(__file__).resolve().parents[2]
TABLED = (*registry.GAMES, "duel")
"""Every game (and the tests' duel): each declares its options as a table."""


def engines() -> list[Any]:
    return [pytest.param(registry.get(key), id=key) for key in TABLED]


class Reads(dict[str, Any]):
    """Options that remember which keys were read."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.read: set[str] = set()

    def get(self, key: str, default: Any = None) -> Any:  # type: ignore[override]
        self.read.add(key)
        return super().get(key, default)

    def __getitem__(self, key: str) -> Any:
        self.read.add(key)
        return super().__getitem__(key)

    def __contains__(self, key: object) -> bool:
        self.read.add(str(key))
        return super().__contains__(key)


def _setup_reads(engine: Engine[Any], monkeypatch: pytest.MonkeyPatch) -> set[str]:
    checked = engine.validate_options
    seen: list[Reads] = []

    def recording(players: int, options: Any) -> Reads:
        seen.append(Reads(checked(players, options)))
        return seen[-1]

    monkeypatch.setattr(engine, "validate_options", recording)
    engine.setup(engine.min_players, 5, {})
    monkeypatch.undo()
    assert seen, "setup checks its options"
    return set().union(*(r.read for r in seen))


def _state(engine: Engine[Any], options: dict[str, Any]) -> str:
    return json.dumps(engine.to_json(engine.setup(engine.min_players, 5, options)), sort_keys=True)


def _other_values(option: Option, players: int) -> list[Any]:
    """Values of ``option`` other than its default."""
    if option.kind == "int":
        values: list[Any] = [option.lo, option.hi]
    elif option.kind == "bool":
        values = [True, False]
    elif option.kind == "seat":
        values = [seat_name(k) for k in range(players)]
    else:
        values = list(option.allowed)
    return [v for v in values if v != option.default]


# ------------------------------------------------------------------ the table is the only source


@pytest.mark.parametrize("engine", engines())
def test_the_help_of_each_option_is_made_from_the_table(engine: Engine[Any]) -> None:
    assert engine.options, "the engine declares its options"
    assert dict(engine.option_help) == {o.key: o.describe() for o in engine.options}


@pytest.mark.parametrize("engine", engines())
def test_setup_reads_exactly_the_declared_options(engine: Engine[Any],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    declared = {o.key for o in engine.options}
    read = _setup_reads(engine, monkeypatch)
    checked = {REVISION_OPTION, *(o.key for o in TABLE_OPTIONS)}  # (read to check them)
    assert read <= declared | checked, "setup reads only declared options"
    platform_read = {STRENGTH_OPTION}  # (the computer players' strength: see the next test)
    assert declared - platform_read <= read, "setup reads every option it declares"


def test_the_strength_option_is_read_by_the_platform_not_by_setup() -> None:
    assert seat_strength({STRENGTH_OPTION: "hard"}, 0) == "hard"
    assert seat_strength({STRENGTH_OPTION: "hard", SEATS.key: {"0": "easy"}}, 0) == "easy"


@pytest.mark.parametrize("engine", engines())
def test_each_declared_option_changes_the_game_it_sets_up(engine: Engine[Any]) -> None:
    plain = _state(engine, {})
    for option in engine.options:
        if option is STRENGTH:
            continue
        others = _other_values(option, engine.min_players)
        assert others, option.key
        assert any(_state(engine, {option.key: v}) != plain for v in others), option.key


@pytest.mark.parametrize("engine", engines())
def test_every_value_in_range_is_accepted_and_kept_as_given(engine: Engine[Any]) -> None:
    for option in engine.options:
        for value in _other_values(option, engine.min_players):
            opts = engine.validate_options(engine.min_players, {option.key: value})
            filled = {o.key: o.default for o in engine.options
                      if engine.fill_option_defaults and o.default is not None}
            assert opts == {**filled, option.key: value}


# --------------------------------------------------------------------------------- refusals


def _wrong_type(option: Option) -> Any:
    return {"int": "ten", "bool": "maybe", "choice": 3, "seat": 2.5, "seat_map": ["0"]}[option.kind]


def _out_of_range(option: Option, players: int) -> list[Any]:
    if option.kind == "int":
        return [option.lo - 1, option.hi + 1]
    if option.kind == "choice":
        return ["nonsense"]
    if option.kind == "seat":
        return [players, -1, seat_name(players), "P0"]
    return []  # (true and false are all a bool has)


@pytest.mark.parametrize("engine", engines())
def test_a_value_of_the_wrong_type_is_refused_in_one_sentence(engine: Engine[Any]) -> None:
    for option in engine.options:
        bad = _wrong_type(option)
        with pytest.raises(InvalidOptions) as err:
            engine.setup(engine.min_players, 1, {option.key: bad})
        said = str(err.value)
        assert said.startswith(f"{option.key} must ") and said.endswith(f", not {json.dumps(bad)}.")
        assert said.count(".") == 1 + str(bad).count(".")


@pytest.mark.parametrize("engine", engines())
def test_a_value_out_of_range_is_refused_naming_the_range(engine: Engine[Any]) -> None:
    players = engine.min_players
    for option in engine.options:
        for bad in _out_of_range(option, players):
            with pytest.raises(InvalidOptions) as err:
                engine.setup(players, 1, {option.key: bad})
            said = str(err.value)
            assert said.startswith(f"{option.key} must ") and said.endswith(f"not {json.dumps(bad)}.")
            if option.kind == "int":
                assert f"{option.lo}–{option.hi}" in said
            if option.kind == "choice":
                assert all(word in said for word in option.allowed)
            if option.kind == "seat":
                assert f"0–{players - 1} or {seat_name(0)}–{seat_name(players - 1)}" in said


@pytest.mark.parametrize("engine", engines())
def test_an_unknown_option_is_refused_naming_the_allowed_ones(engine: Engine[Any]) -> None:
    with pytest.raises(InvalidOptions) as err:
        engine.setup(engine.min_players, 1, {"no_such_option": 1})
    allowed = ", ".join(sorted(o.key for o in engine.options))
    assert str(err.value) == f"unknown option no_such_option; allowed: {allowed}."


def test_the_refusals_tests_and_players_know_keep_their_words() -> None:
    hegemony = registry.get("hegemony_of_faith")
    sentences = {
        "reaction_window": (0, "reaction_window must be a whole number of minutes 1–1440, not 0."),
        "max_rounds": (501, "max_rounds must be a whole number 0–500, not 501."),
        "first_player": ("P5", 'first_player must be a seat 0–3 or P1–P4, not "P5".'),
        STRENGTH_OPTION: ("expert", 'computer must be one of easy, normal, hard, not "expert".'),
        HINTS.key: ("maybe", 'hints must be on or off, not "maybe".'),
        SEATS.key: (7, "computer_seats must map seats to strengths, not 7."),
    }
    for key, (bad, said) in sentences.items():
        with pytest.raises(InvalidOptions) as err:
            hegemony.validate_options(4, {key: bad})
        assert str(err.value) == said
    with pytest.raises(InvalidOptions, match=r"^computer_seats: \"4\" is not a seat of this table\.$"):
        hegemony.validate_options(4, {SEATS.key: {"4": "easy"}})
    with pytest.raises(InvalidOptions,
                       match=r'^computer_seats: seat 1 must be one of easy, normal, hard, not "x"\.$'):
        hegemony.validate_options(4, {SEATS.key: {"1": "x"}})


def test_a_seat_is_given_by_number_or_name_and_null_is_unset() -> None:
    hegemony = registry.get("hegemony_of_faith")
    assert option_seat("P3") == option_seat("p3") == option_seat(2) == 2
    assert option_seat(None) is None and option_seat(True) is None and option_seat("P1x") is None
    assert hegemony.setup(4, 3, {"first_player": "P3"}).first == 2
    assert hegemony.setup(4, 3, {"first_player": 2}).first == 2
    assert hegemony.setup(4, 3, {"first_player": None}).first == hegemony.setup(4, 3, {}).first
    assert hegemony.validate_options(4, {SEATS.key: None}) == {SEATS.key: None}


# ---------------------------------------------------------------- declarations checked at import


def test_a_declaration_that_contradicts_itself_is_refused() -> None:
    with pytest.raises(TypeError, match="default is refused"):
        Option("rounds", "int", "how many rounds", default=0, lo=1, hi=5)
    with pytest.raises(TypeError, match="empty"):
        Option("rounds", "int", "how many rounds", lo=5, hi=1)
    with pytest.raises(TypeError, match="allowed words"):
        Option("mode", "choice", "how it is played")
    with pytest.raises(TypeError, match="default is refused"):
        Option("mode", "choice", "how it is played", default="fast", allowed=("slow",))


def _engine_with(table: tuple[Option, ...]) -> type[Engine[Any]]:
    class Tabled(DuelEngine):
        options: ClassVar[tuple[Option, ...]] = table
    return Tabled


def test_an_option_declared_twice_or_taken_by_every_game_is_refused() -> None:
    fast = Option("fast", "bool", "one round")
    with pytest.raises(TypeError, match="fast"):
        _engine_with((fast, fast))
    with pytest.raises(TypeError, match="hints"):
        _engine_with((Option("hints", "bool", "tips"),))
    with pytest.raises(TypeError, match="rules_revision"):
        _engine_with((Option(REVISION_OPTION, "int", "which rules", lo=1, hi=2),))
    with pytest.raises(TypeError, match="option_help is made from them"):
        class Both(DuelEngine):
            options: ClassVar[tuple[Option, ...]] = (fast,)
            option_help = {"fast": "one round"}
    with pytest.raises(TypeError, match="option_help is made from them"):
        class HandWritten(DuelEngine):
            option_help = {"speed": "how fast"}


def test_defaults_are_filled_in_only_for_an_engine_that_asks() -> None:
    table = (Option("rounds", "int", "how many rounds", default=3, lo=1, hi=5),
             Option("first", "seat", "who starts"))

    class Filling(DuelEngine):
        options: ClassVar[tuple[Option, ...]] = table
        fill_option_defaults = True

    assert Filling().validate_options(2, {}) == {"rounds": 3}
    assert Filling().validate_options(2, {"rounds": 5, HINTS.key: True}) == {"rounds": 5, HINTS.key: True}
    assert _engine_with(table)().validate_options(2, {}) == {}
    assert _engine_with(table)().option_value({}, "rounds") == 3
    with pytest.raises(KeyError):
        _engine_with(table)().option_value({}, "turns")


# --------------------------------------------------------------------- what players are shown


def test_help_says_the_default_and_the_range() -> None:
    assert Option("rounds", "int", "how many rounds", default=3, lo=1, hi=5).describe() == \
        "how many rounds (default 3, 1–5)"
    assert Option("fast", "bool", "one round", default=False).describe() == "one round (default false)"
    assert Option("first", "seat", "who starts; default: random").describe() == \
        "who starts; default: random"
    assert STRENGTH.describe() == STRENGTH.help
    assert all(word in STRENGTH.help for word in STRENGTH.allowed)


@pytest.mark.parametrize("engine", engines())
def test_rules_lists_each_option_of_the_table_and_hints(engine: Engine[Any]) -> None:
    lines = option_lines(engine)
    assert lines == [f"`{o.key}` — {o.describe()}" for o in (*engine.options, HINTS)]
    field = next(f for f in rules_embed(engine, 0).fields if f.name and f.name.startswith("Options"))
    assert field.value is not None
    assert all(f"`{o.key}`" in field.value for o in (*engine.options, HINTS))


@pytest.mark.parametrize("engine", [p for p in engines() if p.id != "duel"])  # (its rules: its module)
def test_the_rules_page_names_every_option_of_the_table(engine: Engine[Any]) -> None:
    page = (REPO / engine.rules_page).read_text(encoding="utf-8")
    missing = [o.key for o in engine.options if f"`{o.key}" not in page and f"{o.key}=" not in page]
    assert not missing, f"{engine.rules_page} does not name {', '.join(missing)}"


def test_play_suggests_the_options_not_given_yet_with_their_default() -> None:
    table = registry.get("hegemony_of_faith").options
    offered = suggest_options((*table, HINTS), "")
    assert [value for _, value in offered] == [
        "first_player=P1", "max_rounds=30", "reaction_window=30", "computer=easy", "hints=true"]
    assert offered[1][0].startswith("max_rounds=30 (0–500) — safety limit")
    assert all(len(name) <= 100 and len(value) <= 100 for name, value in offered)
    typing = suggest_options((*table, HINTS), "max_rounds=50 re")
    assert typing == [("max_rounds=50 re", "max_rounds=50 re"),
                      (typing[1][0], "max_rounds=50 reaction_window=30")]
    done = [value for _, value in suggest_options((*table, HINTS), "max_rounds=50, hints=on ")]
    assert done[0] == "max_rounds=50, hints=on"
    assert "max_rounds=50 hints=on first_player=P1" in done
    assert not any("max_rounds=30" in v or "hints=true" in v for v in done)


async def test_play_offers_the_options_of_the_game_chosen_in_the_same_command() -> None:
    def typing(game: str | None) -> discord.Interaction:
        return cast(discord.Interaction, SimpleNamespace(namespace=SimpleNamespace(game=game)))

    offered = await options_autocomplete(typing("Hegemony of Faith"), "max")
    assert [(c.value, c.name.split(" ")[0]) for c in offered] == [
        ("max", "max"), ("max_rounds=30", "max_rounds=30")]
    duel = await options_autocomplete(typing("duel"), "")
    assert [c.value for c in duel] == ["fast=true", "hints=true"]
    assert await options_autocomplete(typing(None), "max") == []
    assert await options_autocomplete(typing("no such game"), "") == []


def test_every_table_option_is_checked_by_its_declaration() -> None:
    assert {o.key for o in TABLE_OPTIONS} == {HINTS.key, SEATS.key}
    duel = registry.get("duel")
    assert duel.validate_options(2, {HINTS.key: True, SEATS.key: {"1": "hard"}}) == \
        {HINTS.key: True, SEATS.key: {"1": "hard"}}
    with pytest.raises(InvalidOptions, match='^computer_seats: "2" is not a seat'):
        duel.validate_options(2, {SEATS.key: {"2": "hard"}})
