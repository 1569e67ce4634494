"""The ``/deck`` builder on Discord: a deck built and validated — create, add (autocomplete by name
and era), remove, validate with every error then fixed, export, import, view as an image, list,
delete — in a server and in a DM; and the refusals: an unknown deck or card, a full deck, another
player's deck, a name taken twice, the limit of saved decks, a bad code."""

from __future__ import annotations

import re

import simcord

from bot.app import HeraldBot
from bot.decks import DECK_LIMIT
from rules.alternate_histories import content
from tests.discord.helpers import private, reply_text


def _card_of(era: str, kind: str = "unit", *, nation: str = "usa", governance: str = "capitalism") -> str:
    """A card a deck of ``nation`` and ``governance`` may hold, of ``era`` and ``kind``."""
    for c in content.search_cards(era=era, kind=kind):
        if (not c.nations or nation in c.nations) and (not c.governances or governance in c.governances):
            return c.id
    raise AssertionError(f"no {era} {kind} for {nation} {governance}")


async def test_a_deck_built_validated_shared_and_deleted(simcord_env: simcord.Env,
                                                         simcord_bot: HeraldBot) -> None:
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("decks")
    alice = guild.add_member(env.create_user("alice"))

    r = await alice.slash(channel, "deck create", name="Iron **Tide**", nation="usa", governance="capitalism")
    assert private(r) and "Iron Tide (#1)" in reply_text(r) and "United States" in reply_text(r)

    # autocomplete: the card by part of its name, filtered by era; the deck by part of its name
    rifle = content.CARDS["rifle_infantry"]
    offered = await alice.autocomplete(channel, "deck add", "card", "rifle", deck="#1")
    assert any(o["value"] == "rifle_infantry" for o in offered)
    atomic_only = await alice.autocomplete(channel, "deck add", "card", "", deck="#1", era="Atomic")
    assert atomic_only and all(content.CARDS[o["value"]].era == "atomic" for o in atomic_only)
    decks = await alice.autocomplete(channel, "deck add", "deck", "iron")
    assert decks == [{"name": "Iron Tide (#1)", "value": "#1"}]

    r = await alice.slash(channel, "deck add", deck="#1", card="rifle_infantry", count=3)
    assert "added 3 × Rifle Infantry" in reply_text(r) and "3 of 40" in reply_text(r)
    r = await alice.slash(channel, "deck add", deck="iron tide", card=rifle.name, count=2)
    assert "5 in the deck" in reply_text(r)  # over the copy limit: allowed while building…
    held = await alice.autocomplete(channel, "deck remove", "card", "", deck="#1")
    assert [o["value"] for o in held] == ["rifle_infantry"]  # removing: only the deck's own cards
    r = await alice.slash(channel, "deck remove", deck="Iron Tide", card="rifle_infantry", count=1)
    assert "removed 1 × Rifle Infantry (4 left" in reply_text(r)

    # …and validate lists every problem at once, each naming its rule
    r = await alice.slash(channel, "deck validate", deck="Iron Tide")
    text = reply_text(r)
    assert "not ready to play" in text
    assert "exactly 40 cards" in text and "at least 4 air cards" in text
    problems = [ln for ln in text.splitlines() if ln.startswith("• ")]
    assert len(problems) >= 2

    # fixed: fill it from a ready-made deck's list
    ready = content.READY_DECKS["usa-capitalism"][2]
    r = await alice.slash(channel, "deck remove", deck="Iron Tide", card="rifle_infantry", count=4)
    assert "0 left" in reply_text(r)
    for card_id in sorted(set(ready)):
        r = await alice.slash(channel, "deck add", deck="Iron Tide", card=card_id, count=ready.count(card_id))
        assert "added" in reply_text(r), reply_text(r)
    r = await alice.slash(channel, "deck validate", deck="Iron Tide")
    assert "is ready to play: 40 cards" in reply_text(r)
    r = await alice.slash(channel, "deck add", deck="Iron Tide", card="rifle_infantry")
    assert "The deck is full (40 cards)" in reply_text(r)

    # view: a summary by era and the deck list as an image with alt text
    r = await alice.slash(channel, "deck view", deck="Iron Tide")
    assert private(r)
    text = reply_text(r)
    assert "**Chemical**" in text and "Ready to play" in text
    assert r.response is not None
    files = [*r.response.attachments, *(a for f in r.followups for a in f.attachments)]
    assert files and files[0].filename == "deck.png"
    assert "Deck list of Iron Tide" in (files[0].description or "")

    # export, and import as another player's own deck (in a DM)
    r = await alice.slash(channel, "deck export", deck="Iron Tide")
    code = re.search(r"```\n(AH[A-Z0-9]+)\n```", reply_text(r))
    assert code is not None
    bob = guild.add_member(env.create_user("bob"))
    r = await bob.user.slash("deck import", code=code[1].lower(), name="Borrowed")
    assert "Borrowed (#2)" in reply_text(r) and "ready to play" in reply_text(r)
    r = await bob.user.slash("deck list")
    assert "Borrowed (#2)" in reply_text(r) and "✅ ready" in reply_text(r)
    assert "Iron Tide" not in reply_text(r)

    # nobody reaches another player's deck, by name or by number
    r = await bob.user.slash("deck view", deck="#1")
    assert "belongs to another player" in reply_text(r) and "Chemical" not in reply_text(r)
    r = await bob.user.slash("deck delete", deck="Iron Tide")
    assert "no deck named “Iron Tide”" in reply_text(r)
    assert await bob.user.autocomplete("deck view", "deck", "") == [{"name": "Borrowed (#2)", "value": "#2"}]

    # copy a ready-made deck; a name is taken once
    r = await alice.slash(channel, "deck copy", ready="germany-autocracy", name="Blitz")
    assert "copy of the ready-made Germany · Autocracy deck (40 cards)" in reply_text(r)
    r = await alice.slash(channel, "deck copy", ready="usa-communism", name="BLITZ")
    assert "already" in reply_text(r)

    # list and delete
    r = await alice.slash(channel, "deck list")
    assert "Blitz (#3)" in reply_text(r) and "Iron Tide (#1)" in reply_text(r)
    r = await alice.slash(channel, "deck delete", deck="#1")
    assert "Iron Tide** deleted" in reply_text(r)
    r = await alice.slash(channel, "deck view", deck="Iron Tide")
    assert "no deck named “Iron Tide”" in reply_text(r) and "Blitz" not in reply_text(r)
    r = await alice.slash(channel, "deck view", deck="Blits")
    assert "Did you mean “Blitz”?" in reply_text(r)


