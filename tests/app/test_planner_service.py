"""The planner runs off the calling thread and reports events and results on the caller's loop."""

from __future__ import annotations

import asyncio
import threading
from datetime import date

from app.planner_service import PlannerService
from engine.models import EventStatus, IntentV1, RoadTripIntent
from engine.pipeline import PlanningSession

PARIS = {"city": "Paris", "date_window": {"start": "2027-06-15", "end": "2027-06-19", "tz": "Europe/Paris"},
         "budget_usd_cents": 400000, "airports": ["CDG", "ORY"], "origin_airport": "JFK",
         "prefs": {"themes": ["art"]}}


def test_events_arrive_on_the_callers_thread_in_order() -> None:
    async def scenario():
        service = PlannerService(PlanningSession(today=date(2026, 11, 23)), asyncio.get_running_loop())
        seen: list[tuple[int, str]] = []
        caller = threading.get_ident()
        result = await service.plan(IntentV1.model_validate(PARIS),
                                    on_event=lambda e: seen.append((threading.get_ident(), e.node)))
        return caller, seen, result, service
    caller, seen, result, service = asyncio.run(scenario())
    assert result.status == "completed"
    assert {tid for tid, _ in seen} == {caller}
    assert seen[0][1] == "intent_extractor" and seen[-1][1] == "responder"
    assert len(seen) == len(result.events)
    assert service.worker.name == "tripwright-planner" and service.worker.ident != caller


def test_plans_share_one_planner_thread_so_the_caller_never_waits_for_a_thread_to_start() -> None:
    """Thread.start() blocks its caller until the new thread holds the GIL (80-120 ms while the
    engine loop is busy): the GUI thread hands every plan to one long-lived planner thread."""
    async def scenario():
        service = PlannerService(PlanningSession(today=date(2026, 11, 23)), asyncio.get_running_loop())
        first = await service.plan(IntentV1.model_validate(PARIS))
        thread = service.worker
        second = await service.plan(IntentV1.model_validate(PARIS))
        return service, thread, first, second
    service, thread, first, second = asyncio.run(scenario())
    assert first.status == second.status == "completed"
    assert service.worker is thread and thread.is_alive() and service.join(5) and not service.running


def test_cancel_from_the_caller_stops_the_run_at_the_next_node() -> None:
    """The worker pauses inside a user edit until the caller has pressed Cancel: the next node
    must then stop the run, and nothing after the selector may run."""
    cancelled = threading.Event()

    def wait_for_cancel(plan, facts):
        assert cancelled.wait(10)
        return plan

    async def scenario():
        service = PlannerService(PlanningSession(today=date(2026, 11, 23)), asyncio.get_running_loop())

        def on_event(event) -> None:
            if event.node == "selector" and event.status is EventStatus.completed:
                service.cancel()
                cancelled.set()
        return await service.plan(IntentV1.model_validate(PARIS), on_event=on_event, edits=[wait_for_cancel])
    result = asyncio.run(scenario())
    assert result.status == "cancelled"
    assert result.events[-1].status is EventStatus.cancelled
    assert not [e for e in result.events if e.node in ("verifier", "repair", "synthesizer")]


def test_errors_reach_the_awaiting_coroutine() -> None:
    import pytest
    from engine.errors import InputError

    async def scenario():
        service = PlannerService(PlanningSession(today=date(2026, 11, 23)), asyncio.get_running_loop())
        return await service.plan(IntentV1.model_validate(PARIS | {"city": "Atlantis"}))
    with pytest.raises(InputError):
        asyncio.run(scenario())


def test_cancel_settles_at_once_while_the_engine_is_still_inside_a_node() -> None:
    """A node can run for seconds (a cold road-trip planner): the caller is released at once with
    a cancelled result, and what the worker reports afterwards is dropped."""
    import time

    release = threading.Event()
    late: list = []

    def stuck(plan, facts):
        release.wait(10)
        return plan

    async def scenario():
        service = PlannerService(PlanningSession(today=date(2026, 11, 23)), asyncio.get_running_loop())
        seen: list = []

        def on_event(event) -> None:
            seen.append(event)
            if release.is_set():
                late.append(event)
            if event.node == "selector" and event.status is EventStatus.completed:
                asyncio.get_running_loop().call_later(0.05, service.cancel)
        started = time.perf_counter()
        result = await service.plan(IntentV1.model_validate(PARIS), on_event=on_event, edits=[stuck])
        waited = time.perf_counter() - started
        release.set()
        await asyncio.get_running_loop().run_in_executor(None, service.join, 10)
        await asyncio.sleep(0.05)  # anything the worker posted has been delivered by now
        return result, seen, waited, service
    result, seen, waited, service = asyncio.run(scenario())
    assert result.status == "cancelled" and result.itinerary is None
    assert result.events[-1].status is EventStatus.cancelled and result.events[-1].node == "responder"
    assert result.events == seen and seen[-1].run_id == seen[0].run_id
    assert late == [] and not service.running  # the job ended; its thread waits for the next plan
    assert waited < 5


def test_runs_share_one_long_lived_engine_loop_and_one_http_client(monkeypatch) -> None:
    """The HTTP client, breakers and caches live across runs (a real 127.0.0.1 forecast stand-in)."""
    from tests.engine.standin_server import StandIn
    server = StandIn().start()
    monkeypatch.delenv("TRIPWRIGHT_OFFLINE", raising=False)
    monkeypatch.setenv("TRIPWRIGHT_OPEN_METEO_URL", server.url)

    async def scenario():
        session = PlanningSession(today=date(2027, 6, 10))
        service = PlannerService(session, asyncio.get_running_loop())
        first = await service.plan(IntentV1.model_validate(PARIS))
        clients = dict(session.toolbox.network._clients)  # noqa: SLF001
        second = await service.plan(IntentV1.model_validate(PARIS | {"budget_usd_cents": 390000}))
        same = session.toolbox.network._clients == clients  # noqa: SLF001
        loop = service.engine_loop()
        service.shutdown()
        return first, second, clients, same, loop
    try:
        first, second, clients, same, loop = asyncio.run(scenario())
    finally:
        server.stop()
    assert first.status == second.status == "completed"
    assert len(clients) == 1 and same and next(iter(clients.values()))[0] is loop
    assert len(server.hits("/v1/forecast")) == 1  # the second run was answered by the kept cache
