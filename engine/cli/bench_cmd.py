"""``tripwright bench``: runs ``bench/engine_bench.py`` from the source tree."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench" / "engine_bench.py"


def run_bench(args) -> int:
    if not BENCH.exists():
        print(f"tripwright: bench: {BENCH} not found (benchmarks run from a source checkout)", file=sys.stderr)
        return 2
    spec = importlib.util.spec_from_file_location("engine_bench", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    argv = (["--json"] if args.json else []) + (["--quick"] if args.quick else [])
    return module.main(argv)

