"""LLM path figures (issue 11 "Speed") against a local OpenAI-compatible server with a fixed
latency (tests/engine/llm/scripted_server.py), the real ``openai`` client:

    .venv/bin/python bench/llm_bench.py [--json] [--quick]

* first progress event after ``plan`` starts (≤ 100 ms);
* overhead: a ``--llm`` run's wall time minus the server's fixed latency minus a rule-based run of
  the same intent (≤ 100 ms; SDK, HTTP, schema and prompt building count as overhead), medians over
  warm runs; the first run's ``openai`` import apart;
* the same overhead for a road trip the model drafts (LA → Chicago on Route 66, 7 days: nights
  chosen among the corridor's towns, then the planner and the seed 000 invariants);
* cancel → run stopped while the model call is in flight (a server that answers after 5 s; ≤ 200 ms);
* invalid-output rate and cost per run (from the run's UsageMeter).
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
os.environ.setdefault("TRIPWRIGHT_OFFLINE", "1")  # only the local model server is asked; no weather API

LATENCY_S = 0.3
TARGETS = {"first_event_ms": 100.0, "overhead_ms": 100.0, "road_overhead_ms": 100.0, "cancel_ms": 200.0}


def main() -> int:
    from engine.catalog import default_catalog
    from engine.llm.client import LLMClient
    from engine.llm.config import LLMConfig
    from engine.llm.drafting import Drafter
    from engine.models import IntentV1
    from engine.pipeline import PlanningSession
    from tests.engine.conftest import PARIS_DEMO, TODAY
    from tests.engine.llm.scripted_server import ScriptedServer, first_choices

    quick = "--quick" in sys.argv
    reps = 3 if quick else 7
    intent = IntentV1.model_validate(PARIS_DEMO)
    catalog = default_catalog()

    def slow_choices(request):
        reply = first_choices(request)
        reply.delay_s = LATENCY_S
        return reply

    async def one(server, llm: bool) -> dict:
        session = PlanningSession(catalog, today=TODAY)
        client = LLMClient(LLMConfig(base_url=server.base_url, model="gpt-4o-mini", timeout_s=10)) if llm else None
        drafter = Drafter(client) if llm else None
        first: list[float] = []
        started = time.perf_counter()
        result = await session.plan(intent, drafter=drafter,
                                    on_event=lambda e: first or first.append(time.perf_counter()))
        wall = time.perf_counter() - started
        model = sum(c.duration_ms for c in client.meter.calls) / 1000 if llm else 0.0
        meter = client.meter if llm else None
        if client:
            await client.close()
        assert result.status == "completed"
        return {"wall_ms": wall * 1000, "model_ms": model * 1000, "first_ms": (first[0] - started) * 1000,
                "invalid_rate": meter.invalid_output_rate if meter else 0.0, "cost": meter.cost_usd if meter else 0.0}

    with ScriptedServer(default=slow_choices) as server:
        cold = asyncio.run(one(server, True))  # pays the openai import (~1 s) once per process
        rows = [(asyncio.run(one(server, False)), asyncio.run(one(server, True))) for _ in range(reps)]
    # the stricter reading: everything but the server's fixed latency (SDK, HTTP, schema, prompt)
    overhead = [llm["wall_ms"] - LATENCY_S * 1000 - rule["wall_ms"] for rule, llm in rows]
    figures = {"first_event_ms": round(statistics.median(r[1]["first_ms"] for r in rows), 2),
               "overhead_ms": round(statistics.median(overhead), 1),
               "rule_run_ms": round(statistics.median(r[0]["wall_ms"] for r in rows), 1),
               "llm_run_ms": round(statistics.median(r[1]["wall_ms"] for r in rows), 1),
               "model_latency_ms": LATENCY_S * 1000, "cold_first_llm_run_ms": round(cold["wall_ms"], 1),
               "invalid_output_rate": rows[-1][1]["invalid_rate"], "cost_usd_per_run": round(rows[-1][1]["cost"], 6)}
    figures.update(road_figures(reps), cancel_ms=round(cancel_ms(), 1))
    if "--json" in sys.argv:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            target = TARGETS.get(key)
            print(f"{key:24} {value}" + (f"  (target ≤ {target})" if target else ""))
    return 0 if all(figures[k] <= v for k, v in TARGETS.items()) else 1


def road_figures(reps: int) -> dict:
    """A drafted road trip's overhead outside the model call, as for the city trip above."""
    from datetime import date
    from engine.catalog import default_catalog
    from engine.llm.client import LLMClient
    from engine.llm.config import LLMConfig
    from engine.llm.road_drafting import RoadDrafter
    from engine.models import RoadTripIntent
    from engine.pipeline import PlanningSession
    from tests.engine.conftest import TODAY
    from tests.engine.llm.scripted_server import ScriptedServer
    from tests.engine.llm.test_road_drafting import evenly

    intent = RoadTripIntent(origin="Los Angeles", terminus="Chicago", days=7, start_date=date(2027, 5, 3),
                            route="Route 66")
    catalog = default_catalog()

    def slow_nights(request):
        reply = evenly(request)
        reply.delay_s = LATENCY_S
        return reply

    async def one(server, llm: bool) -> float:
        session = PlanningSession(catalog, today=TODAY)
        client = LLMClient(LLMConfig(base_url=server.base_url, model="gpt-4o-mini", timeout_s=10)) if llm else None
        started = time.perf_counter()
        result = await session.plan(intent, drafter=RoadDrafter(client) if llm else None)
        wall = (time.perf_counter() - started) * 1000
        if client:
            await client.close()
        assert result.status == "completed", result.failure
        return wall

    with ScriptedServer(default=slow_nights) as server:
        asyncio.run(one(server, True))  # warm: gazetteer, route projections
        rows = [(asyncio.run(one(server, False)), asyncio.run(one(server, True))) for _ in range(reps)]
    return {"road_rule_run_ms": round(statistics.median(r for r, _ in rows), 1),
            "road_llm_run_ms": round(statistics.median(m for _, m in rows), 1),
            "road_overhead_ms": round(statistics.median(m - LATENCY_S * 1000 - r for r, m in rows), 1)}


def cancel_ms() -> float:
    """Cancel from another thread (as the app does) while the model's answer is 5 s away."""
    from engine.catalog import default_catalog
    from engine.llm.drafting import Drafter
    from engine.models import IntentV1
    from engine.pipeline import PlanningSession
    from tests.engine.conftest import PARIS_DEMO, TODAY
    from tests.engine.llm.model_runs import cancel_mid_call

    run = cancel_mid_call(PlanningSession(default_catalog(), today=TODAY), IntentV1.model_validate(PARIS_DEMO),
                          Drafter, in_flight_s=0.1)
    assert run.result.status == "cancelled"
    return run.stop_ms


if __name__ == "__main__":
    from engine.log_setup import configure
    configure(0)  # warnings only, to stderr: a run logs each node and tool call at INFO
    raise SystemExit(main())
