"""Runs planned with a model drafting, against a local OpenAI-compatible server: one plan
(``plan_drafted``), or one cancelled while its model call is in flight, as the app cancels (from
another thread; ``cancel_mid_call``). Shared by the tests of city and road drafting and by
``bench/llm_bench.py``."""

from __future__ import annotations

import asyncio
import threading
import time
from dataclasses import dataclass
from typing import Callable

from engine.llm.client import LLMClient
from engine.llm.config import LLMConfig
from engine.cancel import CancelToken

from .scripted_server import Reply, ScriptedServer


async def _plan_and_close(session, intent, drafter, client: LLMClient, cancel: CancelToken | None = None):
    try:
        return await session.plan(intent, drafter=drafter, cancel=cancel)
    finally:
        await client.close()


def plan_drafted(session, server: ScriptedServer, intent, drafter_for: Callable[[LLMClient], object], *,
                 timeout_s: float, model: str = "gpt-4o-mini", **config):
    """Plan ``intent`` with ``drafter_for(client)`` on ``server``; returns (the PlanResult, the drafter)."""
    client = LLMClient(LLMConfig(base_url=server.base_url, model=model, timeout_s=timeout_s, **config))
    drafter = drafter_for(client)
    return asyncio.run(_plan_and_close(session, intent, drafter, client)), drafter


@dataclass(frozen=True)
class CancelledRun:
    result: object  # the PlanResult
    stop_ms: float  # from the cancel to the run's end
    chat_requests: int  # what reached the server


def cancel_mid_call(session, intent, drafter_for: Callable[[LLMClient], object], *,
                    in_flight_s: float = 0.2) -> CancelledRun:
    """Plan ``intent`` with ``drafter_for(client)``; cancel ``in_flight_s`` after the model's
    request reached the server."""
    token, marks = CancelToken(), []
    with ScriptedServer(default=Reply(content="{}", delay_s=5)) as server:
        client = LLMClient(LLMConfig(base_url=server.base_url, model="gpt-4o-mini", timeout_s=30))

        def cancel_when_asked() -> None:
            deadline = time.monotonic() + 60
            while not server.chat_requests() and time.monotonic() < deadline:
                time.sleep(0.005)
            time.sleep(in_flight_s)
            marks.append(time.perf_counter())
            token.cancel()

        canceller = threading.Thread(target=cancel_when_asked)
        canceller.start()
        result = asyncio.run(_plan_and_close(session, intent, drafter_for(client), client, token))
        stopped = time.perf_counter()
        canceller.join()
        requests = len(server.chat_requests())
    return CancelledRun(result, (stopped - marks[0]) * 1000 if marks else float("inf"), requests)
