"""``tripwright eval [PATHS...]``: the YAML scenario suite (engine/evaluation/)."""

from __future__ import annotations


def run_eval(args) -> int:
    from engine.evaluation import main as eval_main
    return eval_main(args.paths, llm=args.llm)
