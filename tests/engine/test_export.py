"""Exports of an ItineraryV1: GPX (checked against the official XSD), iCalendar, JSON, atomic writes."""

from __future__ import annotations

import json
import os
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import gpxpy
import icalendar
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from engine.errors import InputError
from engine.atomic import write_all, write_atomic
from engine.export import export_files, itinerary_to_gpx, itinerary_to_ics, itinerary_to_json, load_itinerary
from engine.export._trip import plain_text
from engine.export._vtimezone import build_vtimezone
from engine.models import (Activity, ChoiceKind, Citation, CostBreakdown, DateWindow, DayItinerary,
                           Decision, Geo, IntentV1, ItineraryV1, Provenance, TimeWindow)

XSD = Path(__file__).resolve().parents[1] / "data" / "reference" / "gpx-1.1.xsd"
PARIS = ZoneInfo("Europe/Paris")
CREATED = datetime(2027, 2, 1, 9, 30, tzinfo=UTC)
XSS = "<img src=x onerror=alert(1)> Fish & Chips && co"

# (start, end, kind, name, (lat, lon) or None, notes) for each day of a 5-day Paris trip.
PARIS_DAYS = [
    [("10:00", "12:00", "flight", "Arrive at CDG", (49.009691, 2.547925), "AF 023 from JFK"),
     ("14:00", "16:30", "attraction", "Musée du Louvre", (48.860611, 2.337644), "Pre-booked 14:00 slot"),
     ("17:00", "18:00", "transit", "Navigo weekly pass", None, "Buy at any metro ticket office"),
     ("19:30", "21:00", "meal", "Le Procope", (48.853151, 2.338850), "")],
    [("09:30", "11:30", "attraction", "Tour Eiffel", (48.858370, 2.294481), "Summit tickets"),
     ("12:00", "13:00", "meal", "Café de l'Homme", (48.862090, 2.288830), "Terrace, ask for a view"),
     ("14:00", "16:00", "attraction", "Musée d'Orsay", (48.859961, 2.326561), ""),
     ("17:00", "18:30", "attraction", "Jardin du Luxembourg", (48.846222, 2.337160), "Medici fountain")],
    [("09:00", "10:30", "attraction", "Sainte-Chapelle", (48.855392, 2.345080), "Morning light"),
     ("11:00", "12:30", "attraction", "Notre-Dame de Paris", (48.852968, 2.349902), ""),
     ("13:00", "14:00", "meal", "Marché des Enfants Rouges", (48.862806, 2.361753), "Cash only stalls"),
     ("15:00", "17:00", "attraction", "Centre Pompidou", (48.860642, 2.352245), "")],
    [("08:30", "13:30", "attraction", "Château de Versailles", (48.804865, 2.120355), "RER C"),
     ("14:00", "15:00", "meal", "Angelina Versailles", (48.805100, 2.118900), ""),
     ("17:00", "18:30", "attraction", "Palais Garnier", (48.871970, 2.331601), ""),
     ("20:00", "22:00", "meal", "Bouillon Chartier", (48.871910, 2.344900), "Queue early")],
    [("09:00", "11:00", "attraction", "Sacré-Cœur", (48.886705, 2.343104), "Stairs from Anvers"),
     ("11:30", "12:30", "attraction", "Place du Tertre", (48.886500, 2.340800), ""),
     ("13:00", "14:00", "meal", "Le Consulat", (48.886900, 2.340300), ""),
     ("16:00", "18:00", "flight", "Depart from CDG", (49.009691, 2.547925), "AF 022 to JFK")],
]


def _hhmm(text: str) -> time:
    return time.fromisoformat(text)


