"""Non-interference: what one seat holds in secret changes nothing anybody else can see.

For every registered game, seeded computer-player games are walked and, at sampled points, each
seat's secrets are replaced by others (``Engine.secret_variants``: another hand of the same size
from the hidden deck, another hidden skill, another pending secret choice). The original and
each variant must then look the same to every other seat and to the public:

* the public view and every other seat's view;
* the open prompts: who is asked what (seat and kind, which is public), and the whole prompt of
  every other seat (text, choices, params …);
* the answer of another seat (its computer player's action on the original), applied to both:
  the same public events and the same events addressed to other seats, and, unless that answer
  was the last of a secret round (which reveals the round), the same public outcome.

This catches a secret leaking through any path (a prompt that exists only for the holder of a
card, a count, a text), not only by its id as the marker check of ``test_conformance`` does.
"""

from __future__ import annotations

import functools
import json
import os
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pytest

from rules import registry
from rules.engine import Engine, Event, Prompt, RulesError

GAMES = sorted(registry.all_engines())
REAL_GAMES = [g for g in GAMES if g in registry.BUILTIN]

HOF_REACTIONS = frozenset({"defend", "counter", "karma", "prophet", "rebirth"})
"""Hegemony of Faith's reaction windows: asked of every seat that might hold the card or skill,
so who is asked, and how it looks from outside, must not betray who does (checked like any other
prompt, with no exemption; listed only to check that the walk opens them)."""

RULE_REVEALS = {
    "hegemony_of_faith": "an attack kills or converts hidden believers, Witch Hunt names a type, "
                         "Info-Spy shows a hand to the spy, a Wanderer steals a hidden believer",
}
"""Games whose rules let one seat's action act on another's hidden cards, and why."""

DEALS_TO_ALL: dict[str, list[dict[str, Any]]] = {
    "hegemony_of_faith": [{"type": "skill", "skill": "Chaos Coming"},
                          {"type": "skill", "skill": "Everyone is Equal"}],
}
"""Answers that, by the rules, gather hidden cards and deal them out to every seat (so a third
seat may receive what the varied seat held)."""

PROBE_EVERY = 3
"""Probe one step in this many (every step would be slow and adds little)."""
MAX_PROBES = 60
"""Probed states per game and player count."""
SEEDS = tuple(range(11, 11 + int(os.environ.get("HERALD_CONFORMANCE_GAMES", "1"))))
"""One seeded game per table size in CI; HERALD_CONFORMANCE_GAMES walks more for soak runs."""
EXTRA_ANSWERS = 3
"""Choices tried per other seat's prompt beyond its computer player's answer."""


