"""Static checks run with the tests, so CI enforces them: ruff on everything, mypy strict (per
pyproject.toml) on everything too — the code, the tests, the benches and the scripts (which are not
packages: each is checked as a module of its own folder) — and radon's complexity grades."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=600)


def test_ruff_is_clean() -> None:
    r = _run("ruff", "check", ".")
    assert r.returncode == 0, r.stdout + r.stderr


def test_mypy_is_clean() -> None:
    r = _run("mypy", "rules", "bot", "cogs", "tests")
    assert r.returncode == 0, r.stdout + r.stderr


def test_mypy_is_clean_on_the_benches_and_scripts() -> None:
    r = _run("mypy", "--explicit-package-bases", "bench", "scripts")
    assert r.returncode == 0, r.stdout + r.stderr


def test_no_function_is_graded_worse_than_d() -> None:
    """radon's cyclomatic grades: E (31-40) and F (41+) are where a newcomer's one guess fails;
    the rules' effect tables and delivery's pure functions keep everything at D or better."""
    r = _run("radon", "cc", "--min", "E", "--show-complexity", "bot", "cogs", "rules")
    assert r.returncode == 0 and not r.stdout.strip(), r.stdout + r.stderr
