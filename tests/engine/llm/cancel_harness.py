"""Cancel a run while its model call is in flight, as the app does (from another thread), against
a local OpenAI-compatible server that would answer only after 5 s. Shared by the tests of city and
road drafting and by ``bench/llm_bench.py``."""

from __future__ import annotations

import asyncio
import threading
import time
from dataclasses import dataclass
from typing import Callable

from engine.llm.client import LLMClient
from engine.llm.config import LLMConfig
from engine.pipeline.control import CancelToken

from .scripted_server import Reply, ScriptedServer


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

        async def go():
            try:
                return await session.plan(intent, drafter=drafter_for(client), cancel=token)
            finally:
                await client.close()

        canceller = threading.Thread(target=cancel_when_asked)
        canceller.start()
        result = asyncio.run(go())
        stopped = time.perf_counter()
        canceller.join()
        requests = len(server.chat_requests())
    return CancelledRun(result, (stopped - marks[0]) * 1000 if marks else float("inf"), requests)
