"""The facts a traveller plans by, read from what the itinerary already says (issue 32 §5): each
visit's opening hours on its day, each day's weather, and which prices and times are estimates.

Nothing here asks the engine anything: the synthesizer writes a venue's hours into its notes
("open 09:00-21:00 on Wednesday 2027-06-16", or "opening hours not published; …") and the day's
weather as a citation ("Typical weather 2027-06-15: 27% chance of rain, 15–23 °C").
"""

from __future__ import annotations

import re
from datetime import date

from engine.models import Activity, ChoiceKind, ItineraryV1
from engine.roadtrip.integrity import TOWN_WALKS

EN_DASH = "\u2013"
EST = "est."
_OPEN = re.compile(r"\bopen ((?:\d{2}:\d{2}-\d{2}:\d{2}(?:, )?)+|closed) on \w+ (\d{4}-\d{2}-\d{2})")
_UNKNOWN = "opening hours not published"
# A road stop's published hours on its day, as engine/roadtrip/stop_hours.py writes them into its notes:
# "Open 07:00–15:00 on Mon 10 May 2027 (published hours)."
_ROAD_OPEN = re.compile(r"\bOpen ((?:\d{2}:\d{2}\u2013\d{2}:\d{2}(?:, )?)+) on \w{3} \d{2} \w{3} \d{4} \(published hours\)")
_WEATHER = re.compile(r"^(Typical weather|Forecast)(?: at .+?)? (\d{4}-\d{2}-\d{2}): (\d+)% chance of rain, "
                      r"(-?\d+)\u2013(-?\d+) \u00b0C")


def is_visit(activity: Activity) -> bool:
    """A sight or a meal: a place with opening hours (not a flight, stay, transfer or gap)."""
    return activity.kind in (ChoiceKind.attraction, ChoiceKind.meal) and activity.role not in ("omitted", "transfer")


def opening_hours(activity: Activity) -> str | None:
    """That day's opening hours as the row shows them ("open 9–21"; a road stop's published hours
    too), "hours unknown" when the place published none, or None when the itinerary does not say
    (e.g. a road trip's sights without published hours)."""
    if not is_visit(activity):
        return None
    if _UNKNOWN in activity.notes:
        return "hours unknown"
    road = _ROAD_OPEN.search(activity.notes)
    if road is not None:
        return _open([w.replace(EN_DASH, "-") for w in road.group(1).split(", ")])
    found = _OPEN.search(activity.notes)
    if found is None:
        return None
    hours = found.group(1)
    return "closed that day" if hours == "closed" else _open(hours.split(", "))


def _open(windows: list[str]) -> str:
    """"open 9–21"; "open all day" for a place open round the clock (a crossing, a 24-hour ramen
    shop: "open 0–23:59" read as a misprint)."""
    if windows in (["00:00-23:59"], ["00:00-24:00"]):
        return "open all day"
    return "open " + ", ".join(_short(w) for w in windows)


def road_stop_hours(activity: Activity) -> str | None:
    """A road trip's stop as its row shows its hours: the published ones ("open 7–15"), "hours
    unknown" when nobody published them, None for a walk in a town (a town keeps no hours)."""
    if not is_visit(activity) or activity.ref.startswith(TOWN_WALKS):
        return None
    return opening_hours(activity) or "hours unknown"


def _short(window: str) -> str:
    """"09:00-21:00" → "9–21"; "10:00-18:30" → "10–18:30": the row's What column is narrow."""
    def clock(hhmm: str) -> str:
        hour, minute = hhmm.split(":")
        return str(int(hour)) if minute == "00" else f"{int(hour)}:{minute}"
    start, end = window.split("-")
    return f"{clock(start)}{EN_DASH}{clock(end)}"


def day_weather(itinerary: ItineraryV1) -> dict[date, str]:
    """Each day's weather in a few words ("15–23 °C, 27% rain"; "typical" when it is the season's
    usual, not a forecast), from the itinerary's weather citations."""
    found: dict[date, str] = {}
    for citation in itinerary.citations:
        match = _WEATHER.match(citation.claim)
        if match is None:
            continue
        label, on, rain, low, high = match.groups()
        typical = " (typical)" if label.startswith("Typical") else ""
        found.setdefault(date.fromisoformat(on), f"{low}{EN_DASH}{high} \u00b0C, {rain}% rain{typical}")
    return found


def estimated_time(activity: Activity, booked: bool) -> bool:
    """Whether the row's times are an estimate: a ride, walk or drive between stops, or a flight
    the traveller has not booked (a fixture's schedule)."""
    return activity.kind is ChoiceKind.transit or (activity.kind is ChoiceKind.flight and not booked)
