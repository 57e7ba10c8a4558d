"""The plan-quality measures (issue 31 §6, engine/evaluation/quality.py) are computed right: on
hand-made days whose answers are checked by hand, and on real plans — the real planner fed by the
Overpass stand-in on 127.0.0.1 serving the registry's data sets (bench/plan_quality.py's path) —
against a second, independent count done here from the raw itinerary and data.

Whether today's plans meet the targets is asserted per target; a target not met yet on every data
set is a strict xfail (reaching it turns the test red, so it is then made a plain test)."""

from __future__ import annotations

import itertools
import json
import re
from datetime import date, datetime, time, timezone
from pathlib import Path

import pytest

from bench import plan_quality as bench
from engine.evaluation import quality as q
from engine.geocode.trust import geodesic_miles
from engine.models.common import ChoiceKind, Geo, Provenance, TimeWindow
from engine.models.itinerary import Activity, DayItinerary

OSM = "https://www.openstreetmap.org/"
MONDAY = date(2027, 5, 10)


def act(name: str, start: str, end: str, kind: str = "attraction", at: tuple[float, float] | None = None,
        osm: str | None = None, role: str = "activity") -> Activity:
    prov = Provenance(tool="test", call_ts=datetime(2026, 11, 26, tzinfo=timezone.utc), response_digest="x",
                      source_url=OSM + osm if osm else None, data_source="osm")
    return Activity(id=name, role=role, window=TimeWindow(start=time.fromisoformat(start), end=time.fromisoformat(end)),
                    kind=ChoiceKind(kind), name=name, geo=Geo(lat=at[0], lon=at[1]) if at else None, notes="",
                    provenance=prov)


ELEMENTS = [
    {"type": "way", "id": 1, "center": {"lat": 41.0, "lon": 2.0},
     "tags": {"name": "Museu Gran", "name:en": "Great Museum", "tourism": "museum", "opening_hours": "Tu-Su 10:00-18:00"}},
    {"type": "node", "id": 2, "lat": 41.01, "lon": 2.0, "tags": {"name": "Park", "leisure": "park"}},
    {"type": "node", "id": 3, "lat": 41.0, "lon": 2.01, "tags": {"name": "Casa Menjar", "amenity": "restaurant"}},
    {"type": "node", "id": 4, "lat": 41.0, "lon": 2.02, "tags": {"name": "Cafè Petit", "amenity": "cafe"}},
    {"type": "node", "id": 5, "lat": 41.0, "lon": 2.03, "tags": {"name": "Hotel Mar", "tourism": "hotel"}},
    {"type": "node", "id": 6, "lat": 41.0, "lon": 2.04, "tags": {"name": "Museu Tancat", "tourism": "museum",
                                                                  "opening_hours": "Mo 10:00-14:00"}},
]
DATA = q.PlaceData(ELEMENTS)


# --- hand-checked cases ----------------------------------------------------------------------------

def test_idle_holes_between_nine_and_six_are_measured_by_hand():
    day = DayItinerary(date=MONDAY, activities=[
        act("a", "09:30", "11:00"), act("walk", "11:00", "11:10", kind="transit", role="transfer"),
        act("lunch", "12:30", "13:30", kind="meal", role="meal"), act("b", "14:00", "14:45")])
    idle = q.day_idle(day)
    # holes: 09:00-09:30 (0.5 h), 11:10-12:30 (1h20), 13:30-14:00 (0.5 h), 14:45-18:00 (3h15)
    assert idle.largest_hole_h == 3.25
    assert idle.total_idle_h == pytest.approx(0.5 + 80 / 60 + 0.5 + 3.25, abs=0.01)
    full = DayItinerary(date=MONDAY, activities=[act("x", "08:00", "19:00")])
    assert q.day_idle(full).largest_hole_h == 0 and q.day_idle(full).total_idle_h == 0
    flight_day = DayItinerary(date=MONDAY, activities=[act("f", "08:00", "10:00", kind="flight", role="arrival")])
    assert q.full_days([day, flight_day]) == [day]


