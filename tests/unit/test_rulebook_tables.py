"""A rules page's table reaches Discord as one bullet per row, read on a phone: the first cell in
bold, the others after it with their column names, a cell that only says "none" left out."""

from __future__ import annotations

from bot.rulebook import blocks


def test_a_table_row_is_a_bullet_without_its_empty_cells() -> None:
    page = "\n".join([
        "## Cards",
        "| Card | Kind | Keywords | Only for | Text |",
        "|---|---|---|---|---|",
        "| Rifle Infantry | Unit | — | - | No frills. |",
        "| Cossack Host | Unit | Rapid Deployment | Russia | Russia's horsemen. |",
    ])
    rows = [b.text for b in blocks(page) if b.kind == "item"]
    assert rows == [
        "• **Rifle Infantry** — Kind: Unit; Text: No frills.",
        "• **Cossack Host** — Kind: Unit; Keywords: Rapid Deployment; Only for: Russia; "
        "Text: Russia's horsemen.",
    ]
