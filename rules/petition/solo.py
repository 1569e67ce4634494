"""The solo game (one seat): four pillars on face-down fortification stacks, taken one by one.

Rulebook "Solo game rules", with Herald's readings (see ``docs/rules/petition.md``):

* setup: the four gods in the temple, each pillar on a stack of 3 cards, 5 cards and 5 beads;
* a turn (kind ``"solo_turn"``): draw a card (and every pillar's stack gets one), or attack a
  pillar (kind ``"solo_attack"``: one or more cards; powerups count as citizens with their solo
  power in every pillar);
* as many of the pillar's cards are turned up; the lower power wins the pillar's god's +3 favour:
  the player's lower power wins the battle with faith; otherwise the pillar, favoured or tied,
  must be overpowered by brute force (kind ``"solo_add"``: each card added turns up one more of
  the stack; the player must pass the pillar's total, +3 if the pillar has the favour), or given
  up;
* a win (with faith or by force) takes the pillar, deals the rest of its stack to the other
  pillars (drawing for any that got nothing) and leads to the reset; a loss costs a bead and
  nothing more; used cards are discarded;
* the reset: with a favour the god draws a card, which the player matches with a card of its hand
  (at least that many points in one pillar where the god's card has points; kind ``"tithe"``) or
  pays a bead; then the hand refills to 5 and every pillar gets a card;
* rules revision 1 (games stored before revision 2): a win with faith leaves the pillar standing
  and goes to the reset, and a loss is followed by the reset too;
* the game is won with all four pillars, lost when the beads run out (or at the round limit, or
  with no card left to play or draw).
"""

from __future__ import annotations

from ..engine import Action, Choice, Prompt, Result, Story
from ..text import count, listing
from .cards import card_json, cards_prompt, read_cards
from .content import (
    CARDS,
    GODS,
    HAND_LIMIT,
    PILLAR_NAMES,
    PILLARS,
    SOLO_BEADS,
    SOLO_STACK,
    card_name,
)
from .state import PetitionState, Solo, SoloBattle
from .views import SoloView

SOLO_HAND = 5
PILLAR_FAVOUR = 3


def power(card_id: str, pillar: str) -> int:
    """A card's power against a pillar in the solo game (a powerup counts its solo power)."""
    c = CARDS[card_id]
    return c.power(pillar) if c.is_citizen else c.solo_power


def total(cards: list[str], pillar: str) -> int:
    return sum(power(c, pillar) for c in cards)


def _draw(s: PetitionState) -> str | None:
    return s.draw()


def setup(s: PetitionState) -> None:
    s.solo = Solo()
    for kind in PILLARS:
        s.solo.stacks[kind] = [s.deck.pop(0) for _ in range(SOLO_STACK)]
    me = s.seats[0]
    me.hand = [s.deck.pop(0) for _ in range(SOLO_HAND)]
    me.beads = min(SOLO_BEADS, s.temple)
    s.temple -= me.beads
    s.phase = "solo_turn"