def test_the_best_order_of_four_corners_is_the_perimeter_and_a_zigzag_is_longer():
    sw, nw, ne, se = (41.0, 2.0), (41.01, 2.0), (41.01, 2.01), (41.0, 2.01)
    side_ns, side_ew = geodesic_miles(sw, nw), geodesic_miles(sw, se)
    assert side_ew < side_ns  # at 41° N a hundredth of a degree of longitude is the shorter side
    # the best open path through a rectangle's corners: a U over its two short sides (the northern
    # one a little shorter still) and one long side
    u_shape = side_ew + geodesic_miles(nw, ne) + side_ns
    assert q.best_path_miles([ne, sw, se, nw]) == pytest.approx(u_shape, rel=1e-9)
    assert q.best_path_miles([ne, se], start=sw, end=nw) == pytest.approx(u_shape, rel=1e-9)
    # out and back from one corner through two others: two sides and the diagonal home
    assert q.best_path_miles([ne, se], start=sw, end=sw) == pytest.approx(side_ew + side_ns + geodesic_miles(ne, sw), rel=1e-9)
    zigzag = DayItinerary(date=MONDAY, activities=[
        act("1", "10:00", "11:00", at=sw), act("2", "11:30", "12:00", at=ne),
        act("3", "12:30", "13:00", at=nw), act("4", "13:30", "14:00", at=se)])
    route = q.day_route(zigzag)
    assert route.planned_miles == pytest.approx(q.path_miles([sw, ne, nw, se]), abs=1e-3)
    assert route.best_miles == pytest.approx(u_shape, abs=1e-3)
    assert route.ratio == pytest.approx(route.planned_miles / route.best_miles)
    assert route.ratio > q.TARGETS["route_ratio"]  # two diagonals: a zig-zag the target catches
    in_order = DayItinerary(date=MONDAY, activities=[act(str(i), "10:00", "11:00", at=p) for i, p in enumerate([sw, se, ne, nw])])
    assert q.day_route(in_order).ratio == pytest.approx(1.0)


def test_famous_coverage_counts_only_sights_open_on_the_trip_dates():
    tuesday = MONDAY.replace(day=11)
    days = [DayItinerary(date=d, activities=[act("Great Museum", "10:00", "12:00")]) for d in (tuesday,)]
    cover = q.famous_coverage(days, DATA, ["Museu Gran", "Park", "Museu Tancat"])
    # Museu Tancat opens on Mondays only: closed on the trip's one day; the park has no hours (open)
    assert cover.closed == ("Museu Tancat",) and cover.famous_open == ("Museu Gran", "Park")
    assert cover.visited == ("Museu Gran",) and cover.share == 0.5  # linked by its English name
    on_monday = q.famous_coverage([DayItinerary(date=MONDAY, activities=[])], DATA, ["Museu Tancat"])
    assert on_monday.famous_open == ("Museu Tancat",) and on_monday.share == 0.0
    with pytest.raises(KeyError):
        q.famous_coverage(days, DATA, ["Sagrada Família"])  # a famous name must be in the data


def test_meals_nights_speeds_and_names_by_hand():
    day1 = DayItinerary(date=MONDAY, activities=[
        act("Breakfast at Cafè Petit", "08:00", "08:45", kind="meal", role="meal", osm="node/4"),
        act("Cafè Petit", "12:30", "13:30", kind="meal", role="meal", osm="node/4", at=(41.0, 2.02)),
        act("Casa Menjar", "19:30", "21:00", kind="meal", role="meal", osm="node/3", at=(41.0, 2.01)),
        act("Hotel Mar", "21:30", "22:00", kind="lodging", role="checkin", osm="node/5", at=(41.0, 2.03))])
    far = (42.0, 2.03)  # ~69 mi north: no bed of the data within 15 mi
    day2 = DayItinerary(date=MONDAY.replace(day=11), activities=[
        act("drive", "08:00", "09:00", kind="transit", role="transfer"),
        act("Museu Gran", "09:00", "10:00", osm="way/1", at=(41.0, 2.0)),
        act("Camp", "10:30", "11:00", kind="lodging", role="checkin", at=far)])
    day3 = DayItinerary(date=MONDAY.replace(day=12), activities=[])
    meals = q.main_meals([day1], DATA)
    assert [(m.name, m.amenity, m.at_restaurant) for m in meals] == [
        ("Cafè Petit", "cafe", False), ("Casa Menjar", "restaurant", True)]  # breakfast is not counted
    nights = q.nights([day1, day2, day3], DATA)
    assert [(n.at_bed, n.bed_in_reach) for n in nights] == [(True, True), (False, False)]  # 2 nights, not 3
    assert nights[0].nearest_bed_miles == 0.0
    hops = {(h.from_name, h.to_name): h for h in q.hops([day1, day2])}
    # day 2 leaves last night's bed when its first drive starts (08:00) and reaches the museum at 09:00
    leg = hops[("last night's bed", "Museu Gran")]
    assert leg.minutes == 60 and leg.miles == pytest.approx(geodesic_miles((41.0, 2.03), (41.0, 2.0)), abs=0.01)
    fast = hops[("Museu Gran", "Camp")]  # ~69 mi in 30 min: 138 mph, flagged
    assert fast.minutes == 30 and fast.mph == pytest.approx(fast.miles * 2, abs=0.2) and fast.mph > 70
    names = q.names_in_language([day1, day2], DATA, "en")
    assert (names.shown, names.possible, names.missing) == (0, 1, ("Museu Gran",))  # no other has name:en


