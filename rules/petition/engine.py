"""The Petition engine: turns, petitions and challenges, campaigns and battles, the end; the solo
game with one seat (:mod:`rules.petition.solo`).

A turn (prompt kind ``"turn"``, enumerated): draw 2 cards, take 2 beads or one of each (hand limit
10); then, holding a bead, swap a card or buy one for a bead (kind ``"extra"``). Or a campaign
action instead: petition a god in the temple, become a godless heathen (1 bead), or — holding a
god's favour or a heathen's licence won before this turn — attack one pillar of another player.

A petition: the petitioner offers 2 or more beads (kind ``"offer"``); every other player with an
active pillar is asked at once whether to challenge with a counter-offer (kind ``"challenge"``,
public, deadline = the ``challenge_window`` table option, "No challenge" at the deadline). The
challengers are met one after another in seat order after the petitioner: the holder withdraws
or meets (kind ``"respond"``), both sides bid citizens of the god face down at the same time
(kind ``"bid"``, secret), the Challenger chart (:func:`rules.petition.battle.judge`) decides, and
the winner faces the next challenger.

A campaign: both sides lay cards face down at the same time (kinds ``"attack"`` and ``"defend"``,
secret; a card-locked side's cards are already on the table); the defender laying none
surrenders; otherwise after the reveal the sides take turns adding cards or passing (kind
``"reinforce"``) until both pass in a row; the tally decides; a captured pillar (and its
fortification) is placed by the captor (kind ``"place"``: fortify one of its pillars or stash).
With ``winner_takes_all`` a victorious defender takes one of the attacker's pillars (kind
``"claim"`` when the contested kind is not available). Whenever a hand holds more than the hand
limit (rules revision 2: citizens came back to it), its seat discards down to the limit first
(kind ``"discard"``, a card pick of exactly the excess); play then goes on where it was.

Prompt ``params``: every card pick (kinds ``"bid"``, ``"attack"``, ``"defend"``, ``"reinforce"``,
``"solo_attack"``, ``"solo_add"``, ``"tithe"``, ``"discard"``) carries ``purpose``, ``pillar``, ``cards`` (exactly
the pickable cards, as ``{"id", "name", "kind", "god", "points", "text"}``, plus ``"value"`` —
what the card adds to this pick's pillar total — where that is not simply its points there: every
solo pick, a fortified defender's citizens), ``min``, ``max``,
``confirm`` and ``can_pass``; the answer is ``{"type": "cards", "cards": [id, ...]}``. Enumerated
prompts carry ``{}`` except ``"challenge"`` (``god``, ``petitioner``, ``offer``) and ``"offer"``
(``god``, ``max``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, cast

from ..engine import (
    REVISION_OPTION,
    Action,
    Choice,
    Engine,
    Event,
    IllegalAction,
    Option,
    Prompt,
    Result,
    Rng,
    Story,
    seat_name,
    shown,
)
from ..search import STRENGTH
from ..text import count, listing
from . import search as search_rules
from . import solo as solo_rules
from .battle import can_play, citizen_value, judge, tally
from .bot import choose
from .cards import card_face, card_json, cards_prompt, read_cards
from .content import (
    BEADS_DEFAULT,
    BEADS_MAX,
    BEADS_MIN,
    CARDS,
    DEAL_BEADS,
    DEAL_CARDS,
    DECK_IDS,
    FAVOUR_UNCHALLENGED,
    FAVOUR_WITHDRAWN,
    GODS,
    HAND_LIMIT,
    PILLAR_NAMES,
    PILLAR_STAND,
    PILLARS,
    card_name,
)
from .state import Bid, Campaign, GodState, Petition, PetitionState, PillarRef, Player, upgrade
from .views import (
    BidsRevealView,
    BidView,
    CampaignRevealView,
    CampaignStage,
    CampaignView,
    GodView,
    PetitionStage,
    PetitionView,
    Phase,
    PrivateView,
    ResultView,
    SeatView,
    View,
    read_view,
)

SUMMARY = """\
Two to six rival cultures, each with four pillars (Art, Economy, Magic, War), petition the gods \
for favour and send their citizens against each other's pillars. On your turn draw cards, take \
prayer beads or one of each (and swap or buy a card for a bead); or petition the god of a pillar \
with two or more beads — every other player may challenge with a counter-offer, and then both \
sides bid that god's citizens face down and the Challenger chart weighs faith against action; or \
become a godless heathen for one bead.

Holding a favour (+3 or +1) or a heathen's licence, attack a pillar on your next turn: both sides \
lay cards face down, reveal, then take turns adding cards until both pass. Beat the defence and \
the pillar is yours — fortify one of your own with it or set it aside. When a player has no active \
pillar left, the most captured pillars wins. With one seat, the solo game: take the four \
pillars from their fortification stacks before your beads run out.\
"""

WINDOW_MINUTES = (1, 1440)
DEFAULT_WINDOW_MINUTES = 30
ROUND_LIMIT = (5, 200)
DEFAULT_ROUND_LIMIT = 40
NO_CHALLENGE = "No challenge"

RULES = 2
"""The rules revision new games are set up with (recorded in the state, so a game keeps the rules
it started with). Revision 1, Herald's first reading, is kept for games stored before revision 2:
a challenge without citizens of the god, a card lock only in a battle over its god's pillar, a
favour returning to the temple after its battle, no discard down to the hand limit, pillars that
stand 3, and a solo game where a faith win leaves the pillar standing and a loss is followed by a
reset. Revision 2 follows the rulebook wherever it is explicit (``docs/rules/petition.md``)."""


def pillar_label(kind: str) -> str:
    return PILLAR_NAMES[kind]


def god_label(key: str) -> str:
    return f"{GODS[key].name} ({PILLAR_NAMES[key]})"


