"""The reveal and its resolution (rulebook "Turn", steps 3–8).

Called once every cult has submitted its orders. Works on a copy of the state that the engine
owns (the ``Story``'s state), mutating it in place, and tells the public and private events of
each step through that story: reveal, action cards (each through its effect's entry in
:data:`rules.cult_wars.effects.EFFECTS`), combat, sacrifices, breeding, clean-up.

With the ``"two_step"`` table option a defence that wins against two or more attackers lets the
defender share out their losses after the reveal (rulebook step 5a) whenever there is a real
choice (:func:`rules.cult_wars.combat.needs_split`). The resolution then pauses after step 5:
its working data goes into ``state.resolution`` (everything in it is public by then), the phase
becomes ``"split"``, and :func:`answer_split` resumes it once every such defender has chosen.
Combats at different cults never touch the same followers (each cult attacks one target and its
attackers are away from home), so the other combats are settled at once and the paused ones
only wait for their defender.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, cast

from ..engine import Story, seat_name
from ..text import count, listing
from .combat import home_losses, needs_split, share_attacker_losses, split_sacrifice_vp
from .content import SLOTS, card_name, kind_of
from .effects import CardPlay, Mods, apply, draw, lose, losses_text, names_with
from .orders import play_text, slot_text
from .state import TURNS, CultWarsState, Orders, Play
from .views import CombatView, RecordCultView, RevealCultView, RevealView, TurnRecordView

BOARD_KEYS: tuple[str, ...] = (*SLOTS, "idle")


@dataclass
class Split:
    """A defender's choice the resolution waits for: ``loss`` attackers die among ``attackers``
    (seat → followers attacking); ``combat`` is the index of its record in ``Turn.combats``."""

    defender: int
    loss: int
    attackers: dict[int, int]
    combat: int

    def to_json(self) -> dict[str, Any]:
        return {"defender": self.defender, "loss": self.loss,
                "attackers": [[k, n] for k, n in sorted(self.attackers.items())], "combat": self.combat}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Split:
        return cls(int(d["defender"]), int(d["loss"]), {int(k): int(n) for k, n in d["attackers"]},
                   int(d["combat"]))


@dataclass
class Turn:
    """Working data of one resolution (stored in the state while it waits for splits)."""

    orders: dict[int, Orders]
    board: dict[int, dict[str, int]]
    mods: dict[int, Mods]
    in_play: list[tuple[int, Play]]
    cancelled: set[str] = field(default_factory=set)
    lines: list[str] = field(default_factory=list)
    combats: list[CombatView] = field(default_factory=list)
    before: list[tuple[int, int]] = field(default_factory=list)
    """(followers, VP) of each cult before the reveal."""
    assigned: dict[int, int] = field(default_factory=dict)
    """Followers each cult laid on Sacrifice (before any loss)."""
    splits: list[Split] = field(default_factory=list)
    """Defenders' splits still awaited, in seat order of the defenders."""

    def to_json(self) -> dict[str, Any]:
        return {
            "board": [[k, dict(b)] for k, b in sorted(self.board.items())],
            "mods": [[k, asdict(m)] for k, m in sorted(self.mods.items())],
            "in_play": [[k, pl.card, pl.target] for k, pl in self.in_play],
            "cancelled": sorted(self.cancelled),
            "lines": list(self.lines),
            "combats": [dict(c) for c in self.combats],
            "before": [list(b) for b in self.before],
            "assigned": [[k, n] for k, n in sorted(self.assigned.items())],
            "splits": [sp.to_json() for sp in self.splits],
        }

    @classmethod
    def from_json(cls, d: dict[str, Any], orders: dict[int, Orders]) -> Turn:
        return cls(
            orders=dict(orders),
            board={int(k): {str(x): int(n) for x, n in b.items()} for k, b in d["board"]},
            mods={int(k): Mods(**m) for k, m in d["mods"]},
            in_play=[(int(k), Play(str(c), None if t is None else int(t))) for k, c, t in d["in_play"]],
            cancelled={str(c) for c in d["cancelled"]},
            lines=[str(x) for x in d["lines"]],
            combats=[cast(CombatView, dict(c)) for c in d["combats"]],
            before=[(int(f), int(v)) for f, v in d["before"]],
            assigned={int(k): int(n) for k, n in d["assigned"]},
            splits=[Split.from_json(sp) for sp in d["splits"]],
        )


