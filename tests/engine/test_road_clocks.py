"""Road-trip clocks: each event in the zone where it happens, and no two events at once.

Over every named route, both ways, at several lengths: the itinerary's true ``start``/``end`` are
in order with no overlap, each event's zone is the zone of its place, and the iCalendar file read
back with ``icalendar`` holds the same events with 0 overlaps.
"""

from __future__ import annotations

import math
from datetime import UTC, date, timedelta

import icalendar
import pytest

from engine.export.ical_export import itinerary_to_ics
from engine.models import RoadTripIntent
from engine.roadtrip.itinerary import road_itinerary, zone_at
from engine.roadtrip.planner import plan_road_trip
from engine.roadtrip.routes import load_routes

ROUTES = load_routes()
CASES = [(slug, backwards, extra) for slug in sorted(ROUTES) for backwards in (False, True) for extra in (0, 2, 6)]


@pytest.fixture(scope="module")
def gazetteer(tmp_path_factory):
    import os
    from engine.geocode import GazetteerIndex
    home = os.environ.get("TRIPWRIGHT_HOME") or str(tmp_path_factory.mktemp("home"))
    return GazetteerIndex.open(home)


def _itinerary(gazetteer, slug: str, backwards: bool, extra: int):
    route = ROUTES[slug]
    ends = (route.origin, route.terminus)[::-1 if backwards else 1]
    days = min(30, max(1, math.ceil(route.length_miles() * 1.3 / 380)) + 1 + extra)
    intent = RoadTripIntent(origin=ends[0].name, terminus=ends[1].name, days=days, start_date=date(2027, 5, 3),
                            route=route.name, trip_type="round_trip" if route.is_loop else "one_way")
    return road_itinerary(plan_road_trip(intent, gazetteer), intent, [], trace_id="t", run_id="r")


def _overlaps(spans) -> list:
    ordered = sorted(spans, key=lambda s: s[0])
    return [(a, b) for a, b in zip(ordered, ordered[1:]) if b[0] < a[1]]


@pytest.mark.parametrize(("slug", "backwards", "extra"), CASES)
def test_road_events_run_in_order_on_local_clocks(gazetteer, slug, backwards, extra) -> None:
    itin = _itinerary(gazetteer, slug, backwards, extra)
    spans = []
    for day in itin.days:
        acts = day.activities
        starts = [a.start.astimezone(UTC) for a in acts]
        assert all(a.start is not None and a.end is not None for a in acts)
        ordered = sorted(acts, key=lambda a: a.start.astimezone(UTC))
        for a, b in zip(ordered, ordered[1:]):
            assert a.end <= b.start, f"{day.date}: {a.name} ends {a.end} after {b.name} starts {b.start}"
        assert starts[0] == min(starts)  # the day opens with its departure
        for a in acts:
            if a.geo is not None:  # a stop or the night: on the clock of where it is
                assert a.start_tz == a.end_tz == zone_at(a.geo.lat, a.geo.lon)
            assert a.start.utcoffset() == a.start.astimezone(_zone(a.start_tz)).utcoffset()
            if a.start.astimezone(_zone(a.start_tz)).date() == day.date:
                assert a.window.start.strftime("%H:%M") == a.start.astimezone(_zone(a.start_tz)).strftime("%H:%M")
            spans.append((a.start.astimezone(UTC), a.end.astimezone(UTC), a.name))
    assert _overlaps(spans) == []

    calendar = icalendar.Calendar.from_ical(itinerary_to_ics(itin, transfers=True))  # every activity
    events = [(e.decoded("dtstart"), e.decoded("dtend"), str(e["summary"])) for e in calendar.walk("VEVENT")]
    assert len(events) == len(spans)
    short = [a for d in itin.days for a in d.activities
             if a.role == "transfer" and a.end - a.start < timedelta(minutes=30)]
    default = icalendar.Calendar.from_ical(itinerary_to_ics(itin)).walk("VEVENT")  # short transfers left out
    assert len(default) == len(spans) - len(short)
    assert _overlaps([(s.astimezone(UTC), e.astimezone(UTC), n) for s, e, n in events]) == []
    assert sorted((s.astimezone(UTC), e.astimezone(UTC)) for s, e, _ in events) == sorted(s[:2] for s in spans)


def _zone(name: str):
    from zoneinfo import ZoneInfo
    return ZoneInfo(name)


def test_leaving_holbrook_at_0830_is_0830_in_arizona(gazetteer) -> None:
    """The whole day used to run on the zone where it ends (New Mexico), an hour off in Arizona;
    and the Wigwam Motel visit overlapped the night's check-in."""
    intent = RoadTripIntent(origin="Los Angeles", terminus="Chicago", days=7, start_date=date(2027, 5, 3),
                            route="Route 66")
    itin = road_itinerary(plan_road_trip(intent, gazetteer), intent, [], trace_id="t", run_id="r")
    night = next(i for i, d in enumerate(itin.days) if d.anchor and d.anchor.name.startswith("Holbrook"))
    leaving = itin.days[night + 1].activities[0]
    assert leaving.start_tz == "America/Phoenix" and leaving.start.strftime("%H:%M") == "08:30"
    assert leaving.window.start.strftime("%H:%M") == "08:30"
    arrives = leaving.end.astimezone(_zone(leaving.end_tz))
    assert leaving.end_tz == "America/Denver" and arrives.utcoffset() != leaving.start.utcoffset()
    holbrook = itin.days[night].activities
    checkin = next(a for a in holbrook if a.role == "checkin")
    assert all(a.start >= checkin.end for a in holbrook if a.role == "activity" and a.start > checkin.start)