def test_day_miles_below_the_straight_line_through_the_stops_are_flagged():
    from engine.models.road_trip import Drive
    bed_a, sight, bed_b = (41.0, 2.0), (41.2, 2.0), (41.0, 2.2)  # ~13.8 mi north, then ~18.8 mi back south-east
    line = geodesic_miles(bed_a, sight) + geodesic_miles(sight, bed_b)
    night = [act("Motel A", "20:00", "21:00", kind="lodging", role="checkin", at=bed_a)]
    def road_day(miles: float) -> DayItinerary:
        return DayItinerary(date=MONDAY.replace(day=11), drive=Drive(miles=miles, hours=1.0, from_name="A", to_name="B"),
                            activities=[act("Sight", "10:00", "11:00", at=sight),
                                        act("Motel B", "17:00", "18:00", kind="lodging", role="checkin", at=bed_b)])
    short, honest = q.day_miles([DayItinerary(date=MONDAY, activities=night), road_day(20.0)]), \
        q.day_miles([DayItinerary(date=MONDAY, activities=night), road_day(40.0)])
    assert [m.straight_miles for m in short] == [round(line, 1)] and short[0].short  # 20 mi < ~32.6 mi
    assert not honest[0].short


# --- the real path: the planner fed by the Overpass stand-in ---------------------------------------------

def _osm_id(activity) -> int | None:
    match = re.search(r"/(node|way|relation)/(\d+)$", (activity.provenance and activity.provenance.source_url) or "")
    return int(match.group(2)) if match else None


@pytest.fixture(scope="module")
def attempts(tmp_path_factory):
    """Every registry row planned once, online against the stand-in, in a data dir of its own: the
    itinerary, or the planner's one line when it could not plan the row."""
    out = {}
    for kind, row in bench.rows():
        home = tmp_path_factory.mktemp(row["slug"])
        with bench.served(bench.load_elements(row), str(home)):
            try:
                out[row["slug"]] = (kind, row, bench.plan(kind, row))
            except RuntimeError as failed:
                out[row["slug"]] = (kind, row, str(failed))
    return out


@pytest.fixture(scope="module")
def planned(attempts):
    """The rows that planned (the measures are checked on those)."""
    return {slug: got for slug, got in attempts.items() if not isinstance(got[2], str)}


def test_every_data_set_plans(attempts):
    failed = {slug: got[2] for slug, got in attempts.items() if isinstance(got[2], str)}
    assert not failed


def test_the_registry_names_real_data_with_its_famous_lists():
    registry = json.loads(bench.REGISTRY.read_text(encoding="utf-8"))
    assert {"barcelona", "kyoto", "us89_teton"} <= {r["slug"] for r in registry["cities"] + registry["corridors"]}
    seen_ids: set[int] = set()
    for _, row in bench.rows():
        elements = bench.load_elements(row)
        ids = {e["id"] for e in elements}
        assert len(ids) == len(elements) and not ids & seen_ids, row["slug"]  # made-up ids unique across files
        seen_ids |= ids
        assert all(e["id"] >= 9_200_000_000 for e in elements)
        data = q.PlaceData(elements)
        assert 5 <= len(row["famous"]) <= 10 and row["famous_source"]
        for name in row["famous"]:
            data.named(name)  # each famous sight is an element of the data