def _activity(day_no: int, index: int, spec: tuple) -> Activity:
    start, end, kind, name, where, notes = spec
    provenance = Provenance(tool="attractions", call_ts=CREATED, response_digest="sha256:ab12")
    return Activity(
        id=f"d{day_no}_a{index}", window=TimeWindow(start=_hhmm(start), end=_hhmm(end)),
        kind=ChoiceKind(kind), name=name, geo=Geo(lat=where[0], lon=where[1]) if where else None,
        notes=notes, cost_usd_cents=1500 * index,
        provenance=provenance if kind == "attraction" else None)


def make_itinerary(start: date, days: list[list[tuple]], city: str = "Paris",
                   tz: str = "Europe/Paris") -> ItineraryV1:
    intent = IntentV1(
        city=city, date_window=DateWindow(start=start, end=start + timedelta(days=len(days) - 1), tz=tz),
        budget_usd_cents=450_000, airports=["CDG", "ORY"], origin_airport="JFK")
    return ItineraryV1(
        itinerary_id="itn_paris_2027", intent=intent,
        days=[DayItinerary(date=start + timedelta(days=n),
                           activities=[_activity(n + 1, i, spec) for i, spec in enumerate(specs)])
              for n, specs in enumerate(days)],
        cost_breakdown=CostBreakdown(
            flights_usd_cents=120_000, lodging_usd_cents=150_000, attractions_usd_cents=18_000,
            transit_usd_cents=3_000, daily_spend_usd_cents=40_000, total_usd_cents=331_000,
            currency_disclaimer="Converted at fixture FX rates."),
        decisions=[Decision(node="lodging", rationale="Central and under budget",
                            alternatives_considered=4, selected="hotel_marais")],
        citations=[Citation(claim="Louvre open 09:00-18:00", provenance=Provenance(
            tool="attractions", call_ts=CREATED, response_digest="sha256:cd34"))],
        created_at=CREATED, trace_id="trace-1234")


def _dst_days() -> list[list[tuple]]:
    """2027-03-26..30 around the 2027-03-28 change to summer time (CET +01 -> CEST +02)."""
    morning = ("10:00", "11:30", "attraction", "Musée du Louvre", (48.860611, 2.337644), "")
    days = [[morning, ("13:00", "14:00", "meal", "Le Procope", (48.853151, 2.338850), "")]
            for _ in range(5)]
    # 02:30-03:00 does not exist on 2027-03-28: clocks jump from 02:00 to 03:00.
    days[2].insert(0, ("02:30", "03:00", "transit", "Night bus N01", (48.844000, 2.374000), ""))
    return days


@pytest.fixture
def itinerary() -> ItineraryV1:
    return make_itinerary(date(2027, 6, 15), PARIS_DAYS)


@pytest.fixture
def dst_itinerary() -> ItineraryV1:
    return make_itinerary(date(2027, 3, 26), _dst_days())


def _events(ics: bytes) -> list[icalendar.Event]:
    return icalendar.Calendar.from_ical(ics).walk("VEVENT")


def _located(itin: ItineraryV1) -> list[Activity]:
    return [a for day in itin.days for a in day.activities if a.geo is not None]


# --- GPX -----------------------------------------------------------------------------------------

def test_gpx_has_a_waypoint_per_located_activity_and_a_route_and_track_per_day(itinerary):
    parsed = gpxpy.parse(itinerary_to_gpx(itinerary))

    assert len(parsed.waypoints) == len(_located(itinerary)) == 19  # the Navigo pass has no geo
    assert [w.name for w in parsed.waypoints] == [a.name for a in _located(itinerary)]
    assert len(parsed.routes) == len(parsed.tracks) == 5
    assert parsed.name == "Paris, 2027-06-15 – 2027-06-19"
    assert parsed.time == CREATED
    assert parsed.routes[0].name == "Day 1 – 2027-06-15"
    assert [p.name for p in parsed.routes[0].points] == ["Arrive at CDG", "Musée du Louvre", "Le Procope"]
    assert len(parsed.tracks[0].segments) == 1
    assert [(p.latitude, p.longitude) for p in parsed.tracks[0].segments[0].points] == [
        (49.009691, 2.547925), (48.860611, 2.337644), (48.853151, 2.338850)]


