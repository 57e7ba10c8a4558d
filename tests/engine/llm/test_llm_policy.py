"""The model client on the shared tool executor's policy (one retry with jitter, Retry-After, the
breaker, the seed's metrics) and cancellation of an in-flight model call, against a real local
OpenAI-compatible server and the real ``openai`` client."""

from __future__ import annotations

import asyncio

import pytest

from engine.catalog import default_catalog
from engine.errors import ModelUnavailable
from engine.llm.client import LLMClient
from engine.llm.config import LLMConfig
from engine.llm.drafting import Drafter
from engine.llm.structured import ask_valid
from engine.metrics import METRICS
from engine.models import IntentV1
from engine.pipeline import PlanningSession
from engine.tools.executor import ToolExecutor

from .model_runs import cancel_mid_call
from .scripted_server import Reply, ScriptedServer, error_body
from ..conftest import PARIS_DEMO, TODAY
from pydantic import BaseModel


class Answer(BaseModel):
    ok: bool


def ask(server: ScriptedServer, executor: ToolExecutor | None = None, *, timeout_s: float = 5, calls: int = 1):
    """``calls`` questions in a row on one client; the outcome of each (text or the error)."""
    client = LLMClient(LLMConfig(base_url=server.base_url, model="gpt-4o-mini", timeout_s=timeout_s),
                       executor=executor)

    async def go():
        out = []
        try:
            for _ in range(calls):
                try:
                    out.append((await client.ask_json("draft", [{"role": "user", "content": "hi"}], Answer))[0])
                except ModelUnavailable as exc:
                    out.append(exc)
        finally:
            await client.close()
        return out
    return asyncio.run(go()), client


def sample(name: str, labels: dict, suffix: str = "_total") -> float:
    value = METRICS.registry.get_sample_value(name + suffix, labels)
    return value or 0.0


def gaps(server: ScriptedServer) -> list[float]:
    times = [r["_at"] for r in server.chat_requests()]
    return [b - a for a, b in zip(times, times[1:])]


def test_the_sdk_never_retries_on_its_own() -> None:
    client = LLMClient(LLMConfig(base_url="http://127.0.0.1:9/v1", model="m", timeout_s=3))
    sdk = client._client()
    assert sdk.max_retries == 0 and sdk.timeout == 3
    asyncio.run(client.close())


def test_a_5xx_is_retried_once_after_200_to_500_ms_of_jitter() -> None:
    before = sample("tool_errors", {"tool": "llm", "reason": "http_5xx"})
    ok = Reply(content='{"ok": true}')
    with ScriptedServer([Reply(status=502, body=error_body(502, "bad gateway")), ok]) as server:
        [text], _ = ask(server)
        assert text == '{"ok": true}' and 0.2 <= gaps(server)[0] <= 0.8, gaps(server)
    with ScriptedServer(default=Reply(status=500, body=error_body(500, "boom"))) as server:
        [failed], client = ask(server)
        assert len(server.chat_requests()) == 2  # exactly one retry, then the rule-based path
    assert isinstance(failed, ModelUnavailable) and failed.reason == "HTTP 500 from the model endpoint, after 2 tries"
    assert client.executor.stats["llm"].retries == 1 and client.executor.stats["llm"].errors == 1
    assert sample("tool_errors", {"tool": "llm", "reason": "http_5xx"}) == before + 1


def test_a_429_waits_for_its_retry_after() -> None:
    ok = Reply(content='{"ok": true}')
    with ScriptedServer([Reply(status=429, body=error_body(429, "slow down"), headers={"retry-after": "1"}), ok]) as server:
        [text], _ = ask(server)
        assert text == '{"ok": true}' and 1.0 <= gaps(server)[0] <= 1.6, gaps(server)


def test_a_timeout_is_retried_once_and_named() -> None:
    before = sample("tool_errors", {"tool": "llm", "reason": "timeout"})
    with ScriptedServer(default=Reply(content='{"ok": true}', delay_s=1.5)) as server:
        [failed], _ = ask(server, timeout_s=0.3)
        assert len(server.chat_requests()) == 2
    assert failed.reason == "the model did not answer within 0.3 s, after 2 tries"
    assert sample("tool_errors", {"tool": "llm", "reason": "timeout"}) == before + 1


def test_refusals_are_not_retried_and_the_breaker_opens_after_five() -> None:
    executor = ToolExecutor()
    with ScriptedServer(default=Reply(status=404, body=error_body(404, "no such model"))) as server:
        outcomes, _ = ask(server, executor, calls=7)
        assert len(server.chat_requests()) == 5  # one request per call; the breaker answers the last two
    assert all(isinstance(o, ModelUnavailable) for o in outcomes)
    assert outcomes[0].reason.startswith("HTTP 404 not found")
    assert outcomes[5].reason.startswith("the model endpoint keeps failing (circuit open; retry after")
    assert executor.breaker_state("llm") == "open"
    assert executor.stats["llm"].error_reasons == {"http_404": 5, "circuit_open": 2}


def test_latency_calls_invalid_outputs_and_cost_reach_the_metrics() -> None:
    latency = sample("tool_latency_ms", {"tool": "llm"}, "_count")
    calls = sample("llm_calls", {"node": "draft"})
    invalid = sample("invalid_output", {"node": "draft"})
    cost = sample("cost_usd", {"node": "draft"}, "_sum")
    with ScriptedServer([Reply(content="not json"), Reply(content='{"ok": true}')]) as server:
        client = LLMClient(LLMConfig(base_url=server.base_url, model="gpt-4o-mini", timeout_s=5))

        async def go():
            try:
                return await ask_valid(client, "draft", [{"role": "user", "content": "hi"}], Answer,
                                       example={"ok": True})
            finally:
                await client.close()
        assert asyncio.run(go()) == Answer(ok=True)
    assert sample("tool_latency_ms", {"tool": "llm"}, "_count") == latency + 2
    assert sample("llm_calls", {"node": "draft"}) == calls + 2
    assert sample("invalid_output", {"node": "draft"}) == invalid + 1
    # gpt-4o-mini, 1200 + 300 tokens a call (the server's usage): $0.00036 each
    assert sample("cost_usd", {"node": "draft"}, "_sum") == pytest.approx(cost + 0.00072)
    figures = METRICS.llm_figures()
    assert figures["calls"] >= 2 and figures["invalid_outputs"] >= 1 and 0 < figures["invalid_output_rate"] < 1


def test_cancel_stops_the_run_while_the_model_is_still_thinking() -> None:
    """Cancel → run stopped ≤ 200 ms, with a server that would answer after 5 s: the pending HTTP
    request is cancelled, not waited for."""
    run = cancel_mid_call(PlanningSession(default_catalog(), today=TODAY), IntentV1.model_validate(PARIS_DEMO),
                          Drafter)
    assert run.result.status == "cancelled" and run.result.events[-1].status.value == "cancelled"
    assert run.chat_requests == 1
    assert run.stop_ms <= 200, f"{run.stop_ms:.0f} ms"
