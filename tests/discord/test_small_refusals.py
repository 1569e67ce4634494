"""Small refusals that must say the right thing: the Alternate Histories table's deck check lists
every broken deck rule at once, as ``/deck validate`` does and the rules page promises (it showed
only the first five)."""

from __future__ import annotations

import simcord

from bot.app import HeraldBot
from cogs.alternate_histories.deckbuilder import pool
from rules.alternate_histories import content
from tests.discord.helpers import (
    components,
    find_by_prefix,
    open_seeded_table,
    opened,
    reply_text,
)

# four chemical-era units a United States / Capitalism deck may hold, nine copies each: six
# broken rules (the size, three copy limits, the nation's and the governance's minimums)
OVER = {"biplane_squadron": 9, "cavalry_scouts": 9, "coastal_uboat": 9, "doughboys": 9}


def bullets(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("• ")]


async def test_the_table_deck_check_lists_every_broken_rule(simcord_env: simcord.Env,
                                                            simcord_bot: HeraldBot) -> None:
    env = simcord_env
    channel, thread, (alice, bob) = await open_seeded_table(env, simcord_bot, "alternate_histories", seed=5)
    await alice.slash(channel, "deck create", name="Crowded", nation="usa", governance="capitalism")
    for card, n in OVER.items():
        await alice.slash(channel, "deck add", deck="Crowded", card=card, count=n)
    data = {"nation": "usa", "governance": "capitalism", "cards": OVER}
    errors = pool(content).errors(data)
    assert len(errors) > 5

    validated = reply_text(await alice.slash(channel, "deck validate", deck="Crowded"))
    assert bullets(validated) == [f"• {e}" for e in errors]

    # -- choosing it at the table: refused with every problem, the same list
    board = find_by_prefix(thread.history(), "herald:act:")
    form = opened(await alice.click(board, label="Decide"))
    saved = next(c for c in components(form) if (c["custom_id"] or "").endswith(":saved"))
    crowded = next(o.value for o in saved["options"] if o.label == "Crowded")
    refused = reply_text(await alice.select(form, [crowded], custom_id=saved["custom_id"]))
    assert "not ready to play" in refused and f"{len(errors)} problems" in refused, refused
    assert bullets(refused) == [f"• {e}" for e in errors], refused

    # -- its code pasted at the table: refused with every problem too
    dm = find_by_prefix(bob.user.dm_channel.history(), "herald:ah:1:")
    code_button = next(c["custom_id"] for c in components(dm) if (c["custom_id"] or "").endswith(":code"))
    shown = await bob.user.click(dm, custom_id=code_button)
    pasted = reply_text(await bob.user.submit_modal(shown, {"code": pool(content).code(data)}))
    assert "not legal" in pasted and bullets(pasted) == [f"• {e}" for e in errors], pasted
