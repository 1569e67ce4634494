"""Every view is the same bytes in every process: nothing in a view follows Python's per-process
string hashing (a set's order), so a hand drawn or a DM compared after a restart, on another
process, or on the web is the same as before. Two processes with different hash seeds play the
same seeded games of computer players and must print the same digest of every view."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from rules import registry

REPO = Path(__file__).resolve().parents[2]
PROBE = """
import hashlib, json, random, sys
from rules import registry
e = registry.get(sys.argv[1])
h = hashlib.sha256()
for seed in (3, 4):
    s = e.setup(e.min_players, seed, {})
    for i in range(300):
        if e.result(s) is not None:
            break
        for seat in [None, *range(e.min_players)]:
            h.update(json.dumps(e.view(s, seat)).encode())
        p = e.prompts(s)[0]
        a = e.bot_action(e.view(s, p.seat), p, random.Random(f"{seed}/{i}"))
        s = e.apply(s, p.seat, a)[0]
print(h.hexdigest())
"""


@pytest.mark.parametrize("game", sorted(registry.BUILTIN))
def test_views_do_not_depend_on_the_process_hash_seed(game: str) -> None:
    digests = set()
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run([sys.executable, "-c", PROBE, game], cwd=REPO, env=env,
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        digests.add(done.stdout.strip())
    assert len(digests) == 1, game