def resolve_turn(story: Story[CultWarsState]) -> None:
    """Reveal every cult's orders and resolve the turn; advance to the next turn or the end, or
    pause for the defenders' splits (``"two_step"`` only)."""
    s = story.s
    n = s.players
    t = Turn(
        orders=dict(s.orders),
        board={},
        mods={k: Mods() for k in range(n)},
        in_play=[],
        before=[(c.followers, c.vp) for c in s.cults],
    )
    # Step 3: everything is turned face up; played action cards leave the hands.
    story.say(f"Turn {s.turn}: all orders are revealed.", kind="reveal")
    for k in range(n):
        o = t.orders[k]
        cult = s.cults[k]
        b = {slot: o.slot_total(slot) for slot in SLOTS}
        b["idle"] = cult.followers - sum(b.values())
        t.board[k] = b
        for pl in o.plays:
            cult.hand.remove(pl.card)
            t.in_play.append((k, pl))
        slots = ", ".join(slot_text(slot, o.slots[slot]) for slot in SLOTS)
        cards = ", ".join(play_text(pl) for pl in o.plays) or "no action cards"
        story.say(
            f"{seat_name(k)} ({count(cult.followers, 'follower')}) targets {seat_name(o.target)}: {slots}, idle {b['idle']}; "
            f"plays {cards}.", kind="reveal")
    t.assigned = {k: t.board[k]["sacrifice"] for k in range(n)}

    _resolve_action_cards(story, t)
    _resolve_combat(story, t, ask=s.insignia == "two_step")
    if t.splits:
        s.phase = "split"
        s.resolution = t.to_json()
        return
    _finish(story, t)


def pending(s: CultWarsState) -> Turn | None:
    """The paused resolution of a state in the ``"split"`` phase (None otherwise)."""
    if s.phase != "split" or s.resolution is None:
        return None
    return Turn.from_json(s.resolution, s.orders)


def answer_split(story: Story[CultWarsState], defender: int, losses: dict[int, int]) -> None:
    """Apply ``defender``'s split of its combat (already checked against the possible splits);
    once no split is awaited any more, resume the resolution at step 6."""
    s = story.s
    t = pending(s)
    assert t is not None
    sp = next(x for x in t.splits if x.defender == defender)
    t.splits.remove(sp)
    _apply_attacker_losses(t, sp.combat, losses, chosen=True)
    text = (f"Combat at {seat_name(defender)}: {seat_name(defender)} shares out {_losses(sp.loss)}: "
            f"{_share_text(losses)}.")
    story.say(text, kind="combat")
    t.lines.append(text)
    if t.splits:
        s.resolution = t.to_json()
        return
    s.resolution = None
    _finish(story, t)


def _finish(story: Story[CultWarsState], t: Turn) -> None:
    """Steps 6–8 and the end of the turn."""
    s = story.s
    n = s.players
    drawn = _resolve_sacrifices(story, t, t.assigned)
    born = _resolve_breeding(story, t)

    # Step 8: played cards are discarded and their effects end.
    for _k, pl in t.in_play:
        s.discard.append(pl.card)
    for k in range(n):
        s.cults[k].followers = sum(t.board[k].values())
    record = _record(s, t, t.before, drawn, born)
    s.last_turn = record
    s.history.append({"turn": s.turn, "followers": [c.followers for c in s.cults],
                      "vp": [c.vp for c in s.cults]})
    standing = "; ".join(f"{seat_name(k)} {count(c.followers, 'follower')}, {c.vp} VP" for k, c in enumerate(s.cults))
    story.say(f"End of turn {s.turn}: {standing}.", kind="turn_end")
    s.orders = {}
    s.targets = {}
    if s.turn >= TURNS:
        s.phase = "over"
        story.say(f"The game ends after turn {TURNS}.", kind="end")
    else:
        s.turn += 1
        s.phase = "targets" if s.insignia == "two_step" else "orders"


def reveal_record(s: CultWarsState, t: Turn) -> RevealView:
    """Public record of a paused resolution: what every cult revealed, the combats so far (a
    pending one has ``"split": "awaited"``), the lines told so far and the splits awaited."""
    cults: list[RevealCultView] = []
    for k in range(s.players):
        o = t.orders[k]
        cults.append({
            "seat": k, "target": o.target, "slots": {slot: list(o.slots[slot]) for slot in SLOTS},
            "idle": t.before[k][0] - o.total(),
            "plays": [{"name": card_name(pl.card), "target": pl.target,
                       "cancelled": pl.card in t.cancelled} for kk, pl in t.in_play if kk == k],
        })
    return {"turn": s.turn, "cults": cults, "combats": [c.copy() for c in t.combats],
            "lines": list(t.lines),
            "splits": [{"defender": sp.defender, "loss": sp.loss,
                        "attackers": [[k, n] for k, n in sorted(sp.attackers.items())]} for sp in t.splits]}


def _losses(n: int) -> str:
    return "the 1 loss" if n == 1 else f"the {n} losses"