def test_gpx_waypoint_fields(itinerary):
    louvre = gpxpy.parse(itinerary_to_gpx(itinerary)).waypoints[1]

    assert louvre.description == "Pre-booked 14:00 slot"
    assert louvre.type == "attraction"
    assert louvre.time == datetime(2027, 6, 15, 12, 0, tzinfo=UTC)  # 14:00 CEST


def test_gpx_times_are_utc_across_the_dst_change(dst_itinerary):
    parsed = gpxpy.parse(itinerary_to_gpx(dst_itinerary))
    louvre = {w.time.date(): w.time for w in parsed.waypoints if w.name == "Musée du Louvre"}

    assert all(w.time.utcoffset() == timedelta(0) for w in parsed.waypoints)
    assert louvre[date(2027, 3, 27)] == datetime(2027, 3, 27, 9, 0, tzinfo=UTC)
    assert louvre[date(2027, 3, 29)] == datetime(2027, 3, 29, 8, 0, tzinfo=UTC)
    bus = next(w for w in parsed.waypoints if w.name == "Night bus N01")
    assert bus.time == datetime(2027, 3, 28, 1, 30, tzinfo=UTC)  # the gap's 02:30 is 03:30 CEST
    track_times = [p.time for p in parsed.tracks[2].segments[0].points]
    assert track_times == sorted(track_times)


def test_gpx_skips_days_without_located_activities():
    days = [list(d) for d in PARIS_DAYS]
    days[1] = [("10:00", "11:00", "transit", "Rest day", None, "")]
    parsed = gpxpy.parse(itinerary_to_gpx(make_itinerary(date(2027, 6, 15), days)))

    assert [r.name for r in parsed.routes] == [
        "Day 1 – 2027-06-15", "Day 3 – 2027-06-17", "Day 4 – 2027-06-18", "Day 5 – 2027-06-19"]
    assert len(parsed.tracks) == 4


@pytest.fixture(scope="module")
def gpx_schema() -> etree.XMLSchema:
    return etree.XMLSchema(etree.parse(str(XSD)))


@pytest.mark.parametrize("which", ["paris", "dst", "markup"])
def test_gpx_validates_against_the_official_xsd(gpx_schema, which):
    days = {"paris": PARIS_DAYS, "dst": _dst_days(), "markup": _markup_days()}[which]
    start = date(2027, 3, 26) if which == "dst" else date(2027, 6, 15)
    doc = etree.fromstring(itinerary_to_gpx(make_itinerary(start, days)).encode("utf-8"))

    assert gpx_schema.validate(doc), gpx_schema.error_log.last_error


def _markup_days() -> list[list[tuple]]:
    days = [list(d) for d in PARIS_DAYS]
    days[0][1] = ("14:00", "16:30", "attraction", XSS, (48.860611, 2.337644), "A & B <b>bold</b>")
    return days


def test_gpx_labels_round_trip_as_plain_text():
    xml = itinerary_to_gpx(make_itinerary(date(2027, 6, 15), _markup_days()))
    parsed = gpxpy.parse(xml)

    assert "<img" not in xml and "<b>" not in xml
    assert parsed.waypoints[1].name == XSS
    assert parsed.waypoints[1].description == "A & B <b>bold</b>"
    assert parsed.routes[0].points[1].name == XSS
    doc = etree.fromstring(xml.encode("utf-8"))
    assert not doc.xpath("//*[local-name()='img' or local-name()='b']")


def test_labels_drop_characters_xml_cannot_carry():
    days = [list(d) for d in PARIS_DAYS]
    days[0][0] = ("10:00", "12:00", "attraction", "Caf\x00é\ufffe\ud800 Flore", (48.85, 2.33), "a\r\nb")
    itin = make_itinerary(date(2027, 6, 15), days)

    waypoint = gpxpy.parse(itinerary_to_gpx(itin)).waypoints[0]
    event = _events(itinerary_to_ics(itin))[0]

    assert waypoint.name == str(event["SUMMARY"]) == "Café Flore"
    assert waypoint.description == str(event["DESCRIPTION"]) == "a\nb"