def test_coverage_on_a_real_plan_is_the_famous_sights_the_plan_links_to(planned):
    for slug, (_, row, itinerary) in planned.items():
        elements = bench.load_elements(row)
        visited_ids = {_osm_id(a) for d in itinerary.days for a in d.activities if a.kind.value == "attraction"}
        by_name = {e["tags"].get("name"): e["id"] for e in elements}
        score = bench.score(row, itinerary)
        cover = q.famous_coverage(itinerary.days, q.PlaceData(elements), row["famous"])
        expected = [n for n in cover.famous_open if by_name[n] in visited_ids]
        assert list(cover.visited) == expected, slug
        assert score["coverage"] == (len(expected) / len(cover.famous_open) if cover.famous_open else None)


def _idle_by_minutes(day) -> tuple[int, int]:
    busy = [False] * (24 * 60)
    for a in day.activities:
        for m in range(a.window.start.hour * 60 + a.window.start.minute, a.window.end.hour * 60 + a.window.end.minute):
            busy[m] = True
    free = [not busy[m] for m in range(9 * 60, 18 * 60)]
    runs = [len(list(g)) for k, g in itertools.groupby(free) if k]
    return max(runs, default=0), sum(runs)


def test_idle_hours_on_real_plans_match_a_minute_by_minute_count(planned):
    for slug, (_, _, itinerary) in planned.items():
        days = q.full_days(itinerary.days)
        assert days, slug
        for day in days:
            largest, total = _idle_by_minutes(day)
            idle = q.day_idle(day)
            assert idle.largest_hole_h == round(largest / 60, 2) and idle.total_idle_h == round(total / 60, 2), (slug, day.date)


def _feasible_miles(order, start, end, day, leave, home, pace, hours) -> float | None:
    """The miles of one order of a day's stops, or None when a traveller could not walk it: a meal
    reached after its planned start, a sight outside its hours, home after the plan is."""
    here, clock, miles = start, leave, 0.0
    for a in order:
        point = (a.geo.lat, a.geo.lon)
        arrive = clock + (pace.minutes(here, point) if here else 0.0)
        length = q._minutes(a.window.end) - q._minutes(a.window.start)
        if a.kind.value == "meal":
            if arrive > q._minutes(a.window.start) + 1e-6:
                return None
            clock = q._minutes(a.window.end)
        else:
            spans = hours(a)
            fits = [max(arrive, o) + length for o, c in spans if max(arrive, o) + length <= c] if spans is not None \
                else [arrive + length]
            if not fits:
                return None
            clock = fits[0]
        miles += geodesic_miles(here, point) if here else 0.0
        here = point
    if end and here:
        if home is not None and clock + pace.minutes(here, end) > home + 1e-6:
            return None
        miles += geodesic_miles(here, end)
    return miles


