"""``tripwright diagnostics [--json] [--prometheus] [--bundle FILE.zip]``: the metrics, breaker
states, cache hit rates, error reasons, model calls, invalid-output rate and cost saved by the last
``tripwright plan``, and the model cost of the recent runs the store recorded."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from engine import diagnostics
from engine.errors import InputError, TripwrightError

RECENT_RUNS = 10


def run_diagnostics(args) -> int:
    report = diagnostics.load()
    if report is None:
        report = diagnostics.collect()  # nothing planned yet: this process's (empty) figures
        report["note"] = "no run recorded yet"
    runs = _recent_runs()
    if runs is not None:
        report["runs"] = runs
    if args.bundle:
        target = Path(args.bundle)
        if target.suffix.lower() != ".zip":
            raise InputError("--bundle", f"{target.name}: the bundle is a .zip file")
        if not target.parent.is_dir():
            raise InputError("--bundle", f"folder {target.parent} does not exist")
        try:  # the bundle is staged and renamed into place: a full disk leaves nothing behind
            names = diagnostics.bundle(report, target)
        except OSError as exc:
            raise InputError("--bundle", f"cannot write {target}: {exc.strerror or exc}; nothing was written") from None
        print(f"wrote {target} ({len(names)} files)", file=sys.stderr)
    if args.json:
        print(json.dumps({k: v for k, v in report.items() if k != "prometheus"}, indent=2))
    elif args.prometheus:
        print(report.get("prometheus", ""), end="")
    elif not args.bundle:
        print(diagnostics.human(report))
    return 0


def _recent_runs() -> dict | None:
    """Cost per run from the store's run rows; None when there is no store to read (no file
    made yet: diagnostics never creates one) or it cannot be read."""
    if not os.environ.get("TRIPWRIGHT_DATABASE_URL") and not (diagnostics.data_dir() / "tripwright.db").is_file():
        return None
    from .run_store import org_scope
    try:
        with org_scope() as repo:
            return diagnostics.run_costs(repo.runs.recent(RECENT_RUNS))
    except TripwrightError as exc:
        print(f"tripwright: warning: recent runs not read ({exc})", file=sys.stderr)
        return None
