"""The LLM room (seed 001): an OpenAI-compatible client with structured outputs, the prompts,
intent extraction and drafting. The model proposes; the planner, verifiers and repair decide.

``openai`` is imported only when a call is made (it costs ~1 s), so nothing here slows a run
without ``--llm``.

seed 001 (issue 11), Qt-free; `openai` imported only when a call is made (~1 s), so a run without `--llm`
never pays it: `config.py` (`OPENAI_BASE_URL`/`_API_KEY`/`_MODEL`/`_TIMEOUT_S` over the settings; a base URL
that is not http(s) or `TRIPWRIGHT_OFFLINE=1` → `ModelUnavailable`), `client.py` (one `AsyncOpenAI`, SDK
retries 0, one TLS context per process; every chat call runs under the shared tool executor as tool `llm` —
`ToolExecutor.call_uncached`: no cache, the breaker, exactly one retry after 200–500 ms jitter on a
timeout/429/5xx/dropped connection, `Retry-After` honoured when it fits, never on 401/404/400 or a non-chat
answer; `tool_latency_ms{tool="llm"}`, `tool_errors_total{tool="llm",reason}` with reasons
`rate_limited`/`http_5xx`/`timeout`/`unreachable`/`http_<status>` (401, 404,
…)/`bad_response`/`circuit_open`; the CLI passes the session's executor so `diagnostics` lists `llm` beside
the tools; **structured outputs**: `response_format` json_schema from pydantic models whose ids are enums,
JSON mode + validation when a server refuses schemas; 401/404/not-OpenAI-shaped → `ModelUnavailable` with a
one-line reason; `list_models` for Test connection), `usage.py` (tokens and cost per call from `usage`, a
price table per model — unknown models marked unpriced —, feeding
`llm_calls_total{node}`/`invalid_output_total{node}`/`cost_usd{node}` in `engine/metrics.py`; a run's cost
is `PlanResult.cost_usd`, kept on the run row (`cost_micro_usd`); the per-run cost kill switch
`TRIPWRIGHT_LLM_MAX_COST_USD`, default $0.10), `structured.py` (seed 002 §5.5: reject → caller rolls back →
one re-ask with schema, example and errors → `ModelOutputError`; an optional `check` re-asks a schema-valid
answer that breaks a rule schemas cannot say), `road_drafting.py` (`RoadDrafter`: overnight towns and stops
as enums of the corridor's candidates, checked against the seed 000 draft rules — driving order, nights ≤
days − 1, the daily cap — re-asked once, then absorbed by `engine/roadtrip/proposal.py`), `extraction.py`
(extraction-only prompt; the prose reaches no other call; the result is validated like form input; city
requests and road trips — origin, terminus, days, start date, one way/round trip, the route as an enum of
the fixtures' routes, stops, daily miles, party, themes — a road reading that is not a trip falls back to
the road parser), `early_nodes.py` (`EarlyNode`: a model step run before the pipeline — extraction, the chat
brief — recorded as `pipeline.events.EarlyEvent`s of its node in `PlanningSession.early_events`: started, a
`running` note for a rejected answer, completed with `model_usage` or with a note naming why it fell back;
`brief_with_events` makes the chat brief the `summarize_chat` node), `drafting.py` (`Drafter`: choices per
day, must-dos, hotel tier, airport; facts, top ideas and the chat brief as data), `revision.py` (`Reviser`:
summarizeFeedback → reviseItinerary; chat delta ≤ 30 or 20 relevant + 10 other; `revision_material` reads
what a revision needs in one org scope, for the CLI's `revise` and the app's Revise), `token_guard.py`
(ceil(chars/4); v1 ideas 10→5→3, v2 new ideas 5→3→0 then feedback ≤ 10; the current itinerary never cut),
`chat_brief.py` (bounded window, P1/P2 pseudonyms, one speaker or low confidence → unknown, failures logged
and skipped), `chat_import.py` (WhatsApp .txt Android/iOS, Telegram JSON). Every model call's tokens and
cost reach the run's events as `StreamEvent.model_usage` (additive, None elsewhere): `LLMClient.on_call` is
set by `pipeline/draft_stage.py` for the run — the draft's calls together on the `draft` node's completion,
a revision's `summarize` and `revise` calls one event each; the steps before the run — `extract` (`plan
--llm --prompt`, the app's Plan with AI on a prompt not yet read into the form) and `summarize_chat` (the
brief under `ITINERARY_INCLUDE_CHAT_BRIEF_ON_GENERATE`) — open the run's stream as early events
"""
