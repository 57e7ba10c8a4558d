"""The itinerary's side lists in a traveller's words (issue 32 §5): each source line names the place
it is about, an advisory names its place (never an activity id like "d1-activity-user_4235d2b86fc1"),
a decision reads as a sentence (not "selector → CDG/mid"), and where a fact came from is said as a
traveller would ("Tripwright's sample data", not "attractions (fixture)").

Nothing here asks the engine anything: names come from the itinerary's own activities, matched by
the citation's ``ref_id`` (the activity's ``ref``) or, for a ride between two stops, by the claim the
ride's notes repeat.
"""

from __future__ import annotations

import re

from engine.models import Citation, ChoiceKind, Decision, ItineraryV1, Provenance

from . import formatting as fmt

SOURCE_WORDS = {"fixture": "Tripwright's sample data", "computed": "worked out by Tripwright",
                "estimated": "an estimate", "osm": "OpenStreetMap", "real": "live data", "cache": "saved data",
                "user": "your own entry", "omitted": "left out"}
TOOL_WORDS = {"flights": "flight schedules", "lodging": "hotels", "attractions": "sights", "dining": "restaurants",
              "transit": "getting around", "weather": "weather", "road_planner": "the route",
              "routes": "the route guide", "bookings": "your bookings", "notes": "notes", "fx": "exchange rates",
              "openweathermap": "weather", "overpass": "OpenStreetMap", "wikidata": "Wikidata",
              "routing": "road routing", "geocode": "place search"}
_WEATHER = re.compile(r"^(?:Typical weather|Forecast)(?: at .+?)? (\d{4}-\d{2}-\d{2}):")


def activity_names(itinerary: ItineraryV1) -> dict[str, str]:
    """Every activity's id → what the traveller calls it (a ride: "Walk: Louvre → Café Marly")."""
    names = {a.id: a.name for day in itinerary.days for a in day.activities}
    for day in itinerary.days:
        for a in day.activities:
            if a.kind is ChoiceKind.transit and "-transit-" in a.id:
                ends = a.id.split("-transit-", 1)[1].split(">")
                if len(ends) == 2:
                    start, end = (names.get(e, "the hotel" if e == "hotel" else None) for e in ends)
                    if start and end:
                        names[a.id] = f"{a.name.split()[0]}: {start} \u2192 {end}"
    return names


def citation_subjects(itinerary: ItineraryV1) -> list[str | None]:
    """For each citation, the place (or day) its claim is about; None when the claim names it
    already ("Drive from Needles to …") or is about the whole trip."""
    names = activity_names(itinerary)
    by_ref: dict[str, str] = {}
    rides: list[tuple[str, str]] = []  # (notes, name) of each ride, in order
    for day in itinerary.days:
        for a in day.activities:
            if a.kind is ChoiceKind.transit:
                rides.append((a.notes, names[a.id]))
            elif a.ref:
                by_ref.setdefault(a.ref, a.name)
    place = getattr(itinerary.intent, "city", None)
    subjects: list[str | None] = []
    for citation in itinerary.citations:
        subject = _subject(citation, by_ref, rides, place)
        subjects.append(None if subject is None or subject in citation.claim else subject)
    return subjects


def _subject(citation: Citation, by_ref: dict[str, str], rides: list[tuple[str, str]],
             place: str | None) -> str | None:
    weather = _WEATHER.match(citation.claim)
    if weather is not None:
        from datetime import date
        day = fmt.short_day_label(date.fromisoformat(weather.group(1)))
        return f"{place}, {day}" if place else day
    for i, (notes, name) in enumerate(rides):  # a ride's claim is its notes: the first unclaimed ride saying it
        if citation.claim and citation.claim in notes.split("; "):
            del rides[i]
            return name
    ref = citation.provenance.ref_id
    return by_ref.get(ref) if ref else None


def source_words(citation: Citation | Provenance) -> str:
    """Where a claim (or a row) came from, in words: "sights, Tripwright's sample data"."""
    p = citation.provenance if isinstance(citation, Citation) else citation
    tool = TOOL_WORDS.get(p.tool, p.tool.replace("_", " "))
    origin = SOURCE_WORDS.get(p.data_source, p.data_source)
    said = tool if tool == origin else f"{tool}, {origin}"
    return said + (", saved earlier" if p.cache_hit and p.data_source != "cache" else "")


def citation_line(citation: Citation, subject: str | None) -> str:
    """"Musée du Louvre: open 09:00-21:00 on Wednesday 2027-06-16 — sights, Tripwright's sample data"."""
    claim = f"{subject}: {citation.claim}" if subject else citation.claim
    return f"{claim} \u2014 {source_words(citation)}"


def decision_line(decision: Decision) -> str:
    """The decision's reason as a sentence; the engine's node and choice labels stay out of it."""
    text = decision.rationale.strip()
    return text[:1].upper() + text[1:]


def place_of(node_ref: str, names: dict[str, str]) -> str:
    """What a violation is about: "whole trip", a place's name, or a day ("day 3")."""
    if node_ref == "trip":
        return "whole trip"
    if node_ref in names:
        return names[node_ref]
    day = re.match(r"^(?:d|day:)(\d+)(?:-|$)", node_ref)  # "d2-…" (a city day), "day:2" (a road day)
    return f"day {int(day.group(1)) + 1}" if day else node_ref.replace("_", " ")