def prompts(s: PetitionState) -> list[Prompt]:
    solo = s.solo
    assert solo is not None
    me = s.seats[0]
    if s.phase == "solo_turn":
        choices: list[Choice] = []
        if len(me.hand) < HAND_LIMIT and (s.deck or s.discard):
            choices.append(Choice("Draw a card", {"type": "draw"},
                                  description="every pillar's stack also gets a card"))
        if me.hand:
            for kind, stack in solo.stacks.items():
                choices.append(Choice(f"Attack the {PILLAR_NAMES[kind]} pillar",
                                      {"type": "attack", "pillar": kind},
                                      description=f"its stack holds {count(len(stack), 'card')}"))
        if not choices:
            choices.append(Choice("Give up", {"type": "give_up"}))
        text = (f"Round {s.round}: draw a card or attack a pillar. You hold {count(len(me.hand), 'card')} "
                f"and {count(me.beads, 'bead')}; {count(len(solo.captured), 'pillar')} taken of 4.")
        return [Prompt(0, "solo_turn", text, tuple(choices))]
    b = solo.battle
    if s.phase == "solo_attack" and b is not None:
        return [cards_prompt(
            0, "solo_attack",
            f"Attack the {PILLAR_NAMES[b.pillar]} pillar: as many of its cards are turned up as you "
            "lay. The lower power wins the god's favour, and with it the battle.",
            purpose="solo_attack", pillar=b.pillar, cards=list(me.hand), min_=1, max_=len(me.hand),
            confirm="Attack", secret=False, timeout_note="the computer player chooses",
            values={c: power(c, b.pillar) for c in me.hand})]
    if s.phase == "solo_add" and b is not None:
        mine, theirs = total(b.played, b.pillar), pillar_total(b)
        text = (f"Brute force against the {PILLAR_NAMES[b.pillar]} pillar: you stand at {mine} against "
                f"{theirs}. Add cards (each turns up one more of its cards) or give up the battle.")
        return [cards_prompt(0, "solo_add", text, purpose="solo_add", pillar=b.pillar,
                             cards=list(me.hand), min_=0, max_=len(me.hand), confirm="Add these",
                             secret=False, timeout_note="you give up the battle",
                             values={c: power(c, b.pillar) for c in me.hand})]
    if s.phase == "tithe" and solo.tithe_card is not None:
        god = solo.tithe_card
        ok = matching(god, me.hand)
        text = (f"{GODS[solo.tithe_god or 'art'].name} draws {card_name(god)}: give a card matching one of "
                "its powers, or pay a bead as tithe.")
        return [cards_prompt(0, "tithe", text, purpose="tithe", pillar=None, cards=ok, min_=0,
                             max_=min(1, len(ok)), confirm="Give this card", secret=False,
                             timeout_note="the computer player chooses")]
    return []


def matching(god_card: str, hand: list[str]) -> list[str]:
    """Hand cards that match the god's card: at least its points in a pillar where it has some."""
    wants = [(k, power(god_card, k)) for k in PILLARS if power(god_card, k) > 0]
    return [c for c in hand if any(power(c, k) >= v for k, v in wants)]


def pillar_total(b: SoloBattle) -> int:
    return total(b.revealed, b.pillar) + (PILLAR_FAVOUR if b.favoured == "pillar" else 0)


def play(story: Story[PetitionState], seat: int, action: Action, prompt: Prompt) -> None:
    """Apply the solo player's answer to ``prompt``: the turn, the opening attack, the cards
    added in a battle, or the tithe."""
    assert story.s.solo is not None
    if prompt.kind == "solo_turn":
        _play_turn(story, action)
    elif prompt.kind == "solo_attack":
        _play_attack(story, action, prompt)
    elif prompt.kind == "solo_add":
        _play_add(story, action, prompt)
    else:
        _play_tithe(story, action, prompt)


def _play_turn(story: Story[PetitionState], action: Action) -> None:
    """Draw (each pillar grows by a card), give up, or attack a pillar."""
    s = story.s
    solo = s.solo
    assert solo is not None
    me = s.seats[0]
    if action["type"] == "draw":
        got = _draw(s)
        if got is not None:
            me.hand.append(got)
        fed = _feed_pillars(s)
        story.say(f"P1 draws a card; {count(fed, 'pillar')} grow by a card.", kind="solo_draw")
        if got is not None:
            story.tell(0, f"You draw {card_name(got)}.", kind="draw", data={"cards": [got]})
        _next_turn(story)
        return
    if action["type"] == "give_up":
        _over(story, "nothing was left to play or draw")
        return
    solo.battle = SoloBattle(str(action["pillar"]))
    s.phase = "solo_attack"
    story.say(f"P1 attacks the {PILLAR_NAMES[solo.battle.pillar]} pillar.", kind="solo_attack")


