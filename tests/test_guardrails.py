"""Guardrails (issue 30 §5), run with every test run (`make test`, so `.ci/run`): ruff's bug-finding
rules, the import contracts (layers, a leaf engine.models, no import cycles), mypy on the typed
rooms, declared dependencies = imported ones, no private name imported across packages.

Each test prints exactly what broke (file:line and what to do) so a violation after a merge is
fixed in one look. The rule sets live in pyproject.toml ([tool.ruff], [tool.importlinter],
[tool.mypy]); the tools are the `test` extra's.
"""

from __future__ import annotations

import ast
import importlib.metadata
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("app", "widgets", "engine")
BIN = Path(sys.executable).parent
TIMEOUT_S = 900  # a loaded 2-core machine; none of these takes more than a minute alone


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=TIMEOUT_S)


def _source_files():
    for pkg in SOURCES:
        yield from sorted((ROOT / pkg).rglob("*.py"))


def _module_of(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_ruff_finds_nothing():
    done = _run(sys.executable, "-m", "ruff", "check", "--no-cache", "--output-format", "concise", *SOURCES)
    assert done.returncode == 0, (
        "ruff (rules in pyproject.toml [tool.ruff.lint]) found:\n" + done.stdout + done.stderr
        + "\nFix each line, or, for a deliberate broad except, add `# noqa: BLE001 — <why>`.")


def test_import_contracts_hold():
    done = _run(str(BIN / "lint-imports"), "--no-cache")
    assert done.returncode == 0, (
        "import contracts (pyproject.toml [tool.importlinter]) broken:\n" + _without_banner(done.stdout)
        + done.stderr + _cycle_lines()
        + "\nAn 'unmatched ignore_imports' line means that import is gone: delete the line.")


def _without_banner(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not re.search(r"[\u2500-\u257f]", line))


def _cycle_lines() -> str:
    """The imports that close a cycle not in the acyclic contract's list, each at its file:line
    (lint-imports names the modules only)."""
    import grimp

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    contract = next(c for c in config["contracts"] if c["type"] == "acyclic_siblings")
    graph = grimp.build_graph(*config["root_packages"], cache_dir=None)
    for line in contract.get("ignore_imports", []):
        importer, imported = (part.strip() for part in line.split("->"))
        if graph.direct_import_exists(importer=importer, imported=imported):
            graph.remove_import(importer=importer, imported=imported)
    out = []
    for package in sorted(m for m in graph.modules if graph.find_children(m)):
        for importer, imported in sorted(graph.nominate_cycle_breakers(package)):
            for detail in graph.get_import_details(importer=importer, imported=imported):
                path = importer.replace(".", "/") + ("/__init__.py" if graph.find_children(importer) else ".py")
                out.append(f"{path}:{detail['line_number']}: {detail['line_contents']}  (closes a cycle in {package})")
    return "\nImports that close a cycle:\n" + "\n".join(out) if out else ""


def test_mypy_on_the_typed_rooms():
    done = _run(sys.executable, "-m", "mypy")
    assert done.returncode == 0, "mypy (pyproject.toml [tool.mypy] files) found:\n" + done.stdout + done.stderr


# -- declared dependencies are the imported ones ------------------------------------------------

# Calls that load a distribution's files or module by its import name, given as a string:
# ``files("airports")``, ``find_spec(PACKAGE)`` — a package used for its data is used too.
_BY_NAME = {"files", "find_spec", "import_module"}
_DRIVER = re.compile(r"^(?:postgresql|mysql)\+(\w+)$")  # "postgresql+psycopg": SQLAlchemy's dialect+driver


def _imports_of(path: Path) -> dict[str, int]:
    """Top-level names a module imports (every import, inside functions too), each with a line."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    constants = {t.id: node.value.value for node in tree.body if isinstance(node, ast.Assign)
                 and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)
                 for t in node.targets if isinstance(t, ast.Name)}
    found: dict[str, int] = {}
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        elif isinstance(node, ast.Call) and node.args and (
                getattr(node.func, "id", None) in _BY_NAME or getattr(node.func, "attr", None) in _BY_NAME):
            arg = node.args[0]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                names = [arg.value]
            elif isinstance(arg, ast.Name) and arg.id in constants:
                names = [constants[arg.id]]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and _DRIVER.match(node.value):
            names = [_DRIVER.match(node.value).group(1)]  # SQLAlchemy loads the URL's driver by name
        for name in names:
            found.setdefault(name.split(".")[0], node.lineno)
    return found


def _declared() -> dict[str, str]:
    """pyproject's runtime dependencies: canonical distribution name -> the line as written."""
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    return {_canonical(re.match(r"[A-Za-z0-9._-]+", d).group()): d for d in deps}


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _import_names_by_distribution() -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for top, dists in importlib.metadata.packages_distributions().items():
        for dist in dists:
            out.setdefault(_canonical(dist), set()).add(top)
    return out


def _provided(dist: str, by_dist: dict[str, set[str]]) -> set[str]:
    """The import names a declared distribution brings: its own, or — for a meta-package such
    as PySide6, which holds no module — those of the distributions it requires."""
    own = by_dist.get(dist, set())
    if own:
        return own
    requires = importlib.metadata.requires(dist) or []
    return {top for r in requires if "extra ==" not in r
            for top in by_dist.get(_canonical(re.match(r"[A-Za-z0-9._-]+", r).group()), set())}


def test_declared_dependencies_are_the_imported_ones():
    first_party = set(SOURCES)
    imported: dict[str, str] = {}  # top-level name -> "file:line" of its first import
    for path in _source_files():
        for name, line in _imports_of(path).items():
            if name not in sys.stdlib_module_names and name not in first_party and name != "__future__":
                imported.setdefault(name, f"{path.relative_to(ROOT)}:{line}")
    by_dist = _import_names_by_distribution()
    declared = _declared()
    provided = {dist: _provided(dist, by_dist) for dist in declared}
    problems = [f"{dist}: declared in pyproject.toml ({line!r}) but never imported by {', '.join(SOURCES)}"
                f" (it provides {sorted(provided[dist]) or 'no module'}): remove it, or use it for what it is for"
                for dist, line in declared.items() if not provided[dist] & imported.keys()]
    covered = set().union(*provided.values())
    problems += [f"{where}: imports {name!r}, which no dependency in pyproject.toml provides"
                 f" (installed from {sorted(d for d, tops in by_dist.items() if name in tops) or 'nothing'}): declare it"
                 for name, where in sorted(imported.items()) if name not in covered]
    assert not problems, "\n".join(problems)


# -- private names stay in their package --------------------------------------------------------

def _is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def test_no_private_name_is_imported_across_packages():
    """``from engine.x.y import _z`` (or a private module ``engine.x._y``) only from inside the
    package that holds it (``engine.x`` and below): elsewhere, make the name public or move the caller."""
    problems = []
    for path in _source_files():
        module = _module_of(path)
        home = module if path.name == "__init__.py" else module.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = module.split(".")[: len(module.split(".")) - node.level + (path.name == "__init__.py")]
                    source = ".".join(base + ([node.module] if node.module else []))
                else:
                    source = node.module or ""
                targets = [f"{source}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                continue
            for target in targets:
                parts = target.split(".")
                if parts[0] not in SOURCES or not any(_is_private(p) for p in parts):
                    continue
                owner = ".".join(parts[: next(i for i, p in enumerate(parts) if _is_private(p))])
                if not (ROOT / owner.replace(".", "/") / "__init__.py").is_file():
                    owner = owner.rpartition(".")[0]  # a module's private name: its package owns it
                if home != owner and not home.startswith(owner + "."):
                    problems.append(f"{path.relative_to(ROOT)}:{node.lineno}: {module} imports {target},"
                                    f" private to {owner}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("snippet, expected", [
    ("import qasync\nfrom PySide6.QtCore import Qt\n", {"qasync", "PySide6"}),
    ("def f():\n    from safetensors import safe_open\n", {"safetensors"}),
    ("PACKAGE = 'wordllama'\ndef f():\n    return importlib.util.find_spec(PACKAGE)\n", {"wordllama"}),
    ("x = files('airports') / 'data'\n", {"airports"}),
    ("url = url.set(drivername='postgresql+psycopg')\n", {"psycopg"}),
    ("from .sibling import thing\n", set()),
])
def test_the_dependency_scan_sees_every_kind_of_use(tmp_path, snippet, expected):
    path = tmp_path / "m.py"
    path.write_text(snippet)
    assert set(_imports_of(path)) == expected
