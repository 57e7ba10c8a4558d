"""One run skeleton for city and road trips (issue 30 §2): the stage list each kind declares,
progress as each stage's share of the bar, one memo (async node functions awaited), the
corridor's OpenStreetMap cells handed to the planner (no context variable), no import cycle."""

from __future__ import annotations

import ast
import asyncio
import threading
import time
from datetime import date
from pathlib import Path

import pytest

import engine.pipeline
import engine.roadtrip.osm_stops as osm_stops
from engine.cancel import CancelToken
from engine.models import EventStatus, RoadTripIntent
from engine.pipeline import PlanningSession
from engine.pipeline.city_run import CityRun
from engine.pipeline.events import HEARTBEATS, EventEmitter
from engine.pipeline.road_run import RoadRun
from engine.pipeline.skeleton import Run, Stage, bar_spans

from .conftest import TODAY, paris_demo

PIPELINE = Path(engine.pipeline.__file__).parent
ROUTE66 = dict(origin="Los Angeles", terminus="Chicago", days=7, start_date=date(2027, 5, 3), route="Route 66")


def _end(run) -> None:
    """A run made by hand and never executed: its stream closed as a run's is."""
    run.emitter.emit("responder", EventStatus.done)
    run.emitter.close()


def _progress_holds(events) -> None:
    values = [e.progress_pct for e in events]
    assert values[0] == 0 and values[-1] == 100
    assert values == sorted(values), values  # never goes back, heartbeats included


# -- the bar -------------------------------------------------------------------------------------
def test_the_shares_follow_the_declared_weights() -> None:
    async def nothing(run) -> None:
        return None

    stages = (Stage("a", 1, nothing), Stage("b", 3, nothing), Stage("c", lambda run: 0 if run else 4, nothing))
    assert bar_spans(stages, run=None) == [(0.0, 12.5), (12.5, 37.5), (50.0, 50.0)]
    assert bar_spans(stages, run=True) == [(0.0, 25.0), (25.0, 75.0), (100.0, 0.0)]


def test_each_kind_declares_its_stages_once_and_every_weight_counts() -> None:
    session = PlanningSession(today=TODAY)
    for kind in (CityRun, RoadRun):
        names = [s.name for s in kind.STAGES]
        assert len(names) == len(set(names)) and names[0] in ("city_pack", "intent")
    run = CityRun(session, paris_demo(), None, CancelToken(), "r", "t", edits=[])
    weights = {s.name: s.weight_in(run) for s in CityRun.STAGES}
    assert weights["city_pack"] == 0 and weights["draft"] == 0  # Paris is a fixture city; no model drafts
    assert all(w > 0 for n, w in weights.items() if n not in ("city_pack", "draft"))
    _end(run)


def test_an_event_lands_inside_its_stage_share_and_the_bar_never_goes_back() -> None:
    emitter = EventEmitter("t" * 32, "run-bar", heartbeat_s=None)
    emitter.enter(20.0, 40.0)
    assert emitter.emit("planner", EventStatus.started).progress_pct == 20
    assert emitter.emit("draft", EventStatus.running, fraction=0.5).progress_pct == 40
    assert emitter.emit("planner", EventStatus.running, note="a note").progress_pct == 40  # where it is
    assert emitter.beat().progress_pct == 40  # a heartbeat keeps the bar, never resets it
    assert emitter.emit("planner", EventStatus.completed).progress_pct == 60
    emitter.enter(10.0, 5.0)  # an earlier share (a re-plan inside a later stage) cannot pull it back
    assert emitter.emit("planner", EventStatus.completed).progress_pct == 60
    assert emitter.emit("responder", EventStatus.error, note="x").progress_pct == 60
    assert emitter.emit("responder", EventStatus.done).progress_pct == 100


def test_runs_join_the_one_heartbeat_thread_after_their_first_event_and_leave_it_at_their_end() -> None:
    """Seed §8.2's heartbeat without a thread started before a run's first event (starting one
    waits until it is scheduled): one thread for the process beats every live run."""
    events: dict[str, list] = {"a": [], "b": []}
    on_schedule_at_first: list[bool] = []
    first = EventEmitter("t" * 32, "run-a", heartbeat_s=0.001)
    second = EventEmitter("t" * 32, "run-b", events["b"].append, heartbeat_s=0.001)
    first.callback = lambda e: (events["a"].append(e), on_schedule_at_first.append(first in HEARTBEATS))
    assert first not in HEARTBEATS and second not in HEARTBEATS
    first.emit("planner", EventStatus.started)
    second.emit("verifier", EventStatus.started)
    assert on_schedule_at_first == [False] and first in HEARTBEATS and second in HEARTBEATS
    deadline = time.monotonic() + 30
    while not all(any(e.status is EventStatus.heartbeat for e in got) for got in events.values()):
        assert time.monotonic() < deadline, "no heartbeat for one of the runs"
        time.sleep(0.005)
    assert [t.name for t in threading.enumerate()].count("heartbeats") == 1
    assert {e.node for e in events["a"][1:]} == {"planner"} and {e.node for e in events["b"][1:]} == {"verifier"}
    first.emit("responder", EventStatus.done)
    second.close()
    assert first not in HEARTBEATS and second not in HEARTBEATS
    counts = {k: len(v) for k, v in events.items()}
    time.sleep(0.02)
    assert {k: len(v) for k, v in events.items()} == counts  # none after the end or after close
    assert events["a"][-1].node == "responder" and [e.seq for e in events["a"]] == list(range(counts["a"]))
    first.close()


