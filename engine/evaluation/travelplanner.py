"""TravelPlanner-style figures (Xie et al., 2024) over one suite run, for the rule-based path and,
with ``tripwright eval --llm``, the model path:

* **delivery rate**: scenarios that produced a plan / scenarios;
* **commonsense pass rate** (timing, venue hours, weather, lodging windows, last train) and
  **hard-constraint pass rate** (budget, preferences: kids, red-eyes, locked slots), each
  *micro* (family checks passed / checks, over all scenarios) and *macro* (scenarios passing
  every family of the kind / scenarios); a scenario without a plan fails every check;
* **final pass rate**: scenarios whose plan passes every family of both kinds.

A family passes when its verifier finds no blocking violation in the delivered plan. Road trips are
scored on the seed 000 invariants: commonsense = direction, pacing, geocoding; hard = what the
user set — the corridor (INV-CORR) and the daily cap (INV-PACE-02). An undelivered scenario fails
as many checks as a city plan has."""

from __future__ import annotations

from engine.verify import VERIFIERS

COMMONSENSE = ("verify_timing", "verify_venue_hours", "verify_weather", "verify_lodging_windows",
               "verify_last_train")
HARD = ("verify_budget", "verify_preferences")
ROAD_COMMONSENSE = ("road_direction", "road_pacing", "road_geocoding")
ROAD_HARD = ("road_corridor", "road_daily_cap")
KINDS = {"commonsense": (COMMONSENSE + ROAD_COMMONSENSE, COMMONSENSE), "hard": (HARD + ROAD_HARD, HARD)}


def _road_family(invariant: str) -> str:
    if invariant == "INV-PACE-02":
        return "road_daily_cap"
    if invariant.startswith("INV-CORR"):
        return "road_corridor"
    if invariant.startswith("INV-DIR") or invariant == "FB-01":
        return "road_direction"
    if invariant.startswith(("INV-GEO", "INV-AMBIG")):
        return "road_geocoding"
    return "road_pacing"


def road_family_checks(result) -> dict[str, bool] | None:
    """{family: passed} for a delivered road trip (its plan re-verified); None when undelivered."""
    plan = result.extra.get("road_plan") if result is not None else None
    if result is None or result.status != "completed" or plan is None:
        return None
    from engine.roadtrip.invariants import verify_road_plan
    failed = {_road_family(v.details.get("invariant", "")) for v in verify_road_plan(plan) if v.blocking}
    return {name: name not in failed for name in (*ROAD_COMMONSENSE, *ROAD_HARD)}


def family_checks(result, intent) -> dict[str, bool] | None:
    """{family: passed} for a delivered plan; None when no plan was delivered."""
    if getattr(intent, "mode", "city") == "road_trip":
        return road_family_checks(result)
    if getattr(intent, "mode", "city") == "multi_city":  # each stay's plan, as a city trip's
        stays = result.extra.get("stay_plans") if result is not None and result.status == "completed" else None
        if not stays:
            return None
        rows = [_checks(plan, stay_intent, facts) for plan, stay_intent, facts in stays]
        return {name: all(r[name] for r in rows) for name in rows[0]}
    if result is None or result.status != "completed" or result.plan is None or result.inputs is None:
        return None
    return _checks(result.plan, intent, result.inputs.facts)


def _checks(plan, intent, facts) -> dict[str, bool]:
    by_name = {v.__name__: v for v in VERIFIERS}
    return {name: not any(v.blocking for v in by_name[name](plan, intent, facts))
            for name in (*COMMONSENSE, *HARD) if name in by_name}


def figures(rows: list[dict[str, bool] | None]) -> dict[str, float]:
    n = len(rows) or 1
    out = {"delivery_rate": sum(r is not None for r in rows) / n}
    for label, (names, city) in KINDS.items():
        checks = [ok for r in rows for ok in ([False] * len(city) if r is None else
                                               [v for k, v in r.items() if k in names])]
        out[f"{label}_micro"] = sum(checks) / (len(checks) or 1)
        out[f"{label}_macro"] = sum(r is not None and all(v for k, v in r.items() if k in names) for r in rows) / n
    out["final_pass_rate"] = sum(r is not None and all(r.values()) for r in rows) / n
    return out


def format_figures(values: dict[str, float], path: str) -> str:
    pct = {k: f"{v:.1%}" for k, v in values.items()}
    return (f"TravelPlanner-style ({path} path): delivery {pct['delivery_rate']}; commonsense micro "
            f"{pct['commonsense_micro']}, macro {pct['commonsense_macro']}; hard micro {pct['hard_micro']}, "
            f"macro {pct['hard_macro']}; final pass {pct['final_pass_rate']}")
