"""Where a trip is, for the window's titles, file names and "is this the same trip" — a city, a
road trip's ends, or a multi-city trip's stays in order (issue 33)."""

from __future__ import annotations


def trip_place(intent, sep: str = " \u2192 ") -> str:
    """"Paris", "Los Angeles → Chicago", "Paris → Rome"."""
    if intent.mode == "road_trip":
        return f"{intent.origin}{sep}{intent.terminus}"
    if intent.mode == "multi_city":
        return sep.join(s.city for s in intent.stays)
    return intent.city


def place_key(intent) -> tuple:
    """The same trip's key across its versions: its mode and its ends (a multi-city trip: its cities
    in order; its nights may move)."""
    if intent.mode == "road_trip":
        return intent.mode, intent.origin, intent.terminus
    if intent.mode == "multi_city":
        return (intent.mode, *(s.city for s in intent.stays))
    return intent.mode, intent.city