def test_route_ratios_on_real_plans_match_every_feasible_permutation(planned):
    """The reference is the shortest of every order of the day's stops that keeps each meal in its
    place and time and each sight inside its hours, or the window the plan told the traveller when
    none are published (counted here again, by brute force over
    permutations), never longer than the plan and never shorter than the crow's best order."""
    checked = 0
    for slug, (_, row, itinerary) in planned.items():
        data = q.PlaceData(bench.load_elements(row))
        nights = q.bed_points(itinerary.days)
        for i, day in enumerate(itinerary.days):
            start, end = (nights[i - 1] if i else None), nights[i]
            route = q.day_route(day, start, end, data)
            if route is None:
                continue
            visits = [a for a in day.activities
                      if a.kind.value in ("attraction", "meal") and a.geo and a.role != "omitted"]
            first = day.activities.index(visits[0])
            before = [a for a in day.activities[:first] if a.geo and a.kind.value in ("lodging", "transit")]
            start = (before[-1].geo.lat, before[-1].geo.lon) if before else start
            pace = q.plan_pace(day, visits)
            leave = (q._minutes(visits[0].window.start) - pace.minutes(start, (visits[0].geo.lat, visits[0].geo.lon))
                     if start else q._minutes(visits[0].window.start))
            home = q._minutes(visits[-1].window.end) + pace.minutes((visits[-1].geo.lat, visits[-1].geo.lon), end) \
                if end else None
            meals = [a for a in visits if a.kind.value == "meal"]

            def hours(a, data=data, on=day.date):
                rule = (data.of(a) or {}).get("tags", {}).get("opening_hours")
                told = re.search(r"planned within (\d+):(\d+)-(\d+):(\d+)", a.notes or "")
                if not rule and told:  # hours not published: the window the traveller was told
                    h1, m1, h2, m2 = map(int, told.groups())
                    return [(h1 * 60 + m1, h2 * 60 + m2)]
                if not rule:
                    return None
                return [(q._minutes(w.start), q._minutes(w.end) if w.end > w.start else 24 * 60)
                        for w in q.dated_hours(rule, None).windows_on(on)]
            found = [m for order in itertools.permutations(visits)
                     if [a for a in order if a.kind.value == "meal"] == meals
                     and (m := _feasible_miles(order, start, end, day, leave, home, pace, hours)) is not None]
            planned_miles = q.path_miles([p for p in (start, *((a.geo.lat, a.geo.lon) for a in visits), end) if p])
            assert route.planned_miles == pytest.approx(planned_miles, abs=1e-3), (slug, day.date)
            assert route.best_miles == pytest.approx(min([*found, planned_miles]), abs=1e-3), (slug, day.date)
            crow = q.best_path_miles([(a.geo.lat, a.geo.lon) for a in visits], start, end)
            assert crow - 1e-3 <= route.best_miles <= route.planned_miles + 1e-3
            checked += 1
    assert checked >= 5


def test_the_route_reference_keeps_the_meals_and_the_opening_hours():
    """By hand: the crow's shortest order would see a museum after it closed and eat lunch late;
    the fair reference may not, so a plan that could only be shorter that way scores 1.0."""
    hotel, museum, park, lunch = (41.0, 2.0), (41.0, 2.03), (41.0, 2.01), (41.0, 2.02)
    data = q.PlaceData([
        {"type": "node", "id": 11, "lat": museum[0], "lon": museum[1],
         "tags": {"name": "Museu", "tourism": "museum", "opening_hours": "Mo-Su 09:00-12:00"}},
        {"type": "node", "id": 12, "lat": park[0], "lon": park[1], "tags": {"name": "Parc", "leisure": "park"}},
        {"type": "node", "id": 13, "lat": lunch[0], "lon": lunch[1], "tags": {"name": "Menjar", "amenity": "restaurant"}}])
    # the plan: hotel → far museum (open mornings only) → back to the park → lunch between them → hotel
    day = DayItinerary(date=MONDAY, activities=[
        act("walk1", "09:00", "09:20", kind="transit", role="transfer"),
        act("Museu", "09:30", "11:00", at=museum, osm="node/11"),
        act("walk2", "11:00", "11:25", kind="transit", role="transfer"),
        act("Parc", "11:35", "12:30", at=park, osm="node/12"),
        act("walk3", "12:30", "12:40", kind="transit", role="transfer"),
        act("Menjar", "13:00", "14:00", kind="meal", role="meal", at=lunch, osm="node/13")])
    crow = q.best_path_miles([museum, park, lunch], hotel, hotel)
    route = q.day_route(day, hotel, hotel, data)
    planned = q.path_miles([hotel, museum, park, lunch, hotel])
    assert crow < planned - 0.5  # park → lunch → museum → hotel is shorter as the crow flies...
    assert route.best_miles == pytest.approx(planned, abs=1e-3) and route.ratio == pytest.approx(1.0)
    # ...but the museum closes at noon and lunch stays at 13:00: no shorter order is feasible.
    # Without its hours, the park first and the museum after it is feasible and shorter:
    unknown = q.PlaceData([{**e, "tags": {k: v for k, v in e["tags"].items() if k != "opening_hours"}}
                           for e in data.elements])
    assert q.day_route(day, hotel, hotel, unknown).best_miles < planned - 0.1


