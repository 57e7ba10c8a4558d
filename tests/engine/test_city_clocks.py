"""City trips across midnight: flights keep their true departure and arrival, each in its own zone.

The itinerary's ``window`` stays HH:MM local within the day (SPEC_DECISIONS §3); ``start``/``end``
carry the truth, and the iCalendar file (read back with ``icalendar``) uses it.
"""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import icalendar
import pytest

from engine.export.ical_export import itinerary_to_ics
from engine.models import ChoiceKind, ItineraryV1
from engine.pipeline import PlanningSession

from .conftest import TODAY, paris_demo
from .test_cli import TODAY as CLI_TODAY, intent_file, tw  # noqa: F401  (intent_file is a fixture)


@pytest.fixture(scope="module")
def paris():
    result = asyncio.run(PlanningSession(today=TODAY).plan(paris_demo()))
    return result.itinerary, result.inputs.facts


def _flight(itin: ItineraryV1, role: str):
    return next(a for d in itin.days for a in d.activities if a.kind is ChoiceKind.flight and a.role == role)


def test_flights_keep_their_true_times_in_their_airports_zones(paris) -> None:
    itin, facts = paris
    for role in ("arrival", "departure"):
        act = _flight(itin, role)
        flight = facts.flights[act.ref]
        assert act.start == flight.departure and act.end == flight.arrival  # the same instants
        assert act.start_tz == facts.airport_zones[flight.origin] and act.end_tz == facts.airport_zones[flight.dest]
        assert act.start.utcoffset() == flight.departure.astimezone(ZoneInfo(act.start_tz)).utcoffset()
        assert act.end.utcoffset() == flight.arrival.astimezone(ZoneInfo(act.end_tz)).utcoffset()
    back = _flight(itin, "departure")
    assert (back.start_tz, back.end_tz) == ("Europe/Paris", "America/New_York")
    assert back.window.end.strftime("%H:%M") == "23:59"  # the day's window is clipped, the truth is not
    assert back.end - back.start == timedelta(seconds=facts.flights[back.ref].duration_seconds)
    out = _flight(itin, "arrival")
    assert out.start.date() < itin.days[0].date  # left New York the evening before
    in_paris = out.start.astimezone(ZoneInfo("Europe/Paris"))
    shown = in_paris.strftime("%H:%M") if in_paris.date() == itin.days[0].date else "00:00"
    assert out.window.start.strftime("%H:%M") == shown


def test_every_city_activity_has_its_true_span_on_the_city_clock(paris) -> None:
    itin, _ = paris
    for day in itin.days:
        for act in day.activities:
            assert act.start is not None and act.end is not None and act.start <= act.end
            if act.kind is not ChoiceKind.flight:
                assert act.start_tz == act.end_tz == "Europe/Paris"
                assert act.start.strftime("%H:%M") == act.window.start.strftime("%H:%M")
                assert act.start.date() == day.date


def test_ics_events_use_the_true_start_and_end_each_in_its_own_zone(paris) -> None:
    itin, facts = paris
    calendar = icalendar.Calendar.from_ical(itinerary_to_ics(itin))
    events = {str(e["uid"]): e for e in calendar.walk("VEVENT")}
    back = _flight(itin, "departure")
    event = events[f"{itin.itinerary_id}-{back.id}@tripwright"]
    start, end = event.decoded("dtstart"), event.decoded("dtend")
    assert (str(start.tzinfo), str(end.tzinfo)) == ("Europe/Paris", "America/New_York")
    assert start == facts.flights[back.ref].departure and end == facts.flights[back.ref].arrival
    assert end.astimezone(ZoneInfo("Europe/Paris")).date() > back.start.date()  # lands after Paris midnight
    zones = {str(c["tzid"]) for c in calendar.walk("VTIMEZONE")}
    assert {"Europe/Paris", "America/New_York"} <= zones
    spans = sorted((e.decoded("dtstart").astimezone(UTC), e.decoded("dtend").astimezone(UTC)) for e in events.values())
    assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:]))  # no two events at once


def test_an_older_itinerary_without_true_times_still_exports(paris) -> None:
    itin, _ = paris
    data = json.loads(itin.model_dump_json())
    for day in data["days"]:
        for act in day["activities"]:
            for key in ("start", "end", "start_tz", "end_tz"):
                act.pop(key)
    old = ItineraryV1.model_validate(data)
    calendar = icalendar.Calendar.from_ical(itinerary_to_ics(old))
    starts = [e.decoded("dtstart") for e in calendar.walk("VEVENT")]
    assert starts and all(str(s.tzinfo) == "Europe/Paris" for s in starts)


def test_cli_ics_reads_back_with_the_return_flight_landing_in_new_york(tmp_path, intent_file) -> None:  # noqa: F811
    out, ics = tmp_path / "it.json", tmp_path / "it.ics"
    done = tw("plan", "--intent", str(intent_file()), "--out", str(out), "--ics", str(ics), "--today", CLI_TODAY)
    assert done.returncode == 0, done.stderr
    calendar = icalendar.Calendar.from_ical(ics.read_bytes())
    flights = [e for e in calendar.walk("VEVENT") if "flight" in e["categories"].to_ical().decode()]
    back = max(flights, key=lambda e: e.decoded("dtstart"))
    assert str(back.decoded("dtend").tzinfo) == "America/New_York"
    assert back.decoded("dtend").astimezone(UTC) > back.decoded("dtstart").astimezone(UTC)
    assert datetime.fromisoformat(json.loads(out.read_text())["days"][-1]["activities"][-1]["end"]).utcoffset() \
        == back.decoded("dtend").utcoffset()
