"""A busy machine on demand: subprocesses that spin on the CPU while a test runs.

Used by tests whose promise must hold under load (Nominatim's one request a second at the server,
issue 34 §4), so they meet a busy machine every run rather than by luck. Each burner also stops on
its own after ``limit_s`` (a test killed hard leaves no spinning process behind)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager

SPIN = "import time\nend = time.monotonic() + {limit}\nwhile time.monotonic() < end:\n    pass\n"


@contextmanager
def cpu_burners(count: int | None = None, limit_s: float = 120.0) -> Iterator[list[subprocess.Popen]]:
    """``count`` spinning processes (one per core by default), killed and reaped on exit."""
    procs = [subprocess.Popen([sys.executable, "-c", SPIN.format(limit=limit_s)],
                              stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
             for _ in range(count or os.cpu_count() or 2)]
    try:
        yield procs
    finally:
        for proc in procs:
            proc.kill()
        for proc in procs:
            proc.wait()
