"""``bench/compare_cases.py`` measures with the bench's own code: its ``verify`` case (run as
``bench/compare.py`` runs it, a child process in the build's root) jitters the plans with
``bench/engine_bench.py``'s ``jittered``, so both find the same violations in the same plans."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_compare_verify_case_jitters_as_the_bench_does(tmp_path) -> None:
    env = dict(os.environ, TRIPWRIGHT_HOME=str(tmp_path / "home"), TRIPWRIGHT_OFFLINE="1")
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "compare_cases.py"), "verify", "--reps", "1",
                           "--quiet-logs"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    spec = importlib.util.spec_from_file_location("engine_bench", ROOT / "bench" / "engine_bench.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    own = asyncio.run(bench.bench_verify(1000))
    assert figures["verify_plans"] == own["verify_plans"] == 1000
    assert figures["verify_violations_found"] == own["verify_violations_found"] > 0
