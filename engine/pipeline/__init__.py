"""The async planning pipeline and its in-process event stream.

`PlanningSession.plan(intent, on_event=, cancel=, edits=)` (`run.py`) runs a city trip (`city_run.py`), a
road trip (`road_run.py`) or a multi-city trip (`multi_city_run.py`: places → legs → stays, each stay
the city run's own stages on the trip's emitter → home → chain verify ⇄ repair) on one skeleton (`skeleton.py`): each kind declares its `STAGES` once, each with a
weight — its share of the progress bar (`EventEmitter.enter`; an event's `fraction` places it inside its
stage; the bar never goes back, heartbeats included) —, and shares one error path, one memo and one event
stream with its heartbeat. A city: [the session's `early_events` — model steps run
before it — first] [`city_pack`: a city no fixture covers gets its OpenStreetMap pack, cached or fetched,
each step an event (byte counts at most four a second), cancellable; `PlanningSession.use_city_pack` joins
it to the session's catalog and rebuilds the tools over the same executor; a pack city's intent takes the
city's own airports and zone where it names others — a request made before the pack was there —, a fixture
city's never] intent → planner (tool data, memoised apart, then ≤ 4 branches) → selector → [edits] →
tool_executor (transfers of the chosen plan) → verifier → repair → synthesizer → responder; a road trip:
corridor (its OpenStreetMap cells, fetched once and handed to every planner of the run) → bookings →
planner → routes → verifier → synthesizer → weather and notes (with a `RoadDrafter`, `road_draft.py`: corridor and
candidates → node `draft` → the planner around the proposed nights, its own nights when it cannot take
them); events as they happen (an error event carries `reason`: `invalid_model_output`, `infeasible_plan`),
cancellation between nodes (`engine.cancel.CancelToken`; an event callback may raise `PlanCancelled` to ask) and, through `CancelToken.interruptible`, of a model call in flight (its HTTP
request cancelled; `cancel()` from any thread), checkpoints (last 3), node memo keyed by input digest;
`ThrottledStream` (10/s, burst 20, 200 buffered, oldest non-critical dropped) and `replay_after` for the UI;
every log line of a run carries `trace_id`/`run_id`/`org_id`/`user_id`/`node` (seed §13.1's names: `ts`,
`level`, `message`), with one INFO line per node (`node_completed`, `duration_ms`), per tool call
(`tool_call`: `tool`, `latency_ms`, `retries`, `cache_hit`; a model call adds
`tokens_in`/`tokens_out`/`cost_usd`/`model`; `call_sync` lookups — FX, transit legs — are counted, not
logged one by one) and per verification (`violations_count`, `blocking_count`); a heartbeat event every
second of every run, from the emitter's own thread so CPU-bound nodes send it too ("waiting for <tool>"
while a call waits on the network); `PlanningSession.event_tap` sees every event (the CLI's `--events` is
`engine/cli/live_events.py`: each event written and flushed as it happens, put back as it was when the run
or the other outputs fail); road trips get the weather of every overnight stop and Nominatim answers
(prefetched) for places the gazetteer does not know
"""

from .control import Checkpoints, NodeMemo
from .events import EventEmitter, ThrottledStream, replay_after
from .run import PlanningSession, PlanResult

__all__ = ["Checkpoints", "EventEmitter", "NodeMemo", "PlanResult",
           "PlanningSession", "ThrottledStream", "replay_after"]
