"""Two bot processes drive the same games over one PostgreSQL database, and one is killed with
SIGKILL midway (``tests/faults/two_process_child.py`` has the children and the checks).

Required: every action either process acknowledged is stored exactly once, where it was
acknowledged; every deadline fires once and every reminder goes out at most once — the survivor
handling the dead process's claims once their lease ends; every game finishes, and its replay is
its stored state."""

from __future__ import annotations

import asyncio
import multiprocessing
import signal
import time
from pathlib import Path
from typing import Any

from tests.faults import two_process_child as two
from tests.faults.kill_child import read_ledger

RUN_TIMEOUT = 60.0


def _context() -> Any:
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload([two.__name__])
    return ctx


def _expect(receive: Any, kind: str, timeout: float) -> tuple[Any, ...]:
    limit = time.monotonic() + timeout
    while time.monotonic() < limit:
        if receive.poll(0.05):
            message = receive.recv()
            if message[0] == "error":
                raise AssertionError(f"a child failed:\n{message[1]}")
            if message[0] == kind:
                return tuple(message)
    raise AssertionError(f"no {kind!r} from the child in {timeout} s")


def test_one_of_two_processes_killed_midway_loses_and_repeats_nothing(
        postgres_url: str, tmp_path: Path) -> None:
    t0 = time.time()
    games = asyncio.run(two.open_games(postgres_url, t0))
    ctx = _context()
    procs, pipes = {}, {}
    for role in ("a", "b"):
        receive, send = ctx.Pipe()
        proc = ctx.Process(target=two.child_main, args=(role, postgres_url, str(tmp_path), t0, send),
                           daemon=True)
        proc.start()
        procs[role], pipes[role] = proc, receive
    try:
        for role in ("a", "b"):
            _expect(pipes[role], "ready", 30)
        # midway: once the victim has acknowledged moves and holds claims it has not handled
        def watch() -> None:
            for receive in pipes.values():
                while receive.poll(0):
                    message = receive.recv()
                    assert message[0] != "error", f"a child failed:\n{message[1]}"

        two.kill_when_holding_claims(tmp_path, acks_at_least=10, timeout=20, watch=watch)
        procs["a"].kill()  # SIGKILL
        procs["a"].join(10)
        assert procs["a"].exitcode == -signal.SIGKILL
        left = two.outstanding(tmp_path, "a")
        pending = read_ledger(tmp_path / "ledger-a.jsonl").pending()
        pipes["b"].send(("the other process is dead",))
        resent = _expect(pipes["b"], "resent", 30)[1]
        _expect(pipes["b"], "done", RUN_TIMEOUT)
    finally:
        for proc in procs.values():
            if proc.is_alive():
                proc.kill()
            proc.join(10)
    found = asyncio.run(two.check(postgres_url, tmp_path, games, left, pending))
    report = f"{found.summary()}; {len(left)} claims held by the dead process, {resent} clicks re-sent"
    print(report)
    assert not found.problems, "\n".join([report, *found.problems[:20]])
    assert found.acked > 20 and found.fired > 4 and found.reminded > 4, report
    assert left and found.taken_over >= 1, report  # the lease ran out and the survivor took over