async def test_a_city_run_moves_the_bar_stage_by_stage() -> None:
    result = await PlanningSession(today=TODAY).plan(paris_demo())
    _progress_holds(result.events)
    by_node = {(e.node, e.status): e.progress_pct for e in result.events}
    assert 0 < by_node[("planner", EventStatus.completed)] < by_node[("verifier", EventStatus.completed)] \
        < by_node[("synthesizer", EventStatus.completed)] <= 100


async def test_a_road_run_moves_the_bar_stage_by_stage() -> None:
    result = await PlanningSession(today=TODAY).plan(RoadTripIntent(**ROUTE66))
    assert result.status == "completed"
    _progress_holds(result.events)
    by_node = {(e.node, e.status): e.progress_pct for e in result.events}
    assert 0 < by_node[("planner", EventStatus.completed)] < by_node[("verifier", EventStatus.completed)] \
        < by_node[("synthesizer", EventStatus.completed)] <= 100


async def test_a_road_run_cancelled_from_its_callback_ends_cancelled() -> None:
    token = CancelToken()

    def on_event(event) -> None:
        if event.node == "planner" and event.status is EventStatus.started:
            token.cancel()
    result = await PlanningSession(today=TODAY).plan(RoadTripIntent(**ROUTE66), on_event=on_event, cancel=token)
    assert result.status == "cancelled" and result.itinerary is None
    assert (result.events[-1].node, result.events[-1].status) == ("responder", EventStatus.cancelled)
    assert not [e for e in result.events if e.node == "verifier"]


# -- one memo --------------------------------------------------------------------------------------
class _Probe(Run):
    MEMO_SPACE = "probe."


async def test_the_memo_awaits_an_async_node_for_either_kind_and_reuses_it() -> None:
    session = PlanningSession(today=TODAY)
    calls = []

    async def slow_answer():
        calls.append(1)
        await asyncio.sleep(0)
        return 42

    for kind in (_Probe, RoadRun):
        run = kind(session, RoadTripIntent(**ROUTE66), None, CancelToken(), "r", "t")
        assert await run.memo("node", "key", slow_answer) == (42, False)  # awaited, not a coroutine kept
        assert await run.memo("node", "key", slow_answer) == (42, True)
        _end(run)
    assert len(calls) == 2  # each kind in its own memo space
    assert ("probe.node", "key") in session.memo.store and ("road.node", "key") in session.memo.store


# -- how the pieces are joined -----------------------------------------------------------------------
def _imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module:
            names.add(node.module)
    return names


def test_no_stage_module_imports_the_session() -> None:
    """run.py (the session) imports the kinds; the kinds and stages never import it back."""
    for path in PIPELINE.glob("*.py"):
        if path.name not in ("run.py", "__init__.py"):
            assert "run" not in _imports(path), f"{path.name} imports .run: a cycle"
    assert "road_run" not in _imports(PIPELINE / "city_run.py")
    assert "city_run" not in _imports(PIPELINE / "road_run.py")


def test_the_corridor_data_is_handed_on_not_kept_in_a_context_variable() -> None:
    assert not hasattr(osm_stops, "CORRIDOR_DATA")
    for path in PIPELINE.glob("*.py"):
        text = path.read_text()
        assert "ContextVar" not in text and "getattr(session" not in text, path.name


@pytest.mark.parametrize("intent", [paris_demo(), RoadTripIntent(**ROUTE66)], ids=["city", "road"])
async def test_a_re_plan_of_the_same_intent_is_counted_as_one(intent) -> None:
    session = PlanningSession(today=TODAY)
    first = await session.plan(intent)
    again = await session.plan(intent)
    assert first.status == again.status == "completed"
    assert again.reuse > first.reuse
    assert [e.cache_hit for e in again.events if e.status is EventStatus.completed and e.node == "synthesizer"] == [True]
