"""The ``city_pack`` node and the intent of a city no fixture covers: a request made before the
pack was there (the app's form cannot know the city's airports or zone) is fitted to the pack
city once it is joined; a fixture city's request is never changed. Real pipeline, real Overpass
client against the stand-in on 127.0.0.1."""

from __future__ import annotations

import asyncio
from datetime import date

import pytest

from engine.errors import InputError
from engine.models import IntentV1
from engine.pipeline.run import PlanningSession
from engine.places.fetch import PackFetcher
from engine.places.pack_store import PackStore
from tests.overpass_standin import OverpassStandIn, Reply, load_lisbon

TODAY = date(2026, 11, 26)


@pytest.fixture()
def overpass_server(monkeypatch):
    server = OverpassStandIn(elements=load_lisbon()).start()
    monkeypatch.delenv("TRIPWRIGHT_OFFLINE", raising=False)
    monkeypatch.setenv("TRIPWRIGHT_OVERPASS_URL", server.interpreter_url)
    monkeypatch.setenv("TRIPWRIGHT_OVERPASS_TIMEOUT_S", "2")
    yield server
    server.stop()


def session_over(home) -> PlanningSession:
    session = PlanningSession(today=TODAY)
    session._packs = PackFetcher(PackStore(home), session.toolbox.network, session.toolbox.executor)
    return session


def intent(city: str, airports=("XXX",), tz: str = "UTC", origin: str = "JFK") -> IntentV1:
    return IntentV1.model_validate({
        "city": city, "date_window": {"start": "2027-05-10", "end": "2027-05-13", "tz": tz},
        "budget_usd_cents": 300000, "airports": list(airports), "origin_airport": origin})


def test_placeholder_airports_and_zone_become_the_pack_citys(overpass_server, tmp_path) -> None:
    session = session_over(tmp_path)
    result = asyncio.run(session.plan(intent("Lisbon")))
    assert result.status == "completed", result.failure
    planned = result.itinerary.intent
    assert planned.city == "Lisbon" and planned.airports == ["LIS"] and planned.date_window.tz == "Europe/Lisbon"
    assert planned.date_window.start == date(2027, 5, 10) and planned.origin_airport == "JFK"
    completed = [e for e in result.events if e.node == "city_pack" and e.status.value == "completed"]
    assert completed and "flying into LIS" in completed[0].decision_note
    flights = [a for day in result.itinerary.days for a in day.activities if a.kind.value == "flight"]
    assert flights and "LIS" in flights[0].name


def test_a_joined_pack_city_is_fitted_again_without_a_fetch(overpass_server, tmp_path) -> None:
    session = session_over(tmp_path)
    assert asyncio.run(session.plan(intent("Lisbon"))).status == "completed"
    again = asyncio.run(session.plan(intent("Lisbon, PT", airports=["OPO"], tz="Europe/Paris")))
    assert again.status == "completed", again.failure
    assert len(overpass_server.seen) == 2  # places and map once: the pack was joined, no second fetch
    planned = again.itinerary.intent
    assert (planned.city, planned.airports, planned.date_window.tz) == ("Lisbon", ["LIS"], "Europe/Lisbon")
    assert not [e for e in again.events if e.node == "city_pack"]


def test_the_intent_already_right_is_kept_as_it_is(overpass_server, tmp_path) -> None:
    session = session_over(tmp_path)
    asked = intent("Lisbon", airports=["LIS"], tz="Europe/Lisbon")
    result = asyncio.run(session.plan(asked))
    assert result.status == "completed" and result.itinerary.intent == asked
    completed = next(e for e in result.events if e.node == "city_pack" and e.status.value == "completed")
    assert "flying into" not in completed.decision_note


def test_a_fixture_citys_wrong_airport_is_still_an_error(tmp_path) -> None:
    session = session_over(tmp_path)
    with pytest.raises(InputError) as caught:
        asyncio.run(session.plan(intent("Paris", airports=["LIS"], tz="Europe/Paris")))
    assert caught.value.field == "airports"


def test_flying_from_the_pack_citys_only_airport_names_the_origin(overpass_server, tmp_path) -> None:
    session = session_over(tmp_path)
    with pytest.raises(InputError) as caught:
        asyncio.run(session.plan(intent("Lisbon", airports=["CDG"], origin="LIS")))
    assert caught.value.field == "origin_airport" and "LIS is Lisbon's own airport" in caught.value.message


def test_byte_counts_are_said_a_few_times_a_second_not_per_chunk(overpass_server, tmp_path) -> None:
    overpass_server.then(Reply(drip_bytes_per_s=10_000))  # ~1.5 s in 500-byte writes
    result = asyncio.run(session_over(tmp_path).plan(intent("Lisbon")))
    counts = [e for e in result.events if e.node == "city_pack" and "KB received" in (e.decision_note or "")]
    assert 2 <= len(counts) <= 10


def test_fx_is_asked_once_per_currency_and_the_packs_charges_use_the_runs_rate(overpass_server, tmp_path,
                                                                                monkeypatch) -> None:
    """Issue 30 §2: a city read from OpenStreetMap used to ask the FX tool three times (when the pack
    joined the catalog, when the tools were rebuilt, in the synthesizer). Now each currency is asked
    once and the answer handed on — so a pinned rate (an eval's or a chaos toggle's) reaches the
    pack's ``charge`` conversions as it reaches the rest of the plan."""
    from collections import Counter

    from engine.tools.fx import FixtureFX
    from engine.tools.toolbox import ToolOverrides
    asked: Counter = Counter()
    real = FixtureFX.rate

    def counted(self, request):
        asked[request.from_currency.upper()] += 1
        return real(self, request)
    monkeypatch.setattr(FixtureFX, "rate", counted)
    session = PlanningSession(today=TODAY, overrides=ToolOverrides(fx={"EUR": 2.0}))
    session._packs = PackFetcher(PackStore(tmp_path), session.toolbox.network, session.toolbox.executor)
    result = asyncio.run(session.plan(intent("Lisbon")))
    assert result.status == "completed", result.failure
    assert asked and set(asked.values()) == {1}, asked
    venues = session.catalog.city("Lisbon").raw.venues
    charged = [v for v in venues if not v.price_estimated and v.price > 0]
    assert charged and all(round(v.price / 2.0, 2) in {12.0, 8.0, 5.3, 10.0, 5.0} for v in charged)
