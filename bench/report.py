"""What the benches share: the median of repeated runs per mode, printed as a Markdown table."""

from __future__ import annotations

import statistics
from collections.abc import Awaitable, Callable, Iterable


async def median_table(modes: Iterable[str], repeats: int,
                       run: Callable[[str, int], Awaitable[dict[str, float]]]) -> None:
    """Run ``run(mode, seed)`` ``repeats`` times per mode (seeds 1, 2, …) and print one row per
    mode with the median of each figure."""
    table: dict[str, dict[str, float]] = {}
    for mode in modes:
        runs = [await run(mode, r + 1) for r in range(repeats)]
        table[mode] = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
    keys = list(next(iter(table.values())))
    print("| mode | " + " | ".join(keys) + " |")
    print("|---|" + "---|" * len(keys))
    for mode, row in table.items():
        print(f"| {mode} | " + " | ".join(f"{row[k]:.1f}" for k in keys) + " |")
