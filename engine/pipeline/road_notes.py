"""Destination notes on a road trip (issue 13): each stop and each night is cited like a city
trip's activities — "From your notes: …" / "From Tripwright's notes: …" with ``source="rag"`` —
or gets no line when the notes say nothing about it (``engine.notes.hints``).

Notes are asked of the most specific destination first: the stop's town (the night's town for a
night and for what happens there; the town of a town walk), then the named route ("route66").
The pass runs after the memoised synthesizer, so a note imported since the last plan shows on the
next one; like the city synthesizer it only adds text and citations, never changes the plan.
"""

from __future__ import annotations

from engine.models import Activity, Citation, ItineraryV1, RoadTripIntent
from engine.notes.hints import UNKNOWN_TEXT, NotesLookup
from engine.roadtrip.plan import RoadDay, RoadPlan, RoadStop, Town

PLACEHOLDER = "Information not available."  # the road itinerary's text for a stop without a description


def with_road_notes(itinerary: ItineraryV1, plan: RoadPlan, intent: RoadTripIntent,
                    notes: NotesLookup) -> ItineraryV1:
    if not notes.active:
        return itinerary
    targets = _targets(plan)
    route = [intent.route] if intent.route else []
    citations: list[Citation] = []
    days = []
    for day in itinerary.days:
        acts = []
        for act in day.activities:
            place, towns = targets.get(act.id, (None, []))
            line = _line(notes, place, [*towns, *route], citations) if place else None
            acts.append(act if line is None else _noted(act, line))
        days.append(day.model_copy(update={"activities": acts}))
    return itinerary.model_copy(update={"days": days, "citations": [*itinerary.citations, *citations]})


def _line(notes: NotesLookup, place: str, destinations: list[str], citations: list[Citation]) -> str | None:
    unanswered = False
    for destination in destinations:
        hint = notes.about(destination, place)
        if hint is not None and hint.confident:
            claim, provenance = hint.cited()
            citations.append(Citation(claim=claim, provenance=provenance))
            return claim
        unanswered |= hint is not None
    return UNKNOWN_TEXT if unanswered else None


def _noted(act: Activity, line: str) -> Activity:
    text = line if act.notes in ("", PLACEHOLDER) else f"{act.notes}; {line}"
    return act.model_copy(update={"notes": text})


def _targets(plan: RoadPlan) -> dict[str, tuple[str, list[str]]]:
    """Activity id → (the place asked about, the towns whose notes are asked), with the road
    itinerary's ids. A town is named with its region ("Holbrook, AZ"): a bare name is often
    ambiguous to the gazetteer, and an unknown one simply has no notes."""
    out: dict[str, tuple[str, list[str]]] = {}
    for d in plan.days:
        last = d.index == len(plan.days) - 1
        out[f"d{d.index}-{'arrive' if last else 'overnight'}"] = (d.anchor.name, [d.anchor.label])
        for s in d.stops:
            if s.kind == "break":
                continue  # a rest stop near a mile marker: nothing to ask about
            town = _town_of(s, d)
            if town is not None:
                out[f"d{d.index}-stop-{s.id}"] = (town.name, [town.label])
            else:
                out[f"d{d.index}-stop-{s.id}"] = (s.name, [] if s.en_route else [d.anchor.label])
    return out


def _town_of(stop: RoadStop, day: RoadDay) -> Town | None:
    """The town a town visit is in: the day's night or start (the visit is at its point)."""
    if stop.kind != "town":
        return None
    for place in (day.anchor, day.start):
        if abs(place.lat - stop.lat) < 1e-6 and abs(place.lon - stop.lon) < 1e-6:
            return place
    return None
