"""The disruption suite of ``tripwright eval`` (issue 36 §2): trips planned as the scenarios plan
them, then re-planned from a moment of the trip around one change (``engine/replan_now``), with
TripTide-style figures (arXiv 2510.21329):

* **Preservation** — the share of the plan still ahead at now (visits, meals, flights, hotel
  desks) kept on the same day at the same time, averaged over the disruptions.
* **Responsiveness** — the share of disruptions resolved (the closed or skipped place gone that
  day, no outdoor visit in the rain, the day ended, the flight at its new time, the booking in
  the plan, on a road trip the night's stop kept) with no blocking violation left.
* **Re-plan time** — the re-plan itself, in process, the trip's tool answers at hand (median and
  worst); ``bench/replan_now_bench.py`` holds the speed target.

A file holds one trip and its disruptions::

    trip_id: paris_art
    today: 2026-11-23            # planning day (as scenarios)
    pack: lisbon_pt              # optional: a shipped OSM city pack
    intent: {...}                # as scenarios; a road trip's (mode: road_trip) as `plan --intent` reads it
    disruptions:
      - id: paris_louvre_closed
        now: 2027-06-16T11:00    # on the trip's clock
        closed: Louvre           # exactly one of late, closed, rain_from, done_for_today, skip, at, bookings
        expect: {min_preservation: 0.8}   # responsive: true by default
        must_satisfy: ["'louvre' not in {a.ref for a in after.days[1].activities}"]

Predicates see ``before`` and ``after`` (the itineraries), ``result`` (``Replanned``), ``facts``.
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import time
import traceback
from datetime import date, datetime
from pathlib import Path
from typing import Any, TextIO

import yaml
from pydantic import BaseModel, ConfigDict, Field, model_validator

from engine.errors import InputError, TripwrightError

from .predicates import PredicateError, SafeExpression
from .scenario import Scenario

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_DISRUPTIONS = ROOT / "tests" / "eval" / "disruptions"
KIND_KEYS = ("late", "closed", "rain_from", "done_for_today", "skip", "at", "bookings")
PASS_THRESHOLD = 0.90


class _Spec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class DisruptionExpect(_Spec):
    responsive: bool = True
    min_preservation: float = Field(default=0.0, ge=0.0, le=1.0)


class DisruptionSpec(_Spec):
    id: str = Field(pattern=r"^[a-z0-9_]{1,64}$")
    description: str = ""
    now: datetime
    late: int | None = None
    closed: str | None = None
    rain_from: str | None = None
    done_for_today: bool | None = None
    skip: str | None = None
    at: str | None = None
    bookings: str | None = None
    expect: DisruptionExpect = Field(default_factory=DisruptionExpect)
    must_satisfy: list[str] = Field(default_factory=list)

    @model_validator(mode="after")
    def _one_kind(self) -> "DisruptionSpec":
        given = [k for k in KIND_KEYS if getattr(self, k) not in (None, False)]
        if len(given) != 1:
            raise ValueError(f"give exactly one of {', '.join(KIND_KEYS)} (found: {', '.join(given) or 'none'})")
        return self

    @property
    def kind(self) -> str:
        return next(k for k in KIND_KEYS if getattr(self, k) not in (None, False))

    @property
    def value(self) -> str | None:
        v = getattr(self, self.kind)
        if self.kind == "bookings":
            return str(ROOT / v) if not Path(v).is_absolute() else v
        return None if v is True else str(v)


class DisruptionTrip(_Spec):
    trip_id: str = Field(pattern=r"^[a-z0-9_]{1,64}$")
    description: str = ""
    today: date
    pack: str | None = None
    intent: dict[str, Any]
    disruptions: list[DisruptionSpec] = Field(min_length=1)

    def scenario(self) -> Scenario:
        return Scenario(scenario_id=self.trip_id, today=self.today, pack=self.pack, intent=self.intent)


class DisruptionOutcome(BaseModel):
    trip_id: str
    disruption_id: str
    kind: str
    failures: list[str] = Field(default_factory=list)
    preservation: float = 0.0
    responsive: bool = False
    milliseconds: float = 0.0
    glance: str = ""
    road: bool = False

    @property
    def timed_as_city_day(self) -> bool:
        """The ≤ 100 ms target's cases: a city trip's re-plan with its tool answers at hand (a new
        booking reads them again for the new intent; a road trip re-derives its route to verify)."""
        return not self.road and self.kind != "bookings" and self.milliseconds > 0

    @property
    def passed(self) -> bool:
        return not self.failures


def is_disruption_file(path: Path) -> bool:
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError, RecursionError):
        return False
    return isinstance(raw, dict) and "disruptions" in raw


def load_trip(path: Path) -> DisruptionTrip:
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
        return DisruptionTrip.model_validate(raw)
    except (OSError, yaml.YAMLError) as exc:
        raise InputError(str(path), f"cannot read disruption file: {' '.join(str(exc).split())}") from None
    except ValueError as exc:
        errors = getattr(exc, "errors", lambda: [])()
        where = ".".join(str(p) for p in errors[0].get("loc", ())) if errors else "file"
        msg = str(errors[0].get("msg", exc)) if errors else str(exc)
        raise InputError(f"{path.name}: {where}", msg.removeprefix("Value error, ")) from None


async def run_trip(trip: DisruptionTrip, executor=None, network=None) -> list[DisruptionOutcome]:
    from engine.replan_now import TripState, parse_disruption, replan_from_now
    from engine.replan_now.scoring import score

    from .runner import build_session, scenario_intent
    if trip.intent.get("mode") == "road_trip":  # planned as `plan` plans one (a scenario is a city's)
        from engine.catalog import default_catalog
        from engine.models import RoadTripIntent
        from engine.pipeline import PlanningSession
        from engine.tools.toolbox import build_toolbox
        catalog = default_catalog()
        session = PlanningSession(catalog, today=trip.today, toolbox=build_toolbox(
            catalog, today=trip.today, executor=executor, network=network))
        intent = RoadTripIntent.model_validate(trip.intent)
    else:
        scenario = trip.scenario()
        session = build_session(scenario, executor, network)
        intent = scenario_intent(scenario, session)
    planned = await session.plan(intent)
    road = intent.mode == "road_trip"
    if planned.itinerary is None or (not road and (planned.plan is None or planned.inputs is None)):
        why = planned.failure.message if planned.failure else planned.status
        return [DisruptionOutcome(trip_id=trip.trip_id, disruption_id=d.id, kind=d.kind,
                                  failures=[f"the trip could not be planned: {why}"]) for d in trip.disruptions]
    state = None if road else TripState(itinerary=planned.itinerary, plan=planned.plan, inputs=planned.inputs,
                                        toolbox=session.toolbox)
    before = planned.itinerary
    out = []
    for spec in trip.disruptions:
        outcome = DisruptionOutcome(trip_id=trip.trip_id, disruption_id=spec.id, kind=spec.kind, road=road)
        try:
            change = parse_disruption(spec.kind, spec.value)
            started = time.perf_counter()
            if road:
                from engine.replan_now.road import replan_road_from_now
                result = await asyncio.to_thread(replan_road_from_now, before, spec.now, change,
                                                 catalog=session.catalog)
            else:
                result = await asyncio.to_thread(replan_from_now, state, spec.now, change)
            outcome.milliseconds = result.seconds * 1000 if spec.kind != "bookings" else \
                (time.perf_counter() - started) * 1000
        except (TripwrightError, ValueError) as exc:
            outcome.failures.append(f"could not re-plan: {exc}")
            out.append(outcome)
            continue
        except Exception as exc:  # noqa: BLE001 - an engine crash fails this disruption, not the suite
            where = traceback.extract_tb(exc.__traceback__)[-1]
            outcome.failures.append(f"engine crashed: {type(exc).__name__}: {exc} "
                                    f"({Path(where.filename).name}:{where.lineno})")
            out.append(outcome)
            continue
        figures = score(before, result)
        outcome.preservation, outcome.responsive, outcome.glance = figures.preservation, figures.responsive, result.glance
        if figures.responsive != spec.expect.responsive:
            left = [v.details.get("message", v.reason) for v in result.violations if v.blocking]
            outcome.failures.append(f"responsive {figures.responsive} (resolved {figures.resolved}, blocking: "
                                    f"{'; '.join(left) or 'none'}), expected {spec.expect.responsive}")
        if figures.preservation < spec.expect.min_preservation:
            outcome.failures.append(f"preservation {figures.preservation:.2f} < {spec.expect.min_preservation:.2f}")
        names = {"before": before, "after": result.itinerary, "result": result,
                 "facts": state.facts if state is not None else None}
        for predicate in spec.must_satisfy:
            try:
                if not SafeExpression(predicate).evaluate(names):
                    outcome.failures.append(f"{predicate} — false")
            except PredicateError as exc:
                outcome.failures.append(f"{predicate} — error: {exc}")
        out.append(outcome)
    return out


def disruption_paths(paths: list[Path] | None = None) -> list[Path]:
    out: list[Path] = []
    for p in paths or [DEFAULT_DISRUPTIONS]:
        out += sorted(q for q in p.iterdir() if q.suffix in (".yaml", ".yml")) if p.is_dir() else [p]
    return out


def run_disruption_suite(paths: list[Path] | None = None, *, out: TextIO | None = None) -> list[DisruptionOutcome]:
    from engine.net.network import NetworkState
    from engine.tools.executor import ToolExecutor

    async def run() -> list[DisruptionOutcome]:
        executor, network = ToolExecutor(), NetworkState()
        outcomes: list[DisruptionOutcome] = []
        try:
            for path in disruption_paths(paths):
                try:
                    trip = load_trip(path)
                except InputError as exc:
                    outcomes.append(DisruptionOutcome(trip_id=path.stem, disruption_id="?", kind="?",
                                                      failures=[f"invalid disruption file: {exc}"]))
                    continue
                outcomes += await run_trip(trip, executor, network)
        finally:
            await network.aclose()
        return outcomes
    outcomes = asyncio.run(run())
    print(format_report(outcomes), file=out or sys.stdout)
    return outcomes


def figures(outcomes: list[DisruptionOutcome]) -> dict[str, float | None]:
    ran = [o for o in outcomes if o.milliseconds > 0]
    city = sorted(o.milliseconds for o in ran if o.timed_as_city_day)
    others = [o.milliseconds for o in ran if not o.timed_as_city_day]
    return {"pass_rate": sum(o.passed for o in outcomes) / len(outcomes) if outcomes else None,
            "preservation": statistics.fmean(o.preservation for o in ran) if ran else None,
            "responsiveness": sum(o.responsive for o in outcomes) / len(outcomes) if outcomes else None,
            "replan_ms_median": statistics.median(city) if city else None,
            "replan_ms_max": city[-1] if city else None,
            "other_ms_max": max(others) if others else None}


def format_report(outcomes: list[DisruptionOutcome]) -> str:
    lines = ["", "Disruption suite (re-plan from now, issue 36):"]
    for o in outcomes:
        lines.append(f"{'PASS' if o.passed else 'FAIL'}  {o.disruption_id:<30} {o.kind:<15} "
                     f"kept={o.preservation:5.1%} {o.milliseconds:6.1f} ms")
        lines += [f"      ✗ {f}" for f in o.failures]
    f = figures(outcomes)

    def pct(x):
        return "n/a" if x is None else f"{x * 100:.1f}%"
    ms = "n/a" if f["replan_ms_median"] is None else f"{f['replan_ms_median']:.1f} ms median, {f['replan_ms_max']:.1f} ms worst"
    other = "" if f["other_ms_max"] is None else f"; a booking or a road trip: {f['other_ms_max']:.1f} ms worst"
    lines += ["",
              f"Disruption pass rate:  {pct(f['pass_rate'])} ({sum(o.passed for o in outcomes)}/{len(outcomes)}; "
              f"target ≥ 90%)",
              f"Preservation:          {pct(f['preservation'])} (plan still ahead kept unchanged, mean)",
              f"Responsiveness:        {pct(f['responsiveness'])} (resolved with no blocking violation)",
              f"Re-plan time:          {ms} (a city day, in process; target ≤ 100 ms){other}"]
    return "\n".join(lines)


def suite_ok(outcomes: list[DisruptionOutcome]) -> bool:
    return bool(outcomes) and sum(o.passed for o in outcomes) / len(outcomes) >= PASS_THRESHOLD


__all__ = ["DEFAULT_DISRUPTIONS", "DisruptionOutcome", "DisruptionTrip", "figures", "format_report",
           "is_disruption_file", "load_trip", "run_disruption_suite", "run_trip", "suite_ok"]
