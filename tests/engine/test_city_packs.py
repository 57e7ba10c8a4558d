"""City packs from OpenStreetMap (issue 19), in process: the real Overpass client against the
stand-in on 127.0.0.1 (hand-made Lisbon data, tests/data/osm/README.md), the pack's build, rank and
cache, and plans of the pack city through the real pipeline."""

from __future__ import annotations

import asyncio
from datetime import date, datetime, timedelta, timezone

import pytest

from engine.errors import AmbiguousCityError, CityPackMissing, ToolError
from engine.geocode import default_gazetteer
from engine.models import IntentV1
from engine.pipeline.run import PlanningSession
from engine.places import overpass
from engine.places.city_spec import resolve_city
from engine.places.fetch import PackFetcher
from engine.places.pack_city import pack_city
from engine.places.pack_store import PackStore
from engine.tools.executor import ToolExecutor
from engine.net.network import NetworkState
from tests.overpass_standin import OverpassStandIn, Reply, load_lisbon

TODAY = date(2026, 11, 26)
MONDAY = date(2027, 5, 10)
CLOSED_MONDAYS = {"Mosteiro dos Jerónimos", "Torre de Belém", "Museu Nacional do Azulejo", "Museu do Fado"}


@pytest.fixture()
def overpass_server(monkeypatch, tmp_path):
    server = OverpassStandIn(elements=load_lisbon()).start()
    monkeypatch.delenv("TRIPWRIGHT_OFFLINE", raising=False)
    monkeypatch.setenv("TRIPWRIGHT_OVERPASS_URL", server.interpreter_url)
    monkeypatch.setenv("TRIPWRIGHT_OVERPASS_TIMEOUT_S", "2")
    yield server
    server.stop()


def fetcher(home) -> PackFetcher:
    return PackFetcher(PackStore(home), NetworkState(), ToolExecutor())


def lisbon():
    return resolve_city("Lisbon", default_gazetteer())


def fetched(home, **kw):
    return asyncio.run(fetcher(home).ensure(lisbon(), **kw))


def test_a_pack_keeps_osm_identity_drops_what_no_traveller_visits_and_ranks(overpass_server, tmp_path) -> None:
    outcome = fetched(tmp_path)
    pack = outcome.pack
    names = {p.name for p in pack.places}
    assert outcome.fetched and pack.slug == "lisbon_pt" and pack.country == "PT"
    assert pack.tz == "Europe/Lisbon" and pack.currency == "EUR" and pack.osm_base == "2026-11-20T10:00:00Z"
    assert [a.iata for a in pack.airports][:1] == ["LIS"]
    # private, disused, a bar and an unlisted parish church are not places to send a traveller
    assert not names & {"Jardim do Palácio de Belém", "Pastelaria Suíça", "A Ginjinha", "Igreja de São Roque"}
    assert {"Mosteiro dos Jerónimos", "Torre de Belém", "Oceanário de Lisboa"} <= names  # the box reaches Belém
    assert pack.dropped["not_for_travellers"] >= 2  # the query asked for them; the tags refuse them
    twins = [p for p in pack.places if p.name == "Museu Nacional de Arte Antiga"]
    assert len(twins) == 1 and twins[0].tags.get("opening_hours")  # the richer twin kept
    assert pack.dropped["duplicate"] == 1
    jeronimos = next(p for p in pack.places if p.name == "Mosteiro dos Jerónimos")
    assert jeronimos.source_url == "https://www.openstreetmap.org/way/9000000001"
    sights = pack.of_kind("sight")
    # known hours and a museum's weight beat a memorial with nothing tagged
    assert sights.index(jeronimos) < sights.index(next(p for p in sights if p.category == "memorial"))
    request = overpass_server.seen[0]
    assert request.header("User-Agent").startswith("Tripwright/") and "[out:json]" in request.ql
    # one query for the city's places, not one per place, and one for its map (issue 32 §4)
    assert len(overpass_server.seen) == 2 and "out geom" in overpass_server.seen[1].ql


