"""Build hook: ship the rules pages players read with ``/rules`` inside the package, with their pictures.

The pages live in ``docs/rules/`` so they can be read on the web and edited beside the other
documents; a self-hosted Herald installed with ``pip install .`` (or in the Docker image) has no
repository to read them from, so the build copies them to ``bot/rulepages/`` (and the pictures they show to
``bot/rulepages/images/``), where
:mod:`bot.rulebook` looks first. Everything else is configured in ``pyproject.toml``.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
PAGES = HERE / "docs" / "rules"
PICTURES = HERE / "docs" / "images"
PICTURED = "first-turn-*.png"
"""The pictures the rules pages show (each page's "Your first turn"), shipped beside them."""


class BuildWithRulesPages(build_py):
    """``build_py``, then the rules pages copied into the built ``bot`` package."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):  # an editable install reads docs/rules/ in place
            return
        pages = sorted(PAGES.glob("*.md"))
        if not pages:
            raise SystemExit(f"no rules pages in {PAGES}: the build needs docs/rules/*.md")
        target = Path(self.build_lib) / "bot" / "rulepages"
        target.mkdir(parents=True, exist_ok=True)
        for page in pages:
            shutil.copyfile(page, target / page.name)
        pictures = sorted(PICTURES.glob(PICTURED))
        if not pictures:
            raise SystemExit(f"no rules pictures ({PICTURED}) in {PICTURES}: the build needs them")
        (target / "images").mkdir(exist_ok=True)
        for picture in pictures:
            shutil.copyfile(picture, target / "images" / picture.name)


setup(cmdclass={"build_py": BuildWithRulesPages})