def test_meals_and_names_on_real_plans_read_the_raw_data(planned):
    for slug, (_, row, itinerary) in planned.items():
        elements = {e["id"]: e for e in bench.load_elements(row)}
        meals = q.main_meals(itinerary.days, q.PlaceData(elements.values()))
        raw = [elements[_osm_id(a)]["tags"]["amenity"] for d in itinerary.days for a in d.activities
               if a.kind.value == "meal" and a.window.start >= q.LUNCH_FROM]
        assert [m.amenity for m in meals] == raw, slug
        names = q.names_in_language(itinerary.days, q.PlaceData(elements.values()), "en")
        assert names.possible == sum(1 for d in itinerary.days for a in d.activities
                                     if a.kind.value in ("attraction", "meal", "lodging") and _osm_id(a) in elements
                                     and elements[_osm_id(a)]["tags"].get("name:en") not in
                                     (None, elements[_osm_id(a)]["tags"]["name"])), slug
    kyoto = planned["kyoto"][2]
    # Kyoto's places are mapped in Japanese with name:en on most: the measure sees them
    assert q.names_in_language(kyoto.days, q.PlaceData(bench.load_elements(planned["kyoto"][1])), "en").possible >= 5


def test_the_corridor_nights_and_drives_are_read_from_the_road_plan(planned):
    _, row, itinerary = planned["us89_teton"]
    data = q.PlaceData(bench.load_elements(row))
    nights = q.nights(itinerary.days, data)
    assert len(nights) == len(itinerary.days) - 1 and all(n.town for n in nights)
    for hop in q.hops(itinerary.days):
        assert hop.miles >= 0.5
        assert hop.mph == float("inf") if hop.minutes <= 0 else hop.mph == pytest.approx(hop.miles * 60 / hop.minutes, abs=0.1)