def test_hours_by_date_unknown_hours_and_always_open_outdoor_places(overpass_server, tmp_path) -> None:
    city = pack_city(fetched(tmp_path).pack, name="Lisbon", rates_to_usd={"USD": 1.0, "EUR": 1.1})
    venues = {v.name: v for v in city.venues}
    from engine.models.dated_hours import dated_hours
    jeronimos = venues["Mosteiro dos Jerónimos"]
    assert jeronimos.hours_known and jeronimos.data_source == "osm"
    assert not dated_hours(jeronimos.opening_hours, "PT").windows_on(MONDAY)
    assert dated_hours(jeronimos.opening_hours, "PT").windows_on(MONDAY + timedelta(days=1))
    assert dated_hours(jeronimos.opening_hours, "PT").closed_reason(date(2027, 6, 13)) == "blackout_date"  # St Anthony, Tue
    aljube = venues["Museu do Aljube – Resistência e Liberdade"]  # indoor, no hours tag
    assert not aljube.hours_known and aljube.note == "no opening hours in OpenStreetMap"
    viewpoint = venues["Miradouro de Santa Luzia"]
    assert viewpoint.hours_known and viewpoint.opening_hours.startswith("24/7")
    # prices: OSM's charge converted, else estimated and labelled
    assert jeronimos.price == pytest.approx(13.2) and not jeronimos.price_estimated
    assert venues["Museu Calouste Gulbenkian"].price_estimated
    assert all(h.price_estimated and h.data_source == "osm" for h in city.hotels)
    assert city.transit.estimated and city.currency == "USD" and city.local_currency == "EUR"


def test_a_pack_city_holds_its_own_places_and_the_tools_read_them_as_a_fixture_citys(overpass_server, tmp_path) -> None:
    """Issue 30 §1: a pack's sights reach the planner as the pack's Place plus the facts planned
    with (no fixture row in between), through the same catalog City and tool functions as a
    fixture city's."""
    from engine.catalog.catalog import default_catalog
    from engine.catalog.city_places import CityPlace
    from engine.catalog.schema import RawCity
    from engine.places.catalog_link import catalog_with
    from engine.tools.attractions import to_attraction
    from engine.tools.lodging import to_lodging

    pack = fetched(tmp_path).pack
    catalog, name = catalog_with(default_catalog(), pack, rates_to_usd={"USD": 1.0, "EUR": 1.1})
    city = catalog.city(name)
    assert not isinstance(city.raw, RawCity)  # a pack is no fixture file
    shortlisted = {p.ref: p for p in pack.places}
    for sight in city.sights:
        assert isinstance(sight, CityPlace) and sight.place.kind == "sight"
        row = shortlisted[sight.id]
        assert (sight.place.osm_type, sight.place.osm_id, sight.place.fame) == (row.osm_type, row.osm_id, row.fame)
    for rows, kind in ((city.eateries, "food"), (city.beds, "bed")):
        assert rows and all(r.place.kind == kind and r.place.osm_id == shortlisted[r.id].osm_id for r in rows)
    jeronimos = next(s for s in city.sights if s.name == "Mosteiro dos Jerónimos")
    offered = to_attraction(jeronimos, city.tz, 1.0, city.raw.country)
    assert (offered.id, offered.opening_hours, offered.hours_known, offered.duration_minutes) == (
        jeronimos.id, jeronimos.opening_hours, True, jeronimos.minutes)
    assert offered.provenance.data_source == "osm" and offered.est_price_usd_cents == round(jeronimos.price * 100)
    bed = city.beds[0]
    assert to_lodging(bed, 1.0).price_per_night_usd_cents == round(bed.price * 100) and city.hotel(bed.id) is bed
    assert catalog.city("Paris") is default_catalog().city("Paris")  # fixture cities are read once, not per pack


def plan_lisbon(home, **prefs):
    session = PlanningSession(today=TODAY)
    session._packs = fetcher(home)
    intent = IntentV1.model_validate({
        "city": "Lisbon", "date_window": {"start": MONDAY.isoformat(), "end": "2027-05-13", "tz": "Europe/Lisbon"},
        "budget_usd_cents": 300000, "airports": ["LIS"], "origin_airport": "JFK", "prefs": prefs})
    return asyncio.run(session.plan(intent))


