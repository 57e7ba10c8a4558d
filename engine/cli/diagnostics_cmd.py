"""``tripwright diagnostics [--json] [--prometheus] [--bundle FILE.zip]``: the metrics, breaker
states, cache hit rates, error reasons and cost saved by the last ``tripwright plan``."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from engine import diagnostics
from engine.errors import InputError


def run_diagnostics(args) -> int:
    report = diagnostics.load()
    if report is None:
        report = diagnostics.collect()  # nothing planned yet: this process's (empty) figures
        report["note"] = "no run recorded yet"
    if args.bundle:
        target = Path(args.bundle)
        if target.suffix.lower() != ".zip":
            raise InputError("--bundle", f"{target.name}: the bundle is a .zip file")
        if not target.parent.is_dir():
            raise InputError("--bundle", f"folder {target.parent} does not exist")
        names = diagnostics.bundle(report, target)
        print(f"wrote {target} ({len(names)} files)", file=sys.stderr)
    if args.json:
        print(json.dumps({k: v for k, v in report.items() if k != "prometheus"}, indent=2))
    elif args.prometheus:
        print(report.get("prometheus", ""), end="")
    elif not args.bundle:
        print(diagnostics.human(report))
    return 0
