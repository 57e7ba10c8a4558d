"""Running scenarios and the suite, and the seed §1.3 correctness figures.

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

import asyncio
import sys
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, TextIO

from engine.errors import InputError, TripwrightError
from engine.models import ItineraryV1, RepairDiff
from engine.pipeline import PlanningSession, PlanResult
from engine.tools.provenance import usd_cents
from engine.tools.requests import FXRequest
from engine.tools.executor import ToolExecutor
from engine.net.network import NetworkState
from engine.tools.toolbox import ToolOverrides, build_toolbox

from .predicates import PredicateError, SafeExpression, UnsafeExpression
from .scenario import Scenario, load_scenario, resolved_edits
from .shared_tools import save_diagnostics, suite_executor

UNKNOWN_NOTE = "Information not available."
PASS_THRESHOLD = 0.90
DEFAULT_SCENARIOS = Path(__file__).resolve().parents[2] / "tests" / "eval" / "scenarios"


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


# -- one scenario --------------------------------------------------------------------------------
def build_session(scenario: Scenario, executor: ToolExecutor | None = None,
                  network: NetworkState | None = None) -> PlanningSession:
    """A fresh session per scenario (its own pinned facts and node memo); ``executor`` and
    ``network`` are the suite's, shared as a user's runs share them: caches and breakers carry over
    (the cache key holds the pinned facts, so one scenario's rain is never another's)."""
    from engine.catalog import default_catalog
    overrides = ToolOverrides(weather=dict(scenario.overrides.weather), fx=dict(scenario.overrides.fx))
    catalog = default_catalog()
    for slug in [*([scenario.pack] if scenario.pack else []), *scenario.packs]:
        # an OSM city pack shipped for the suite, joined as a cached pack is
        from engine.places.catalog_link import catalog_with
        from .packs import load_eval_pack
        catalog, _ = catalog_with(catalog, load_eval_pack(slug), today=scenario.today)
    toolbox = build_toolbox(catalog, today=scenario.today, overrides=overrides, executor=executor, network=network)
    return PlanningSession(catalog, today=scenario.today, toolbox=toolbox, overrides=overrides)


def scenario_intent(scenario: Scenario, session: PlanningSession):
    """IntentV1 for the scenario; a budget in another currency is converted with the session's
    FX tool (as-of the scenario's ``today``, T-1), rounded half up to whole cents."""
    from engine.models import IntentV1, MultiCityIntent
    spec = scenario.budget_spec
    cents = None
    if spec is not None:
        rate = session.toolbox.rate_now(FXRequest(from_currency=spec.currency, as_of=scenario.today)).rate
        cents = usd_cents(spec.amount, rate)
    multi = scenario.intent.get("mode") == "multi_city"
    intent = (MultiCityIntent if multi else IntentV1).model_validate(scenario.intent_data(cents))
    if scenario.pack is not None and intent.mode == "city" and not session.catalog.has_city(intent.city):
        # offline, the pipeline would try to fetch this city and fail with a less direct message
        raise InputError("intent.city", f"{intent.city!r} is not the city of pack {scenario.pack!r}")
    return intent


def namespace(result: PlanResult, intent, city=None) -> dict[str, Any]:
    """The names a predicate can use (``city``: the catalog's data of the planned city, or None)."""
    return {"itinerary": result.itinerary, "intent": intent, "failure": result.failure, "result": result,
            "plan": result.plan, "facts": result.inputs.facts if result.inputs else None, "city": city}


def city_data(session: PlanningSession, intent):
    """The planned city's rows as the catalog holds them (a ``RawCity``; a pack's ``PackCity``):
    every venue, restaurant and hotel the planner could have picked, not only those it did."""
    name = getattr(intent, "city", None)
    return session.catalog.city(name).raw if name and session.catalog.has_city(name) else None


async def run_scenario_async(scenario: Scenario | str | Path, drafter=None, *, drafter_for=None,
                             executor: ToolExecutor | None = None,
                             network: NetworkState | None = None) -> ScenarioOutcome:
    """``drafter``: a model drafter; ``drafter_for(intent)`` makes one for the scenario's mode."""
    if not isinstance(scenario, Scenario):
        scenario = load_scenario(scenario)
    outcome = ScenarioOutcome(scenario_id=scenario.scenario_id, path=scenario.path,
                              expected_status=scenario.expect.status, status="invalid")
    started = time.perf_counter()
    try:
        checks = [(p, SafeExpression(p.predicate)) for p in scenario.must_satisfy]
        session = build_session(scenario, executor, network)
        intent = scenario_intent(scenario, session)
        if drafter_for is not None:
            drafter = drafter_for(intent)  # the city or the road drafter, by the scenario's mode
        result = await session.plan(intent, edits=resolved_edits(scenario), drafter=drafter)
    except UnsafeExpression as exc:
        outcome.failures.append(f"predicate rejected: {exc}")
        return outcome
    except (TripwrightError, ValueError) as exc:  # InputError, pydantic ValidationError, ...
        field_name = exc.field if isinstance(exc, InputError) else "scenario"
        outcome.failures.append(f"scenario could not run ({field_name}): {exc}")
        return outcome
    except Exception as exc:  # noqa: BLE001 - an engine crash fails this scenario, not the suite
        outcome.status = "crashed"
        outcome.message = traceback.format_exc()
        where = traceback.extract_tb(exc.__traceback__)[-1]
        outcome.failures.append(f"engine crashed: {type(exc).__name__}: {exc} "
                                f"({Path(where.filename).name}:{where.lineno})")
        return outcome
    finally:
        outcome.duration_ms = int((time.perf_counter() - started) * 1000)
    outcome.result = result
    from .travelplanner import family_checks
    outcome.checks = family_checks(result, intent)
    outcome.status = {"completed": "ok"}.get(result.status, result.status)
    outcome.cycles = len(repair_cycles(result))
    outcome.claims, outcome.cited = citation_counts(result.itinerary)
    outcome.message = result.failure.message if result.failure else ""
    if outcome.status != scenario.expect.status:
        why = f": {outcome.message}" if outcome.message else ""
        outcome.failures.append(f"expected status {scenario.expect.status}, got {outcome.status}{why}")
        return outcome
    names = namespace(result, intent, city_data(session, intent))
    from .quality_suite import for_pack
    names["quality"] = for_pack(scenario.pack, result.itinerary)  # the plan-quality scores (issue 31 §6)
    for spec, expr in checks:
        try:
            value = expr.evaluate(names)
        except PredicateError as exc:
            outcome.failures.append(f"{spec.label} — error: {exc} [{spec.predicate}]")
            continue
        if not value:
            label = f"{spec.label} [{spec.predicate}]" if spec.description else spec.predicate
            outcome.failures.append(f"{label} — evaluated to {value!r}")
    return outcome


def run_scenario(scenario: Scenario | str | Path) -> ScenarioOutcome:
    return asyncio.run(run_scenario_async(scenario))


# -- the suite -----------------------------------------------------------------------------------
def scenario_paths(paths: Iterable[str | Path] | None = None) -> list[Path]:
    """YAML files named by ``paths`` (files or directories); default: the bundled suite."""
    out: list[Path] = []
    for p in [Path(x) for x in (paths or [DEFAULT_SCENARIOS])]:
        if p.is_dir():
            out += sorted(q for q in p.iterdir() if q.suffix in (".yaml", ".yml"))
        elif p.is_file():
            out.append(p)
        else:
            raise InputError("paths", f"no scenario file or directory at {p}")
    return out


async def run_suite_async(paths: Iterable[str | Path] | None = None, drafter_factory=None,
                          executor: ToolExecutor | None = None) -> SuiteReport:
    """The scenarios in order, all through one executor (``executor`` or a new one) and one
    network state, so the tool caches are warm after the first scenario that asked."""
    executor = executor or ToolExecutor()
    network = NetworkState()
    outcomes = []
    for path in scenario_paths(paths):
        try:
            scenario = load_scenario(path)
        except InputError as exc:
            outcomes.append(ScenarioOutcome(scenario_id=path.stem, path=str(path), expected_status="?",
                                            status="invalid", failures=[f"invalid scenario: {exc}"]))
            continue
        outcomes.append(await run_scenario_async(scenario, drafter_for=drafter_factory,
                                                 executor=executor, network=network))
    await network.aclose()
    return SuiteReport(outcomes, tools=executor)


def run_suite(paths: Iterable[str | Path] | None = None, *, out: TextIO | None = None,
              llm: bool = False, executor: ToolExecutor | None = None) -> SuiteReport:
    """Run every scenario, print the per-scenario lines and the figures, return the report.
    ``llm``: each scenario is drafted by the configured model (falling back as ``plan --llm``).
    ``executor``: the tool executor to share (``main`` gives one with the store's durable cache)."""
    from .travelplanner import figures, format_figures
    drafters = _Drafters.from_env() if llm else None
    factory = drafters.for_intent if drafters else None

    async def run() -> SuiteReport:
        try:
            return await run_suite_async(paths, factory, executor)
        finally:
            if drafters is not None:
                await drafters.close()
    report = asyncio.run(run())
    print(report.format(), file=out or sys.stdout)
    print(format_figures(figures([o.checks for o in report.outcomes]), "model" if factory else "rule-based"),
          file=out or sys.stdout)
    if drafters is not None:
        print(drafters.summary(), file=out or sys.stdout)
    return report


class _Drafters:
    """A drafter per scenario (road trips get the road drafter), each with its own client and
    meter — the cost kill switch is per run, as for ``plan --llm`` — on one shared executor."""

    def __init__(self, config) -> None:
        from engine.tools.executor import ToolExecutor
        self.config, self.executor, self.made = config, ToolExecutor(), []

    @classmethod
    def from_env(cls) -> "_Drafters | None":
        """None and a warning when the model cannot be used: the suite then runs rule-based."""
        from engine.errors import ModelUnavailable
        from engine.llm.config import config_from_env
        try:
            return cls(config_from_env())
        except ModelUnavailable as exc:
            print(f"tripwright eval: warning: model unavailable ({exc.reason}); rule-based figures", file=sys.stderr)
            return None

    def for_intent(self, intent):
        from engine.llm.client import LLMClient
        from engine.llm.drafting import Drafter
        from engine.llm.road_drafting import RoadDrafter
        client = LLMClient(self.config, executor=self.executor)
        self.made.append(RoadDrafter(client) if intent.mode == "road_trip" else Drafter(client))
        return self.made[-1]

    async def close(self) -> None:
        for drafter in self.made:
            await drafter.client.close()

    def summary(self) -> str:
        meters = [d.client.meter for d in self.made]
        calls = sum(m.llm_calls_total for m in meters)
        invalid = sum(m.invalid_output_total for m in meters)
        tokens = f"{sum(m.prompt_tokens for m in meters)}+{sum(m.completion_tokens for m in meters)} tokens"
        cost = (f", ${sum(m.cost_usd for m in meters):.4f}" if all(m.priced for m in meters)
                else ", cost unknown (model not priced)")
        fallbacks = sum(d.warning is not None for d in self.made)
        fell = f"; {fallbacks} scenario(s) planned rule-based (model unavailable)" if fallbacks else ""
        return (f"Model: {calls} call(s), invalid-output rate {invalid / calls if calls else 0.0:.1%}, "
                f"{tokens}{cost}{fell}")


def main(argv: list[str] | None = None, *, llm: bool = False) -> int:
    """``tripwright eval [PATHS...] [--llm]``: exit 0 when the pass rate is ≥ 90%, else 1."""
    args = list(argv or [])
    try:
        with suite_executor() as executor:
            report = run_suite(args or None, llm=llm, executor=executor)
        save_diagnostics(executor)
    except InputError as exc:
        print(f"tripwright eval: {exc}", file=sys.stderr)
        return 2
    if not report.total:
        print("tripwright eval: no scenarios found", file=sys.stderr)
        return 1
    return 0 if report.ok else 1


__all__ = ["DEFAULT_SCENARIOS", "PASS_THRESHOLD", "ScenarioOutcome", "SuiteReport", "citation_counts", "main",
           "run_scenario", "run_scenario_async", "run_suite", "run_suite_async", "scenario_paths"]