def test_a_pack_city_plans_verified_with_every_fact_sourced(overpass_server, tmp_path) -> None:
    result = plan_lisbon(tmp_path, themes=["art", "history"])
    assert result.status == "completed", result.failure
    itinerary = result.itinerary
    visits = [(day.date, a) for day in itinerary.days for a in day.activities if a.kind.value in ("attraction", "meal")]
    assert len(visits) >= 10
    for day, a in visits:
        assert a.provenance.data_source == "osm"
        assert a.provenance.source_url.startswith("https://www.openstreetmap.org/")
        assert not (day == MONDAY and a.name in CLOSED_MONDAYS), a.name
    unknown = {v.details["venue"] for v in itinerary.violations if v.kind.value == "venue_hours_unknown"}
    low = {a.name for _, a in visits if a.confidence == "low"}
    assert unknown == low and all(not v.blocking for v in itinerary.violations)
    flights = [a for day in itinerary.days for a in day.activities if a.kind.value == "flight"]
    assert flights and all(f.provenance.data_source == "estimated" and "estimated" in f.notes for f in flights)
    assert {"flights", "lodging"} <= set(itinerary.cost_breakdown.estimated_parts)
    assert itinerary.attributions == ["© OpenStreetMap contributors (ODbL)"]
    said = next(d.rationale for d in itinerary.decisions if d.node == "city_pack")
    assert "treated as always open" in said and "World Bank" in said
    assert itinerary.cost_breakdown.total_usd_cents <= 300000
    from engine.export.html_export import itinerary_to_html
    assert "OpenStreetMap contributors (ODbL)" in itinerary_to_html(itinerary)  # the HTML map credits it
    import gpxpy
    import icalendar
    from engine.export.gpx_export import itinerary_to_gpx
    from engine.export.ical_export import itinerary_to_ics
    gpx = gpxpy.parse(itinerary_to_gpx(itinerary))
    assert gpx.copyright_author == "OpenStreetMap contributors" and "odbl" in gpx.copyright_license
    assert "OpenStreetMap" in str(icalendar.Calendar.from_ical(itinerary_to_ics(itinerary))["x-wr-caldesc"])
    events = [e for e in result.events if e.node == "city_pack" and e.status.value != "heartbeat"]  # a slow pack beats
    assert events[0].status.value == "started" and events[-1].status.value == "completed"


def test_the_cache_answers_offline_and_a_stale_pack_is_refreshed_online(overpass_server, tmp_path, monkeypatch) -> None:
    first = fetched(tmp_path)
    monkeypatch.setenv("TRIPWRIGHT_OFFLINE", "1")
    again = fetched(tmp_path)
    assert not again.fetched and again.pack == first.pack and len(overpass_server.seen) == 2  # places, map
    assert plan_lisbon(tmp_path).status == "completed"  # offline, from the cache
    store = PackStore(tmp_path)
    store.save(first.pack.model_copy(update={"fetched_at": datetime.now(timezone.utc) - timedelta(days=31)}))
    stale = fetched(tmp_path)  # still offline: the old pack, said to be old
    assert not stale.fetched and "offline" in stale.notes[0]
    monkeypatch.delenv("TRIPWRIGHT_OFFLINE")
    refreshed = fetched(tmp_path)
    assert refreshed.fetched and len(overpass_server.seen) == 4
    assert datetime.now(timezone.utc) - store.load("lisbon_pt").fetched_at < timedelta(minutes=1)


