"""What `docker build` sends to the builder — and so what can end up in an image layer.

The README and docs/deployment.md tell admins to create files: a token file, databases, backups,
dumps. Wherever such a file lands in the source folder, `.dockerignore` must keep it out of the
build context, and the guides themselves keep secrets outside the context (the source is cloned to
``src/``, the env file lives beside it). ``docker.utils.build.exclude_paths`` applies Docker's
own matching rules (the ``**`` and ``!`` exceptions included) to a tree laid out here.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from docker.utils.build import exclude_paths

ROOT = Path(__file__).resolve().parents[2]
GUIDES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SAMPLE_DATE = "2026-01-31"

_BLOCK = re.compile(r"```[a-z]*\n(.*?)```", re.S)
_SPAN = re.compile(r"`([^`\n]+)`")
_DATE = re.compile(r"\$\(date \+\\?%F\)")
_CREATES = [
    re.compile(r"(?<=\s)>>?\s*([^\s&|;)'\"]+)"),      # a shell redirection into a file
    re.compile(r"--file=(\S+)"),                      # pg_dump --file=…
    re.compile(r"--env-file[ =]([^\s}]+)"),            # the env file every command names
    re.compile(r"env_file:\s*(\S+)"),
    re.compile(r"\bbot backup\s+(\S+)"),              # Herald's own backup command
    re.compile(r"\bdocker cp\s+\S+\s+(\S+)"),         # copied off a volume
]
_NAMED = re.compile(r"a file named `([^`]+)`")


def code_blocks(text: str) -> list[str]:
    """The guide's code blocks, continued lines joined and dated file names filled in."""
    return [_DATE.sub(SAMPLE_DATE, b.replace("\\\n", " ")) for b in _BLOCK.findall(text)]


def code_spans(text: str) -> list[str]:
    """Inline code in the guide's prose (``python -m bot >> herald.log 2>&1``)."""
    return [_DATE.sub(SAMPLE_DATE, s) for s in _SPAN.findall(_BLOCK.sub("", text))]


def created_files() -> set[str]:
    """Every file name the guides tell people to create (their last path component, the date of
    a dated backup filled in)."""
    names: set[str] = set()
    for guide in GUIDES:
        text = guide.read_text(encoding="utf-8")
        code = code_blocks(text) + code_spans(text)
        found = [m.group(1) for block in code for rx in _CREATES for m in rx.finditer(f" {block}")]
        found += _NAMED.findall(text)
        for raw in found:
            path = raw.strip("'\"")
            if (path.startswith(("/dev/", "/etc/", "$")) or path in (".", "..") or path.endswith("/")
                    or path.isupper()):  # (a placeholder: `backup PATH`)
                continue
            names.add(Path(path).name)
    return names


def test_the_guides_tell_people_to_create_the_files_this_checks() -> None:
    names = created_files()
    # the guides' own words: a token file, databases, backups, dumps
    assert {"herald.env", ".env", "herald.log"} <= names, names
    assert any(n.endswith(".db") for n in names) and any(n.endswith(".dump") for n in names), names


def context(tmp_path: Path, planted: list[str]) -> set[str]:
    """The files `docker build` would send from a copy of the source with ``planted`` added."""
    src = tmp_path / "src"
    for folder in ("bot", "cogs", "rules"):
        shutil.copytree(ROOT / folder, src / folder, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "docs", src / "docs", ignore=shutil.ignore_patterns("images"))
    for name in ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "Dockerfile", ".dockerignore"):
        shutil.copy(ROOT / name, src / name)
    for rel in planted:
        (src / rel).parent.mkdir(parents=True, exist_ok=True)
        (src / rel).write_text("DISCORD_TOKEN=planted\n", encoding="utf-8")
    patterns = [line.strip() for line in (src / ".dockerignore").read_text(encoding="utf-8").splitlines()
                if line.strip() and not line.startswith("#")]
    return {p for p in exclude_paths(str(src), patterns) if (src / p).is_file()}


def test_no_file_the_guides_create_enters_the_build_context_wherever_it_is_put(tmp_path: Path) -> None:
    places = ["", "bot/", "cogs/", "rules/", "docs/", "docs/rules/", "backups/", "data/"]
    planted = [f"{place}{name}" for name in sorted(created_files()) for place in places]
    planted += [".git/config", ".venv/bin/python", "venv/pyvenv.cfg", "herald.db-wal", "herald.db-shm",
                "herald.db.heartbeat", "herald-heartbeat-all.json", "bot/__pycache__/x.pyc",
                ".env.production", "secrets.env", "backups/herald-2026-01-31.db"]
    sent = context(tmp_path, planted)
    leaked = sorted(set(planted) & sent)
    assert leaked == [], f"these would be copied into the image: {leaked}"


def test_the_build_context_still_holds_everything_the_install_needs(tmp_path: Path) -> None:
    sent = context(tmp_path, [])
    for name in ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "bot/__main__.py",
                 "cogs/tables.py", "rules/registry.py", "rules/petition/content.json",
                 "docs/rules/petition.md"):
        assert name in sent, name
    assert all(p.split("/")[0] in ("bot", "cogs", "rules", "docs") or "/" not in p for p in sent)
    assert not any(p.startswith(("docs/images", "tests/", "bench/", "docs/deployment")) for p in sent)


def test_the_guides_keep_the_env_file_outside_the_build_context() -> None:
    """Every build in the guides uses the clone in ``src/`` as its context; every env file is
    written beside it, never inside it."""
    builds = []
    for guide in GUIDES:
        for block in code_blocks(guide.read_text(encoding="utf-8")):
            builds += re.findall(r"(?:docker|podman) build [^\n]*", block)
            builds += re.findall(r"build: (\S+)", block)
            for target in re.findall(r">\s*(\S*\.env)\b", block):
                assert not target.startswith(("src/", "./src/")), target
    assert builds, "the guides build the image somewhere"
    for build in builds:
        assert build in ("./src",) or build.endswith(" src"), build


@pytest.mark.parametrize("guide", GUIDES, ids=lambda p: p.name)
def test_every_compose_command_is_given_the_env_file(guide: Path) -> None:
    """Without ``--env-file``, compose fills ``${POSTGRES_PASSWORD}`` with nothing: a later
    ``up -d`` would start Herald with an empty database password."""
    text = guide.read_text(encoding="utf-8")
    commands = re.findall(r"docker compose(?: [^\n`]*)?", text)
    for command in commands:
        if command.strip() == "docker compose" or command.startswith("docker compose build`"):
            continue  # the tool named in prose, not a command
        assert "--env-file herald.env" in command, command


@pytest.mark.parametrize("guide", GUIDES, ids=lambda p: p.name)
def test_every_backup_command_first_makes_its_folder(guide: Path) -> None:
    for block in code_blocks(guide.read_text(encoding="utf-8")):
        made: set[str] = set()
        for line in block.splitlines():
            made |= set(re.findall(r"mkdir -p (\S+)", line))
            for target in re.findall(r"(?:\bbot backup\s+|pg_dump[^>\n]*>\s*|docker cp\s+\S+\s+)(\S+)", line):
                folder = str(Path(target).parent)
                if folder in (".", "/data") or folder.startswith("/data"):
                    continue  # the current folder, or the container's own data volume
                assert folder in made, f"{guide.name}: {line.strip()!r} writes into {folder}/ " \
                                       "before any mkdir -p makes it"