def _share_text(losses: dict[int, int]) -> str:
    return ", ".join(f"{seat_name(k)} loses {n}" for k, n in sorted(losses.items()) if n) or "nobody dies"


def _apply_attacker_losses(t: Turn, index: int, share: dict[int, int], *, chosen: bool) -> None:
    for k, n in share.items():
        t.board[k]["attack"] -= n
    rec = t.combats[index]
    rec["attacker_losses"] = [[k, n] for k, n in sorted(share.items())]
    if chosen:
        rec["split"] = "chosen"


# ----------------------------------------------------------------------------- step 4

def _resolve_action_cards(story: Story[CultWarsState], t: Turn) -> None:
    if not t.in_play:
        story.say("Action cards: none were played.", kind="actions")
        return
    ordered = sorted(
        ((kind_of(pl.card), k, i, pl) for i, (k, pl) in enumerate(t.in_play)),
        key=lambda x: (x[0].priority, x[1], x[2]))
    for kind, k, _i, pl in ordered:
        if pl.card in t.cancelled:
            continue
        text = apply(CardPlay(story, t, kind, k, pl.target))
        if text:
            story.say(text, kind="actions")
            t.lines.append(text)


# ----------------------------------------------------------------------------- step 5

def _resolve_combat(story: Story[CultWarsState], t: Turn, *, ask: bool) -> None:
    """Step 5 at every targeted cult. With ``ask``, a winning defence with a real choice of split
    is left for its defender (a :class:`Split` in ``t.splits``); otherwise the defender's
    ``loss_order`` from its orders shares the losses out."""
    s = story.s
    fought = False
    for d in range(s.players):
        attackers = {k: t.board[k]["attack"] for k in range(s.players)
                     if k != d and t.orders[k].target == d and t.board[k]["attack"] > 0}
        if not attackers:
            continue
        fought = True
        strength = {k: max(0, n + t.mods[k].attack_bonus - t.mods[k].weaken)
                    for k, n in attackers.items()}
        total = sum(strength.values())
        defence = t.board[d]["defend"] + t.mods[d].defend_bonus
        parts = " + ".join(
            f"{seat_name(k)} {strength[k]}" + (f" ({count(attackers[k], 'follower')})" if strength[k] != attackers[k] else "")
            for k in sorted(attackers))
        dtxt = f"{defence}" + (f" ({count(t.board[d]['defend'], 'follower')})" if defence != t.board[d]["defend"] else "")
        head = f"Combat at {seat_name(d)}: attack {parts} = {total} against defence {dtxt}."
        rec: dict[str, Any] = {
            "defender": d, "attackers": [[k, attackers[k], strength[k]] for k in sorted(attackers)],
            "attack": total, "defence": defence, "outcome": "", "attacker_losses": [],
            "defender_losses": {}, "vp": [],
        }
        if defence > total and ask and needs_split(defence - total, attackers):
            dead = min(defence - total, sum(attackers.values()))
            who = listing([seat_name(k) for k in sorted(attackers)])
            text = (f"{head} The defence holds by {defence - total}: {seat_name(d)} chooses how {who} "
                    f"share {_losses(dead)}.")
            rec["outcome"] = "defence"
            rec["split"] = "awaited"
            t.splits.append(Split(d, dead, dict(attackers), len(t.combats)))
        elif defence > total:
            share = share_attacker_losses(defence - total, attackers, t.orders[d].loss_order)
            for k, n in share.items():
                t.board[k]["attack"] -= n
            lost = ", ".join(f"{seat_name(k)} loses {n}" for k, n in share.items() if n) or "nobody dies"
            text = f"{head} The defence holds by {defence - total}: {lost}."
            rec["outcome"] = "defence"
            rec["attacker_losses"] = [[k, n] for k, n in sorted(share.items())]
        elif defence == total:
            text = f"{head} An even fight: nobody dies."
            rec["outcome"] = "even"
        else:
            loss = home_losses(total - defence, t.board[d], shelter_sacrifices=t.mods[d].shelter)
            lose(t.board[d], loss)
            killed = loss["sacrifice"]
            vp = split_sacrifice_vp(killed, attackers)
            for k, n in vp.items():
                s.cults[k].vp += n
            text = (f"{head} The attack breaks through by {total - defence}: {seat_name(d)} loses "
                    f"{losses_text(loss)}.")
            if killed:
                if vp and any(vp.values()):
                    got = ", ".join(f"{seat_name(k)} +{n} VP" for k, n in sorted(vp.items()))
                    text += f" Killed sacrificial followers: {got}."
                else:
                    text += " The tied attackers split the killed sacrifices' VP and each gets 0."
            rec["outcome"] = "attack"
            rec["defender_losses"] = loss
            rec["vp"] = [[k, n] for k, n in sorted(vp.items())]
        story.say(text, kind="combat")
        t.lines.append(text)
        t.combats.append(cast(CombatView, rec))  # its outcome is set by now
    if not fought:
        story.say("Combat: nobody attacked.", kind="combat")


