"""The seed §1.3 correctness figures of a suite run: each scenario's outcome and the suite's report.

Figures (pooled over the scenarios of one suite run):

* **Scenario pass rate** = passing scenarios / scenarios. A scenario passes when the run ends
  with the expected status (``ok`` = a plan with no blocking violation, ``error`` = a graceful
  failure) and every ``must_satisfy`` predicate is true.
* **First-repair success** = among the scenarios whose plan *needed repair* (the verifier found a
  blocking violation, so at least one repair cycle ran), the share where bounded repair removed
  every blocking violation in one cycle (the run is ``ok`` after exactly one cycle). Target ≥ 70%.
  Expected-failure scenarios (budget exhaustion) count too: they are exactly the cases repair
  cannot fix in one cycle.
* **Repairs per success** = mean number of repair cycles over the *passing* scenarios that
  produced a valid plan after needing repair (seed: "mean repair cycles before valid plan").
  Target ≤ 1.0.
* **Citation coverage** = claims with provenance / total claims, over every itinerary produced.
  A *claim* is each ``"; "``-separated statement in an activity's ``notes`` (flight fares, hotel
  tier and price, opening hours, admission, indoor/outdoor, transfer times and fares) plus the
  cost breakdown's ``currency_disclaimer``; the explicit unknown marker ("Information not
  available.") is not a claim. A claim is *covered* when ``itinerary.citations`` holds a
  citation with exactly that text whose provenance is the activity's own provenance (same
  ``response_digest``); for the disclaimer any citation with its text. Citations that back no
  note (e.g. the daily weather) count in neither number. Target ≈ 100%.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.models import ItineraryV1, RepairDiff
from engine.pipeline import PlanResult
from engine.tools.executor import ToolExecutor

UNKNOWN_NOTE = "Information not available."
PASS_THRESHOLD = 0.90


@dataclass
class ScenarioOutcome:
    scenario_id: str
    path: str | None
    expected_status: str
    status: str  # ok | error | cancelled | invalid (the scenario could not run) | crashed
    failures: list[str] = field(default_factory=list)
    cycles: int = 0
    claims: int = 0
    cited: int = 0
    duration_ms: int = 0
    message: str = ""
    result: PlanResult | None = field(default=None, repr=False)
    checks: dict[str, bool] | None = field(default=None, repr=False)  # TravelPlanner families

    @property
    def passed(self) -> bool:
        return not self.failures

    @property
    def needed_repair(self) -> bool:
        return self.cycles > 0

    @property
    def first_repair_ok(self) -> bool:
        return self.needed_repair and self.status == "ok" and self.cycles == 1

    def explain(self) -> str:
        head = f"{self.scenario_id}: {'PASS' if self.passed else 'FAIL'} (status {self.status}, " \
               f"expected {self.expected_status}, {self.cycles} repair cycle(s))"
        return "\n".join([head, *(f"  - {f}" for f in self.failures)])


@dataclass
class SuiteReport:
    outcomes: list[ScenarioOutcome]
    tools: ToolExecutor | None = field(default=None, repr=False)  # the suite's executor (cache figures)

    @property
    def weather_cache_hit_rate(self) -> float | None:
        stats = self.tools.stats.get("weather") if self.tools is not None else None
        return stats.cache_hits / stats.calls if stats and stats.calls else None

    @property
    def total(self) -> int:
        return len(self.outcomes)

    @property
    def passed(self) -> int:
        return sum(o.passed for o in self.outcomes)

    @property
    def pass_rate(self) -> float:
        return self.passed / self.total if self.total else 0.0

    @property
    def first_repair_success(self) -> float | None:
        needing = [o for o in self.outcomes if o.needed_repair]
        return sum(o.first_repair_ok for o in needing) / len(needing) if needing else None

    @property
    def repairs_per_success(self) -> float | None:
        fixed = [o for o in self.outcomes if o.passed and o.status == "ok" and o.needed_repair]
        return sum(o.cycles for o in fixed) / len(fixed) if fixed else None

    @property
    def citation_coverage(self) -> float | None:
        claims = sum(o.claims for o in self.outcomes)
        return sum(o.cited for o in self.outcomes) / claims if claims else None

    @property
    def ok(self) -> bool:
        return self.total > 0 and self.pass_rate >= PASS_THRESHOLD

    def figures(self) -> dict[str, float | None]:
        return {"scenario_pass_rate": self.pass_rate, "first_repair_success": self.first_repair_success,
                "repairs_per_success": self.repairs_per_success, "citation_coverage": self.citation_coverage,
                "weather_cache_hit_rate": self.weather_cache_hit_rate}

    def format(self) -> str:
        lines = []
        for o in self.outcomes:
            mark = "PASS" if o.passed else "FAIL"
            lines.append(f"{mark}  {o.scenario_id:<24} status={o.status:<7} cycles={o.cycles} "
                         f"{o.duration_ms:>5} ms")
            lines += [f"      ✗ {f}" for f in o.failures]
        needing = sum(o.needed_repair for o in self.outcomes)
        fixed = [o for o in self.outcomes if o.passed and o.status == "ok" and o.needed_repair]
        claims = sum(o.claims for o in self.outcomes)
        lines += [
            "",
            f"Scenario pass rate:    {_pct(self.pass_rate)} ({self.passed}/{self.total}; target ≥ 90%)",
            f"First-repair success:  {_pct(self.first_repair_success)} "
            f"({sum(o.first_repair_ok for o in self.outcomes)}/{needing} needing repair fixed in ≤1 cycle; "
            f"target ≥ 70%)",
            f"Repairs per success:   {_num(self.repairs_per_success)} "
            f"({sum(o.cycles for o in fixed)} cycles over {len(fixed)} repaired plans; target ≤ 1.0)",
            f"Citation coverage:     {_pct(self.citation_coverage)} "
            f"({sum(o.cited for o in self.outcomes)}/{claims} claims with provenance; target ≈ 100%)",
        ]
        weather = self.tools.stats.get("weather") if self.tools is not None else None
        if weather is not None:
            lines.append(f"Weather cache hit rate: {_pct(self.weather_cache_hit_rate)} "
                         f"({weather.cache_hits}/{weather.calls} weather calls answered by the cache; target ≥ 80%)")
        return "\n".join(lines)


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{x * 100:.1f}%"


def _num(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.2f}"


# -- citation coverage ---------------------------------------------------------------------------
def citation_counts(itinerary: ItineraryV1 | None) -> tuple[int, int]:
    """(claims, covered claims) of one itinerary; see the module docstring."""
    if itinerary is None:
        return 0, 0
    backed = {(c.claim, c.provenance.response_digest) for c in itinerary.citations}
    texts = {c.claim for c in itinerary.citations}
    claims = covered = 0
    for day in itinerary.days:
        for a in day.activities:
            if not a.notes or a.notes == UNKNOWN_NOTE:
                continue
            digest = a.provenance.response_digest if a.provenance else None
            parts = [p for p in a.notes.split("; ") if p.strip()]
            i = 0
            while i < len(parts):  # a cited claim may itself contain "; " (hotel desk notes)
                j = next((j for j in range(len(parts), i, -1)
                          if ("; ".join(parts[i:j]), digest) in backed), None)
                claims += 1
                covered += j is not None
                i = j if j is not None else i + 1
    disclaimer = itinerary.cost_breakdown.currency_disclaimer
    if disclaimer:
        claims += 1
        covered += disclaimer in texts
    return claims, covered


def repair_cycles(result: PlanResult | None) -> list[RepairDiff]:
    if result is None:
        return []
    if result.itinerary is not None:
        return list(result.itinerary.repairs)
    if result.failure is not None:
        return list(result.failure.attempts)
    return []
