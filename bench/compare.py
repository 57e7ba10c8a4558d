"""Side by side: this tree against a git ref, or two refs, interleaved, medians and ratios (issue 34 §1).

    .venv/bin/python bench/compare.py REF [--against REF2] [--also REF3,...] [--cases plan,verify,...]
                                          [--rounds N] [--reps N] [--quiet-logs] [--json]
    .venv/bin/python bench/compare.py --bisect-step GOOD CASE FIGURE RATIO   (for ``git bisect run``)

Absolute times on a shared machine are noise; a ratio of two builds measured in turns is not. Each
round runs every case once in each build, the order rotating (A B, then B A; with ``--also``, A B C,
then A C B …), each in a fresh process (``bench/compare_cases.py``, the same measuring code for all);
the table shows each build's median over the rounds and its ratio to A's.

A ref is built in seconds, not by a 1.2 GB install: its tree is exported (``git archive``, so no
worktree is registered in the shared repository) into ``$TMPDIR/tripwright-compare/<sha>/src``,
next to a venv made ``--without-pip`` whose one ``.pth`` puts that tree first on ``sys.path`` and
reads this venv's site-packages (its ``.pth`` files too, but not this checkout's editable install).
The libraries are this venv's: a ref that needs other versions is measured with these (say so).
Each build has its own warm data dir (``TRIPWRIGHT_HOME``) under the same folder (this tree's is
named after its path: two checkouts compared at once do not share one; a ref's is shared by every
checkout comparing with it, so ``TMPDIR=<a folder of one's own>`` when another helper measures the
same ref); builds are kept for the next comparison (``--clean`` removes them all).

``--bisect-step`` is for ``git bisect run`` in a worktree of one's own: it builds the worktree's
HEAD and exits 1 (bad) when its FIGURE is more than RATIO × GOOD's, 0 otherwise, 125 when it
cannot be built or run (skip).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import tomllib
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
TREE = HERE.parent
CASES_FILE = HERE / "compare_cases.py"
BUILDS = Path(tempfile.gettempdir()) / "tripwright-compare"
DEFAULT_CASES = ["executor", "plan", "replan", "verify", "road", "seattle_miami", "cold_weather"]
SITE_HOOK = '''"""Written by bench/compare.py: the base venv's site-packages without its editable install."""
import os, site, sys
_BASE = {base!r}
if _BASE not in sys.path:
    sys.path.append(_BASE)
for _name in sorted(os.listdir(_BASE)):
    if _name.endswith(".pth") and "editable" not in _name and "tripwright" not in _name.lower():
        site.addpackage(_BASE, _name, set(sys.path))
