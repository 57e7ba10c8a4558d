"""Ask the map page what it shows (``window.tripwright.state()``) from a coroutine on the GUI loop,
or wait until it has painted its newest document.

Used by ``tripwright screenshot`` and the bench to wait until the map has really painted, and by
the trip controller to update the itinerary panel only after the map has painted a new plan."""

from __future__ import annotations

import asyncio
import json
import time


async def page_state(view, script: str = "window.tripwright.state()", timeout: float = 5.0) -> dict | None:
    """The page's JSON answer to ``script``, decoded (None if the page has not answered)."""
    loop = asyncio.get_running_loop()
    answer: asyncio.Future = loop.create_future()

    def settle(value) -> None:
        if not answer.done():
            answer.set_result(value)

    view.page().runJavaScript(script, 0, settle)
    try:
        text = await asyncio.wait_for(answer, timeout)
    except asyncio.TimeoutError:
        return None
    try:
        return json.loads(text) if isinstance(text, str) and text else None
    except ValueError:
        return None


async def wait_for_markers(view, *, at_least: int = 1, timeout: float = 20.0, poll: float = 0.05) -> dict:
    """Poll until the page shows ``at_least`` markers; returns the last state."""
    deadline = time.monotonic() + timeout
    state: dict | None = None
    while time.monotonic() < deadline:
        if view.is_ready:
            state = await page_state(view)
            if state and state.get("markers", 0) >= at_least:
                return state
        await asyncio.sleep(poll)
    raise TimeoutError(f"the map showed no markers within {timeout:.0f} s (last state {state})")


async def painted(view, timeout: float) -> bool:
    """Until the page reports (``MapView.drawn``) that it has painted the newest document sent to
    it; False after ``timeout`` seconds, or at once when it cannot report: a page not loaded yet,
    or a view that is not visible (Chromium runs no animation frames for a hidden page)."""
    if not view.is_ready or not view.isVisible():
        return False
    revision = view.revision
    done: asyncio.Future = asyncio.get_running_loop().create_future()

    def on_drawn(reported: int) -> None:
        if reported >= revision and not done.done():
            done.set_result(True)

    view.drawn.connect(on_drawn)
    try:
        return await asyncio.wait_for(done, timeout)
    except asyncio.TimeoutError:
        return False
    finally:
        view.drawn.disconnect(on_drawn)


TILE_FADE_S = 0.35  # Leaflet fades a loaded tile in over 0.2 s


async def street_tiles_settled(view, timeout: float) -> None:
    """Until the street tiles of the page's view have loaded (and faded in), at most ``timeout``
    seconds; at once when the street map is not shown (a snapshot waits for it: the PDF's map,
    ``tripwright screenshot``)."""
    deadline, waited = time.monotonic() + timeout, False
    while await page_state(view, "window.tripwright.tilesLoading()") and time.monotonic() < deadline:
        waited = True
        await asyncio.sleep(0.05)
    if waited:
        await asyncio.sleep(TILE_FADE_S)
