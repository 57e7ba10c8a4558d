"""Issue 30 §3, one front door for imports: the same saved-places file or confirmation gives the
same intent and the same one-line message through the app's path (app/import_merge.py, what File ▸
Import… and a drop run) and the CLI's (``plan --places`` / ``--bookings``, ``places import`` and
``bookings import``: engine/cli/saved_places_cmd.py, bookings_cmd.py). Offline, real files."""

from __future__ import annotations

import asyncio
from datetime import date
from pathlib import Path

import pytest

from app.import_merge import add_saved_places, read_bookings_into
from engine.catalog import default_catalog
from engine.cli.bookings_cmd import with_bookings
from engine.cli.saved_places_cmd import with_saved_places
from engine.errors import InputError
from engine.models import IntentV1, RoadTripIntent
from engine.pipeline import PlanningSession

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
PARIS = IntentV1.model_validate_json((ROOT / "docs" / "examples" / "paris.json").read_text(encoding="utf-8"))
BOOKED = IntentV1.model_validate_json((ROOT / "docs" / "examples" / "paris-booked.json").read_text(encoding="utf-8"))
PLACES = [DATA / "places" / name for name in
          ("paris_my_maps.kml", "Saved Places.json", "paris_places.csv", "paris_waypoints.gpx")] + \
    [ROOT / "docs" / "examples" / "paris-places.kml"]
BOOKINGS = [DATA / "bookings" / name for name in ("af_jfk_cdg.eml", "garnier_giselle.eml")]
ROAD = RoadTripIntent.model_validate({"origin": "Chicago, IL", "terminus": "Santa Monica, CA", "days": 8,
                                      "start_date": "2027-05-03", "route": "Route 66"})
TODAY = date(2026, 11, 23)


def no_model():
    raise AssertionError("these confirmations are read without a model")


@pytest.fixture(scope="module")
def session():
    mp = pytest.MonkeyPatch()
    mp.setenv("TRIPWRIGHT_OFFLINE", "1")
    yield PlanningSession(default_catalog(), today=TODAY)
    mp.undo()


def app_bookings(intent, path: Path, session):
    return asyncio.run(read_bookings_into(intent, path, no_model, session))[0]


def cli_line(capsys) -> str:
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1, lines
    return lines[0]


@pytest.mark.parametrize("path", PLACES, ids=lambda p: p.name)
def test_saved_places_make_the_same_intent_and_line_in_the_app_and_the_cli(path, session, capsys) -> None:
    app = add_saved_places(PARIS, path, session.catalog)
    capsys.readouterr()
    cli = with_saved_places(PARIS, str(path), session, verbose=True)
    assert app.added > 0 and len(cli.prefs.must_see) == app.added
    assert cli == app.intent
    assert cli_line(capsys) == f"tripwright: {app.line('Paris')}"
    assert "matched to Paris's places" in app.line("Paris")
    # the same file again adds nothing, in both
    again = add_saved_places(app.intent, path, session.catalog)
    assert again.added == 0 and again.intent == app.intent
    assert with_saved_places(cli, str(path), session, verbose=False) == cli


def test_a_place_saved_twice_in_two_files_is_one_must_see_in_both(session) -> None:
    first, second = DATA / "places" / "paris_my_maps.kml", DATA / "places" / "paris_places.csv"
    app = add_saved_places(add_saved_places(PARIS, first, session.catalog).intent, second, session.catalog).intent
    cli = with_saved_places(with_saved_places(PARIS, str(first), session, verbose=False), str(second), session,
                            verbose=False)
    assert cli == app
    ids = [m.place_id for m in app.prefs.must_see]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("path", BOOKINGS, ids=lambda p: p.name)
def test_bookings_make_the_same_intent_in_the_app_and_the_cli(path, session) -> None:
    app = app_bookings(PARIS, path, session)
    cli = with_bookings(PARIS, [str(path)], session, verbose=False)
    assert app.bookings is not None and not app.bookings.empty
    assert cli == app
    assert app_bookings(app, path, session) == app  # the same confirmation again changes nothing
    assert with_bookings(cli, [str(path)], session, verbose=False) == cli


def test_two_confirmations_make_the_same_intent_one_by_one_or_together(session) -> None:
    app = PARIS
    for path in BOOKINGS:
        app = app_bookings(app, path, session)
    assert with_bookings(PARIS, [str(p) for p in BOOKINGS], session, verbose=False) == app
    assert [f.flight_number for f in app.bookings.flights] == ["AF 23", "AF 22"]  # as the trip flies them


def same_error(app_call, cli_call, path: Path) -> str:
    with pytest.raises(InputError) as app_error:
        app_call()
    with pytest.raises(InputError) as cli_error:
        cli_call()
    assert cli_error.value.message == f"{path}: {app_error.value.message}"
    assert "\n" not in app_error.value.message
    return app_error.value.message


def test_a_flight_on_a_road_trip_is_the_same_error(session) -> None:
    road, path = ROAD, DATA / "bookings" / "af_jfk_cdg.eml"
    said = same_error(lambda: app_bookings(road, path, session),
                      lambda: with_bookings(road, [str(path)], session, verbose=False), path)
    assert said.startswith("flight AF 23 JFK\u2192CDG: a road trip plans no flights")


def test_a_second_hotel_is_the_same_error(session) -> None:
    path = DATA / "bookings" / "britania_microdata.eml"
    said = same_error(lambda: app_bookings(BOOKED, path, session),
                      lambda: with_bookings(BOOKED, [str(path)], session, verbose=False), path)
    assert said.startswith("a second hotel booking (") and "Jeanne d'Arc" in said


def test_a_booking_for_another_city_is_the_same_error(session) -> None:
    path = DATA / "bookings" / "tap_jfk_lis.eml"
    with pytest.raises(InputError) as app_error:
        app_bookings(PARIS, path, session)
    with pytest.raises(InputError) as cli_error:
        with_bookings(PARIS, [str(path)], session, verbose=False)
    assert cli_error.value.message == app_error.value.message and "LIS" in app_error.value.message


def test_saved_places_on_a_road_trip_are_the_same_error(session) -> None:
    road, path = ROAD, DATA / "places" / "paris_my_maps.kml"
    with pytest.raises(InputError) as app_error:
        add_saved_places(road, path, session.catalog)
    with pytest.raises(InputError) as cli_error:
        with_saved_places(road, str(path), session, verbose=False)
    assert cli_error.value.message == app_error.value.message
    assert app_error.value.message.startswith("saved places are planned on city trips")