'''


@dataclass
class Build:
    label: str
    root: Path       # the source tree: working directory and first on sys.path
    python: Path
    home: Path       # its TRIPWRIGHT_HOME


def git(*args: str, cwd: Path = TREE) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout.strip()


def this_build() -> Build:
    # one per checkout: worktrees measured at the same time on one machine must not share a data dir
    home = BUILDS / f"home-this-tree-{hashlib.sha1(str(TREE).encode()).hexdigest()[:10]}"
    home.mkdir(parents=True, exist_ok=True)
    return Build("this tree", TREE, Path(sys.executable), home)


def build_ref(ref: str, repo: Path = TREE) -> Build:
    """The ref's tree exported once and a venv around it (seconds; kept for the next run)."""
    sha = git("rev-parse", f"{ref}^{{commit}}", cwd=repo)
    where = BUILDS / sha[:12]
    src, venv = where / "src", where / "venv"
    python = venv / "bin" / "python"
    base = sysconfig.get_path("purelib")  # the libraries it borrows: a build made from a venv since removed is redone
    marker = where / ".built"
    if not marker.exists() or marker.read_text().splitlines()[1:2] != [base]:
        shutil.rmtree(where, ignore_errors=True)
        src.mkdir(parents=True)
        archive = subprocess.run(["git", "archive", sha], cwd=repo, check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(src)], input=archive, check=True)
        subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
        site_dir = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                                       check=True, capture_output=True, text=True).stdout.strip())
        (site_dir / "_tripwright_compare_site.py").write_text(SITE_HOOK.format(base=base))
        (site_dir / "_tripwright_compare.pth").write_text(f"{src}\nimport _tripwright_compare_site\n")
        _entry_points(src, venv / "bin", python)
        subprocess.run([str(python), "-m", "compileall", "-q", "engine", "app", "widgets"], cwd=src,
                       capture_output=True)
        (where / "home").mkdir()
        marker.write_text(f"{ref}\n{base}\n")
    label = f"{ref} ({sha[:7]})" if not sha.startswith(ref) else sha[:7]
    return Build(label, src, python, where / "home")


def _entry_points(src: Path, bin_dir: Path, python: Path) -> None:
    """The ref's own console scripts (``tripwright = app.entry:main``) in its venv's bin."""
    scripts = tomllib.loads((src / "pyproject.toml").read_text())["project"].get("scripts", {})
    for name, target in scripts.items():
        module, func = target.split(":")
        path = bin_dir / name
        path.write_text(f"#!{python}\nimport sys\nfrom {module} import {func}\nsys.exit({func}())\n")
        path.chmod(0o755)


def run_case(build: Build, case: str, reps: int | None, quiet_logs: bool, profile: Path | None = None) -> dict:
    argv = [str(build.python), str(CASES_FILE), case] + (["--reps", str(reps)] if reps else []) + \
        (["--quiet-logs"] if quiet_logs else [])
    env = {**os.environ, "TRIPWRIGHT_HOME": str(build.home), "TRIPWRIGHT_OFFLINE": "1", "PYTHONPATH": ""}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if profile is not None:
        env["TRIPWRIGHT_COMPARE_PROFILE"] = str(profile)
    done = subprocess.run(argv, cwd=build.root, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{build.label}: case {case} failed:\n{done.stderr.strip()[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def loadavg() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "?"


def compare(a: Build, b: Build, cases: list[str], rounds: int, reps: int | None, quiet_logs: bool,
            warm: bool = True, echo=print, more: tuple[Build, ...] = ()) -> dict:
    """Every case once in each build per round, the order rotating; medians per figure, each
    build's ratio to A's (B / A; with ``more``, C / A …)."""
    builds = [a, b, *more]
    sides = "ABCDEFGH"[:len(builds)]
    samples: dict[str, dict[str, list[float]]] = {}
    loads = [loadavg()]
    if warm:  # a data dir's first use (the gazetteer's index) is not the figure
        for case in cases:
            for build in builds:
                run_case(build, case, 1, quiet_logs)
    for r in range(rounds):
        for case in cases:
            order = list(zip(sides, builds))
            order = order[r % len(order):] + order[:r % len(order)]  # A B C, B C A, C A B …
            if r % 2:
                order.reverse()
            for side, build in order:
                for figure, value in run_case(build, case, reps, quiet_logs).items():
                    if isinstance(value, (int, float)) and not figure.endswith(("_plans", "_found")):
                        samples.setdefault(figure, {x: [] for x in sides})[side].append(float(value))
        loads.append(loadavg())
        echo(f"  round {r + 1}/{rounds} done, load {loads[-1]}", file=sys.stderr)
    table = {}
    for figure, each in samples.items():
        medians = {x: statistics.median(v) for x, v in each.items()}
        row = {x: round(m, 4) for x, m in medians.items()}
        for x in sides[1:]:
            row[f"ratio_{x}_over_A"] = round(medians[x] / medians["A"], 3) if medians["A"] else None
        row["samples"] = each
        table[figure] = row
    return {**{x: build.label for x, build in zip(sides, builds)}, "rounds": rounds, "loadavg": loads,
            "figures": table}


def print_table(result: dict) -> None:
    sides = [x for x in "ABCDEFGH" if x in result]
    print("   ".join(f"{x} = {result[x]}" for x in sides) + f"   rounds = {result['rounds']}   "
          f"load (1/5/15 min) from {result['loadavg'][0]} to {result['loadavg'][-1]}")
    print(f"{'figure':36} " + " ".join(f"{x + ' median':>12}" for x in sides)
          + " " + " ".join(f"{x + ' / A':>8}" for x in sides[1:]))
    for figure, row in result["figures"].items():
        print(f"{figure:36} " + " ".join(f"{row[x]:>12g}" for x in sides)
              + " " + " ".join(f"{row[f'ratio_{x}_over_A']:>8}" for x in sides[1:]))


def bisect_step(good: str, case: str, figure: str, ratio: float) -> int:
    """For ``git bisect run`` (run in the bisect worktree): exit 1 when HEAD's figure is more than
    ``ratio`` × GOOD's (measured side by side, 3 rounds), 0 when not, 125 when it cannot run."""
    repo = Path.cwd()
    try:
        a, b = build_ref(good, repo), build_ref("HEAD", repo)
        result = compare(a, b, [case], rounds=3, reps=None, quiet_logs=False)
    except (RuntimeError, subprocess.CalledProcessError) as exc:
        print(f"skip: {exc}", file=sys.stderr)
        return 125
    row = result["figures"][figure]
    print(f"{git('rev-parse', '--short', 'HEAD', cwd=repo)}: {figure} {row['B']} vs {row['A']} "
          f"({row['ratio_B_over_A']}×), load {result['loadavg'][-1]}", file=sys.stderr)
    return 1 if row["ratio_B_over_A"] > ratio else 0


def main(argv: list[str]) -> int:
    if "--clean" in argv:
        shutil.rmtree(BUILDS, ignore_errors=True)
        return 0
    if argv and argv[0] == "--bisect-step":
        return bisect_step(argv[1], argv[2], argv[3], float(argv[4]))

    def option(name: str, default=None):
        return argv[argv.index(name) + 1] if name in argv else default
    refs = [x for i, x in enumerate(argv) if not x.startswith("--") and (i == 0 or not argv[i - 1].startswith("--")
                                                                        or argv[i - 1] in ("--json", "--quiet-logs", "--no-warm"))]
    if not refs:
        print(__doc__, file=sys.stderr)
        return 2
    from compare_cases import CASES
    cases = option("--cases", ",".join(DEFAULT_CASES)).split(",")
    unknown = [c for c in cases if c not in CASES]
    if unknown:
        print(f"compare: no case {', '.join(unknown)} (cases: {', '.join(CASES)})", file=sys.stderr)
        return 2
    a = build_ref(refs[0])
    b = build_ref(option("--against")) if "--against" in argv else this_build()
    more = tuple(build_ref(ref) for ref in option("--also", "").split(",") if ref)
    reps = int(option("--reps")) if "--reps" in argv else None
    result = compare(a, b, cases, int(option("--rounds", 5)), reps, "--quiet-logs" in argv,
                     warm="--no-warm" not in argv, more=more)
    if "--json" in argv:
        print(json.dumps(result, indent=2))
    else:
        print_table(result)
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(HERE))
    raise SystemExit(main(sys.argv[1:]))
