"""``tripwright screenshot``: the ``tripwright`` executable renders it itself (app/screenshot.py,
Qt); reaching the engine's CLI with it means the desktop package is missing."""

from __future__ import annotations

import sys


def run_screenshot(args) -> int:
    print("tripwright: screenshot needs the desktop package: run it as 'tripwright screenshot'", file=sys.stderr)
    return 2