def test_a_label_with_a_backslash_n_stays_two_characters_in_the_calendar():
    """RFC 5545 §3.3.11: a backslash is written as two; icalendar's writer would first have read a
    literal backslash-N as a line break (hypothesis found it)."""
    days = [list(d) for d in PARIS_DAYS]
    days[0][0] = ("10:00", "12:00", "attraction", "Bar \\N; Café, Flore", (48.86, 2.34), "")
    text = itinerary_to_ics(make_itinerary(date(2027, 6, 15), days)).decode()
    assert "SUMMARY:Bar \\\\N\\; Café\\, Flore" in text.splitlines()


# icalendar's reader (used below to read the calendar back) also takes an escaped backslash followed
# by N for a line break: names with a backslash before an N are checked on the written text above.
@settings(max_examples=60, deadline=None)
@given(st.text(max_size=40).filter(lambda s: plain_text(s).strip() and "\\N" not in s and "\\n" not in s))
def test_labels_round_trip_through_gpx_and_ics(name):
    days = [list(d) for d in PARIS_DAYS]
    days[0][0] = ("10:00", "12:00", "attraction", name, (48.86, 2.34), name)
    itin = make_itinerary(date(2027, 6, 15), days)
    expected = plain_text(name)

    waypoint = gpxpy.parse(itinerary_to_gpx(itin)).waypoints[0]
    event = _events(itinerary_to_ics(itin))[0]

    assert waypoint.name == str(event["SUMMARY"]) == expected
    assert waypoint.description == str(event["DESCRIPTION"]) == expected


# --- iCalendar -----------------------------------------------------------------------------------

def test_ics_has_one_event_per_activity_with_unique_uids(itinerary):
    cal = icalendar.Calendar.from_ical(itinerary_to_ics(itinerary))
    events = cal.walk("VEVENT")
    uids = [str(e["UID"]) for e in events]

    assert len(events) == sum(len(d.activities) for d in itinerary.days) == 20
    assert len(set(uids)) == len(uids)
    assert uids[0] == "itn_paris_2027-d1_a0@tripwright"
    assert str(cal["PRODID"]) == "-//Tripwright//EN"
    assert str(cal["VERSION"]) == "2.0"
    assert str(cal["X-WR-CALNAME"]) == "Paris, 2027-06-15 – 2027-06-19"
    assert [str(tz["TZID"]) for tz in cal.walk("VTIMEZONE")] == ["Europe/Paris"]


def test_ics_event_fields(itinerary):
    events = _events(itinerary_to_ics(itinerary))
    louvre, navigo = events[1], events[2]

    start = louvre.decoded("DTSTART")
    assert start == datetime(2027, 6, 15, 14, 0, tzinfo=PARIS)
    assert getattr(start.tzinfo, "key", None) == "Europe/Paris"
    assert louvre.decoded("DTEND") == datetime(2027, 6, 15, 16, 30, tzinfo=PARIS)
    assert louvre.decoded("DTSTAMP") == CREATED
    assert louvre.decoded("DTSTAMP").utcoffset() == timedelta(0)
    assert str(louvre["SUMMARY"]) == "Musée du Louvre"
    assert str(louvre["DESCRIPTION"]) == "Pre-booked 14:00 slot"
    assert (louvre["GEO"].latitude, louvre["GEO"].longitude) == (48.860611, 2.337644)
    assert str(louvre["LOCATION"]) == "Musée du Louvre, Paris"  # name and city (no street address known)
    assert [str(c) for c in louvre["CATEGORIES"].cats] == ["attraction"]
    assert "GEO" not in navigo and "LOCATION" not in navigo
    assert [str(c) for c in navigo["CATEGORIES"].cats] == ["transit"]


