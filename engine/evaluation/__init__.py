"""The YAML scenario suite (seed §14): scenario format, safe predicates, runner and figures.

``tripwright eval [PATHS...]`` calls :func:`main`.
"""

from .predicates import PredicateError, SafeExpression, UnsafeExpression, check
from .runner import (DEFAULT_SCENARIOS, PASS_THRESHOLD, ScenarioOutcome, SuiteReport, citation_counts, main,
                     run_scenario, run_scenario_async, run_suite, run_suite_async, scenario_paths)
from .scenario import Scenario, load_scenario, resolved_edits

__all__ = ["DEFAULT_SCENARIOS", "PASS_THRESHOLD", "PredicateError", "SafeExpression", "Scenario",
           "ScenarioOutcome", "SuiteReport", "UnsafeExpression", "check", "citation_counts", "load_scenario",
           "main", "resolved_edits", "run_scenario", "run_scenario_async", "run_suite", "run_suite_async",
           "scenario_paths"]
