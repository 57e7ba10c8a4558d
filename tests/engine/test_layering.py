"""engine/ never imports Qt, qasync, app or widgets (ARCHITECTURE: three layers, one direction)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "engine"
FORBIDDEN = ("PySide6", "shiboken6", "qasync", "app", "widgets")


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_no_engine_module_imports_the_gui_layers():
    offenders = {str(p.relative_to(ENGINE)): sorted(_imports(p) & set(FORBIDDEN))
                 for p in ENGINE.rglob("*.py") if _imports(p) & set(FORBIDDEN)}
    assert offenders == {}


def test_importing_every_engine_module_loads_no_qt():
    modules = sorted(".".join(p.relative_to(ENGINE.parent).with_suffix("").parts)
                     for p in ENGINE.rglob("*.py")
                     if p.name != "__main__.py" and "migrations" not in p.parts)  # alembic runs those
    code = ("import importlib, sys\n"
            f"for m in {modules!r}: importlib.import_module(m.removesuffix('.__init__'))\n"
            "bad = [m for m in sys.modules if m.split('.')[0] in ('PySide6', 'shiboken6', 'qasync')]\n"
            "print(bad); sys.exit(1 if bad else 0)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ENGINE.parent)
    assert done.returncode == 0, done.stdout + done.stderr