def test_ics_times_across_the_dst_change(dst_itinerary):
    events = _events(itinerary_to_ics(dst_itinerary))
    louvre = {e.decoded("DTSTART").date(): e.decoded("DTSTART") for e in events
              if str(e["SUMMARY"]) == "Musée du Louvre"}
    bus = next(e for e in events if str(e["SUMMARY"]) == "Night bus N01")

    assert louvre[date(2027, 3, 27)].astimezone(UTC) == datetime(2027, 3, 27, 9, 0, tzinfo=UTC)
    assert louvre[date(2027, 3, 29)].astimezone(UTC) == datetime(2027, 3, 29, 8, 0, tzinfo=UTC)
    # 02:30-03:00 falls in the gap: it becomes 03:30 CEST and keeps its 30 minutes.
    assert bus.decoded("DTSTART").astimezone(UTC) == datetime(2027, 3, 28, 1, 30, tzinfo=UTC)
    assert bus.decoded("DTEND") - bus.decoded("DTSTART") == timedelta(minutes=30)


def test_ics_escapes_markup_and_separators():
    events = _events(itinerary_to_ics(make_itinerary(date(2027, 6, 15), _markup_days())))

    assert str(events[1]["SUMMARY"]) == XSS
    assert str(events[1]["DESCRIPTION"]) == "A & B <b>bold</b>"


# Names that try to leave their field: script and markup, XML's CDATA end and entities, and
# iCalendar's line, property and parameter separators.
HOSTILE_NAMES = ("Bar `${alert(1)}`", "</script><script>alert(1)</script>", "<img src=x onerror=alert(1)>",
                 "]]><evil/><![CDATA[", "&lt;b&gt; &amp; &#x3C;", 'Joe\'s "Diner"; a,b\\c:d',
                 "One\nEND:VEVENT\nBEGIN:VEVENT\nSUMMARY:injected", "Two\r\nDTSTART:19700101T000000Z")


def _hostile_itinerary() -> ItineraryV1:
    days = [list(d) for d in PARIS_DAYS]
    slots = [(d, i) for d, day in enumerate(days) for i in range(len(day))]
    for n, (d, i) in enumerate(slots):
        name = HOSTILE_NAMES[n % len(HOSTILE_NAMES)]
        days[d][i] = days[d][i][:3] + (name,) + days[d][i][4:5] + (name,)
    return make_itinerary(date(2027, 6, 15), days)


def test_gpx_keeps_hostile_names_as_text(gpx_schema):
    itin = _hostile_itinerary()
    xml = itinerary_to_gpx(itin)
    doc = etree.fromstring(xml.encode("utf-8"))
    waypoints = gpxpy.parse(xml).waypoints

    assert gpx_schema.validate(doc), gpx_schema.error_log.last_error
    assert {el.tag.split("}")[0] for el in doc.iter()} == {"{http://www.topografix.com/GPX/1/1"}
    assert [w.name for w in waypoints] == [plain_text(a.name) for a in _located(itin)]
    assert [w.description for w in waypoints] == [plain_text(a.notes) for a in _located(itin)]
    assert "<evil" not in xml and "<img" not in xml and "<script" not in xml


def test_ics_keeps_hostile_names_as_text():
    itin = _hostile_itinerary()
    ics = itinerary_to_ics(itin)
    events = _events(ics)
    lines = ics.decode("utf-8").split("\r\n")

    assert len(events) == sum(len(d.activities) for d in itin.days) == 20
    assert [str(e["SUMMARY"]) for e in events] == [plain_text(a.name) for d in itin.days for a in d.activities]
    assert [str(e["DESCRIPTION"]) for e in events] == [plain_text(a.notes) for d in itin.days for a in d.activities]
    assert sum(line == "BEGIN:VEVENT" for line in lines) == 20
    assert "SUMMARY:injected" not in lines and not any(line.startswith("DTSTART:1970") for line in lines)