def test_the_bench_prints_each_trip_planned_online_and_from_its_cache(capsys):
    from engine.log_setup import configure
    configure(0)  # as the bench's own entry point does: logs to stderr, stdout is the table or JSON
    assert bench.main(["--only", "us89_teton", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert [s["slug"] for s in printed] == ["us89_teton", "us89_teton (cache)"]
    online, cached = printed
    # offline, from the corridor chunks the first plan cached: a plan, scored the same way
    assert cached["coverage"] is not None and cached["full_days"] == online["full_days"] == 3
    assert bench.main(["--only", "us89_teton"]) == 0
    table = capsys.readouterr().out.splitlines()
    assert table[0].startswith("data set | coverage") and table[2].startswith("us89_teton | ")


def test_best_known_sights_off_the_themes_or_far_out_are_planned(planned):
    """A best-known sight gets every theme's credit and pays a third for its travel: Park Güell (a
    park, on an "art and architecture" trip) and the Giza pyramids (14 km from central Cairo, now
    inside its metropolitan box) are visited, not buried under nearer lesser sights."""
    def visited(slug: str) -> set[int]:
        return {_osm_id(a) for d in planned[slug][2].days for a in d.activities if a.kind.value == "attraction"}

    def element_id(slug: str, name: str) -> int:
        return q.PlaceData(bench.load_elements(planned[slug][1])).named(name)["id"]
    assert element_id("barcelona", "Park Güell") in visited("barcelona")
    assert element_id("cairo", "أهرامات الجيزة") in visited("cairo")


def test_every_full_city_day_keeps_its_lunch(planned):
    """A morning sight may not run so late that no table is left for lunch (a table with no
    published hours seats lunch until 14:30): every full day of a city trip has one."""
    for slug, (kind, _, itinerary) in planned.items():
        if kind != "city":
            continue
        full = q.full_days(itinerary.days)
        assert full and all(q.lunched(d) for d in full), (slug, [d.date for d in full if not q.lunched(d)])
        assert bench.score(planned[slug][1], itinerary)["lunches_of"] == f"{len(full)}/{len(full)}"


def test_an_evening_after_dinner_is_a_view_a_lit_square_or_a_late_opening_nearby(planned):
    """Issue 31 §2 evening options: a city day with nothing after dinner gets one short visit when
    the data has a place for an evening near the table (an outdoor landmark or view, open then, or
    a sight whose published hours run late), over by 22:00 — never a museum at its guessed hours."""
    evenings = []
    for slug, (kind, row, itinerary) in planned.items():
        if kind != "city":
            continue
        data = q.PlaceData(bench.load_elements(row))
        for day in itinerary.days:
            visits = q._visits(day, ("attraction", "meal"))
            dinner = max((i for i, a in enumerate(visits) if a.kind.value == "meal" and a.window.start >= time(17, 30)),
                         default=None)
            for a in visits[dinner + 1:] if dinner is not None else []:
                evenings.append((slug, a.name))
                assert a.window.end <= time(22, 0) and "planned within" not in a.notes, (slug, a.name, a.notes)
                tags = data.of(a)["tags"]
                assert "always open" in a.notes or "opening_hours" in tags, (slug, a.name)
                assert geodesic_miles((visits[dinner].geo.lat, visits[dinner].geo.lon), (a.geo.lat, a.geo.lon)) < 1.5
    assert len({slug for slug, _ in evenings}) >= 3, evenings  # Barcelona, Cairo and Mexico City have one


QUALITY_SCENARIOS = Path(__file__).parent / "quality_scenarios"
PREDICATE_OF = {"coverage": "quality['coverage']", "largest_hole_h": "quality['largest_hole_h']",
                "route_ratio": "quality['route_ratio']", "meals_at_restaurants": "quality['meals_at_restaurants']",
                "nights_at_bed": "quality['nights_at_bed']", "fastest_mph": "quality['fastest_mph']"}


@pytest.mark.parametrize("path", sorted(QUALITY_SCENARIOS.glob("*.yaml")), ids=lambda p: p.stem)
def test_tripwright_eval_quality_scenarios_fail_exactly_on_the_missed_targets(path):
    """``tripwright eval tests/eval/quality_scenarios``: a plan from the shipped pack, its scores
    under ``quality``, one predicate per target — failing on exactly the targets the scores miss."""
    from engine.evaluation.quality_suite import for_pack
    from engine.evaluation.runner import run_scenario
    from engine.evaluation.scenario import load_scenario

    scenario = load_scenario(path)
    outcome = run_scenario(path)
    assert outcome.status == "ok", outcome.failures
    scores = for_pack(scenario.pack, outcome.result.itinerary)
    assert scores is not None and scores["coverage"] is not None and scores["full_days"] >= 2
    assert len(scenario.must_satisfy) == len(TARGET_CHECKS)
    missed = {m for m, check in TARGET_CHECKS.items() if scores[m] is not None and not check(scores[m])}
    failed = {m for m, expr in PREDICATE_OF.items() for f in outcome.failures if expr in f}
    assert failed == missed and all("evaluated to False" in f for f in outcome.failures), outcome.failures


# --- the targets: reported, not yet met (issue 31 §6) -----------------------------------------------------

TARGET_CHECKS = {
    "coverage": lambda v: v >= q.TARGETS["coverage"],
    "largest_hole_h": lambda v: v < q.TARGETS["largest_hole_h"],
    "route_ratio": lambda v: v <= q.TARGETS["route_ratio"],
    "meals_at_restaurants": lambda v: v >= q.TARGETS["meals_at_restaurants"],
    "nights_at_bed": lambda v: v >= q.TARGETS["nights_at_bed"],
    "fastest_mph": lambda v: v <= q.TARGETS["fastest_mph"],
}


NOT_MET = pytest.mark.xfail(strict=True, reason="issue 31: not met yet on every data set (bench/plan_quality.py "
                                               "reports by how much); strict, so reaching it turns this red")


@pytest.mark.parametrize("metric", [pytest.param(m, marks=NOT_MET) if m in ("coverage",) else m
                                    for m in sorted(TARGET_CHECKS)])
def test_plans_meet_the_quality_target(planned, metric):
    missed = []
    for slug, (_, row, itinerary) in planned.items():
        value = bench.score(row, itinerary)[metric]
        if value is not None and not TARGET_CHECKS[metric](value):
            missed.append(f"{slug}: {value}")
    assert not missed, f"{metric} misses its target: {missed}"