class PetitionEngine(Engine[PetitionState]):
    key = "petition"
    name = "Petition"
    min_players = 1
    max_players = 6
    summary = SUMMARY
    rules_page = "docs/rules/petition.md"
    schema_version = 2
    rules_revision = RULES
    options = (
        Option("beads", "int", "prayer beads in the game, a finite supply", default=BEADS_DEFAULT,
               lo=BEADS_MIN, hi=BEADS_MAX, unit="beads"),
        Option("challenge_window", "int", "minutes the other players have to challenge a petition; "
               "no answer means no challenge", default=DEFAULT_WINDOW_MINUTES,
               lo=WINDOW_MINUTES[0], hi=WINDOW_MINUTES[1], unit="minutes"),
        Option("winner_takes_all", "bool", "true: a defender who wins a battle takes one of the "
               "attacker's pillars", default=False),
        Option("last_man_standing", "bool", "true: play on until only one player has active "
               "pillars", default=False),
        Option("round_limit", "int", "the game also ends after this many rounds, tie-breaks "
               "deciding", default=DEFAULT_ROUND_LIMIT, lo=ROUND_LIMIT[0], hi=ROUND_LIMIT[1],
               unit="rounds"),
        Option("pillar_stand", "bool", f"true: Herald's rule that a pillar card adds {PILLAR_STAND} "
               "to its own defence when the defender lays a card; not in the rulebook",
               default=False),
        STRENGTH,
    )
    fill_option_defaults = True

    # ------------------------------------------------------------------ setup
    def setup(self, players: int, seed: int, options: Mapping[str, Any] | None = None) -> PetitionState:
        """A new game, under the rules revision its options record (the platform records the
        current one when a table opens), else the current one."""
        opts = self.validate_options(players, options or {})
        return self._setup(players, seed, opts, int(opts.get(REVISION_OPTION, RULES)))

    def revision_of(self, state: PetitionState) -> int:
        return state.rules


    def _setup(self, players: int, seed: int, options: Mapping[str, Any] | None,
               rules: int) -> PetitionState:
        opts = self.validate_options(players, options or {})
        rng = Rng(seed)
        deck = list(DECK_IDS)
        rng.shuffle(deck)
        s = PetitionState(players=players, rng=rng, seats=[Player() for _ in range(players)],
                          deck=deck, temple=int(opts["beads"]),
                          gods={k: GodState(k) for k in PILLARS},
                          winner_takes_all=bool(opts["winner_takes_all"]),
                          last_man_standing=bool(opts["last_man_standing"]),
                          challenge_window=int(opts["challenge_window"]) * 60,
                          round_limit=int(opts["round_limit"]), rules=rules,
                          stand=PILLAR_STAND if opts["pillar_stand"] or rules < 2 else 0)
        if players == 1:
            solo_rules.setup(s)
            return s
        for p in s.seats:
            p.hand = [s.deck.pop(0) for _ in range(DEAL_CARDS)]
            p.beads = DEAL_BEADS
            s.temple -= DEAL_BEADS
        return s

    # ------------------------------------------------------------------ helpers
    @staticmethod
    def _draw(s: PetitionState, seat: int, n: int) -> list[str]:
        """Draw up to ``n`` cards (the discard pile is shuffled in when the deck runs out)."""
        got: list[str] = []
        for _ in range(n):
            card = s.draw()
            if card is None:
                break
            s.seats[seat].hand.append(card)
            got.append(card)
        return got

    @staticmethod
    def _tell_drawn(story: Story[PetitionState], seat: int, got: list[str], how: str) -> None:
        """The table hears what ``seat`` did; only ``seat`` sees the cards it drew."""
        story.say(f"{seat_name(seat)} {how}", kind="turn")
        if got:
            story.tell(seat, f"You draw {listing([card_name(c) for c in got])}.", kind="draw",
                       data={"cards": list(got)})

    @staticmethod
    def gods_of(s: PetitionState, seat: int) -> list[GodState]:
        return [g for g in s.gods.values() if g.holder == seat]

    @staticmethod
    def may_attack(s: PetitionState, seat: int) -> bool:
        p = s.seats[seat]
        licensed = any(g.since < s.turn for g in s.gods.values() if g.holder == seat)
        return licensed or (p.heathen_since is not None and p.heathen_since < s.turn)

    @staticmethod
    def alive(s: PetitionState, seat: int) -> bool:
        return bool(s.seats[seat].active_pillars())

    # ------------------------------------------------------------------ prompts
    def prompts(self, state: PetitionState) -> list[Prompt]:
        s = state
        if s.phase == "over":
            return []
        if s.solo is not None:
            return solo_rules.prompts(s)
        over = self._over_limit(s)
        if over:
            return [self._discard_prompt(s, k) for k in over]
        if s.phase == "turn":
            return [self._turn_prompt(s)]
        if s.phase == "extra":
            return [self._extra_prompt(s)]
        if s.phase == "petition" and s.petition is not None:
            return self._petition_prompts(s, s.petition)
        if s.phase == "campaign" and s.campaign is not None:
            return self._campaign_prompts(s, s.campaign)
        if s.phase == "place":
            return [self._place_prompt(s)]
        if s.phase == "claim":
            return [self._claim_prompt(s)]
        return []

    @staticmethod
    def _over_limit(s: PetitionState) -> list[int]:
        """Seats holding more than the hand limit (revision 2: bid or locked citizens came back to
        a full hand); each discards down to the limit before play goes on."""
        if s.rules < 2:
            return []
        return [k for k, p in enumerate(s.seats) if len(p.hand) > HAND_LIMIT]

    @staticmethod
    def _discard_prompt(s: PetitionState, seat: int) -> Prompt:
        hand = s.seats[seat].hand
        n = len(hand) - HAND_LIMIT
        text = (f"Citizens came back to your hand, which now holds {count(len(hand), 'card')}: the "
                f"hand limit is {HAND_LIMIT}, so discard {count(n, 'card')} of your choice.")
        return cards_prompt(seat, "discard", text, purpose="discard", pillar=None, cards=list(hand),
                            min_=n, max_=n, confirm=f"Discard {count(n, 'card')}", secret=False,
                            timeout_note="the computer player chooses which")

    def _play_discard(self, story: Story[PetitionState], seat: int, action: Action, prompt: Prompt) -> None:
        s = story.s
        picked = read_cards(action, prompt)
        for cid in picked:
            s.seats[seat].hand.remove(cid)
        s.discard += picked
        story.say(f"{seat_name(seat)} discards {listing([card_name(c) for c in picked])} down to "
                  f"the hand limit of {HAND_LIMIT}.", kind="discard",
                  data={"seat": seat, "cards": [card_face(c) for c in picked]})

    def _turn_prompt(self, s: PetitionState) -> Prompt:
        seat = s.turn_seat
        p = s.seats[seat]
        hand = len(p.hand)
        can_draw = bool(s.deck or s.discard)
        choices: list[Choice] = []
        if hand + 2 <= HAND_LIMIT and can_draw:
            choices.append(Choice("Draw 2 cards", {"type": "draw"}, group="Gather"))
        if s.temple >= 1:
            took = min(2, s.temple)
            choices.append(Choice(f"Take {count(took, 'bead')}", {"type": "beads"}, group="Gather"))
        if hand + 1 <= HAND_LIMIT and can_draw and s.temple >= 1:
            choices.append(Choice("Draw 1 card and take 1 bead", {"type": "both"}, group="Gather"))
        holding = bool(self.gods_of(s, seat)) or p.heathen_since is not None
        if not holding:
            if p.beads >= 2:
                for key, g in s.gods.items():
                    if g.holder is None:
                        choices.append(Choice(f"Petition {god_label(key)}", {"type": "petition", "god": key},
                                              group="Petition",
                                              description=f"offer 2+ beads for the {PILLAR_NAMES[key]} god's favour"))
            if p.beads >= 1:
                choices.append(Choice("Become a godless heathen (1 bead)", {"type": "heathen"},
                                      group="Petition",
                                      description="no bonus and no challenge; attack on your next turn"))
        if self.may_attack(s, seat):
            for k in range(s.players):
                if k == seat:
                    continue
                for kind in s.seats[k].active_pillars():
                    choices.append(Choice(f"Attack {seat_name(k)}'s {pillar_label(kind)}",
                                          {"type": "attack", "seat": k, "pillar": kind},
                                          group=f"Attack {seat_name(k)}"))
        if not any(c.group == "Gather" for c in choices):
            if s.rules >= 2 and p.beads >= 1 and can_draw:
                # the swap or the buy comes "additionally", with or without a gather
                choices.append(Choice("Gather nothing", {"type": "pass"},
                                      description="your hand is full and the temple is empty; "
                                                  "you may still swap or buy a card"))
            else:
                choices.append(Choice("End turn", {"type": "pass"}))
        licence = ""
        if self.may_attack(s, seat):
            licence = " You may attack this turn."
        text = (f"Round {s.round}, your turn: gather (hand limit {HAND_LIMIT}), petition a god, or "
                f"attack. You hold {count(hand, 'card')} and {count(p.beads, 'bead')}.{licence}")
        return Prompt(seat, "turn", text, tuple(choices))

    def _extra_prompt(self, s: PetitionState) -> Prompt:
        seat = s.turn_seat
        p = s.seats[seat]
        choices: list[Choice] = [Choice("End turn", {"type": "end"})]
        can_draw = bool(s.deck or s.discard)
        if can_draw and len(p.hand) < HAND_LIMIT:
            choices.append(Choice("Buy a card (1 bead)", {"type": "buy"}))
        if can_draw:
            for cid in p.hand:
                c = CARDS[cid]
                choices.append(Choice(f"Swap {c.name}", {"type": "swap", "card": cid}, group="Swap",
                                      description=c.text[:100]))
        text = (f"You hold {count(p.beads, 'bead')}: swap a card for the top of the deck, buy a "
                "card for a bead, or end your turn.")
        return Prompt(seat, "extra", text, tuple(choices), timeout_note="your turn ends")

    def _petition_prompts(self, s: PetitionState, pet: Petition) -> list[Prompt]:
        god = god_label(pet.god)
        if pet.stage == "offer":
            p = s.seats[pet.petitioner]
            choices = tuple(Choice(f"Offer {count(n, 'bead')}", {"type": "offer", "beads": n})
                            for n in range(2, p.beads + 1))
            return [Prompt(pet.petitioner, "offer",
                           f"How many beads do you offer {god}? Every other player may then "
                           "challenge with a counter-offer.", choices,
                           params={"god": pet.god, "max": p.beads})]
        if pet.stage == "challenge":
            assert pet.holder is not None
            out = []
            for k in self._asked(s, pet):
                if k in pet.answers:
                    continue
                beads = s.seats[k].beads
                if s.rules >= 2 and not self._servants(s, k, pet.god):
                    beads = 0  # each side of a challenge bids at least one citizen of the god
                options = [Choice(NO_CHALLENGE, {"type": "challenge", "beads": 0})]
                options += [Choice(f"Challenge with {count(n, 'bead')}", {"type": "challenge", "beads": n})
                            for n in range(1, beads + 1)]
                text = (f"{seat_name(pet.petitioner)} petitions {god} with "
                        f"{count(pet.holder.beads, 'bead')}. Challenge with a counter-offer (the beads go "
                        "to the temple whatever happens), or let it pass.")
                if s.rules >= 2:
                    text += (f" A challenger bids at least one citizen who serves {GODS[pet.god].name}"
                             + ("." if beads else "; you hold none, so you cannot challenge."))
                out.append(Prompt(k, "challenge", text, tuple(options), timeout_note="no challenge",
                                  params={"god": pet.god, "petitioner": pet.petitioner,
                                          "offer": pet.holder.beads},
                                  deadline=s.challenge_window))
            return out
        if pet.stage == "respond":
            assert pet.holder is not None and pet.challenger is not None
            refund = " and get your beads back" if pet.refundable else ""
            meet = Choice("Meet the challenge", {"type": "meet"},
                          description="both of you bid citizens of the god face down")
            withdraw = Choice("Withdraw", {"type": "withdraw"},
                              description=f"give up the petition{refund}")
            text = (f"{seat_name(pet.challenger.seat)} challenges your hold on {god} with "
                    f"{count(pet.challenger.beads, 'bead')} against your {pet.holder.beads}: meet "
                    f"the challenge or withdraw{refund}.")
            choices = (meet, withdraw)
            if (s.rules >= 2 and not pet.holder.standing
                    and not self._servants(s, pet.holder.seat, pet.god)):
                choices = (withdraw,)
                text += (f" You hold no citizen who serves {GODS[pet.god].name} to bid, so you can "
                         "only withdraw.")
            return [Prompt(pet.holder.seat, "respond", text, choices)]
        if pet.stage == "bid":
            out = []
            for side in (pet.holder, pet.challenger):
                assert side is not None
                if side.cards is None:
                    out.append(self._bid_prompt(s, pet, side))
            return out
        return []

    @staticmethod
    def _servants(s: PetitionState, seat: int, god: str) -> list[str]:
        """The citizens in ``seat``'s hand who serve ``god`` (what it can bid to that god)."""
        return [c for c in s.seats[seat].hand if CARDS[c].god == god and CARDS[c].is_citizen]

    def _bid_prompt(self, s: PetitionState, pet: Petition, side: Bid) -> Prompt:
        mine = self._servants(s, side.seat, pet.god)
        lo = 1 if mine and not side.standing else 0
        text = (f"Bid citizens who serve {god_label(pet.god)} face down ({count(side.beads, 'bead')} "
                "already offered). Both bids are revealed together; the god weighs beads plus "
                "citizens.")
        if side.standing:
            text += (f" Your {count(len(side.standing), 'citizen')} from the last duel still stand; "
                     "add more or none.")
        elif not mine:
            text += " You hold none, so your bid is your beads alone."
        return cards_prompt(side.seat, "bid", text, purpose="bid", pillar=pet.god, cards=mine,
                            min_=lo, max_=len(mine), confirm="Bid these citizens", secret=True,
                            timeout_note="the computer player bids for you")

    def _asked(self, s: PetitionState, pet: Petition) -> list[int]:
        """Who may challenge: every other player with an active pillar (never a secret)."""
        return [k for k in range(s.players) if k != pet.petitioner and self.alive(s, k)]

    def _usable(self, s: PetitionState, c: Campaign, seat: int) -> list[str]:
        attacking = seat == c.attacker
        role = "attack" if attacking else "defend"
        favour = (c.attack_bonus if attacking else c.defend_bonus) > 0
        locked = c.attack_locked if attacking else c.defend_locked
        fort = None
        if not attacking:
            f = s.seats[c.defender].pillars[c.pillar].fortification
            fort = f.kind if f is not None else None
        return [cid for cid in s.seats[seat].hand
                if can_play(CARDS[cid], role, c.pillar, favour=favour, locked=locked, fortification=fort)]

    def _campaign_prompts(self, s: PetitionState, c: Campaign) -> list[Prompt]:
        where = f"{seat_name(c.defender)}'s {pillar_label(c.pillar)}"
        if c.stage == "gather":
            out = []
            if not c.attack_ready:
                usable = self._usable(s, c, c.attacker)
                out.append(cards_prompt(
                    c.attacker, "attack",
                    f"Lay your opening cards against {where} face down; the defender lays their own at "
                    "the same time. You may add more in the battle.",
                    purpose="attack", pillar=c.pillar, cards=usable, min_=1 if usable else 0,
                    max_=len(usable), confirm="Attack with these", secret=True,
                    timeout_note="the computer player chooses for you"))
            if not c.defend_ready:
                usable = self._usable(s, c, c.defender)
                text = (f"{seat_name(c.attacker)} attacks your {pillar_label(c.pillar)}. Lay defending "
                        "cards face down, or none to surrender the pillar (you lose no citizens).")
                if c.defend_locked:
                    text = (f"{seat_name(c.attacker)} attacks your {pillar_label(c.pillar)}; your locked "
                            "citizens defend it. You may add powerups now or in the battle.")
                out.append(cards_prompt(
                    c.defender, "defend", text, purpose="defend", pillar=c.pillar, cards=usable,
                    min_=0, max_=len(usable),
                    confirm="Defend with these", secret=True,
                    timeout_note="the computer player chooses for you",
                    values=self._fortified_values(s, c, c.defender, usable)))
            return out
        if c.stage == "battle":
            seat = c.to_act
            usable = self._usable(s, c, seat)
            a, d = self._totals(s, c)
            mine, theirs = (a, d) if seat == c.attacker else (d, a)
            text = (f"Battle for {where}: you stand at {mine} against {theirs}. Add cards, or pass; "
                    "the battle ends when both sides pass in a row.")
            return [cards_prompt(seat, "reinforce", text, purpose="reinforce", pillar=c.pillar,
                                 cards=usable, min_=0, max_=len(usable), confirm="Add these cards",
                                 secret=False, timeout_note="you pass",
                                 values=self._fortified_values(s, c, seat, usable))]
        return []

    @staticmethod
    def _fortified_values(s: PetitionState, c: Campaign, seat: int,
                          usable: Sequence[str]) -> dict[str, int] | None:
        """A defender whose pillar is fortified counts each citizen's better kind, not just its
        points in the pillar: the prompt says so card by card (None when nothing differs)."""
        f = s.seats[c.defender].pillars[c.pillar].fortification
        if seat != c.defender or f is None:
            return None
        return {x: citizen_value(CARDS[x], c.pillar, f.kind) for x in usable if CARDS[x].is_citizen}

    def _place_prompt(self, s: PetitionState) -> Prompt:
        assert s.placer is not None
        ref = s.placing[0]
        me = s.seats[s.placer]
        choices = [Choice(f"Fortify your {pillar_label(k)} with it", {"type": "fortify", "pillar": k},
                          description=f"+1 defending it; {pillar_label(ref.kind)} citizens may defend it")
                   for k, p in me.pillars.items() if p.active and p.fortification is None]
        choices.append(Choice("Set it aside", {"type": "stash"},
                              description="no benefit, but it can never be captured again"))
        text = (f"You captured {seat_name(ref.owner)}'s {pillar_label(ref.kind)} pillar: fortify one of "
                "your pillars with it, or set it aside.")
        return Prompt(s.placer, "place", text, tuple(choices))

    def _claim_prompt(self, s: PetitionState) -> Prompt:
        assert s.placer is not None and s.campaign is not None
        loser = s.campaign.attacker
        choices = tuple(Choice(f"Take {seat_name(loser)}'s {pillar_label(k)}", {"type": "claim", "pillar": k})
                        for k in s.seats[loser].active_pillars())
        text = (f"Winner takes all: your defence held, and {seat_name(loser)} has no active "
                f"{pillar_label(s.campaign.pillar)} pillar; take another of their pillars.")
        return Prompt(s.placer, "claim", text, choices)

    # ------------------------------------------------------------------ play
    def undoable(self, before: PetitionState, seat: int, action: Action, after: PetitionState,
                 events: Sequence[Event]) -> str | None:
        """Taking two prayer beads may be taken back while the turn stays the seat's (nothing is
        drawn or shown), and so may an answer to a decision every side makes at once — whether to
        challenge, the face-down bid, the face-down campaign cards — while the other side is
        still deciding. A draw, a shuffle, a reveal and everything in the solo game are final."""
        if before.rng.position != after.rng.position:
            return "something was left to chance since (a shuffle)"
        if len(after.deck) < len(before.deck):
            return "a card was drawn since"
        if before.solo is not None:
            return "moves are final in the solo game"
        if seat in self._over_limit(before):
            return "discarded cards are shown to everyone"
        if action["type"] == "beads" and before.phase == "turn":
            return None
        pet, was = after.petition, before.petition
        if was is not None and was.stage in ("challenge", "bid"):
            if before.phase == after.phase and pet is not None and pet.stage == was.stage:
                return None
            return "every side has answered, so the answers are out"
        camp, had = after.campaign, before.campaign
        if had is not None and had.stage == "gather":
            if before.phase == after.phase and camp is not None and camp.stage == "gather":
                return None
            return "both sides have laid their cards, so they are revealed"
        return "that kind of move is final in Petition"

    def play(self, state: PetitionState, seat: int, action: Action,
             prompt: Prompt) -> tuple[PetitionState, list[Event]]:
        story = Story(self.clone(state))
        if story.s.solo is not None:
            solo_rules.play(story, seat, action, prompt)
            return story.s, story.events
        kind = prompt.kind
        if kind == "turn":
            self._play_turn(story, seat, action)
        elif kind == "extra":
            self._play_extra(story, seat, action)
        elif kind in ("offer", "challenge", "respond", "bid"):
            self._play_petition(story, seat, action, prompt)
        elif kind in ("attack", "defend", "reinforce"):
            self._play_campaign(story, seat, action, prompt)
        elif kind == "place":
            self._play_place(story, seat, action)
        elif kind == "claim":
            self._play_claim(story, seat, action)
        elif kind == "discard":
            self._play_discard(story, seat, action, prompt)
        else:  # pragma: no cover - every prompt kind is handled above
            raise IllegalAction(f"{shown(action)} is not allowed now.")
        return story.s, story.events

    def _play_turn(self, story: Story[PetitionState], seat: int, action: Action) -> None:
        s = story.s
        p = s.seats[seat]
        t = action["type"]
        if t == "draw":
            got = self._draw(s, seat, 2)
            self._tell_drawn(story, seat, got, f"draws {count(len(got), 'card')}.")
            self._after_gather(story, seat)
            return
        if t == "beads":
            took = min(2, s.temple)
            s.temple -= took
            p.beads += took
            story.say(f"{seat_name(seat)} takes {count(took, 'bead')}.", kind="turn")
            self._after_gather(story, seat)
            return
        if t == "both":
            got = self._draw(s, seat, 1)
            s.temple -= 1
            p.beads += 1
            self._tell_drawn(story, seat, got, f"draws {count(len(got), 'card')} and takes 1 bead.")
            self._after_gather(story, seat)
            return
        if t == "petition":
            s.phase = "petition"
            s.petition = Petition(seat, str(action["god"]))
            story.say(f"{seat_name(seat)} petitions {god_label(s.petition.god)}.", kind="petition",
                      data={"seat": seat, "god": s.petition.god})
            return
        if t == "heathen":
            p.beads -= 1
            s.temple += 1
            p.heathen_since = s.turn
            story.say(f"{seat_name(seat)} becomes a godless heathen for 1 bead and may attack "
                      "next turn.", kind="heathen", data={"seat": seat})
            self._end_turn(story)
            return
        if t == "attack":
            self._start_campaign(story, seat, int(action["seat"]), str(action["pillar"]))
            return
        if s.rules >= 2:
            story.say(f"{seat_name(seat)} has nothing to gather.", kind="turn")
            self._after_gather(story, seat)
            return
        story.say(f"{seat_name(seat)} ends the turn.", kind="turn")
        self._end_turn(story)

    def _after_gather(self, story: Story[PetitionState], seat: int) -> None:
        s = story.s
        if s.seats[seat].beads >= 1 and (s.deck or s.discard):
            s.phase = "extra"
            return
        self._end_turn(story)

    def _play_extra(self, story: Story[PetitionState], seat: int, action: Action) -> None:
        s = story.s
        p = s.seats[seat]
        t = action["type"]
        if t == "buy":
            p.beads -= 1
            s.temple += 1
            got = self._draw(s, seat, 1)
            self._tell_drawn(story, seat, got, "buys a card for 1 bead.")
        elif t == "swap":
            cid = str(action["card"])
            p.hand.remove(cid)
            s.discard.append(cid)
            got = self._draw(s, seat, 1)
            story.say(f"{seat_name(seat)} swaps {card_name(cid)} for a new card.", kind="turn",
                      data={"discarded": card_face(cid)})
            if got:
                story.tell(seat, f"You draw {card_name(got[0])}.", kind="draw", data={"cards": got})
        self._end_turn(story)

    def _end_turn(self, story: Story[PetitionState]) -> None:
        """Expire what lasted until the end of this seat's turn, then pass the turn on."""
        s = story.s
        seat = s.turn_seat
        for g in s.gods.values():
            if g.holder == seat and g.since < s.turn:
                story.say(f"{GODS[g.key].name}'s favour leaves {seat_name(seat)} and the god "
                          "returns to the temple.", kind="favour", data={"god": g.key})
                release(s, g)
        p = s.seats[seat]
        if p.heathen_since is not None and p.heathen_since < s.turn:
            p.heathen_since = None
            story.say(f"{seat_name(seat)} is no longer a heathen.", kind="heathen")
        s.phase = "turn"
        s.petition = None
        nxt = seat
        for _ in range(s.players):
            nxt = (nxt + 1) % s.players
            if self.alive(s, nxt):
                break
        if nxt <= seat:
            s.round += 1
        s.turn += 1
        s.turn_seat = nxt
        if s.round > s.round_limit:
            s.phase = "over"
            s.over_reason = f"the round limit ({s.round_limit}) was reached"
            story.say(f"The game ends: {s.over_reason}.", kind="over")

    # ---------------------------------------------------------------- petition
    def _play_petition(self, story: Story[PetitionState], seat: int, action: Action,
                       prompt: Prompt) -> None:
        s = story.s
        pet = s.petition
        assert pet is not None
        god = god_label(pet.god)
        if prompt.kind == "offer":
            n = int(action["beads"])
            s.seats[seat].beads -= n
            pet.holder = Bid(seat, n)
            pet.stage = "challenge"
            story.say(f"{seat_name(seat)} offers {god} {count(n, 'bead')}; the others may challenge.",
                      kind="offer", data={"seat": seat, "god": pet.god, "beads": n})
            if not self._asked(s, pet):
                self._close_challenges(story, pet)
            return
        if prompt.kind == "challenge":
            n = int(action["beads"])
            pet.answers[seat] = n
            if n:
                s.seats[seat].beads -= n
                s.temple += n
                text = f"{seat_name(seat)} challenges with {count(n, 'bead')}."
            else:
                text = f"{seat_name(seat)} does not challenge."
            story.say(text, kind="challenge", data={"seat": seat, "beads": n})
            if all(k in pet.answers for k in self._asked(s, pet)):
                self._close_challenges(story, pet)
            return
        if prompt.kind == "respond":
            assert pet.holder is not None and pet.challenger is not None
            if action["type"] == "meet":
                pet.stage = "bid"
                story.say(f"{seat_name(seat)} meets {seat_name(pet.challenger.seat)}'s challenge: "
                          f"both bid citizens of {GODS[pet.god].name} face down.", kind="meet")
                return
            story.say(f"{seat_name(seat)} withdraws; {seat_name(pet.challenger.seat)} wins "
                      f"{GODS[pet.god].name}'s favour (+{FAVOUR_WITHDRAWN}) for now.", kind="withdraw")
            if pet.refundable:
                s.seats[seat].beads += pet.holder.beads
            s.seats[seat].hand.extend(pet.holder.standing)
            pet.result_lock = None
            pet.holder = Bid(pet.challenger.seat, pet.challenger.beads)
            pet.refundable = False
            pet.result_bonus = FAVOUR_WITHDRAWN
            pet.challengers.pop(0)
            self._next_challenger(story, pet)
            return
        # the face-down bid
        picked = read_cards(action, prompt)
        side = pet.holder if pet.holder is not None and pet.holder.seat == seat else pet.challenger
        assert side is not None and side.seat == seat
        hand = s.seats[seat].hand
        for cid in picked:
            hand.remove(cid)
        side.cards = picked
        story.say(f"{seat_name(seat)} bids face down.", kind="bid_down", data={"seat": seat})
        story.tell(seat, f"Your bid: {listing([card_name(c) for c in picked]) or 'no citizens'}.",
                   kind="bid_own", data={"cards": list(picked)})
        assert pet.holder is not None and pet.challenger is not None
        if pet.holder.cards is not None and pet.challenger.cards is not None:
            self._reveal_bids(story, pet)

    def _close_challenges(self, story: Story[PetitionState], pet: Petition) -> None:
        s = story.s
        order = [(pet.petitioner + i) % s.players for i in range(1, s.players)]
        pet.challengers = [k for k in order if pet.answers.get(k, 0) > 0]
        if not pet.challengers:
            pet.result_bonus = FAVOUR_UNCHALLENGED
        self._next_challenger(story, pet)

    def _next_challenger(self, story: Story[PetitionState], pet: Petition) -> None:
        s = story.s
        assert pet.holder is not None
        if pet.challengers:
            k = pet.challengers[0]
            pet.challenger = Bid(k, pet.answers[k])
            pet.stage = "respond"
            story.say(f"{seat_name(k)}'s challenge ({count(pet.answers[k], 'bead')}) now faces "
                      f"{seat_name(pet.holder.seat)}.", kind="challenger")
            return
        # the petition is settled
        if pet.refundable:
            s.temple += pet.holder.beads
        g = s.gods[pet.god]
        g.holder = pet.holder.seat
        g.bonus = pet.result_bonus
        g.since = s.turn
        if pet.result_lock is not None:
            g.lock = list(pet.holder.standing)
        else:
            g.lock = None
            s.seats[g.holder].hand.extend(pet.holder.standing)
        lock = ""
        if g.lock:
            lock = f", card-locked to {listing([card_name(c) for c in g.lock])}"
        story.say(f"{seat_name(g.holder)} holds {GODS[pet.god].name}'s favour ({PILLAR_NAMES[pet.god]}, +{g.bonus}{lock}) "
                  "until the end of their next turn.", kind="favour",
                  data={"seat": g.holder, "god": pet.god, "bonus": g.bonus,
                        "lock": [card_face(x) for x in g.lock] if g.lock else None})
        self._end_turn(story)

    def _reveal_bids(self, story: Story[PetitionState], pet: Petition) -> None:
        s = story.s
        holder, ch = pet.holder, pet.challenger
        assert holder is not None and ch is not None and holder.cards is not None and ch.cards is not None
        held, challenging = holder.bid_cards(), ch.bid_cards()
        v = judge((holder.beads, len(held)), (ch.beads, len(challenging)))
        if pet.refundable:
            s.temple += holder.beads
            pet.refundable = False
        pet.duels += 1
        (winner, won_with), (loser, lost_with) = (((holder, held), (ch, challenging)) if v.holder_wins
                                                  else ((ch, challenging), (holder, held)))
        record: BidsRevealView = {
            "type": "bids", "god": pet.god, "duel": pet.duels,
            "holder": {"seat": holder.seat, "beads": holder.beads, "cards": [card_face(c) for c in held]},
            "challenger": {"seat": ch.seat, "beads": ch.beads, "cards": [card_face(c) for c in challenging]},
            "winner": winner.seat, "bonus": v.bonus, "lock": v.lock, "why": v.why,
        }
        s.last_reveal = record
        s.seats[loser.seat].hand.extend(lost_with)
        pet.result_bonus = v.bonus
        pet.result_lock = list(won_with) if v.lock else None
        pet.holder = Bid(winner.seat, winner.beads, None, list(won_with))
        pet.challenger = None
        pet.challengers.pop(0)

        def side(b: Bid, cards: list[str]) -> str:
            names = listing([card_name(c) for c in cards]) or "no citizens"
            return f"{seat_name(b.seat)} {count(b.beads, 'bead')} + {names}"

        lock = "; card lock" if v.lock else ""
        story.say(f"The bids are revealed: {side(holder, held)} against {side(ch, challenging)}. "
                  f"{GODS[pet.god].name} favours {seat_name(winner.seat)} (+{v.bonus}{lock}): {v.why}.",
                  kind="reveal_bids", data=cast(dict[str, Any], record))
        self._next_challenger(story, pet)

    # ---------------------------------------------------------------- campaign
    def _start_campaign(self, story: Story[PetitionState], seat: int, defender: int, kind: str) -> None:
        s = story.s
        if s.rules < 2:
            self._start_campaign_1(story, seat, defender, kind)
            return
        c = Campaign(seat, defender, kind)
        g = s.gods[kind]
        held = [x for x in s.gods.values() if x.holder == seat and x.since < s.turn]
        if g.holder == seat:
            c.licence = kind
            c.attack_bonus = g.bonus
            licence = f"with {GODS[kind].name}'s favour (+{g.bonus})"
        elif held:
            c.licence = held[0].key
            licence = f"with {GODS[c.licence].name}'s favour (no bonus over {pillar_label(kind)})"
        else:
            licence = "as a godless heathen"
            s.seats[seat].heathen_since = None
        # a card lock binds every battle its holder fights: the locked citizens, and no others
        for x in s.gods.values():
            if x.holder == seat and x.lock is not None:
                c.attack_locked = True
                c.attack = list(x.lock)
                x.lock = []
                c.attack_ready = True
            if x.holder == defender and x.lock is not None:
                c.defend_locked = True
                c.defend = list(x.lock)
                x.lock = []
        if g.holder == defender:
            c.defend_bonus = g.bonus
        self._open_campaign(story, c, licence)

    def _start_campaign_1(self, story: Story[PetitionState], seat: int, defender: int, kind: str) -> None:
        """Revision 1: a card lock and a god's bonus count only in a battle over its god's pillar."""
        s = story.s
        c = Campaign(seat, defender, kind)
        g = s.gods[kind]
        held = [x for x in s.gods.values() if x.holder == seat and x.since < s.turn]
        if g.holder == seat:
            c.licence = kind
            c.attack_bonus = g.bonus
            licence = f"with {GODS[kind].name}'s favour (+{g.bonus})"
            if g.lock:
                c.attack_locked = True
                c.attack = list(g.lock)
                g.lock = []
                c.attack_ready = True
        elif held:
            c.licence = held[0].key
            licence = f"with {GODS[c.licence].name}'s favour (no bonus over {pillar_label(kind)})"
        else:
            licence = "as a godless heathen"
            s.seats[seat].heathen_since = None
        if g.holder == defender:
            c.defend_bonus = g.bonus
            if g.lock:
                # its locked citizens stand on the table; it may still add powerups when it lays
                c.defend_locked = True
                c.defend = list(g.lock)
                g.lock = []
        self._open_campaign(story, c, licence)

    def _open_campaign(self, story: Story[PetitionState], c: Campaign, licence: str) -> None:
        s = story.s
        seat, defender, kind = c.attacker, c.defender, c.pillar
        s.phase = "campaign"
        s.campaign = c
        data = {"attacker": seat, "defender": defender, "pillar": kind, "licence": c.licence,
                "attack_locked": c.attack_locked, "defend_locked": c.defend_locked}
        story.say(f"{seat_name(seat)} attacks {seat_name(defender)}'s {pillar_label(kind)} {licence}. "
                  "Both sides lay cards face down.", kind="campaign", data=data)
        for who, locked, cards, role in ((seat, c.attack_locked, c.attack, "lead the attack"),
                                         (defender, c.defend_locked, c.defend, "stand in defence")):
            if not locked:
                continue
            text = (f"{seat_name(who)}'s locked citizens {role}: {listing([card_name(x) for x in cards])}."
                    if cards else f"{seat_name(who)} is card-locked and their locked citizens are spent: "
                                  "only powerups can join them in this battle.")
            story.say(text, kind="locked", data={"cards": list(cards)})

    def _totals(self, s: PetitionState, c: Campaign) -> tuple[int, int]:
        f = s.seats[c.defender].pillars[c.pillar].fortification
        t = tally(c.attack, c.defend, c.pillar, attack_bonus=c.attack_bonus,
                  defend_bonus=c.defend_bonus, fortification=f.kind if f is not None else None,
                  stand=s.stand)
        return t.attack, t.defend

    def _play_campaign(self, story: Story[PetitionState], seat: int, action: Action,
                       prompt: Prompt) -> None:
        s = story.s
        c = s.campaign
        assert c is not None
        picked = read_cards(action, prompt)
        hand = s.seats[seat].hand
        for cid in picked:
            hand.remove(cid)
        if prompt.kind in ("attack", "defend"):
            if prompt.kind == "attack":
                c.attack += picked
                c.attack_ready = True
            else:
                c.defend += picked
                c.defend_ready = True
            laid = count(len(picked), 'card') if picked else "no card"
            story.say(f"{seat_name(seat)} lays {laid} face down.",
                      kind="face_down", data={"seat": seat, "count": len(picked)})
            story.tell(seat, f"Your face-down cards: {listing([card_name(x) for x in picked]) or 'none'}.",
                       kind="own_cards", data={"cards": list(picked)})
            if c.attack_ready and c.defend_ready:
                self._reveal_campaign(story, c)
            return
        # a reinforcement or a pass
        if picked:
            if seat == c.attacker:
                c.attack += picked
            else:
                c.defend += picked
            c.passes = 0
            a, d = self._totals(s, c)
            story.say(f"{seat_name(seat)} adds {listing([card_name(x) for x in picked])}: "
                      f"attack {a}, defence {d}.", kind="reinforce",
                      data={"seat": seat, "cards": [card_json(x) for x in picked],
                            "attack": a, "defend": d})
        else:
            c.passes += 1
            story.say(f"{seat_name(seat)} passes.", kind="pass", data={"seat": seat})
        if c.passes >= 2:
            self._finish_battle(story, c)
            return
        c.to_act = c.defender if seat == c.attacker else c.attacker

    def _reveal_campaign(self, story: Story[PetitionState], c: Campaign) -> None:
        s = story.s
        a, d = self._totals(s, c)
        record: CampaignRevealView = {"type": "campaign", "attacker": c.attacker, "defender": c.defender, "pillar": c.pillar,
                  "attack": [card_face(x) for x in c.attack], "defend": [card_face(x) for x in c.defend],
                  "attack_total": a, "defend_total": d}
        s.last_reveal = record

        def names(cards: list[str]) -> str:
            return listing([card_name(x) for x in cards]) or "nothing"

        story.say(f"The campaign cards are revealed: {seat_name(c.attacker)} {names(c.attack)} "
                  f"({a}) against {seat_name(c.defender)} {names(c.defend)} ({d}).",
                  kind="reveal_campaign", data=cast(dict[str, Any], record))
        if not c.defend:
            c.surrendered = True
            story.say(f"{seat_name(c.defender)} surrenders their {pillar_label(c.pillar)} without a "
                      "fight.", kind="surrender")
            self._finish_battle(story, c)
            return
        c.stage = "battle"
        c.to_act = c.attacker
        c.passes = 0

    def _finish_battle(self, story: Story[PetitionState], c: Campaign) -> None:
        s = story.s
        a, d = self._totals(s, c)
        c.attack_total, c.defend_total = a, d
        c.stage = "done"
        s.discard += c.attack + c.defend
        won = c.surrendered or a > d
        last = s.last_reveal
        if last is not None and last["type"] == "campaign":
            # faces without ids: discarded cards come back to hands after a reshuffle
            s.last_reveal = {**last, "attack": [card_face(x) for x in c.attack],
                             "defend": [card_face(x) for x in c.defend], "attack_total": a,
                             "defend_total": d, "captured": won, "surrendered": c.surrendered}
        if s.rules < 2:
            # revision 1: the attacker's licence and a defender's favour used in this battle
            # return to the temple (revision 2: a favour lasts to the end of its holder's next
            # turn, whatever battles it saw)
            if c.licence is not None and s.gods[c.licence].holder == c.attacker:
                release(s, s.gods[c.licence])
            g = s.gods[c.pillar]
            if c.defend_bonus and g.holder == c.defender:
                release(s, g)
        if won:
            how = "takes it unopposed" if c.surrendered else f"wins {a} to {d}"
            story.say(f"{seat_name(c.attacker)} {how} and captures {seat_name(c.defender)}'s "
                      f"{pillar_label(c.pillar)}.", kind="captured",
                      data={"attacker": c.attacker, "defender": c.defender, "pillar": c.pillar,
                            "attack": a, "defend": d})
            capture(story, c.defender, c.pillar, c.attacker)
            s.placer = c.attacker
        else:
            story.say(f"{seat_name(c.defender)}'s {pillar_label(c.pillar)} holds, {d} to {a}.",
                      kind="held", data={"attacker": c.attacker, "defender": c.defender,
                                         "pillar": c.pillar, "attack": a, "defend": d})
            if s.winner_takes_all and self.alive(s, c.attacker):
                s.placer = c.defender
                if s.seats[c.attacker].pillars[c.pillar].active:
                    self._take(story, c.attacker, c.pillar, c.defender)
                else:
                    s.phase = "claim"
                    return
        self._to_placing(story)

    def _take(self, story: Story[PetitionState], loser: int, kind: str, taker: int) -> None:
        story.say(f"Winner takes all: {seat_name(taker)} takes {seat_name(loser)}'s "
                  f"{pillar_label(kind)}.", kind="captured",
                  data={"attacker": taker, "defender": loser, "pillar": kind})
        capture(story, loser, kind, taker)

    def _to_placing(self, story: Story[PetitionState]) -> None:
        s = story.s
        if s.placing:
            s.phase = "place"
            return
        self._finish_campaign(story)

    def _finish_campaign(self, story: Story[PetitionState]) -> None:
        s = story.s
        s.placing = []
        s.placer = None
        s.campaign = None
        check_end(story)
        if s.phase == "over":
            return
        self._end_turn(story)

    def _play_place(self, story: Story[PetitionState], seat: int, action: Action) -> None:
        s = story.s
        ref = s.placing.pop(0)
        me = s.seats[seat]
        what = f"{seat_name(ref.owner)}'s {pillar_label(ref.kind)}"
        if action["type"] == "fortify":
            kind = str(action["pillar"])
            me.pillars[kind].fortification = ref
            story.say(f"{seat_name(seat)} fortifies their {pillar_label(kind)} with {what}.",
                      kind="fortify", data={"seat": seat, "pillar": kind, "card": ref.to_json()})
        else:
            me.stash.append(ref)
            story.say(f"{seat_name(seat)} sets {what} aside.", kind="stash",
                      data={"seat": seat, "card": ref.to_json()})
        if s.placing:
            return
        self._finish_campaign(story)

    def _play_claim(self, story: Story[PetitionState], seat: int, action: Action) -> None:
        c = story.s.campaign
        assert c is not None
        self._take(story, c.attacker, str(action["pillar"]), seat)
        self._to_placing(story)

    # ------------------------------------------------------------------ views
    def view(self, state: PetitionState, seat: int | None) -> dict[str, Any]:
        v = self._public_view(state)
        if seat is not None:
            v["private"] = self._private(state, seat)
        return cast(dict[str, Any], v)  # the engine contract's plain JSON (declared in ``views``)

    def private_view(self, state: PetitionState, seat: int) -> dict[str, Any]:
        """The seat's part of :meth:`view` alone (the platform asks every seat's after each step)."""
        return cast(dict[str, Any], self._private(state, seat))

    def _public_view(self, s: PetitionState) -> View:
        """What every seat sees, as declared in :mod:`rules.petition.views`."""
        seats: list[SeatView] = []
        for k, p in enumerate(s.seats):
            seats.append({
                "seat": k, "beads": p.beads, "hand_size": len(p.hand),
                "heathen": p.heathen_since is not None,
                "active_count": len(p.active_pillars()), "captured_count": len(p.captured()),
                "pillars": [{"kind": q.kind, "active": q.active, "captured_by": q.captured_by,
                             "fortification": None if q.fortification is None else
                             {"owner": q.fortification.owner, "kind": q.fortification.kind}}
                            for q in p.pillars.values()],
                "stash": [{"owner": r.owner, "kind": r.kind} for r in p.stash],
            })
        gods: list[GodView] = [
            {"key": g.key, "name": GODS[g.key].name, "title": GODS[g.key].title, "pillar": g.key,
             "holder": g.holder, "bonus": g.bonus,
             "lock": None if g.lock is None else [card_face(x) for x in g.lock], "since": g.since}
            for g in s.gods.values()]
        v: View = {
            "game": "petition", "players": s.players,
            "turn": s.turn, "round": s.round, "round_limit": s.round_limit, "turn_seat": s.turn_seat,
            "phase": cast(Phase, s.phase), "waiting_for": sorted({p.seat for p in self.prompts(s)}),
            "options": {"winner_takes_all": s.winner_takes_all, "last_man_standing": s.last_man_standing,
                        "challenge_window": s.challenge_window, "rules": s.rules,
                        "pillar_stand": s.stand},
            "temple": s.temple, "deck_size": len(s.deck), "discard_size": len(s.discard),
            "gods": gods, "seats": seats,
            "petition": self._petition_view(s.petition),
            "campaign": self._campaign_view(s, s.campaign),
            "placing": [{"owner": r.owner, "kind": r.kind} for r in s.placing],
            "placer": s.placer,
            "discarding": self._over_limit(s),
            "last_reveal": s.last_reveal,
            "solo": solo_rules.view(s) if s.solo is not None else None,
            "over_reason": s.over_reason,
        }
        r = self.result(s)
        if r is not None:
            v["result"] = cast(ResultView, r.to_json())
        return v

    @staticmethod
    def _petition_view(pet: Petition | None) -> PetitionView | None:
        if pet is None:
            return None

        def side(b: Bid | None) -> BidView | None:
            if b is None:
                return None
            return {"seat": b.seat, "beads": b.beads, "ready": b.cards is not None,
                    "count": None if b.cards is None else len(b.cards),
                    "standing": [card_face(x) for x in b.standing]}

        return {"petitioner": pet.petitioner, "god": pet.god, "stage": cast(PetitionStage, pet.stage),
                "challenges": {str(k): v for k, v in sorted(pet.answers.items())},
                "challengers": list(pet.challengers), "holder": side(pet.holder),
                "challenger": side(pet.challenger), "duels": pet.duels,
                "bonus": pet.result_bonus,
                "lock": None if pet.result_lock is None else [card_face(x) for x in pet.result_lock],
                "beads_on_god": pet.holder.beads if pet.holder is not None and pet.refundable else 0}

    def _campaign_view(self, s: PetitionState, c: Campaign | None) -> CampaignView | None:
        if c is None:
            return None
        live = self._totals(s, c) if c.stage == "battle" else (None, None)
        hidden = c.stage == "gather"
        # during the gather a locked side's cards are public; the rest is face down. Faces, not
        # ids: these cards are discarded after the battle and may come back to a hand
        attack = None if hidden and not c.attack_locked else [card_face(x) for x in c.attack]
        defend = None if hidden and not c.defend_locked else [card_face(x) for x in c.defend]
        return {"attacker": c.attacker, "defender": c.defender, "pillar": c.pillar,
                "stage": cast(CampaignStage, c.stage),
                "attack": attack, "defend": defend,
                "attack_count": len(c.attack) if c.attack_ready or c.attack_locked else None,
                "defend_count": len(c.defend) if c.defend_ready or c.defend_locked else None,
                "attack_ready": c.attack_ready, "defend_ready": c.defend_ready,
                "attack_locked": c.attack_locked, "defend_locked": c.defend_locked,
                "to_act": c.to_act if c.stage == "battle" else None, "passes": c.passes,
                "attack_bonus": c.attack_bonus, "defend_bonus": c.defend_bonus,
                "attack_total": c.attack_total, "defend_total": c.defend_total,
                "surrendered": c.surrendered, "attack_now": live[0], "defend_now": live[1],
                "licence": c.licence}

    def _private(self, s: PetitionState, seat: int) -> PrivateView:
        p = s.seats[seat]
        bid = None
        pet = s.petition
        if pet is not None and pet.stage == "bid":
            for b in (pet.holder, pet.challenger):
                if b is not None and b.seat == seat and b.cards is not None:
                    bid = [card_json(x) for x in b.cards]
        mine = None
        c = s.campaign
        if c is not None and c.stage == "gather":
            if seat == c.attacker and c.attack_ready:
                mine = [card_json(x) for x in c.attack]
            elif seat == c.defender and c.defend_ready:
                mine = [card_json(x) for x in c.defend]
        return {"seat": seat, "hand": [card_json(x) for x in p.hand], "bid": bid, "campaign_cards": mine}

    def secret_markers(self, state: PetitionState, seat: int) -> list[str]:
        out = list(state.seats[seat].hand)
        pet = state.petition
        if pet is not None and pet.stage == "bid":
            for b in (pet.holder, pet.challenger):
                if b is not None and b.seat == seat and b.cards:
                    out += b.cards
        c = state.campaign
        if c is not None and c.stage == "gather":
            if seat == c.attacker and not c.attack_locked:
                out += c.attack
            if seat == c.defender and not c.defend_locked:
                out += c.defend
        return out

    def secret_variants(self, state: PetitionState, seat: int, rng: random.Random) -> list[PetitionState]:
        """Copies differing only in what ``seat`` holds in secret: its hand swapped card for card
        with the hidden part of the deck (the next few draws left alone), and a pending face-down
        bid or opening campaign pick exchanged with another legal card of its hand."""
        from .variants import variants

        return variants(self, state, seat, rng)

    # ------------------------------------------------------------------ result
    def result(self, state: PetitionState) -> Result | None:
        s = state
        if s.phase != "over":
            return None
        if s.solo is not None:
            return solo_rules.result(s)
        keys = {}
        for k, p in enumerate(s.seats):
            cap = len(p.captured())
            keys[k] = (cap, cap + len(p.active_pillars()), p.beads)
        best = max(keys.values())
        winners = tuple(k for k in range(s.players) if keys[k] == best)
        scores = {k: float(keys[k][0]) for k in range(s.players)}
        first = [k for k in keys if keys[k][0] == best[0]]
        second = [k for k in first if keys[k][1] == best[1]]
        if len(first) == 1:
            how = "most captured pillars"
        elif len(second) == 1:
            how = "tied on captured pillars; most captured plus surviving pillars"
        elif len(winners) == 1:
            how = "tied on pillars; most prayer beads"
        else:
            how = "tied on pillars and beads: a shared win"
        return Result(winners, scores, f"{s.over_reason}; {how}")

    # ------------------------------------------------------------------ computer player
    def bot_action(self, view: dict[str, Any], prompt: Prompt, rng: random.Random) -> Action:
        return choose(read_view(view), prompt, rng)

    def timeout_action(self, state: PetitionState, prompt: Prompt) -> Action:
        """No answer to a challenge means no challenge; a battle turn left to the deadline passes;
        everything else the computer player decides."""
        if prompt.kind == "challenge":
            return {"type": "challenge", "beads": 0}
        if prompt.kind in ("reinforce", "solo_add"):
            return {"type": "cards", "cards": []}
        return super().timeout_action(state, prompt)

    # ------------------------------------------------------------------ search (rules.search)
    search_horizon = {"normal": 20, "hard": 60}
    """Decisions a playout goes on for: about a turn each at four players (normal), three to four
    (hard)."""
    search_iterations = {"normal": 10, "hard": 32}
    """A playout step costs a few tenths of a millisecond of processor time (a view, a prompt
    and a copy of the state): these keep a decision within its time (hard, in the strength
    bench: 0.13 to 0.22 s median and 0.23 to 0.34 s at the 99th percentile, two to six
    players)."""
    search_margin = 0.04
    """A handful of samples per answer judge it roughly: the heuristic's answer stands unless
    another scores 4 points in a hundred better."""

    def clone(self, state: PetitionState) -> PetitionState:
        """A deep, independent copy, field by field (:func:`rules.petition.search.copy_state`)."""
        return search_rules.copy_state(state)

    def determinize(self, view: dict[str, Any], seat: int, rng: random.Random) -> PetitionState:
        """A full state consistent with ``view``, seat ``seat``'s own view, read from nothing
        else (:func:`rules.petition.search.determinize`)."""
        return search_rules.determinize(view, seat, rng)

    def search_candidates(self, view: dict[str, Any], prompt: Prompt,
                          rng: random.Random) -> list[Action] | None:
        """What the search compares (:func:`rules.petition.search.search_candidates`)."""
        return search_rules.search_candidates(view, prompt, rng)

    def evaluate(self, state: PetitionState, seat: int) -> float:
        """A game cut short by the search's horizon: the seat's chances from captured and
        standing pillars, hand, beads and licence against the best rival's."""
        return search_rules.evaluate(state, seat)

    # ------------------------------------------------------------------ serialisation
    def to_json(self, state: PetitionState) -> dict[str, Any]:
        return state.to_json(self.schema_version)

    def from_json(self, data: Mapping[str, Any]) -> PetitionState:
        if data.get("schema_version") == 1:
            data = {**upgrade(data), "schema_version": self.schema_version}
        self.check_schema(data)
        return PetitionState.from_json(data)