# ----------------------------------------------------------------------------- steps 6–7

def _resolve_sacrifices(story: Story[CultWarsState], t: Turn, assigned: dict[int, int]) -> dict[int, int]:
    s = story.s
    drawn = {k: 0 for k in range(s.players)}
    kept = {k: t.board[k]["sacrifice"] for k in range(s.players)}
    lines: list[str] = []
    for k in range(s.players):
        if assigned[k] == 0:
            continue
        n = kept[k]
        m = t.mods[k]
        if n == 0:
            lost = ("their only sacrificial follower" if assigned[k] == 1
                    else f"all {count(assigned[k], 'sacrificial follower')}")
            lines.append(f"{seat_name(k)} lost {lost}: no VP, no card")
            continue
        gain = max(0, n + m.sacrifice_bonus - m.sacrifice_malus)
        s.cults[k].vp += gain
        t.board[k]["sacrifice"] = 0
        extra = ""
        if m.sacrifice_bonus or m.sacrifice_malus:
            extra = f" ({count(n, 'follower')}{f' +{m.sacrifice_bonus}' if m.sacrifice_bonus else ''}" \
                    f"{f' −{m.sacrifice_malus}' if m.sacrifice_malus else ''})"
        lines.append(f"{seat_name(k)} sacrifices {n}: +{gain} VP{extra}")
    if lines:
        text = "Sacrifices: " + "; ".join(lines) + "."
    else:
        text = "Sacrifices: nobody sacrificed."
    story.say(text, kind="sacrifice")
    t.lines.append(text)
    for k in range(s.players):
        if kept[k] > 0:
            drawn[k] += draw(story, k, 1, "sacrifice")
    top = max(kept.values())
    leaders = [k for k in range(s.players) if kept[k] == top]
    if top > 0 and len(leaders) == 1:
        story.say(f"{seat_name(leaders[0])} made the largest sacrifice ({top}) and draws an extra card.",
                  kind="sacrifice")
        drawn[leaders[0]] += draw(story, leaders[0], 1, "largest sacrifice")
    elif top > 0:
        story.say(
            f"{', '.join(seat_name(k) for k in leaders)} tie for the largest sacrifice ({top}): no extra card.",
            kind="sacrifice")
    return drawn


def _resolve_breeding(story: Story[CultWarsState], t: Turn) -> dict[int, int]:
    s = story.s
    born = {k: 0 for k in range(s.players)}
    lines: list[str] = []
    for k in range(s.players):
        if t.orders[k].slot_total("breed") == 0 and t.mods[k].breed_bonus == 0:
            continue
        n = t.board[k]["breed"]
        bonus = t.mods[k].breed_bonus if n > 0 else 0
        born[k] = n + bonus
        t.board[k]["idle"] += born[k]
        extra = f" ({n} + {bonus} {names_with('breed_bonus')})" if bonus else ""
        lines.append(f"{seat_name(k)} +{count(born[k], 'follower')}{extra}")
    text = ("Breeding: " + "; ".join(lines) + ".") if lines else "Breeding: nobody bred."
    story.say(text, kind="breed")
    t.lines.append(text)
    return born


# ----------------------------------------------------------------------------- record

def _record(s: CultWarsState, t: Turn, before: list[tuple[int, int]], drawn: dict[int, int],
            born: dict[int, int]) -> TurnRecordView:
    """Public record of a resolved turn (``state.last_turn``). ``loss_order`` is the split a
    ``"single"`` game chose in advance (``"proportional"`` in ``"two_step"`` games, where the
    combat records say ``"split": "chosen"`` when the defender chose after the reveal)."""
    cults: list[RecordCultView] = []
    for k in range(s.players):
        o = t.orders[k]
        cults.append({
            "seat": k,
            "target": o.target,
            "slots": {slot: list(o.slots[slot]) for slot in SLOTS},
            "idle": before[k][0] - o.total(),
            "plays": [{"name": card_name(pl.card), "target": pl.target,
                       "cancelled": pl.card in t.cancelled} for kk, pl in t.in_play if kk == k],
            "followers_before": before[k][0],
            "followers_after": s.cults[k].followers,
            "vp_before": before[k][1],
            "vp_after": s.cults[k].vp,
            "born": born[k],
            "cards_drawn": drawn[k],
            "loss_order": o.loss_order if isinstance(o.loss_order, str) else list(o.loss_order),
        })
    return {"turn": s.turn, "cults": cults, "combats": t.combats, "lines": list(t.lines)}
