"""The action-card effect library (rulebook "Turn", step 4): every action card names one of these
effects by its key in ``cards.json`` (``"effect": "kill_followers"``), with its amount, target
and priority band; no card has code of its own, so a new card is a line of JSON.

:data:`EFFECTS` maps each effect key to its rules: ``apply`` makes a played card take effect and
returns its public line, ``wanted`` is the computer player's rule for playing it with the orders
it is writing, and ``cancellable`` says whether a ``cancel_cards`` card can stop it. The table is
checked against the card data when this module is imported: every card's effect has an entry and
every entry is used by a card. Card names are display text only: nothing here tests one.

Also here, since the other steps share them: :class:`Mods` (a cult's turn-long modifiers),
:func:`draw`, and how losses fall on a cult's board (:func:`lose`, :func:`losses_text`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..engine import Story, seat_name
from ..text import count
from .combat import CARD_LOSS_ORDER, home_losses
from .content import KINDS, ActionKind, card_name, kind_of
from .state import CultWarsState

if TYPE_CHECKING:
    from .resolve import Turn


@dataclass
class Mods:
    """Turn-long effects of action cards on one cult (they end in step 8)."""

    attack_bonus: int = 0
    defend_bonus: int = 0
    weaken: int = 0
    shelter: bool = False
    breed_bonus: int = 0
    sacrifice_bonus: int = 0
    sacrifice_malus: int = 0


def draw(story: Story[CultWarsState], seat: int, n: int, why: str) -> int:
    """Draw ``n`` cards for ``seat`` from the top of the deck, reshuffling the discard pile when
    the deck runs out; the cards are told to ``seat`` only, their number to everyone. Returns how
    many were drawn (fewer if both piles are empty)."""
    s = story.s
    got: list[str] = []
    for _ in range(n):
        if not s.deck and s.discard:
            s.deck = list(s.discard)
            s.discard = []
            s.rng.shuffle(s.deck)
            s.reshuffles += 1
            story.say(
                f"The action deck ran out: the {len(s.deck)} discarded cards are shuffled into a new deck.",
                kind="reshuffle")
        if not s.deck:
            story.say(f"No action card is left to draw for {seat_name(seat)}.", kind="draw")
            break
        cid = s.deck.pop(0)
        s.cults[seat].hand.append(cid)
        got.append(cid)
    if got:
        names = ", ".join(card_name(c) for c in got)
        story.tell(seat, f"You draw {names} ({why}).", kind="draw")
        story.say(f"{seat_name(seat)} draws {count(len(got), 'action card')} ({why}).", kind="draw")
    return len(got)


def lose(board: dict[str, int], loss: dict[str, int]) -> int:
    """Take ``loss`` (slot → followers) off ``board``; returns how many died."""
    for slot, n in loss.items():
        board[slot] -= n
    return sum(loss.values())


def losses_text(loss: dict[str, int]) -> str:
    """``loss`` (slot → followers) in words: "1 sacrificial, 2 breeders"."""
    names = {"sacrifice": "sacrificial", "breed": "breeder", "defend": "defender",
             "idle": "idle", "attack": "attacker"}
    return ", ".join(f"{n} {names[k]}" if names[k] in ("sacrificial", "idle") else count(n, names[k])
                     for k, n in loss.items() if n) or "nobody"


# ----------------------------------------------------------------------------- taking effect


@dataclass
class CardPlay:
    """One played action card taking effect: the story of the resolution (the state being
    changed and its events), the turn, the card's kind, the seat that played it and its target
    (None: the player's own cult)."""

    story: Story[CultWarsState]
    t: Turn
    kind: ActionKind
    seat: int
    target: int | None

    @property
    def s(self) -> CultWarsState:
        """The state being changed."""
        return self.story.s

    @property
    def who(self) -> str:
        return seat_name(self.seat)

    @property
    def card(self) -> str:
        """How the public line names the card: "P1's Pestilence"."""
        return f"{self.who}'s {self.kind.name}"

    @property
    def victim(self) -> int:
        """The target of a card aimed at another cult (orders always give one)."""
        assert self.target is not None
        return self.target

    @property
    def mods(self) -> Mods:
        """The player's own turn-long modifiers."""
        return self.t.mods[self.seat]


def _cancel_cards(p: CardPlay) -> str:
    tgt = p.victim
    hit = [(kk, q) for kk, q in p.t.in_play
           if kk == tgt and EFFECTS[kind_of(q.card).effect].cancellable
           and q.card not in p.t.cancelled]
    for _kk, q in hit:
        p.t.cancelled.add(q.card)
    if hit:
        names = ", ".join(card_name(q.card) for _kk, q in hit)
        return f"{p.card} cancels {seat_name(tgt)}'s {names}."
    return f"{p.card} finds no card of {seat_name(tgt)} to cancel."


def _attack_bonus(p: CardPlay) -> str:
    p.mods.attack_bonus += p.kind.amount
    return f"{p.card}: their attack fights {p.kind.amount} stronger."


def _defend_bonus(p: CardPlay) -> str:
    p.mods.defend_bonus += p.kind.amount
    return f"{p.card}: their defence fights {p.kind.amount} stronger."


def _weaken_attack(p: CardPlay) -> str:
    p.t.mods[p.victim].weaken += p.kind.amount
    return f"{p.card}: {seat_name(p.victim)}'s attack fights {p.kind.amount} weaker."


def _shelter_sacrifices(p: CardPlay) -> str:
    p.mods.shelter = True
    return f"{p.card}: their sacrificial followers cannot be killed this turn."


def _breed_bonus(p: CardPlay) -> str:
    p.mods.breed_bonus += p.kind.amount
    return f"{p.card}: {count(p.kind.amount, 'extra follower')} will be born if a breeder survives."


def _sacrifice_bonus(p: CardPlay) -> str:
    p.mods.sacrifice_bonus += p.kind.amount
    return (f"{p.card}: their sacrifice will earn {p.kind.amount} extra VP if any "
            "of their sacrificial followers survives.")


def _sacrifice_malus(p: CardPlay) -> str:
    p.t.mods[p.victim].sacrifice_malus += p.kind.amount
    return f"{p.card}: {seat_name(p.victim)}'s sacrifice will earn {p.kind.amount} fewer VP."


def _steal_card(p: CardPlay) -> str:
    tgt = p.victim
    s = p.s
    victim = s.cults[tgt]
    if not victim.hand:
        return f"{p.card} finds {seat_name(tgt)}'s hand empty."
    taken: list[str] = []
    for _ in range(p.kind.amount):
        if not victim.hand:
            break
        cid = victim.hand[s.rng.randint(0, len(victim.hand) - 1)]
        victim.hand.remove(cid)
        s.cults[p.seat].hand.append(cid)
        taken.append(cid)
    names = ", ".join(card_name(c) for c in taken)
    p.story.tell(p.seat, f"Your {p.kind.name} took {names} from {seat_name(tgt)}.", kind="actions")
    p.story.tell(tgt, f"{p.card} took your {names}.", kind="actions")
    return f"{p.card} takes an action card from {seat_name(tgt)}'s hand."


def _draw_cards(p: CardPlay) -> str:
    got = draw(p.story, p.seat, p.kind.amount, p.kind.name)
    return f"{p.card}: {count(got, 'card')} drawn."


def _gain_defenders(p: CardPlay) -> str:
    amt = p.kind.amount
    p.t.board[p.seat]["defend"] += amt
    return (f"{p.card}: {count(amt, 'new follower')} {'joins' if amt == 1 else 'join'} "
            "their defenders.")


def _card_losses(p: CardPlay) -> tuple[int, dict[str, int]]:
    """The target's followers an action card takes (the card order of losses; sheltered
    sacrifices are spared): how many, and from which slots."""
    tgt = p.victim
    loss = home_losses(p.kind.amount, p.t.board[tgt], shelter_sacrifices=p.t.mods[tgt].shelter,
                       order=CARD_LOSS_ORDER)
    return lose(p.t.board[tgt], loss), loss


def _kill_followers(p: CardPlay) -> str:
    lost, loss = _card_losses(p)
    return f"{p.card} kills {lost} of {seat_name(p.victim)}'s followers ({losses_text(loss)})."


def _convert_followers(p: CardPlay) -> str:
    lost, loss = _card_losses(p)
    p.t.board[p.seat]["idle"] += lost
    return (f"{p.card} wins over {lost} of {seat_name(p.victim)}'s followers "
            f"({losses_text(loss)}); they join {p.who} as idle followers.")


# ----------------------------------------------------------------------------- the computer player


@dataclass(frozen=True)
class Plan:
    """The orders the computer player is writing, as its rules for playing a card read them."""

    attack: int
    """Followers on the Attack slot."""
    sacrifice: int
    breed: int
    threat: float
    """How strong an attack on its own cult it expects."""
    turn: int
    last_turn: bool
    vp: int
    """The player's own VP."""
    target_vp: int
    """The VP of the cult it targets."""
    target_hand: int
    """Action cards in that cult's hand."""


def _always(plan: Plan) -> bool:
    return True


# ----------------------------------------------------------------------------- the table


@dataclass(frozen=True)
class Effect:
    """The rules of one effect key."""

    apply: Callable[[CardPlay], str]
    """Makes a played card take effect (step 4) and returns its public line."""
    wanted: Callable[[Plan], bool]
    """The computer player's rule: play the card with these orders."""
    cancellable: bool = True
    """Whether a ``cancel_cards`` card stops it (never one of its own kind)."""


EFFECTS: dict[str, Effect] = {
    "cancel_cards": Effect(
        _cancel_cards, lambda p: p.target_hand >= 2 or p.last_turn, cancellable=False),
    "attack_bonus": Effect(_attack_bonus, lambda p: p.attack >= 2),
    "defend_bonus": Effect(_defend_bonus, lambda p: p.threat >= 3 or p.last_turn),
    "weaken_attack": Effect(_weaken_attack, lambda p: p.threat >= 3 or p.last_turn),
    "shelter_sacrifices": Effect(_shelter_sacrifices, lambda p: p.sacrifice >= 4),
    "breed_bonus": Effect(_breed_bonus, lambda p: p.breed >= 1 and not p.last_turn),
    "sacrifice_bonus": Effect(_sacrifice_bonus, lambda p: p.sacrifice >= 1),
    "sacrifice_malus": Effect(_sacrifice_malus, lambda p: p.turn >= 3 or p.target_vp > p.vp),
    "steal_card": Effect(_steal_card, lambda p: p.target_hand > 0),
    "draw_cards": Effect(_draw_cards, _always),
    "gain_defenders": Effect(_gain_defenders, _always),
    "kill_followers": Effect(_kill_followers, _always),
    "convert_followers": Effect(_convert_followers, _always),
}
"""Effect key (``cards.json``'s ``"effect"``) → its rules."""


def apply(p: CardPlay) -> str:
    """Make ``p``'s card take effect; returns its public line."""
    return EFFECTS[p.kind.effect].apply(p)


def names_with(effect: str) -> str:
    """The names of the cards whose effect is ``effect``, for a line that credits them."""
    return " or ".join(k.name for k in KINDS if k.effect == effect)


def _check() -> None:
    used = {k.effect for k in KINDS}
    if used - set(EFFECTS):
        raise ValueError(f"cards.json: effects without rules: {sorted(used - set(EFFECTS))}")
    if set(EFFECTS) - used:
        raise ValueError(f"effects no card uses: {sorted(set(EFFECTS) - used)}")


_check()
