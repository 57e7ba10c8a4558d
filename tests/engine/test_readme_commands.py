"""Issue 23 §1: every command of the README's "Command line" section runs as written, in order,
on a fresh data dir — read from the README itself, so a command that stops working, or a new one
that never did, fails here. Run from a copy of the repository's ``docs/examples`` (what the
commands read) in a temporary folder, offline (no test reaches the internet), with no model
configured (``plan --llm`` then plans rule-based and says so)."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXE = Path(sys.executable).with_name("tripwright")
PLACEHOLDER = "<TRIP_ID>"


def readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Command line", 1)[1]
    block = re.search(r"```bash\n(.*?)```", section, re.S).group(1)
    return [line for line in block.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def argv(line: str) -> list[str]:
    words = shlex.split(line, comments=True)
    assert words[0] == ".venv/bin/tripwright", line
    return [str(EXE), *words[1:]]


@pytest.fixture()
def workdir(tmp_path, monkeypatch):
    shutil.copytree(ROOT / "docs" / "examples", tmp_path / "docs" / "examples")
    shutil.copytree(ROOT / "out", tmp_path / "out")  # where the commands write (git ignores it)
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENAI_") and k != "TRIPWRIGHT_DATABASE_URL"}
    env |= {"TRIPWRIGHT_HOME": str(tmp_path / "home"), "TRIPWRIGHT_OFFLINE": "1"}
    return tmp_path, env


def test_the_readme_shows_its_commands() -> None:
    commands = readme_commands()
    assert len(commands) >= 20 and sum(PLACEHOLDER in c for c in commands) >= 1
    first_list = next(i for i, c in enumerate(commands) if " trips list" in c)  # where the trip's id is read
    assert all(i > first_list for i, c in enumerate(commands) if PLACEHOLDER in c)


def test_every_readme_command_runs_as_written_in_order(workdir) -> None:
    cwd, env = workdir
    trip_id = None
    for line in readme_commands():
        words = argv(line)
        if PLACEHOLDER in words:
            assert trip_id, "a trip must be saved before a command names one"
            words = [trip_id if w == PLACEHOLDER else w for w in words]
        done = subprocess.run(words, cwd=cwd, env=env, capture_output=True, text=True, timeout=600, stdin=subprocess.DEVNULL)
        assert done.returncode == 0, f"{line}\n{done.stderr[-2000:]}"
        assert "Traceback" not in done.stderr, line
        if words[1:3] == ["trips", "list"] and trip_id is None:
            trip_id = done.stdout.split()[0]
    for made in ("route66.json", "route66.gpx", "paris.json", "paris.gpx", "paris.ics", "paris.html", "paris.kml",
                 "paris.pdf", "run.jsonl"):
        assert (cwd / "out" / made).stat().st_size > 0, made
    # issue 34 §5: nothing lands beside what git ignores (out/) and the data dir
    assert sorted(p.name for p in cwd.iterdir()) == ["docs", "home", "out"]