def test_ics_repeated_activity_ids_still_get_unique_uids(itinerary):
    days = [day.model_copy(update={"activities": [
        a.model_copy(update={"id": "lunch"}) for a in day.activities]}) for day in itinerary.days]
    uids = [str(e["UID"]) for e in _events(itinerary_to_ics(itinerary.model_copy(update={"days": days})))]

    assert len(set(uids)) == len(uids) == 20
    assert uids[0] == "itn_paris_2027-lunch@tripwright"


@pytest.mark.parametrize("tzid", ["Europe/Paris", "America/New_York", "Australia/Lord_Howe", "Asia/Tokyo"])
def test_fallback_vtimezone_matches_zoneinfo(tzid):
    """The hand-built VTIMEZONE (for icalendar without add_missing_timezones) agrees with tzdata."""
    zone = ZoneInfo(tzid)
    vtz = icalendar.Calendar.from_ical(
        build_vtimezone(tzid, date(2027, 1, 1), date(2028, 1, 1)).to_ical())
    observances = vtz.walk("STANDARD") + vtz.walk("DAYLIGHT")

    assert str(vtz["TZID"]) == tzid
    for obs in observances:
        offset_from, offset_to = obs.decoded("TZOFFSETFROM"), obs.decoded("TZOFFSETTO")
        onset = (obs.decoded("DTSTART") - offset_from).replace(tzinfo=UTC)
        assert onset.astimezone(zone).utcoffset() == offset_to
        assert (onset - timedelta(minutes=1)).astimezone(zone).utcoffset() == offset_from
    expected = {"Europe/Paris": 3, "America/New_York": 3, "Australia/Lord_Howe": 3, "Asia/Tokyo": 1}
    assert len(observances) == expected[tzid]


def test_ics_builds_its_own_vtimezone_without_add_missing_timezones(monkeypatch, dst_itinerary):
    monkeypatch.delattr(icalendar.Calendar, "add_missing_timezones")
    cal = icalendar.Calendar.from_ical(itinerary_to_ics(dst_itinerary))

    assert cal.subcomponents[0].name == "VTIMEZONE"
    assert [str(tz["TZID"]) for tz in cal.walk("VTIMEZONE")] == ["Europe/Paris"]
    assert len(cal.walk("DAYLIGHT")) == 1 and len(cal.walk("STANDARD")) == 2


# --- JSON ----------------------------------------------------------------------------------------

def test_json_round_trip(tmp_path, itinerary):
    path = tmp_path / "trip.json"
    write_atomic(path, itinerary_to_json(itinerary))

    assert load_itinerary(path) == itinerary
    assert json.loads(path.read_text(encoding="utf-8"))["itinerary_id"] == "itn_paris_2027"


def test_load_malformed_json_raises_input_error(tmp_path, itinerary):
    path = tmp_path / "broken.json"
    path.write_text(itinerary_to_json(itinerary)[:500], encoding="utf-8")

    with pytest.raises(InputError) as err:
        load_itinerary(path)
    assert err.value.field == "itinerary"
    assert "Invalid JSON" in err.value.message
    assert "\n" not in str(err.value)


@pytest.mark.parametrize(("path", "value", "field"), [
    (("days", 0, "activities", 2, "window", "end"), "16:00", "days.0.activities.2.window"),
    (("intent", "budget_usd_cents"), "lots", "intent.budget_usd_cents"),
    (("days", 1, "activities", 0, "kind"), "spaceship", "days.1.activities.0.kind"),
])
def test_load_wrong_field_names_the_field(tmp_path, itinerary, path, value, field):
    data = json.loads(itinerary_to_json(itinerary))
    node = data
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    file = tmp_path / "bad.json"
    file.write_text(json.dumps(data), encoding="utf-8")

    with pytest.raises(InputError) as err:
        load_itinerary(file)
    assert err.value.field == field
    assert str(err.value).startswith(f"{field}: ")
    assert "\n" not in str(err.value)


