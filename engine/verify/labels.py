"""Clock text for violation messages, remembered.

``TimeWindow.label`` formats through strftime (~3 µs a window). Verifying thousands of plans
formats the same few windows (a five-minute grid, the venues' opening hours) over and over, so
each window's text is kept, keyed by its two clock times (hashing a pair of ``time`` values is
far cheaper than hashing the model).
"""

from __future__ import annotations

from datetime import time

from engine.models import TimeWindow

_LIMIT = 4096  # distinct windows remembered before starting over
_labels: dict[tuple[time, time], str] = {}


def window_label(window: TimeWindow) -> str:
    """``window.label()``, e.g. ``09:00-17:30``."""
    key = (window.start, window.end)
    text = _labels.get(key)
    if text is None:
        text = window.label()
        if window.start.tzinfo is None and window.end.tzinfo is None:  # equal naive times read alike
            if len(_labels) >= _LIMIT:
                _labels.clear()
            _labels[key] = text
    return text


def hours_label(windows: list[TimeWindow]) -> str:
    """A venue's opening windows for a day, e.g. ``09:00-12:00, 14:00-18:00``; ``closed`` if none."""
    return ", ".join(map(window_label, windows)) or "closed"
