"""docs/ARCHITECTURE.md stays a map a newcomer can use (issue 30 §6): short, true (every path it
names exists, every name it points at is defined there), and answering each "where do I change…"
question in one hop."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "ARCHITECTURE.md"
TEXT = DOC.read_text(encoding="utf-8")
# The questions issue 30 §6 asks the table to answer, each by words its row must hold.
QUESTIONS = ["daily mileage cap", "corridor width", "new export format", "new verifier", "new repair move",
             "how sights are ranked", "new place source", "visit durations", "new tool adapter",
             "executor timeouts", "new CLI subcommand", "progress panel shows", "map marker styles",
             "intent form's fields", "new setting", "new metric", "new schema migration",
             "notes search threshold", "LLM prompt for drafting", "what the PDF shows"]
PATH = re.compile(r"`((?:engine|app|widgets|resources|fixtures|bench|tests|docs)/[^`\s]*)`")


def _where_rows() -> dict[str, str]:
    section = TEXT.split("## Where to change", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 2 and not set(cells[0]) <= {"-"}:
            rows[cells[0]] = cells[1]
    return rows


def test_the_map_is_short():
    assert len(TEXT.encode("utf-8")) <= 15_000, f"docs/ARCHITECTURE.md is {len(TEXT.encode())} bytes"
    assert max(len(line) for line in TEXT.splitlines()) <= 400, "a line (a table cell) is a paragraph"


def test_every_path_it_names_exists():
    missing = sorted({p for p in PATH.findall(TEXT)
                      if not (any(ROOT.glob(p)) if "*" in p else (ROOT / p.rstrip("/")).exists())})
    assert not missing, f"docs/ARCHITECTURE.md names paths that do not exist: {missing}"


def test_every_name_it_points_at_is_defined_there():
    """A row like "`engine/verify/__init__.py` (`VERIFIERS`)" names a module-level name of that file."""
    wrong = []
    for answer in _where_rows().values():
        for path, names in re.findall(r"`((?:engine|app|widgets)/[^`]+\.py)` \(([^)]*)\)", answer):
            source = (ROOT / path).read_text(encoding="utf-8")
            defined = _top_level_names(source)
            for name in re.findall(r"`([A-Za-z_][A-Za-z0-9_]*)`", names):
                if name not in defined:
                    wrong.append(f"{path}: {name}")
    assert not wrong, f"names the map points at but the file does not define: {wrong}"


def _top_level_names(source: str) -> set[str]:
    names = set()
    for node in ast.parse(source).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names |= {t.id for t in targets if isinstance(t, ast.Name)}
    return names


def test_each_question_is_answered_in_one_hop():
    rows = _where_rows()
    for question in QUESTIONS:
        answers = [answer for asked, answer in rows.items() if question.lower() in asked.lower()]
        assert answers, f"the 'Where to change…' table does not answer: {question}"
        # one hop: one file, or one registry plus its file
        files = set(PATH.findall(answers[0]))
        assert 1 <= len(files) <= 2, f"{question}: {sorted(files)} is not one hop"
