"""The app's policy for Python's cycle collector: keep full collections off the user's path.

A full (generation 2) collection walks every tracked object the process holds and holds the GIL
while it does. The app holds a lot: the engine's modules and fixtures, the gazetteer's caches,
Qt's wrappers, every version of the open trip. Measured in ``bench/app_bench.py`` (gc callbacks),
one full collection took 65–125 ms, and when the planner thread's allocations triggered it in
the middle of a drag's re-plan, the GUI thread could not run a line of Python for that long (the
"GIL stall" of issue 14). Nothing is garbage there: such a collection found 190 objects.

So: no cycle collection while the app starts (what it loads lives as long as the app), then
``gc.freeze()`` moves everything alive out of the collector's sight once the engine is warm, and
again after each plan is on screen. Later full collections walk only what was made since the
last freeze (a few milliseconds), and they come ten times less often than Python's default
(every 100 collections of the middle generation, not 10): the first plan still loads a lot
lazily, and two full collections during it took 45-65 ms each. Reference counting still frees everything as usual; only
reference cycles that had already survived to the oldest generation when a freeze ran are kept
(a few hundred small objects per plan, measured, against tens of megabytes of live data).

Only the app's own process follows this policy (``gui.run_gui`` turns it on): a window made
by a test or another host leaves that process's collector alone. Qt-free: ``gui.run_gui`` and
the trip controller call it.
"""

from __future__ import annotations

import gc

FULL_COLLECTION_EVERY = 100  # collections of generation 1 (Python's default: 10)
_policy = {"on": False}


def hold_collections() -> None:
    """At the app's start, before the heavy imports: no cycle collection until :func:`settle`,
    and the policy on for this process."""
    _policy["on"] = True
    gc.disable()


def settle() -> None:
    """Move everything the collector tracks into the permanent generation and turn the collector
    back on (nothing when the policy is off). No collection first: after start-up the young
    generations hold the whole start-up heap (nothing was collected), and walking it took
    107 ms on the GUI thread."""
    if not _policy["on"]:
        return
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, FULL_COLLECTION_EVERY)
    gc.enable()