def _play_attack(story: Story[PetitionState], action: Action, prompt: Prompt) -> None:
    """The attack cards laid, as many fortifications turned up; the lower power wins the god's
    favour."""
    s = story.s
    solo = s.solo
    assert solo is not None
    b = solo.battle
    assert b is not None
    me = s.seats[0]
    picked = read_cards(action, prompt)
    for c in picked:
        me.hand.remove(c)
    b.played = picked
    stack = solo.stacks[b.pillar]
    n = min(len(picked), len(stack))
    b.revealed = stack[:n]
    del stack[:n]
    mine, theirs = total(b.played, b.pillar), total(b.revealed, b.pillar)
    story.say(f"P1 lays {listing([card_name(c) for c in picked])} ({mine}); the pillar turns up "
              f"{listing([card_name(c) for c in b.revealed]) or 'nothing'} ({theirs}).",
              kind="solo_reveal",
              data={"played": [card_json(c) for c in picked],
                    "revealed": [card_json(c) for c in b.revealed], "mine": mine, "theirs": theirs})
    god = GODS[b.pillar].name
    if mine < theirs:
        b.favoured = "player"
        g = s.gods[b.pillar]
        g.holder, g.bonus, g.since = 0, PILLAR_FAVOUR, s.turn
        if s.rules >= 2:
            # the rulebook: with the god's favour the battle is won with faith, and a won
            # battle takes the pillar
            story.say(f"The lower power wins {god}'s favour (+3): P1 wins the battle "
                      "with faith.", kind="solo_faith")
            _win(story, b)
            return
        story.say(f"The lower power wins {god}'s favour (+3): P1 wins the battle with faith "
                  "and keeps their beads, but the pillar stands.", kind="solo_faith")
        s.discard += b.played + b.revealed
        solo.battle = None
        _reset(story)
        return
    if mine > theirs:
        b.favoured = "pillar"
        story.say(f"The pillar's lower power wins {god}'s favour (+3): P1 is godless and must "
                  "overpower it.", kind="solo_godless")
    else:
        story.say("Equal power: nobody wins the favour, and P1 must overpower the pillar.",
                  kind="solo_godless")
    _check_force(story, b)


def _play_add(story: Story[PetitionState], action: Action, prompt: Prompt) -> None:
    """More cards added to the battle (as many more fortifications turned up), or none: the
    battle given up."""
    s = story.s
    solo = s.solo
    assert solo is not None
    b = solo.battle
    assert b is not None
    me = s.seats[0]
    picked = read_cards(action, prompt)
    if not picked:
        story.say("P1 gives up the battle.", kind="solo_pass")
        _lose(story, b)
        return
    for c in picked:
        me.hand.remove(c)
    b.played += picked
    stack = solo.stacks[b.pillar]
    n = min(len(picked), len(stack))
    more = stack[:n]
    del stack[:n]
    b.revealed += more
    story.say(f"P1 adds {listing([card_name(c) for c in picked])}; the pillar turns up "
              f"{listing([card_name(c) for c in more]) or 'nothing more'}: "
              f"{total(b.played, b.pillar)} against {pillar_total(b)}.", kind="solo_add",
              data={"added": [card_json(c) for c in picked], "revealed": [card_json(c) for c in more]})
    _check_force(story, b)


def _play_tithe(story: Story[PetitionState], action: Action, prompt: Prompt) -> None:
    """The tithe: a matching card given, or a bead paid (the last bead ends the game)."""
    s = story.s
    solo = s.solo
    assert solo is not None
    me = s.seats[0]
    picked = read_cards(action, prompt)
    god_card = solo.tithe_card
    assert god_card is not None
    s.discard.append(god_card)
    solo.tithe_card = None
    g = s.gods[solo.tithe_god or b_key(s)]
    solo.tithe_god = None
    g.holder, g.bonus, g.since = None, 0, 0
    if picked:
        me.hand.remove(picked[0])
        s.discard.append(picked[0])
        story.say(f"P1 gives {card_name(picked[0])} as tithe.", kind="tithe")
    else:
        me.beads -= 1
        s.temple += 1
        story.say("P1 pays a bead as tithe.", kind="tithe")
        if me.beads <= 0:
            _over(story, "the beads ran out")
            return
    _refill(story)


def b_key(s: PetitionState) -> str:
    held = [g.key for g in s.gods.values() if g.holder == 0]
    return held[0] if held else PILLARS[0]


def _check_force(story: Story[PetitionState], b: SoloBattle) -> None:
    s = story.s
    if total(b.played, b.pillar) > pillar_total(b):
        story.say("P1 overpowers the pillar.", kind="solo_force")
        _win(story, b)
    elif not s.seats[0].hand:
        story.say("P1 has no card left to add.", kind="solo_pass")
        _lose(story, b)
    else:
        s.phase = "solo_add"


