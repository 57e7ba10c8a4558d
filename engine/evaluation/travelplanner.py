"""TravelPlanner-style figures (Xie et al., 2024) over one suite run, for the rule-based path and,
with ``tripwright eval --llm``, the model path:

* **delivery rate**: scenarios that produced a plan / scenarios;
* **commonsense pass rate** (timing, venue hours, weather, lodging windows, last train) and
  **hard-constraint pass rate** (budget, preferences: kids, red-eyes, locked slots), each
  *micro* (family checks passed / checks, over all scenarios) and *macro* (scenarios passing
  every family of the kind / scenarios); a scenario without a plan fails every check;
* **final pass rate**: scenarios whose plan passes every family of both kinds.

A family passes when its verifier finds no blocking violation in the delivered plan."""

from __future__ import annotations

from engine.verify import VERIFIERS

COMMONSENSE = ("verify_timing", "verify_venue_hours", "verify_weather", "verify_lodging_windows",
               "verify_last_train")
HARD = ("verify_budget", "verify_preferences")


def family_checks(result, intent) -> dict[str, bool] | None:
    """{family: passed} for a delivered city plan; None when no plan was delivered."""
    if result is None or result.status != "completed" or result.plan is None or result.inputs is None:
        return None
    by_name = {v.__name__: v for v in VERIFIERS}
    return {name: not any(v.blocking for v in by_name[name](result.plan, intent, result.inputs.facts))
            for name in (*COMMONSENSE, *HARD) if name in by_name}


def figures(rows: list[dict[str, bool] | None]) -> dict[str, float]:
    n = len(rows) or 1
    out = {"delivery_rate": sum(r is not None for r in rows) / n}
    for label, names in (("commonsense", COMMONSENSE), ("hard", HARD)):
        checks = [(r or {}).get(name, False) for r in rows for name in names]
        out[f"{label}_micro"] = sum(checks) / (len(checks) or 1)
        out[f"{label}_macro"] = sum(r is not None and all(r.get(x, False) for x in names) for r in rows) / n
    out["final_pass_rate"] = sum(r is not None and all(r.values()) for r in rows) / n
    return out


def format_figures(values: dict[str, float], path: str) -> str:
    pct = {k: f"{v:.1%}" for k, v in values.items()}
    return (f"TravelPlanner-style ({path} path): delivery {pct['delivery_rate']}; commonsense micro "
            f"{pct['commonsense_micro']}, macro {pct['commonsense_macro']}; hard micro {pct['hard_micro']}, "
            f"macro {pct['hard_macro']}; final pass {pct['final_pass_rate']}")