# ---------------------------------------------------------------------- shared state changes

def release(s: PetitionState, g: GodState) -> None:
    """The god returns to the temple; citizens still locked with it go back to the holder's hand."""
    if g.holder is not None and g.lock:
        s.seats[g.holder].hand.extend(g.lock)
    g.holder = None
    g.bonus = 0
    g.lock = None
    g.since = 0


def capture(story: Story[PetitionState], owner: int, kind: str, captor: int) -> None:
    """``captor`` takes ``owner``'s pillar and whatever fortifies it; they await placing. A player
    left with no active pillar loses its favours and licence."""
    s = story.s
    pillar = s.seats[owner].pillars[kind]
    pillar.captured_by = captor
    refs = [PillarRef(owner, kind)]
    if pillar.fortification is not None:
        f = pillar.fortification
        pillar.fortification = None
        if f.owner == captor:
            # the captor's own pillar card comes home: it stands again in front of its owner
            # (a culture does not hold itself captive, nor count itself as a trophy)
            s.seats[captor].pillars[f.kind].captured_by = None
            story.say(f"Its fortification was {seat_name(captor)}'s own "
                      f"{pillar_label(f.kind)}: {seat_name(captor)} takes back their own "
                      f"{pillar_label(f.kind)} pillar, which stands again.",
                      kind="restored", data={"seat": captor, "pillar": f.kind})
        else:
            s.seats[f.owner].pillars[f.kind].captured_by = captor
            refs.append(f)
            story.say(f"Its fortification, {seat_name(f.owner)}'s {pillar_label(f.kind)}, goes "
                      "with it.", kind="captured_fortification", data={"card": f.to_json()})
    s.placing += refs
    if not s.seats[owner].active_pillars():
        for g in s.gods.values():
            if g.holder == owner:
                release(s, g)
        s.seats[owner].heathen_since = None
        story.say(f"{seat_name(owner)} has no active pillar left.", kind="fallen",
                  data={"seat": owner})


def check_end(story: Story[PetitionState]) -> None:
    """The end of the game: a player without an active pillar (or, last man standing, one player
    with active pillars left)."""
    s = story.s
    alive = [k for k in range(s.players) if s.seats[k].active_pillars()]
    if s.last_man_standing:
        if len(alive) > 1:
            return
        s.over_reason = "only one culture still has active pillars"
    else:
        fallen = [k for k in range(s.players) if k not in alive]
        if not fallen:
            return
        s.over_reason = f"{listing([seat_name(k) for k in fallen])} has no active pillar left"
    s.phase = "over"
    story.say(f"The game ends: {s.over_reason}.", kind="over")