def test_offline_without_a_cached_pack_names_the_city(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("TRIPWRIGHT_OFFLINE", "1")
    with pytest.raises(CityPackMissing, match="Lisbon, PT needs one online fetch"):
        fetched(tmp_path)


def test_rate_limit_is_retried_once_after_retry_after(overpass_server, tmp_path) -> None:
    overpass_server.then(Reply(status=429, headers={"Retry-After": "1"}))
    outcome = fetched(tmp_path)
    assert outcome.fetched and len(overpass_server.seen) == 3  # the places twice, then the map
    assert overpass_server.seen[1].at - overpass_server.seen[0].at >= 0.9


@pytest.mark.parametrize("replies, reason", [
    ((Reply(status=429), Reply(status=429)), "rate limited"),
    ((Reply(status=504), Reply(status=504)), "server busy"),
    ((Reply(delay_s=5), Reply(delay_s=5)), "timed out"),
    ((Reply(body=b"<html>not json</html>", content_type="text/html"),), "not JSON"),
    ((Reply(body=b'{"elements": [{"type": "node", "id": "x"}]}'),), "unexpected answer"),
    ((Reply(body=b'{"elements": [], "remark": "runtime error: Query timed out"}', ),
      Reply(body=b'{"elements": [], "remark": "runtime error: Query timed out"}')), "gave up"),
])
def test_a_failing_service_is_one_tool_error_and_writes_nothing(overpass_server, tmp_path, replies, reason) -> None:
    overpass_server.then(*replies)
    with pytest.raises(ToolError, match=reason):
        fetched(tmp_path)
    assert PackStore(tmp_path).entries() == []


def test_an_oversized_answer_is_refused(overpass_server, tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(overpass, "MAX_BODY_BYTES", 2_000)
    with pytest.raises(ToolError, match="larger than"):
        fetched(tmp_path)
    assert PackStore(tmp_path).entries() == []


def test_cancel_stops_a_fetch_in_flight(overpass_server, tmp_path) -> None:
    from engine.errors import PlanCancelled
    from engine.cancel import CancelToken
    overpass_server.then(Reply(delay_s=1.5))
    token = CancelToken()

    async def run():
        asyncio.get_running_loop().call_later(0.3, token.cancel)
        return await fetcher(tmp_path).ensure(lisbon(), cancel=token)
    with pytest.raises(PlanCancelled):
        asyncio.run(run())
    assert PackStore(tmp_path).entries() == []


def test_ambiguous_names_list_candidates_and_a_country_settles_them() -> None:
    gazetteer = default_gazetteer()
    with pytest.raises(AmbiguousCityError) as caught:
        resolve_city("Córdoba", gazetteer)
    labels = [c.label for c in caught.value.candidates]
    assert {"Córdoba, AR", "Córdoba, ES"} <= set(labels)
    assert resolve_city("Córdoba, Spain", gazetteer).country == "ES"
    assert resolve_city("Lisbon", gazetteer).country == "PT"


def test_the_model_is_offered_a_shortlist_of_a_big_pack_city() -> None:
    from engine.llm.drafting import SHORTLIST, proposal_schema, trip_facts_document
    from engine.places.city_spec import CitySpec
    from engine.geo import BBox
    from engine.places.overpass import Answer
    from engine.places.pack_build import build_pack
    from engine.planning.inputs import gather
    from tests.data.osm.synthetic import synthetic_city
    spec = CitySpec(name="Chicago", country="US", admin1="IL", label="Chicago, IL, US", lat=41.8781, lon=-87.6298,
                    population=2_664_452, feature_id="test")
    answer = Answer.model_validate({"elements": synthetic_city()})
    pack = build_pack(spec, answer, box=BBox.from_swne(41.7, -87.85, 42.05, -87.45), tz="America/Chicago", currency="USD",
                      airports=[], fetched_at=datetime.now(timezone.utc), source_url="test")
    assert len(pack.places) > 2000
    session = PlanningSession(today=TODAY)
    from engine.places.pack import PackAirport
    ohare = PackAirport(iata="ORD", name="O'Hare", tz="America/Chicago", lat=41.9769, lon=-87.9049)
    name = session.use_city_pack(pack.model_copy(update={"airports": [ohare]}))
    intent = IntentV1.model_validate({
        "city": name, "date_window": {"start": "2027-05-10", "end": "2027-05-14", "tz": "America/Chicago"},
        "budget_usd_cents": 400000, "airports": ["ORD"], "origin_airport": "JFK", "prefs": {}})
    inputs = asyncio.run(gather(intent, session.toolbox))
    assert len(inputs.restaurants) > SHORTLIST
    schema = proposal_schema(inputs).model_json_schema()
    meal_enum = next(d for k, d in schema["$defs"].items() if k == "DraftDay")["properties"]["meals"]["items"]["enum"]
    assert len(meal_enum) == SHORTLIST
    assert len(trip_facts_document(inputs)["restaurants"]) == SHORTLIST


def test_the_gazetteer_completes_city_names_largest_first() -> None:
    gazetteer = default_gazetteer()
    assert gazetteer.complete("lisb")[0] == "Lisbon, PT"
    cordoba = gazetteer.complete("córd")
    assert cordoba[:2] == ["Córdoba, AR", "Córdoba, ES"]  # accents folded, by population
    assert gazetteer.complete("li") == [] and gazetteer.complete("qwxzb") == []
