"""Messages in the traveller's words (issue 22 §2.8): the engine's errors name fields and settings
the way the code does ("origin_airport: …", "stops[0]: …", "day_index: …", "TRIPWRIGHT_OFFLINE=1");
the window shows them as a traveller would say them. The technical wording stays in Diagnostics,
the logs and the CLI."""

from __future__ import annotations

import re

from widgets.intent_fields import LABELS

# Engine and form field names → the label the traveller sees (None: the message says enough).
FIELD_WORDS: dict[str, str | None] = {
    **LABELS, "date_window": "Dates", "start_date": "Start", "budget_usd_cents": "Budget", "airport": "Home airport",
    "corridor_max_deviation_miles": "Corridor width", "travellers": "Travellers", "rooms": "Rooms",
    "prefs": "Preferences", "intent": None, "day_index": None, "choice_id": None, "activity_id": None,
    "venue_id": None, "places": "Places", "bookings": "Bookings", "llm_endpoint": "Model endpoint",
    "llm_model": "Model", "api_key": "API key", "home_airport": "Home airport",
}
# Whole phrases the code uses for settings and switches.
PHRASES = (
    ("TRIPWRIGHT_OFFLINE=1: only a model on this machine (localhost) is asked",
     "Offline mode is on: only a model running on this computer can be used"),
    (" (TRIPWRIGHT_MAX_VERSIONS)", ""),
    ("TRIPWRIGHT_OFFLINE=1", "offline mode"),
    ("TRIPWRIGHT_OFFLINE", "offline mode"),
)
# A service the engine could not reach ("overpass: cannot reach overpass-api.de: [Errno -2] Name or
# service not known") → the service by the name a traveller knows.
SERVICES = {"overpass": "OpenStreetMap", "geocode": "OpenStreetMap's place search", "wikidata": "Wikidata",
            "routing": "the road-routing service", "openweathermap": "the weather service",
            "offline map": "the offline-map server", "llm": "the model"}
_UNREACHABLE = re.compile(r"\b(" + "|".join(re.escape(t) for t in SERVICES) +
                          r"): cannot reach [^\s:;]+(?: \([A-Za-z]+\))?:[^\n]*")
# The engine's last progress note names its run by id ("run 915f0b81-87af-…"): the window has no use for it.
_RUN_ID = re.compile(r"^run [0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}$")
_NAMED = re.compile(r"(^|: |; |\. )([a-z][a-z0-9_]*)((?:\[\d+\])*)((?:\.[a-z0-9_\[\]]+)*): ")
_FILE_SUFFIX = re.compile(r"\.(gpx|kml|kmz|ics|json|pdf|csv|html?|txt|md|pmtiles|mbtiles|eml|zip|geojson|xml)\b",
                          re.IGNORECASE)


def _ordinal(index: str) -> str:
    number = int(index.strip("[]").split("][")[0]) + 1
    return f" {number}"


def in_plain_words(text: str) -> str:
    """``text`` with its code field names as labels ("stops[0]: …" → "Stops 1: …") and switches
    in words; file names ("stops.gpx: …") and ordinary words stay as they are."""
    if _RUN_ID.match(text):
        return ""
    for code, words in PHRASES:
        text = text.replace(code, words)
    text = _UNREACHABLE.sub(lambda m: f"Can't reach {SERVICES[m.group(1)]} \u2014 you're offline", text)

    def label(match: re.Match) -> str:
        before, field, index, rest = match.group(1), match.group(2), match.group(3), match.group(4)
        if field not in FIELD_WORDS or _FILE_SUFFIX.match(rest or ""):
            return match.group(0)  # an ordinary word ("Attempt 1: …") or a file's name ("stops.gpx: …")
        words = FIELD_WORDS[field]
        if words is None:
            return before
        return f"{before}{words}{_ordinal(index) if index else ''}: "

    changed = _NAMED.sub(label, text)
    if changed != text and changed[:1].islower():  # a dropped field name left a lower-case start
        changed = changed[:1].upper() + changed[1:]
    return changed


def unreachable_city_text(text: str, city: str) -> str | None:
    """A city's places could not be fetched because OpenStreetMap is out of reach: the one line
    that says so and what it takes ("…; Porto needs one online fetch"), or None for another
    problem."""
    match = _UNREACHABLE.search(text)
    if match is None or match.group(1) != "overpass":
        return None
    return (f"Can't reach OpenStreetMap \u2014 you're offline; {city} needs one online fetch "
            "(its places are then kept for offline use).")


def advisories(count: int) -> str:
    """"no advisories" / "1 advisory" / "3 advisories" (not "0 advisory violation(s)")."""
    return "no advisories" if count == 0 else f"{count} advisor{'y' if count == 1 else 'ies'}"
