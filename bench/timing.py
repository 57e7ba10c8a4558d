"""The one timing rule the bench scripts share: the median (p50) of a call's wall time, in ms,
after one warm-up call (statement caches, pydantic validators, imports)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def p50_ms(fn: Callable[[], object], reps: int) -> float:
    fn()
    samples = []
    for _ in range(reps):
        started = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - started) * 1000)
    return round(statistics.median(samples), 2)