def _canonical(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def _prompt_key(p: Prompt) -> str:
    return _canonical({"seat": p.seat, "kind": p.kind, "text": p.text, "secret": p.secret,
                       "free_form": p.free_form, "timeout_note": p.timeout_note,
                       "params": dict(p.params),
                       "choices": [[c.label, c.action, c.group, c.description] for c in p.choices]})


def _events_for(events: list[Event], who: int | None) -> list[str]:
    """The events ``who`` sees (``None``: the public ones), as comparable text."""
    return [_canonical(e.to_json()) for e in events if (e.to is None if who is None else e.visible_to(who))]


@dataclass
class Leak:
    field: str
    """What differed: "public view", "view of another seat", "who is asked", …"""
    kinds: frozenset[str]
    """Prompt kinds open around the difference."""
    example: str
    observer: int | None = None
    """Who sees the difference (None: everybody)."""
    actor: int | None = None
    """The other seat whose answer, applied to both states, produced it (None: the states differ)."""
    action: dict[str, Any] | None = None
    """That answer."""


@dataclass
class Report:
    probes: int = 0
    variants: int = 0
    answers_compared: int = 0
    rounds: set[str] = field(default_factory=set)
    """Prompt kinds seen asked in secret of several seats at once (a secret round)."""
    opened: Counter[str] = field(default_factory=Counter)
    """Prompt kinds seen open after another seat's answer during the probes."""
    leaks: list[Leak] = field(default_factory=list)

    def add(self, field_: str, kinds: set[str], example: str, observer: int | None = None,
            actor: int | None = None, action: dict[str, Any] | None = None) -> None:
        self.leaks.append(Leak(field_, frozenset(kinds), example[:400], observer, actor, action))

    def summary(self, leaks: list[Leak]) -> str:
        by_field = Counter(x.field for x in leaks)
        lines = [f"{n} × {name}" for name, n in by_field.most_common()]
        firsts: dict[str, str] = {}
        for x in leaks:
            firsts.setdefault(x.field, x.example)
        lines += [f"e.g. {name}: {ex}" for name, ex in firsts.items()]
        return "\n".join(lines)


def _first_diff(a: Any, b: Any, path: str = "") -> str:
    """Where two JSON values first differ, for a readable failure."""
    if type(a) is not type(b):
        return f"{path or '.'}: {_canonical(a)[:80]} vs {_canonical(b)[:80]}"
    if isinstance(a, dict):
        for k in sorted(set(a) | set(b), key=str):
            if k not in a or k not in b:
                return f"{path}.{k}: only on one side"
            if a[k] != b[k]:
                return _first_diff(a[k], b[k], f"{path}.{k}")
    if isinstance(a, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return _first_diff(x, y, f"{path}[{i}]")
    return f"{path or '.'}: {_canonical(a)[:80]} vs {_canonical(b)[:80]}"


def _compare_states(engine: Engine[Any], a: Any, b: Any, seat: int, players: int, where: str,
                    report: Report, actor: int | None = None,
                    action: dict[str, Any] | None = None) -> bool:
    """Record every way ``b`` looks different from ``a`` to anybody but ``seat``; True if none."""
    pa, pb = engine.prompts(a), engine.prompts(b)
    kinds = {p.kind for p in pa} | {p.kind for p in pb}
    ok = True
    va, vb = engine.view(a, None), engine.view(b, None)
    if va != vb:
        report.add("public view", kinds, f"{where}: {_first_diff(va, vb)}", None, actor, action)
        ok = False
    for other in range(players):
        if other == seat:
            continue
        oa, ob = engine.view(a, other), engine.view(b, other)
        if oa != ob and va == vb:
            report.add("view of another seat", kinds, f"{where}, seen by seat {other}: {_first_diff(oa, ob)}",
                       other, actor, action)
            ok = False
    asked_a = [(p.seat, p.kind) for p in pa]
    asked_b = [(p.seat, p.kind) for p in pb]
    if asked_a != asked_b:
        report.add("who is asked", kinds, f"{where}: {asked_a} vs {asked_b}", None, actor, action)
        ok = False
    else:
        for x, y in zip(pa, pb, strict=True):
            if x.seat != seat and _prompt_key(x) != _prompt_key(y):
                report.add("another seat's prompt", kinds,
                           f"{where}: seat {x.seat}'s {x.kind}: "
                           f"{_first_diff(json.loads(_prompt_key(x)), json.loads(_prompt_key(y)))}",
                           x.seat, actor, action)
                ok = False
    return ok


def _answers(engine: Engine[Any], state: Any, prompts: list[Prompt], seat: int,
             step: int) -> list[tuple[Prompt, dict[str, Any]]]:
    """Answers of the seats other than ``seat`` to try on both states: each one's computer
    player's action, and a few more of its choices (an attack that opens a reaction window may
    not be what the computer player picks)."""
    out = []
    rng = random.Random(step * 31 + seat)
    for p in prompts:
        if p.seat == seat:
            continue
        bot = engine.bot_action(engine.view(state, p.seat), p, rng)
        out.append((p, bot))
        others = [c.action for c in p.choices if c.action != bot]
        out += [(p, a) for a in rng.sample(others, min(EXTRA_ANSWERS, len(others)))]
    return out


def _probe(engine: Engine[Any], state: Any, players: int, step: int, rng: random.Random,
           report: Report) -> None:
    report.probes += 1
    prompts = engine.prompts(state)
    for seat in range(players):
        for n, variant in enumerate(engine.secret_variants(state, seat, random.Random(rng.random()))):
            where = f"step {step}, seat {seat}'s variant {n}"
            text = _canonical(engine.to_json(variant))
            assert text != _canonical(engine.to_json(state)), f"{where} is the original state"
            assert _canonical(engine.to_json(engine.from_json(json.loads(text)))) == text, \
                f"{where} does not round-trip through JSON"
            report.variants += 1
            if not _compare_states(engine, state, variant, seat, players, where, report):
                continue
            for p, action in _answers(engine, state, prompts, seat, step):
                try:
                    after_a, ev_a = engine.apply(state, p.seat, action)
                except RulesError:
                    continue
                here = f"{where}, after seat {p.seat}'s {p.kind} {_canonical(action)[:80]}"
                try:
                    after_b, ev_b = engine.apply(variant, p.seat, action)
                except RulesError as exc:
                    report.add("another seat's answer refused", {p.kind}, f"{here}: {exc}", p.seat, p.seat, action)
                    continue
                report.answers_compared += 1
                report.opened.update({q.kind for q in engine.prompts(after_a)})
                kinds = {p.kind} | {q.kind for q in engine.prompts(after_a)} | {q.kind for q in engine.prompts(after_b)}
                # the last answer of a secret round reveals the round: the outcome may differ then
                reveal = p.secret and len(prompts) == 1 and p.kind in report.rounds
                for who in [None, *(k for k in range(players) if k != seat)]:
                    a, b = _events_for(ev_a, who), _events_for(ev_b, who)
                    if a != b and not reveal:
                        label = "public events" if who is None else "events to another seat"
                        diff = next((f"{x} vs {y}" for x, y in zip(a, b, strict=False) if x != y),
                                    f"{len(a)} vs {len(b)} events")
                        report.add(label, kinds, f"{here}, seen by {who}: {diff}", who, p.seat, action)
                        break
                if not reveal:
                    _compare_states(engine, after_a, after_b, seat, players, here + " (outcome)", report,
                                    p.seat, action)


@functools.cache
def _walk(game: str) -> Report:
    """Walk seeded bot games of ``game`` at its smallest and largest table and probe them."""
    engine = registry.get(game)
    report = Report()
    for players in sorted({engine.min_players, engine.max_players}):
        for seed in SEEDS:
            rng = random.Random(seed)
            state = engine.setup(players, seed)
            probes = 0
            for step in range(20000):
                if engine.result(state) is not None or probes >= MAX_PROBES:
                    break
                open_ = engine.prompts(state)
                kinds = Counter(p.kind for p in open_ if p.secret)
                # a round of secret answers given at once: several prompts open together, of one
                # kind or of several (Petition's attacker and defender lay their cards at once)
                if sum(kinds.values()) > 1:
                    report.rounds.update(kinds)
                if step % PROBE_EVERY == 0:
                    _probe(engine, state, players, step, random.Random(f"{seed}/{step}"), report)
                    probes += 1
                prompt = rng.choice(open_)
                action = engine.bot_action(engine.view(state, prompt.seat), prompt, rng)
                state, _ = engine.apply(state, prompt.seat, action)
    return report


def _by_the_rules(game: str, leak: Leak) -> bool:
    """A difference the game's rules make on purpose: in a game listed in ``RULE_REVEALS``,
    another seat's answer that acts on hidden cards shows its outcome to the actor and the
    public. A third seat must still learn nothing, and the states themselves must still look
    the same before anyone acts."""
    if game not in RULE_REVEALS or leak.actor is None:
        return False
    return leak.observer in (None, leak.actor) or leak.action in DEALS_TO_ALL.get(game, [])


@pytest.mark.parametrize("game", GAMES)
def test_secrets_do_not_change_what_others_see(game: str) -> None:
    report = _walk(game)
    if game in REAL_GAMES:
        assert report.variants > 0, f"{game} implements no secret_variants: the check would be vacuous"
        assert report.answers_compared > 0, f"{game}: no other seat's answer was ever compared"
    leaks = [x for x in report.leaks if not _by_the_rules(game, x)]
    assert not leaks, f"{game}: secrets leak ({report.variants} variants probed):\n{report.summary(leaks)}"


def test_hegemony_reaction_windows_do_not_betray_their_holders() -> None:
    """The walk does open reaction windows on the probed answers (so the check above covers
    them), and nothing differs around any of them."""
    report = _walk("hegemony_of_faith")
    seen = HOF_REACTIONS & set(report.opened)
    assert {"defend", "prophet"} <= seen, f"reaction windows opened in the walk: {sorted(seen)}"
    around = [x for x in report.leaks if x.kinds & HOF_REACTIONS and not _by_the_rules("hegemony_of_faith", x)]
    assert not around, report.summary(around)