def test_load_missing_file_raises_input_error(tmp_path):
    with pytest.raises(InputError) as err:
        load_itinerary(tmp_path / "nope.json")
    assert err.value.field == "path"


# --- atomic writes -------------------------------------------------------------------------------

def test_write_atomic_writes_text_and_bytes(tmp_path):
    target = tmp_path / "out.txt"
    write_atomic(target, "héllo")
    assert target.read_bytes() == "héllo".encode("utf-8")
    write_atomic(target, b"\x00\x01")
    assert target.read_bytes() == b"\x00\x01"
    assert os.listdir(tmp_path) == ["out.txt"]


@pytest.mark.parametrize("failing", ["replace", "fsync"])
def test_write_atomic_keeps_the_old_file_when_writing_fails(tmp_path, monkeypatch, failing):
    target = tmp_path / "trip.gpx"
    target.write_text("old", encoding="utf-8")

    def boom(*_args, **_kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, failing, boom)
    with pytest.raises(OSError, match="No space left"):
        write_atomic(target, "new content")
    monkeypatch.undo()

    assert target.read_text(encoding="utf-8") == "old"
    assert os.listdir(tmp_path) == ["trip.gpx"]


def test_write_all_takes_back_the_whole_set_when_a_later_file_cannot_be_staged(tmp_path):
    (tmp_path / "trip.json").write_text("old", encoding="utf-8")
    missing = tmp_path / "gone" / "trip.ics"

    with pytest.raises(FileNotFoundError) as err:
        write_all([(tmp_path / "trip.json", "new"), (tmp_path / "trip.gpx", "new"), (str(missing), "new")])

    assert err.value.filename == str(missing)  # the target, never a temp file
    assert os.listdir(tmp_path) == ["trip.json"]
    assert (tmp_path / "trip.json").read_text(encoding="utf-8") == "old"


def test_write_all_puts_back_what_it_replaced_when_a_later_rename_fails(tmp_path):
    """Staging beside a non-empty folder works; renaming onto it cannot (a real EISDIR/ENOTEMPTY)."""
    (tmp_path / "trip.json").write_text("old", encoding="utf-8")
    folder = tmp_path / "trip.ics"
    folder.mkdir()
    (folder / "keep.txt").write_text("inside", encoding="utf-8")

    with pytest.raises(OSError) as err:
        write_all([(tmp_path / "trip.json", "new"), (tmp_path / "trip.gpx", "new"), (folder, "new")])

    assert err.value.filename == str(folder)
    assert sorted(os.listdir(tmp_path)) == ["trip.ics", "trip.json"]
    assert (tmp_path / "trip.json").read_text(encoding="utf-8") == "old"
    assert os.listdir(folder) == ["keep.txt"]


@pytest.mark.skipif(os.name != "posix", reason="POSIX permission bits")
def test_write_atomic_keeps_the_permissions_of_the_file_it_replaces(tmp_path):
    target = tmp_path / "private.json"
    target.write_text("old", encoding="utf-8")
    target.chmod(0o600)

    write_atomic(target, "new")

    assert target.stat().st_mode & 0o777 == 0o600


def test_export_files_writes_only_the_requested_files(tmp_path, itinerary):
    export_files(itinerary, out=tmp_path / "trip.json", ics=tmp_path / "trip.ics")

    assert sorted(os.listdir(tmp_path)) == ["trip.ics", "trip.json"]
    assert load_itinerary(tmp_path / "trip.json") == itinerary
    assert len(_events((tmp_path / "trip.ics").read_bytes())) == 20

    export_files(itinerary, gpx=str(tmp_path / "trip.gpx"))
    assert len(gpxpy.parse((tmp_path / "trip.gpx").read_text(encoding="utf-8")).waypoints) == 19