def _win(story: Story[PetitionState], b: SoloBattle) -> None:
    s = story.s
    solo = s.solo
    assert solo is not None
    rest = solo.stacks.pop(b.pillar)
    solo.captured.append(b.pillar)
    s.discard += b.played + b.revealed
    solo.battle = None
    story.say(f"P1 takes the {PILLAR_NAMES[b.pillar]} pillar ({len(solo.captured)} of 4).",
              kind="solo_captured", data={"pillar": b.pillar})
    if len(solo.captured) == len(PILLARS):
        _over(story, "all four pillars are taken", won=True)
        return
    s.rng.shuffle(rest)
    others = list(solo.stacks)
    got = dict.fromkeys(others, 0)
    for i, c in enumerate(rest):
        k = others[i % len(others)]
        solo.stacks[k].append(c)
        got[k] += 1
    for k in others:
        if not got[k]:
            card = _draw(s)
            if card is not None:
                solo.stacks[k].append(card)
    _reset(story)


def _lose(story: Story[PetitionState], b: SoloBattle) -> None:
    s = story.s
    solo = s.solo
    assert solo is not None
    me = s.seats[0]
    s.discard += b.played + b.revealed
    solo.battle = None
    me.beads -= 1
    s.temple += 1
    story.say(f"The {PILLAR_NAMES[b.pillar]} pillar holds; P1 pays a bead.", kind="solo_lost")
    if me.beads <= 0:
        _over(story, "the beads ran out")
    elif s.rules >= 2:
        _next_turn(story)  # the rulebook resets only after a win
    else:
        _reset(story)


def _reset(story: Story[PetitionState]) -> None:
    s = story.s
    solo = s.solo
    assert solo is not None
    held = [g for g in s.gods.values() if g.holder == 0]
    if held:
        card = _draw(s)
        if card is not None:
            solo.tithe_card = card
            solo.tithe_god = held[0].key
            s.phase = "tithe"
            story.say(f"{GODS[held[0].key].name} draws {card_name(card)} for the tithe.", kind="tithe_card",
                      data={"card": card_json(card)})
            return
        for g in held:
            g.holder, g.bonus, g.since = None, 0, 0
    _refill(story)


def _refill(story: Story[PetitionState]) -> None:
    s = story.s
    me = s.seats[0]
    got = []
    while len(me.hand) < SOLO_HAND:
        card = _draw(s)
        if card is None:
            break
        me.hand.append(card)
        got.append(card)
    _feed_pillars(s)
    story.say(f"Reset: P1 draws back to {count(len(me.hand), 'card')} and every pillar gets a card.",
              kind="solo_reset")
    if got:
        story.tell(0, f"You draw {listing([card_name(c) for c in got])}.", kind="draw",
                   data={"cards": got})
    _next_turn(story)


def _feed_pillars(s: PetitionState) -> int:
    solo = s.solo
    assert solo is not None
    fed = 0
    for stack in solo.stacks.values():
        card = _draw(s)
        if card is None:
            break
        stack.append(card)
        fed += 1
    return fed


def _next_turn(story: Story[PetitionState]) -> None:
    s = story.s
    s.turn += 1
    s.round += 1
    s.phase = "solo_turn"
    if s.round > s.round_limit:
        _over(story, f"the round limit ({s.round_limit}) was reached")


def _over(story: Story[PetitionState], why: str, won: bool = False) -> None:
    s = story.s
    s.phase = "over"
    s.over_reason = why
    verdict = "P1 wins" if won else "P1 loses"
    story.say(f"The solo game ends: {why}. {verdict}.", kind="over")


def result(s: PetitionState) -> Result:
    solo = s.solo
    assert solo is not None
    won = len(solo.captured) == len(PILLARS)
    return Result((0,) if won else (), {0: float(len(solo.captured))},
                  f"{s.over_reason}; {len(solo.captured)} of 4 pillars taken")


def view(s: PetitionState) -> SoloView:
    solo = s.solo
    assert solo is not None
    b = solo.battle
    return {"stacks": {k: len(v) for k, v in solo.stacks.items()}, "captured": list(solo.captured),
            "battle": None if b is None else {
                "pillar": b.pillar, "played": [card_json(c) for c in b.played],
                "revealed": [card_json(c) for c in b.revealed], "favoured": b.favoured,
                "mine": total(b.played, b.pillar), "theirs": pillar_total(b)},
            "tithe_card": None if solo.tithe_card is None else card_json(solo.tithe_card),
            "tithe_god": solo.tithe_god}
