"""``tripwright eval [PATHS...]``: the YAML scenario suite (engine/evaluation/) and the disruption
suite (re-plans from now, engine/evaluation/disruptions.py); a path holding a disruption file goes
to the latter. Exit 0 when both pass."""

from __future__ import annotations

from pathlib import Path


def run_eval(args) -> int:
    from engine.evaluation import main as eval_main
    from engine.evaluation.disruptions import is_disruption_file, run_disruption_suite, suite_ok
    if not args.paths:
        code = eval_main(args.paths, llm=args.llm)
        return max(code, 0 if suite_ok(run_disruption_suite()) else 1)
    given = [Path(p) for p in args.paths]
    files = [q for p in given for q in (sorted(p.iterdir()) if p.is_dir() else [p])]
    disruptions = [q for q in files if q.suffix in (".yaml", ".yml") and q.is_file() and is_disruption_file(q)]
    scenarios = [p for p in args.paths if Path(p) not in disruptions and not (
        Path(p).is_dir() and files and all(q in disruptions for q in Path(p).iterdir() if q.suffix in (".yaml", ".yml")))]
    code = eval_main(scenarios, llm=args.llm) if scenarios or not disruptions else 0
    if disruptions:
        code = max(code, 0 if suite_ok(run_disruption_suite(disruptions)) else 1)
    return code