async def test_refusals_of_the_builder(simcord_env: simcord.Env, simcord_bot: HeraldBot) -> None:
    env = simcord_env
    user = env.create_user("carol")
    r = await user.slash("deck view", deck="anything")
    assert "no saved decks yet" in reply_text(r)
    r = await user.slash("deck create", name="Home", nation="Atlantis", governance="capitalism")
    assert "no nation “Atlantis”" in reply_text(r) and "United States" in reply_text(r)
    r = await user.slash("deck create", name="#5", nation="usa", governance="communism")
    assert "cannot start with #" in reply_text(r)
    r = await user.slash("deck create", name="Home", nation="United States", governance="Communism")
    assert "Home (#1)" in reply_text(r)
    r = await user.slash("deck add", deck="Home", card="Death Star")
    assert "no card “Death Star”" in reply_text(r)
    r = await user.slash("deck remove", deck="Home", card="rifle_infantry")
    assert "holds no Rifle Infantry" in reply_text(r)
    r = await user.slash("deck import", code="XYZ-123", name="Bad")
    assert "That is not a deck code: deck codes start with AH." in reply_text(r)
    good = content.encode_deck(*content.READY_DECKS["usa-capitalism"])
    typo = good[:20] + ("B" if good[20] == "A" else "A") + good[21:]
    r = await user.slash("deck import", code=typo, name="Bad")
    assert "damaged or mistyped" in reply_text(r)
    r = await user.slash("deck view", deck="#999")
    assert "no saved deck #999" in reply_text(r)
    for era, n in (("chemical", 10), ("mechanical", 10), ("atomic", 10), ("chemical", 5)):
        r = await user.slash("deck add", deck="Home", card=_card_of(era, governance="communism"), count=n)
    assert "35 of 40 cards" in reply_text(r)
    r = await user.slash("deck add", deck="Home", card=_card_of("mechanical", governance="communism"),
                         count=10)
    assert "room for 5 more cards (35 of 40)" in reply_text(r)
    assert "35 cards" in reply_text(await user.slash("deck list"))  # nothing half-added

    # the limit of saved decks (filled through the storage: the same check applies)
    storage = simcord_bot.platform.storage
    for k in range(DECK_LIMIT - 1):
        assert await storage.create_deck(user.id, "alternate_histories", f"spare {k}", {}, now=0.0,
                                         limit=DECK_LIMIT) is not None
    r = await user.slash("deck copy", ready="usa-capitalism", name="One too many")
    assert f"You have {DECK_LIMIT} saved decks" in reply_text(r)
