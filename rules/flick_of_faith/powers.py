"""The powers of gods and laws that act on the game when their moment comes: a law entering, the
end of a Mission turn, the start of Worship. Each is a :data:`Hook` that a god's or a law's rule
names (:data:`.gods.RULES`, :data:`.laws.RULES`); the engine runs the hooks of the gods and laws
in play at each moment and knows none of them by name.
"""

from __future__ import annotations

from collections.abc import Callable

from rules.engine import Story, seat_name
from rules.text import count

from . import geometry
from . import map as board
from .discs import KINDS, PROPHET_KINDS
from .state import DiscD, FlickState

Hook = Callable[[Story[FlickState], int], None]
"""A power acting on the game: ``(story, seat)``, changing ``story.s`` and telling what happens
through the story; ``seat`` is the god's own seat for a god's power, the active seat (or 0) for a
law's."""

SECOND_CHANCE = "anubis"
"""The prompt kind, action type and Mission stage of the offer to flick a fallen prophet again,
and where a prophet saved on another player's turn went (the tag stored games and moves carry)."""


def in_sea(d: DiscD) -> bool:
    """A disc resting on no island and not on the navel."""
    r = KINDS[d["kind"]].radius
    return geometry.island_at(d["x"], d["y"], r) is None and not geometry.on_navel(d["x"], d["y"], r)


def crows_drown_struck(story: Story[FlickState], seat: int) -> None:
    """Morrigan: the enemy prophets her flicked disc struck this turn that rest in the sea go to
    the reserve."""
    s = story.s
    struck = set(s.turn.get("struck", []))
    for d in [x for x in s.discs if x["id"] in struck]:
        if d["kind"] in PROPHET_KINDS and d["owner"] not in (None, seat) and in_sea(d):
            s.discs.remove(d)
            s.reserve[d["owner"]] += 1
            story.say(f"Morrigan's crows drown {seat_name(d['owner'])}'s {d['kind']} in the sea.")


def kraken_takes_sea(story: Story[FlickState], seat: int) -> None:
    """The Kraken: prophets resting in the sea go to the reserve at the end of every turn."""
    s = story.s
    for d in [x for x in s.discs if x["kind"] in PROPHET_KINDS and in_sea(x)]:
        s.discs.remove(d)
        s.reserve[d["owner"]] += 1
        story.say(f"The Kraken drags {seat_name(d['owner'])}'s {d['kind']} under.")


def tornado_strikes(story: Story[FlickState], seat: int) -> None:
    """The Tornado: just before Worship every prophet on one island drawn at random goes to the
    reserve."""
    s = story.s
    i = s.rng.randint(0, 3)
    hit = [d for d in s.discs if d["kind"] in PROPHET_KINDS
           and geometry.island_at(d["x"], d["y"], KINDS[d["kind"]].radius) == i]
    for d in hit:
        s.discs.remove(d)
        s.reserve[d["owner"]] += 1
    story.say(f"The Tornado strikes island {board.ISLANDS[i].name}: {count(len(hit), 'prophet')} blown away.")


TEMPLARS = 2
"""Templars each player gains when the Templars law enters."""
TITHE = 2
"""VP each player with the most pays when the Tithe enters."""


def templars_join(story: Story[FlickState], seat: int) -> None:
    """Templars: every player adds two Templars to their prophets for the rest of the game."""
    s = story.s
    for k in range(s.players):
        s.pool[k]["templar"] = s.pool[k].get("templar", 0) + TEMPLARS
        s.supply[k]["templar"] = s.supply[k].get("templar", 0) + TEMPLARS
    story.say(f"Every player gains {TEMPLARS} Templars.")


def tithe_paid(story: Story[FlickState], seat: int) -> None:
    """Tithe: every player with the most VP (more than none) pays 2 VP, never below 0."""
    s = story.s
    top = max(s.vp)
    payers = [k for k in range(s.players) if s.vp[k] == top and top > 0]
    for k in payers:
        s.vp[k] = max(0, s.vp[k] - TITHE)
    if payers:
        story.say("Tithe: " + ", ".join(seat_name(k) for k in payers) + f" pay {TITHE} VP.")


def temples_on_cities_fall(story: Story[FlickState], seat: int) -> None:
    """Iconoclasm: every temple touching a city returns to its owner's supply."""
    s = story.s
    gone = [d for d in s.discs if d["kind"] == "temple"
            and geometry.city_at(d["x"], d["y"], KINDS["temple"].radius) is not None]
    for d in gone:
        s.temples[d["owner"]] += 1
        s.discs.remove(d)
    if gone:
        story.say("Iconoclasm: temples on cities fall — " + ", ".join(f"{seat_name(d['owner'])}'s" for d in gone) + ".")


__all__ = ["crows_drown_struck", "kraken_takes_sea", "temples_on_cities_fall", "templars_join",
           "tithe_paid", "tornado_strikes"]
