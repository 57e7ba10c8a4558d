"""The tool executor an eval run shares across its scenarios, as a user's runs share the app's:
the in-memory L1 and, when the data dir's store opens without a prompt, the durable ``tool_cache``
L2 — so real answers fetched by one ``tripwright eval`` are still there for the next. A store that
cannot be used leaves the suite on the L1 alone (one note on stderr), never a failed suite."""

from __future__ import annotations

import sys
from contextlib import ExitStack, contextmanager
from typing import Iterator

import structlog

from engine.errors import TripwrightError
from engine.tools.executor import ToolExecutor

log = structlog.get_logger("tripwright.eval")


@contextmanager
def suite_executor() -> Iterator[ToolExecutor]:
    from engine.frontend import signed_in  # the same sign-in as ``plan --save``
    from engine.tools.durable_cache import StoreToolCache
    executor = ToolExecutor()
    with ExitStack() as stack:
        try:
            store, ctx = stack.enter_context(signed_in())
        except (TripwrightError, OSError) as exc:
            print(f"tripwright eval: note: tool cache in memory only ({exc})", file=sys.stderr)
        else:
            executor.durable = StoreToolCache(store, ctx)
        yield executor
        executor.durable = None


def save_diagnostics(executor: ToolExecutor) -> None:
    """``tripwright diagnostics`` then shows the suite's tool figures (as after a plan)."""
    from engine import diagnostics
    try:
        diagnostics.save(diagnostics.collect(executor))
    except OSError as exc:
        log.debug("diagnostics_not_saved", error=str(exc))
