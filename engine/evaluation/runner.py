"""Running scenarios and the suite (``tripwright eval``).

The figures (pass rate, first-repair success, repairs per success, citation coverage) are
defined and reported in ``suite_figures.py``.
"""

from __future__ import annotations

import asyncio
import sys
import time
import traceback
from pathlib import Path
from typing import Any, Iterable, TextIO

from engine.errors import InputError, TripwrightError
from engine.pipeline import PlanningSession, PlanResult
from engine.tools.provenance import usd_cents
from engine.tools.requests import FXRequest
from engine.tools.executor import ToolExecutor
from engine.net.network import NetworkState
from engine.tools.toolbox import ToolOverrides, build_toolbox

from .predicates import PredicateError, SafeExpression, UnsafeExpression
from .scenario import Scenario, load_scenario, resolved_edits
from .shared_tools import save_diagnostics, suite_executor
from .suite_figures import PASS_THRESHOLD, ScenarioOutcome, SuiteReport, citation_counts, repair_cycles

DEFAULT_SCENARIOS = Path(__file__).resolve().parents[2] / "tests" / "eval" / "scenarios"


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
