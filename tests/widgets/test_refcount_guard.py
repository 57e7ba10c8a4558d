"""docs/PLATFORM_NOTES.md guard: PySide6 6.12.0 on CPython 3.11 loses a reference to True on every
Python-side Signal.emit(), and qasync emits on every thread hand-off, so the app dies with
"Fatal Python error: bool_dealloc". This fails loudly if such a build is installed."""

import gc
import sys

from PySide6.QtCore import QObject, Signal


class _Signaller(QObject):
    # The same signature qasync uses for call_soon_threadsafe.
    fired = Signal(object, tuple)


def test_signal_emit_keeps_the_refcount_of_true(qapp):
    signaller = _Signaller()
    calls = []
    signaller.fired.connect(lambda callback, args: calls.append(1))
    gc.collect()
    before = sys.getrefcount(True)

    for _ in range(1000):
        signaller.fired.emit(None, ())

    gc.collect()
    after = sys.getrefcount(True)
    assert len(calls) == 1000
    assert after >= before - 5, f"refcount(True) dropped {before - after} over 1000 emits"
